"""Tests for vandatta_sim.rules: defaults, presets, keys, TOML files, overrides and errors."""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
import re
import subprocess
import sys

import numpy as np
import pytest

from vandatta_sim import cards
from vandatta_sim.rules import (
    PRESET_NOTES,
    PRESETS,
    Rules,
    RulesError,
    get_preset,
    load_rules_file,
    load_rules_text,
    parse_override,
    resolve_rules,
)

# docs/spec.md §2, in field order.
DEFAULTS = {
    "players": 4, "decks": "auto", "hand_size": 7, "jokers": 0, "joker_effect": "reverse",
    "start_eight": "bury", "start_ace": "all_draw", "must_play": True, "stacking": False,
    "eight_follow": "next_player", "eight_on_ace": False, "eight_on_eight": False,
    "ace_on_eight": False, "ace_on_ace": "forbidden", "ace_draw": 1, "ace_extra_turn": True,
    "draw_limit": 3, "specials_only_must_draw": True, "out_on_special": False,
    "last_card_start_suit": False, "two_draws_two": False, "call_at": 1, "call_penalty": 3,
    "reshuffles": "unlimited", "scale": "hundred", "match": "elimination:100",
    "eliminate_at": "reach",
}

# docs/spec.md §3, as each preset's difference from standard (values equal to a default drop out).
PRESET_DIFFS = {
    "standard": {},
    "seed000": {"eight_follow": "same_player", "start_eight": "dealer_names",
                "start_ace": "all_but_dealer_draw"},
    "seed001": {"stacking": True, "scale": "base", "match": "deals:5"},
    "seed001-hundred": {"stacking": True, "ace_on_ace": "allowed"},
    "seed002": {"start_eight": "forehand_names", "start_ace": "bury",
                "specials_only_must_draw": False, "reshuffles": 1, "eliminate_at": "pass"},
    "svang-atta": {"hand_size": 6, "stacking": True},
    "kids": {"hand_size": 5, "eight_on_eight": True, "call_penalty": 0, "scale": "base",
             "match": "elimination:30"},
    "crazy-eights-scoring": {"scale": "crazy_eights"},
}

# One valid non-default value for every field.
ALTERNATIVES = {
    "players": 3, "decks": 2, "hand_size": 6, "jokers": 1, "joker_effect": "draw_two",
    "start_eight": "dealer_names", "start_ace": "bury", "must_play": False, "stacking": True,
    "eight_follow": "same_player", "eight_on_ace": True, "eight_on_eight": True,
    "ace_on_eight": True, "ace_on_ace": "counter", "ace_draw": 2, "ace_extra_turn": False,
    "draw_limit": 0, "specials_only_must_draw": False, "out_on_special": True,
    "last_card_start_suit": True, "two_draws_two": True, "call_at": 3, "call_penalty": 0,
    "reshuffles": 0, "scale": "base", "match": "single", "eliminate_at": "pass",
}

CUSTOM = Rules(scale={"base": "hundred", "8": 40})
FIELDS = [f.name for f in dataclasses.fields(Rules)]


def test_defaults_are_rules_md_section_2():
    assert Rules().canonical() == DEFAULTS
    assert list(Rules().canonical()) == list(DEFAULTS) == FIELDS


@pytest.mark.parametrize("name", PRESET_DIFFS)
def test_preset_matches_rules_md_section_3(name):
    assert get_preset(name) is PRESETS[name]
    assert PRESETS[name].diff(PRESETS["standard"]) == PRESET_DIFFS[name]


def test_preset_names_and_notes():
    assert list(PRESETS) == list(PRESET_DIFFS)
    assert PRESETS["seed001-hundred"] == PRESETS["seed001"].replace(
        scale="hundred", match="elimination:100", ace_on_ace="allowed")
    assert set(PRESET_NOTES) == set(PRESETS)
    assert all(note and "\n" not in note for note in PRESET_NOTES.values())


@pytest.mark.parametrize("players, decks, jokers, n_decks, size", [
    (5, "auto", 0, 1, 52), (6, "auto", 0, 2, 104), (2, 2, 0, 2, 104),
    (4, 1, 2, 1, 54), (6, "auto", 1, 2, 106),
])
def test_decks(players, decks, jokers, n_decks, size):
    rules = Rules(players=players, decks=decks, jokers=jokers)
    assert (rules.n_decks, rules.deck_size) == (n_decks, size)


