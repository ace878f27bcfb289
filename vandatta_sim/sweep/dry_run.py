"""The dry-run plan: what :func:`~.run.run_sweep` would run, without running anything.

Per configuration: games wanted (estimated for a precision target), stored and still to run.
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np
import pandas as pd

from ..stats import games_for_half_width, win_rate_half_width
from ..store import Store
from .config import (DEFAULT_CHUNK_SIZE, DEFAULT_MAX_GAMES, DEFAULT_STORE, Config, _as_store,
                     _dedupe, check_run_settings)


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
