"""The person at the table: the terminal screen, reading and checking what they type.

Renders with ``rich`` (colours and suit symbols) or, in plain mode, plain text with letter
suits (``h8``) for dumb terminals and pipes; reads with ``prompt_toolkit`` (history,
tab-completion of the legal moves) where stdin and stdout are a terminal, else line by line.
Every answer is checked before it reaches the game: an illegal or unreadable one is refused
with the reason and the question is asked again. A number is a number in ASCII digits only
(the command line's rule); what the person typed is echoed escaped (:func:`printable`), so a
typed escape sequence shows instead of acting on the terminal. Plain mode writes ASCII only,
whatever the terminal's encoding.
"""

from __future__ import annotations

import contextlib
import os
import re
import sys
import unicodedata
from dataclasses import dataclass, field, replace

from ..cards import JOKER_TYPES, RANK_NAMES, SUIT_SYMBOLS, is_joker, make_card, rank_of, suit_of
from ..formatting import listed, whole, wrapped
from ..paths import is_ascii_number, shorten
from ..referee import replay, why_illegal
from ..trace import DRAW_CAUSES, Event
from .table import Answer, Ask, Table, by_suit

SUIT_LETTERS = "cdhs"
SUIT_WORDS = {"clubs": 0, "club": 0, "diamonds": 1, "diamond": 1, "hearts": 2, "heart": 2,
              "spades": 3, "spade": 3, "klöver": 0, "ruter": 1, "hjärter": 2, "spader": 3}
CALL_WORDS = ("l", "lappen", "!")
#: Answers that end the game at any prompt, as Ctrl-C and Ctrl-D do (no card or suit is
#: written so: a card needs a rank and a suit).
QUIT_WORDS = ("q", "quit", "exit")
HELP = ("type a card ({examples}) or its number, d to draw; add l (or !) to call lappen "
        "with the card that leaves you at {call_at} card(s), e.g. 'h5 l'; q, Ctrl-D or Ctrl-C "
        "quits")
#: The most digits a choice is read with: no list of options is longer (the rest is refused).
MAX_CHOICE_DIGITS = 4
#: Plain mode's ASCII for the table's own symbols (other letters lose their accents: ö is o).
PLAIN_TEXT = str.maketrans({"♣": "c", "♦": "d", "♥": "h", "♠": "s", "·": "|", "─": "-",
                            "→": ">", "…": "...", "≥": ">=", "≤": "<=", "–": "-", "—": "-",
                            "×": "x", "±": "+/-"})


def printable(text: str) -> str:
    """Text from outside (what a person typed, a name from a file) safe to show: on one line,
    cut to :data:`~vandatta_sim.paths.MAX_ECHO` characters, and every control or format
    character (ESC, BEL, NUL, C1 codes, bidi overrides, bytes that were no text) written as
    its escape (``\\x1b``), so that a typed escape sequence shows instead of clearing the
    screen or retitling the window. A backslash is doubled, so that the echo is unambiguous."""
    return "".join(ch.encode("unicode_escape").decode("ascii")
                   if ch == "\\" or unicodedata.category(ch)[0] == "C" else ch
                   for ch in shorten(text))


def ascii_text(text: str) -> str:
    """``text`` in ASCII: the table's symbols as letters, accents dropped (förhand:
    forhand), anything else as its escape (``\\u0663``): nothing is lost or mistaken."""
    text = unicodedata.normalize("NFD", text.translate(PLAIN_TEXT))
    text = "".join(ch for ch in text if unicodedata.category(ch) != "Mn")
    return text.encode("ascii", "backslashreplace").decode("ascii")


def writable(text: str, stream=None) -> bool:
    """Whether ``stream`` (stdout) can write ``text`` in its encoding."""
    stream = sys.stdout if stream is None else stream
    try:
        text.encode(getattr(stream, "encoding", None) or "ascii")
    except (UnicodeEncodeError, LookupError):
        return False
    return True


def for_terminal(text: str) -> str:
    """``text`` as stdout can write it: as it is, or in ASCII (:func:`ascii_text`)."""
    return text if writable(text) else ascii_text(text)


class Quit(Exception):
    """The person ended the game (q, Ctrl-C or Ctrl-D)."""


