"""A store that proves what it holds: damaged chunks named, left out and repaired; per-key locks
for concurrent sweeps; interrupts at any moment; the results commands that find and move data.

Game counts are tiny (single deals, chunks of 1,000 games).
"""

import json
import os
import random
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pandas as pd
import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner

from vandatta_sim import ENGINE_VERSION
from vandatta_sim.cli import main as cli_main
from vandatta_sim.store import BadChunkError, Store, UnsafeStoreError
from vandatta_sim.sweep import expand_grid, run_sweep

ROOT = Path(__file__).resolve().parents[1]
SWEEP = ["--players", "2", "--match", "single", "--chunk-size", "1000"]


def invoke(*args):
    return CliRunner().invoke(cli_main, [str(a) for a in args])


def chunk_bytes(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.glob("chunk-*.parquet"))}


@pytest.fixture(scope="module")
def clean(tmp_path_factory):
    """A clean store of two configurations (2 and 3 players), 5 chunks of 1,000 games each."""
    root = tmp_path_factory.mktemp("clean") / "results"
    configs = expand_grid(players=[2, 3], match="single")
    run_sweep(configs, games=5000, chunk_size=1000, store=root, progress=False)
    return root, [c.key(0, 1000) for c in configs]


def copy_store(src: Path, dst: Path) -> Path:
    import shutil
    shutil.copytree(src, dst, symlinks=True)
    return dst


def test_damaged_chunks_are_named_left_out_and_repaired_byte_identical(clean, tmp_path):
    root, (key, other) = clean
    store = copy_store(root, tmp_path / "results")
    folder = store / key
    original = chunk_bytes(root / key)
    (folder / "chunk-000001.parquet").write_bytes(original["chunk-000001.parquet"][:700])
    (folder / "chunk-000002.parquet").write_bytes(random.Random(1).randbytes(4000))
    (folder / "chunk-000003.parquet").write_bytes((store / other / "chunk-000003.parquet")
                                                  .read_bytes())
    (folder / "chunk-000004.parquet").unlink()
    (folder / "chunk-000004.parquet").symlink_to(root / key / "chunk-000004.parquet")

    verified = invoke("results", "verify", "--store", store)
    assert verified.exit_code == 1
    bad = [line for line in verified.stdout.splitlines() if line.startswith("BAD")]
    assert len(bad) == 4
    for c, why in ((1, "truncated"), (2, "not Parquet"), (3, f"belongs to key '{other}'"),
                   (4, "symlink")):
        assert any(f"chunk-00000{c}.parquet" in line and why in line for line in bad), bad
    assert invoke("results", "verify", other, "--store", store).exit_code == 0

    shown = invoke("results", "show", key[:6], "--store", store, "--json")
    assert shown.exit_code == 0
    warning = shown.stderr.strip().splitlines()
    assert len(warning) == 1 and all(f"chunk-00000{c}.parquet" in warning[0] for c in (1, 2, 3, 4))
    assert json.loads(shown.stdout)["summary"]["games"] == 1000  # chunk 0 only

    resumed = invoke("sweep", *SWEEP, "--games", 5000, "--store", store)
    assert resumed.exit_code == 0, resumed.output
    assert "4,000 new games" in resumed.stdout
    assert chunk_bytes(folder) == original
    quarantined = sorted(p.name.split(".parquet")[0] for p in (folder / "quarantine").iterdir())
    assert quarantined == [f"chunk-00000{c}" for c in (1, 2, 3, 4)]  # moved aside, not deleted
    assert invoke("results", "verify", "--store", store).exit_code == 0


def test_chunks_of_an_older_store_or_another_engine_are_bad(clean, tmp_path):
    root, (key, _) = clean
    store = Store(copy_store(root, tmp_path / "results"))
    path = store.root / key / "chunk-000000.parquet"
    table = pq.read_table(path)
    pq.write_table(table.replace_schema_metadata(None), path)  # no proof
    path = store.root / key / "chunk-000001.parquet"
    table = pq.read_table(path)
    meta = dict(table.schema.metadata)
    meta[b"vandatta.engine_version"] = b"2"
    pq.write_table(table.replace_schema_metadata(meta), path)
    bad = store.verify(key)
    assert "no proof" in bad[0] and "engine version 2" in bad[1]
    assert sorted(store.chunk_rows(key)) == [2, 3, 4]
    with pytest.raises(BadChunkError, match="chunk-000000.parquet"):
        store.load(key)


