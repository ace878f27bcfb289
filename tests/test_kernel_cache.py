"""The engine's cache locator: an edit in any module of a stamped package recompiles its kernels.

numba stamps a cached kernel with a hash of its own source file only; the engine spans files, so
``engine._numba.stamp_kernels_with_sources`` stamps every kernel of the package with a digest
of all its sources. The proof is a two-file toy package (the kernel in one module, the helper
compiled into it in another) run in fresh processes that share one cache folder: after an edit
of the helper, the kernel's result follows the edit with the locator, and is served stale
without it (which is what the engine would do without the locator).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap

TOY_INIT = """
import os
if not os.environ.get("TOY_NO_LOCATOR"):
    from vandatta_sim.engine._numba import stamp_kernels_with_sources
    stamp_kernels_with_sources(os.path.dirname(os.path.abspath(__file__)))
"""
TOY_KERNEL = """
import numba
from .helper import bump

@numba.njit(cache=True)
def kernel(x):
    return bump(x)
"""
TOY_HELPER = """
import numba

@numba.njit(inline="always")
def bump(x):
    return x + {step}
"""
RUN = """
import json
from toy.kernel import kernel
value = kernel(1)
print(json.dumps({"value": int(value), "hits": sum(kernel.stats.cache_hits.values())}))
"""


def _toy(tmp_path, step):
    package = tmp_path / "toy"
    package.mkdir(exist_ok=True)
    (package / "__init__.py").write_text(TOY_INIT)
    (package / "kernel.py").write_text(textwrap.dedent(TOY_KERNEL))
    (package / "helper.py").write_text(textwrap.dedent(TOY_HELPER).format(step=step))


def _run(tmp_path, locator: bool) -> dict:
    env = dict(os.environ, PYTHONPATH=f"{tmp_path}{os.pathsep}{os.environ.get('PYTHONPATH', '')}",
               NUMBA_CACHE_DIR=str(tmp_path / "cache"))
    env.pop("TOY_NO_LOCATOR", None)
    if not locator:
        env["TOY_NO_LOCATOR"] = "1"
    done = subprocess.run([sys.executable, "-c", RUN], env=env, capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


def _edit_helper_between_runs(tmp_path, locator: bool) -> list[dict]:
    _toy(tmp_path, step=1)
    first = _run(tmp_path, locator)
    again = _run(tmp_path, locator)
    _toy(tmp_path, step=10)  # the kernel's own file is unchanged
    edited = _run(tmp_path, locator)
    return [first, again, edited]


def test_an_edit_in_another_module_recompiles_the_kernel_with_the_locator(tmp_path):
    first, again, edited = _edit_helper_between_runs(tmp_path, locator=True)
    assert (first["value"], first["hits"]) == (2, 0)
    assert (again["value"], again["hits"]) == (2, 1)  # still cached while nothing changed
    assert (edited["value"], edited["hits"]) == (11, 0)  # recompiled: the helper's edit shows


def test_without_the_locator_the_edit_is_served_stale(tmp_path):
    """The control: numba's own stamp misses the helper's edit (if numba ever stamps the whole
    call graph itself, this fails and the locator can go)."""
    first, again, edited = _edit_helper_between_runs(tmp_path, locator=False)
    assert (first["value"], again["value"], again["hits"]) == (2, 2, 1)
    assert (edited["value"], edited["hits"]) == (2, 1)  # stale: the old helper, from the cache


def test_every_engine_kernel_is_stamped_with_the_engine_digest():
    from vandatta_sim import engine
    from vandatta_sim.engine import _numba

    kernels = [engine.run_batch_nb, engine.search_decision_nb, engine.game_seed_nb,
               engine.search.search_values, engine.game._playout_turns]
    for kernel in kernels:
        locator = kernel._cache._impl.locator
        assert isinstance(locator, _numba._SourcesStamp), kernel
        assert locator.get_source_stamp() == engine.ENGINE_STAMP


PLAIN_STAMP = """
import json
from vandatta_sim import engine
# the step kernel: cached in both builds (the plain build's batch kernel is not, engine/kernels.py)
print(json.dumps([engine.ENGINE_STAMP, engine.step_nb._cache._impl.filename_base]))
"""


def test_the_plain_kernels_are_cached_under_a_stamp_and_file_names_of_their_own():
    seen = {}
    for flag in ("0", "1"):
        done = subprocess.run([sys.executable, "-c", PLAIN_STAMP], capture_output=True,
                              text=True, timeout=300,
                              env=dict(os.environ, VANDATTA_PLAIN_KERNEL=flag))
        assert done.returncode == 0, done.stderr[-2000:]
        seen[flag] = json.loads(done.stdout.strip().splitlines()[-1])
    assert seen["0"][0] != seen["1"][0]
    assert "-plain" in seen["1"][1] and "-plain" not in seen["0"][1]
