"""Confidence intervals and paired comparisons for simulation results.

Everything here works on whole columns at once (numpy/scipy, no Python loops), so it stays fast
on tables of 10^7 games. Conventions:

* Win rates and other proportions use the Wilson score interval: unlike the plain normal
  interval it stays inside [0, 1] and keeps close to its nominal coverage near 0 and 1.
* Means use a normal interval, with Student's t instead for fewer than 30 observations.
* Two variants (rules, policies) played on the *same deals* (common random numbers) are
  compared with :func:`paired_difference`; its interval uses the variance of the per-deal
  differences, which is far smaller than an unpaired comparison's when the two outcomes are
  positively correlated, so fewer games are needed for the same precision.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from .formatting import format_estimate  # the one formatter (it imports nothing of the package)

#: Below this many observations a mean's interval uses Student's t rather than the normal.
SMALL_SAMPLE = 30


@dataclass(frozen=True)
class Estimate:
    """A point estimate with its confidence interval ``[low, high]`` from ``n`` observations."""

    value: float
    low: float
    high: float
    n: int

    @property
    def half_width(self) -> float:
        # Half the interval's width (Wilson intervals are not symmetric about the value).
        return (self.high - self.low) / 2

    @property
    def significant(self) -> bool:
        """For a difference: whether the interval excludes 0 (False when undefined)."""
        return bool(self.low > 0 or self.high < 0)

    def format(self, digits: int = 3, percent: bool = False) -> str:
        """``0.261 [0.258, 0.264]``, or with ``percent=True`` ``26.1% [25.8, 26.4]``.

        ``digits`` counts decimals of the fraction; the percent form shows the same resolution.
        (:func:`vandatta_sim.formatting.format_estimate` is the one formatter.)
        """
        if percent:
            return format_estimate(self, "pct", max(digits - 2, 0))
        return format_estimate(self, "num", digits)

    def __str__(self) -> str:
        return self.format(4)


def estimate_columns(name: str, est: Estimate) -> dict[str, float]:
    """``{name: value, name_low: low, name_high: high}`` for tidy tables and JSON: one suffix
    convention everywhere, read back by :func:`column_estimate`."""
    return {name: est.value, f"{name}_low": est.low, f"{name}_high": est.high}


def column_estimate(row, name: str, n: int = 0) -> Estimate:
    """The estimate stored by :func:`estimate_columns` in a row (mapping or Series)."""
    return Estimate(float(row[name]), float(row[f"{name}_low"]), float(row[f"{name}_high"]), n)


def row_estimate(row, name: str) -> Estimate:
    """:func:`column_estimate` with the count taken from the row's ``n`` column."""
    return column_estimate(row, name, int(row["n"]))


@lru_cache(maxsize=64)
def normal_critical(confidence: float = 0.95) -> float:
    """Two-sided normal critical value, e.g. 1.96 for 0.95.

    The standard library's quantile (equal to scipy's ``norm.ppf`` to about 1e-15): importing
    scipy.stats for it cost half a second of every small run's start-up."""
    from statistics import NormalDist

    return float(NormalDist().inv_cdf(0.5 + confidence / 2))


def _t_two_sided(t: float, df: int) -> float:
    """P(|T| ≤ t) for Student's t with a whole number ``df`` of degrees of freedom: the
    closed form of Abramowitz & Stegun 26.7.3–26.7.4 (a finite sum in cos θ, θ = atan(t/√df))."""
    theta = math.atan(t / math.sqrt(df))
    c2, s = math.cos(theta) ** 2, math.sin(theta)
    if df % 2 == 0:
        term = total = 1.0
        for k in range(2, df, 2):  # 1, (1/2)c², (1·3)/(2·4)c⁴, …
            term *= c2 * (k - 1) / k
            total += term
        return s * total
    if df == 1:
        return 2 * theta / math.pi
    term = total = math.cos(theta)
    for k in range(3, df, 2):  # cos θ, (2/3)cos³θ, (2·4)/(1·3·5)… up to cos^(df-2)θ
        term *= c2 * (k - 1) / k
        total += term
    return 2 * (theta + s * total) / math.pi