def test_byte_flips_are_reported_or_change_no_data(clean, tmp_path):
    root, (key, _) = clean
    source = root / key / "chunk-000002.parquet"
    data, expected = source.read_bytes(), pq.read_table(source).replace_schema_metadata(None)
    rng = random.Random(12)
    store = Store(tmp_path / "results")
    (store.root / key).mkdir(parents=True)
    path = store.root / key / "chunk-000002.parquet"
    reported = 0
    for position in rng.sample(range(len(data)), 20):
        flipped = bytearray(data)
        flipped[position] ^= 1 << rng.randrange(8)
        path.write_bytes(bytes(flipped))
        reason = store.check_chunk(key, 2)
        if reason is not None:
            assert "chunk-000002.parquet" in reason
            reported += 1
        else:  # a flip the proof does not see must leave the data as it was
            assert pq.read_table(path).replace_schema_metadata(None).equals(expected), position
    assert reported > 10


def test_a_key_folder_that_is_a_symlink_is_refused(tmp_path):
    outside = tmp_path / "outside"
    outside.mkdir()
    store = tmp_path / "results"
    config = expand_grid(players=[2], match="single")[0]
    store.mkdir()
    (store / config.key(0, 1000)).symlink_to(outside)
    with pytest.raises(UnsafeStoreError, match="symlink"):
        run_sweep([config], games=1000, chunk_size=1000, store=store, progress=False)
    result = invoke("sweep", *SWEEP, "--games", 1000, "--store", store)
    assert result.exit_code != 0 and len(result.stderr.strip().splitlines()) == 1
    assert "symlink" in result.stderr and list(outside.iterdir()) == []
    assert invoke("results", "verify", "--store", store).exit_code == 1


def test_provenance_that_contradicts_the_chunks_is_warned_about(clean, tmp_path):
    root, (key, _) = clean
    store = copy_store(root, tmp_path / "results")
    path = store / key / "provenance.json"
    provenance = json.loads(path.read_text())
    path.write_text(json.dumps(provenance | {"chunk_size": 500, "engine_version": 9}))
    shown = invoke("results", "show", key, "--store", store)
    assert shown.exit_code == 0
    assert "chunks of 500" in shown.stderr and "engine version 9" in shown.stderr
    verified = invoke("results", "verify", key, "--store", store)
    assert verified.exit_code == 0 and "chunks of 500" in verified.stderr


# --- concurrent writers -------------------------------------------------------------------------


def _sweep_proc(store, games):
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    return subprocess.Popen(
        [sys.executable, "-m", "vandatta_sim.cli", "sweep", *SWEEP, "--games", str(games),
         "--store", str(store), "--json"], cwd=ROOT, env=env, stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, text=True)


