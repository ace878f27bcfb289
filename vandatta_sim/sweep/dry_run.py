"""The dry-run plan: what :func:`~.run.run_sweep` would run, without running anything.

Per configuration: games wanted (estimated for a precision target), stored and still to run
(for a precision target: played, counting the whole last chunk, which the run cuts at the
stopping game); and an estimate of the time the games to run take, from a short timed
calibration run.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from ..stats import games_for_half_width
from ..store import Store
from .config import (DEFAULT_CHUNK_SIZE, DEFAULT_MAX_GAMES, DEFAULT_STORE, Config, as_store,
                     check_run_settings, dedupe_configs)
from .run import scan_to_target


def _precision_estimate(store: Store, key: str, players: int, stored: dict[int, int],
                        precision: float, chunk_size: int, max_games: int) -> tuple[int, int]:
    """Games a precision run will keep and games it will have played by then (whole chunks:
    the last one is cut after it is played). Exact where the stored chunks already hold the
    stopping game (the rule of :func:`.run.scan_to_target`), else estimated from the stored win
    rates (or, with nothing stored, from rates of 1/players and a förhand advantage)."""
    wins, n, c = np.zeros(players, np.int64), 0, 0
    while c in stored and n < max_games:
        need = min(chunk_size, max_games - c * chunk_size)
        winner = store.read_column(key, c, "winner")[:need]
        kept, after, half_width = scan_to_target(wins, n, winner, precision)
        if half_width <= precision:
            return n + kept, n + kept
        if len(winner) < need:
            break  # a chunk cut short by a run with a wider target: played again in full
        wins, n, c = after, n + kept, c + 1
    if n >= max_games:
        return max_games, max_games
    if n:
        p = np.clip(wins / n, 1e-3, 1 - 1e-3)
    else:
        p = np.full(players, 1 / players)
        p[0] = min(0.5, 1.5 / players)  # förhand usually wins a little more
    wanted = min(max(int(np.max(games_for_half_width(p, precision))), n + 1), max_games)
    return wanted, min(-(-wanted // chunk_size) * chunk_size, max_games)


def _games_to_run(wanted: int, chunk_size: int, stored: dict[int, int]) -> int:
    """Games of the ``wanted`` still to run: all of them less those of the complete chunks
    stored. Arithmetic over the stored chunks only, so 10^15 games are planned at once."""
    chunks = -(-wanted // chunk_size)
    done = 0
    for c, rows in stored.items():
        need = min(chunk_size, wanted - c * chunk_size)
        if 0 <= c < chunks and rows >= need:
            done += need
    return wanted - done


def plan(configs: Iterable[Config], *, games=None, precision=None, seed=0,
         chunk_size=DEFAULT_CHUNK_SIZE, store=DEFAULT_STORE, max_games=None) -> pd.DataFrame:
    """What :func:`run_sweep` would do, without running anything: per configuration its key,
    label, games (or an estimate for a precision target), games stored and games to run."""
    configs = dedupe_configs(configs)
    if precision is not None and max_games is None:
        max_games = DEFAULT_MAX_GAMES
    if games is not None or precision is not None:
        check_run_settings(games, precision, seed, chunk_size, max_games)
    store = as_store(store)
    rows = []
    for config in configs:
        key = config.key(seed, chunk_size)
        stored = store.chunk_rows(key)
        wanted = played = None if games is None else int(games)
        if precision is not None:
            wanted, played = _precision_estimate(store, key, config.rules.players, stored,
                                                 precision, chunk_size, int(max_games))
        todo = None if played is None else _games_to_run(played, chunk_size, stored)
        rows.append({"key": key, "label": config.label, "players": config.rules.players,
                     "policies": config.seats.describe(), "match": config.rules.match,
                     "swap": config.swap, "games": wanted, "estimated": precision is not None,
                     "stored": sum(stored.values()), "to_run": todo})
    return pd.DataFrame(rows)


# --- the time estimate ---------------------------------------------------------------------------

#: Games timed per configuration for the estimate, and the most seconds spent timing them:
#: configurations beyond the budget take the mean time per game of those timed.
CALIBRATION_GAMES = 2000
CALIBRATION_BUDGET_S = 10.0


@dataclass(frozen=True)
class TimeEstimate:
    """Seconds the games still to run would take on this machine, from a timed calibration."""

    seconds: float
    timed: int  # configurations timed
    configs: int  # configurations with games to run
    games_each: int
    threads: int

    def text(self) -> str:
        timed = (f"{self.games_each:,} games of each configuration" if self.timed == self.configs
                 else f"{self.games_each:,} games of each of {self.timed:,} of the "
                      f"{self.configs:,} configurations (the others at their mean time per game)")
        return (f"estimated time ≈ {format_seconds(self.seconds)} on {self.threads} thread(s) "
                f"of this machine, engine only: an estimate from timing {timed}")


def format_seconds(seconds: float) -> str:
    if seconds < 60:
        return f"{seconds:.0f} s" if seconds >= 1 else "under 1 s"
    minutes = seconds / 60
    if minutes < 60:
        return f"{minutes:.0f} min"
    return f"{minutes / 60:.1f} h"


def estimate_time(configs: Sequence[Config], to_run: Sequence, threads: int | None = None,
                  games: int = CALIBRATION_GAMES,
                  budget_s: float = CALIBRATION_BUDGET_S) -> TimeEstimate | None:
    """Time ``games`` games of each configuration with games to run (``to_run``, per
    configuration, in order) until ``budget_s`` is spent, and scale to the games to run.
    None when nothing is to run. Game lengths differ a lot between rules (an ace_draw=3 deal can
    last a thousand turns), so every configuration is timed where the budget allows."""
    import numba

    from ..simulate import check_threads, simulate

    threads = check_threads(threads) or numba.get_num_threads()
    work = [(c, int(n)) for c, n in zip(dedupe_configs(configs), to_run) if n == n and n]
    if not work:
        return None
    per_game, spent = [], 0.0
    for config, _ in work:
        if per_game and spent >= budget_s:
            break
        run = dict(policies=config.seats, swap=config.swap, swap_seat=config.swap_seat,
                   threads=threads)
        simulate(config.rules, 8, seed=1, **run)  # compiles on a first run: not timed
        start = time.perf_counter()
        simulate(config.rules, games, seed=1, **run)
        elapsed = time.perf_counter() - start
        spent += elapsed
        per_game.append(elapsed / games)
    mean = sum(per_game) / len(per_game)
    seconds = sum(n * (per_game[i] if i < len(per_game) else mean)
                  for i, (_, n) in enumerate(work))
    return TimeEstimate(seconds, len(per_game), len(work), games, threads)
