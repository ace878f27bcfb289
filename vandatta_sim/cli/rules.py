"""``vandatta-sim rules``: the presets, the rule parameters and fully resolved rules."""

from __future__ import annotations

import click

from ..rules import PRESET_ALIASES, PRESET_NOTES, PRESETS, RulesError, preset_title, same_preset
from .builders import build_rules, changes_text, warn_inert
from .errors import usage_errors
from .options import rules_options


@click.group("rules")
def rules_group():
    """List the presets and parameters, explain a parameter, show fully resolved rules."""


@rules_group.command("list")
def rules_list():
    """The presets, each with its family names, its source and what it changes from standard."""
    titles = {name: preset_title(name) for name in PRESETS}
    width = max(map(len, titles.values())) + 2
    for name, rules in PRESETS.items():
        changes = changes_text(rules.diff(PRESETS["standard"]))
        click.echo(f"{titles[name]:<{width}}{PRESET_NOTES.get(name, '')}")
        click.echo(f"{'':<{width}}{changes or '(the defaults)'}  key {rules.key()}")
    alias, name = next(iter(PRESET_ALIASES.items()))
    click.echo(f"A name in brackets is another name of its preset: --preset {alias} is "
               f"--preset {name}.")


@rules_group.command("params")
def rules_params():
    """Every rule parameter: name, allowed values, default and what it decides."""
    from ..rulebook import PARAMETERS, show_value

    for p in PARAMETERS.values():
        click.echo(f"{p.name:<24} {p.allowed}; default {show_value(p.default)}: {p.summary}")


@rules_group.command("explain")
@click.argument("field")
@usage_errors()
def rules_explain(field):
    """Everything about rule parameter FIELD: values, default, presets, what it does."""
    from ..rulebook import INERT, explain, show_value

    p = explain(field)
    click.echo(f"{p.name}: {p.summary} ({p.section.lower()})")
    click.echo(f"values: {p.allowed}")
    click.echo(f"default: {show_value(p.default)}")
    changed = p.presets()
    click.echo(f"presets that change it: {'' if changed else 'none'}".rstrip())
    for k, v in changed.items():  # each with what it is, as in `rules list`
        click.echo(f"  {k} ({show_value(v)}): {PRESET_NOTES.get(k, '')}")
    for inert in INERT:
        if inert.name == p.name:
            click.echo(f"cannot change a game when {inert.reason}")
    click.echo("")
    click.echo(click.wrap_text(p.detail, width=88))


@rules_group.command("show")
@click.argument("name", required=False)
@rules_options
@usage_errors()
def rules_show(name, preset, rules_file, overrides, players, match):
    """The fully resolved rules of preset NAME (with any --rules/--set applied), as TOML."""
    if name is not None and preset is not None and not same_preset(name, preset):
        raise RulesError(f"preset is given twice ({name} and --preset {preset}); give it once")
    rules = build_rules(name or preset, rules_file, overrides, players, match)
    warn_inert(rules)
    click.echo(f"# key {rules.key()}")
    click.echo(rules.to_toml().rstrip())