@pytest.mark.parametrize("repetition", range(2))
def test_concurrent_sweeps_with_different_games_store_what_they_report(tmp_path, repetition):
    store = tmp_path / "results"
    procs = [_sweep_proc(store, games) for games in ((6000, 5500) if repetition else (5500, 6000))]
    outs = [p.communicate(timeout=300) for p in procs]
    assert [p.returncode for p in procs] == [0, 0], outs
    reports = [json.loads(out)["configs"][0] for out, _ in outs]
    assert sorted(r["games"] for r in reports) == [5500, 6000]
    key = reports[0]["key"]
    rows = Store(store).chunk_rows(key)
    assert rows == {c: 1000 for c in range(6)}  # the larger run's games, in whole chunks
    runs = Store(store).read_provenance(key)["runs"]  # in the order the runs took the lock
    first, second = sorted(reports, key=lambda r: r["games"] != runs[0]["games"])
    # the first wrote all its games, the second only the chunk the first left short (if any)
    assert first["new_games"] == first["games"]
    assert second["new_games"] == max(0, second["games"] - first["games"] // 1000 * 1000)
    assert len(Store(store).read_provenance(key)["runs"]) == 2  # no history lost
    assert Store(store).verify(key) == {}


def test_a_second_writer_waits_for_the_lock_and_says_whose(tmp_path, capfd):
    store = Store(tmp_path / "results")
    config = expand_grid(players=[2], match="single")[0]
    key = config.key(0, 1000)
    done = []
    with store.lock(key):
        worker = threading.Thread(target=lambda: done.append(run_sweep(
            [config], games=1000, chunk_size=1000, store=store, progress=False)))
        worker.start()
        time.sleep(1.0)
        assert not done and not store.chunk_rows(key)
    worker.join(120)
    assert done and done[0]["games"][0] == 1000
    err = capfd.readouterr().err
    assert f"waiting for the sweep holding the lock on {key} (pid {os.getpid()})" in err


# --- interrupts ---------------------------------------------------------------------------------


@pytest.mark.parametrize("sig, delay", [(signal.SIGINT, 0.3), (signal.SIGTERM, 1.0),
                                        (signal.SIGINT, "first chunk"),
                                        (signal.SIGTERM, "first chunk")])
def test_signals_at_any_moment_exit_with_the_one_line(tmp_path, sig, delay):
    store = tmp_path / "results"
    # far more games than a fast machine plays before the signal: a run that had already
    # finished would meet the signal in the interpreter's teardown, not in the run
    proc = _sweep_proc(store, 5_000_000)
    if delay == "first chunk":
        deadline = time.monotonic() + 120
        while not list(store.glob("*/chunk-*.parquet")) and proc.poll() is None:
            assert time.monotonic() < deadline
            time.sleep(0.01)
    else:
        time.sleep(delay)  # while the command line imports or numba loads its kernels
    proc.send_signal(sig)
    _, err = proc.communicate(timeout=120)
    lines = [line for line in err.splitlines() if line.strip()]
    assert proc.returncode == 128 + sig and len(lines) == 1, err
    assert "run the same command again" in lines[0]
    assert not list(store.glob("*/.tmp-*"))


@pytest.mark.parametrize("handler_kind", ["command", "run"])
def test_a_signal_met_where_raising_is_lost_comes_again_and_raises_outside(handler_kind):
    """Raised inside a ``__del__`` or an llvmlite callback (numba loading a kernel), a
    KeyboardInterrupt is printed with a traceback and ignored; the handlers send the signal
    again instead, and it raises once execution is out of there."""
    from vandatta_sim.cli import interrupts

    def __del__():  # a frame where a raise would be lost
        return sys._getframe()

    handler = interrupts._RaiseInterrupt() if handler_kind == "command" else interrupts.Signals()
    previous = signal.signal(signal.SIGUSR1, handler)
    try:
        handler(signal.SIGUSR1, __del__())  # returns: nothing raised there
        with pytest.raises(KeyboardInterrupt):
            deadline = time.monotonic() + 10
            while time.monotonic() < deadline:
                time.sleep(0.01)  # the signal comes again, here, and raises
        assert handler.received == signal.SIGUSR1
    finally:
        signal.signal(signal.SIGUSR1, previous)


# --- finding and moving results -----------------------------------------------------------------


def test_list_export_rm_and_key_prefixes(clean, tmp_path):
    root, (key, other) = clean
    store = copy_store(root, tmp_path / "results")
    listed = invoke("results", "list", "--store", store)
    assert listed.exit_code == 0
    header, *rows = [line for line in listed.stdout.splitlines() if not line.startswith("-")]
    assert header.split()[:4] == ["updated", "key", "kind", "games"]
    stamps = [row.split()[0] for row in rows]
    assert stamps == sorted(stamps) and {row.split()[1] for row in rows} == {key[:8], other[:8]}
    assert "match=single" in rows[0]  # the rules as changes; the engine version is in show
    assert f"engine        {ENGINE_VERSION} " in invoke("results", "show", key[:8],
                                                       "--store", store).stdout

    # a key sharing exactly four leading characters with key, so that key[:5] is unique
    twin = key[:4] + ("1" if key[4] == "0" else "0") * (len(key) - 4)
    Store(store).write_provenance(twin, {"label": "twin"})
    common = key[:4]
    ambiguous = invoke("results", "show", common, "--store", store)
    assert ambiguous.exit_code == 2 and key in ambiguous.stderr and twin in ambiguous.stderr
    assert len(ambiguous.stderr.strip().splitlines()) == 1

    for name in ("games.parquet", "games.csv"):
        out = tmp_path / name
        exported = invoke("results", "export", key[:len(common) + 1], "--out", out,
                          "--store", store)
        assert exported.exit_code == 0, exported.output
        df = pd.read_parquet(out) if name.endswith("parquet") else pd.read_csv(out)
        assert len(df) == 5000 and df["game"].tolist() == list(range(5000))
    assert sorted(p.name for p in tmp_path.iterdir()) == ["games.csv", "games.parquet",
                                                          "results"]
    assert invoke("results", "export", key, "--out", tmp_path / "g.txt",
                  "--store", store).exit_code == 2

    refused = invoke("results", "rm", key, "--store", store)  # no terminal to ask on
    assert refused.exit_code == 2 and "--yes" in refused.stderr and (store / key).is_dir()
    removed = invoke("results", "rm", key, "--yes", "--store", store)
    assert removed.exit_code == 0 and not (store / key).exists() and (store / other).is_dir()


@pytest.mark.parametrize("args", [["sweep", *SWEEP, "--games", 1000],
                                  ["results", "list"], ["results", "verify"]])
def test_an_empty_store_name_is_a_one_line_error(tmp_path, args):
    result = invoke(*args, "--store", "")
    assert result.exit_code == 2 and len(result.stderr.strip().splitlines()) == 1
    assert "--store" in result.stderr
