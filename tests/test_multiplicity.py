"""Holm's procedure and intervals at adjusted levels (vandatta_sim.stats), by hand."""

import math

import numpy as np
import pytest

from vandatta_sim import stats
from vandatta_sim.stats import Estimate


# -- multiple comparisons -------------------------------------------------------------------------
def test_holm_adjust_hand_computed():
    # sorted: 0.005 (x4 = 0.02), 0.01 (x3 = 0.03), 0.03 (x2 = 0.06), 0.04 (x1 = 0.04 -> 0.06)
    adjusted = stats.holm_adjust([0.01, 0.04, 0.03, 0.005])
    np.testing.assert_allclose(adjusted, [0.03, 0.06, 0.06, 0.02])
    assert stats.holm_adjust([0.6, 0.7]).tolist() == [1.0, 1.0]  # capped at 1
    assert stats.holm_adjust([float("nan"), 0.01]).tolist() == [1.0, 0.02]


def test_holm_levels_hand_computed_and_agree_with_adjusted_p():
    p = [0.01, 0.04, 0.03, 0.005]
    levels = stats.holm_levels(p, 0.05)
    # 0.005 at 0.05/4, 0.01 at 0.05/3, 0.03 > 0.05/2: stop; 0.04 keeps 0.05/2
    np.testing.assert_allclose(levels, [0.05 / 3, 0.025, 0.025, 0.0125])
    rejected = np.asarray(p) <= levels
    assert rejected.tolist() == (stats.holm_adjust(p) <= 0.05).tolist() == [True, False,
                                                                            False, True]


def test_interval_at_and_p_value_are_consistent():
    est = Estimate(1.0, 1.0 - 1.96 * 0.5, 1.0 + 1.96 * 0.5, 1000)  # se 0.5 (z 1.96 ~ 95%)
    z95 = stats.normal_critical(0.95)
    wide = stats.interval_at(est, 0.99)
    assert wide.high - 1.0 == pytest.approx(0.5 * 1.96 / z95 * stats.normal_critical(0.99))
    assert stats.interval_at(est, 0.95) == est
    p = stats.p_value(est, 0.0)
    assert p == pytest.approx(2 * (1 - 0.5 * (1 + math.erf(1.0 / (0.5 * 1.96 / z95)
                                                            / math.sqrt(2)))))
    # the interval at confidence 1 - p just touches the null
    assert stats.interval_at(est, 1 - p).low == pytest.approx(0.0, abs=1e-9)
    assert stats.p_value(Estimate(1.0, float("nan"), float("nan"), 1)) == 1.0
    # an asymmetric (Wilson-like) interval keeps its shape
    skew = stats.interval_at(Estimate(0.1, 0.08, 0.13, 500), 0.99)
    assert (0.1 - skew.low) / (skew.high - 0.1) == pytest.approx(0.02 / 0.03)


def test_quantile_interval_by_hand_and_coverage():
    x = np.arange(1, 101)  # 1 … 100
    est = stats.quantile_interval(x, 0.5)
    # n q = 50, spread = 1.96 * sqrt(25) = 9.8: ranks floor(40.2) = 40 and ceil(59.8) = 60
    assert (est.value, est.low, est.high, est.n) == (50.5, 41.0, 61.0, 100)
    assert stats.quantile_interval(x, 0.99).high == 100  # clipped to the sample
    with pytest.raises(ValueError):
        stats.quantile_interval(x, 1.0)
    # coverage of the true median of an exponential(1), ln 2, over repeated samples
    rng = np.random.default_rng(7)
    covered = 0
    for _ in range(400):
        e = stats.quantile_interval(rng.exponential(size=400), 0.5)
        covered += e.low <= math.log(2) <= e.high
    assert 0.92 <= covered / 400 <= 0.985
