"""The interactive table: one game played turn by turn, some seats people, the rest the bots.

The engine plays whole games inside one kernel; a person needs the game to stop at each of
their choices. This driver keeps the game in the engine's own state arrays (``C``, ``G``,
``H`` and the trace ``tr``, layout in :mod:`vandatta_sim.engine`) and advances it with the
engine's own compiled functions:

* a bot's turn is the engine's turn loop for exactly one turn (``_turn_loop`` with
  ``max_turns=1``): its policy, its view of the game (its hand and the public facts only) and
  its random numbers are those of a simulation, so a table without people plays the very game
  that :func:`vandatta_sim.simulate.trace_game` records (a test checks this);
* a person's turn follows the control flow of the engine's ``_turn_loop`` / ``_move`` /
  ``_play_card`` / ``_answer_duty`` line by line, with the policy's decisions (which card, which
  suit, stack on or not, the follow-up, the duty answer) and the lappen call replaced by the
  person's answers; legality (``_legal``, ``_duty_answers``, ...) and every effect (placing a
  card and its call, ace draws, drawing with reshuffles) are the engine's functions;
* deals and matches use the engine's dealing, start card, scoring and elimination.

The trace is the engine's format, so the referee checks it and the narrator replays it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from . import engine as E
# The engine's own functions that the table runs, one at a time (private to the engine, so
# listed here in one place): they are njit dispatchers, callable from Python.
from .engine.game import (_ace_draws, _deal_hands, _draw, _draw_n, _duty_answers, _follow_ups,
                          _hand_points_all, _last_card_mask, _legal, _on_top, _place, _set_top,
                          _start_card, _turn_loop)
from .engine.match import _after_deal, _next_dealer, _seat_order
from .engine.primitives import _seed_rng, _step
from .rules import Rules
from .simulate import Seats, kernel_constants, seed_key
from .trace import Event

NO_CALL_FORGET = 0
ALWAYS_FORGETS = 1 << 53  # C_FORGET compares 53 random bits with this: every call forgotten
TRACE_HEADROOM = 8192  # rows kept free before each turn (one turn writes far fewer)


def mask_cards(mask: int) -> list[int]:
    """The card types of a 64-bit mask, in card order."""
    mask = int(mask)
    return [c for c in range(E.N_TYPES) if (mask >> c) & 1]


def bit(card: int) -> int:
    return 1 << int(card)


def suit_mask(suit: int) -> int:
    return int(E.CLUBS) << suit


def rank_mask(rank: int) -> int:
    return int(E.RANK_ZERO) << (E.N_SUITS * rank)


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


@dataclass(frozen=True)
class Answer:
    """A person's answer: a card, a suit, or -1 (decline); ``call`` says lappen with it."""

    value: int
    call: bool = False