def test_deck_fit_boundary():
    Rules(players=7, hand_size=7, decks=1)        # 50 cards: fits
    Rules(players=5, hand_size=10, decks=1)       # 51 = 52 - start card: fits
    Rules(players=4, hand_size=13, decks=1, jokers=1)  # 53 of 53: a joker makes it fit
    with pytest.raises(RulesError, match="needs 53 cards; the deck has 52 .* or set decks = 2"):
        Rules(players=4, hand_size=13, decks=1)


@pytest.mark.parametrize("match, kind, param", [
    ("single", "single", 0), ("deals:5", "deals", 5), ("elimination:100", "elimination", 100),
    ("best_of:4", "best_of", 4), ("deals:005", "deals", 5),
])
def test_match_kind_and_param(match, kind, param):
    rules = Rules(match=match)
    assert (rules.match_kind, rules.match_param) == (kind, param)
    assert rules.match == (f"{kind}:{param}" if param else "single")


def test_custom_scale_is_normalised():
    assert CUSTOM.scale == (15, 5, 5, 5, 5, 5, 5, 40, 5, 10, 10, 10, 10, 40)
    assert Rules(scale=list(CUSTOM.scale)) == CUSTOM
    assert Rules(scale=tuple(np.int64(p) for p in CUSTOM.scale)) == CUSTOM
    assert Rules(scale="base").scale == "base"
    np.testing.assert_array_equal(CUSTOM.scale_points(), cards.scale_points(CUSTOM.scale))
    assert CUSTOM.scale_points()[cards.make_card(cards.EIGHT, 2)] == 40
    assert Rules().scale_points()[cards.JOKER_TYPES[0]] == 25


def test_numpy_ints_are_normalised():
    rules = Rules(players=np.int64(3), call_at=np.int32(3))
    assert type(rules.players) is int and rules == Rules(players=3, call_at=3)
    assert rules.key() == Rules(players=3, call_at=3).key()


def test_frozen_and_hashable():
    with pytest.raises(dataclasses.FrozenInstanceError):
        Rules().players = 3
    assert len({Rules(), Rules(), CUSTOM}) == 2


def test_canonical_is_plain_json():
    data = CUSTOM.canonical()
    assert list(data) == FIELDS and data["scale"] == list(CUSTOM.scale)
    assert json.loads(json.dumps(data)) == data


def test_key_form_and_recipe():
    rules = PRESETS["seed002"]
    assert re.fullmatch(r"[0-9a-f]{16}", rules.key())
    text = json.dumps(rules.canonical(), sort_keys=True, separators=(",", ":"))
    assert rules.key() == hashlib.sha256(text.encode()).hexdigest()[:16]


def test_equal_rules_equal_keys():
    assert Rules().key() == Rules().key() == load_rules_text(Rules().to_toml()).key()
    assert CUSTOM.key() == Rules(scale=CUSTOM.scale).key()
    assert Rules(match="deals:05").key() == Rules(match="deals:5").key()


def test_every_single_field_change_changes_key():
    assert set(ALTERNATIVES) == set(FIELDS)  # a new field needs an alternative here
    keys = {Rules().key()} | {Rules(**{k: v}).key() for k, v in ALTERNATIVES.items()}
    assert len(keys) == len(FIELDS) + 1
    assert CUSTOM.key() not in keys
    assert len({p.key() for p in PRESETS.values()}) == len(PRESETS)


def test_key_is_stable_across_processes():
    code = "from vandatta_sim.rules import PRESETS; print(PRESETS['kids'].key())"
    env = dict(os.environ, PYTHONHASHSEED="12345")
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                         text=True, check=True, cwd=os.path.dirname(os.path.dirname(__file__)))
    assert out.stdout.strip() == PRESETS["kids"].key()


@pytest.mark.parametrize("rules", [*PRESETS.values(), CUSTOM,
                                   *(Rules(**{k: v}) for k, v in ALTERNATIVES.items())])
def test_toml_round_trip(rules):
    text = rules.to_toml()
    assert len(text.splitlines()) == len(FIELDS)
    assert load_rules_text(text) == rules


def test_custom_scale_toml_has_all_ranks():
    line = next(s for s in CUSTOM.to_toml().splitlines() if s.startswith("scale ="))
    assert all(f'"{k}" =' in line for k in cards.SCALE_KEYS)


