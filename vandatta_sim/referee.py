"""The independent referee: replays an event trace and rejects any illegal move.

Written from ``docs/spec.md`` and ``docs/engine-rules.md`` only; it shares no code and no
rule logic with the compiled engine. ``referee(trace, rules)`` walks the trace row by row with a
:class:`GameState` (one method per event kind) and raises :class:`RefereeError` naming the event
index, the event and the rule it breaks. The state is kept by scope: the match in
:class:`GameState` itself, the current deal in a :class:`DealState` and the current turn in a
:class:`Turn`, each made new when its scope begins. Hands, talon and discard pile are multisets
of card types, so every card dealt, drawn, played, buried or reshuffled must come from where the
trace says it comes from: card conservation holds at every step by construction.

Where docs/engine-rules.md leaves a detail open, the referee reads it as follows (the numbers
are the choices of engine-rules.md):

* Ace draws (16), start-ace draws (6), duties (17-19) and call penalties (26) are drawn one
  player at a time: all cards of one player, then the next player's. They may fall short only
  when the talon is empty and no reshuffle is possible.
* An ace's extra turn is a new move with a fresh ``draw_limit`` (choice 16).
* With ``must_play`` off a player who does not play a playable drawn card draws on until the
  limit; with ``draw_limit = 0`` it may instead stop (PASS) as soon as a playable card appeared.
* PASS ends every turn in which nothing was played, a turn that drew a duty (17-19) included.
  At the end of an ace's extra turn in which nothing more was played it is optional (accepted
  or not): that turn did play a card.
* Rule 13 (a hand of only specials has no legal play) also applies to answering a duty and to
  playing a just-drawn card; it does not apply to stacking (22) or to an eight's same-player
  follow-up (15), whose legality those rules define themselves.
* Stacking (22) may follow any play, a duty answer or a follow-up included; aces in a stack
  make the others draw one ace at a time (PLAY, its DRAWs, the next PLAY, ...), and the extra
  turn comes after the last ace. An ace after an ace is taken as a stack card if stacking
  allows it, else as the extra-turn play (same effect).
* A card that empties the hand ends the deal at once (choice 16): no NAME_SUIT, no ace draws,
  no other effect; END_DEAL follows the PLAY directly. With ``eight_follow = same_player`` an
  eight is never that card, even with ``out_on_special``: rule 15 lets it be played only with
  a follow-up in the hand.
* CALL may come anywhere after the play that made it due and before that player's next PLAY,
  own DRAW or PASS and before the turn ends. A turn with one or more forgotten calls costs
  ``call_penalty`` cards once, at its end (choice 26).
* A counter duty exists only while it is more than zero cards (``ace_draw = 0`` opens none).
* RESHUFFLE moves every discard except the physical top card (a joker on top keeps the card
  under it in force even though that card goes into the talon), and comes directly before the
  draw that needed it. The reshuffle count is per deal.
* A buriable start card stays (choice 4) only if no card left in the talon could be turned
  without burying it. Such a *plain* start special is matched by suit or rank as an ordinary
  card (rule 8) but takes no joker; a plain start joker takes any non-joker card.
* SWAP (not described in engine-rules.md): before the start card, ``a`` goes from the seat's
  hand into the talon and ``b`` from the talon into the hand.
* Blocked: END_DEAL(-1, 1) must follow the turn that makes the run of turns without a card
  played or drawn as long as the number of active seats. Capped: END_DEAL(-1, 2) must follow
  the ``turn_cap``-th TURN of a deal.
* ``elimination``: if a deal would eliminate everyone left, ELIMINATED rows for all of them or
  for none are accepted. A capped deal ends its match at once with no winner and no
  ELIMINATED rows (choice 28); so does the ``deal_cap``-th deal of a match.
* ``single``: END_MATCH is optional; if present its winner is the deal's winner.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import StrEnum

import numpy as np

from .cards import ACE, EIGHT, N_DECK_TYPES, N_TYPES, SUIT_SYMBOLS, TWO, card_name, make_card
from .trace import DRAW_CAUSES, Event, as_rows, describe_row

TURN_CAP = 5000          # choice 27
MATCH_DEAL_CAP = 1000    # choice 28

# DRAW causes (the ``b`` column of a DRAW row)
CAUSE_DRAW, CAUSE_ACE, CAUSE_COUNTER, CAUSE_TWO, CAUSE_CALL, CAUSE_START_ACE = range(6)

# Card tables, so that the hot paths make no function calls.
RANK = [c // 4 for c in range(N_DECK_TYPES)] + [-1, -1]
SUIT = [c % 4 for c in range(N_DECK_TYPES)] + [-1, -1]
JOKER = [False] * N_DECK_TYPES + [True, True]
SPECIAL = [JOKER[c] or RANK[c] in (ACE, EIGHT) for c in range(N_TYPES)]


# String enums: their values read as before in the error messages.

class Phase(StrEnum):
    """Where the match stands between two events."""

    START = "start"                 # before the first NEW_DEAL
    SETUP = "setup"                 # dealing, start card, start-card effects
    PLAY = "play"                   # turns
    WON = "won"                     # a hand is empty: END_DEAL comes next
    SCORING = "scoring"             # SCORE rows of the ended deal
    AFTER_SCORES = "after_scores"   # ELIMINATED rows, then NEW_DEAL or END_MATCH
    DONE = "done"                   # after END_MATCH


class Mode(StrEnum):
    """Where the player to move stands within its turn."""

    DUTY = "duty"                   # a duty (rules 17-19) must be answered or drawn first
    CHOOSE = "choose"               # may play from the hand or draw
    DRAWING = "drawing"             # has drawn: only the card just drawn may be played
    AFTER_PLAY = "after_play"       # has played: a stack card, follow-up or extra turn may come
    OVER = "over"                   # nothing more of its own, bar a PASS after a duty draw
    CALL_PENALTY = "call_penalty"   # drawing the cards of a forgotten call (rule 26)


class TopKind(StrEnum):
    """Kinds of the effective top card."""

    ORDINARY = "ordinary"               # rule 8
    ACE = "ace"                         # rule 9
    EIGHT_LIKE = "eight-like"           # rule 10 (played eight, super_eight joker, start eight)
    PLAIN = "plain start special"       # choice 4: a special start card that could not be buried


class DutyKind(StrEnum):
    """What a pending duty was opened by, and so what answers it."""

    COUNTER = "counter"             # rule 17: aces under ace_on_ace = counter
    TWO = "two"                     # rules 18-19: a two or a draw_two joker


class NameDue(StrEnum):
    """The card just played that still needs its NAME_SUIT."""

    EIGHT = "eight"                 # rule 10
    JOKER = "joker"                 # a super_eight joker


class RefereeError(ValueError):
    """An illegal or inconsistent event; the message names the event and the rule broken."""

    def __init__(self, index: int, row: Sequence[int] | None, message: str):
        self.index = index
        self.row = None if row is None else tuple(int(x) for x in row)
        self.reason = message
        where = "end of trace" if row is None else f"event {index} {describe_row(row)}"
        super().__init__(f"{where}: {message}")


def _names(cards) -> str:
    return " ".join(card_name(c) for c in sorted(cards)) or "nothing"


class Top:
    """The card in force on the discard pile (the *effective top* of engine-rules.md)."""

    __slots__ = ("kind", "suit", "rank", "card", "joker_on_top")

    def __init__(self, kind: TopKind, suit: int | None, rank: int | None, card: int,
                 joker_on_top: bool = False):
        self.kind, self.suit, self.rank, self.card = kind, suit, rank, card
        self.joker_on_top = joker_on_top  # rule 11: the physical top is a joker

    @classmethod
    def of_card(cls, card: int) -> Top:
        kind = TopKind.ACE if RANK[card] == ACE else TopKind.ORDINARY
        return cls(kind, SUIT[card], RANK[card], card)

    def under_joker(self, joker: int) -> Top:
        """After a reverse or draw_two joker: the card under it stays in force (choice 8)."""
        return Top(self.kind, self.suit, self.rank, joker, True)

    def __repr__(self) -> str:
        if self.kind == TopKind.EIGHT_LIKE:
            return f"eight-like, {SUIT_SYMBOLS[self.suit]} named"
        return f"{card_name(self.card)} ({self.kind})"


class RuleView:
    """The rule parameters the referee reads, copied once into plain attributes."""

    def __init__(self, rules):
        self.players = int(rules.players)
        self.n_decks = int(rules.n_decks)
        self.hand_size = int(rules.hand_size)
        self.jokers = int(rules.jokers)
        self.joker_effect = rules.joker_effect
        self.start_eight = rules.start_eight
        self.start_ace = rules.start_ace
        self.must_play = bool(rules.must_play)
        self.stacking = bool(rules.stacking)
        self.same_player = rules.eight_follow == "same_player"
        self.eight_on_ace = bool(rules.eight_on_ace)
        self.eight_on_eight = bool(rules.eight_on_eight)
        self.ace_on_eight = bool(rules.ace_on_eight)
        self.ace_on_ace = rules.ace_on_ace
        self.counter = rules.ace_on_ace == "counter"
        self.ace_draw = int(rules.ace_draw)
        self.ace_extra_turn = bool(rules.ace_extra_turn)
        self.draw_limit = int(rules.draw_limit)
        self.specials_only_must_draw = bool(rules.specials_only_must_draw)
        self.out_on_special = bool(rules.out_on_special)
        self.last_card_start_suit = bool(rules.last_card_start_suit)
        self.two_draws_two = bool(rules.two_draws_two)
        self.call_at = int(rules.call_at)
        self.call_penalty = int(rules.call_penalty)
        reshuffles = rules.reshuffles
        self.reshuffle_limit = (None if reshuffles in ("unlimited", None) or int(reshuffles) < 0
                                else int(reshuffles))
        self.points = [int(p) for p in np.asarray(rules.scale_points()).tolist()]
        if len(self.points) != N_TYPES:
            raise ValueError(f"rules.scale_points() has {len(self.points)} entries, not {N_TYPES}")
        kind = getattr(rules, "match_kind", None)
        if kind is None:
            kind, _, param = str(rules.match).partition(":")
        else:
            param = getattr(rules, "match_param", 0)
        self.match_kind = kind
        self.match_param = int(param or 0)
        self.eliminate_pass = rules.eliminate_at == "pass"

    def deck(self) -> list[int]:
        """Copies of each card type in the full pack (two decks: two of each)."""
        counts = [self.n_decks] * N_DECK_TYPES + [0, 0]
        for j in range(min(self.jokers, 2)):
            counts[N_DECK_TYPES + j] = self.n_decks
        return counts


# ---------------------------------------------------------------------------------------------
# Legality, straight from the rules
# ---------------------------------------------------------------------------------------------

def card_fits(card: int, top: Top, rules: RuleView) -> bool:
    """Rules 8-11: may ``card`` be played on ``top`` (ignoring rules 12, 13 and 15)?"""
    if JOKER[card]:
        # A joker goes on an ordinary card only, never on a joker (the physical top).
        return top.kind == TopKind.ORDINARY and not top.joker_on_top
    rank, suit = RANK[card], SUIT[card]
    kind = top.kind
    if kind == TopKind.EIGHT_LIKE:               # rule 10
        if rank == EIGHT:
            return rules.eight_on_eight
        if rank == ACE:
            return rules.ace_on_eight and suit == top.suit
        return suit == top.suit
    if kind == TopKind.ACE:                      # rule 9
        if rank == EIGHT:
            return rules.eight_on_ace
        if rank == ACE:
            return rules.ace_on_ace != "forbidden"
        return suit == top.suit
    # rule 8 (an ordinary top, or a plain start special matched like one)
    if rank == EIGHT:
        return True
    if top.suit is None:                         # a plain start joker: anything but a joker
        return True
    return suit == top.suit or rank == top.rank


def may_go_out_with(card: int, rules: RuleView, start_suit: int | None) -> bool:
    """Rule 12: may ``card`` be the card that empties the hand?"""
    if SPECIAL[card] and not rules.out_on_special:
        return False
    if rules.last_card_start_suit and start_suit is not None:
        return SUIT[card] == start_suit
    return True


def has_follow_up(hand: dict[int, int], size_after: int, rules: RuleView,
                  start_suit: int | None) -> bool:
    """Rule 15: after an eight leaves the hand, does it hold a same-player follow-up?

    A follow-up is a non-eight card legal on an eight-like top of a suit the player may name
    (rule 10), obeying rule 12 if it is the last card. ``hand`` may still count the eight: eights
    are never follow-ups.
    """
    for card in hand:
        if JOKER[card] or RANK[card] == EIGHT:
            continue
        if RANK[card] == ACE and not rules.ace_on_eight:
            continue
        if size_after == 1 and not may_go_out_with(card, rules, start_suit):
            continue
        return True
    return False


def why_not_out(card: int, rules: RuleView, start_suit: int | None, card_text=card_name,
                suit_text=SUIT_SYMBOLS.__getitem__) -> str:
    """Why ``card`` may not be the card that empties the hand (``may_go_out_with`` is False)."""
    if SPECIAL[card] and not rules.out_on_special:
        return (f"{card_text(card)} may not empty the hand: no going out on a special "
                f"(rule 12, out_on_special off)")
    return (f"{card_text(card)} may not empty the hand: the last card must be of the start "
            f"suit {suit_text(start_suit)} (rule 12, last_card_start_suit)")


def why_illegal(state: GameState, card: int, seat: int | None = None, card_text=card_name,
                suit_text=SUIT_SYMBOLS.__getitem__) -> str:
    """Why ``seat`` (by default the one to move) may not play ``card`` now, with the rule's
    number: the one text of it, for the referee's rejections and for a person's refused move
    at the table (``card_text`` and ``suit_text`` write a card and a suit as they are shown).
    Meant for a card outside :func:`legal_plays`; the checks run in that function's order."""
    rules, deal = state.rules, state.deal
    seat = state.turn.seat if seat is None else seat
    hand = deal.hands[seat]
    name = card_text(card)
    if not hand.get(card):
        return f"there is no {name} in the hand"
    if rules.specials_only_must_draw and all(SPECIAL[c] for c in hand):
        return (f"{name} may not be played: a hand of only eights, aces and jokers has no "
                f"legal play and must draw (rule 13, specials_only_must_draw)")
    if deal.duty > 0:
        if deal.duty_kind == DutyKind.COUNTER:
            answer = "answer it with an ace or draw it (rule 17)"
        elif rules.two_draws_two:
            answer = "answer it with a two or draw it (rule 18)"
        else:
            answer = "draw it: with two_draws_two off it cannot be answered (rule 19)"
        return (f"{name} does not answer the pending {deal.duty_kind} duty of {deal.duty} "
                f"cards: {answer}")
    top = deal.top
    if not card_fits(card, top, rules):
        if top.kind == TopKind.EIGHT_LIKE:                         # rule 10
            if JOKER[card]:
                return "a joker may not be played on an eight (rule 10)"
            if RANK[card] == EIGHT:
                return "no eight on an eight: it needs eight_on_eight (rule 10)"
            if RANK[card] == ACE and SUIT[card] == top.suit:
                return "no ace on an eight: it needs ace_on_eight (rule 10)"
            return f"{name} is not {suit_text(top.suit)}, the suit named (rule 10)"
        if top.kind == TopKind.ACE:                                # rule 9
            if JOKER[card]:
                return "a joker may not be played on an ace (rule 9)"
            if RANK[card] == EIGHT:
                return "no eight on an ace: it needs eight_on_ace (rule 9)"
            if RANK[card] == ACE:
                return f"no ace on an ace: ace_on_ace is {rules.ace_on_ace} (rule 9)"
            return (f"{name} does not match {suit_text(top.suit)}: on an ace only its suit "
                    f"counts (rule 9)")
        if JOKER[card]:                                            # rule 11
            return ("a joker may not be played on a joker (rule 11)" if top.joker_on_top else
                    "a joker may be played on an ordinary card only (rule 11)")
        return (f"{name} does not match {card_text(make_card(top.rank, top.suit))} in suit or "
                f"rank (rule 8)")
    if deal.hand_sizes[seat] == 1 and not may_go_out_with(card, rules, deal.start_suit):
        return why_not_out(card, rules, deal.start_suit, card_text, suit_text)
    if rules.same_player and RANK[card] == EIGHT:
        return (f"{name} may not be played: with eight_follow = same_player an eight needs a "
                f"card to follow it in the suit named (rule 15)")
    return f"{name} may not be played now"


