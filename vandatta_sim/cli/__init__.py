"""The ``vandatta-sim`` command line: a thin layer over the Python API.

Every bad input (unknown preset, field, policy, bad value, seed or count, unreadable file) is
turned into one ``Error:`` line and exit code 2 before any work starts or anything is written
(see :mod:`vandatta_sim.cli.options`). One command group per module: ``rules``, ``simulate``,
``play``, ``sweep``, ``results`` and ``bench``.
"""

from __future__ import annotations

from .interrupts import exit_quietly_on_signals

# Before the heavy imports below (seconds): a Ctrl-C then ends with one line, not a traceback.
_quiet_while_importing = exit_quietly_on_signals()

import click  # noqa: E402

from .. import __version__  # noqa: E402
from .bench import bench_cmd  # noqa: E402
from .options import OneLineErrorGroup  # noqa: E402
from .play import play_cmd  # noqa: E402
from .results import results_group  # noqa: E402
from .rules import rules_group  # noqa: E402
from .simulate import simulate_cmd  # noqa: E402
from .sweep import sweep_cmd  # noqa: E402

_quiet_while_importing.restore()


@click.group(cls=OneLineErrorGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="vandatta-sim")
def main():
    """Monte Carlo rules-variant analysis for the Swedish card game Vändåtta."""


for _command in (rules_group, simulate_cmd, play_cmd, sweep_cmd, results_group, bench_cmd):
    main.add_command(_command)

__all__ = ["main"]
