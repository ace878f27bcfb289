"""Plain verdicts (`report/plain.py`): rounding to what the interval supports, every odd case
in words, the players named; and the pasteable note (`report/summary_note.py`)."""

from __future__ import annotations

import math

from decimal import Decimal

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from vandatta_sim.experiments import plain
from vandatta_sim.experiments.summary_note import note_text, rules_in_words
from vandatta_sim.stats import mean_interval, ratio_root


@pytest.mark.parametrize("value, low, high, expected", [
    (166.7, 114.0, 219.4, ("170", "110", "220")),   # half-width 53: tens
    (-2.55, -2.99, -2.11, ("-2.5", "-3.0", "-2.1")),  # half-width 0.44: tenths
    (0.0991, 0.0903, 0.1080, ("0.099", "0.090", "0.108")),
    (5.0, 4.0, 6.0, ("5.0", "4.0", "6.0")),
    (180.0, 80.0, 282.0, ("180", "80", "290")),      # the "100 to 300"
    (108.0, 92.9, 124.0, ("108", "92", "124")),      # the "90 to 120"
])
def test_numbers_are_rounded_to_what_the_interval_supports(value, low, high, expected):
    assert plain.rounded(value, low, high) == expected


_finite = st.floats(-1e4, 1e4, allow_nan=False, allow_infinity=False)


@settings(max_examples=500, deadline=None)
@given(_finite, _finite, st.floats(0, 1), st.sampled_from([1.0, 100.0]))
def test_bounds_are_rounded_outward_not_to_the_nearest_step(a, b, where, scale):
    """The defect: bounds rounded to the *nearest* step narrowed the interval ([80, 282] was
    "100 to 300", [92.9, 124.0] "90 to 120"; the old rule fails the first assertion on both).
    Property: the bounds shown hold the interval computed, the value lies between them, and
    the widening is less than a quarter of the width on each side (never coarser than that),
    except where the finest step (a thousandth) is coarser than the interval itself."""
    low, high = min(a, b) / scale, max(a, b) / scale
    value = low + where * (high - low)
    v, lo, hi = plain.rounded(value, low, high, scale)
    exact = [Decimal(x * scale) for x in (value, low, high)]
    assert Decimal(lo) <= exact[1] and Decimal(hi) >= exact[2]
    assert Decimal(lo) <= Decimal(v) <= Decimal(hi)
    width = exact[2] - exact[1]
    room = max(width / 4, Decimal("0.001"))
    assert exact[1] - Decimal(lo) <= room and Decimal(hi) - exact[2] <= room


def _value_row(**over):
    row = {"scale": "hundred", "players": 4, "rank": "8", "face": 25, "n": 1000,
           "ordinary": 75 / 11,
           "win": 0.0667, "win_lo": 0.0581, "win_hi": 0.0753,
           "points": -1.48, "points_lo": -1.98, "points_hi": -0.98,
           "slope": 0.024, "slope_lo": 0.018, "slope_hi": 0.030,
           "break_even": 86.5, "break_even_lo": 62.6, "break_even_hi": 110.4}
    return row | over


def test_value_verdict_says_what_changes_and_names_the_players():
    text = plain.card_value_verdict(pd.DataFrame([_value_row()]), "all=expert")
    assert "about 6.7 more deals in 100 (5.8 to 7.6)" in text
    assert "saves about 1.5 penalty points a deal" in text
    assert "At 25 points it pays to hold" in text and "about 90 (60 to 120)" in text
    assert "`expert` player" in text
    assert 2 <= len(text.splitlines()) <= 4


def test_saves_then_leaves_you_with_more_is_gone_for_a_falling_line():
    """The defect: the random-holder row (slope < 0, break-even below 0) said "saves about
    0.27 penalty points" and then "even counted as 0 it leaves you with more penalty
    points"; the old sentence read only the break-even, never the slope's sign."""
    row = _value_row(points=-0.27, points_lo=-0.35, points_hi=-0.19, slope=-0.02,
                     slope_lo=-0.03, slope_hi=-0.01, break_even=-64.5, break_even_lo=-123.8,
                     break_even_hi=-5.2)
    text = plain.card_value_verdict(pd.DataFrame([row]), "all=random")
    assert "saves about 0.27" in text and "pays to hold" in text
    assert "leaves you with more" not in text and "costs you" not in text
    assert "No score of zero or more makes it neutral" in text
    rising = row | {"slope": 0.02, "slope_lo": 0.01, "slope_hi": 0.03, "points": 0.27,
                    "points_lo": 0.19, "points_hi": 0.35}
    text = plain.card_value_verdict(pd.DataFrame([rising]), "all=expert")
    assert "costs you points" in text and "even counted as 0 it leaves you with more" in text


