"""The sweep layer: grids, sweep files, the resumable store, precision stopping, Dask, the CLI.

Game counts are tiny (single deals, chunks of a few thousand games) so that the whole file runs
in well under a minute on two cores; statistics are checked for consistency, not for values.
"""

import io
import json
import logging
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from click.testing import CliRunner

from vandatta_sim import bench
from vandatta_sim import sweep as sweep_module
from vandatta_sim.sweep import run as sweep_run
from vandatta_sim.cli import main as cli_main
from vandatta_sim.rules import Rules, RulesError
from vandatta_sim.simulate import Seats, SimulationError, simulate
from vandatta_sim.stats import win_rate_half_width
from vandatta_sim.store import Store
from vandatta_sim.sweep import (ChunkTask, Config, Executor, LocalExecutor, SweepError,
                                executor_for, expand_grid, load_config_games, load_sweep_file,
                                parse_vary, plan, run_sweep, summarize)

ROOT = Path(__file__).resolve().parents[1]
SMALL = dict(players=[2, 3], match="single")  # two fast configurations


def chunk_files(store: Path) -> dict[str, bytes]:
    """Every chunk file under a store, by relative path, with its bytes."""
    return {str(p.relative_to(store)): p.read_bytes()
            for p in sorted(Path(store).glob("*/chunk-*.parquet"))}


def invoke(*args):
    return CliRunner().invoke(cli_main, [str(a) for a in args])


# --- grids ---------------------------------------------------------------------------------------


def test_grid_is_the_cartesian_product_in_order():
    configs = expand_grid("standard", vary=["stacking=false,true", "draw_limit=0,1,3"],
                          players=[2, 3, 4, 5], policies=["all=expert"])
    assert len(configs) == 2 * 3 * 4
    combos = [(c.rules.stacking, c.rules.draw_limit, c.rules.players) for c in configs]
    assert combos == [(s, d, p) for s in (False, True) for d in (0, 1, 3) for p in (2, 3, 4, 5)]
    assert all(c.seats.policies == ("expert",) * c.rules.players for c in configs)
    assert configs[0].label == "standard stacking=false draw_limit=0 players=2 policy=expert"
    keys = {c.key(1, 1000) for c in configs}
    assert len(keys) == len(configs) and all(len(k) == 16 for k in keys)
    int(next(iter(keys)), 16)  # hex


def test_key_depends_on_what_decides_the_games_only():
    rules = Rules(players=3, match="single")
    a = Config(rules, Seats.build(3, "expert"), label="a")
    b = Config(rules, Seats.build(3, "expert"), label="another label")
    assert a.key(1, 100) == b.key(1, 100)
    assert len({a.key(1, 100), a.key(2, 100), a.key(1, 200),
                Config(rules, Seats.build(3, "random")).key(1, 100),
                Config(rules, Seats.build(3, "expert"), swap="8").key(1, 100),
                Config(rules.replace(stacking=True), Seats.build(3, "expert")).key(1, 100)}) == 6
    assert Config(rules, Seats.build(3, "expert"), swap="a").swap == "A"


def test_vary_values_are_parsed_like_set_and_seat_dimensions():
    assert parse_vary("draw_limit=0,1, 3") == ("draw_limit", [0, 1, 3])
    assert parse_vary("decks=auto,2") == ("decks", ["auto", 2])
    name, values = parse_vary('scale=hundred,{ base = "hundred", "8" = 40 }')
    assert values[0] == "hundred" and values[1] == {"base": "hundred", "8": 40}
    configs = expand_grid(vary=["policy=random,expert", "swap=none,8"], players=[2],
                          policies=["1=greedy"])
    assert [(c.seats.policies, c.swap) for c in configs] == [
        (("random", "greedy"), None), (("random", "greedy"), "8"),
        (("expert", "greedy"), None), (("expert", "greedy"), "8")]
    # duplicates are dropped, --match with several formats is varied
    assert len(expand_grid(vary=["draw_limit=1,1"])) == 1
    assert [c.rules.match for c in expand_grid(match="single,deals:5")] == ["single", "deals:5"]