@lru_cache(maxsize=256)
def student_critical(confidence: float, df: float) -> float:
    """Two-sided critical value of Student's t with ``df`` degrees of freedom.

    For a whole ``df`` (every caller's ``n - 1``) it is found by bisection on the exact
    closed-form distribution function, to the last bit (equal to scipy's ``t.ppf`` to about
    1e-13), so that a small run needs no scipy at start-up; scipy answers other ``df``."""
    if float(df).is_integer() and 1 <= df <= 10_000 and 0 < confidence < 1:
        df = int(df)
        low, high = 0.0, 1.0
        while _t_two_sided(high, df) < confidence:
            high *= 2
        for _ in range(200):
            mid = (low + high) / 2
            if mid in (low, high):
                break
            if _t_two_sided(mid, df) < confidence:
                low = mid
            else:
                high = mid
        return high
    from scipy import stats as sp

    return float(sp.t.ppf(0.5 + confidence / 2, df))


def critical(confidence: float, df: float) -> float:
    """Two-sided critical value: Student's t for small samples, else the normal."""
    if df < SMALL_SAMPLE - 1:
        return student_critical(confidence, df)
    return normal_critical(confidence)


_z = normal_critical


def wilson_interval(successes, n, confidence: float = 0.95):
    """Wilson score interval ``(low, high)`` for ``successes`` out of ``n``.

    Scalars give scalars, arrays give arrays (broadcast elementwise); ``n = 0`` gives NaN.
    """
    s = np.asarray(successes, dtype=np.float64)
    n = np.asarray(n, dtype=np.float64)
    z = _z(confidence)
    # n = 0 divides by zero; the resulting NaNs are the intended answer, so silence the warning.
    with np.errstate(divide="ignore", invalid="ignore"):
        p = s / n
        shrink = 1 + z * z / n
        centre = (p + z * z / (2 * n)) / shrink
        half = z * np.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / shrink
    # The exact ends at 0 and n successes, which rounding misses (1e-20, 1.0000000000000002).
    # p is NaN when n = 0, so those stay NaN.
    low = np.where(p == 0, 0.0, centre - half)
    high = np.where(p == 1, 1.0, centre + half)
    return low[()], high[()]  # [()] turns 0-d arrays into scalars, leaves arrays alone


def proportion(successes, n, confidence: float = 0.95) -> Estimate:
    """The proportion ``successes / n`` with its Wilson interval (NaN when ``n = 0``)."""
    low, high = wilson_interval(successes, n, confidence)
    value = successes / n if n else float("nan")
    return Estimate(float(value), float(low), float(high), int(n))


def mean_interval(x, confidence: float = 0.95) -> Estimate:
    """Mean of ``x`` with a normal interval (t-based below 30 observations).

    The interval is NaN with fewer than two observations.
    """
    x = np.asarray(x, dtype=np.float64).ravel()  # bool/int outcomes become 0/1 floats
    n = x.size
    if n == 0:
        return Estimate(float("nan"), float("nan"), float("nan"), 0)
    mean = float(x.mean())
    if n == 1:
        return Estimate(mean, float("nan"), float("nan"), 1)
    margin = critical(confidence, n - 1) * float(np.sqrt(x.var(ddof=1) / n))
    return Estimate(mean, mean - margin, mean + margin, n)


def paired_difference(a, b, confidence: float = 0.95) -> Estimate:
    """Mean of ``a - b`` over paired observations, with an interval from the differences' variance.

    ``a[i]`` and ``b[i]`` must come from the same deal (common random numbers). Works for 0/1
    outcomes (a paired difference of proportions) and for points alike.
    """
    a = np.asarray(a, dtype=np.float64)  # float first: numpy refuses to subtract booleans
    b = np.asarray(b, dtype=np.float64)
    if a.shape != b.shape:
        raise ValueError(f"paired samples must have the same shape, got {a.shape} and {b.shape}")
    return mean_interval(a - b, confidence)


