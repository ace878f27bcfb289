"""Plain verdicts (`report/plain.py`): rounding to what the interval supports, every odd case
in words, the players named; and the pasteable note (`report/summary_note.py`)."""

from __future__ import annotations

import math

import pandas as pd
import pytest

from vandatta_sim.report import plain
from vandatta_sim.report.summary_note import note_text, rules_in_words


@pytest.mark.parametrize("value, low, high, expected", [
    (166.7, 114.0, 219.4, ("170", "110", "220")),   # half-width 53: tens
    (-2.55, -2.99, -2.11, ("-2.5", "-3.0", "-2.1")),  # half-width 0.44: tenths
    (0.0991, 0.0903, 0.1080, ("0.099", "0.090", "0.108")),
    (5.0, 4.0, 6.0, ("5", "4", "6")),
])
def test_numbers_are_rounded_to_what_the_interval_supports(value, low, high, expected):
    assert plain.rounded(value, low, high) == expected


def _value_row(**over):
    row = {"scale": "hundred", "players": 4, "rank": "8", "face": 25, "n": 1000,
           "win": 0.0667, "win_lo": 0.0581, "win_hi": 0.0753,
           "points": -1.48, "points_lo": -1.98, "points_hi": -0.98,
           "break_even": 86.5, "break_even_lo": 62.6, "break_even_hi": 110.4}
    return row | over


def test_value_verdict_says_what_changes_and_names_the_players():
    text = plain.card_value_verdict(pd.DataFrame([_value_row()]), "all=expert")
    assert "about 6.7 more deals in 100 (5.8 to 7.5)" in text
    assert "saves about 1.5 penalty points a deal" in text
    assert "At 25 points it pays to hold" in text and "about 90 points" in text
    assert "`expert` player" in text
    assert 2 <= len(text.splitlines()) <= 4


def test_a_negative_break_even_is_explained_in_words():
    row = _value_row(break_even=-64.5, break_even_lo=-123.8, break_even_hi=-5.2)
    text = plain.card_value_verdict(pd.DataFrame([row]), "all=expert:eights=dump")
    assert "below zero" in text and "even counted as 0" in text


def test_an_unbounded_break_even_and_a_non_significant_effect_are_explained():
    row = _value_row(win=0.002, win_lo=-0.004, win_hi=0.008, break_even=math.nan,
                     break_even_lo=-math.inf, break_even_hi=math.inf)
    text = plain.card_value_verdict(pd.DataFrame([row]), "all=random")
    assert "too little to tell from chance" in text
    assert "cannot pin down" in text and "more games" in text


def test_a_break_even_that_holds_the_face_value_is_neutral():
    row = _value_row(break_even=30.0, break_even_lo=20.0, break_even_hi=40.0)
    assert "about neutral" in plain.card_value_verdict(pd.DataFrame([row]), "all=expert")


def test_a_face_above_the_break_even_costs_points():
    row = _value_row(face=50, break_even=20.0, break_even_lo=15.0, break_even_hi=25.0)
    text = plain.card_value_verdict(pd.DataFrame([row]), "all=expert")
    assert "At 50 points it costs you points" in text and "about 20" in text


def test_many_rows_stay_within_four_sentences_and_the_players():
    rows = [_value_row(players=n) for n in (2, 3, 4, 5, 6)]
    text = plain.card_value_verdict(pd.DataFrame(rows), "all=expert")
    assert len(text.splitlines()) == 4 and "2 more line(s)" in text
    assert text.startswith("At 2 players (hundred scale, one more eight counting 25): +6.7 "
                           "deals won in 100 (5.8 to 7.5); saves 1.5 points a deal; at 25 "
                           "points it pays to hold (break-even about 90, 60 to 110).")


def test_comparison_verdict_marks_real_and_chance_differences():
    summary = pd.DataFrame([{"label": "players=4 stacking=false"},
                            {"label": "players=4 stacking=true"}])
    rows = [{"baseline": True, "paired_games": 1000},
            {"baseline": False, "paired_games": 1000,
             "delta_win_rate_0": 0.001, "delta_win_rate_0_low": -0.01,
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