@pytest.mark.parametrize("kwargs, message", [
    (dict(vary=["stacking"]), "field=v1,v2"),
    (dict(vary=["stackin=false,true"]), "did you mean 'stacking'"),
    (dict(vary=["draw_limit=1,,2"]), "empty value"),
    (dict(vary=["draw_limit=1,9"]), "draw_limit = 9 is not allowed"),
    (dict(vary=["stacking=false,true"], overrides=["stacking=true"]), "both set and varied"),
    (dict(vary=["players=2,3"], players=[4]), "varied twice"),
    (dict(players=[2, 11]), "players = 11"),
    (dict(players="2,x"), "players 'x'"),
    (dict(players=[2], policies=["3=expert"]), "seat '3'"),
    (dict(vary=["policy=expert,cheater"]), "policy 'cheater'"),
    (dict(vary=["swap=8,Z"]), "swap 'Z'"),
    (dict(overrides=["hand_size=15"], players=[4]), "hand_size = 15"),
])
def test_bad_grids_raise_one_line_errors(kwargs, message):
    with pytest.raises((SweepError, RulesError)) as info:
        expand_grid(**kwargs)
    assert message in str(info.value) and "\n" not in str(info.value)


def test_simulate_rejects_true_as_forget_probability_like_the_sweep(tmp_path):
    rules = Rules(players=2, match="single")
    message = "forget True is not allowed; allowed: a probability 0–1"
    with pytest.raises(SimulationError, match=message):
        simulate(rules, 10, forget=True)
    with pytest.raises(SimulationError, match=message):
        Seats.build(2, forget={"all": True})
    path = tmp_path / "sweep.toml"
    path.write_text("players = 2\nvary = { forget = [0.5, true] }\n")
    with pytest.raises(SweepError, match=message):
        load_sweep_file(path)
    assert Seats.build(2, forget=1).forget == (1.0, 1.0)  # the number 1 is still a probability


def test_simulate_rejects_7_9_as_swap_rank_like_the_sweep():
    rules = Rules(players=2, match="single")
    with pytest.raises(SimulationError) as simulated:
        simulate(rules, 10, swap=7.9)
    with pytest.raises(SweepError) as swept:
        Config(rules, Seats.build(2), swap=7.9)
    assert str(simulated.value) == str(swept.value)
    assert str(swept.value).startswith("swap 7.9 is not allowed; allowed: none or a rank (A, 2")
    # an integer is a rank index in both: 7 is the eight
    assert Config(rules, Seats.build(2), swap=7).swap == "8"
    pd.testing.assert_frame_equal(simulate(rules, 50, seed=1, swap=7),
                                  simulate(rules, 50, seed=1, swap="8"))


@pytest.mark.parametrize("argument, value", [
    ("threads", True), ("threads", 1.5), ("swap_seat", True), ("swap_seat", 1.0),
    ("swap", True), ("games", True), ("seed", True), ("seed", 2.0),
])
def test_simulate_and_the_sweep_reject_the_same_values(argument, value):
    rules = Rules(players=2, match="single")
    kwargs = {"games": 10, "seed": 0} | {argument: value}
    with pytest.raises(SimulationError) as simulated:
        simulate(rules, **kwargs)
    with pytest.raises(SweepError) as swept:
        if argument in ("swap", "swap_seat"):
            Config(rules, Seats.build(2), **{argument: value})
        else:
            sweep_module.check_run_settings(**kwargs)
    assert f"{argument} " in str(simulated.value) and "\n" not in str(simulated.value)
    assert str(swept.value).split(" is not allowed")[0] == str(simulated.value).split(
        " is not allowed")[0]


# --- sweep files ---------------------------------------------------------------------------------


def test_sweep_file_names_presets_overrides_policies_and_matches(tmp_path):
    (tmp_path / "house.toml").write_text('preset = "standard"\ndraw_limit = 1\n')
    path = tmp_path / "sweep.toml"
    path.write_text("""
games = 4000
seed = 7
chunk_size = 2000
players = [2, 3]
match = "single"

[[grid]]
preset = ["standard", "seed001"]
vary = { stacking = [false, true] }
policy = "expert"

[[grid]]
rules = "house.toml"
players = 2
policy = ["random", { all = "expert", 1 = "greedy" }]
match = ["single", "deals:3"]
""")
    configs, settings = load_sweep_file(path)
    assert settings == {"games": 4000, "seed": 7, "chunk_size": 2000}
    first, second = configs[:8], configs[8:]
    assert len(first) == 2 * 2 * 2 and len(second) == 2 * 2
    assert {c.rules.match for c in first} == {"single"}
    assert first[0].rules.stacking is False and first[0].seats.policies == ("expert", "expert")
    assert first[4].preset == "seed001" and first[4].label.startswith("seed001")
    assert all(c.rules.draw_limit == 1 and c.rules.players == 2 for c in second)
    # the product runs over the rule dimensions first, then policies (varying fastest)
    assert [c.seats.policies for c in second] == [("random",) * 2, ("expert", "greedy")] * 2
    assert [c.rules.match for c in second] == ["single", "single", "deals:3", "deals:3"]
    assert len({c.label for c in configs}) == len(configs)


