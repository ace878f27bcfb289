"""The user's input: paths checked before the work starts, files read within limits, and the
one rule for a typed number (:func:`is_ascii_number`, the command line's and the table's).

Every command that writes a user file checks its path with :func:`check_output_file` before
any work (and writes it with :func:`vandatta_sim.atomic.write_atomically`); every command that
reads a user's TOML file reads it with :func:`read_text_file` and :func:`loads_toml`. Each
problem raises :class:`PathError` (a ``ValueError``) with a one-line message naming the path
and what is allowed.
"""

from __future__ import annotations

import json
import os
import stat
import tempfile
import tomllib
from pathlib import Path


def is_ascii_number(text: str) -> bool:
    """Only ASCII digits make a number (the rule for every number a user types, on the command
    line and at the table): str.isdigit() also accepts "²", int() reads "٣"."""
    return text.isascii() and text.isdigit()


#: Rules and sweep files are a few kilobytes; 1 MiB leaves room for comments and long grids
#: while refusing /dev/zero or a mistyped data file before it fills memory.
MAX_TEXT_FILE_BYTES = 1 << 20
#: The deepest nesting of tables and arrays in a TOML input: a sweep file needs 3 levels
#: ([[grid]] → vary → list); tomllib recurses per level and fails at Python's recursion limit.
MAX_TOML_DEPTH = 32
#: The largest integer a TOML input may hold (TOML's own limit, a signed 64-bit integer;
#: tomllib reads any size, and thousands of digits cost seconds where they are used).
MAX_TOML_INT = 2**63
#: Values echoed in messages are cut to this many characters (an input can be megabytes).
MAX_ECHO = 80


class PathError(ValueError):
    """A path the command cannot use or a file it cannot read; the message is one line."""


def shorten(text: str, limit: int = MAX_ECHO) -> str:
    """``text`` on one line, cut to ``limit`` characters with a note of the full length."""
    text = " ".join(str(text).split())
    if len(text) <= limit:
        return text
    return f"{text[:limit - 1]}…({len(text):,} characters)"


def _reason(exc: OSError) -> str:
    return " ".join(str(exc.strerror or exc).split())


def _show(path) -> str:
    return repr(shorten(os.fspath(path)))


def _probe_folder(folder: str, what: str, path) -> None:
    """Create and remove a unique file in ``folder``: the one sure test that a file can be
    written there (permission bits say nothing for root, /proc accepts no new files)."""
    try:
        fd, probe = tempfile.mkstemp(prefix=".vandatta-probe-", dir=folder)
    except OSError as exc:
        raise PathError(f"{what} {_show(path)}: cannot write in folder "
                        f"{_show(folder or '.')}: {_reason(exc)}") from None
    os.close(fd)
    os.unlink(probe)


def check_output_file(path, what: str, suffixes: tuple[str, ...] = ()) -> Path:
    """``path`` as a file this process can create or replace, or PathError: a non-empty name
    ending in one of ``suffixes``, in an existing folder reached as written (``nodir/..`` is
    refused like the shell refuses it), where files can be created, and, if something is
    already there, a regular file (not a folder, a device or a special file)."""
    text = os.fspath(path)
    if not text.strip():
        raise PathError(f"{what} {_show(text)}: empty; allowed: a file name")
    name = os.path.basename(text)
    if not name or name in (".", ".."):
        raise PathError(f"{what} {_show(text)}: not a file name")
    if suffixes and not name.lower().endswith(suffixes):
        raise PathError(f"{what} {_show(text)}: the file name must end in "
                        f"{' or '.join(suffixes)}")
    folder = os.path.dirname(text)
    # os.path.isdir asks the system about the path as written: "nodir/.." fails when nodir
    # does not exist, as it does for open(); Path.resolve() would collapse it away.
    if not os.path.isdir(folder or "."):
        missing = "is not a folder" if os.path.exists(folder) else "does not exist"
        raise PathError(f"{what} {_show(text)}: folder {_show(folder)} {missing}")
    try:
        mode = os.stat(text).st_mode
    except FileNotFoundError:
        mode = None
    except OSError as exc:
        raise PathError(f"{what} {_show(text)}: {_reason(exc)}") from None
    if mode is not None and not stat.S_ISREG(mode):
        kind = "a folder" if stat.S_ISDIR(mode) else "a special file"
        raise PathError(f"{what} {_show(text)}: {kind} is in the way; allowed: a new or "
                        "regular file")
    _probe_folder(folder, what, text)
    return Path(text)