def plain_wanted(flag: bool | None) -> bool:
    """Plain mode: asked for, or stdout is no terminal, or the terminal is dumb or cannot
    write the suit symbols. ``--fancy`` where they cannot be written is refused (ValueError)."""
    symbols = writable("".join(SUIT_SYMBOLS))
    if flag is False and not symbols:
        encoding = getattr(sys.stdout, "encoding", None) or "unknown"
        raise ValueError(f"this terminal's encoding ({encoding}) cannot write the suit "
                         "symbols; allowed: --plain (letters such as h8), or a UTF-8 terminal")
    if flag is not None:
        return flag
    return not sys.stdout.isatty() or os.environ.get("TERM", "") in ("", "dumb") or not symbols


def ascii_number(text: str) -> int | None:
    """``text`` as a whole number if it is written in ASCII digits, else None (int() would
    read "٣" and "３" as 3 and fail on "²" or on 5000 digits). A number of more than
    :data:`MAX_CHOICE_DIGITS` digits is read as 0, which no option has."""
    if not is_ascii_number(text):
        return None
    return int(text) if len(text.lstrip("0")) <= MAX_CHOICE_DIGITS else 0


def number_in_other_digits(text: str) -> bool:
    """Digits, but not ASCII ones ("٣", "３", "²"): a number the person meant, refused."""
    return text.isnumeric() and not text.isascii()


class Screen:
    """Cards, suits and lines as this terminal shows them."""

    def __init__(self, plain: bool):
        from rich.console import Console

        self.plain = plain
        self.console = Console(highlight=False, emoji=False, markup=not plain,
                               no_color=plain, color_system=None if plain else "auto",
                               soft_wrap=True)

    def suit(self, suit: int) -> str:
        if self.plain:
            return SUIT_LETTERS[suit]
        symbol = SUIT_SYMBOLS[suit]
        return f"[red]{symbol}[/red]" if suit in (1, 2) else symbol

    def suit_text(self, suit: int) -> str:
        """A suit without markup (inside prompts and completions)."""
        return SUIT_LETTERS[suit] if self.plain else SUIT_SYMBOLS[suit]

    def card(self, card: int, markup: bool = True) -> str:
        if is_joker(card):
            return "JK"
        suit = suit_of(card)
        return (self.suit(suit) if markup else self.suit_text(suit)) + RANK_NAMES[rank_of(card)]

    def echo(self, text: str) -> str:
        """What the person typed, quoted, to be shown inside a line: :func:`printable`, and
        in colour mode with rich's markup escaped (a typed "[/x]" is text, not a tag)."""
        quoted = f"'{printable(text)}'"
        if self.plain:
            return quoted
        from rich.markup import escape

        return escape(quoted)

    def examples(self) -> str:
        """How a card may be typed, as this screen writes cards."""
        return "h8 or 8h" if self.plain else "♥8, h8 or 8h"

    def say(self, text: str = ""):
        # plain: letters for the symbols, ASCII whatever the terminal's encoding; colour: as
        # the terminal can write it (a terminal that writes ♠ may still lack another character)
        self.console.print(ascii_text(text) if self.plain else for_terminal(text))


def parse_card_text(text: str) -> int | None:
    """A card from ``♥8``, ``h8``, ``8h``, ``H10``, ``qs``, ``jk`` (joker: the first joker
    type); None if the text is no card."""
    t = text.strip().lower().replace("♣", "c").replace("♦", "d").replace("♥", "h") \
        .replace("♠", "s")
    if t in ("jk", "joker"):
        return JOKER_TYPES[0]
    ranks = "|".join(r.lower() for r in RANK_NAMES)
    m = re.fullmatch(rf"([cdhs])({ranks})", t) or re.fullmatch(rf"({ranks})([cdhs])", t)
    if not m:
        return None
    a, b = m.groups()
    suit_letter, rank = (a, b) if a in SUIT_LETTERS else (b, a)
    return make_card([r.lower() for r in RANK_NAMES].index(rank), SUIT_LETTERS.index(suit_letter))


def parse_suit_text(text: str) -> int | None:
    t = text.strip().lower()
    for symbol, s in zip(SUIT_SYMBOLS, range(4)):
        t = t.replace(symbol, SUIT_LETTERS[s])
    if len(t) == 1 and t in SUIT_LETTERS:
        return SUIT_LETTERS.index(t)
    return SUIT_WORDS.get(t)


