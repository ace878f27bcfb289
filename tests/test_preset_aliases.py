"""Family names for the presets (issue 38): `familj` is `seed002` wherever a preset name is
taken (--preset, `rules show NAME`, a rules file's or sweep file's `preset =`), resolves to
the same rules, the same store keys, the same labels and the same output bytes; `rules list`
shows each beside its preset; an unknown preset is one line listing every preset with its
family names."""

from __future__ import annotations

from click.testing import CliRunner
from hypothesis import given
from hypothesis import strategies as st

from vandatta_sim.cli import main
from vandatta_sim.rules import (PRESET_ALIASES, PRESETS, RulesError, get_preset, load_rules_text,
                                preset_name, preset_title, resolve_rules)
from vandatta_sim.sweep import expand_grid, load_sweep_file

FIELDS = tuple(PRESETS["standard"].canonical())


def invoke(*args):
    return CliRunner().invoke(main, [str(a) for a in args], catch_exceptions=False)


def test_every_family_name_is_a_new_word_for_one_preset():
    for alias, name in PRESET_ALIASES.items():
        assert name in PRESETS and alias not in PRESETS and alias not in FIELDS
        assert alias.isascii() and alias == alias.lower() and " " not in alias  # typed as is
        assert preset_name(alias) == name and alias in preset_title(name)
    assert all(preset_name(name) == name for name in PRESETS)


def test_a_family_name_gives_the_same_rules_and_keys():
    for alias, name in PRESET_ALIASES.items():
        assert get_preset(alias) == get_preset(name)
        assert get_preset(alias).key() == get_preset(name).key()
        changed = resolve_rules(alias, overrides=["draw_limit=1", "players=3"])
        assert changed == resolve_rules(name, overrides=["draw_limit=1", "players=3"])
        assert load_rules_text(f'preset = "{alias}"\nstacking = true') == \
            get_preset(name).replace(stacking=True)


def test_a_sweep_of_a_family_name_is_the_sweep_of_its_preset(tmp_path):
    """Same configurations, store keys, labels, and the preset's own name recorded (the
    store's provenance names the preset from Config.preset), from the options and from a
    sweep file."""
    by_alias = expand_grid("familj", vary=["stacking=false,true"], players=[3])
    by_name = expand_grid("seed002", vary=["stacking=false,true"], players=[3])
    assert by_alias == by_name
    assert [c.key(1) for c in by_alias] == [c.key(1) for c in by_name]
    assert [c.label for c in by_alias] == [c.label for c in by_name]
    assert [c.preset for c in by_alias] == ["seed002", "seed002"]
    spec = tmp_path / "s.toml"
    spec.write_text('preset = ["familj", "barn"]\nplayers = [3]\nmatch = "single"\n')
    configs, _ = load_sweep_file(spec)
    assert [c.preset for c in configs] == ["seed002", "kids"]
    assert [c.rules for c in configs] == [get_preset(n).replace(players=3, match="single")
                                          for n in ("seed002", "kids")]


def test_the_commands_answer_a_family_name_byte_for_byte_as_its_preset():
    for args in (["rules", "show", "{}", "--set", "draw_limit=1"],
                 ["simulate", "--preset", "{}", "--match", "single", "--players", "3",
                  "--games", "200", "--seed", "5"]):
        alias = invoke(*(a.format("familj") for a in args))
        name = invoke(*(a.format("seed002") for a in args))
        assert alias.exit_code == name.exit_code == 0, alias.output
        assert alias.output == name.output


def test_a_preset_and_its_family_name_are_not_given_twice(tmp_path):
    rules = tmp_path / "ours.toml"
    rules.write_text('preset = "familj"\ndraw_limit = 1\n')
    assert invoke("rules", "show", "--preset", "seed002", "--rules", rules).exit_code == 0
    assert invoke("rules", "show", "familj", "--preset", "seed002").exit_code == 0
    other = invoke("rules", "show", "--preset", "kids", "--rules", rules)
    assert other.exit_code == 2 and "preset is given twice" in other.output


def test_rules_list_shows_each_family_name_beside_its_preset():
    lines = invoke("rules", "list").output.splitlines()
    for name in PRESETS:  # e.g. "seed002 (familj)   002 (most Swedish homes): …"
        assert sum(line.startswith(f"{preset_title(name)}  ") for line in lines) == 1, name
    assert all(f"({alias})" in preset_title(name) for alias, name in PRESET_ALIASES.items())


@given(st.text(max_size=40).filter(lambda t: t not in PRESETS and t not in PRESET_ALIASES))
def test_an_unknown_preset_is_one_line_listing_every_preset_and_family_name(name):
    try:
        get_preset(name)
    except RulesError as exc:
        message = str(exc)
    else:
        raise AssertionError(f"{name!r} was taken as a preset")
    assert "\n" not in message and "\r" not in message
    listing = message.split("known presets: ", 1)[1]
    for preset in PRESETS:
        assert preset_title(preset) in listing
    assert "rules list" in listing  # where each is described


def test_an_unknown_preset_on_the_command_line():
    done = invoke("simulate", "--preset", "famil", "--games", "10")
    assert done.exit_code == 2
    assert done.output.count("\n") == 1 and done.output.startswith("Error: ")
    assert "did you mean 'familj'?" in done.output and "seed002 (familj)" in done.output