def check_store_folder(path, what: str = "--store", write: bool = True) -> Path:
    """``path`` as a result-store folder, or PathError: non-empty, a folder if it exists, and
    with ``write``, a place where files (or the folder itself) can be created."""
    text = os.fspath(path)
    if not text.strip():
        raise PathError(f"{what} {_show(text)}: empty; allowed: a folder name")
    try:
        mode = os.stat(text).st_mode
    except FileNotFoundError:
        mode = None
    except NotADirectoryError:
        raise PathError(f"{what} {_show(text)}: a file is in the path; it is not a folder"
                        ) from None
    except OSError as exc:
        raise PathError(f"{what} {_show(text)}: {_reason(exc)}") from None
    if mode is not None and not stat.S_ISDIR(mode):
        raise PathError(f"{what} {_show(text)}: not a folder; allowed: a folder (new or a "
                        "result store)")
    if not write:
        return Path(text)
    if mode is not None:
        _probe_folder(text, what, text)
        return Path(text)
    # A new store is created with its missing parents: the nearest existing one must be a
    # folder that takes new entries.
    parent = os.path.dirname(os.path.normpath(os.path.abspath(text)))
    while not os.path.lexists(parent):
        parent = os.path.dirname(parent)
    if not os.path.isdir(parent):
        raise PathError(f"{what} {_show(text)}: {_show(parent)} is not a folder")
    _probe_folder(parent, what, text)
    return Path(text)


def read_text_file(path, limit: int = MAX_TEXT_FILE_BYTES) -> str:
    """The UTF-8 text of a regular file of at most ``limit`` bytes, or PathError
    ``cannot read PATH: why`` (a folder, a device such as /dev/zero or a pipe is refused
    unread, a larger file after ``limit`` bytes)."""
    try:
        # stat first and open without blocking: opening a named pipe would wait for a writer
        mode = os.stat(path).st_mode
        if stat.S_ISREG(mode):
            fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
            with open(fd, "rb") as handle:
                mode = os.fstat(handle.fileno()).st_mode  # the file opened, not the name
                data = handle.read(limit + 1) if stat.S_ISREG(mode) else b""
    except OSError as exc:
        raise PathError(f"cannot read {shorten(os.fspath(path))}: {_reason(exc)}") from None
    if not stat.S_ISREG(mode):
        kind = "a folder" if stat.S_ISDIR(mode) else "not a regular file"
        raise PathError(f"cannot read {shorten(os.fspath(path))}: {kind}; allowed: a regular file")
    if len(data) > limit:
        raise PathError(f"cannot read {shorten(os.fspath(path))}: larger than the limit of "
                        f"{limit:,} bytes")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise PathError(f"cannot read {shorten(os.fspath(path))}: not UTF-8 text") from None


def _depth(data) -> int:
    """Nesting depth of parsed TOML (tables and arrays), without recursion; a TOMLDecodeError
    for an integer beyond :data:`MAX_TOML_INT` on the way."""
    deepest, stack = 0, [(data, 1)]
    while stack:
        value, depth = stack.pop()
        deepest = max(deepest, depth)
        if depth > MAX_TOML_DEPTH:
            break
        children = list(value.values() if isinstance(value, dict) else value)
        for child in children:
            if isinstance(child, int) and not -MAX_TOML_INT <= child <= MAX_TOML_INT:
                raise tomllib.TOMLDecodeError(f"the integer {shorten(str(child))} is beyond "
                                              "the limit of ±2^63")
        stack.extend((v, depth + 1) for v in children if isinstance(v, dict | list))
    return deepest


def loads_toml(text: str) -> dict:
    """``tomllib.loads(text)`` with at most :data:`MAX_TOML_DEPTH` levels of tables and arrays:
    ValueError (a ``tomllib.TOMLDecodeError``) beyond, never a RecursionError."""
    try:
        data = tomllib.loads(text)
    except RecursionError:
        data = None
    except tomllib.TOMLDecodeError:
        raise
    except ValueError as exc:  # e.g. an integer of thousands of digits (int()'s own limit)
        raise tomllib.TOMLDecodeError(f"a value cannot be read: {shorten(str(exc))}") from None
    if data is None or _depth(data) > MAX_TOML_DEPTH:
        raise tomllib.TOMLDecodeError(f"nested deeper than the limit of {MAX_TOML_DEPTH} levels")
    return data


def read_json_file(path, what: str, limit: int = MAX_TEXT_FILE_BYTES):
    """The JSON data of a regular file of at most ``limit`` bytes, or PathError ``WHAT PATH
    cannot be read: why`` (damaged, not UTF-8, nested past Python's recursion limit, NaN or
    Infinity, which JSON has not)."""
    def no_constant(name):
        raise ValueError(f"{name} is not a JSON number")

    try:
        text = read_text_file(path, limit)
    except PathError as exc:
        raise PathError(f"{what}: {exc}") from None
    try:
        return json.loads(text, parse_constant=no_constant)
    except RecursionError:
        reason = "nested too deeply"
    except ValueError as exc:
        reason = str(exc)
    raise PathError(f"{what} {shorten(os.fspath(path))} cannot be read: {shorten(reason, 200)}")


__all__ = ["PathError", "MAX_TEXT_FILE_BYTES", "MAX_TOML_DEPTH", "shorten", "check_output_file",
           "check_store_folder", "read_text_file", "read_json_file", "loads_toml"]
