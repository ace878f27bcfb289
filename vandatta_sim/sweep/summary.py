"""Per-configuration summaries: statistics merged chunk by chunk, their table and records.

Sufficient statistics per chunk, the summary row with 95% intervals, the table and JSON
records of summary rows, and the stored games they are read from.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import pandas as pd

from ..stats import Estimate, Moments, proportion, ratio_of_sums, win_rate_half_width
from ..store import Store
from ..tables import format_table as _table
from .config import DEFAULT_CHUNK_SIZE, DEFAULT_STORE, Config, SweepError, _as_store


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


def _summary_columns(players: int) -> list[str]:
    return ["winner", "turns", "blocked", "deals", *[f"points_{s}" for s in range(players)]]


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
