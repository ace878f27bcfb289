"""The rules catalogue: complete, consistent with the validator, and honest about inert settings."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pandas as pd
import pytest
from hypothesis import HealthCheck, given, reject, settings
from hypothesis import strategies as st
from test_engine import rule_sets

from vandatta_sim import rulebook
from vandatta_sim.rules import PRESET_ALIASES, PRESETS, Rules, RulesError, resolve_rules
from vandatta_sim.simulate import simulate

DOCS = Path(__file__).resolve().parents[1] / "docs" / "rules.md"


def test_every_rules_field_has_an_entry_with_words():
    assert list(rulebook.PARAMETERS) == [f.name for f in dataclasses.fields(Rules)]
    for p in rulebook.PARAMETERS.values():
        assert p.section in rulebook.SECTIONS
        assert p.summary and p.detail and p.allowed


def test_presets_of_a_parameter_are_those_that_change_it():
    assert rulebook.PARAMETERS["stacking"].presets() == {
        "seed001": True, "seed001-hundred": True, "svang-atta": True}
    assert rulebook.PARAMETERS["must_play"].presets() == {}


def test_explain_an_unknown_field_names_the_known_ones():
    with pytest.raises(RulesError, match="did you mean 'stacking'"):
        rulebook.explain("staking")


def test_the_rules_reference_in_docs_is_generated_from_the_catalogue():
    assert DOCS.read_text(encoding="utf-8") == rulebook.reference_markdown(), (
        "docs/rules.md is stale: run `make docs`")
    presets = rulebook.reference_markdown().split("\n## Presets\n", 1)[1].split("\n## ", 1)[0]
    for alias, name in PRESET_ALIASES.items():  # each family name on its preset's row
        (row,) = [line for line in presets.splitlines() if line.startswith(f"| `{name}` ")]
        assert f"`{alias}`" in row


# --- inert settings: the catalogue may only claim what the engine confirms ----------------------
def _games(rules: Rules, seed: int, forget) -> pd.DataFrame:
    mix = ["random", "expert", "greedy", "eight-dumper"]
    policies = [mix[s % len(mix)] for s in range(rules.players)]
    return simulate(rules, 60, seed=seed, policies=policies, forget=forget, threads=1)


# For each claim: a change that makes the claim's condition true, and the inert setting.
_INERT_CASES = {
    "joker_effect": (dict(jokers=0), dict(joker_effect="draw_two")),
    "eliminate_at": (dict(match="deals:3"), dict(eliminate_at="pass")),
    "out_on_special": (dict(specials_only_must_draw=True), dict(out_on_special=True)),
    "ace_extra_turn": (dict(ace_on_ace="counter"), dict(ace_extra_turn=False)),
    "call_at": ({}, dict(call_at=3)),
    "call_penalty": ({}, dict(call_penalty=1)),
}


@pytest.mark.parametrize("field", list(_INERT_CASES))
@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(base=rule_sets(), seed=st.integers(0, 2**32))
def test_an_inert_setting_leaves_every_game_identical(field, base, seed):
    condition, setting = _INERT_CASES[field]
    try:
        base = base.replace(**condition, **{field: getattr(Rules(), field)})
    except RulesError:  # e.g. no jokers leaves too few cards for the drawn hand size
        reject()
    changed = base.replace(**setting)
    assert field in dict(rulebook.inert_settings(changed, forgetting=False))
    pd.testing.assert_frame_equal(_games(base, seed, None), _games(changed, seed, None))


def test_call_rules_are_not_inert_when_a_seat_forgets():
    rules = PRESETS["standard"].replace(match="single", call_penalty=5)
    assert rulebook.inert_settings(rules, forgetting=True) == []
    assert not _games(rules, 1, 0.5).equals(_games(rules.replace(call_penalty=0), 1, 0.5))


def test_default_rules_and_presets_have_no_inert_settings():
    for name, rules in PRESETS.items():
        assert rulebook.inert_settings(rules) == [], name


def test_a_field_overridden_twice_is_an_error_not_the_later_value():
    # no later override replaces an earlier one (rules.settings): a bad one cannot hide
    with pytest.raises(RulesError, match="draw_limit is given twice"):
        resolve_rules("standard", overrides=["draw_limit=banana", "draw_limit=1"])
    with pytest.raises(RulesError, match="draw_limit = 'banana'"):
        resolve_rules("standard", overrides=["draw_limit=banana"])
