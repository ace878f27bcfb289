"""What a sweep shows a family: the fair share, deals per match, n.s. marks, panels of zeros
left out, one seat's policy varied (`--vary policy=SEAT=SPEC`) and the Δ-skill plan."""

from __future__ import annotations

import pandas as pd

from vandatta_sim.plots import drawn_panels
from vandatta_sim.sweep import expand_grid
from vandatta_sim.sweep.compare import _delta_text
from vandatta_sim.sweep.grid import parse_vary
from vandatta_sim.sweep.skill import plan_skill
from vandatta_sim.sweep.summary import sweep_table


def _summary_row(players=3, deals=1.0, capped=0.0, key="k"):
    row = {"key": key, "label": key, "games": 100, "players": players, "half_width": 0.01}
    for name, value in (("win_rate_0", 0.3), ("mean_turns", 40.0), ("blocked_share", 0.0),
                        ("capped_share", capped), ("loser_points", 20.0),
                        ("mean_deals", deals)):
        row |= {name: value, f"{name}_low": value * 0.9, f"{name}_high": value * 1.1 + 1e-4}
    return row


def test_the_table_shows_the_fair_share_and_deals_per_match_only_for_matches():
    single = sweep_table(pd.DataFrame([_summary_row()]))
    assert "fair share" in single and "33.3%" in single and "mean_deals" not in single
    matches = sweep_table(pd.DataFrame([_summary_row(players=4, deals=5.5)]))
    assert "25.0%" in matches and "mean_deals" in matches and "5.50 [" in matches


def test_differences_whose_interval_holds_zero_are_marked():
    row = {"delta_mean_turns": -0.1, "delta_mean_turns_low": -0.3,
           "delta_mean_turns_high": 0.1}
    assert _delta_text(row, "mean_turns").endswith("(n.s.)")
    row |= {"delta_mean_turns_high": -0.05}
    assert "n.s." not in _delta_text(row, "mean_turns")


def test_panels_of_zeros_are_left_out_and_named():
    summary = pd.DataFrame([_summary_row(key="a"), _summary_row(key="b")])
    drawn, dropped = drawn_panels(summary)
    assert dropped == ["capped_share"] and "capped_share" not in [p[0] for p in drawn]
    summary.loc[1, "capped_share"] = 0.001
    assert drawn_panels(summary)[1] == []


def test_one_seats_policy_is_varied_and_planned_for_skill():
    assert parse_vary("policy=0=random,expert") == ("policy", ["0=random", "0=expert"])
    configs = expand_grid("standard", vary=["policy=0=random,expert",
                                            "stacking=false,true"], players=[3],
                          policies=["all=greedy"], match="single")
    seats = [c.seats.policies for c in configs]
    assert ("random", "greedy", "greedy") in seats and ("expert", "greedy", "greedy") in seats
    keys = [c.key(1) for c in configs]
    plan = plan_skill(configs, keys, [c.label for c in configs])
    assert plan is not None and plan.seat == 0 and len(plan.variants) == 2
    assert {plan.low, plan.high} == {"random", "expert"}
    # two rules only, no policy crossing: no skill plan
    plain_sweep = expand_grid("standard", vary=["stacking=false,true"], players=[3])
    assert plan_skill(plain_sweep, [c.key(1) for c in plain_sweep],
                      [c.label for c in plain_sweep]) is None
