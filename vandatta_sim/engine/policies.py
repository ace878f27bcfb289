"""The heuristic policies: every decision a player makes (card, suit, stacking), side by side.

The comment below is the contract between a policy and the game (game.py asks, a policy picks);
the search player (search.py) decides its moves on top of a rollout policy from here.
"""

from __future__ import annotations

from ..cards import EIGHT, N_SUITS
from .layout import (
    AA_COUNTER, ACES, ALL_SUITS, C_ORDINARY_VALUE, C_VALUE, C_WEIGHTS, EIGHTS, EIGHTS_AT_MAX,
    EIGHTS_AT_SHIFT, HI, JOKERS, MAX_SEATS, ONE, OPT_EIGHTS_DUMP, ORDINARY, POL_EIGHT_DUMPER,
    N_WEIGHTS, POL_EXPERT, POL_KIND, POL_RANDOM, POL_SEARCH, R_ACE_EXTRA, R_ACE_ON_ACE,
    S_RESHUFFLES, W_ACE_FOLLOW, W_ACE_KEEP, W_ACE_THREAT, W_CARD_VALUE, W_DRAGGING,
    W_EIGHT_EARLY, W_EIGHT_LATE, W_EIGHT_LATE_AT, W_EIGHT_THREAT_RATIO, W_JOKER,
    W_NEXT_LACKS, W_PASS_AT, W_SUIT_LENGTH, ZERO)
from ._numba import _low_bit, _nth_bit, _popcount, inline, njit
from .primitives import (
    _bit, _hand_count, _is_joker, _rand_below, _rank_mask, _seat, _step, _suit, _suit_count,
    _suit_mask)

# ================================================================================================
# policies: every decision a player makes, side by side
# ================================================================================================
# A policy is its name in POLICIES (its number POL_* is the index there) and its branches in the
# decisions of this module; no other part of the kernel looks at a policy's number. The rules
# have decided what is allowed before a decision is asked for; the decision only picks:
#   _choose        which card to play from the mask of legal cards (none: -1); -1 = draw
#                  instead, which only a caller that passes ``may_pass`` (must_play off) accepts
#   _choose_suit   which suit to name after an eight or a super-eight joker, one of a set of
#                  suits (bit s = suit s) that the rules allow
#   _choose_stack  whether to go on stacking and with which card: one of a mask of same-rank
#                  cards that the rules let it stack, or -1 to stop
#   _min_opponent_for   what p's own move is told about the opponents' hand sizes
# A decision may read the player's own hand (H[p], H[HI + p]), the run's constants C (rules,
# scale) and what its arguments say (public facts: the hand size, the suits the next player has
# shown it lacks, the smallest opponent hand); it reads no other hand and not the talon. It
# changes no state, except that it may take numbers from the game's random stream
# (``_rand_below(H, k)``, as `random` does). A policy without a branch in a decision gets that
# decision's last lines, the shared default. A card decision breaks ties between equally valued
# cards at random (``_pick_tied``). Today's policies (docs/policies.md says more):
#   policy         card                                 suit                  stacking
#   random         a uniformly random legal card, or    the longest           the default
#                  a draw where passing is allowed
#   greedy         _greedy_pick: aces and jokers, then  the longest           the default
#                  the costliest ordinary, eights last
#   expert         _expert_pick: features times its     one the next player   the default, but
#                  seat's weights (layout.EXPERT_...);  lacks, else longest   never an eight
#                  it draws rather than play an eight
#                  early where it may
#   tuned:NAME     expert with weights of its own       as expert             as expert
#   expert:eights=dump   an eight if it may, else expert  as expert           the default
#   eight-dumper   an eight if it has one, else greedy  the longest           the default
NOT_COUNTED = MAX_SEATS  # min_opponent where it was not counted: "no opponent is on one card"
NO_FORCE = -2  # a move whose choice the policy makes (see _move)


@inline
def _best_suit(H, p, allowed_suits, prefer_suits):
    """Suit with most ordinary cards in hand among ``allowed_suits`` (ties: lowest suit);
    a suit in ``prefer_suits`` that the player holds wins over a longer one."""
    best = -1
    best_score = -1
    for s in range(N_SUITS):
        if not (allowed_suits >> s) & 1:
            continue
        k = _suit_count(H, p, _suit_mask(s) & ORDINARY)
        if k > 0 and (prefer_suits >> s) & 1:
            k += 100
        if k > best_score:
            best_score = k
            best = s
    return best


@inline
def _pick_tied(H, ties):
    """One card type of the mask ``ties`` (the equally valued best cards), uniformly at random
    from the game's stream, so that no rank gains value from the order of the card types."""
    k = _popcount(ties)
    return _low_bit(ties) if k == 1 else _nth_bit(ties, _rand_below(H, k))