@dataclass
class Viewer:
    """What one person has been shown of the game so far."""

    shown: int = 0  # rows of the trace already told


@dataclass
class Person:
    """Answers the table's questions for the people's seats from the terminal."""

    screen: Screen
    read: object                      # read(prompt_text, completions) -> str
    names: dict[int, str]
    coach: object | None = None       # a vandatta_sim.coach.Coach for --hints
    decisions: list = field(default_factory=list)
    viewers: dict[int, Viewer] = field(default_factory=dict)
    pending: dict | None = None       # the hinted move under way: hints, card, suit, stacked

    # --- what happened -----------------------------------------------------------------------
    def who(self, seat: int, viewer: int) -> str:
        return "you" if seat == viewer else self.names.get(seat, f"seat {seat}")

    def news(self, table: Table, viewer: int) -> list[str]:
        """The trace rows this person has not seen, as they may see them: others' cards stay
        hidden, and so do the bots' estimates (they name the cards in the bot's hand)."""
        v = self.viewers.setdefault(viewer, Viewer())
        rows = [tuple(int(x) for x in r) for r in table.rows[v.shown:]]
        v.shown += len(rows)
        return self.describe(rows, viewer)

    def describe(self, rows, viewer: int) -> list[str]:
        sc, lines, i = self.screen, [], 0
        while i < len(rows):
            kind, seat, a, b = rows[i]
            w = self.who(seat, viewer)
            if kind == Event.NEW_DEAL:
                lines.append(f"── deal {b + 1}: dealer {self.who(seat, viewer)}, "
                             f"förhand {self.who(a, viewer)} ──")
            elif kind == Event.START:
                lines.append(f"start card {sc.card(a)}")
            elif kind == Event.BURY:
                lines.append(f"{sc.card(a)} is buried in the talon")
            elif kind == Event.PLAY:
                text = f"{w} play{'' if seat == viewer else 's'} {sc.card(a)}"
                if i + 1 < len(rows) and rows[i + 1][0] == Event.NAME_SUIT:
                    i += 1
                    text += f" and name{'' if seat == viewer else 's'} {sc.suit(rows[i][2])}"
                lines.append(text)
            elif kind == Event.NAME_SUIT:
                lines.append(f"{w} name{'' if seat == viewer else 's'} {sc.suit(a)}")
            elif kind == Event.DRAW:
                got = [a]
                while i + 1 < len(rows) and rows[i + 1][0] == Event.DRAW and \
                        rows[i + 1][1] == seat and rows[i + 1][3] == b:
                    i += 1
                    got.append(rows[i][2])
                cause = "" if b == 0 else f" ({DRAW_CAUSES[b].replace('_', ' ')})"
                if seat == viewer:
                    lines.append(f"you draw {' '.join(sc.card(c) for c in got)}{cause}")
                else:
                    count = "a card" if len(got) == 1 else f"{len(got)} cards"
                    lines.append(f"{w} draws {count}{cause}")
            elif kind == Event.PASS:
                lines.append(f"{w} pass{'' if seat == viewer else 'es'}")
            elif kind == Event.RESHUFFLE:
                lines.append(f"talon empty: {a} discards reshuffled")
            elif kind == Event.CALL:
                lines.append(f"{w}: lappen!" if a else f"{w} forgot to call lappen")
            elif kind == Event.END_DEAL:
                lines.append(f"{w} win{'' if seat == viewer else 's'} the deal" if a == 0 else
                             "deal blocked: nobody can play or draw" if a == 1 else
                             "deal capped at the turn limit")
            elif kind == Event.SCORE:
                parts = []
                while i < len(rows) and rows[i][0] == Event.SCORE:
                    parts.append(f"{self.who(rows[i][1], viewer)} {rows[i][2]} "
                                 f"(total {rows[i][3]})")
                    i += 1
                lines.extend(wrapped("points: " + listed(parts, ",")))
                continue
            elif kind == Event.ELIMINATED:
                lines.append(f"{w} {'are' if seat == viewer else 'is'} eliminated")
            elif kind == Event.END_MATCH:
                lines.append(f"{w} win{'' if seat == viewer else 's'} the match after {a} deals"
                             if seat >= 0 else f"the match ends without a winner after {a} deals")
            i += 1  # DEAL, TURN, ESTIMATE, SWAP: nothing to tell
        return lines

    # --- the state -----------------------------------------------------------------------------
    def status(self, table: Table, seat: int) -> list[str]:
        sc = self.screen
        out = []
        # These two lines come every turn: a seat is "you" or its number (the header and the
        # narration name its player), and a line wraps between seats, within 80 columns at
        # any table size.
        def short(s: int) -> str:
            return "you" if s == seat else f"seat {s}"

        if table.rules.match_kind != "single":
            totals = table.totals()
            out.extend(wrapped("scores: " + listed([
                f"{short(s)} {totals[s]}" + ("" if table.active(s) else " (out)")
                for s in range(table.rules.players)]) + f"   ({table.rules.match})"))
        out.extend(wrapped("hands: " + listed([f"{short(s)} {table.hand_size(s)}"
                                               for s in table.seats_in_deal()])
                           + "   " + whole(f"talon {table.talon_size}")))
        top = f"top {sc.card(table.top_card)}"
        if table.suit_named is not None:
            top += f", {sc.suit(table.suit_named)} named"
        if table.duty is not None:
            kind, cards = table.duty
            top += f"; pending: draw {cards} ({'counter-ace' if kind == 'ace' else 'two'} duty)"
        out.append(top)
        hand = table.hand(seat)
        groups = []
        for s in range(5):  # the four suits, then the jokers
            cards = [c for c in hand if by_suit(c)[0] == s]
            if cards:
                groups.append(" ".join(sc.card(c) for c in cards))
        out.append("your hand: " + "  ".join(groups))
        return out

    # --- questions -----------------------------------------------------------------------------
    def __call__(self, table: Table, q: Ask) -> Answer:
        sc = self.screen
        for line in self.news(table, q.seat):
            sc.say(line)
        if q.kind == "suit":
            suit = self.ask_suit(q)
            if self.pending is not None and self.pending["suit"] < 0:
                self.pending["suit"] = suit
            return Answer(suit)
        if q.kind in ("move", "duty"):
            self.pending = None  # a new move: the hinted one before it is complete
            if len(table.people) > 1:
                sc.say(f"[bold]{self.names[q.seat]}, your turn[/bold]" if not sc.plain
                       else f"{self.names[q.seat]}, your turn")
            for line in self.status(table, q.seat):
                sc.say(line)
        return self.ask_card(table, q)

    def options_line(self, q: Ask) -> tuple[str, list[str]]:
        sc = self.screen
        words = [sc.card(c, markup=False) for c in q.cards]
        parts = [f"{k}) {sc.card(c)}" for k, c in enumerate(q.cards, 1)]
        decline = {"move": "d) draw", "duty": "d) draw the duty", "stack": "d) stop stacking"}
        if q.may_decline and q.kind in decline:
            parts.append(decline[q.kind])
            words.append("d")
        return "  ".join(parts), words

    def hint_lines(self, table: Table, q: Ask) -> list[str]:
        if self.coach is None or q.kind != "move" or len(q.cards) + q.may_decline < 2:
            return []
        hints = self.coach.hints(table.state, q.seat)
        if not hints:
            return []
        self.pending = {"hints": hints, "deal": table.deal_no, "seat": q.seat,
                        "card": None, "suit": -1, "stacked": False, "asked": q.kind}
        self.decisions.append(self.pending)
        sc = self.screen
        order = {c: k for k, c in enumerate(q.cards, 1)}
        hints.sort(key=lambda h: (order.get(h.option.card, len(order) + 1), h.option.suit,
                                  h.option.stop))
        lines = [f"coach ({self.coach.policy}, {self.coach.measure}, 95% interval):"]
        for h in hints:
            e = h.value
            number = order.get(h.option.card)
            text = f"{number if number else 'd'}) " + h.option.describe(lambda c: sc.card(c, markup=False), sc.suit_text)
            if self.coach.points:
                lines.append(f"  {text:<24} {e.value:5.1f} [{e.low:.1f}, {e.high:.1f}]")
            else:
                lo, hi = max(e.low, 0.0), min(e.high, 1.0)
                lines.append(f"  {text:<24} {100 * e.value:4.0f}% [{100 * lo:.0f}, {100 * hi:.0f}]")
        return lines

    def ask_card(self, table: Table, q: Ask) -> Answer:
        sc = self.screen
        q = replace(q, cards=tuple(sorted(q.cards, key=by_suit)))
        if q.kind == "move" and not q.cards:
            sc.say("no card fits: d to draw")
        listing, words = self.options_line(q)
        if q.cards:
            sc.say(("stack another? " if q.kind == "stack" else
                    "follow up: " if q.kind == "follow" else "moves: ") + listing)
        for line in self.hint_lines(table, q):
            sc.say(line)
        if self.pending is not None:
            self.pending["asked"] = q.kind
        call = False
        while True:
            text = self.read(f"{self.names[q.seat]} move> " if len(table.people) > 1
                             else "move> ", words).strip()
            tokens = text.lower().split()
            if tokens and tokens[-1] in CALL_WORDS:
                call = True
                tokens = tokens[:-1]
            elif tokens and tokens[-1].endswith("!") and len(tokens[-1]) > 1:
                call = True
                tokens[-1] = tokens[-1][:-1]
            if not tokens:
                if call:
                    sc.say("lappen! (said for this turn)")
                    continue
                if q.may_decline and not q.cards:
                    return self._chosen(Answer(-1, call))
                sc.say(HELP.format(examples=sc.examples(), call_at=table.rules.call_at))
                continue
            word = " ".join(tokens)
            if word in QUIT_WORDS:
                raise Quit
            if word in ("?", "help"):
                sc.say(HELP.format(examples=sc.examples(), call_at=table.rules.call_at))
                continue
            if word in ("d", "draw", "s", "stop", "n", "no"):
                if q.may_decline:
                    if call and not table.call_counts(q, Answer(-1, call)):
                        sc.say(self.call_refused(table, q, None))
                        call = False
                        continue
                    return self._chosen(Answer(-1, call))
                if q.kind == "follow":
                    sc.say("after your eight you must follow up in the suit you named")
                else:
                    fits = ", ".join(sc.card(c) for c in q.cards)
                    sc.say(f"you must play: {fits} fit{'s' if len(q.cards) == 1 else ''} "
                           f"(must_play is on)")
                continue
            card = None
            k = ascii_number(word)
            if number_in_other_digits(word):
                sc.say(f"{sc.echo(text)} is not a number in ASCII digits: type 1 to "
                       f"{len(q.cards) + q.may_decline}, a card such as h8, or d")
                continue
            if k is not None:
                if 1 <= k <= len(q.cards):
                    card = q.cards[k - 1]
                elif q.may_decline and k == len(q.cards) + 1:
                    if call and not table.call_counts(q, Answer(-1, call)):
                        sc.say(self.call_refused(table, q, None))
                        call = False
                        continue
                    return self._chosen(Answer(-1, call))
                elif not q.cards:
                    sc.say("no card fits: type d to draw")
                    continue
                else:  # an ASCII number: shortened, nothing to escape
                    sc.say(f"there is no move {printable(word)}: choose 1 to {len(q.cards)}")
                    continue
            else:
                card = parse_card_text(word)
                if card is None:
                    sc.say(f"{sc.echo(text)} is not a card: type one like "
                           f"{'h8' if sc.plain else 'h8 or ♥8'}, its number, or d")
                    continue
                if is_joker(card):  # either joker type: the one listed, else the one held
                    card = next((c for c in q.cards + tuple(table.hand(q.seat))
                                 if is_joker(c)), card)
            if card in q.cards:
                if call and not table.call_counts(q, Answer(card, call)):
                    sc.say(self.call_refused(table, q, card))
                    call = False
                    continue
                return self._chosen(Answer(card, call))
            if q.kind == "stack":
                sc.say(f"only a card of the same rank stacks: {listing}")
            elif q.kind == "follow":
                sc.say(f"follow up with a card of the suit you named: {listing}")
            else:  # the referee's reason, with its rule
                sc.say(why_illegal(replay(table.rows, table.rules), card, q.seat,
                                   lambda c: sc.card(c), sc.suit))

    def call_refused(self, table: Table, q: Ask, card: int | None) -> str:
        """Why lappen said with ``card`` (None: a decline) cannot count, which the step has
        decided (:meth:`Table.call_counts`): the rule in words, and where the card leaves
        the hand. (A decline may count: under some rules a drawn card is played at once.)"""
        at = table.rules.call_at
        rule = (f"say it with the play that takes you from more than {at} to "
                f"{'1' if at == 1 else f'1-{at}'} card(s) (rule 26)")
        if card is None:
            return f"lappen does not count with this draw: {rule}"
        left = table.hand_size(q.seat) - 1
        return (f"lappen does not count with {self.screen.card(card)}, which leaves you "
                f"{left} card(s): {rule}")

    def _chosen(self, answer: Answer) -> Answer:
        p = self.pending
        if p is not None:
            if p["card"] is None:
                p["card"] = answer.value
            elif p["asked"] == "stack" and answer.value >= 0:
                p["stacked"] = True  # went on stacking after the hinted card
        return answer

    def decisions_of(self, deal: int) -> list:
        """The hinted moves of ``deal`` as :class:`vandatta_sim.coach.Decision` records."""
        from .coach import Decision, match_option

        out = []
        for p in self.decisions:
            if p["deal"] != deal or p["card"] is None:
                continue
            chosen = match_option(p["hints"], p["card"], p["suit"], p["stacked"])
            out.append(Decision(deal, p["seat"], tuple(p["hints"]), chosen))
        return out

    def ask_suit(self, q: Ask) -> int:
        sc = self.screen
        choices = " ".join(f"{k}) {sc.suit(s)}" for k, s in enumerate(q.suits, 1))
        sc.say(f"name a suit: {choices}")
        while True:
            text = self.read("suit> ", [sc.suit_text(s) for s in q.suits]).strip()
            if text.lower() in QUIT_WORDS:
                raise Quit
            k = ascii_number(text)
            if number_in_other_digits(text):
                sc.say(f"{sc.echo(text)} is not a number in ASCII digits: type 1 to "
                       f"{len(q.suits)} or a suit's letter")
                continue
            suit = q.suits[k - 1] if k is not None and 1 <= k <= len(q.suits) else \
                parse_suit_text(text)
            if suit is None:
                sc.say(f"{sc.echo(text)} is not a suit: answer c, d, h or s"
                       f"{'' if sc.plain else ' (♣ ♦ ♥ ♠)'} or its number")
                continue
            if suit not in q.suits:
                sc.say(f"you have no card of {sc.suit(suit)} to follow up with: "
                       f"{choices}")
                continue
            if self.pending is not None and self.pending["suit"] < 0:
                self.pending["suit"] = suit
            return suit