def unpaired_difference(a, b, confidence: float = 0.95) -> Estimate:
    """Difference of means ``mean(a) - mean(b)`` of independent samples (Welch interval).

    Use only where pairing is impossible. The normal critical value is used unless either
    sample has fewer than 30 observations, then Student's t with Welch–Satterthwaite degrees of
    freedom. ``n`` of the result is ``len(a) + len(b)``.
    """
    a = np.asarray(a, dtype=np.float64).ravel()
    b = np.asarray(b, dtype=np.float64).ravel()
    value = float(a.mean() - b.mean()) if a.size and b.size else float("nan")
    if a.size < 2 or b.size < 2:
        return Estimate(value, float("nan"), float("nan"), a.size + b.size)
    va, vb = a.var(ddof=1) / a.size, b.var(ddof=1) / b.size
    se = float(np.sqrt(va + vb))
    if min(a.size, b.size) < SMALL_SAMPLE and va + vb > 0:
        df = (va + vb) ** 2 / (va**2 / (a.size - 1) + vb**2 / (b.size - 1))
        crit = student_critical(confidence, df)
    else:
        crit = _z(confidence)
    return Estimate(value, value - crit * se, value + crit * se, a.size + b.size)


def relative_change(a, b, confidence: float = 0.95) -> Estimate:
    """``mean(a) / mean(b) - 1`` of paired observations, with a delta-method interval.

    The interval is the normal interval of the mean of the linearised values
    ``(a_i - r b_i) / mean(b)`` with ``r = mean(a) / mean(b)``: first-order exact for large
    ``n``, and it accounts for the correlation of ``a`` and ``b`` within a pair.
    """
    a = np.asarray(a, dtype=np.float64).ravel()
    b = np.asarray(b, dtype=np.float64).ravel()
    if a.shape != b.shape:
        raise ValueError(f"paired samples must have the same shape, got {a.shape} and {b.shape}")
    n = a.size
    if n < 2 or b.mean() == 0:
        return Estimate(float("nan"), float("nan"), float("nan"), n)
    z = normal_critical(confidence)
    r = a.mean() / b.mean()
    lin = (a - r * b) / b.mean()
    se = float(np.sqrt(lin.var(ddof=1) / n))
    return Estimate(float(r - 1), float(r - 1 - z * se), float(r - 1 + z * se), n)


def log_odds_change(a, b, confidence: float = 0.95) -> Estimate:
    """``logit(mean(a)) - logit(mean(b))`` of paired 0/1 outcomes (the log of the odds ratio),
    with a delta-method interval.

    The interval is the normal interval of the mean of the linearised values
    ``(a_i - p_a) / (p_a (1 - p_a)) - (b_i - p_b) / (p_b (1 - p_b))``, so the pairing is
    accounted for; nan where either rate is 0 or 1.
    """
    a = np.asarray(a, dtype=np.float64).ravel()
    b = np.asarray(b, dtype=np.float64).ravel()
    if a.shape != b.shape:
        raise ValueError(f"paired samples must have the same shape, got {a.shape} and {b.shape}")
    n = a.size
    nan = float("nan")
    pa, pb = (float(a.mean()), float(b.mean())) if n else (nan, nan)
    if n < 2 or not (0 < pa < 1 and 0 < pb < 1):
        return Estimate(nan, nan, nan, n)
    value = math.log(pa / (1 - pa)) - math.log(pb / (1 - pb))
    lin = (a - pa) / (pa * (1 - pa)) - (b - pb) / (pb * (1 - pb))
    half = normal_critical(confidence) * float(np.sqrt(lin.var(ddof=1) / n))
    return Estimate(value, value - half, value + half, n)


