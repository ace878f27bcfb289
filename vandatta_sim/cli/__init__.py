"""The ``vandatta-sim`` command line: a thin layer over the Python API.

Every bad input (unknown preset, field, policy, bad value, seed or count, unreadable file) is
turned into one ``Error:`` line and exit code 2 before any work starts or anything is written
(see :mod:`vandatta_sim.cli.errors`). One command group per module: ``rules``, ``simulate``,
``play``, ``sweep``, ``results``, ``bench``, ``value`` and ``design``.

A command's module is imported only when that command runs (or ``--help`` lists them): the
engine (numba), pandas and the sweep take seconds to import, and ``--version`` or ``rules
list`` need none of them.
"""

from __future__ import annotations

import importlib

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
}


class LazyGroup(OneLineErrorGroup):
    """A group whose commands are imported when they are looked up (click's documented
    lazy-loading pattern)."""

    def list_commands(self, ctx):
        return list(COMMANDS)

    def get_command(self, ctx, cmd_name):
        if cmd_name not in COMMANDS:
            return None
        module, attribute = COMMANDS[cmd_name]
        command = getattr(importlib.import_module(f".{module}", __name__), attribute)
        _quiet_while_importing.restore()
        signals_raise_interrupt()  # from here on SIGTERM is handled like SIGINT
        return command

    def main(self, *args, **kwargs):
        try:
            return super().main(*args, **kwargs)
        finally:
            restore_signals()


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="vandatta-sim")
def main():
    """Monte Carlo rules-variant analysis for the Swedish card game Vändåtta."""


__all__ = ["main"]
