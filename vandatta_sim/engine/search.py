"""The search player: determinized Monte Carlo over its own information (its options, the
baseline, the playouts, how the budget is raced, the choice).

Its kernels are compiled into the game's turn loop through the hook ``game._search``, which
``_search_nb`` below overloads; the package's ``__init__`` imports this module before any kernel
compiles. The playouts run the turn loop under a dispatcher of their own
(``game._playout_turns``), so that the kernel never calls itself while it is being compiled.
What the worlds believe about the hidden cards is worlds.py.
"""

from __future__ import annotations

import numpy as np
from numba import types
from numba.extending import overload

from ..cards import N_SUITS, N_TYPES
from .layout import (
    ALL_SUITS, BELIEFS_WEIGHTED, C_POL, C_SCALE, C_SIZE, C_VALUE, DEAL_CAP, EIGHTS, EV_ESTIMATE,
    G_LACKS, G_PLAY_SIZE, G_SIZE, HI, H_SIZE, JK_SUPER_EIGHT, JOKERS, MAX_SEATS, M_SINGLE, ONE,
    OPT_SEARCH_FLAT, OPT_SEARCH_MATCH, OPT_SEARCH_POINTS, ROLLOUT_KIND, ROLLOUT_TURNS,
    R_EIGHT_SAME, R_JOKER_EFFECT, R_MATCH_KIND, R_MUST_PLAY, R_PLAYERS, R_STACKING,
    SEARCH_BELIEFS_SHIFT, SEARCH_BUDGET_SHIFT, SEARCH_MARGIN_SHIFT, SEARCH_ROLLOUT_SHIFT,
    S_DEAL_NO, S_DIR, S_FORCE_SUIT, S_NO_STACK, TALON_SIZE, ZERO)
from ._numba import (
    NOTHING_FROZEN, _holds_playout_rules, _keep_alive, _low_bit, _playout_rules, _unchecked,
    _unchecked_rules, njit)
from .primitives import (
    GOLDEN, _bit, _copy_into, _copy_state, _emit, _hand_count, _mix64, _next_u64, _rank, _rank_mask, _seat, _seed_rng,
    _step)
from .policies import NOT_COUNTED, NO_FORCE, _choose, _choose_suit, _min_opponent_for
from .game import (
    _deal_hands, _duty_answers, _hand_points, _hand_points_all, _legal, _on_top, _playout_turns,
    _search, _start_card)
from .match import MATCH_GOES_ON, _after_deal, _next_dealer, _seat_order
from .worlds import _determinize, _weighted_world


# ================================================================================================
# the search player: determinized Monte Carlo over its own information
# ================================================================================================
# At each move (which card, with which suit for an eight or a super-eight joker, whether to stack
# on, or to draw where must_play is off; or how to answer a duty) the search player lists its
# options, one of which is its rollout policy's own move (the baseline), then samples worlds
# consistent with what its seat knows (beliefs=public: its own hand, the discard pile, the other
# hands' sizes, and the public bookkeeping: what each failed play showed about the cards held
# then, and the talon's composition after a reshuffle; the unseen cards are dealt at random within
# those constraints). In every world it plays the options out to the end of the deal (with
# objective=match in a match: to the end of the match), every seat, itself included, playing the
# rollout policy, the same random numbers for every option of a world. It plays another option
# than the baseline only where that one's mean outcome (deals or matches won, or fewest points as
# the `valuation` weighs them) is better by more than ``margin`` standard errors of the paired
# difference (flat Monte Carlo over a dozen options picks noise otherwise: measured, budget 32
# without this rule won 21% against three experts, below their 25%).
# Budget where it matters (alloc=race): the playouts of ``budget`` worlds of every option are
# spent in rounds; at looks after 8, 16, 32 … worlds an option whose upper bound (mean paired
# difference from the baseline + RACE_Z standard errors) is below the best lower bound (the
# baseline's is 0) is dropped, and the playouts it would have used go to more worlds for those
# left (at most RACE_WORLDS × budget worlds); alone with nothing left to race, the baseline stops.
# Its random numbers come from a stream of its own, seeded with one number of the game's stream
# per decision, so a game still depends only on (seed, game, rules, seats), and the decision
# depends only on the seat's information and that stream (tests/test_search.py checks both).
MAX_OPTIONS = 64
SEARCH_SEEDED = 0x5EA5C4  # mixed into the search stream's seed (a stream apart from the game's)
FIRST_LOOK = 8  # racing: worlds before the first look at the paired differences (then doubling)
RACE_WORLDS = 4  # racing: at most this many times the budget in worlds
RACE_Z = 2.0  # racing: standard errors of the bounds that drop an option
ROLLOUT_MOVE_BIT = 1 << 13  # in an ESTIMATE row's option code: this is the rollout's own move


