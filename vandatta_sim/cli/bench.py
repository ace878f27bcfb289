"""``vandatta-sim bench``: the speed benchmark's command."""

from __future__ import annotations

import click


@click.command("bench")
@click.option("--quick", is_flag=True, help="Fewer games and variants (a smoke test).")
@click.option("--repeats", type=click.IntRange(1, 50), default=3, show_default=True,
              help="Timed repeats; the median is reported.")
@click.option("--sweep-overhead/--no-sweep-overhead", default=False,
              help="Also measure sweep orchestration and storage overhead.")
@click.option("--cold/--no-cold", default=None,
              help="Time a start with an empty numba cache (a full compile, minutes); "
                   "default: on, off with --quick.")
def bench_cmd(quick, repeats, sweep_overhead, cold):
    """Deals per second for the presets, 2–5 players, random and expert, 1 and all threads."""
    from ..bench import run_bench

    run_bench(quick=quick, repeats=repeats, sweep_overhead=sweep_overhead, echo=click.echo,
              cold=cold)
