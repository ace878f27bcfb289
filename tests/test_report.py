"""Tests of vandatta_sim.experiments: the exact first-turn case, the estimators the reports use,
measures and designs on hand-made tables and small runs, and (slow) the report scripts end to
end."""

import sys
from fractions import Fraction
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from conftest import quick_report_twice
from naive import exact_first_turn_win
from vandatta_sim.experiments.designs import (DUMPER, H2H_POLICIES, HOLDERS, SCALE_NAMES,
                                              card_values, compare_policies, face_values,
                                              focal_outcomes, head_to_head, scale_grid,
                                              skill_per_game, swap_effects, swap_pairs)
from vandatta_sim.stats import estimate_columns, row_estimate
from vandatta_sim.formatting import format_estimate as fmt
from vandatta_sim.experiments.measures import (deal_summary, forhand_advantage, log_grid,
                                          match_summary, mean_points, most_eights_seat,
                                          n_players, seat_values, share_at_most)
from vandatta_sim.experiments.runner import Runner, make_config
from vandatta_sim.experiments.variants import _show, single, variants
from vandatta_sim.experiments.verdicts import (CONTRADICTED, SUPPORTED, UNCLEAR, claim_verdict,
                                          combine_verdicts, direction, holding_verdict)
from vandatta_sim.rules import PRESETS, Rules
from vandatta_sim.simulate import simulate
from vandatta_sim.stats import Estimate, proportion
from vandatta_sim.formatting import format_table

ROOT = Path(__file__).resolve().parents[1]
ONE_CARD = Rules(players=2, hand_size=1, match="single")


# -- the exact case: one card each --------------------------------------------------------------


def test_exact_first_turn_win_closed_form():
    # Aces buried too: the start card is one of the 44 ordinary cards; förhand wins iff its
    # card is ordinary (44/52) and the start card, one of the other 43 ordinary cards, shares
    # its suit (10 others) or rank (3 others).
    assert exact_first_turn_win(ONE_CARD.replace(start_ace="bury")) == Fraction(11, 43)


def test_exact_first_turn_win_rejects_unsupported_rules():
    with pytest.raises(ValueError):
        exact_first_turn_win(ONE_CARD.replace(hand_size=2))
    with pytest.raises(ValueError):
        exact_first_turn_win(ONE_CARD.replace(start_eight="dealer_names"))
    with pytest.raises(ValueError):  # a drawn eight can be followed up by the dealt card
        exact_first_turn_win(ONE_CARD.replace(eight_follow="same_player"))
    with pytest.raises(ValueError):  # a drawn ace on a start ace gives an extra turn
        exact_first_turn_win(ONE_CARD.replace(ace_on_ace="allowed"))


@pytest.mark.parametrize("changes", [
    {},
    {"start_ace": "bury"},
    {"start_ace": "dealer_draws"},
    {"start_ace": "dealer_draws", "eight_on_ace": True, "out_on_special": True,
     "specials_only_must_draw": False},
    {"out_on_special": True},
    {"out_on_special": True, "specials_only_must_draw": False},
    {"out_on_special": True, "specials_only_must_draw": False, "ace_on_ace": "counter",
     "start_ace": "dealer_draws"},
    {"last_card_start_suit": True},
    {"players": 4},
])
def test_simulated_first_turn_wins_match_the_exact_value(changes):
    """The simulator's rate of förhand emptying its hand on turn 1 agrees with enumeration."""
    rules = ONE_CARD.replace(**changes)
    exact = float(exact_first_turn_win(rules))
    games = 60_000
    df = simulate(rules, games, seed=11, policies="random")
    hits = int(((df["winner"] == 0) & (df["turns"] == 1)).sum())
    est = proportion(hits, games, confidence=0.999)  # fixed seed; wide enough not to flake
    assert est.low <= exact <= est.high, (changes, exact, est)
    # every seat's first-turn win is förhand's: nobody else moves in turn 1
    assert not ((df["turns"] == 1) & (df["winner"] > 0)).any()


