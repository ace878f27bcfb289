"""A comparison names configurations by what tells them apart, never by label words; a stored
configuration is named and filed by every run that uses it.

The defects: after ``results label`` gave two runs the labels "stacking, eight=50 (our table)"
and "no stacking, eight=50", ``results compare`` said "With (our table) instead of no" (the
verdict stripped the words the labels share); and a sweep whose arm an earlier ``value`` run had
stored named that arm in its Δ table by the value run's label (``players=3
policy=all=expert``), while ``results list --kind sweep`` left the arm out (listed as kind
``value`` only).
"""

from __future__ import annotations

import json

import pandas as pd
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import run_cli
from vandatta_sim.experiments import plain
from vandatta_sim.rules import Rules
from vandatta_sim.sweep import catalogue

COMMON = ["--players", "3", "--match", "single", "--games", "300", "--seed", "1"]


def _ok(*args):
    result = run_cli(*args)
    assert result.exit_code == 0, result.output
    return result


def _sweep_keys(store) -> dict[str, str]:
    """The stacking=false/true arms' keys of the sweep stored in ``store``."""
    rows = json.loads(_ok("results", "list", "--store", store, "--json").stdout)
    return {str(r["changes"].get("stacking", False)).lower(): r["key"] for r in rows
            if r["rules_file"] is None and "sweep" in r["kinds"]}


def test_compare_names_the_rule_that_differs_with_the_labels_beside_it(tmp_path):
    store = str(tmp_path / "results")
    _ok("sweep", "--vary", "stacking=false,true", *COMMON, "--store", store, "--quiet")
    keys = _sweep_keys(store)
    _ok("results", "label", keys["true"], "stacking, eight=50 (our table)", "--store", store)
    _ok("results", "label", keys["false"], "no stacking, eight=50", "--store", store)
    out = _ok("results", "compare", keys["false"], keys["true"], "--store", store).output
    assert ('With stacking=true ("stacking, eight=50 (our table)") instead of stacking=false '
            '("no stacking, eight=50")') in out
    assert "With (our table)" not in out and "instead of no" not in out
    # the table keeps the labels; the JSON says what differs
    assert "stacking, eight=50 (our table)" in out
    data = json.loads(_ok("results", "compare", keys["false"], keys["true"], "--store", store,
                          "--json").stdout)
    other = data["configs"][1]
    assert (other["varied"], other["varied_baseline"]) == ("stacking=true", "stacking=false")
    assert other["label"] == "stacking, eight=50 (our table)"


def _fields(**rules) -> dict[str, str]:
    return catalogue.configuration_fields({"rules": Rules().canonical() | rules,
                                           "policies": ["expert"] * 4})


_label = st.text(st.characters(blacklist_categories=("Cs", "Cc")), max_size=40)


@settings(max_examples=200, deadline=None)
@given(ours=_label, theirs=_label)
def test_the_verdict_names_fields_whatever_words_the_labels_hold(ours, theirs):
    """Property: the configurations' names in the verdict are the fields that differ, the same
    for any labels; a label appears only in quotes beside them, and only where they differ."""
    varied, base = catalogue.fields_apart(_fields(stacking=True, draw_limit=1),
                                          _fields(stacking=False))
    assert (varied, base) == ("stacking=true draw_limit=1", "stacking=false draw_limit=3")
    rows = [{"key": "a", "baseline": True, "paired_games": 100},
            {"key": "b", "baseline": False, "paired_games": 100, "varied": varied,
             "varied_baseline": base, "user_label": ours, "baseline_user_label": theirs,
             "delta_mean_turns": -5.0, "delta_mean_turns_low": -6.0,
             "delta_mean_turns_high": -4.0}]
    summary = pd.DataFrame([{"label": theirs}, {"label": ours}])
    text = plain.comparison_verdict(summary, rows, 0, "all=expert")
    head = text.split(", a game lasts")[0]
    if ours == theirs:
        assert head == f"With {varied} instead of {base}"
    else:
        quoted = (f' ("{ours}")' if ours else "", f' ("{theirs}")' if theirs else "")
        assert head == f"With {varied}{quoted[0]} instead of {base}{quoted[1]}"


def test_no_field_differs_names_the_keys():
    fields = _fields()
    assert catalogue.fields_apart(fields, dict(fields)) == ("", "")
    rows = [{"key": "k0", "baseline": True, "paired_games": 10},
            {"key": "k1", "baseline": False, "paired_games": 10, "varied": "",
             "varied_baseline": "", "delta_mean_turns": 0.5, "delta_mean_turns_low": -1.0,
             "delta_mean_turns_high": 2.0}]
    text = plain.comparison_verdict(pd.DataFrame([{"label": "x"}, {"label": "x"}]), rows, 0,
                                    "all=expert")
    assert text.startswith("With the games of key k1 instead of those of key k0")


def test_a_sweep_arm_a_value_run_stored_is_named_and_filed_by_the_sweep(tmp_path):
    store = str(tmp_path / "results")
    _ok("value", "--set", "stacking=true", *COMMON, "--store", store, "--quiet")
    out = _ok("sweep", "--vary", "stacking=false,true", *COMMON, "--store", store).output
    table = out[out.index("Δ = configuration"):]
    assert "stacking=true" in table and "policy=all=expert" not in table
    keys = _sweep_keys(store)
    assert set(keys) == {"false", "true"}  # both arms listed under --kind sweep
    listed = json.loads(_ok("results", "list", "--kind", "sweep", "--store", store,
                            "--json").stdout)
    assert {keys["false"], keys["true"]} <= {r["key"] for r in listed}
    (arm,) = [r for r in listed if r["key"] == keys["true"]]
    assert arm["kind"] == "value" and arm["kinds"] == ["value", "sweep"]
    values = json.loads(_ok("results", "list", "--kind", "value", "--store", store,
                            "--json").stdout)
    assert keys["true"] in {r["key"] for r in values} and keys["false"] not in {
        r["key"] for r in values}
    text = _ok("results", "list", "--kind", "sweep", "--store", store).output
    assert "value,sweep" in text