class Table:
    """One game (a deal or a match, by ``rules.match``) with ``people`` at some seats.

    ``ask(table, Ask) -> Answer`` is called for every choice of a person; ``on_turn(table,
    seat)`` (optional) before each turn. The game is fixed by (rules, seats, seed, game) and
    the answers: the same answers give the same game."""

    def __init__(self, rules: Rules, seats: Seats, people, seed: int = 0, game: int = 0):
        self.rules = rules
        self.seats = seats
        self.people = frozenset(int(s) for s in people)
        self.C = kernel_constants(rules, seats)
        self.G = np.zeros(E.G_SIZE, np.int64)
        self.H = np.zeros(E.H_SIZE, np.uint64)
        self.tr = np.zeros((4 * TRACE_HEADROOM, 4), np.int32)
        self.seed, self.game = seed, game
        self.n = 0                   # seats in the current deal
        self.deal_no = -1
        self.dealer = rules.players - 1
        self.called = False          # the person to move has said lappen this turn
        self.winner: int | None = None
        self.over = False

    # --- state as a person may see it ------------------------------------------------------
    @property
    def rows(self) -> np.ndarray:
        return self.tr[: int(self.G[E.S_NEV])]

    def position(self, seat: int) -> int:
        for p in range(self.n):
            if int(self.G[E.G_SEATS + p]) == seat:
                return p
        raise ValueError(f"seat {seat} is not in this deal")

    def seat_at(self, p: int) -> int:
        return int(self.G[E.G_SEATS + p])

    def hand(self, seat: int) -> list[int]:
        p = self.position(seat)
        once, twice = mask_cards(self.H[p]), mask_cards(self.H[E.HI + p])
        return sorted(once + twice, key=lambda c: (c % 4 if c < 52 else 4, c))

    def hand_size(self, seat: int) -> int:
        p = self.position(seat)
        return int(self.H[p]).bit_count() + int(self.H[E.HI + p]).bit_count()

    def seats_in_deal(self) -> list[int]:
        return [self.seat_at(p) for p in range(self.n)]

    @property
    def talon_size(self) -> int:
        return int(self.G[E.S_NT])

    @property
    def top_card(self) -> int:
        return int(self.G[E.G_DISCARD + int(self.G[E.S_ND]) - 1])

    @property
    def suit_named(self) -> int | None:
        """The suit in force after an eight (or a super-eight joker), else None."""
        return int(self.G[E.S_SUIT]) if int(self.G[E.S_EFF]) == E.EFF_EIGHT else None

    @property
    def duty(self) -> tuple[str, int] | None:
        """The pending duty: ("ace", cards) or ("two", cards), or None."""
        if self.G[E.S_DUTY_ACE] > 0:
            return "ace", int(self.G[E.S_DUTY_ACE] + self.G[E.S_DUTY_TWO])
        if self.G[E.S_DUTY_TWO] > 0:
            return "two", int(self.G[E.S_DUTY_TWO])
        return None

    def totals(self) -> dict[int, int]:
        return {s: int(self.G[E.G_TOTALS + s]) for s in range(self.rules.players)}

    def active(self, seat: int) -> bool:
        return bool(self.G[E.G_ACTIVE + seat])

    def legal_mask(self, seat: int) -> int:
        """What the engine lets this seat play from its hand now (on the top, or as a duty
        answer when one is pending)."""
        p = self.position(seat)
        if self.duty is not None:
            return int(_duty_answers(self.C, self.G, self.H, p))
        count = self.hand_size(seat)
        return int(_legal(self.C, self.G, self.H[p], count, _on_top(self.C, self.G)))

    # --- the game ---------------------------------------------------------------------------
    def _record(self, kind: int, seat: int, a: int, b: int = 0):
        k = int(self.G[E.S_NEV])
        self.tr[k] = (kind, seat, a, b)
        self.G[E.S_NEV] = k + 1

    def _make_room(self):
        used = int(self.G[E.S_NEV])
        if used + TRACE_HEADROOM > self.tr.shape[0]:
            bigger = np.zeros((2 * self.tr.shape[0] + TRACE_HEADROOM, 4), np.int32)
            bigger[:used] = self.tr[:used]
            self.tr = bigger

    def play(self, ask: Callable[[Table, Ask], Answer],
             on_turn: Callable[[Table, int], None] | None = None,
             on_deal_end: Callable[[Table], None] | None = None) -> np.ndarray:
        """Play the whole game; returns its trace (the engine's format). ``on_deal_end`` is
        called after each deal's scores (and eliminations) are in the trace."""
        C, G, H = self.C, self.G, self.H
        n_seats = self.rules.players
        _seed_rng(H, np.uint64(E.game_seed_nb(seed_key(self.seed), self.game)))
        G[E.S_NEV] = 0
        for q in range(n_seats):
            G[E.G_ACTIVE + q], G[E.G_TOTALS + q], G[E.G_WINS + q] = 1, 0, 0
        G[E.S_SWAPPED] = 0
        winner, deals = -1, 0
        for deal_no in range(E.DEAL_CAP):
            self.deal_no = deal_no
            self.n = int(_seat_order(G, n_seats, self.dealer))
            result = self._play_deal(ask, on_turn)
            deals += 1
            winner = int(_after_deal(C, G, self.tr, self.n, result, deal_no))
            if on_deal_end is not None:
                on_deal_end(self)
            if winner != E.MATCH_GOES_ON:
                break
            self.dealer = int(_next_dealer(G, n_seats, self.dealer))
        else:
            winner = -1
        if self.rules.match_kind != "single":
            self._record(Event.END_MATCH, winner, deals)
        self.winner, self.over = winner, True
        return self.rows.copy()

    def _play_deal(self, ask, on_turn) -> int:
        C, G, H, n = self.C, self.G, self.H, self.n
        self._make_room()
        _deal_hands(C, G, H, self.tr, n, self.deal_no)
        before = int(G[E.S_NEV])
        _start_card(C, G, H, self.tr, n)
        self._person_names_start_suit(ask, before)
        p, idle, turns = 0, 0, 0
        result, reason = -2, E.END_CAPPED
        while turns < E.TURN_CAP:
            turns += 1
            self._make_room()
            plays, draws = int(G[E.S_PLAYS]), int(G[E.S_DRAWS])
            seat = self.seat_at(p)
            if on_turn is not None:
                on_turn(self, seat)
            if seat in self.people:
                won = self._person_turn(ask, p)
            else:
                won = int(_turn_loop(C, G, H, self.tr, n, p, 1, E.NO_FORCE, 0)[0]) == p
            if won:
                result, reason = p, E.END_WON
                break
            idle = idle + 1 if (G[E.S_PLAYS] == plays and G[E.S_DRAWS] == draws) else 0
            if idle >= n:
                result, reason = -1, E.END_BLOCKED
                break
            p = int(_step(p, G[E.S_DIR], n))
        G[E.S_TURNS] = turns
        _hand_points_all(C, G, H, n)
        self._record(Event.END_DEAL, self.seat_at(result) if result >= 0 else -1, reason)
        return result

    def _person_names_start_suit(self, ask, first_row: int):
        """A start eight named by a person's seat: the engine let the seat's policy name it;
        the person's suit replaces that choice (the name draws no card, so nothing else
        depends on it)."""
        for k in range(first_row, int(self.G[E.S_NEV])):
            kind, seat = int(self.tr[k, 0]), int(self.tr[k, 1])
            if kind == Event.NAME_SUIT and seat in self.people:
                suit = ask(self, Ask("suit", seat, suits=tuple(range(E.N_SUITS)))).value
                self.tr[k, 2] = suit
                self.G[E.S_SUIT] = suit
                self.G[E.S_START_SUIT] = suit

    # --- a person's turn: the engine's _turn_loop body for one turn -------------------------
    def _person_turn(self, ask, p: int) -> bool:
        C, G, H = self.C, self.G, self.H
        seat = self.seat_at(p)
        self._record(Event.TURN, seat, 0)
        G[E.S_CALL_FORGOT] = 0
        self.called = False
        duty = bool(G[E.S_DUTY_ACE] > 0 or G[E.S_DUTY_TWO] > 0)
        status = 1
        while status == 1:  # an ace's extra turn is another move
            card = self._person_answers_duty(ask, p) if duty else self._person_moves(ask, p)
            duty = False
            status = self._person_plays(ask, p, card) if card >= 0 else 0
        if status == 2:
            return True
        if G[E.S_CALL_FORGOT]:
            _draw_n(C, G, H, self.tr, p, C[E.R_CALL_PENALTY], E.CAUSE_CALL)
        return False

    def _ask(self, ask, question: Ask) -> int:
        answer = ask(self, question)
        self.called = self.called or answer.call
        return int(answer.value)

    def _person_moves(self, ask, p: int) -> int:
        """The engine's _move with the person choosing: the card played, or the drawn card
        that is to be played, or -1 after a pass."""
        C, G, H = self.C, self.G, self.H
        seat = self.seat_at(p)
        count = self.hand_size(seat)
        on_top = _on_top(C, G)
        m = int(_legal(C, G, H[p], count, on_top))
        may_pass = not C[E.R_MUST_PLAY]
        card = self._ask(ask, Ask("move", seat, tuple(mask_cards(m)),
                                  may_decline=m == 0 or may_pass))
        if card >= 0:
            return card
        if m == 0:
            G[E.G_LACKS + p] |= 1 << int(G[E.S_SUIT])  # seen by everyone
        elif not may_pass:
            raise ValueError("a person must play when must_play is on and a card fits")
        drawn, limit = 0, int(C[E.R_DRAW_LIMIT])
        while limit == 0 or drawn < limit:
            card = int(_draw(C, G, H, self.tr, p, E.CAUSE_DRAW))
            if card < 0:
                break
            drawn += 1
            count += 1
            if _legal(C, G, H[p], count, on_top & np.uint64(bit(card))):
                return card  # only the drawn card may be played, and the engine plays it
        self._record(Event.PASS, seat, 0)
        return -1

    def _person_answers_duty(self, ask, p: int) -> int:
        """The engine's _answer_duty with the person choosing."""
        C, G, H = self.C, self.G, self.H
        seat = self.seat_at(p)
        answers = int(_duty_answers(C, G, H, p))
        cause = E.CAUSE_COUNTER if G[E.S_DUTY_ACE] > 0 else E.CAUSE_TWO
        # the engine's policies answer whenever they can and must_play is on
        card = self._ask(ask, Ask("duty", seat, tuple(mask_cards(answers)),
                                  may_decline=not answers or not C[E.R_MUST_PLAY]))
        if card >= 0:
            return card
        duty = int(G[E.S_DUTY_ACE] + G[E.S_DUTY_TWO])
        G[E.S_DUTY_ACE] = 0
        G[E.S_DUTY_TWO] = 0
        _draw_n(C, G, H, self.tr, p, duty, cause)
        self._record(Event.PASS, seat, 0)
        return -1

    def _place(self, p: int, card: int) -> int:
        """The engine's _place, with the person's lappen call (or its absence) as the seat's
        forgetting: a call said this turn is made, else it is forgotten."""
        seat = self.seat_at(p)
        kept = int(self.C[E.C_FORGET + seat])
        self.C[E.C_FORGET + seat] = NO_CALL_FORGET if self.called else ALWAYS_FORGETS
        try:
            return int(_place(self.C, self.G, self.H, self.tr, p, card))
        finally:  # the bots' searches and the coach read the seat's forgetting as configured
            self.C[E.C_FORGET + seat] = kept

    def _person_plays(self, ask, p: int, card: int) -> int:
        """The engine's _play_card with the person choosing: 2 if the hand is now empty, 1 if
        the person moves again (an ace's extra turn), else 0."""
        C, G, H = self.C, self.G, self.H
        seat = self.seat_at(p)
        n = self.n
        while True:  # one round per card placed: stacked cards and an eight's follow-up too
            if self._place(p, card) == 0:
                return 2
            rank, name_suits, follow = -1, 0, 0
            if card in E.JOKER_TYPES:
                G[E.S_TOP_JOKER] = 1
                effect = int(C[E.R_JOKER_EFFECT])
                if effect == E.JK_REVERSE:
                    G[E.S_DIR] = -G[E.S_DIR]
                elif effect == E.JK_DRAW_TWO:
                    G[E.S_DUTY_TWO] += 2
                else:
                    name_suits = E.ALL_SUITS
            else:
                rank = card // E.N_SUITS
                _set_top(G, card)
                if rank == E.ACE:
                    if C[E.R_ACE_ON_ACE] == E.AA_COUNTER:
                        G[E.S_DUTY_ACE] += C[E.R_ACE_DRAW]
                    else:
                        _ace_draws(C, G, H, self.tr, p, n)
                elif rank == E.TWO and C[E.R_TWO_DRAWS_TWO]:
                    G[E.S_DUTY_TWO] += 2
                stacked = self._person_stacks(ask, p, rank)
                if stacked >= 0:
                    card = stacked
                    continue
                if rank == E.EIGHT:
                    name_suits = E.ALL_SUITS
                    if C[E.R_EIGHT_SAME]:
                        follow = int(_follow_ups(C, G, H[p], self.hand_size(seat) + 1))
                        name_suits = sum(1 << s for s in range(E.N_SUITS)
                                         if follow & suit_mask(s))
            if name_suits:
                suits = tuple(s for s in range(E.N_SUITS) if (name_suits >> s) & 1)
                suit = self._ask(ask, Ask("suit", seat, suits=suits))
                G[E.S_EFF] = E.EFF_EIGHT
                G[E.S_SUIT] = suit
                self._record(Event.NAME_SUIT, seat, suit)
                if rank == E.EIGHT and C[E.R_EIGHT_SAME]:
                    cards = tuple(mask_cards(follow & suit_mask(suit)))
                    card = self._ask(ask, Ask("follow", seat, cards))
                    continue  # the same player follows up in the named suit
                return 0
            if rank == E.ACE and C[E.R_ACE_EXTRA] and C[E.R_ACE_ON_ACE] != E.AA_COUNTER:
                return 1
            return 0

    def _person_stacks(self, ask, p: int, rank: int) -> int:
        """The engine's _stack_next with the person choosing: a card to stack, or -1."""
        C, G, H = self.C, self.G, self.H
        if not C[E.R_STACKING]:
            return -1
        same = int(H[p]) & rank_mask(rank)
        if same == 0:
            return -1
        seat = self.seat_at(p)
        rest = self.hand_size(seat)
        if rest == 1 and not (same & int(_last_card_mask(C, G))):
            return -1
        if rank == E.EIGHT and C[E.R_EIGHT_SAME] and rest > 1 and \
                int(_follow_ups(C, G, H[p], rest)) == 0:
            return -1
        return self._ask(ask, Ask("stack", seat, tuple(mask_cards(same)), may_decline=True))


def warm_up() -> None:
    """Compile (or load from the cache) every engine function the table and the coach call:
    one short game of a bot and a person who takes the first option, hinted once."""
    from .coach import Coach
    from .rules import resolve_rules

    rules = resolve_rules("standard", overrides=["players=2", "match=single"])
    coach = Coach("search")

    def person(table: Table, question: Ask) -> Answer:
        if question.kind == "move" and coach.asked == 0:
            coach.hints(table, question.seat)
        return first_option(table, question)

    Table(rules, Seats.build(2, "expert"), people=[0], seed=0).play(person)


def first_option(table: Table, question: Ask) -> Answer:
    """The answer that takes the first listed option (a stand-in person for tests)."""
    if question.kind == "suit":
        return Answer(question.suits[0])
    if question.cards:
        return Answer(question.cards[0], call=True)
    return Answer(-1)


__all__ = ["Table", "Ask", "Answer", "first_option", "warm_up", "mask_cards"]
