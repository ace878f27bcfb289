"""What each rule parameter means, for users: the catalogue behind ``rules params``,
``rules explain`` and ``docs/rules.md``, and the settings that cannot change a game.

The values each field accepts come from :mod:`vandatta_sim.rules` (the validator), the
defaults from :class:`~vandatta_sim.rules.Rules` and the presets from ``PRESETS``, so this
module adds only the words. :func:`inert_settings` lists settings that cannot change anything
in the configuration they are part of; the tests play games with and without each such setting
and require identical results, so the list cannot claim more than is true.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass

from .rules import PRESET_NOTES, PRESETS, Rules, allowed_values, preset_aliases, unknown_error

#: The sections of the rules reference, in docs/spec.md's order.
SECTIONS = ("Table set-up", "Start card", "Play", "Scoring and match")


@dataclass(frozen=True)
class Parameter:
    """One rule field as users read about it."""

    name: str
    section: str
    summary: str  # one line: what the parameter decides
    detail: str  # what each value does, where the sources stand

    @property
    def allowed(self) -> str:
        return allowed_values(self.name)

    @property
    def default(self) -> object:
        return getattr(Rules(), self.name)

    def presets(self) -> dict[str, object]:
        """The presets that set this field to something other than its default."""
        return {name: getattr(rules, self.name) for name, rules in PRESETS.items()
                if getattr(rules, self.name) != self.default}


def _p(name: str, section: str, summary: str, detail: str) -> Parameter:
    return Parameter(name, section, summary, " ".join(detail.split()))


PARAMETERS: dict[str, Parameter] = {p.name: p for p in (
    _p("players", "Table set-up", "number of players",
       "2–5 with one deck in all sources; up to 10 with two decks (000)."),
    _p("decks", "Table set-up", "number of 52-card decks",
       "`auto` uses one deck up to 5 players and two from 6 (000, 001; 002 says two from "
       "five). With two decks every card exists twice."),
    _p("hand_size", "Table set-up", "cards dealt to each player",
       "7 in all sources; 6 in Sväng-åtta (000); 5 with children and 8 for two players (002); "
       "10 for two players (000). The deal plus the start card must fit in the deck."),
    _p("jokers", "Table set-up", "jokers added to each deck",
       "A joker is a special card: it may be played on any ordinary card, never on a special, "
       "and never as the last card unless `out_on_special`. It scores like an eight."),
    _p("joker_effect", "Table set-up", "what a played joker does",
       "`reverse` turns the direction of play; `draw_two` makes the next player draw two and "
       "lose the turn (adding to a two-draws-two duty where that rule is on); after either, "
       "the card under the joker stays in force. `super_eight` names a suit like an eight but "
       "never needs a follow-up card."),
    _p("start_eight", "Start card", "what happens when the start card is an eight",
       "`bury`: it goes back into the talon and another card is turned (001); "
       "`dealer_names`: the dealer names the suit (000); `forehand_names`: förhand names the "
       "suit without playing (002). Förhand then follows the named suit."),
    _p("start_ace", "Start card", "what happens when the start card is an ace",
       "`all_draw`: every player draws `ace_draw` cards (001); `all_but_dealer_draw` (000); "
       "`dealer_draws` (002, some homes); `bury`: turned back into the talon (002's "
       "simplest). Förhand then plays on the ace by the usual rules."),
    _p("must_play", "Play", "a player holding a playable card must play it",
       "`true` (002). With `false` (a house variant) a player may draw instead of playing."),
    _p("stacking", "Play", "play several cards of one rank in one move",
       "With `true` a player who has just played a card may add further cards of the same "
       "rank (eights and aces included, jokers not); the last card sets the suit (001 base "
       "rule, 000's Sväng-åtta, 002 house rule)."),
    _p("eight_follow", "Play", "who must follow the suit named with an eight",
       "`next_player`: the next player follows the named suit (001, 002). `same_player`: the "
       "eight's player must at once play a card of the named suit and may not play the eight "
       "without one (000)."),
    _p("eight_on_ace", "Play", "an eight may be played on an ace",
       "Forbidden in 001 and 000 (`false`); 002 says the eight may be played on anything."),
    _p("eight_on_eight", "Play", "an eight may be played on an eight",
       "Forbidden in most homes (`false`); allowed as a children's variant in 002."),
    _p("ace_on_eight", "Play", "an ace of the named suit may be played on an eight",
       "Forbidden in all three texts (`false`); 002's own table lists it, a contradiction."),
    _p("ace_on_ace", "Play", "whether an ace may answer an ace",
       "`forbidden` (000, 002); `allowed`: an ace may be played on an ace like any card of "
       "the suit (001 variant); `counter` (002 house rule): the ace's player does not "
       "continue, the next player draws all pending cards or plays an ace and passes the "
       "growing duty on."),
    _p("ace_draw", "Play", "cards each other player draws after an ace",
       "1 in all sources. The players draw in turn order from the ace player's left."),
    _p("ace_extra_turn", "Play", "the ace's player moves again",
       "With `true` (000, 002) the ace's player continues with a card of the ace's suit (or "
       "an ace where ace on ace is allowed); if it cannot, it draws as usual and the turn "
       "passes."),
    _p("draw_limit", "Play", "cards a player may draw looking for a playable one",
       "3 in all sources; 0 means draw until a playable card appears; 002 mentions "
       "unlimited and 1 as variants. A drawn card may be played at once if legal."),
    _p("specials_only_must_draw", "Play", "a hand of only eights, aces and jokers must draw",
       "`true` in 001 and 000; 002 advises playing the ace from a hand of ace and eight "
       "(`false`)."),
    _p("out_on_special", "Play", "an eight, ace or joker may be the card that empties the hand",
       "Forbidden in all sources (`false`); 002 allows it for faster games."),
    _p("last_card_start_suit", "Play", "the last card must be of the start card's suit",
       "002 house rule. For a named start eight, the named suit counts."),
    _p("two_draws_two", "Play", "a two makes the next player draw two",
       "002 house rule: the next player draws two and loses the turn unless it plays a two, "
       "passing the accumulated duty on."),
    _p("call_at", "Play", "hand size at which a player must call",
       "1 is *lappen* (the call at one card left), 3 is *varning* (000 variant). A player who "
       "forgets the call draws `call_penalty` cards; whether players forget is a simulation "
       "setting (`--forget`), not a rule."),
    _p("call_penalty", "Play", "cards drawn for a forgotten call",
       "3 in 001 and 002; 2–3 in 000; 1 in some homes and 0 with children (002). Cards drawn "
       "as a penalty may not be played in the same turn."),
    _p("reshuffles", "Play", "how often the discards become a new talon",
       "`unlimited` (000): whenever the talon is empty the discards except the top are "
       "shuffled into a new talon; 002: once, then play on without a talon. A deal where no "
       "player can play or draw for a whole round ends *blocked*: nobody wins and everyone "
       "scores the hand held."),
    _p("scale", "Scoring and match", "points of the cards left in hand",
       "`base` (001, 002's children): eight 10, ace 5, others 1. `hundred` (000, 002, 001 "
       "variant): eight 25, ace 15, 10/J/Q/K 10, others 5. `crazy_eights` (Hoyle, mentioned "
       "in 002): eight 50, K/Q/J/10 10, ace 1, others pip value. A joker scores as an eight. "
       "A custom table starts from a named scale and changes some ranks: "
       '`scale = { base = "hundred", "8" = 40 }` in a rules file, or every rank '
       '`"A"`, `"2"`, …, `"K"` (and optionally `"joker"`) without `base`; points 0–1000.'),
    _p("match", "Scoring and match", "how deals make up a match",
       "`single`: one deal. `deals:N`: the lowest total after N deals wins (001). "
       "`elimination:T`: a player whose total reaches T leaves; the last one standing wins "
       "(000, 001, 002; T is usually 100, also 50, 150, 200). `best_of:N`: the first to win "
       "a majority of N deals (000: best of 5)."),
    _p("eliminate_at", "Scoring and match", "when a total eliminates a player",
       "`reach`: a total of T or more (000, 001); `pass`: more than T (002)."),
)}

_missing = set(f.name for f in dataclasses.fields(Rules)) ^ set(PARAMETERS)
if _missing:  # a new rule field needs its words here (and a stale entry must go)
    raise AssertionError(f"rulebook: PARAMETERS and Rules differ in {sorted(_missing)}")


def explain(name: str) -> Parameter:
    """The catalogue entry of a field; an unknown name is a RulesError with a hint."""
    if name not in PARAMETERS:
        raise unknown_error("field", name, PARAMETERS)
    return PARAMETERS[name]


def show_value(value: object) -> str:
    """A value as written in a rules file or ``--set`` (TOML spelling for booleans)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, tuple):
        return "custom (" + ", ".join(map(str, value)) + ")"
    return str(value)


