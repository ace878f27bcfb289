"""A design spec: the fixed rules, the free parameters, the table, the goals, the search.

A spec is a TOML file::

    title = "the fairest two-player rules with deals of 30–40 turns"
    [fixed]                     # optional: preset, rules file (relative to the spec), set
    preset = "standard"
    set = ["match=single"]      # or a table: set = { match = "single" }
    [free]                      # each parameter with its allowed values (two or more)
    draw_limit = [0, 1, 3]
    stacking = [false, true]
    [table]
    players = 2                 # or a list: [3, 4]
    policy = "expert"           # every seat's player
    [[goals]]
    measure = "first_player_advantage"
    aim = "minimise"            # or maximise; or target = X (tolerance = T); at_most; at_least
    [search]
    trials = 20                 # candidates tried (optuna trials)
    seed = 1
    games = 2000                # per candidate and table size while searching
    final_games = 20000         # per finalist on fresh seeds
    finalists = 3               # best candidates measured again

Every check is made here, before any game is played: a bad spec is one :class:`SpecError`
naming the field and what is allowed.
"""

from __future__ import annotations

import hashlib
import json
import math
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from ..paths import PathError, loads_toml, read_text_file
from ..rules import Rules, RulesError, parse_override, resolve_rules
from ..rulebook import PARAMETERS, show_value
from ..simulate import SimulationError, check_policy
from .goals import Measure, find_measure, known_measures, seat_of

MAX_TRIALS = 100_000
MAX_SEED = 2**62 - 16  # the finalists' seeds lie 2^62 above (search.final_seed)
AIMS = ("minimise", "maximise")
_SECTIONS = {"title": None, "fixed": ("preset", "rules", "set"), "free": None,
             "table": ("players", "policy"), "goals": None,
             "search": ("trials", "seed", "games", "skill_games", "final_games", "finalists")}
_GOAL_KEYS = ("measure", "aim", "target", "tolerance", "at_most", "at_least", "weight",
              "strong", "weak", "players")
_FORMS = ("aim", "target", "at_most", "at_least")


class SpecError(ValueError):
    """A bad design spec; the message is one line naming the field and what is allowed."""


@dataclass(frozen=True)
class Goal:
    """One goal: a measure and what the table wants of it.

    ``aim`` (minimise or maximise), ``target`` ± ``tolerance``, or a cap (``at_most`` /
    ``at_least``). Caps are constraints: a candidate that breaks one is not feasible. The
    others are optimised; ``weight`` (per pp for shares and edges, per unit otherwise) makes
    several of them one score."""

    measure: str
    aim: str | None = None
    target: float | None = None
    tolerance: float = 0.0
    at_most: float | None = None
    at_least: float | None = None
    weight: float | None = None
    strong: str | None = None
    weak: str | None = None

    @property
    def measure_info(self) -> Measure:
        return find_measure(self.measure)

    @property
    def is_cap(self) -> bool:
        return self.at_most is not None or self.at_least is not None

    @property
    def words(self) -> str:
        m = self.measure_info
        what = m.words if m.needs != "skill" else f"skill ({self.strong} over {self.weak})"
        if self.aim == "minimise":
            return f"{what}: {'as close to 0' if m.signed else 'as low'} as possible"
        if self.aim == "maximise":
            return f"{what}: as high as possible"
        if self.target is not None:
            if self.tolerance:
                low = m.show(self.target - self.tolerance / m.scale)
                return f"{what}: {low.removesuffix(' ' + m.unit)} to " \
                       f"{m.show(self.target + self.tolerance / m.scale)}"
            return f"{what}: {m.show(self.target)}"
        if self.at_most is not None:
            return f"{what}: at most {m.show(self.at_most)}"
        return f"{what}: at least {m.show(self.at_least)}"

    def loss(self, value: float) -> float:
        """What the search minimises for this goal (0 inside a target's band); for a cap,
        the constraint value (≤ 0: met). In pp for shares and edges."""
        m = self.measure_info
        if not math.isfinite(value):
            return math.inf
        if self.aim == "minimise":
            return (abs(value) if m.signed else value) * m.scale
        if self.aim == "maximise":
            return -value * m.scale
        if self.target is not None:
            return max(0.0, abs(value - self.target) * m.scale - self.tolerance)
        if self.at_most is not None:
            return (value - self.at_most) * m.scale
        return (self.at_least - value) * m.scale

    def met(self, value: float) -> bool | None:
        """Whether a value meets the goal (None for minimise/maximise: no threshold)."""
        if self.aim is not None:
            return None
        return self.loss(value) <= 0


