"""The card-value experiment: what one more card of a rank is worth, and its break-even score.

For each table (scale × player count) and rank R, the swap experiment
(:func:`vandatta_sim.report.designs.swap_pairs`) plays every sampled deal twice on the same
seed and game index, once as dealt and once with one ordinary card of the focal seat exchanged
for an R from the talon, and reads the paired difference of the focal seat's outcome:

* **deal win** (pp) and **penalty points** per deal, on single deals;
* **match win** (pp) and the match's length in deals, where the rules' match is not single
  (the swap is in the match's first deal only);
* **break-even face value** ``v*``: the score of R at which one more R leaves the expected
  penalty points unchanged, *with play held fixed*. The policies weigh the table's own scale
  (``valuation``), so changing R's score changes only what the cards count, and each game's
  Δ points is linear in R's score: ``Δ(v) = a + b·v``. Two runs at two scores give ``a`` and
  ``b`` per game; ``v* = −mean(a) / mean(b)`` with a delta-method interval
  (:func:`vandatta_sim.stats.ratio_root`).

The unswapped and swapped runs share the seed and game index, so their deals and random
streams start alike, but after the exchange the draws diverge; the pairing is only as strong
as the measured correlation of the two outcomes (``corr_*`` columns), and the paired
intervals use the variance of the per-game differences, so they are valid whatever it is.

Every run goes through a :class:`~vandatta_sim.report.runner.Runner` (by default the sweep's
result store: resumable and identical for any backend or thread count).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from . import cards
from .report.designs import focal_policies, swap_pairs
from .report.markdown import estimate_columns
from .report.runner import Runner, make_config
from .rules import Rules
from .stats import Estimate, mean_interval, paired_difference, proportion, ratio_root

RANKS = cards.RANK_NAMES  # A, 2, ..., K
#: Where --precision starts, and the most games one cell may take with it.
PILOT_GAMES = 10_000
MAX_PRECISION_GAMES = 2_000_000


def check_ranks(text: str | Iterable[str]) -> list[str]:
    """Rank names from ``"8"``, ``"8,A"`` or ``"all"`` (every rank), in rank order; a
    :class:`~vandatta_sim.simulate.SimulationError` names what is allowed."""
    from .simulate import SimulationError

    parts = text.split(",") if isinstance(text, str) else list(text)
    if [p.strip().lower() for p in parts] == ["all"]:
        return list(RANKS)
    out = []
    for part in parts:
        name = str(part).strip().upper()
        if name not in RANKS:
            raise SimulationError(f"rank {str(part).strip()!r} is not allowed; allowed: "
                                  f"{', '.join(RANKS)} or all")
        if name not in out:
            out.append(name)
    return sorted(out, key=RANKS.index)


def check_scales(text: str | Iterable[str]) -> list[str]:
    """Scale names from ``"base,hundred"``; a SimulationError names what is allowed."""
    from .simulate import SimulationError

    parts = text.split(",") if isinstance(text, str) else list(text)
    out = []
    for part in parts:
        name = str(part).strip()
        if name not in cards.SCALES:
            raise SimulationError(f"scale {name!r} is not allowed; allowed: "
                                  f"{', '.join(cards.SCALES)}")
        if name not in out:
            out.append(name)
    return out


def scale_points(scale) -> tuple[int, ...]:
    """The 14 rank points (A … K, joker) of a scale name or a custom 14-tuple."""
    return tuple(cards.SCALES[scale]) if isinstance(scale, str) else tuple(scale)


def scale_with(scale, rank: str, points: int) -> tuple[int, ...]:
    """``scale`` with ``rank`` scoring ``points``. A joker that scores as an eight (the rule,
    and every named scale) moves with the eight; one the scale gives its own score (a custom
    ``joker = 100``) keeps it, so that only the rank's score changes between the two runs of
    the break-even line."""
    out = list(scale_points(scale))
    joker_is_an_eight = out[13] == out[RANKS.index("8")]
    out[RANKS.index(rank)] = points
    if rank == "8" and joker_is_an_eight:
        out[13] = points
    return tuple(out)


def face_value(scale, rank: str) -> int:
    return scale_points(scale)[RANKS.index(rank)]


def second_score(face: int) -> int:
    """The other score of the break-even pair: 0, or 1 where the face value is 0."""
    return 0 if face > 0 else 1


def pairing_correlation(x, y) -> float:
    """Pearson correlation of the paired outcomes (nan where one side does not vary)."""
    x, y = np.asarray(x, np.float64), np.asarray(y, np.float64)
    if len(x) < 2 or x.std() == 0 or y.std() == 0:
        return float("nan")
    return float(np.corrcoef(x, y)[0, 1])


def break_even(pairs_face: pd.DataFrame, pairs_other: pd.DataFrame, face: int,
               other: int) -> tuple[Estimate, Estimate]:
    """The per-game line Δ points(v) = a + b·v through two scores of the rank (same games,
    play held fixed) and its root: returns (``b``'s mean with interval = extra points per
    point of face value, ``v*`` with a delta-method interval)."""
    keep = pairs_face["swapped"].to_numpy() & pairs_other["swapped"].to_numpy()
    d_face = (pairs_face["points_swap"] - pairs_face["points_base"]).to_numpy(np.float64)[keep]
    d_other = (pairs_other["points_swap"] - pairs_other["points_base"]).to_numpy(np.float64)[keep]
    slope = (d_face - d_other) / (face - other)
    intercept = d_face - slope * face
    return mean_interval(slope), ratio_root(intercept, slope)


@dataclass(frozen=True)
class Table:
    """One table of the experiment: its scale and number of players."""

    scale: str | tuple[int, ...]
    players: int

    @property
    def scale_name(self) -> str:
        return self.scale if isinstance(self.scale, str) else "custom"


def _cell(runner: Runner, configs: list, games: int | None, precision: float | None,
          seed: int, measure: Callable[[list[pd.DataFrame]], float]) -> list[pd.DataFrame]:
    """Run ``configs`` for ``games``, or with ``precision``: a pilot of PILOT_GAMES, then the
    count the pilot's half-width (``measure``) asks for, until it is met or the cap reached.
    The counts depend only on the games, so the same call always plays the same games."""
    if games is not None:
        return runner.run(configs, games, seed)
    n = PILOT_GAMES
    while True:
        runs = runner.run(configs, n, seed)
        half = measure(runs)
        if not half > precision or n >= MAX_PRECISION_GAMES:
            return runs
        need = n * (half / precision) ** 2 * 1.1
        n = int(min(MAX_PRECISION_GAMES, max(2 * n, -(-need // PILOT_GAMES) * PILOT_GAMES)))


def _win_half_width(base: pd.DataFrame, swapped: Sequence[pd.DataFrame], players: int,
                    seat: int | None = None) -> float:
    """The widest half-width of the swap runs' paired win effects."""
    widths = [0.0]
    for run in swapped:
        p = swap_pairs(base, run, players, seat)
        p = p[p["swapped"]]
        est = paired_difference(p["win_swap"], p["win_base"])
        widths.append((est.high - est.low) / 2)
    return max(widths)


