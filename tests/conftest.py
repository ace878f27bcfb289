"""Shared test builders: traces written row by row, scripted deals, readable event tuples.

``TraceBuilder`` hand-builds a trace for the referee tests; ``Deal`` plays a scripted first deal
(a ``deck()`` script: the hands, the start card, then the talon) through the engine and turns
its trace into readable tuples (``readable()``) that ``T``, ``P``, ``N``, ``D``, ``PASS`` and
``C`` write in expectations. pytest loads this file before the test modules and puts ``tests/``
on ``sys.path``, so a test module imports them by name: ``from conftest import Deal``.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
from hypothesis import settings

from vandatta_sim.cards import SUIT_SYMBOLS, card_name, parse_card
from vandatta_sim.rules import Rules
from vandatta_sim.trace import DRAW_CAUSES, END_REASONS, Event, as_rows, narrate

# The property tests draw the same examples on every run (a seed per test): a red CI is then a
# failure anyone can rerun, not a draw the next run may miss. HYPOTHESIS_PROFILE=explore draws
# new examples each run, to look for more.
settings.register_profile("fixed", derandomize=True)
settings.register_profile("explore", derandomize=False)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "fixed"))

# ---------------------------------------------------------------------------------------------
# Traces written row by row (the referee tests)
# ---------------------------------------------------------------------------------------------

SUITS = {"C": 0, "D": 1, "H": 2, "S": 3, "♣": 0, "♦": 1, "♥": 2, "♠": 3}


def card(text: str) -> int:
    return parse_card(text)


class TraceBuilder:
    """Builds a trace row by row; cards as ``C4``/``♣4``, suits as ``H``/``♥``."""

    def __init__(self):
        self.rows: list[tuple[int, int, int, int]] = []

    def add(self, kind: Event, seat: int = -1, a: int = 0, b: int = 0) -> TraceBuilder:
        self.rows.append((int(kind), seat, a, b))
        return self

    def new_deal(self, dealer, forehand, number=0):
        return self.add(Event.NEW_DEAL, dealer, forehand, number)

    def deal(self, seat, cards: str):
        for text in cards.split():
            self.add(Event.DEAL, seat, card(text))
        return self

    def start(self, text):
        return self.add(Event.START, -1, card(text))

    def bury(self, text):
        return self.add(Event.BURY, -1, card(text))

    def turn(self, seat):
        return self.add(Event.TURN, seat)

    def play(self, seat, *texts):
        for text in texts:
            self.add(Event.PLAY, seat, card(text))
        return self

    def name(self, seat, suit):
        return self.add(Event.NAME_SUIT, seat, SUITS[suit])

    def draw(self, seat, texts: str, cause="draw"):
        for text in texts.split():
            self.add(Event.DRAW, seat, card(text), DRAW_CAUSES.index(cause))
        return self

    def pass_(self, seat):
        return self.add(Event.PASS, seat)

    def reshuffle(self, n):
        return self.add(Event.RESHUFFLE, -1, n)

    def call(self, seat, called=True):
        return self.add(Event.CALL, seat, int(called))

    def end(self, winner, reason="won"):
        return self.add(Event.END_DEAL, winner, END_REASONS.index(reason))

    def scores(self, *pairs):
        """``scores((0, 0, 0), (1, 5, 5))``: (seat, points, total) per active seat."""
        for seat, points, total in pairs:
            self.add(Event.SCORE, seat, points, total)
        return self

    def eliminated(self, seat):
        return self.add(Event.ELIMINATED, seat)

    def end_match(self, winner, deals):
        return self.add(Event.END_MATCH, winner, deals)

    def array(self) -> np.ndarray:
        return np.array(self.rows, dtype=np.int32).reshape(-1, 4)


# ---------------------------------------------------------------------------------------------
# Scripted deals played by the engine, read as tuples (the scenario tests)
# ---------------------------------------------------------------------------------------------

def deck(text: str) -> list[str]:
    """``"♣9 ♣10 | ♠3 ♠4 | ♣5 | ♦2"`` → card list; ``|`` only separates hands for the reader.
    ``JK2`` is the second joker type (53)."""
    return [53 if t == "JK2" else t for t in text.split() if t != "|"]


def readable(trace) -> list[tuple]:
    """The trace as readable tuples: ``("TURN", 0)``, ``("PLAY", 0, "♠8")``,
    ``("NAME_SUIT", 0, "♥")``, ``("DRAW", 1, "♦3", "ace")``, ``("CALL", 0, 1)``,
    ``("END_DEAL", 0, "won")``, ``("SCORE", 1, points, total)``, …"""
    out = []
    for kind, seat, a, b in as_rows(trace):
        name = Event(kind).name
        if kind in (Event.DEAL, Event.PLAY):
            out.append((name, seat, card_name(a)))
        elif kind in (Event.START, Event.BURY):
            out.append((name, card_name(a)))
        elif kind == Event.DRAW:
            out.append((name, seat, card_name(a), DRAW_CAUSES[b]))
        elif kind == Event.NAME_SUIT:
            out.append((name, seat, SUIT_SYMBOLS[a]))
        elif kind in (Event.TURN, Event.PASS, Event.ELIMINATED):
            out.append((name, seat))
        elif kind == Event.CALL:
            out.append((name, seat, a))
        elif kind == Event.END_DEAL:
            out.append((name, seat, END_REASONS[a]))
        elif kind in (Event.SCORE, Event.NEW_DEAL):
            out.append((name, seat, a, b))
        elif kind == Event.RESHUFFLE:
            out.append((name, a))
        elif kind == Event.END_MATCH:
            out.append((name, seat, a))
        else:
            out.append((name, seat, a, b))
    return out


class Deal:
    """One scripted single deal: ``.events`` (readable tuples), ``.play`` (from the first TURN),
    ``.opening`` (START/BURY/NAME_SUIT/DRAW before the first TURN), ``.text`` (narration)."""

    def __init__(self, script: str, policies="greedy", forget=None, seed=0, **fields):
        # imported here so that only the tests that play a deal load the engine (numba)
        from vandatta_sim.simulate import trace_game

        fields.setdefault("players", 2)
        fields.setdefault("match", "single")
        self.rules = Rules(**fields)
        self.trace = trace_game(self.rules, seed, 0, policies=policies, forget=forget,
                                deck=deck(script))
        self.events = readable(self.trace)
        self.text = narrate(self.trace)
        first_turn = next((i for i, e in enumerate(self.events) if e[0] == "TURN"),
                          len(self.events))
        self.opening = [e for e in self.events[:first_turn] if e[0] not in ("NEW_DEAL", "DEAL")]
        self.play = self.events[first_turn:]

    def hand(self, seat: int) -> list[str]:
        return [e[2] for e in self.events if e[0] == "DEAL" and e[1] == seat]

    def starts_with(self, expected: list[tuple]) -> None:
        got = self.play[: len(expected)]
        assert got == expected, f"\nexpected {expected}\ngot      {got}\n{self.text}"

    def opening_is(self, expected: list[tuple]) -> None:
        assert self.opening == expected, f"\nexpected {expected}\ngot {self.opening}\n{self.text}"

    def end(self) -> list[tuple]:
        """END_DEAL and the SCORE rows."""
        i = next(i for i, e in enumerate(self.events) if e[0] == "END_DEAL")
        return self.events[i:]


def T(seat):
    return ("TURN", seat)


def P(seat, card):
    return ("PLAY", seat, card)



class AnyOf:
    """Equal to any of ``options``: a policy's move among equally valued cards, which it picks
    at random (docs/policies.md), in an expected event list."""

    def __init__(self, *options):
        self.options = options

    def __eq__(self, other):
        return other in self.options

    def __repr__(self):
        return " | ".join(map(repr, self.options))


def P_tied(seat, cards: str):
    """Seat plays one of ``cards`` (a space-separated tie)."""
    return AnyOf(*(P(seat, c) for c in cards.split()))


def N(seat, suit):
    return ("NAME_SUIT", seat, suit)


def D(seat, cards: str, cause="draw"):
    """DRAW rows of one seat, one per card in ``cards``."""
    return [("DRAW", seat, c, cause) for c in cards.split()]


def PASS(seat):
    return ("PASS", seat)


def C(seat, called=1):
    return ("CALL", seat, called)


# ---------------------------------------------------------------------------------------------
# The command line in process (the CLI tests)
# ---------------------------------------------------------------------------------------------

def run_cli(*args):
    """``vandatta-sim ARGS`` in process (each argument as text), errors left to the result."""
    from click.testing import CliRunner  # the CLI only where a test drives it

    from vandatta_sim.cli import main
    return CliRunner().invoke(main, [str(a) for a in args], catch_exceptions=False)


def error_line(result) -> str:
    """The single ``Error:`` line of a rejected command (exit 2, nothing else printed)."""
    assert result.exit_code == 2, result.output
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("Error:"), result.output
    return lines[0]


# ---------------------------------------------------------------------------------------------
# The report scripts' quick runs (tests/test_report.py, tests/test_variants_report.py)
# ---------------------------------------------------------------------------------------------

ANALYSES = Path(__file__).resolve().parents[1] / "analyses"


def quick_report_twice(script: str, folder: Path) -> str:
    """Run ``analyses/<script>.py --quick`` twice into ``folder`` (one store, two outputs),
    require the two outputs byte for byte equal (figures included) and return the report's
    text: one pair of runs serves both the determinism check and the checks of the text."""
    outputs = []
    for run in ("one", "two"):
        out = folder / run / "report.md"
        subprocess.run([sys.executable, str(ANALYSES / f"{script}.py"), "--quick",
                        "--backend", "direct", "--out", str(out)], check=True, cwd=folder,
                       capture_output=True)
        files = sorted(p for p in out.parent.rglob("*") if p.is_file())
        outputs.append({p.relative_to(out.parent).as_posix(): p.read_bytes() for p in files})
    one, two = outputs
    assert one.keys() == two.keys() and any(k.endswith(".png") for k in one)
    for name in one:
        a, b = one[name], two[name]
        if name == "report.md":  # the header's command line names the output folder
            a, b = a.replace(b"/one/", b"/X/"), b.replace(b"/two/", b"/X/")
        assert a == b, name
    text = one["report.md"].decode()
    assert "](figures/" in text and "[" in text
    return text
