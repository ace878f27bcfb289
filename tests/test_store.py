import json
import os
import time
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow.parquet as pq
import pytest

from vandatta_sim import store as store_module
from vandatta_sim.store import Store, load_games


def games(n, start=0):
    """A small per-game table with the column kinds the simulator stores."""
    ids = np.arange(start, start + n)
    return pd.DataFrame(
        {
            "game": ids,
            "winner": (ids % 4).astype(np.int8),
            "points": ids * 1.5,
            "ended_early": ids % 3 == 0,
        },
        index=ids + 1000,  # a non-default index, which must not be stored
    )


@pytest.fixture
def store(tmp_path):
    return Store(tmp_path / "results")


def files_in(folder):
    return sorted(p.name for p in folder.iterdir())


def test_write_and_load_in_chunk_order(store):
    for index in (2, 0, 10, 1):  # written out of order
        store.write_chunk("cfg", index, games(3, start=100 * index))
    assert store.chunks("cfg") == [0, 1, 2, 10]
    assert store.has_chunk("cfg", 10) and not store.has_chunk("cfg", 3)
    df = store.load("cfg")
    expected = pd.concat([games(3, 100 * i) for i in (0, 1, 2, 10)], ignore_index=True)
    pd.testing.assert_frame_equal(df, expected)
    assert isinstance(df.index, pd.RangeIndex) and df.index[0] == 0
    assert list(store.load("cfg", columns=["points"]).columns) == ["points"]
    pd.testing.assert_frame_equal(
        store.load_chunks("cfg", [10, 0]),
        pd.concat([games(3, 1000), games(3, 0)], ignore_index=True),
    )
    pd.testing.assert_frame_equal(load_games("cfg", root=store.root), df)


def test_layout_and_no_temp_files_left(store):
    store.write_provenance("cfg", {"label": "base"})
    store.write_chunk("cfg", 123, games(5))
    assert files_in(store.root / "cfg") == ["chunk-000123.parquet", "provenance.json"]


def test_rewrite_is_byte_identical(store, tmp_path):
    store.write_chunk("cfg", 0, games(1000))
    first = (store.root / "cfg" / "chunk-000000.parquet").read_bytes()
    store.write_chunk("cfg", 0, games(1000))
    # the same key in another store: chunks record their key, so only the folder may differ
    Store(tmp_path / "elsewhere").write_chunk("cfg", 0, games(1000))
    assert (store.root / "cfg" / "chunk-000000.parquet").read_bytes() == first
    assert (tmp_path / "elsewhere" / "cfg" / "chunk-000000.parquet").read_bytes() == first
    metadata = pq.read_metadata(store.root / "cfg" / "chunk-000000.parquet")
    assert b"pandas" not in (metadata.metadata or {})
    assert metadata.row_group(0).column(0).compression == "ZSTD"


def test_crash_leftover_temp_file_is_invisible_and_cleaned(store):
    store.write_chunk("cfg", 0, games(4))
    folder = store.root / "cfg"
    # What a writer killed mid-write leaves behind: a partial file under a temporary name.
    (folder / ".tmp-dead-chunk-000001.parquet").write_bytes(b"PAR1 half a file")
    assert store.chunks("cfg") == [0]
    assert len(store.load("cfg")) == 4
    assert not store.has_chunk("cfg", 1)
    assert store.clean_temp("cfg") == 1
    assert files_in(folder) == ["chunk-000000.parquet"]
    assert store.clean_temp("never-written") == 0


def test_clean_stale_temp_removes_only_files_older_than_the_limit(store):
    store.write_chunk("cfg", 0, games(4))
    folder = store.root / "cfg"
    young = folder / ".tmp-live-chunk-000001.parquet"
    old = folder / ".tmp-dead-chunk-000002.parquet"
    for path in (young, old):
        path.write_bytes(b"PAR1 half a file")
    an_hour_ago = time.time() - 3600
    os.utime(old, (an_hour_ago, an_hour_ago))
    assert store.clean_stale_temp("cfg", older_than_seconds=600) == 1
    assert files_in(folder) == [young.name, "chunk-000000.parquet"]
    assert store.clean_stale_temp("never-written", older_than_seconds=0) == 0


def test_chunk_rows_come_from_the_footers_without_reading_data(store, monkeypatch):
    store.write_chunk("cfg", 3, games(2))
    store.write_chunk("cfg", 0, games(7))
    (store.root / "cfg" / ".tmp-dead-chunk-000001.parquet").write_bytes(b"PAR1 half")

    def no_data_reads(*args, **kwargs):
        raise AssertionError("chunk_rows must not read column data")

    monkeypatch.setattr(store_module.pq, "read_table", no_data_reads)
    assert store.chunk_rows("cfg") == {0: 7, 3: 2}
    assert list(store.chunk_rows("cfg")) == [0, 3]  # chunk order
    assert store.chunk_rows("never-written") == {}


def test_read_column_is_one_column_of_one_chunk(store):
    store.write_chunk("cfg", 0, games(5))
    store.write_chunk("cfg", 1, games(3, start=5))
    winner = store.read_column("cfg", 1, "winner")
    assert isinstance(winner, np.ndarray) and winner.dtype == np.int8
    np.testing.assert_array_equal(winner, games(3, start=5)["winner"].to_numpy())
    np.testing.assert_array_equal(store.read_column("cfg", 0, "points"), games(5)["points"])
    with pytest.raises(KeyError, match="chunk 2 of key 'cfg' is not stored"):
        store.read_column("cfg", 2, "winner")


