"""`vandatta-sim bench`: engine speed (deals per second by preset, players, policy and thread
count) and the sweep's overhead over the engine.

The focal-seat section times one seat of a given policy among ``expert``s (4 players,
``standard``, single deals): deals per second and that seat's decisions per second (its turns,
counted on traced games), the per-core cost of a slow player such as a search.

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
from collections.abc import Sequence
from pathlib import Path

import numba
import numpy as np

from .experiments.designs import focal_policies  # the one table of a focal seat
from .formatting import format_table
from .rules import PRESETS
from .simulate import check_policy, simulate, trace_game
from .sweep import DEFAULT_CHUNK_SIZE, Config, expand_grid, run_sweep

_START_SNIPPET = (
    "import time; t = time.perf_counter(); "
    "from vandatta_sim.rules import Rules; from vandatta_sim.simulate import simulate; "
    "simulate(Rules(match='single'), 10, seed=0); print(time.perf_counter() - t)"
)


def _start_time(env: dict) -> float:
    out = subprocess.run([sys.executable, "-c", _START_SNIPPET], env=env, check=True,
                         capture_output=True, text=True).stdout
    return float(out.strip().splitlines()[-1])


def start_times() -> tuple[float, float]:
    """Seconds to the first simulated game in a new process: (empty cache, warm cache)."""
    with tempfile.TemporaryDirectory() as cache:
        env = dict(os.environ, NUMBA_CACHE_DIR=cache)
        times = [_start_time(env) for _ in range(2)]
    return times[0], times[1]


def warm_start_time() -> float:
    """Seconds to the first simulated game in a new process with this checkout's numba cache
    (a first run fills the cache if it is empty; the second is timed)."""
    env = dict(os.environ)
    _start_time(env)
    return _start_time(env)


def deals_per_second(rules, games: int, policy, threads: int, repeats: int) -> float:
    """Median deals per second of ``repeats`` timed runs (``policy``: any seat spec)."""
    simulate(rules, 64, seed=0, policies=policy, threads=threads)  # warm up (compiled already)
    rates = []
    for r in range(repeats):
        t = time.perf_counter()
        simulate(rules, games, seed=r + 1, policies=policy, threads=threads)
        rates.append(games / (time.perf_counter() - t))
    return statistics.median(rates)


def run_bench(quick: bool = False, repeats: int = 3, sweep_overhead: bool = False, echo=print,
              cold: bool | None = None, seat_policies: Sequence[str] | None = None,
              seat_only: bool = False):
    """Print the benchmark. ``cold``: also time a start with an empty numba cache (a full
    compile, minutes on 2 cores); by default only without ``quick``. ``seat_policies``: the
    specs of the focal-seat section (:func:`seat_section`, default :data:`SEAT_POLICIES`);
    ``seat_only``: that section alone."""
    if seat_policies is None:
        seat_policies = SEAT_POLICIES
    all_threads = numba.config.NUMBA_NUM_THREADS
    echo(f"vandatta-sim bench: {os.cpu_count()} CPUs, numba {numba.__version__}, "
         f"threads 1 and {all_threads}, median of {repeats} repeats")
    if seat_only:
        echo("\n" + seat_section(seat_policies, quick=quick, repeats=repeats))
        return
    if cold is None:
        cold = not quick
    if cold:
        cold_s, warm_s = start_times()
        echo(f"start to first game: {cold_s:.1f} s with an empty numba cache (compile), "
             f"{warm_s:.2f} s with the cache")
    else:
        echo(f"start to first game: {warm_start_time():.2f} s with the cache "
             "(compile time not measured: --cold)")

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

    if seat_policies:
        echo("\n" + seat_section(seat_policies, quick=quick, repeats=repeats))
    if sweep_overhead:
        echo("\n" + measure_overhead(quick=quick))


# --- one seat of a policy among experts ----------------------------------------------------------

#: The specs the focal-seat section measures by default (``bench --seat-policy``): the search
#: players' specs belong here, the slowest and the ones whose speed budget matters.
SEAT_POLICIES = ("expert", "search", "ismcts")
#: The focal seat's table: 4 players, standard rules, single deals, every other seat expert.
SEAT_RULES = PRESETS["standard"].replace(match="single", players=4)
SEAT_OPPONENTS = "expert"


def seat_turns_per_deal(rules, spec: str, games: int = 100, seed: int = 1, seat: int = 0,
                        others: str = SEAT_OPPONENTS) -> float:
    """Mean turns of ``seat`` (playing ``spec`` among ``others``) per game, counted on the
    traces of games ``0 … games-1`` of ``seed``: the decisions the seat's policy makes."""
    from .trace import Event

    seats = focal_policies(rules.players, seat, check_policy(spec), others)
    turns = 0
    for game in range(games):
        events = trace_game(rules, seed, game, policies=seats)
        turns += int(np.count_nonzero((events[:, 0] == Event.TURN) & (events[:, 1] == seat)))
    return turns / games