def test_forhand_advantage_is_the_excess_over_the_fair_share():
    df = pd.DataFrame({"winner": [0, 0, 1, 2, -1, 0, 3, 1], "points_0": 0, "points_1": 0,
                       "points_2": 0, "points_3": 0})
    est = forhand_advantage(df)
    # P(seat 0) = 3/8, P(won) = 7/8, fair share 7/32
    assert est.value == pytest.approx(3 / 8 - 7 / 32)
    assert n_players(df) == 4


def test_most_eights_seat():
    df = pd.DataFrame({f"eights_{s}": col for s, col in
                       enumerate(([2, 1, 0, 1], [1, 1, 0, 0], [0, 0, 0, 2]))}
                      | {f"points_{s}": 0 for s in range(3)})
    assert most_eights_seat(df).tolist() == [0, -1, -1, 2]


def test_seat_values_picks_each_rows_seat():
    df = pd.DataFrame({"points_0": [1, 2, 3], "points_1": [10, 20, 30], "points_2": [7, 8, 9]})
    assert seat_values(df, "points", [2, 0, 1]).tolist() == [7, 2, 30]
    assert mean_points(df).tolist() == pytest.approx([6, 10, 14])


def test_share_at_most_and_log_grid():
    assert share_at_most([1, 2, 2, 5], [0, 1, 2, 4, 5, 9]).tolist() == [0, .25, .75, .75, 1, 1]
    grid = log_grid(1000)
    assert grid[0] == 1 and grid[-1] == 1000 and np.all(np.diff(grid) > 0)


# -- swap experiment on hand-made tables ----------------------------------------------------------


def _table(winners, points, swapped=None):
    points = np.asarray(points)
    df = pd.DataFrame({"game": np.arange(len(winners)), "winner": winners, "deals": 1})
    for s in range(points.shape[1]):
        df[f"points_{s}"] = points[:, s]
        df[f"eights_{s}"] = 0
        df[f"aces_{s}"] = 0
    if swapped is not None:
        df["swapped"] = swapped
    return df


def test_swap_pairs_and_effects_by_hand():
    # two players: game g's focal seat is g % 2
    base = _table([0, 0, 1, 1], [[0, 5], [0, 7], [3, 0], [4, 0]])
    swp = _table([0, 1, 1, 0], [[0, 5], [2, 0], [3, 0], [0, 9]], [True, True, False, True])
    pairs = swap_pairs(base, swp, 2)
    assert pairs["seat"].tolist() == [0, 1, 0, 1]
    assert pairs["win_base"].tolist() == [True, False, False, True]
    assert pairs["win_swap"].tolist() == [True, True, False, False]
    assert pairs["points_swap"].tolist() == [0, 0, 3, 9]
    eff = swap_effects(pairs)
    # swapped games 0, 1, 3: win differences 0, +1, -1; points differences 0, -7, +9
    assert eff["win"].value == pytest.approx(0.0) and eff["win"].n == 3
    assert eff["points"].value == pytest.approx(2 / 3)
    assert eff["possible"].value == pytest.approx(0.75)
    assert eff["base_win"].value == pytest.approx(2 / 3)


# -- table builders on small runs -----------------------------------------------------------------


@pytest.fixture(scope="module")
def direct():
    return Runner(use_sweep=False)


def test_card_values_small_run(direct):
    rules = single(PRESETS["standard"], players=3, scale="crazy_eights")
    table = card_values(direct, rules, ["8", "5", "A"], 400, seed=5)
    assert table["rank"].tolist() == ["8", "5", "A"]
    assert table["face"].tolist() == [50, 5, 1]
    for name in ("win", "points", "base_win", "relative_win", "possible"):
        assert (table[f"{name}_low"] <= table[name]).all()
        assert (table[name] <= table[f"{name}_high"]).all()
    assert (table["n"] <= 400).all() and (table["n"] > 300).all()
    again = card_values(direct, rules, ["8", "5", "A"], 400, seed=5)
    pd.testing.assert_frame_equal(table, again)


def test_swap_rows_only_differ_in_swapped_games(direct):
    rules = single(PRESETS["standard"], players=2)
    base, swp = direct.run([make_config(rules, "expert"),
                            make_config(rules, "expert", swap="K")], 300, 2)
    pairs = swap_pairs(base, swp, 2)
    unswapped = ~pairs["swapped"]
    assert (pairs.loc[unswapped, "win_base"] == pairs.loc[unswapped, "win_swap"]).all()


