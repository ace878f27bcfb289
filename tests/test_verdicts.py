"""The five-outcome verdict rule against a practical margin, and Holm within a claim's parts."""

from decimal import Decimal

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from vandatta_sim.experiments.verdicts import (CONTRADICTED, NEGLIGIBLE, PARTLY, SUPPORTED, UNCLEAR,
                                          Claim, Part, claim_verdict, combine_verdicts,
                                          interval_text, judge_parts, overall_verdict)
from vandatta_sim.stats import Estimate, holm_adjust, p_value
from vandatta_sim.formatting import KINDS


def est(low, high):
    return Estimate((low + high) / 2, low, high, 10_000)


# a claim that the value is above 0 by more than the margin 0.5
@pytest.mark.parametrize("interval, verdict", [
    ((0.6, 0.9), SUPPORTED),       # wholly beyond the margin
    ((0.2, 0.9), UNCLEAR),         # holds the margin's end: the size is not shown
    ((-0.3, 0.9), UNCLEAR),        # holds the threshold and the margin's end
    ((0.05, 0.15), NEGLIGIBLE),    # real but tiny: shown within the margin ...
    ((-0.15, -0.05), NEGLIGIBLE),  # ... on either side
    ((-0.5, 0.5), NEGLIGIBLE),     # the margin's ends themselves count as within
    ((0.1, 0.45), NEGLIGIBLE),
    ((-0.9, 0.3), CONTRADICTED),   # excludes the claimed size, may be large the other way
    ((-0.9, -0.2), CONTRADICTED),  # the other direction
    ((-0.9, -0.6), CONTRADICTED),
    ((float("nan"), float("nan")), UNCLEAR),
])
def test_every_case_of_the_rule(interval, verdict):
    assert claim_verdict(est(*interval), +1, 0.0, 0.5) == verdict
    # symmetric in the claimed direction: a claim of "below" on the mirrored interval
    assert claim_verdict(est(-interval[1], -interval[0]), -1, 0.0, 0.5) == verdict
    # and the threshold only shifts the interval
    assert claim_verdict(est(interval[0] + 3, interval[1] + 3), +1, 3.0, 0.5) == verdict


def test_supported_and_contradicted_are_one_test_mirrored():
    """Reflecting an interval about the edge of the claimed region (threshold + margin) turns
    supported into contradicted and back: neither needs less of the interval than the other."""
    rng = np.random.default_rng(1)
    for _ in range(2000):
        low, width = rng.uniform(-3, 3), rng.uniform(0, 2)
        edge = 0.5
        v = claim_verdict(est(low, low + width), +1, 0.0, 0.5)
        mirrored = claim_verdict(est(2 * edge - low - width, 2 * edge - low), +1, 0.0, 0.5)
        assert (v == SUPPORTED) == (mirrored in (CONTRADICTED, NEGLIGIBLE))
        assert (v == UNCLEAR) == (mirrored == UNCLEAR)


#: How much a verdict says: a smaller standard error may only move a verdict up this order
#: within its branch (nothing leaves supported; contradicted may sharpen to negligible).
_NEXT = {UNCLEAR: {UNCLEAR, SUPPORTED, CONTRADICTED, NEGLIGIBLE}, SUPPORTED: {SUPPORTED},
         CONTRADICTED: {CONTRADICTED, NEGLIGIBLE}, NEGLIGIBLE: {NEGLIGIBLE}}


@pytest.mark.parametrize("value", [-1.2, -0.6, -0.5, -0.3, 0.0, 0.034, 0.3, 0.45, 0.5, 0.55,
                                   0.9, 2.0])
@pytest.mark.parametrize("sign", [+1, -1])
def test_monotone_in_the_standard_error(value, sign):
    """With the estimate fixed and the standard error shrinking, the verdict never goes back
    to not distinguishable and never changes between supported and contradicted."""
    previous = None
    for se in np.geomspace(5.0, 1e-4, 400):
        v = claim_verdict(Estimate(value, value - 1.96 * se, value + 1.96 * se, 100), sign,
                          0.0, 0.5)
        if previous is not None:
            assert v in _NEXT[previous], (value, se, previous, v)
        previous = v
    # in the limit the verdict is where the value lies
    expected = (SUPPORTED if sign * value > 0.5 else
                NEGLIGIBLE if abs(value) < 0.5 else CONTRADICTED if sign * value < 0.5 else None)
    if expected is not None:
        assert previous == expected