def ratio_root(a, b, confidence: float = 0.95) -> Estimate:
    """Root ``x* = -mean(a) / mean(b)`` of the mean line ``mean(a) + mean(b)·x`` of paired
    per-observation lines ``a_i + b_i·x``, with Fieller's interval.

    Fieller's interval is every ``x`` whose mean line value ``mean(a) + x·mean(b)`` is within
    ``z`` of its own standard error of 0, i.e. the ``x`` the paired z-test of
    ``mean(a_i + x·b_i) = 0`` does not reject: the roots of the quadratic
    ``(ā + x b̄)² = z² (s_aa + 2x s_ab + x² s_bb) / n``. Unlike the delta method it stays
    exact where the slope ``mean(b)`` is uncertain (its interval widens and becomes
    asymmetric). It is bounded exactly when the slope's own z-test rejects 0
    (``b̄² > z² s_bb / n``); otherwise the value and the ends are nan (not bounded).
    """
    a = np.asarray(a, dtype=np.float64).ravel()
    b = np.asarray(b, dtype=np.float64).ravel()
    if a.shape != b.shape:
        raise ValueError(f"paired samples must have the same shape, got {a.shape} and {b.shape}")
    n = a.size
    nan = float("nan")
    if n < 2:
        return Estimate(nan, nan, nan, n)
    z2 = normal_critical(confidence) ** 2
    am, bm = float(a.mean()), float(b.mean())
    cov = np.cov(a, b, ddof=1) / n  # variances and covariance of the two means
    s_aa, s_ab, s_bb = float(cov[0, 0]), float(cov[0, 1]), float(cov[1, 1])
    # (ā + x b̄)² - z²(s_aa + 2x s_ab + x² s_bb) = q2 x² + 2 q1 x + q0 ≤ 0
    q2 = bm * bm - z2 * s_bb
    q1 = am * bm - z2 * s_ab
    q0 = am * am - z2 * s_aa
    if not q2 > 0:  # the slope is not shown to differ from 0: the set is not an interval
        return Estimate(nan, nan, nan, n)
    disc = max(q1 * q1 - q0 * q2, 0.0)  # ≥ 0 whenever q2 > 0 (the root itself is inside)
    root = -am / bm
    low, high = (-q1 - math.sqrt(disc)) / q2, (-q1 + math.sqrt(disc)) / q2
    return Estimate(float(root), float(low), float(high), n)


def ratio_of_means(num, den, confidence: float = 0.95) -> Estimate:
    """``mean(num) / mean(den)`` of paired per-unit values (e.g. turns per deal, over matches
    of several deals each), with Fieller's interval.

    The ratio is the root of the mean line ``mean(num_i - x·den_i)``, so this is
    :func:`ratio_root` of ``(num, -den)``: one Fieller implementation for both. Unlike
    :func:`ratio_root` the value is kept where the interval is not bounded (the denominator's
    mean not shown to differ from 0, or fewer than two units): the ends are then nan.
    """
    num = np.asarray(num, dtype=np.float64).ravel()
    den = np.asarray(den, dtype=np.float64).ravel()
    est = ratio_root(num, -den, confidence)
    value = float(num.mean() / den.mean()) if num.size and den.mean() != 0 else float("nan")
    return Estimate(value, est.low, est.high, est.n)


def independent_difference(first: Estimate, second: Estimate,
                           confidence: float = 0.95) -> Estimate:
    """``first - second`` for estimates from independent samples with normal intervals.

    The standard errors are read back from the intervals (half-width / z) and added in
    quadrature. Use it only where the two estimates share no games.
    """
    z = normal_critical(confidence)
    se1 = (first.high - first.low) / (2 * z)
    se2 = (second.high - second.low) / (2 * z)
    se = math.sqrt(se1 * se1 + se2 * se2)
    value = first.value - second.value
    return Estimate(value, value - z * se, value + z * se, first.n + second.n)


