"""Paired comparisons: every configuration against a baseline, game by game.

Game ``i`` of every configuration with the same seed is dealt from the same random numbers
(common random numbers), so the difference of a measure is estimated from the per-game
differences (:func:`vandatta_sim.stats.paired_moments`, merged chunk by chunk): a far narrower
interval than two independent intervals give. Pairing needs the same seed and player count.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ..stats import Estimate, Moments, paired_moments
from ..store import Store
from .catalogue import configuration_fields, fields_apart
from .config import DEFAULT_STORE, SweepError, as_store
from .summary import (FEEL_MATCH_MEASURES, FEEL_MEASURES, feel_values, loser_points,
                      stored_feel_columns, summary_columns)

#: The measures compared by default (one seat's win rate: förhand's), as summary field names.
MAIN_MEASURES = ("win_rate_0", "mean_turns", "loser_points", "capped_share")


def per_seat_measures(players: int) -> tuple[str, ...]:
    """The per-seat measures of ``--per-seat``: each seat's win rate and mean points."""
    return (*(f"win_rate_{s}" for s in range(players)),
            *(f"mean_points_{s}" for s in range(players)))


#: Compared too where matches are played: deals per match.
MATCH_MEASURES = ("mean_deals",)


def feel_compared(matches: bool) -> tuple[str, ...]:
    """The game feel's measures compared (summary.FEEL_MEASURES, and the match's where matches
    are played)."""
    return tuple(m for m, _, _ in FEEL_MEASURES + (FEEL_MATCH_MEASURES if matches else ()))


def compared_measures(players: int, per_seat: bool, matches: bool = False
                      ) -> tuple[str, ...]:
    """The measures a comparison computes: the main ones, deals per match where matches are
    played, the game feel's (where every configuration compared has it stored: see
    :func:`paired_comparison`), and every seat's on request."""
    main = (*MAIN_MEASURES, *(MATCH_MEASURES if matches else ()), *feel_compared(matches))
    return (*main, *per_seat_measures(players)) if per_seat else main


def game_values(df: pd.DataFrame, players: int) -> dict[str, np.ndarray]:
    """Per game, the value whose mean is each summary measure (a win as 1, a capped game as 1),
    so that a difference of means is the mean of per-game differences."""
    winner = df["winner"].to_numpy().astype(np.int64)
    values = {f"win_rate_{s}": winner == s for s in range(players)}
    values |= {"mean_turns": df["turns"].to_numpy(), "loser_points": loser_points(df, players),
               "capped_share": df["capped"].to_numpy(), "mean_deals": df["deals"].to_numpy()}
    values |= {f"mean_points_{s}": df[f"points_{s}"].to_numpy() for s in range(players)}
    return values | feel_values(df, players)


