"""Tests of the rating model (vandatta_sim.stats.fit_ratings): closed forms at two and four
seats, recovery of known strengths from synthetic deals with honest interval coverage, and
the designs it refuses."""

import math

import numpy as np
import pytest

from vandatta_sim.stats import ELO_PER_LOGIT, fit_ratings


def test_two_seats_is_the_log_odds_of_the_head_to_head():
    r = fit_ratings([(("a", "b"), (300, 100))], reference="b")
    est = r.estimate("a")
    assert est.value == pytest.approx(math.log(3))
    se = math.sqrt(1 / 300 + 1 / 100)  # the log odds ratio's textbook standard error
    assert est.high - est.value == pytest.approx(1.959964 * se, rel=1e-5)
    assert r.heads_up("a", "b") == pytest.approx(0.75)
    assert r.elo("a").value == pytest.approx(ELO_PER_LOGIT * math.log(3))
    assert r.estimate("b").value == 0 and r.estimate("b").half_width == 0
    assert r.deals == 400


def test_one_against_three_of_a_kind_counts_each_deal_once():
    # focal x wins w of n deals against three e's: exp(x) / (exp(x) + 3) = w / n
    w, n = 200, 1000
    r = fit_ratings([(("x", "e", "e", "e"), (w, n - w, 0, 0))], reference="e")
    assert r.estimate("x").value == pytest.approx(math.log(3 * w / (n - w)))
    # the same win counts spread over the three e seats: the same fit
    spread = fit_ratings([(("x", "e", "e", "e"), (w, 300, 250, 250))], reference="e")
    assert spread.estimate("x").value == pytest.approx(r.estimate("x").value)
    assert spread.estimate("x").low == pytest.approx(r.estimate("x").low)
    # counted as three pairwise wins per deal the interval would be narrower: ours is the
    # interval of n binomial observations, log-odds se = 1 / sqrt(n p (1 - p))
    se = 1 / math.sqrt(n * 0.2 * 0.8)
    assert r.estimate("x").half_width == pytest.approx(1.959964 * se, rel=1e-5)


def synthetic(strength, rng, deals=2000):
    """Deals at two and four seats between the items of ``strength``, winners drawn from the
    model: every pair heads-up, and each item once against three of the next one."""
    names = list(strength)
    tables = []
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            p = 1 / (1 + math.exp(strength[b] - strength[a]))
            w = rng.binomial(deals, p)
            tables.append(((a, b), (w, deals - w)))
        b = names[(i + 1) % len(names)]
        seats = (a, b, b, b)
        z = np.exp([strength[s] for s in seats])
        tables.append((seats, rng.multinomial(deals, z / z.sum())))
    return tables


def test_recovers_known_strengths_with_honest_intervals():
    strength = {"expert": 0.0, "greedy": -0.4, "random": -1.1, "search": 0.5}
    rng = np.random.default_rng(9)
    covered = total = 0
    for _ in range(200):
        r = fit_ratings(synthetic(strength, rng), reference="expert")
        for name, true in strength.items():
            if name != "expert":
                est = r.estimate(name)
                covered += est.low <= true <= est.high
                total += 1
    share = covered / total
    assert 0.92 <= share <= 0.98, share  # nominal 95 %: 600 intervals
    big = fit_ratings(synthetic(strength, rng, deals=200_000), reference="expert")
    for name, true in strength.items():
        assert big.estimate(name).value == pytest.approx(true, abs=0.02)


def test_the_reference_can_be_any_item():
    tables = synthetic({"a": 0.0, "b": 0.7, "c": -0.3}, np.random.default_rng(1))
    by_a, by_b = fit_ratings(tables, reference="a"), fit_ratings(tables, reference="b")
    assert by_a.estimate("b").value == pytest.approx(-by_b.estimate("a").value)
    assert by_a.estimate("b").half_width == pytest.approx(by_b.estimate("a").half_width)
    assert fit_ratings(tables).reference == "a"  # the first item seen


@pytest.mark.parametrize("tables, message", [
    ([(("a", "b"), (5, 5)), (("c", "d"), (5, 5))], "not all connected"),
    ([(("a", "b"), (10, 0))], "infinite"),
    ([(("a", "b"), (5, 5, 1))], "one win count per seat"),
    ([(("a",), (5,))], "two or more seats"),
])
def test_refuses_designs_without_finite_strengths(tables, message):
    with pytest.raises(ValueError, match=message):
        fit_ratings(tables)


def test_unknown_reference_is_an_error():
    with pytest.raises(ValueError, match="reference"):
        fit_ratings([(("a", "b"), (5, 5))], reference="z")
