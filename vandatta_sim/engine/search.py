"""The search player: determinized Monte Carlo over its own information (its options, the
worlds it samples, the playouts, the choice).

Its kernels are compiled into the game's turn loop through the hook ``game._search``, which
``_search_nb`` below overloads; the package's ``__init__`` imports this module before any kernel
compiles. The playouts run the turn loop under a dispatcher of their own
(``game._playout_turns``), so that the kernel never calls itself while it is being compiled.
"""

from __future__ import annotations

import numpy as np
from numba import types
from numba.extending import overload

from ..cards import N_DECK_TYPES, N_SUITS, N_TYPES
from .layout import (
    C_POL, C_SIZE, DEAL_CAP, EIGHTS, EV_ESTIMATE, G_DISCARD, G_LACKS, G_SIZE, G_TALON, HI,
    H_SIZE, JK_SUPER_EIGHT, JOKERS, MAX_SEATS, M_SINGLE, ONE, OPT_SEARCH_MATCH,
    OPT_SEARCH_POINTS, ROLLOUT_TURNS, R_DECKS, R_EIGHT_SAME, R_JOKERS, R_JOKER_EFFECT,
    R_MATCH_KIND, R_MUST_PLAY, R_PLAYERS, R_STACKING, SEARCH_BUDGET_SHIFT, SEARCH_MARGIN_SHIFT,
    SEARCH_ROLLOUT_SHIFT, S_DEAL_NO, S_FORCE_SUIT, S_ND, S_NO_STACK, S_NT, S_SCRIPTED,
    TALON_SIZE, ZERO)
from ._numba import _keep_alive, _low_bit, _unchecked, njit
from .primitives import (
    GOLDEN, _bit, _emit, _hand_add, _hand_count, _is_joker, _mix64, _next_u64, _rand_below,
    _rank, _rank_mask, _seat, _seed_rng, _suit)
from .policies import NO_FORCE
from .game import (
    _deal_hands, _duty_answers, _hand_points, _hand_points_all, _legal, _on_top,
    _playout_turns, _search, _start_card)
from .match import MATCH_GOES_ON, _after_deal, _next_dealer, _seat_order


# ================================================================================================
# the search player: determinized Monte Carlo over its own information
# ================================================================================================
# At each move (which card, with which suit for an eight or a super-eight joker, whether to stack
# on, or to draw where must_play is off; or how to answer a duty) the search player lists its
# options, then samples ``budget`` worlds consistent with what its seat knows: its own hand, the
# discard pile, the other hands' sizes, the suits the others have shown they lack; the unseen
# cards are dealt at random to the other hands and the talon. In every world it plays each
# option out to the end of the deal (with objective=match in a match: to the end of the match),
# every seat, itself included, playing the rollout policy, the same random numbers for every
# option of a world. Its first option is the rollout policy's own move; it plays another only
# where that one's mean outcome (deals or matches won, or fewest points) is better by more than
# ``margin`` standard errors of the paired difference (flat Monte Carlo over a dozen options
# picks noise otherwise: measured, budget 32 without this rule won 21% against three experts,
# below their 25%). Its random numbers come from a stream of its own, seeded with one number of
# the game's stream per decision, so a game still depends only on (seed, game, rules, seats),
# and the decision depends only on the seat's information and that stream (tests/test_search.py
# checks both).
MAX_OPTIONS = 64
SEARCH_SEEDED = 0x5EA5C4  # mixed into the search stream's seed (a stream apart from the game's)


@overload(_search, inline="always")
def _search_nb(C, G, H, tr, p, n, duty):
    """In a playout (a 1-D int8 ``tr``) no seat searches: every seat plays the rollout policy.
    The playouts get a stub here, so the kernel never compiles itself recursively."""
    if isinstance(tr, types.Array) and tr.dtype == types.int8:
        return lambda C, G, H, tr, p, n, duty: NO_FORCE
    return lambda C, G, H, tr, p, n, duty: _search_move(C, G, H, tr, p, n, duty)


@njit
def search_options(C, H, p, m, may_pass, cards, suits, no_stack):
    """Fill the option arrays for p's choice from legal mask ``m``; returns their number.
    Option 0 is NO_FORCE: the rollout policy's own move."""
    cards[0] = NO_FORCE
    suits[0] = -1
    no_stack[0] = 0
    k = 1
    mm = m
    while mm and k < MAX_OPTIONS - 9:
        c = _low_bit(mm)
        mm &= mm - ONE
        b = _bit(c)
        names = ((b & EIGHTS) and not C[R_EIGHT_SAME]) or (
            (b & JOKERS) and C[R_JOKER_EFFECT] == JK_SUPER_EIGHT)
        stackable = C[R_STACKING] and not (b & (JOKERS | EIGHTS)) and (
            (H[p] & _rank_mask(_rank(c)) & ~b) or (H[HI + p] & b))
        for s in range(N_SUITS if names else 1):
            for stop in range(2 if stackable else 1):
                cards[k] = c
                suits[k] = s if names else -1
                no_stack[k] = stop
                k += 1
    if may_pass:
        cards[k] = -1
        suits[k] = -1
        no_stack[k] = 0
        k += 1
    return k


