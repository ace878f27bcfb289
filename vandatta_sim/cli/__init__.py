"""The ``vandatta-sim`` command line: a thin layer over the Python API.

Every bad input (unknown preset, field, policy, bad value, seed or count, unreadable file) is
turned into one ``Error:`` line and exit code 2 before any work starts or anything is written
(see :mod:`.errors`). One command (group) per module: :mod:`.rules`, :mod:`.simulate`,
:mod:`.play` (with :mod:`.human_play`, the session of ``play --human``, and :mod:`.human`, the
person's screen and prompts), :mod:`.sweep`, :mod:`.results`, :mod:`.bench`, :mod:`.value`,
:mod:`.design` and :mod:`.tune`. Shared by them: :mod:`.options` (every option, declared once),
:mod:`.paramtypes` (numbers in ASCII digits within limits), :mod:`.builders` (the rules, seats
and checked paths built from the options), :mod:`.errors` and :mod:`.interrupts` (Ctrl-C and
SIGTERM: one line, exit 128 + signal).

A command's module is imported only when that command runs (or ``--help`` lists them): the
engine (numba), pandas and the sweep take seconds to import, and ``--version`` or ``rules
list`` need none of them.
"""

from __future__ import annotations

import importlib
import shlex
import sys

from .interrupts import exit_quietly_on_signals, restore_signals, signals_raise_interrupt

# Until the command's module is imported (numpy, pandas, numba: seconds), a Ctrl-C or SIGTERM
# ends the process with one line: nothing has been written yet.
_quiet_while_importing = exit_quietly_on_signals()

import click  # noqa: E402

from .. import __version__  # noqa: E402
from .errors import OneLineErrorGroup  # noqa: E402

#: command name → (module in this package, command object's name), in the order of ``--help``
COMMANDS = {
    "rules": ("rules", "rules_group"),
    "simulate": ("simulate", "simulate_cmd"),
    "play": ("play", "play_cmd"),
    "sweep": ("sweep", "sweep_cmd"),
    "results": ("results", "results_group"),
    "bench": ("bench", "bench_cmd"),
    "value": ("value", "value_cmd"),
    "design": ("design", "design_cmd"),
    "tune": ("tune", "tune_cmd"),
}

#: Each command's one-line help for the top-level ``--help``, so that listing the commands
#: imports none of them (a test checks each line against the command's own docstring).
SHORT_HELP = {
    "rules": "List the presets and parameters, explain a parameter, show fully resolved rules.",
    "simulate": "Play GAMES games and print each seat's win rate with a 95% interval.",
    "play": "Narrate one game move by move (the same game as in `simulate` with this seed), "
            "or play it yourself with --human SEAT (--hints for a coach, --save FILE to keep "
            "it, --replay FILE to narrate it again).",
    "sweep": "Run a grid of configurations into the result store, resumably.",
    "results": "List, show, verify, export and remove the configurations in a result store.",
    "bench": "Deals per second for the presets, 2–5 players, random and expert, 1 and all "
             "threads; one seat of a policy among experts.",
    "value": "What one more card of RANK (default an eight) is worth, per scale and player "
             "count.",
    "design": "Search the free rule parameters of SPEC.toml for the rules that best meet its "
              "goals.",
    "tune": "Tune expert's weights for a rule set, table size and objective; store tuned:NAME.",
}


#: The arguments of the running command line (``main``'s, or sys.argv's), for the command
#: that stored runs and notes record.
_ARGS: list[str] = []


def command_line() -> str:
    """The running command as typed, quoted for a shell: what stored runs record and what a
    ``--summary`` note gives to reproduce its answer."""
    return shlex.join(["vandatta-sim", *_ARGS])


class LazyGroup(OneLineErrorGroup):
    """A group whose commands are imported when they are looked up (click's documented
    lazy-loading pattern); ``--help`` lists them from :data:`SHORT_HELP` without importing
    any (the engine, pandas and numpy would cost seconds and hundreds of MB)."""

    def main(self, args=None, *rest, **extra):
        _ARGS[:] = [str(a) for a in (sys.argv[1:] if args is None else args)]
        try:
            return super().main(args, *rest, **extra)
        finally:
            restore_signals()  # the handlers of signals_raise_interrupt (see get_command)

    def list_commands(self, ctx):
        return list(COMMANDS)

    def format_commands(self, ctx, formatter):
        limit = formatter.width - 6 - max(len(name) for name in COMMANDS)
        rows = []
        for name in COMMANDS:
            if name in SHORT_HELP:
                command = click.Command(name, help=SHORT_HELP[name])
            else:  # a command not listed there yet: import it (slower, never wrong)
                command = self.get_command(ctx, name)
            rows.append((name, command.get_short_help_str(limit)))
        with formatter.section("Commands"):
            formatter.write_dl(rows)

    def get_command(self, ctx, cmd_name):
        if cmd_name not in COMMANDS:
            return None
        module, attribute = COMMANDS[cmd_name]
        command = getattr(importlib.import_module(f".{module}", __name__), attribute)
        signals_raise_interrupt(replacing=_quiet_while_importing)  # SIGTERM is now like SIGINT
        return command


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="vandatta-sim")
def main():
    """Monte Carlo rules-variant analysis for the Swedish card game Vändåtta."""


__all__ = ["main"]
