"""Design goals' measures: what each goal measures, its possible values, and its estimate.

A goal measures one quantity of a candidate rule set at one table size, with its 95% interval:
first-player advantage, deal or match length, skill (the paired gap between a strong and a
weak player in the same seat on the same deals), an eight's worth, or any summary field with
an interval (docs/columns.md). Every candidate's games are game ``0 … n-1`` of one seed, so
candidates are compared on the same deals, and they go through the result store, so a rule set
measured before is read back, not played again.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from ..experiments.designs import skill_comparisons, swap_effects, swap_pairs
from ..experiments.measures import forhand_advantage
from ..experiments.plain import rounded
from ..experiments.runner import Runner, make_config
from ..rules import Rules
from ..stats import Estimate, mean_interval, ratio_of_means
from ..sweep import summarize
from ..sweep.summary import FEEL_MATCH_MEASURES, FEEL_MEASURES


@dataclass(frozen=True)
class Measure:
    """One measurable quantity: its words, kind and possible values.

    ``kind``: ``share`` (0–1, shown in %), ``edge`` (a difference of shares, shown in pp) or
    ``number`` (shown as is, in ``unit``). Shares and edges are compared in percentage points,
    so a weight or a tolerance of 1 means 1 pp. ``signed``: minimising it means making its
    size small in either direction (an edge for the first player or against it). ``needs``:
    the games it is read from: the table as set (``table``), the skill design (``skill``) or
    the one-more-eight swap design (``eight``).
    """

    name: str
    words: str
    kind: str
    low: float
    high: float
    unit: str = ""
    signed: bool = False
    needs: str = "table"
    needs_match: bool = False

    @property
    def scale(self) -> float:
        """Factor from the measure's own units to the units losses are counted in (pp)."""
        return 100.0 if self.kind in ("share", "edge") else 1.0

    def show(self, value: float) -> str:
        if not math.isfinite(value):
            return "n/a"
        if self.kind == "share":  # a cap of 0.5% or 0.1% needs its decimals
            digits = 1 if abs(value) >= 0.01 else 2 if abs(value) >= 0.001 else 3
            return f"{100 * value:.{digits}f}%"
        if self.kind == "edge":
            return f"{100 * value:+.1f} pp"
        return f"{value:.1f}{' ' + self.unit if self.unit else ''}"

    def show_estimate(self, est: Estimate) -> str:
        """``value [low, high]``, rounded to what the interval supports (the plain verdicts'
        rule, :func:`vandatta_sim.experiments.plain.rounded`)."""
        if not math.isfinite(est.low):
            return self.show(est.value)
        v, lo, hi = rounded(est.value, est.low, est.high, self.scale)
        if self.kind == "share":
            return f"{v}% [{lo}, {hi}]"
        if self.kind == "edge":
            v, lo, hi = (x if x.startswith("-") else f"+{x}" for x in (v, lo, hi))
            return f"{v} pp [{lo}, {hi}]"
        return f"{v} [{lo}, {hi}]"


_NAMED = {m.name: m for m in (
    Measure("first_player_advantage", "first-player advantage", "edge", -1, 1, signed=True),
    Measure("deal_length", "deal length", "number", 1, 5000, "turns"),
    Measure("match_length", "match length", "number", 1, 1000, "deals", needs_match=True),
    Measure("skill", "skill", "edge", -1, 1, needs="skill"),
    Measure("eight_worth", "an eight's worth", "edge", -1, 1, needs="eight"),
    Measure("mean_turns", "turns per game", "number", 0, math.inf, "turns"),
    Measure("blocked_share", "blocked deals", "share", 0, 1),
    Measure("capped_share", "capped games", "share", 0, 1),
    Measure("loser_points", "losers' points", "number", 0, math.inf, "points"),
    Measure("mean_deals", "deals per game", "number", 1, 1000, "deals"),
    # the game feel (docs/columns.md, "Game-feel fields")
    Measure("lead_changes", "lead changes a deal", "number", 0, math.inf, "changes"),
    Measure("winner_behind", "the winner's worst lag", "number", 0, math.inf, "cards"),
    Measure("comeback_share", "comebacks", "share", 0, 1),
    Measure("decisiveness", "decisiveness", "share", 0, 1),
    Measure("choice_share", "turns with a real choice", "share", 0, 1),
    Measure("mean_options", "options a turn", "number", 0, math.inf, "options"),
    Measure("points_lead_changes", "lead changes on points a match", "number", 0, math.inf,
            "changes", needs_match=True),
    Measure("points_behind", "the match winner's worst lag", "number", 0, math.inf, "points",
            needs_match=True),
    Measure("points_comeback_share", "comebacks on points", "share", 0, 1, needs_match=True),
)}
_PER_SEAT = {"win_rate": ("seat {s}'s win rate", "share", 0, 1, ""),
             "mean_points": ("seat {s}'s points", "number", 0, math.inf, "points")}


