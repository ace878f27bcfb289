"""One deal under the rules: the talon and draws, what is legal, playing a card with all its
effects, a move, a turn, the start card and the deal.

The turn loop asks policies.py for every choice, and ``decide`` for a searching seat's move:
the function the kernel hands down (kernels.py: ``search.search_move`` in the kernels that play
search seats, ``no_search`` in the heuristic kernels and the search's own playouts). So this
module never imports search.py, and nothing is filled in behind its back at import time: numba
compiles the turn loop once for each ``decide`` it is given."""

from __future__ import annotations

import numpy as np

from ..cards import ACE, EIGHT, N_DECK_TYPES, N_SUITS, TWO
from .layout import (
    AA_COUNTER, AA_FORBIDDEN, ACES, ALL_SUITS, CALL_OPTIONS, CAUSE_ACE, CAUSE_CALL,
    CAUSE_COUNTER, CAUSE_DRAW, CAUSE_START_ACE, CAUSE_TWO, C_FORGET, C_POL, DK_CALL, DK_DUTY,
    DK_FOLLOW, DK_MOVE, DK_STACK, DK_SUIT, C_SCALE, C_SCRIPT, C_SCRIPT_LEN,
    EFF_ACE, EFF_ANY, EFF_EIGHT, EFF_ORDINARY, EIGHTS, END_BLOCKED, END_CAPPED, END_WON, EV_BURY,
    EV_CALL, EV_DEAL, EV_DRAW, EV_END_DEAL, EV_NAME_SUIT, EV_NEW_DEAL, EV_PASS, EV_PLAY,
    EV_RESHUFFLE, EV_START, EV_SWAP, EV_TURN, G_DISCARD, G_LACKS, G_POINTS, G_TALON, HI, H_RNG,
    H_SIZE, JK_DRAW_TWO, JK_REVERSE, JOKERS, ONE, ORDINARY, POL_KIND, POL_SEARCH, ROLLOUT_KIND,
    R_ACE_DRAW, R_ACE_EXTRA, R_ACE_ON_ACE, R_ACE_ON_EIGHT, R_CALL_AT, R_CALL_PENALTY, R_DECKS,
    R_DRAW_LIMIT, R_EIGHT_ON_ACE, R_EIGHT_ON_EIGHT, R_EIGHT_SAME, R_HAND, R_JOKERS,
    R_JOKER_EFFECT, R_LAST_START_SUIT, R_MUST_PLAY, R_OUT_ON_SPECIAL, R_RESHUFFLES,
    R_SPECIALS_DRAW, R_STACKING, R_START_ACE, R_START_EIGHT, R_TWO_DRAWS_TWO,
    SA_ALL_BUT_DEALER, SA_BURY, SA_DEALER, SEARCH_ROLLOUT_SHIFT, SE_BURY, SE_DEALER,
    S_CALL_FORGOT, S_DEAL_NO, S_DIR, S_DRAWS, S_DUTY_ACE, S_DUTY_TWO, S_EFF, S_FORCE_SUIT,
    S_ND, S_NO_STACK, S_NT, S_PLAYS, S_RANK, S_RESHUFFLES, S_SCRIPTED, S_START_SUIT, S_SUIT,
    S_SWAPPED, S_TOP_JOKER, S_TURNS, TURN_CAP, TWOS, ZERO)
from ._numba import (
    NOTHING_FROZEN, _keep_alive, _low_bit, _nth_bit, _popcount, _unchecked, _unchecked_rules,
    inline, njit)
from .primitives import (
    MIX2, U11, _bit, _decide, _emit, _hand_add, _hand_count, _hand_remove, _is_joker, _mix64,
    _next_u64, _rand_below, _rank, _rank_mask, _script_takes, _scripted_take, _seat,
    _seed_rng, _step, _stopped, _suit, _suit_count, _suit_mask)
from .policies import (
    NOT_COUNTED, NO_FORCE, _choose, _choose_stack, _choose_suit, _min_opponent_for)
from .feel import _feel_move, _feel_new_deal, _feel_turn_end, _feel_turn_start
from .bookkeeping import (
    _note_choice, _note_draw, _note_failure, _note_named, _note_new_hand, _note_play,
    _note_reshuffle)


