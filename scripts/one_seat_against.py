"""One seat of a policy against a table of another, seat rotated (default: standard, single deals).

    python scripts/one_seat_against.py PLAYERS SPEC[,SPEC...] GAMES [OPPONENT] [PRESET] [MATCH]
    python scripts/one_seat_against.py 4 search:budget=8,search,search:budget=128 2000
    python scripts/one_seat_against.py 4 search,search:objective=match 800 expert standard \
        elimination:100

Prints the focal seat's win rate (of deals, or of matches with MATCH) with a normal 95%
half-width (GAMES split evenly over the seats, seed 5 + seat). The closing notes quote it for
the search player's budget curve.
"""

import sys
import time

import numpy as np

from vandatta_sim.experiments.designs import focal_outcomes
from vandatta_sim.experiments.runner import Runner
from vandatta_sim.rules import get_preset


def main() -> None:
    players, specs, deals = int(sys.argv[1]), sys.argv[2].split(","), int(sys.argv[3])
    opponent = sys.argv[4] if len(sys.argv) > 4 else "expert"
    rules = get_preset(sys.argv[5] if len(sys.argv) > 5 else "standard").replace(
        players=players, match=sys.argv[6] if len(sys.argv) > 6 else "single")
    for spec in specs:
        start = time.perf_counter()
        # seat s focal on seed 5 + s: the package's one focal-seat design, played directly
        outcomes = focal_outcomes(Runner(use_sweep=False), rules, [spec], opponent,
                                  deals // players, 5)
        wins, total = int(outcomes[spec]["win"].sum()), len(outcomes[spec])
        p = wins / total
        print(f"{spec} vs {opponent} {players}p: {100 * p:.1f}% ± "
              f"{196 * np.sqrt(p * (1 - p) / total):.1f} (n={total}, "
              f"{time.perf_counter() - start:.0f}s)", flush=True)


if __name__ == "__main__":
    main()
