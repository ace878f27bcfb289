"""What a search seat believes about the cards it has not seen: the worlds it deals within the
public bookkeeping that real games keep for it (bookkeeping.py), the likelihood weights of
beliefs=weighted, and the audit of those beliefs against the true hands (a diagnostic; its
kernel is kernels.belief_audit_nb)."""

from __future__ import annotations

import numpy as np

from ..cards import N_DECK_TYPES, N_SUITS, N_TYPES
from .layout import (
    ALL_SUITS, BELIEFS_LACKS, BELIEFS_ORACLE, BELIEFS_PUBLIC, BELIEFS_WEIGHTED, CHOICES_KEPT,
    CHOICE_FIELDS, C_POL, EIGHTS, G_CHOICES, G_CHOICES_N, G_DISCARD, G_LACKS, G_NAMED,
    G_NAMED_ALLOWED, G_NAMED_COUNT, G_PLAY_SIZE, G_RESHUFFLED, G_SIZE, G_STRONG, G_STRONG_N,
    G_TALON, G_WIDE, G_WIDE_N, HI, H_SIZE, ONE, POL_KIND, POL_SEARCH, ROLLOUT_KIND, R_DECKS,
    R_JOKERS, R_MUST_PLAY, SEARCH_ROLLOUT_SHIFT, S_EFF, S_ND, S_NT, S_RANK, S_RESHUFFLES,
    S_SCRIPTED, S_SUIT, S_TOP_JOKER, TALON_SIZE, ZERO)
from ._numba import _keep_alive, _low_bit, _popcount, _unchecked, inline, njit
from .primitives import (
    U11, _bit, _copy_state, _hand_add, _hand_count, _is_joker, _next_u64, _rand_below, _seat,
    _seed_rng, _suit, _suit_count, _suit_mask)
from .policies import _choose, _choose_suit
from .game import _legal, _on_top


# --- worlds ---------------------------------------------------------------------------------
@inline
def _take_avoiding(S, pool, lo, size, avoid):
    """The index in pool[lo:size] of a random card whose type is not in ``avoid`` (a few random
    tries, then the first such card; where none is left, a random card: a world that
    contradicts the bookkeeping, which the belief audit counts)."""
    j = lo + _rand_below(S, size - lo)
    if avoid == ZERO:
        return j
    for _ in range(8):
        if not (_bit(pool[j]) & avoid):
            return j
        j = lo + _rand_below(S, size - lo)
    for i in range(lo, size):
        if not (_bit(pool[i]) & avoid):
            return i
    return j


