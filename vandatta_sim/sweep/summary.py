"""Per-configuration summaries: statistics merged chunk by chunk, their table and records.

Sufficient statistics per chunk, the summary row with 95% intervals, the table and JSON
records of summary rows, and the stored games they are read from.
"""

from __future__ import annotations

import math
import sys
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from ..formatting import format_estimate, format_table
from ..stats import (Estimate, Moments, column_estimate, proportion, ratio_of_sums,
                     win_rate_half_width)
from .config import DEFAULT_CHUNK_SIZE, DEFAULT_STORE, Config, SweepError, as_store

if TYPE_CHECKING:  # a small simulate sums its games without pandas or the store (pyarrow)
    import pandas as pd

    from ..store import Store


@dataclass(frozen=True)
class SummaryStats:
    """Sufficient statistics of some games of one configuration: computed per chunk (while the
    chunk is in memory, or from its stored columns) and merged in chunk order. The one summary
    of a set of games: the sweep, ``results`` and ``simulate`` all use it."""

    players: int
    n: int = 0
    wins: tuple[int, ...] = ()
    turns: Moments = Moments()
    loser_points: Moments = Moments()
    blocked: tuple[int, int, int, int, int] = (0, 0, 0, 0, 0)  # Σb, Σd, Σb², Σbd, Σd²
    single_deals: bool = True
    capped: int = 0
    points: tuple[Moments, ...] = ()
    deals: Moments = Moments()
    # the game feel's measures (feel_values' names and their moments); empty where the games
    # have no feel columns (stored before they were recorded, or a run without them)
    feel_names: tuple[str, ...] = ()
    feel: tuple[Moments, ...] = ()

    @classmethod
    def of(cls, df: pd.DataFrame | Mapping[str, np.ndarray], players: int) -> SummaryStats:
        """The statistics of a game table: a DataFrame, or its columns by name."""
        winner = np.asarray(df["winner"]).astype(np.int64)
        n = len(winner)
        wins = np.bincount(winner[winner >= 0], minlength=players)[:players]
        points = tuple(Moments.of(np.asarray(df[f"points_{s}"], np.float64))
                       for s in range(players))
        b = np.asarray(df["blocked"]).astype(np.int64)
        d = np.asarray(df["deals"]).astype(np.int64)
        feel = feel_values(df, players)
        return cls(players, n, tuple(int(w) for w in wins),
                   Moments.of(np.asarray(df["turns"], np.float64)),
                   Moments.of(loser_points(df, players)),
                   (int(b.sum()), int(d.sum()), int(b @ b), int(b @ d), int(d @ d)),
                   bool(np.all(d == 1)), int(np.asarray(df["capped"]).sum()), points,
                   Moments.of(d.astype(np.float64)), tuple(feel),
                   tuple(Moments.of(v) for v in feel.values()))

    def merge(self, other: SummaryStats) -> SummaryStats:
        if not other.n:
            return self
        if not self.n:
            return other
        return SummaryStats(self.players, self.n + other.n,
                        tuple(a + b for a, b in zip(self.wins, other.wins)),
                        self.turns.merge(other.turns),
                        self.loser_points.merge(other.loser_points),
                        tuple(a + b for a, b in zip(self.blocked, other.blocked)),
                        self.single_deals and other.single_deals, self.capped + other.capped,
                        tuple(a.merge(b) for a, b in zip(self.points, other.points)),
                        self.deals.merge(other.deals),
                        # the feel only where every part has it (a chunk stored without the
                        # feel columns leaves the configuration without its measures)
                        *((self.feel_names, tuple(a.merge(b) for a, b in zip(
                            self.feel, other.feel))) if self.feel_names == other.feel_names
                          else ((), ())))

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
        for s in range(self.players):
            put(f"win_rate_{s}", proportion(int(wins[s]), self.n))
        put("mean_turns", self.turns.estimate())
        put("blocked_share", self.blocked_share())
        put("capped_share", proportion(self.capped, self.n))
        put("loser_points", self.loser_points.estimate())
        for s, moments in enumerate(self.points or (Moments(),) * self.players):
            put(f"mean_points_{s}", moments.estimate())
        put("mean_deals", self.deals.estimate())
        for name, moments in zip(self.feel_names, self.feel):
            put(name, moments.estimate())
        out["capped_games"] = self.capped
        widths = np.asarray(win_rate_half_width(wins, self.n), dtype=np.float64)
        out["half_width"] = float(widths.max())
        out["win_rates"] = [float(w / self.n) if self.n else float("nan") for w in wins]
        return out


def loser_points(df: pd.DataFrame | Mapping[str, np.ndarray], players: int) -> np.ndarray:
    """Per game, the mean points of the players who did not win (all of them in a game
    without a winner): the ``loser_points`` measure, one value per game."""
    winner = np.asarray(df["winner"]).astype(np.int64)
    total = np.zeros(len(winner), np.int64)
    winner_points = np.zeros(len(winner), np.int64)
    for s in range(players):
        seat_points = np.asarray(df[f"points_{s}"])
        total += seat_points
        winner_points = np.where(winner == s, seat_points, winner_points)
    return (total - winner_points) / (players - (winner >= 0))


