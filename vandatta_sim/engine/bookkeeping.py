"""The public bookkeeping: what everyone at the table has seen of each hand, recorded as a real
game is played, for a search seat's worlds (worlds.py deals them within it).

The hooks that game.py calls are declared here, each compiled by its overload below (nothing is
filled in from elsewhere). They record only in real games (a 2-D trace), into fields of G that
no policy and no playout reads (layout.G_PLAY_SIZE), so they change no game; in a playout or a
heuristic batch run (a 1-D trace) they are no code at all. What a failed play shows: the hand
held no card the top accepted (``on_top``; game.py passes only what may end a hand where it is
the last card), except that an eight without a follow-up card is no play
(eight_follow=same_player), and a hand of only specials cannot play at all where
specials_only_must_draw (for 1-2 cards that case is likely, so specials stay possible there;
from 3 cards on it is taken as excluded, and the belief audit counts how often that is wrong).
A draw of unseen cards adds cards free of the constraint; a card played that the constraint
excludes must be one of those.
"""

from __future__ import annotations

import numpy as np
from numba import types
from numba.extending import overload

from ..cards import N_TYPES
from .layout import (
    CHOICES_KEPT, CHOICE_FIELDS, EIGHTS, G_CHOICES, G_CHOICES_N, G_LACKS, G_NAMED,
    G_NAMED_ALLOWED, G_NAMED_COUNT, G_RESHUFFLED, G_STRONG, G_STRONG_N, G_TALON, G_WIDE,
    G_WIDE_N, ORDINARY, R_EIGHT_SAME, R_SPECIALS_DRAW, S_DIR, S_EFF, S_NT, S_RANK,
    S_RESHUFFLES, S_SUIT, S_TOP_JOKER, ZERO)
from ._numba import inline
from .primitives import _bit, _hand_count, _step
from .policies import _min_opponent


# --- the hooks ----------------------------------------------------------------------------------
# What game.py calls; each is compiled by its overload below, chosen by the kernel's trace type.
def _note_play(G, tr, p, card, left):
    """Position p played ``card`` from its hand and holds ``left`` cards."""


def _note_failure(C, G, tr, p, shown, count):
    """Position p, holding ``count`` cards, could not play: none of them is of the types of
    ``shown`` (what would have been playable to that hand: for a last card, only what may end
    a hand), with the exceptions below."""


def _note_reshuffle(G, tr):
    """The talon was just rebuilt from the discards: its composition is public."""


def _note_new_hand(G, tr, q):
    """A new deal: nothing is known about q's hand yet."""


def _note_draw(G, tr, p):
    """p drew a card it has not shown: its earlier choices no longer tell about its hand."""


def _note_choice(G, H, tr, p, n, card, count):
    """p, holding ``count`` cards, plays ``card`` from its hand by its choice (or its search's)."""


def _note_named(G, H, tr, p, suit, allowed, next_lacks):
    """p names ``suit`` of ``allowed`` (the next player lacking ``next_lacks``)."""


# --- their compiled forms -----------------------------------------------------------------------
def _real_game(tr):
    return isinstance(tr, types.Array) and tr.ndim == 2


@inline
def _forget_choices(G, p):
    """p's kept choices and the suit it last named tell nothing more about its hand (it drew a
    card nobody saw, or a new deal began)."""
    G[G_CHOICES_N + p] = 0
    G[G_NAMED + p] = -1


@overload(_note_play, inline="always")
def _note_play_nb(G, tr, p, card, left):
    if not _real_game(tr):
        return lambda G, tr, p, card, left: None

    def note(G, tr, p, card, left):
        b = np.int64(_bit(card))
        wide_n = G[G_WIDE_N + p]
        strong_n = G[G_STRONG_N + p]
        if not (b & G[G_WIDE + p]):
            wide_n -= 1
        if not (b & G[G_STRONG + p]):
            strong_n -= 1
        wide_n = min(max(wide_n, 0), left)
        G[G_WIDE_N + p] = wide_n
        G[G_STRONG_N + p] = min(max(strong_n, 0), wide_n)
    return note


@overload(_note_failure, inline="always")
def _note_failure_nb(C, G, tr, p, shown, count):
    if not _real_game(tr):
        return lambda C, G, tr, p, shown, count: None

    def note(C, G, tr, p, shown, count):
        f = shown
        if C[R_EIGHT_SAME]:
            f &= ~EIGHTS
        if C[R_SPECIALS_DRAW] and count < 3:
            f &= ORDINARY
        if f == ZERO:
            return
        # the cards that avoided the old wide tier now avoid the new types too; all avoid these
        G[G_STRONG + p] = G[G_WIDE + p] | np.int64(f)
        G[G_STRONG_N + p] = min(G[G_WIDE_N + p], count)
        G[G_WIDE + p] = np.int64(f)
        G[G_WIDE_N + p] = count
    return note


@overload(_note_reshuffle, inline="always")
def _note_reshuffle_nb(G, tr):
    if not _real_game(tr):
        return lambda G, tr: None

    def note(G, tr):
        for t in range(N_TYPES):
            G[G_RESHUFFLED + t] = 0
        for j in range(G[S_NT]):
            G[G_RESHUFFLED + G[G_TALON + j]] += 1
    return note


@overload(_note_new_hand, inline="always")
def _note_new_hand_nb(G, tr, q):
    if not _real_game(tr):
        return lambda G, tr, q: None

    def note(G, tr, q):
        G[G_STRONG + q] = 0
        G[G_STRONG_N + q] = 0
        G[G_WIDE + q] = 0
        G[G_WIDE_N + q] = 0
        _forget_choices(G, q)
    return note


@overload(_note_draw, inline="always")
def _note_draw_nb(G, tr, p):
    if not _real_game(tr):
        return lambda G, tr, p: None

    def note(G, tr, p):
        _forget_choices(G, p)
    return note


@overload(_note_choice, inline="always")
def _note_choice_nb(G, H, tr, p, n, card, count):
    if not _real_game(tr):
        return lambda G, H, tr, p, n, card, count: None

    def note(G, H, tr, p, n, card, count):
        kept = G[G_CHOICES_N + p]
        if kept == CHOICES_KEPT:  # the oldest goes
            for j in range(CHOICE_FIELDS * (CHOICES_KEPT - 1)):
                at = G_CHOICES + p * CHOICES_KEPT * CHOICE_FIELDS + j
                G[at] = G[at + CHOICE_FIELDS]
            kept -= 1
        at = G_CHOICES + (p * CHOICES_KEPT + kept) * CHOICE_FIELDS
        G[at] = card
        G[at + 1] = (G[S_EFF] | (G[S_SUIT] << 2) | (G[S_RANK] << 4) | (G[S_TOP_JOKER] << 8)
                     | (G[S_RESHUFFLES] << 9))
        G[at + 2] = count
        G[at + 3] = G[G_LACKS + _step(p, G[S_DIR], n)]
        G[at + 4] = _min_opponent(H, p, n)
        G[G_CHOICES_N + p] = kept + 1
        G[G_NAMED + p] = -1
    return note


@overload(_note_named, inline="always")
def _note_named_nb(G, H, tr, p, suit, allowed, next_lacks):
    if not _real_game(tr):
        return lambda G, H, tr, p, suit, allowed, next_lacks: None

    def note(G, H, tr, p, suit, allowed, next_lacks):
        G[G_NAMED + p] = suit
        G[G_NAMED_ALLOWED + p] = allowed | (next_lacks << 4)
        G[G_NAMED_COUNT + p] = _hand_count(H, p)
    return note