class GameReader:
    """Games ``start … stop-1`` of one stored configuration, whatever its chunk size (the last
    chunk read is kept, so that reading in order loads each chunk once)."""

    def __init__(self, store: Store, key: str, chunk_size: int, players: int):
        self.store, self.key, self.chunk_size = store, key, chunk_size
        self.feel = stored_feel_columns(store, key)
        self.columns = summary_columns(players, self.feel)
        self._cached: tuple[int, pd.DataFrame] | None = None

    def _chunk(self, c: int) -> pd.DataFrame:
        if self._cached is None or self._cached[0] != c:
            self._cached = (c, self.store.load_chunks(self.key, [c], self.columns))
        return self._cached[1]

    def read(self, start: int, stop: int) -> pd.DataFrame:
        k = self.chunk_size
        parts = [self._chunk(c).iloc[max(start - c * k, 0): stop - c * k]
                 for c in range(start // k, (stop - 1) // k + 1)]
        return pd.concat(parts, ignore_index=True) if len(parts) > 1 else parts[0]


def stored_games(store: Store, key: str, chunk_size: int) -> int:
    """Games stored contiguously from game 0 on."""
    rows, have, c = store.chunk_rows(key), 0, 0
    while c in rows:
        have += rows[c]
        if rows[c] < chunk_size:
            break
        c += 1
    return have


def paired_comparison(keys: list[str], baseline: int = 0, store=DEFAULT_STORE,
                      games: dict[str, int] | None = None,
                      measures: tuple[str, ...] | None = None) -> list[dict]:
    """For each of ``keys``, the paired difference of each measure against ``keys[baseline]``
    over the games both hold (``games[key]`` limits a key to its first games): one dict per key
    with ``paired_games`` and ``delta_<measure>`` plus ``_low``/``_high`` (95%). The baseline's
    own row has ``baseline`` True and no deltas. Each other row names what tells it from the
    baseline, read from the two configurations' fields (never their labels, which the caller's
    summary carries): ``varied`` (``stacking=true``) and ``varied_baseline``
    (``stacking=false``), and the user's labels of both (``user_label``,
    ``baseline_user_label``). SweepError when seeds or player counts differ."""
    store = as_store(store)
    provenance = [store.read_provenance(k) for k in keys]
    base = provenance[baseline]
    for key, p in zip(keys, provenance):
        for field in ("seed", "players"):
            if p.get(field) != base.get(field):
                raise SweepError(f"cannot pair {key} with baseline {keys[baseline]}: {field} "
                                 f"{p.get(field)} ≠ {base.get(field)} (paired differences need "
                                 "the same seed and player count)")
    players = int(base["players"])
    measures = tuple(dict.fromkeys(measures or MAIN_MEASURES))  # each measure once
    readers = [GameReader(store, k, int(p["chunk_size"]), players)
               for k, p in zip(keys, provenance)]
    # the game feel is compared only where every configuration has it stored (a key stored
    # before it was recorded has none), and a match's only where every one plays matches
    kept = set.intersection(*(set(feel_values_names(r.feel, players)) for r in readers))
    feel = set(feel_compared(True)) | {m for m in measures if m.startswith(
        ("choice_share_", "mean_options_"))}
    measures = tuple(m for m in measures if m not in feel or m in kept)
    held = [min(stored_games(store, k, r.chunk_size), (games or {}).get(k, np.inf))
            for k, r in zip(keys, readers)]
    fields = [configuration_fields(p) for p in provenance]
    rows = []
    for i, key in enumerate(keys):
        row = {"key": key, "baseline": i == baseline}
        if i == baseline:
            rows.append(row | {"paired_games": int(held[i])})
            continue
        varied, varied_baseline = fields_apart(fields[i], fields[baseline])
        row |= {"varied": varied, "varied_baseline": varied_baseline,
                "user_label": provenance[i].get("user_label") or "",
                "baseline_user_label": base.get("user_label") or ""}
        n = int(min(held[i], held[baseline]))
        sums = {m: Moments() for m in measures}
        block = readers[baseline].chunk_size
        for start in range(0, n, block):
            stop = min(start + block, n)
            ours = game_values(readers[i].read(start, stop), players)
            theirs = game_values(readers[baseline].read(start, stop), players)
            for m in measures:
                sums[m] = sums[m].merge(paired_moments(ours[m], theirs[m]))
        row["paired_games"] = n
        for m in measures:
            est: Estimate = sums[m].estimate()
            row[f"delta_{m}"], row[f"delta_{m}_low"], row[f"delta_{m}_high"] = (
                est.value, est.low, est.high)
        rows.append(row)
    return rows


def feel_values_names(columns: tuple[str, ...], players: int) -> tuple[str, ...]:
    """The game-feel measures that games with these stored feel ``columns`` give."""
    if "lead_changes" not in columns:
        return ()
    names = [m for m, _, _ in FEEL_MEASURES]
    if "points_lead_changes" in columns:
        names += [m for m, _, _ in FEEL_MATCH_MEASURES]
    return (*names, *(f"{m}_{s}" for s in range(players) for m in ("choice_share",
                                                                   "mean_options")))


def _delta_text(row: dict, measure: str) -> str:
    """``+1.23 pp [0.80, 1.66]`` for shares (percentage points), ``-4.10 [-5.00, -3.20]``
    otherwise, marked ``n.s.`` when the interval holds 0 (as in ``value``); ``baseline`` on
    the baseline's row."""
    if row.get("baseline"):
        return "baseline"
    value, low, high = (row.get(f"delta_{measure}{s}", np.nan) for s in ("", "_low", "_high"))
    if not np.isfinite(value):
        return "–"
    share = (measure.startswith(("win_rate", "choice_share")) or measure.endswith("_share")
             or measure == "decisiveness")
    scale, unit, digits = (100, " pp", 2) if share else (1, "", 2)
    if not (np.isfinite(low) and np.isfinite(high)):
        return f"{scale * value:+.{digits}f}{unit}"
    marked = "" if low > 0 or high < 0 else " (n.s.)"
    return (f"{scale * value:+.{digits}f}{unit} "
            f"[{scale * low:+.{digits}f}, {scale * high:+.{digits}f}]{marked}")


def format_comparison(rows: list[dict], labels: list[str], matches: bool = False,
                      measures: tuple[str, ...] | None = None) -> str:
    """Each configuration's paired difference from the baseline (Δ = configuration − baseline,
    95% interval; shares in percentage points; n.s. where the interval holds 0), with deals
    per match where matches are played (or the ``measures`` given); each row under its
    ``labels`` entry (the caller's summary's: what this run calls the configuration, not what
    its first run called it)."""
    from ..formatting import format_table

    measures = measures or (*MAIN_MEASURES, *(MATCH_MEASURES if matches else ()))
    header = ["key", "configuration", "paired games", *(f"Δ {m}" for m in measures)]
    lines = [[r["key"], label, f"{r['paired_games']:,}",
              *(_delta_text(r, m) for m in measures)] for r, label in zip(rows, labels)]
    return format_table(header, lines, "llr" + "l" * len(measures), style="text")


def format_per_seat(summary: pd.DataFrame, rows: list[dict]) -> str:
    """One line per configuration and seat: its win rate and mean points with their 95%
    intervals, and their paired differences from the baseline's same seat."""
    from ..formatting import format_table
    from .summary import estimate_cell

    header = ["key", "configuration", "seat", "win_rate", "Δ win_rate", "mean_points",
              "Δ mean_points"]
    lines = []
    for (_, srow), crow in zip(summary.iterrows(), rows):
        for s in range(int(srow["players"])):
            lines.append([srow["key"], srow["label"], str(s),
                          estimate_cell(srow, f"win_rate_{s}", 1, True),
                          _delta_text(crow, f"win_rate_{s}"),
                          estimate_cell(srow, f"mean_points_{s}", 2),
                          _delta_text(crow, f"mean_points_{s}")])
    return format_table(header, lines, "llrllll", style="text")


def pick_baseline(labels: list[str], keys: list[str], choice: str | None) -> int:
    """The index of the baseline among the configurations: ``choice`` is a 0-based index, a
    label, a unique part of one label (``stacking=true``) or a key prefix; default the first."""
    if choice is None:
        return 0
    text = choice.strip()
    if text.isascii() and text.isdigit():
        if int(text) < len(labels):
            return int(text)
        raise SweepError(f"--baseline {choice}: there are {len(labels)} configurations "
                         f"(index 0–{len(labels) - 1})")
    for candidates in ([i for i, label in enumerate(labels) if label == text],
                       [i for i, k in enumerate(keys) if k.startswith(text)],
                       [i for i, label in enumerate(labels) if text in label]):
        if len(candidates) == 1:
            return candidates[0]
        if len(candidates) > 1:
            raise SweepError(f"--baseline {choice[:60]!r} matches {len(candidates)} "
                             "configurations; give more of the label or an index")
    raise SweepError(f"--baseline {choice[:60]!r} matches no configuration; give an index "
                     f"0–{len(labels) - 1}, a label or a key")


def comparison_text(summary: pd.DataFrame, rows: list[dict], baseline: int,
                    per_seat: bool = False) -> str:
    """The comparison under its explaining line: the main measures (deals per match where
    matches are played) and, with ``per_seat``, every seat's below them."""
    from .summary import has_matches

    labels = [str(x) for x in summary["label"]]
    main = format_comparison(rows, labels, has_matches(summary))
    others = [r for r in rows if not r.get("baseline")]
    feel = tuple(m for m in feel_compared(has_matches(summary))
                 if others and all(f"delta_{m}" in r for r in others))
    if feel:
        main += "\n\ngame feel, Δ:\n" + format_comparison(rows, labels, measures=feel)
    return (f"Δ = configuration − baseline ({summary['label'].iloc[baseline]}), paired by game "
            "index, 95% interval; shares in percentage points; n.s. = the interval holds 0\n"
            + main + ("\n\n" + format_per_seat(summary, rows) if per_seat else ""))