@pytest.mark.parametrize("text, message", [
    ("games = [1\n", "invalid TOML"),
    ("gmes = 10\n", "unknown key 'gmes' (did you mean 'games'?)"),
    ("games = 0\n", "games = 0 is not allowed"),
    ("games = 10\nprecision = 0.01\n", "not both"),
    ("vary = { draw_limit = [0, 9] }\n", "draw_limit = 9 is not allowed"),
    ("vary = { stacking = true }\n", "non-empty list"),
    ("[[grid]]\nplayer = 3\n", "unknown key 'player'"),
    ("preset = \"nope\"\n", "unknown preset 'nope'"),
    ("rules = \"missing.toml\"\n", "cannot read"),
])
def test_bad_sweep_file_exits_2_with_one_line_before_any_work(tmp_path, text, message):
    path = tmp_path / "bad.toml"
    path.write_text(text)
    store = tmp_path / "results"
    result = invoke("sweep", path, "--games", 100, "--store", store)
    assert result.exit_code == 2, result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error:") and message in lines[0], lines
    assert "Traceback" not in result.output and not store.exists()


@pytest.mark.parametrize("args, message", [
    (["--vary", "stacking"], "field=v1,v2"),
    (["--vary", "draw_limit=0,x"], "draw_limit = 'x'"),
    (["--vary", "colour=red"], "unknown field 'colour'"),
    (["--players", "2,three"], "player counts"),
    (["--games", "0"], "games = 0"),
    (["--precision", "2"], "precision = 2.0"),
    (["--games", "10", "--precision", "0.01"], "not both"),
    (["--games", "10", "--max-games", "5"], "max_games applies only with precision"),
    (["--games", "10", "--threads", "999"], "threads 999"),
    (["--games", "10", "--scheduler", "nowhere"], "backend 'nowhere'"),
    (["--games", "10", "--dask", "local", "--scheduler", "tcp://x:1"], "not both"),
    ([], "give either games"),
    (["missing-sweep.toml", "--games", "10"], "cannot read"),
    (["missing-sweep.toml", "--vary", "stacking=true"], "not both"),
])
def test_bad_command_line_exits_2_with_one_line(tmp_path, args, message):
    store = tmp_path / "results"
    result = invoke("sweep", *args, "--store", store)
    assert result.exit_code == 2, result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and message in lines[0], lines
    assert not store.exists()


@pytest.mark.parametrize("from_file, given, expected", [
    ({}, {}, sweep_module.RunSettings()),
    ({"games": 10, "seed": 3}, {"seed": 4}, sweep_module.RunSettings(games=10, seed=4)),
    # games and precision both say how long to run: the command line's drops the file's other
    ({"precision": 0.01, "max_games": 9}, {"games": 5},
     sweep_module.RunSettings(games=5, max_games=9)),
    ({"games": 10, "chunk_size": 7}, {"precision": 0.02},
     sweep_module.RunSettings(precision=0.02, chunk_size=7)),
    ({"games": 10}, {"games": None, "precision": None}, sweep_module.RunSettings(games=10)),
])
def test_the_command_line_overrides_the_sweep_files_run_settings(from_file, given, expected):
    assert sweep_module.merge_run_settings(from_file, **given) == expected


def test_run_settings_refuse_games_with_precision_and_unknown_names():
    with pytest.raises(sweep_module.SweepError, match="not both"):
        sweep_module.merge_run_settings({}, games=5, precision=0.1)
    with pytest.raises(sweep_module.SweepError, match="unknown run setting.*allowed: games"):
        sweep_module.merge_run_settings({}, game=5)


