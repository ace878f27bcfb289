"""A/B speed of two engines, alternated round by round in fresh processes (the machine's noise
hits both alike): `python scripts/bench_ab.py [--rounds N] [--deals N] [--preset NAME] A B`
(`make bench-ab`).

A and B are checkout folders or git commits; a commit's tree is exported (``git archive``) into
``.bench-ab/COMMIT/`` of this checkout, so any commit works, before or after the engine became a
package. Each tree is imported through PYTHONPATH with its own NUMBA_CACHE_DIR
(TREE/.numba_cache): an untimed first run of each compiles it where its cache is cold (minutes
on 2 cores). Each round runs A then B, each in a fresh process: deals/s of ``--preset``'s rules
(default `standard`, whose heuristic runs get a kernel with the rules as constants; another
preset times the general kernel, which all other rules and every search seat's playouts run), 4
players, single deals, 1 thread, through `simulate()` for `random` and `expert` (``--deals``
each), and the decisions/s of one `search` seat (default budget) among three `expert`s
(``--search-deals`` deals; decisions = that seat's turns, counted on traced games, which are
the same games in A and B unless the engine changed them). Prints every round, the medians and
the ratios B/A. A tree without the search player reports it as n/a.

Speeds are per second of the process's CPU time: with one engine thread that is the engine's
own work (the main thread plays the games), whereas wall time on a shared machine mostly
measures the other users (at a load of 13 on 2 cores, 100,000 `random` deals took 4.6 s of wall
time and 0.38 s of CPU). On an idle machine the two agree.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

CODE = r'''
import json, sys, time
from vandatta_sim.rules import get_preset
from vandatta_sim.simulate import simulate, trace_game
from vandatta_sim.trace import Event
deals, search_deals = int(sys.argv[1]), int(sys.argv[2])
r = get_preset(sys.argv[3]).replace(match="single", players=4)
out = {}
for pol in ("random", "expert"):
    simulate(r, 2000, seed=0, policies=pol, threads=1)
    t = time.process_time()
    simulate(r, deals, seed=1, policies=pol, threads=1)
    out[pol] = deals / (time.process_time() - t)
try:  # the sweeps' kernel: expert's games with the game feel recorded
    simulate(r, 2000, seed=0, policies="expert", threads=1, feel=True)
except TypeError:
    out["feel"] = None  # a tree before the game feel
else:
    t = time.process_time()
    simulate(r, deals, seed=1, policies="expert", threads=1, feel=True)
    out["feel"] = deals / (time.process_time() - t)
seats = ["search", "expert", "expert", "expert"]
try:
    simulate(r, 2, seed=0, policies=seats, threads=1)
except Exception:
    out["search"] = None  # a tree before the search player
else:
    t = time.process_time()
    simulate(r, search_deals, seed=2, policies=seats, threads=1)
    seconds = time.process_time() - t
    turns = 0
    for g in range(min(search_deals, 20)):
        rows = trace_game(r, seed=2, game=g, policies=seats)
        turns += int(((rows[:, 0] == int(Event.TURN)) & (rows[:, 1] == 0)).sum())  # seat 0's turns
    out["search"] = turns / min(search_deals, 20) * search_deals / seconds
print(json.dumps(out))
'''
MEASURES = {"random": "deals/CPU-s", "expert": "deals/CPU-s", "feel": "deals/CPU-s",
            "search": "decisions/CPU-s"}
# a tree without a measure's kernel is compared on the kernel it has: the game feel's kernel
# (what sweeps run) against the plain `expert` one it records beside
STAND_IN = {"feel": "expert"}
ROOT = Path(__file__).resolve().parent.parent


def tree_of(spec: str) -> Path:
    """A checkout folder as given, or a commit's tree exported into .bench-ab/COMMIT/."""
    if Path(spec).is_dir():
        return Path(spec).resolve()
    commit = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--verify", f"{spec}^{{commit}}"],
                            capture_output=True, text=True)
    if commit.returncode != 0:
        sys.exit(f"Error: tree {spec!r} is neither a folder nor a git commit")
    tree = ROOT / ".bench-ab" / commit.stdout.strip()[:12]
    if not (tree / "vandatta_sim").is_dir():
        tree.mkdir(parents=True, exist_ok=True)
        archive = subprocess.Popen(["git", "-C", str(ROOT), "archive", commit.stdout.strip()],
                                   stdout=subprocess.PIPE)
        subprocess.run(["tar", "-x", "-C", str(tree)], stdin=archive.stdout, check=True)
        archive.wait()
    return tree


def run(tree: Path, deals: int, search_deals: int, preset: str) -> dict:
    env = dict(os.environ, PYTHONPATH=str(tree), NUMBA_CACHE_DIR=str(tree / ".numba_cache"))
    env.pop("VANDATTA_PLAIN_KERNEL", None)
    done = subprocess.run([sys.executable, "-c", CODE, str(deals), str(search_deals), preset],
                          env=env, capture_output=True, text=True, cwd=tree)
    if done.returncode != 0:
        sys.exit(f"Error: the run in {tree} failed:\n{done.stderr[-3000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("a", help="base: a checkout folder or a git commit")
    parser.add_argument("b", help="candidate: a checkout folder or a git commit")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--deals", type=int, default=200_000)
    parser.add_argument("--search-deals", type=int, default=200)
    parser.add_argument("--preset", default="standard",
                        help="the rules (a preset name; default: standard)")
    args = parser.parse_args(argv)
    trees = {"A": tree_of(args.a), "B": tree_of(args.b)}
    print(f"A = {args.a} ({trees['A']}), B = {args.b} ({trees['B']}); {args.preset}, "
          f"{args.rounds} rounds, {args.deals:,} deals per heuristic policy, "
          f"{args.search_deals} with a search seat", flush=True)
    for name, tree in trees.items():  # untimed: compiles a cold cache
        run(tree, 1000, 2, args.preset)
    results = {name: {m: [] for m in MEASURES} for name in trees}
    for r in range(args.rounds):
        for name, tree in trees.items():
            for measure, value in run(tree, args.deals, args.search_deals, args.preset).items():
                results[name][measure].append(value)
        print(f"round {r + 1}: " + "; ".join(
            f"{m} " + " / ".join("n/a" if results[n][m][-1] is None else
                                 f"{results[n][m][-1]:,.0f}" for n in trees)
            for m in MEASURES), flush=True)
    print(f"medians of {args.rounds} alternating rounds (A / B, ratio B/A):")
    for measure, unit in MEASURES.items():
        medians = {}
        for name in trees:
            values = results[name][measure]
            medians[name] = None if None in values else statistics.median(values)
        note = ""
        if medians["A"] is None and medians["B"] is not None and measure in STAND_IN:
            medians["A"] = statistics.median(results["A"][STAND_IN[measure]])
            note = f" (A: its {STAND_IN[measure]} kernel)"
        if None in medians.values():
            print(f"  {measure:7s} n/a (a tree without this player or kernel)")
            continue
        ratio = medians["B"] / medians["A"]
        print(f"  {measure:7s} {medians['A']:>10,.0f} / {medians['B']:>10,.0f} {unit:16s} "
              f"{ratio:.3f}x{note}")


if __name__ == "__main__":
    main()
