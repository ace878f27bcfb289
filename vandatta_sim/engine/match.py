"""A game of deals: the match's bookkeeping (scores, eliminations, the next dealer), one game
(a deal or a match) and a block of a batch's games; kernels.py runs them."""

from __future__ import annotations

import numpy as np

from .layout import (
    BLOCK, DEAL_CAP, EV_ELIMINATED, EV_END_MATCH, EV_SCORE, G_ACTIVE, G_POINTS, G_SEATS,
    G_SIZE, G_TOTALS, G_WINS, H_SIZE, M_BEST_OF, M_DEALS, M_SINGLE, O_BLOCKED, O_CAPPED,
    O_DEALS, O_DRAWS, O_EVENTS, O_FIRST_WINNER, O_PLAYS, O_RESHUFFLES, O_SWAPPED,
    O_TURNS, O_WINNER, R_ELIM_PASS, R_MATCH_KIND, R_MATCH_PARAM, R_PLAYERS, S_DRAWS, S_NEV,
    S_PLAYS, S_RESHUFFLES, S_SWAPPED, S_TURNS)
from ._numba import _keep_alive, _unchecked, _unchecked_rules, inline, njit
from .primitives import _emit, _seat, _seed_rng, _stopped, game_seed_nb
from .feel import _feel_deal_end, _feel_game_end, _feel_game_start, _feel_scored
from .game import _play_deal


# ================================================================================================
# a match
# ================================================================================================

@inline
def _lowest_total(G, n):
    best = -1
    low = 1 << 60
    tie = False
    for k in range(n):
        t = G[G_TOTALS + _seat(G, k)]
        if t < low:
            low, best, tie = t, _seat(G, k), False
        elif t == low:
            tie = True
    return -1 if tie else best


MATCH_GOES_ON = -3  # _after_deal: the match is not over


@inline
def _seat_order(G, n_seats, dealer):
    """Fill G_SEATS with the seats still in the match in playing order, förhand first and
    ``dealer`` last; returns their number."""
    n = 0
    q = dealer
    for _ in range(n_seats):
        q = (q + 1) % n_seats
        if G[G_ACTIVE + q]:
            G[G_SEATS + n] = q
            n += 1
    return n


@inline
def _next_dealer(G, n_seats, dealer):
    """The first seat after ``dealer`` still in the match."""
    q = dealer
    for _ in range(n_seats):
        q = (q + 1) % n_seats
        if G[G_ACTIVE + q]:
            return q
    return dealer


@inline
def _is_out(C, G, k, target):
    """Whether position k's match total eliminates it (past the target, or on it unless
    eliminate_at is pass)."""
    t = G[G_TOTALS + _seat(G, k)]
    return t > target or (t == target and not C[R_ELIM_PASS])


@inline
def _after_deal(C, G, tr, n, res, deal_no):
    """Score deal ``deal_no`` (result ``res`` as _play_deal's, points in G_POINTS) into the
    match and eliminate who is out: the match winner's seat, -1 where the match ended without
    one, or MATCH_GOES_ON."""
    kind = C[R_MATCH_KIND]
    target = C[R_MATCH_PARAM]
    for k in range(n):
        G[G_TOTALS + _seat(G, k)] += G[G_POINTS + k]
        _emit(G, tr, EV_SCORE, _seat(G, k), G[G_POINTS + k], G[G_TOTALS + _seat(G, k)])
    if res >= 0:
        G[G_WINS + _seat(G, res)] += 1
    if kind == M_SINGLE:
        return _seat(G, res) if res >= 0 else -1
    if res == -2:  # a capped deal ends the match undecided
        return -1
    if kind == M_DEALS:
        if deal_no + 1 >= target:
            return _lowest_total(G, n)
    elif kind == M_BEST_OF:
        if res >= 0 and G[G_WINS + _seat(G, res)] >= target // 2 + 1:
            return _seat(G, res)
    else:
        n_out = 0
        for k in range(n):
            n_out += _is_out(C, G, k, target)
        if n_out == n:
            return _lowest_total(G, n)
        for k in range(n):
            if _is_out(C, G, k, target):
                G[G_ACTIVE + _seat(G, k)] = 0
                _emit(G, tr, EV_ELIMINATED, _seat(G, k), 0, 0)
        if n - n_out == 1:
            for k in range(n):
                if G[G_ACTIVE + _seat(G, k)]:
                    return _seat(G, k)
            return -1
    return MATCH_GOES_ON


