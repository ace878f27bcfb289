"""Every example file a command's --help names exists (``design --help`` named
``examples/design-fair-two-player.toml``, which never did)."""

from __future__ import annotations

import re
from pathlib import Path

import click
from click.testing import CliRunner

from vandatta_sim.cli import main

ROOT = Path(__file__).resolve().parents[1]


def _command_paths(group: click.Group, ctx: click.Context, prefix=()):
    for name in group.list_commands(ctx):
        command = group.get_command(ctx, name)
        yield (*prefix, name)
        if isinstance(command, click.Group):
            yield from _command_paths(command, click.Context(command, parent=ctx),
                                      (*prefix, name))


def test_every_example_a_help_text_names_exists():
    named = {}
    for path in _command_paths(main, click.Context(main)):
        result = CliRunner().invoke(main, [*path, "--help"])
        assert result.exit_code == 0, (path, result.output)
        for example in re.findall(r"examples/[\w./-]*\w", result.output):
            named[example] = path
    assert named, "no help text names an example"
    missing = {e: p for e, p in named.items() if not (ROOT / e).exists()}
    assert not missing, missing
