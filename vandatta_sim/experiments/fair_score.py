"""The fair score of a card: the score s* at which players *who know it scores s\\** are
indifferent to one more of it, and how much of play a fixed-play threshold leaves unchanged.

:func:`vandatta_sim.experiments.card_value.break_even` holds play fixed: the players weigh the card
at the table's real score while it counts another, so the threshold it gives belongs to today's
play. Here the card's score *and* the players' weighing of it move together: at each score v of
a grid the table plays the swap experiment with the rank scoring v (``valuation`` left at the
rules' own scale, so every seat weighs the card at v), on the same seed and game indices at
every v (common random numbers: the same deals and focal seats). ``Δ(v)`` is one more card's
paired effect on the holder's penalty points (and on its standing, own points minus the mean
opponent's) at score v.

**Tuned players away from their score.** A tuned player's weights (`vandatta-sim tune`) are
kept as fitted; what depends on the card's score is computed from the score the players are
told, as for `expert`: a card's cost term is its points times the ``card_value`` weight, and the
eight's hand-size threshold for dumping is its cost in ordinary cards // ``eight_threat_ratio``
(docs/policies.md). So the players carried to a score v are the fitted players reading v.

**The estimate and its interval.** Between two grid scores each game's Δ is interpolated
linearly (per game, so the interpolated mean has the exact paired variance of the two
endpoints' combination). ``value`` is the smallest score where the mean curve crosses 0. The
interval is **test inversion**: every score v in the grid's range at which the paired z-test
does not reject mean Δ(v) = 0 at 95 %, scanned on a fine sub-grid of each segment, with the
mean curve's own zeros (never rejected, even where a steep curve accepts less than a sub-step
around them), and widened outward by one sub-step; reported as its hull, so a curve that comes
near 0 twice gives one wide interval. It is a 95 % confidence set for s* whatever the number of
grid scores (one test per candidate, no multiplicity). Where no score of the range is accepted,
the data exclude a fair score there at 95 %: with every Δ below 0 one more card saves its holder
points at every score of the grid. Where the accepted set reaches the grid's top the interval
is open above.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from ..rules import Rules
from ..stats import Estimate, mean_interval, normal_critical, proportion
from .card_value import ordinary_points, scale_with
from .designs import swap_pairs
from .runner import Runner, make_config

#: The candidate scores, in ordinary cards of the scale (an ordinary card's mean score, ranks
#: 2–7 and 9–K): from nothing to 100 ordinary cards, closer where today's faces lie.
GRID_CARDS = (0, 2, 4, 7, 10, 15, 25, 40, 60, 100)
#: Sub-steps per grid segment in the test inversion (the bounds are widened by one).
SUBSTEPS = 200
#: The record of a game that says whether its play changed (with every seat's points).
RECORD = ("winner", "turns", "plays", "draws", "reshuffles")


def grid_for(scale, grid_cards: Sequence[float] = GRID_CARDS) -> tuple[int, ...]:
    """The candidate scores of a scale: ``grid_cards`` ordinary cards, rounded to points."""
    unit = ordinary_points(scale)
    return tuple(sorted({int(round(c * unit)) for c in grid_cards}))


@dataclass(frozen=True)
class FairScore:
    """One table's fair score on one measure: the grid, the mean Δ at each score (with its
    interval), the smallest root of the mean curve and the test-inversion interval's hull
    (``low``/``high`` nan where no score of the grid is accepted; ``open_above`` where the
    accepted set reaches the grid's top)."""

    grid: tuple[int, ...]
    curve: tuple[Estimate, ...]
    value: float
    low: float
    high: float
    open_above: bool
    n: int

    @property
    def excluded(self) -> bool:
        """No score of the grid is a fair score (at 95 %)."""
        return not np.isfinite(self.low)

    def text(self) -> str:
        """``about 330 (190 to 520)``, ``… (190 to above 680)``, ``no root to 680 (…)`` or
        ``none from 0 to 680 (…)``, the bounds rounded outward to whole points."""
        top = self.grid[-1]
        if self.excluded:
            sign = ("one more saves points at every score" if all(e.high < 0 for e in self.curve)
                    else "one more costs points at every score"
                    if all(e.low > 0 for e in self.curve) else "the curve is away from 0")
            return f"none from {self.grid[0]} to {top} ({sign})"
        low = f"{int(np.floor(self.low))}"
        high = f"above {top}" if self.open_above else f"{int(np.ceil(self.high))}"
        if not np.isfinite(self.value):
            return f"no root to {top} ({low} to {high} not excluded)"
        return f"about {self.value:.0f} ({low} to {high})"


def _inversion(x: np.ndarray, grid: Sequence[int], z: float) -> tuple[float, float, bool]:
    """The hull of the scores the paired z-test does not reject (x: games × grid scores)."""
    n = len(x)
    mean = x.mean(axis=0)
    cov = np.cov(x, rowvar=False, ddof=1) if n > 1 else np.zeros((len(grid), len(grid)))
    t = np.linspace(0.0, 1.0, SUBSTEPS + 1)
    low = high = np.nan
    for i in range(len(grid) - 1):
        m = (1 - t) * mean[i] + t * mean[i + 1]
        var = ((1 - t) ** 2 * cov[i, i] + 2 * t * (1 - t) * cov[i, i + 1]
               + t ** 2 * cov[i + 1, i + 1]) / max(n, 1)
        ok = np.abs(m) <= z * np.sqrt(np.maximum(var, 0.0))
        v = grid[i] + t * (grid[i + 1] - grid[i])
        accepted = v[ok]
        crossing = _root(mean[i:i + 2], grid[i:i + 2])
        if np.isfinite(crossing):
            # where the mean curve is 0 the test cannot reject, however steep the curve: a
            # crossing between two sub-steps is accepted too, so the root is never outside
            accepted = np.append(accepted, crossing)
        if not len(accepted):
            continue
        step = (grid[i + 1] - grid[i]) / SUBSTEPS
        first, last = accepted.min(), accepted.max()
        # outward by one sub-step, never beyond the grid
        first, last = max(first - step, grid[0]), min(last + step, grid[-1])
        low = first if np.isnan(low) else min(low, first)
        high = last if np.isnan(high) else max(high, last)
    open_above = bool(np.isfinite(high) and high >= grid[-1])
    return low, high, open_above


def _root(mean: np.ndarray, grid: Sequence[int]) -> float:
    """The smallest score where the piecewise-linear mean curve is 0 (nan where none)."""
    for i in range(len(grid) - 1):
        a, b = mean[i], mean[i + 1]
        if a == 0:
            return float(grid[i])
        if a * b < 0:
            return float(grid[i] + (grid[i + 1] - grid[i]) * a / (a - b))
    return float(grid[-1]) if mean[-1] == 0 else float("nan")


def fair_score_of(deltas: np.ndarray, grid: Sequence[int], confidence: float = 0.95
                  ) -> FairScore:
    """The fair score from per-game Δ at each grid score (games × len(grid), common games)."""
    x = np.asarray(deltas, np.float64)
    low, high, open_above = _inversion(x, grid, normal_critical(confidence))
    curve = tuple(mean_interval(x[:, i], confidence) for i in range(len(grid)))
    return FairScore(tuple(grid), curve, _root(x.mean(axis=0), grid), low, high, open_above,
                     len(x))


def fair_scores(rules: Rules, runner: Runner, policies, rank: str = "8", games: int = 20_000,
                seed: int = 0, grid: Sequence[int] | None = None) -> dict[str, FairScore]:
    """``rules``' table (single deals) with ``rank`` scoring each score of ``grid`` (default
    :func:`grid_for`) and the players told so: the fair score on own points (``"points"``)
    and on standing (``"standing"``). 2 runs of ``games`` deals per score, on one seed."""
    rules = rules.replace(match="single")
    grid = tuple(grid) if grid is not None else grid_for(rules.scale)
    own, standing, keep = [], [], None
    for v in grid:
        at = rules.replace(scale=scale_with(rules.scale, rank, v))
        base, swapped = runner.run([make_config(at, policies),
                                    make_config(at, policies, swap=rank)], games, seed)
        p = swap_pairs(base, swapped, rules.players)
        d = (p["points_swap"] - p["points_base"]).to_numpy(np.float64)
        own.append(d)
        standing.append(d - (p["opponents_swap"] - p["opponents_base"]).to_numpy(np.float64))
        s = p["swapped"].to_numpy(bool)  # the same deals at every score: the same exchanges
        keep = s if keep is None else keep & s
    return {"points": fair_score_of(np.column_stack(own)[keep], grid),
            "standing": fair_score_of(np.column_stack(standing)[keep], grid)}


def changed(a: pd.DataFrame, b: pd.DataFrame, players: int) -> np.ndarray:
    """Per game, whether two runs of the same games were played differently: any of the
    record (winner, turns, plays, draws, reshuffles) or a seat's points differs. A lower bound
    on the games whose decisions changed (two different plays can end alike)."""
    columns = list(RECORD) + [f"points_{s}" for s in range(players)]
    return (a[columns].to_numpy() != b[columns].to_numpy()).any(axis=1)


def changed_share(rules: Rules, runner: Runner, policies, score: float, rank: str = "8",
                  games: int = 20_000, seed: int = 0) -> Estimate:
    """The share of the swap experiment's games (as dealt or with one more ``rank``) that
    play differently when the players weigh ``rank`` at ``score`` (the score it counts) rather
    than at the table's real score: how far the fixed-play threshold's premise is from play
    that knows the score. Both runs count ``rank`` at ``score`` (rounded to a whole point)."""
    rules = rules.replace(match="single")
    at = rules.replace(scale=scale_with(rules.scale, rank, int(round(score))))
    fixed = runner.run([make_config(at, policies, valuation=rules.scale),
                        make_config(at, policies, swap=rank, valuation=rules.scale)],
                       games, seed)
    knows = runner.run([make_config(at, policies), make_config(at, policies, swap=rank)],
                       games, seed)
    either = changed(fixed[0], knows[0], rules.players) | changed(fixed[1], knows[1],
                                                                  rules.players)
    return proportion(int(either.sum()), len(either))
