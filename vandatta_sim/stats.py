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

from dataclasses import dataclass

import numpy as np
from scipy import stats as _sp

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
        """
        if percent:
            d = max(digits - 2, 0)
            return f"{100 * self.value:.{d}f}% [{100 * self.low:.{d}f}, {100 * self.high:.{d}f}]"
        return f"{self.value:.{digits}f} [{self.low:.{digits}f}, {self.high:.{digits}f}]"

    def __str__(self) -> str:
        return self.format(4)


def _z(confidence: float) -> float:
    """Two-sided normal critical value, e.g. 1.96 for 0.95."""
    return float(_sp.norm.ppf(0.5 + confidence / 2))


def _critical(confidence: float, df: float) -> float:
    """Two-sided critical value: Student's t for small samples, else the normal."""
    if df < SMALL_SAMPLE - 1:
        return float(_sp.t.ppf(0.5 + confidence / 2, df))
    return _z(confidence)


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
    margin = _critical(confidence, n - 1) * float(np.sqrt(x.var(ddof=1) / n))
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
        crit = float(_sp.t.ppf(0.5 + confidence / 2, df))
    else:
        crit = _z(confidence)
    return Estimate(value, value - crit * se, value + crit * se, a.size + b.size)


def win_rate_half_width(successes, n, confidence: float = 0.95):
    """Half-width of the Wilson interval of a win rate, for sequential stopping (``--precision``).

    ``n = 0`` gives ``inf`` rather than NaN so that a rule like ``max(widths) <= h`` keeps
    playing until every seat has games.
    """
    low, high = wilson_interval(successes, n, confidence)
    return np.where(np.asarray(n) > 0, (high - low) / 2, np.inf)[()]


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
    needed = np.maximum(np.ceil(n), 1).astype(np.int64)
    return int(needed) if needed.ndim == 0 else needed


def verdict(estimate: Estimate, what: str = "difference") -> str:
    """One line for reports: is the difference distinguishable from 0 at this precision?"""
    if not (np.isfinite(estimate.low) and np.isfinite(estimate.high)):
        return f"{what}: not enough data ({estimate})"
    if estimate.significant:
        return f"{what}: significant ({estimate}, interval excludes 0)"
    return f"{what}: not distinguishable at this precision ({estimate})"
