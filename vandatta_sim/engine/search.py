"""The search player: determinized Monte Carlo over its own information (its options, the
baseline, the playouts, how the budget is raced, the choice), and the tree search player.

``search_move`` is a search seat's choice; kernels.py hands it to the game's turn loop as its
``decide``. The playouts run the turn loop without a search (``game._playout_turns``) on
copies of the game's state (``primitives._copy_state``). What the worlds believe about the
hidden cards is worlds.py."""

from __future__ import annotations

import numpy as np

from ..cards import N_SUITS, N_TYPES
from .layout import (
    ALL_SUITS, BELIEFS_WEIGHTED, C_POL, C_SCALE, C_SIZE, C_VALUE, DEAL_CAP, EIGHTS, EV_ESTIMATE,
    G_DISCARD, G_LACKS, G_PLAY_SIZE, G_SIZE, HI, H_SIZE, ISMCTS_C, ISMCTS_MARGIN_SHIFT,
    JK_SUPER_EIGHT, JOKERS, MAX_SEATS, M_SINGLE, ONE, OPT_ISMCTS_PLAIN_ROOT, OPT_SEARCH_FLAT,
    OPT_SEARCH_MATCH, OPT_SEARCH_POINTS, POL_ISMCTS, POL_KIND, ROLLOUT_KIND, ROLLOUT_TURNS,
    R_EIGHT_SAME, R_JOKER_EFFECT, R_MATCH_KIND, R_MUST_PLAY, R_PLAYERS, R_STACKING,
    SEARCH_BELIEFS_SHIFT, SEARCH_BUDGET_SHIFT, SEARCH_MARGIN_SHIFT, SEARCH_ROLLOUT_SHIFT,
    S_CALL_FORGOT, S_DEAL_NO, S_DIR, S_DRAWS, S_DUTY_ACE, S_DUTY_TWO, S_EFF, S_FORCE_SUIT, S_ND,
    S_NO_STACK, S_NT, S_PLAYS, S_RANK, S_SUIT, S_TOP_JOKER, TALON_SIZE, ZERO)
from ._numba import (
    NOTHING_FROZEN, _holds_playout_rules, _keep_alive, _low_bit, _playout_rules, _unchecked,
    _unchecked_rules, njit)
from .primitives import (
    GOLDEN, _bit, _copy_into, _copy_state, _emit, _hand_count, _mix64, _next_u64, _rank,
    _rank_mask, _seat, _seed_rng, _step)
from .policies import NOT_COUNTED, NO_FORCE, _choose, _choose_suit, _min_opponent_for
from .game import (
    _deal_hands, _duty_answers, _hand_points, _hand_points_all, _legal, _on_top, _playout_turns,
    _start_card)
from .match import MATCH_GOES_ON, _after_deal, _next_dealer, _seat_order
from .worlds import _world


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
# A playout's turn limit as an int64, not the literal ROLLOUT_TURNS: numba compiles a function
# once for every literal argument a call gives it (a literal False, a position that starts at
# 0 too), and the turn loop is a large function. The search's calls of compiled functions give
# int64 and bool arguments, so that every caller shares one compiled turn loop per kind of rules.
MAX_PLAYOUT_TURNS = np.int64(ROLLOUT_TURNS)


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
        res, _, _ = _playout_turns(C, G, H, tr, np.int64(n), np.int64(0), MAX_PLAYOUT_TURNS,
                                   np.int64(NO_FORCE), np.bool_(False))
    return -1