# ================================================================================================
# talon and draws
# ================================================================================================

@inline
def _take(G, H):
    """Remove and return a uniformly random card of the talon (which must not be empty);
    in a scripted deal, the top card (the end of the talon array); in a step's world that
    scripts its takes, the next card of the script."""
    nt = G[S_NT]
    if G[S_SCRIPTED] == 0:
        j = _rand_below(H, nt)
    elif G[S_SCRIPTED] == 1:
        j = nt - 1
    else:
        j = _scripted_take(G, H, nt)
    card = G[G_TALON + j]
    G[G_TALON + j] = G[G_TALON + nt - 1]
    G[S_NT] = nt - 1
    return card


@inline
def _draw(C, G, H, tr, p, cause):
    """Player p draws one card (reshuffling the discards if allowed); -1 if nothing to draw."""
    if G[S_NT] == 0:
        nd = G[S_ND]
        if nd <= 1 or (C[R_RESHUFFLES] >= 0 and G[S_RESHUFFLES] >= C[R_RESHUFFLES]):
            return -1
        for k in range(nd - 1):
            G[G_TALON + k] = G[G_DISCARD + k]
        G[G_DISCARD + 0] = G[G_DISCARD + nd - 1]
        G[S_ND] = 1
        G[S_NT] = nd - 1
        G[S_RESHUFFLES] += 1
        _note_reshuffle(G, tr)
        _emit(G, tr, EV_RESHUFFLE, -1, nd - 1, 0)
    card = _take(G, H)
    _hand_add(H, p, card)
    _note_draw(G, tr, p)
    G[S_DRAWS] += 1
    _emit(G, tr, EV_DRAW, _seat(G, p), card, cause)
    return card


@inline
def _draw_n(C, G, H, tr, p, n, cause):
    got = 0
    for _ in range(n):
        if _draw(C, G, H, tr, p, cause) < 0:
            break
        got += 1
    return got


# ================================================================================================
# legality
# ================================================================================================
@inline
def _last_card_mask(C, G):
    """Cards allowed to empty the hand (RULES: no special unless out_on_special; start suit)."""
    m = ~ZERO
    if not C[R_OUT_ON_SPECIAL]:
        m = ORDINARY
    if C[R_LAST_START_SUIT] and G[S_START_SUIT] < N_SUITS:  # a kept start joker has no suit
        m &= _suit_mask(G[S_START_SUIT])
    return m


@inline
def _shown_to(C, G, playable, count):
    """What a hand of ``count`` cards that could not play shows it lacks: the types of
    ``playable``, of them only those that may end a hand where it holds one card."""
    return playable & _last_card_mask(C, G) if count == 1 else playable


@inline
def _on_eight_mask(C, suit):
    """Non-eight cards that may follow an eight-like top of ``suit``."""
    m = _suit_mask(suit) & ORDINARY
    if C[R_ACE_ON_EIGHT]:
        m |= _suit_mask(suit) & ACES
    return m


@inline
def _follow_ups(C, G, lo, count):
    """Cards that could follow this player's own eight under eight_follow=same_player."""
    f = lo & (ORDINARY | (ACES if C[R_ACE_ON_EIGHT] else ZERO))
    if count == 2:  # eight + follow-up: the follow-up empties the hand
        f &= _last_card_mask(C, G)
    return f


@inline
def _on_top(C, G):
    """Mask of the card types that the top of the pile accepts (before the hand's own limits)."""
    eff = G[S_EFF]
    suit = G[S_SUIT]
    if eff == EFF_ORDINARY:
        m = _suit_mask(suit) | _rank_mask(G[S_RANK]) | EIGHTS
        if not G[S_TOP_JOKER]:
            m |= JOKERS
    elif eff == EFF_ANY:
        m = ORDINARY | EIGHTS | ACES
    elif eff == EFF_ACE:
        m = _suit_mask(suit) & ORDINARY
        if C[R_ACE_ON_ACE] != AA_FORBIDDEN:
            m |= ACES
        if C[R_EIGHT_ON_ACE]:
            m |= EIGHTS
    else:
        m = _on_eight_mask(C, suit)
        if C[R_EIGHT_ON_EIGHT]:
            m |= EIGHTS
    return m


