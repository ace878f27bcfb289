"""The result store of sweeps: per-game tables as Parquet, one file per (configuration, chunk).

Layout under a root folder (``results/`` by default)::

    ROOT/KEY/provenance.json        how the games were made (JSON, sorted keys)
    ROOT/KEY/chunk-000123.parquet   the games of chunk 123

Every file is written by :func:`vandatta_sim.atomic.write_atomically`: to a ``.tmp-`` file in
the same folder, flushed and fsynced, then renamed into place with ``os.replace`` (atomic on
POSIX) and the folder fsynced. A crash or a full disk
therefore never leaves a partial file under a final name, and readers skip ``.tmp-`` files; a
sweep can resume by rewriting the chunks that :meth:`Store.chunks` does not list.

Chunk files are deterministic: the same DataFrame always gives the same bytes (no index, no
pandas metadata, fixed compression), so reruns can be compared by checksum.

Every chunk proves what it holds: its Parquet key-value metadata records its configuration key,
chunk index, first game, row count, ``ENGINE_VERSION`` and a sha256 of each column's data (see
:func:`column_digest`). Every read checks them (:class:`BadChunkError` names the file and the
reason); :meth:`Store.chunk_rows` lists only chunks whose footer proof holds, and
:meth:`Store.verify` also checks the data. A chunk that fails (truncated, garbage, another key's,
a symlink, another engine version, or written before chunks carried a proof) is never read as
data; :meth:`Store.quarantine` moves it into ``KEY/quarantine/`` (never deleting it) so that a
sweep recomputes it. A key folder that is a symlink is refused: the store never writes or reads
through a link out of its folder.

Writers of one key hold :meth:`Store.lock` (``fcntl.flock`` on ``KEY/.lock``), so concurrent
sweeps serialise per configuration; under the lock every temporary file of the key is stale.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import operator
import os
import re
import shutil
import time
import uuid
from datetime import UTC, datetime
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

from . import ENGINE_VERSION
from .atomic import TEMP_PREFIX, fsync_folder, write_atomically
from .paths import shorten

try:  # POSIX; elsewhere the store runs without the per-key lock
    import fcntl
except ImportError:  # pragma: no cover
    fcntl = None

DEFAULT_ROOT = "results"
PROVENANCE = "provenance.json"
COMPRESSION = "zstd"
#: Provenance fields copied into :meth:`Store.summary` (missing where a key's provenance lacks one).
SUMMARY_FIELDS = ("label", "rules_preset", "players", "policies")

LOCK_FILE = ".lock"
QUARANTINE = "quarantine"
#: The proof a chunk carries in its Parquet key-value metadata.
PROOF_FIELDS = ("key", "chunk", "first_game", "rows", "engine_version", "sha256")
_PROOF_PREFIX = "vandatta."

_CHUNK_NAME = re.compile(r"chunk-(\d{6,})\.parquet")
#: provenance.json is at most this large (20 runs of a long command line are a few kB).
MAX_PROVENANCE_BYTES = 1 << 20
_NONE = type(None)
#: The provenance fields this package reads, with the types it needs: the file is input like
#: any other (a hand edit, another program), so a field of another type makes the whole file
#: "damaged", reported by name, never a crash where the field is used.
PROVENANCE_TYPES = {
    "key": str, "label": (str, _NONE), "players": int, "chunk_size": int, "seed": int,
    "engine_version": int, "runs": list, "policies": (list, _NONE), "forget": (list, _NONE),
    "games_stored": int, "chunks_stored": int, "created": str, "updated": str,
    "match": str, "rules": dict, "rules_preset": (str, _NONE), "rules_diff": (dict, _NONE),
    "swap": (str, _NONE), "swap_seat": (int, _NONE), "command": str, "backend": str,
    "precision": (dict, _NONE), "packages": dict, "rules_key": str,
    "simulator_version": str,
}


class BadChunkError(ValueError):
    """A stored chunk that does not prove it holds what its name says (the message names it)."""


class BadProvenanceError(ValueError):
    """A ``provenance.json`` that is not a JSON object of the expected fields (the message
    names the file and what is wrong)."""


class UnsafeStoreError(OSError):
    """A store path that would lead out of the store (a key folder that is a symlink)."""

    def __str__(self) -> str:
        return str(self.args[0])


def column_digest(column: pa.ChunkedArray) -> str:
    """sha256 of one column in a canonical form: its Arrow type, length and values as numpy
    bytes (JSON for non-numeric values), independent of how Parquet chunked or encoded it."""
    h = hashlib.sha256(f"{column.type}|{len(column)}|{column.null_count}|".encode())
    values = column.to_numpy(zero_copy_only=False)
    if values.dtype == object:
        h.update(json.dumps(values.tolist(), default=str).encode())
    else:
        h.update(np.ascontiguousarray(values).tobytes())
    return h.hexdigest()


def _proof_of(metadata: dict | None) -> dict | None:
    """The proof recorded in Parquet key-value ``metadata`` (None when it carries none)."""
    metadata = metadata or {}
    try:
        proof = {f: json.loads(metadata[(_PROOF_PREFIX + f).encode()]) for f in PROOF_FIELDS}
    except (KeyError, ValueError, UnicodeDecodeError):
        return None
    return proof if isinstance(proof["sha256"], dict) else None


class MissingKeyError(KeyError):
    """A configuration key (or one of its chunks) that is not in the store."""

    def __str__(self) -> str:
        # KeyError's own __str__ quotes its message like a repr; print it as the sentence it is.
        return str(self.args[0])


def _atomic_write(path: Path, write) -> None:
    """Call ``write(temporary_name)``, then move the file into place (:mod:`~vandatta_sim.atomic`:
    fsynced, a unique temporary name, never half-written, nothing left behind)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    write_atomically(path, write, "store file")


