"""Our engine's speed against a fixed-rule C yardstick, measured in the same run:
`python scripts/c_yardstick.py [--rounds N] [--deals N] [--c-deals N]`.

The yardstick is ``scripts/yardstick/vandatta.c``: the `standard` preset's rules, 4 players,
single deals, every seat playing `random`, written in C from docs/spec.md and
docs/engine-rules.md with hands and the talon as 64-bit masks (legality by mask operations, a
draw is one random number and pdep/tzcnt). It is built here with ``gcc -O2 -march=native`` (or
``$CC``) into a temporary folder. Each round runs the C engine (``--c-deals`` deals) and then
our engine (``simulate()`` of `standard`, 4 players, single deals, `random`, one thread,
``--deals`` deals after an untimed warm-up call), each in a fresh process, so that the machine's
noise hits both alike. Both speeds are deals per second of the process's CPU time (C:
``CLOCK_PROCESS_CPUTIME_ID``; ours: ``time.process_time()``, as scripts/bench_ab.py). Prints
every round, the medians and the ratio ours/C.

Then the sanity check: the two engines' game statistics side by side with 95% intervals (mean
turns, plays and draws per deal, reshuffles per deal, the share of deals won by seat 0, who
moves first, and the shares blocked and capped), pooled over the rounds. The engines use
different random streams, so no single game is the same; only the distributions can agree,
and they should, within the intervals, if the C engine plays the same game (the last column,
the difference over its standard error, is then mostly within ±2).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SOURCE = ROOT / "scripts" / "yardstick" / "vandatta.c"

# our engine, in a fresh process: a warm-up call (compiles a cold cache), then the timed run;
# prints deals/s and the statistics of its table (stats_of)
CODE = r'''
import json, sys, time
sys.path.insert(0, "scripts")
from c_yardstick import stats_of, yardstick_rules
from vandatta_sim.simulate import simulate
deals, seed = int(sys.argv[1]), int(sys.argv[2])
simulate(yardstick_rules(), 2000, seed=0, policies="random", threads=1)
t = time.process_time()
df = simulate(yardstick_rules(), deals, seed=seed, policies="random", threads=1)
seconds = time.process_time() - t
print(json.dumps(dict(stats_of(df), deals_per_s=deals / seconds)))
'''
# the statistics compared: name, what it is, whether it is a share of deals
STATS = [("turns_mean", "turns per deal", False), ("plays_mean", "cards played per deal", False),
         ("draws_mean", "cards drawn per deal", False),
         ("reshuffles_mean", "reshuffles per deal", False),
         ("first_wins", "won by seat 0 (moves first)", True),
         ("blocked", "blocked", True), ("capped", "capped (turn cap)", True)]


def yardstick_rules():
    """The rules both engines play: `standard`, 4 players, single deals."""
    from vandatta_sim.rules import get_preset

    return get_preset("standard").replace(match="single", players=4)


def stats_of(df) -> dict:
    """The statistics of a ``simulate()`` table, named as the C yardstick prints them."""
    out = {"deals": len(df)}
    for name in ("turns", "plays", "draws", "reshuffles"):
        x = df[name].to_numpy(dtype=float)
        out[name + "_mean"], out[name + "_sd"] = float(x.mean()), float(x.std(ddof=1))
    out.update(first_wins=float((df["winner"] == 0).mean()),
               won=float((df["winner"] >= 0).mean()),
               blocked=float((df["blocked"] > 0).mean()), capped=float(df["capped"].mean()))
    return out


def build(folder: Path, defines: tuple[str, ...] = ()) -> Path:
    """The yardstick compiled into ``folder`` (``defines``: extra ``-D`` flags, e.g. the
    broken rule of the test's control); exits with one line if there is no C compiler."""
    cc = os.environ.get("CC") or shutil.which("gcc") or shutil.which("cc")
    if cc is None or shutil.which(cc) is None:
        sys.exit("Error: no C compiler found (install gcc, or set CC) to build the C yardstick")
    binary = folder / "vandatta"
    done = subprocess.run([cc, "-O2", "-march=native", *(f"-D{d}" for d in defines), "-o",
                           str(binary), str(SOURCE), "-lm"], capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(f"Error: {cc} could not build {SOURCE.name}:\n{done.stderr[-2000:]}")
    return binary


def run_c(binary: Path, deals: int, seed: int) -> dict:
    """One run of the C yardstick: its ``name value`` lines as a dict of floats."""
    done = subprocess.run([str(binary), str(deals), str(seed)], capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(f"Error: the C yardstick failed:\n{done.stderr[-2000:]}")
    return {k: float(v) for k, v in (line.split() for line in done.stdout.splitlines())}


def run_ours(deals: int, seed: int) -> dict:
    """One run of our engine in a fresh process, from this checkout."""
    env = dict(os.environ, PYTHONPATH=str(ROOT), NUMBA_CACHE_DIR=str(ROOT / ".numba_cache"))
    env.pop("VANDATTA_PLAIN_KERNEL", None)
    done = subprocess.run([sys.executable, "-c", CODE, str(deals), str(seed)], env=env,
                          capture_output=True, text=True, cwd=ROOT)
    if done.returncode != 0:
        sys.exit(f"Error: our engine's run failed:\n{done.stderr[-3000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def pooled(runs: list[dict]) -> dict:
    """The runs' statistics pooled (weighted by deals), each as (estimate, 95% half-width)."""
    n = sum(r["deals"] for r in runs)
    out = {}
    for name, _, share in STATS:
        mean = sum(r[name] * r["deals"] for r in runs) / n
        if share:
            var = mean * (1 - mean)
        else:  # the pooled variance: within the runs plus between their means
            sd = name.removesuffix("_mean") + "_sd"
            var = sum((r["deals"] - 1) * r[sd] ** 2 + r["deals"] * (r[name] - mean) ** 2
                      for r in runs) / max(n - 1, 1)
        out[name] = (mean, 1.96 * math.sqrt(var / n))
    return out


def z_scores(c_runs: list[dict], our_runs: list[dict]) -> dict:
    """Each statistic's difference ours - C over its standard error (None where both
    engines' shares are 0 or 1, so that there is no spread)."""
    c_stats, our_stats = pooled(c_runs), pooled(our_runs)
    out = {}
    for name, _, _ in STATS:
        (c, c_half), (o, o_half) = c_stats[name], our_stats[name]
        se = math.hypot(c_half, o_half) / 1.96
        out[name] = (o - c) / se if se > 0 else None
    return out


def fmt(value: float, half: float, share: bool) -> str:
    if share:
        return f"{100 * value:.2f}% ± {100 * half:.2f}"
    return f"{value:.3f} ± {half:.3f}"


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--deals", type=int, default=200_000, help="our engine's deals a round")
    parser.add_argument("--c-deals", type=int, default=1_000_000,
                        help="the C yardstick's deals a round")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="c-yardstick-") as folder:
        binary = build(Path(folder))
        rounds = f"{args.rounds} round" + ("s" if args.rounds != 1 else "")
        print(f"standard, 4 players, single deals, all seats random, one thread; {rounds} of "
              f"{args.c_deals:,} C deals and {args.deals:,} of ours (deals per CPU second)",
              flush=True)
        run_ours(1000, 0)  # untimed: compiles a cold cache
        c_runs, our_runs = [], []
        for r in range(args.rounds):
            c_runs.append(run_c(binary, args.c_deals, seed=r + 1))
            our_runs.append(run_ours(args.deals, seed=r + 1))
            print(f"round {r + 1}: C {c_runs[-1]['deals_per_s']:>10,.0f}  ours "
                  f"{our_runs[-1]['deals_per_s']:>10,.0f}  ratio "
                  f"{our_runs[-1]['deals_per_s'] / c_runs[-1]['deals_per_s']:.3f}", flush=True)
    c_median = statistics.median(r["deals_per_s"] for r in c_runs)
    our_median = statistics.median(r["deals_per_s"] for r in our_runs)
    print(f"medians of {args.rounds} alternating rounds: C {c_median:,.0f}, ours "
          f"{our_median:,.0f} deals/s; ratio ours/C {our_median / c_median:.3f}x")
    print("the games (pooled over the rounds; 95% intervals; different random streams, so only "
          "the distributions can agree):")
    c_stats, our_stats, z = pooled(c_runs), pooled(our_runs), z_scores(c_runs, our_runs)
    print(f"  {'':30s} {'C yardstick':>20s} {'ours':>20s}  z of the difference")
    for name, words, share in STATS:
        (c, c_half), (o, o_half) = c_stats[name], our_stats[name]
        note = f"{z[name]:+.2f}" if z[name] is not None else "(no spread: equal)" if c == o \
            else "(no spread)"
        print(f"  {words:30s} {fmt(c, c_half, share):>20s} {fmt(o, o_half, share):>20s}  {note}")


if __name__ == "__main__":
    main()
