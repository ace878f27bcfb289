"""The five-outcome verdict rule against a practical margin, and Holm within a claim's parts."""

import numpy as np
import pytest

from vandatta_sim.report.verdicts import (CONTRADICTED, NEGLIGIBLE, PARTLY, SUPPORTED, UNCLEAR,
                                          Claim, Part, claim_verdict, combine_verdicts,
                                          judge_parts, overall_verdict)
from vandatta_sim.stats import Estimate, holm_adjust, p_value


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


def test_the_claim_10_case_is_negligible_or_undecided_never_contradicted_by_its_se():
    """+3.4 % against a claim of "lower by more than 5 %": with half or double its standard
    error the verdict moves only towards or away from negligible, as the issue asked."""
    for se in (0.0075, 0.015, 0.03):
        v = claim_verdict(Estimate(0.034, 0.034 - 1.96 * se, 0.034 + 1.96 * se, 100), -1, 0.0,
                          0.05)
        assert v in (NEGLIGIBLE, CONTRADICTED, UNCLEAR)
    small = claim_verdict(Estimate(0.034, 0.030, 0.038, 100), -1, 0.0, 0.05)
    assert small == NEGLIGIBLE


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
    c.part("turns, limit 3 against 0", Estimate(-0.37, -0.40, -0.34, 2000), -1, 0.0, 0.05,
           "rel", 1)
    c.part("skill", Estimate(0.001, -0.004, 0.006, 2000), +1, 0.0, 0.01, "pp", 1)
    c.judge(0.005)
    assert [j.verdict for j in c.judged] == [SUPPORTED, NEGLIGIBLE]
    assert c.verdict == PARTLY and c.tally() == "1 supported, 1 negligible"
    text = c.render()
    assert "| turns, limit 3 against 0 | < 0 by more than 5.0% | -37.0% [-40.0, -34.0] |" in text
    assert ("**Verdict: partly supported: supported: turns, limit 3 against 0; not: skill "
            "(negligible).**") in text
    assert c.anchor == "3-a-draw-limit-keeps-deals-short"
