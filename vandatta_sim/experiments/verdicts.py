"""Verdicts on claims: where an interval lies against a claim's practical margin, with Holm.

A claim is split into *parts*, each a number the claim says lies beyond a ``threshold`` in a
direction (``sign`` +1: above, -1: below) by more than a practical ``margin``: the smallest
distance from the threshold the claim's words can mean (a claim that something is "more" is
not confirmed by +0.1 pp). Read in the claimed direction, with ``lo, hi`` the interval minus
the threshold, the claimed region is ``> margin``, and one rule with five outcomes judges a
part:

* **supported**: ``lo > margin``: the whole interval lies in the claimed region;
* **negligible**: ``-margin <= lo`` and ``hi <= margin`` (margin > 0): the whole interval lies
  within the margin of the threshold, on either side: the effect is shown too small to matter;
* **contradicted**: ``hi < margin`` and not negligible: the interval excludes the claimed
  region (the effect is below the margin, or of the other sign);
* **not distinguishable**: the interval holds the margin's end (``lo <= margin <= hi``), or is
  undefined.

(The fifth outcome, **partly supported**, belongs to a whole claim: some of its named parts
are supported and some are not; see :func:`overall_verdict`.)

The rule is *symmetric*: supported and contradicted are the same test (the interval entirely
on one side of the claimed region's edge), mirrored; and a claim of "below" is judged on the
mirrored interval exactly as a claim of "above". It is *monotone* in the amount of data: as
the standard error shrinks about a fixed estimate, a part only leaves "not distinguishable",
and a decided verdict never changes, except that "contradicted" may sharpen to "negligible"
(both say the claimed effect is absent). A test drives it through every case.

The parts of one claim form a family: :func:`judge_parts` tests each part's threshold with
Holm's step-down procedure at the claim's error rate and reads each verdict off the interval at
the level Holm tests that part at (:func:`vandatta_sim.stats.holm_levels`).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np

from ..stats import Estimate, holm_adjust, holm_levels, interval_at, p_value
from ..formatting import KINDS, format_estimate, format_number, format_table
from .plain import outward

SUPPORTED = "supported"
PARTLY = "partly supported"
NEGLIGIBLE = "negligible"
UNCLEAR = "not distinguishable"
CONTRADICTED = "contradicted"
#: Every outcome; a part gets one of the four that are not PARTLY.
LEVELS = (SUPPORTED, PARTLY, NEGLIGIBLE, CONTRADICTED, UNCLEAR)
#: How a claim's primary measure is named (each claim declares one; others are sensitivity).
MEASURES = ("absolute", "relative", "log-odds")


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
    if margin > 0 and -margin <= low and high <= margin:
        return NEGLIGIBLE
    if high < margin:
        return CONTRADICTED
    return UNCLEAR


def combine_verdicts(verdicts: Iterable[str]) -> str:
    """Strict combination (every part must hold): supported if all are; negligible if all
    are; contradicted if any part is contradicted or negligible (the conjunction fails);
    else not distinguishable."""
    verdicts = list(verdicts)
    if verdicts and all(v == SUPPORTED for v in verdicts):
        return SUPPORTED
    if verdicts and all(v == NEGLIGIBLE for v in verdicts):
        return NEGLIGIBLE
    if CONTRADICTED in verdicts or NEGLIGIBLE in verdicts:
        return CONTRADICTED
    return UNCLEAR


def overall_verdict(verdicts: Iterable[str]) -> str:
    """A whole claim from its parts' verdicts: supported / negligible when every part is;
    partly supported when some part is supported but not all (the parts are named with
    :meth:`Claim.verdict_text`); contradicted when no part is supported and some part is
    contradicted or negligible; not distinguishable when no part is decided."""
    verdicts = list(verdicts)
    if verdicts and all(v == SUPPORTED for v in verdicts):
        return SUPPORTED
    if verdicts and all(v == NEGLIGIBLE for v in verdicts):
        return NEGLIGIBLE
    if SUPPORTED in verdicts:
        return PARTLY
    if CONTRADICTED in verdicts or NEGLIGIBLE in verdicts:
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


def _p_text(p: float) -> str:
    # below 1e-15 the normal tail is past double precision in the interval it came from
    return "< 1e-15" if p < 1e-15 else f"{p:.2g}"


def threshold_text(part: Part, kind: str, digits: int) -> str:
    """The claim's side of a part in words: ``> 0 by more than 1.00 pp``, ``< 10.0%``."""
    value = "0" if part.threshold == 0 else format_number(part.threshold, kind, digits)
    text = f"{'>' if part.sign > 0 else '<'} {value}"
    if part.margin:
        text += f" by more than {format_number(part.margin, kind, digits).lstrip('+')}"
    return text


def exact_zero(est: Estimate, kind: str) -> bool:
    """A difference exactly 0 with a zero-width interval (no paired game changed): written in
    words by :func:`vandatta_sim.formatting.format_estimate`, never as an interval."""
    return bool(KINDS[kind][3] and est.value == 0 and est.low == 0 and est.high == 0)


def interval_text(est: Estimate, kind: str, digits: int, unit: bool = True) -> str:
    """A part's interval, ``[+1.3, +5.4]%``, its bounds rounded outward
    (:func:`vandatta_sim.experiments.plain.outward`): the verdict is read on the interval computed,
    and the one shown always holds it; ``–`` where it is undefined."""
    if not (np.isfinite(est.low) and np.isfinite(est.high)):
        return "–"
    scale, suffix, signed, _ = KINDS[kind]
    lo, hi = (f"+{x}" if signed and not x.startswith("-") else x
              for x in outward(est.low, est.high, digits, scale))
    return f"[{lo}, {hi}]" + (suffix if unit else "")


