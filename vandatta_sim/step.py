"""The game one decision at a time: a state that stops where a seat must choose, hands the
choice out, and resumes with the answer.

Every client that is not a batch of whole games drives this one step: a person at the table,
a coach, an outside search, the OpenSpiel adapter. The rules of a turn are the engine's alone:
a state is a game of the engine (rules, seats, seed, game index) and the answers its external
seats have given so far; each call plays that game in the compiled engine from its start with
those answers, up to the next choice an external seat must make (``engine.step_nb``). The
engine asks an external seat's own policy first and then replaces its choice with the answer,
so the random stream runs as in a simulation: answering every decision with
:attr:`Decision.suggestion` plays exactly the game that :func:`vandatta_sim.simulate.simulate`
and :func:`~vandatta_sim.simulate.trace_game` play (a property test checks this, event by
event). Chance is the game's own seeded stream: a state and its answers replay exactly, so a
clone is two lists.

The action space (fixed; ``docs/step.md`` documents it with the observation):

======  =====================================================================================
0-53    the card type ``rank * 4 + suit`` (52, 53: jokers): play it (a move), answer a duty
        with it, stack it, or follow one's eight with it
54-57   name suit ``a - 54`` (♣ ♦ ♥ ♠) after an eight or a super-eight joker
58      draw instead of playing (a move)
59      take the pending duty (draw it) instead of answering it
60      stop stacking
61      say "lappen" as the call falls due; 62: forget it (the rules' penalty follows)
======  =====================================================================================
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np

from . import engine as E
from .cards import N_SUITS, N_TYPES, SUIT_NAMES, card_name
from .rules import Rules
from .simulate import (
    DEFAULT_POLICY, Seats, SeatSpec, SimulationError, frozen_rules, kernel_constants, seed_key)
from .trace import Event

NAME_SUIT = N_TYPES  # + suit
DRAW = NAME_SUIT + N_SUITS
TAKE_DUTY = DRAW + 1
STOP_STACKING = TAKE_DUTY + 1
SAY_LAPPEN = STOP_STACKING + 1
FORGET_LAPPEN = SAY_LAPPEN + 1
NUM_ACTIONS = FORGET_LAPPEN + 1
#: current_player() of a finished game (OpenSpiel's kTerminalPlayerId)
TERMINAL = -4
#: the action that declines (-1 in the engine's answer), by the name of the decision's kind
DECLINE = {"move": DRAW, "duty": TAKE_DUTY, "stack": STOP_STACKING}
_DECLINE = {E.DECISION_KINDS.index(kind): action for kind, action in DECLINE.items()}
_HEURISTIC = ("random", "greedy", "expert", "eight-dumper")
_TRACE_ROWS = 2048


class StepError(SimulationError):
    """A misuse of the step: an illegal action, a step on a finished game, a bad seat."""


@dataclass(frozen=True)
class Decision:
    """The choice a game waits for: its ``kind`` (``move``, ``duty``, ``stack``, ``suit``,
    ``follow``, ``call``), the ``seat`` that makes it, the legal ``actions`` (ascending) and the
    action the seat's own policy would take (``suggestion``)."""

    kind: str
    seat: int
    actions: tuple[int, ...]
    suggestion: int


@dataclass(frozen=True)
class Observation:
    """What ``seat`` knows at a point of the game: its own hand and the public record.

    ``events`` are the engine's trace rows ``(kind, seat, a, b)`` (format: docs/engine-rules.md)
    as this seat saw them: the cards dealt to or drawn by another seat (and a swap's) read -1.
    ``hand_sizes``, ``totals``: per seat (0 for a seat not in the deal). ``top``: the pile's
    top card type; ``suit``: the suit in force (-1 where none: a start joker kept as a plain
    card); ``effect``: what the top asks for (``ordinary``, ``ace``, ``eight``, or ``any`` card
    but a joker on that kept joker); ``duty``: cards a pending counter-ace or two duty would
    draw."""

    seat: int
    hand: tuple[int, ...]
    hand_sizes: tuple[int, ...]
    totals: tuple[int, ...]
    pile: tuple[int, ...]
    top: int
    suit: int
    effect: str
    direction: int
    duty: int
    talon: int
    deal: int
    to_move: int
    events: tuple[tuple[int, int, int, int], ...]