@njit
def _playout_outcome(Cr, G, H, tr, n, p, card, duty, pol, seat, world_seed):
    """Play one option (``card``, its suit and stacking already in G) out from the world in
    (G, H), every seat playing Cr's policies: its outcome for p (a deal won, minus p's points as
    Cr's scale weighs them, or a match won by ``seat``). Compiled once per kind of Cr (the
    general rules, or the rules frozen for the playouts)."""
    result, _, _ = _playout_turns(Cr, G, H, tr, n, p, MAX_PLAYOUT_TURNS, card, duty)
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
        _world(C, G, H, Gw, Hw, p, n, S, pool, unseen, beliefs, Gc, Hc, Gs, Hs)
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
def search_move(C, G, H, tr, p, n, duty):
    """The search seat at position p's choice for its move (an answer to a duty where ``duty``):
    a card, -1 to draw or take the duty, or NO_FORCE where nothing is to be chosen (its rollout
    policy then plays); its suit and stacking choice are left in G (S_FORCE_SUIT, S_NO_STACK).
    The ``decide`` of the kernels that play search seats (game._turn_loop)."""
    if (C[C_POL + _seat(G, p)] & POL_KIND) == POL_ISMCTS:
        return _ismcts_move(C, G, H, tr, p, n, duty)
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
    z = np.float64((C[C_POL + _seat(G, p)] >> SEARCH_MARGIN_SHIFT) & 3)  # as ismcts' 2.0
    best = base
    margin = 0.0  # the best option's lead over the baseline beyond z standard errors
    for o in range(k):
        w = max(played[o], 1)
        # the estimate in thousandths (of a deal won, or of a point): play narrates it
        _emit(G, tr, EV_ESTIMATE, _seat(G, p),
              (cards[o] + 2) | ((suits[o] + 1) << 8) | (no_stack[o] << 12)
              | (ROLLOUT_MOVE_BIT if o == base else 0), int(round(1000.0 * totals[o] / w)))
        if alive[o] and o != base and played[o] > 1:
            lead = _lead_lower_bound(diffs[o], squares[o], w, z)
            if lead > margin:
                margin = lead
                best = o
    G[S_FORCE_SUIT] = suits[best]
    G[S_NO_STACK] = no_stack[best]
    return cards[best]


@njit
def _lead_lower_bound(total, squares, n, z):
    """An option's mean paired lead over the rollout's move (its sum ``total`` and sum of
    squares over ``n`` ≥ 2 plays) less ``z`` standard errors: both search players' decision."""
    lead = total / n
    return lead - z * np.sqrt(max(squares / n - lead * lead, 0.0) / (n - 1))


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
    k = _search_choices(C, G, H, p, np.bool_(False), cards, suits, no_stack)
    S_memory = np.empty(H_SIZE, np.uint64)
    S = _unchecked(S_memory)
    _seed_rng(S, np.uint64(seed))
    base = _rollout_option(C, G, H, p, n, np.bool_(False), cards, suits, no_stack, k, S)
    totals, diffs, squares, played, _ = search_values(C, G, H, p, n, np.bool_(False), cards,
                                                      suits, no_stack, k, base, S)
    _keep_alive(constants, G_memory)
    _keep_alive(H_memory, S_memory)
    return (cards[:k].copy(), suits[:k].copy(), no_stack[:k].copy(), base, totals, diffs,
            squares, played)




