"""Send SIGINT or SIGTERM (random) at a random moment in [0, MAX_DELAY] s after starting a sweep
(30,000 games, chunks of 1,000); count runs that exit 130/143 with exactly one stderr line
saying "run the same command again"; runs that exit 0 are listed (a signal that came after the
end, or one lost in the interpreter's startup, before any vandatta_sim code runs).

    python scripts/store_interrupts.py [N=100] [MAX_DELAY=4] [SEED=1]
"""
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time

n = int(sys.argv[1]) if len(sys.argv) > 1 else 100
max_delay = float(sys.argv[2]) if len(sys.argv) > 2 else 4.0
rng = random.Random(int(sys.argv[3]) if len(sys.argv) > 3 else 1)
bad, finished = [], 0
for i in range(n):
    folder = tempfile.mkdtemp()
    sig = rng.choice([signal.SIGINT, signal.SIGTERM])
    delay = rng.uniform(0, max_delay)
    proc = subprocess.Popen([sys.executable, "-m", "vandatta_sim.cli", "sweep", "--players", "2",
                             "--match", "single", "--games", "30000", "--chunk-size", "1000",
                             "--store", folder + "/results"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    time.sleep(delay)
    proc.send_signal(sig)
    _, err = proc.communicate(timeout=300)
    lines = [line for line in err.splitlines() if line.strip()]
    clean = (proc.returncode == 128 + sig and len(lines) == 1
             and "run the same command again" in lines[0])
    done = proc.returncode == 0 and not lines
    finished += done
    if not (clean or done):
        bad.append((round(delay, 3), sig.name, proc.returncode, err[-200:]))
    shutil.rmtree(folder)
    print(i, f"{delay:.3f}s", sig.name, proc.returncode,
          "ok" if clean else "ran to the end" if done else "BAD",
          flush=True)
print(f"{n - len(bad) - finished}/{n} stopped cleanly; {finished} exited 0 (ran to the end: the "
      "signal came after the end, or was lost in the interpreter's own startup); "
      f"{len(bad)} bad")
for b in bad:
    print(b)
sys.exit(1 if bad else 0)
