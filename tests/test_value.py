"""The card-value experiment: paired effects, the break-even face value, the valuation key."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from vandatta_sim.experiments.designs import swap_pairs
from vandatta_sim.experiments.runner import Runner, make_config
from vandatta_sim.rules import PRESETS
from vandatta_sim.simulate import SimulationError, simulate
from vandatta_sim.stats import ratio_root
from vandatta_sim.sweep import SweepError
from vandatta_sim.experiments.card_value import (break_even, card_value, check_ranks, check_scales,
                                ordinary_points, scale_with, second_score)

STANDARD = PRESETS["standard"]
DEALS = STANDARD.replace(players=4, match="single")


def test_ranks_and_scales_are_checked():
    assert check_ranks("8") == ["8"]
    assert check_ranks("a, 8") == ["A", "8"]
    assert len(check_ranks("all")) == 13
    assert check_scales("base,hundred") == ["base", "hundred"]
    for bad in ("1", "11", "8,joker", ""):
        with pytest.raises(SimulationError, match="allowed: A, 2"):
            check_ranks(bad)
    with pytest.raises(SimulationError, match="allowed: base, hundred, crazy_eights"):
        check_scales("hundred,swedish")
    # the conflict rule: a value twice in a list is an error naming it, however it is spelled
    with pytest.raises(SimulationError, match="rank 8 is given twice in '8,A,8'; give each"):
        check_ranks("8,A, 8")
    with pytest.raises(SimulationError, match="rank A is given twice in 'a,A'"):
        check_ranks("a,A")
    with pytest.raises(SimulationError, match="scale base is given twice"):
        check_scales("base,hundred,base")


def test_scale_with_moves_the_joker_with_the_eight():
    points = scale_with("hundred", "8", 3)
    assert points[7] == 3 and points[13] == 3
    assert scale_with("hundred", "A", 0)[0] == 0 and scale_with("hundred", "A", 0)[13] == 25
    assert second_score(25) == 0 and second_score(0) == 1


def test_ratio_root_finds_the_root_of_the_mean_line():
    rng = np.random.default_rng(3)
    b = rng.normal(0.5, 0.2, 4000)
    a = -12.0 * b + rng.normal(0, 1, 4000)  # the line crosses 0 near 12
    est = ratio_root(a, b)
    assert est.low < 12 < est.high and est.value == pytest.approx(-a.mean() / b.mean())
    # a slope indistinguishable from 0 gives no root
    assert np.isnan(ratio_root(a, rng.normal(0, 1, 4000)).value)


def _fieller_by_test_inversion(a, b, grid):
    """Fieller's set computed independently of the quadratic: every x on ``grid`` that the
    paired z-test of mean(a_i + x·b_i) = 0 does not reject at 95 %."""
    z = 1.959963984540054
    keep = [x for x in grid
            if abs((a + x * b).mean()) <= z * (a + x * b).std(ddof=1) / np.sqrt(len(a))]
    return min(keep), max(keep)


@pytest.mark.parametrize("slope_mean, slope_sd", [(0.5, 0.4), (0.06, 1.2), (-0.3, 0.8)])
def test_ratio_root_is_fiellers_interval(slope_mean, slope_sd):
    rng = np.random.default_rng(11)
    b = rng.normal(slope_mean, slope_sd, 3000)
    a = rng.normal(-12.0 * slope_mean, 1.0, 3000)  # the mean line crosses 0 near 12
    est = ratio_root(a, b)
    lo, hi = _fieller_by_test_inversion(a, b, np.linspace(est.low - 5, est.high + 5, 40001))
    step = (est.high - est.low + 10) / 40000
    assert est.low == pytest.approx(lo, abs=2 * step)
    assert est.high == pytest.approx(hi, abs=2 * step)
    if slope_mean == 0.06:  # an uncertain slope: Fieller's interval is skewed away from 0
        assert est.high - est.value > 1.5 * (est.value - est.low)


def test_a_valuation_equal_to_the_scale_keeps_the_key_and_another_changes_it():
    plain = make_config(DEALS)
    same = make_config(DEALS, valuation="hundred")
    assert same.valuation is None and same.key(1) == plain.key(1)
    other = make_config(DEALS, valuation="base")
    assert other.key(1) != plain.key(1) and other.identity()["valuation"] == "base"
    with pytest.raises(SweepError, match="valuation"):
        make_config(DEALS, valuation="swedish")


def test_points_are_linear_in_the_face_value_with_play_held_fixed():
    """Three scores of the eight, the table's scale as the valuation: each game's Δ points lies
    on the line through the first two, exactly, and the deal winner never moves."""
    runs = {}
    for v in (0, 25, 60):
        rules = DEALS.replace(scale=scale_with("hundred", "8", v))
        runs[v] = swap_pairs(simulate(rules, 6000, 7, valuation="hundred"),
                             simulate(rules, 6000, 7, swap="8", valuation="hundred"), 4)
    delta = {v: (p["points_swap"] - p["points_base"]).to_numpy() for v, p in runs.items()}
    slope = (delta[25] - delta[0]) / 25
    np.testing.assert_array_equal(delta[0] + slope * 60, delta[60])
    assert slope.mean() > 0  # one more eight leaves more eights in hand on average
    np.testing.assert_array_equal(runs[0]["win_swap"], runs[60]["win_swap"])
    # and break_even's root is where the mean line (over the swapped deals) crosses 0
    root = break_even(runs[25], runs[0], 25, 0)["break_even"]
    swapped = runs[0]["swapped"].to_numpy()
    mean_at_root = delta[0][swapped].mean() + slope[swapped].mean() * root.value
    assert root.low < root.value < root.high and abs(mean_at_root) < 1e-9
    # the standing (own minus the mean opponent's points) is a line in the score too
    standing = {v: (p["points_swap"] - p["opponents_swap"]
                    - p["points_base"] + p["opponents_base"]).to_numpy() for v, p in runs.items()}
    s_slope = (standing[25] - standing[0]) / 25
    np.testing.assert_allclose(standing[0] + s_slope * 60, standing[60], atol=1e-9)
    lines = break_even(runs[25], runs[0], 25, 0)
    at_root = standing[0][swapped].mean() + s_slope[swapped].mean() * lines[
        "break_even_standing"].value
    assert abs(at_root) < 1e-9


def test_an_ordinary_card_scores_one_under_base_and_about_seven_elsewhere():
    assert ordinary_points("base") == 1
    assert ordinary_points("hundred") == pytest.approx((7 * 5 + 4 * 10) / 11)
    assert ordinary_points("crazy_eights") == pytest.approx((2 + 3 + 4 + 5 + 6 + 7 + 9 + 40) / 11)


@pytest.fixture(scope="module")
def small_table(tmp_path_factory):
    store = tmp_path_factory.mktemp("value") / "results"
    runner = Runner(store=str(store), threads=1)
    rules = STANDARD.replace(players=3)
    return card_value(rules, runner, ranks=["8", "A"], players=[3], scales=["base", "hundred"],
                      games=1500, match_games=200, seed=5), rules, store


def test_card_value_rows_and_columns(small_table):
    table, _, _ = small_table
    assert list(zip(table["scale"], table["rank"])) == [("base", "A"), ("base", "8"),
                                                        ("hundred", "A"), ("hundred", "8")]
    assert table["face"].tolist() == [5, 10, 15, 25]  # ranks in rank order
    for name in ("win", "points", "slope", "match_win", "match_deals"):
        assert (table[f"{name}_low"] <= table[name]).all()
        assert (table[name] <= table[f"{name}_high"]).all()
    # an eight's break-even is bounded; an ace's may not be at this count (its slope holds 0)
    eights = table[table["rank"] == "8"]
    assert ((eights["break_even_low"] < eights["break_even"])
            & (eights["break_even"] < eights["break_even_high"])).all()
    unbounded = table["break_even"].isna()
    assert (table.loc[unbounded, "slope_low"] <= 0).all()
    assert (table.loc[unbounded, "slope_high"] >= 0).all()
    assert (table["games"] == 1500).all() and (table["match_games"] == 200).all()
    np.testing.assert_allclose(table["break_even_cards"] * table["ordinary"],
                               table["break_even"])
    assert ((table["possible_low"] <= table["possible"]) & (table["possible"] <= 1)).all()
    assert ((table["corr_win"] > -1) & (table["corr_win"] < 1)).all()
    # the deal win does not depend on the scale (play is the same, only the points differ)...
    base, hundred = table[table["scale"] == "base"], table[table["scale"] == "hundred"]
    assert base["win"].tolist() != [] and (base["n"].to_numpy() == hundred["n"].to_numpy()).all()
    # ...but base matches last longer than hundred ones
    assert base["match_deals"].iloc[0] > hundred["match_deals"].iloc[0]


def test_card_value_is_the_same_direct_and_through_the_store_and_reads_back(small_table):
    table, rules, store = small_table
    direct = card_value(rules, Runner(use_sweep=False, threads=2), ranks=["8", "A"],
                        players=[3], scales=["base", "hundred"], games=1500, match_games=200,
                        seed=5)
    pd.testing.assert_frame_equal(table, direct)
    again = Runner(store=str(store), threads=2)
    pd.testing.assert_frame_equal(table, card_value(
        rules, again, ranks=["8", "A"], players=[3], scales=["base", "hundred"], games=1500,
        match_games=200, seed=5))


def test_precision_plays_until_the_half_width_is_reached(tmp_path, monkeypatch):
    import vandatta_sim.experiments.card_value as value

    monkeypatch.setattr(value, "PILOT_GAMES", 500)
    table = card_value(DEALS, Runner(store=str(tmp_path / "r")), precision=0.02, seed=2)
    half = (table["win_high"] - table["win_low"]).iloc[0] / 2
    assert half <= 0.02 and table["games"].iloc[0] > 500


def test_the_eight_alone_gives_the_same_numbers_as_with_the_ace(small_table):
    """The report runs the eight's matches without the ace and quotes `value --rank 8,A`: the
    eight's numbers must not depend on which other ranks are asked for."""
    table, rules, store = small_table
    alone = card_value(rules, Runner(store=str(store)), ranks=["8"], players=[3],
                       scales=["base", "hundred"], games=1500, match_games=200, seed=5,
                       break_even_point=False)
    eights = table[table["rank"] == "8"].reset_index(drop=True)
    for column in ("win", "win_low", "points", "n", "match_win", "match_win_high", "match_deals"):
        assert alone[column].tolist() == eights[column].tolist(), column


