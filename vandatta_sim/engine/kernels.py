"""The engine's entry points that play real games: the batch runner, the step kernel and the
belief audit. They are the one place that hands the turn loop its ``decide`` (game.py): the
search player (``search.search_move``) where a kernel may hold search seats (a 2-D trace), none
(``game.no_search``) in the heuristic kernels (a 1-D dummy trace), whose games are the same
with a search seat playing its rollout policy."""

from __future__ import annotations

import numpy as np
from numba import prange

from .layout import (
    BLOCK, G_ACTIVE, G_SIZE, H_SIZE, R_PLAYERS, S_DIR, S_DRAWS, S_NEV, S_PLAYS, TURN_CAP)
from ._numba import PLAIN_KERNEL, _keep_alive, _unchecked, _unchecked_rules, njit
from .primitives import _mix64, _seat, _seed_rng, _step, game_seed_nb
from .policies import NO_FORCE
from .game import _deal_hands, _start_card, _turn_loop, no_search
from .match import _block_inlined, _play_game, _seat_order
from .worlds import AUDIT_SEEDED, _belief_audit, _weight_audit
from .search import search_move


# ================================================================================================
# the batch runner
# ================================================================================================
@njit
def _search_block(constants, frozen, seed_key, first_game, swap_rank, swap_seat, tr, out, points,
                  eights, aces, b):
    """A block of the kernel that may hold search seats (match._block with ``search_move``).
    The search is named here, inside the block's own function: a dispatcher handed across a
    call that is not inlined is a run-time address, and numba cannot cache a kernel holding
    one ("dynamic globals")."""
    _block_inlined(constants, frozen, seed_key, first_game, swap_rank, swap_seat, tr, out,
                   points, eights, aces, b, search_move)


# The plain build (VANDATTA_PLAIN_KERNEL=1, a reference its test compares with) runs the blocks
# one after another and inlines nothing (_numba.inline), so it compiles in under a tenth of the
# CPU time; it hands no_search across a call that is not inlined, a run-time address numba cannot
# cache, so its batch kernel is compiled afresh in each process (its helpers are cached)
@njit(parallel=not PLAIN_KERNEL, cache=not PLAIN_KERNEL)
def run_batch_nb(constants, frozen, seed_key, first_game, swap_rank, swap_seat, tr, out, points,
                 eights, aces):
    """Play games first_game … first_game + len(out) - 1 into the output arrays.

    Game g uses only its own random stream (seed_key, first_game + g), so the results are the
    same for any number of threads. ``tr`` (int32 rows of kind, seat, a, b) records game 0's
    events when it has rows (use it with a single game; their number is in
    ``out[:, O_EVENTS]``); with zero rows nothing is recorded: traces and search seats share
    that compiled kernel. A 1-D int8 ``tr`` compiles the kernel for heuristic players only (no
    trace, bookkeeping or search code; a search seat then plays its rollout policy): the
    games are the same, faster. ``frozen`` (a ``FrozenRules``: entries of ``constants``, or
    none) compiles those entries into the kernel as constants: the same games, faster again.
    """
    n_blocks = (out.shape[0] + BLOCK - 1) // BLOCK
    for b in prange(n_blocks):
        if tr.ndim == 2:  # a constant: numba compiles one branch
            # b as int64: numba types the prange index uint64 when it types this kernel and
            # int64 in the parallel body it then builds, and compiled the call once for each
            _search_block(constants, frozen, seed_key, first_game, swap_rank, swap_seat, tr, out,
                          points, eights, aces, np.int64(b))
        else:
            _block_inlined(constants, frozen, seed_key, first_game, swap_rank, swap_seat, tr,
                           out, points, eights, aces, b, no_search)


# ================================================================================================
# the step: one game played to its next external decision
# ================================================================================================
@njit
def step_nb(constants, frozen, seed_key, game, tr, G_memory, H_memory, out, points, eights,
            aces):
    """Play game ``game`` of the run with ``seed_key`` from its start, with the answers in
    ``constants`` (C_STEP, C_ANSWERS) for its external seats, until it ends or an external seat
    must decide beyond them; G_memory (G_STEP_SIZE) then holds that decision and the state at
    it (layout.G_EXT), ``tr`` the events, ``out`` … ``aces`` the game's row where it ended.
    The game of ``run_batch_nb`` for the same seed and game where the answers are the
    policies' own choices (vandatta_sim.step replays a game this way, one decision at a time)."""
    C = _unchecked_rules(constants, frozen)
    G = _unchecked(G_memory)
    H = _unchecked(H_memory)
    _seed_rng(H, game_seed_nb(seed_key, game))
    G[S_NEV] = 0
    _play_game(C, G, H, tr, -1, 0, out, points, eights, aces, search_move)
    _keep_alive(G_memory, H_memory)
    _keep_alive(constants, constants)


# ================================================================================================
# the belief audit: a search seat's beliefs against the true hands, turn by turn
# ================================================================================================
@njit
def belief_audit_nb(constants, frozen, seed_key, games, focal_seat, counts):
    """Play single deals 0 … games-1 of ``seed_key`` (the games ``simulate`` plays) turn by turn
    and audit the beliefs at every turn of ``focal_seat`` (_belief_audit) into ``counts``.
    ``frozen``: the search kernel's (``simulate.frozen_rules(C, lean=False)``), whose compiled
    search player this kernel then shares."""
    C = _unchecked_rules(constants, frozen)
    G_memory = np.zeros(G_SIZE, np.int64)
    H_memory = np.zeros(H_SIZE, np.uint64)
    G = _unchecked(G_memory)
    H = _unchecked(H_memory)
    tr = np.zeros((0, 4), np.int32)
    S_memory = np.empty(H_SIZE, np.uint64)
    S = _unchecked(S_memory)
    _seed_rng(S, _mix64(np.uint64(seed_key) ^ np.uint64(AUDIT_SEEDED)))
    n_seats = C[R_PLAYERS]
    for g in range(games):
        _seed_rng(H, game_seed_nb(seed_key, g))
        G[S_NEV] = 0
        for q in range(n_seats):
            G[G_ACTIVE + q] = 1
        n = _seat_order(G, n_seats, n_seats - 1)
        _deal_hands(C, G, H, tr, n, 0)
        _start_card(C, G, H, tr, np.int64(n))
        p = 0
        idle = 0
        for _ in range(TURN_CAP):
            if _seat(G, p) == focal_seat:
                # int64 positions: a position starts at the literal 0, and numba would compile
                # the audit (and the worlds' functions under it) once more for that literal
                _belief_audit(G, H, np.int64(p), np.int64(n), counts)
                _weight_audit(C, G, H, np.int64(p), np.int64(n), counts, S)
            plays, draws = G[S_PLAYS], G[S_DRAWS]
            result, _, _ = _turn_loop(C, G, H, tr, n, p, 1, NO_FORCE, 0, search_move)
            if result >= 0:
                break
            idle = idle + 1 if (G[S_PLAYS] == plays and G[S_DRAWS] == draws) else 0
            if idle >= n:
                break
            p = _step(p, G[S_DIR], n)
    _keep_alive(G_memory, H_memory)
    _keep_alive(constants, S_memory)