def test_an_unbounded_break_even_and_a_non_significant_effect_are_explained():
    row = _value_row(win=0.002, win_lo=-0.004, win_hi=0.008, break_even=math.nan,
                     break_even_lo=-math.inf, break_even_hi=math.inf, slope_lo=-0.01)
    text = plain.card_value_verdict(pd.DataFrame([row]), "all=random")
    assert "too little to tell from chance" in text
    assert "cannot pin down" in text and "more games" in text


def test_about_neutral_needs_the_interval_within_the_stated_margin():
    """The defect: "about neutral" was printed for any interval holding the face value,
    [3, 26] as for [4.6, 6.9]. Now only within one ordinary card (stated in points)."""
    base = dict(scale="base", face=5, ordinary=1.0, rank="A")
    wide = plain.card_value_verdict(pd.DataFrame([_value_row(
        **base, break_even=9.0, break_even_lo=3.0, break_even_hi=26.0)]), "all=expert")
    assert "about neutral" not in wide and "cannot tell yet" in wide
    narrow = plain.card_value_verdict(pd.DataFrame([_value_row(
        **base, break_even=5.2, break_even_lo=4.6, break_even_hi=5.9)]), "all=expert")
    assert "about neutral" in narrow and "within 1 point (one ordinary card" in narrow


def test_a_face_above_the_break_even_costs_points():
    row = _value_row(face=50, break_even=20.0, break_even_lo=15.0, break_even_hi=25.0)
    text = plain.card_value_verdict(pd.DataFrame([row]), "all=expert")
    assert "At 50 points it costs you points" in text and "about 20" in text


def test_many_rows_stay_within_four_sentences_and_the_players():
    rows = [_value_row(players=n) for n in (2, 3, 4, 5, 6)]
    text = plain.card_value_verdict(pd.DataFrame(rows), "all=expert")
    assert len(text.splitlines()) == 4 and "2 more line(s)" in text
    assert text.startswith("At 2 players (hundred scale, one more eight counting 25): +6.7 "
                           "deals won in 100 (5.8 to 7.6); saves 1.5 points a deal; at 25 "
                           "points it pays to hold (break-even about 90, 60 to 120; it saves "
                           "points below that).")


# --- the break-even verdict as a function with properties -----------------------------------

#: What a verdict may become as its intervals shrink (nested): undecided ones may go anywhere,
#: a direction may only sharpen to neutral, neutral stays.
_NEXT = {plain.UNBOUNDED: {plain.UNBOUNDED, plain.UNCLEAR, plain.PAYS, plain.COSTS,
                           plain.NEUTRAL},
         plain.UNCLEAR: {plain.UNCLEAR, plain.PAYS, plain.COSTS, plain.NEUTRAL},
         plain.PAYS: {plain.PAYS, plain.NEUTRAL}, plain.COSTS: {plain.COSTS, plain.NEUTRAL},
         plain.NEUTRAL: {plain.NEUTRAL}}

_score = st.floats(-300, 300, allow_nan=False)
_width = st.floats(0, 200, allow_nan=False)
_slope = st.floats(0.001, 1.0)


@settings(max_examples=1000, deadline=None)
@given(face=st.integers(0, 100), centre=_score, width=_width, skew=st.floats(0, 1),
       slope=_slope, slope_width=st.floats(0, 0.999), sign=st.sampled_from([1, -1]),
       margin=st.floats(0, 20))