def test_per_game_effects_pair_game_by_game_across_tables():
    from vandatta_sim.experiments.card_value import effects_per_game, paired_effect_difference

    runner = Runner(use_sweep=False, threads=1)
    rules = DEALS.replace(players=3)
    a = effects_per_game(runner, rules, "expert", "8", 400, 3)
    assert list(a["seat"]) == list(a["game"] % 3) and a["swapped"].mean() > 0.9
    # a table against itself: every paired difference is exactly 0
    same = paired_effect_difference(a, a)
    assert same.value == same.low == same.high == 0 and same.n == int(a["swapped"].sum())
    # another scale on the same seed: the same deals, so the same games are swapped
    b = effects_per_game(runner, rules.replace(scale="base"), "expert", "8", 400, 3)
    assert (a["swapped"] == b["swapped"]).all()
    d = paired_effect_difference(a, b)
    kept = a["swapped"].to_numpy()
    assert d.value == pytest.approx(a["win"][kept].mean() - b["win"][kept].mean())
    # the per-seat design: one run per focal seat, the holder there, seed + seat
    held = effects_per_game(runner, rules, "expert", "8", 100, 3, holder="random")
    assert sorted(set(held["seat"])) == [0, 1, 2] and len(held) == 300
    mine = effects_per_game(runner, rules, "expert", "8", 100, 3, holder="expert")
    assert (mine[["seat", "game"]].to_numpy() == held[["seat", "game"]].to_numpy()).all()


