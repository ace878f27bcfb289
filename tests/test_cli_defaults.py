"""The command line's defaults and guard rails: the rules catalogue, warnings for settings that
change nothing, errors for options given twice, expert play by default, `play` in the preset's
match format, the dry run's time estimate, `bench --cold` and a light start."""

from __future__ import annotations

import subprocess
import sys

import pandas as pd
import pytest
from click.testing import CliRunner

from conftest import error_line
from vandatta_sim import bench
from vandatta_sim.cli import main
from vandatta_sim.rulebook import PARAMETERS, show_value
from vandatta_sim.rules import Rules
from vandatta_sim.simulate import DEFAULT_POLICY, Seats, simulate
from vandatta_sim.sweep import expand_grid


def run(*args):
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


# --- a light start ---------------------------------------------------------------------------

def test_version_and_rules_list_import_no_heavy_library():
    code = ("import sys; from click.testing import CliRunner; from vandatta_sim.cli import main\n"
            "for args in (['--version'], ['rules', 'list'], ['rules', 'params'],\n"
            "             ['rules', 'explain', 'scale'], ['rules', 'show', 'kids']):\n"
            "    assert CliRunner().invoke(main, args).exit_code == 0, args\n"
            "print(' '.join(m for m in ('numba', 'pandas', 'scipy', 'pyarrow', 'matplotlib')\n"
            "               if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True,
                         text=True).stdout
    assert out.strip() == ""


def test_a_lazily_loaded_command_is_found_and_an_unknown_one_is_an_error():
    assert "Play GAMES games" in run("simulate", "--help").output
    assert error_line(CliRunner().invoke(main, ["simulat"])).startswith("Error: No such command")


# --- the rules catalogue -----------------------------------------------------------------------

def test_rules_params_lists_every_parameter_with_values_and_default():
    lines = run("rules", "params").output.splitlines()
    assert len(lines) == len(PARAMETERS)
    for line, p in zip(lines, PARAMETERS.values()):
        assert line.split()[0] == p.name
        assert p.allowed in line and f"default {show_value(p.default)}" in line
        assert line.endswith(p.summary)


def test_rules_explain_prints_the_whole_entry():
    out = run("rules", "explain", "out_on_special").output
    p = PARAMETERS["out_on_special"]
    assert out.startswith(f"out_on_special: {p.summary}")
    assert f"values: {p.allowed}" in out and "default: false" in out
    assert "specials_only_must_draw = true" in out  # when it cannot change a game
    assert " ".join(out.split()).endswith(p.detail)
    assert "kids (true)" in run("rules", "explain", "eight_on_eight").output  # its presets


def test_rules_explain_unknown_field_is_one_line_with_a_hint():
    line = error_line(CliRunner().invoke(main, ["rules", "explain", "draw_limt"]))
    assert "unknown field 'draw_limt'" in line and "did you mean 'draw_limit'" in line


# --- settings that change nothing: one warning line on stderr --------------------------------

OUT_ON_SPECIAL = "Warning: out_on_special = true changes nothing here"
CALL_AT = "Warning: call_at = 3 changes nothing here"


@pytest.mark.parametrize("command", [
    ("rules", "show"),
    ("simulate", "--games", "20", "--match", "single"),
    ("play", "--match", "single"),
])
def test_a_setting_that_cannot_matter_is_warned_about(command):
    result = run(*command, "--set", "out_on_special=true")
    assert result.exit_code == 0, result.output
    assert result.stderr.count(OUT_ON_SPECIAL) == 1 and len(result.stderr.splitlines()) == 1
    assert OUT_ON_SPECIAL not in result.stdout
    # not when it can matter
    quiet = run(*command, "--set", "out_on_special=true", "--set", "specials_only_must_draw=false")
    assert quiet.exit_code == 0 and quiet.stderr == ""


