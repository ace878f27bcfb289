"""The designer's advice on constructed trials (no games): the ranking, why rank 1 is
recommended, what the search changed apart from the fixed rules, and rules files that combine
with ``--players`` and ``--match``.

The defects: "Play with: rank 1" came with no reason when rank 1 was best at neither goal;
"changes from standard" mixed the preset's own settings with the search's; ``rank-1.toml``
pinned ``players`` and ``match``, so ``play --rules rank-1.toml --match elimination:30`` failed
("match is given twice"); a Pareto study's progress said "best so far".
"""

from __future__ import annotations

import tomllib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import run_cli
from vandatta_sim.design import parse_spec
from vandatta_sim.design.report import (changes_short, design_text, rules_file_text,
                                        search_changes, verdict, why_rank_1,
                                        write_rules_files)
from vandatta_sim.design.search import Candidate, DesignResult, order, pareto_ranks, run_design
from vandatta_sim.rules import load_rules_file
from vandatta_sim.stats import Estimate

KIDS = """
title = "test: kids"
[fixed]
preset = "kids"
set = ["match=single"]
[free]
hand_size = [5, 7]
stacking = [false, true]
[table]
players = 3
[[goals]]
measure = "deal_length"
aim = "minimise"
[[goals]]
measure = "first_player_advantage"
aim = "minimise"
[search]
trials = 6
games = 100
final_games = 100
finalists = 3
"""


def _spec(text=KIDS, **search):
    data = tomllib.loads(text)
    data["search"] |= search
    return parse_spec(data, "spec.toml")


def _est(value, half=0.0):
    return Estimate(value, value - half, value + half, 1000)


def _cand(trial, length, edge, hand_size=5, stacking=False, players=3, blocked=None):
    estimates = [_est(length, 1.0), _est(edge, 0.002)]
    if blocked is not None:
        estimates.append(_est(blocked))
    params = {"hand_size": hand_size, "stacking": stacking}
    labels = {"hand_size": str(hand_size), "stacking": str(stacking).lower()}
    return Candidate(labels, params, trial, {players: estimates})


def _result(spec, cands):
    finalists = order(spec, cands)
    return DesignResult(spec, "sqlite:///x.db", 10, 0, 0, list(cands), finalists)


# A is the most even; B has the smallest edge and the longest deals; C is dominated by A.
A = dict(trial=0, length=30.0, edge=0.010, hand_size=7)
B = dict(trial=1, length=40.0, edge=0.005, stacking=True)
C = dict(trial=2, length=35.0, edge=0.030, hand_size=7, stacking=True)


def test_a_front_ranks_the_most_even_first_and_says_what_the_others_trade():
    spec = _spec()
    result = _result(spec, [_cand(**C), _cand(**B), _cand(**A)])
    assert [c.trial for c in result.finalists] == [0, 1, 2]
    why = why_rank_1(spec, result.finalists)
    assert "most even" in why
    assert "deal length 30.0 turns (1 of 3)" in why
    assert "first-player advantage +1.0 pp (2 of 3)" in why
    assert ("for first-player advantage first, rank 2 (+0.5 pp against +1.0 pp; it gives up "
            "deal length 40.0 turns against 30.0 turns)") in why
    assert "rank 3" not in why  # dominated by rank 1: favours no goal
    assert why in verdict(result)
    # two finalists on a front place 1st and 2nd alike: a tie, said as one
    two = _result(spec, [_cand(**A), _cand(**B)])
    assert "tied with rank 2; the tie goes to the earlier trial" in why_rank_1(spec,
                                                                               two.finalists)


def test_one_goal_says_rank_1_is_the_best_at_it_with_rank_2_beside_it():
    spec = _spec(KIDS.replace('[[goals]]\nmeasure = "deal_length"\naim = "minimise"\n', ""))
    cands = [Candidate({}, {"hand_size": 5, "stacking": False}, t, {3: [_est(e, 0.002)]})
             for t, e in enumerate([0.03, -0.004, 0.01])]
    result = _result(spec, cands)
    assert [c.trial for c in result.finalists] == [1, 2, 0]  # |edge| smallest first
    assert ("Why rank 1: the best first-player advantage of the 3 finalists on fresh games, "
            "-0.4 pp (rank 2: +1.0 pp).") in verdict(result)


