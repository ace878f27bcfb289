"""Words a family reads (issue 38): each preset named with its one-line description where
presets are listed, `tune --list` in percentage points with the weights it changed beside
expert's, and `value --dry-run` with a time estimate from timed games."""

from __future__ import annotations

import re
from decimal import Decimal

from click.testing import CliRunner
from hypothesis import given
from hypothesis import strategies as st

from vandatta_sim import tuned
from vandatta_sim.cli import main
from vandatta_sim.cli import tune as tune_cli
from vandatta_sim.engine import EXPERT_WEIGHTS, WEIGHT_NAMES
from vandatta_sim.rulebook import PARAMETERS
from vandatta_sim.rules import PRESET_NOTES

EXPERT = dict(zip(WEIGHT_NAMES, EXPERT_WEIGHTS))


def run(*args):
    result = CliRunner().invoke(main, [str(a) for a in args], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return result.stdout


# --- presets ---------------------------------------------------------------------------------
def test_rules_explain_describes_every_preset_it_names():
    for field, p in PARAMETERS.items():
        text = run("rules", "explain", field)
        for name in p.presets():
            assert f"  {name} (" in text and PRESET_NOTES[name] in text, (field, name)


def test_tune_list_describes_the_preset_each_policy_was_tuned_for():
    text = run("tune", "--list", "--store", "no-such-store")
    for name in ("kids", "seed000", "seed001", "seed002", "svang-atta"):
        assert f"tuned:{name}-4  for {name} ({PRESET_NOTES[name]})" in text


# --- tune --list: percentage points and readable weights --------------------------------------
def _bounds(text: str) -> tuple[Decimal, Decimal]:
    lo, hi = re.search(r"\[([+-][\d.]+), ([+-][\d.]+)\]", text).groups()
    return Decimal(lo), Decimal(hi)


@given(st.floats(-0.5, 0.5), st.floats(0, 0.2), st.floats(0, 0.2),
       st.sampled_from(["match", "deals", "points"]))
def test_held_out_text_is_in_points_and_holds_the_interval(value, below, above, objective):
    low, high = value - below, value + above
    text = tune_cli.held_out_text(objective, value, low, high)
    scale = 1 if objective == "points" else 100
    assert text.split()[1] == ("points" if objective == "points" else "pp")
    lo, hi = _bounds(text)
    # rounded outward: the interval shown holds the one computed
    assert lo <= Decimal(low) * scale and hi >= Decimal(high) * scale


@given(st.dictionaries(st.sampled_from(WEIGHT_NAMES), st.integers(-200_000, 200_000)))
def test_weights_text_names_each_changed_weight_beside_expert(changes):
    weights = EXPERT | changes
    text = tune_cli.weights_text(weights)
    changed = {k for k, v in weights.items() if v != EXPERT[k]}
    for k in WEIGHT_NAMES:
        said = f"{k} {EXPERT[k]:,} → {weights[k]:,}"
        assert (said in text) == (k in changed), (k, text)
    assert ("none changed" in text) == (not changed)


def test_tune_list_says_percentage_points_never_fractions():
    text = run("tune", "--list", "--store", "no-such-store")
    assert not re.search(r"[+-]0\.\d{3,}", text), text  # no fraction such as +0.0337
    for name in tuned.shipped():
        p = tuned.load(name)
        v = p.provenance["validation"]
        start = text.index(f"tuned:{name}  ")
        end = text.find("\ntuned:", start)
        block = text[start:end if end >= 0 else len(text)]
        line = next(x for x in block.splitlines() if "held-out" in x)
        assert f"{100 * v['value']:+.2f} pp" in line, line
        lo, hi = _bounds(line)
        assert lo <= Decimal(v["low"]) * 100 and hi >= Decimal(v["high"]) * 100
        assert f"{int(v['n']):,} games" in line
        assert all(len(x) <= 100 for x in block.splitlines() if "weights" in x or
                   x.startswith("    "))
        weights = " ".join(x.strip() for x in block.splitlines() if not x.startswith("tuned:"))
        for k, w in p.weights.items():  # the weights it changed, beside expert's
            assert (f"{k} {EXPERT[k]:,} → {w:,}" in weights) == (w != EXPERT[k]), (k, weights)


# --- value --dry-run's time ------------------------------------------------------------------
def test_value_dry_run_estimates_the_games_it_counts(monkeypatch, tmp_path):
    """The estimate times the very games the dry run counts (no timing asserted here: the
    timing is replaced by one that records what it was asked)."""
    from vandatta_sim.sweep import dry_run

    asked = []

    def fake(configs, counts, threads=None):
        asked.append((configs, list(counts)))
        return dry_run.TimeEstimate(123.0, len(configs), len(configs), 2000, 1)

    monkeypatch.setattr(dry_run, "estimate_time", fake)
    text = run("value", "--players", "3,4", "--scale", "base,hundred", "--rank", "8,A",
               "--games", "1000", "--match-games", "300", "--dry-run", "--store",
               tmp_path / "r")
    total = int(re.search(r": ([\d,]+) games in all", text).group(1).replace(",", ""))
    ((configs, counts),) = asked
    assert sum(counts) == total
    assert len(configs) == 2 * 2 * 2  # per table: its deals and its matches
    assert {c.rules.players for c in configs} == {3, 4}
    assert "estimated time ≈ 2 min on 1 thread(s)" in text
    assert "an estimate from timing 2,000 games" in text
    assert not (tmp_path / "r").exists()  # a dry run writes nothing


def test_value_dry_run_time_is_measured_here(tmp_path):
    text = run("value", "--players", "3", "--match", "single", "--games", "500", "--dry-run",
               "--store", tmp_path / "r")
    assert re.search(r"estimated time ≈ (under 1 s|\d+ s|\d+ min|[\d.]+ h) on \d+ thread\(s\) "
                     r"of this machine", text), text
