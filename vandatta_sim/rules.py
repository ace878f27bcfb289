"""Rule parameters, presets and rule files (docs/spec.md §2–§3).

The whole rule set of a game is one frozen :class:`Rules` dataclass. Every field is checked in
``__post_init__``, so a ``Rules`` that exists is a valid one; variants are made with
:meth:`Rules.replace`. :meth:`Rules.key` is a short stable hash of the canonical form, meant as
a cache/result key: equal rules always give the same key, in any process or Python version.

Rules come from three places, applied in this order by :func:`resolve_rules`: a named preset
(:data:`PRESETS`, or a family name of one in :data:`PRESET_ALIASES`), a TOML file (whose
optional top-level ``preset = "NAME"`` picks its base and whose other keys are fields), and
``--set field=value`` overrides (:func:`parse_override`).
Every bad input raises :class:`RulesError` with a one-line message that names the field (or
file, or preset), the bad value and what is allowed.
"""

from __future__ import annotations

import dataclasses
import difflib
import hashlib
import json
import numbers
import re
import sys
import tomllib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

from . import cards
from .paths import PathError, loads_toml, read_text_file, shorten


class RulesError(ValueError):
    """A bad rules input: unknown field or preset, bad value, unreadable or invalid file."""


# Integer fields: (lowest, highest, allowed values as shown in messages).
_RANGES = {
    "players": (2, 10, "2–10"),
    "hand_size": (1, 15, "1–15"),
    "jokers": (0, 2, "0–2 (per deck)"),
    "ace_draw": (0, 3, "0–3 (cards for each other player)"),
    "draw_limit": (0, 5, "0 (draw until playable) or 1–5"),
    "call_penalty": (0, 5, "0–5 (cards)"),
}
# Fields with a fixed set of values (compared type-strictly, so True is not 1); public, so
# that the kernel's codes for these values can be checked against them.
CHOICES = {
    "decks": ("auto", 1, 2),
    "joker_effect": ("reverse", "draw_two", "super_eight"),
    "start_eight": ("bury", "dealer_names", "forehand_names"),
    "start_ace": ("all_draw", "all_but_dealer_draw", "dealer_draws", "bury"),
    "eight_follow": ("next_player", "same_player"),
    "ace_on_ace": ("forbidden", "allowed", "counter"),
    "call_at": (1, 3),
    "eliminate_at": ("reach", "pass"),
}
_MAX_RESHUFFLES = 1000
# Match forms "kind:N" with the range of N.
_MATCH_RANGES = {"deals": (1, 1000), "elimination": (1, 100_000), "best_of": (1, 999)}
MATCH_KINDS = ("single", *_MATCH_RANGES)  # the "kind" of a match value "kind:N"
_MATCH_ALLOWED = "single, deals:N (N 1–1000), elimination:T (T 1–100000), best_of:N (N 1–999)"
_SCALE_ALLOWED = (f"{', '.join(cards.SCALES)}, or a table of rank points"
                  ' such as { base = "hundred", "8" = 40 }')


def _show(value: object) -> str:
    """A value as it appears in a message: TOML spelling for bools, repr otherwise, one line."""
    text = ("true" if value else "false") if isinstance(value, bool) else repr(value)
    return text if len(text) <= 80 else text[:77] + "..."


def _bad(name: str, value: object, allowed: str) -> RulesError:
    return RulesError(f"rules: {name} = {_show(value)} is not allowed; allowed: {allowed}")


def unknown_error(what: str, name: object, known: Iterable[str],
                  listing: str | None = None) -> RulesError:
    """'unknown field/preset' error with a did-you-mean hint when a close match exists; the
    known names are listed as ``listing`` says, by default comma-separated."""
    known = list(known)
    close = difflib.get_close_matches(str(name), known, n=1)
    hint = f" (did you mean {close[0]!r}?)" if close else ""
    listing = ", ".join(known) if listing is None else listing
    return RulesError(f"rules: unknown {what} {name!r}{hint}; known {what}s: {listing}")