def test_a_sweep_file_s_settings_yield_to_the_command_line(tmp_path):
    path = tmp_path / "grid.toml"
    path.write_text('games = 3000\nseed = 5\nmatch = "single"\nplayers = 2\n')
    result = invoke("sweep", path, "--games", 2000, "--seed", 6, "--store", tmp_path / "r",
                    "--dry-run", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["games"] == 2000 and data["seed"] == 6 and "precision" not in data


def test_dry_run_lists_configurations_and_work_and_writes_nothing(tmp_path):
    store = tmp_path / "results"
    result = invoke("sweep", "--vary", "stacking=false,true", "--players", "2,3", "--match",
                    "single", "--games", 5000, "--chunk-size", 2000, "--store", store, "--dry-run")
    assert result.exit_code == 0, result.output
    assert result.output.count("standard match=single stacking=") == 4
    assert "20,000 games to run in 12 chunk(s)" in result.output and not store.exists()
    configs = expand_grid(vary=["stacking=false,true"], **SMALL)
    run_sweep(configs[:1], games=5000, chunk_size=2000, store=store, progress=False)
    work = plan(configs, games=5000, chunk_size=2000, store=store)
    assert list(work["stored"]) == [5000, 0, 0, 0] and list(work["to_run"]) == [0, 5000, 5000, 5000]
    result = invoke("sweep", "--vary", "stacking=false,true", "--players", "2,3", "--match",
                    "single", "--precision", 0.01, "--store", store, "--dry-run", "--json")
    data = json.loads(result.output)
    assert len(data["configs"]) == 4 and data["configs"][0]["estimated"] is True


# --- running and resuming ------------------------------------------------------------------------


def test_chunks_are_simulate_slices_and_a_second_run_does_no_work(tmp_path):
    store = tmp_path / "results"
    configs = expand_grid(**SMALL)
    first = run_sweep(configs, games=5000, chunk_size=2000, seed=3, store=store, progress=False)
    assert list(first["games"]) == [5000, 5000] and list(first["new_games"]) == [5000, 5000]
    for config in configs:
        games = load_config_games(config, 3, 2000, store)
        expected = simulate(config.rules, 5000, seed=3, policies=config.seats)
        pd.testing.assert_frame_equal(games, expected)
    files = sorted(store.glob("*/chunk-*.parquet"))
    assert len(files) == 2 * 3
    stamps = {p: p.stat().st_mtime_ns for p in files}
    second = run_sweep(configs, games=5000, chunk_size=2000, seed=3, store=store, progress=False)
    assert list(second["new_games"]) == [0, 0]
    assert {p: p.stat().st_mtime_ns for p in files} == stamps
    pd.testing.assert_frame_equal(first.drop(columns="new_games"),
                                  second.drop(columns="new_games"))
    # a longer run extends the partial last chunk and gives the same files as a direct run
    run_sweep(configs, games=6000, chunk_size=2000, seed=3, store=store, progress=False)
    direct = tmp_path / "direct"
    run_sweep(configs, games=6000, chunk_size=2000, seed=3, store=direct, progress=False)
    assert chunk_files(store) == chunk_files(direct)
    provenance = Store(store).read_provenance(configs[0].key(3, 2000))
    assert provenance["games_stored"] == 6000 and len(provenance["runs"]) == 3
    assert provenance["rules"] == configs[0].rules.canonical()
    assert provenance["seed"] == 3 and provenance["chunk_size"] == 2000
    assert {"numpy", "numba", "pandas", "pyarrow"} <= set(provenance["packages"])
    assert provenance["engine_version"] and provenance["simulator_version"]


def test_leftover_temporary_files_are_never_read(tmp_path):
    store = tmp_path / "results"
    config = expand_grid(players=[2], match="single")[0]
    folder = store / config.key(0, 1000)
    folder.mkdir(parents=True)
    young = folder / ".tmp-aaaa-chunk-000000.parquet"
    old = folder / ".tmp-bbbb-chunk-000001.parquet"
    for path in (young, old):
        path.write_bytes(b"PAR1 half written")
    os.utime(old, (time.time() - 3600, time.time() - 3600))
    summary = run_sweep([config], games=2000, chunk_size=1000, store=store, progress=False)
    assert summary["games"][0] == 2000 and summary["new_games"][0] == 2000
    # under the key's lock no other writer is alive: every temporary file is a dead one's
    assert not young.exists() and not old.exists()
    assert len(load_config_games(config, 0, 1000, store)) == 2000


def test_a_failing_disk_leaves_no_corrupt_store_and_resumes(tmp_path, monkeypatch):
    store = tmp_path / "results"
    configs = expand_grid(**SMALL)
    real = Store.write_chunk
    calls = []

    def flaky(self, key, index, df, **proof):
        calls.append(index)
        if len(calls) == 3:
            raise OSError(28, "No space left on device")
        return real(self, key, index, df, **proof)

    monkeypatch.setattr(Store, "write_chunk", flaky)
    with pytest.raises(OSError):
        run_sweep(configs, games=4000, chunk_size=1000, store=store, progress=False)
    monkeypatch.setattr(Store, "write_chunk", real)
    assert not list(store.glob("*/.tmp-*"))
    assert 0 < len(chunk_files(store)) < 8
    run_sweep(configs, games=4000, chunk_size=1000, store=store, progress=False)
    direct = tmp_path / "direct"
    run_sweep(configs, games=4000, chunk_size=1000, store=direct, progress=False)
    assert chunk_files(store) == chunk_files(direct)


def _start(args, env):
    return subprocess.Popen([sys.executable, "-m", "vandatta_sim.cli", "sweep", *args],
                            cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True)


def _wait_for_chunks(store: Path, more_than: int, proc, timeout=60.0) -> None:
    deadline = time.monotonic() + timeout
    while len(list(store.glob("*/chunk-*.parquet"))) <= more_than:
        assert proc.poll() is None, proc.communicate()
        assert time.monotonic() < deadline, "no chunk appeared"
        time.sleep(0.01)


def test_interrupted_and_killed_sweep_resumes_to_identical_results(tmp_path):
    store, direct = tmp_path / "results", tmp_path / "direct"
    args = ["--players", "2,3", "--match", "single", "--games", 60_000, "--chunk-size", 1000,
            "--seed", 9, "--store", store]
    args = [str(a) for a in args]
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    total = 2 * 60

    proc = _start(args, env)  # Ctrl-C
    _wait_for_chunks(store, 0, proc)
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 130 and "run the same command again to resume" in err
    after_sigint = len(chunk_files(store))

    proc = _start(args, env)  # kill -9
    _wait_for_chunks(store, after_sigint, proc)
    proc.kill()
    proc.communicate(timeout=60)
    assert proc.returncode == -signal.SIGKILL
    killed = len(chunk_files(store))
    assert 0 < after_sigint < killed < total

    proc = _start(args, env)
    out, err = proc.communicate(timeout=120)
    assert proc.returncode == 0, err
    assert "games" in out

    configs = expand_grid(**SMALL)
    run_sweep(configs, games=60_000, chunk_size=1000, seed=9, store=direct, progress=False)
    resumed, uninterrupted = chunk_files(store), chunk_files(direct)
    assert len(resumed) == total and resumed == uninterrupted
    for config in configs:
        pd.testing.assert_frame_equal(load_config_games(config, 9, 1000, store),
                                      load_config_games(config, 9, 1000, direct))
    runs = Store(store).read_provenance(configs[0].key(9, 1000))["runs"]
    assert runs[0]["interrupted"] is True and runs[-1]["interrupted"] is False


# --- precision -----------------------------------------------------------------------------------


def _widest_half_width(games: pd.DataFrame, players: int) -> float:
    wins = np.bincount(games.winner[games.winner >= 0], minlength=players)
    return float(np.max(win_rate_half_width(wins, len(games))))


def test_precision_keeps_the_games_up_to_the_first_one_within_the_target(tmp_path):
    store = tmp_path / "results"
    configs = expand_grid(**SMALL)
    summary = run_sweep(configs, precision=0.02, chunk_size=500, seed=4, store=store,
                        progress=False)
    for config, (_, row) in zip(configs, summary.iterrows()):
        assert row["target_reached"] and row["half_width"] <= 0.02
        games = load_config_games(config, 4, 500, store)
        assert len(games) == row["games"]  # nothing stored beyond the stopping point
        rows = Store(store).chunk_rows(config.key(4, 500))
        assert sorted(rows) == list(range(-(-row["games"] // 500)))
        assert rows[max(rows)] == row["games"] - 500 * max(rows)  # the last chunk is cut
        players = config.rules.players
        assert _widest_half_width(games, players) == row["half_width"]
        # the rule checks every game: no shorter prefix was within the target
        for n in range(1, row["games"]):
            assert _widest_half_width(games.iloc[:n], players) > 0.02
        precision = Store(store).read_provenance(config.key(4, 500))["precision"]
        assert precision["target_reached"] and precision["games"] == row["games"]
        assert precision["reached"] == pytest.approx(row["half_width"])
        assert Store(store).provenance_warnings(config.key(4, 500)) == []
        assert not Store(store).verify(config.key(4, 500))
    work = plan(configs, precision=0.02, chunk_size=500, seed=4, store=store)
    assert list(work["games"]) == list(summary["games"]) and list(work["to_run"]) == [0, 0]
    again = run_sweep(configs, precision=0.02, chunk_size=500, seed=4, store=store,
                      progress=False)
    assert list(again["new_games"]) == [0, 0] and list(again["games"]) == list(summary["games"])
    pd.testing.assert_frame_equal(again, summary.assign(new_games=[0, 0]))


@pytest.mark.parametrize("chunk_size, threads", [(300, 1), (700, 2), (100_000, None)])
def test_precision_games_do_not_depend_on_chunk_size_or_threads(tmp_path, chunk_size, threads):
    configs = expand_grid(**SMALL)
    reference = run_sweep(configs, precision=0.025, chunk_size=1000, seed=8,
                          store=tmp_path / "reference", progress=False, threads=1)
    store = tmp_path / "results"
    summary = run_sweep(configs, precision=0.025, chunk_size=chunk_size, seed=8, store=store,
                        progress=False, threads=threads)
    columns = [c for c in summary.columns if c != "key"]
    pd.testing.assert_frame_equal(summary[columns], reference[columns])
    for config in configs:
        pd.testing.assert_frame_equal(
            load_config_games(config, 8, chunk_size, store),
            load_config_games(config, 8, 1000, tmp_path / "reference"))


def test_precision_resumes_from_a_wider_or_a_narrower_target(tmp_path):
    configs = expand_grid(**SMALL)
    fresh = {h: run_sweep(configs, precision=h, chunk_size=400, seed=2,
                          store=tmp_path / f"fresh-{h}", progress=False) for h in (0.03, 0.02)}
    assert all(fresh[0.03]["games"] < fresh[0.02]["games"])
    store = tmp_path / "results"
    for h in (0.03, 0.02, 0.03):  # the narrower target computes the cut chunk again in full
        summary = run_sweep(configs, precision=h, chunk_size=400, seed=2, store=store,
                            progress=False)
        assert list(summary["games"]) == list(fresh[h]["games"])
        assert list(summary["half_width"]) == list(fresh[h]["half_width"])
    assert list(summary["new_games"]) == [0, 0]  # the wider target reads the stored games
    assert chunk_files(store) == chunk_files(tmp_path / "fresh-0.02")


def test_dry_run_states_the_precision_rule_and_counts_whole_chunks(tmp_path):
    store = tmp_path / "results"
    result = invoke("sweep", "--players", "2,3", "--match", "single", "--precision", 0.02,
                    "--chunk-size", 700, "--store", store, "--dry-run")
    assert result.exit_code == 0, result.output
    assert ("keeps the games up to the first one at which every seat's win-rate 95% "
            "half-width is ≤ 0.02 (at most 100,000,000 games)") in result.output
    configs = expand_grid(**SMALL)
    work = plan(configs, precision=0.02, chunk_size=700, store=store)
    assert all(work["to_run"] % 700 == 0) and all(work["to_run"] >= work["games"])
    assert all(work["to_run"] - work["games"] < 700)
    assert not store.exists()
    help_text = invoke("sweep", "--help").output
    assert "checked game by game" in help_text


def test_precision_stops_at_max_games_and_records_the_miss(tmp_path):
    config = expand_grid(players=[2], match="single")[0]
    store = tmp_path / "results"
    summary = run_sweep([config], precision=0.001, max_games=1500, chunk_size=1000,
                        store=store, progress=False)
    row = summary.iloc[0]
    assert row["games"] == 1500 and not row["target_reached"] and row["half_width"] > 0.001
    precision = Store(store).read_provenance(config.key(0, 1000))["precision"]
    assert precision == {"target": 0.001, "reached": pytest.approx(row["half_width"]),
                         "target_reached": False, "games": 1500, "max_games": 1500}


# --- executors -----------------------------------------------------------------------------------


@pytest.mark.parametrize("backend", ["ray", "multiprocessing", 42])
def test_executor_for_an_unknown_backend_is_a_one_line_error(backend):
    with pytest.raises(SweepError) as info:
        executor_for(backend)
    message = str(info.value)
    assert message.startswith(f"backend {backend!r} is not allowed; allowed: local, dask-local")
    assert "\n" not in message


def test_local_executor_returns_each_task_as_simulate_plays_it():
    executor = executor_for("local", threads=1)
    assert isinstance(executor, LocalExecutor) and isinstance(executor, Executor)
    assert executor.name == "local" and executor.capacity == 1
    assert isinstance(executor_for(None), LocalExecutor)
    first, other = expand_grid(players=[2, 3], match="single")
    tasks = [ChunkTask(first, 5, first.key(5, 300), c, 300 * c, 300 - 100 * c) for c in range(3)]
    for task in tasks[:2]:
        executor.submit(task)
    executor.submit(ChunkTask(other, 5, other.key(5, 300), 0, 0, 300))
    executor.submit(tasks[2])
    assert executor.pending() == 4
    executor.discard(other.key(5, 300))
    assert executor.pending() == 3
    for task in tasks:
        done, games = executor.next()
        assert done == task
        expected = simulate(first.rules, task.games, seed=5, policies=first.seats,
                            first_game=task.first_game)
        pd.testing.assert_frame_equal(games, expected)
    assert executor.pending() == 0
    executor.close()


# --- Dask ----------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def cluster():
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  host="127.0.0.1", dashboard_address=None,
                                  scheduler_kwargs={"dashboard_address": ":0"},
                                  silence_logs=logging.ERROR) as c:
        yield c


def test_dask_cluster_gives_byte_identical_chunks(tmp_path, cluster):
    configs = expand_grid(**SMALL)
    local, dask = tmp_path / "local", tmp_path / "dask"
    a = run_sweep(configs, games=6000, chunk_size=2000, seed=5, store=local, progress=False)
    b = run_sweep(configs, games=6000, chunk_size=2000, seed=5, store=dask, progress=False,
                  backend=cluster.scheduler_address)
    assert len(chunk_files(local)) == 6 and chunk_files(local) == chunk_files(dask)
    pd.testing.assert_frame_equal(a, b)
    # precision with speculative chunks on the cluster: the same chunks are kept
    a = run_sweep(configs, precision=0.02, chunk_size=500, seed=6, store=local, progress=False)
    b = run_sweep(configs, precision=0.02, chunk_size=500, seed=6, store=dask, progress=False,
                  backend=cluster.scheduler_address)
    assert chunk_files(local) == chunk_files(dask)
    assert list(a["games"]) == list(b["games"])


try:
    from distributed import WorkerPlugin
except ImportError:  # the Dask tests are skipped
    WorkerPlugin = object


class _KillWorkerOnce(WorkerPlugin):
    """Worker plugin: the first worker to start a sweep chunk dies (like ``kill -9``)."""

    name = "vandatta-test-kill-once"

    def __init__(self, marker):
        self.marker = marker

    def transition(self, key, start, finish, **kwargs):
        if finish == "executing" and str(key).startswith("vandatta-"):
            try:
                os.unlink(self.marker)  # only one worker wins the marker
            except FileNotFoundError:
                return
            os._exit(1)


def test_a_killed_workers_chunk_is_retried(tmp_path, cluster):
    distributed = pytest.importorskip("distributed")
    marker = tmp_path / "kill-marker"
    marker.write_text("")
    configs = expand_grid(**SMALL)
    with distributed.Client(cluster) as client:
        client.register_plugin(_KillWorkerOnce(str(marker)))
        try:
            run_sweep(configs, games=4000, chunk_size=2000, seed=8, store=tmp_path / "dask",
                      backend=client, progress=False)
        finally:
            client.unregister_worker_plugin(_KillWorkerOnce.name)
    assert not marker.exists()  # a worker did die
    run_sweep(configs, games=4000, chunk_size=2000, seed=8, store=tmp_path / "local",
              progress=False)
    assert chunk_files(tmp_path / "local") == chunk_files(tmp_path / "dask")


def test_unreachable_scheduler_exits_2_before_any_work(tmp_path):
    dask = pytest.importorskip("dask")
    with dask.config.set({"distributed.comm.timeouts.connect": "1s"}):
        result = invoke("sweep", "--games", 10, "--scheduler", "tcp://127.0.0.1:9",
                        "--store", tmp_path / "r")
    assert result.exit_code == 2 and "cannot connect to the Dask scheduler" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1 and not (tmp_path / "r").exists()


def test_missing_dask_is_a_clear_error_before_any_work(tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "distributed", None)
    with pytest.raises(SweepError, match=r"pip install 'vandatta-sim\[dask\]'"):
        run_sweep(expand_grid(**SMALL), games=10, store=tmp_path / "r", backend="dask-local")
    result = invoke("sweep", "--games", 10, "--dask", "local", "--store", tmp_path / "r")
    assert result.exit_code == 2 and "vandatta-sim[dask]" in result.stderr
    assert not (tmp_path / "r").exists()


# --- output --------------------------------------------------------------------------------------


def test_sweep_command_table_json_and_results_commands(tmp_path):
    store = tmp_path / "results"
    args = ["sweep", "--vary", "stacking=false,true", "--players", "2", "--match", "single",
            "--games", 3000, "--chunk-size", 1000, "--seed", 2, "--store", store]
    result = invoke(*args)
    assert result.exit_code == 0, result.output
    assert "win_rate_0" in result.output and "6,000 new games" in result.output
    assert result.stderr == ""  # no progress bar when stderr is not a terminal
    data = json.loads(invoke(*args, "--json").output)
    assert [c["new_games"] for c in data["configs"]] == [0, 0]
    row = data["configs"][0]
    assert row["games"] == 3000
    assert row["win_rate_0_low"] < row["win_rate_0"] < row["win_rate_0_high"]
    for name in ("mean_turns", "blocked_share", "capped_share", "loser_points"):
        assert row[f"{name}_low"] <= row[name] <= row[f"{name}_high"]
    listed = invoke("results", "list", "--store", store)
    assert listed.exit_code == 0 and row["key"][:8] in listed.output and "3,000" in listed.output
    shown = invoke("results", "show", row["key"], "--store", store)
    assert shown.exit_code == 0 and "provenance" not in shown.output
    assert "stacking=false" in shown.output and "command" in shown.output
    shown = json.loads(invoke("results", "show", row["key"], "--store", store, "--json").output)
    assert shown["provenance"]["key"] == row["key"]
    assert shown["summary"]["win_rate_0"] == pytest.approx(row["win_rate_0"])
    missing = invoke("results", "show", "0123456789abcdef", "--store", store)
    assert missing.exit_code == 2 and len(missing.stderr.strip().splitlines()) == 1


def test_dask_local_from_the_command_line(tmp_path):
    pytest.importorskip("distributed")
    store, local = tmp_path / "dask", tmp_path / "local"
    args = ["--players", "2", "--match", "single", "--games", 3000, "--chunk-size", 1000,
            "--seed", 1]
    result = invoke("sweep", *args, "--dask", "local", "--threads", 1, "--store", store)
    assert result.exit_code == 0, result.output
    assert invoke("sweep", *args, "--store", local).exit_code == 0
    assert len(chunk_files(store)) == 3 and chunk_files(store) == chunk_files(local)


def test_summary_statistics_on_a_known_table():
    df = pd.DataFrame({"winner": np.array([0, 1, -1, 0], np.int8),
                       "turns": [10, 20, 30, 40], "blocked": [0, 0, 1, 0],
                       "deals": [1, 1, 1, 1], "capped": [False] * 4, "points_0": [0, 5, 7, 0],
                       "points_1": [10, 0, 3, 20]})
    s = summarize(df, 2)
    assert s["games"] == 4 and s["win_rate_0"] == 0.5 and s["mean_turns"] == 25
    assert s["blocked_share"] == 0.25 and s["win_rates"] == [0.5, 0.25]
    # losers: game 0 seat 1 (10), game 1 seat 0 (5), game 2 both (5 on average), game 3 (20)
    assert s["loser_points"] == pytest.approx((10 + 5 + 5 + 20) / 4)
    assert s["half_width"] == pytest.approx(float(np.max(win_rate_half_width([2, 1], 4))))


def test_progress_line_shows_games_rate_and_time_left():
    stream = io.StringIO()
    bar = sweep_run._Progress(True, 3, stream)
    bar.update(1000, 4000, 1, force=True)
    bar.close()
    text = stream.getvalue()
    assert text.startswith("\r1,000/4,000 games") and "games/s" in text and "left" in text
    assert "configs 1/3" in text and text.endswith("\n")


def test_overhead_measurement_reports_both_rates(tmp_path):
    """The figures' arithmetic on a small batch (speed itself: `vandatta-sim bench --sweep-overhead`);
    the sweep half stores every game it timed."""
    figures = bench.overhead_figures(games=400, chunk_size=50, store=tmp_path / "o",
                                     single_deals=True, warm_games=50)
    assert figures["games"] == 400 and figures["configs"] == 4 and figures["chunk_size"] == 50
    for kind in ("engine", "sweep"):
        assert figures[f"{kind}_rate"] == pytest.approx(400 / figures[f"{kind}_seconds"])
    assert figures["overhead"] == pytest.approx(figures["sweep_seconds"]
                                                / figures["engine_seconds"] - 1)
    assert figures["cpu_overhead"] == pytest.approx(figures["sweep_cpu_seconds"]
                                                    / figures["engine_cpu_seconds"] - 1)
    assert len(chunk_files(tmp_path / "o" / "sweep")) == 4 * 2  # 100 games a config
