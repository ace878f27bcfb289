"""Files written whole or not at all: the one atomic writer of the store and every user file.

:func:`write_atomically` has ``write(temporary)`` fill a new temporary file in the target's
folder, flushes it to disk (fsync), gives it the mode ``open(path, "w")`` would give the
target, renames it onto the target (``os.replace``, atomic on POSIX) and flushes the folder, so
that the rename itself survives a crash. Until the rename the target is untouched; on any error,
KeyboardInterrupt or SystemExit (a signal) the temporary file is removed, so nothing is ever
half-written under a final name and nothing is left behind.

The temporary name is :data:`TEMP_PREFIX` and 24 hex digits, whatever the target's name: it
cannot collide with a user's file (it is created exclusively, never opened over something
there) and it never makes a legal name too long (a 255-byte name stays writable). The store's
readers skip names with this prefix and a resume removes stale ones.

A failure is raised as :class:`WriteError`, an ``OSError`` that names the target (not the
temporary) and keeps the ``errno``, so that a caller that handles ``OSError`` handles it.
"""

from __future__ import annotations

import errno
import os
import stat
import uuid
from collections.abc import Callable

#: The prefix of every temporary file this package writes (the store skips such files).
TEMP_PREFIX = ".tmp-"


class WriteError(OSError):
    """A file could not be written; the message is one line naming the target."""

    def __str__(self) -> str:
        return str(self.strerror)


def temporary_name(folder: str) -> str:
    """A fresh temporary path in ``folder``: short and of fixed length."""
    return os.path.join(folder, f"{TEMP_PREFIX}{uuid.uuid4().hex[:24]}")


def _new_file_mode(path: str) -> int:
    """The mode ``open(path, "w")`` would give: the file's own if it exists, else 0666 less
    the umask (read by setting it and putting it back: there is no other way to read it)."""
    try:
        return stat.S_IMODE(os.stat(path).st_mode)
    except OSError:
        umask = os.umask(0o022)
        os.umask(umask)
        return 0o666 & ~umask


def fsync_folder(folder: str) -> None:
    """Make a rename in ``folder`` durable (folders cannot be opened for fsync outside POSIX)."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def _reason(exc: OSError) -> str:
    return " ".join(str(exc.strerror or exc).split())


def _shown(path: str) -> str:
    from .paths import shorten

    return repr(shorten(path))


def write_atomically(path, write: Callable[[str], object], what: str = "output",
                     mode: int | None = None) -> None:
    """Have ``write(temporary)`` fill a temporary file, then rename it onto ``path``.

    ``write`` receives the temporary file's name (it exists, empty) and may open it as it
    likes. ``mode`` is the new file's permission bits (default: those ``open()`` would give).
    Raises :class:`WriteError` naming ``what`` and ``path`` on any ``OSError``."""
    path = os.fspath(path)
    folder = os.path.dirname(path) or "."
    tmp = temporary_name(folder)
    # created inside the try, so that the finally removes it whatever ends the write (a
    # signal's KeyboardInterrupt the moment after it was created included)
    ours = True
    try:
        try:
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        except OSError as exc:
            ours = exc.errno != errno.EEXIST  # never remove a file this call did not make
            raise WriteError(exc.errno, f"{what} {_shown(path)}: cannot write in folder "
                                        f"{_shown(folder)}: {_reason(exc)}") from None
        os.close(fd)
        write(tmp)
        fd = os.open(tmp, os.O_RDONLY)
        try:
            os.fsync(fd)  # the data reaches the disk before the name does
        finally:
            os.close(fd)
        os.chmod(tmp, _new_file_mode(path) if mode is None else mode)  # not mkstemp's 0600
        os.replace(tmp, path)
    except WriteError:
        raise
    except OSError as exc:
        raise WriteError(exc.errno, f"{what} {_shown(path)}: cannot write: {_reason(exc)}"
                         ) from None
    finally:
        if ours:
            try:
                os.unlink(tmp)
            except FileNotFoundError:
                pass  # renamed into place, or never created
            except OSError:
                pass  # e.g. the folder became read-only: nothing more can be done here
    fsync_folder(folder)


__all__ = ["TEMP_PREFIX", "WriteError", "write_atomically", "fsync_folder", "temporary_name"]