@inline
def _legal(C, G, lo, count, on_top):
    """Mask of the card types among ``on_top`` that hand ``lo`` (``count`` cards) may play."""
    m = on_top & lo
    if C[R_SPECIALS_DRAW] and (lo & ORDINARY) == ZERO:
        return ZERO
    if count == 1:
        m &= _last_card_mask(C, G)
    if C[R_EIGHT_SAME] and (m & EIGHTS) and not (count == 1 and C[R_OUT_ON_SPECIAL]):
        if _follow_ups(C, G, lo, count) == ZERO:
            m &= ~EIGHTS
    return m


# ================================================================================================
# playing cards
# ================================================================================================
@inline
def _set_top(G, card):
    b = _bit(card)
    G[S_TOP_JOKER] = 1 if b & JOKERS else 0
    if b & JOKERS:
        return
    G[S_SUIT] = _suit(card)
    G[S_RANK] = _rank(card)
    G[S_EFF] = EFF_ACE if b & ACES else EFF_ORDINARY


@inline
def _place(C, G, H, tr, p, card):
    """Move ``card`` from p's hand to the pile; returns the hand size left.
    Emits PLAY and, when this card made a call due, CALL."""
    before = _hand_count(H, p)
    _hand_remove(H, p, card)
    G[G_DISCARD + G[S_ND]] = card
    G[S_ND] += 1
    G[S_PLAYS] += 1
    _emit(G, tr, EV_PLAY, _seat(G, p), card, 0)
    if not _is_joker(card):
        G[G_LACKS + p] &= ~(1 << _suit(card))
    left = before - 1
    _note_play(G, tr, p, card, left)
    if before > C[R_CALL_AT] and 1 <= left <= C[R_CALL_AT]:
        threshold = C[C_FORGET + _seat(G, p)]
        forgot = threshold > 0 and np.int64(_next_u64(H) >> U11) < threshold
        forgot = _decide(C, G, H, tr, C[C_POL + _seat(G, p)], DK_CALL, p, CALL_OPTIONS, False,
                         0 if forgot else 1) == 0
        if forgot:
            G[S_CALL_FORGOT] = 1
        _emit(G, tr, EV_CALL, _seat(G, p), 0 if forgot else 1, 0)
    return left


@njit
def _ace_draws(C, G, H, tr, p, n):
    """Every other player draws ace_draw cards, in the direction of play from the ace's player."""
    q = p
    for _ in range(1, n):
        q = _step(q, G[S_DIR], n)
        _draw_n(C, G, H, tr, q, C[R_ACE_DRAW], CAUSE_ACE)


@inline
def _name(C, G, H, tr, pol, p, allowed_suits, next_lacks):
    suit = G[S_FORCE_SUIT]  # the search player's choice, made with the card
    if suit < 0 or not (allowed_suits >> suit) & 1:
        suit = _choose_suit(H, pol, p, allowed_suits, next_lacks)
    suit = _decide(C, G, H, tr, pol, DK_SUIT, p, allowed_suits, False, suit)
    _note_named(G, H, tr, p, suit, allowed_suits, next_lacks)
    G[S_EFF] = EFF_EIGHT
    G[S_SUIT] = suit
    _emit(G, tr, EV_NAME_SUIT, _seat(G, p), suit, 0)
    return suit


@inline
def _stack_next(C, G, H, tr, pol, p, rank):
    """The next card p stacks on a card of ``rank`` it just played, or -1 to stop: the
    policy's choice among the cards that the rules let it stack."""
    if not C[R_STACKING] or G[S_NO_STACK]:
        return -1
    same = H[p] & _rank_mask(rank)
    if same == ZERO:
        return -1
    rest = _hand_count(H, p)
    if rest == 1 and not (same & _last_card_mask(C, G)):  # ``same`` is that one card
        return -1
    if rank == EIGHT and C[R_EIGHT_SAME] and rest > 1 and _follow_ups(C, G, H[p], rest) == ZERO:
        return -1  # an eight now would leave no follow-up card
    return _decide(C, G, H, tr, pol, DK_STACK, p, same, True,
                   _choose_stack(H, pol, p, rank, same))