def card_value(rules: Rules, runner: Runner, *, ranks: Sequence[str] = ("8",),
               players: Sequence[int] | None = None, scales: Sequence | None = None,
               policies="expert", games: int | None = 20_000, match_games: int | None = None,
               precision: float | None = None, seed: int = 0, break_even_point: bool = True,
               holder: str | None = None, log: Callable[[str], None] | None = None
               ) -> pd.DataFrame:
    """The card-value experiment for ``rules`` at every (scale, players) and rank.

    ``players``/``scales`` default to the rules' own; ``games`` (or ``precision``, a half-width
    of the deal-win effect, in [0, 1]) counts single deals, ``match_games`` matches (default:
    ``games``; matches only where ``rules.match`` is not single). Returns one tidy row per
    (scale, players, rank) with ``face``, ``n`` and value/low/high columns of ``win``,
    ``points``, ``base_win``, ``base_points``, ``possible``, and, as asked, ``slope``
    (Δ points per point of face value) and ``break_even``, ``match_win``, ``match_base_win``,
    ``match_deals`` (mean deals per unswapped match); plus ``corr_win``, ``corr_points``,
    ``corr_match_win`` (pairing correlations), ``games`` and ``match_games`` played.

    ``holder``: a policy for the focal seat apart from the table's ``policies``; each seat is
    then focal in its own run (seed + seat, ``games`` each), the others playing ``policies``.
    """
    ranks = check_ranks(ranks)
    players = list(players or [rules.players])
    scales = list(scales or [rules.scale])
    match_games = games if match_games is None else match_games
    rows = []
    for scale in scales:
        for n in players:
            table = Table(scale, n)
            if log is not None:
                log(f"card value: {table.scale_name}, {n} players")
            rows += _table_rows(rules, runner, table, ranks, policies, games, match_games,
                                precision, seed, break_even_point, holder)
    return pd.DataFrame(rows)