def test_focal_outcomes_line_up_and_match_simulate(direct):
    rules = single(PRESETS["standard"], players=3)
    out = focal_outcomes(direct, rules, ("expert", "random"), "random", 200, seed=40)
    assert set(out) == {"expert", "random"}
    for df in out.values():
        assert len(df) == 3 * 200
        assert df["seat"].tolist() == [s for s in range(3) for _ in range(200)]
    # seat 1 focal with expert: seed 41, policies random/expert/random
    ref = simulate(rules, 200, seed=41, policies=["random", "expert", "random"])
    mine = out["expert"][out["expert"]["seat"] == 1]
    assert mine["win"].tolist() == (ref["winner"] == 1).tolist()
    assert mine["points"].tolist() == ref["points_1"].tolist()
    cmp = compare_policies(out, "expert", "random")
    assert cmp["win"].value == pytest.approx(cmp["win_a"].value - cmp["win_b"].value)
    assert skill_per_game(out).mean() == pytest.approx(cmp["win"].value)


def test_head_to_head_rows_are_the_holder_dumper_comparisons(direct):
    logged = []
    table = head_to_head(direct, [2], False, 60, seed=7, log=logged.append)
    assert table[["scale", "players", "holder"]].values.tolist() == [
        [scale, 2, holder] for scale in SCALE_NAMES for holder in HOLDERS]
    assert len(logged) == len(SCALE_NAMES) and "2 players, deals" in logged[0]
    # the last scale's rows, recomputed by hand from the policy substitution they come from
    scale, players, rules = list(scale_grid([2], False))[-1]
    assert (rules.scale, rules.players, rules.match) == (scale, players, "single")
    out = focal_outcomes(direct, rules, H2H_POLICIES, "expert", 60, seed=7)
    for holder in HOLDERS:
        row = table[(table["scale"] == scale) & (table["holder"] == holder)].iloc[0]
        cmp = compare_policies(out, holder, DUMPER)
        assert row["n"] == cmp["win"].n == 2 * 60
        for name, est in cmp.items():
            assert row_estimate(row, name) == Estimate(est.value, est.low, est.high, 2 * 60)
    matches = list(scale_grid([3, 5], True))
    assert [(s, p) for s, p, _ in matches] == [(s, p) for s in SCALE_NAMES for p in (3, 5)]
    assert {r.match for _, _, r in matches} == {"elimination:100"}


def test_deal_and_match_summaries(direct):
    rules = single(PRESETS["standard"], players=4)
    df = direct.one(make_config(rules, "expert"), 500, 3)
    s = deal_summary(df)
    assert s["turns"].value == pytest.approx(df["turns"].mean())
    assert s["actions"].value == pytest.approx((df["plays"] + df["draws"]).mean())
    assert s["forhand_win"].value == pytest.approx((df["winner"] == 0).mean())
    assert s["reshuffled"].value == pytest.approx((df["reshuffles"] > 0).mean())
    m = match_summary(direct.one(make_config(PRESETS["standard"], "expert"), 50, 3))
    assert m["deals"].value >= 2 and m["deals"].n == 50


def test_sweep_runner_gives_the_same_tables(direct, tmp_path):
    stored = Runner(store=str(tmp_path / "store"), use_sweep=True)
    rules = single(PRESETS["standard"], players=2)
    configs = [make_config(rules, "expert"), make_config(rules, "expert", swap="8")]
    for a, b in zip(direct.run(configs, 300, 9), stored.run(configs, 300, 9)):
        pd.testing.assert_frame_equal(a, b, check_dtype=False)
    shorter = stored.run(configs, 120, 9)  # a prefix of what is stored
    assert [len(df) for df in shorter] == [120, 120]


# -- variants, verdicts, formatting ----------------------------------------------------------------


def test_variants_are_valid_and_differ_from_their_baseline():
    catalogue = variants()
    names = [v.name for v in catalogue]
    assert len(names) == len(set(names))
    by_name = {v.name: v for v in catalogue}
    assert set(PRESETS) <= set(names)
    for v in catalogue:
        base = by_name[v.baseline]
        if v.group in ("preset",) or v.name == v.baseline:
            continue
        if v.group == "calls" and v.rules == base.rules:
            assert v.forget != base.forget or v is base
            continue
        changed = v.rules.diff(base.rules)
        assert v.name == ", ".join(f"{k}={_show(val)}" for k, val in changed.items()), v.name
        assert v.forget == base.forget


