"""docs/columns.md names every per-game column and every summary, comparison and JSON field
the program writes, and nothing else, so that the reference cannot drift from the code."""

from __future__ import annotations

import json
import re
from pathlib import Path

from click.testing import CliRunner

from vandatta_sim.cli import main as cli_main
from vandatta_sim.rules import get_preset
from vandatta_sim.simulate import simulate

DOC = Path(__file__).resolve().parents[1] / "docs" / "columns.md"
PLAYERS = 3


def documented(section: str) -> set[str]:
    """The names in the first column of the tables under ``## section``, ``<s>`` expanded."""
    text = DOC.read_text(encoding="utf-8")
    body = text.split(f"\n## {section}\n", 1)[1].split("\n## ", 1)[0]
    names = set()
    for name in re.findall(r"^\| `([^`]+)` \|", body, flags=re.M):
        seats = range(PLAYERS) if "<s>" in name else [None]
        names |= {name.replace("<s>", str(s)) for s in seats}
    return names


def with_intervals(names: set[str], record: dict) -> set[str]:
    """``names`` plus the ``_low``/``_high`` fields of those that are estimates in ``record``."""
    return names | {f"{n}{end}" for n in names for end in ("_low", "_high")
                    if f"{n}_low" in record}


def test_per_game_columns_are_the_documented_ones():
    rules = get_preset("standard").replace(players=PLAYERS, match="single")
    df = simulate(rules, 20, seed=1, swap="8")
    assert set(df.columns) == documented("Per-game columns")
    felt = simulate(rules.replace(match="deals:2"), 5, seed=1, swap="8", feel=True)
    assert set(felt.columns) - set(df.columns) == documented("Game-feel columns")


def test_summary_comparison_and_json_fields_are_the_documented_ones(tmp_path):
    args = ["sweep", "--match", "single", "--vary", "stacking=false,true", "--players",
            PLAYERS, "--games", 50, "--seed", 1, "--store", tmp_path / "s", "--json",
            "--per-seat", "--feel"]
    result = CliRunner().invoke(cli_main, [str(a) for a in args])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    summary, comparison = documented("Summary fields"), documented("Comparison fields")
    # single deals: no match measures (the game feel's on points, deals per match compared)
    feel = {name for name in documented("Game-feel fields") if not name.startswith("points_")}
    summary |= feel
    comparison |= {f"delta_{name}" for name in feel if not name[-1].isdigit()}
    base, other = data["configs"]
    assert set(base) == with_intervals(summary, base) | {"baseline", "paired_games"}
    assert set(other) == with_intervals(summary | comparison - {"delta_mean_deals"}, other)
    run_fields = re.findall(r"`(\w+)`", DOC.read_text(encoding="utf-8").split(
        "`sweep --json` also gives the run:", 1)[1].split("\n\n", 1)[0])
    assert set(data) <= set(run_fields) and "configs" in data
    shown = CliRunner().invoke(cli_main, ["results", "show", base["key"], "--store",
                                          str(tmp_path / "s"), "--json"])
    assert set(json.loads(shown.stdout)["summary"]) <= with_intervals(summary, base)


def test_the_memory_note_names_simulates_chunk_size():
    from vandatta_sim.cli.simulate import CHUNK_GAMES

    assert f"in chunks of {CHUNK_GAMES:,}" in DOC.read_text(encoding="utf-8")
