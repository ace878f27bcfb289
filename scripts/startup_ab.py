"""A/B start-up in one checkout, runs alternated: 'before' imports first what the code before
the start-up work imported (scipy.stats for its quantiles; for --help, every command's
module), 'after' runs as is. Prints each side's median wall time and peak memory.

    python scripts/startup_ab.py sim 5 simulate --games 10 --match single
    python scripts/startup_ab.py help 5 --help
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
       "for m, _ in c.COMMANDS.values(): importlib.import_module('vandatta_sim.cli.' + m)"}[case]
sides = {"before": pre + "\nfrom vandatta_sim.cli import main; main()",
         "after": "from vandatta_sim.cli import main; main()"}
times = {k: [] for k in sides}
rss = {k: [] for k in sides}
for i in range(n):
    for name, code in sides.items():
        t = time.perf_counter()
        proc = subprocess.Popen([py, "-c", code, *args], cwd=root, env=env,
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        _, status, usage = os.wait4(proc.pid, 0)
        times[name].append(time.perf_counter() - t)
        rss[name].append(usage.ru_maxrss / 1024)
        assert os.waitstatus_to_exitcode(status) == 0, name
for name in sides:
    ts = times[name]
    print(f"{name}: median {statistics.median(ts):.2f} s of {n} "
          f"({', '.join(f'{t:.2f}' for t in ts)}); max RSS median {statistics.median(rss[name]):.0f} MB")