@njit
def _follow_up(C, G, H, pol, p, m, next_lacks):
    """The card p follows its eight up with (eight_follow=same_player), from the legal mask
    ``m``: a call of its own, so that the turn loop holds one copy of the policies' decision
    (a second one cost every kernel compile time; these rules are rarely played)."""
    return _choose(C, G, H, pol, m, False, p, _hand_count(H, p), next_lacks, NOT_COUNTED)


@inline
def _play_card(C, G, H, tr, pol, p, n, card):
    """Play ``card`` (already known to be legal) with stacking, naming and all its effects.
    Returns 2 if the hand is now empty, 1 if the player moves again (ace), else 0.
    (Written as one loop with one call of each helper so that inlining stays small.)"""
    nxt = _step(p, G[S_DIR], n)
    while True:  # one round per card placed: stacked cards and an eight's follow-up too
        if _place(C, G, H, tr, p, card) == 0:
            return 2  # the deal ends at once; the card's effect no longer matters
        rank = -1
        name_suits = 0  # suits the player may name now (0: nothing to name)
        follow = ZERO  # same-player follow-up cards after an eight
        if _bit(card) & JOKERS:
            G[S_TOP_JOKER] = 1  # the card under the joker stays in force for matching
            effect = C[R_JOKER_EFFECT]
            if effect == JK_REVERSE:
                G[S_DIR] = -G[S_DIR]
            elif effect == JK_DRAW_TWO:
                G[S_DUTY_TWO] += 2
            else:
                name_suits = ALL_SUITS
        else:
            rank = _rank(card)
            _set_top(G, card)
            if rank == ACE:
                if C[R_ACE_ON_ACE] == AA_COUNTER:
                    G[S_DUTY_ACE] += C[R_ACE_DRAW]
                else:
                    _ace_draws(C, G, H, tr, np.int64(p), np.int64(n))
            elif rank == TWO and C[R_TWO_DRAWS_TWO]:
                G[S_DUTY_TWO] += 2
            stacked = _stack_next(C, G, H, tr, pol, p, rank)
            if stacked >= 0:
                card = stacked
                continue
            if rank == EIGHT:
                name_suits = ALL_SUITS
                if C[R_EIGHT_SAME]:
                    follow = _follow_ups(C, G, H[p], _hand_count(H, p) + 1)
                    name_suits = 0
                    for s in range(N_SUITS):
                        if follow & _suit_mask(s):
                            name_suits |= 1 << s
        if name_suits:
            suit = _name(C, G, H, tr, pol, p, name_suits, G[G_LACKS + nxt])
            if rank == EIGHT and C[R_EIGHT_SAME]:
                follows = follow & _suit_mask(suit)
                card = _decide(C, G, H, tr, pol, DK_FOLLOW, p, follows, False,
                               _follow_up(C, G, H, pol, np.int64(p), follows, G[G_LACKS + nxt]))
                continue  # the same player follows up in the named suit
            return 0
        if rank == ACE and C[R_ACE_EXTRA] and C[R_ACE_ON_ACE] != AA_COUNTER:
            return 1
        return 0