def test_claim_verdicts():
    up = Estimate(0.3, 0.2, 0.4, 10)
    assert claim_verdict(up, +1) == SUPPORTED
    assert claim_verdict(up, -1) == CONTRADICTED
    assert claim_verdict(up, +1, threshold=0.25) == UNCLEAR
    assert claim_verdict(up, -1, threshold=0.5) == SUPPORTED
    assert claim_verdict(Estimate(0.0, float("nan"), float("nan"), 1), +1) == UNCLEAR
    assert combine_verdicts([SUPPORTED, SUPPORTED]) == SUPPORTED
    assert combine_verdicts([SUPPORTED, UNCLEAR]) == UNCLEAR
    assert combine_verdicts([UNCLEAR, CONTRADICTED]) == CONTRADICTED


def test_direction_and_holding_verdict():
    up, down, zero = Estimate(1, .5, 2, 9), Estimate(-1, -2, -.5, 9), Estimate(0, -1, 1, 9)
    assert [direction(e) for e in (up, down, zero)] == [1, -1, 0]
    assert direction(Estimate(1, float("nan"), float("nan"), 1)) == 0
    # points are holder − dumper penalty points: lower is better for the holder
    assert holding_verdict(down, up) == "holding pays"
    assert holding_verdict(up, down) == "dumping pays"
    assert holding_verdict(zero, zero) == "no difference at this precision"
    assert holding_verdict(down, zero) == "holding pays"
    assert holding_verdict(up, up).startswith("mixed: dumping gives fewer points")
    assert holding_verdict(down, down).startswith("mixed: holding gives fewer points")


def test_estimate_columns_round_trip():
    est = Estimate(0.25, 0.2, 0.3, 40)
    row = {"n": 40} | estimate_columns("win", est)
    assert row == {"n": 40, "win": 0.25, "win_low": 0.2, "win_high": 0.3}
    assert row_estimate(row, "win") == est


def test_fmt_and_markdown_table():
    assert fmt(Estimate(0.2573, 0.254, 0.2601, 9), "pct", 1) == "25.7% [25.4, 26.0]"
    assert fmt(Estimate(0.0123, 0.01, 0.015, 9), "pp", 2) == "+1.23 pp [+1.00, +1.50]"
    assert fmt(Estimate(-0.5, -1.2, 0.2, 9), "diff", 1) == "-0.5 [-1.2, +0.2] (n.s.)"
    assert fmt(Estimate(float("nan"), 0, 0, 0)) == "–"
    text = format_table(["a", "b"], [[1, "x|y"]])
    assert text == "| a | b |\n|:---|---:|\n| 1 | x\\|y |\n"
    with pytest.raises(ValueError):
        format_table(["a"], [[1, 2]])


def test_face_values_table():
    fv = face_values()
    assert fv.loc["8"].tolist() == [10, 25, 50]
    assert fv.loc["A", "crazy_eights"] == 1 and fv.loc["K", "hundred"] == 10


# -- the report scripts end to end --------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize("script", ["eight_value", "claims"])
def test_report_script_quick_run_is_deterministic(script, tmp_path):
    # variants' pair of quick runs is checked in tests/test_variants_report.py, which reads
    # its table too (one pair of runs instead of three runs)
    quick_report_twice(script, tmp_path)


def test_eight_value_first_screen_is_checked():
    sys.path.insert(0, str(ROOT / "analyses"))
    try:
        import eight_value
    finally:
        sys.path.remove(str(ROOT / "analyses"))
    fits = "# title\n" + "\n".join(["x" * 100] * 38) + "\n---\n\n" + "y" * 300
    assert eight_value.check_screen(fits) == fits
    with pytest.raises(ValueError, match="over 100"):
        eight_value.check_screen("# t\n" + "x" * 101 + "\n---\n")
    with pytest.raises(ValueError, match="41 lines"):
        eight_value.check_screen("\n".join(["x"] * 41) + "\n---\n")
