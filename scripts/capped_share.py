"""Capped deals of whole tables of one policy, per preset and table size.

    python scripts/capped_share.py POLICY DEALS SIZES [PRESETS]
    python scripts/capped_share.py expert 2000 2,3,4,5,6,7,8,9,10

Prints, per preset, ``size:capped`` for each table size (single deals, every seat POLICY,
seed 100 + size), then the total. The closing notes quote it for the stall fix.
"""

import sys

from vandatta_sim.rules import PRESETS, get_preset
from vandatta_sim.simulate import simulate


def main() -> None:
    policy, deals = sys.argv[1], int(sys.argv[2])
    sizes = [int(x) for x in sys.argv[3].split(",")]
    presets = sys.argv[4].split(",") if len(sys.argv) > 4 else list(PRESETS)
    total = capped = 0
    for preset in presets:
        row = []
        for players in sizes:
            rules = get_preset(preset).replace(players=players, match="single")
            df = simulate(rules, deals, seed=100 + players, policies=f"all={policy}")
            n = int(df["capped"].sum())
            total, capped = total + len(df), capped + n
            row.append(f"{players}:{n}")
        print(preset, " ".join(row), flush=True)
    print(f"{policy}: {capped} capped of {total} deals ({deals} per cell)")


if __name__ == "__main__":
    main()
