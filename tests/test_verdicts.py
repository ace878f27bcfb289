"""Four-level verdicts against a practical threshold, and Holm within a claim's parts."""

import pytest

from vandatta_sim.report.verdicts import (CONTRADICTED, PARTLY, SUPPORTED, UNCLEAR, Part,
                                          claim_verdict, judge_parts, overall_verdict)
from vandatta_sim.stats import Estimate, holm_adjust, p_value


def est(low, high):
    return Estimate((low + high) / 2, low, high, 10_000)


@pytest.mark.parametrize("interval, verdict", [
    ((0.6, 0.9), SUPPORTED),       # beyond the margin of 0.5
    ((0.2, 0.9), PARTLY),          # direction holds, size not shown
    ((0.05, 0.15), UNCLEAR),       # real but tiny: +0.1 is not a confirmation ...
    ((-0.15, -0.05), UNCLEAR),     # ... and -0.1 is not a refutation
    ((-0.3, 0.9), UNCLEAR),        # holds the threshold
    ((-0.9, -0.2), CONTRADICTED),  # the other direction, possibly by more than the margin
    ((-0.9, -0.6), CONTRADICTED),
])
def test_four_levels_against_a_margin(interval, verdict):
    assert claim_verdict(est(*interval), +1, 0.0, 0.5) == verdict
    # the same rule mirrored for a claim that the value lies below the threshold
    assert claim_verdict(est(-interval[1], -interval[0]), -1, 0.0, 0.5) == verdict


def test_threshold_is_the_claims_boundary():
    # "fewer than 10 %": 35 % [34, 36] contradicts it, 5 % [4, 6] supports it
    assert claim_verdict(est(0.34, 0.36), -1, 0.10) == CONTRADICTED
    assert claim_verdict(est(0.04, 0.06), -1, 0.10) == SUPPORTED
    with pytest.raises(ValueError):
        claim_verdict(est(0, 1), +1, 0.0, -0.1)


def test_overall_verdict():
    assert overall_verdict([SUPPORTED, SUPPORTED]) == SUPPORTED
    assert overall_verdict([SUPPORTED, CONTRADICTED]) == PARTLY
    assert overall_verdict([PARTLY, UNCLEAR]) == PARTLY
    assert overall_verdict([UNCLEAR, CONTRADICTED]) == CONTRADICTED
    assert overall_verdict([UNCLEAR, UNCLEAR]) == UNCLEAR
    assert overall_verdict([]) == UNCLEAR


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
    from vandatta_sim.report.verdicts import Claim

    c = Claim(3, "002", "A draw limit keeps deals short")
    c.part("turns, limit 3 against 0", Estimate(-0.37, -0.40, -0.34, 2000), -1, 0.0, 0.05,
           "rel", 1)
    c.part("skill", Estimate(0.001, -0.004, 0.006, 2000), +1, 0.0, 0.01, "pp", 1)
    c.judge(0.005)
    assert [j.verdict for j in c.judged] == [SUPPORTED, UNCLEAR]
    assert c.verdict == PARTLY and c.tally() == "1 supported, 1 not distinguishable"
    text = c.render()
    assert "| turns, limit 3 against 0 | < 0 by more than 5.0% | -37.0% [-40.0, -34.0] |" in text
    assert "**Verdict: partly supported.**" in text
    assert c.anchor == "3-a-draw-limit-keeps-deals-short"
