"""``vandatta-sim value``: the one-screen table, its JSON and chart, and one-line errors."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from vandatta_sim.cli import main


def run(*args):
    return CliRunner().invoke(main, ["value", *args], catch_exceptions=False)


def test_value_prints_the_table_and_repeats_it_exactly(tmp_path):
    args = ["--preset", "standard", "--players", "4", "--games", "6000", "--match-games", "500",
            "--seed", "1",
            "--store", str(tmp_path / "results")]
    first = run(*args)
    assert first.exit_code == 0, first.output
    for column in ("Δ deal win", "Δ points", "break-even face value", "Δ match win",
                   "deals/match"):
        assert column in first.output
    line = next(ln for ln in first.output.splitlines() if ln.startswith("hundred"))
    assert line.split()[:4] == ["hundred", "4", "8", "25"] and line.count("[") == 6
    assert "cards" in line and "Fieller" in first.output and "left in the talon" in first.output
    assert "correlate" in first.output
    second = run(*args)  # read back from the store
    assert second.output == first.output
    # a fresh store and another thread count give the same table
    third = run(*args[:-1], str(tmp_path / "other"), "--threads", "1")
    assert third.output == first.output


def test_value_json_several_scales_ranks_and_a_chart(tmp_path):
    plot = tmp_path / "value.png"
    result = run("--preset", "standard", "--set", "match=single", "--players", "2,3",
                 "--scale", "base,crazy_eights", "--rank", "8,A", "--games", "600", "--json",
                 "--plot", str(plot), "--store", str(tmp_path / "results"))
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    rows = data["rows"]
    assert len(rows) == 8 and {r["scale"] for r in rows} == {"base", "crazy_eights"}
    assert {r["rank"] for r in rows} == {"8", "A"} and {r["players"] for r in rows} == {2, 3}
    assert all("match_win" not in r for r in rows)  # single deals: no match columns
    assert all(r["win_low"] <= r["win"] <= r["win_high"] for r in rows)
    assert plot.read_bytes()[:4] == b"\x89PNG"


def test_value_rank_all_lists_every_rank_and_takes_seat_policies(tmp_path):
    result = run("--set", "match=single", "--rank", "all", "--games", "300", "--json",
                 "--policy", "all=random", "--policy", "0=expert:eights=dump",
                 "--store", str(tmp_path / "r"))
    data = json.loads(result.stdout)
    assert data["policy"] == "0=expert:eights=dump,1=random,2=random,3=random"
    assert [r["rank"] for r in data["rows"]] == [
        "A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]


BAD = [
    ("--rank", "11"),
    ("--rank", "joker"),
    ("--scale", "swedish"),
    ("--scale", "base,"),
    ("--policy", "genius"),
    ("--policy", "7=random"),
    ("--games", "0"),
    ("--games", "10", "--precision", "0.01"),
    ("--precision", "2"),
    ("--players", "1"),
    ("--players", "four"),
    ("--preset", "nope"),
    ("--set", "stacking=maybe"),
    ("--plot", "chart.pdf"),
    ("--match-games", "-3"),
    ("--rank", "8,A,8"),  # the conflict rule: a value twice in a list
    ("--scale", "base,base"),
    ("--players", "2,3", "--set", "hand_size=13"),  # 13 cards fit 2 players, not 3
    ("--fair", "--precision", "0.01"),  # the fair score's grid runs --games deals per score
]


def test_value_fair_prints_the_fair_score_with_its_cost(tmp_path):
    """--fair: one line per table with the fair score on own points and on standing, the
    grid's cost stated; the JSON has the same; the dry run counts its deals."""
    args = ["--set", "match=single", "--players", "4", "--scale", "base", "--games", "300",
            "--seed", "3",
            "--store", str(tmp_path / "r")]
    result = run(*args, "--fair", "--quiet")
    assert result.exit_code == 0, result.output
    text = " ".join(result.output.split())
    assert "Fair score:" in text and "Cost: 2 runs of 300 deals at each of 10 scores" in text
    line = next(ln for ln in result.output.splitlines() if ln.startswith("  base, 4 players"))
    assert "own points " in line and "standing " in line
    data = json.loads(run(*args, "--fair", "--json").stdout)
    (cell,) = data["fair"]
    assert cell["grid"] == [0, 2, 4, 7, 10, 15, 25, 40, 60, 100] and cell["rank"] == "8"
    assert cell["points"]["text"] in line
    doc = (Path(__file__).resolve().parents[1] / "docs" / "columns.md").read_text("utf-8")
    fair_doc = doc.split("\n### The fair score (`--fair`)\n", 1)[1].split("\n## ", 1)[0]
    rows = [line.split(" | ") for line in fair_doc.splitlines() if line.startswith("| `")]
    assert set(cell) == {name for row in rows for name in re.findall(r"`(\w+)`", row[0])}
    inner = set(re.findall(r"`(\w+)`", rows[-1][1]))  # the keys of `points` and `standing`
    assert set(cell["points"]) == inner == set(cell["standing"])
    dry = run(*args, "--fair", "--dry-run").output
    assert "--fair: 20 more runs of 300 deals per (table, rank)" in dry and "6,000 more" in dry


def test_the_rules_are_checked_at_the_tables_own_size(tmp_path):
    """--players applies before the rules are checked: 13 cards each is a 2-player rule,
    whatever the preset's table size."""
    result = run("--players", "2", "--set", "hand_size=13", "--games", "100", "--dry-run",
                 "--store", str(tmp_path / "r"))
    assert result.exit_code == 0, result.output


@pytest.mark.parametrize("args", BAD, ids=[" ".join(a) for a in BAD])
def test_bad_input_is_one_error_line_exit_2_and_nothing_written(args, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, ["value", *args, "--store", str(tmp_path / "results")])
    assert result.exit_code == 2, result.output
    lines = [ln for ln in result.output.splitlines() if ln.strip()]
    assert len(lines) == 1 and lines[0].startswith("Error:"), result.output
    assert list(tmp_path.iterdir()) == []


def test_json_fields_are_the_documented_ones(tmp_path):
    doc = (Path(__file__).resolve().parents[1] / "docs" / "columns.md").read_text("utf-8")
    body = doc.split("\n## Card-value fields\n", 1)[1].split("\n## ", 1)[0]
    body = body.split("\n### ", 1)[0]  # the rows' fields; --fair's entries have their own table
    names = set(re.findall(r"^\| `([^`]+)` \|", body, flags=re.M))
    run_fields = set(re.findall(r"`(\w+)`", body.split("\n\n", 1)[0]))
    result = run("--players", "3", "--games", "300", "--match-games", "50", "--json",
                 "--store", str(tmp_path / "r"))
    data = json.loads(result.stdout)
    (row,) = data["rows"]
    estimates = {n for n in names if f"{n}_low" in row}
    assert set(row) == names | {f"{n}{end}" for n in estimates for end in ("_low", "_high")}
    assert set(data) == (run_fields - {"_low", "_high"}) | {"rows"}
