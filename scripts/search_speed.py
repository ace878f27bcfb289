"""Decisions per second of one seat among experts, per core: CPU seconds, not wall seconds, so
that a busy shared machine does not read low; specs alternated in one run (A/B).

    python scripts/search_speed.py SPEC[,SPEC...] [ROUNDS] [DEALS]
    python scripts/search_speed.py search:alloc=flat:beliefs=lacks,search 3 200

Each round plays DEALS deals of every spec on one thread (4 players, standard, single deals,
the spec at seat 0 among experts, as ``vandatta-sim bench --seat-only``) and times them with the
process's CPU clock; the seat's decisions are its turns, counted on 100 traced deals
(vandatta_sim.bench.seat_turns_per_deal). Prints per spec the median decisions per CPU second
over the rounds and its ratio to the first spec's, then a verdict on the issue's bar of 2,000
decisions per second per core.
"""

import sys
import time

import numpy as np

from vandatta_sim import bench
from vandatta_sim.experiments.designs import focal_policies
from vandatta_sim.simulate import simulate

BAR = 2000


def main() -> None:
    specs = sys.argv[1].split(",")
    rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 3
    deals = int(sys.argv[3]) if len(sys.argv) > 3 else 200
    rules = bench.SEAT_RULES
    turns = {s: bench.seat_turns_per_deal(rules, s) for s in specs}
    speeds = {s: [] for s in specs}
    for r in range(rounds):
        for spec in specs:
            seats = focal_policies(rules.players, 0, spec, bench.SEAT_OPPONENTS)
            start = time.process_time()
            simulate(rules, deals, seed=100 + r, policies=seats, threads=1)
            speeds[spec].append(deals * turns[spec] / (time.process_time() - start))
    first = float(np.median(speeds[specs[0]]))
    for spec in specs:
        med = float(np.median(speeds[spec]))
        print(f"{spec}: {med:,.0f} decisions per CPU second (rounds: "
              f"{', '.join(f'{v:,.0f}' for v in speeds[spec])}; {turns[spec]:.1f} turns of the "
              f"seat per deal); {med / first:.2f}x {specs[0]}", flush=True)
    fast = [s for s in specs if np.median(speeds[s]) >= BAR]
    print(f"Verdict: {', '.join(fast) if fast else 'none'} reach{'es' if len(fast) == 1 else ''}"
          f" the bar of {BAR:,} decisions per second per core.")


if __name__ == "__main__":
    main()
