"""A/B start-up in one checkout, runs alternated: 'before' imports first what the code before
a start-up change imported, 'after' runs as is. Prints each side's median wall time, CPU time
(user + system: what a busy machine changes least) and peak memory.

Cases (what 'before' imports first): sim, scipy.stats (before the quantiles were computed in
stats.py); help, every command's module (before --help listed them without importing any);
sweep, the sweep package's modules a small simulate no longer imports (before the package
imported its names lazily); pandas, pandas, pyarrow and the store (before a small simulate
summed the kernel's columns instead of a DataFrame).

    python scripts/startup_ab.py sim 5 simulate --games 10 --match single
    python scripts/startup_ab.py help 5 --help
    python scripts/startup_ab.py sweep 9 simulate --games 10
    python scripts/startup_ab.py pandas 15 simulate --games 10
"""
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

root = str(Path(__file__).resolve().parents[1])
py = f"{root}/.venv/bin/python"
env = dict(os.environ, NUMBA_CACHE_DIR=f"{root}/.numba_cache")
case = sys.argv[1]
n = int(sys.argv[2])
args = sys.argv[3:]
pre = {"sim": "import scipy.stats", "help": "import vandatta_sim.cli as c, importlib\n"
       "for m, _ in c.COMMANDS.values(): importlib.import_module('vandatta_sim.cli.' + m)",
       "sweep": "import vandatta_sim.sweep.grid, vandatta_sim.sweep.executors, "
                "vandatta_sim.sweep.dry_run, vandatta_sim.sweep.run",
       "pandas": "import pandas, pyarrow.parquet, vandatta_sim.store"}[case]
sides = {"before": pre + "\nfrom vandatta_sim.cli import main; main()",
         "after": "from vandatta_sim.cli import main; main()"}
times = {k: [] for k in sides}
cpu = {k: [] for k in sides}
rss = {k: [] for k in sides}
for i in range(n):
    for name, code in sides.items():
        t = time.perf_counter()
        proc = subprocess.Popen([py, "-c", code, *args], cwd=root, env=env,
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        _, status, usage = os.wait4(proc.pid, 0)
        times[name].append(time.perf_counter() - t)
        cpu[name].append(usage.ru_utime + usage.ru_stime)
        rss[name].append(usage.ru_maxrss / 1024)
        assert os.waitstatus_to_exitcode(status) == 0, name
for name in sides:
    ts = times[name]
    print(f"{name}: median {statistics.median(ts):.2f} s of {n} "
          f"({', '.join(f'{t:.2f}' for t in ts)}); "
          f"CPU median {statistics.median(cpu[name]):.2f} s; "
          f"max RSS median {statistics.median(rss[name]):.0f} MB")
