"""The grid grammar: ``--set``/``--vary``/``--players``/``--match`` and TOML sweep files.

Both are expanded into validated configurations, in order and without duplicates.
"""

from __future__ import annotations

import dataclasses
import itertools
import tomllib
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path

import numpy as np

from ..paths import PathError, loads_toml, read_text_file
from ..rules import (Rules, RulesError, given_twice, parse_override, preset_name, resolve_rules,
                     settings)
from ..simulate import (Seats, SimulationError, check_policy, check_probability, check_swap_rank,
                        is_seat_assignment)
from .config import (DEFAULT_CHUNK_SIZE, Config, SweepError, checked_by, checked_run_settings,
                     dedupe_configs)


_RULE_FIELDS = tuple(f.name for f in dataclasses.fields(Rules))
#: Grid dimensions that are not rule fields: all seats' policy / forget probability, swap rank.
_SEAT_DIMS = ("policy", "forget", "swap")


def _split_top(text: str) -> list[str]:
    """Split at commas outside brackets, braces and quotes (``scale={a=1,b=2},hundred``)."""
    parts, depth, quote, current = [], 0, None, []
    for ch in text:
        if quote:
            quote = None if ch == quote else quote
        elif ch in "\"'":
            quote = ch
        elif ch in "[{":
            depth += 1
        elif ch in "]}":
            depth -= 1
        elif ch == "," and depth == 0:
            parts.append("".join(current).strip())
            current = []
            continue
        current.append(ch)
    parts.append("".join(current).strip())
    return parts


def _unknown_dim(name: str) -> SweepError:
    import difflib

    known = [*_RULE_FIELDS, *_SEAT_DIMS]
    close = difflib.get_close_matches(name, known, n=1)
    hint = f" (did you mean {close[0]!r}?)" if close else ""
    return SweepError(f"vary: unknown field {name!r}{hint}; allowed: a rules field "
                      f"({', '.join(_RULE_FIELDS)}) or {', '.join(_SEAT_DIMS)}")


def parse_vary(text: str) -> tuple[str, list]:
    """``"draw_limit=0,1,3"`` → ``("draw_limit", [0, 1, 3])``; values are parsed like
    ``--set`` (TOML, else a bare word). ``policy``, ``forget`` and ``swap`` vary every seat's
    policy, every seat's forget probability and the swap rank (``none`` for no swap)."""
    name, eq, raw = str(text).partition("=")
    name = name.strip()
    if not eq or not name or not raw.strip():
        raise SweepError(f"vary {text!r} is not allowed; allowed: field=v1,v2,… "
                         "e.g. stacking=false,true")
    if name not in _RULE_FIELDS and name not in _SEAT_DIMS:
        raise _unknown_dim(name)
    parts = _split_top(raw)
    if any(not p for p in parts):
        raise SweepError(f"vary {text!r}: empty value; allowed: field=v1,v2,… "
                         "with no empty values")
    if name in _RULE_FIELDS:
        try:
            return name, [parse_override(f"{name}={p}")[1] for p in parts]
        except RulesError as exc:
            raise SweepError(f"vary {text!r}: {exc}") from None
    if name == "swap":
        return name, [checked_by(check_swap_rank, p) for p in parts]
    # one seat's policy or forget probability: policy=0=random,expert (seat 0 varied, the
    # other seats as --policy gives them)
    seat, eq, rest = raw.partition("=")
    prefix = ""
    if eq and seat.strip().isascii() and seat.strip().isdigit():
        prefix, parts = f"{int(seat.strip())}=", _split_top(rest)
        if any(not p for p in parts):
            raise SweepError(f"vary {text!r}: empty value; allowed: {name}=SEAT=v1,v2,… "
                             "with no empty values")
    if name == "forget":
        return name, [prefix + str(checked_by(check_probability, p, where=f"vary {text!r}: "))
                      for p in parts]
    # policy: canonical specs, so that expert and expert:eights=hold are one configuration
    return name, [prefix + checked_by(check_policy, p, where=f"vary {text!r}: ") for p in parts]


