"""Run two sweeps with different --games on one store at once, R times; check the stored rows
equal what the runs report: all games of the larger run stored in whole chunks, the run holding
the lock first wrote all its games, the waiting one only the chunks the first left short, every
run reports the games it asked for, both runs are in the history, every chunk verifies.

    python scripts/store_concurrent_sweeps.py [R=20] [GAMES_A=30000] [GAMES_B=29500]
"""
import json
import subprocess
import sys
import tempfile
from pathlib import Path

from vandatta_sim.store import Store

reps = int(sys.argv[1]) if len(sys.argv) > 1 else 20
a = int(sys.argv[2]) if len(sys.argv) > 2 else 30_000
b = int(sys.argv[3]) if len(sys.argv) > 3 else 29_500
good = 0
for r in range(reps):
    store = Path(tempfile.mkdtemp()) / "results"
    procs = [subprocess.Popen([sys.executable, "-m", "vandatta_sim.cli", "sweep", "--players", "2",
                               "--match", "single", "--chunk-size", "1000", "--games", str(g),
                               "--store", str(store), "--json"], stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True)
             for g in ((a, b) if r % 2 else (b, a))]
    outs = [p.communicate() for p in procs]
    codes = [p.returncode for p in procs]
    reports = [json.loads(o)["configs"][0] for o, _ in outs] if codes == [0, 0] else []
    ok = bool(reports)
    if ok:
        key = reports[0]["key"]
        s = Store(store)
        rows = s.chunk_rows(key)
        want = max(a, b)
        runs = s.read_provenance(key)["runs"]  # in the order the runs took the lock
        first, second = sorted(reports, key=lambda x: x["games"] != runs[0]["games"])
        # the second run (re)writes only the chunks the first left short of what it needs
        second_new = max(0, second["games"] - first["games"] // 1000 * 1000)
        ok = (sum(rows.values()) == want and first["new_games"] == first["games"]
              and second["new_games"] == second_new
              and sorted(x["games"] for x in reports) == sorted((a, b))
              and all(rows[c] == min(1000, want - 1000 * c) for c in rows)
              and len(s.read_provenance(key)["runs"]) == 2 and not s.verify(key))
    waited = sum("waiting for the sweep holding the lock" in e for _, e in outs)
    print(r, codes, "ok" if ok else "BAD", f"({waited} waited)", flush=True)
    good += ok
print(f"{good}/{reps} repetitions: stored rows equal what each run reports")
sys.exit(0 if good == reps else 1)