def action_to_string(action: int) -> str:
    """A readable name of an action id (of any decision)."""
    action = int(action)
    if 0 <= action < N_TYPES:
        return card_name(action)
    if NAME_SUIT <= action < DRAW:
        return "name " + SUIT_NAMES[action - NAME_SUIT]
    names = {DRAW: "draw", TAKE_DUTY: "take the duty", STOP_STACKING: "stop stacking",
             SAY_LAPPEN: "say lappen", FORGET_LAPPEN: "forget lappen"}
    if action in names:
        return names[action]
    raise StepError(f"action {action!r} is not allowed; allowed: 0–{NUM_ACTIONS - 1}")


def _actions(kind: int, options: int, decline: bool) -> tuple[int, ...]:
    """The decision's options (the engine's mask) as action ids."""
    if kind == E.DK_CALL:
        return (SAY_LAPPEN, FORGET_LAPPEN)
    if kind == E.DK_SUIT:
        return tuple(NAME_SUIT + s for s in range(N_SUITS) if (options >> s) & 1)
    cards = tuple(c for c in range(N_TYPES) if (options >> c) & 1)
    return cards + ((_DECLINE[kind],) if decline else ())


def _as_action(kind: int, value: int) -> int:
    """The engine's answer ``value`` to a decision of ``kind`` as an action id."""
    if kind == E.DK_CALL:
        return SAY_LAPPEN if value else FORGET_LAPPEN
    if kind == E.DK_SUIT:
        return NAME_SUIT + value
    return _DECLINE[kind] if value < 0 else value


def _as_answer(kind: int, action: int) -> int:
    """The inverse of :func:`_as_action` (the action is known to be legal)."""
    if kind == E.DK_CALL:
        return 1 if action == SAY_LAPPEN else 0
    if kind == E.DK_SUIT:
        return action - NAME_SUIT
    return -1 if action >= N_TYPES else action


class Game:
    """A game of the engine whose ``external`` seats decide from outside (all by default).

    ``policies`` as everywhere (:func:`vandatta_sim.simulate.simulate`): the other seats play
    theirs; an external seat's policy makes its suggestions (it must be a heuristic policy:
    random, greedy, expert, eight-dumper or tuned:NAME). ``forget`` is the bots' chance of
    forgetting a call; an external seat says or forgets it itself."""

    def __init__(self, rules: Rules, policies: SeatSpec = DEFAULT_POLICY,
                 external: Iterable[int] | str = "all", forget: SeatSpec = None):
        self.rules = rules
        self.seats = Seats.build(rules.players, policies, forget)
        if isinstance(external, str):
            if external != "all":
                raise StepError(f"external {external!r} is not allowed; allowed: all or seats "
                                f"0–{rules.players - 1}")
            external = range(rules.players)
        self.external = frozenset(self._seat(s) for s in external)
        constants = kernel_constants(rules, self.seats)
        for seat in self.external:
            policy = self.seats.policies[seat]
            if policy.split(":")[0] not in _HEURISTIC and not policy.startswith("tuned:"):
                raise StepError(f"policy of external seat {seat} {policy!r} is not allowed; "
                                f"allowed: random, greedy, expert, eight-dumper, tuned:NAME")
            constants[E.C_POL + seat] |= E.OPT_EXTERNAL
            constants[E.C_FORGET + seat] = 0  # its own answer says whether it calls
        self.constants = constants
        self.frozen = frozen_rules(constants, lean=False)

    def _seat(self, seat) -> int:
        if isinstance(seat, bool) or not isinstance(seat, int | np.integer) or not (
                0 <= seat < self.rules.players):
            raise StepError(f"seat {seat!r} is not allowed; allowed: 0–{self.rules.players - 1}")
        return int(seat)

    def new_state(self, seed: int = 0, game: int = 0, takes: Iterable[int] = ()) -> State:
        """Game ``game`` of the run with ``seed`` at its first external decision.

        ``takes`` scripts a world: the k-th card taken from the talon in the whole game (dealt,
        turned as the start card or drawn, in the order of the trace's DEAL, START and DRAW
        rows) is ``takes[k]``; later ones are random. A world that agrees with what one seat
        has seen is the game's :meth:`State.takes` with the cards it has not seen changed,
        replayed with the same actions (:attr:`State.consistent` says whether it could be)."""
        takes = tuple(int(c) for c in takes)
        if len(takes) > E.MAX_TAKES or any(not 0 <= c < N_TYPES for c in takes):
            raise StepError(f"takes: at most {E.MAX_TAKES} card types 0–{N_TYPES - 1}")
        return State(self, int(seed), int(game), (), (), takes)