@njit
def _determinize(C, G, H, Gw, Hw, p, n, S, pool, unseen, beliefs):
    """A world consistent with what position p knows, into Gw/Hw: the cards p has not seen
    (the pack less its hand and the discard pile, listed in card order, whatever the true
    deal) dealt at random from stream S to the other hands (their sizes kept) and the talon,
    within the ``beliefs`` (BELIEFS_*): public, the bookkeeping's tiers and known talon; lacks,
    only the suits a player has shown it lacks, avoided where the cards allow (the rule before
    the bookkeeping, kept to measure it); oracle, the true hands (a cheat, for diagnostics).
    ``pool`` (TALON_SIZE) and ``unseen`` (N_TYPES: the count of each card type) are scratch."""
    _copy_state(Gw, Hw, G, H, G_PLAY_SIZE)
    Gw[S_SCRIPTED] = 0
    if beliefs == BELIEFS_ORACLE:
        return
    for t in range(N_TYPES):
        unseen[t] = 0
    for t in range(N_DECK_TYPES):
        unseen[t] = C[R_DECKS]
    for j in range(C[R_JOKERS]):
        unseen[N_DECK_TYPES + j] = C[R_DECKS]
    for hand in (H[p], H[HI + p]):
        while hand:
            unseen[_low_bit(hand)] -= 1
            hand &= hand - ONE
    for j in range(G[S_ND]):
        unseen[G[G_DISCARD + j]] -= 1
    known_talon = beliefs == BELIEFS_PUBLIC and G[S_RESHUFFLES] > 0
    if known_talon:
        candidates = 0
        for t in range(N_TYPES):
            candidates += min(G[G_RESHUFFLED + t], unseen[t])
        known_talon = candidates >= G[S_NT]  # else the bookkeeping missed a card: not used
    size = 0
    if known_talon:  # the rebuilt talon's cards still unseen come first: the talon is of them
        for t in range(N_TYPES):
            for _ in range(min(G[G_RESHUFFLED + t], unseen[t])):
                pool[size] = t
                size += 1
                unseen[t] -= 1
        nt = G[S_NT]
        for j in range(nt):
            i = j + _rand_below(S, size - j)
            pool[i], pool[j] = pool[j], pool[i]
            Gw[G_TALON + j] = pool[j]
    for t in range(N_TYPES):
        for _ in range(unseen[t]):
            pool[size] = t
            size += 1
    lo = G[S_NT] if known_talon else 0
    for q in range(n):
        if q != p:
            Hw[q] = ZERO
            Hw[HI + q] = ZERO
    if beliefs == BELIEFS_LACKS:
        for q in range(n):
            if q == p:
                continue
            lacks = G[G_LACKS + q]
            for _ in range(_hand_count(H, q)):
                j = _rand_below(S, size)
                for _ in range(8):  # a few tries for a card of a suit it may hold
                    c = pool[j]
                    if _is_joker(c) or (_bit(c) & EIGHTS) or not (lacks >> _suit(c)) & 1:
                        break
                    j = _rand_below(S, size)
                _hand_add(Hw, q, pool[j])
                pool[j] = pool[size - 1]
                size -= 1
    else:
        for tier in range(3):  # the most constrained cards of every hand first
            for q in range(n):
                if q == p:
                    continue
                held = _hand_count(H, q)
                wide_n = min(G[G_WIDE_N + q], held)
                strong_n = min(G[G_STRONG_N + q], wide_n)
                if tier == 0:
                    want, avoid = strong_n, np.uint64(G[G_STRONG + q])
                elif tier == 1:
                    want, avoid = wide_n - strong_n, np.uint64(G[G_WIDE + q])
                else:
                    want, avoid = held - wide_n, ZERO
                for _ in range(want):
                    j = _take_avoiding(S, pool, lo, size, avoid)
                    _hand_add(Hw, q, pool[j])
                    pool[j] = pool[size - 1]
                    size -= 1
    if not known_talon:
        for j in range(size):
            Gw[G_TALON + j] = pool[j]
    Gw[S_NT] = G[S_NT]


# beliefs=weighted: each world is one of WEIGHT_CANDIDATES public worlds, drawn with probability
# proportional to how likely each opponent's recent choices are under the policy it plays (a
# seat knows the policies at its table; a search opponent is modelled by its rollout policy):
# its last CHOICES_KEPT cards from the hand since it last drew (its hand before each is then
# known in the world: the cards it holds and those it played since) and the suit it last named.
# Tempered: a choice's likelihood is (1 - WEIGHT_EPS) * P(policy makes it) + WEIGHT_EPS / (its
# choices), so that a wrong model only flattens the weights. P(policy makes it) is estimated by
# one draw of the policy's tie breaking (unbiased: 1/ties for a card among its best).
WEIGHT_CANDIDATES = 8
WEIGHT_EPS = 0.1