# ================================================================================================
# the tree search player (ismcts): information-set Monte Carlo tree search over its own moves
# ================================================================================================
# Cowling, Powley & Whitehouse (2012), single observer: one tree over the seat's own information
# sets, a world drawn (as search draws them) for every iteration. An iteration walks down the
# tree in its world: at each of the seat's decisions UCB1 picks an option among the node's (the
# rollout policy's move first; an option not tried yet counts as one visit at the node's mean,
# "first-play urgency": with every untried option first, in order, 256 iterations won 24.4%
# against three experts, below their 25.1%), the seat's turn is played with it, and the other seats play
# their rollout policy (as search assumes too) until the seat decides again; that decision is
# the child node, keyed by what the seat sees then (its hand, the public state and the path).
# The first new node ends the walk: its rollout policy's option is played out to the end of the deal by
# the rollout policy for every seat, and the outcome (a deal won: 1, else 0) is added to every
# option on the path. The root is paired (the default): every iteration also plays the root's
# rollout move out in the same world on the same random stream, the root's options are chosen by
# UCB1 on their outcome minus that one's (a far smaller spread than the outcome's), and the
# decision is search's rule: the rollout's move unless another leads it by the margin's
# standard errors (1 by default; 4 players, 16,000 deals, margin 2: 27.8% against 25.4% with the
# plain root, whose decision is the option played most; docs/policies.md).
# Below the root the seat's own later moves are searched too (what root-only search lacks:
# every later move of its own was the rollout policy's); the opponents stay a model (their
# rollout policy), so no node belongs to them. Within a node the options are the same in every
# world (the seat's hand and the public state are part of its key), so the availability count
# of an option equals its node's visits and UCB1's parent count is the node's.
# Memory, bounded whatever the budget: at most iterations + 1 nodes of at most MAX_OPTIONS
# options (8 + 8 bytes each) and a hash table of twice as many slots (16 bytes each): 1.1 MB
# at the default 256 iterations, 69 MB at the largest, 16,384.
ISMCTS_SEEDED = 0x15C75  # mixed into the tree search stream's seed
ISMCTS_C_VALUES = np.array(ISMCTS_C)  # by the code in the policy's margin bits


@njit
def _ismcts_key(G, H, p, n, parent, option):
    """The key of p's information set reached from node ``parent`` by its ``option``: its hand
    and the public state now (the top, what it asks for, the hand sizes, the piles' sizes)."""
    key = _mix64(np.uint64(parent) * GOLDEN ^ np.uint64(option + 1))
    key = _mix64(key ^ H[p])
    key = _mix64(key ^ H[HI + p])
    for f in (S_NT, S_ND, S_EFF, S_SUIT, S_RANK, S_TOP_JOKER, S_DIR, S_DUTY_ACE, S_DUTY_TWO):
        key = _mix64(key ^ np.uint64(G[f] + 3))
    key = _mix64(key ^ np.uint64(G[G_DISCARD + G[S_ND] - 1] + 1))
    for q in range(n):
        key = _mix64(key ^ np.uint64(_hand_count(H, q) + 1))
    return key


@njit
def _ismcts_find(keys, slots, key):
    """The slot of ``key`` in the open-addressing table (its node in slots[...], or -1 there
    where the key is new: the caller claims the slot)."""
    mask = keys.shape[0] - 1
    i = np.int64(key & np.uint64(mask))
    while slots[i] >= 0 and keys[i] != key:
        i = (i + 1) & mask
    return i