@dataclass(frozen=True)
class InertWhen:
    """A field that cannot change any game while ``condition`` holds (see :func:`inert_settings`)."""

    name: str
    reason: str
    condition: Callable[[Rules, bool], bool]  # (rules, some seat may forget a call)


INERT: tuple[InertWhen, ...] = (
    InertWhen("joker_effect", "there are no jokers (jokers = 0)",
              lambda r, forgetting: r.jokers == 0),
    InertWhen("eliminate_at", "the match is not an elimination",
              lambda r, forgetting: r.match_kind != "elimination"),
    InertWhen("out_on_special", "a hand of only specials cannot play "
              "(specials_only_must_draw = true), so a special is never the last card",
              lambda r, forgetting: r.specials_only_must_draw),
    InertWhen("ace_extra_turn", "under ace_on_ace = counter the turn passes after an ace",
              lambda r, forgetting: r.ace_on_ace == "counter"),
    InertWhen("call_at", "no seat forgets a call (no --forget), so no penalty is ever due",
              lambda r, forgetting: not forgetting),
    InertWhen("call_penalty", "no seat forgets a call (no --forget), so no penalty is ever due",
              lambda r, forgetting: not forgetting),
)


def inert_settings(rules: Rules, forgetting: bool = True) -> list[tuple[str, str]]:
    """The fields of ``rules`` set away from their default that cannot change any game in
    this configuration, each with the reason: ``[(field, reason), ...]``.

    ``forgetting`` says whether any seat may forget a call (``--forget``); without it the call
    rules never apply.
    """
    default = Rules()
    return [(w.name, w.reason) for w in INERT
            if getattr(rules, w.name) != getattr(default, w.name) and w.condition(rules, forgetting)]