@inline
def _strands(H, p, count, b):
    """Whether playing the card with bit ``b`` leaves p a hand of only specials (which must
    draw, where specials_only_must_draw, and can never go out)."""
    lo = H[p]
    rest_lo = lo if (H[HI + p] & b) else lo & ~b
    return count > 1 and (rest_lo & ORDINARY) == ZERO


STRANDED = 1 << 30  # a policy's value of a card that strands the hand: below every other card


@inline
def _greedy_pick(C, H, m, p, count):
    """greedy's card: jokers and aces first (its own valuation: everyone draws or the direction
    turns, whatever they score), then the ordinary card that would cost most points if caught
    with it (penalty risk, from the scale), eights last; never one that strands the hand with
    only specials while another card does not; ties at random."""
    best_value = -(1 << 40)
    ties = ZERO
    mm = m
    while mm:
        c = _low_bit(mm)
        mm &= mm - ONE
        b = _bit(c)
        if b & EIGHTS:
            value = -1
        elif b & (ACES | JOKERS):
            value = 1 << 20
        else:
            value = C[C_VALUE + c]
        if _strands(H, p, count, b):
            value -= STRANDED
        if value > best_value:
            best_value = value
            ties = b
        elif value == best_value:
            ties |= b
    return _pick_tied(H, ties)


@inline
def _weight(C, G, p, w):
    """Weight ``w`` (W_*) of the seat at position p: its row of expert's weights in C."""
    return C[C_WEIGHTS + _seat(G, p) * N_WEIGHTS + w]


@inline
def _eight_threatened(C, G, p, m, min_opponent):
    """Whether an opponent is close enough to going out for p's eights (of the legal mask
    ``m``) to be dumped: it holds at most k cards, k = the eight's cost in ordinary cards
    // eight_threat_ratio. The costlier the eight, the sooner a short opponent hand makes
    holding it a bad bet."""
    if min_opponent == NOT_COUNTED or not (m & EIGHTS):
        return False
    ratio = _weight(C, G, p, W_EIGHT_THREAT_RATIO)
    if ratio <= 0:
        return False
    cost = 100 * C[C_VALUE + _low_bit(m & EIGHTS)]  # hundredths, as C_ORDINARY_VALUE
    return min_opponent * ratio * max(C[C_ORDINARY_VALUE], 1) <= cost


def _into_the_move(call, caller, callee):
    """numba's inlining cost model for the expert's pick: inlined where the turn's move is
    decided (game._move, every turn of every game and playout: the call cost the expert about
    4% of its speed), called everywhere else (a duty's answer, an eight's follow-up, the search's
    baseline, the worlds' likelihoods), so that it is compiled into few places. ``caller`` is the
    function whose inlining pass meets the call: ``_choose`` is inlined into ``_move`` first."""
    return caller.func_id.func_name == "_move"


@njit(inline=_into_the_move)
def _expert_pick(C, G, H, m, p, count, next_lacks, min_opponent, threatened):
    """Seeds 000/002's advice: dump expensive cards early, keep eights for the end, play an ace
    when an opponent is on one card, never strand the hand with only specials (this comes
    before keeping eights: a hand of eights and one ordinary card sheds the eights), leave a
    suit the next player has shown it lacks and one the hand is long in. Measured on top of
    that: an ace that the hand can follow in its own suit is worth playing at once (two cards
    shed, every opponent draws), which is what lets `expert` beat `greedy`. Every number is a
    weight of the seat's row (EXPERT_WEIGHT_TABLE says which); ``threatened``: its eights are
    played like any card (_eight_threatened). Ties at random."""
    lo = H[p]
    best_score = -(1 << 40)
    ties = ZERO
    mm = m
    row = C_WEIGHTS + _seat(G, p) * N_WEIGHTS
    # all-expert tables of 6-10 players, and ace_draw=3, used to stall (half the 10-player
    # deals reached the turn cap): every ace made everyone draw what little was left, so the
    # cards went round and round. An ace the hand can follow is still played at once, but not
    # once the deal is dragging (measured: no capped deals at 2-10 players, and the same
    # strength at 4 and 6 players).
    dragging = G[S_RESHUFFLES] >= C[row + W_DRAGGING]
    while mm:
        c = _low_bit(mm)
        mm &= mm - ONE
        b = _bit(c)
        rest_lo = lo if (H[HI + p] & b) else lo & ~b
        score = C[C_VALUE + c] * C[row + W_CARD_VALUE]  # dump expensive cards early
        if b & EIGHTS:
            if not threatened:  # keep eights for the end
                score += C[row + W_EIGHT_EARLY] if count > C[row + W_EIGHT_LATE_AT] else C[
                    row + W_EIGHT_LATE]
        elif b & JOKERS:
            score += C[row + W_JOKER]
        elif b & ACES:
            if min_opponent == 1:
                score += C[row + W_ACE_THREAT]  # an opponent on one card must draw
            elif (C[R_ACE_EXTRA] and C[R_ACE_ON_ACE] != AA_COUNTER and not dragging
                  and (rest_lo & _suit_mask(_suit(c)) & ~EIGHTS)):
                score += C[row + W_ACE_FOLLOW]  # everyone draws, and its suit can follow
            else:
                score += C[row + W_ACE_KEEP]  # keep it for an opponent on one card
        if _strands(H, p, count, b):
            score -= STRANDED  # never strand the hand with only specials
        if not _is_joker(c):
            s = _suit(c)
            score += C[row + W_SUIT_LENGTH] * _suit_count(H, p, _suit_mask(s) & ORDINARY)
            if (next_lacks >> s) & 1:
                score += C[row + W_NEXT_LACKS]
        if score > best_score:
            best_score = score
            ties = b
        elif score == best_score:
            ties |= b
    return _pick_tied(H, ties)