def test_the_claim_10_case_goes_undecided_contradicted_negligible_and_never_back():
    """Claim 10's eight part: +3.4 % against a claim of "lower by more than 5 %". The old rule
    called it contradicted at its standard error and not distinguishable at half or double it
    (the defect: not monotone). Its interval lies on the far side of the claimed region (the
    eight is *stronger* with two players), so "contradicted" is right wherever the interval
    also reaches past the 5 % margin, and "negligible" once it lies within it: as the
    standard error shrinks the verdict goes not distinguishable → contradicted → negligible,
    each change once, at the standard errors where an end crosses the margin."""
    value, margin = 0.034, 0.05
    z = 1.96

    def verdict(se):
        return claim_verdict(Estimate(value, value - z * se, value + z * se, 100), -1, 0.0,
                             margin)

    ses = np.geomspace(0.2, 1e-4, 2000)
    verdicts = [verdict(se) for se in ses]
    changes = [v for i, v in enumerate(verdicts) if i == 0 or v != verdicts[i - 1]]
    assert changes == [UNCLEAR, CONTRADICTED, NEGLIGIBLE]
    # the ends cross the margin at (value + margin) / z (the low end reaches -5 %: decided)
    # and (margin - value) / z (the high end falls inside +5 %: negligible)
    first_decided = ses[verdicts.index(CONTRADICTED)]
    first_negligible = ses[verdicts.index(NEGLIGIBLE)]
    assert first_decided < (value + margin) / z <= ses[verdicts.index(CONTRADICTED) - 1]
    assert first_negligible <= (margin - value) / z < ses[verdicts.index(NEGLIGIBLE) - 1]
    # half, once and double the standard error the claim was first judged at (0.015)
    assert [verdict(se) for se in (0.0075, 0.015, 0.03)] == [NEGLIGIBLE, CONTRADICTED,
                                                             CONTRADICTED]


def test_threshold_is_the_claims_boundary():
    # "fewer than 10 %": 35 % [34, 36] contradicts it, 5 % [4, 6] supports it
    assert claim_verdict(est(0.34, 0.36), -1, 0.10) == CONTRADICTED
    assert claim_verdict(est(0.04, 0.06), -1, 0.10) == SUPPORTED
    with pytest.raises(ValueError):
        claim_verdict(est(0, 1), +1, 0.0, -0.1)
    # without a margin nothing is negligible
    assert claim_verdict(est(-0.01, 0.01), +1, 0.0, 0.0) == UNCLEAR


def test_overall_verdict():
    assert overall_verdict([SUPPORTED, SUPPORTED]) == SUPPORTED
    assert overall_verdict([SUPPORTED, CONTRADICTED]) == PARTLY
    assert overall_verdict([SUPPORTED, UNCLEAR]) == PARTLY
    assert overall_verdict([NEGLIGIBLE, NEGLIGIBLE]) == NEGLIGIBLE
    assert overall_verdict([NEGLIGIBLE, UNCLEAR]) == CONTRADICTED
    assert overall_verdict([UNCLEAR, CONTRADICTED]) == CONTRADICTED
    assert overall_verdict([UNCLEAR, UNCLEAR]) == UNCLEAR
    assert overall_verdict([]) == UNCLEAR
    assert combine_verdicts([SUPPORTED, NEGLIGIBLE]) == CONTRADICTED
    assert combine_verdicts([SUPPORTED, UNCLEAR]) == UNCLEAR


def test_a_claim_names_its_halves_and_keeps_sensitivity_out_of_the_verdict():
    c = Claim(4, "002", "Dump on one scale, hold on the other", "absolute")
    c.part("a: dump", est(-0.9, -0.6), +1, 0.0, 0.1, group="the dump half")
    c.part("b: hold", est(0.6, 0.9), +1, 0.0, 0.1, group="the hold half")
    c.sensitivity("log-odds", "b: hold", est(-0.9, -0.6), +1, 0.0, 0.1)
    c.judge(0.05)
    assert c.verdict == PARTLY
    assert c.verdict_text() == ("partly supported (the dump half: contradicted; the hold half: "
                                "supported)")
    assert [j.verdict for j in c.checked] == [CONTRADICTED]
    text = c.render()
    assert "Primary measure: absolute" in text and "| b: hold (log-odds) |" in text
    with pytest.raises(ValueError):
        c.sensitivity("absolute", "x", est(0, 1), +1)
    with pytest.raises(ValueError):
        Claim(1, "x", "y", "odds")