def test_break_even_verdict_is_right_for_either_sign_of_the_slope(face, centre, width, skew,
                                                                    slope, slope_width, sign,
                                                                    margin):
    """The defect: "pays to hold" and "costs you" swapped under a falling line (the old rule
    said "pays" whenever the face lay below the interval). Property: at the face, Δ(v) =
    b·(face − v*) has the verdict's sign for every b and v* in their intervals (pays: < 0,
    costs: > 0), and mirroring the slope swaps pays and costs and nothing else."""
    low, high = centre - skew * width, centre + (1 - skew) * width
    b_low, b_high = sorted(sign * slope * x for x in (1 - slope_width, 1 + slope_width))
    v = plain.break_even_verdict(face, low, high, b_low, b_high, margin)
    corners = [b * (face - r) for b in (b_low, b_high) for r in (low, high)]
    if v == plain.PAYS:
        assert all(c < 0 for c in corners)
    if v == plain.COSTS:
        assert all(c > 0 for c in corners)
    mirrored = plain.break_even_verdict(face, low, high, -b_high, -b_low, margin)
    swap = {plain.PAYS: plain.COSTS, plain.COSTS: plain.PAYS}
    assert mirrored == swap.get(v, v)
    # neutral only within the stated margin, and undecided only where the face is inside
    if v == plain.NEUTRAL:
        assert face - margin <= low and high <= face + margin
    if v == plain.UNCLEAR:
        assert low <= face <= high


@settings(max_examples=500, deadline=None)
@given(face=st.integers(0, 100), estimate=_score, slope=_slope, sign=st.sampled_from([1, -1]),
       margin=st.floats(0, 20), shrink=st.lists(st.tuples(st.floats(0, 1), st.floats(0, 1),
                                                          st.floats(0, 1)),
                                                min_size=2, max_size=30),
       start=st.floats(1, 500))
def test_break_even_verdict_is_monotone_as_the_intervals_shrink(face, estimate, slope, sign,
                                                               margin, shrink, start):
    """The defect: as the sample grew one cell went neutral → pays to hold → neutral (the old
    rule called any interval holding the face neutral, and a shrinking one leaves it).
    Property: on nested intervals about a fixed estimate (each inside the one before, the
    slope's too) a verdict never goes back to undecided, never from pays to costs, and never
    leaves neutral; the first sequence of the old rule's defect is impossible. (On real
    nested samples the estimate moves as well; no rule on ordinary intervals can promise
    monotonicity there, this is the part a rule can.)"""
    low, high = estimate - start, estimate + start
    b_low, b_high = 0.0 if sign > 0 else -2 * slope, 2 * slope if sign > 0 else 0.0
    previous = None
    for a, b, c in shrink:
        low, high = low + a * (estimate - low), high - b * (high - estimate)
        if sign > 0:
            b_low = b_low + c * (slope - b_low)
        else:
            b_high = b_high - c * (b_high + slope)
        v = plain.break_even_verdict(face, low, high, b_low, b_high, margin)
        if previous is not None:
            assert v in _NEXT[previous], (previous, v, low, high, b_low, b_high)
        previous = v


def _line_row(face, a_mean, b_mean, n, seed, spread):
    """A value-table row made by the real statistics from per-deal lines Δ(v) = a + b·v."""
    rng = np.random.default_rng(seed)
    a = rng.normal(a_mean, spread, n)
    b = rng.normal(b_mean, spread / 20, n)
    row = {"scale": "hundred", "players": 4, "rank": "8", "face": face, "n": n,
           "ordinary": 75 / 11, "win": 0.05, "win_lo": 0.04, "win_hi": 0.06}
    for name, e in (("points", mean_interval(a + b * face)), ("slope", mean_interval(b)),
                    ("break_even", ratio_root(a, b))):
        row.update({name: e.value, f"{name}_lo": e.low, f"{name}_hi": e.high})
    return row


@settings(max_examples=150, deadline=None)
@given(face=st.integers(0, 100), a_mean=st.floats(-5, 5), b_mean=st.floats(-0.3, 0.3),
       n=st.integers(50, 2000), seed=st.integers(0, 2**32 - 1), spread=st.floats(0.1, 10))
