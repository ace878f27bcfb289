"""The kernels' inline primitives: card bits, the game's random stream, hands as masks, and the
recording of one trace event.

Every other kernel module builds on these; all are ``inline="always"`` (compiled into each
caller), so they cost no call.
"""

from __future__ import annotations

import numpy as np
from numba.extending import overload

from ..cards import N_DECK_TYPES, N_SUITS
from .layout import (
    CLUBS, C_ANSWERS, C_STEP, DK_CALL, DK_SUIT, G_EXT, G_SEATS, G_SIZE, G_TALON, G_SNAP, G_SNAP_H,
    G_TAKES, HI, H_AHEAD, H_RNG, H_SIZE, ONE, OPT_EXTERNAL, RANK_ZERO, SUIT_BITS, SUIT_OF,
    S_NEV, S_SCRIPTED, X_BAD, X_DECLINE, X_DONE, X_HALT, X_KIND, X_NEV, X_OPTIONS, X_POS,
    X_SUGGEST, X_TAKEN, X_TAKES)
from ._numba import _popcount, _wymum, inline, njit

# ================================================================================================
# card bits
# ================================================================================================
@inline
def _bit(card):
    return ONE << np.uint64(card)


@inline
def _suit_mask(suit):
    return CLUBS << np.uint64(suit)


@inline
def _rank_mask(rank):
    return RANK_ZERO << np.uint64(N_SUITS * rank)


@inline
def _suit(card):
    return card & SUIT_OF


@inline
def _rank(card):
    return card >> SUIT_BITS


@inline
def _is_joker(card):
    return card >= N_DECK_TYPES


# ================================================================================================
# randomness
# ================================================================================================
# splitmix64 constants (seeding)
GOLDEN = np.uint64(0x9E3779B97F4A7C15)
MIX1 = np.uint64(0xBF58476D1CE4E5B9)
MIX2 = np.uint64(0x94D049BB133111EB)
U30, U27, U31, U32, U11 = np.uint64(30), np.uint64(27), np.uint64(31), np.uint64(32), np.uint64(11)
LOW32 = np.uint64(0xFFFFFFFF)
# wyrand constants (Wang Yi's wyhash)
WY0 = np.uint64(0xA0761D6478BD642F)
WY1 = np.uint64(0xE7037ED1A0B428DB)


@inline
def _mix64(z):
    z = (z ^ (z >> U30)) * MIX1
    z = (z ^ (z >> U27)) * MIX2
    return z ^ (z >> U31)


@njit
def game_seed_nb(seed_key, game):
    """The first state of game ``game``'s private stream: a hash of (seed, game index)."""
    return _mix64(_mix64(np.uint64(seed_key) ^ (np.uint64(game) * GOLDEN)) + GOLDEN)


@inline
def _step(p, direction, n):
    """The position after p in the direction of play (no division: it costs as much as a
    whole turn's other arithmetic)."""
    p += direction
    if p >= n:
        return p - n
    if p < 0:
        return p + n
    return p


@inline
def _seat(G, p):
    """The absolute seat at position p of the deal (0 = förhand)."""
    return G[G_SEATS + p]


@inline
def _next_u64(H):
    """The next output of the game's wyrand stream. It was computed by the previous call, so the
    hashing runs while the caller uses the number, not before."""
    value = H[H_AHEAD]
    H[H_RNG] += WY0
    H[H_AHEAD] = _wyrand(H[H_RNG])
    return value


@inline
def _wyrand(state):
    """The output that follows ``state`` (which the stream then advances to)."""
    state += WY0
    return _wymum(state, state ^ WY1)


@inline
def _seed_rng(H, state):
    H[H_RNG] = state
    H[H_AHEAD] = _wyrand(state)


@inline
def _rand_below(H, n):
    """Uniform integer in [0, n), exact (Lemire's multiply-and-reject)."""
    un = np.uint64(n)
    m = (_next_u64(H) >> U32) * un
    if (m & LOW32) < un:
        t = (LOW32 + ONE - un) % un
        while (m & LOW32) < t:
            m = (_next_u64(H) >> U32) * un
    return np.int64(m >> U32)


# ================================================================================================
# hands, trace
# ================================================================================================
@inline
def _hand_add(H, p, card):
    b = _bit(card)
    if H[p] & b:
        H[HI + p] |= b
    else:
        H[p] |= b


@inline
def _hand_remove(H, p, card):
    b = _bit(card)
    if H[HI + p] & b:
        H[HI + p] &= ~b
    else:
        H[p] &= ~b


@inline
def _copy_into(dst, src, size):
    """dst[:size] = src[:size], element by element (the unchecked views too)."""
    for j in range(size):
        dst[j] = src[j]


@inline
def _copy_state(G_to, H_to, G, H, g_size):
    """A copy of a game: G's first ``g_size`` fields (G_PLAY_SIZE: what a playout plays on;
    G_SIZE: the public books too) and all of H."""
    _copy_into(G_to, G, g_size)
    _copy_into(H_to, H, H_SIZE)


@inline
def _hand_count(H, p):
    return _popcount(H[p]) + _popcount(H[HI + p])


@inline
def _suit_count(H, p, mask):
    return _popcount(H[p] & mask) + _popcount(H[HI + p] & mask)


