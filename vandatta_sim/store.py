"""The result store of sweeps: per-game tables as Parquet, one file per (configuration, chunk).

Layout under a root folder (``results/`` by default)::

    ROOT/KEY/provenance.json        how the games were made (JSON, sorted keys)
    ROOT/KEY/chunk-000123.parquet   the games of chunk 123

Every file is written to a ``.tmp-`` file in the same folder, flushed and fsynced, then renamed
into place with ``os.replace`` (atomic on POSIX) and the folder fsynced. A crash or a full disk
therefore never leaves a partial file under a final name, and readers skip ``.tmp-`` files; a
sweep can resume by rewriting the chunks that :meth:`Store.chunks` does not list.

Chunk files are deterministic: the same DataFrame always gives the same bytes (no index, no
pandas metadata, fixed compression), so reruns can be compared by checksum.
"""

from __future__ import annotations

import json
import operator
import os
import re
import shutil
import time
import uuid
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

DEFAULT_ROOT = "results"
PROVENANCE = "provenance.json"
TEMP_PREFIX = ".tmp-"
COMPRESSION = "zstd"
#: Provenance fields copied into :meth:`Store.summary` (missing where a key's provenance lacks one).
SUMMARY_FIELDS = ("label", "rules_preset", "players", "policies")

_CHUNK_NAME = re.compile(r"chunk-(\d+)\.parquet")


class MissingKeyError(KeyError):
    """A configuration key (or one of its chunks) that is not in the store."""

    def __str__(self) -> str:
        # KeyError's own __str__ quotes its message like a repr; print it as the sentence it is.
        return str(self.args[0])


def _fsync_dir(folder: Path) -> None:
    # Makes the rename itself durable; directories cannot be opened for fsync outside POSIX.
    if os.name != "posix":
        return
    fd = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _atomic_write(path: Path, write) -> None:
    """Call ``write(file)`` on a temporary file next to ``path``, then move it into place."""
    path.parent.mkdir(parents=True, exist_ok=True)
    # A unique name, so concurrent writers of the same file never share a temporary file.
    tmp = path.with_name(f"{TEMP_PREFIX}{uuid.uuid4().hex}-{path.name}")
    try:
        with open(tmp, "xb") as f:
            write(f)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    _fsync_dir(path.parent)