def _as_int(value: object) -> object:
    # numpy integers (e.g. from a parameter grid) count as ints; bools never do. numpy is not
    # imported for this: where it is not loaded, no value can be a numpy bool.
    numpy = sys.modules.get("numpy")
    bools = (bool,) if numpy is None else (bool, numpy.bool_)
    if isinstance(value, numbers.Integral) and not isinstance(value, bools):
        return int(value)
    return value


def _check_scale(value: object) -> str | tuple[int, ...]:
    if isinstance(value, str):
        if value in cards.SCALES:
            return value
        raise _bad("scale", value, _SCALE_ALLOWED)
    if isinstance(value, Mapping):
        try:
            return cards.custom_scale(value)
        except ValueError as exc:  # cards' messages already name scale.<rank>
            raise RulesError(f"rules: {exc}") from None
    # A 14-tuple is the normal form; a list is what canonical() and JSON give back.
    if isinstance(value, (tuple, list)) and len(value) == len(cards.SCALE_KEYS):
        points = tuple(_as_int(p) for p in value)
        if all(type(p) is int and 0 <= p <= 1000 for p in points):
            return points
    raise _bad("scale", value, _SCALE_ALLOWED)


def _check_match(value: object) -> str:
    if value == "single":
        return value
    found = isinstance(value, str) and re.fullmatch(r"(deals|elimination|best_of):([0-9]+)", value)
    if found:
        low, high = _MATCH_RANGES[found[1]]
        if low <= int(found[2]) <= high:
            return f"{found[1]}:{int(found[2])}"  # "deals:05" and "deals:5" are one rule set
    raise _bad("match", value, _MATCH_ALLOWED)


def auto_decks(players: int) -> int:
    """The decks of ``decks = "auto"``: one up to five players, two from six."""
    return 1 if players <= 5 else 2


def allowed_values(name: str) -> str:
    """The values a field accepts, as error messages and the rules reference show them."""
    if name in _RANGES:
        return _RANGES[name][2]
    if name in CHOICES:
        return ", ".join(map(str, CHOICES[name]))
    if name == "reshuffles":
        return f"0–{_MAX_RESHUFFLES} or unlimited"
    if name == "scale":
        return _SCALE_ALLOWED
    if name == "match":
        return _MATCH_ALLOWED
    if name in _FIELD_NAMES and isinstance(getattr(_STANDARD, name), bool):
        return "true, false"
    raise unknown_error("field", name, _FIELD_NAMES)


def _check_field(name: str, value: object, default: object) -> object:
    """The normalised value of one field, or RulesError."""
    if name in _RANGES:
        low, high, allowed = _RANGES[name]
        value = _as_int(value)
        if type(value) is int and low <= value <= high:
            return value
        raise _bad(name, value, allowed)
    if name in CHOICES:
        value = _as_int(value)
        if any(type(value) is type(c) and value == c for c in CHOICES[name]):
            return value
        raise _bad(name, value, allowed_values(name))
    if isinstance(default, bool):
        if type(value) is bool:
            return value
        raise _bad(name, value, "true, false")
    if name == "reshuffles":
        value = _as_int(value)
        if value == "unlimited" or (type(value) is int and 0 <= value <= _MAX_RESHUFFLES):
            return value
        raise _bad(name, value, allowed_values(name))
    if name == "scale":
        return _check_scale(value)
    if name == "match":
        return _check_match(value)
    raise AssertionError(f"no check for field {name}")  # a new field needs a check here


