"""Verdicts on claims: where an interval lies against a claim's practical threshold, with Holm.

A claim is split into *parts*, each a number the claim says lies beyond a ``threshold`` in a
direction (``sign`` +1: above, -1: below), with a practical ``margin``: the smallest distance
from the threshold that counts as a real difference (a claim that something is "more" is not
confirmed by +0.1 pp, nor refuted by -0.1 pp). Read in the claimed direction, with ``lo, hi`` the
interval minus the threshold:

* **supported**: ``lo > margin`` (beyond the threshold by more than the margin);
* **partly supported**: ``0 < lo <= margin < hi`` (the direction holds; the size is not shown
  to matter);
* **contradicted**: ``hi < 0`` and ``lo < -margin`` (the other direction holds and may matter);
* **not distinguishable**: everything else: the interval holds the threshold, or lies within
  the margin on either side (a difference too small to matter, whatever its sign).

With ``margin = 0`` the middle levels vanish: supported / contradicted / not distinguishable.
The parts of one claim form a family: :func:`judge_parts` tests each part's threshold with
Holm's step-down procedure at the claim's error rate and reads each verdict off the interval at
the level Holm tests that part at (:func:`vandatta_sim.stats.holm_levels`).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np

from ..stats import Estimate, holm_adjust, holm_levels, interval_at, p_value
from ..tables import format_table

SUPPORTED = "supported"
PARTLY = "partly supported"
UNCLEAR = "not distinguishable"
CONTRADICTED = "contradicted"
LEVELS = (SUPPORTED, PARTLY, UNCLEAR, CONTRADICTED)


def claim_verdict(est: Estimate, sign: int, threshold: float = 0.0, margin: float = 0.0) -> str:
    """Verdict on a claim that ``est`` lies beyond ``threshold`` in direction ``sign`` (+1:
    above, -1: below), by more than the practical ``margin`` (see the module's rule)."""
    if sign not in (1, -1):
        raise ValueError("sign must be +1 or -1")
    if margin < 0:
        raise ValueError("the margin must be >= 0")
    if not (np.isfinite(est.low) and np.isfinite(est.high)):
        return UNCLEAR
    low, high = sign * (est.low - threshold), sign * (est.high - threshold)
    low, high = min(low, high), max(low, high)
    if low > margin:
        return SUPPORTED
    if low > 0 and high > margin:
        return PARTLY
    if high < 0 and low < -margin:
        return CONTRADICTED
    return UNCLEAR


def combine_verdicts(verdicts: Iterable[str]) -> str:
    """Strict combination (every part must hold): contradicted if any part is, supported if
    all are, else not distinguishable."""
    verdicts = list(verdicts)
    if CONTRADICTED in verdicts:
        return CONTRADICTED
    if verdicts and all(v == SUPPORTED for v in verdicts):
        return SUPPORTED
    return UNCLEAR


def overall_verdict(verdicts: Iterable[str]) -> str:
    """A whole claim from its parts' verdicts: supported when every part is; partly supported
    when some part is (fully or partly) but not all are; contradicted when no part holds and
    some part is contradicted; not distinguishable when no part is decided."""
    verdicts = list(verdicts)
    if verdicts and all(v == SUPPORTED for v in verdicts):
        return SUPPORTED
    if SUPPORTED in verdicts or PARTLY in verdicts:
        return PARTLY
    if CONTRADICTED in verdicts:
        return CONTRADICTED
    return UNCLEAR


@dataclass(frozen=True)
class Part:
    """One testable part of a claim: ``estimate`` lies beyond ``threshold`` in direction
    ``sign`` by more than ``margin`` (the practical threshold)."""

    what: str
    estimate: Estimate
    sign: int
    threshold: float = 0.0
    margin: float = 0.0


@dataclass(frozen=True)
class Judged:
    """A part with its test: the p-value against its threshold, Holm's adjusted p-value, the
    confidence of the interval the verdict is read on, that interval and the verdict."""

    part: Part
    p: float
    p_holm: float
    confidence: float
    interval: Estimate
    verdict: str


def judge_parts(parts: Sequence[Part], alpha: float) -> list[Judged]:
    """Verdicts on the parts of one claim with Holm's procedure at family error rate ``alpha``:
    each part's threshold is tested (two-sided p-value from its 95 % interval), and its verdict
    is read off its interval at confidence ``1 - `` the level Holm tests it at."""
    p = [p_value(x.estimate, x.threshold) for x in parts]
    adjusted = holm_adjust(p)
    levels = holm_levels(p, alpha)
    out = []
    for part, pv, adj, level in zip(parts, p, adjusted, levels):
        interval = interval_at(part.estimate, 1 - level)
        out.append(Judged(part, pv, float(adj), 1 - float(level), interval,
                          claim_verdict(interval, part.sign, part.threshold, part.margin)))
    return out


#: How a part's numbers are shown: (scale, unit, signed) per kind, as in markdown.fmt.
_KINDS = {"pct": (100, "%", False), "pp": (100, " pp", True), "diff": (1, "", True),
          "rel": (100, "%", True), "num": (1, "", False)}


def _number(x: float, kind: str, digits: int) -> str:
    scale, unit, signed = _KINDS[kind]
    return f"{x * scale:{'+' if signed else ''}.{digits}f}{unit}"


def _interval(est: Estimate, kind: str, digits: int, unit: bool = True) -> str:
    if not (np.isfinite(est.low) and np.isfinite(est.high)):
        return "–"
    scale, suffix, signed = _KINDS[kind]
    sign = "+" if signed else ""
    return (f"[{est.low * scale:{sign}.{digits}f}, {est.high * scale:{sign}.{digits}f}]"
            + (suffix if unit else ""))


def _p_text(p: float) -> str:
    # below 1e-15 the normal tail is past double precision in the interval it came from
    return "< 1e-15" if p < 1e-15 else f"{p:.2g}"


def threshold_text(part: Part, kind: str, digits: int) -> str:
    """The claim's side of a part in words: ``> 0 by more than 1.00 pp``, ``< 10.0%``."""
    value = "0" if part.threshold == 0 else _number(part.threshold, kind, digits)
    text = f"{'>' if part.sign > 0 else '<'} {value}"
    if part.margin:
        text += f" by more than {_number(part.margin, kind, digits).lstrip('+')}"
    return text


class Claim:
    """A claim of the sources: its number, source and text, the evidence (Markdown ``body``)
    and its parts, judged together with :func:`judge_parts`."""

    def __init__(self, number: int, source: str, text: str):
        self.number, self.source, self.text = number, source, text
        self.parts: list[Part] = []
        self.shown: list[tuple[str, int]] = []  # (kind, digits) of each part's numbers
        self.judged: list[Judged] = []
        self.body = ""

    def part(self, what: str, estimate: Estimate, sign: int, threshold: float = 0.0,
             margin: float = 0.0, kind: str = "pp", digits: int = 2) -> None:
        """Add a part: ``estimate`` lies beyond ``threshold`` in direction ``sign`` by more
        than ``margin`` (the practical threshold); shown as ``kind`` (see markdown.fmt)."""
        self.parts.append(Part(what, estimate, sign, threshold, margin))
        self.shown.append((kind, digits))

    def judge(self, alpha: float) -> None:
        """Verdicts on every part at family error rate ``alpha`` (Holm within the claim)."""
        self.judged = judge_parts(self.parts, alpha)

    @property
    def verdict(self) -> str:
        return overall_verdict(j.verdict for j in self.judged)

    @property
    def anchor(self) -> str:
        """GitHub's anchor of the section heading."""
        title = f"{self.number}. {self.text}".lower()
        keep = "".join(ch for ch in title if ch.isalnum() or ch in " -_")
        return keep.replace(" ", "-")

    def tally(self) -> str:
        counts = [(sum(j.verdict == level for j in self.judged), level) for level in LEVELS]
        return ", ".join(f"{n} {level}" for n, level in counts if n)

    def render(self) -> str:
        out = f"## {self.number}. {self.text}\n\n*Source: {self.source}.*\n\n{self.body}\n"
        rows = []
        for j, (kind, digits) in zip(self.judged, self.shown):
            e = j.part.estimate
            rows.append([j.part.what, threshold_text(j.part, kind, digits),
                         f"{_number(e.value, kind, digits)} {_interval(e, kind, digits, False)}",
                         f"{_interval(j.interval, kind, digits)} ({100 * j.confidence:.2f}%)",
                         _p_text(j.p_holm), j.verdict])
        if rows:
            out += format_table(["part of the claim", "claimed", "estimate [95 % interval]",
                                 "Holm interval (confidence)", "Holm p", "verdict"], rows,
                                "llrrrl")
        return out + f"\n**Verdict: {self.verdict}.**\n\n"


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