@njit
def _ismcts_iterations(Cx, C, G, H, p, n, duty, k_root, iterations, c, beliefs, paired, S, Gw,
                       Hw, G2, H2, G3, H3, Gc, Hc, Gs, Hs, pool, unseen, no_trace, first, counts,
                       base, visits, wins, advantage, advantage_sq, node_visits, keys, slots,
                       cards, suits, no_stack):
    """Run the iterations (see the section's comment) on rules Cx (every seat its rollout
    policy); the tree's arrays are filled in place. Compiled once per kind of Cx."""
    path_edge = np.empty(ROLLOUT_TURNS, np.int64)  # the options played, and their nodes
    path_node = np.empty(ROLLOUT_TURNS, np.int64)
    nodes = 1
    edges = k_root
    base_outcome = 0.0
    if beliefs == BELIEFS_WEIGHTED:  # Gc, Gs: the candidate worlds' and the weights' scratch
        _copy_state(Gs, Hs, G, H, G_SIZE)
    for it in range(iterations):
        _world(C, G, H, Gw, Hw, p, n, S, pool, unseen, beliefs, Gc, Hc, Gs, Hs)
        _copy_state(G2, H2, Gw, Hw, G_PLAY_SIZE)
        stream = _next_u64(S)
        _seed_rng(H2, stream)
        if paired:  # the root's rollout move played out in this world, on the same stream
            _copy_state(G3, H3, Gw, Hw, G_PLAY_SIZE)
            _seed_rng(H3, stream)
            G3[S_FORCE_SUIT] = suits[base[0]]
            G3[S_NO_STACK] = no_stack[base[0]]
            result, _, _ = _playout_turns(Cx, G3, H3, no_trace, n, p, MAX_PLAYOUT_TURNS,
                                          cards[base[0]], duty)
            base_outcome = 1.0 if result == p else 0.0
        node = 0
        d = 0
        outcome = 0.0
        first_duty = duty
        turns = 0
        while True:
            k = counts[node]
            e0 = first[node]
            pick = base[node]  # the rollout policy's move is tried first
            if visits[e0 + pick] > 0:
                # the root of a paired search weighs its options by their outcome minus the
                # rollout move's in the same world (far less spread than the outcome itself)
                score = advantage if paired and node == 0 else wins
                total = 0.0
                for o in range(k):
                    total += score[e0 + o]
                log_n = np.log(node_visits[node])
                # an option not tried yet counts as one visit at the node's mean (first-play
                # urgency): the rollout's move is not abandoned for untried ones by rote
                untried = total / node_visits[node] + c * np.sqrt(log_n)
                best = -np.inf
                for o in range(k):
                    v = visits[e0 + o]
                    value = untried if v == 0 else score[e0 + o] / v + c * np.sqrt(log_n / v)
                    if value > best:
                        best = value
                        pick = o
            path_edge[d] = e0 + pick
            path_node[d] = node
            d += 1
            G2[S_FORCE_SUIT] = suits[e0 + pick]
            G2[S_NO_STACK] = no_stack[e0 + pick]
            card = cards[e0 + pick]
            if visits[e0 + pick] == 0 or d >= ROLLOUT_TURNS - 1:  # a new leaf: play it out
                result, _, _ = _playout_turns(Cx, G2, H2, no_trace, n, p, MAX_PLAYOUT_TURNS,
                                              card, first_duty)
                outcome = 1.0 if result == p else 0.0
                break
            # the seat's turn with the option, then the others' until it decides again
            result, _, _ = _playout_turns(Cx, G2, H2, no_trace, n, p, np.int64(1), card,
                                          first_duty)
            q = _step(p, G2[S_DIR], n)
            idle = 0
            ended = result != -2
            while not ended:
                turns += 1
                if turns > ROLLOUT_TURNS:
                    ended = True  # as a playout this long: not won
                    result = -2
                    break
                plays, draws = G2[S_PLAYS], G2[S_DRAWS]
                if q == p:
                    G2[S_CALL_FORGOT] = 0  # what the turn loop does as a turn starts
                    first_duty = G2[S_DUTY_ACE] > 0 or G2[S_DUTY_TWO] > 0
                    kw = _search_choices(Cx, G2, H2, p, first_duty, cards[edges:],
                                         suits[edges:], no_stack[edges:])
                    if kw > 1:
                        break  # the seat decides: the node below
                result, _, _ = _playout_turns(Cx, G2, H2, no_trace, n, q, np.int64(1),
                                              np.int64(NO_FORCE), np.bool_(False))
                if result != -2:
                    ended = True
                    break
                idle = idle + 1 if (G2[S_PLAYS] == plays and G2[S_DRAWS] == draws) else 0
                if idle >= n:
                    ended = True  # blocked: nobody can play or draw
                    result = -1
                    break
                q = _step(q, G2[S_DIR], n)
            if ended:
                outcome = 1.0 if result == p else 0.0
                break
            key = _ismcts_key(G2, H2, p, n, np.int64(node), pick)
            slot = _ismcts_find(keys, slots, key)
            child = slots[slot]
            if child < 0:  # a new node: its options are the ones just listed (at edges)
                child = nodes
                nodes += 1
                keys[slot] = key
                slots[slot] = child
                first[child] = edges
                counts[child] = kw
                base[child] = _rollout_option(C, G2, H2, p, n, first_duty, cards[edges:],
                                              suits[edges:], no_stack[edges:], kw, S)
                node_visits[child] = 0
                for o in range(kw):
                    visits[edges + o] = 0
                    wins[edges + o] = 0.0
                edges += kw
            elif counts[child] != kw:  # a key's collision (2^-64): play this out as a leaf
                result, _, _ = _playout_turns(Cx, G2, H2, no_trace, n, p, MAX_PLAYOUT_TURNS,
                                              np.int64(NO_FORCE), first_duty)
                outcome = 1.0 if result == p else 0.0
                break
            node = child
        for j in range(d):
            visits[path_edge[j]] += 1
            wins[path_edge[j]] += outcome
            node_visits[path_node[j]] += 1
        if paired and d > 0:
            advantage[path_edge[0]] += outcome - base_outcome
            advantage_sq[path_edge[0]] += (outcome - base_outcome) ** 2
    return nodes