# ================================================================================================
# a move, a turn, a deal
# ================================================================================================
@inline
def _move(C, G, H, tr, pol, p, n, forced):
    """One move of player p: the card it plays from hand, or else it draws; returns the drawn
    card if that one is to be played, or -1 after a pass. ``forced`` (a card, or -1 to draw)
    replaces the policy's choice in a search player's playouts; NO_FORCE otherwise."""
    count = _hand_count(H, p)
    on_top = _on_top(C, G)  # the top does not change while p draws
    m = _legal(C, G, H[p], count, on_top)
    _feel_move(G, tr, p, m, m == ZERO or not C[R_MUST_PLAY])
    if forced != NO_FORCE:
        card = forced
    else:
        nxt = _step(p, G[S_DIR], n)
        min_opp = _min_opponent_for(H, pol, p, n, m)
        card = _choose(C, G, H, pol, m, not C[R_MUST_PLAY], p, count, G[G_LACKS + nxt],
                       min_opp)
        card = _decide(C, G, H, tr, pol, DK_MOVE, p, m, m == ZERO or not C[R_MUST_PLAY], card)
    if card >= 0:
        _note_choice(G, H, tr, p, n, card, count)
        return card
    if m == ZERO:
        G[G_LACKS + p] |= 1 << G[S_SUIT]  # seen by everyone: it could not follow this suit
        _note_failure(C, G, tr, p, _shown_to(C, G, on_top, count), count)
    drawn = 0
    limit = C[R_DRAW_LIMIT]
    while limit == 0 or drawn < limit:
        card = _draw(C, G, H, tr, p, CAUSE_DRAW)
        if card < 0:
            break
        drawn += 1
        count += 1
        if _legal(C, G, H[p], count, on_top & _bit(card)):  # only the drawn card may be played
            return card
    _emit(G, tr, EV_PASS, _seat(G, p), 0, 0)
    return -1


@njit
def policy_choice_nb(constants, G_memory, H_memory, p, n):
    """The card the policy of position p plays in the state (G, H) (-1: it draws), as _move
    asks it: for tests of a decision, e.g. that it responds to what a card is believed to cost."""
    C = _unchecked_rules(constants, NOTHING_FROZEN)
    G = _unchecked(G_memory)
    H = _unchecked(H_memory)
    pol = C[C_POL + _seat(G, p)]
    count = _hand_count(H, p)
    m = _legal(C, G, H[p], count, _on_top(C, G))
    nxt = _step(p, G[S_DIR], n)
    card = _choose(C, G, H, pol, m, not C[R_MUST_PLAY], p, count, G[G_LACKS + nxt],
                   _min_opponent_for(H, pol, p, n, m))
    _keep_alive(constants, G_memory)
    _keep_alive(H_memory, H_memory)
    return card


@inline
def _duty_answers(C, G, H, p):
    """The cards with which p may answer the pending duty (counter-aces or twos)."""
    answers = H[p] & ACES if G[S_DUTY_ACE] > 0 else (H[p] & TWOS if C[R_TWO_DRAWS_TWO] else ZERO)
    if _hand_count(H, p) == 1:
        answers &= _last_card_mask(C, G)
    if C[R_SPECIALS_DRAW] and (H[p] & ORDINARY) == ZERO:
        answers = ZERO  # a hand of only specials has no legal play, not even an answer
    return answers


@njit
def _answer_duty(C, G, H, tr, pol, p, n, forced):
    """A pending counter-ace or two duty: the ace / two that answers it, or else p draws the
    whole duty, passes, and -1 is returned. ``forced`` as for _move."""
    answers = _duty_answers(C, G, H, p)
    _feel_move(G, tr, p, answers, answers == ZERO or not C[R_MUST_PLAY])
    cause = CAUSE_COUNTER if G[S_DUTY_ACE] > 0 else CAUSE_TWO
    count = _hand_count(H, p)
    nxt = _step(p, G[S_DIR], n)
    card = forced if forced != NO_FORCE else _decide(
        C, G, H, tr, pol, DK_DUTY, p, answers, answers == ZERO or not C[R_MUST_PLAY], _choose(
            C, G, H, pol, answers, not C[R_MUST_PLAY], p, count, G[G_LACKS + nxt], NOT_COUNTED))
    if card >= 0:
        return card
    if answers == ZERO:
        _note_failure(C, G, tr, p, _shown_to(C, G, ACES if G[S_DUTY_ACE] > 0 else (
            TWOS if C[R_TWO_DRAWS_TWO] else ZERO), count), count)
    duty = G[S_DUTY_ACE] + G[S_DUTY_TWO]
    G[S_DUTY_ACE] = 0
    G[S_DUTY_TWO] = 0
    _draw_n(C, G, H, tr, p, duty, cause)
    _emit(G, tr, EV_PASS, _seat(G, p), 0, 0)
    return -1