@inline
def _play_game(C, G, H, tr, swap_rank, swap_seat, out, points, eights, aces, decide):
    """One game: a single deal or a whole match, by C[R_MATCH_KIND]; ``decide``: the search
    seats' choice (game._turn_loop)."""
    n_seats = C[R_PLAYERS]
    for q in range(n_seats):
        G[G_ACTIVE + q] = 1
        G[G_TOTALS + q] = 0
        G[G_WINS + q] = 0
    for j in range(out.shape[0]):  # O_LEAN_SIZE columns, or O_SIZE in a feel kernel
        out[j] = 0
    _feel_game_start(G, tr, n_seats)
    out[O_FIRST_WINNER] = -1
    dealer = n_seats - 1
    winner = -1
    G[S_SWAPPED] = 0
    for deal_no in range(DEAL_CAP):
        n = _seat_order(G, n_seats, dealer)
        swap_pos = 0
        if swap_rank >= 0:
            for k in range(n):
                if _seat(G, k) == swap_seat:
                    swap_pos = k
        res = _play_deal(C, G, H, tr, n, deal_no, swap_pos, swap_rank, eights, aces, decide)
        if _stopped(C, G, tr):
            break  # the step: an external seat's decision waits
        out[O_DEALS] += 1
        out[O_TURNS] += G[S_TURNS]
        out[O_PLAYS] += G[S_PLAYS]
        out[O_DRAWS] += G[S_DRAWS]
        out[O_RESHUFFLES] += G[S_RESHUFFLES]
        _feel_deal_end(G, tr, out, res)
        if deal_no == 0:
            out[O_FIRST_WINNER] = _seat(G, res) if res >= 0 else -1
        if res == -1:
            out[O_BLOCKED] += 1
        elif res == -2:
            out[O_CAPPED] = 1
        winner = _after_deal(C, G, tr, n, res, deal_no)
        _feel_scored(C, G, tr, n)
        if winner != MATCH_GOES_ON:
            break
        dealer = _next_dealer(G, n_seats, dealer)
    else:
        out[O_CAPPED] = 1
        winner = -1
    if C[R_MATCH_KIND] != M_SINGLE:
        _emit(G, tr, EV_END_MATCH, winner, out[O_DEALS], 0)
    out[O_WINNER] = winner
    out[O_SWAPPED] = G[S_SWAPPED]
    out[O_EVENTS] = G[S_NEV]
    _feel_game_end(C, G, tr, out, winner, n_seats)
    for q in range(n_seats):
        points[q] = G[G_TOTALS + q]


# ================================================================================================
# the batch runner
# ================================================================================================
def _block(constants, frozen, seed_key, first_game, swap_rank, swap_seat, tr, out, points, eights,
           aces, b, decide):
    """Games b * BLOCK … (b + 1) * BLOCK - 1 of the batch (run_batch_nb's parallel body)."""
    n_games = out.shape[0]
    n_seats = constants[R_PLAYERS]
    # made here, in the parallel body: the parfor passes only plain arrays (and frozen, no data)
    C = _unchecked_rules(constants, frozen)
    G_memory = np.zeros(G_SIZE, np.int64)
    H_memory = np.zeros(H_SIZE, np.uint64)
    G = _unchecked(G_memory)
    H = _unchecked(H_memory)
    for g in range(b * BLOCK, min(n_games, (b + 1) * BLOCK)):
        _seed_rng(H, game_seed_nb(seed_key, first_game + g))
        G[S_NEV] = 0
        seat = swap_seat if swap_seat >= 0 else (first_game + g) % n_seats
        _play_game(C, G, H, tr, swap_rank, seat, out[g], points[g], eights[g], aces[g], decide)
    _keep_alive(G_memory, H_memory)  # the views G and H borrow their memory


# Inlined where it is used (kernels.py): the heuristic kernels inline it in the parallel body (as
# a call, the parfor's function calling it, they ran 4-5% slower: measured); the kernel that may
# hold search seats inlines it in a function of its own that the body calls (numba's parallel
# passes copy and analyse all the code inlined into the body, and that kernel's real games are a
# small share of a search seat's time, its playouts the rest, and of a traced game's).
_block_inlined = inline(_block)