def _seat_spec(spec, what: str) -> list[str] | None:
    """One seat assignment as ``["all=NAME", "1=NAME"]`` strings (None: the default).

    Accepts a name (``expert``), ``SEAT=VALUE`` strings (comma-separated or several), a
    mapping ``{"all": ..., 1: ...}``, or a sequence of those."""
    if spec is None:
        return None
    if isinstance(spec, Mapping):
        return [f"{str(k).strip()}={v}" for k, v in spec.items()]
    if isinstance(spec, str | int | float) and not isinstance(spec, bool):
        spec = [spec]
    if isinstance(spec, bool) or not isinstance(spec, Sequence):
        raise SweepError(f"{what} {spec!r} is not allowed; allowed: NAME, SEAT=NAME strings "
                         "or a table")
    out: list[str] = []
    for item in spec:
        if isinstance(item, Mapping):
            out.extend(_seat_spec(item, what))
            continue
        for part in _split_top(str(item)):
            if not part:
                raise SweepError(f"{what} {item!r}: empty entry; allowed: SEAT=VALUE")
            out.append(part if is_seat_assignment(part) else f"all={part}")
    return out or None


def _spec_text(spec: list[str] | None) -> str:
    if not spec:
        return ""
    if len(spec) == 1 and spec[0].startswith("all="):
        return spec[0][4:]
    return ",".join(spec)


