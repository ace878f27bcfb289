"""Every file in examples/ loads and runs as its comments say."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from vandatta_sim import rulebook
from vandatta_sim.cli import main
from vandatta_sim.rules import load_rules_file

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
# design specs (*-design.toml) are run by tests/test_design.py
RULES_FILES = sorted(p.name for p in EXAMPLES.glob("*.toml")
                     if not p.stem.endswith(("-sweep", "-design")))
SWEEP_FILES = sorted(p.name for p in EXAMPLES.glob("*-sweep.toml"))


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args], catch_exceptions=False)


def test_there_are_examples_of_both_kinds():
    assert RULES_FILES and SWEEP_FILES


@pytest.mark.parametrize("name", RULES_FILES)
def test_a_rules_example_loads_and_every_setting_in_it_matters(name):
    rules = load_rules_file(EXAMPLES / name)
    assert rules.diff(), f"{name} changes nothing"
    assert rulebook.inert_settings(rules, forgetting=True) == []
    result = run("rules", "show", "--rules", EXAMPLES / name)
    assert result.exit_code == 0, result.output


@pytest.mark.parametrize("name", SWEEP_FILES)
def test_a_sweep_example_plans_and_runs(name, tmp_path):
    planned = run("sweep", EXAMPLES / name, "--dry-run", "--store", tmp_path / "store")
    assert planned.exit_code == 0, planned.output
    assert "dry run, nothing was run" in planned.output
    ran = run("sweep", EXAMPLES / name, "--games", 300, "--chunk-size", 300,
              "--store", tmp_path / "store")
    assert ran.exit_code == 0, ran.output
    assert "300" in ran.output
