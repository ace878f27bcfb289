"""Sweep configurations and run settings, with the sweep layer's defaults and its error type.

A :class:`Config` is keyed by what decides its games; the run settings (games or precision,
seed, chunk size, cap, threads) are checked here before any work.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

from .. import ENGINE_VERSION
from ..rules import Rules, RulesError
from ..simulate import (Seats, SimulationError, check_count, check_swap_rank, check_swap_seat,
                        check_threads)

if TYPE_CHECKING:
    from ..store import Store


DEFAULT_CHUNK_SIZE = 100_000
DEFAULT_MAX_GAMES = 10**8
DEFAULT_STORE = "results"
MAX_CHUNK_SIZE = 10_000_000
#: A configuration's games are game indices 0 … games - 1 (cli.paramtypes.MAX_SWEEP_GAMES):
#: games and max_games, from a file or an option, stay within them.
MAX_SWEEP_GAMES = 2**62
#: Temporary files older than this are left by a dead writer and removed when a sweep starts.
STALE_TEMP_SECONDS = 600


class SweepError(ValueError):
    """A bad sweep (grid, sweep file, run settings, backend); the message is one line."""


def checked_by(check, *args, where: str = ""):
    """``check(*args)``, a validator of :mod:`vandatta_sim.simulate`, its error re-raised as a
    SweepError after ``where``."""
    try:
        return check(*args)
    except SimulationError as exc:
        raise SweepError(f"{where}{exc}") from None


@dataclass(frozen=True)
class Config:
    """One configuration of a sweep: rules, per-seat settings and an optional swap experiment.

    ``label`` is for people (tables, provenance) and ``preset`` records the preset the rules
    were built from; neither is part of :meth:`key`. ``valuation`` is the scale the policies
    weigh as penalty risk (:func:`vandatta_sim.simulate.simulate`); None, or the rules' own
    scale, is the default and leaves the key as it was before valuations existed.
    """

    rules: Rules
    seats: Seats
    swap: str | None = None
    swap_seat: int | None = None
    label: str = ""
    preset: str | None = field(default=None, compare=False)
    valuation: str | tuple[int, ...] | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.rules, Rules):
            raise SweepError(f"config: rules must be a Rules, got {type(self.rules).__name__}")
        if not isinstance(self.seats, Seats):
            raise SweepError(f"config: seats must be a Seats, got {type(self.seats).__name__}")
        if len(self.seats.policies) != self.rules.players:
            raise SweepError(f"config: {len(self.seats.policies)} seats for "
                             f"{self.rules.players} players")
        object.__setattr__(self, "swap", checked_by(check_swap_rank, self.swap))
        object.__setattr__(self, "swap_seat",
                           checked_by(check_swap_seat, self.swap_seat, self.rules.players))
        object.__setattr__(self, "valuation", _checked_valuation(self.rules, self.valuation))
        if not self.label:
            object.__setattr__(self, "label", f"players={self.rules.players} "
                                              f"policy={self.seats.describe()}")

    def identity(self) -> dict:
        """Everything that decides the games (JSON-able), apart from seed and chunking."""
        out = {"rules": self.rules.games_canonical(), "policies": list(self.seats.policies),
               "forget": [float(f) for f in self.seats.forget], "swap": self.swap,
               "swap_seat": self.swap_seat}
        if self.valuation is not None:  # absent by default: the keys stored before stay valid
            out["valuation"] = (list(self.valuation) if isinstance(self.valuation, tuple)
                                else self.valuation)
        return out

    def key(self, seed: int, chunk_size: int = DEFAULT_CHUNK_SIZE) -> str:
        """16 hex digits naming this configuration's games with ``seed`` in chunks of
        ``chunk_size`` (sha256 of the canonical JSON, including the engine version)."""
        data = self.identity() | {"seed": int(seed), "chunk_size": int(chunk_size),
                                  "engine_version": ENGINE_VERSION}
        text = json.dumps(data, sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def _checked_valuation(rules: Rules, valuation):
    """A valuation in its normal form (a scale name or 14 points), or None where it is the
    rules' own scale (the same games, so the same key)."""
    if valuation is None:
        return None
    try:
        scale = rules.replace(scale=valuation).scale
    except RulesError as exc:
        raise SweepError(str(exc).replace("scale", "valuation", 1)) from None
    return None if scale == rules.scale else scale


def dedupe_configs(configs: Iterable[Config]) -> list[Config]:
    seen, out = set(), []
    for config in configs:
        ident = json.dumps(config.identity(), sort_keys=True)
        if ident not in seen:
            seen.add(ident)
            out.append(config)
    return out


def as_store(store) -> Store:
    from ..store import Store  # here: the store loads pandas and pyarrow, a summary needs neither

    return store if isinstance(store, Store) else Store(store)


def checked_run_settings(settings: Mapping, where: str) -> dict:
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
            high = {"chunk_size": MAX_CHUNK_SIZE, "games": MAX_SWEEP_GAMES,
                    "max_games": MAX_SWEEP_GAMES}.get(name)
            out[name] = checked_by(check_count, value, f"{where}{name}", low, high)
    if "games" in out and "precision" in out:
        raise SweepError(f"{where}give games or precision, not both")
    return out


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
    checked_run_settings({k: (int(v) if isinstance(v, np.integer) else v)
                         for k, v in settings.items()}, "")
    checked_by(check_threads, threads)
