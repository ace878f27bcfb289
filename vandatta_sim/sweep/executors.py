"""Where chunks are computed: the :class:`Executor` protocol, its backends, :func:`executor_for`.

:func:`executor_for` is the one place that maps a backend name to an executor.

``"local"`` (the default) runs one chunk at a time through :func:`~vandatta_sim.simulate.simulate`
on all threads: the engine parallelises inside a chunk, so no server is needed. While the engine
plays chunk ``c+1`` a background thread writes chunk ``c`` (the kernel releases the GIL).

``"dask-local"`` starts a Dask ``LocalCluster`` on this machine; ``"tcp://HOST:PORT"`` (any
address with ``://``) uses an existing Dask distributed cluster. Workers *compute and return*
each chunk's DataFrame and this process writes it: workers on other machines need not see the
store's folder, there is a single writer (no two processes ever race on a file or on the
provenance), and the bytes come from the same :meth:`Store.write_chunk` call as in the local
backend, hence are identical. A chunk of 100,000 games is about 3 MB in transit, small next
to its engine time. Tasks are submitted with ``retries=2`` and the scheduler reschedules the tasks
of a worker that dies, so a killed worker's chunk is computed again elsewhere.

Executors see :class:`ChunkTask` values only, never the run loop's bookkeeping: this module
imports nothing of :mod:`.run`.
"""

from __future__ import annotations

import importlib.util
import ipaddress
import os
import re
import socket
import threading
import time
from collections import deque
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

import pandas as pd

from .. import ENGINE_VERSION
from ..paths import shorten
from ..simulate import simulate
from .config import Config, SweepError


@dataclass(frozen=True)
class ChunkTask:
    """Chunk ``index`` of configuration ``key``: games ``first_game … first_game + games - 1``
    of ``config`` played with ``seed``."""

    config: Config
    seed: int
    key: str
    index: int
    first_game: int
    games: int
    feel: bool = False  # with the game feel's columns (docs/columns.md; sweep --feel)

    def compute(self, threads: int | None) -> pd.DataFrame:
        """The chunk's games; the same table for every thread count."""
        config = self.config
        return simulate(config.rules, self.games, seed=self.seed, policies=config.seats,
                        first_game=self.first_game, threads=threads, swap=config.swap,
                        swap_seat=config.swap_seat, valuation=config.valuation,
                        feel=self.feel)


@runtime_checkable
class Executor(Protocol):
    """Computes chunk tasks for the run loop, which is the only writer of the store.

    The contract:

    * ``name``: the backend as provenance records it (``"local"``, ``"dask tcp://…"``).
    * ``capacity``: how many tasks the run loop keeps submitted at once (at least 1). More than
      the workers can run keeps a cluster busy while the loop writes.
    * ``submit(task)``: take a task; it does not wait for the games.
    * ``pending()``: tasks submitted and neither returned by ``next`` nor discarded.
    * ``next()``: called only while ``pending()`` is positive; waits for a task to finish and
      returns ``(task, games)``, tasks in any order (as they complete). ``games`` is exactly
      ``task.compute(threads)`` for some thread count, so the stored bytes never depend on the
      executor. A task that failed for good raises :class:`RuntimeError` naming the chunk.
    * ``discard(key)``: drop the pending tasks of configuration ``key`` (cancelled where that
      saves work); ``next`` never returns them.
    * ``close()``: cancel whatever is pending and release workers, clients and clusters; called
      exactly once, also after an error or Ctrl-C.
    """

    name: str
    capacity: int

    def submit(self, task: ChunkTask) -> None: ...

    def pending(self) -> int: ...

    def next(self) -> tuple[ChunkTask, pd.DataFrame]: ...

    def discard(self, key: str) -> None: ...

    def close(self) -> None: ...


class LocalExecutor:
    """Runs queued chunks one at a time in this process, with all engine threads."""

    capacity = 1
    name = "local"

    def __init__(self, threads: int | None):
        self.threads = threads
        self._queue: deque[ChunkTask] = deque()

    def submit(self, task: ChunkTask) -> None:
        self._queue.append(task)

    def pending(self) -> int:
        return len(self._queue)

    def next(self) -> tuple[ChunkTask, pd.DataFrame]:
        task = self._queue.popleft()
        return task, task.compute(self.threads)

    def discard(self, key: str) -> None:
        self._queue = deque(task for task in self._queue if task.key != key)

    def close(self) -> None:
        self._queue.clear()


_ENGINE_LOCK = threading.Lock()