@inline
def _hand_points(C, lo, hi):
    total = 0
    while lo:
        total += C[C_SCALE + _low_bit(lo)]
        lo &= lo - ONE
    while hi:
        total += C[C_SCALE + _low_bit(hi)]
        hi &= hi - ONE
    return total


@njit
def _swap_in(G, H, tr, q, rank):
    """Swap experiment: exchange one of q's ordinary cards (of another rank) for a card of
    ``rank`` from the talon. Uses random numbers of its own, so that the game's stream is where
    it is in the unswapped game; later draws and choices part ways as soon as the two hands are
    played differently (eight-value.md measures how much the paired games still share)."""
    out_mask = H[q] & ORDINARY & ~_rank_mask(rank)
    n_in = 0
    for j in range(G[S_NT]):
        if _rank(G[G_TALON + j]) == rank and not _is_joker(G[G_TALON + j]):
            n_in += 1
    if out_mask == ZERO or n_in == 0:
        return
    side = np.empty(H_SIZE, np.uint64)
    _seed_rng(side, _mix64(H[H_RNG] ^ MIX2))
    out_card = _nth_bit(out_mask, _rand_below(side, _popcount(out_mask)))
    k = _rand_below(side, n_in)
    for j in range(G[S_NT]):
        if _rank(G[G_TALON + j]) == rank and not _is_joker(G[G_TALON + j]):
            if k == 0:
                in_card = G[G_TALON + j]
                G[G_TALON + j] = out_card
                _hand_remove(H, q, out_card)
                _hand_add(H, q, in_card)
                G[S_SWAPPED] = 1
                _emit(G, tr, EV_SWAP, _seat(G, q), out_card, in_card)
                return
            k -= 1


@inline
def _stays(C, card):
    """May ``card`` stay as the start card (it is not one the rules bury)?"""
    b = _bit(card)
    return not ((b & JOKERS) or ((b & EIGHTS) and C[R_START_EIGHT] == SE_BURY) or (
        (b & ACES) and C[R_START_ACE] == SA_BURY))


@inline
def _talon_holds_one_that_stays(C, G):
    for j in range(G[S_NT]):
        if _stays(C, G[G_TALON + j]):
            return True
    return False


@njit
def _start_card(C, G, H, tr, n):
    card = _take(G, H)
    _emit(G, tr, EV_START, -1, card, 0)
    # bury and turn again while the talon holds a card that could stay (rule 4); each turn
    # draws at random, so this ends (a scripted pack turns its cards in order)
    while not _stays(C, card) and _talon_holds_one_that_stays(C, G):
        again = _take(G, H)
        if G[S_SCRIPTED] == 1:  # a scripted pack is ordered: the buried card goes to the bottom
            for j in range(G[S_NT], 0, -1):
                G[G_TALON + j] = G[G_TALON + j - 1]
            G[G_TALON] = card
        else:  # back into the talon; draws take a random card anyway
            G[G_TALON + G[S_NT]] = card
        G[S_NT] += 1
        _emit(G, tr, EV_BURY, -1, card, 0)
        _emit(G, tr, EV_START, -1, again, 0)
        card = again
    G[G_DISCARD + 0] = card
    G[S_ND] = 1
    b = _bit(card)
    _set_top(G, card)
    if not _stays(C, card):  # kept as a plain card: no effect, and no joker goes on it
        G[S_TOP_JOKER] = 1
        G[S_EFF] = EFF_ORDINARY  # a kept ace asks for its suit or rank, not as a played ace
        if b & JOKERS:  # nothing to match: any card but a joker
            G[S_EFF] = EFF_ANY
            G[S_SUIT] = 0
            G[S_RANK] = 0
    elif b & EIGHTS:
        namer = n - 1 if C[R_START_EIGHT] == SE_DEALER else 0
        _name(C, G, H, tr, C[C_POL + _seat(G, namer)], namer, ALL_SUITS, G[G_LACKS + 0])
    elif b & ACES:
        mode = C[R_START_ACE]
        first = n - 1 if mode == SA_DEALER else 0
        last = n - 2 if mode == SA_ALL_BUT_DEALER else n - 1
        for q in range(first, last + 1):
            _draw_n(C, G, H, tr, q, C[R_ACE_DRAW], CAUSE_START_ACE)
    # a kept joker sets no start suit (last_card_start_suit)
    G[S_START_SUIT] = N_SUITS if G[S_EFF] == EFF_ANY else G[S_SUIT]


