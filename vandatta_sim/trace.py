"""The event trace of a game, and a narrator that turns it into readable text.

A trace is an ``int32`` array of shape ``(n_events, 4)``; each row is ``(kind, seat, a, b)``.
The kinds and the meaning of ``seat``, ``a`` and ``b`` are the table in docs/engine-rules.md:

====  ===========  =========================  =========================  =======================
kind  name         seat                       a                          b
====  ===========  =========================  =========================  =======================
1     NEW_DEAL     dealer                     förhand                    deal number (0-based)
2     DEAL         receiver                   card                       0
3     START        -1                         card                       0
4     BURY         -1                         card                       0
5     TURN         player                     0                          0
6     PLAY         player                     card                       0
7     NAME_SUIT    player (or start namer)    suit                       0
8     DRAW         player                     card                       cause (DRAW_CAUSES)
9     PASS         player                     0                          0
10    RESHUFFLE    -1                         cards moved into talon     0
11    CALL         player                     1 called, 0 forgot         0
12    END_DEAL     winner or -1               0 won, 1 blocked, 2 capped 0
13    SCORE        seat                       points this deal           match total
14    ELIMINATED   seat                       0                          0
15    END_MATCH    winner or -1               deals played               0
16    SWAP         seat                       card out of the hand       card put in
17    ESTIMATE     search player              option (see below)         its value, in 1/1000
====  ===========  =========================  =========================  =======================

ESTIMATE rows come before a search player's choice, one per option it weighed: ``a`` is
``(card + 2) | (suit + 1) << 8 | stop << 12 | rollout << 13`` (card -1: draw or take the duty;
suit -1: none named with it; stop 1: no stacking; rollout 1: the move its rollout policy would
make, the baseline the others must beat; card -2 in traces of engine version 5 and before: the
rollout policy's move as an option of its own), ``b`` its mean
outcome in thousandths (deals won, or minus points). They record what the player thought, not
what happened: the referee skips them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from enum import IntEnum

import numpy as np

from .cards import SUIT_SYMBOLS, card_name
from .formatting import listed, wrapped


class Event(IntEnum):
    NEW_DEAL = 1
    DEAL = 2
    START = 3
    BURY = 4
    TURN = 5
    PLAY = 6
    NAME_SUIT = 7
    DRAW = 8
    PASS = 9
    RESHUFFLE = 10
    CALL = 11
    END_DEAL = 12
    SCORE = 13
    ELIMINATED = 14
    END_MATCH = 15
    SWAP = 16
    ESTIMATE = 17


#: ``b`` of a DRAW row indexes this tuple.
DRAW_CAUSES = ("draw", "ace", "counter", "two", "call", "start_ace")

#: ``a`` of an END_DEAL row indexes this tuple.
END_REASONS = ("won", "blocked", "capped")


def as_rows(trace: np.ndarray | Sequence[Sequence[int]]) -> list[tuple[int, int, int, int]]:
    """The trace as a list of plain ``(kind, seat, a, b)`` int tuples (fast to walk in Python)."""
    array = np.asarray(trace)
    if array.size == 0:
        return []
    if array.ndim != 2 or array.shape[1] != 4:
        raise ValueError(f"a trace has shape (n, 4); got {array.shape}")
    return [tuple(row) for row in array.astype(np.int64).tolist()]


def _suit(suit: int) -> str:
    return SUIT_SYMBOLS[suit] if 0 <= suit < 4 else f"suit {suit}?"


def _card(card: int) -> str:
    return card_name(card) if 0 <= card < 54 else f"card {card}?"


def _kind_name(kind: int) -> str:
    try:
        return Event(kind).name
    except ValueError:
        return f"KIND_{kind}"


def estimate_option(code: int) -> str:
    """A search player's option from an ESTIMATE row's ``a``: ``♠8→♥``, ``♣5 (no stack)``,
    ``draw``, ``♣5 (rollout)`` (the move its rollout policy would make)."""
    card, suit, stop = (code & 0xFF) - 2, ((code >> 8) & 0xF) - 1, (code >> 12) & 1
    text = "rollout" if card == -2 else "draw" if card == -1 else _card(card)
    if suit >= 0:
        text += f"→{_suit(suit)}"
    return text + (" (no stack)" if stop else "") + (" (rollout)" if (code >> 13) & 1 else "")


def describe_row(row: Sequence[int]) -> str:
    """One row in a compact, unambiguous form, e.g. ``PLAY(seat 2, ♠8)``."""
    kind, seat, a, b = (int(x) for x in row)
    name = _kind_name(kind)
    if kind in (Event.DEAL, Event.PLAY):
        return f"{name}(seat {seat}, {_card(a)})"
    if kind in (Event.START, Event.BURY):
        return f"{name}({_card(a)})"
    if kind == Event.DRAW:
        cause = DRAW_CAUSES[b] if 0 <= b < len(DRAW_CAUSES) else f"cause {b}?"
        return f"{name}(seat {seat}, {_card(a)}, {cause})"
    if kind == Event.NAME_SUIT:
        return f"{name}(seat {seat}, {_suit(a)})"
    if kind == Event.SWAP:
        return f"{name}(seat {seat}, out {_card(a)}, in {_card(b)})"
    if kind == Event.ESTIMATE:
        return f"{name}(seat {seat}, {estimate_option(a)}, {b / 1000:.3f})"
    if kind == Event.NEW_DEAL:
        return f"{name}(dealer {seat}, förhand {a}, deal {b})"
    if kind == Event.END_DEAL:
        reason = END_REASONS[a] if 0 <= a < len(END_REASONS) else f"reason {a}?"
        return f"{name}(winner {seat}, {reason})"
    if kind == Event.SCORE:
        return f"{name}(seat {seat}, {a} points, total {b})"
    if kind == Event.END_MATCH:
        return f"{name}(winner {seat}, {a} deals)"
    if kind == Event.RESHUFFLE:
        return f"{name}({a} cards)"
    if kind == Event.CALL:
        return f"{name}(seat {seat}, {'called' if a else 'forgot'})"
    return f"{name}(seat {seat})" if kind in (Event.TURN, Event.PASS, Event.ELIMINATED) \
        else f"{name}({seat}, {a}, {b})"


def narrate(trace: np.ndarray | Sequence[Sequence[int]],
            seat_names: Sequence[str] | Mapping[int, str] | None = None) -> str:
    """The trace as readable text, one line per meaningful event.

    A seat's DEAL rows share one line, a PLAY and its NAME_SUIT share one line, and a run of
    penalty draws of one seat with one cause shares one line. TURN rows give no line of their own.
    """
    rows = as_rows(trace)

    def who(seat: int) -> str:
        if seat_names is not None:
            try:
                return str(seat_names[seat])
            except (IndexError, KeyError):
                pass
        return f"seat {seat}"

    lines: list[str] = []
    i, n = 0, len(rows)
    while i < n:
        kind, seat, a, b = rows[i]
        if kind == Event.NEW_DEAL:
            if lines:
                lines.append("")
            lines.append(f"Deal {b + 1}: dealer {who(seat)}, förhand {who(a)}")
        elif kind == Event.DEAL:
            dealt: dict[int, list[int]] = {}
            while i < n and rows[i][0] == Event.DEAL:
                dealt.setdefault(rows[i][1], []).append(rows[i][2])
                i += 1
            for receiver, got in dealt.items():
                lines.append(f"{who(receiver)} is dealt {' '.join(_card(c) for c in got)}")
            continue
        elif kind == Event.SWAP:
            lines.append(f"{who(seat)} swaps {_card(a)} for {_card(b)}")
        elif kind == Event.ESTIMATE:
            weighed = [f"{estimate_option(a)} {b / 1000:+.3f}"]
            while i + 1 < n and rows[i + 1][0] == Event.ESTIMATE and rows[i + 1][1] == seat:
                i += 1
                weighed.append(f"{estimate_option(rows[i][2])} {rows[i][3] / 1000:+.3f}")
            lines.append(f"{who(seat)} weighs: {' · '.join(weighed)}")
        elif kind == Event.START:
            lines.append(f"start card {_card(a)}")
        elif kind == Event.BURY:
            lines.append(f"{_card(a)} is buried in the talon")
        elif kind == Event.TURN:
            pass
        elif kind == Event.PLAY:
            text = f"{who(seat)} plays {_card(a)}"
            if i + 1 < n and rows[i + 1][0] == Event.NAME_SUIT and rows[i + 1][1] == seat:
                i += 1
                text += f" and names {_suit(rows[i][2])}"
            lines.append(text)
        elif kind == Event.NAME_SUIT:
            lines.append(f"{who(seat)} names {_suit(a)}")
        elif kind == Event.DRAW:
            cause = DRAW_CAUSES[b] if 0 <= b < len(DRAW_CAUSES) else f"cause {b}"
            if b == 0:
                lines.append(f"{who(seat)} draws {_card(a)}")
            else:
                got = [a]
                while (i + 1 < n and rows[i + 1][0] == Event.DRAW and rows[i + 1][1] == seat
                       and rows[i + 1][3] == b):
                    i += 1
                    got.append(rows[i][2])
                cards_text = " ".join(_card(c) for c in got)
                if len(got) == 1:
                    lines.append(f"{who(seat)} draws {cards_text} ({cause})")
                else:
                    lines.append(f"{who(seat)} draws {len(got)} cards ({cause}): {cards_text}")
        elif kind == Event.PASS:
            lines.append(f"{who(seat)} passes")
        elif kind == Event.RESHUFFLE:
            lines.append(f"talon empty: {a} discards reshuffled")
        elif kind == Event.CALL:
            lines.append(f"{who(seat)}: lappen!" if a else f"{who(seat)} forgot to call")
        elif kind == Event.END_DEAL:
            if a == 0:
                lines.append(f"{who(seat)} wins the deal")
            elif a == 1:
                lines.append("deal blocked: nobody can play or draw")
            else:
                lines.append("deal capped at the turn limit")
        elif kind == Event.SCORE:
            parts = []
            while i < n and rows[i][0] == Event.SCORE:
                _, s, points, total = rows[i]
                parts.append(f"{who(s)} {points} (total {total})")
                i += 1
            lines.extend(wrapped("scores: " + listed(parts, ",")))  # within 80 columns
            continue
        elif kind == Event.ELIMINATED:
            lines.append(f"{who(seat)} is eliminated")
        elif kind == Event.END_MATCH:
            deals = f"{a} deal{'s' if a != 1 else ''}"
            if seat >= 0:
                lines.append(f"{who(seat)} wins the match after {deals}")
            else:
                lines.append(f"the match ends without a winner after {deals}")
        else:
            lines.append(f"unknown event {describe_row(rows[i])}")
        i += 1
    return "\n".join(lines)