#: The game feel's summary fields (docs/columns.md), each the mean over games of a per-game value
#: (:func:`feel_values`), so that its paired difference is the mean of per-game differences:
#: (field, decimals, shown as percent). Where matches are played, FEEL_MATCH_MEASURES too.
FEEL_MEASURES = (("lead_changes", 2, False), ("winner_behind", 2, False),
                 ("comeback_share", 1, True), ("decisiveness", 1, True),
                 ("choice_share", 1, True), ("mean_options", 2, False))
FEEL_MATCH_MEASURES = (("points_lead_changes", 2, False), ("points_behind", 1, False),
                       ("points_comeback_share", 1, True))


def feel_values(df: pd.DataFrame | Mapping[str, np.ndarray], players: int) -> dict[str, np.ndarray]:
    """Per game, the value whose mean is each game-feel field (empty without the feel columns):
    ``lead_changes`` per deal; over the deals someone won (0 in a game without one): the
    winner's worst lag in cards (``winner_behind``), the share won from last place
    (``comeback_share``), the share of their turns after which the winner led to the end
    (``decisiveness``); the share of turns with two or more options (``choice_share``) and the
    options a turn (``mean_options``), all seats and each seat (``_<s>``); in a match, its lead
    changes on points, its winner's worst lag on points and whether it was ever last on points
    (``points_comeback_share``)."""
    if "lead_changes" not in df:
        return {}

    def per(a, b):
        a, b = np.asarray(a, np.float64), np.asarray(b, np.float64)
        return np.divide(a, b, out=np.zeros(len(a)), where=b > 0)

    won = df["won_deals"]
    values = {"lead_changes": per(df["lead_changes"], df["deals"]),
              "winner_behind": per(df["behind"], won),
              "comeback_share": per(df["comebacks"], won),
              "decisiveness": per(df["decisive_turns"], df["won_turns"])}
    turns = [np.asarray(df[f"seat_turns_{s}"], np.int64) for s in range(players)]
    choices = [np.asarray(df[f"choice_turns_{s}"], np.int64) for s in range(players)]
    options = [np.asarray(df[f"options_{s}"], np.int64) for s in range(players)]
    values["choice_share"] = per(sum(choices), sum(turns))
    values["mean_options"] = per(sum(options), sum(turns))
    if "points_lead_changes" in df:
        winner = np.asarray(df["winner"])
        values |= {"points_lead_changes": np.asarray(df["points_lead_changes"], np.float64),
                   "points_behind": per(df["points_behind"], winner >= 0),
                   "points_comeback_share": np.asarray(df["points_comeback"], np.float64)}
    for s in range(players):
        values[f"choice_share_{s}"] = per(choices[s], turns[s])
        values[f"mean_options_{s}"] = per(options[s], turns[s])
    return values


def summarize(df: pd.DataFrame, players: int) -> dict:
    """Summary of a configuration's games, each with its 95% interval and ``_low``/``_high``
    (the fields are explained in docs/columns.md):

    ``win_rate_<s>`` (seat 0 = förhand of the first deal; Wilson), ``mean_turns``,
    ``blocked_share`` (blocked deals / deals played), ``capped_share`` (games that hit a cap /
    games), ``loser_points`` (per game, the mean points of the players who did not win),
    ``mean_points_<s>``, ``mean_deals``; ``capped_games``; ``half_width``, the largest
    win-rate half-width over all seats; ``win_rates``, every seat's win rate; where the games
    carry the feel columns, the game feel's fields (:func:`feel_values`)."""
    return SummaryStats.of(df, players).result()


#: The measures of the sweep table, in order: (summary field, decimals, shown as percent).
TABLE_MEASURES = (("win_rate_0", 1, True), ("mean_turns", 2, False),
                  ("blocked_share", 2, True), ("capped_share", 2, True),
                  ("loser_points", 1, False))


def estimate_cell(row, name: str, digits: int, percent: bool = False) -> str:
    """``row[name]`` with its ``_low``/``_high`` interval, as the tables show it
    (:func:`vandatta_sim.formatting.format_estimate`, a percentage or a plain number)."""
    return format_estimate(column_estimate(row, name, int(row["games"])),
                           "pct" if percent else "num", digits)


def has_matches(summary: pd.DataFrame) -> bool:
    """Whether any configuration plays matches of more than one deal."""
    return bool("mean_deals" in summary and (summary["mean_deals"].fillna(1) > 1).any())


