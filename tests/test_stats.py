import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from scipy.stats import binomtest, norm, t

from vandatta_sim.stats import (
    Estimate,
    detectable_difference,
    games_for_half_width,
    games_to_detect,
    independent_difference,
    mean_interval,
    paired_difference,
    proportion,
    ratio_of_means,
    ratio_root,
    relative_change,
    unpaired_difference,
    wilson_interval,
    win_rate_half_width,
)

Z95 = norm.ppf(0.975)


def wilson_by_hand(k, n, z=Z95):
    """The textbook Wilson score interval, written out independently of the module."""
    p = k / n
    denominator = 1 + z**2 / n
    centre = (p + z**2 / (2 * n)) / denominator
    half = z / denominator * math.sqrt(p * (1 - p) / n + z**2 / (4 * n**2))
    return centre - half, centre + half


# -- Wilson ------------------------------------------------------------------------------------


def test_wilson_textbook_value():
    low, high = wilson_interval(81, 263)
    assert (round(low, 4), round(high, 4)) == (0.2553, 0.3662)
    assert (low, high) == pytest.approx(wilson_by_hand(81, 263), abs=1e-12)


@pytest.mark.parametrize("k,n", [(81, 263), (0, 10), (10, 10), (1, 2), (500, 1000), (3, 1000)])
def test_wilson_matches_scipy(k, n):
    ci = binomtest(k, n).proportion_ci(confidence_level=0.95, method="wilson")
    assert wilson_interval(k, n) == pytest.approx((ci.low, ci.high), abs=1e-12)


def test_wilson_other_confidence():
    ci = binomtest(30, 120).proportion_ci(confidence_level=0.99, method="wilson")
    assert wilson_interval(30, 120, 0.99) == pytest.approx((ci.low, ci.high), abs=1e-12)


def test_wilson_vectorised():
    k = np.array([[0, 5, 81], [10, 263, 1]])
    n = np.array([[10, 10, 263], [10, 263, 2]])
    low, high = wilson_interval(k, n)
    assert low.shape == high.shape == (2, 3)
    for i, j in np.ndindex(k.shape):
        assert (low[i, j], high[i, j]) == pytest.approx(wilson_by_hand(k[i, j], n[i, j]))


def test_wilson_edges():
    assert all(math.isnan(v) for v in wilson_interval(0, 0))
    low, high = wilson_interval(np.array([0, 3]), np.array([0, 4]))
    assert math.isnan(low[0]) and math.isnan(high[0]) and 0 < low[1] < high[1] < 1
    low, high = wilson_interval(50, 50)  # all successes: the interval reaches exactly 1
    assert high == 1.0 and low == pytest.approx(wilson_by_hand(50, 50)[0])
    low, high = wilson_interval(0, 50)
    assert low == 0.0 and high == pytest.approx(wilson_by_hand(0, 50)[1])


@given(n=st.integers(1, 10**7), frac=st.floats(0, 1))
def test_wilson_contains_estimate_inside_unit_interval(n, frac):
    k = round(frac * n)
    low, high = wilson_interval(k, n)
    assert 0 <= low <= k / n <= high <= 1


def test_wilson_coverage_by_simulation():
    rng = np.random.default_rng(20240601)
    n, reps = 200, 20_000
    for p in (0.1, 0.26, 0.5):
        k = rng.binomial(n, p, size=reps)
        low, high = wilson_interval(k, n)
        coverage = np.mean((low <= p) & (p <= high))
        # Monte Carlo s.e. is 0.0015; Wilson's own coverage wobbles by about 0.01 around 0.95.
        assert abs(coverage - 0.95) < 0.02, (p, coverage)


def test_proportion():
    est = proportion(81, 263)
    assert est.value == 81 / 263 and est.n == 263
    assert (est.low, est.high) == wilson_interval(81, 263)
    empty = proportion(0, 0)
    assert empty.n == 0 and all(math.isnan(v) for v in (empty.value, empty.low, empty.high))


# -- means and differences -----------------------------------------------------------------------


def test_mean_interval_small_sample_uses_t():
    x = np.array([3.0, 1.0, 4.0, 1.0, 5.0, 9.0, 2.0, 6.0])
    est = mean_interval(x)
    expected = t.interval(0.95, len(x) - 1, loc=x.mean(), scale=x.std(ddof=1) / math.sqrt(len(x)))
    assert est.value == pytest.approx(x.mean())
    assert (est.low, est.high) == pytest.approx(expected)
    assert est.n == 8


def test_mean_interval_large_sample_uses_normal():
    x = np.random.default_rng(1).normal(10, 3, size=1000)
    est = mean_interval(x)
    assert est.half_width == pytest.approx(Z95 * x.std(ddof=1) / math.sqrt(1000))