def test_call_rules_warn_only_without_forgetting():
    assert CALL_AT in run("simulate", "--games", "20", "--match", "single", "--set",
                          "call_at=3").stderr
    assert run("simulate", "--games", "20", "--match", "single", "--set", "call_at=3",
               "--forget", "all=0.2").stderr == ""
    # rules show knows no seats: it warns only of what no seat can change
    assert run("rules", "show", "--set", "call_at=3").stderr == ""


def test_sweep_warns_once_per_distinct_warning(tmp_path):
    result = run("sweep", "--set", "out_on_special=true", "--vary", "stacking=false,true",
                 "--players", "2,3", "--match", "single", "--dry-run", "--store",
                 str(tmp_path / "r"))
    assert result.exit_code == 0, result.output
    assert result.stderr.count(OUT_ON_SPECIAL) == 1


# --- options given twice: one error line, exit 2, nothing written -----------------------------

def _preset_file(tmp_path):
    path = tmp_path / "house.toml"
    path.write_text('preset = "seed002"\ndraw_limit = 1\n')
    return str(path)


CONFLICTS = [
    ("rules", "show", "seed001", "--preset", "kids"),
    ("rules", "show", "--players", "3", "--set", "players=5"),
    ("rules", "show", "--set", "draw_limit=1", "--set", "draw_limit=2"),
    ("simulate", "--players", "3", "--set", "players=5"),
    ("simulate", "--match", "single", "--set", "match=deals:3"),
    ("simulate", "--set", "stacking=true", "--set", "stacking=false"),
    ("play", "--players", "3", "--set", "players=5"),
    ("play", "--match", "single", "--set", "match=deals:3"),
    ("sweep", "--players", "3", "--set", "players=5", "--games", "10"),
    ("sweep", "--match", "single", "--set", "match=deals:3", "--games", "10"),
]
PRESET_CONFLICTS = [("rules", "show", "--preset", "kids"), ("simulate", "--preset", "kids"),
                    ("play", "--preset", "kids"), ("sweep", "--preset", "kids", "--games", "10")]