@njit
def _search_choices(C, G, H, p, duty, cards, suits, no_stack):
    """Fill the option arrays for p's move (an answer to a duty where ``duty``); returns their
    number, 0 where p has no card it may play (it draws: nothing to choose)."""
    if duty:
        m = _duty_answers(C, G, H, p)
    else:
        m = _legal(C, G, H[p], _hand_count(H, p), _on_top(C, G))
    if m == ZERO:
        return 0
    return search_options(C, H, p, m, not C[R_MUST_PLAY], cards, suits, no_stack)


@njit
def _playout_match(C, G, H, tr, n, res, world_seed):
    """The rest of the match after a playout's deal ended with ``res`` (G_POINTS not yet
    filled), every seat playing C's policies: the match winner's seat, or -1. Each later deal's
    stream starts from ``world_seed`` and the deal's number, so that every option of a world
    meets the same later deals (common random numbers, as far as the options' matches allow)."""
    n_seats = C[R_PLAYERS]
    deal_no = G[S_DEAL_NO]
    dealer = _seat(G, n - 1)
    while deal_no < DEAL_CAP:
        _hand_points_all(C, G, H, n)
        winner = _after_deal(C, G, tr, n, res, deal_no)
        if winner != MATCH_GOES_ON:
            return winner
        dealer = _next_dealer(G, n_seats, dealer)
        n = _seat_order(G, n_seats, dealer)
        deal_no += 1
        _seed_rng(H, _mix64(world_seed ^ (np.uint64(deal_no) * GOLDEN)))
        _deal_hands(C, G, H, tr, n, deal_no)
        _start_card(C, G, H, tr, n)
        res, _, _ = _playout_turns(C, G, H, tr, n, 0, ROLLOUT_TURNS, NO_FORCE, 0)
    return -1


@njit
def _determinize(C, G, H, Gw, Hw, p, n, S, pool):
    """A world consistent with what position p knows, into Gw/Hw: the cards p has not seen
    (the pack less its hand and the discard pile, listed in card order, whatever the true
    deal) dealt at random from stream S to the other hands (their sizes kept, a suit a player
    has shown it lacks avoided where the cards allow) and the rest to the talon."""
    for j in range(G_SIZE):
        Gw[j] = G[j]
    for j in range(H_SIZE):
        Hw[j] = H[j]
    counts = np.zeros(N_TYPES, np.int64)
    for t in range(N_DECK_TYPES):
        counts[t] = C[R_DECKS]
    for j in range(C[R_JOKERS]):
        counts[N_DECK_TYPES + j] = C[R_DECKS]
    for hand in (H[p], H[HI + p]):
        while hand:
            counts[_low_bit(hand)] -= 1
            hand &= hand - ONE
    for j in range(G[S_ND]):
        counts[G[G_DISCARD + j]] -= 1
    size = 0
    for t in range(N_TYPES):
        for _ in range(counts[t]):
            pool[size] = t
            size += 1
    for q in range(n):
        if q == p:
            continue
        Hw[q] = ZERO
        Hw[HI + q] = ZERO
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
    for j in range(size):
        Gw[G_TALON + j] = pool[j]
    Gw[S_NT] = size
    Gw[S_SCRIPTED] = 0