class Store:
    """Per-game result tables of a sweep, keyed by configuration key, stored under ``root``."""

    def __init__(self, root: str | os.PathLike = DEFAULT_ROOT):
        if not str(root):
            raise ValueError("the store folder must not be empty")
        self.root = Path(root)
        # chunk path -> (file identity, reason) of chunks verify() found bad
        self._known_bad: dict[Path, tuple[tuple, str]] = {}

    def __repr__(self) -> str:
        return f"Store({str(self.root)!r})"

    # -- paths ---------------------------------------------------------------------------------

    def _folder(self, key: str) -> Path:
        # Keys become folder names: refuse anything that could escape the root (delete() removes
        # whole folders) or be mistaken for a hidden or temporary file.
        if not key or key.startswith(".") or "/" in key or "\\" in key:
            raise ValueError(f"invalid configuration key {key!r}")
        folder = self.root / key
        if folder.is_symlink():
            raise UnsafeStoreError(f"key folder {str(folder)!r} is a symlink; the store never "
                                   "follows links out of its folder (move the folder in place)")
        return folder

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

    def write_chunk(self, key: str, index: int, df: pd.DataFrame,
                    first_game: int | None = None) -> Path:
        """Atomically write ``df`` as chunk ``index`` of ``key`` (replacing any previous one),
        with its proof; ``first_game``: the game number of its first row (None: unknown)."""
        # Without the index and pandas' schema metadata the bytes depend on the data alone.
        table = pa.Table.from_pandas(df, preserve_index=False).replace_schema_metadata(None)
        path = self._chunk_path(key, index)
        proof = {"key": key, "chunk": operator.index(index), "first_game": first_game,
                 "rows": table.num_rows, "engine_version": ENGINE_VERSION,
                 "sha256": {name: column_digest(table.column(name))
                            for name in table.column_names}}
        table = table.replace_schema_metadata(
            {_PROOF_PREFIX + f: json.dumps(proof[f], sort_keys=True) for f in PROOF_FIELDS})
        _atomic_write(path, lambda tmp: pq.write_table(table, tmp, compression=COMPRESSION))
        return path

    def has_chunk(self, key: str, index: int) -> bool:
        return self._chunk_path(key, index).is_file()

    def chunks(self, key: str) -> list[int]:
        """Sorted indices of the chunks stored for ``key``: only names this store writes
        (``chunk-7.parquet`` or a temporary file is no chunk, see :meth:`foreign_files`)."""
        return sorted(index for index, _ in self._chunk_names(key))

    def _chunk_names(self, key: str) -> list[tuple[int, str]]:
        folder = self._existing_folder(key)
        found = []
        for name in self._entries(folder):
            match = _CHUNK_NAME.fullmatch(name)
            if match and name == f"chunk-{int(match.group(1)):06d}.parquet":
                found.append((int(match.group(1)), name))
        return found

    @staticmethod
    def _entries(folder: Path) -> list[str]:
        try:
            return os.listdir(folder)
        except OSError as exc:
            raise UnsafeStoreError(f"key folder {str(folder)!r} cannot be read: "
                                   f"{exc.strerror or exc}") from None

    def foreign_files(self, key: str) -> list[Path]:
        """The entries of ``key``'s folder that this store did not write (not a chunk name, not
        provenance, lock, quarantine or a temporary file), e.g. ``chunk-7.parquet``; a
        quarantine that is not a real folder is foreign too."""
        folder = self._existing_folder(key)
        chunk_names = {name for _, name in self._chunk_names(key)}
        foreign = []
        for name in sorted(self._entries(folder)):
            path = folder / name
            if name in chunk_names or name.startswith(TEMP_PREFIX):
                continue
            if name == QUARANTINE and path.is_dir() and not path.is_symlink():
                continue
            if name in (PROVENANCE, LOCK_FILE) and path.is_file() and not path.is_symlink():
                continue
            foreign.append(path)
        return foreign

    def move_foreign_aside(self, key: str) -> list[tuple[Path, Path]]:
        """Move every foreign entry of ``key`` (:meth:`foreign_files`) into ``KEY/quarantine/``
        (a link as the link itself): nothing leaves the store and nothing is deleted. Returns
        (from, to) pairs. A ``provenance.json`` that is not a file is moved too (the run writes a
        fresh one)."""
        moved = []
        for path in self.foreign_files(key):
            if path.name == QUARANTINE:
                # a quarantine that is a link or a file: moved (never followed) into a fresh
                # quarantine folder of its own
                aside = path.with_name(f"{TEMP_PREFIX}{QUARANTINE}-{uuid.uuid4().hex[:8]}")
                os.replace(path, aside)
                target = self._quarantine_target(key, QUARANTINE)
                os.replace(aside, target)
            else:
                target = self._quarantine_target(key, path.name)
                os.replace(path, target)
            moved.append((path, target))
        if moved:
            fsync_folder(str(self._folder(key)))
        return moved

    def chunk_rows(self, key: str) -> dict[int, int]:
        """Rows of every good stored chunk of ``key``, by chunk index, in chunk order; empty
        when nothing is stored for ``key``. Read from the Parquet footers, not the column data:
        chunks whose footer proof fails, and those :meth:`verify` found bad, are left out."""
        if not self._folder(key).is_dir():
            return {}
        rows = {}
        for i in self.chunks(key):
            try:
                rows[i] = self._footer_proof(key, i)["rows"]
            except BadChunkError:
                pass
        return rows

    def chunk_columns(self, key: str, index: int) -> list[str]:
        """The column names of chunk ``index`` of ``key``, read from its footer proof (no column
        data); BadChunkError when the proof fails."""
        return sorted(self._footer_proof(key, index)["sha256"])

    def _footer_proof(self, key: str, index: int) -> dict:
        """The proof of chunk ``index`` of ``key`` after checking it against the footer and the
        file's name (BadChunkError naming the file and why otherwise)."""
        path = self._chunk_path(key, index)
        if path.is_symlink():
            raise BadChunkError(f"{path}: a symlink, not a chunk written by this store")
        if not path.exists():
            raise MissingKeyError(f"chunk {index} of key {key!r} is not stored; "
                                  f"see {self!r}.chunks({key!r})")
        if not path.is_file():
            raise BadChunkError(f"{path}: not a regular file")
        known = self._known_bad.get(path)
        if known is not None and known[0] == _identity(path):
            raise BadChunkError(known[1])
        try:
            metadata = pq.read_metadata(path)
        except (OSError, pa.ArrowException, ValueError) as exc:
            raise BadChunkError(f"{path}: unreadable, truncated or not Parquet "
                                f"({str(exc).splitlines()[0][:120]})") from None
        proof = _proof_of(metadata.metadata)
        if proof is None:
            raise BadChunkError(f"{path}: carries no proof of its content (written by an older "
                                "store, or its metadata is damaged)")
        if proof["key"] != key:
            raise BadChunkError(f"{path}: belongs to key {str(proof['key'])[:80]!r}")
        if proof["chunk"] != index:
            raise BadChunkError(f"{path}: is chunk {proof['chunk']} of its key, not {index}")
        if proof["engine_version"] != ENGINE_VERSION:
            raise BadChunkError(f"{path}: made by engine version {proof['engine_version']}, "
                                f"not {ENGINE_VERSION}")
        if proof["rows"] != metadata.num_rows:
            raise BadChunkError(f"{path}: records {proof['rows']} rows but holds "
                                f"{metadata.num_rows}")
        return proof

    def _read_checked(self, key: str, index: int, columns: list[str] | None) -> pa.Table:
        """The columns of chunk ``index`` of ``key``, after checking the proof and the sha256 of
        every column read (BadChunkError naming the file otherwise)."""
        proof = self._footer_proof(key, index)
        path = self._chunk_path(key, index)
        try:
            table = pq.read_table(path, columns=columns)
        except (OSError, pa.ArrowException, ValueError) as exc:
            raise BadChunkError(f"{path}: unreadable ({str(exc).splitlines()[0][:120]})") \
                from None
        digests = proof["sha256"]
        wanted = sorted(digests) if columns is None else sorted(columns)
        if sorted(table.column_names) != wanted or not set(wanted) <= set(digests) \
                or table.num_rows != proof["rows"]:
            raise BadChunkError(f"{path}: its columns or rows differ from its proof")
        for name in table.column_names:
            if column_digest(table.column(name)) != digests[name]:
                raise BadChunkError(f"{path}: column {name!r} fails its checksum")
        return table.replace_schema_metadata(None)

    def read_column(self, key: str, index: int, column: str) -> np.ndarray:
        """One column of chunk ``index`` of ``key`` as a numpy array (only that column is read,
        and checked against its checksum)."""
        return self._read_checked(key, index, [column]).column(column).to_numpy()

    def check_chunk(self, key: str, index: int) -> str | None:
        """Why chunk ``index`` of ``key`` is bad (one line naming the file), None when its
        proof and every column's checksum hold. Reads the whole chunk."""
        try:
            self._read_checked(key, index, None)
        except BadChunkError as exc:
            return str(exc)
        return None

    def verify(self, key: str) -> dict[int, str]:
        """Check every stored chunk of ``key`` in full; returns the bad ones (chunk index →
        reason). Bad chunks are then left out of :meth:`chunk_rows` by this Store."""
        bad = {}
        for i in self.chunks(key):
            reason = self.check_chunk(key, i)
            if reason is not None:
                bad[i] = reason
                path = self._chunk_path(key, i)
                if not path.is_symlink():
                    self._known_bad[path] = (_identity(path), reason)
        return bad

    def quarantine(self, key: str, index: int) -> Path:
        """Move chunk ``index`` of ``key`` (a symlink is moved as the link) into
        ``KEY/quarantine/`` under a unique name; returns where it went. Nothing is deleted."""
        path = self._chunk_path(key, index)
        target = self._quarantine_target(key, path.name)
        os.replace(path, target)
        self._known_bad.pop(path, None)
        fsync_folder(str(path.parent))
        return target

    def _quarantine_target(self, key: str, name: str) -> Path:
        """A fresh name in ``KEY/quarantine/``, a real folder inside the key's folder: one that
        is a symlink (which would move a chunk out of the store) is refused."""
        folder = self._folder(key) / QUARANTINE
        try:
            folder.mkdir()
        except FileExistsError:
            pass
        if folder.is_symlink() or not folder.is_dir():
            raise UnsafeStoreError(f"{str(folder)!r} is not a folder of the store (a symlink or "
                                   "a file); the store never moves files out of its folder")
        return folder / f"{name}.{_stamp()}-{uuid.uuid4().hex[:8]}"

    @contextlib.contextmanager
    def lock(self, key: str, wait_message=None):
        """Hold the writers' lock of ``key`` (``fcntl.flock`` on ``KEY/.lock``). When another
        process holds it, ``wait_message(pid)`` is called once (pid None: unknown), then this
        waits for it. The holder's pid is written into the lock file for that message."""
        folder = self._folder(key)
        folder.mkdir(parents=True, exist_ok=True)
        if fcntl is None:  # pragma: no cover
            yield
            return
        while True:
            fd = os.open(folder / LOCK_FILE, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW, 0o644)
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                if wait_message is not None:
                    text = os.pread(fd, 32, 0).decode(errors="replace").strip()
                    wait_message(int(text) if text.isdigit() else None)
                    wait_message = None
                fcntl.flock(fd, fcntl.LOCK_EX)
            # The holder may have removed the key (results rm): the lock then guards a file
            # no longer in the store; start again with a fresh folder.
            if _same_file(fd, folder / LOCK_FILE):
                break
            os.close(fd)
            folder.mkdir(parents=True, exist_ok=True)
        try:
            os.ftruncate(fd, 0)
            os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
            yield
        finally:
            os.close(fd)  # closing the descriptor releases the lock

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
        for i in indices:
            if not self._chunk_path(key, i).exists() and not self._chunk_path(key, i).is_symlink():
                raise MissingKeyError(
                    f"chunk {i} of key {key!r} is not stored; see {self!r}.chunks({key!r})"
                )
        if not indices:
            return pd.DataFrame(columns=columns or [])
        tables = [self._read_checked(key, i, columns) for i in indices]
        # A table without pandas metadata converts with a RangeIndex: the index is already reset.
        return pa.concat_tables(tables).to_pandas()

    def load(self, key: str, columns: list[str] | None = None) -> pd.DataFrame:
        """All chunks of ``key`` in chunk order (optionally only some columns)."""
        return self.load_chunks(key, self.chunks(key), columns)

    # -- provenance ----------------------------------------------------------------------------

    def write_provenance(self, key: str, provenance: dict) -> None:
        text = json.dumps(provenance, sort_keys=True, indent=2) + "\n"
        _atomic_write(self._folder(key) / PROVENANCE,
                      lambda tmp: Path(tmp).write_bytes(text.encode()))

    def read_provenance(self, key: str) -> dict:
        """The provenance of ``key``, checked as untrusted input: MissingKeyError when there
        is none, BadProvenanceError (naming the file) when it is not a regular file, not JSON,
        nested too deep, not an object, or has a field of the wrong type
        (:data:`PROVENANCE_TYPES`)."""
        from .paths import PathError, read_text_file

        path = self._existing_folder(key) / PROVENANCE
        if not path.exists() and not path.is_symlink():
            raise MissingKeyError(f"key {key!r} has chunks but no {PROVENANCE} in {self!r}")
        if path.is_symlink():
            raise BadProvenanceError(f"{path}: a symlink, not written by this store")
        try:
            data = json.loads(read_text_file(path, MAX_PROVENANCE_BYTES))
        except PathError as exc:  # its message names the file
            raise BadProvenanceError(str(exc).removeprefix("cannot read ")) from None
        except (ValueError, RecursionError) as exc:
            reason = "nested too deep" if isinstance(exc, RecursionError) else "not valid JSON"
            raise BadProvenanceError(f"{path}: {reason}") from None
        if not isinstance(data, dict):
            raise BadProvenanceError(f"{path}: holds {type(data).__name__}, not a JSON object")
        for field, kind in PROVENANCE_TYPES.items():
            value = data.get(field)
            if field in data and (not isinstance(value, kind) or isinstance(value, bool)):
                raise BadProvenanceError(f"{path}: field {field!r} is {shorten(repr(value))}, "
                                         "of the wrong type")
        if any(not isinstance(run, dict) for run in data.get("runs", [])):
            raise BadProvenanceError(f"{path}: field 'runs' holds something other than objects")
        return data

    def update_provenance(self, key: str, **fields) -> dict:
        """Set ``fields`` in the provenance of ``key`` and return the result.

        Read-modify-write: atomic against crashes, but not against a concurrent updater.
        """
        provenance = self.read_provenance(key) | fields
        self.write_provenance(key, provenance)
        return provenance

    def provenance_warnings(self, key: str) -> list[str]:
        """Where ``provenance.json`` of ``key`` contradicts its good chunks (chunk size, engine
        version), or is missing or damaged: one line each; empty when they agree."""
        try:
            provenance = self.read_provenance(key)
        except BadProvenanceError as exc:
            return [str(exc)]
        except KeyError:
            return [f"{self._folder(key) / PROVENANCE}: missing"]
        warnings = []
        if provenance.get("engine_version") != ENGINE_VERSION:
            warnings.append(f"{PROVENANCE} of {key} says engine version "
                            f"{provenance.get('engine_version')!r} but its chunks were made by "
                            f"engine version {ENGINE_VERSION}")
        size = provenance.get("chunk_size")
        for i, rows in self.chunk_rows(key).items():
            first = self._footer_proof(key, i)["first_game"]
            if not isinstance(size, int) or rows > size or (
                    first is not None and first != i * size):
                warnings.append(f"{PROVENANCE} of {key} says chunks of {size!r} games but chunk "
                                f"{i} holds {rows} games from game {first}")
                break
        return warnings

    # -- whole keys ----------------------------------------------------------------------------

    def keys(self) -> list[str]:
        """Sorted configuration keys that have a provenance file."""
        if not self.root.is_dir():
            return []
        return sorted(p.parent.name for p in self.root.glob(f"*/{PROVENANCE}")
                      if not p.parent.is_symlink() and not p.parent.name.startswith("."))

    def summary(self) -> pd.DataFrame:
        """One row per key: games and chunks stored, plus :data:`SUMMARY_FIELDS` of provenance.

        Games are counted from the Parquet footers, without reading any column data.
        """
        rows = []
        for key in self.keys():
            chunk_rows = self.chunk_rows(key)
            try:
                provenance = self.read_provenance(key)
            except (KeyError, ValueError):  # damaged: list the key without its description
                provenance = {}
            rows.append(
                {"key": key, "games": sum(chunk_rows.values()), "chunks": len(chunk_rows)}
                | {field: provenance.get(field) for field in SUMMARY_FIELDS}
            )
        return pd.DataFrame(rows, columns=["key", "games", "chunks", *SUMMARY_FIELDS])

    def delete(self, key: str) -> None:
        """Remove ``key`` with all its chunks and provenance: all or nothing. The folder is
        first renamed to a temporary name in the root (nothing is touched when that fails, e.g.
        on a read-only store), then removed; a writer waiting for the key's lock then finds
        its lock file gone and starts a fresh folder (see :meth:`lock`)."""
        folder = self._existing_folder(key)
        doomed = self.root / f"{TEMP_PREFIX}deleted-{key}-{uuid.uuid4().hex[:8]}"
        os.replace(folder, doomed)
        fsync_folder(str(self.root))
        shutil.rmtree(doomed, ignore_errors=True)


def _stamp() -> str:
    return datetime.now(UTC).strftime("%Y%m%dT%H%M%S")


def _same_file(fd: int, path: Path) -> bool:
    try:
        st = os.stat(path, follow_symlinks=False)
    except OSError:
        return False
    own = os.fstat(fd)
    return (st.st_dev, st.st_ino) == (own.st_dev, own.st_ino)


def _identity(path: Path) -> tuple:
    # What tells a rewritten file from the one checked: a rewrite is a new inode (rename).
    st = path.stat()
    return st.st_ino, st.st_size, st.st_mtime_ns


def load_games(key: str, root: str | os.PathLike = DEFAULT_ROOT, columns=None) -> pd.DataFrame:
    """All stored games of ``key`` under ``root`` (see :meth:`Store.load`)."""
    return Store(root).load(key, columns)