def reference_markdown() -> str:
    """``docs/rules.md``: every parameter with its values, default, presets and words."""
    out = [
        "# Rules reference",
        "",
        "<!-- Generated by `make docs` from vandatta_sim/rulebook.py; do not edit by hand. -->",
        "",
        "Every rule of Vändåtta that the three Swedish rule texts disagree on is a parameter. "
        "Set them with a preset (`--preset`), a TOML rules file (`--rules FILE`, which may "
        "start with `preset = \"seed002\"` and override any field; see `examples/`) and single "
        "overrides (`--set field=value`, the value written as in TOML). "
        "`vandatta-sim rules params` lists them and `vandatta-sim rules explain FIELD` prints "
        "one entry of this page. The sources are cited by file: 000 (*komplett guide*), 001 "
        "(*vändåtta regler*), 002 (*most Swedish homes*). Where the sources are silent the "
        "engine's choices are in [engine-rules.md](engine-rules.md).",
        "",
        "Fixed for every variant: a 52-card deck, play passes clockwise, förhand (left of the "
        "dealer) starts, the dealer moves one seat left each deal; a card is played on a card "
        "of the same suit or rank; an eight is wild and names a suit; an ace makes every other "
        "player draw; the first player with an empty hand wins the deal and the others score "
        "the cards left in hand.",
        "",
        "## Presets",
        "",
        "A family name (in brackets) is taken wherever the preset's name is.",
        "",
        "| preset | what it is | differs from standard in |",
        "|:---|:---|:---|",
    ]
    for name, rules in PRESETS.items():
        diff = ", ".join(f"`{k}={show_value(v)}`" for k, v in rules.diff().items()) or "–"
        aliases = ", ".join(f"`{alias}`" for alias in preset_aliases(name))
        title = f"`{name}`" + (f" ({aliases})" if aliases else "")
        out.append(f"| {title} | {PRESET_NOTES[name]} | {diff} |")
    inert = {}
    for w in INERT:
        inert.setdefault(w.name, []).append(w.reason)
    for section in SECTIONS:
        out += ["", f"## {section}"]
        for p in PARAMETERS.values():
            if p.section != section:
                continue
            presets = ", ".join(f"`{k}` ({show_value(v)})" for k, v in p.presets().items())
            out += ["", f"### `{p.name}`: {p.summary}", "",
                    f"- values: {p.allowed}",
                    f"- default: `{show_value(p.default)}`",
                    f"- presets that change it: {presets or 'none'}"]
            out += [f"- cannot change a game when {reason}" for reason in inert.get(p.name, ())]
            out += ["", p.detail]
    return "\n".join(out) + "\n"