def sweep_table(summary: pd.DataFrame) -> str:
    """The configurations side by side under the summary's field names (docs/columns.md):
    games, ``win_rate_0`` (förhand) beside the fair share (1 / players: every seat as likely
    to win), ``mean_turns``, ``blocked_share``, ``capped_share`` and ``loser_points``, each
    with its 95% interval, ``mean_deals`` (deals per match) where matches are played, and
    ``half_width``, the largest 95% half-width of any seat's win rate (what ``--precision``
    bounds)."""
    matches = has_matches(summary)
    header = ["key", "configuration", "games", "win_rate_0", "fair share",
              *(m for m, _, _ in TABLE_MEASURES[1:]), *(["mean_deals"] if matches else []),
              "half_width"]
    lines = [[row["key"], row["label"], f"{int(row['games']):,}",
              estimate_cell(row, *TABLE_MEASURES[0]), f"{100 / int(row['players']):.1f}%",
              *(estimate_cell(row, *m) for m in TABLE_MEASURES[1:]),
              *([estimate_cell(row, "mean_deals", 2)] if matches else []),
              f"{100 * row['half_width']:.2f}%" if np.isfinite(row["half_width"]) else "–"]
             for _, row in summary.iterrows()]
    align = "llrlr" + "l" * (len(TABLE_MEASURES) - 1 + matches) + "r"
    table = format_table(header, lines, align, style="text")
    feel = feel_table(summary)
    return table + ("\n\n" + feel if feel else "")


def feel_measures(summary: pd.DataFrame) -> tuple[tuple[str, int, bool], ...]:
    """The game-feel fields the summary holds for some configuration (none: an empty tuple)."""
    measures = FEEL_MEASURES + (FEEL_MATCH_MEASURES if has_matches(summary) else ())
    return tuple(m for m in measures if m[0] in summary and summary[m[0]].notna().any())


def feel_table(summary: pd.DataFrame) -> str:
    """The game feel side by side (docs/columns.md), each with its 95% interval; empty where
    no configuration has it. A configuration stored before the feel was recorded shows –."""
    measures = feel_measures(summary)
    if not measures:
        return ""
    lines = [[row["key"], row["label"], *(
        estimate_cell(row, *m) if m[0] in row and np.isfinite(row[m[0]]) else "–"
        for m in measures)] for _, row in summary.iterrows()]
    header = ["key", "configuration", *(m for m, _, _ in measures)]
    return "game feel:\n" + format_table(header, lines, "ll" + "l" * len(measures), style="text")


def capped_warning(rows: Iterable[Mapping]) -> str | None:
    """One line for stderr when any configuration (a summary row: ``summary.to_dict
    ("records")``) has capped games, else None: what the cap does to the means, so that
    nobody reads them as if every game had ended normally."""
    capped = [row for row in rows if row["capped_share"] > 0]  # NaN (no games) is not > 0
    if not capped:
        return None
    which = ", ".join(f"{row['label'] or row['key']}: {100 * row['capped_share']:.2f}%"
                      for row in capped)
    return (f"warning: capped games ({which}) stop at the cap with no winner: mean_turns is "
            "a lower bound on the true mean length, win rates count them as nobody's win, and "
            "their points are the hands held at the cap")


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
    pandas = sys.modules.get("pandas")  # where pandas is not loaded, no value is its NA
    if pandas is not None and value is pandas.NA:
        return None
    return value


def summary_records(summary: pd.DataFrame) -> list[dict]:
    """The summary rows as JSON-able dicts (NaN and infinity as None)."""
    return [_jsonable(row) for row in summary.to_dict(orient="records")]


def summary_columns(players: int, feel: tuple[str, ...] = ()) -> list[str]:
    """The stored columns a summary reads; ``feel``: the feel columns stored (see
    :func:`stored_feel_columns`)."""
    return ["winner", "turns", "blocked", "capped", "deals",
            *[f"points_{s}" for s in range(players)], *feel]


def stored_feel_columns(store: Store, key: str) -> tuple[str, ...]:
    """The game feel's columns of ``key``'s first stored chunk (from its footer; empty when
    it was stored before the feel was recorded, or nothing is stored). A sweep adds chunks to
    a key in its first chunk's columns, so every chunk of a key has the same."""
    from ..simulate import FEEL_COLUMNS, MATCH_FEEL_COLUMNS, SEAT_FEEL_COLUMNS

    rows = store.chunk_rows(key)
    if not rows:
        return ()
    stored = set(store.chunk_columns(key, min(rows)))
    names = [*FEEL_COLUMNS, *MATCH_FEEL_COLUMNS]
    seats = sorted(c for c in stored if c.rpartition("_")[0] in SEAT_FEEL_COLUMNS)
    return tuple(c for c in names if c in stored) + tuple(seats) if "lead_changes" in stored \
        else ()


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
    store = as_store(store)
    provenance = store.read_provenance(key)
    players, chunk_size = int(provenance["players"]), int(provenance["chunk_size"])
    rows = store.chunk_rows(key)
    total = SummaryStats(players)
    columns = summary_columns(players, stored_feel_columns(store, key))
    c = 0
    while c in rows:
        df = store.load_chunks(key, [c], columns)
        total = total.merge(SummaryStats.of(df, players))
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
    return _load_prefix(as_store(store), config.key(seed, chunk_size), chunk_size, games,
                        columns)
