"""One cache folder, chosen by the package: the kernels ``make install`` compiles
serve a plain shell in any working directory, with no ``NUMBA_CACHE_DIR`` set.

The defect: the Makefile exported ``NUMBA_CACHE_DIR=<checkout>/.numba_cache``, so the install
warmed a folder that a command typed in a plain shell never read (numba's own default is the
package's ``__pycache__``); every README command compiled again, for minutes. The proof here is
timing-free: a process started the way the Makefile starts one (through ``make``, with the
Makefile's own environment) loads a small engine kernel, and a process in a clean environment
and another working directory then finds it in the cache (numba's hit counter), never compiling
it again (its miss counter). The kernel is the engine's smallest (``game_seed_nb``), so the
test compiles nothing more than seconds' worth even on a cold cache.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import vandatta_sim

ROOT = Path(vandatta_sim.__file__).resolve().parent.parent
CHECKOUT_CACHE = str(ROOT / ".numba_cache")

#: Loads one engine kernel and says where numba looked for it and whether it compiled.
PROBE = """
import json, numba, numpy as np
from vandatta_sim import engine
kernel = engine.game_seed_nb
kernel(np.uint64(7), np.int64(3))
print(json.dumps({"folder": numba.config.CACHE_DIR, "path": kernel.stats.cache_path,
                  "hits": sum(kernel.stats.cache_hits.values()),
                  "misses": sum(kernel.stats.cache_misses.values())}))
"""


def _clean_env(**extra) -> dict:
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}
    return env | extra


def _last_json(done: subprocess.CompletedProcess) -> dict:
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


def _probe_in_a_plain_shell(cwd: Path, **extra) -> dict:
    return _last_json(subprocess.run([sys.executable, "-c", PROBE], cwd=cwd,
                                     env=_clean_env(**extra), capture_output=True, text=True,
                                     timeout=600))


def _probe_under_make(tmp_path: Path) -> dict:
    """The probe run as a recipe of the checkout's Makefile (its exports, its working
    directory), as ``make install`` runs its warm-up commands."""
    extra = tmp_path / "probe.mk"
    (tmp_path / "probe.py").write_text(PROBE)
    extra.write_text(f"probe:\n\t@$(PY) {tmp_path / 'probe.py'}\n")
    done = subprocess.run(["make", "-s", "-f", "Makefile", "-f", str(extra), "probe",
                           f"PY={sys.executable}"], cwd=ROOT, env=_clean_env(),
                          capture_output=True, text=True, timeout=600)
    return _last_json(done)


@pytest.mark.skipif(not (ROOT / "pyproject.toml").is_file() or shutil.which("make") is None,
                    reason="needs the checkout's Makefile and make")
def test_the_install_warms_the_folder_a_plain_shell_reads(tmp_path):
    made = _probe_under_make(tmp_path)
    assert made["folder"] == CHECKOUT_CACHE
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    plain = _probe_in_a_plain_shell(elsewhere)
    assert plain["folder"] == CHECKOUT_CACHE and plain["path"] == made["path"]
    assert plain["path"].startswith(CHECKOUT_CACHE + os.sep)
    assert (plain["hits"], plain["misses"]) == (1, 0)  # loaded, not compiled


def test_numba_cache_dir_still_wins_where_the_user_sets_it(tmp_path):
    """The override: the user's folder, not the checkout's (here empty, so the probe compiles
    the small kernel into it: a miss, and the index file lands there)."""
    mine = tmp_path / "my cache"
    seen = _probe_in_a_plain_shell(tmp_path, NUMBA_CACHE_DIR=str(mine))
    assert seen["folder"] == str(mine) and seen["path"].startswith(str(mine) + os.sep)
    assert (seen["hits"], seen["misses"]) == (0, 1)
    assert any(mine.rglob("*.nbi"))


def test_the_folder_is_chosen_even_where_numba_was_imported_first(tmp_path):
    """numba reads the environment when it is imported: a program that imports numba before
    the package still gets the checkout's folder (the package sets numba's config too)."""
    code = ("import numba, json; import vandatta_sim; "
            "print(json.dumps({'folder': numba.config.CACHE_DIR}))")
    seen = _last_json(subprocess.run([sys.executable, "-c", code], cwd=tmp_path,
                                     env=_clean_env(), capture_output=True, text=True,
                                     timeout=300))
    assert seen["folder"] == CHECKOUT_CACHE
