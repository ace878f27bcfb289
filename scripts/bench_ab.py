"""A/B speed of two checkouts of vandatta-sim, alternated round by round in fresh processes
(the machine's noise hits both alike): `python scripts/bench_ab.py ROUNDS TREE_A TREE_B`.

Each tree is imported through PYTHONPATH with its own NUMBA_CACHE_DIR (TREE/.numba_cache;
compile each once first). Prints deals/s of `standard`, 4 players, single deals, 1 thread,
200,000 deals, `random` and `expert`, per round and as medians.
"""
import os, sys, time, statistics, subprocess, json
code = r'''
import time, json, sys
from vandatta_sim.rules import get_preset
from vandatta_sim.simulate import simulate
r = get_preset("standard").replace(match="single", players=4)
out = {}
for pol in ("random", "expert"):
    simulate(r, 2000, seed=0, policies=pol, threads=1)
    t = time.perf_counter(); simulate(r, 200_000, seed=1, policies=pol, threads=1)
    out[pol] = 200_000 / (time.perf_counter() - t)
print(json.dumps(out))
'''
trees = {f"A ({sys.argv[2]})": sys.argv[2], f"B ({sys.argv[3]})": sys.argv[3]}
res = {k: {"random": [], "expert": []} for k in trees}
rounds = int(sys.argv[1])
for r in range(rounds):
    for name, tree in trees.items():
        env = dict(os.environ, PYTHONPATH=tree, NUMBA_CACHE_DIR=tree + "/.numba_cache")
        o = json.loads(subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True).stdout.strip().splitlines()[-1])
        for k, v in o.items(): res[name][k].append(v)
    print(r, {n: {k: round(v[-1]) for k, v in d.items()} for n, d in res.items()}, flush=True)
for n, d in res.items():
    print(n, {k: f"median {statistics.median(v):,.0f} deals/s" for k, v in d.items()})
