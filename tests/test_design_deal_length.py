"""The designer's deal length over matches is turns per deal with Fieller's interval, from the
one implementation in stats (issue 37: design/goals had a second, untested copy)."""

from __future__ import annotations

import pytest

from vandatta_sim.design.goals import _table_estimates, find_measure
from vandatta_sim.rules import PRESETS
from vandatta_sim.simulate import simulate
from vandatta_sim.stats import ratio_of_means


def test_deal_length_over_matches_is_the_stats_fieller_ratio():
    rules = PRESETS["standard"].replace(players=3)
    assert rules.match != "single"
    df = simulate(rules, 60, 5)
    est, = _table_estimates(df, rules, [find_measure("deal_length")])
    assert est == ratio_of_means(df["turns"], df["deals"])
    assert est.value == pytest.approx(df["turns"].sum() / df["deals"].sum())
    assert est.low < est.value < est.high