def games_for_seconds(rules, seats, seconds: float, least: int = 16, most: int = 200_000) -> int:
    """Games that take about ``seconds`` on all threads, from timed pilots that grow fourfold
    from ``least`` games until one takes a tenth of that (so a slow player gets fewer games
    per repeat, a fast one enough to time above the threads' start-up cost)."""
    games = least
    simulate(rules, games, seed=0, policies=seats)  # compile/warm what this spec needs
    while True:
        t = time.perf_counter()
        simulate(rules, games, seed=0, policies=seats)
        elapsed = max(time.perf_counter() - t, 1e-6)
        if elapsed >= seconds / 10 or games >= most:
            break
        games *= 4
    return int(min(max(games / elapsed * seconds, least), most))


def seat_speed(rules, spec: str, threads: Sequence[int], repeats: int = 3, seconds: float = 1.0,
               turn_games: int = 100, seat: int = 0) -> dict:
    """Speed of one seat of ``spec`` among experts: ``games`` per timed repeat,
    ``turns_per_deal`` of the seat, and per thread count ``deals_per_s`` and
    ``decisions_per_s`` (= deals/s × the seat's turns per deal), medians of ``repeats``."""
    seats = focal_policies(rules.players, seat, check_policy(spec), SEAT_OPPONENTS)
    games = games_for_seconds(rules, seats, seconds)
    turns = seat_turns_per_deal(rules, spec, turn_games, seat=seat)
    deals = {t: deals_per_second(rules, games, seats, t, repeats) for t in threads}
    return {"spec": check_policy(spec), "games": games, "turns_per_deal": turns,
            "deals_per_s": deals, "decisions_per_s": {t: r * turns for t, r in deals.items()}}


def seat_section(specs: Sequence[str], quick: bool = False, repeats: int = 3,
                 rules=SEAT_RULES) -> str:
    """The focal-seat benchmark as text: one row per spec, 1 and all threads, the scaling
    (all threads / one) taken within the run."""
    all_threads = numba.config.NUMBA_NUM_THREADS
    threads = sorted({1, all_threads})
    rows = []
    for spec in specs:
        f = seat_speed(rules, spec, threads, repeats, seconds=0.2 if quick else 2.0,
                       turn_games=20 if quick else 200)
        rows.append([f["spec"], f"{f['games']:,}", f"{f['turns_per_deal']:.1f}"]
                    + [f"{f['deals_per_s'][t]:,.0f}" for t in threads]
                    + [f"{f['decisions_per_s'][t]:,.0f}" for t in threads]
                    + [f"{f['deals_per_s'][threads[-1]] / f['deals_per_s'][1]:.2f}x"])
    header = (["seat policy", "games/repeat", "its turns/deal"]
              + [f"{t} thr deals/s" for t in threads]
              + [f"{t} thr decisions/s" for t in threads] + ["scaling"])
    return (f"one seat among {SEAT_OPPONENTS}s: {rules.players} players, standard, single deals "
            f"(decisions = that seat's turns; median of {repeats})\n"
            + format_table(header, rows, style="text"))


# --- sweep overhead ------------------------------------------------------------------------------


def bench_configs(single_deals: bool = False) -> list[Config]:
    """The four configurations of the overhead benchmark, shaped like the issue's example
    sweep: the standard preset (its elimination:100 matches), expert players, stacking off/on
    × 3 and 4 players. ``single_deals``: the same as single deals, the worst case for the
    overhead (the engine plays a game ~10× faster, the storage cost per game is the same)."""
    return expand_grid("standard", overrides=["match=single"] if single_deals else (),
                       vary=["stacking=false,true"], players=[3, 4], policies=["all=expert"])