@overload(_search, inline="always")
def _search_nb(C, G, H, tr, p, n, duty):
    """In a playout (a 1-D int8 ``tr``) no seat searches: every seat plays the rollout policy.
    The playouts get a stub here, so the kernel never compiles itself recursively."""
    if isinstance(tr, types.Array) and tr.dtype == types.int8:
        return lambda C, G, H, tr, p, n, duty: NO_FORCE
    return lambda C, G, H, tr, p, n, duty: _search_move(C, G, H, tr, p, n, duty)


@njit
def search_options(C, H, p, m, may_pass, cards, suits, no_stack):
    """Fill the option arrays for p's choice from legal mask ``m``; returns their number: each
    legal card (with each suit it may name, with and without stopping a stack), and a draw
    where ``may_pass``."""
    k = 0
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
def _rollout_option(C, G, H, p, n, duty, cards, suits, no_stack, k, S):
    """The index of the option that is the rollout policy's own move (its ties broken with the
    search stream S): the baseline that another option must beat. It reads only p's hand and
    public facts, as the policy does."""
    rollout = (C[C_POL + _seat(G, p)] >> SEARCH_ROLLOUT_SHIFT) & ROLLOUT_KIND
    Hc = np.empty(H_SIZE, np.uint64)
    _copy_into(Hc, H, H_SIZE)
    _seed_rng(Hc, _next_u64(S))
    count = _hand_count(H, p)
    nxt = _step(p, G[S_DIR], n)
    if duty:
        m = _duty_answers(C, G, H, p)
        min_opp = NOT_COUNTED
    else:
        m = _legal(C, G, H[p], count, _on_top(C, G))
        min_opp = _min_opponent_for(H, rollout, p, n, m)
    card = _choose(C, G, Hc, rollout, m, not C[R_MUST_PLAY], p, count, G[G_LACKS + nxt],
                   min_opp)
    suit = -1
    if card >= 0:
        b = _bit(card)
        if ((b & EIGHTS) and not C[R_EIGHT_SAME]) or (
                (b & JOKERS) and C[R_JOKER_EFFECT] == JK_SUPER_EIGHT):
            suit = _choose_suit(H, rollout, p, ALL_SUITS, G[G_LACKS + nxt])
    for o in range(k):
        if cards[o] == card and suits[o] == suit and no_stack[o] == 0:
            return o
    return 0


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
        _start_card(C, G, H, tr, np.int64(n))
        # the arguments typed as _playout_outcome's own call's (not as literals), so that both
        # share one compiled turn loop: a second one cost compile time and cache, not speed
        res, _, _ = _playout_turns(C, G, H, tr, np.int64(n), np.int64(0), ROLLOUT_TURNS,
                                   np.int64(NO_FORCE), np.bool_(False))
    return -1


@njit
def _playout_outcome(Cr, G, H, tr, n, p, card, duty, pol, seat, world_seed):
    """Play one option (``card``, its suit and stacking already in G) out from the world in
    (G, H), every seat playing Cr's policies: its outcome for p (a deal won, minus p's points as
    Cr's scale weighs them, or a match won by ``seat``). Compiled once per kind of Cr (the
    general rules, or the rules frozen for the playouts)."""
    result, _, _ = _playout_turns(Cr, G, H, tr, n, p, ROLLOUT_TURNS, card, duty)
    if pol & OPT_SEARCH_POINTS:
        return -1.0 * _hand_points(Cr, H[p], H[HI + p])
    if pol & OPT_SEARCH_MATCH and Cr[R_MATCH_KIND] != M_SINGLE:
        return 1.0 if _playout_match(Cr, G, H, tr, n, result, world_seed) == seat else 0.0
    return 1.0 if result == p else 0.0


