"""How the command line ends on Ctrl-C (SIGINT) or SIGTERM: one line, exit 128 + signal.

Two phases. While the command line's modules import (numpy, pandas, numba: seconds), nothing has
been written yet, so :func:`exit_quietly_on_signals` ends the process at once with one line
instead of a KeyboardInterrupt traceback from inside an import. While a sweep runs,
:func:`interrupts_end_the_run` turns the first signal into KeyboardInterrupt (so that the run
cleans up and records itself as interrupted) and remembers it, so that a signal swallowed by a
library (e.g. while numba loads its cached kernels) still stops the run after the next chunk.
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
import threading

_SIGNALS = (signal.SIGINT, signal.SIGTERM)


def _main_thread() -> bool:
    # signal handlers can only be set in the main thread (a test may run commands elsewhere)
    return threading.current_thread() is threading.main_thread()


class _QuietExit:
    """Handlers that end the process with one line while nothing has been written."""

    def __init__(self):
        self.previous = {}
        if _main_thread():
            self.previous = {sig: signal.signal(sig, self) for sig in _SIGNALS}

    def __call__(self, signum, frame):
        os.write(2, b"\ninterrupted before any work started; nothing was written; "
                    b"run the same command again\n")
        os._exit(128 + signum)

    def restore(self) -> None:
        for sig, old in self.previous.items():
            if signal.getsignal(sig) is self:
                signal.signal(sig, old)
        self.previous = {}


def exit_quietly_on_signals() -> _QuietExit:
    """Until ``.restore()``: SIGINT/SIGTERM end the process with one line, exit 128 + signal."""
    return _QuietExit()


class Signals:
    """SIGINT/SIGTERM during a run: the first raises KeyboardInterrupt in the main thread and is
    remembered; later ones are only remembered, so that cleanup finishes."""

    def __init__(self):
        self.received: int | None = None

    def __call__(self, signum, frame):
        first = self.received is None
        self.received = self.received or signum
        if first:
            raise KeyboardInterrupt

    def stop_requested(self) -> bool:
        return self.received is not None


@contextlib.contextmanager
def interrupts_end_the_run(message: str):
    """Run the body with :class:`Signals` installed (yielded); on a signal, or a
    KeyboardInterrupt, print ``message`` as one line on stderr and exit 130 (SIGINT) or 143
    (SIGTERM)."""
    handler = Signals()
    previous = {sig: signal.signal(sig, handler) for sig in _SIGNALS} if _main_thread() else {}
    try:
        try:
            yield handler
        except KeyboardInterrupt:
            handler.received = handler.received or signal.SIGINT
        if handler.received is not None:  # also one that a library swallowed
            sys.stderr.write(f"\n{message}\n")
            sys.stdout.flush()
            sys.stderr.flush()
            # The run has cleaned up (the store records it as interrupted). Leave at once: a
            # KeyboardInterrupt still pending in a library, raised while SystemExit unwound the
            # interpreter, once turned the exit status into death by SIGINT (-2) after SIGTERM.
            os._exit(128 + handler.received)
    finally:
        for sig, old in previous.items():
            signal.signal(sig, old)