@njit
def _world_weight(C, G, Hw, p, n, Gs, Hs):
    """The tempered likelihood of the opponents' recent choices in the world Hw (see above);
    Gs and Hs are scratch copies of G and H (Hs with a stream of its own for the ties)."""
    weight = 1.0
    for q in range(n):
        if q == p:
            continue
        pol = C[C_POL + _seat(G, q)]
        if (pol & POL_KIND) >= POL_SEARCH:
            pol = (pol >> SEARCH_ROLLOUT_SHIFT) & ROLLOUT_KIND
        held = _hand_count(Hw, q)
        Hs[q] = Hw[q]
        Hs[HI + q] = Hw[HI + q]
        after = held  # the hand's size after the choice looked at, newest first
        for i in range(G[G_CHOICES_N + q] - 1, -1, -1):
            at = G_CHOICES + (q * CHOICES_KEPT + i) * CHOICE_FIELDS
            card, count = G[at], G[at + 2]
            if count - 1 != after:
                break  # a card left the hand in between that was no choice (a stack, a duty)
            _hand_add(Hs, q, card)  # the hand it chose from
            after = count
            top = G[at + 1]
            Gs[S_EFF] = top & 3
            Gs[S_SUIT] = (top >> 2) & 3
            Gs[S_RANK] = (top >> 4) & 15
            Gs[S_TOP_JOKER] = (top >> 8) & 1
            Gs[S_RESHUFFLES] = top >> 9
            m = _legal(C, Gs, Hs[q], count, _on_top(C, Gs))
            if m & _bit(card):
                pick = _choose(C, Gs, Hs, pol, m, not C[R_MUST_PLAY], q, count, G[at + 3],
                               G[at + 4])
                hit = 1.0 if pick == card else 0.0
                weight *= (1.0 - WEIGHT_EPS) * hit + WEIGHT_EPS / _popcount(m)
            else:
                weight *= WEIGHT_EPS / N_TYPES
        named = G[G_NAMED + q]
        if named >= 0 and held == G[G_NAMED_COUNT + q]:
            allowed = G[G_NAMED_ALLOWED + q] & ALL_SUITS
            suit = _choose_suit(Hw, pol, q, allowed, G[G_NAMED_ALLOWED + q] >> 4)
            hit = 1.0 if suit == named else 0.0
            weight *= (1.0 - WEIGHT_EPS) * hit + WEIGHT_EPS / _popcount(np.uint64(allowed))
    return weight


@njit
def _weighted_world(C, G, H, Gw, Hw, p, n, S, pool, unseen, Gc, Hc, Gs, Hs):
    """A world for beliefs=weighted into Gw/Hw: one of WEIGHT_CANDIDATES public worlds, drawn
    by weight (a weighted reservoir of one, so only the kept world is copied)."""
    total = 0.0
    for r in range(WEIGHT_CANDIDATES):
        _determinize(C, G, H, Gc, Hc, p, n, S, pool, unseen, np.int64(BELIEFS_PUBLIC))
        _seed_rng(Hs, _next_u64(S))
        w = _world_weight(C, G, Hc, p, n, Gs, Hs)
        total += w
        if r == 0 or (_next_u64(S) >> U11) * (1.0 / 9007199254740992.0) * total < w:
            _copy_state(Gw, Hw, Gc, Hc, G_PLAY_SIZE)


@inline
def _world(C, G, H, Gw, Hw, p, n, S, pool, unseen, beliefs, Gc, Hc, Gs, Hs):
    """A world under the seat's ``beliefs`` into Gw/Hw, for both search players: _determinize's,
    or beliefs=weighted's (Gc/Hc its candidates' scratch; Gs/Hs a copy of G and H, made once per
    decision by the caller: the weights' scratch)."""
    if beliefs == BELIEFS_WEIGHTED:
        _weighted_world(C, G, H, Gw, Hw, p, n, S, pool, unseen, Gc, Hc, Gs, Hs)
    else:
        _determinize(C, G, H, Gw, Hw, p, n, S, pool, unseen, beliefs)


# --- diagnostics: how right the worlds' beliefs are about the true hands ------------------------
AUDIT_FIELDS = ("turns", "turns_lacks_wrong", "turns_public_wrong", "opponents_flagged",
                "lacks_types_excluded", "opponents_tiered", "public_types_excluded",
                "turns_talon_known", "turns_talon_wrong", "weighed_turns", "worlds_below_true",
                "worlds_compared")