def test_diff_and_replace():
    assert Rules().diff() == {}
    rules = Rules(draw_limit=1, scale="base")
    assert rules.diff() == {"draw_limit": 1, "scale": "base"}
    assert rules.diff(rules) == {}
    for a in PRESETS.values():
        for b in PRESETS.values():
            assert b.replace(**a.diff(b)) == a
    assert Rules().replace(scale={"base": "base", "A": 2}).scale[0] == 2


@pytest.mark.parametrize("text, expected", [
    ("draw_limit=1", ("draw_limit", 1)),
    (" draw_limit = 1 ", ("draw_limit", 1)),
    ("scale=hundred", ("scale", "hundred")),
    ('scale="base"', ("scale", "base")),
    ("match=elimination:100", ("match", "elimination:100")),
    ("decks=auto", ("decks", "auto")),
    ("decks=2", ("decks", 2)),
    ("must_play=false", ("must_play", False)),
    ("reshuffles=unlimited", ("reshuffles", "unlimited")),
    ('scale={ base = "hundred", "8" = 40 }', ("scale", {"base": "hundred", "8": 40})),
    ("draw_limit=1.5", ("draw_limit", 1.5)),
    ("match=deals:5=x", ("match", "deals:5=x")),
    ("scale=", ("scale", "")),
    ("players=1\nhand_size=3", ("players", "1\nhand_size=3")),  # one value, not a file
])
def test_parse_override(text, expected):
    assert parse_override(text) == expected


def test_resolve_rules(tmp_path):
    assert resolve_rules() == PRESETS["standard"]
    assert resolve_rules("kids") == PRESETS["kids"]
    assert resolve_rules("kids", overrides=["draw_limit=0"]).diff(
        PRESETS["kids"]) == {"draw_limit": 0}
    assert resolve_rules(overrides="stacking=true") == Rules(stacking=True)
    file = tmp_path / "big.toml"
    file.write_text("players = 8\ndecks = 2\n")
    # Overrides are checked together: decks = 1 alone would not fit 8 × 7 cards.
    assert resolve_rules(file=file, overrides=["decks=1", "hand_size=5"]) == Rules(
        players=8, decks=1, hand_size=5)


def test_file_preset_key(tmp_path):
    plain, named = tmp_path / "plain.toml", tmp_path / "named.toml"
    plain.write_text("draw_limit = 1\n")
    named.write_text('preset = "seed002"\ndraw_limit = 1\n')
    assert load_rules_file(plain) == Rules(draw_limit=1)
    assert load_rules_file(named) == PRESETS["seed002"].replace(draw_limit=1)
    assert resolve_rules("kids", plain) == PRESETS["kids"].replace(draw_limit=1)
    assert resolve_rules("kids", named) == PRESETS["seed002"].replace(draw_limit=1)
    table = tmp_path / "table.toml"
    table.write_text('[scale]\nbase = "hundred"\n"8" = 40\n')
    assert load_rules_file(table) == CUSTOM


def test_file_errors(tmp_path):
    missing, folder = tmp_path / "missing.toml", tmp_path
    latin = tmp_path / "latin.toml"
    latin.write_bytes(b'match = "\xe5"\n')
    bad = tmp_path / "bad.toml"
    bad.write_text("draw_limit = = 1\n")
    for path in (missing, folder, latin):
        with pytest.raises(RulesError, match=r"^rules: cannot read .*: ") as info:
            load_rules_file(path)
        assert str(path) in str(info.value) and "\n" not in str(info.value)
    with pytest.raises(RulesError, match=r"^rules: .*bad\.toml: invalid TOML: .*line 1"):
        resolve_rules(file=bad)


def _rules(**kw):
    return lambda: Rules(**kw)


