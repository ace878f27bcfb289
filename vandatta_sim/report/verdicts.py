"""Verdicts on claims: which side of a threshold an interval lies, and how parts combine.

A claim is *supported* when the whole 95 % interval lies on the claimed side, *contradicted*
when it lies on the other side, and otherwise *not distinguishable at this precision*.
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

from ..stats import Estimate

SUPPORTED = "supported"
CONTRADICTED = "contradicted"
UNCLEAR = "not distinguishable at this precision"


def claim_verdict(est: Estimate, sign: int, threshold: float = 0.0) -> str:
    """Verdict on a claim that ``est`` lies beyond ``threshold`` in direction ``sign`` (+1: above,
    -1: below): supported when the whole interval is beyond it, contradicted when the whole
    interval is on the other side, otherwise not distinguishable at this precision."""
    if sign not in (1, -1):
        raise ValueError("sign must be +1 or -1")
    if not (np.isfinite(est.low) and np.isfinite(est.high)):
        return UNCLEAR
    low, high = sign * (est.low - threshold), sign * (est.high - threshold)
    low, high = min(low, high), max(low, high)
    if low > 0:
        return SUPPORTED
    if high < 0:
        return CONTRADICTED
    return UNCLEAR


def combine_verdicts(verdicts: Iterable[str]) -> str:
    """A claim made of parts: contradicted if any part is, supported if all are, else unclear."""
    verdicts = list(verdicts)
    if CONTRADICTED in verdicts:
        return CONTRADICTED
    if verdicts and all(v == SUPPORTED for v in verdicts):
        return SUPPORTED
    return UNCLEAR


def direction(est: Estimate) -> int:
    """+1 / -1 when the interval is above / below 0, 0 when it holds 0 (or is undefined)."""
    if not (np.isfinite(est.low) and np.isfinite(est.high)):
        return 0
    return 1 if est.low > 0 else -1 if est.high < 0 else 0


def holding_verdict(points: Estimate, match_win: Estimate) -> str:
    """Which choice pays, from Δ points and Δ match win (holder − dumper)."""
    p, w = -direction(points), direction(match_win)  # +1: holding better
    votes = {p, w} - {0}
    if votes == {1}:
        return "holding pays"
    if votes == {-1}:
        return "dumping pays"
    if not votes:
        return "no difference at this precision"
    return ("mixed: dumping gives fewer points, holding wins more matches" if p == -1
            else "mixed: holding gives fewer points, dumping wins more matches")
