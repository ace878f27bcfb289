"""The command line: outputs, and one clear error line with exit code 2 for bad input."""

from __future__ import annotations

import re

import click
import pandas as pd
import pytest
from click.testing import CliRunner

from vandatta_sim.cli import main


def run(*args, **kwargs):
    return CliRunner().invoke(main, list(args), catch_exceptions=False, **kwargs)


def test_rules_list_names_every_preset():
    out = run("rules", "list").output
    for name in ("standard", "seed000", "seed001", "seed001-hundred", "seed002", "svang-atta",
                 "kids", "crazy-eights-scoring"):
        assert name in out


def test_rules_show_resolves_overrides():
    result = run("rules", "show", "seed002", "--set", "draw_limit=1")
    assert result.exit_code == 0
    assert "draw_limit = 1" in result.output
    assert 'start_eight = "forehand_names"' in result.output


def test_simulate_prints_intervals_and_writes_table(tmp_path):
    out = tmp_path / "games.parquet"
    result = run("simulate", "--preset", "standard", "--match", "single", "--games", "2000",
                 "--seed", "3", "--players", "3", "--policy", "all=greedy",
                 "--policy", "1=expert", "--out", str(out))
    assert result.exit_code == 0, result.output
    assert "2,000 deals, 3 players" in result.output
    assert "%" in result.output and "[" in result.output
    df = pd.read_parquet(out)
    assert len(df) == 2000 and set(df.winner) <= {-1, 0, 1, 2}
    csv = tmp_path / "games.csv"
    run("simulate", "--games", "50", "--out", str(csv))
    assert len(pd.read_csv(csv)) == 50


def test_play_narrates_and_referees():
    from vandatta_sim.referee import referee
    from vandatta_sim.rules import PRESETS
    from vandatta_sim.simulate import trace_game

    result = run("play", "--preset", "seed002", "--seed", "7", "--game", "3")
    assert result.exit_code == 0, result.output
    # the narration of this game: every deal's start card and its end, and the match's winner
    summary = referee(trace_game(PRESETS["seed002"], 7, 3), PRESETS["seed002"])
    out = result.output
    ends = ("wins the deal", "deal blocked: nobody can play or draw", "deal capped at the turn")
    assert summary["deals"] > 1 and out.count("start card") >= summary["deals"]
    assert sum(out.count(end) for end in ends) == summary["deals"]
    assert f"seat {summary['winner']} wins the match" in out
    assert "referee: every move legal" in result.output
    assert "♠" in result.output or "♥" in result.output


BAD_INPUTS = [
    ("simulate", "--preset", "nope"),
    ("simulate", "--set", "draw_limit=9"),
    ("simulate", "--set", "drawlimit=1"),
    ("simulate", "--set", "draw_limit"),
    ("simulate", "--set", "=3"),
    ("simulate", "--set", "stacking=maybe"),
    ("simulate", "--set", "players=11"),
    ("simulate", "--set", "hand_size=0"),
    ("simulate", "--set", "hand_size=15", "--set", "players=5"),
    ("simulate", "--set", "decks=3"),
    ("simulate", "--set", "jokers=3"),
    ("simulate", "--set", "joker_effect=skip"),
    ("simulate", "--set", "start_eight=shuffle"),
    ("simulate", "--set", "start_ace=nobody"),
    ("simulate", "--set", "ace_on_ace=sometimes"),
    ("simulate", "--set", "ace_draw=4"),
    ("simulate", "--set", "call_at=2"),
    ("simulate", "--set", "call_penalty=-1"),
    ("simulate", "--set", "reshuffles=-2"),
    ("simulate", "--set", "scale=fifty"),
    ("simulate", "--set", 'scale={"8"=-5}'),
    ("simulate", "--set", "eliminate_at=never"),
    ("simulate", "--match", "elimination:0"),
    ("simulate", "--match", "league:3"),
    ("simulate", "--players", "1"),
    ("simulate", "--policy", "all=smart"),
    ("simulate", "--policy", "7=random"),
    ("simulate", "--policy", "x=random"),
    ("simulate", "--forget", "all=1.5"),
    ("simulate", "--forget", "all=often"),
    ("simulate", "--games", "0"),
    ("simulate", "--games", "-5"),
    ("simulate", "--games", "many"),
    ("simulate", "--seed", "-1"),
    ("simulate", "--seed", "1.5"),
    ("simulate", "--threads", "0"),
    ("simulate", "--out", "table.xlsx"),
    ("simulate", "--out", "/no/such/folder/games.parquet"),
    ("simulate", "--rules", "/no/such/file.toml"),
    ("rules", "show", "nope"),
    ("play", "--game", "-1"),
    ("play", "--preset", "nope"),
]


@pytest.mark.parametrize("args", BAD_INPUTS, ids=[" ".join(a) for a in BAD_INPUTS])
def test_bad_input_is_one_error_line_and_exit_2(args, tmp_path):
    result = CliRunner().invoke(main, list(args))
    assert result.exit_code == 2, result.output
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("Error:"), result.output
    assert "Traceback" not in result.output
    assert list(tmp_path.iterdir()) == []