@dataclass(frozen=True)
class Moments:
    """Count, mean and sum of squared deviations of a sample; merged exactly (Chan et al.), so
    a mean's interval can be built chunk by chunk without holding the sample."""

    n: int = 0
    mean: float = 0.0
    m2: float = 0.0

    @classmethod
    def of(cls, x: np.ndarray) -> Moments:
        if x.size == 0:
            return cls()
        mean = float(x.mean())
        d = x - mean
        return cls(int(x.size), mean, float(np.sum(d * d)))

    def merge(self, other: Moments) -> Moments:
        if not other.n:
            return self
        if not self.n:
            return other
        n = self.n + other.n
        delta = other.mean - self.mean
        return Moments(n, self.mean + delta * other.n / n,
                       self.m2 + other.m2 + delta * delta * self.n * other.n / n)

    def estimate(self, confidence: float = 0.95) -> Estimate:
        """As :func:`mean_interval` (normal interval, Student's t below 30 observations)."""
        nan = float("nan")
        if self.n < 2:
            return Estimate(self.mean if self.n else nan, nan, nan, self.n)
        margin = critical(confidence, self.n - 1) * math.sqrt(self.m2 / (self.n - 1) / self.n)
        return Estimate(self.mean, self.mean - margin, self.mean + margin, self.n)


def paired_moments(a, b) -> Moments:
    """The mergeable form of :func:`paired_difference`: the :class:`Moments` of ``a - b`` for
    one block of paired games. Blocks merged with :meth:`Moments.merge` give, through
    :meth:`Moments.estimate`, the interval :func:`paired_difference` gives on all the games at
    once, without holding them (chunked or streamed comparisons)."""
    a = np.asarray(a, dtype=np.float64).ravel()
    b = np.asarray(b, dtype=np.float64).ravel()
    if a.shape != b.shape:
        raise ValueError(f"paired samples must have the same shape, got {a.shape} and {b.shape}")
    return Moments.of(a - b)


def ratio_of_sums(sums: tuple[int, int, int, int, int], n: int,
                  confidence: float = 0.95) -> Estimate:
    """``Σb / Σd`` over ``n`` independent units, from ``(Σb, Σd, Σb², Σbd, Σd²)``.

    A delta-method interval of a ratio estimator (e.g. blocked deals per deal played, where
    each match contributes ``b`` blocked deals out of ``d``), clipped to [0, 1]. NaN when no
    unit has ``d > 0``; the value only, with a NaN interval, below two units.
    """
    B, D, bb, bd, dd = sums
    nan = float("nan")
    if n == 0 or D == 0:
        return Estimate(nan, nan, nan, n)
    r = B / D
    if n < 2:
        return Estimate(r, nan, nan, n)
    residual = max(bb - 2 * r * bd + r * r * dd, 0.0)  # Σ(b - r·d)²
    se = math.sqrt(residual / (n - 1) / n) / (D / n)
    z = critical(confidence, n - 1)
    return Estimate(r, max(0.0, r - z * se), min(1.0, r + z * se), n)


def win_rate_half_width(successes, n, confidence: float = 0.95):
    """Half-width of the Wilson interval of a win rate, for sequential stopping (``--precision``).

    ``n = 0`` gives ``inf`` rather than NaN so that a rule like ``max(widths) <= h`` keeps
    playing until every seat has games.
    """
    low, high = wilson_interval(successes, n, confidence)
    return np.where(np.asarray(n) > 0, (high - low) / 2, np.inf)[()]


#: The most games :func:`games_for_half_width` returns (the sweep's largest game index).
MOST_GAMES = 2**62


def games_for_half_width(p, h, confidence: float = 0.95):
    """Games needed for the Wilson interval at observed rate ``p`` to have half-width ``<= h``.

    Solves Wilson's half-width ``= h`` for ``n`` exactly (a quadratic), so it agrees with
    :func:`win_rate_half_width`; close to the textbook ``z² p(1-p) / h²`` away from 0 and 1.
    Scalars give an ``int``, arrays an integer array; at least one game is always needed.
    """
    p = np.asarray(p, dtype=np.float64)
    h = np.asarray(h, dtype=np.float64)
    if np.any(h <= 0):
        raise ValueError("the half-width h must be positive")
    z2 = _z(confidence) ** 2
    pq = p * (1 - p)
    n = z2 * (pq - 2 * h * h + np.sqrt(pq * pq + h * h * (1 - 4 * pq))) / (2 * h * h)
    # A very fine h needs more games than int64 holds (1e-12: ~10^24): capped at 2^62, more
    # than any run plays, instead of wrapping around to a negative count.
    with np.errstate(over="ignore", invalid="ignore"):
        needed = np.clip(np.ceil(n), 1, MOST_GAMES).astype(np.int64)
    return int(needed) if needed.ndim == 0 else needed