AUDIT_SEEDED = 0xA0D17  # mixed into the audit's own stream (its sampled worlds)
AUDIT_WORLDS = 16  # beliefs=weighted: public worlds whose weight the true world's is ranked among


@njit
def _belief_audit(G, H, p, n, counts):
    """At position p's turn, compare what its worlds assume with the true hands: counts (see
    AUDIT_FIELDS) of turns where the lacks flags (beliefs=lacks) or the public tiers
    (beliefs=public) exclude a card an opponent really holds, and of what each excludes."""
    counts[0] += 1
    lacks_wrong = public_wrong = 0
    for q in range(n):
        if q == p:
            continue
        lacks = G[G_LACKS + q]
        if lacks:
            excluded = ZERO
            for s in range(N_SUITS):
                if (lacks >> s) & 1:
                    excluded |= _suit_mask(s) & ~EIGHTS
            counts[3] += 1
            counts[4] += _popcount(excluded)
            lacks_wrong += (H[q] & excluded) != ZERO
        held = _hand_count(H, q)
        wide_n = min(G[G_WIDE_N + q], held)
        if wide_n > 0:
            wide = np.uint64(G[G_WIDE + q])
            strong = np.uint64(G[G_STRONG + q])
            counts[5] += 1
            counts[6] += _popcount(wide)
            public_wrong += (held - _suit_count(H, q, wide) < wide_n
                             or held - _suit_count(H, q, strong) < min(G[G_STRONG_N + q], wide_n))
    counts[1] += lacks_wrong > 0
    counts[2] += public_wrong > 0
    if G[S_RESHUFFLES] > 0:
        counts[7] += 1
        tally = np.zeros(N_TYPES, np.int64)
        wrong = False
        for j in range(G[S_NT]):
            tally[G[G_TALON + j]] += 1
            wrong |= tally[G[G_TALON + j]] > G[G_RESHUFFLED + G[G_TALON + j]]
        counts[8] += wrong


@njit
def _weight_audit(C, G, H, p, n, counts, S):
    """Does the likelihood carry signal? Where the weights are not all equal, rank the true
    world's weight among AUDIT_WORLDS public worlds: counts[10] gets twice the number below it
    plus the ties (so counts[10] / counts[11] is its mean rank share: 0.5 = no signal)."""
    # views of its memory as the search's are (unchecked), so that the worlds' functions are the
    # search's compiled ones, not a second compile of them for ordinary arrays
    memory = np.empty((2, G_SIZE), np.int64)
    hands = np.empty((2, H_SIZE), np.uint64)
    scratch = np.empty(TALON_SIZE + N_TYPES, np.int64)
    Gs, Gw = _unchecked(memory[0]), _unchecked(memory[1])
    Hs, Hw = _unchecked(hands[0]), _unchecked(hands[1])
    pool = _unchecked(scratch[:TALON_SIZE])
    unseen = _unchecked(scratch[TALON_SIZE:])
    _copy_state(Gs, Hs, G, H, G_SIZE)
    _seed_rng(Hs, _next_u64(S))
    true_weight = _world_weight(C, G, H, p, n, Gs, Hs)
    below = 0
    varied = False
    for _ in range(AUDIT_WORLDS):
        _determinize(C, G, H, Gw, Hw, p, n, S, pool, unseen, np.int64(BELIEFS_PUBLIC))
        _seed_rng(Hs, _next_u64(S))
        w = _world_weight(C, G, Hw, p, n, Gs, Hs)
        varied |= w != true_weight
        below += 2 if w < true_weight else (1 if w == true_weight else 0)
    if varied:
        counts[9] += 1
        counts[10] += below
        counts[11] += 2 * AUDIT_WORLDS
    _keep_alive(memory, hands)
    _keep_alive(scratch, scratch)


