"""How the command line ends on Ctrl-C (SIGINT) or SIGTERM: one line, exit 128 + signal.

Three phases. While the command line's modules import (numpy, pandas, numba: seconds), nothing
has been written yet, so :func:`exit_quietly_on_signals` ends the process at once with one line
instead of a KeyboardInterrupt traceback from inside an import. Then, in every command,
:func:`signals_raise_interrupt` makes SIGTERM what SIGINT is: a KeyboardInterrupt, so that the
command's cleanup runs (the atomic writer removes its temporary file, the user's file stays as
it was) and the command line ends with one line, exit 130 or 143, instead of dying silently
with a temporary file left behind. While a sweep runs, :func:`interrupts_end_the_run` turns
the first signal into KeyboardInterrupt (so that the run cleans up and records itself as
interrupted) and remembers it, so that a signal swallowed by a library (e.g. while numba loads
its cached kernels) still stops the run after the next chunk. A signal that arrives where a
raised KeyboardInterrupt would be printed and ignored (inside llvmlite's callbacks while numba
loads or compiles a kernel, or inside a ``__del__``) is sent again 10 ms later instead, so it
raises once execution is back in ordinary code. While an event loop reads (prompt_toolkit's
prompt at the table), :func:`signals_stop` has the signal ask the loop to end the read instead:
raised inside the loop's callbacks, a KeyboardInterrupt can reach the loop's exception handler,
which prints it as an unhandled exception and waits for Enter.
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
import threading
from collections.abc import Callable

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

    def hand_over(self) -> dict:
        """The handlers from before these, forgotten here without being put back: the next
        handlers replace these directly, so that no signal ever meets the default (death by
        SIGTERM, no line) between the two."""
        previous, self.previous = self.previous, {}
        return previous


def exit_quietly_on_signals() -> _QuietExit:
    """Until ``.restore()``: SIGINT/SIGTERM end the process with one line, exit 128 + signal."""
    return _QuietExit()


def _raised_here_is_lost(frame) -> bool:
    """Whether a KeyboardInterrupt raised in ``frame`` would be printed with its traceback and
    then ignored: inside a ``__del__``, or inside llvmlite, whose callbacks from compiled code
    (numba loading or compiling a kernel) swallow what they raise."""
    while frame is not None:
        if frame.f_code.co_name == "__del__" or f"{os.sep}llvmlite{os.sep}" in (
                frame.f_code.co_filename):
            return True
        frame = frame.f_back
    return False


def _send_again_soon(signum: int) -> None:
    """The signal again in 10 ms, from a thread of its own: by then the callback has returned
    (sent at once, it would meet this handler's own next line, still inside the callback)."""
    timer = threading.Timer(0.01, os.kill, (os.getpid(), signum))
    timer.daemon = True
    timer.start()


def _raise_where_it_counts(signum: int, frame) -> None:
    """Raise KeyboardInterrupt, or where it would be lost, have the signal come again soon."""
    if _raised_here_is_lost(frame):
        _send_again_soon(signum)
        return
    raise KeyboardInterrupt


class _RaiseInterrupt:
    """SIGINT/SIGTERM raise KeyboardInterrupt in the main thread; the signal is remembered."""

    def __init__(self):
        self.received: int | None = None
        self.previous: dict = {}
        self.stop: Callable[[], bool] | None = None  # see signals_stop

    def __call__(self, signum, frame):
        self.received = signum
        if self.stop is not None and self.stop():
            return
        _raise_where_it_counts(signum, frame)


_COMMAND_SIGNALS = _RaiseInterrupt()


def signals_raise_interrupt(replacing: _QuietExit | None = None) -> None:
    """Until :func:`restore_signals`: SIGINT and SIGTERM raise KeyboardInterrupt (click turns it
    into an abort that :class:`~vandatta_sim.cli.errors.OneLineErrorGroup` ends in one line).
    ``replacing``: the quiet handlers of the import phase, replaced in place; restoring puts
    back the handlers they had replaced."""
    if not _main_thread() or _COMMAND_SIGNALS.previous:
        if replacing is not None:
            replacing.restore()
        return
    earlier = replacing.hand_over() if replacing is not None else {}
    _COMMAND_SIGNALS.received = None
    previous = {sig: signal.signal(sig, _COMMAND_SIGNALS) for sig in _SIGNALS}
    _COMMAND_SIGNALS.previous = {**previous, **earlier}


def restore_signals() -> None:
    """The handlers from before :func:`signals_raise_interrupt`."""
    for sig, old in _COMMAND_SIGNALS.previous.items():
        if signal.getsignal(sig) is _COMMAND_SIGNALS:
            signal.signal(sig, old)
    _COMMAND_SIGNALS.previous = {}


@contextlib.contextmanager
def signals_stop(stop: Callable[[], bool]):
    """While the body runs, a command's signal calls ``stop()`` instead of raising where it
    lands; ``stop`` asks the body to end (an event loop: from its next turn) and returns True,
    or returns False where it cannot (no loop running yet), and the signal raises as usual.
    A signal received raises KeyboardInterrupt once the body returns, also where the body ended
    on its own first (the person pressed Enter as the signal came)."""
    outer, _COMMAND_SIGNALS.stop = _COMMAND_SIGNALS.stop, stop
    try:
        yield
    finally:
        _COMMAND_SIGNALS.stop = outer
    if _COMMAND_SIGNALS.received is not None:
        raise KeyboardInterrupt


def received_signal() -> int | None:
    """The signal that interrupted the command, None if none did."""
    return _COMMAND_SIGNALS.received


class Signals:
    """SIGINT/SIGTERM during a run: the first raises KeyboardInterrupt in the main thread and is
    remembered; later ones are only remembered, so that cleanup finishes."""

    def __init__(self):
        self.received: int | None = None
        self.raised = False

    def __call__(self, signum, frame):
        self.received = self.received or signum
        if not self.raised:
            if _raised_here_is_lost(frame):
                _send_again_soon(signum)
                return
            self.raised = True
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