@dataclass(frozen=True)
class Rules:
    """One complete rule set; fields, values and defaults as in docs/spec.md §2."""

    players: int = 4                        # 2–10
    decks: str | int = "auto"               # auto = 1 up to 5 players, 2 from 6
    hand_size: int = 7                      # 1–15, must fit the deck
    jokers: int = 0                         # per deck
    joker_effect: str = "reverse"
    start_eight: str = "bury"
    start_ace: str = "all_draw"
    must_play: bool = True
    stacking: bool = False
    eight_follow: str = "next_player"
    eight_on_ace: bool = False
    eight_on_eight: bool = False
    ace_on_eight: bool = False
    ace_on_ace: str = "forbidden"
    ace_draw: int = 1
    ace_extra_turn: bool = True
    draw_limit: int = 3                     # 0 = until a playable card appears
    specials_only_must_draw: bool = True
    out_on_special: bool = False
    last_card_start_suit: bool = False
    two_draws_two: bool = False
    call_at: int = 1                        # 1 = lappen, 3 = varning
    call_penalty: int = 3
    reshuffles: int | str = "unlimited"
    scale: str | tuple[int, ...] = "hundred"  # a name in cards.SCALES or 14 rank points
    match: str = "elimination:100"
    eliminate_at: str = "reach"             # reach: total >= T is out; pass: total > T

    def __post_init__(self) -> None:
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            checked = _check_field(f.name, value, f.default)
            if checked is not value:
                object.__setattr__(self, f.name, checked)  # frozen: normalise in place
        # The deal plus the start card must come out of the deck.
        needed = self.players * self.hand_size + 1
        if needed > self.deck_size:
            more = ", or set decks = 2" if self.n_decks == 1 else ""
            raise RulesError(
                f"rules: hand_size = {self.hand_size} with players = {self.players} needs "
                f"{needed} cards; the deck has {self.deck_size} (decks = {self.decks}); "
                f"lower hand_size or players{more}")

    @property
    def n_decks(self) -> int:
        return auto_decks(self.players) if self.decks == "auto" else self.decks

    def games_canonical(self) -> dict[str, object]:
        """:meth:`canonical` with settings that deal the same games written one way: a deck
        count equal to what ``decks = "auto"`` gives is ``"auto"`` (the store's keys use this,
        so that equal games are stored once)."""
        out = self.canonical()
        if out["decks"] == auto_decks(self.players):
            out["decks"] = "auto"
        return out

    @property
    def deck_size(self) -> int:
        return self.n_decks * (cards.N_DECK_TYPES + self.jokers)

    @property
    def match_kind(self) -> str:
        return self.match.partition(":")[0]

    @property
    def match_param(self) -> int:
        """N of deals:N / best_of:N, T of elimination:T; 0 for single."""
        return int(self.match.partition(":")[2] or 0)

    def scale_points(self) -> numpy.ndarray:  # noqa: F821 (imported where it is called)
        """Points of each of the 54 card types under this scale."""
        return cards.scale_points(self.scale)

    def replace(self, **changes: object) -> Rules:
        """A copy with some fields changed, validated like a new Rules."""
        for name in changes:
            if name not in _FIELD_NAMES:
                raise unknown_error("field", name, _FIELD_NAMES)
        return dataclasses.replace(self, **changes)

    def canonical(self) -> dict[str, object]:
        """Every field in field order, as JSON-able values (a custom scale as a list)."""
        out = {}
        for name in _FIELD_NAMES:
            value = getattr(self, name)
            out[name] = list(value) if isinstance(value, tuple) else value
        return out

    def key(self) -> str:
        """16 hex digits identifying these rules (sha256 of the sorted canonical JSON)."""
        text = json.dumps(self.canonical(), sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]

    def to_toml(self) -> str:
        """A complete rules file (no preset line) that load_rules_text reads back as equal."""
        lines = []
        for name, value in self.canonical().items():
            if isinstance(value, list):  # custom scale: all 14 ranks, so no base is needed
                pairs = (f"{json.dumps(k)} = {v}" for k, v in zip(cards.SCALE_KEYS, value))
                text = "{ " + ", ".join(pairs) + " }"
            elif isinstance(value, bool):
                text = "true" if value else "false"
            else:  # int, or str: a JSON string is a valid TOML basic string
                text = json.dumps(value)
            lines.append(f"{name} = {text}")
        return "\n".join(lines) + "\n"

    def diff(self, other: Rules | None = None) -> dict[str, object]:
        """This rule set's values of the fields that differ from other (default: Rules()).

        ``other.replace(**self.diff(other)) == self`` always holds.
        """
        other = Rules() if other is None else other
        return {name: getattr(self, name) for name in _FIELD_NAMES
                if getattr(self, name) != getattr(other, name)}


_FIELD_NAMES = tuple(f.name for f in dataclasses.fields(Rules))

_STANDARD = Rules()
_SEED001 = _STANDARD.replace(stacking=True, start_eight="bury", start_ace="all_draw",
                             scale="base", match="deals:5")