def overhead_figures(games: int = 10_000_000, configs: Sequence[Config] | None = None,
                     chunk_size: int = DEFAULT_CHUNK_SIZE, threads: int | None = None,
                     seed: int = 12345, store=None, single_deals: bool = False,
                     warm_games: int = 2_000) -> dict:
    """Time the engine alone and the sweep with storage on the same games, in one run.

    ``games`` in total, split evenly over ``configs`` (default :func:`bench_configs`). For each
    configuration in turn, the engine figure is ``simulate`` over its chunks with the results
    discarded, and the sweep figure is :func:`run_sweep` of that configuration into an empty
    store (a temporary folder unless ``store`` is given), provenance and summary included.
    Alternating the two per configuration keeps drifting machine load from favouring either.
    ``overhead`` = sweep time / engine time − 1 (wall clock); ``cpu_overhead`` is the same
    ratio of this process's CPU time (all threads), which other programs' load hardly moves:
    on a busy machine it is the steadier figure of the work the sweep adds. A warm-up sweep of
    ``warm_games`` a configuration goes first, untimed."""
    import shutil

    configs = list(configs or bench_configs(single_deals))
    per_config = max(1, games // len(configs))
    folder = Path(store) if store is not None else Path(tempfile.mkdtemp(prefix="vandatta-bench-"))
    try:
        # warm up: the engine's cache, pyarrow's writer and the store's folders
        run_sweep(configs, games=warm_games, seed=seed + 1, chunk_size=1_000,
                  store=folder / "warm", threads=threads, progress=False,
                  command="overhead warm-up")
        engine = sweep = engine_cpu = sweep_cpu = 0.0
        for config in configs:
            start, cpu = time.perf_counter(), time.process_time()
            for c in range(-(-per_config // chunk_size)):
                simulate(config.rules, min(chunk_size, per_config - c * chunk_size), seed=seed,
                         policies=config.seats, first_game=c * chunk_size, threads=threads,
                         swap=config.swap, swap_seat=config.swap_seat)
            engine += time.perf_counter() - start
            engine_cpu += time.process_time() - cpu
            start, cpu = time.perf_counter(), time.process_time()
            run_sweep([config], games=per_config, seed=seed, chunk_size=chunk_size,
                      store=folder / "sweep", threads=threads, progress=False,
                      command="overhead benchmark")
            sweep += time.perf_counter() - start
            sweep_cpu += time.process_time() - cpu
    finally:
        if store is None:
            shutil.rmtree(folder, ignore_errors=True)
    total = per_config * len(configs)
    return {"games": total, "configs": len(configs), "chunk_size": chunk_size,
            "engine_seconds": engine, "sweep_seconds": sweep,
            "engine_rate": total / engine, "sweep_rate": total / sweep,
            "overhead": sweep / engine - 1, "engine_cpu_seconds": engine_cpu,
            "sweep_cpu_seconds": sweep_cpu, "cpu_overhead": sweep_cpu / engine_cpu - 1}


def measure_overhead(games: int | None = None, quick: bool = False, **kwargs) -> str:
    """:func:`overhead_figures` as one line of text (``quick``: 1 million games instead of
    10 million; ``single_deals=True`` for the worst case)."""
    if games is None:
        games = 1_000_000 if quick else 10_000_000
    f = overhead_figures(games, **kwargs)
    what = "single deals" if kwargs.get("single_deals") else "games"
    return (f"sweep overhead: {f['games']:,} {what} over {f['configs']} configurations in "
            f"chunks of {f['chunk_size']:,}: engine alone {f['engine_seconds']:.1f} s "
            f"({f['engine_rate']:,.0f}/s), sweep with storage {f['sweep_seconds']:.1f} s "
            f"({f['sweep_rate']:,.0f}/s): overhead {100 * f['overhead']:+.1f}% wall clock, "
            f"{100 * f['cpu_overhead']:+.1f}% CPU time (target ≤ 15%)")
