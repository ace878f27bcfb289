"""Tests of the focal-seat benchmark (vandatta_sim.bench): its pieces run on tiny inputs and
count what they say; speed itself is never asserted."""

import numpy as np
import pytest
from click.testing import CliRunner

from vandatta_sim import bench
from vandatta_sim.cli import main
from vandatta_sim.experiments.designs import focal_policies
from vandatta_sim.rules import PRESETS
from vandatta_sim.simulate import trace_game
from vandatta_sim.trace import Event

RULES = PRESETS["standard"].replace(match="single", players=3)


def test_the_focal_table_puts_the_spec_at_one_seat():
    assert focal_policies(4, 2, "random", "expert") == ["expert", "expert", "random", "expert"]
    assert focal_policies(2, 0, "greedy", "random") == ["greedy", "random"]


def test_seat_turns_are_the_seats_turn_events():
    per_deal = bench.seat_turns_per_deal(RULES, "greedy", games=3, seed=5, seat=1)
    seats = ["expert", "greedy", "expert"]
    turns = [np.count_nonzero((e[:, 0] == Event.TURN) & (e[:, 1] == 1))
             for e in (trace_game(RULES, 5, g, policies=seats) for g in range(3))]
    assert per_deal == pytest.approx(sum(turns) / 3) and per_deal > 0


def test_games_for_seconds_stays_within_its_bounds():
    seats = focal_policies(3, 0, "random", bench.SEAT_OPPONENTS)
    assert 16 <= bench.games_for_seconds(RULES, seats, 0.01, least=16, most=64) <= 64


def test_seat_speed_and_section_on_tiny_runs(monkeypatch):
    f = bench.seat_speed(RULES, "expert:eights=hold", threads=[1], repeats=1, seconds=0.01,
                         turn_games=2)
    assert f["spec"] == "expert" and f["games"] >= 16 and f["turns_per_deal"] > 0
    assert f["decisions_per_s"][1] == pytest.approx(f["deals_per_s"][1] * f["turns_per_deal"])
    monkeypatch.setattr(bench, "deals_per_second", lambda *a: 1000.0)
    text = bench.seat_section(["random", "expert:eights=dump"], quick=True, repeats=1,
                              rules=RULES)
    assert "random" in text and "expert:eights=dump" in text and "decisions/s" in text


def test_bench_seat_only_runs_the_section_for_each_spec(monkeypatch):
    seen = []
    monkeypatch.setattr(bench, "seat_section",
                        lambda specs, **kw: seen.append(list(specs)) or "SECTION")
    result = CliRunner().invoke(main, ["bench", "--seat-only", "--quick", "--seat-policy",
                                       "random", "--seat-policy", "expert:eights=hold"])
    assert result.exit_code == 0, result.output
    assert seen == [["random", "expert"]] and "SECTION" in result.output
    result = CliRunner().invoke(main, ["bench", "--seat-only", "--quick"])
    assert seen[-1] == list(bench.SEAT_POLICIES)


@pytest.mark.parametrize("spec", ["bogus", "expert:eights=maybe", "random:eights=dump"])
def test_bench_refuses_a_bad_seat_policy_in_one_line(spec, monkeypatch):
    monkeypatch.setattr(bench, "run_bench", lambda **kw: pytest.fail("ran despite the error"))
    result = CliRunner().invoke(main, ["bench", "--seat-only", "--seat-policy", spec])
    assert result.exit_code == 2, result.output
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("Error:") and spec.split(":")[0] in lines[0]