# Each preset names every value docs/spec.md §3 gives it, defaults included, so §3 reads off directly;
# svang-atta and kids build on standard (§3 lists only their differences from the defaults).
PRESETS: dict[str, Rules] = {
    "standard": _STANDARD,
    "seed000": _STANDARD.replace(eight_follow="same_player", start_eight="dealer_names",
                                 start_ace="all_but_dealer_draw", reshuffles="unlimited",
                                 scale="hundred", match="elimination:100", eliminate_at="reach"),
    "seed001": _SEED001,
    "seed001-hundred": _SEED001.replace(scale="hundred", match="elimination:100",
                                        ace_on_ace="allowed"),
    "seed002": _STANDARD.replace(start_eight="forehand_names", start_ace="bury",
                                 specials_only_must_draw=False, reshuffles=1, scale="hundred",
                                 match="elimination:100", eliminate_at="pass"),
    "svang-atta": _STANDARD.replace(hand_size=6, stacking=True),
    "kids": _STANDARD.replace(hand_size=5, eight_on_eight=True, call_penalty=0, scale="base",
                              match="elimination:30"),
    "crazy-eights-scoring": _STANDARD.replace(scale="crazy_eights"),
}
PRESET_NOTES: dict[str, str] = {
    "standard": "the defaults (docs/spec.md): the common core of all three sources",
    "seed000": "000 (komplett guide): same-player eight follow-up, dealer names a start eight",
    "seed001": "001 (vändåtta regler): stacking, base scale, 5 deals (the count is our choice)",
    "seed001-hundred": "001's variant: hundred scale, elimination at 100, ace on ace allowed",
    "seed002": "002 (most Swedish homes): förhand names a start eight, 1 reshuffle, out over 100",
    "svang-atta": "000's 1960s Sväng-åtta variant: six cards each, stacking",
    "kids": "002's children's game: five cards, eight on eight, no call penalty, out at 30",
    "crazy-eights-scoring": "standard with Hoyle's Crazy Eights scale (eight 50), as 002 mentions",
}


# Family names beside the presets named by source codes (spec §3 keeps the codes, which the
# store's provenance and the reports use): each alias is another spelling of one preset, taken
# wherever a preset name is and resolved by preset_name before anything is built or recorded.
PRESET_ALIASES: dict[str, str] = {
    "familj": "seed002",           # 002: "varianten som spelas i de flesta svenska hem"
    "samma-spelare": "seed000",    # 000: the eight's player plays again ("same player")
    "tio-fem-ett": "seed001",      # 001's scale: "åtta ger tio poäng, ess fem och övriga ett"
    "ess-pa-ess": "seed001-hundred",  # 001's variant: ace on ace ("ess på ess")
    "barn": "kids",                # 002's children's game
}


def preset_title(name: str) -> str:
    """A preset's name with its family names, as listings show it: ``seed002 (familj)``."""
    aliases = [alias for alias, preset in PRESET_ALIASES.items() if preset == name]
    return f"{name} ({', '.join(aliases)})" if aliases else name


def preset_name(name: str) -> str:
    """The preset that ``name`` (a preset's name or one of its family names) stands for; an
    unknown name is a one-line error that lists every preset with its family names."""
    if name in PRESETS:
        return name
    if name in PRESET_ALIASES:
        return PRESET_ALIASES[name]
    listing = ", ".join(map(preset_title, PRESETS)) + "; `vandatta-sim rules list` describes each"
    raise unknown_error("preset", name, [*PRESETS, *PRESET_ALIASES], listing)


def same_preset(first: str, second: str) -> bool:
    """Whether two names stand for one preset (a preset and its family name do); an unknown
    name stands only for itself (it is refused, in its own words, where it is resolved)."""
    return PRESET_ALIASES.get(first, first) == PRESET_ALIASES.get(second, second)


def get_preset(name: str) -> Rules:
    return PRESETS[preset_name(name)]