@dataclass(frozen=True)
class FreeParameter:
    """A rule field free to vary, its allowed values (normalised) and their spellings."""

    name: str
    values: tuple
    labels: tuple[str, ...]


@dataclass(frozen=True)
class DesignSpec:
    source: str
    title: str
    base: Rules
    free: tuple[FreeParameter, ...]
    players: tuple[int, ...]
    policy: str
    goals: tuple[Goal, ...]
    trials: int
    seed: int
    games: int
    skill_games: int
    final_games: int
    finalists: int

    @property
    def objectives(self) -> tuple[Goal, ...]:
        return tuple(g for g in self.goals if not g.is_cap)

    @property
    def caps(self) -> tuple[Goal, ...]:
        return tuple(g for g in self.goals if g.is_cap)

    @property
    def mode(self) -> str:
        """``single`` (one goal optimised), ``weighted`` (several, one weighted score) or
        ``pareto`` (several, a front)."""
        if len(self.objectives) == 1:
            return "single"
        return "weighted" if self.objectives[0].weight is not None else "pareto"

    def rules_for(self, params: Mapping[str, object], players: int) -> Rules:
        """The candidate's rules at one table size (RulesError for a combination that
        cannot be dealt, e.g. too many cards)."""
        return self.base.replace(players=players, **params)

    def identity(self) -> dict:
        """What decides the trials: the study is named after it, so an edited spec starts a
        new study and a longer one (more trials) continues the old."""
        return {"base": self.base.canonical(),
                "free": [[p.name, list(p.labels)] for p in self.free],
                "players": list(self.players), "policy": self.policy,
                "goals": [g.__dict__ for g in self.goals], "seed": self.seed,
                "games": self.games, "skill_games": self.skill_games}

    def study_name(self) -> str:
        text = json.dumps(self.identity(), sort_keys=True, separators=(",", ":"))
        stem = Path(self.source).stem or "design"
        return f"{stem}-{hashlib.sha256(text.encode()).hexdigest()[:12]}"


def _where(section: str, key: str | None = None) -> str:
    return f"design spec: {section}" + (f".{key}" if key else "")


def _check_keys(data, section: str, allowed) -> None:
    if not isinstance(data, Mapping):
        raise SpecError(f"{_where(section)} must be a table")
    for key in data:
        if key not in allowed:
            raise SpecError(f"{_where(section, key)}: unknown key; allowed: {', '.join(allowed)}")


def _number(value, where: str, low=-math.inf, high=math.inf, integer=False) -> float:
    ok = isinstance(value, int if integer else int | float) and not isinstance(value, bool)
    if not ok or not (low <= value <= high) or (not integer and not math.isfinite(value)):
        kind = "an integer" if integer else "a number"
        raise SpecError(f"{where} = {value!r} is not allowed; allowed: {kind} from {low:g} "
                        f"to {high:g}")
    return value