def replay(trace, rules) -> GameState:
    """The referee's state after the rows of a game so far (each one checked; the game need
    not be over): for questions about a game in progress, e.g. :func:`why_illegal`."""
    game = GameState(rules)
    for index, row in enumerate(as_rows(trace)):
        game.step(index, row)
    return game


def legal_plays(state: GameState, seat: int | None = None) -> set[int]:
    """The card types the player to move may play now, from its whole hand.

    Covers a duty answer (rules 17-19, 21), a play on the effective top (rules 8-11), the
    same-player eight (15), the last card (12) and a hand of only specials (13).
    """
    rules = state.rules
    deal = state.deal
    seat = state.turn.seat if seat is None else seat
    hand = deal.hands[seat]
    size = deal.hand_sizes[seat]
    if rules.specials_only_must_draw and all(SPECIAL[c] for c in hand):
        return set()                                                   # rule 13
    if deal.duty > 0:                                                  # rule 21
        if deal.duty_kind == DutyKind.COUNTER:
            playable = [c for c in hand if RANK[c] == ACE]             # rule 17: any ace
        elif rules.two_draws_two:
            playable = [c for c in hand if RANK[c] == TWO]             # rule 18: any two
        else:
            playable = []                                              # rule 19
    else:
        top = deal.top
        playable = [c for c in hand if card_fits(c, top, rules)]
        if rules.same_player:                                          # rule 15
            playable = [c for c in playable if RANK[c] != EIGHT
                        or (size == 1 and rules.out_on_special)  # goes out: nothing follows
                        or has_follow_up(hand, size - 1, rules, deal.start_suit)]
    if size == 1:                                                      # rule 12
        playable = [c for c in playable if may_go_out_with(c, rules, deal.start_suit)]
    return set(playable)