MALFORMED = [
    (_rules(players=1), ["players", "2–10"]),
    (_rules(players=11), ["players"]),
    (_rules(players=True), ["players = true"]),
    (_rules(players="4"), ["players = '4'"]),
    (_rules(players=4.0), ["players"]),
    (_rules(decks=3), ["decks", "auto, 1, 2"]),
    (_rules(decks=True), ["decks"]),
    (_rules(decks="two"), ["decks"]),
    (_rules(hand_size=0), ["hand_size"]),
    (_rules(hand_size=16), ["hand_size"]),
    (_rules(jokers=3), ["jokers"]),
    (_rules(joker_effect="skip"), ["joker_effect", "super_eight"]),
    (_rules(start_eight="burry"), ["start_eight"]),
    (_rules(start_ace="everyone"), ["start_ace"]),
    (_rules(must_play=1), ["must_play", "true, false"]),
    (_rules(must_play="true"), ["must_play"]),
    (_rules(stacking=None), ["stacking"]),
    (_rules(eight_follow="left"), ["eight_follow"]),
    (_rules(eight_on_eight=np.bool_(True)), ["eight_on_eight"]),
    (_rules(ace_on_ace=True), ["ace_on_ace", "counter"]),
    (_rules(ace_draw=4), ["ace_draw"]),
    (_rules(ace_draw=-1), ["ace_draw"]),
    (_rules(draw_limit=7), ["draw_limit = 7", "0 (draw until playable) or 1–5"]),
    (_rules(draw_limit="3"), ["draw_limit"]),
    (_rules(call_at=2), ["call_at"]),
    (_rules(call_penalty=6), ["call_penalty"]),
    (_rules(reshuffles=-1), ["reshuffles"]),
    (_rules(reshuffles=1001), ["reshuffles", "unlimited"]),
    (_rules(reshuffles="infinite"), ["reshuffles"]),
    (_rules(scale="hundredd"), ["scale", "crazy_eights"]),
    (_rules(scale={"base": "nope"}), ["scale.base"]),
    (_rules(scale={"8": 40}), ["scale"]),
    (_rules(scale={"base": "hundred", "9": -1}), ["scale.9"]),
    (_rules(scale={"base": "hundred", "Z": 1}), ["scale", "'Z'"]),
    (_rules(scale=(1, 2, 3)), ["scale"]),
    (_rules(scale=(True,) * 14), ["scale"]),
    (_rules(match="deals:0"), ["match", "best_of:N"]),
    (_rules(match="elimination:100001"), ["match"]),
    (_rules(match="best_of:1000"), ["match"]),
    (_rules(match="first_to:3"), ["match"]),
    (_rules(match=100), ["match"]),
    (_rules(eliminate_at="over"), ["eliminate_at"]),
    (_rules(players=7, hand_size=8, decks=1),
     ["hand_size = 8 with players = 7 needs 57 cards; the deck has 52 (decks = 1)"]),
    (_rules(players=10, hand_size=11), ["hand_size", "players", "decks = auto"]),
    (lambda: Rules().replace(drawlimit=1), ["'drawlimit'", "did you mean 'draw_limit'?"]),
    (lambda: Rules().replace(colour="red"), ["unknown field 'colour'", "draw_limit"]),
    (lambda: get_preset("kidz"), ["preset 'kidz'", "did you mean 'kids'?", "seed001-hundred"]),
    (lambda: resolve_rules("nope"), ["preset 'nope'"]),
    (lambda: parse_override("draw_limit"), ["'draw_limit'", "field=value"]),
    (lambda: parse_override(" =1"), ["override"]),
    (lambda: parse_override("drawlimit=1"), ["'drawlimit'"]),
    (lambda: resolve_rules(overrides=["draw_limit=9"]), ["draw_limit = 9"]),
    (lambda: resolve_rules(overrides=["decks=1", "players=8"]), ["hand_size", "players"]),
    (lambda: load_rules_text("draw_limit = ", "bad.toml"), ["bad.toml", "invalid TOML"]),
    (lambda: load_rules_text('preset = "nope"', "f.toml"), ["f.toml", "preset 'nope'"]),
    (lambda: load_rules_text("preset = 3", "f.toml"), ["f.toml", "preset = 3"]),
    (lambda: load_rules_text("[draw]\nlimit = 1", "f.toml"), ["f.toml", "field 'draw'"]),
    (lambda: load_rules_text("stacking = 1", "f.toml"), ["f.toml: stacking = 1"]),
]


@pytest.mark.parametrize("make, needles", MALFORMED)
def test_malformed_input(make, needles):
    with pytest.raises(RulesError) as info:
        make()
    message = str(info.value)
    assert isinstance(info.value, ValueError)
    assert message.startswith("rules: ") and "\n" not in message
    for needle in needles:
        assert needle in message
