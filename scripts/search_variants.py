"""Search variants paired on the same deals: one focal seat against a table of OPPONENT.

    python scripts/search_variants.py PLAYERS SPEC[,SPEC...] DEALS [OPPONENT] [PRESET] [SEED]
    python scripts/search_variants.py 4 search:beliefs=lacks:alloc=flat,search,search:beliefs=oracle 4000

Every spec plays the same deals (DEALS split evenly over the focal seats; seat s plays games
0 … DEALS/PLAYERS-1 of seed SEED + s, default 5, as scripts/one_seat_against.py), so that each
spec's difference from the first is paired deal by deal (common random numbers: the deals are
the same until the focal seat's play makes them differ). Prints each spec's win rate with a
Wilson 95% interval, its paired difference from the first spec with a 95% interval, and the
seconds it took on this machine, then a verdict.
"""

from __future__ import annotations

import sys
import time

import numpy as np

from vandatta_sim.experiments.designs import focal_outcomes
from vandatta_sim.experiments.runner import Runner
from vandatta_sim.rules import get_preset
from vandatta_sim.stats import paired_difference, proportion


def focal_wins(rules, spec: str, opponent: str, deals: int, seed: int,
               threads: int | None = None) -> np.ndarray:
    """1/0 per deal: the focal seat won, seat by seat (seat s on seed ``seed + s``, the
    package's one focal-seat design, played directly rather than stored)."""
    runner = Runner(use_sweep=False, threads=threads)
    outcomes = focal_outcomes(runner, rules, [spec], opponent, deals // rules.players, seed)
    return outcomes[spec]["win"].to_numpy(float)


def main() -> None:
    players, specs, deals = int(sys.argv[1]), sys.argv[2].split(","), int(sys.argv[3])
    opponent = sys.argv[4] if len(sys.argv) > 4 else "expert"
    rules = get_preset(sys.argv[5] if len(sys.argv) > 5 else "standard").replace(
        players=players, match="single")
    seed = int(sys.argv[6]) if len(sys.argv) > 6 else 5
    first = None
    better = []
    for spec in specs:
        start = time.perf_counter()
        wins = focal_wins(rules, spec, opponent, deals, seed)
        seconds = time.perf_counter() - start
        rate = proportion(int(wins.sum()), len(wins))
        line = (f"{spec} vs {opponent} {players}p: {100 * rate.value:.1f}% "
                f"[{100 * rate.low:.1f}, {100 * rate.high:.1f}] (n={len(wins)}, {seconds:.0f}s)")
        if first is None:
            first = wins
        else:
            d = paired_difference(wins, first)
            line += (f"  Δ vs {specs[0]}: {100 * d.value:+.1f} pp "
                     f"[{100 * d.low:+.1f}, {100 * d.high:+.1f}]")
            if d.low > 0:
                better.append(spec)
        print(line, flush=True)
    print("Verdict: " + (", ".join(better) + f" beat{'s' if len(better) == 1 else ''} "
                         f"{specs[0]} on the same deals (interval above 0)" if better else
                         f"no spec is shown better than {specs[0]} on these deals"))


if __name__ == "__main__":
    main()