def detectable_difference(difference: Estimate, power: float = 0.8,
                          confidence: float = 0.95) -> float:
    """The smallest true difference that a comparison with ``difference``'s precision tells
    from 0 (two-sided, at ``confidence``) with probability ``power``: (z(confidence) +
    z(power)) standard errors, the standard error read off the interval's half-width. What a
    check that shows no difference can still say: one this large would have been seen."""
    z = _z(confidence)
    z_power = _z(2 * power - 1)  # one-sided: the normal quantile at ``power``
    return (z + z_power) * difference.half_width / z


def games_to_detect(difference: Estimate, games: int, target: float, power: float = 0.8,
                    confidence: float = 0.95) -> int:
    """The games (in the unit of ``games``, which gave ``difference``) that would make
    :func:`detectable_difference` at most ``target``: the standard error falls as one over the
    square root of the games, so they scale with the square of the ratio."""
    if target <= 0:
        raise ValueError("the target difference must be positive")
    seen = detectable_difference(difference, power, confidence)
    return max(int(math.ceil(games * (seen / target) ** 2)), 1)


# ------------------------------------------------------------------------------------------------
# ratings: a Bradley–Terry–Luce model of who wins a deal
# ------------------------------------------------------------------------------------------------
#: Elo points per unit of log-odds strength: a 400-point gap is 10:1 odds heads-up.
ELO_PER_LOGIT = 400 / math.log(10)


@dataclass(frozen=True)
class Ratings:
    """Strengths fitted by :func:`fit_ratings`: ``strength[i]`` is item ``names[i]``'s log-odds
    strength relative to ``reference`` (whose strength is 0), ``covariance`` their covariance
    matrix from the observed information (the reference's row and column are 0), ``deals`` the
    observations (deals with a winner) fitted."""

    names: tuple[str, ...]
    strength: np.ndarray
    covariance: np.ndarray
    reference: str
    deals: int

    def estimate(self, name: str, confidence: float = 0.95, scale: float = 1.0) -> Estimate:
        """``name``'s strength minus the reference's, times ``scale``, with a Wald interval."""
        i = self.names.index(name)
        se = math.sqrt(max(float(self.covariance[i, i]), 0.0))
        z = normal_critical(confidence)
        v = float(self.strength[i])
        return Estimate(scale * v, scale * (v - z * se), scale * (v + z * se), self.deals)

    def elo(self, name: str, confidence: float = 0.95) -> Estimate:
        """:meth:`estimate` in Elo points (:data:`ELO_PER_LOGIT`)."""
        return self.estimate(name, confidence, ELO_PER_LOGIT)

    def heads_up(self, a: str, b: str) -> float:
        """The model's probability that ``a`` beats ``b`` at a table of the two."""
        d = self.strength[self.names.index(a)] - self.strength[self.names.index(b)]
        return float(1 / (1 + math.exp(-d)))


def _tables_as_arrays(tables, names):
    """Each table as (item index per seat, wins per seat), checked."""
    index = {name: i for i, name in enumerate(names)}
    out = []
    for seats, wins in tables:
        seats = [index[s] for s in seats]
        wins = np.asarray(wins, dtype=np.float64)
        if len(seats) < 2 or wins.shape != (len(seats),) or np.any(wins < 0):
            raise ValueError("a table needs two or more seats and one win count per seat")
        if wins.sum() > 0:
            out.append((np.asarray(seats), wins))
    return out


