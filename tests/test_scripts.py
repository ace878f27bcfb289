"""The correctness scripts of scripts/ (scripts/README.md): they run, and they can fail.

``replay_store.py`` is the gate for "this engine change kept the stored games": on a fresh
store it replays every configuration identical (exit 0), and a stored configuration whose
recorded seed no longer matches its games is reported (exit 1).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from vandatta_sim.sweep import expand_grid, run_sweep

SCRIPTS = Path(__file__).resolve().parent.parent / "scripts"


def _replay(store) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(SCRIPTS / "replay_store.py"), str(store), "4", "50"],
                          capture_output=True, text=True, timeout=600, env=dict(os.environ))


@pytest.mark.slow  # a sweep and two replays in fresh processes (7 min at a load of 16 on 2 cores)
def test_replay_store_passes_on_a_fresh_store_and_fails_on_changed_games(tmp_path):
    configs = expand_grid("standard", overrides=["match=single"], players=[3, 4])
    run_sweep(configs, games=200, seed=5, chunk_size=100, store=tmp_path, threads=1,
              progress=False, command="test")
    done = _replay(tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.strip().splitlines()[-1] == "0 of 2 differ"

    provenance = sorted(tmp_path.glob("*/provenance.json"))[0]
    record = json.loads(provenance.read_text())
    record["seed"] += 1  # the stored games are no longer the ones this record names
    provenance.write_text(json.dumps(record))
    done = _replay(tmp_path)
    assert done.returncode == 1
    assert "DIFFERENT" in done.stdout and done.stdout.strip().splitlines()[-1] == "1 of 2 differ"


def _code_diff(a, b) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(SCRIPTS / "kernel_code_diff.py"), str(a), str(b)],
                          capture_output=True, text=True, timeout=600)


@pytest.mark.skipif(shutil.which("objdump") is None, reason="needs binutils' objdump")
def test_kernel_code_diff_sees_the_same_code_and_code_swapped_between_signatures(tmp_path):
    from vandatta_sim.engine import run_batch_nb
    from vandatta_sim.rules import get_preset
    from vandatta_sim.simulate import simulate

    for preset in ("standard", "seed000"):  # the batch kernel's two heuristic entries
        simulate(get_preset(preset).replace(match="single"), 2, seed=1)
    index = Path(run_batch_nb._cache._cache_path) / run_batch_nb._cache._cache_file._index_name
    a, b = tmp_path / "a" / "engine", tmp_path / "b" / "engine"
    for folder in (a, b):
        folder.mkdir(parents=True)
        for entry in index.parent.glob(index.name.removesuffix(".nbi") + ".*"):
            shutil.copy(entry, folder)
    same = _code_diff(a.parent, b.parent)
    assert same.returncode == 0, same.stdout + same.stderr
    assert "have the same code" in same.stdout and "only in A: 0 entries; only in B: 0" in same.stdout

    entries = sorted(b.glob("*.nbc"))
    assert len(entries) >= 2
    first, second = entries[0].read_bytes(), entries[1].read_bytes()
    entries[0].write_bytes(second)  # two signatures' code swapped
    entries[1].write_bytes(first)
    swapped = _code_diff(a.parent, b.parent)
    assert swapped.returncode == 1 and swapped.stdout.count("differs: kernels.run_batch_nb") == 2


def test_card_locations_finds_every_unseen_card_in_a_hand_or_the_talon():
    sys.path.insert(0, str(SCRIPTS))
    from card_locations import BUCKETS, locations
    from vandatta_sim.rules import get_preset

    for rules in (get_preset("standard").replace(players=4, match="single"),
                  get_preset("seed002").replace(players=6, match="single", jokers=1)):  # 2 decks
        found, expected, unseen, talon = locations(rules, "expert", 6, seed=3)
        for rank in range(14):
            assert sum(found[rank, b] for b in BUCKETS) + talon[rank] == unseen[rank]
        for b in BUCKETS:  # a uniform deal puts as many cards in the hands as they hold
            in_hands = sum(found[rank, b] for rank in range(14))
            assert in_hands == pytest.approx(sum(expected[rank, b] for rank in range(14)))
        assert sum(found.values()) > 0 and (unseen[13] > 0) == (rules.jokers > 0)