def test_exception_mid_write_leaves_old_chunk_and_no_temp(store, monkeypatch):
    store.write_chunk("cfg", 0, games(4))
    original = (store.root / "cfg" / "chunk-000000.parquet").read_bytes()

    def write_half_then_fail(table, where, **kwargs):
        Path(where).write_bytes(b"PAR1 partial")  # the atomic writer's temporary file
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(store_module.pq, "write_table", write_half_then_fail)
    with pytest.raises(OSError, match="No space"):
        store.write_chunk("cfg", 0, games(8))  # overwriting: the old chunk must survive
    with pytest.raises(OSError):
        store.write_chunk("cfg", 1, games(8))
    assert files_in(store.root / "cfg") == ["chunk-000000.parquet"]
    assert (store.root / "cfg" / "chunk-000000.parquet").read_bytes() == original
    assert store.chunks("cfg") == [0]
    assert len(store.load("cfg")) == 4


def test_failed_rename_leaves_nothing(store, monkeypatch):
    def no_rename(src, dst):
        raise OSError("crash before rename")

    monkeypatch.setattr(store_module.os, "replace", no_rename)
    with pytest.raises(OSError):
        store.write_chunk("cfg", 0, games(4))
    assert files_in(store.root / "cfg") == []
    assert store.chunks("cfg") == []


def test_file_and_folder_are_fsynced(store, monkeypatch):
    synced = []
    real_fsync = os.fsync
    monkeypatch.setattr(store_module.os, "fsync", lambda fd: synced.append(fd) or real_fsync(fd))
    store.write_chunk("cfg", 0, games(2))
    assert len(synced) == (2 if os.name == "posix" else 1)


def test_provenance_round_trip_and_update(store):
    provenance = {"rules_preset": "standard", "players": 4, "seed": 12345, "policies": ["a", "b"]}
    store.write_provenance("cfg", provenance)
    assert store.read_provenance("cfg") == provenance
    text = (store.root / "cfg" / "provenance.json").read_text()
    assert text == json.dumps(provenance, sort_keys=True, indent=2) + "\n"
    updated = store.update_provenance("cfg", label="baseline", players=5)
    assert updated == provenance | {"label": "baseline", "players": 5}
    assert store.read_provenance("cfg") == updated
    assert files_in(store.root / "cfg") == ["provenance.json"]


def test_keys_and_summary_counts_rows_from_metadata(store, monkeypatch):
    assert store.keys() == [] and store.summary().empty
    store.write_provenance("b", {"label": "variant", "players": 3, "rules_preset": "strict"})
    store.write_provenance("a", {"players": 4})
    store.write_chunk("b", 0, games(7))
    store.write_chunk("b", 1, games(5))
    store.write_chunk("no-provenance", 0, games(1))  # not listed: keys need provenance

    def no_data_reads(*args, **kwargs):
        raise AssertionError("summary must not read column data")

    monkeypatch.setattr(store_module.pq, "read_table", no_data_reads)
    monkeypatch.setattr(pd, "read_parquet", no_data_reads)
    assert store.keys() == ["a", "b"]
    summary = store.summary()
    assert list(summary.columns) == ["key", "games", "chunks", *store_module.SUMMARY_FIELDS]
    assert summary["key"].tolist() == ["a", "b"]
    assert summary["games"].tolist() == [0, 12]
    assert summary["chunks"].tolist() == [0, 2]
    b = summary.set_index("key").loc["b"]
    assert (b["label"], b["rules_preset"], b["players"]) == ("variant", "strict", 3)
    assert pd.isna(summary.set_index("key").loc["a", "label"])  # absent from provenance


def test_delete(store):
    store.write_provenance("cfg", {})
    store.write_chunk("cfg", 0, games(2))
    store.delete("cfg")
    assert store.keys() == [] and not (store.root / "cfg").exists()


def test_missing_key_errors(store):
    store.write_chunk("cfg", 0, games(2))
    for call in (
        lambda: store.load("nope"),
        lambda: store.chunks("nope"),
        lambda: store.read_provenance("nope"),
        lambda: store.delete("nope"),
        lambda: load_games("nope", root=store.root),
        lambda: store.load_chunks("cfg", [0, 5]),
    ):
        with pytest.raises(KeyError) as info:
            call()
        message = str(info.value)
        assert "\n" not in message and not message.startswith("'")
        assert ".keys()" in message or ".chunks(" in message or "provenance" in message
    assert not store.has_chunk("nope", 0)


@pytest.mark.parametrize("key", ["", ".", "..", "../outside", "a/b", ".tmp-x"])
def test_invalid_keys_are_refused(store, key):
    with pytest.raises(ValueError):
        store.write_chunk(key, 0, games(1))


def test_invalid_chunk_index(store):
    with pytest.raises(ValueError):
        store.write_chunk("cfg", -1, games(1))
    with pytest.raises(TypeError):
        store.write_chunk("cfg", 1.5, games(1))
