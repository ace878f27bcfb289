"""Sweeps: grids of configurations, run chunk by chunk into the result store.

A sweep is a list of :class:`Config` (rules, seat settings, swap experiment). Its work items are
(configuration, chunk) pairs: chunk ``c`` of a configuration holds games ``c·k … c·k+k-1`` of
the run with the sweep's seed (``k`` = chunk size), which is exactly
``simulate(..., games=k, first_game=c·k)`` because game ``i`` depends only on ``(seed, i)``.
Every chunk is one Parquet file under the configuration's key in a :class:`~.store.Store`
(written to a temporary name and renamed into place), so

* resuming is listing what exists: a stored chunk is never computed again, and a sweep
  interrupted by Ctrl-C, ``kill -9`` or a full disk computes only the missing chunks when it is
  run again, ending with the same files as an uninterrupted run;
* the stored bytes depend only on (configuration, seed, chunk size, chunk index), never on the
  backend, the order the chunks were computed in, or the number of threads or processes.

The last chunk of a fixed ``games`` count may be partial (``games`` need not be a multiple of
the chunk size); a later, longer run replaces it by the full chunk (same first rows).

Backends
--------
``"local"`` (the default) runs one chunk at a time through :func:`~.simulate.simulate` on all
threads: the engine parallelises inside a chunk, so no server is needed. While the engine
plays chunk ``c+1`` a background thread writes chunk ``c`` (the kernel releases the GIL).

``"dask-local"`` starts a Dask ``LocalCluster`` on this machine; ``"tcp://HOST:PORT"`` (any
address with ``://``) uses an existing Dask distributed cluster. Workers *compute and return*
each chunk's DataFrame and this process writes it: workers on other machines need not see the
store's folder, there is a single writer (no two processes ever race on a file or on the
provenance), and the bytes come from the same :meth:`Store.write_chunk` call as in the local
backend, hence are identical. A chunk of 100,000 games is about 3 MB in transit, small next
to its engine time. Tasks are submitted with ``retries=2`` and the scheduler reschedules the tasks
of a worker that dies, so a killed worker's chunk is computed again elsewhere.

Precision target
----------------
With ``precision=H`` each configuration plays chunks in order until the 95% Wilson half-width
of every seat's win rate, over all games so far, is at most ``H`` (or ``max_games`` is reached,
which is recorded as not reaching the target). The decision is taken after each whole chunk, on
the chunks ``0 … n`` in order, so the number of chunks, and the store, do not depend on the
backend: chunks a Dask cluster computed speculatively beyond the stopping point are discarded.
"""

from __future__ import annotations

import dataclasses
import hashlib
import importlib.metadata
import itertools
import json
import math
import os
import shlex
import sys
import tempfile
import threading
import time
import tomllib
from collections import deque
from collections.abc import Iterable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

import numpy as np
import pandas as pd

from . import ENGINE_VERSION, __version__
from .rules import PRESETS, Rules, RulesError, get_preset, parse_override, resolve_rules
from .simulate import (Seats, SimulationError, check_count, check_probability,
                       check_swap_rank, check_swap_seat, check_threads, simulate)
from .stats import (Estimate, Moments, games_for_half_width, proportion, ratio_of_sums,
                    win_rate_half_width)
from .store import Store
from .tables import format_table as _table


DEFAULT_CHUNK_SIZE = 100_000
DEFAULT_MAX_GAMES = 10**8
DEFAULT_STORE = "results"
MAX_CHUNK_SIZE = 10_000_000
#: Temporary files older than this are left by a dead writer and removed when a sweep starts.
STALE_TEMP_SECONDS = 600

_RULE_FIELDS = tuple(f.name for f in dataclasses.fields(Rules))
#: Grid dimensions that are not rule fields: all seats' policy / forget probability, swap rank.
_SEAT_DIMS = ("policy", "forget", "swap")


class SweepError(ValueError):
    """A bad sweep (grid, sweep file, run settings, backend); the message is one line."""


# --- configurations ------------------------------------------------------------------------------


def _checked(check, *args, where: str = ""):
    """``check(*args)``: a validator of :mod:`~.simulate`, its error a SweepError after ``where``."""
    try:
        return check(*args)
    except SimulationError as exc:
        raise SweepError(f"{where}{exc}") from None


