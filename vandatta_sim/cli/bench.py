"""``vandatta-sim bench``: the speed benchmark's command."""

from __future__ import annotations

import click

from .errors import usage_errors
from .paramtypes import CountType


@click.command("bench")
@click.option("--quick", is_flag=True, help="Fewer games and variants (a smoke test).")
@click.option("--repeats", type=CountType("repeats", 1, 50, "50"), default=3, show_default=True,
              help="Timed repeats; the median is reported.")
@click.option("--sweep-overhead/--no-sweep-overhead", default=False,
              help="Also measure sweep orchestration and storage overhead.")
@click.option("--cold/--no-cold", default=None,
              help="Time a start with an empty numba cache (a full compile, minutes); "
                   "default: on, off with --quick.")
@click.option("--seat-policy", "seat_policies", multiple=True, metavar="SPEC",
              help="Policy of the one seat timed among experts (4 players, standard, single "
                   "deals): deals/s and its decisions/s (repeatable; default: the specs in "
                   "bench.SEAT_POLICIES).")
@click.option("--seat-only", is_flag=True,
              help="Only the one-seat section (no engine table, no start time).")
def bench_cmd(quick, repeats, sweep_overhead, cold, seat_policies, seat_only):
    """Deals per second for the presets, 2–5 players, random and expert, 1 and all threads;
    one seat of a policy among experts."""
    from ..bench import SEAT_POLICIES, run_bench
    from ..simulate import check_policy

    if seat_only:  # an option the one-seat section ignores is an error, not a silent no-op
        ignored = [flag for flag, given in (("--cold", cold), ("--sweep-overhead", sweep_overhead))
                   if given]
        if ignored:
            raise click.UsageError(f"--seat-only times the one seat only; {' and '.join(ignored)} "
                                   "would change nothing: leave it out or drop --seat-only")
    with usage_errors():
        specs = [check_policy(spec) for spec in seat_policies or SEAT_POLICIES]
    run_bench(quick=quick, repeats=repeats, sweep_overhead=sweep_overhead, echo=click.echo,
              cold=cold, seat_policies=specs, seat_only=seat_only)
