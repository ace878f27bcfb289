"""The game feel: lead changes, drama, comebacks, decisiveness and real choices, recorded as a
game is played (docs/columns.md defines each measure and gives its source).

The hooks that game.py and match.py call are declared here, each compiled by its overload below
(nothing is filled in from elsewhere). A kernel records the measures where its ``tr`` is a 2-D
trace (traced games, search seats' real games, the step) or a 1-D int16 dummy (a heuristic run
that asks for them); the lean heuristic kernel and the search's playouts (a 1-D int8 dummy) get
no code at all, so they pay nothing. The hooks only read the game and write G's feel fields
(layout.G_FEEL on) and the feel columns of the game's row, so no game changes.
``tests/test_feel.py`` recounts every measure from traces.

Standings are taken at the end of each turn (after a forgotten call's penalty; the deal's last
turn included): the leader is the seat holding strictly the fewest cards (none on a tie), last
the seat holding strictly the most. In a match, after each deal is scored, the same on match
points among the seats that played the deal (fewer points lead).
"""

from __future__ import annotations

import numpy as np
from numba.core import types
from numba.extending import overload

from .layout import (
    F_BEHIND, F_CHANGES, F_CHOICE_TURNS, F_FIRST_MOVE, F_LAST_LEADER, F_LEADER, F_LEAD_SINCE,
    F_OPTIONS, F_P_BEHIND, F_P_CHANGES, F_P_LAST_LEADER, F_P_LEADER, F_P_WAS_LAST, F_SEAT_TURNS,
    F_WAS_LAST, G_TOTALS, MAX_SEATS, M_SINGLE, O_BEHIND, O_CHOICE_TURNS, O_COMEBACKS,
    O_DECISIVE_TURNS, O_LEAD_CHANGES, O_OPTIONS, O_POINTS_BEHIND, O_POINTS_COMEBACK,
    O_POINTS_LEAD_CHANGES, O_SEAT_TURNS, O_WON_DEALS, O_WON_TURNS, R_MATCH_KIND, S_TURNS)
from ._numba import _popcount, njit
from .primitives import _hand_count, _seat


# --- the game feel's hooks: the measures of docs/columns.md's game feel ------------------------
# What game.py and match.py call; each is compiled by its overload below, chosen by the kernel's
# trace type (see the module's docstring).
def _feel_turn_start(G, tr):
    """A turn begins: its first move's options are the ones counted."""


def _feel_move(G, tr, p, options, decline):
    """Position p chooses a move among the card types of ``options`` and, where ``decline``,
    drawing (or taking the duty)."""


def _feel_turn_end(G, H, tr, n, t):
    """Turn ``t`` of the deal has ended: the standings in cards."""


def _feel_new_deal(G, tr, n):
    """A deal among n positions is dealt: its standings start afresh."""


def _feel_deal_end(G, tr, out, res):
    """The deal ended with result ``res`` (the winner's position, -1 blocked, -2 capped):
    its measures are added into the game's row ``out``."""


def _feel_game_start(G, tr, n_seats):
    """A game (a deal or a match) begins."""


def _feel_scored(C, G, tr, n):
    """A match's deal among n positions has been scored: the standings on points."""


def _feel_game_end(C, G, tr, out, winner, n_seats):
    """The game ended (``winner``: a seat, or -1): its per-seat and match measures into ``out``."""


def _feeling(tr):
    """Whether the kernel of this trace type records the game feel (at compile time)."""
    return isinstance(tr, types.Array) and (tr.ndim == 2 or tr.dtype == types.int16)


@njit
def _standings(G, H, n, t):
    """The standings in cards at the end of turn t (a call of its own: one copy per kernel)."""
    low = 1 << 30
    high = -1
    for k in range(n):
        c = _hand_count(H, k)
        low = min(low, c)
        high = max(high, c)
    lo = -1
    hi = -1
    n_low = 0
    n_high = 0
    for k in range(n):
        c = _hand_count(H, k)
        if c == low:
            n_low += 1
            lo = k
        if c == high:
            n_high += 1
            hi = k
        if c - low > G[F_BEHIND + k]:
            G[F_BEHIND + k] = c - low
    lead = _seat(G, lo) if n_low == 1 else -1
    if lead != G[F_LEADER]:
        G[F_LEADER] = lead
        G[F_LEAD_SINCE] = t
        if lead >= 0:
            if G[F_LAST_LEADER] >= 0 and G[F_LAST_LEADER] != lead:
                G[F_CHANGES] += 1
            G[F_LAST_LEADER] = lead
    if n_high == 1:
        G[F_WAS_LAST] |= 1 << _seat(G, hi)


