"""The interactive table: one game played decision by decision, some seats people, the rest
the bots.

The game is a :class:`vandatta_sim.step.State` whose external seats are the people's: the
engine plays every turn (the bots' with their policies, views and random numbers as in a
simulation) and stops at each choice a person makes, which the table puts to them as an
:class:`Ask` and answers with their :class:`Answer`. The rules of a turn are the engine's
alone; this module only translates questions and answers. One decision is not put to the
person: they say "lappen" with the card (``Answer.call``), and the call that falls due in that
turn is said (or forgotten, with the rules' penalty) by that. A table with no people plays
exactly the game that :func:`vandatta_sim.simulate.trace_game` records (a test checks this).
The trace is the engine's, so the referee checks it and the narrator replays it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from .. import engine as E
from .. import step as S
from ..cards import N_TYPES, is_joker, suit_of
from ..rules import Rules
from ..simulate import Seats, policy_code
from ..trace import Event

#: the action that declines (draw, take the duty, stop stacking), by the kind of question
DECLINE = S.DECLINE


def by_suit(card: int) -> tuple[int, int]:
    """The order a hand is shown in: by suit (jokers last), then by card."""
    return (4 if is_joker(card) else suit_of(card), card)


@dataclass(frozen=True)
class Ask:
    """One choice a person is asked for.

    ``kind`` is ``move`` (play a card or draw), ``duty`` (answer the pending duty or take it),
    ``stack`` (go on stacking with one of ``cards`` or stop: -1), ``follow`` (the card that must
    follow one's own eight under eight_follow=same_player) or ``suit`` (``suits`` to name).
    ``may_decline``: -1 (draw, take the duty, stop stacking) is an allowed answer."""

    kind: str
    seat: int
    cards: tuple[int, ...] = ()
    suits: tuple[int, ...] = ()
    may_decline: bool = False

    @classmethod
    def of(cls, decision: S.Decision) -> Ask:
        """The question for the step's decision (any kind but ``call``)."""
        if decision.kind == "suit":
            return cls("suit", decision.seat, suits=tuple(a - S.NAME_SUIT
                                                          for a in decision.actions))
        return cls(decision.kind, decision.seat, tuple(a for a in decision.actions if a < N_TYPES),
                   may_decline=DECLINE.get(decision.kind) in decision.actions)


@dataclass(frozen=True)
class Answer:
    """A person's answer: a card, a suit, or -1 (decline); ``call`` says lappen with it."""

    value: int
    call: bool = False

    def action(self, question: Ask) -> int:
        """The step's action for this answer to ``question`` (its legality is the step's)."""
        if question.kind == "suit":
            return S.NAME_SUIT + int(self.value)
        return DECLINE.get(question.kind, -1) if self.value < 0 else int(self.value)


class Table:
    """One game (a deal or a match, by ``rules.match``) with ``people`` at some seats.

    ``ask(table, Ask) -> Answer`` is called for every choice of a person. The game is fixed by
    (rules, seats, seed, game) and the answers: the same answers give the same game."""

    def __init__(self, rules: Rules, seats: Seats, people, seed: int = 0, game: int = 0):
        self.rules = rules
        self.seats = seats
        self.people = frozenset(int(s) for s in people)
        # a person's seat keeps its policy for the step's suggestions, a search one excepted
        # (the step asks heuristic policies only); its choices are the person's anyway
        policies = ["expert" if s in self.people and (policy_code(p) & E.POL_KIND) >= E.POL_SEARCH
                    else p for s, p in enumerate(seats.policies)]
        self.seed, self.game = seed, game
        self.state = S.Game(rules, policies, external=sorted(self.people),
                            forget=seats.forget).new_state(seed, game)
        self._shown: int | None = None  # rows shown while the end of a deal is told
        self._calls: set[int] = set()   # the turns (their TURN row) in which lappen was said
        self.winner: int | None = None
        self.over = False

    # --- the game as a person may see it ---------------------------------------------------
    @property
    def rows(self) -> np.ndarray:
        """The trace so far (while a deal's end is told: up to its scores)."""
        return self.state.events()[: self._shown]

    @property
    def deal_no(self) -> int:
        """The number of the deal under way (0-based)."""
        return int(np.count_nonzero(self.rows[:, 0] == Event.NEW_DEAL)) - 1

    def _view(self) -> S.Observation:
        return self.state.observation(0)  # its public fields are the same for every seat

    def hand(self, seat: int) -> list[int]:
        return sorted(self.state.hand(seat), key=by_suit)

    def hand_size(self, seat: int) -> int:
        return len(self.state.hand(seat))

    def seats_in_deal(self) -> list[int]:
        """The seats of the deal in the order of play from förhand."""
        _, G, _, _, n = self.state.engine_state()
        return [int(G[E.G_SEATS + p]) for p in range(n)]

    @property
    def talon_size(self) -> int:
        return self._view().talon

    @property
    def top_card(self) -> int:
        return self._view().top

    @property
    def suit_named(self) -> int | None:
        """The suit in force after an eight (or a super-eight joker), else None."""
        view = self._view()
        return view.suit if view.effect == "eight" else None

    @property
    def duty(self) -> tuple[str, int] | None:
        """The pending duty: ("ace", cards) or ("two", cards), or None."""
        cards = self._view().duty
        if cards == 0:
            return None
        _, G, _, _, _ = self.state.engine_state()
        return ("ace" if G[E.S_DUTY_ACE] > 0 else "two"), cards

    def totals(self) -> dict[int, int]:
        return dict(enumerate(self._view().totals))

    def active(self, seat: int) -> bool:
        """Whether ``seat`` is still in the match (not eliminated)."""
        rows = self.rows
        return not np.any((rows[:, 0] == Event.ELIMINATED) & (rows[:, 1] == seat))

    def call_counts(self, question: Ask, answer: Answer) -> bool:
        """Whether lappen said with ``answer`` counts: the step, given that answer on a copy of
        the game (and the first suit where the same seat must name one next), asks this seat
        for the call at once. The rule is the step's; the table only asks it."""
        if question.kind == "suit":
            return False
        trial = self.state.clone()
        trial.apply_action(answer.action(question))
        decision = trial.decision
        while decision is not None and decision.seat == question.seat and \
                decision.kind == "suit":
            trial.apply_action(decision.actions[0])
            decision = trial.decision
        return decision is not None and decision.seat == question.seat and \
            decision.kind == "call"

    # --- the game ---------------------------------------------------------------------------
    def play(self, ask: Callable[[Table, Ask], Answer],
             on_deal_end: Callable[[Table], None] | None = None) -> np.ndarray:
        """Play the whole game; returns its trace (the engine's format). ``on_deal_end`` is
        called after each deal's scores (and eliminations) are in the trace."""
        scanned = 0
        while True:
            scanned = self._tell_deal_ends(scanned, on_deal_end)
            decision = self.state.decision
            if decision is None:
                break
            self.state.apply_action(self._answer(ask, decision))
        self.winner, self.over = self.state.winner(), True
        return self.state.events().copy()

    def _answer(self, ask, decision: S.Decision) -> int:
        """The action for a person's decision: their answer, or for the call what they said."""
        rows = self.state.events()
        turns = np.flatnonzero((rows[:, 0] == Event.TURN) & (rows[:, 1] == decision.seat))
        turn = int(turns[-1]) if len(turns) else -1
        if decision.kind == "call":
            return S.SAY_LAPPEN if turn in self._calls else S.FORGET_LAPPEN
        question = Ask.of(decision)
        answer = ask(self, question)
        if answer.call:
            self._calls.add(turn)
        return answer.action(question)

    def _tell_deal_ends(self, scanned: int, on_deal_end) -> int:
        """Call ``on_deal_end`` for each deal that ended in the rows after ``scanned``, with
        the rows shown up to that deal's last result (before the next deal or the match's
        end). Returns the rows scanned."""
        rows = self.state.events()
        kinds = rows[:, 0]
        for end in np.flatnonzero(kinds[scanned:] == Event.END_DEAL) + scanned:
            last = end + 1
            while last < len(rows) and kinds[last] not in (Event.NEW_DEAL, Event.END_MATCH):
                last += 1
            if on_deal_end is not None:
                self._shown = int(last)
                try:
                    on_deal_end(self)
                finally:
                    self._shown = None
        return len(rows)


def warm_up() -> None:
    """Compile (or load from the cache) every engine function the table and the coach call:
    one short game of a bot and a person who takes the first option, hinted once."""
    from .coach import Coach
    from ..rules import resolve_rules

    rules = resolve_rules("standard", overrides=["players=2", "match=single"])
    coach = Coach("search")

    def person(table: Table, question: Ask) -> Answer:
        if question.kind == "move" and coach.asked == 0:
            coach.hints(table.state, question.seat)
        return first_option(table, question)

    Table(rules, Seats.build(2, "expert"), people=[0], seed=0).play(person)


def first_option(table: Table, question: Ask) -> Answer:
    """The answer that takes the first listed option (a stand-in person for tests)."""
    if question.kind == "suit":
        return Answer(question.suits[0])
    if question.cards:
        return Answer(question.cards[0], call=True)
    return Answer(-1)


__all__ = ["Table", "Ask", "Answer", "by_suit", "first_option", "warm_up"]