# ---------------------------------------------------------------------------------------------
# State by scope: one turn, one deal (the match is GameState's own)
# ---------------------------------------------------------------------------------------------

@dataclass(slots=True)
class Turn:
    """What one player's turn has done so far; every TURN row starts a new one."""

    seat: int
    mode: Mode
    played: bool = False                # a card was played this turn
    acted: bool = False                 # a card was played or drawn this turn (rule 25)
    draws: int = 0                      # cards drawn with cause draw in this move (draw_limit)
    drawn: int | None = None            # the card just drawn, the only one that may be played now
    in_extra_turn: bool = False         # the current decision is an ace's extra turn
    stack_rank: int | None = None       # rank that may be stacked now
    name_due: NameDue | None = None     # a NAME_SUIT is due for this card
    follow_suit: int | None = None      # same-player follow-up due in this suit
    extra_turn_due: bool = False        # the ace's extra turn comes after this play
    passed: bool = False
    duty_drawn: bool = False
    call_due: bool = False
    forgot: int = 0                     # forgotten calls
    penalty_opened: bool = False        # the call-penalty draws have begun
    actions_done: bool = False          # the player's own actions are over and were checked

    def start_extra_move(self):
        """Choice 16: the ace's player moves again on the ace, with a fresh draw_limit."""
        self.mode = Mode.CHOOSE
        self.in_extra_turn = True
        self.draws = 0
        self.drawn = None
        self.stack_rank = None
        self.extra_turn_due = False


@dataclass(slots=True)
class DealState:
    """The table during one deal, from its NEW_DEAL to the end of its results; every NEW_DEAL
    starts a new one."""

    hands: list[dict[int, int]]         # per seat: card type -> copies
    hand_sizes: list[int]
    talon: list[int]                    # card type -> copies
    talon_size: int
    discard: list[int] = field(default_factory=list)
    top: Top | None = None
    forehand: int | None = None
    start_card: int | None = None       # turned up and not (yet) buried
    started: bool = False               # a START was seen
    start_resolved: bool = False
    start_suit: int | None = None
    start_namer: int | None = None      # who still has to name the start eight's suit
    direction: int = 1
    duty: int = 0
    duty_kind: DutyKind | None = None
    reshuffles_used: int = 0
    expect_draw: bool = False
    turns_in_deal: int = 0
    quiet_turns: int = 0                # consecutive turns without a card played or drawn
    queue: list[list[int]] = field(default_factory=list)  # penalty draws: [seat, cards left]
    queue_open: bool = False
    queue_cause: int = -1
    won_seat: int | None = None
    winner: int = -1                    # of the ended deal; -1 blocked or capped
    scored: set[int] = field(default_factory=set)
    eliminated_now: set[int] = field(default_factory=set)
    results_closed: bool = False        # choice 28 applied to this deal's results

    @classmethod
    def fresh(cls, players: int, full_deck: list[int]) -> DealState:
        """Before the first DEAL row: empty hands, the whole pack in the talon."""
        return cls([{} for _ in range(players)], [0] * players, list(full_deck), sum(full_deck))


# ---------------------------------------------------------------------------------------------
# The game state and one method per event kind
# ---------------------------------------------------------------------------------------------