@njit
def search_values(C, G, H, p, n, duty, cards, suits, no_stack, k, S):
    """Each option's total outcome over the budget's worlds (deals won, minus p's points, or
    matches won), and the sum of squares of its difference from option 0's, world by world;
    with the seat's own random stream S; depends on nothing p cannot see."""
    pol = C[C_POL + _seat(G, p)]
    budget = (pol >> SEARCH_BUDGET_SHIFT) & 0xFFFF
    Cr_memory = np.empty(C_SIZE, np.int64)
    for j in range(C_SIZE):
        Cr_memory[j] = C[j]
    for q in range(MAX_SEATS):
        Cr_memory[C_POL + q] = (pol >> SEARCH_ROLLOUT_SHIFT) & 3
    Gw = np.empty(G_SIZE, np.int64)
    Hw = np.empty(H_SIZE, np.uint64)
    G_memory = np.empty(G_SIZE, np.int64)
    H_memory = np.empty(H_SIZE, np.uint64)
    Cr = _unchecked(Cr_memory)
    G2 = _unchecked(G_memory)
    H2 = _unchecked(H_memory)
    pool = np.empty(TALON_SIZE, np.int64)
    no_trace = np.zeros(0, np.int8)
    totals = np.zeros(k, np.float64)
    squares = np.zeros(k, np.float64)
    for _ in range(budget):
        _determinize(C, G, H, Gw, Hw, p, n, S, pool)
        playout_seed = _next_u64(S)
        first = 0.0
        for o in range(k):
            for j in range(G_SIZE):
                G2[j] = Gw[j]
            for j in range(H_SIZE):
                H2[j] = Hw[j]
            _seed_rng(H2, playout_seed)
            G2[S_FORCE_SUIT] = suits[o]
            G2[S_NO_STACK] = no_stack[o]
            result, _, _ = _playout_turns(Cr, G2, H2, no_trace, n, p, ROLLOUT_TURNS, cards[o],
                                          duty)
            if pol & OPT_SEARCH_POINTS:
                outcome = -1.0 * _hand_points(C, H2[p], H2[HI + p])
            elif pol & OPT_SEARCH_MATCH and C[R_MATCH_KIND] != M_SINGLE:
                winner = _playout_match(Cr, G2, H2, no_trace, n, result, playout_seed)
                outcome = 1.0 if winner == _seat(G, p) else 0.0
            else:
                outcome = 1.0 if result == p else 0.0
            if o == 0:
                first = outcome
            totals[o] += outcome
            squares[o] += (outcome - first) ** 2
    _keep_alive(Cr_memory, G_memory)
    _keep_alive(H_memory, H_memory)
    return totals, squares


@njit
def _search_move(C, G, H, tr, p, n, duty):
    cards = np.empty(MAX_OPTIONS, np.int64)
    suits = np.empty(MAX_OPTIONS, np.int64)
    no_stack = np.empty(MAX_OPTIONS, np.int64)
    k = _search_choices(C, G, H, p, duty, cards, suits, no_stack)
    if k == 0:
        return NO_FORCE  # nothing to choose: it draws
    best = 0
    if k > 2:  # option 0 and one card: the rollout policy plays that card anyway
        S = np.empty(H_SIZE, np.uint64)
        _seed_rng(S, _mix64(_next_u64(H) ^ np.uint64(SEARCH_SEEDED)))
        totals, squares = search_values(C, G, H, p, n, duty, cards, suits, no_stack, k, S)
        pol = C[C_POL + _seat(G, p)]
        budget = (pol >> SEARCH_BUDGET_SHIFT) & 0xFFFF
        z = (pol >> SEARCH_MARGIN_SHIFT) & 3
        margin = 0.0  # the best option's lead over option 0 beyond z standard errors
        for o in range(k):
            # the estimate in thousandths (of a deal won, or of a point): play narrates it
            _emit(G, tr, EV_ESTIMATE, _seat(G, p),
                  (cards[o] + 2) | ((suits[o] + 1) << 8) | (no_stack[o] << 12),
                  int(round(1000.0 * totals[o] / budget)))
            lead = (totals[o] - totals[0]) / budget
            spread = squares[o] / budget - lead * lead
            lead -= z * np.sqrt(max(spread, 0.0) / max(budget - 1, 1))
            if lead > margin:
                margin = lead
                best = o
    G[S_FORCE_SUIT] = suits[best]
    G[S_NO_STACK] = no_stack[best]
    return cards[best]


@njit
def search_decision_nb(constants, G_memory, H_memory, p, n, seed):
    """What the search player at position p weighs for its move in the state (G, H), with its
    search stream started at ``seed``: the options (cards, suits, no_stack) and each one's
    total and squared-difference sums (see search_values). For tests: a decision is a function
    of the seat's information and its stream only."""
    C = _unchecked(constants)
    G = _unchecked(G_memory)
    H = _unchecked(H_memory)
    cards = np.empty(MAX_OPTIONS, np.int64)
    suits = np.empty(MAX_OPTIONS, np.int64)
    no_stack = np.empty(MAX_OPTIONS, np.int64)
    k = _search_choices(C, G, H, p, False, cards, suits, no_stack)
    S = np.empty(H_SIZE, np.uint64)
    _seed_rng(S, np.uint64(seed))
    totals, squares = search_values(C, G, H, p, n, False, cards, suits, no_stack, k, S)
    _keep_alive(constants, G_memory)
    _keep_alive(H_memory, H_memory)
    return cards[:k].copy(), suits[:k].copy(), no_stack[:k].copy(), totals, squares