@njit
def ismcts_tree(C, G, H, p, n, duty, S):
    """The tree search for p's move (an answer to a duty where ``duty``) with the seat's stream
    S: the root's options (cards, suits, no_stack), how often each was played and its wins, and
    the nodes built. Depends on nothing p cannot see (except beliefs=oracle)."""
    seat = _seat(G, p)
    pol = C[C_POL + seat]
    iterations = (pol >> SEARCH_BUDGET_SHIFT) & 0xFFFF
    beliefs = (pol >> SEARCH_BELIEFS_SHIFT) & 3
    c = ISMCTS_C_VALUES[(pol >> SEARCH_MARGIN_SHIFT) & 3]
    paired = (pol & OPT_ISMCTS_PLAIN_ROOT) == 0
    z = np.float64((pol >> ISMCTS_MARGIN_SHIFT) & 3)
    max_nodes = iterations + 1
    max_edges = max_nodes * MAX_OPTIONS
    cards = np.empty(max_edges, np.int64)
    suits = np.empty(max_edges, np.int64)
    no_stack = np.empty(max_edges, np.int64)
    k_root = _search_choices(C, G, H, p, duty, cards, suits, no_stack)
    visits = np.zeros(max_edges, np.int64)
    wins = np.zeros(max_edges, np.float64)
    advantage = np.zeros(k_root, np.float64)  # the root's options: outcome minus the base's
    advantage_sq = np.zeros(k_root, np.float64)
    first = np.zeros(max_nodes, np.int64)
    counts = np.zeros(max_nodes, np.int64)
    node_visits = np.zeros(max_nodes, np.int64)
    counts[0] = k_root
    base = np.zeros(max_nodes, np.int64)  # per node: its rollout policy's option
    base[0] = _rollout_option(C, G, H, p, n, duty, cards, suits, no_stack, k_root, S)
    size = 1
    while size < 2 * max_nodes:
        size *= 2
    keys = np.zeros(size, np.uint64)
    slots = np.full(size, -1, np.int64)
    Cr_memory = np.empty(C_SIZE, np.int64)
    _copy_into(Cr_memory, C, C_SIZE)
    for q in range(MAX_SEATS):
        Cr_memory[C_POL + q] = (pol >> SEARCH_ROLLOUT_SHIFT) & 3
    memory = np.empty((5, G_SIZE), np.int64)
    hands = np.empty((5, H_SIZE), np.uint64)
    scratch = np.empty(TALON_SIZE + N_TYPES, np.int64)
    no_trace_memory = np.zeros(0, np.int8)
    Gw, G2, G3 = _unchecked(memory[0]), _unchecked(memory[1]), _unchecked(memory[2])
    Hw, H2, H3 = _unchecked(hands[0]), _unchecked(hands[1]), _unchecked(hands[2])
    Gc, Gs, Hc, Hs = (_unchecked(memory[3]), _unchecked(memory[4]), _unchecked(hands[3]),
                      _unchecked(hands[4]))
    pool = _unchecked(scratch[:TALON_SIZE])
    unseen = _unchecked(scratch[TALON_SIZE:])
    no_trace = _unchecked(no_trace_memory)
    Cr = _unchecked_rules(Cr_memory, NOTHING_FROZEN)
    if _holds_playout_rules(Cr_memory, C):
        nodes = _ismcts_iterations(_playout_rules(Cr_memory, C), C, G, H, p, n, duty, k_root,
                                   iterations, c, beliefs, paired, S, Gw, Hw, G2, H2, G3, H3,
                                   Gc, Hc, Gs, Hs, pool, unseen, no_trace, first, counts, base,
                                   visits, wins, advantage, advantage_sq, node_visits, keys,
                                   slots, cards, suits, no_stack)
    else:
        nodes = _ismcts_iterations(Cr, C, G, H, p, n, duty, k_root, iterations, c, beliefs,
                                   paired, S, Gw, Hw, G2, H2, G3, H3, Gc, Hc, Gs, Hs, pool,
                                   unseen, no_trace, first, counts, base, visits, wins,
                                   advantage, advantage_sq, node_visits, keys, slots, cards,
                                   suits, no_stack)
    _keep_alive(Cr_memory, memory)
    _keep_alive(hands, scratch)
    _keep_alive(no_trace_memory, no_trace_memory)
    choice = base[0]  # on a tie (or no lead) the rollout's move
    lead = 0.0
    for o in range(k_root):
        if not paired:  # the option played most
            if visits[o] > visits[choice]:
                choice = o
        elif o != base[0] and visits[o] > 1:  # search's rule: a lead of z standard errors
            low = _lead_lower_bound(advantage[o], advantage_sq[o], visits[o], z)
            if low > lead:
                lead = low
                choice = o
    return (cards[:k_root].copy(), suits[:k_root].copy(), no_stack[:k_root].copy(), base[0],
            visits[:k_root].copy(), wins[:k_root].copy(), nodes, choice)


