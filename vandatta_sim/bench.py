"""`vandatta-sim bench`: deals per second by preset, players, policy and thread count.

Speed is measured here, never asserted in tests. Machines are noisy, so every figure is the
median of several timed repeats, and comparisons (threads, variants) are ratios taken within
one run. Compile time is measured in fresh subprocesses: one with an empty numba cache (the
first call on a new machine) and one with the cache just written (every later start).
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time

import numba

from .rules import PRESETS
from .simulate import simulate

_START_SNIPPET = (
    "import time; t = time.perf_counter(); "
    "from vandatta_sim.rules import Rules; from vandatta_sim.simulate import simulate; "
    "simulate(Rules(match='single'), 10, seed=0); print(time.perf_counter() - t)"
)


def start_times() -> tuple[float, float]:
    """Seconds to the first simulated game in a new process: (empty cache, warm cache)."""
    with tempfile.TemporaryDirectory() as cache:
        env = dict(os.environ, NUMBA_CACHE_DIR=cache)
        times = []
        for _ in range(2):
            out = subprocess.run([sys.executable, "-c", _START_SNIPPET], env=env, check=True,
                                 capture_output=True, text=True).stdout
            times.append(float(out.strip().splitlines()[-1]))
    return times[0], times[1]


def deals_per_second(rules, games: int, policy: str, threads: int, repeats: int) -> float:
    simulate(rules, 64, seed=0, policies=policy, threads=threads)  # warm up (compiled already)
    rates = []
    for r in range(repeats):
        t = time.perf_counter()
        simulate(rules, games, seed=r + 1, policies=policy, threads=threads)
        rates.append(games / (time.perf_counter() - t))
    return statistics.median(rates)


def run_bench(quick: bool = False, repeats: int = 3, sweep_overhead: bool = False, echo=print):
    all_threads = numba.config.NUMBA_NUM_THREADS
    echo(f"vandatta-sim bench: {os.cpu_count()} CPUs, numba {numba.__version__}, "
         f"threads 1 and {all_threads}, median of {repeats} repeats")
    cold, warm = start_times()
    echo(f"start to first game: {cold:.1f} s with an empty numba cache (compile), "
         f"{warm:.2f} s with the cache")

    games = 20_000 if quick else 200_000
    presets = ["standard"] if quick else list(PRESETS)
    players_list = [4] if quick else [2, 3, 4, 5]
    thread_counts = sorted({1, all_threads})
    header = f"{'preset':<22}{'players':>8}{'policy':>9}" + "".join(
        f"{f'{t} thr deals/s':>16}" for t in thread_counts) + f"{'scaling':>9}"
    echo("\nsingle deals\n" + header)
    for name in presets:
        rules = PRESETS[name].replace(match="single")
        for players in players_list:
            r = rules.replace(players=players)
            for policy in ("random", "expert"):
                rates = [deals_per_second(r, games, policy, t, repeats) for t in thread_counts]
                scaling = rates[-1] / rates[0]
                echo(f"{name:<22}{players:>8}{policy:>9}" + "".join(
                    f"{rate:>16,.0f}" for rate in rates) + f"{scaling:>8.2f}x")
    base = PRESETS["standard"].replace(match="single")
    headline = max(repeats, 7)  # the target figure gets more repeats: shared machines are noisy
    one = deals_per_second(base, games, "random", 1, headline)
    echo(f"\nstandard, 4 players, random, 1 thread: {one:,.0f} deals/s per core "
         f"(median of {headline})")
    if all_threads > 1:
        many = deals_per_second(base, games, "random", all_threads, headline)
        echo(f"standard, 4 players, random, {all_threads} threads: {many:,.0f} deals/s "
             f"({many / one:.2f}x one thread)")

    if sweep_overhead:
        from .sweep import measure_overhead

        echo("\n" + measure_overhead(quick=quick))