def parse_override(text: str) -> tuple[str, object]:
    """``"draw_limit=1"`` → ``("draw_limit", 1)``: the value is TOML, else a bare string."""
    name, eq, raw = text.partition("=")
    name, raw = name.strip(), raw.strip()
    if not eq or not name:
        raise RulesError(f"rules: override {text!r} is not allowed; allowed: field=value, "
                         "e.g. draw_limit=1")
    if name not in _FIELD_NAMES:
        raise unknown_error("field", name, _FIELD_NAMES)
    try:
        parsed = loads_toml("v = " + raw)
    except tomllib.TOMLDecodeError:
        return name, raw  # bare words: scale=hundred, match=elimination:100, decks=auto
    # "1\nplayers = 3" parses as two keys; only a single value counts as TOML.
    return name, parsed["v"] if list(parsed) == ["v"] else raw


def given_twice(name: str, first: str, second: str) -> RulesError:
    """The one message for a setting given twice, naming both sources (see :func:`settings`)."""
    return RulesError(f"{name} is given twice ({first} and {second}); give it once")


def settings(overrides: Iterable[str] = (),
             shortcuts: Iterable[tuple[str, object, str]] = ()) -> dict[str, object]:
    """Field → value of ``--set field=value`` texts and of shortcut options, each field once.

    The one "given twice" rule of every command and sweep file: a field set twice (two
    ``--set``, or ``--set`` and a shortcut such as ``--players``) is an error naming both
    sources, never resolved by order. ``shortcuts`` are ``(field, value, source)`` triples,
    e.g. ``("players", 3, "--players 3")``; a None value is not given."""
    if isinstance(overrides, str):  # one override passed bare, not in a list
        overrides = (overrides,)
    values: dict[str, object] = {}
    sources: dict[str, str] = {}
    for text in overrides:
        name, value = parse_override(text)
        source = f"--set {text.strip()}"
        if name in sources:
            raise given_twice(name, sources[name], source)
        values[name], sources[name] = value, source
    for name, value, source in shortcuts:
        if value is None:
            continue
        if name in sources:
            raise given_twice(name, sources[name], source)
        values[name], sources[name] = value, source
    return values


def _in(source: str, exc: RulesError) -> RulesError:
    """The same error, located in a file: ``rules: FILE: ...``."""
    return RulesError(f"rules: {source}: {str(exc).removeprefix('rules: ')}")


def _from_text(text: str, source: str, base: str | None = None) -> Rules:
    try:
        data = loads_toml(text)  # a nesting limit instead of a RecursionError
    except tomllib.TOMLDecodeError as exc:
        raise RulesError(f"rules: {shorten(source)}: invalid TOML: "
                         f"{' '.join(str(exc).split())}") from None
    preset = data.pop("preset", base or "standard")  # the file's own preset wins over base
    try:
        if not isinstance(preset, str):
            raise _bad("preset", preset, ", ".join(map(preset_title, PRESETS)))
        # All fields at once, so that players = 8 with decks = 2 is never checked halfway.
        return get_preset(preset).replace(**data)
    except RulesError as exc:
        raise _in(source, exc) from None


def load_rules_text(text: str, source: str = "<string>") -> Rules:
    """Rules from TOML text: optional ``preset = "NAME"`` (default standard), then fields."""
    return _from_text(text, source)


def _read(path: str | Path) -> str:
    """The text of a rules file: a regular UTF-8 file within the size limit of user files."""
    try:
        return read_text_file(path)
    except PathError as exc:
        raise RulesError(f"rules: {exc}") from None


def load_rules_file(path: str | Path) -> Rules:
    return _from_text(_read(path), str(path))


def resolve_rules(preset: str | None = None, file: str | Path | None = None,
                  overrides: Iterable[str] = ()) -> Rules:
    """Preset (default standard), or a file based on it, then ``field=value`` overrides.

    A file's own ``preset`` key wins over the preset argument. Overrides are validated
    together, like a file's fields; a field given twice is an error (:func:`settings`).
    """
    if file is not None:
        rules = _from_text(_read(file), str(file), base=preset)
    else:
        rules = get_preset("standard" if preset is None else preset)  # '' is no preset name
    changes = settings(overrides)
    for name, value in changes.items():
        _check_field(name, value, getattr(rules, name))  # the field's own message first
    return rules.replace(**changes)