@njit
def _ismcts_move(C, G, H, tr, p, n, duty):
    cards = np.empty(MAX_OPTIONS, np.int64)
    suits = np.empty(MAX_OPTIONS, np.int64)
    no_stack = np.empty(MAX_OPTIONS, np.int64)
    if _search_choices(C, G, H, p, duty, cards, suits, no_stack) <= 1:
        return NO_FORCE  # nothing to choose: the rollout policy plays the one option
    S_memory = np.empty(H_SIZE, np.uint64)
    S = _unchecked(S_memory)
    _seed_rng(S, _mix64(_next_u64(H) ^ np.uint64(ISMCTS_SEEDED)))
    cards, suits, no_stack, base, visits, wins, _, best = ismcts_tree(C, G, H, p, n, duty, S)
    _keep_alive(S_memory, S_memory)
    for o in range(cards.shape[0]):
        # the share of deals won, in thousandths: play narrates it as search's estimates
        _emit(G, tr, EV_ESTIMATE, _seat(G, p), (cards[o] + 2) | ((suits[o] + 1) << 8)
              | (no_stack[o] << 12) | (ROLLOUT_MOVE_BIT if o == base else 0),
              int(round(1000.0 * wins[o] / max(visits[o], 1))))
    G[S_FORCE_SUIT] = suits[best]
    G[S_NO_STACK] = no_stack[best]
    return cards[best]


@njit
def ismcts_decision_nb(constants, frozen, G_memory, H_memory, p, n, seed):
    """What the tree search player at position p weighs for its move in the state (G, H), with
    its stream started at ``seed``: the root's options, their visits and wins, and the nodes
    built (see ismcts_tree). For the coach and for tests."""
    C = _unchecked_rules(constants, frozen)
    G = _unchecked(G_memory)
    H = _unchecked(H_memory)
    S_memory = np.empty(H_SIZE, np.uint64)
    S = _unchecked(S_memory)
    _seed_rng(S, np.uint64(seed))
    out = ismcts_tree(C, G, H, p, n, np.bool_(False), S)
    _keep_alive(constants, G_memory)
    _keep_alive(H_memory, S_memory)
    return out