@inline
def _choose(C, G, H, pol, m, may_pass, p, count, next_lacks, min_opponent):
    """The card type policy ``pol`` plays from legal mask ``m``; -1 to draw instead
    (only offered when ``may_pass``, i.e. must_play is off). ``count`` is p's hand size,
    ``next_lacks`` the suits the next player has shown it lacks, ``min_opponent`` the smallest
    opponent hand or NOT_COUNTED. (A search player's moves are decided in _turn_loop, which
    hands what the search leaves open to its rollout policy.)"""
    if m == ZERO:
        return -1
    kind = pol & POL_KIND
    if kind == POL_RANDOM:
        k = _popcount(m)
        j = _rand_below(H, k + 1 if may_pass else k)
        return -1 if j == k else _nth_bit(m, j)
    if not may_pass and (m & (m - ONE)) == ZERO:
        return _low_bit(m)  # one legal card and no draw instead: every other policy plays it
    if (m & EIGHTS) and (kind == POL_EIGHT_DUMPER or (kind == POL_EXPERT and (
            (pol & OPT_EIGHTS_DUMP) or count <= _eights_at(pol)))):
        return _pick_tied(H, m & EIGHTS)
    if kind == POL_EXPERT:
        threatened = _eight_threatened(C, G, p, m, min_opponent)
        c = _expert_pick(C, G, H, m, p, count, next_lacks, min_opponent, threatened)
        if (may_pass and (_bit(c) & EIGHTS) and count > _weight(C, G, p, W_PASS_AT)
                and not threatened
                and 2 * _suit_count(H, p, ORDINARY) >= count):  # specials do not crowd the hand
            return -1  # keep the eight for the end: draw instead, unless specials crowd the hand
        return c
    return _greedy_pick(C, H, m, p, count)


@inline
def _choose_suit(H, pol, p, allowed_suits, next_lacks):
    """The suit policy ``pol`` names, one of ``allowed_suits``; ``next_lacks`` as for _choose."""
    # the expert leaves the next player stuck
    kind = pol & POL_KIND
    prefer = next_lacks if kind == POL_EXPERT or kind >= POL_SEARCH else 0
    return _best_suit(H, p, allowed_suits, prefer)


@inline
def _eights_at(pol):
    """K of expert:eights=K (0 where not set): it plays eights once its hand has at most K."""
    return (pol >> EIGHTS_AT_SHIFT) & EIGHTS_AT_MAX


@inline
def _choose_stack(H, pol, p, rank, same):
    """The next card policy ``pol`` stacks from ``same``, p's cards of the ``rank`` it just
    played that the rules let it stack; -1 to stop."""
    if (rank == EIGHT and (pol & POL_KIND) == POL_EXPERT and not (pol & OPT_EIGHTS_DUMP)
            and _hand_count(H, p) > _eights_at(pol)):
        return -1  # the expert keeps its eights for the end (expert:eights=dump stacks them)
    # the last card of a stack sets the suit, so the stack ends on the suit p is longest in
    card = _low_bit(same)
    if _suit(card) == _best_suit(H, p, ALL_SUITS, 0) and _suit_count(H, p, _rank_mask(rank)) > 1:
        others = same & ~_bit(card)
        if others:
            card = _low_bit(others)
    return card


@inline
def _min_opponent(H, p, n):
    """The smallest hand among p's opponents. Walked round the table from p: LLVM vectorised a
    counted loop over the positions with AVX-512, whose set-up for 2-10 positions took 5% of
    the samples in a profile of the expert (the A/B measured no change in speed)."""
    best = 1 << 20
    q = _step(p, 1, n)
    while q != p:
        best = min(best, _hand_count(H, q))
        q = _step(q, 1, n)
    return best


@inline
def _min_opponent_for(H, pol, p, n, m):
    """min_opponent for p's own move from legal mask ``m``: counted only for the policy that
    reads it, and only where it has an ace or an eight to play, the only cards whose value it
    changes (a loop over the seats that the other moves need not pay for)."""
    if (pol & POL_KIND) == POL_EXPERT and (m & (ACES | EIGHTS)):
        return _min_opponent(H, p, n)
    return NOT_COUNTED