def _fixed_rules(data: Mapping, folder: Path) -> tuple[Rules, set[str]]:
    """The fixed rules and the fields ``set`` names explicitly."""
    _check_keys(data, "fixed", _SECTIONS["fixed"])
    raw = data.get("set", [])
    if isinstance(raw, Mapping):
        raw = [f"{k}={_toml(v, _where('fixed', f'set.{k}'))}" for k, v in raw.items()]
    if not isinstance(raw, list) or not all(isinstance(s, str) for s in raw):
        raise SpecError(f"{_where('fixed', 'set')}: allowed: a list of \"field=value\" strings "
                        "or a table")
    rules_file = data.get("rules")
    if rules_file is not None:
        if not isinstance(rules_file, str):
            raise SpecError(f"{_where('fixed', 'rules')}: allowed: a rules file's path")
        rules_file = folder / rules_file
    preset = data.get("preset")
    try:
        if preset is not None and not isinstance(preset, str):
            raise RulesError(f"preset = {preset!r} is not allowed; allowed: a preset's name")
        rules = resolve_rules(preset, rules_file, raw)
        named = {parse_override(s)[0] for s in raw}
    except RulesError as exc:
        raise SpecError(f"{_where('fixed')}: {exc}") from None
    return rules, named


def _toml(value, where: str) -> str:
    """A TOML value written back as TOML text (``set`` as a table becomes ``field=value``);
    a value no rule can hold (a date or a time) is refused by name."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, Mapping):
        return "{" + ",".join(f"{json.dumps(str(k))}={_toml(v, where)}"
                              for k, v in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ",".join(_toml(v, where) for v in value) + "]"
    if isinstance(value, float) and not math.isfinite(value):
        return "nan" if math.isnan(value) else ("inf" if value > 0 else "-inf")
    if isinstance(value, str | int | float):
        return json.dumps(value)
    raise SpecError(f"{where} = {value!s}: a {type(value).__name__} is not allowed in a rule; "
                    "allowed: strings, numbers, booleans, arrays and tables")


def _free(data: Mapping, base: Rules, players: tuple[int, ...], fixed: set[str]
          ) -> tuple[FreeParameter, ...]:
    if not isinstance(data, Mapping) or not data:
        raise SpecError(f"{_where('free')}: allowed: a table of rule fields, each with a list "
                        "of two or more values (see `vandatta-sim rules params`)")
    out = []
    for name, values in data.items():
        where = _where("free", name)
        if name == "players":
            raise SpecError(f"{where}: table sizes go in [table] players, not in [free]")
        if name not in PARAMETERS:
            import difflib

            close = difflib.get_close_matches(name, PARAMETERS, n=1)
            hint = f" (did you mean {close[0]!r}?)" if close else ""
            raise SpecError(f"{where}: unknown rule parameter{hint}; allowed: "
                            f"{', '.join(p for p in PARAMETERS if p != 'players')}")
        if name in fixed:
            raise SpecError(f"{where}: also fixed in [fixed] set; a parameter is either fixed "
                            "or free")
        if not isinstance(values, list) or len(values) < 2:
            raise SpecError(f"{where}: allowed: a list of two or more values, got "
                            f"{values!r}" + ("" if isinstance(values, list) and values else
                                             " (an empty range)"))
        normal = []
        for value in values:
            try:
                for n in players:
                    checked = getattr(base.replace(players=n, **{name: value}), name)
            except RulesError as exc:
                raise SpecError(f"{where}: {exc}") from None
            if checked in normal:
                raise SpecError(f"{where}: the value {show_value(checked)} is listed twice")
            normal.append(checked)
        labels = tuple(show_value(v) for v in normal)
        out.append(FreeParameter(name, tuple(normal), labels))
    return tuple(out)


def _table(data: Mapping, base: Rules, fixed: set[str]) -> tuple[tuple[int, ...], str]:
    _check_keys(data, "table", _SECTIONS["table"])
    raw = data.get("players", base.players)
    if "players" in data and "players" in fixed:
        raise SpecError(f"{_where('table', 'players')}: also fixed in [fixed] set; give the "
                        "table sizes once")
    raw = raw if isinstance(raw, list) else [raw]
    if not raw:
        raise SpecError(f"{_where('table', 'players')}: an empty list; allowed: 2–10")
    players = tuple(dict.fromkeys(int(_number(n, _where("table", "players"), 2, 10, True))
                                  for n in raw))
    policy = data.get("policy", "expert")
    try:
        policy = check_policy(policy)
    except (SimulationError, TypeError) as exc:
        raise SpecError(f"{_where('table', 'policy')}: {exc}") from None
    for n in players:
        try:
            base.replace(players=n)
        except RulesError as exc:
            raise SpecError(f"{_where('table', 'players')}: {exc}") from None
    return players, policy


def _goal(data, i: int, players: tuple[int, ...], spec_match: bool) -> Goal:
    section = f"goals[{i}]"
    _check_keys(data, section, _GOAL_KEYS[:-1])
    name = data.get("measure")
    measure = find_measure(name) if isinstance(name, str) else None
    if measure is None:
        raise SpecError(f"{_where(section, 'measure')} = {name!r}: unknown measure; allowed: "
                        f"{known_measures()} (docs/columns.md)")
    seat = seat_of(measure)
    if seat is not None and seat >= min(players):
        raise SpecError(f"{_where(section, 'measure')} = {name!r}: the table has seats 0–"
                        f"{min(players) - 1}")
    if measure.needs_match and not spec_match:
        raise SpecError(f"{_where(section, 'measure')} = {name!r} needs a match; the rules "
                        "play single deals (set match, or make it free)")
    forms = [f for f in _FORMS if f in data]
    if len(forms) != 1:
        raise SpecError(f"{_where(section)}: give exactly one of {', '.join(_FORMS)} "
                        f"(aim = {' or '.join(AIMS)})")
    form = forms[0]
    kw: dict = {"measure": name}
    if form == "aim":
        if data["aim"] not in AIMS:
            raise SpecError(f"{_where(section, 'aim')} = {data['aim']!r} is not allowed; "
                            f"allowed: {', '.join(AIMS)}")
        kw["aim"] = data["aim"]
    else:
        where = _where(section, form)
        value = float(_number(data[form], where))
        if not measure.low <= value <= measure.high:
            raise SpecError(f"{where} = {value:g} is impossible: {measure.words} lies between "
                            f"{measure.low:g} and {measure.high:g}"
                            + (" (a fraction: 0.05 is 5%)" if measure.scale == 100 else ""))
        kw[form] = value
    if "tolerance" in data:
        if form != "target":
            raise SpecError(f"{_where(section, 'tolerance')}: applies only with target")
        kw["tolerance"] = float(_number(data["tolerance"], _where(section, "tolerance"), 0))
    if "weight" in data:
        if form in ("at_most", "at_least"):
            raise SpecError(f"{_where(section, 'weight')}: a cap has no weight (it is met or "
                            "not)")
        kw["weight"] = float(_number(data["weight"], _where(section, "weight"), 0))
        if kw["weight"] <= 0:
            raise SpecError(f"{_where(section, 'weight')} = 0 is not allowed; allowed: a "
                            "number > 0")
    for seat_kind, default in (("strong", "expert"), ("weak", "random")):
        if seat_kind in data and measure.needs != "skill":
            raise SpecError(f"{_where(section, seat_kind)}: applies only to measure = skill")
        if measure.needs == "skill":
            try:
                kw[seat_kind] = check_policy(data.get(seat_kind, default))
            except (SimulationError, TypeError) as exc:
                raise SpecError(f"{_where(section, seat_kind)}: {exc}") from None
    if measure.needs == "skill" and kw["strong"] == kw["weak"]:
        raise SpecError(f"{_where(section)}: strong and weak are the same player "
                        f"({kw['strong']}); skill is the gap between two players")
    return Goal(**kw)


def _check_goals(goals: list[Goal]) -> None:
    if not goals:
        raise SpecError(f"{_where('goals')}: no goals; allowed: one or more [[goals]] tables")
    for g in goals:  # one measure's caps must leave room
        lows = [h.at_least for h in goals if h.measure == g.measure and h.at_least is not None]
        highs = [h.at_most for h in goals if h.measure == g.measure and h.at_most is not None]
        if lows and highs and max(lows) > min(highs):
            raise SpecError(f"{_where('goals')}: {g.measure} at least {max(lows):g} and at most "
                            f"{min(highs):g} is impossible")
        # a target its own measure's caps forbid asks for two things at once (the conflict
        # rule): the search could only ever stop at the cap
        if g.target is not None and ((highs and g.target > min(highs))
                                     or (lows and g.target < max(lows))):
            cap = (f"at most {min(highs):g}" if highs and g.target > min(highs)
                   else f"at least {max(lows):g}")
            raise SpecError(f"{_where('goals')}: {g.measure} target {g.target:g} lies outside "
                            f"its own cap ({cap}); allowed: a target the caps allow, or "
                            "another cap")
    objectives = [g for g in goals if not g.is_cap]
    if not objectives:
        raise SpecError(f"{_where('goals')}: only caps; give at least one goal to optimise "
                        "(aim or target)")
    weighted = {g.weight is not None for g in objectives}
    if len(weighted) > 1:
        raise SpecError(f"{_where('goals')}: give every optimised goal a weight (one score) "
                        "or none (a Pareto front)")


def parse_spec(data: Mapping, source: str = "<spec>", folder: Path = Path(".")) -> DesignSpec:
    """The spec of a parsed TOML document, checked in full (:class:`SpecError`)."""
    _check_keys(data, "top level", list(_SECTIONS))
    title = data.get("title", Path(source).stem)
    if not isinstance(title, str):
        raise SpecError(f"{_where('title')}: allowed: a string")
    base, fixed = _fixed_rules(data.get("fixed", {}), folder)
    players, policy = _table(data.get("table", {}), base, fixed)
    free = _free(data.get("free"), base, players, fixed)
    match_possible = base.match != "single" or any(
        p.name == "match" and any(v != "single" for v in p.values) for p in free)
    raw_goals = data.get("goals")
    if not isinstance(raw_goals, list):
        raise SpecError(f"{_where('goals')}: allowed: one or more [[goals]] tables")
    goals = [_goal(g, i, players, match_possible) for i, g in enumerate(raw_goals)]
    _check_goals(goals)
    search = data.get("search", {})
    _check_keys(search, "search", _SECTIONS["search"])
    trials = int(_number(search.get("trials", 50), _where("search", "trials"), 1, MAX_TRIALS,
                         True))
    seed = int(_number(search.get("seed", 0), _where("search", "seed"), 0, MAX_SEED, True))
    games = int(_number(search.get("games", 2000), _where("search", "games"), 10, 10**9, True))
    skill_games = int(_number(search.get("skill_games", games), _where("search", "skill_games"),
                              10, 10**9, True))
    final_games = int(_number(search.get("final_games", 10 * games),
                              _where("search", "final_games"), games, 10**10, True))
    finalists = int(_number(search.get("finalists", min(3, trials)),
                            _where("search", "finalists"), 1, trials, True))
    return DesignSpec(source, title, base, free, players, policy, tuple(goals), trials, seed,
                      games, skill_games, final_games, finalists)


def load_spec(path) -> DesignSpec:
    """The spec in a TOML file (a regular file of at most 1 MiB)."""
    try:
        text = read_text_file(path)
        data = loads_toml(text)
    except PathError as exc:
        raise SpecError(f"design spec: {exc}") from None
    except ValueError as exc:  # tomllib.TOMLDecodeError
        raise SpecError(f"design spec: {path}: invalid TOML: {' '.join(str(exc).split())}"
                        ) from None
    return parse_spec(data, str(path), Path(path).parent)