def _seatings(players: int, policies, holder) -> list[tuple[int | None, object, int]]:
    """(focal seat, seat policies, seed offset) of each run of a table: one run with the focal
    seat rotating (``game % players``) where every seat plays alike, else one run per focal
    seat, the holder there and ``policies`` elsewhere, each on seed + seat."""
    if holder is None or holder == policies:
        return [(None, policies, 0)]
    return [(s, focal_policies(players, s, holder, policies), s) for s in range(players)]


def _swap_runs(runner, rules, ranks, seating, games, precision, seed, second=False):
    """Base and swap runs of ``ranks`` (and, with ``second``, base and swap at each
    rank's second score with the table's valuation), as pairs per rank."""
    seat, policies, offset = seating
    configs = [make_config(rules, policies, swap_seat=seat)]
    configs += [make_config(rules, policies, swap=r, swap_seat=seat) for r in ranks]
    if second:  # base and swap again with the rank at a second score
        for r in ranks:
            other = rules.replace(scale=scale_with(rules.scale, r,
                                                   second_score(face_value(rules.scale, r))))
            configs += [make_config(other, policies, swap_seat=seat, valuation=rules.scale),
                        make_config(other, policies, swap=r, swap_seat=seat,
                                    valuation=rules.scale)]
    runs = _cell(runner, configs, games, precision, seed + offset,
                 lambda rs: _win_half_width(rs[0], rs[1:1 + len(ranks)], rules.players, seat))
    k = len(ranks)
    pairs = [swap_pairs(runs[0], runs[1 + i], rules.players, seat) for i in range(k)]
    others = [swap_pairs(runs[1 + k + 2 * i], runs[2 + k + 2 * i], rules.players, seat)
              for i in range(k)] if second else None
    return runs[0], pairs, others


def _joined(parts: list) -> list[pd.DataFrame] | None:
    """Per-rank pairs of every seating, one table per rank."""
    if parts[0] is None:
        return None
    return [pd.concat(group, ignore_index=True) for group in zip(*parts)]


