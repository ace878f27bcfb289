"""One vocabulary of options: --games required everywhere, --dry-run/--match/--seed where games
are played, --json on simulate and play, --summary/--quiet on value, and one rule for a rules
file against --players/--set/--match in every command."""

from __future__ import annotations

import json

import pytest

from conftest import error_line, run_cli


run = run_cli


@pytest.mark.parametrize("command", ["simulate", "value"])
def test_games_are_never_defaulted_silently(command, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert "--games" in error_line(run(command, "--store", "r") if command == "value"
                                   else run(command))
    assert list(tmp_path.iterdir()) == []


def test_simulate_json_and_dry_run(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    plan = run("simulate", "--games", "1000", "--match", "single", "--dry-run")
    assert plan.exit_code == 0 and "nothing is played" in plan.output
    result = run("simulate", "--games", "300", "--match", "single", "--players", "3", "--json")
    data = json.loads(result.stdout)
    assert data["summary"]["games"] == 300 and len(data["policies"]) == 3
    assert data["summary"]["win_rate_0_low"] <= data["summary"]["win_rate_0"]
    assert list(tmp_path.iterdir()) == []


def test_play_json_has_the_events_and_the_narration():
    data = json.loads(run("play", "--match", "single", "--seed", "3", "--json").stdout)
    assert data["events"] and data["narration"] and data["referee"] == "checked"


def test_value_dry_run_plays_nothing(tmp_path):
    result = run("value", "--games", "500", "--players", "3,4", "--dry-run",
                 "--store", tmp_path / "r")
    assert result.exit_code == 0 and "nothing is played" in result.output
    assert "2 table(s)" in result.output and not (tmp_path / "r").exists()


def test_value_ends_with_a_verdict_quiet_drops_it_json_and_summary_carry_it(tmp_path):
    args = ["value", "--match", "single", "--players", "3", "--games", "1500", "--seed", "2",
            "--store", tmp_path / "r"]
    loud = run(*args)
    assert loud.exit_code == 0, loud.output
    assert "This is what happens with every seat played by the `expert` player" in loud.output
    quiet = run(*args, "--quiet")
    assert "This is what happens" not in quiet.output
    assert quiet.output.strip() in loud.output
    data = json.loads(run(*args, "--json").stdout)
    assert data["verdict"] in loud.output
    note = tmp_path / "eight.md"
    assert run(*args, "--summary", note).exit_code == 0
    text = note.read_text("utf-8")
    assert "vandatta-sim value --match single --players 3 --games 1500" in text
    assert "`match = single` (standard: `elimination:100`)" in text
    assert "**In plain words:**" in text


def test_value_runs_are_recorded_as_value_with_their_rank_and_scale(tmp_path):
    store = tmp_path / "r"
    for rank in ("8", "A"):
        for scale in ("base", "hundred"):
            result = run("value", "--match", "single", "--players", "3", "--games", "200",
                         "--rank", rank, "--scale", scale, "--store", store, "--quiet")
            assert result.exit_code == 0, result.output
    rows = json.loads(run("results", "list", "--kind", "value", "--store", store,
                          "--json").stdout)
    swapped = {(r["swap"], r["scale"]) for r in rows if r["swap"] and r["scale"] != "custom"}
    assert swapped == {("8", "base"), ("8", "hundred"), ("A", "base"), ("A", "hundred")}
    text = run("results", "list", "--kind", "value", "--store", store).output
    assert "None" not in text and "swap A" in text
    # the command that made a run is in results show (results list fits 100 columns)
    (a_base,) = [r["key"] for r in rows if r["swap"] == "A" and r["scale"] == "base"]
    shown = run("results", "show", a_base, "--store", store).output
    assert "--rank A --scale base" in shown


RULES_FILE_CONFLICTS = [
    ("simulate", "--games", "10", "--players", "3"),
    ("simulate", "--games", "10", "--set", "stacking=false"),
    ("play", "--match", "single"),
    ("rules", "show", "--set", "players=3"),
    ("value", "--games", "10", "--set", "players=3"),
    ("sweep", "--games", "10", "--players", "3,4"),
    ("sweep", "--games", "10", "--vary", "stacking=false,true"),
]


@pytest.mark.parametrize("args", RULES_FILE_CONFLICTS, ids=[" ".join(a) for a in
                                                             RULES_FILE_CONFLICTS])
def test_a_field_of_the_rules_file_given_again_is_an_error(args, tmp_path, monkeypatch):
    house = tmp_path / "house.toml"
    house.write_text("players = 4\nstacking = true\nmatch = \"deals:3\"\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    # the file named as typed in its folder: an error cuts a long path (pytest's temporary
    # folders differ in length, longer under pytest-xdist), and the name must show whole
    line = error_line(run(*args, "--rules", house.name, *(["--store", "r"] if args[0] in
                                                     ("value", "sweep") else [])))
    assert "is given twice" in line and "house.toml" in line and "give it once" in line
    assert [p.name for p in tmp_path.iterdir()] == ["house.toml"]