@pytest.mark.parametrize("args", CONFLICTS, ids=[" ".join(a) for a in CONFLICTS])
def test_an_option_given_twice_is_an_error(args, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    line = error_line(CliRunner().invoke(main, list(args)))
    assert "twice" in line or "both" in line
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("args", PRESET_CONFLICTS, ids=[a[0] for a in PRESET_CONFLICTS])
def test_a_preset_other_than_the_rules_files_is_an_error(args, tmp_path, monkeypatch):
    rules_file = _preset_file(tmp_path)
    monkeypatch.chdir(tmp_path)
    line = error_line(CliRunner().invoke(main, [*args, "--rules", rules_file]))
    assert "preset is given twice" in line and "seed002" in line
    assert [p.name for p in tmp_path.iterdir()] == ["house.toml"]
    # the same preset twice is no conflict
    same = [a if a != "kids" else "seed002" for a in args if a not in ("--games", "10")]
    if args[0] in ("rules", "simulate"):
        assert run(*same, "--rules", rules_file, *(["--games", "10"] if args[0] == "simulate"
                                                  else [])).exit_code == 0


# --- expert play by default ----------------------------------------------------------------------

def test_expert_is_the_default_policy_everywhere():
    rules = Rules(players=3, match="single")
    assert DEFAULT_POLICY == "expert"
    assert Seats.build(3).policies == ("expert",) * 3
    assert Seats.build(3, "1=random").policies == ("expert", "random", "expert")
    pd.testing.assert_frame_equal(simulate(rules, 300, seed=2),
                                  simulate(rules, 300, seed=2, policies="expert"))
    assert expand_grid(players=[3])[0].seats.policies == ("expert",) * 3
    out = run("simulate", "--games", "50", "--match", "single").output
    assert "policies all=expert" in out
    assert "expert by default" in " ".join(run("simulate", "--help").output.split())


@pytest.mark.parametrize("command", ["simulate", "sweep"])
def test_games_help_names_its_unit(command):
    assert "deals with --match single, else matches" in " ".join(
        run(command, "--help").output.split())


# --- play: the preset's match format -----------------------------------------------------------

def test_play_plays_the_presets_match_unless_told_otherwise():
    match = run("play", "--preset", "standard", "--seed", "1")
    assert match.exit_code == 0, match.output
    assert "Deal 2:" in match.output  # elimination:100 takes several deals
    assert "wins the match" in match.output or "without a winner" in match.output
    assert "referee: every move legal" in match.output
    single = run("play", "--preset", "standard", "--seed", "1", "--match", "single")
    assert "Deal 2:" not in single.output and "match" not in single.output.replace(
        "--match", "")


# --- sweep --dry-run: an estimated time ----------------------------------------------------------

def test_dry_run_estimates_the_time_from_a_timed_calibration(tmp_path):
    result = run("sweep", "--vary", "stacking=false,true", "--players", "3", "--match", "single",
                 "--games", "1000000", "--dry-run", "--store", str(tmp_path / "r"))
    assert result.exit_code == 0, result.output
    line = [x for x in result.stdout.splitlines() if x.startswith("estimated time ≈")]
    assert len(line) == 1, result.output
    assert "an estimate from timing 2,000 games of each configuration" in line[0]
    assert not (tmp_path / "r").exists()
    # nothing to run without --games: no estimate
    assert "estimated time" not in run("sweep", "--players", "3", "--dry-run", "--store",
                                       str(tmp_path / "r")).output


def test_time_estimate_scales_with_the_games_to_run():
    from vandatta_sim.sweep.dry_run import estimate_time

    configs = expand_grid(players=[2, 3], match="single")
    small = estimate_time(configs, [1000, 0], threads=1, games=500)
    assert (small.timed, small.configs, small.threads) == (1, 1, 1)
    big = estimate_time(configs, [10**9, 10**9], threads=1, games=500, budget_s=0.0)
    assert (big.timed, big.configs) == (1, 2) and "the others at their mean" in big.text()
    assert big.seconds > 1000 * small.seconds
    assert estimate_time(configs, [0, float("nan")]) is None


# --- bench: the cold compile only when asked ---------------------------------------------------

@pytest.mark.parametrize("args, cold", [(("--quick",), False), (("--quick", "--cold"), True),
                                        ((), True), (("--no-cold",), False)])
def test_bench_measures_the_cold_start_only_when_asked(args, cold, monkeypatch):
    calls = []
    monkeypatch.setattr(bench, "start_times", lambda: calls.append("cold") or (90.0, 1.5))
    monkeypatch.setattr(bench, "warm_start_time", lambda: calls.append("warm") or 1.5)
    monkeypatch.setattr(bench, "deals_per_second", lambda *a: 1000.0)
    result = run("bench", "--repeats", "1", *args)
    assert result.exit_code == 0, result.output
    assert calls == (["cold"] if cold else ["warm"])
    assert ("empty numba cache" in result.output) == cold


def test_sweep_set_twice_drift_sweep_refuses_a_field_given_twice_with_simulates_message(tmp_path):
    # the drift: sweep --set draw_limit=1 --set draw_limit=2 planned draw_limit=2 silently,
    # while simulate refused it; both now go through rules.settings, one rule, one message
    twice = ["--set", "draw_limit=1", "--set", "draw_limit=2"]
    simulate_line = error_line(CliRunner().invoke(main, ["simulate", *twice, "--games", "10"]))
    sweep_line = error_line(CliRunner().invoke(main, ["sweep", *twice, "--games", "10",
                                                       "--dry-run", "--store",
                                                       str(tmp_path / "r")]))
    assert sweep_line == simulate_line
    assert simulate_line == ("Error: draw_limit is given twice (--set draw_limit=1 and "
                             "--set draw_limit=2); give it once")
    assert list(tmp_path.iterdir()) == []