def test_mean_interval_edges_and_booleans():
    empty = mean_interval([])
    assert empty.n == 0 and math.isnan(empty.value) and math.isnan(empty.low)
    one = mean_interval([2.5])
    assert one.value == 2.5 and math.isnan(one.low) and math.isnan(one.high)
    est = mean_interval(np.array([True, False, True, True] * 10))
    assert est.value == 0.75 and est.n == 40


def test_mean_interval_coverage_by_simulation():
    rng = np.random.default_rng(7)
    samples = rng.exponential(2.0, size=(2000, 12))  # skewed and small: t-based interval
    intervals = [mean_interval(row) for row in samples]
    hits = [est.low <= 2.0 <= est.high for est in intervals]
    # Skewness costs t-intervals a little coverage at n = 12; s.e. of the estimate is 0.005.
    assert 0.89 < np.mean(hits) < 0.97


def correlated_outcomes(rng, n, shift):
    """Points of two variants on the same deals: a shared deal effect plus small own noise."""
    deal = rng.normal(0, 5, size=n)
    return deal + rng.normal(0, 1, size=n) + shift, deal + rng.normal(0, 1, size=n)


def test_paired_difference_is_mean_of_differences_and_narrower():
    rng = np.random.default_rng(3)
    a, b = correlated_outcomes(rng, 5000, shift=0.1)
    paired = paired_difference(a, b)
    unpaired = unpaired_difference(a, b)
    assert paired.value == pytest.approx(np.mean(a - b))
    assert paired.n == 5000
    assert paired == mean_interval(a - b)
    assert unpaired.value == pytest.approx(a.mean() - b.mean())
    assert paired.half_width < unpaired.half_width / 3
    assert paired.significant and not unpaired.significant


def test_paired_difference_coverage_by_simulation():
    rng = np.random.default_rng(11)
    hits = 0
    for _ in range(1000):
        a, b = correlated_outcomes(rng, 100, shift=0.3)
        est = paired_difference(a, b)
        hits += est.low <= 0.3 <= est.high
    assert abs(hits / 1000 - 0.95) < 0.025  # Monte Carlo s.e. 0.007


# -- Fieller (ratio_root, and ratio_of_means on it: the one implementation) --------------------
# Each test draws 5,000 samples with a known true ratio; the Monte Carlo s.e. of a coverage is
# about 0.003 (at 0.95) to 0.006 (at 0.80), so a tolerance of 0.012 / 0.02 is four of them. These
# fail for a Fieller interval without the covariance term (coverage 1.00 on the matches below),
# for the delta method where the slope is uncertain (0.963-0.970), and for a wrong z.


@pytest.mark.parametrize("confidence, tolerance", [(0.95, 0.012), (0.80, 0.02)])
def test_ratio_of_means_covers_the_true_turns_per_deal(confidence, tolerance):
    """Matches of 1 + Poisson(2) deals, each deal Gamma(2, 10) turns (20 a deal, the truth);
    the interval of mean(turns) / mean(deals) over 100 matches holds 20 at its confidence."""
    rng = np.random.default_rng(29)
    hits = 0
    for _ in range(5000):
        deals = 1 + rng.poisson(2.0, 100)
        turns = rng.gamma(2.0 * deals, 10.0)  # a sum of `deals` Gamma(2, 10) deals
        est = ratio_of_means(turns, deals, confidence)
        assert est.value == pytest.approx(turns.sum() / deals.sum())
        hits += est.low <= 20.0 <= est.high
    assert abs(hits / 5000 - confidence) < tolerance


@pytest.mark.parametrize("confidence, tolerance", [(0.95, 0.012), (0.80, 0.02)])
def test_ratio_root_covers_the_true_root_with_an_uncertain_slope(confidence, tolerance):
    """Per-observation lines a_i + b_i·x crossing 0 at 12 on average, the slope's mean 0.5
    with sd 2 (about 5 standard errors from 0 at n = 400): Fieller's interval holds 12 at its
    confidence (an unbounded interval counts as a miss)."""
    rng = np.random.default_rng(31)
    hits = 0
    for _ in range(5000):
        b = rng.normal(0.5, 2.0, 400)
        a = -12.0 * b + rng.normal(0.0, 3.0, 400)
        est = ratio_root(a, b, confidence)
        hits += est.low <= 12.0 <= est.high
    assert abs(hits / 5000 - confidence) < tolerance