def test_judge_parts_follows_holm():
    z = 1.959963984540054
    # p-values about 0.0027 (z 3), 0.012 (z 2.5) and 0.027 (z 2.2) against 0, se 1
    parts = [Part("a", Estimate(2.5, 2.5 - z, 2.5 + z, 100), +1),
             Part("b", Estimate(3.0, 3.0 - z, 3.0 + z, 100), +1),
             Part("c", Estimate(2.2, 2.2 - z, 2.2 + z, 100), +1)]
    judged = judge_parts(parts, 0.05)
    p = [p_value(x.estimate) for x in parts]
    assert [j.p_holm for j in judged] == pytest.approx(list(holm_adjust(p)))
    # 0.0027 <= 0.05/3, 0.012 <= 0.05/2, 0.027 <= 0.05: all rejected at family rate 0.05
    assert [j.verdict for j in judged] == [SUPPORTED] * 3
    assert [j.confidence for j in judged] == pytest.approx([1 - 0.025, 1 - 0.05 / 3, 0.95])
    # at 0.01 only the first step (0.0027 <= 0.01/3) rejects; Holm stops at 0.012 > 0.005
    strict = judge_parts(parts, 0.01)
    assert [j.verdict for j in strict] == [UNCLEAR, SUPPORTED, UNCLEAR]
    # each verdict's interval is the 95 % one widened to its Holm level
    assert strict[1].interval.low < parts[1].estimate.low


def test_claim_renders_each_part_with_its_threshold_and_holm_interval():
    c = Claim(3, "002", "A draw limit keeps deals short")
    c.part("turns, limit 3 against 0", Estimate(-0.37, -0.40032, -0.33968, 2000), -1, 0.0,
           0.05, "rel", 1)
    c.part("skill", Estimate(0.001, -0.004, 0.006, 2000), +1, 0.0, 0.01, "pp", 1)
    c.judge(0.005)
    assert [j.verdict for j in c.judged] == [SUPPORTED, NEGLIGIBLE]
    assert c.verdict == PARTLY and c.tally() == "1 supported, 1 negligible"
    text = c.render()
    # the bounds rounded outward: [-40.032, -33.968] is [-40.1, -33.9], never [-40.0, -34.0]
    assert "| turns, limit 3 against 0 | < 0 by more than 5.0% | -37.0% [-40.1, -33.9] |" in text
    assert ("**Verdict: partly supported: supported: turns, limit 3 against 0; not: skill "
            "(negligible).**") in text
    assert c.anchor == "3-a-draw-limit-keeps-deals-short"


# -- properties (hypothesis), each named after the defect it rules out --------------------------

_x = st.floats(-50, 50, allow_nan=False)
_sign = st.sampled_from([1, -1])
_margin = st.floats(0, 5, allow_nan=False)


def _by_the_regions(low, high, sign, threshold, margin):
    """The rule read off the regions, end by end (each region is an interval, so both ends in
    it means the whole interval in it): the claimed region is ``sign·(x - threshold) >
    margin``, the margin's band ``|x - threshold| <= margin``."""
    claimed = [sign * (x - threshold) > margin for x in (low, high)]
    within = [abs(x - threshold) <= margin for x in (low, high)]
    reaches = [sign * (x - threshold) >= margin for x in (low, high)]  # the region's closure
    if all(claimed):
        return SUPPORTED
    if margin > 0 and all(within):
        return NEGLIGIBLE
    if not any(reaches):
        return CONTRADICTED
    return UNCLEAR


@settings(max_examples=1000, deadline=None)
@given(a=_x, b=_x, sign=_sign, threshold=st.floats(-10, 10), margin=_margin)
def test_a_claim_verdict_is_right_for_either_sign(a, b, sign, threshold, margin):
    """The defect (the break-even sentence, issue 37): with the sign reversed "pays" and
    "costs" swapped. Property: a claim's verdict is where its interval lies against the
    claimed region, for a claim of "above" (+1) and of "below" (-1) alike; mirroring the
    interval, the threshold and the direction together keeps the verdict; and the opposite
    claim on an interval that supports one is contradicted."""
    low, high = min(a, b), max(a, b)
    v = claim_verdict(Estimate((low + high) / 2, low, high, 100), sign, threshold, margin)
    assert v == _by_the_regions(low, high, sign, threshold, margin)
    mirrored = claim_verdict(Estimate(-(low + high) / 2, -high, -low, 100), -sign, -threshold,
                             margin)
    assert mirrored == v
    opposite = claim_verdict(Estimate((low + high) / 2, low, high, 100), -sign, threshold,
                             margin)
    if v == SUPPORTED:
        assert opposite == CONTRADICTED