@njit
def _script_talon(C, G):
    """Order the talon so that the scripted cards come off the top first, in script order
    (the rest of the pack follows in a fixed order). Used by scenario tests."""
    nt = G[S_NT]
    n_script = C[C_SCRIPT_LEN]
    rest = nt
    for i in range(n_script):  # move each scripted card to the end of the unscripted part
        card = C[C_SCRIPT + i]
        for j in range(rest):
            if G[G_TALON + j] == card:
                G[G_TALON + j] = G[G_TALON + rest - 1]
                G[G_TALON + rest - 1] = card
                rest -= 1
                break
    # script[0] now sits at the end of the array, the top of the talon, script[1] below it, …
    G[S_SCRIPTED] = 1


@njit
def no_search(C, G, H, tr, p, n, duty):
    """``decide`` where no seat searches (heuristic runs, playouts): nothing is chosen, the
    seat's rollout policy plays (a search seat's choice, from ``search.search_move``, is a
    card, -1 to draw or take the duty, or NO_FORCE, with its suit and stacking left in G)."""
    return NO_FORCE


@inline
def _turn_loop(C, G, H, tr, n, p, max_turns, forced, first_duty, decide):
    """Turns from position p's on until the deal ends or ``max_turns`` turns are played: the
    winner's position (-1 blocked, -2 capped), the END_* reason and the turns played.

    With ``forced`` (not NO_FORCE) p's turn is under way: its first move is that choice (and
    the suit and stacking in G[S_FORCE_SUIT], G[S_NO_STACK]), an answer to a duty when
    ``first_duty``. That is how a search player's playout continues a decision it is weighing;
    a deal starts with NO_FORCE. One function for both. Inlined into the deal, where its
    arguments are constants that fold away the resume and forcing branches (as a call of its
    own, engine versions 4-6, it cost a heuristic batch a quarter of its speed); the playouts
    call it through ``_playout_turns``. ``decide``: the searching seats' choice (see the
    module's docstring)."""
    idle = 0
    result = -2
    reason = END_CAPPED
    turns = 0
    resume = forced != NO_FORCE
    while turns < max_turns:
        turns += 1
        plays, draws = G[S_PLAYS], G[S_DRAWS]
        pol = C[C_POL + _seat(G, p)]
        if resume:
            duty = first_duty != 0
        else:
            _emit(G, tr, EV_TURN, _seat(G, p), 0, 0)
            _feel_turn_start(G, tr)
            G[S_CALL_FORGOT] = 0
            duty = G[S_DUTY_ACE] > 0 or G[S_DUTY_TWO] > 0
        status = 1
        while status == 1:  # an ace's extra turn is another move
            move_pol = pol
            if forced == NO_FORCE and (pol & POL_KIND) >= POL_SEARCH:
                # int64, not the literal 0 a position starts at: numba compiles a call for
                # each literal it meets, and the search is a large call
                forced = decide(C, G, H, tr, np.int64(p), np.int64(n), duty)
                # what the search leaves open (all of the move, where it keeps its rollout
                # policy's choice) its rollout policy decides
                move_pol = (pol >> SEARCH_ROLLOUT_SHIFT) & ROLLOUT_KIND
            if duty:
                card = _answer_duty(C, G, H, tr, move_pol, np.int64(p), np.int64(n), forced)
                duty = False
            else:
                card = _move(C, G, H, tr, move_pol, p, n, forced)
            forced = NO_FORCE
            status = _play_card(C, G, H, tr, move_pol, p, n, card) if card >= 0 else 0
            G[S_FORCE_SUIT] = -1  # a search player's choices hold for the one move
            G[S_NO_STACK] = 0
        if _stopped(C, G, tr):
            break  # the step: an external seat's decision waits (the deal reads as capped)
        resume = False
        if status != 2 and G[S_CALL_FORGOT]:
            _draw_n(C, G, H, tr, p, C[R_CALL_PENALTY],
                    CAUSE_CALL)
        _feel_turn_end(G, H, tr, n, turns)  # the standings after the turn (feel kernels only)
        if status == 2:
            result = p
            reason = END_WON
            break
        idle = idle + 1 if (G[S_PLAYS] == plays and G[S_DRAWS] == draws) else 0
        if idle >= n:
            result = -1
            reason = END_BLOCKED
            break
        p = _step(p, G[S_DIR], n)
    return result, reason, turns


