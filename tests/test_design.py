"""The rules designer: spec checks, a 20-trial search, resuming, fresh seeds, the examples."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
import tomllib
from pathlib import Path

import pytest
from click.testing import CliRunner

from vandatta_sim.cli import main
from vandatta_sim.design import SpecError, load_spec, parse_spec
from vandatta_sim.design import search as design_search
from vandatta_sim.design.report import design_text, write_rules_files
from vandatta_sim.design.search import final_seed, run_design, seeds_used
from vandatta_sim.experiments.designs import skill_comparisons
from vandatta_sim.experiments.runner import Runner
from vandatta_sim.rules import load_rules_file
from vandatta_sim.store import Store

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
DESIGN_EXAMPLES = sorted(EXAMPLES.glob("*-design.toml"))

#: The two-parameter spec of the issue: 20 trials over draw limit × stacking, two players.
TWO_PARAMETERS = """
title = "test: fair two-player deals"
[fixed]
set = ["match=single"]
[free]
draw_limit = [0, 1, 2, 3]
stacking = [false, true]
[table]
players = 2
[[goals]]
measure = "first_player_advantage"
aim = "minimise"
[[goals]]
measure = "deal_length"
at_most = 40
[search]
trials = 20
seed = 3
games = 400
final_games = 1200
finalists = 2
"""


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args], catch_exceptions=False)


def write_spec(tmp_path, text=TWO_PARAMETERS, name="spec.toml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def spec_of(text: str, **search):
    data = tomllib.loads(text)
    data.setdefault("search", {}).update(search)
    return parse_spec(data, "spec.toml")


# --- bad specs: one Error line, exit 2, nothing written -------------------------------------------

BAD = [
    ("[free]\ndraw_limt = [0, 1]", "unknown rule parameter (did you mean 'draw_limit'?)"),
    ("[free]\ndraw_limit = []", "an empty range"),
    ("[free]\ndraw_limit = [1]", "two or more values"),
    ("[free]\ndraw_limit = [1, 9]", "draw_limit"),
    ("[free]\ndraw_limit = [1, 1]", "listed twice"),
    ('[fixed]\nset = ["draw_limit=1"]\n[free]\ndraw_limit = [0, 1]', "either fixed or free"),
    ("[free]\nstacking = [false, true]\n[[goals]]\nmeasure = 'blocked_share'\nat_most = 2",
     "impossible"),
    ("[free]\nstacking = [false, true]\n[[goals]]\nmeasure = 'deal_length'\nat_least = 40\n"
     "[[goals]]\nmeasure = 'deal_length'\nat_most = 30", "impossible"),
    ("[free]\nstacking = [false, true]\n[[goals]]\nmeasure = 'fun'\naim = 'maximise'",
     "unknown measure"),
    ("[free]\nstacking = [false, true]\n[[goals]]\nmeasure = 'blocked_share'\nat_most = 0.1",
     "only caps"),
    ("[free]\nstacking = [false, true]\n[[goals]]\nmeasure = 'win_rate_3'\naim = 'maximise'",
     "seats 0–1"),
    ("[free]\nstacking = [false, true]\n[[goals]]\nmeasure = 'skill'\nstrong = 'random'\n"
     "aim = 'maximise'", "the same player"),
]
GOAL = "\n[[goals]]\nmeasure = 'first_player_advantage'\naim = 'minimise'"


@pytest.mark.parametrize("body,words", BAD)
def test_a_bad_spec_is_one_error_line_with_exit_2_and_nothing_written(tmp_path, body, words):
    text = '[fixed]\nset = ["match=single"]\n[table]\nplayers = 2\n' + body
    if "[fixed]" in body:
        text = "[table]\nplayers = 2\n" + body
    if "[[goals]]" not in body:
        text += GOAL
    spec = write_spec(tmp_path, text)
    result = run("design", spec, "--store", tmp_path / "store", "--out-dir", tmp_path / "out")
    assert result.exit_code == 2, result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: "), result.output
    assert words in lines[0]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["spec.toml"]


def test_match_length_needs_a_match():
    with pytest.raises(SpecError, match="needs a match"):
        spec_of('[fixed]\nset = ["match=single"]\n[free]\nstacking = [false, true]\n'
                "[[goals]]\nmeasure = 'match_length'\ntarget = 5")


def test_the_study_name_follows_the_spec_but_not_its_trial_count():
    a = spec_of(TWO_PARAMETERS)
    assert a.study_name() == spec_of(TWO_PARAMETERS, trials=50).study_name()
    assert a.study_name() != spec_of(TWO_PARAMETERS, games=500).study_name()


def test_a_dry_run_plans_and_writes_nothing(tmp_path):
    spec = write_spec(tmp_path)
    result = run("design", spec, "--dry-run", "--store", tmp_path / "store")
    assert result.exit_code == 0, result.output
    assert "0 of 20 trials done, 20 to run" in result.output
    assert "estimated time" in result.output
    assert sorted(p.name for p in tmp_path.iterdir()) == ["spec.toml"]


# --- the 20-trial search --------------------------------------------------------------------------

def test_a_20_trial_search_ranks_writes_rules_files_and_a_rerun_runs_no_trials(tmp_path):
    spec = write_spec(tmp_path)
    args = ("design", spec, "--store", tmp_path / "store", "--out-dir", tmp_path / "out")
    first = run(*args)
    assert first.exit_code == 0, first.output
    out = first.stdout
    assert "rank  trial  changed by the search" in out
    assert "first-player advantage" in out and " pp [" in out  # values with intervals
    assert "distinct rule sets tried in 20 trials" in out
    assert "Verdict: Play with" in out
    loaded = spec_of(TWO_PARAMETERS)
    for rank in (1, 2):  # the table size and match are the options', not pinned in the file
        text = (tmp_path / "out" / f"rank-{rank}.toml").read_text("utf-8")
        assert "--players 2 --match single" in text
        rules = load_rules_file(tmp_path / "out" / f"rank-{rank}.toml")
        assert rules.players == 4 and rules.match == "elimination:100"
    assert (tmp_path / "out" / "front.png").stat().st_size > 0
    again = run(*args, "--json")
    assert again.exit_code == 0, again.output
    data = json.loads(again.stdout)
    assert data["new_trials"] == 0 and data["trials"] == loaded.trials
    # the table the rerun reports is the same: every number read back from the store
    assert again.stderr.count("trial ") == 0
    assert [f["params"] for f in data["finalists"]] == [
        f["params"] for f in json.loads(run(*args, "--json").stdout)["finalists"]]


def test_finalists_are_measured_on_seeds_no_trial_used(tmp_path):
    spec = spec_of(TWO_PARAMETERS, trials=6, games=200, final_games=600)
    result = run_design(spec, store=tmp_path / "store")
    trial_seeds, fresh = seeds_used(spec.seed, spec), seeds_used(final_seed(spec), spec)
    assert not trial_seeds & fresh
    store = Store(tmp_path / "store")
    by_seed = {}
    for key in store.keys():
        by_seed.setdefault(store.read_provenance(key)["seed"], []).append(key)
    assert set(by_seed) <= trial_seeds | fresh
    assert len(by_seed[final_seed(spec)]) == len(result.finalists)  # one table goal each
    for cand in result.finalists:
        assert all(e.n == spec.final_games for e in cand.estimates[2])


def _table(result) -> str:
    return design_text(result).split("\nVerdict")[0]


def test_an_interrupted_search_resumes_to_the_uninterrupted_table(tmp_path, monkeypatch):
    spec = spec_of(TWO_PARAMETERS, trials=12, games=200, final_games=600)
    whole = run_design(spec, store=tmp_path / "a")
    measure, calls = design_search.measure, []

    def dies_at_the_eighth(*args, **kwargs):
        calls.append(1)
        if len(calls) == 8:
            raise KeyboardInterrupt  # mid-trial: the trial stays RUNNING in the study
        return measure(*args, **kwargs)

    monkeypatch.setattr(design_search, "measure", dies_at_the_eighth)
    with pytest.raises(KeyboardInterrupt):
        run_design(spec, store=tmp_path / "b")
    monkeypatch.setattr(design_search, "measure", measure)
    resumed = run_design(spec, store=tmp_path / "b")
    assert resumed.new_trials == 12 - 7
    assert _table(resumed) == _table(whole)
    assert [c.labels for c in resumed.tried] == [c.labels for c in whole.tried]


def _complete_trials(db: Path) -> int:
    if not db.exists():
        return 0
    with sqlite3.connect(db) as con:
        try:
            return con.execute("select count(*) from trials where state = 'COMPLETE'"
                               ).fetchone()[0]
        except sqlite3.OperationalError:
            return 0


def test_kill_9_mid_way_and_rerun_gives_the_uninterrupted_table(tmp_path):
    spec_path = write_spec(tmp_path, TWO_PARAMETERS.replace("trials = 20", "trials = 14"))
    spec = load_spec(spec_path)
    cli = [sys.executable, "-m", "vandatta_sim.cli", "design", str(spec_path), "--json",
           "--no-progress"]
    whole = subprocess.run(cli + ["--store", str(tmp_path / "a"), "--out-dir",
                                  str(tmp_path / "oa")], capture_output=True, text=True,
                           check=True)
    db = tmp_path / "b" / "designs" / f"{spec.study_name()}.db"
    proc = subprocess.Popen(cli + ["--store", str(tmp_path / "b"), "--out-dir",
                                   str(tmp_path / "ob")], stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    deadline = time.time() + 240
    while _complete_trials(db) < 4 and proc.poll() is None and time.time() < deadline:
        time.sleep(0.05)
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    assert 0 < _complete_trials(db) < 14
    resumed = subprocess.run(cli + ["--store", str(tmp_path / "b"), "--out-dir",
                                    str(tmp_path / "ob")], capture_output=True, text=True,
                             check=True)
    a, b = json.loads(whole.stdout), json.loads(resumed.stdout)
    assert b["new_trials"] > 0 and b["trials"] == a["trials"] == 14
    assert a["finalists"] == [f | {"rules_file": g["rules_file"]}
                              for f, g in zip(b["finalists"], a["finalists"])]


# --- goals and examples ---------------------------------------------------------------------------

def test_skill_and_summary_columns_are_measured(tmp_path):
    spec = spec_of('[fixed]\nset = ["match=single"]\n[free]\nstacking = [false, true]\n'
                   "[table]\nplayers = 2\n"
                   "[[goals]]\nmeasure = 'skill'\naim = 'maximise'\n"
                   "[[goals]]\nmeasure = 'win_rate_1'\naim = 'maximise'\n",
                   trials=2, games=300, final_games=300, finalists=1)
    (best,) = run_design(spec, store=tmp_path / "store").finalists
    skill, win1 = best.estimates[2]
    assert skill.low > 0  # expert beats random in the same seat on the same deals
    assert 0 < win1.low < win1.value < win1.high < 1
    # the same number as the reports' skill comparison on the finalist's fresh seed
    runner = Runner(store=str(tmp_path / "store"), progress=False)
    (_, cmp), = skill_comparisons(runner, [spec.rules_for(best.params, 2)], "expert", "random",
                                  300, final_seed(spec))
    assert cmp["win"] == skill


@pytest.mark.parametrize("path", DESIGN_EXAMPLES, ids=lambda p: p.name)
def test_the_design_examples_run_with_a_small_budget(tmp_path, path):
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    data["search"] |= {"trials": 4, "games": 200, "final_games": 400, "finalists": 2}
    spec = parse_spec(data, str(path), path.parent)
    assert load_spec(path).trials >= 20  # the example itself is a real search
    result = run_design(spec, store=tmp_path / "store")
    assert 1 <= len(result.finalists) <= 2
    for file, cand in zip(write_rules_files(result, tmp_path / "out"), result.finalists):
        rules = load_rules_file(file).replace(players=spec.players[0], match=spec.base.match)
        assert rules == spec.rules_for(cand.params, spec.players[0])
    assert "Verdict" in design_text(result)


def test_there_are_three_design_examples():
    assert len(DESIGN_EXAMPLES) == 3


def test_the_json_fields_are_the_documented_ones(tmp_path):
    from test_columns_doc import documented

    spec = write_spec(tmp_path, TWO_PARAMETERS.replace("trials = 20", "trials = 3"))
    result = run("design", spec, "--store", tmp_path / "store", "--out-dir", tmp_path / "out",
                 "--json", "--no-progress")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    finalist = data["finalists"][0]
    fields = set(data) | set(finalist) | set(finalist["goals"][0])
    assert fields - {"low", "high"} == documented("Design fields")


def test_weights_make_one_score_and_no_weights_a_front():
    two = ("[free]\nstacking = [false, true]\n"
           "[[goals]]\nmeasure = 'deal_length'\naim = 'minimise'{w}\n"
           "[[goals]]\nmeasure = 'first_player_advantage'\naim = 'minimise'{w}\n")
    assert spec_of(two.format(w="")).mode == "pareto"
    assert spec_of(two.format(w="\nweight = 2")).mode == "weighted"
    assert spec_of(TWO_PARAMETERS).mode == "single"


def test_a_custom_scale_can_be_free_and_its_rules_file_loads(tmp_path):
    spec = spec_of('[free]\nscale = ["hundred", {base = "hundred", "8" = 25}]\n'
                   '[fixed]\nset = ["match=single"]\n[table]\nplayers = 3\n' + GOAL)
    (free,) = spec.free
    assert free.values[0] == "hundred" and isinstance(free.values[1], tuple)
    rules = spec.rules_for({"scale": free.values[1]}, 3)
    assert rules.scale_points().max() >= 25