def test_joker_scale_drift_a_joker_with_its_own_score_keeps_it_in_the_second_score_run(
        tmp_path):
    # the drift: the second-score run set the joker to the eight's second score as well, so a
    # custom joker = 100 was dropped there and the printed break-even was wrong, silently
    rules = STANDARD.replace(players=3, match="single", jokers=2,
                             scale={"base": "hundred", "joker": 100})
    face = rules.scale
    assert face[13] == 100 and face[7] != 100
    assert scale_with(face, "8", 0)[13] == 100
    table = card_value(rules, Runner(store=str(tmp_path / "r"), threads=1), ranks=["8"],
                       players=[3], games=3000, seed=4)
    # by hand: the eight alone scored 0 (the joker keeps its 100), play held fixed
    hand = rules.replace(scale=face[:7] + (0,) + face[8:])
    at_face = swap_pairs(simulate(rules, 3000, 4), simulate(rules, 3000, 4, swap="8"), 3)
    at_zero = swap_pairs(simulate(hand, 3000, 4, valuation=face),
                         simulate(hand, 3000, 4, swap="8", valuation=face), 3)
    keep = at_face["swapped"].to_numpy() & at_zero["swapped"].to_numpy()
    d_face = (at_face["points_swap"] - at_face["points_base"]).to_numpy(np.float64)[keep]
    d_zero = (at_zero["points_swap"] - at_zero["points_base"]).to_numpy(np.float64)[keep]
    slope = (d_face - d_zero) / face[7]
    by_hand = -d_zero.mean() / slope.mean()  # the root of the mean line a + b·v
    assert np.isfinite(by_hand)
    assert table["break_even"].iloc[0] == pytest.approx(by_hand, rel=1e-9)