def test_ratio_of_means_is_ratio_root_of_the_negated_denominator():
    """One Fieller: the ratio's interval is the root's, the value kept where it is unbounded."""
    rng = np.random.default_rng(5)
    deals = 1 + rng.poisson(1.5, 300)
    turns = rng.gamma(2.0 * deals, 8.0)
    est, root = ratio_of_means(turns, deals), ratio_root(turns, -deals)
    assert (est.value, est.low, est.high) == pytest.approx((root.value, root.low, root.high))
    noisy = rng.normal(0.0, 1.0, 300)  # a denominator not shown to differ from 0
    unbounded = ratio_of_means(turns, noisy)
    assert math.isnan(unbounded.low) and math.isnan(unbounded.high)
    assert unbounded.value == pytest.approx(turns.mean() / noisy.mean())
    one = ratio_of_means([30.0], [2.0])
    assert one.value == 15.0 and math.isnan(one.low) and one.n == 1


def test_paired_difference_of_win_indicators():
    rng = np.random.default_rng(5)
    base = rng.random(100_000)
    a, b = base < 0.30, base < 0.28  # variant a wins every deal b wins, and some more
    est = paired_difference(a, b)
    assert est.value == pytest.approx(a.mean() - b.mean())
    d = a.astype(float) - b.astype(float)
    assert est.half_width == pytest.approx(Z95 * d.std(ddof=1) / math.sqrt(len(d)))
    assert est.significant


def test_paired_difference_requires_equal_lengths():
    with pytest.raises(ValueError, match="same shape"):
        paired_difference([1, 2, 3], [1, 2])


def test_unpaired_difference_welch():
    rng = np.random.default_rng(9)
    a, b = rng.normal(1, 2, size=400), rng.normal(0, 1, size=900)
    est = unpaired_difference(a, b)
    se = math.sqrt(a.var(ddof=1) / 400 + b.var(ddof=1) / 900)
    assert est.half_width == pytest.approx(Z95 * se)
    assert est.n == 1300
    small = unpaired_difference(a[:10], b[:20])  # small samples: Welch t is wider than normal
    se_small = math.sqrt(a[:10].var(ddof=1) / 10 + b[:20].var(ddof=1) / 20)
    assert small.half_width > Z95 * se_small
    assert math.isnan(unpaired_difference([1.0], [1.0, 2.0]).low)


# -- planning and stopping -----------------------------------------------------------------------


def test_win_rate_half_width():
    low, high = wilson_interval(2612, 10_000)
    assert win_rate_half_width(2612, 10_000) == pytest.approx((high - low) / 2)
    widths = win_rate_half_width(np.array([0, 10, 2612]), np.array([0, 40, 10_000]))
    assert widths[0] == np.inf and widths[1] > widths[2] > 0


@pytest.mark.parametrize("p", [0.0, 0.05, 0.26, 0.5, 0.9, 1.0])
@pytest.mark.parametrize("h", [0.002, 0.01, 0.05])
def test_games_for_half_width_is_the_smallest_sufficient_n(p, h):
    n = games_for_half_width(p, h)
    assert isinstance(n, int)
    # Fractional successes p * n keep the observed rate exactly p.
    assert win_rate_half_width(p * n, n) <= h + 1e-12
    if n > 1:
        assert win_rate_half_width(p * (n - 1), n - 1) > h


@pytest.mark.parametrize("power", [0.5, 0.8, 0.9])
def test_a_difference_of_the_detectable_size_is_seen_with_the_stated_power(power):
    # The test statistic of a true difference d measured with standard error se is normal
    # around d / se: it passes the two-sided 5 % bound with probability power (scipy's normal).
    est = Estimate(0.01, -0.03, 0.05, 1000)
    se = est.half_width / Z95
    d = detectable_difference(est, power)
    assert norm.sf(Z95 - d / se) + norm.cdf(-Z95 - d / se) == pytest.approx(power, abs=1e-3)


def test_the_detectable_difference_is_seen_that_often_in_paired_samples():
    # Simulated checks: 2,000 paired samples of 400 per-deal differences (standard deviation 1,
    # so a standard error of 1/20) whose true mean is the detectable difference at that
    # precision; about 80 % of them come out significant.
    rng = np.random.default_rng(7)
    d = detectable_difference(Estimate(0.0, -Z95 / 20, Z95 / 20, 400))
    seen = [paired_difference(rng.normal(d, 1, 400), np.zeros(400)).significant
            for _ in range(2000)]
    assert np.mean(seen) == pytest.approx(0.8, abs=0.035)


@given(st.floats(0.001, 0.2), st.integers(10, 100_000), st.floats(0.001, 0.5))
def test_games_to_detect_reach_the_target_and_grow_as_it_shrinks(half, games, target):
    est = Estimate(0.0, -half, half, games)
    needed = games_to_detect(est, games, target)
    # the half-width at the games needed (it falls as one over their square root)
    at_needed = Estimate(0.0, -half * math.sqrt(games / needed), half * math.sqrt(games / needed),
                         needed)
    assert detectable_difference(at_needed) <= target * (1 + 1e-9)
    if needed > 1:
        fewer = math.sqrt(games / (needed - 1))
        assert detectable_difference(Estimate(0.0, -half * fewer, half * fewer, needed)) > target
    assert games_to_detect(est, games, target / 2) >= needed