def _fmt_value(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return f"{value:g}"
    if isinstance(value, Mapping):
        return "{" + ",".join(f"{k}={_fmt_value(v)}" for k, v in value.items()) + "}"
    if isinstance(value, list | tuple):
        return "[" + ",".join(_fmt_value(v) for v in value) + "]"
    return str(value)


def _expand(presets: Sequence[str | None], rules_file, changes: Mapping,
            dims: Sequence[tuple[str, list]], policy_specs: Sequence, forget_specs: Sequence,
            swap_values: Sequence, swap_seat, base_label: str | None,
            explicit: Iterable[str] = ()) -> list[Config]:
    """Configurations of the product presets × ``dims`` (rule fields, in order) × policy
    assignments × forget assignments × swap ranks, each validated.

    Labels name the base (preset, rules file or ``base_label``), the ``changes``, every
    dimension's value, the players, and policy/forget/swap where varied or ``explicit``."""
    names = [name for name, _ in dims]
    for name in names:
        if names.count(name) > 1:
            raise SweepError(f"{name} is varied twice; give each field once")
        if name in changes:
            raise SweepError(f"{name} is both set and varied; give it once")
    # a family name is its preset's own name from here on: in labels, provenance and keys
    presets = [None if preset is None else preset_name(preset) for preset in presets]
    bases = {preset: resolve_rules(preset=preset, file=rules_file) for preset in presets}
    show = {"policy": len(policy_specs) > 1 or "policy" in explicit,
            "forget": len(forget_specs) > 1 or "forget" in explicit,
            "swap": len(swap_values) > 1 or "swap" in explicit}
    configs = []
    for preset, *values, policy, forget, swap in itertools.product(
            presets, *(v for _, v in dims), policy_specs, forget_specs, swap_values):
        values = dict(zip(names, values))
        if base_label:
            name = base_label + (f" {preset}" if len(presets) > 1 else "")
        elif rules_file is not None:
            name = Path(rules_file).stem + (f" {preset}" if preset else "")
        else:
            name = preset or "standard"
        parts = [name, *(f"{k}={_fmt_value(v)}" for k, v in changes.items()),
                 *(f"{k}={_fmt_value(v)}" for k, v in values.items())]
        try:
            rules = bases[preset].replace(**changes, **values)
            if "players" not in values and "players" not in changes:
                parts.append(f"players={rules.players}")
            if show["policy"]:
                parts.append(f"policy={_spec_text(policy) or 'random'}")
            if show["forget"]:
                parts.append(f"forget={_spec_text(forget) or '0'}")
            if show["swap"]:
                parts.append(f"swap={swap or 'none'}")
            seats = Seats.build(rules.players, policy, forget)
            configs.append(Config(rules, seats, swap, swap_seat, " ".join(parts),
                                  preset=preset if rules_file is None else None))
        except (RulesError, SimulationError, SweepError) as exc:
            raise SweepError(f"configuration '{' '.join(parts)}': {exc}") from None
    return configs


def _int_list(values, what: str, low: int | None = None) -> list[int]:
    if isinstance(values, str):
        values = [v for v in _split_top(values)]
    elif isinstance(values, int | np.integer) and not isinstance(values, bool):
        values = [values]
    out = []
    for v in values:
        try:
            if isinstance(v, bool) or (isinstance(v, float) and not v.is_integer()):
                raise ValueError
            if isinstance(v, str) and not v.isascii():
                raise ValueError  # int() reads other scripts' digits; a count is ASCII
            n = int(v)
        except (TypeError, ValueError):
            raise SweepError(f"{what} {v!r} is not allowed; allowed: integers, "
                             "e.g. 2,3,4") from None
        if low is not None and n < low:
            raise SweepError(f"{what} {v!r} is not allowed; allowed: integers ≥ {low}")
        out.append(n)
    if not out:
        raise SweepError(f"{what}: no values; allowed: integers, e.g. 2,3,4")
    return out


def expand_grid(preset: str | None = "standard", rules_file=None, overrides: Iterable[str] = (),
                vary: Iterable[str] = (), players=(), policies=(), forget=(), match=None,
                swap=None, swap_seat: int | None = None) -> list[Config]:
    """The configurations of a command-line grid, in order, validated, without duplicates.

    ``overrides`` are ``field=value`` strings (``--set``); ``vary`` are ``field=v1,v2,…``
    strings (a rules field, or ``policy``/``forget``/``swap`` for all seats); ``players`` a
    list of ints (or ``"2,3"``); ``policies``/``forget`` one seat assignment as accepted by
    ``Seats.build`` (``"all=expert"``, ``["all=expert", "1=random"]``, a mapping; a varied
    ``policy``/``forget`` replaces its ``all=`` entry); ``match`` one match format or several
    (``"single,deals:5"`` or a list: varied); ``swap`` a rank name.
    The product runs over the ``vary`` fields in order, then players, then match (the last
    varies fastest). Raises :class:`RulesError` for a bad preset or rules file and
    :class:`SweepError` for anything else, naming the configuration.
    """
    if isinstance(overrides, str):
        overrides = [overrides]
    if isinstance(vary, str):
        vary = [vary]
    players_given = players is not None and (isinstance(players, int | str) or len(players))
    # the one "given twice" rule of every command (RulesError names the field and both sources)
    settings(overrides, [("players", players if players_given else None,
                          f"--players {_option_text(players)}"),
                         ("match", match, f"--match {_option_text(match)}")])
    changes: dict = settings(overrides)
    dims = [parse_vary(v) for v in vary]
    seat_values = {n: v for n, v in dims if n in _SEAT_DIMS}
    dims = [(n, v) for n, v in dims if n not in _SEAT_DIMS]
    if players_given:
        dims.append(("players", _int_list(players, "players")))
    if match is not None:
        matches = _split_top(match) if isinstance(match, str) else list(match)
        if not matches or any(m in ("", None) for m in matches):
            raise SweepError(f"match {match!r}: empty value; allowed: single, deals:N, "
                             "elimination:T, best_of:N")
        if len(matches) > 1:
            dims.append(("match", matches))
        else:
            changes["match"] = matches[0]
    policy_spec = _seat_spec(policies if policies else None, "policy")
    forget_spec = _seat_spec(forget if forget else None, "forget")
    for dim, spec in (("policy", policy_spec), ("forget", forget_spec)):
        varied_all = any(not is_seat_assignment(v) for v in seat_values.get(dim, ()))
        if varied_all and any(p.startswith("all=") for p in spec or []):
            raise SweepError(f"{dim}: all seats are both given (--{dim} all=…) and varied")
    if "swap" in seat_values and swap is not None:
        raise SweepError("swap is both given and varied; give it once")
    explicit = [name for name, given in (("policy", policy_spec), ("forget", forget_spec),
                                         ("swap", swap is not None)) if given]
    configs = _expand([preset], rules_file, changes, dims,
                      _dim_specs(seat_values.get("policy"), policy_spec),
                      _dim_specs(seat_values.get("forget"), forget_spec),
                      seat_values.get("swap", [checked_by(check_swap_rank, swap)]), swap_seat, None,
                      explicit)
    return dedupe_configs(configs)


def _option_text(value) -> str:
    """A command-line value as the user typed it (a list as its comma form)."""
    if isinstance(value, str | int):
        return str(value)
    return ",".join(map(str, value or ()))


def _dim_specs(varied, fixed):
    """Seat assignments of a dimension: one per varied value. A varied all-seat value comes
    first, the fixed seats' entries after it; a varied one-seat value (``0=random``) comes
    after the fixed entries, replacing that seat's."""
    if varied is None:
        return [fixed]
    out = []
    for v in varied:
        if is_seat_assignment(v):
            seat = v.partition("=")[0]
            out.append([*(p for p in fixed or [] if p.partition("=")[0] != seat), v])
        else:
            out.append([f"all={v}", *(p for p in fixed or [] if not p.startswith("all="))])
    return out


# --- sweep files ---------------------------------------------------------------------------------

_RUN_KEYS = ("games", "precision", "seed", "chunk_size", "max_games")
_GRID_KEYS = ("preset", "rules", "set", "vary", "players", "policy", "forget", "match", "swap",
              "swap_seat", "label")


SWEEP_FILE_HELP = """\
A sweep file is TOML. Run settings (command-line options win over them):
    games = 1_000_000 | precision = 0.005, seed, chunk_size, max_games
Grid keys, at the top level (one grid) or in several [[grid]] tables (a [[grid]] key replaces
the top-level key of the same name):
    preset = "standard" | ["standard", "seed001"]      (a list is varied)
    rules = "house.toml"                              (relative to the sweep file)
    set = { draw_limit = 1 }                          (fixed overrides)
    vary = { stacking = [false, true], draw_limit = [0, 1, 3] }
    players = [2, 3, 4, 5]
    policy = "expert" | { all = "expert", 1 = "random" } | ["random", "expert"] (varied)
    forget = 0.1 | { all = 0.1 } | [0.0, 0.2] (varied)
    match = "single" | ["single", "elimination:100"]  (varied)
    swap = "8" | ["none", "8", "A"] (varied), swap_seat = 0, label = "house"
"""


def _file_error(path, message: str) -> SweepError:
    return SweepError(f"sweep file {path}: {message}")


def _grid_from_table(grid: Mapping, folder: Path, where: str) -> list[Config]:
    presets = grid.get("preset", "standard")
    presets = [presets] if isinstance(presets, str) else presets
    if not isinstance(presets, list) or not presets or not all(isinstance(p, str) for p in presets):
        raise SweepError(f"{where}preset must be a name or a list of names")
    rules_file = grid.get("rules")
    if rules_file is not None:
        if not isinstance(rules_file, str):
            raise SweepError(f"{where}rules must be a file name")
        rules_file = folder / rules_file
        if "preset" not in grid:
            presets = [None]
    changes = grid.get("set", {})
    if not isinstance(changes, Mapping):
        raise SweepError(f"{where}set must be a table, e.g. set = {{ draw_limit = 1 }}")
    for name in changes:
        if name not in _RULE_FIELDS:
            raise SweepError(f"{where}set: unknown field {name!r}; allowed: "
                             f"{', '.join(_RULE_FIELDS)}")
    vary = grid.get("vary", {})
    if not isinstance(vary, Mapping):
        raise SweepError(f"{where}vary must be a table, e.g. vary = {{ stacking = [false, true] }}")
    dims: list[tuple[str, list]] = []
    seat_values: dict[str, list] = {}
    for name, values in vary.items():
        if name not in _RULE_FIELDS and name not in _SEAT_DIMS:
            raise SweepError(f"{where}{_unknown_dim(name)}")
        if not isinstance(values, list) or not values:
            raise SweepError(f"{where}vary.{name} must be a non-empty list of values")
        if name in _SEAT_DIMS:
            if name == "swap":
                values = [checked_by(check_swap_rank, v) for v in values]
            elif name == "forget":
                values = [checked_by(check_probability, v, where=f"{where}vary.forget: ")
                          for v in values]
            seat_values[name] = values
        else:
            dims.append((name, values))
    explicit = []
    if "players" in grid:
        if "players" in vary:
            raise SweepError(f"{where}players is both given and varied; give it once")
        dims.append(("players", _int_list(grid["players"], f"{where}players")))
    if "match" in grid:
        matches = grid["match"] if isinstance(grid["match"], list) else [grid["match"]]
        if not matches:
            raise SweepError(f"{where}match: empty list")
        if "match" in vary or "match" in changes:
            other = "vary.match" if "match" in vary else "set.match"
            raise SweepError(f"{where}{given_twice('match', other, 'match')}")
        dims.append(("match", matches))
        explicit.append("match")

    def specs(key, parse):
        if key in seat_values:
            if key in grid:
                raise SweepError(f"{where}{key} is both given and varied; give it once")
            return [[f"all={v}"] for v in seat_values[key]]
        if key not in grid:
            return [None]
        explicit.append(key)
        value = grid[key]
        if value == []:
            raise SweepError(f"{where}{key} = [] is not allowed; allowed: a value or a "
                             "non-empty list of values (varied)")
        if isinstance(value, list) and key != "swap":
            return [parse(v) for v in value]  # a list: one assignment per entry, varied
        return [parse(value)]

    policy_specs = specs("policy", lambda v: _seat_spec(v, f"{where}policy"))
    forget_specs = specs("forget", lambda v: _seat_spec(v, f"{where}forget"))
    if "swap" in seat_values:
        swaps = seat_values["swap"]
    else:
        raw = grid.get("swap")
        if raw == []:
            raise SweepError(f"{where}swap = [] is not allowed; allowed: a rank or a non-empty "
                             "list of ranks (varied)")
        swaps = [checked_by(check_swap_rank, v) for v in (raw if isinstance(raw, list) else [raw])]
        if raw is not None:
            explicit.append("swap")
    label = grid.get("label")
    if label is not None and not isinstance(label, str):
        raise SweepError(f"{where}label must be a string")
    return _expand(presets, rules_file, dict(changes), dims, policy_specs, forget_specs, swaps,
                   grid.get("swap_seat"), label, explicit)


def load_sweep_file(path) -> tuple[list[Config], dict]:
    """The configurations of a TOML sweep file (see :data:`SWEEP_FILE_HELP`) and its run
    settings (``games``/``precision``/``seed``/``chunk_size``/``max_games`` where given).
    Every problem raises :class:`SweepError` (or :class:`RulesError`) naming the file."""
    path = Path(path)
    try:
        text = read_text_file(path)  # a regular file within the size limit of user files
    except PathError as exc:
        raise SweepError(f"sweep file: {exc}") from None
    try:
        data = loads_toml(text)  # a nesting limit instead of a RecursionError
    except tomllib.TOMLDecodeError as exc:
        raise _file_error(path, f"invalid TOML: {' '.join(str(exc).split())}") from None
    known = (*_RUN_KEYS, *_GRID_KEYS, "grid")
    for key in data:
        if key not in known:
            import difflib

            close = difflib.get_close_matches(key, known, n=1)
            hint = f" (did you mean {close[0]!r}?)" if close else ""
            raise _file_error(path, f"unknown key {key!r}{hint}; known keys: {', '.join(known)}")
    settings = checked_run_settings({k: data[k] for k in _RUN_KEYS if k in data},
                                   f"sweep file {path}: ")
    defaults = {k: data[k] for k in _GRID_KEYS if k in data}
    grids = data.get("grid", [{}])
    if not isinstance(grids, list) or not grids or not all(isinstance(g, dict) for g in grids):
        raise _file_error(path, "grid must be one or more [[grid]] tables")
    configs: list[Config] = []
    for i, grid in enumerate(grids):
        where = f"sweep file {path}: " + (f"grid {i + 1}: " if "grid" in data else "")
        for key in grid:
            if key not in _GRID_KEYS:
                raise SweepError(f"{where}unknown key {key!r}; known grid keys: "
                                 f"{', '.join(_GRID_KEYS)}")
        try:
            configs += _grid_from_table(defaults | grid, path.parent, where)
        except RulesError as exc:
            raise SweepError(f"{where}{exc}") from None
        except SweepError as exc:
            message = str(exc)
            raise SweepError(message if message.startswith("sweep file") else where + message
                             ) from None
    return dedupe_configs(configs), settings


@dataclasses.dataclass(frozen=True)
class RunSettings:
    """How a sweep runs: ``games`` per configuration, or games up to the win-rate half-width
    ``precision`` (at most ``max_games``), from ``seed`` in chunks of ``chunk_size``."""

    games: int | None = None
    precision: float | None = None
    max_games: int | None = None
    seed: int = 0
    chunk_size: int = DEFAULT_CHUNK_SIZE

    def length(self) -> dict:
        """How long to run, as :func:`~vandatta_sim.sweep.run_sweep` takes it."""
        return {"games": self.games, "precision": self.precision, "max_games": self.max_games}


def merge_run_settings(from_file: Mapping, **given) -> RunSettings:
    """A sweep file's run settings (:func:`load_sweep_file`) under those given on the command
    line (``games``, ``precision``, ``seed``, ``chunk_size``, ``max_games``; None: not given).

    A setting given replaces the file's; since ``games`` and ``precision`` both say how long to
    run, either one given drops the file's other. Given together they are an error."""
    unknown = set(given) - set(_RUN_KEYS)
    if unknown:
        raise SweepError(f"unknown run setting(s) {', '.join(sorted(unknown))}; "
                         f"allowed: {', '.join(_RUN_KEYS)}")
    given = {name: value for name, value in given.items() if value is not None}
    if "games" in given and "precision" in given:
        raise SweepError("give --games or --precision, not both")
    settings = dict(from_file)
    for name, other in (("games", "precision"), ("precision", "games")):
        if name in given:
            settings.pop(other, None)
    return RunSettings(**(settings | given))