def line_reader(interactive: bool, while_prompting=None):
    """read(prompt, completions) -> str: prompt_toolkit on a terminal, else plain lines.
    Ctrl-C and Ctrl-D (end of input) raise Quit. ``while_prompting(stop)``: a context manager
    around each prompt_toolkit read, given a function that asks the prompt to end (returning
    False where none is running), so that a signal ends the read from inside prompt_toolkit's
    event loop instead of raising in the middle of it (the command line's signals_stop)."""
    if interactive:
        from prompt_toolkit import PromptSession
        from prompt_toolkit.completion import WordCompleter

        session = PromptSession()

        def stop() -> bool:
            app, loop = session.app, session.app.loop
            if not app.is_running or loop is None or loop.is_closed():
                return False
            loop.call_soon_threadsafe(_end_the_prompt, app)
            return True

        def read(prompt: str, words) -> str:
            try:
                with while_prompting(stop) if while_prompting else contextlib.nullcontext():
                    return session.prompt(prompt, completer=WordCompleter(list(words)))
            except (KeyboardInterrupt, EOFError):
                raise Quit from None
        return read

    def read_plain(prompt: str, words) -> str:
        sys.stdout.write(prompt)
        sys.stdout.flush()
        # bytes, decoded here: bytes that are no text in stdin's encoding become U+FFFD
        # (and are refused as any other answer) instead of a UnicodeDecodeError
        stdin = getattr(sys.stdin, "buffer", None)
        try:
            line = sys.stdin.readline() if stdin is None else \
                stdin.readline().decode(sys.stdin.encoding or "utf-8", "replace")
        except KeyboardInterrupt:
            raise Quit from None
        if not line:
            raise Quit
        return line.rstrip("\r\n")
    return read_plain


def _end_the_prompt(app) -> None:
    if app.is_running and app.future is not None and not app.future.done():
        app.exit(exception=KeyboardInterrupt)


__all__ = ["Person", "Screen", "Quit", "line_reader", "plain_wanted", "parse_card_text",
           "parse_suit_text", "printable", "ascii_text", "for_terminal", "ascii_number"]