@njit
def _points_standings(G, n):
    """The match standings on points after a deal among n positions was scored."""
    low = 1 << 60
    high = -(1 << 60)
    for k in range(n):
        total = G[G_TOTALS + _seat(G, k)]
        low = min(low, total)
        high = max(high, total)
    lo = -1
    hi = -1
    n_low = 0
    n_high = 0
    for k in range(n):
        total = G[G_TOTALS + _seat(G, k)]
        if total == low:
            n_low += 1
            lo = _seat(G, k)
        if total == high:
            n_high += 1
            hi = _seat(G, k)
    lead = lo if n_low == 1 else -1
    if lead != G[F_P_LEADER]:
        G[F_P_LEADER] = lead
        if lead >= 0:
            if G[F_P_LAST_LEADER] >= 0 and G[F_P_LAST_LEADER] != lead:
                G[F_P_CHANGES] += 1
            G[F_P_LAST_LEADER] = lead
    if n_high == 1:
        G[F_P_WAS_LAST] |= 1 << hi
    for k in range(n):
        s = _seat(G, k)
        lag = G[G_TOTALS + s] - low
        if lag > G[F_P_BEHIND + s]:
            G[F_P_BEHIND + s] = lag


@overload(_feel_turn_start, inline="always")
def _feel_turn_start_nb(G, tr):
    if not _feeling(tr):
        return lambda G, tr: None

    def start(G, tr):
        G[F_FIRST_MOVE] = 1
    return start


@overload(_feel_move, inline="always")
def _feel_move_nb(G, tr, p, options, decline):
    if not _feeling(tr):
        return lambda G, tr, p, options, decline: None

    def move(G, tr, p, options, decline):
        if G[F_FIRST_MOVE]:
            G[F_FIRST_MOVE] = 0
            s = _seat(G, p)
            k = _popcount(options) + (1 if decline else 0)
            G[F_SEAT_TURNS + s] += 1
            G[F_OPTIONS + s] += k
            if k >= 2:
                G[F_CHOICE_TURNS + s] += 1
    return move


@overload(_feel_turn_end, inline="always")
def _feel_turn_end_nb(G, H, tr, n, t):
    if not _feeling(tr):
        return lambda G, H, tr, n, t: None
    return lambda G, H, tr, n, t: _standings(G, H, np.int64(n), np.int64(t))


@overload(_feel_new_deal, inline="always")
def _feel_new_deal_nb(G, tr, n):
    if not _feeling(tr):
        return lambda G, tr, n: None

    def new_deal(G, tr, n):
        G[F_LEADER] = -1
        G[F_LAST_LEADER] = -1
        G[F_LEAD_SINCE] = 1
        G[F_WAS_LAST] = 0
        G[F_CHANGES] = 0
        for k in range(MAX_SEATS):
            G[F_BEHIND + k] = 0
    return new_deal


@overload(_feel_deal_end, inline="always")
def _feel_deal_end_nb(G, tr, out, res):
    if not _feeling(tr):
        return lambda G, tr, out, res: None

    def deal_end(G, tr, out, res):
        out[O_LEAD_CHANGES] += G[F_CHANGES]
        if res >= 0:
            # the winner holds no card at the last turn's end and everyone else some: it leads
            out[O_WON_DEALS] += 1
            out[O_WON_TURNS] += G[S_TURNS]
            out[O_BEHIND] += G[F_BEHIND + res]
            out[O_COMEBACKS] += (G[F_WAS_LAST] >> _seat(G, res)) & 1
            out[O_DECISIVE_TURNS] += G[S_TURNS] - G[F_LEAD_SINCE] + 1
    return deal_end


@overload(_feel_game_start, inline="always")
def _feel_game_start_nb(G, tr, n_seats):
    if not _feeling(tr):
        return lambda G, tr, n_seats: None

    def game_start(G, tr, n_seats):
        G[F_FIRST_MOVE] = 0
        G[F_P_LEADER] = -1
        G[F_P_LAST_LEADER] = -1
        G[F_P_WAS_LAST] = 0
        G[F_P_CHANGES] = 0
        for s in range(MAX_SEATS):
            G[F_P_BEHIND + s] = 0
            G[F_SEAT_TURNS + s] = 0
            G[F_CHOICE_TURNS + s] = 0
            G[F_OPTIONS + s] = 0
    return game_start


@overload(_feel_scored, inline="always")
def _feel_scored_nb(C, G, tr, n):
    if not _feeling(tr):
        return lambda C, G, tr, n: None

    def scored(C, G, tr, n):
        if C[R_MATCH_KIND] != M_SINGLE:
            _points_standings(G, np.int64(n))
    return scored


@overload(_feel_game_end, inline="always")
def _feel_game_end_nb(C, G, tr, out, winner, n_seats):
    if not _feeling(tr):
        return lambda C, G, tr, out, winner, n_seats: None

    def game_end(C, G, tr, out, winner, n_seats):
        if C[R_MATCH_KIND] != M_SINGLE:
            out[O_POINTS_LEAD_CHANGES] = G[F_P_CHANGES]
            if winner >= 0:
                out[O_POINTS_BEHIND] = G[F_P_BEHIND + winner]
                out[O_POINTS_COMEBACK] = (G[F_P_WAS_LAST] >> winner) & 1
        for s in range(n_seats):
            out[O_SEAT_TURNS + s] = G[F_SEAT_TURNS + s]
            out[O_CHOICE_TURNS + s] = G[F_CHOICE_TURNS + s]
            out[O_OPTIONS + s] = G[F_OPTIONS + s]
    return game_end
