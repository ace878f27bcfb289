"""Running configurations for the reports: through the sweep store, or directly.

:class:`Runner` runs a batch of configurations with one seed and game count. By default it
goes through the sweep layer (:mod:`vandatta_sim.sweep`: stored, resumable, reused across
reports); ``use_sweep=False`` calls :func:`vandatta_sim.simulate.simulate` directly. Both give
the same per-game table for the same ``(config, seed, game)``.
"""

from __future__ import annotations

from collections.abc import Sequence

import pandas as pd

from ..rules import Rules
from ..simulate import Seats, simulate
from ..sweep import Config, load_config_games, run_sweep


def make_config(rules: Rules, policies="expert", forget=None, swap: str | None = None,
                swap_seat: int | None = None, label: str = "", valuation=None) -> Config:
    """A :class:`Config` with per-seat ``policies`` (a name for all seats, or a list)."""
    return Config(rules=rules, seats=Seats.build(rules.players, policies, forget), swap=swap,
                  swap_seat=swap_seat, label=label, valuation=valuation)


def phase_of(configs: Sequence[Config]) -> str:
    """What a batch plays, for the progress line: players, scale, deals or matches."""
    rules = configs[0].rules
    scale = rules.scale if isinstance(rules.scale, str) else "custom scale"
    what = "deals" if rules.match_kind == "single" else f"matches ({rules.match})"
    return f"{rules.players} players, {scale}, {len(configs)} runs of {what}"


class Runner:
    """Runs batches of configurations: through the sweep store, or directly.

    ``run(configs, games, seed)`` returns one per-game DataFrame per configuration, rows
    ``game = 0 … games-1`` in order. ``games_played`` counts the games requested (a stored
    game counts too), for the scripts' logs. ``record``: what the stored runs say about
    themselves (:func:`~vandatta_sim.sweep.run_sweep`'s ``record``), by default that a report
    made them.
    """

    def __init__(self, store: str = "results", threads: int | None = None,
                 use_sweep: bool = True, command: str = "", progress=None,
                 record: dict | None = None, feel: bool = False):
        self.store = store
        self.record = {"kind": "report"} | (record or {})
        self.threads = threads
        self.use_sweep = bool(use_sweep)
        self.command = command
        self.progress = progress
        self.games_played = 0
        self.feel = feel  # the runs also record the game feel (a slower kernel)

    def run(self, configs: Sequence[Config], games: int, seed: int) -> list[pd.DataFrame]:
        configs = list(configs)
        if not configs:
            return []
        self.games_played += games * len(configs)
        if self.use_sweep:
            run_sweep(configs, games=games, seed=seed, store=self.store, threads=self.threads,
                      progress=self.progress, command=self.command,
                      record=self.record, phase=phase_of(configs), feel=self.feel)
            return [load_config_games(config, seed, store=self.store, games=games)
                    for config in configs]
        return [simulate(c.rules, games, seed, policies=c.seats, swap=c.swap,
                         swap_seat=c.swap_seat, threads=self.threads, valuation=c.valuation,
                         feel=self.feel)
                for c in configs]

    def one(self, config: Config, games: int, seed: int) -> pd.DataFrame:
        return self.run([config], games, seed)[0]
