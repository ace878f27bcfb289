"""``vandatta-sim rules``: the presets and fully resolved rules."""

from __future__ import annotations

import click

from ..rules import PRESET_NOTES, PRESETS
from .options import build_rules, changes_text, rules_options, usage_errors


@click.group("rules")
def rules_group():
    """List the presets and show fully resolved rules."""


@rules_group.command("list")
def rules_list():
    """The presets, each with its source and what it changes from standard."""
    for name, rules in PRESETS.items():
        changes = changes_text(rules.diff(PRESETS["standard"]))
        click.echo(f"{name:<22} {PRESET_NOTES.get(name, '')}")
        click.echo(f"{'':<22} {changes or '(the defaults)'}  key {rules.key()}")


@rules_group.command("show")
@click.argument("name", required=False)
@rules_options
@usage_errors()
def rules_show(name, preset, rules_file, overrides, players, match):
    """The fully resolved rules of preset NAME (with any --rules/--set applied), as TOML."""
    rules = build_rules(name or preset, rules_file, overrides, players, match)
    click.echo(f"# key {rules.key()}")
    click.echo(rules.to_toml().rstrip())
