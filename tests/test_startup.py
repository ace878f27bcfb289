"""A light start: `--help` loads no numerical library, a small `simulate` no scipy.stats (the
normal and Student quantiles are computed here, equal to scipy's), and the top-level help
lines are the commands' own."""

from __future__ import annotations

import importlib
import subprocess
import sys

import click
import pytest

from vandatta_sim import cli
from vandatta_sim.stats import normal_critical, student_critical

# numba imports the bare scipy package itself (a few ms); scipy.stats is what costs half a second
HEAVY = ("numba", "numpy", "pandas", "scipy", "scipy.stats", "pyarrow", "matplotlib")


def loaded_after(code: str) -> set[str]:
    probe = (f"import sys\n{code}\n"
             f"print(' '.join(m for m in {HEAVY!r} if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", probe], check=True, capture_output=True,
                         text=True).stdout
    return set(out.split())


def test_top_level_help_loads_no_numerical_library():
    code = ("from click.testing import CliRunner; from vandatta_sim.cli import main\n"
            "r = CliRunner().invoke(main, ['--help']); assert r.exit_code == 0, r.output\n"
            "assert 'value' in r.output and 'simulate' in r.output")
    assert loaded_after(code) == set()


def test_a_small_simulate_loads_no_scipy_stats():
    code = ("from click.testing import CliRunner; from vandatta_sim.cli import main\n"
            "r = CliRunner().invoke(main, ['simulate', '--games', '10', '--match', 'single'])\n"
            "assert r.exit_code == 0, r.output")
    loaded = loaded_after(code)
    assert "numba" in loaded and "scipy.stats" not in loaded


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
