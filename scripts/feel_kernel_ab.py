"""The game feel's kernel under a preset: compiled with the preset's rules frozen as constants
(as it was) against the general kernel every rules share (as it is), in one process.

    python scripts/feel_kernel_ab.py [DEALS] [ROUNDS] [PRESET]
    python scripts/feel_kernel_ab.py 200000 5 standard

`expert` at every seat, 4 players, single deals, one thread; both kernels compile first (minutes
each on a cold cache), then ROUNDS rounds alternate them, timed with the process's CPU clock.
Prints each round's deals per CPU second, the medians and the ratio general/frozen
(docs/speed.md quotes it): what one feel kernel for all rules costs a preset's sweeps with
`--feel`, against the compile it saves.
"""

import statistics
import sys
import time

from vandatta_sim import simulate as S
from vandatta_sim.rules import get_preset


def main() -> None:
    deals = int(sys.argv[1]) if len(sys.argv) > 1 else 200_000
    rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 5
    rules = get_preset(sys.argv[3] if len(sys.argv) > 3 else "standard").replace(
        match="single", players=4)
    general = S.frozen_rules

    def frozen(C, lean, feel=False):  # the preset's rules frozen, as for the lean kernel
        return general(C, lean)

    kernels = {"frozen": frozen, "general": general}
    speeds = {name: [] for name in kernels}
    for choice in kernels.values():  # compile (or load) both before timing
        S.frozen_rules = choice
        S.simulate(rules, 2000, seed=0, policies="expert", threads=1, feel=True)
    for _ in range(rounds):
        for name, choice in kernels.items():
            S.frozen_rules = choice
            start = time.process_time()
            S.simulate(rules, deals, seed=1, policies="expert", threads=1, feel=True)
            speeds[name].append(deals / (time.process_time() - start))
    S.frozen_rules = general
    for name, values in speeds.items():
        print(f"{name}: {' '.join(f'{v:,.0f}' for v in values)} deals/CPU-s, median "
              f"{statistics.median(values):,.0f}")
    ratio = statistics.median(speeds["general"]) / statistics.median(speeds["frozen"])
    print(f"general / frozen: {ratio:.3f}x")


if __name__ == "__main__":
    main()