@njit
def search_values(C, G, H, p, n, duty, cards, suits, no_stack, k, base, S):
    """Play the options out in worlds drawn with the seat's own random stream S (see the
    section's comment for the rounds and the racing): per option its total outcome (deals won,
    minus p's points as the valuation weighs them, or matches won), the sums of its paired
    differences from the baseline ``base`` and of their squares, the worlds it was played in,
    and whether it is still in the race. Depends on nothing p cannot see (except beliefs=oracle)."""
    seat = _seat(G, p)
    pol = C[C_POL + seat]
    budget = (pol >> SEARCH_BUDGET_SHIFT) & 0xFFFF
    beliefs = (pol >> SEARCH_BELIEFS_SHIFT) & 3
    flat = pol & OPT_SEARCH_FLAT
    Cr_memory = np.empty(C_SIZE, np.int64)
    _copy_into(Cr_memory, C, C_SIZE)
    for q in range(MAX_SEATS):
        Cr_memory[C_POL + q] = (pol >> SEARCH_ROLLOUT_SHIFT) & 3
    for t in range(N_TYPES):  # the playouts are scored, and matches played, at the valuation
        Cr_memory[C_SCALE + t] = C[C_VALUE + t]
    # The states, the scratch and the playouts' trace (a 1-D dummy: no trace code) are views,
    # which are not reference-counted: as arrays, every call of a helper that is not inlined
    # took and released a reference to each (two atomic operations), in every playout's turns
    # and every world drawn: about a fifth of a search seat's time (measured).
    memory = np.empty((4, G_SIZE), np.int64)  # a world, a playout's state, two scratch
    hands = np.empty((4, H_SIZE), np.uint64)
    scratch = np.empty(TALON_SIZE + N_TYPES, np.int64)
    no_trace_memory = np.zeros(0, np.int8)
    Gw, G2, Gc, Gs = (_unchecked(memory[0]), _unchecked(memory[1]), _unchecked(memory[2]),
                      _unchecked(memory[3]))
    Hw, H2, Hc, Hs = (_unchecked(hands[0]), _unchecked(hands[1]), _unchecked(hands[2]),
                      _unchecked(hands[3]))
    pool = _unchecked(scratch[:TALON_SIZE])
    unseen = _unchecked(scratch[TALON_SIZE:])
    no_trace = _unchecked(no_trace_memory)
    Cr = _unchecked_rules(Cr_memory, NOTHING_FROZEN)
    # Under the rules that C carries for the playouts (simulate: standard's), the playouts run
    # a turn loop compiled with those rules as constants, as a heuristic run under them does
    frozen = _holds_playout_rules(Cr_memory, C)
    Cf = _playout_rules(Cr_memory, C)
    totals = np.zeros(k, np.float64)
    diffs = np.zeros(k, np.float64)
    squares = np.zeros(k, np.float64)
    played = np.zeros(k, np.int64)
    alive = np.ones(k, np.bool_)
    left = k
    playouts = budget * k
    max_worlds = budget if flat else RACE_WORLDS * budget
    look = FIRST_LOOK
    worlds = 0
    if beliefs == BELIEFS_WEIGHTED:  # Gc, Gs: the candidate worlds' and the weights' scratch
        _copy_state(Gs, Hs, G, H, G_SIZE)
    while worlds < max_worlds and playouts >= left and left > 1:
        if beliefs == BELIEFS_WEIGHTED:
            _weighted_world(C, G, H, Gw, Hw, p, n, S, pool, unseen, Gc, Hc, Gs, Hs)
        else:
            _determinize(C, G, H, Gw, Hw, p, n, S, pool, unseen, beliefs)
        playout_seed = _next_u64(S)
        first = 0.0
        for i in range(k):
            o = base if i == 0 else (i - 1 if i <= base else i)  # the baseline first
            if not alive[o]:
                continue
            _copy_state(G2, H2, Gw, Hw, G_PLAY_SIZE)
            _seed_rng(H2, playout_seed)
            G2[S_FORCE_SUIT] = suits[o]
            G2[S_NO_STACK] = no_stack[o]
            if frozen:
                outcome = _playout_outcome(Cf, G2, H2, no_trace, n, p, cards[o], duty, pol, seat,
                                           playout_seed)
            else:
                outcome = _playout_outcome(Cr, G2, H2, no_trace, n, p, cards[o], duty, pol, seat,
                                           playout_seed)
            if i == 0:
                first = outcome
            totals[o] += outcome
            diffs[o] += outcome - first
            squares[o] += (outcome - first) ** 2
            played[o] += 1
        worlds += 1
        playouts -= left
        if not flat and worlds == look:
            look *= 2
            lowest = 0.0  # the best lower bound: the baseline's own is 0
            for o in range(k):
                if alive[o] and o != base:
                    mean = diffs[o] / worlds
                    se = np.sqrt(max(squares[o] / worlds - mean * mean, 0.0) / (worlds - 1))
                    lowest = max(lowest, mean - RACE_Z * se)
            for o in range(k):
                if alive[o] and o != base:
                    mean = diffs[o] / worlds
                    se = np.sqrt(max(squares[o] / worlds - mean * mean, 0.0) / (worlds - 1))
                    if mean + RACE_Z * se < lowest:
                        alive[o] = False
                        left -= 1
    _keep_alive(Cr_memory, memory)
    _keep_alive(hands, scratch)
    _keep_alive(no_trace_memory, no_trace_memory)
    return totals, diffs, squares, played, alive