class Store:
    """Per-game result tables of a sweep, keyed by configuration key, stored under ``root``."""

    def __init__(self, root: str | os.PathLike = DEFAULT_ROOT):
        self.root = Path(root)

    def __repr__(self) -> str:
        return f"Store({str(self.root)!r})"

    # -- paths ---------------------------------------------------------------------------------

    def _folder(self, key: str) -> Path:
        # Keys become folder names: refuse anything that could escape the root (delete() removes
        # whole folders) or be mistaken for a hidden or temporary file.
        if not key or key.startswith(".") or "/" in key or "\\" in key:
            raise ValueError(f"invalid configuration key {key!r}")
        return self.root / key

    def _existing_folder(self, key: str) -> Path:
        folder = self._folder(key)
        if not folder.is_dir():
            raise MissingKeyError(
                f"no results for key {key!r} in {str(self.root)!r}; "
                f"list the stored keys with {self!r}.keys() or .summary()"
            )
        return folder

    def _chunk_path(self, key: str, index: int) -> Path:
        index = operator.index(index)
        if index < 0:
            raise ValueError(f"chunk index must be >= 0, got {index}")
        return self._folder(key) / f"chunk-{index:06d}.parquet"

    # -- chunks --------------------------------------------------------------------------------

    def write_chunk(self, key: str, index: int, df: pd.DataFrame) -> Path:
        """Atomically write ``df`` as chunk ``index`` of ``key`` (replacing any previous one)."""
        # Without the index and pandas' schema metadata the bytes depend on the data alone.
        table = pa.Table.from_pandas(df, preserve_index=False).replace_schema_metadata(None)
        path = self._chunk_path(key, index)
        _atomic_write(path, lambda f: pq.write_table(table, f, compression=COMPRESSION))
        return path

    def has_chunk(self, key: str, index: int) -> bool:
        return self._chunk_path(key, index).is_file()

    def chunks(self, key: str) -> list[int]:
        """Sorted indices of the chunks stored for ``key`` (temporary files are not chunks)."""
        folder = self._existing_folder(key)
        found = (_CHUNK_NAME.fullmatch(p.name) for p in folder.iterdir())
        return sorted(int(m.group(1)) for m in found if m)

    def chunk_rows(self, key: str) -> dict[int, int]:
        """Rows of every stored chunk of ``key``, by chunk index, in chunk order; empty when
        nothing is stored for ``key``. Read from the Parquet footers, not the column data."""
        if not self._folder(key).is_dir():
            return {}
        return {i: pq.read_metadata(self._chunk_path(key, i)).num_rows for i in self.chunks(key)}

    def read_column(self, key: str, index: int, column: str) -> np.ndarray:
        """One column of chunk ``index`` of ``key`` as a numpy array (only that column is read)."""
        path = self._chunk_path(key, index)
        if not path.is_file():
            raise MissingKeyError(f"chunk {index} of key {key!r} is not stored; "
                                  f"see {self!r}.chunks({key!r})")
        return pq.read_table(path, columns=[column]).column(column).to_numpy()

    def _temp_files(self, key: str) -> list[Path]:
        folder = self._folder(key)
        return list(folder.glob(f"{TEMP_PREFIX}*")) if folder.is_dir() else []

    def clean_temp(self, key: str) -> int:
        """Remove temporary files left by a crashed writer; returns how many were removed.

        Only call this while nothing is writing to ``key``: a live writer's temporary file
        looks the same as a stale one.
        """
        stale = self._temp_files(key)
        for path in stale:
            path.unlink(missing_ok=True)
        return len(stale)

    def clean_stale_temp(self, key: str, older_than_seconds: float) -> int:
        """Remove the temporary files of ``key`` not modified for ``older_than_seconds``, which a
        dead writer left; returns how many were removed. A live writer's file is younger, so
        this is safe while another process may be writing."""
        limit = time.time() - older_than_seconds
        removed = 0
        for path in self._temp_files(key):
            try:
                if path.stat().st_mtime < limit:
                    path.unlink()
                    removed += 1
            except OSError:
                pass  # gone already, or not ours to remove: readers skip it either way
        return removed

    def load_chunks(self, key: str, indices, columns: list[str] | None = None) -> pd.DataFrame:
        """The given chunks of ``key``, concatenated in the order given, with a fresh index."""
        self._existing_folder(key)
        indices = list(indices)
        paths = [self._chunk_path(key, i) for i in indices]
        for i, path in zip(indices, paths):
            if not path.is_file():
                raise MissingKeyError(
                    f"chunk {i} of key {key!r} is not stored; see {self!r}.chunks({key!r})"
                )
        if not paths:
            return pd.DataFrame(columns=columns or [])
        tables = [pq.read_table(path, columns=columns) for path in paths]
        # A table without pandas metadata converts with a RangeIndex: the index is already reset.
        return pa.concat_tables(tables).to_pandas()

    def load(self, key: str, columns: list[str] | None = None) -> pd.DataFrame:
        """All chunks of ``key`` in chunk order (optionally only some columns)."""
        return self.load_chunks(key, self.chunks(key), columns)

    # -- provenance ----------------------------------------------------------------------------

    def write_provenance(self, key: str, provenance: dict) -> None:
        text = json.dumps(provenance, sort_keys=True, indent=2) + "\n"
        _atomic_write(self._folder(key) / PROVENANCE, lambda f: f.write(text.encode()))

    def read_provenance(self, key: str) -> dict:
        path = self._existing_folder(key) / PROVENANCE
        if not path.is_file():
            raise MissingKeyError(f"key {key!r} has chunks but no {PROVENANCE} in {self!r}")
        return json.loads(path.read_text())

    def update_provenance(self, key: str, **fields) -> dict:
        """Set ``fields`` in the provenance of ``key`` and return the result.

        Read-modify-write: atomic against crashes, but not against a concurrent updater.
        """
        provenance = self.read_provenance(key) | fields
        self.write_provenance(key, provenance)
        return provenance

    # -- whole keys ----------------------------------------------------------------------------

    def keys(self) -> list[str]:
        """Sorted configuration keys that have a provenance file."""
        if not self.root.is_dir():
            return []
        return sorted(p.parent.name for p in self.root.glob(f"*/{PROVENANCE}"))

    def summary(self) -> pd.DataFrame:
        """One row per key: games and chunks stored, plus :data:`SUMMARY_FIELDS` of provenance.

        Games are counted from the Parquet footers, without reading any column data.
        """
        rows = []
        for key in self.keys():
            chunk_rows = self.chunk_rows(key)
            provenance = self.read_provenance(key)
            rows.append(
                {"key": key, "games": sum(chunk_rows.values()), "chunks": len(chunk_rows)}
                | {field: provenance.get(field) for field in SUMMARY_FIELDS}
            )
        return pd.DataFrame(rows, columns=["key", "games", "chunks", *SUMMARY_FIELDS])

    def delete(self, key: str) -> None:
        """Remove ``key`` with all its chunks and provenance."""
        shutil.rmtree(self._existing_folder(key))


def load_games(key: str, root: str | os.PathLike = DEFAULT_ROOT, columns=None) -> pd.DataFrame:
    """All stored games of ``key`` under ``root`` (see :meth:`Store.load`)."""
    return Store(root).load(key, columns)