class Claim:
    """A claim of the sources: its number, source and text, the evidence (Markdown ``body``)
    and its parts, judged together with :func:`judge_parts`.

    ``measure`` is the claim's primary measure (one of :data:`MEASURES`): its parts are read
    on it and decide the verdict; :meth:`sensitivity` adds the same comparisons on the other
    measures, judged by the same rule and shown, but outside the verdict. A part's ``group``
    (e.g. one half of a two-sided claim) gets its own verdict beside the whole claim's.
    """

    def __init__(self, number: int, source: str, text: str, measure: str = "absolute"):
        if measure not in MEASURES:
            raise ValueError(f"measure must be one of {', '.join(MEASURES)}")
        self.number, self.source, self.text, self.measure = number, source, text, measure
        self.parts: list[Part] = []
        self.shown: list[tuple[str, int]] = []  # (kind, digits) of each part's numbers
        self.groups: list[str | None] = []
        self.judged: list[Judged] = []
        self.checks: list[tuple[str, Part, str, int]] = []  # (measure, part, kind, digits)
        self.checked: list[Judged] = []
        self.body = ""

    def part(self, what: str, estimate: Estimate, sign: int, threshold: float = 0.0,
             margin: float = 0.0, kind: str = "pp", digits: int = 2,
             group: str | None = None) -> None:
        """Add a part: ``estimate`` lies beyond ``threshold`` in direction ``sign`` by more
        than ``margin`` (the practical threshold); shown as ``kind`` (see formatting.KINDS)."""
        self.parts.append(Part(what, estimate, sign, threshold, margin))
        self.shown.append((kind, digits))
        self.groups.append(group)

    def sensitivity(self, measure: str, what: str, estimate: Estimate, sign: int,
                    threshold: float = 0.0, margin: float = 0.0, kind: str = "pp",
                    digits: int = 2) -> None:
        """Add the same comparison on another ``measure``: judged and shown, not counted."""
        if measure not in MEASURES or measure == self.measure:
            raise ValueError(f"a sensitivity measure is one of {', '.join(MEASURES)} other "
                             f"than the primary {self.measure}")
        self.checks.append((measure, Part(what, estimate, sign, threshold, margin), kind,
                            digits))

    def judge(self, alpha: float) -> None:
        """Verdicts on every part at family error rate ``alpha`` (Holm within the claim; the
        sensitivity parts form their own family at the same rate)."""
        self.judged = judge_parts(self.parts, alpha)
        self.checked = judge_parts([c[1] for c in self.checks], alpha) if self.checks else []

    @property
    def verdict(self) -> str:
        return overall_verdict(j.verdict for j in self.judged)

    def group_verdicts(self) -> list[tuple[str, str]]:
        """(group, verdict) of each named group of parts, in order of first appearance."""
        names = list(dict.fromkeys(g for g in self.groups if g is not None))
        return [(name, overall_verdict(j.verdict for j, g in zip(self.judged, self.groups)
                                       if g == name)) for name in names]

    def verdict_text(self) -> str:
        """The verdict with its named parts where it is partly supported: the groups' own
        verdicts where the claim has groups, else the supported parts and the others."""
        verdict = self.verdict
        groups = self.group_verdicts()
        if groups:
            return verdict + " (" + "; ".join(f"{g}: {v}" for g, v in groups) + ")"
        if verdict != PARTLY:
            return verdict
        held = [j.part.what for j in self.judged if j.verdict == SUPPORTED]
        rest = [f"{j.part.what} ({j.verdict})" for j in self.judged if j.verdict != SUPPORTED]
        return f"{verdict}: supported: {'; '.join(held)}; not: {'; '.join(rest)}"

    @property
    def anchor(self) -> str:
        """GitHub's anchor of the section heading."""
        title = f"{self.number}. {self.text}".lower()
        keep = "".join(ch for ch in title if ch.isalnum() or ch in " -_")
        return keep.replace(" ", "-")

    def tally(self) -> str:
        counts = [(sum(j.verdict == level for j in self.judged), level) for level in LEVELS]
        return ", ".join(f"{n} {level}" for n, level in counts if n)

    @staticmethod
    def _rows(judged, shown) -> list[list[str]]:
        rows = []
        for j, (kind, digits) in zip(judged, shown):
            e = j.part.estimate
            if exact_zero(e, kind):  # every paired game the same: said in words
                estimate = holm = format_estimate(e, kind, digits)
            else:
                estimate = f"{format_number(e.value, kind, digits)} " + interval_text(
                    e, kind, digits, unit=False)
                holm = f"{interval_text(j.interval, kind, digits)} ({100 * j.confidence:.2f}%)"
            rows.append([j.part.what, threshold_text(j.part, kind, digits), estimate, holm,
                         _p_text(j.p_holm), j.verdict])
        return rows

    def render(self) -> str:
        out = (f"## {self.number}. {self.text}\n\n*Source: {self.source}. Primary measure: "
               f"{self.measure}.*\n\n{self.body}\n")
        header = ["part of the claim", "claimed", "estimate [95 % interval]",
                  "Holm interval (confidence)", "Holm p", "verdict"]
        rows = self._rows(self.judged, self.shown)
        if rows:
            out += format_table(header, rows, "llrrrl")
        if self.checked:
            rows = self._rows(self.checked, [(c[2], c[3]) for c in self.checks])
            for row, check in zip(rows, self.checks):
                row[0] = f"{check[1].what} ({check[0]})"
            out += ("\n*Sensitivity: the same comparisons on the other measures (judged by "
                    "the same rule, not part of the verdict).*\n\n"
                    + format_table(header, rows, "llrrrl"))
        return out + f"\n**Verdict: {self.verdict_text()}.**\n\n"


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