def _emit(G, tr, kind, seat, a, b):
    """Record one event (kind, seat, a, b) in the trace ``tr``; compiled by ``_emit_nb``."""


@overload(_emit, inline="always")
def _emit_nb(G, tr, kind, seat, a, b):
    """Records only when ``tr`` has rows: a batch run with a search seat passes a trace of zero
    rows, so that it and ``play`` share one compiled kernel; the test of the row count is the
    same at every event, and predicted right. Heuristic batch runs and a search player's
    playouts pass a 1-D dummy: no trace code at all."""
    if tr.ndim != 2:
        return lambda G, tr, kind, seat, a, b: None

    def record(G, tr, kind, seat, a, b):
        if tr.shape[0] != 0:
            k = G[S_NEV]
            if k < tr.shape[0]:
                tr[k, 0] = kind
                tr[k, 1] = seat
                tr[k, 2] = a
                tr[k, 3] = b
            G[S_NEV] = k + 1
    return record


# --- the step's hooks: a decision handed out, and the game stopping there -----------------------
# Every choice a seat makes passes through ``_decide`` after its policy has made it; in a game
# that ``vandatta_sim.step`` plays (C[C_STEP] > 0) an external seat's answer replaces the
# policy's choice, and where no answer is left the game records the decision and stops (at the
# end of that turn: ``_stopped``). A heuristic batch kernel or a playout (a 1-D trace) has no
# code for either, and a batch run with the trace never has C[C_STEP] set.
def _decide(C, G, H, tr, pol, kind, p, options, decline, choice):
    """The choice of kind ``kind`` (DK_*) that position p makes: ``choice`` (its policy's,
    one of ``options``, or -1 where ``decline``), or the external answer."""


@njit
def _answer_or_stop(C, G, H, pol, kind, p, options, decline, choice):
    """``_decide`` in a real game: a call of its own (one copy in the kernel; inlined at every
    decision, its branches had cost numba's inliner the scope of its variables)."""
    if C[C_STEP] == 0 or not (pol & OPT_EXTERNAL) or G[G_EXT + X_HALT]:
        return choice
    done = G[G_EXT + X_DONE]
    if done < C[C_STEP] - 1:  # an answer given
        G[G_EXT + X_DONE] = done + 1
        answer = C[C_ANSWERS + done]
        if answer < 0:
            legal = decline != 0 and kind != DK_SUIT and kind != DK_CALL
        else:
            legal = answer < 63 and ((options >> answer) & 1) != 0
        if legal:
            return answer
        G[G_EXT + X_BAD] = 1  # not an option here (a world that disagrees with the game)
        return choice
    G[G_EXT + X_HALT] = 1
    G[G_EXT + X_KIND] = kind
    G[G_EXT + X_POS] = p
    G[G_EXT + X_OPTIONS] = options
    G[G_EXT + X_DECLINE] = decline
    G[G_EXT + X_SUGGEST] = choice
    G[G_EXT + X_NEV] = G[S_NEV]
    for j in range(G_SIZE):
        G[G_SNAP + j] = G[j]
    for j in range(H_SIZE):
        G[G_SNAP_H + j] = np.int64(H[j])
    return choice  # the game goes on with it to the end of the turn, then stops


@overload(_decide, inline="always")
def _decide_nb(C, G, H, tr, pol, kind, p, options, decline, choice):
    if tr.ndim != 2:
        return lambda C, G, H, tr, pol, kind, p, options, decline, choice: choice
    return lambda C, G, H, tr, pol, kind, p, options, decline, choice: _answer_or_stop(
        C, G, H, np.int64(pol), np.int64(kind), np.int64(p), np.int64(options),
        np.int64(decline), np.int64(choice))


def _stopped(C, G, tr):
    """Whether the game has stopped at an external decision (see ``_decide``)."""


@overload(_stopped, inline="always")
def _stopped_nb(C, G, tr):
    if tr.ndim != 2:
        return lambda C, G, tr: False

    def stopped(C, G, tr):
        if C[C_STEP] == 0:
            return False
        return G[G_EXT + X_HALT] != 0
    return stopped


@njit
def _scripted_take(G, H, nt):
    """The talon index of the next scripted card of a step's world (see layout.X_TAKES), or of
    a random card once the script is used up (or, flagged X_BAD, where it is not in the talon)."""
    k = G[G_EXT + X_TAKEN]
    if k < G[G_EXT + X_TAKES]:
        G[G_EXT + X_TAKEN] = k + 1
        card = G[G_TAKES + k]
        for j in range(nt):
            if G[G_TALON + j] == card:
                return j
        G[G_EXT + X_BAD] = 1
    return _rand_below(H, nt)


def _script_takes(C, G, tr):
    """In a step whose world scripts its takes, mark the deal scripted (S_SCRIPTED = 2)."""


@overload(_script_takes, inline="always")
def _script_takes_nb(C, G, tr):
    if tr.ndim != 2:
        return lambda C, G, tr: None

    def script(C, G, tr):
        if C[C_STEP] != 0:
            if G[G_EXT + X_TAKES] > 0:
                G[S_SCRIPTED] = 2
    return script
