"""Capped shares, paired comparisons against a baseline, and charts, from the command line."""

from __future__ import annotations

import json

import numpy as np
import pytest
from click.testing import CliRunner

from vandatta_sim.cli import main as cli_main
from vandatta_sim.rules import get_preset
from vandatta_sim.simulate import simulate
from vandatta_sim.stats import Moments, paired_difference, paired_moments
from vandatta_sim.sweep.compare import pick_baseline
from vandatta_sim.sweep.config import SweepError


def invoke(*args):
    return CliRunner().invoke(cli_main, [str(a) for a in args])


def one_error_line(result):
    assert result.exit_code == 2, result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error:"), result.stderr
    return lines[0]


def test_paired_moments_merged_by_blocks_equal_paired_difference():
    rng = np.random.default_rng(5)
    a, b = rng.normal(size=1000), rng.normal(size=1000)
    merged = Moments()
    for start in range(0, 1000, 137):
        merged = merged.merge(paired_moments(a[start:start + 137], b[start:start + 137]))
    whole = paired_difference(a, b)
    est = merged.estimate()
    assert est.value == pytest.approx(whole.value)
    assert (est.low, est.high) == pytest.approx((whole.low, whole.high))
    with pytest.raises(ValueError):
        paired_moments([1, 2], [1])


# eight-dumpers at 4 players with ace_draw=3 reach the turn cap in about a third of the deals
CAPPED = ["--match", "single", "--vary", "ace_draw=1,3", "--players", 4, "--policy",
          "all=eight-dumper", "--games", 1000, "--seed", 1, "--chunk-size", 400]


def test_capped_share_in_table_json_results_show_and_one_warning(tmp_path):
    store = tmp_path / "s"
    result = invoke("sweep", *CAPPED, "--store", store)
    assert result.exit_code == 0, result.output
    assert "capped_share" in result.output.splitlines()[0]
    warnings = result.stderr.strip().splitlines()
    assert len(warnings) == 1 and warnings[0].startswith("warning: capped games")
    assert "ace_draw=3" in warnings[0] and "lower bound" in warnings[0]
    data = json.loads(invoke("sweep", *CAPPED, "--store", store, "--json").stdout)
    low, high = data["configs"]
    df = simulate(get_preset("standard").replace(players=4, match="single", ace_draw=3), 1000,
                  seed=1, policies="all=eight-dumper")
    assert low["capped_share"] == 0 and low["capped_games"] == 0
    assert high["capped_games"] == int(df.capped.sum()) > 0
    assert high["capped_share_low"] < high["capped_share"] == df.capped.mean()
    shown = invoke("results", "show", high["key"], "--store", store)
    assert shown.exit_code == 0 and "capped_share" in shown.output
    assert f"{high['capped_games']:,} capped games" in shown.output
    assert shown.stderr.startswith("warning: capped games")
    as_json = json.loads(invoke("results", "show", high["key"], "--store", store,
                                "--json").stdout)
    assert as_json["summary"]["capped_share"] == high["capped_share"]


def test_paired_differences_against_the_baseline(tmp_path):
    store = tmp_path / "s"
    args = ["--match", "single", "--vary", "stacking=false,true", "--players", 3, "--policy",
            "all=expert", "--games", 900, "--seed", 2, "--chunk-size", 400, "--store", store]
    result = invoke("sweep", *args, "--baseline", "stacking=true")
    assert result.exit_code == 0, result.output
    assert "Δ win_rate_0" in result.output and "baseline" in result.output
    assert result.stderr == ""
    data = json.loads(invoke("sweep", *args, "--json").stdout)
    base, other = data["configs"]
    assert data["baseline"] == base["key"] and base["baseline"] and not other["baseline"]
    frames = [simulate(get_preset("standard").replace(players=3, match="single", stacking=s),
                       900, seed=2, policies="all=expert") for s in (False, True)]
    expected = paired_difference(frames[1].turns, frames[0].turns)
    assert other["delta_mean_turns"] == pytest.approx(expected.value)
    assert other["delta_mean_turns_low"] == pytest.approx(expected.low)
    expected = paired_difference(frames[1].winner == 0, frames[0].winner == 0)
    assert other["delta_win_rate_0_high"] == pytest.approx(expected.high)
    assert other["paired_games"] == 900 and "delta_mean_turns" not in base
    by_index = json.loads(invoke("sweep", *args, "--json", "--baseline", 1).stdout)
    assert by_index["baseline"] == other["key"]
    assert by_index["configs"][0]["delta_mean_turns"] == pytest.approx(-other["delta_mean_turns"])
    per_seat = invoke("sweep", *args, "--per-seat")
    assert per_seat.exit_code == 0 and "Δ mean_points" in per_seat.output
    assert len([line for line in per_seat.output.splitlines() if "stacking=" in line]) >= 2 + 6
    compared = json.loads(invoke("results", "compare", base["key"], other["key"], "--store",
                                 store, "--json").stdout)
    assert compared["configs"][1]["delta_mean_turns"] == pytest.approx(other["delta_mean_turns"])
    text = invoke("results", "compare", base["key"], other["key"], "--store", store,
                  "--per-seat")
    assert text.exit_code == 0 and "Δ win_rate" in text.output