def test_bad_rules_files(tmp_path):
    bad_toml = tmp_path / "bad.toml"
    bad_toml.write_text("stacking = \n")
    unknown = tmp_path / "unknown.toml"
    unknown.write_text('preset = "seed002"\nstackin = true\n')
    binary = tmp_path / "binary.toml"
    binary.write_bytes(b"\xff\xfe\x00")
    for path in (bad_toml, unknown, binary):
        result = CliRunner().invoke(main, ["simulate", "--rules", str(path)])
        assert result.exit_code == 2
        assert result.output.count("\n") == 1 and str(path.name) in result.output


def test_rules_file_with_preset_and_override(tmp_path):
    variant = tmp_path / "house.toml"
    variant.write_text('preset = "seed002"\ndraw_limit = 1\nscale = { base = "hundred", "8" = 40 }\n')
    result = run("rules", "show", "--rules", str(variant))
    assert result.exit_code == 0
    assert "draw_limit = 1" in result.output and '"8" = 40' in result.output


def _commands(group, path=()):
    # list_commands/get_command, not group.commands: the top group loads its commands lazily
    ctx = click.Context(group)
    for name in group.list_commands(ctx):
        command = group.get_command(ctx, name)
        yield (*path, name), command
        if isinstance(command, click.Group):
            yield from _commands(command, (*path, name))


def test_every_command_has_help_and_a_shared_flag_reads_the_same_everywhere():
    helps = {}
    for path, command in _commands(main):
        assert run(*path, "--help").exit_code == 0, path
        for param in command.params:
            if isinstance(param, click.Option):
                helps.setdefault(param.opts[0], set()).add((param.help, param.metavar))
    # the sweep's list and override forms of these flags are declared beside the single-game
    # forms in vandatta_sim/cli/options.py; --out is a file (simulate, results export) or, for
    # design, a folder; --dry-run says what the sweep's or the design's plan lists
    two_forms = {"--players", "--match", "--games", "--seed", "--threads", "--out", "--dry-run"}
    shared = {"--preset", "--rules", "--set", "--policy", "--forget", "--store", "--json"}
    assert shared | two_forms <= set(helps)
    for flag, declarations in helps.items():
        assert len(declarations) <= (2 if flag in two_forms else 1), (flag, declarations)


def test_each_option_object_is_declared_once_and_options_py_holds_only_options():
    # the drift: json_option was assigned twice in cli/options.py (the second silently won);
    # a help/metavar comparison cannot see two identical declarations, the source can
    import ast
    import inspect

    from vandatta_sim.cli import options

    tree = ast.parse(inspect.getsource(options))
    assigned = [target.id for node in tree.body if isinstance(node, ast.Assign)
                for target in node.targets if isinstance(target, ast.Name)]
    defined = [node.name for node in tree.body
               if isinstance(node, (ast.FunctionDef, ast.ClassDef))]
    names = assigned + defined
    assert sorted({n for n in names if names.count(n) > 1}) == []
    # only options: every assignment is a click.option, every function a decorator of options
    for node in tree.body:
        if isinstance(node, ast.Assign):
            call = node.value
            assert (isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute)
                    and call.func.attr == "option"), ast.unparse(node)[:60]
        assert not isinstance(node, ast.ClassDef), node.name
    for name in defined:
        assert name.endswith(("_option", "_options")), name


def test_simulate_streams_chunks_with_the_same_games_and_summary(tmp_path, monkeypatch):
    from vandatta_sim.cli import simulate as simulate_cli
    from vandatta_sim.rules import get_preset
    from vandatta_sim.simulate import simulate
    from vandatta_sim.sweep import summarize

    monkeypatch.setattr(simulate_cli, "CHUNK_GAMES", 70)  # 200 games in chunks of 70, 70, 60
    args = ["simulate", "--match", "single", "--players", "4", "--set", "ace_draw=3",
            "--policy", "all=eight-dumper", "--games", "200", "--seed", "5"]
    whole = simulate(get_preset("standard").replace(players=4, match="single", ace_draw=3), 200,
                     seed=5, policies="all=eight-dumper")
    for name in ("g.csv", "g.parquet"):
        result = run(*args, "--out", str(tmp_path / name))
        assert result.exit_code == 0, result.output
        read = pd.read_csv if name.endswith(".csv") else pd.read_parquet
        pd.testing.assert_frame_equal(read(tmp_path / name), whole, check_dtype=False)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["g.csv", "g.parquet"]  # no temp left
    summary = summarize(whole, 4)
    result = run(*args)
    assert f"({int(whole.capped.sum()):,} capped)" in result.stdout
    assert f"{100 * summary['capped_share']:.2f}%" in result.stdout
    # chunk-merged and whole-sample means agree to rounding (not always in the last printed digit)
    shown = float(re.search(r"mean_turns ([0-9.]+)", result.stdout).group(1))
    assert shown == pytest.approx(summary["mean_turns"], abs=0.006)
    assert result.stderr.startswith("warning: capped games") and "lower bound" in result.stderr
    assert "capped_share" in result.stdout and "win_rate" in result.stdout