class State:
    """A game at a decision (or over): see the module's docstring."""

    def __init__(self, game: Game, seed: int, index: int, answers: tuple, history: tuple,
                 takes: tuple = ()):
        self.game, self.seed, self.index, self._takes = game, seed, index, takes
        self._answers, self._history = answers, history
        self._play()

    # --- the engine -----------------------------------------------------------------------
    def _play(self) -> None:
        game = self.game
        n_answers = len(self._answers)
        constants = np.empty(E.C_SIZE + n_answers, np.int64)
        constants[: E.C_SIZE] = game.constants
        constants[E.C_STEP] = 1 + n_answers
        constants[E.C_ANSWERS:] = self._answers
        players = game.rules.players
        rows = _TRACE_ROWS
        while True:
            G = np.zeros(E.G_STEP_SIZE, np.int64)
            G[E.G_EXT + E.X_TAKES] = len(self._takes)
            G[E.G_TAKES: E.G_TAKES + len(self._takes)] = self._takes
            H = np.zeros(E.H_SIZE, np.uint64)
            trace = np.zeros((rows, 4), np.int32)
            out = np.zeros(E.O_SIZE, np.int32)
            points = np.zeros(players, np.int32)
            E.step_nb(constants, game.frozen, seed_key(self.seed), self.index, trace, G, H,
                      out, points, np.zeros(players, np.int8), np.zeros(players, np.int8))
            stopped = bool(G[E.G_EXT + E.X_HALT])
            n_events = int(G[E.G_EXT + E.X_NEV] if stopped else out[E.O_EVENTS])
            if n_events <= rows:
                break
            rows = n_events + 64
        self._events = trace[:n_events]
        #: False where an answer was not an option or a scripted card not in the talon: a
        #: world (``takes``) that cannot have given the actions played (never the real game)
        self.consistent = not G[E.G_EXT + E.X_BAD]
        if stopped:
            kind = int(G[E.G_EXT + E.X_KIND])
            position = int(G[E.G_EXT + E.X_POS])
            snapshot = G[E.G_SNAP: E.G_SNAP + E.G_SIZE]
            self._G = snapshot.copy()
            self._H = G[E.G_SNAP_H: E.G_SNAP_H + E.H_SIZE].copy().view(np.uint64)
            self.decision: Decision | None = Decision(
                E.DECISION_KINDS[kind], int(snapshot[E.G_SEATS + position]),
                _actions(kind, int(G[E.G_EXT + E.X_OPTIONS]), bool(G[E.G_EXT + E.X_DECLINE])),
                _as_action(kind, int(G[E.G_EXT + E.X_SUGGEST])))
            self._kind = kind
            self._winner, self._points = None, None
        else:
            self._G, self._H = G[: E.G_SIZE].copy(), H
            self.decision = None
            self._winner = int(out[E.O_WINNER])
            self._points = tuple(int(p) for p in points)

    # --- OpenSpiel's names ----------------------------------------------------------------
    def current_player(self) -> int:
        """The seat that decides now, or TERMINAL."""
        return TERMINAL if self.decision is None else self.decision.seat

    def is_terminal(self) -> bool:
        return self.decision is None

    def legal_actions(self, seat: int | None = None) -> list[int]:
        """The legal actions of the seat to move (of ``seat``: none unless it is to move)."""
        if self.decision is None or (seat is not None and seat != self.decision.seat):
            return []
        return list(self.decision.actions)

    def apply_action(self, action: int) -> None:
        """Take ``action`` (one of legal_actions()) and go on to the next decision."""
        if self.decision is None:
            raise StepError("the game is over; no action can be applied")
        if isinstance(action, bool) or not isinstance(action, int | np.integer) or (
                int(action) not in self.decision.actions):
            legal = ", ".join(f"{a} ({action_to_string(a)})" for a in self.decision.actions)
            raise StepError(f"action {action!r} is not allowed for seat {self.decision.seat}'s "
                            f"{self.decision.kind}; allowed: {legal}")
        self._answers += (_as_answer(self._kind, int(action)),)
        self._history += (int(action),)
        self._play()

    def clone(self) -> State:
        twin = object.__new__(State)
        twin.__dict__.update(self.__dict__)  # every field is immutable or never written again
        return twin

    def history(self) -> list[int]:
        """The actions applied so far, in order."""
        return list(self._history)

    def action_to_string(self, action: int) -> str:
        return action_to_string(action)

    def winner(self) -> int:
        """The winner's seat of a finished game; -1 for a blocked or capped deal or a match
        that ended without one."""
        self._finished()
        return self._winner

    def points(self) -> tuple[int, ...]:
        """Per seat: the penalty points of a finished single deal, or the match totals."""
        self._finished()
        return self._points

    def returns(self) -> list[float]:
        """Per seat, zero-sum: +1 for the winner and -1/(players - 1) for every other seat;
        0 for all where the game ended without a winner; 0 for all before the end."""
        n = self.game.rules.players
        if self.decision is not None or self._winner < 0:
            return [0.0] * n
        return [1.0 if s == self._winner else -1.0 / (n - 1) for s in range(n)]

    def _finished(self) -> None:
        if self.decision is not None:
            raise StepError("the game is not over yet: no result")

    # --- what a seat sees -----------------------------------------------------------------
    def takes(self) -> tuple[int, ...]:
        """The cards taken from the talon so far, in order (see :meth:`Game.new_state`)."""
        taken = (Event.DEAL, Event.START, Event.DRAW)
        return tuple(a for k, _, a, _ in self._events.tolist() if k in taken)

    def world(self, takes: Iterable[int]) -> State:
        """This game with its takes scripted by ``takes`` and the same actions applied: the
        state a world of these cards would be in (check :attr:`consistent`)."""
        state = self.game.new_state(self.seed, self.index, takes)
        state._answers, state._history = self._answers, self._history
        state._play()
        return state

    def events(self) -> np.ndarray:
        """The engine's trace so far (every card, hidden ones too): for the referee."""
        return self._events

    def hand(self, seat: int) -> tuple[int, ...]:
        """The cards ``seat`` holds now (empty where it is not in the deal)."""
        position = self._position(self.game._seat(seat))
        if position < 0:
            return ()
        once, twice = int(self._H[position]), int(self._H[E.HI + position])
        return tuple(sorted([c for c in range(N_TYPES) if (once >> c) & 1]
                            + [c for c in range(N_TYPES) if (twice >> c) & 1]))

    def _position(self, seat: int) -> int:
        G = self._G
        n = sum(1 for s in range(self.game.rules.players) if G[E.G_ACTIVE + s])
        for p in range(n):
            if int(G[E.G_SEATS + p]) == seat:
                return p
        return -1

    def engine_state(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, int, int]:
        """Copies of the engine's arrays here, for the engine's own functions that take a
        state (the coach's ``search_decision_nb``): ``(C, G, H, position, seats)``. ``C`` is
        the constants as a simulation of these seats has them (no seat external, each seat's
        own forgetting); ``G`` and ``H`` the state at the decision (at the end when over;
        layout in :mod:`vandatta_sim.engine`); ``position`` that of the seat to decide (-1
        when over) among the ``seats`` in the deal. To read the game, use observation()."""
        C = kernel_constants(self.game.rules, self.game.seats)
        position = -1 if self.decision is None else self._position(self.decision.seat)
        seats = sum(1 for s in range(self.game.rules.players) if self._G[E.G_ACTIVE + s])
        return C, self._G.copy(), self._H.copy(), position, seats

    def observation(self, seat: int) -> Observation:
        """What ``seat`` has seen: see :class:`Observation`."""
        seat = self.game._seat(seat)
        G = self._G
        players = self.game.rules.players
        sizes = tuple(len(self.hand(s)) for s in range(players))
        hidden = (Event.DEAL, Event.DRAW, Event.SWAP)
        events = tuple((k, s, -1 if k in hidden and s != seat else a, b)
                       for k, s, a, b in self._events.tolist())
        top = int(G[E.G_DISCARD + G[E.S_ND] - 1]) if G[E.S_ND] > 0 else -1
        return Observation(
            seat=seat, hand=self.hand(seat), hand_sizes=sizes,
            totals=tuple(int(G[E.G_TOTALS + s]) for s in range(players)),
            pile=tuple(int(c) for c in G[E.G_DISCARD: E.G_DISCARD + G[E.S_ND]]), top=top,
            suit=-1 if G[E.S_EFF] == E.EFF_ANY else int(G[E.S_SUIT]),
            effect=E.EFFECT_NAMES[int(G[E.S_EFF])],
            direction=int(G[E.S_DIR]), duty=int(G[E.S_DUTY_ACE] + G[E.S_DUTY_TWO]),
            talon=int(G[E.S_NT]), deal=int(G[E.S_DEAL_NO]), to_move=self.current_player(),
            events=events)

    def __repr__(self) -> str:
        where = "over" if self.decision is None else (
            f"seat {self.decision.seat} to {self.decision.kind}")
        return f"<State game {self.index} seed {self.seed}, {len(self._history)} actions, {where}>"


__all__ = ["DECLINE", "Decision", "DRAW", "FORGET_LAPPEN", "Game", "NAME_SUIT", "NUM_ACTIONS",
           "Observation", "SAY_LAPPEN", "STOP_STACKING", "StepError", "TAKE_DUTY", "TERMINAL",
           "State", "action_to_string"]