@pytest.mark.parametrize("suffix, magic", [(".png", b"\x89PNG"), (".svg", b"<?xml")])
def test_plot_writes_a_chart(tmp_path, suffix, magic):
    store, chart = tmp_path / "s", tmp_path / f"chart{suffix}"
    args = ["--match", "single", "--vary", "stacking=false,true", "--players", 2, "--games",
            300, "--seed", 1, "--store", store]
    result = invoke("sweep", *args, "--plot", chart)
    assert result.exit_code == 0, result.output
    assert chart.read_bytes().startswith(magic)
    keys = [c["key"] for c in json.loads(invoke("sweep", *args, "--json").stdout)["configs"]]
    again = tmp_path / f"again{suffix}"
    result = invoke("results", "plot", *keys, "--store", store, "--plot", again)
    assert result.exit_code == 0 and again.read_bytes().startswith(magic)


def test_bad_comparison_and_plot_input_is_one_line_and_writes_nothing(tmp_path):
    store = tmp_path / "s"
    grid = ["sweep", "--match", "single", "--vary", "stacking=false,true", "--players", 2,
            "--games", 100, "--store", store]
    for extra in (["--baseline", "9"], ["--baseline", "nothing=here"],
                  ["--baseline", "stacking"], ["--plot", tmp_path / "chart.jpg"],
                  ["--plot", tmp_path / "nodir" / "c.png"]):
        one_error_line(invoke(*grid, *extra))
        one_error_line(invoke(*grid, *extra, "--dry-run"))
        assert not store.exists()
    first = json.loads(invoke(*grid, "--json", "--seed", 1).stdout)["configs"][0]["key"]
    other_seed = json.loads(invoke(*grid, "--json", "--seed", 2).stdout)["configs"][0]["key"]
    line = one_error_line(invoke("results", "compare", first, other_seed, "--store", store))
    assert "seed" in line
    three = json.loads(invoke("sweep", "--match", "single", "--players", 3, "--games", 100,
                              "--seed", 1, "--store", store, "--json").stdout)
    line = one_error_line(invoke("results", "compare", first, three["configs"][0]["key"],
                                 "--store", store))
    assert "players" in line
    one_error_line(invoke("results", "compare", "0123456789abcdef", "--store", store))
    one_error_line(invoke("results", "plot", first, "--store", store, "--plot",
                          tmp_path / "x.gif"))
    assert not (tmp_path / "x.gif").exists()
    one_error_line(invoke("results", "plot", first, "--store", store))  # no --plot FILE


def test_pick_baseline_by_index_label_part_or_key():
    labels, keys = ["a=1 b=2", "a=3 b=2"], ["ff00", "ee11"]
    assert pick_baseline(labels, keys, None) == 0
    assert pick_baseline(labels, keys, "1") == 1
    assert pick_baseline(labels, keys, "a=3") == 1
    assert pick_baseline(labels, keys, "ee") == 1
    for bad in ("2", "b=2", "zz"):
        with pytest.raises(SweepError):
            pick_baseline(labels, keys, bad)