@njit
def _playout_turns(C, G, H, tr, n, p, max_turns, forced, first_duty):
    """The playouts' turn loop: the same turns, every seat playing its rollout policy (no
    search inside a search). A dispatcher of its own, so that a search seat's kernel never
    calls the function it is being compiled in (numba leaves such a call unlinked)."""
    return _turn_loop(C, G, H, tr, n, p, max_turns, forced, first_duty, no_search)


@inline
def _deal_hands(C, G, H, tr, n, deal_no):
    """A new deal's pack and hands among the n seats of G_SEATS (förhand first, dealer last)."""
    G[S_DEAL_NO] = deal_no
    G[S_ND] = 0
    G[S_DIR] = 1
    G[S_DUTY_ACE] = 0
    G[S_DUTY_TWO] = 0
    G[S_TOP_JOKER] = 0
    G[S_RESHUFFLES] = 0
    G[S_PLAYS] = 0
    G[S_DRAWS] = 0
    G[S_FORCE_SUIT] = -1
    G[S_NO_STACK] = 0
    k = 0
    for _ in range(C[R_DECKS]):
        for c in range(N_DECK_TYPES):
            G[G_TALON + k] = c
            k += 1
        for j in range(C[R_JOKERS]):
            G[G_TALON + k] = N_DECK_TYPES + j  # the jokers' types follow the deck's
            k += 1
    G[S_NT] = k
    G[S_SCRIPTED] = 0
    if C[C_SCRIPT_LEN] > 0 and deal_no == 0:
        _script_talon(C, G)
    _script_takes(C, G, tr)
    _emit(G, tr, EV_NEW_DEAL, _seat(G, n - 1), _seat(G, 0), deal_no)
    for q in range(n):
        H[q] = ZERO
        H[HI + q] = ZERO
        G[G_LACKS + q] = 0
        _note_new_hand(G, tr, q)
        for _ in range(C[R_HAND]):
            card = _take(G, H)
            _hand_add(H, q, card)
            _emit(G, tr, EV_DEAL, _seat(G, q), card, 0)


@inline
def _hand_points_all(C, G, H, n):
    """Each position's penalty points for the hand it holds, into G_POINTS."""
    for q in range(n):
        G[G_POINTS + q] = _hand_points(C, H[q], H[HI + q])


@inline
def _play_deal(C, G, H, tr, n, deal_no, swap_pos, swap_rank, eights, aces, decide):
    """Play one deal among the n seats of G_SEATS (förhand first, dealer last).
    Returns the winner's position, -1 if blocked, -2 if capped; fills G_POINTS."""
    _deal_hands(C, G, H, tr, n, deal_no)
    if swap_rank >= 0 and deal_no == 0:
        _swap_in(G, H, tr, np.int64(swap_pos), swap_rank)
    if deal_no == 0:
        for q in range(n):
            eights[_seat(G, q)] = _suit_count(H, q, EIGHTS)
            aces[_seat(G, q)] = _suit_count(H, q, ACES)
    _start_card(C, G, H, tr, np.int64(n))
    _feel_new_deal(G, tr, n)
    result, reason, turns = _turn_loop(C, G, H, tr, n, 0, TURN_CAP, NO_FORCE, 0, decide)
    G[S_TURNS] = turns
    _hand_points_all(C, G, H, n)
    _emit(G, tr, EV_END_DEAL, _seat(G, result) if result >= 0 else -1, reason, 0)
    return result