def test_games_to_detect_refuses_a_target_of_zero():
    with pytest.raises(ValueError, match="target"):
        games_to_detect(Estimate(0.0, -0.1, 0.1, 10), 10, 0.0)


def test_games_for_half_width_planning_values():
    # Close to the textbook z² p (1 - p) / h² (Wilson needs about z² fewer games).
    normal = Z95**2 * 0.25 / 0.01**2
    assert normal - Z95**2 - 1 <= games_for_half_width(0.5, 0.01) <= normal
    assert games_for_half_width(np.array([0.1, 0.5]), 0.01).tolist() == [
        games_for_half_width(0.1, 0.01),
        games_for_half_width(0.5, 0.01),
    ]
    with pytest.raises(ValueError):
        games_for_half_width(0.5, 0)


# -- Estimate and wording ------------------------------------------------------------------------


def test_estimate_formatting():
    est = Estimate(0.26123, 0.25814, 0.26432, 10_000)
    assert str(est) == "0.2612 [0.2581, 0.2643]"
    assert est.format() == "0.261 [0.258, 0.264]"
    assert est.format(percent=True) == "26.1% [25.8, 26.4]"
    assert est.format(4, percent=True) == "26.12% [25.81, 26.43]"
    assert est.half_width == pytest.approx(0.00309)


def test_significance():
    up = Estimate(0.02, 0.01, 0.03, 100)
    down = Estimate(-0.02, -0.03, -0.01, 100)
    flat = Estimate(0.001, -0.01, 0.012, 100)
    assert up.significant and down.significant and not flat.significant
    nothing = mean_interval([1.0])
    assert not nothing.significant


# -- ratio and independent-sample estimators -----------------------------------------------------------------------------------


def test_relative_change_value_and_delta_method():
    rng = np.random.default_rng(3)
    b = rng.integers(0, 2, 2000).astype(float)
    a = np.where(rng.random(2000) < 0.2, 1 - b, b)
    est = relative_change(a, b)
    r = a.mean() / b.mean()
    assert est.value == pytest.approx(r - 1)
    z = (a - r * b) / b.mean()
    half = Z95 * z.std(ddof=1) / np.sqrt(len(a))
    assert (est.low, est.high) == pytest.approx((r - 1 - half, r - 1 + half))
    same = relative_change(b, b)
    assert (same.value, same.low, same.high) == (0.0, 0.0, 0.0)


def test_relative_change_exact_on_an_enumerated_population():
    """Over all 2^k outcome pairs of a tiny paired population the ratio of means is exact."""
    # population: every (a, b) in {0,1}^2 with weights 1, 2, 3, 4 (as repeated rows)
    pairs = [(0, 0)] * 1 + [(0, 1)] * 2 + [(1, 0)] * 3 + [(1, 1)] * 4
    a, b = np.array(pairs, dtype=float).T
    est = relative_change(a, b)
    assert est.value == pytest.approx(Fraction(7, 6) - 1)  # mean a = 7/10, mean b = 6/10
    assert est.low < est.value < est.high


def test_independent_difference_adds_standard_errors():
    e1 = Estimate(0.3, 0.3 - Z95 * 0.03, 0.3 + Z95 * 0.03, 100)
    e2 = Estimate(0.1, 0.1 - Z95 * 0.04, 0.1 + Z95 * 0.04, 50)
    d = independent_difference(e1, e2)
    assert d.value == pytest.approx(0.2)
    assert d.high - d.value == pytest.approx(Z95 * 0.05)
    assert d.n == 150


def test_log_odds_change_of_paired_outcomes():
    from vandatta_sim.stats import log_odds_change

    rng = np.random.default_rng(4)
    b = rng.random(20_000) < 0.25
    a = np.where(rng.random(20_000) < 0.8, b, rng.random(20_000) < 0.4)  # paired, correlated
    est = log_odds_change(a, b)
    pa, pb = a.mean(), b.mean()
    assert est.value == pytest.approx(np.log(pa / (1 - pa)) - np.log(pb / (1 - pb)))
    assert est.low < est.value < est.high
    back = log_odds_change(b, a)  # antisymmetric
    assert back.value == pytest.approx(-est.value) and back.low == pytest.approx(-est.high)
    # pairing narrows the interval against the independent-samples one
    se_independent = np.sqrt(1 / (len(a) * pa * (1 - pa)) + 1 / (len(b) * pb * (1 - pb)))
    assert est.high - est.low < 2 * 1.96 * se_independent
    assert np.isnan(log_odds_change(np.ones(10), b[:10]).value)