def test_a_finalist_that_breaks_a_cap_ranks_after_those_that_meet_them():
    cap = '[[goals]]\nmeasure = "blocked_share"\nat_most = 0.01\n'
    spec = _spec(KIDS.replace("[search]", cap + "[search]"))
    best_but_blocked = _cand(trial=0, length=20.0, edge=0.0, blocked=0.2)
    fine = _cand(**B, blocked=0.0)
    result = _result(spec, [best_but_blocked, fine])
    assert [c.trial for c in result.finalists] == [1, 0]


_loss = st.lists(st.tuples(st.integers(0, 5), st.integers(0, 5)), min_size=1, max_size=12)


@settings(max_examples=300, deadline=None)
@given(_loss)
def test_pareto_ranks_are_fronts(points):
    """Property: no point of rank 1 is dominated; every point of rank k > 1 is dominated by
    one of rank k − 1, and by none of its own rank or worse."""
    def dominates(a, b):
        return all(x <= y for x, y in zip(a, b)) and a != b

    ranks = pareto_ranks(points)
    for p, r in zip(points, ranks):
        same_or_worse = [q for q, s in zip(points, ranks) if s >= r]
        assert not any(dominates(q, p) for q in same_or_worse)
        if r > 1:
            assert any(dominates(q, p) for q, s in zip(points, ranks) if s == r - 1)


def test_changes_are_the_searchs_and_the_fixed_rules_are_said_once():
    spec = _spec()
    result = _result(spec, [_cand(**A), _cand(**B), _cand(**C)])
    rank1 = result.finalists[0]
    # kids' own settings and match=single are fixed, not the search's: only hand_size moved
    assert search_changes(spec, rank1) == {"hand_size": 7}
    assert changes_short(spec, rank1) == "hand_size=7"
    text = design_text(result)
    assert "changed by the search" in text and "changes from standard" not in text
    fixed = next(line for line in text.splitlines() if line.startswith("fixed rules"))
    assert "match=single" in fixed
    assert "Play with: " in text and ", on top of the fixed rules (" in text


def test_a_rules_file_pins_neither_players_nor_match_and_plays_as_designed(tmp_path):
    spec = _spec()
    result = _result(spec, [_cand(**A), _cand(**B), _cand(**C)])
    text = rules_file_text(result, 1)
    body = [line for line in text.splitlines() if not line.startswith("#")]
    assert not any(line.startswith(("players", "match")) for line in body)
    assert "--players 3 --match single" in text
    (path, *_) = write_rules_files(result, tmp_path / "out")
    # with the options the file names, the rules are the finalist's
    loaded = load_rules_file(path).replace(players=3, match="single")
    assert loaded == spec.rules_for(result.finalists[0].params, 3)
    # and another match format or table size combines with it
    done = run_cli("rules", "show", "--rules", path, "--match", "elimination:30", "--players", 4)
    assert done.exit_code == 0, done.output


def test_a_pareto_study_reports_the_fronts_size_not_a_best(tmp_path):
    spec = _spec(trials=3)
    lines = []
    run_design(spec, store=tmp_path / "store", log=lines.append)
    progress = [line for line in lines if line.startswith("trial ")]
    assert progress and all("front so far: " in line for line in progress)
    assert not any("best so far" in line for line in lines)


def test_trials_option_runs_that_many_trials(tmp_path):
    spec = tmp_path / "spec.toml"
    spec.write_text(KIDS, encoding="utf-8")
    done = run_cli("design", spec, "--trials", 2, "--store", tmp_path / "s", "--out-dir",
                   tmp_path / "o", "--json", "--no-progress")
    assert done.exit_code == 0, done.output
    import json

    assert json.loads(done.stdout)["trials"] == 2


@pytest.mark.parametrize("bad", ["0", "100001", "two"])
def test_a_bad_trials_count_is_one_error_line(tmp_path, bad):
    from conftest import error_line

    spec = tmp_path / "spec.toml"
    spec.write_text(KIDS, encoding="utf-8")
    line = error_line(run_cli("design", spec, "--trials", bad, "--dry-run"))
    assert "--trials" in line


def test_rules_standards_table_cannot_deal_keep_the_designed_size():
    """13 cards each at 4 players (standard's size) need 53 cards: that file names its size."""
    spec = _spec(KIDS.replace("hand_size = [5, 7]", "hand_size = [5, 13]").replace(
        "players = 3", "players = 2"))
    cand = Candidate({}, {"hand_size": 13, "stacking": False}, 0,
                     {2: [_est(30.0, 1.0), _est(0.01, 0.002)]})
    text = rules_file_text(_result(spec, [cand]), 1)
    assert "\nplayers = 2\n" in text and "\nmatch" not in text