def _compute_on_worker(task: ChunkTask, threads: int | None):
    """A chunk computed on a Dask worker: (engine version, DataFrame).

    One chunk at a time per worker process: the engine is parallel inside a chunk, and numba's
    default threading layer must not be entered from two threads at once."""
    with _ENGINE_LOCK:
        df = task.compute(threads)
    return ENGINE_VERSION, df


def _import_distributed():
    try:
        import distributed
    except ImportError:
        raise SweepError("the Dask backends need dask.distributed, which is not installed; "
                         "install it with: pip install 'vandatta-sim[dask]'") from None
    return distributed


class DaskExecutor:
    """Submits chunks to a Dask cluster; workers return DataFrames, this process writes them."""

    def __init__(self, backend, threads: int | None):
        if isinstance(backend, str) and backend != "dask-local":
            reach_scheduler(backend)  # before the second it takes to import distributed
        distributed = _import_distributed()
        self._cluster = None
        self._own_client = True
        if backend == "dask-local":
            import logging

            cores = os.cpu_count() or 1
            per_chunk = threads or max(1, cores // min(cores, 8))
            workers = max(1, cores // per_chunk)
            self._cluster = distributed.LocalCluster(
                n_workers=workers, threads_per_worker=1, processes=True,
                # no dashboard, and its HTTP server on a free port rather than 8787
                dashboard_address=None, scheduler_kwargs={"dashboard_address": ":0"},
                silence_logs=logging.ERROR)
            self.threads = per_chunk
            self.client = distributed.Client(self._cluster)
            self.name = f"dask-local ({workers} workers × {per_chunk} threads)"
        elif isinstance(backend, str):
            try:
                self.client = distributed.Client(check_scheduler_address(backend),
                                                 timeout=SCHEDULER_CONNECT_TIMEOUT)
            except (OSError, TimeoutError) as exc:
                raise SweepError(f"cannot connect to the Dask scheduler at {backend}: "
                                 f"{' '.join(str(exc).split()) or type(exc).__name__}") from None
            except Exception as exc:  # noqa: BLE001 - e.g. a web server there: Dask reads its
                # reply as a frame length and fails to allocate exabytes
                raise SweepError(f"cannot connect to the Dask scheduler at {backend}: what "
                                 f"answers there is not a Dask scheduler ({type(exc).__name__})"
                                 ) from None
            self.threads = threads
            self.name = f"dask {backend}"
        else:
            self.client, self._own_client = backend, False
            self.threads = threads
            self.name = "dask client"
        total = sum(self.client.nthreads().values()) or 1
        self.capacity = max(2, 2 * total)
        self._distributed = distributed
        self._ac = distributed.as_completed()
        self._futures: dict = {}

    def submit(self, task: ChunkTask) -> None:
        fut = self.client.submit(_compute_on_worker, task, self.threads,
                                 key=f"vandatta-{task.key}-{task.index:06d}", retries=2,
                                 pure=False)
        self._futures[fut.key] = (fut, task)
        self._ac.add(fut)

    def pending(self) -> int:
        return len(self._futures)

    def next(self) -> tuple[ChunkTask, pd.DataFrame]:
        while True:
            fut = next(self._ac)
            entry = self._futures.pop(fut.key, None)
            if entry is None:
                continue  # discarded
            _, task = entry
            c, key = task.index, task.key
            try:
                version, df = fut.result()
            except self._distributed.client.FutureCancelledError:
                raise RuntimeError(f"chunk {c} of {key} was cancelled by the cluster") from None
            except Exception as exc:  # KilledWorker after repeated deaths, or the task's error
                raise RuntimeError(f"chunk {c} of {key} failed on the cluster: "
                                   f"{type(exc).__name__}: {' '.join(str(exc).split())}") from exc
            if version != ENGINE_VERSION:
                raise RuntimeError(f"a Dask worker runs engine version {version}, this process "
                                   f"{ENGINE_VERSION}; install the same vandatta-sim everywhere")
            return task, df

    def discard(self, key: str) -> None:
        for future_key, (fut, task) in list(self._futures.items()):
            if task.key == key:
                del self._futures[future_key]
                fut.cancel()

    def close(self) -> None:
        for fut, _ in self._futures.values():
            fut.cancel()
        self._futures.clear()
        if self._own_client:
            self.client.close()
        if self._cluster is not None:
            self._cluster.close()


# --- backends: a new one (multiprocessing, Ray) is added to these two functions only ----------


#: The scheduler addresses a sweep accepts: Dask's TCP transport, to a host name, an IPv4
#: address or a bracketed IPv6 address, and a port. Other Dask transports (inproc, ucx, tls,
#: ws) need settings this command line does not carry; anything else would reach the Dask
#: library unchecked and end in its traceback.
_SCHEDULER_ADDRESS = re.compile(
    r"tcp://(?P<host>[A-Za-z0-9](?:[A-Za-z0-9.-]{0,252}[A-Za-z0-9])?"
    r"|\[[0-9A-Fa-f:.]{2,45}\]):(?P<port>[0-9]{1,5})", re.ASCII)
SCHEDULER_FORMS = ("tcp://HOST:PORT (HOST a name, an IPv4 address or an [IPv6] address in "
                   "brackets, PORT 1–65535)")
#: Seconds to wait for a scheduler to answer: a wrong port or a firewall is reported within
#: seconds instead of after Dask's default of 30 s.
SCHEDULER_CONNECT_TIMEOUT = 3


def check_scheduler_address(address: str) -> str:
    """``address`` if it is a scheduler address of :data:`SCHEDULER_FORMS`, else SweepError."""
    found = _SCHEDULER_ADDRESS.fullmatch(address)
    if found and 1 <= int(found["port"]) <= 65535:
        if not found["host"].startswith("["):
            return address
        try:
            ipaddress.IPv6Address(found["host"][1:-1])
            return address
        except ValueError:
            pass
    raise SweepError(f"scheduler address {shorten(repr(address))} is not allowed; allowed: "
                     f"{SCHEDULER_FORMS}")


#: What a Dask server's handshake holds (distributed.comm.Comm.handshake_info): a Dask
#: scheduler sends it as soon as it accepts a connection, before it reads anything.
DASK_HANDSHAKE_MARK = b"pickle-protocol"


def reach_scheduler(address: str) -> None:
    """SweepError unless a Dask scheduler answers at ``address`` within
    :data:`SCHEDULER_CONNECT_TIMEOUT` seconds: a wrong host or port is one line at once
    (connection refused), a silent firewall, or a server that accepts the connection but does
    not speak Dask (an ordinary web server: Dask itself would wait for it indefinitely), after
    at most that many seconds."""
    found = _SCHEDULER_ADDRESS.fullmatch(check_scheduler_address(address))
    host = found["host"].strip("[]")
    deadline = time.monotonic() + SCHEDULER_CONNECT_TIMEOUT
    received, connected = b"", False
    try:
        with socket.create_connection((host, int(found["port"])),
                                      timeout=SCHEDULER_CONNECT_TIMEOUT) as sock:
            connected = True
            while DASK_HANDSHAKE_MARK not in received and len(received) < 4096:
                left = deadline - time.monotonic()
                if left <= 0:
                    raise TimeoutError
                sock.settimeout(left)
                data = sock.recv(4096)
                if not data:
                    break  # closed by the other side
                received += data
    except OSError as exc:
        if not connected:
            reason = "timed out" if isinstance(exc, TimeoutError) else _reason(exc)
            raise SweepError(f"cannot connect to the Dask scheduler at {address}: {reason}"
                             ) from None
    if DASK_HANDSHAKE_MARK not in received:
        raise SweepError(f"cannot connect to the Dask scheduler at {address}: what answers "
                         f"there is not a Dask scheduler (no Dask handshake within "
                         f"{SCHEDULER_CONNECT_TIMEOUT} s)")


def _reason(exc: OSError) -> str:
    return " ".join(str(exc.strerror or exc).split()) or type(exc).__name__


def check_backend(backend) -> str:
    """``local``, ``dask-local`` or a scheduler address (``tcp://HOST:PORT``); SweepError
    otherwise or when dask is missing for a Dask backend."""
    if backend is None or backend == "local":
        return "local"
    if not isinstance(backend, str):
        if hasattr(backend, "submit") and hasattr(backend, "nthreads"):
            return "dask-client"  # a distributed.Client given by a Python caller
        raise SweepError(f"backend {shorten(repr(backend))} is not allowed; allowed: local, "
                         "dask-local or a scheduler address tcp://HOST:PORT")
    if backend != "dask-local" and "://" not in backend:
        raise SweepError(f"backend {shorten(repr(backend))} is not allowed; allowed: local, "
                         "dask-local or a scheduler address such as tcp://HOST:PORT")
    if backend != "dask-local":
        check_scheduler_address(backend)
    if importlib.util.find_spec("distributed") is None:  # not imported here: it takes seconds
        _import_distributed()  # the one message for a missing dask.distributed
    return backend


def executor_for(backend, threads: int | None = None) -> Executor:
    """The executor of ``backend`` (see :func:`check_backend`; a ``distributed.Client`` is used
    as it is), running each chunk on ``threads`` engine threads (default: the backend's choice).
    A Dask scheduler that cannot be reached is a :class:`SweepError`, before any work."""
    if check_backend(backend) == "local":
        return LocalExecutor(threads)
    return DaskExecutor(backend, threads)