class GameState:
    """Everything the referee knows about the table while it replays a trace."""

    def __init__(self, rules, policies_forget=None, turn_cap: int = TURN_CAP,
                 deal_cap: int = MATCH_DEAL_CAP):
        self.rules = r = rules if isinstance(rules, RuleView) else RuleView(rules)
        self.P = r.players
        self.forget = None if policies_forget is None else [float(p) for p in policies_forget]
        self.turn_cap = turn_cap
        self.deal_cap = deal_cap
        self.full_deck = r.deck()
        self.deck_size = sum(self.full_deck)
        self.active = [True] * self.P
        self.totals = [0] * self.P
        self.last_points = [0] * self.P
        self.wins = [0] * self.P
        self.eliminated: list[int] = []
        self.deal_winners: list[int] = []
        self.end_reasons: list[int] = []
        self.deals = 0
        self.dealer: int | None = None           # of the latest deal
        self.phase = Phase.START
        self.match_winner: int | None = None
        self.match_over: str | None = None
        self.match_winner_expected = -1
        self.deal = DealState.fresh(self.P, self.full_deck)
        self.turn: Turn | None = None            # None outside a deal's turns
        self.counts = {"turns": 0, "plays": 0, "draws": 0, "reshuffles": 0, "calls": 0,
                       "forgotten_calls": 0, "passes": 0}
        self.draws_by_cause = dict.fromkeys(DRAW_CAUSES, 0)
        self.index, self.row = -1, None
        self.handlers = {
            Event.NEW_DEAL: self.on_new_deal, Event.DEAL: self.on_deal,
            Event.START: self.on_start, Event.BURY: self.on_bury, Event.TURN: self.on_turn,
            Event.PLAY: self.on_play, Event.NAME_SUIT: self.on_name_suit,
            Event.DRAW: self.on_draw, Event.PASS: self.on_pass,
            Event.RESHUFFLE: self.on_reshuffle, Event.CALL: self.on_call,
            Event.END_DEAL: self.on_end_deal, Event.SCORE: self.on_score,
            Event.ELIMINATED: self.on_eliminated, Event.END_MATCH: self.on_end_match,
            Event.SWAP: self.on_swap,
            Event.ESTIMATE: self.on_estimate,
        }

    # -- helpers ------------------------------------------------------------------------------

    def on_estimate(self, seat: int, a: int, b: int):
        """A search player's estimate of one option: what it thought, not a move (skipped)."""
        self._seat(seat)

    def fail(self, message: str):
        raise RefereeError(self.index, self.row, message)

    def _seat(self, seat: int, what: str = "seat") -> int:
        if not 0 <= seat < self.P:
            self.fail(f"{what} {seat} does not exist ({self.P} players)")
        return seat

    def _card(self, card: int) -> int:
        if not 0 <= card < N_TYPES:
            self.fail(f"{card} is not a card type (0-{N_TYPES - 1})")
        return card

    def next_active(self, seat: int, direction: int = 1) -> int:
        for _ in range(self.P):
            seat = (seat + direction) % self.P
            if self.active[seat]:
                return seat
        self.fail("no active seat left")

    @property
    def n_active(self) -> int:
        return sum(self.active)

    def _remove_from_talon(self, card: int, what: str):
        self._card(card)
        deal = self.deal
        if deal.talon_size == 0:
            self.fail(f"{what} from an empty talon (a RESHUFFLE is needed first, or nothing "
                      f"can be drawn)")
        if deal.talon[card] == 0:
            self.fail(f"{what} {card_name(card)}, which is not in the talon (card conservation: "
                      f"every copy is in a hand or on the discard pile)")
        deal.talon[card] -= 1
        deal.talon_size -= 1

    def _take_from_talon(self, card: int, seat: int, what: str):
        self._remove_from_talon(card, what)
        hand = self.deal.hands[seat]
        hand[card] = hand.get(card, 0) + 1
        self.deal.hand_sizes[seat] += 1

    def _take_from_hand(self, card: int, seat: int):
        hand = self.deal.hands[seat]
        n = hand.get(card, 0)
        if n == 0:
            self.fail(f"seat {seat} does not hold {card_name(card)} (hand: {_names(hand)})")
        if n == 1:
            del hand[card]
        else:
            hand[card] = n - 1
        self.deal.hand_sizes[seat] -= 1

    def can_reshuffle(self) -> bool:
        """Rule 24: another reshuffle allowed and at least one discard under the top card."""
        limit = self.rules.reshuffle_limit
        deal = self.deal
        return (limit is None or deal.reshuffles_used < limit) and len(deal.discard) >= 2

    def can_draw(self) -> bool:
        return self.deal.talon_size > 0 or self.can_reshuffle()

    # -- penalty draws (ace, start ace, duty, call) --------------------------------------------

    def _open_queue(self, entries: list[tuple[int, int]], cause: int):
        deal = self.deal
        deal.queue = [[seat, n] for seat, n in entries if n > 0]
        deal.queue_open = True
        deal.queue_cause = cause

    def _queue_draw(self, seat: int, card: int, cause: int):
        queue = self.deal.queue
        while queue and queue[0][1] == 0:
            queue.pop(0)
        name = DRAW_CAUSES[cause]
        if not queue:
            self.fail(f"more {name} penalty draws than are due")
        if seat != queue[0][0]:
            self.fail(f"{name} penalty draw by seat {seat}, but seat {queue[0][0]} draws next "
                      f"({queue[0][1]} card(s) left to draw; each player in turn order)")
        self._take_from_talon(card, seat, f"{name} penalty: draws")
        queue[0][1] -= 1

    def _close_queue(self):
        """The penalty draws are over: all drawn, or short only because nothing can be drawn."""
        deal = self.deal
        deal.queue_open = False
        owed = [(s, n) for s, n in deal.queue if n > 0]
        deal.queue = []
        if owed and self.can_draw():
            due = ", ".join(f"seat {s}: {n}" for s, n in owed)
            self.fail(f"{DRAW_CAUSES[deal.queue_cause]} penalty cards not drawn ({due}) "
                      f"although the talon (or a reshuffle) could supply them")

    # -- the dispatcher ----------------------------------------------------------------------

    def step(self, index: int, row: tuple[int, int, int, int]):
        self.index, self.row = index, row
        kind, seat, a, b = row
        if self.phase == Phase.DONE:
            self.fail("event after END_MATCH")
        deal = self.deal
        if deal.expect_draw and kind != Event.DRAW:
            self.fail("a RESHUFFLE must be followed by the draw that needed it")
        if deal.queue_open and kind not in (Event.RESHUFFLE, Event.CALL) and not (
                kind == Event.DRAW and b == deal.queue_cause):
            self._close_queue()
        handler = self.handlers.get(kind)
        if handler is None:
            self.fail(f"unknown event kind {kind}")
        handler(seat, a, b)

    # -- deal set-up ---------------------------------------------------------------------------

    def on_new_deal(self, dealer: int, forehand: int, number: int):
        if self.phase == Phase.AFTER_SCORES:
            self._close_deal_results()
            if self.match_over:
                self.fail(f"the match is over ({self.match_over}); END_MATCH expected")
        elif self.phase != Phase.START:
            self.fail("NEW_DEAL before the previous deal was ended and scored")
        if self.dealer is None:
            expected = self.P - 1                                   # choice 1: seat P-1 deals
        else:
            expected = self.next_active(self.dealer)                # dealer moves one seat left
        if dealer != expected:
            self.fail(f"dealer should be seat {expected} (the dealer moves one active seat on)")
        if forehand != self.next_active(dealer):
            self.fail(f"förhand should be seat {self.next_active(dealer)}, the next active seat "
                      f"after the dealer")
        if number != self.deals:
            self.fail(f"deal number should be {self.deals}")
        self.deal = DealState.fresh(self.P, self.full_deck)
        self.turn = None
        self.dealer, self.deal.forehand = dealer, forehand
        self.phase = Phase.SETUP

    def _in_setup(self, what: str):
        if self.phase != Phase.SETUP:
            self.fail(f"{what} outside a deal's set-up")

    def on_deal(self, seat: int, card: int, _b: int):
        self._in_setup("DEAL")
        if self.deal.started:
            self.fail("DEAL after the start card was turned")
        self._seat(seat)
        if not self.active[seat]:
            self.fail(f"seat {seat} is eliminated and is not dealt to")
        self._take_from_talon(card, seat, "deals")
        if self.deal.hand_sizes[seat] > self.rules.hand_size:
            self.fail(f"seat {seat} is dealt more than hand_size = {self.rules.hand_size} cards")

    def on_swap(self, seat: int, card_out: int, card_in: int):
        self._in_setup("SWAP")
        deal = self.deal
        if deal.started:
            self.fail("SWAP after the start card was turned")
        self._seat(seat)
        self._card(card_out)
        self._take_from_hand(card_out, seat)
        deal.talon[card_out] += 1
        deal.talon_size += 1
        self._take_from_talon(card_in, seat, "swaps in")

    def _needs_bury(self, card: int) -> bool:
        if JOKER[card]:
            return True                                             # choice 4
        if RANK[card] == EIGHT:
            return self.rules.start_eight == "bury"
        if RANK[card] == ACE:
            return self.rules.start_ace == "bury"
        return False

    def on_start(self, _seat: int, card: int, _b: int):
        self._in_setup("START")
        deal = self.deal
        if deal.start_resolved:
            self.fail("START after the start card took effect")
        if deal.start_card is not None:
            self.fail(f"a second start card while {card_name(deal.start_card)} is still up "
                      f"(BURY missing, or it should have stayed)")
        if not deal.started:
            for seat in range(self.P):
                want = self.rules.hand_size if self.active[seat] else 0
                if deal.hand_sizes[seat] != want:
                    self.fail(f"seat {seat} holds {deal.hand_sizes[seat]} cards after the deal; "
                              f"hand_size = {want}")
        deal.started = True
        self._remove_from_talon(card, "turns up")
        deal.discard.append(card)
        deal.start_card = card

    def on_bury(self, _seat: int, card: int, _b: int):
        self._in_setup("BURY")
        deal = self.deal
        if deal.start_card is None or deal.start_resolved:
            self.fail("BURY without a start card to bury")
        if card != deal.start_card:
            self.fail(f"BURY of {card_name(card)}, but the start card is "
                      f"{card_name(deal.start_card)}")
        if not self._needs_bury(card):
            self.fail(f"{card_name(card)} may not be buried (start_eight = "
                      f"{self.rules.start_eight}, start_ace = {self.rules.start_ace})")
        deal.discard.pop()
        deal.talon[card] += 1
        deal.talon_size += 1
        deal.start_card = None

    def _resolve_start(self):
        """The last START stands: apply the start card's effect (choices 4-7)."""
        deal = self.deal
        if deal.start_resolved:
            return
        card = deal.start_card
        if card is None:
            self.fail("no start card was turned up" if not deal.started
                      else "the start card was buried and no new one was turned")
        deal.start_resolved = True
        rules = self.rules
        if self._needs_bury(card):
            turnable = [c for c in range(N_TYPES) if deal.talon[c] and not self._needs_bury(c)]
            if turnable:
                self.fail(f"start card {card_name(card)} must be buried and another turned "
                          f"(the talon still holds {_names(turnable[:5])}…)")
            deal.top = Top(TopKind.PLAIN, None if JOKER[card] else SUIT[card],
                           None if JOKER[card] else RANK[card], card)
            deal.start_suit = None if JOKER[card] else SUIT[card]
            return
        deal.start_suit = SUIT[card]
        if RANK[card] == EIGHT:                                     # choice 5
            deal.start_namer = (self.dealer if rules.start_eight == "dealer_names"
                                else deal.forehand)
            deal.top = Top(TopKind.PLAIN, SUIT[card], EIGHT, card)  # until the suit is named
            return
        deal.top = Top.of_card(card)
        if RANK[card] == ACE:                                       # choice 6
            seats, seat = [], deal.forehand
            for _ in range(self.n_active):
                seats.append(seat)
                seat = self.next_active(seat)
            if rules.start_ace == "all_but_dealer_draw":
                seats.remove(self.dealer)
            elif rules.start_ace == "dealer_draws":
                seats = [self.dealer]
            self._open_queue([(s, rules.ace_draw) for s in seats], CAUSE_START_ACE)

    # -- turns ---------------------------------------------------------------------------------

    def on_turn(self, seat: int, _a: int, _b: int):
        deal = self.deal
        if self.phase == Phase.SETUP:
            self._resolve_start()
            if deal.queue_open:
                self._close_queue()
            if deal.start_namer is not None:
                self.fail(f"the start eight's suit was not named (seat {deal.start_namer} names)")
            self.phase = Phase.PLAY
            expected = deal.forehand
        elif self.phase == Phase.PLAY:
            self._end_turn()
            if deal.quiet_turns >= self.n_active:
                self.fail(f"{deal.quiet_turns} turns in a row without a card played or drawn: the "
                          f"deal is blocked (rule 25), END_DEAL(-1, blocked) expected")
            if deal.turns_in_deal >= self.turn_cap:
                self.fail(f"the deal reached the turn cap ({self.turn_cap}); END_DEAL(-1, capped) "
                          f"expected")
            expected = self.next_active(self.turn.seat, deal.direction)
        elif self.phase == Phase.WON:
            self.fail(f"seat {deal.won_seat} emptied its hand: END_DEAL expected")
        else:
            self.fail("TURN outside a deal")
        self._seat(seat)
        if seat != expected:
            self.fail(f"wrong turn order: seat {expected} moves now"
                      f" (direction {'clockwise' if deal.direction == 1 else 'reversed'})")
        deal.turns_in_deal += 1
        self.counts["turns"] += 1
        self.turn = Turn(seat, Mode.DUTY if deal.duty > 0 else Mode.CHOOSE)

    def _drawn_card_legal(self) -> bool:
        drawn = self.turn.drawn
        return drawn is not None and drawn in legal_plays(self)

    def _may_draw_more(self, drawn_legal: bool) -> bool:
        """Rule 23/24: would the player still draw now (instead of passing)?"""
        if not self.can_draw():
            return False
        if self.rules.draw_limit == 0:
            return not drawn_legal           # until a playable card appears
        return self.turn.draws < self.rules.draw_limit

    def _check_may_stop(self, what: str):
        """The player ends its play (PASS, or the end of an extra turn): is that allowed?"""
        must = self.rules.must_play
        turn = self.turn
        if turn.mode == Mode.CHOOSE:
            drawn_legal = False
            if must:
                legal = legal_plays(self)
                if legal:
                    self.fail(f"{what} although it holds a legal play ({_names(legal)}) and "
                              f"must_play is on")
        else:
            drawn_legal = self._drawn_card_legal()
            if drawn_legal and must:
                self.fail(f"{what} without playing the legal card it just drew "
                          f"({card_name(turn.drawn)}); must_play is on")
        if self._may_draw_more(drawn_legal):
            limit = self.rules.draw_limit or "until a playable card"
            self.fail(f"{what} although it could draw ({turn.draws} drawn this turn, "
                      f"draw_limit {limit}, talon {self.deal.talon_size})")

    def _check_duty_unanswered(self, what: str):
        if self.rules.must_play:
            answers = legal_plays(self)
            if answers:
                self.fail(f"{what} although it holds {_names(answers)} to answer the "
                          f"{self.deal.duty_kind} duty and must_play is on (rules 17-18)")

    def _finish_actions(self):
        """The player's own actions in this turn are over: is anything still owed?"""
        turn = self.turn
        turn.actions_done = True
        if turn.call_due:
            self.fail(f"seat {turn.seat} reached {self.deal.hand_sizes[turn.seat]} card(s): a "
                      f"CALL row is due (rule 26)")
        mode = turn.mode
        if mode == Mode.DUTY:
            self._check_duty_unanswered("the duty was neither answered nor drawn")
            if self.can_draw():
                self.fail(f"the duty of {self.deal.duty} card(s) was neither answered nor drawn")
            self.fail("nothing can be drawn for the duty: PASS expected (choices 17-19)")
        elif mode == Mode.OVER and turn.duty_drawn and not turn.passed:
            self.fail(f"seat {turn.seat} drew its duty: PASS expected (choices 17-19)")
        elif mode == Mode.CHOOSE:
            if not turn.in_extra_turn:
                self.fail(f"seat {turn.seat}'s turn ends without a play, a draw or a PASS")
            self._check_may_stop("the ace's extra turn ends")
        elif mode == Mode.DRAWING:
            if not turn.played:
                self.fail(f"seat {turn.seat} drew without playing: PASS expected")
            self._check_may_stop("the ace's extra turn ends")
        elif mode == Mode.AFTER_PLAY:
            self._check_play_complete()
            if turn.extra_turn_due:
                turn.start_extra_move()
                self._check_may_stop("the ace's extra turn ends")
        turn.mode = Mode.OVER

    def _check_play_complete(self):
        turn = self.turn
        if turn.name_due:
            self.fail(f"the {'eight' if turn.name_due == NameDue.EIGHT else 'super_eight joker'} "
                      f"needs a NAME_SUIT")
        if turn.follow_suit is not None:
            self.fail(f"eight_follow = same_player: a follow-up in "
                      f"{SUIT_SYMBOLS[turn.follow_suit]} must be played at once (rule 15)")

    def _end_turn(self):
        turn, deal = self.turn, self.deal
        if not turn.actions_done:
            self._finish_actions()
        seat = turn.seat
        if (turn.forgot and not turn.penalty_opened and self.rules.call_penalty > 0
                and deal.hand_sizes[seat] > 0 and self.can_draw()):
            self.fail(f"seat {seat} forgot to call: {self.rules.call_penalty} "
                      f"call-penalty card(s) must be drawn at the end of its turn (rule 26)")
        deal.quiet_turns = 0 if turn.acted else deal.quiet_turns + 1

    def _check_own_turn(self, seat: int, what: str):
        if self.phase == Phase.WON:
            self.fail(f"seat {self.deal.won_seat} emptied its hand: the deal is over")
        if self.phase != Phase.PLAY or self.turn is None:
            self.fail(f"{what} outside a turn")
        if seat != self.turn.seat:
            self.fail(f"{what} by seat {seat} during seat {self.turn.seat}'s turn")

    # -- PLAY ----------------------------------------------------------------------------------

    def on_play(self, seat: int, card: int, _b: int):
        self._check_own_turn(seat, "PLAY")
        self._card(card)
        turn = self.turn
        if turn.call_due:
            self.fail("a CALL is due before the next play (rule 26)")
        hand = self.deal.hands[seat]
        if not hand.get(card):
            self.fail(f"seat {seat} plays {card_name(card)}, which is not in its hand "
                      f"({_names(hand)})")
        mode = turn.mode
        if mode == Mode.DUTY:
            if card not in legal_plays(self):
                self.fail(why_illegal(self, card))
        elif mode == Mode.CHOOSE:
            if card not in legal_plays(self):
                self.fail(why_illegal(self, card))
        elif mode == Mode.DRAWING:
            if card != turn.drawn:
                self.fail(f"after drawing only the card just drawn ({card_name(turn.drawn)}) "
                          f"may be played (rule 23)")
            if card not in legal_plays(self):
                self.fail(why_illegal(self, card))
        elif mode == Mode.AFTER_PLAY:
            self._play_after_play(card)
        else:
            self.fail(f"seat {seat}'s turn is over; it may not play")
        self._apply_play(card)

    def _play_after_play(self, card: int):
        """A further card right after a play: stack, follow-up or the ace's extra turn."""
        rules, turn, deal = self.rules, self.turn, self.deal
        seat = turn.seat
        if turn.follow_suit is not None:                            # rule 15
            suit = turn.follow_suit
            if JOKER[card] or RANK[card] == EIGHT:
                self.fail("a same-player follow-up is not an eight or a joker (rule 15)")
            if not card_fits(card, deal.top, rules):
                self.fail(f"{card_name(card)} is no follow-up to the eight naming "
                          f"{SUIT_SYMBOLS[suit]} (rules 10, 15)")
            if deal.hand_sizes[seat] == 1 and not may_go_out_with(card, rules, deal.start_suit):
                self.fail(why_not_out(card, rules, deal.start_suit))
            turn.follow_suit = None
            return
        stackable = (turn.stack_rank is not None and not JOKER[card]
                     and RANK[card] == turn.stack_rank)
        if turn.name_due:
            if turn.name_due == NameDue.EIGHT and stackable:
                self._check_stack_card(card)
                return
            self.fail("NAME_SUIT expected after the eight" if turn.name_due == NameDue.EIGHT
                      else "NAME_SUIT expected after the super_eight joker")
        if stackable:
            self._check_stack_card(card)
            return
        if turn.extra_turn_due:
            turn.start_extra_move()
            if card not in legal_plays(self):
                self.fail(why_illegal(self, card) + " (ace's extra turn)")
            return
        if rules.stacking and turn.stack_rank is not None:
            self.fail("only a card of the same rank may be stacked (rule 22); turn is over")
        self.fail(f"seat {seat} already played this turn; "
                  f"{'stacking is off' if not rules.stacking else 'nothing may follow'}")

    def _check_stack_card(self, card: int):
        """Rule 22: a further card of the same rank (jokers excluded), rule 12 on the last."""
        rules, deal = self.rules, self.deal
        seat = self.turn.seat
        size_after = deal.hand_sizes[seat] - 1
        if size_after == 0 and not may_go_out_with(card, rules, deal.start_suit):
            self.fail(why_not_out(card, rules, deal.start_suit))
        if RANK[card] == EIGHT and rules.same_player and size_after > 0 and not has_follow_up(
                deal.hands[seat], size_after, rules, deal.start_suit):
            self.fail("an eight may be stacked only while a same-player follow-up remains "
                      "in the hand (rule 15)")

    def _apply_play(self, card: int):
        """Move the card to the discard pile and apply its effect (choices 16-22, 26)."""
        rules, turn, deal = self.rules, self.turn, self.deal
        seat = turn.seat
        before = deal.hand_sizes[seat]
        self._take_from_hand(card, seat)
        deal.discard.append(card)
        self.counts["plays"] += 1
        turn.played = turn.acted = True
        turn.drawn = None
        after = before - 1
        if before > rules.call_at >= after >= 1:                   # rule 26
            turn.call_due = True
        if after == 0:                                              # rule 27
            self.phase = Phase.WON
            deal.won_seat = seat
            return
        turn.mode = Mode.AFTER_PLAY
        turn.extra_turn_due = False
        if JOKER[card]:
            turn.stack_rank = None                                  # rule 22: jokers excluded
            effect = rules.joker_effect
            if effect == "super_eight":
                turn.name_due = NameDue.JOKER
            else:
                deal.top = deal.top.under_joker(card)
                if effect == "reverse":                             # rule 20
                    deal.direction = -deal.direction
                else:                                               # rule 19: draw_two
                    deal.duty += 2
                    deal.duty_kind = DutyKind.TWO
            return
        rank = RANK[card]
        turn.stack_rank = rank if rules.stacking else None
        if rank == EIGHT:
            turn.name_due = NameDue.EIGHT
            return
        deal.top = Top.of_card(card)
        if rank == ACE:
            if rules.counter:                                       # rule 17
                if rules.ace_draw > 0:
                    deal.duty += rules.ace_draw
                    deal.duty_kind = DutyKind.COUNTER
            else:                                                   # rule 16
                if rules.ace_draw > 0:
                    self._open_queue(self._others_in_turn_order(seat), CAUSE_ACE)
                if rules.ace_extra_turn:
                    turn.extra_turn_due = True
        elif rank == TWO and rules.two_draws_two:                   # rule 18
            deal.duty += 2
            deal.duty_kind = DutyKind.TWO

    def _others_in_turn_order(self, seat: int) -> list[tuple[int, int]]:
        others, s = [], seat
        for _ in range(self.n_active - 1):
            s = self.next_active(s, self.deal.direction)
            others.append((s, self.rules.ace_draw))
        return others

    # -- NAME_SUIT -----------------------------------------------------------------------------

    def on_name_suit(self, seat: int, suit: int, _b: int):
        if not 0 <= suit < 4:
            self.fail(f"{suit} is not a suit (0-3)")
        deal = self.deal
        if self.phase == Phase.SETUP:
            self._resolve_start()
            if deal.start_namer is None:
                self.fail("NAME_SUIT in the set-up, but no start eight is to be named")
            if seat != deal.start_namer:
                self.fail(f"seat {deal.start_namer} names the start eight's suit "
                          f"(start_eight = {self.rules.start_eight})")
            deal.start_namer = None
            deal.top = Top(TopKind.EIGHT_LIKE, suit, None, deal.top.card)
            deal.start_suit = suit
            return
        if self.phase == Phase.WON:
            self.fail(f"seat {deal.won_seat} emptied its hand: the deal ends at once, the card "
                      f"has no effect (choice 16)")
        self._check_own_turn(seat, "NAME_SUIT")
        turn = self.turn
        if turn.mode != Mode.AFTER_PLAY or not turn.name_due:
            self.fail("NAME_SUIT without an eight or super_eight joker just played")
        if turn.name_due == NameDue.JOKER:
            deal.top = Top(TopKind.EIGHT_LIKE, suit, None, deal.discard[-1], True)
        else:
            deal.top = Top(TopKind.EIGHT_LIKE, suit, None, deal.discard[-1])
            if self.rules.same_player:
                turn.follow_suit = suit
        turn.name_due = None
        turn.stack_rank = None

    # -- DRAW ----------------------------------------------------------------------------------

    def on_draw(self, seat: int, card: int, cause: int):
        self._seat(seat)
        self._card(card)
        deal = self.deal
        deal.expect_draw = False
        if not 0 <= cause < len(DRAW_CAUSES):
            self.fail(f"unknown draw cause {cause}")
        if self.phase == Phase.WON:
            self.fail(f"seat {deal.won_seat} emptied its hand: the deal ends at once, the card "
                      f"has no effect (choice 16)")
        if self.phase == Phase.SETUP and cause == CAUSE_START_ACE:
            self._resolve_start()
            if deal.start_namer is not None:
                self.fail("the start eight's suit must be named first")
        if deal.queue_open and cause == deal.queue_cause:
            self._queue_draw(seat, card, cause)
        elif cause == CAUSE_START_ACE:
            self.fail("a start_ace draw, but no start ace calls for one (choice 6)")
        elif cause == CAUSE_ACE:
            self.fail("an ace penalty draw, but no ace was just played or its draws are done")
        else:
            self._check_own_turn(seat, "DRAW")
            if self.turn.call_due:
                self.fail("a CALL is due before the player draws (rule 26)")
            if cause == CAUSE_DRAW:
                self._own_draw(card)
            elif cause == CAUSE_CALL:
                self._call_penalty_draw(card)
            else:
                self._duty_draw(card, cause)
        self.counts["draws"] += 1
        self.draws_by_cause[DRAW_CAUSES[cause]] += 1

    def _own_draw(self, card: int):
        rules, turn = self.rules, self.turn
        mode = turn.mode
        if mode == Mode.DUTY:
            self.fail(f"a pending {self.deal.duty_kind} duty of {self.deal.duty} is resolved "
                      f"before anything else (rule 21)")
        if mode == Mode.AFTER_PLAY:
            self._check_play_complete()
            if not turn.extra_turn_due:
                self.fail(f"seat {turn.seat} played this turn; its turn is over")
            turn.start_extra_move()
            mode = turn.mode
        if mode == Mode.CHOOSE:
            if rules.must_play:
                legal = legal_plays(self)
                if legal:
                    self.fail(f"draws although it holds a legal play ({_names(legal)}) and "
                              f"must_play is on")
        elif mode == Mode.DRAWING:
            if rules.must_play and self._drawn_card_legal():
                self.fail(f"draws again without playing the legal card it just drew "
                          f"({card_name(turn.drawn)}); must_play is on")
        else:
            self.fail(f"seat {turn.seat}'s turn is over; it may not draw")
        if rules.draw_limit and turn.draws >= rules.draw_limit:
            self.fail(f"draws past draw_limit = {rules.draw_limit} (rule 23)")
        self._take_from_talon(card, turn.seat, "draws")
        turn.draws += 1
        turn.drawn = card
        turn.acted = True
        turn.mode = Mode.DRAWING

    def _duty_draw(self, card: int, cause: int):
        turn, deal = self.turn, self.deal
        if turn.mode != Mode.DUTY:
            self.fail(f"a {DRAW_CAUSES[cause]} duty draw, but no duty is pending at this point")
        want = CAUSE_COUNTER if deal.duty_kind == DutyKind.COUNTER else CAUSE_TWO
        if cause != want:
            self.fail(f"the pending duty is a {deal.duty_kind} duty: cause "
                      f"{DRAW_CAUSES[want]} expected")
        self._check_duty_unanswered("draws the duty")
        self._open_queue([(turn.seat, deal.duty)], cause)
        deal.duty = 0
        turn.duty_drawn = True
        turn.acted = True
        turn.mode = Mode.OVER
        self._queue_draw(turn.seat, card, cause)

    def _call_penalty_draw(self, card: int):
        turn = self.turn
        if not turn.forgot or self.rules.call_penalty == 0:
            self.fail("a call-penalty draw without a forgotten call (or call_penalty = 0)")
        if turn.penalty_opened:
            self.fail("more call-penalty draws than are due")
        if not turn.actions_done:
            self._finish_actions()
        turn.penalty_opened = True
        self._open_queue([(turn.seat, self.rules.call_penalty)], CAUSE_CALL)
        turn.mode = Mode.CALL_PENALTY
        self._queue_draw(turn.seat, card, CAUSE_CALL)

    # -- PASS, RESHUFFLE, CALL -----------------------------------------------------------------

    def on_pass(self, seat: int, _a: int, _b: int):
        self._check_own_turn(seat, "PASS")
        turn = self.turn
        if turn.call_due:
            self.fail("a CALL is due before the turn ends (rule 26)")
        if turn.passed:
            self.fail("a second PASS in one turn")
        mode = turn.mode
        if mode == Mode.DUTY:
            self._check_duty_unanswered("passes")
            if self.can_draw():
                self.fail(f"passes although it must draw the duty of {self.deal.duty} card(s)")
            self.deal.duty = 0
        elif mode in (Mode.CHOOSE, Mode.DRAWING):
            self._check_may_stop("passes")
        elif mode == Mode.AFTER_PLAY:
            self._check_play_complete()
            if not turn.extra_turn_due:
                self.fail("PASS after a play: the turn is simply over")
            turn.start_extra_move()
            self._check_may_stop("passes")
        elif mode == Mode.OVER and turn.duty_drawn and not turn.actions_done:
            pass                             # the PASS after drawing a duty
        else:
            self.fail("PASS after the turn is over")
        turn.passed = True
        turn.mode = Mode.OVER
        self.counts["passes"] += 1

    def on_reshuffle(self, _seat: int, moved: int, _b: int):
        if self.phase not in (Phase.SETUP, Phase.PLAY, Phase.WON):
            self.fail("RESHUFFLE outside a deal")
        deal = self.deal
        if deal.talon_size:
            self.fail(f"RESHUFFLE while the talon still holds {deal.talon_size} card(s) "
                      f"(rule 24)")
        limit = self.rules.reshuffle_limit
        if limit is not None and deal.reshuffles_used >= limit:
            self.fail(f"RESHUFFLE beyond reshuffles = {limit} (rule 24)")
        expected = len(deal.discard) - 1
        if expected < 1:
            self.fail("RESHUFFLE with no discards under the top card")
        if moved != expected:
            self.fail(f"RESHUFFLE moves {moved} cards; all discards but the top are "
                      f"{expected} (rule 24)")
        for card in deal.discard[:-1]:
            deal.talon[card] += 1
        deal.talon_size += expected
        del deal.discard[:-1]
        deal.reshuffles_used += 1
        self.counts["reshuffles"] += 1
        deal.expect_draw = True

    def on_call(self, seat: int, called: int, _b: int):
        self._check_own_turn(seat, "CALL")
        if not self.turn.call_due:
            self.fail(f"CALL but no call is due (a call is due when a play takes the hand from "
                      f"more than call_at = {self.rules.call_at} to 1-{self.rules.call_at} cards)")
        if called not in (0, 1):
            self.fail("CALL a must be 1 (called) or 0 (forgot)")
        if self.forget is not None:
            p = self.forget[seat]
            if called == 0 and p <= 0:
                self.fail(f"seat {seat} forgot a call, but its forget probability is 0")
            if called == 1 and p >= 1:
                self.fail(f"seat {seat} called, but its forget probability is 1")
        self.turn.call_due = False
        self.counts["calls"] += 1
        if not called:
            self.turn.forgot += 1
            self.counts["forgotten_calls"] += 1

    # -- end of a deal, scores, match ----------------------------------------------------------

    def on_end_deal(self, winner: int, reason: int, _b: int):
        if reason not in (0, 1, 2):
            self.fail(f"unknown END_DEAL reason {reason}")
        deal = self.deal
        if self.phase == Phase.WON:
            if reason != 0:
                self.fail(f"seat {deal.won_seat} emptied its hand: the deal is won, not "
                          f"{'blocked' if reason == 1 else 'capped'}")
            if winner != deal.won_seat:
                self.fail(f"wrong winner: seat {deal.won_seat} emptied its hand")
        elif self.phase == Phase.PLAY:
            self._end_turn()
            if reason == 0:
                self.fail(f"END_DEAL names seat {winner} the winner, but no hand is empty")
            if winner != -1:
                self.fail("a blocked or capped deal has no winner (seat -1)")
            if reason == 1 and deal.quiet_turns < self.n_active:
                self.fail(f"not blocked: only {deal.quiet_turns} turn(s) in a row without a card "
                          f"played or drawn; {self.n_active} needed (rule 25)")
            if reason == 2 and deal.turns_in_deal < self.turn_cap:
                self.fail(f"not capped: {deal.turns_in_deal} turns < turn cap {self.turn_cap}")
        else:
            self.fail("END_DEAL outside a deal in play")
        in_hands = sum(deal.hand_sizes)
        if in_hands + deal.talon_size + len(deal.discard) != self.deck_size:
            self.fail("card conservation broken: hands + talon + discards != deck")
        deal.winner = winner if reason == 0 else -1
        self.deal_winners.append(deal.winner)
        self.end_reasons.append(reason)
        self.deals += 1
        if deal.winner >= 0:
            self.wins[deal.winner] += 1
        self.phase = Phase.SCORING

    def on_score(self, seat: int, points: int, total: int):
        if self.phase != Phase.SCORING:
            self.fail("SCORE outside the scoring of a deal")
        self._seat(seat)
        if not self.active[seat]:
            self.fail(f"seat {seat} is eliminated and scores nothing")
        deal = self.deal
        if seat in deal.scored:
            self.fail(f"seat {seat} is scored twice")
        hand = deal.hands[seat]
        value = sum(self.rules.points[c] * n for c, n in hand.items())
        if points != value:
            self.fail(f"seat {seat} scores {points}, but its hand {_names(hand)} is "
                      f"worth {value} (rule 27)")
        if total != self.totals[seat] + points:
            self.fail(f"match total of seat {seat} should be {self.totals[seat] + points}")
        self.totals[seat] = total
        self.last_points[seat] = points
        deal.scored.add(seat)
        if len(deal.scored) == self.n_active:
            for s in range(self.P):
                if not self.active[s]:
                    self.last_points[s] = 0
            self.phase = Phase.AFTER_SCORES

    def _out_by_total(self, seat: int) -> bool:
        limit = self.rules.match_param
        total = self.totals[seat]
        return total > limit if self.rules.eliminate_pass else total >= limit

    def on_eliminated(self, seat: int, _a: int, _b: int):
        if self.phase != Phase.AFTER_SCORES or self.deal.results_closed:
            self.fail("ELIMINATED outside the end of a deal")
        if self.rules.match_kind != "elimination":
            self.fail(f"no eliminations in a {self.rules.match_kind} match")
        if self.end_reasons[-1] == 2:
            self.fail("a capped deal ends its match at once, without eliminations (choice 28)")
        self._seat(seat)
        if not self.active[seat] or seat in self.deal.eliminated_now:
            self.fail(f"seat {seat} is already out")
        if not self._out_by_total(seat):
            self.fail(f"seat {seat} has {self.totals[seat]} points: not out at "
                      f"{self.rules.match_param} (eliminate_at = "
                      f"{'pass' if self.rules.eliminate_pass else 'reach'})")
        self.deal.eliminated_now.add(seat)

    def _lowest_total(self, seats: list[int]) -> int:
        low = min(self.totals[s] for s in seats)
        best = [s for s in seats if self.totals[s] == low]
        return best[0] if len(best) == 1 else -1

    def _close_deal_results(self):
        """After a deal's scores and eliminations: apply choice 28, decide if the match is over."""
        if self.deal.results_closed:
            return
        self.deal.results_closed = True
        rules = self.rules
        kind, param = rules.match_kind, rules.match_param
        self.match_over = None
        active_seats = [s for s in range(self.P) if self.active[s]]
        if self.end_reasons[-1] == 2:
            self.match_over = "a deal reached the turn cap: the match ends capped"
            self.match_winner_expected = -1
            return
        if kind == "elimination":
            if self._apply_eliminations(active_seats):
                return
        elif kind == "single":
            self.match_over = "single deal"
            self.match_winner_expected = self.deal.winner
            return
        elif kind == "deals":
            if self.deals >= param:
                self.match_over = f"{param} deals played"
                self.match_winner_expected = self._lowest_total(active_seats)
                return
        elif kind == "best_of":
            need = param // 2 + 1
            champions = [s for s in range(self.P) if self.wins[s] >= need]
            if champions:
                self.match_over = f"seat {champions[0]} won {need} deals"
                self.match_winner_expected = champions[0]
                return
        else:
            self.fail(f"unknown match kind {kind!r}")
        if self.deals >= self.deal_cap:
            self.match_over = f"match capped at {self.deal_cap} deals"
            self.match_winner_expected = -1

    def _apply_eliminations(self, active_seats: list[int]) -> bool:
        """An elimination match: check the deal's ELIMINATED rows against the totals and take
        those seats out; True when that ends the match."""
        named = self.deal.eliminated_now
        due = {s for s in active_seats if self._out_by_total(s)}
        if due and due == set(active_seats):
            if named not in (set(), due):
                self.fail(f"the deal would eliminate everyone left; ELIMINATED rows for all "
                          f"of {sorted(due)} or none, not {sorted(named)}")
            self.match_over = "everyone left reached the limit"
            self.match_winner_expected = self._lowest_total(active_seats)
            for s in named:
                self.active[s] = False
            self.eliminated.extend(sorted(named))
            return True
        if named != due:
            missing = sorted(due - named)
            self.fail(f"ELIMINATED rows missing for seat(s) {missing} (total at or over "
                      f"{self.rules.match_param})")
        for s in sorted(due):
            self.active[s] = False
            self.eliminated.append(s)
        left = [s for s in range(self.P) if self.active[s]]
        if len(left) <= 1:
            self.match_over = "one player left"
            self.match_winner_expected = left[0] if left else -1
            return True
        return False

    def on_end_match(self, winner: int, deals: int, _b: int):
        if self.phase != Phase.AFTER_SCORES:
            self.fail("END_MATCH before the deal was ended and scored")
        self._close_deal_results()
        if not self.match_over:
            self.fail("the match is not over (choice 28): NEW_DEAL expected")
        if winner != self.match_winner_expected:
            self.fail(f"wrong match winner: {self.match_winner_expected} expected "
                      f"({self.match_over}; totals {self.totals})")
        if deals != self.deals:
            self.fail(f"END_MATCH says {deals} deals; {self.deals} were played")
        self.match_winner = winner
        self.phase = Phase.DONE

    def finish(self):
        """The trace has ended: it must end after a complete deal (single) or an END_MATCH."""
        self.index, self.row = self.index + 1, None
        if self.phase == Phase.DONE:
            return
        if self.phase == Phase.AFTER_SCORES:
            self._close_deal_results()
            if self.rules.match_kind == "single":
                self.match_winner = self.deal.winner
                self.phase = Phase.DONE
                return
            self.fail("the trace ends without END_MATCH")
        if self.phase == Phase.START:
            self.fail("empty trace")
        self.fail("the trace ends in the middle of a deal")

    def summary(self) -> dict:
        return {
            "winner": self.match_winner,
            "deals": self.deals,
            "deal_winners": list(self.deal_winners),
            "end_reasons": list(self.end_reasons),
            "turns": self.counts["turns"],
            "plays": self.counts["plays"],
            "draws": self.counts["draws"],
            "draws_by_cause": dict(self.draws_by_cause),
            "reshuffles": self.counts["reshuffles"],
            "passes": self.counts["passes"],
            "calls": self.counts["calls"],
            "forgotten_calls": self.counts["forgotten_calls"],
            "points": list(self.last_points),
            "totals": list(self.totals),
            "wins": list(self.wins),
            "eliminated": list(self.eliminated),
        }


def referee(trace, rules, policies_forget=None, *, turn_cap: int = TURN_CAP,
            deal_cap: int = MATCH_DEAL_CAP) -> dict:
    """Replay ``trace`` under ``rules``; raise :class:`RefereeError` at the first illegal event.

    ``trace`` is an int array of shape (n, 4): one deal when ``rules.match`` is ``single``, else
    one whole match. ``policies_forget`` (optional, one probability per seat) makes a forgotten
    call by a seat that never forgets (or a call by one that always forgets) an error.
    Returns a summary: ``winner`` (of the match; of the deal for ``single``), ``deals``,
    ``deal_winners``, ``end_reasons``, ``turns``, ``plays``, ``draws``, ``draws_by_cause``,
    ``reshuffles``, ``passes``, ``calls``, ``forgotten_calls``, ``points`` (last deal, per seat),
    ``totals`` (match totals per seat), ``wins`` and ``eliminated`` (seats in order).
    """
    game = GameState(rules, policies_forget, turn_cap, deal_cap)
    for index, row in enumerate(as_rows(trace)):
        game.step(index, row)
    game.finish()
    return game.summary()