def fit_ratings(tables, reference: str | None = None, max_iterations: int = 100) -> Ratings:
    """Fit a strength to each item (policy) from which seat won each deal.

    ``tables``: ``(seats, wins)`` pairs, one per kind of table: ``seats`` the item seated at
    each seat (items may repeat, e.g. ``("search", "expert", "expert", "expert")``), ``wins``
    the deals each seat won (deals without a winner are left out). The model (Luce's choice
    model; Bradley–Terry at two seats): a deal is won by the seat holding item ``i`` with
    probability ``exp(θ_i) / Σ_seats exp(θ_seat)``. Each deal is one observation of one
    winner, so a 4-player deal is *not* counted as three independent pairwise wins of the
    winner over the losers (those three are one event and would narrow the intervals
    spuriously); under the model it still implies the heads-up odds ``exp(θ_a - θ_b)``.
    Maximum likelihood by Newton's method (the log-likelihood is concave); the covariance is
    the inverse observed information, with ``θ_reference = 0`` (default: the first item seen).
    Seat effects (förhand) are not modelled: rotate the seats so they cancel.

    Raises ``ValueError`` when the items are not connected by shared tables or an item's
    strength is infinite (it won all or none of its deals against the rest).
    """
    tables = [(list(seats), wins) for seats, wins in tables]
    names = tuple(dict.fromkeys(s for seats, _ in tables for s in seats))
    reference = names[0] if reference is None and names else reference
    if reference not in names:
        raise ValueError(f"reference {reference!r} is not among the items {names}")
    data = _tables_as_arrays(tables, names)
    k, ref = len(names), names.index(reference)
    free = [i for i in range(k) if i != ref]
    theta = np.zeros(k)

    def loglik_grad_info(theta):
        ll, grad, info = 0.0, np.zeros(k), np.zeros((k, k))
        for seats, wins in data:
            z = theta[seats]
            logsum = np.logaddexp.reduce(z)
            p = np.exp(z - logsum)
            total = wins.sum()
            ll += float(wins @ z - total * logsum)
            q = np.bincount(seats, weights=p, minlength=k)  # probability per item
            grad += np.bincount(seats, weights=wins, minlength=k) - total * q
            info += total * (np.diag(q) - np.outer(q, q))
        return ll, grad[free], info[np.ix_(free, free)]

    ll, grad, info = loglik_grad_info(theta)
    if np.linalg.matrix_rank(info) < len(free):
        raise ValueError("the items are not all connected by tables they share")
    for _ in range(max_iterations):
        try:
            step = np.linalg.solve(info, grad)
        except np.linalg.LinAlgError:  # the information vanishes as a strength runs off
            raise ValueError("a strength is infinite: an item won all or none of its deals"
                             ) from None
        t = 1.0
        while True:  # halve the step until the likelihood does not fall (it is concave)
            trial = theta.copy()
            trial[free] += t * step
            new = loglik_grad_info(trial)
            if new[0] >= ll - 1e-12 or t < 1e-8:
                break
            t /= 2
        theta, (ll, grad, info) = trial, new
        if np.max(np.abs(t * step)) < 1e-10:
            break
    if np.max(np.abs(theta)) > 25 or not np.all(np.isfinite(theta)):
        raise ValueError("a strength is infinite: an item won all or none of its deals")
    cov = np.zeros((k, k))
    cov[np.ix_(free, free)] = np.linalg.inv(info)
    deals = int(sum(w.sum() for _, w in data))
    return Ratings(names, theta, cov, reference, deals)


# ------------------------------------------------------------------------------------------------
# multiple comparisons: Holm's step-down procedure, and intervals at the levels it tests at
# ------------------------------------------------------------------------------------------------
def interval_at(estimate: Estimate, confidence: float, base: float = 0.95) -> Estimate:
    """The estimate's interval rescaled from confidence ``base`` to ``confidence``.

    Each side is stretched by ``z(confidence) / z(base)``: exact for a normal interval, and for a
    Wilson interval of many games (the only other kind here) it keeps the interval's asymmetry.
    Used for intervals at a multiplicity-adjusted level (:func:`holm_levels`).
    """
    stretch = normal_critical(confidence) / normal_critical(base)
    return Estimate(estimate.value, estimate.value - stretch * (estimate.value - estimate.low),
                    estimate.value + stretch * (estimate.high - estimate.value), estimate.n)


