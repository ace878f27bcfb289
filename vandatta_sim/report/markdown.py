"""Estimates as report text, and as value/low/high columns of tidy tables.

The Markdown table itself is :func:`vandatta_sim.tables.format_table` (its default style).
"""

from __future__ import annotations

import numpy as np

from ..stats import Estimate


def estimate_columns(name: str, est: Estimate) -> dict[str, float]:
    """``{name: value, name_lo: low, name_hi: high}`` for tidy tables."""
    return {name: est.value, f"{name}_lo": est.low, f"{name}_hi": est.high}


def column_estimate(row, name: str, n: int = 0) -> Estimate:
    """The :class:`Estimate` stored by :func:`estimate_columns` in a row (mapping/Series)."""
    return Estimate(float(row[name]), float(row[f"{name}_lo"]), float(row[f"{name}_hi"]), n)


def row_estimate(row, name: str) -> Estimate:
    """:func:`column_estimate` with the count taken from the row's ``n`` column."""
    return column_estimate(row, name, int(row["n"]))


def fmt(est: Estimate, kind: str = "num", digits: int = 2) -> str:
    """One estimate for a Markdown table.

    ``kind``: ``pct`` a proportion as a percentage (``25.7% [25.4, 26.0]``); ``pp`` a difference
    of proportions in percentage points, signed, marked ``n.s.`` when its interval holds 0;
    ``diff`` a signed difference marked the same way; ``rel`` a relative change in percent,
    signed and marked; ``num`` a plain mean.
    """
    v, lo, hi = est.value, est.low, est.high
    if not np.isfinite(v):
        return "–"
    scale, unit, signed, marked = {
        "pct": (100, "%", False, False), "pp": (100, " pp", True, True),
        "diff": (1, "", True, True), "rel": (100, "%", True, True), "num": (1, "", False, False),
    }[kind]
    sign = "+" if signed else ""
    text = f"{v * scale:{sign}.{digits}f}{unit}"
    if np.isfinite(lo) and np.isfinite(hi):
        text += f" [{lo * scale:{sign}.{digits}f}, {hi * scale:{sign}.{digits}f}]"
    if marked and not est.significant:
        text += " (n.s.)"
    return text