@njit
def _search_move(C, G, H, tr, p, n, duty):
    cards = np.empty(MAX_OPTIONS, np.int64)
    suits = np.empty(MAX_OPTIONS, np.int64)
    no_stack = np.empty(MAX_OPTIONS, np.int64)
    k = _search_choices(C, G, H, p, duty, cards, suits, no_stack)
    if k <= 1:
        return NO_FORCE  # nothing to choose, or one card: the rollout policy plays it anyway
    S_memory = np.empty(H_SIZE, np.uint64)
    S = _unchecked(S_memory)  # a view: every world drawn passes it on (see search_values)
    _seed_rng(S, _mix64(_next_u64(H) ^ np.uint64(SEARCH_SEEDED)))
    base = _rollout_option(C, G, H, p, n, duty, cards, suits, no_stack, k, S)
    totals, diffs, squares, played, alive = search_values(C, G, H, p, n, duty, cards, suits,
                                                          no_stack, k, base, S)
    _keep_alive(S_memory, S_memory)
    z = (C[C_POL + _seat(G, p)] >> SEARCH_MARGIN_SHIFT) & 3
    best = base
    margin = 0.0  # the best option's lead over the baseline beyond z standard errors
    for o in range(k):
        w = max(played[o], 1)
        # the estimate in thousandths (of a deal won, or of a point): play narrates it
        _emit(G, tr, EV_ESTIMATE, _seat(G, p),
              (cards[o] + 2) | ((suits[o] + 1) << 8) | (no_stack[o] << 12)
              | (ROLLOUT_MOVE_BIT if o == base else 0), int(round(1000.0 * totals[o] / w)))
        if alive[o] and o != base and played[o] > 1:
            lead = diffs[o] / w
            spread = squares[o] / w - lead * lead
            lead -= z * np.sqrt(max(spread, 0.0) / (w - 1))
            if lead > margin:
                margin = lead
                best = o
    G[S_FORCE_SUIT] = suits[best]
    G[S_NO_STACK] = no_stack[best]
    return cards[best]


@njit
def search_decision_nb(constants, frozen, G_memory, H_memory, p, n, seed):
    """What the search player at position p weighs for its move in the state (G, H), with its
    search stream started at ``seed``: the options (cards, suits, no_stack), the baseline's
    index, and per option its total, paired-difference and squared-difference sums and worlds
    played (see search_values). ``frozen`` is the kernel's (``simulate.frozen_rules``: its
    playouts' rules). For the coach and for tests: a decision is a function of the seat's
    information and its stream only."""
    C = _unchecked_rules(constants, frozen)
    G = _unchecked(G_memory)
    H = _unchecked(H_memory)
    cards = np.empty(MAX_OPTIONS, np.int64)
    suits = np.empty(MAX_OPTIONS, np.int64)
    no_stack = np.empty(MAX_OPTIONS, np.int64)
    k = _search_choices(C, G, H, p, False, cards, suits, no_stack)
    S_memory = np.empty(H_SIZE, np.uint64)
    S = _unchecked(S_memory)
    _seed_rng(S, np.uint64(seed))
    base = _rollout_option(C, G, H, p, n, False, cards, suits, no_stack, k, S)
    totals, diffs, squares, played, _ = search_values(C, G, H, p, n, False, cards, suits,
                                                      no_stack, k, base, S)
    _keep_alive(constants, G_memory)
    _keep_alive(H_memory, S_memory)
    return (cards[:k].copy(), suits[:k].copy(), no_stack[:k].copy(), base, totals, diffs,
            squares, played)