def p_value(estimate: Estimate, null: float = 0.0, base: float = 0.95) -> float:
    """Two-sided p-value of ``estimate`` against the value ``null``, from its normal interval
    at confidence ``base``: the standard error is the half of the interval on the null's side
    divided by z. 1.0 where the interval is undefined (nothing can be rejected)."""
    if not (np.isfinite(estimate.low) and np.isfinite(estimate.high)):
        return 1.0
    side = estimate.value - estimate.low if null <= estimate.value else estimate.high - estimate.value
    if side <= 0:
        return 0.0 if null != estimate.value else 1.0
    from scipy import stats as sp

    z = abs(estimate.value - null) / (side / normal_critical(base))
    return float(2 * sp.norm.sf(z))


def holm_adjust(pvalues) -> np.ndarray:
    """Holm's step-down adjusted p-values (in the input order): sorted ascending, the i-th of
    ``k`` is ``max over j <= i of min(1, (k - j + 1) p_(j))``. Rejecting where the adjusted
    p-value is at most alpha keeps the chance of any false rejection at most alpha. NaN counts
    as 1."""
    p = np.nan_to_num(np.asarray(pvalues, dtype=np.float64).ravel(), nan=1.0)
    k = p.size
    order = np.argsort(p, kind="stable")
    stepped = np.minimum(1.0, (k - np.arange(k)) * p[order])
    adjusted = np.empty(k)
    adjusted[order] = np.maximum.accumulate(stepped) if k else stepped
    return adjusted


def holm_levels(pvalues, alpha: float) -> np.ndarray:
    """The significance level Holm's procedure tests each hypothesis at (input order).

    The ``r``-th smallest p-value of ``k`` is tested at ``alpha / (k - r + 1)`` as long as every
    smaller one was rejected; from the first that is not, the procedure stops and the rest keep
    that step's level. An interval at confidence ``1 - level`` excludes the null exactly when
    Holm rejects it (:func:`holm_adjust` ``<= alpha``), so verdicts read off these intervals
    follow Holm's procedure.
    """
    p = np.nan_to_num(np.asarray(pvalues, dtype=np.float64).ravel(), nan=1.0)
    k = p.size
    levels = np.empty(k)
    level = alpha / k if k else alpha
    stopped = False
    for rank, i in enumerate(np.argsort(p, kind="stable")):
        if not stopped:
            level = alpha / (k - rank)
            stopped = p[i] > level
        levels[i] = level
    return levels


def quantile_interval(x, q: float, confidence: float = 0.95) -> Estimate:
    """The ``q``-quantile of ``x`` with a distribution-free interval from order statistics.

    The number of observations below the true quantile is Binomial(n, q), so the sorted values
    at ranks ``n q ∓ z sqrt(n q (1 - q))`` (normal approximation, rounded outwards, clipped to
    the sample) bracket it with about the stated confidence; it needs no assumption about the
    distribution, which for game lengths is skewed and discrete.
    """
    x = np.sort(np.asarray(x, dtype=np.float64).ravel())
    n = x.size
    if not 0 < q < 1:
        raise ValueError("q must lie strictly between 0 and 1")
    if n == 0:
        nan = float("nan")
        return Estimate(nan, nan, nan, 0)
    spread = normal_critical(confidence) * math.sqrt(n * q * (1 - q))
    low = int(np.clip(math.floor(n * q - spread), 0, n - 1))
    high = int(np.clip(math.ceil(n * q + spread), 0, n - 1))
    return Estimate(float(np.quantile(x, q)), float(x[low]), float(x[high]), n)