@settings(max_examples=1000, deadline=None)
@given(a=_x, b=_x, sign=_sign, threshold=st.floats(-10, 10), margin=_margin,
       cuts=st.lists(st.tuples(st.floats(0, 1), st.floats(0, 1)), min_size=1, max_size=30))
def test_a_claim_verdict_never_goes_back_on_nested_intervals(a, b, sign, threshold, margin,
                                                              cuts):
    """The defect: as the sample grew one cell went neutral → pays → neutral (and claim 10's
    part: not distinguishable → contradicted → not distinguishable, with the old rule).
    Property: on nested intervals (each inside the one before, its centre free to move) a
    verdict never returns to not distinguishable, never moves between supported and
    contradicted, and never leaves supported or negligible; contradicted may only sharpen to
    negligible. (Real nested samples give nested intervals only approximately, the estimate
    moving too; no rule on ordinary 95 % intervals can promise more than this.)"""
    low, high = min(a, b), max(a, b)
    previous = claim_verdict(Estimate((low + high) / 2, low, high, 100), sign, threshold,
                             margin)
    for left, right in cuts:
        # clamped, so float rounding cannot step outside the interval before
        low = min(max(low + left * (high - low), low), high)
        high = max(min(high - right * (high - low), high), low)
        v = claim_verdict(Estimate((low + high) / 2, low, high, 100), sign, threshold, margin)
        assert v in _NEXT[previous], (previous, v, low, high)
        previous = v


@settings(max_examples=300, deadline=None)
@given(kind=st.sampled_from(["pp", "diff", "rel"]), digits=st.integers(0, 3), sign=_sign,
       margin=st.floats(0.001, 1))
def test_an_exact_zero_part_is_said_in_words_and_is_negligible(kind, digits, sign, margin):
    """The defect: a change exactly 0 by construction printed as an interval ("+0.00 pp
    [+0.00, +0.00]", or "(n.s.)" elsewhere), as if a test had failed to reject. Property: a
    part whose every paired game is the same is written in words in both interval columns,
    and with a margin its verdict is negligible (shown within the margin), never undecided."""
    c = Claim(1, "x", "A claim with a part that cannot act")
    c.part("no effect", Estimate(0.0, 0.0, 0.0, 1000), sign, 0.0, margin, kind, digits)
    c.judge(0.05)
    assert [j.verdict for j in c.judged] == [NEGLIGIBLE]
    words = f"0{KINDS[kind][1]} (no game changed)"
    row = next(line for line in c.render().splitlines() if line.startswith("| no effect |"))
    cells = [cell.strip() for cell in row.strip("|").split("|")]
    assert cells[2] == words and cells[3] == words
    assert "[" not in row and "n.s." not in row


@settings(max_examples=1000, deadline=None)
@given(a=st.floats(-2, 2, allow_nan=False), b=st.floats(-2, 2, allow_nan=False),
       kind=st.sampled_from(sorted(KINDS)), digits=st.integers(0, 3))
def test_claim_bounds_are_rounded_outward_not_to_the_nearest_step(a, b, kind, digits):
    """The defect: bounds rounded to the nearest step narrowed the interval ([92.9, 124.0] was
    "90 to 120"; a claim's [+1.35, +5.31]% was "[+1.4, +5.3]"). Property: the bounds a
    claim's table shows hold the interval computed (compared exactly, in decimal) and widen
    it by less than one step of the shown digits on each side."""
    low, high = min(a, b), max(a, b)
    scale, suffix, signed, _ = KINDS[kind]
    text = interval_text(Estimate((low + high) / 2, low, high, 100), kind, digits)
    assert text.startswith("[") and text.endswith("]" + suffix)
    shown = [Decimal(x) for x in text[1:len(text) - len(suffix) - 1].split(", ")]
    exact = [Decimal(low) * Decimal(scale), Decimal(high) * Decimal(scale)]
    step = Decimal(10) ** -digits
    assert shown[0] <= exact[0] < shown[0] + step
    assert shown[1] - step < exact[1] <= shown[1]
    if signed:
        assert all(x.startswith(("+", "-")) for x in text[1:len(text) - len(suffix) - 1]
                   .split(", "))