@dataclass(frozen=True)
class Config:
    """One configuration of a sweep: rules, per-seat settings and an optional swap experiment.

    ``label`` is for people (tables, provenance) and ``preset`` records the preset the rules
    were built from; neither is part of :meth:`key`.
    """

    rules: Rules
    seats: Seats
    swap: str | None = None
    swap_seat: int | None = None
    label: str = ""
    preset: str | None = field(default=None, compare=False)

    def __post_init__(self) -> None:
        if not isinstance(self.rules, Rules):
            raise SweepError(f"config: rules must be a Rules, got {type(self.rules).__name__}")
        if not isinstance(self.seats, Seats):
            raise SweepError(f"config: seats must be a Seats, got {type(self.seats).__name__}")
        if len(self.seats.policies) != self.rules.players:
            raise SweepError(f"config: {len(self.seats.policies)} seats for "
                             f"{self.rules.players} players")
        object.__setattr__(self, "swap", _checked(check_swap_rank, self.swap))
        object.__setattr__(self, "swap_seat",
                           _checked(check_swap_seat, self.swap_seat, self.rules.players))
        if not self.label:
            object.__setattr__(self, "label", f"players={self.rules.players} "
                                              f"policy={self.seats.describe()}")

    def identity(self) -> dict:
        """Everything that decides the games (JSON-able), apart from seed and chunking."""
        return {"rules": self.rules.canonical(), "policies": list(self.seats.policies),
                "forget": [float(f) for f in self.seats.forget], "swap": self.swap,
                "swap_seat": self.swap_seat}

    def key(self, seed: int, chunk_size: int = DEFAULT_CHUNK_SIZE) -> str:
        """16 hex digits naming this configuration's games with ``seed`` in chunks of
        ``chunk_size`` (sha256 of the canonical JSON, including the engine version)."""
        data = self.identity() | {"seed": int(seed), "chunk_size": int(chunk_size),
                                  "engine_version": ENGINE_VERSION}
        text = json.dumps(data, sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


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
        return name, [_checked(check_swap_rank, p) for p in parts]
    if name == "forget":
        return name, [_checked(check_probability, p, where=f"vary {text!r}: ") for p in parts]
    return name, parts


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
            out.append(part if "=" in part else f"all={part}")
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


def _dedupe(configs: Iterable[Config]) -> list[Config]:
    seen, out = set(), []
    for config in configs:
        ident = json.dumps(config.identity(), sort_keys=True)
        if ident not in seen:
            seen.add(ident)
            out.append(config)
    return out


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
    changes: dict = {}
    for text in overrides:
        name, value = parse_override(text)  # RulesError names the field
        changes[name] = value
    dims = [parse_vary(v) for v in vary]
    seat_values = {n: v for n, v in dims if n in _SEAT_DIMS}
    dims = [(n, v) for n, v in dims if n not in _SEAT_DIMS]
    if players is not None and (isinstance(players, int | str) or len(players)):
        dims.append(("players", _int_list(players, "players")))
    if match is not None:
        matches = _split_top(match) if isinstance(match, str) else list(match)
        if not matches or any(m in ("", None) for m in matches):
            raise SweepError(f"match {match!r}: empty value; allowed: single, deals:N, "
                             "elimination:T, best_of:N")
        if "match" in changes:
            raise SweepError("match is given twice (--set match=… and --match); give it once")
        if len(matches) > 1:
            dims.append(("match", matches))
        else:
            changes["match"] = matches[0]
    policy_spec = _seat_spec(policies if policies else None, "policy")
    forget_spec = _seat_spec(forget if forget else None, "forget")
    if "policy" in seat_values and any(p.startswith("all=") for p in policy_spec or []):
        raise SweepError("policy: all seats are both given (--policy all=…) and varied")
    if "forget" in seat_values and any(p.startswith("all=") for p in forget_spec or []):
        raise SweepError("forget: all seats are both given (--forget all=…) and varied")
    if "swap" in seat_values and swap is not None:
        raise SweepError("swap is both given and varied; give it once")
    explicit = [name for name, given in (("policy", policy_spec), ("forget", forget_spec),
                                         ("swap", swap is not None)) if given]
    configs = _expand([preset], rules_file, changes, dims,
                      _dim_specs(seat_values.get("policy"), policy_spec),
                      _dim_specs(seat_values.get("forget"), forget_spec),
                      seat_values.get("swap", [_checked(check_swap_rank, swap)]), swap_seat, None,
                      explicit)
    return _dedupe(configs)


def _dim_specs(varied, fixed):
    """Seat assignments of a dimension: one per varied all-seat value, fixed entries after."""
    if varied is None:
        return [fixed]
    rest = [p for p in (fixed or []) if not p.startswith("all=")]
    return [[f"all={v}", *rest] for v in varied]


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


def _check_run_settings(settings: Mapping, where: str) -> dict:
    out = {}
    for name, value in settings.items():
        if name == "precision":
            ok = (isinstance(value, int | float) and not isinstance(value, bool)
                  and 0 < value <= 0.5)
            if not ok:
                raise SweepError(f"{where}precision = {value!r} is not allowed; allowed: "
                                 "a half-width 0 < H ≤ 0.5")
            out[name] = float(value)
        else:
            low = 0 if name == "seed" else 1
            high = MAX_CHUNK_SIZE if name == "chunk_size" else None
            out[name] = _checked(check_count, value, f"{where}{name}", low, high)
    if "games" in out and "precision" in out:
        raise SweepError(f"{where}give games or precision, not both")
    return out


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
                values = [_checked(check_swap_rank, v) for v in values]
            elif name == "forget":
                values = [_checked(check_probability, v, where=f"{where}vary.forget: ")
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
            raise SweepError(f"{where}match is given twice; give it once")
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
        if isinstance(value, list) and key != "swap":
            return [parse(v) for v in value]  # a list: one assignment per entry, varied
        return [parse(value)]

    policy_specs = specs("policy", lambda v: _seat_spec(v, f"{where}policy"))
    forget_specs = specs("forget", lambda v: _seat_spec(v, f"{where}forget"))
    if "swap" in seat_values:
        swaps = seat_values["swap"]
    else:
        raw = grid.get("swap")
        swaps = [_checked(check_swap_rank, v) for v in (raw if isinstance(raw, list) else [raw])]
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
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise _file_error(path, "cannot read: not UTF-8 text") from None
    except OSError as exc:
        raise _file_error(path, f"cannot read: {exc.strerror or exc}") from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise _file_error(path, f"invalid TOML: {' '.join(str(exc).split())}") from None
    known = (*_RUN_KEYS, *_GRID_KEYS, "grid")
    for key in data:
        if key not in known:
            import difflib

            close = difflib.get_close_matches(key, known, n=1)
            hint = f" (did you mean {close[0]!r}?)" if close else ""
            raise _file_error(path, f"unknown key {key!r}{hint}; known keys: {', '.join(known)}")
    settings = _check_run_settings({k: data[k] for k in _RUN_KEYS if k in data},
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
    return _dedupe(configs), settings


# --- running -------------------------------------------------------------------------------------


def _as_store(store) -> Store:
    return store if isinstance(store, Store) else Store(store)


def _versions(extra: Iterable[str] = ()) -> dict:
    out = {"python": sys.version.split()[0]}
    for name in ("numpy", "numba", "pandas", "pyarrow", "scipy", "click", *extra):
        try:
            out[name] = importlib.metadata.version(name)
        except importlib.metadata.PackageNotFoundError:
            pass
    return out


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


@dataclass(eq=False)
class _Job:
    """One configuration's state during a run."""

    index: int
    config: Config
    key: str
    limit: int                     # games wanted (fixed) or the max_games cap (precision)
    chunk_size: int
    precision: float | None
    rows: dict[int, int]           # stored chunk → rows
    todo: deque = field(default_factory=deque)
    inflight: set = field(default_factory=set)
    buffer: dict = field(default_factory=dict)
    prefix: int = 0                # precision: chunks 0 … prefix-1 counted
    games: int = 0                 # precision: games in those chunks
    wins: np.ndarray | None = None
    half_width: float = math.inf
    target_reached: bool | None = None
    done: bool = False
    new_games: int = 0
    summaries: dict = field(default_factory=dict)  # chunk → _Summary of the chunks written now

    @property
    def n_chunks(self) -> int:
        return -(-self.limit // self.chunk_size)

    def need(self, c: int) -> int:
        return min(self.chunk_size, self.limit - c * self.chunk_size)

    def complete(self, c: int) -> bool:
        return self.rows.get(c, 0) >= self.need(c)

    def estimate(self) -> int | None:
        """Games this configuration will have when it stops (None before any data)."""
        if self.precision is None:
            return self.limit
        if self.done:
            return self.games
        if not self.games:
            return None
        p = np.clip(self.wins / self.games, 1e-3, 1 - 1e-3)
        needed = int(np.max(games_for_half_width(p, self.precision)))
        return min(max(needed, self.games + 1), self.limit)

    def next_chunk(self, lookahead: int) -> int | None:
        if self.done:
            return None
        if self.precision is None:
            return self.todo.popleft() if self.todo else None
        estimate = self.estimate()
        if estimate is not None and lookahead > 1:
            ahead = max(1, min(lookahead, -(-estimate // self.chunk_size) - self.prefix))
        else:
            ahead = 1
        for c in range(self.prefix, min(self.prefix + ahead, self.n_chunks)):
            if not self.complete(c) and c not in self.inflight and c not in self.buffer:
                return c
        return None


class _Writer:
    """Summarises and writes chunks on one background thread, one chunk behind the engine
    (the engine releases the GIL, so this overlaps with the next chunk's games)."""

    def __init__(self, store: Store):
        self.store = store
        self._pool = ThreadPoolExecutor(1, thread_name_prefix="vandatta-writer")
        self._pending = None

    def _work(self, job: _Job, index: int, df: pd.DataFrame) -> _Summary:
        summary = _Summary.of(df, job.config.rules.players)
        self.store.write_chunk(job.key, index, df)
        return summary

    def write(self, job: _Job, index: int, df: pd.DataFrame) -> None:
        self.wait()
        self._pending = (job, index, self._pool.submit(self._work, job, index, df))

    def wait(self) -> None:
        pending, self._pending = self._pending, None
        if pending is not None:
            job, index, future = pending
            job.summaries[index] = future.result()

    def close(self) -> None:
        try:
            self.wait()
        finally:
            self._pool.shutdown(wait=True)


class _LocalExecutor:
    """Runs queued chunks one at a time in this process, with all engine threads."""

    capacity = 1
    name = "local"

    def __init__(self, seed: int, threads: int | None):
        self.seed, self.threads = seed, threads
        self._queue: deque = deque()

    def submit(self, job: _Job, c: int) -> None:
        self._queue.append((job, c))

    def busy(self) -> int:
        return len(self._queue)

    def next(self):
        job, c = self._queue.popleft()
        df = simulate(job.config.rules, job.need(c), seed=self.seed, policies=job.config.seats,
                      first_game=c * job.chunk_size, threads=self.threads, swap=job.config.swap,
                      swap_seat=job.config.swap_seat)
        return job, c, df

    def discard(self, job: _Job) -> None:
        pass

    def close(self) -> None:
        pass


_ENGINE_LOCK = threading.Lock()


def _simulate_chunk(config: Config, seed: int, first_game: int, games: int,
                    threads: int | None):
    """A chunk computed on a Dask worker: (engine version, DataFrame).

    One chunk at a time per worker process: the engine is parallel inside a chunk, and numba's
    default threading layer must not be entered from two threads at once."""
    with _ENGINE_LOCK:
        df = simulate(config.rules, games, seed=seed, policies=config.seats,
                      first_game=first_game, threads=threads, swap=config.swap,
                      swap_seat=config.swap_seat)
    return ENGINE_VERSION, df


def _import_distributed():
    try:
        import distributed
    except ImportError:
        raise SweepError("the Dask backends need dask.distributed, which is not installed; "
                         "install it with: pip install 'vandatta-sim[dask]'") from None
    return distributed


def check_backend(backend) -> str:
    """``local``, ``dask-local`` or a scheduler address (``tcp://HOST:PORT``); SweepError
    otherwise or when dask is missing for a Dask backend."""
    if backend is None or backend == "local":
        return "local"
    if not isinstance(backend, str):
        if hasattr(backend, "submit") and hasattr(backend, "nthreads"):
            return "dask-client"  # a distributed.Client given by a Python caller
        raise SweepError(f"backend {backend!r} is not allowed; allowed: local, dask-local "
                         "or a scheduler address tcp://HOST:PORT")
    if backend != "dask-local" and "://" not in backend:
        raise SweepError(f"backend {backend!r} is not allowed; allowed: local, dask-local or a "
                         "scheduler address such as tcp://HOST:PORT")
    _import_distributed()
    return backend


class _DaskExecutor:
    """Submits chunks to a Dask cluster; workers return DataFrames, this process writes them."""

    def __init__(self, backend, seed: int, threads: int | None):
        distributed = _import_distributed()
        self.seed = seed
        self._cluster = None
        self._own_client = True
        if backend == "dask-local":
            import logging

            cores = os.cpu_count() or 1
            per_chunk = threads or max(1, cores // min(cores, 8))
            workers = max(1, cores // per_chunk)
            self._cluster = distributed.LocalCluster(
                n_workers=workers, threads_per_worker=1, processes=True,
                # no dashboard, and its HTTP server on a free port rather than 8787
                dashboard_address=None, scheduler_kwargs={"dashboard_address": ":0"},
                silence_logs=logging.ERROR)
            self.threads = per_chunk
            self.client = distributed.Client(self._cluster)
            self.name = f"dask-local ({workers} workers × {per_chunk} threads)"
        elif isinstance(backend, str):
            try:
                # the connect timeout is dask's (distributed.comm.timeouts.connect, 30 s)
                self.client = distributed.Client(backend)
            except (OSError, TimeoutError) as exc:
                raise SweepError(f"cannot connect to the Dask scheduler at {backend}: "
                                 f"{' '.join(str(exc).split()) or type(exc).__name__}") from None
            self.threads = threads
            self.name = f"dask {backend}"
        else:
            self.client, self._own_client = backend, False
            self.threads = threads
            self.name = "dask client"
        total = sum(self.client.nthreads().values()) or 1
        self.capacity = max(2, 2 * total)
        self._distributed = distributed
        self._ac = distributed.as_completed()
        self._futures: dict = {}

    def submit(self, job: _Job, c: int) -> None:
        fut = self.client.submit(_simulate_chunk, job.config, self.seed, c * job.chunk_size,
                                 job.need(c), self.threads, key=f"vandatta-{job.key}-{c:06d}",
                                 retries=2, pure=False)
        self._futures[fut.key] = (fut, job, c)
        self._ac.add(fut)

    def busy(self) -> int:
        return len(self._futures)

    def next(self):
        while True:
            fut = next(self._ac)
            entry = self._futures.pop(fut.key, None)
            if entry is None:
                continue  # discarded
            _, job, c = entry
            try:
                version, df = fut.result()
            except self._distributed.client.FutureCancelledError:
                raise RuntimeError(f"chunk {c} of {job.key} was cancelled by the cluster") from None
            except Exception as exc:  # KilledWorker after repeated deaths, or the task's error
                raise RuntimeError(f"chunk {c} of {job.key} failed on the cluster: "
                                   f"{type(exc).__name__}: {' '.join(str(exc).split())}") from exc
            if version != ENGINE_VERSION:
                raise RuntimeError(f"a Dask worker runs engine version {version}, this process "
                                   f"{ENGINE_VERSION}; install the same vandatta-sim everywhere")
            return job, c, df

    def discard(self, job: _Job) -> None:
        for key, (fut, j, _) in list(self._futures.items()):
            if j is job:
                del self._futures[key]
                fut.cancel()

    def close(self) -> None:
        for fut, _, _ in self._futures.values():
            fut.cancel()
        self._futures.clear()
        if self._own_client:
            self.client.close()
        if self._cluster is not None:
            self._cluster.close()


class _Progress:
    """A one-line progress display on stderr: games done, games per second, time left."""

    def __init__(self, enabled: bool, n_configs: int, stream=None):
        self.enabled = enabled
        self.stream = stream or sys.stderr
        self.n_configs = n_configs
        self.done = 0
        self.start = time.perf_counter()
        self._last = 0.0
        self._width = 0

    def update(self, games: int, total: int | None, configs_done: int, force=False) -> None:
        self.done += games
        if not self.enabled:
            return
        now = time.perf_counter()
        if not force and now - self._last < 0.2:
            return
        self._last = now
        elapsed = max(now - self.start, 1e-9)
        rate = self.done / elapsed
        text = f"{self.done:,}"
        if total:
            text += f"/{total:,} games {100 * self.done / total:5.1f}%"
        else:
            text += " games"
        text += f"  {rate:,.0f} games/s"
        if total and rate > 0 and total > self.done:
            text += f"  {_duration((total - self.done) / rate)} left"
        text += f"  configs {configs_done}/{self.n_configs}"
        self.stream.write("\r" + text.ljust(self._width))
        self.stream.flush()
        self._width = len(text)

    def close(self) -> None:
        if self.enabled and self._width:
            self.stream.write("\n")
            self.stream.flush()


def _duration(seconds: float) -> str:
    seconds = int(round(seconds))
    if seconds >= 3600:
        return f"{seconds // 3600}h{seconds % 3600 // 60:02d}m"
    return f"{seconds // 60}m{seconds % 60:02d}s" if seconds >= 60 else f"{seconds}s"


def check_run_settings(games=None, precision=None, seed=0, chunk_size=DEFAULT_CHUNK_SIZE,
                       max_games=None, threads=None) -> None:
    """SweepError for bad run settings (the checks run_sweep does before any work)."""
    if (games is None) == (precision is None):
        raise SweepError("give either games (a fixed count per configuration) or precision "
                         "(a win-rate half-width), not both or neither")
    settings = {"seed": seed, "chunk_size": chunk_size}
    if games is not None:
        settings["games"] = games
    if precision is not None:
        settings["precision"] = precision
    if max_games is not None:
        if precision is None:
            raise SweepError("max_games applies only with precision; with games the count is "
                             "fixed")
        settings["max_games"] = max_games
    _check_run_settings({k: (int(v) if isinstance(v, np.integer) else v)
                         for k, v in settings.items()}, "")
    _checked(check_threads, threads)


def _provenance(config: Config, key: str, seed: int, chunk_size: int, command: str,
                backend: str, versions: dict) -> dict:
    preset = config.preset
    if preset is None:
        preset = next((n for n, r in PRESETS.items() if r == config.rules), None)
    diff = None
    if preset in PRESETS:
        diff = {k: (list(v) if isinstance(v, tuple) else v)
                for k, v in config.rules.diff(get_preset(preset)).items()}
    return {
        "key": key, "label": config.label, "rules": config.rules.canonical(),
        "rules_key": config.rules.key(), "rules_preset": preset, "rules_diff": diff,
        "players": config.rules.players, "policies": list(config.seats.policies),
        "forget": [float(f) for f in config.seats.forget], "match": config.rules.match,
        "swap": config.swap, "swap_seat": config.swap_seat, "seed": seed,
        "chunk_size": chunk_size, "engine_version": ENGINE_VERSION,
        "simulator_version": __version__, "packages": versions, "command": command,
        "backend": backend,
    }


def _start_provenance(store: Store, job: _Job, seed: int, command: str, backend: str,
                      versions: dict, settings: dict) -> None:
    fresh = _provenance(job.config, job.key, seed, job.chunk_size, command, backend, versions)
    try:
        old = store.read_provenance(job.key)
    except KeyError:
        old = {}
    run = {"command": command, "backend": backend, "started": _now()} | settings
    runs = (old.get("runs") or [])[-19:] + [run]
    stored = sum(job.rows.values())
    store.write_provenance(job.key, old | fresh | {
        "created": old.get("created", _now()), "runs": runs, "games_stored": stored,
        "chunks_stored": len(job.rows)})


def _finish_provenance(store: Store, job: _Job, interrupted: bool) -> None:
    prov = store.read_provenance(job.key)
    runs = prov.get("runs") or [{}]
    games = job.games if job.precision is not None else (
        job.limit if all(job.complete(c) for c in range(job.n_chunks)) else None)
    runs[-1] = runs[-1] | {"finished": _now(), "interrupted": interrupted,
                           "new_games": job.new_games, "games": games}
    rows = store.chunk_rows(job.key)  # what is really there, whatever failed
    fields = {"runs": runs, "games_stored": sum(rows.values()), "chunks_stored": len(rows),
              "updated": _now()}
    if job.precision is not None and not interrupted:
        fields["precision"] = {"target": job.precision, "reached": job.half_width,
                               "target_reached": job.target_reached, "games": job.games,
                               "max_games": job.limit}
    store.update_provenance(job.key, **fields)


def _add_wins(job: _Job, winner: np.ndarray) -> None:
    winner = winner[winner >= 0].astype(np.int64)
    job.wins += np.bincount(winner, minlength=job.config.rules.players)[: len(job.wins)]


def _advance(job: _Job, store: Store, writer: _Writer) -> None:
    """Precision: count the next chunks in order while they are at hand, stop when done."""
    while not job.done:
        c = job.prefix
        if c in job.buffer:
            df = job.buffer.pop(c)
            writer.write(job, c, df)
            job.rows[c] = len(df)
            job.new_games += len(df)
            _add_wins(job, df["winner"].to_numpy())
        elif job.complete(c) and c not in job.inflight:
            _add_wins(job, store.read_column(job.key, c, "winner")[: job.need(c)])
        else:
            return
        job.prefix += 1
        job.games += job.need(c)
        widths = np.asarray(win_rate_half_width(job.wins, job.games), dtype=np.float64)
        job.half_width = float(widths.max())
        if job.half_width <= job.precision:
            job.done, job.target_reached = True, True
        elif job.games >= job.limit:
            job.done, job.target_reached = True, False
    job.buffer.clear()


def _accept(job: _Job, c: int, df: pd.DataFrame, store: Store, writer: _Writer) -> None:
    job.inflight.discard(c)
    if job.precision is None:
        writer.write(job, c, df)
        job.rows[c] = len(df)
        job.new_games += len(df)
        job.done = not job.todo and not job.inflight
    elif not job.done:  # a chunk beyond the stopping point is dropped
        job.buffer[c] = df
        _advance(job, store, writer)


def run_sweep(configs: Iterable[Config], *, games: int | None = None,
              precision: float | None = None, seed: int = 0,
              chunk_size: int = DEFAULT_CHUNK_SIZE, store=DEFAULT_STORE, backend="local",
              threads: int | None = None, progress: bool | None = None, command: str = "",
              max_games: int | None = None) -> pd.DataFrame:
    """Run every configuration for ``games`` games (or to win-rate half-width ``precision``)
    into ``store`` and return one summary row per configuration (see :func:`summarize`).

    Chunks already stored are not computed again. ``backend``: ``"local"``, ``"dask-local"``
    or a Dask scheduler address. ``threads``: engine threads per chunk (local: default all;
    Dask: default one per worker process for dask-local, all the worker's cores otherwise).
    ``progress``: show the progress line on stderr (default: when stderr is a terminal).
    All settings are checked before anything is written (:class:`SweepError`).
    """
    configs = _dedupe(configs)
    if not configs:
        raise SweepError("the sweep has no configurations")
    if precision is not None and max_games is None:
        max_games = DEFAULT_MAX_GAMES
    check_run_settings(games, precision, seed, chunk_size, max_games, threads)
    kind = check_backend(backend)
    seed, chunk_size = int(seed), int(chunk_size)
    store = _as_store(store)
    command = command or shlex.join([Path(sys.argv[0]).name, *sys.argv[1:]])
    limit = int(games) if games is not None else int(max_games)

    jobs = []
    for i, config in enumerate(configs):
        key = config.key(seed, chunk_size)
        job = _Job(i, config, key, limit, chunk_size, precision, store.chunk_rows(key))
        if precision is None:
            job.todo.extend(c for c in range(job.n_chunks) if not job.complete(c))
            job.done = not job.todo
        else:
            job.wins = np.zeros(config.rules.players, np.int64)
        jobs.append(job)

    versions = _versions(("dask", "distributed") if kind != "local" else ())
    settings = ({"games": games} if precision is None else
                {"precision": precision, "max_games": max_games}) | {"threads": threads}
    # a Dask scheduler that cannot be reached is a SweepError here, before anything is written
    executor = (_LocalExecutor(seed, threads) if kind == "local"
                else _DaskExecutor(backend, seed, threads))
    writer = _Writer(store)
    show = sys.stderr.isatty() if progress is None else bool(progress)
    bar = _Progress(show, len(jobs))
    interrupted = True
    started = []
    try:
        for job in jobs:
            store.clean_stale_temp(job.key, STALE_TEMP_SECONDS)
            _start_provenance(store, job, seed, command, executor.name, versions, settings)
            started.append(job)
            if precision is not None:
                _advance(job, store, writer)  # count what is stored already; maybe done
        fixed_total = sum(job.need(c) for job in jobs for c in job.todo)

        def total() -> int | None:
            if precision is None:
                return fixed_total
            estimates = [job.estimate() for job in jobs]
            if any(e is None for e in estimates):
                return None
            return bar.done + sum(max(0, e - job.games) for e, job in zip(estimates, jobs))

        cursor = 0

        def fill() -> None:
            nonlocal cursor
            while executor.busy() < executor.capacity:
                for step in range(len(jobs)):
                    job = jobs[(cursor + step) % len(jobs)]
                    c = job.next_chunk(executor.capacity)
                    if c is not None:
                        job.inflight.add(c)
                        executor.submit(job, c)
                        cursor = (cursor + step + 1) % len(jobs)
                        break
                else:
                    return

        fill()
        while executor.busy():
            job, c, df = executor.next()
            _accept(job, c, df, store, writer)
            if job.done:
                executor.discard(job)
                job.inflight.clear()
            bar.update(len(df), total(), sum(j.done for j in jobs))
            fill()
        writer.close()
        interrupted = False
    finally:
        try:
            writer.close()
        finally:
            executor.close()
            bar.close()
            for job in started:
                try:
                    _finish_provenance(store, job, interrupted)
                except OSError:
                    if not interrupted:
                        raise
    rows = []
    for job in jobs:
        row = {"key": job.key, "label": job.config.label} | _job_summary(store, job).result()
        row |= {"new_games": job.new_games, "precision_target": precision,
                "target_reached": job.target_reached}
        rows.append(row)
    return pd.DataFrame(rows)


def _summary_columns(players: int) -> list[str]:
    return ["winner", "turns", "blocked", "deals", *[f"points_{s}" for s in range(players)]]


def _job_summary(store: Store, job: _Job) -> _Summary:
    """The games this run asked for, merged in chunk order: chunks computed now from memory,
    the others from their stored columns."""
    players = job.config.rules.players
    used = job.prefix if job.precision is not None else job.n_chunks
    total = _Summary(players)
    for c in range(used):
        part = job.summaries.get(c)
        if part is None:
            df = store.load_chunks(job.key, [c], _summary_columns(players))
            part = _Summary.of(df.iloc[: job.need(c)], players)
        total = total.merge(part)
    return total


def _load_prefix(store: Store, key: str, chunk_size: int, games: int | None,
                 columns=None) -> pd.DataFrame:
    """The first ``games`` games of ``key`` (all contiguous stored games when None)."""
    rows = store.chunk_rows(key)
    if not rows:
        store.load(key)  # raises MissingKeyError naming the key
    chunks, have = [], 0
    c = 0
    while c in rows and (games is None or have < games):
        chunks.append(c)
        have += rows[c]
        if rows[c] < chunk_size:
            break  # a partial last chunk ends the contiguous games
        c += 1
    if games is not None and have < games:
        raise SweepError(f"key {key}: only {have:,} of {games:,} games are stored; "
                         "run the sweep to compute the rest")
    df = store.load_chunks(key, chunks, columns)
    if games is not None and len(df) > games:
        df = df.iloc[:games].reset_index(drop=True)
    return df


def stored_summary(key: str, store=DEFAULT_STORE) -> dict:
    """:func:`summarize` of all games stored for ``key`` (from game 0 on), read chunk by chunk
    so that memory stays at one chunk."""
    store = _as_store(store)
    provenance = store.read_provenance(key)
    players, chunk_size = int(provenance["players"]), int(provenance["chunk_size"])
    rows = store.chunk_rows(key)
    total = _Summary(players)
    c = 0
    while c in rows:
        df = store.load_chunks(key, [c], _summary_columns(players))
        total = total.merge(_Summary.of(df, players))
        if rows[c] < chunk_size:
            break
        c += 1
    return total.result()


def load_config_games(config: Config, seed: int, chunk_size: int = DEFAULT_CHUNK_SIZE,
                      store=DEFAULT_STORE, columns: list[str] | None = None,
                      games: int | None = None) -> pd.DataFrame:
    """A configuration's stored games as a DataFrame, in game order (one row per game, the
    columns of :func:`~.simulate.simulate`). ``games``: only the first ``games`` games
    (SweepError if fewer are stored); default all games stored from game 0 on."""
    return _load_prefix(_as_store(store), config.key(seed, chunk_size), chunk_size, games,
                        columns)


# --- summaries -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Summary:
    """Sufficient statistics of some games of one configuration: computed per chunk (while the
    chunk is in memory, or from its stored columns) and merged in chunk order."""

    players: int
    n: int = 0
    wins: tuple[int, ...] = ()
    turns: Moments = Moments()
    loser_points: Moments = Moments()
    blocked: tuple[int, int, int, int, int] = (0, 0, 0, 0, 0)  # Σb, Σd, Σb², Σbd, Σd²
    single_deals: bool = True

    @classmethod
    def of(cls, df: pd.DataFrame, players: int) -> _Summary:
        n = len(df)
        winner = df["winner"].to_numpy().astype(np.int64)
        wins = np.bincount(winner[winner >= 0], minlength=players)[:players]
        total = np.zeros(n, np.int64)
        winner_points = np.zeros(n, np.int64)
        for s in range(players):
            points = df[f"points_{s}"].to_numpy()
            total += points
            winner_points = np.where(winner == s, points, winner_points)
        losers = players - (winner >= 0)
        b = df["blocked"].to_numpy().astype(np.int64)
        d = df["deals"].to_numpy().astype(np.int64)
        return cls(players, n, tuple(int(w) for w in wins),
                   Moments.of(df["turns"].to_numpy(np.float64)),
                   Moments.of((total - winner_points) / losers),
                   (int(b.sum()), int(d.sum()), int(b @ b), int(b @ d), int(d @ d)),
                   bool(np.all(d == 1)))

    def merge(self, other: _Summary) -> _Summary:
        if not other.n:
            return self
        if not self.n:
            return other
        return _Summary(self.players, self.n + other.n,
                        tuple(a + b for a, b in zip(self.wins, other.wins)),
                        self.turns.merge(other.turns),
                        self.loser_points.merge(other.loser_points),
                        tuple(a + b for a, b in zip(self.blocked, other.blocked)),
                        self.single_deals and other.single_deals)

    def blocked_share(self, confidence: float = 0.95) -> Estimate:
        """Blocked deals / deals played: Wilson for single deals (or none blocked), else the
        delta-method interval of a ratio of sums over independent matches."""
        B, D = self.blocked[:2]
        if self.n and D and (self.single_deals or B == 0 or self.n < 2):
            return proportion(B, D, confidence)
        return ratio_of_sums(self.blocked, self.n, confidence)

    def result(self) -> dict:
        """The summary row (see :func:`summarize`)."""
        out: dict = {"players": self.players, "games": self.n}

        def put(name, est: Estimate):
            out[name], out[f"{name}_low"], out[f"{name}_high"] = est.value, est.low, est.high

        wins = np.array(self.wins or (0,) * self.players, np.int64)
        put("win_rate_0", proportion(int(wins[0]), self.n))
        put("mean_turns", self.turns.estimate())
        put("blocked_share", self.blocked_share())
        put("loser_points", self.loser_points.estimate())
        widths = np.asarray(win_rate_half_width(wins, self.n), dtype=np.float64)
        out["half_width"] = float(widths.max())
        out["win_rates"] = [float(w / self.n) if self.n else float("nan") for w in wins]
        return out


def summarize(df: pd.DataFrame, players: int) -> dict:
    """Summary of a configuration's games, each with its 95% interval:

    ``win_rate_0`` (seat 0 = förhand of the first deal; Wilson), ``mean_turns``,
    ``blocked_share`` (blocked deals / deals played), ``loser_points`` (per game, the mean
    points of the players who did not win), each with ``_low``/``_high``; ``half_width``, the
    largest win-rate half-width over all seats; ``win_rates``, every seat's win rate."""
    return _Summary.of(df, players).result()


def format_table(summary: pd.DataFrame) -> str:
    """The configurations side by side: games, förhand (seat 0) win rate, mean turns, blocked
    share and mean loser points, each with its 95% interval, and the largest 95% half-width of
    any seat's win rate (what ``--precision`` bounds)."""
    def est(row, name, digits, percent=False):
        e = Estimate(row[name], row[f"{name}_low"], row[f"{name}_high"], int(row["games"]))
        if not np.isfinite(e.value):
            return "–"
        if not (np.isfinite(e.low) and np.isfinite(e.high)):
            return f"{100 * e.value:.{digits}f}%" if percent else f"{e.value:.{digits}f}"
        return e.format(digits + 2, percent=True) if percent else e.format(digits)

    header = ["key", "configuration", "games", "förhand wins", "mean turns", "blocked",
              "loser points", "win ±"]
    lines = [[row["key"], row["label"], f"{int(row['games']):,}",
              est(row, "win_rate_0", 1, True), est(row, "mean_turns", 2),
              est(row, "blocked_share", 2, True), est(row, "loser_points", 1),
              f"{100 * row['half_width']:.2f}%" if np.isfinite(row["half_width"]) else "–"]
             for _, row in summary.iterrows()]
    return _table(header, lines, "llrllllr", style="text")


def _jsonable(value):
    if isinstance(value, float | np.floating):
        return float(value) if math.isfinite(value) else None
    if isinstance(value, np.integer):
        return int(value)
    if isinstance(value, np.bool_):
        return bool(value)
    if isinstance(value, dict):
        return {k: _jsonable(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_jsonable(v) for v in value]
    if value is pd.NA:
        return None
    return value


def summary_records(summary: pd.DataFrame) -> list[dict]:
    """The summary rows as JSON-able dicts (NaN and infinity as None)."""
    return [_jsonable(row) for row in summary.to_dict(orient="records")]


# --- planning (dry run) --------------------------------------------------------------------------


def _precision_estimate(store: Store, key: str, players: int, stored: dict[int, int],
                        precision: float, chunk_size: int, max_games: int) -> int:
    """Games a precision run will end with: exact where the stored chunks already reach the
    target, else estimated from the stored win rates (or, with nothing stored, from rates of
    1/players and a förhand advantage)."""
    wins, n, c = np.zeros(players, np.int64), 0, 0
    while stored.get(c, 0) >= min(chunk_size, max_games - c * chunk_size) and n < max_games:
        need = min(chunk_size, max_games - c * chunk_size)
        winner = store.read_column(key, c, "winner")[:need]
        wins += np.bincount(winner[winner >= 0].astype(np.int64), minlength=players)[:players]
        n += need
        c += 1
        if np.max(win_rate_half_width(wins, n)) <= precision:
            return n
    if n:
        p = np.clip(wins / n, 1e-3, 1 - 1e-3)
    else:
        p = np.full(players, 1 / players)
        p[0] = min(0.5, 1.5 / players)  # förhand usually wins a little more
    wanted = max(int(np.max(games_for_half_width(p, precision))), n + 1)
    return min(-(-wanted // chunk_size) * chunk_size, max_games)


def plan(configs: Iterable[Config], *, games=None, precision=None, seed=0,
         chunk_size=DEFAULT_CHUNK_SIZE, store=DEFAULT_STORE, max_games=None) -> pd.DataFrame:
    """What :func:`run_sweep` would do, without running anything: per configuration its key,
    label, games (or an estimate for a precision target), games stored and games to run."""
    configs = _dedupe(configs)
    if precision is not None and max_games is None:
        max_games = DEFAULT_MAX_GAMES
    if games is not None or precision is not None:
        check_run_settings(games, precision, seed, chunk_size, max_games)
    store = _as_store(store)
    rows = []
    for config in configs:
        key = config.key(seed, chunk_size)
        stored = store.chunk_rows(key)
        if games is not None:
            wanted = int(games)
        elif precision is not None:
            wanted = _precision_estimate(store, key, config.rules.players, stored, precision,
                                         chunk_size, int(max_games))
        else:
            wanted = None
        if wanted is None:
            todo = None
        else:
            todo = sum(min(chunk_size, wanted - c * chunk_size)
                       for c in range(-(-wanted // chunk_size))
                       if stored.get(c, 0) < min(chunk_size, wanted - c * chunk_size))
        rows.append({"key": key, "label": config.label, "players": config.rules.players,
                     "policies": config.seats.describe(), "match": config.rules.match,
                     "swap": config.swap, "games": wanted, "estimated": precision is not None,
                     "stored": sum(stored.values()), "to_run": todo})
    return pd.DataFrame(rows)


# --- overhead ------------------------------------------------------------------------------------


def bench_configs(single_deals: bool = False) -> list[Config]:
    """The four configurations of the overhead benchmark, shaped like the issue's example
    sweep: the standard preset (its elimination:100 matches), expert players, stacking off/on
    × 3 and 4 players. ``single_deals``: the same as single deals, the worst case for the
    overhead (the engine plays a game ~10× faster, the storage cost per game is the same)."""
    return expand_grid("standard", overrides=["match=single"] if single_deals else (),
                       vary=["stacking=false,true"], players=[3, 4], policies=["all=expert"])


def overhead_figures(games: int = 10_000_000, configs: Sequence[Config] | None = None,
                     chunk_size: int = DEFAULT_CHUNK_SIZE, threads: int | None = None,
                     seed: int = 12345, store=None, single_deals: bool = False) -> dict:
    """Time the engine alone and the sweep with storage on the same games, in one run.

    ``games`` in total, split evenly over ``configs`` (default :func:`bench_configs`). For each
    configuration in turn, the engine figure is ``simulate`` over its chunks with the results
    discarded, and the sweep figure is :func:`run_sweep` of that configuration into an empty
    store (a temporary folder unless ``store`` is given), provenance and summary included.
    Alternating the two per configuration keeps drifting machine load from favouring either.
    ``overhead`` = sweep time / engine time − 1 (wall clock); ``cpu_overhead`` is the same
    ratio of this process's CPU time (all threads), which other programs' load hardly moves:
    on a busy machine it is the steadier figure of the work the sweep adds."""
    import shutil

    configs = list(configs or bench_configs(single_deals))
    per_config = max(1, games // len(configs))
    folder = Path(store) if store is not None else Path(tempfile.mkdtemp(prefix="vandatta-bench-"))
    try:
        # warm up: the engine's cache, pyarrow's writer and the store's folders
        run_sweep(configs, games=2_000, seed=seed + 1, chunk_size=1_000, store=folder / "warm",
                  threads=threads, progress=False, command="overhead warm-up")
        engine = sweep = engine_cpu = sweep_cpu = 0.0
        for config in configs:
            start, cpu = time.perf_counter(), time.process_time()
            for c in range(-(-per_config // chunk_size)):
                simulate(config.rules, min(chunk_size, per_config - c * chunk_size), seed=seed,
                         policies=config.seats, first_game=c * chunk_size, threads=threads,
                         swap=config.swap, swap_seat=config.swap_seat)
            engine += time.perf_counter() - start
            engine_cpu += time.process_time() - cpu
            start, cpu = time.perf_counter(), time.process_time()
            run_sweep([config], games=per_config, seed=seed, chunk_size=chunk_size,
                      store=folder / "sweep", threads=threads, progress=False,
                      command="overhead benchmark")
            sweep += time.perf_counter() - start
            sweep_cpu += time.process_time() - cpu
    finally:
        if store is None:
            shutil.rmtree(folder, ignore_errors=True)
    total = per_config * len(configs)
    return {"games": total, "configs": len(configs), "chunk_size": chunk_size,
            "engine_seconds": engine, "sweep_seconds": sweep,
            "engine_rate": total / engine, "sweep_rate": total / sweep,
            "overhead": sweep / engine - 1, "engine_cpu_seconds": engine_cpu,
            "sweep_cpu_seconds": sweep_cpu, "cpu_overhead": sweep_cpu / engine_cpu - 1}


def measure_overhead(games: int | None = None, quick: bool = False, **kwargs) -> str:
    """:func:`overhead_figures` as one line of text (``quick``: 1 million games instead of
    10 million; ``single_deals=True`` for the worst case)."""
    if games is None:
        games = 1_000_000 if quick else 10_000_000
    f = overhead_figures(games, **kwargs)
    what = "single deals" if kwargs.get("single_deals") else "games"
    return (f"sweep overhead: {f['games']:,} {what} over {f['configs']} configurations in "
            f"chunks of {f['chunk_size']:,}: engine alone {f['engine_seconds']:.1f} s "
            f"({f['engine_rate']:,.0f}/s), sweep with storage {f['sweep_seconds']:.1f} s "
            f"({f['sweep_rate']:,.0f}/s): overhead {100 * f['overhead']:+.1f}% wall clock, "
            f"{100 * f['cpu_overhead']:+.1f}% CPU time (target ≤ 15%)")


__all__ = ["Config", "SweepError", "expand_grid", "parse_vary", "load_sweep_file", "run_sweep",
           "load_config_games", "stored_summary", "summarize", "format_table",
           "summary_records", "plan",
           "check_backend", "check_run_settings", "measure_overhead", "overhead_figures",
           "bench_configs", "DEFAULT_CHUNK_SIZE", "DEFAULT_MAX_GAMES", "SWEEP_FILE_HELP"]
