"""Recompute the first games of stored chunks with the current engine and require them identical.

    python scripts/replay_store.py [STORE] [PER_KIND] [GAMES]
    python scripts/replay_store.py results 4 300

A check for an engine change that must not change any game (so ``ENGINE_VERSION`` stays): it
groups the store's configurations of the current engine version by kind (match format, search
seats or not, swap experiment or not), takes up to PER_KIND of each at random (seed 1), replays
the first GAMES games of chunk 0 (40 where a seat searches) and compares them with the stored
rows. Prints one line per configuration and exits 1 if any differs.
"""

import json
import random
import sys
from pathlib import Path

from vandatta_sim import ENGINE_VERSION
from vandatta_sim.rules import Rules
from vandatta_sim.simulate import simulate
from vandatta_sim.store import Store


def kind(prov: dict) -> tuple:
    return (prov["match"].split(":")[0], any(p.startswith("search") for p in prov["policies"]),
            prov.get("swap") is not None)


def main() -> None:
    root = sys.argv[1] if len(sys.argv) > 1 else "results"
    per_kind = int(sys.argv[2]) if len(sys.argv) > 2 else 4
    games = int(sys.argv[3]) if len(sys.argv) > 3 else 300
    store = Store(root)
    groups: dict = {}
    for path in sorted(Path(root).glob("*/provenance.json")):
        prov = json.loads(path.read_text())
        if prov.get("engine_version") == ENGINE_VERSION and prov.get("games_stored", 0) > 0:
            groups.setdefault(kind(prov), []).append(prov)
    rng = random.Random(1)
    different = 0
    for group in groups.values():
        for prov in rng.sample(group, min(per_kind, len(group))):
            n = min(40 if kind(prov)[1] else games, prov["games_stored"])
            stored = store.load_chunks(prov["key"], [0]).iloc[:n].reset_index(drop=True)
            run = {"valuation": prov["valuation"]} if prov.get("valuation") is not None else {}
            played = simulate(Rules(**prov["rules"]), n, seed=prov["seed"],
                              policies=prov["policies"], forget=prov["forget"],
                              swap=prov.get("swap"), swap_seat=prov.get("swap_seat"), **run)
            same = played[stored.columns].reset_index(drop=True).equals(stored)
            different += not same
            print(prov["key"], kind(prov), ",".join(prov["policies"]), n,
                  "same" if same else "DIFFERENT", flush=True)
    print(f"{different} of {sum(min(per_kind, len(g)) for g in groups.values())} differ")
    sys.exit(1 if different else 0)


if __name__ == "__main__":
    main()
