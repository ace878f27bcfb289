"""The ``vandatta-sim`` command line: a thin layer over the Python API.

Every bad input (unknown preset, field, policy, bad value, seed or count, unreadable file) is
turned into one ``Error:`` line and exit code 2 before any work starts or anything is written
(see :mod:`vandatta_sim.cli.options`). One command group per module: ``rules``, ``simulate``,
``play``, ``sweep``, ``results`` and ``bench``.
"""

from __future__ import annotations

import click

from .. import __version__
from .bench import bench_cmd
from .options import OneLineErrorGroup
from .play import play_cmd
from .results import results_group
from .rules import rules_group
from .simulate import simulate_cmd
from .sweep import sweep_cmd


@click.group(cls=OneLineErrorGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="vandatta-sim")
def main():
    """Monte Carlo rules-variant analysis for the Swedish card game Vändåtta."""


for _command in (rules_group, simulate_cmd, play_cmd, sweep_cmd, results_group, bench_cmd):
    main.add_command(_command)

__all__ = ["main"]