def _table_rows(rules, runner, table: Table, ranks, policies, games, match_games, precision,
                seed, break_even_point, holder=None) -> list[dict]:
    seatings = _seatings(table.players, policies, holder)
    deal_rules = rules.replace(players=table.players, scale=table.scale, match="single")
    deal_runs = [_swap_runs(runner, deal_rules, ranks, seating, games, precision, seed,
                            break_even_point) for seating in seatings]
    pairs = _joined([run[1] for run in deal_runs])
    others = _joined([run[2] for run in deal_runs])
    games_played = sum(len(run[0]) for run in deal_runs)
    mpairs = None
    if rules.match_kind != "single" and match_games != 0:
        match_rules = rules.replace(players=table.players, scale=table.scale)
        match_runs = [_swap_runs(runner, match_rules, ranks, seating, match_games, precision,
                                 seed) for seating in seatings]
        mpairs = _joined([run[1] for run in match_runs])
        match_deals = np.concatenate([run[0]["deals"].to_numpy() for run in match_runs])
    rows = []
    for i, rank in enumerate(ranks):
        p = pairs[i][pairs[i]["swapped"]]
        face = face_value(table.scale, rank)
        row = {"scale": table.scale_name, "players": table.players, "rank": rank,
               "face": face, "games": games_played, "n": int(len(p))}
        effects = {"win": paired_difference(p["win_swap"], p["win_base"]),
                   "points": paired_difference(p["points_swap"], p["points_base"]),
                   "base_win": proportion(int(p["win_base"].sum()), len(p)),
                   "base_points": mean_interval(p["points_base"]),
                   "possible": proportion(int(pairs[i]["swapped"].sum()), len(pairs[i]))}
        row["corr_win"] = pairing_correlation(p["win_swap"], p["win_base"])
        row["corr_points"] = pairing_correlation(p["points_swap"], p["points_base"])
        if others is not None:
            effects["slope"], effects["break_even"] = break_even(
                pairs[i], others[i], face, second_score(face))
        if mpairs is not None:
            mp = mpairs[i][mpairs[i]["swapped"]]
            effects["match_win"] = paired_difference(mp["win_swap"], mp["win_base"])
            effects["match_base_win"] = proportion(int(mp["win_base"].sum()), len(mp))
            effects["match_deals"] = mean_interval(match_deals)
            row["match_games"] = len(match_deals)
            row["corr_match_win"] = pairing_correlation(mp["win_swap"], mp["win_base"])
        for name, est in effects.items():
            row.update(estimate_columns(name, est))
        rows.append(row)
    return rows


def plot_card_value(table: pd.DataFrame, path: str) -> None:
    """Write ``path`` (.png or .svg, atomically): one panel per measure (deal win, penalty
    points, break-even face value, match win where measured) against the player count, a line
    per (scale, rank) with 95% interval bars; the face values are marked on the break-even
    panel."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from .plots import save_figure
    from .report.markdown import row_estimate

    panels = [("win", "Δ P(win deal), percentage points", 100.0),
              ("points", "Δ penalty points per deal", 1.0)]
    if "break_even" in table.columns:
        panels.append(("break_even", "break-even face value (points)", 1.0))
    if "match_win" in table.columns:
        panels.append(("match_win", "Δ P(win match), percentage points", 100.0))
    fig, axes = plt.subplots(1, len(panels), figsize=(4.2 * len(panels), 3.8), squeeze=False)
    groups = list(table.groupby(["scale", "rank"], sort=False))
    for k, ((scale, rank), rows) in enumerate(groups):
        x = rows["players"].to_numpy(np.float64) + (k - (len(groups) - 1) / 2) * 0.06
        for ax, (name, _, factor) in zip(axes[0], panels):
            est = [row_estimate(r, name) for _, r in rows.iterrows()]
            v = np.array([e.value for e in est]) * factor
            err = np.nan_to_num(np.vstack([v - np.array([e.low for e in est]) * factor,
                                           np.array([e.high for e in est]) * factor - v]))
            ax.errorbar(x, v, yerr=np.maximum(err, 0), fmt="o-", capsize=3, markersize=4,
                        label=f"{scale}, rank {rank}", color=f"C{k % 10}")
            if name == "break_even":
                ax.plot(x, rows["face"], "_", markersize=14, color=f"C{k % 10}")
    for ax, (name, label, _) in zip(axes[0], panels):
        ax.axhline(0, color="black", linewidth=0.8)
        ax.set_xlabel("players at the table")
        ax.set_ylabel(label)
        ax.set_xticks(sorted(table["players"].unique()))
        ax.set_title(label.split(",")[0] + (" (dash: its face value)"
                                             if name == "break_even" else ""))
        ax.grid(alpha=0.3)
    axes[0][0].legend(fontsize=8)
    fig.suptitle("One more card of the rank: paired effect with 95% interval")
    fig.tight_layout()
    try:
        save_figure(fig, path)
    finally:
        plt.close(fig)