def test_the_sentences_never_contradict_the_points_they_follow(face, a_mean, b_mean, n, seed,
                                                               spread):
    """Rows made from the statistics themselves (paired lines per deal): where the break-even
    verdict is pays, the points effect at the face is a saving, where it costs, a cost; and
    the sentence never says both "saves" and "leaves you with more" (the old text did, for
    every row with a falling line and a negative break-even)."""
    row = _line_row(face, a_mean, b_mean, n, seed, spread)
    verdict = plain._break_even_parts(row)[0]
    if verdict == plain.PAYS:
        assert row["points"] < 0
    if verdict == plain.COSTS:
        assert row["points"] > 0
    text = plain.card_value_verdict(pd.DataFrame([row]), "all=expert")
    assert not ("saves about" in text and "leaves you with more" in text)
    assert not ("costs about" in text and "pays to hold" in text)


def test_comparison_verdict_marks_real_and_chance_differences():
    summary = pd.DataFrame([{"label": "players=4 stacking=false"},
                            {"label": "players=4 stacking=true"}])
    rows = [{"baseline": True, "paired_games": 1000},
            {"baseline": False, "paired_games": 1000, "varied": "stacking=true",
             "varied_baseline": "stacking=false", "delta_win_rate_0": 0.001, "delta_win_rate_0_low": -0.01,
             "delta_win_rate_0_high": 0.012,
             "delta_mean_turns": -5.2, "delta_mean_turns_low": -5.6,
             "delta_mean_turns_high": -4.8,
             "delta_loser_points": 1.0, "delta_loser_points_low": 0.5,
             "delta_loser_points_high": 1.5}]
    text = plain.comparison_verdict(summary, rows, 0, "all=expert")
    assert "With stacking=true instead of stacking=false" in text
    assert "a game lasts about 5.2 turns shorter" in text and "too small to tell from chance" in text
    assert "`expert` player" in text


def test_single_verdict_judges_the_fair_share():
    row = {"players": 4, "win_rate_0": 0.27, "win_rate_0_low": 0.265,
           "win_rate_0_high": 0.275, "mean_turns": 40.0, "mean_turns_low": 39.5,
           "mean_turns_high": 40.5, "mean_deals": 1.0, "mean_deals_low": 1.0,
           "mean_deals_high": 1.0}
    text = plain.single_verdict(row, "all=expert", "games")
    assert "fair share of 25.0%" in text and "real förhand advantage" in text


def test_the_note_has_rules_in_words_table_verdict_and_command():
    text = note_text("T", {"stacking": True, "draw_limit": 1}, "a | b", "It is so.",
                     "vandatta-sim value --games 10", "house.toml")
    assert "`stacking = true` (standard: `false`)" in text
    assert "house.toml" in text and "```bash\nvandatta-sim value --games 10\n```" in text
    assert "**In plain words:** It is so." in text
    assert rules_in_words({}) == ["- the `standard` rules, unchanged"]


@settings(max_examples=300, deadline=None)
@given(kind=st.sampled_from(["pp", "diff", "rel"]), digits=st.integers(0, 3),
       low=st.floats(-1, 0), high=st.floats(0, 1))
def test_an_exact_zero_is_said_in_words_never_ns(kind, digits, low, high):
    """The defect: "+0.0 pp [+0.0, +0.0] (n.s.)" was printed for changes that are exactly 0 by
    construction (a house rule that cannot act on the deal), as if a test had failed to
    reject. Property: an exact zero is never "n.s." and says so in words; any other interval
    holding 0 still is "n.s." (the old formatter marks both)."""
    from vandatta_sim.stats import Estimate
    from vandatta_sim.formatting import format_estimate

    zero = format_estimate(Estimate(0.0, 0.0, 0.0, 10), kind, digits)
    assert "n.s." not in zero and "no game changed" in zero
    if low < 0 or high > 0:
        assert format_estimate(Estimate(0.0, low, high, 10), kind, digits).endswith("(n.s.)")
    row = _value_row(win=0.0, win_lo=0.0, win_hi=0.0, points=0.0, points_lo=0.0,
                     points_hi=0.0)
    text = plain.card_value_verdict(pd.DataFrame([row]), "all=expert")
    assert "changes no deal's winner" in text and "too small to tell" not in text
