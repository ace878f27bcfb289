"""A light start: importing the command line, `--help`, `--version` and `rules list` load no
numerical library; a small `simulate` loads the engine but not pandas or pyarrow (it sums the
kernel's columns: the same summary as of the table), scipy.stats (the normal and Student
quantiles are computed here, equal to scipy's), plotting, dask, or the sweep's run loop,
reports and table; and the top-level help lines are the commands' own. Which modules load is
checked, never how long it takes (docs/speed.md has the timings)."""

from __future__ import annotations

import importlib
import subprocess
import sys

import click
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from vandatta_sim import cli
from vandatta_sim.rules import resolve_rules
from vandatta_sim.simulate import game_columns, simulate
from vandatta_sim.sweep.summary import SummaryStats, loser_points
from vandatta_sim.stats import normal_critical, student_critical

# numba imports the bare scipy package itself (a few ms); scipy.stats is what costs half a second
HEAVY = ("numba", "numpy", "pandas", "scipy", "scipy.stats", "pyarrow", "matplotlib")


# what a small `simulate` does not need: it plays (numba) and sums the columns, nothing more
NOT_FOR_SIMULATE = ("pandas", "pyarrow", "vandatta_sim.store",
                    "scipy.stats", "matplotlib", "dask", "distributed", "vandatta_sim.plots",
                    "vandatta_sim.sweep.run", "vandatta_sim.sweep.grid",
                    "vandatta_sim.sweep.executors", "vandatta_sim.sweep.dry_run",
                    "vandatta_sim.experiments", "vandatta_sim.design", "vandatta_sim.play.table",
                    "vandatta_sim.referee", "vandatta_sim.tune")


def loaded_after(code: str, watched=HEAVY) -> set[str]:
    probe = (f"import sys\n{code}\n"
             f"print(' '.join(m for m in {tuple(watched)!r} if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", probe], check=True, capture_output=True,
                         text=True).stdout
    return set(out.split())


def test_top_level_help_loads_no_numerical_library():
    code = ("from click.testing import CliRunner; from vandatta_sim.cli import main\n"
            "r = CliRunner().invoke(main, ['--help']); assert r.exit_code == 0, r.output\n"
            "assert 'value' in r.output and 'simulate' in r.output")
    assert loaded_after(code) == set()


def test_importing_the_command_line_loads_no_numerical_library():
    assert loaded_after("import vandatta_sim.cli") == set()


@pytest.mark.parametrize("args", [["--version"], ["rules", "list"]])
def test_version_and_rules_list_load_no_numerical_library(args):
    code = ("from click.testing import CliRunner; from vandatta_sim.cli import main\n"
            f"r = CliRunner().invoke(main, {args!r}); assert r.exit_code == 0, r.output")
    assert loaded_after(code) == set()


def test_a_small_simulate_loads_only_what_it_needs():
    code = ("from click.testing import CliRunner; from vandatta_sim.cli import main\n"
            "r = CliRunner().invoke(main, ['simulate', '--games', '10', '--match', 'single'])\n"
            "assert r.exit_code == 0, r.output")
    loaded = loaded_after(code, HEAVY + NOT_FOR_SIMULATE)
    assert {"numba", "numpy"} <= loaded  # the probe saw the run: it played
    assert loaded.isdisjoint(NOT_FOR_SIMULATE), loaded & set(NOT_FOR_SIMULATE)


@settings(max_examples=12, deadline=None)
@given(players=st.integers(2, 5), games=st.integers(1, 40), seed=st.integers(0, 2**32),
       match=st.sampled_from(["single", "deals:3", "elimination:30"]))
def test_the_summary_of_the_columns_is_the_summary_of_the_table(players, games, seed, match):
    """simulate's default path sums game_columns; the table's summary (sweeps, results) is
    the same statistics of the same games, so the printed answer is unchanged."""
    rules = resolve_rules("standard", overrides=[f"players={players}", f"match={match}"])
    table = simulate(rules, games, seed=seed, policies="all=random")
    columns = game_columns(rules, games, seed=seed, policies="all=random")
    assert list(columns) == list(table.columns)
    assert SummaryStats.of(columns, players) == SummaryStats.of(table, players)
    assert np.array_equal(loser_points(columns, players), loser_points(table, players))


def test_the_normal_quantile_is_scipys():
    scipy_stats = pytest.importorskip("scipy.stats")
    for confidence in (0.5, 0.9, 0.95, 0.99):
        assert normal_critical(confidence) == pytest.approx(
            float(scipy_stats.norm.ppf(0.5 + confidence / 2)), abs=1e-12)


def test_the_t_quantile_is_scipys():
    scipy_stats = pytest.importorskip("scipy.stats")
    for df in [*range(1, 61), 100, 1000]:
        for confidence in (0.5, 0.9, 0.95, 0.99, 0.999):
            assert student_critical(confidence, df) == pytest.approx(
                float(scipy_stats.t.ppf(0.5 + confidence / 2, df)), rel=1e-11)
    # a fractional df (Welch) is scipy's own answer
    assert student_critical(0.95, 7.5) == float(scipy_stats.t.ppf(0.975, 7.5))


@pytest.mark.parametrize("name", list(cli.COMMANDS))
def test_the_help_lines_are_the_commands_own(name):
    module, attribute = cli.COMMANDS[name]
    command = getattr(importlib.import_module(f"vandatta_sim.cli.{module}"), attribute)
    listed = click.Command(name, help=cli.SHORT_HELP[name]).get_short_help_str(10_000)
    assert listed == command.get_short_help_str(10_000)