def known_measures() -> str:
    """The measure names, for error messages."""
    return ", ".join([*_NAMED, *(f"{p}_<seat>" for p in _PER_SEAT)])


def is_feel_measure(name: str) -> bool:
    """Whether the measure is one of the game feel's (its games must record it)."""
    return name in {m for m, _, _ in FEEL_MEASURES + FEEL_MATCH_MEASURES}


def find_measure(name: str) -> Measure | None:
    """The measure called ``name`` (``win_rate_1`` and the like included), or None."""
    if name in _NAMED:
        return _NAMED[name]
    match = re.fullmatch(r"(win_rate|mean_points)_(\d)", str(name))
    if match is None:
        return None
    words, kind, low, high, unit = _PER_SEAT[match[1]]
    return Measure(name, words.format(s=match[2]), kind, low, high, unit)


def seat_of(measure: Measure) -> int | None:
    """The seat a per-seat measure is about (None for the others)."""
    match = re.fullmatch(r"(?:win_rate|mean_points)_(\d)", measure.name)
    return int(match[1]) if match else None


def _table_estimates(df: pd.DataFrame, rules: Rules, measures: Sequence[Measure]) -> list:
    players = rules.players
    summary = summarize(df, players)
    out = []
    for m in measures:
        if m.name == "first_player_advantage":
            out.append(forhand_advantage(df, players))
        elif m.name == "deal_length":
            turns = df["turns"].to_numpy(np.float64)
            out.append(mean_interval(turns) if rules.match == "single"
                       else ratio_of_means(turns, df["deals"].to_numpy(np.float64)))
        elif m.name == "match_length":
            out.append(mean_interval(df["deals"].to_numpy(np.float64)) if rules.match != "single"
                       else Estimate(math.nan, math.nan, math.nan, len(df)))
        elif m.name not in summary:  # the game feel of games stored without it
            out.append(Estimate(math.nan, math.nan, math.nan, len(df)))
        else:
            out.append(Estimate(summary[m.name], summary[f"{m.name}_low"],
                                summary[f"{m.name}_high"], len(df)))
    return out


def measure_table(runner: Runner, rules: Rules, policy: str, goals: Sequence, games: int,
                  skill_games: int, seed: int) -> list[Estimate]:
    """Every goal's estimate for one candidate rule set at one table size (``rules``), from
    games ``0 … games-1`` of ``seed`` (skill: ``0 … skill_games-1`` of ``seed + seat`` per
    focal seat, as :func:`~vandatta_sim.experiments.designs.skill_comparisons` plays them)."""
    out: list[Estimate | None] = [None] * len(goals)
    table = [i for i, g in enumerate(goals) if g.measure_info.needs == "table"]
    if table:
        df = runner.one(make_config(rules, policy), games, seed)
        for i, est in zip(table, _table_estimates(df, rules, [goals[i].measure_info
                                                              for i in table])):
            out[i] = est
    for i, goal in enumerate(goals):
        if goal.measure_info.needs == "skill":
            (_, cmp), = skill_comparisons(runner, [rules], goal.strong, goal.weak, skill_games,
                                          seed)
            out[i] = cmp["win"]
        elif goal.measure_info.needs == "eight":
            base, swapped = runner.run([make_config(rules, policy),
                                        make_config(rules, policy, swap="8")], games, seed)
            out[i] = swap_effects(swap_pairs(base, swapped, rules.players))["win"]
    return out
