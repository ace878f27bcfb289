"""The run loop: chunks scheduled on an executor, written, counted in order, with progress.

Chunks are written on a background thread and, for a precision target, counted in chunk order.

Precision target
----------------
With ``precision=H`` each configuration plays chunks in order and keeps its games up to the
first game at which the 95% Wilson half-width of every seat's win rate, over all games so far,
is at most ``H``, checked game by game (cumulative sums make this cheap); the chunk in which that
happens is cut there and stored with fewer rows. Without such a game by ``max_games`` the run
keeps ``max_games`` games and records that it missed the target. So the games kept depend only
on the seed, the configuration, ``H`` and ``max_games``: not on the chunk size, the threads or
the backend (chunks a Dask cluster computed speculatively beyond the stopping point are
discarded), and a resumed run reads the same stopping game back from the store.
"""

from __future__ import annotations

import contextlib
import math
import shlex
import sys
import time
from collections import deque
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

from ..stats import games_for_half_width, win_rate_half_width
from ..store import Store
from .config import (DEFAULT_CHUNK_SIZE, DEFAULT_MAX_GAMES, DEFAULT_STORE, Config, SweepError,
                     as_store, check_run_settings, dedupe_configs)
from .executors import ChunkTask, check_backend, executor_for
from .provenance import package_versions, finish_provenance, start_provenance
from .summary import SummaryStats, stored_feel_columns, summary_columns


@dataclass(eq=False)
class _Job:
    """One configuration's state during a run."""

    index: int
    config: Config
    key: str
    limit: int                     # games wanted (fixed) or the max_games cap (precision)
    chunk_size: int
    precision: float | None
    rows: dict[int, int]           # stored chunk → rows
    todo: deque = field(default_factory=deque)
    inflight: set = field(default_factory=set)
    buffer: dict = field(default_factory=dict)
    prefix: int = 0                # precision: chunks 0 … prefix-1 counted
    games: int = 0                 # precision: games kept in those chunks
    short: set = field(default_factory=set)  # precision: stored cut chunks that end too soon
    wins: np.ndarray | None = None
    half_width: float = math.inf
    target_reached: bool | None = None
    done: bool = False
    new_games: int = 0
    summaries: dict = field(default_factory=dict)  # chunk → SummaryStats of chunks written now
    # the chunks record the game feel where asked (its kernel is slower: docs/speed.md); a key
    # keeps the columns its first chunk was stored with (every chunk of a key has the same)
    feel: bool = False
    feel_stored: tuple = ()  # the feel columns of the chunks already stored

    @property
    def n_chunks(self) -> int:
        return -(-self.limit // self.chunk_size)

    def need(self, c: int) -> int:
        return min(self.chunk_size, self.limit - c * self.chunk_size)

    def task(self, c: int, seed: int) -> ChunkTask:
        """Chunk ``c`` as an executor's task."""
        return ChunkTask(self.config, seed, self.key, c, c * self.chunk_size, self.need(c),
                         self.feel)

    def complete(self, c: int) -> bool:
        return self.rows.get(c, 0) >= self.need(c)

    def kept(self, c: int) -> int:
        """Rows of chunk ``c`` that the run's games include (precision: the last one is cut)."""
        if self.precision is None:
            return self.need(c)
        return min(self.need(c), self.games - c * self.chunk_size)

    def estimate(self) -> int | None:
        """Games this configuration will have when it stops (None before any data)."""
        if self.precision is None:
            return self.limit
        if self.done:
            return self.games
        if not self.games:
            return None
        p = np.clip(self.wins / self.games, 1e-3, 1 - 1e-3)
        needed = int(np.max(games_for_half_width(p, self.precision)))
        return min(max(needed, self.games + 1), self.limit)

    def next_chunk(self, lookahead: int) -> int | None:
        if self.done:
            return None
        if self.precision is None:
            return self.todo.popleft() if self.todo else None
        estimate = self.estimate()
        if estimate is not None and lookahead > 1:
            ahead = max(1, min(lookahead, -(-estimate // self.chunk_size) - self.prefix))
        else:
            ahead = 1
        for c in range(self.prefix, min(self.prefix + ahead, self.n_chunks)):
            stored = self.complete(c) or (c in self.rows and c not in self.short)
            if not stored and c not in self.inflight and c not in self.buffer:
                return c
        return None


class _Writer:
    """Summarises and writes chunks on one background thread, one chunk behind the engine
    (the engine releases the GIL, so this overlaps with the next chunk's games)."""

    def __init__(self, store: Store):
        self.store = store
        self._pool = ThreadPoolExecutor(1, thread_name_prefix="vandatta-writer")
        self._pending = None

    def _work(self, job: _Job, index: int, df: pd.DataFrame) -> SummaryStats:
        summary = SummaryStats.of(df, job.config.rules.players)
        self.store.write_chunk(job.key, index, df, first_game=index * job.chunk_size)
        return summary

    def write(self, job: _Job, index: int, df: pd.DataFrame) -> None:
        self.wait()
        self._pending = (job, index, self._pool.submit(self._work, job, index, df))

    def wait(self) -> None:
        pending, self._pending = self._pending, None
        if pending is not None:
            job, index, future = pending
            job.summaries[index] = future.result()

    def close(self) -> None:
        try:
            self.wait()
        finally:
            self._pool.shutdown(wait=True)


class _Progress:
    """A one-line progress display on stderr: games done, games per second, time left."""

    def __init__(self, enabled: bool, n_configs: int, stream=None, phase: str = ""):
        self.enabled = enabled
        self.phase = phase
        self.stream = stream or sys.stderr
        self.n_configs = n_configs
        self.done = 0
        self.start = time.perf_counter()
        self._last = 0.0
        self._width = 0

    def update(self, games: int, total: int | None, configs_done: int, force=False) -> None:
        self.done += games
        if not self.enabled:
            return
        now = time.perf_counter()
        if not force and now - self._last < 0.2:
            return
        self._last = now
        elapsed = max(now - self.start, 1e-9)
        rate = self.done / elapsed
        text = (f"{self.phase}: " if self.phase else "") + f"{self.done:,}"
        if total:
            text += f"/{total:,} games {100 * self.done / total:5.1f}%"
        else:
            text += " games"
        text += f"  {rate:,.0f} games/s"
        if total and rate > 0 and total > self.done:
            text += f"  {_duration((total - self.done) / rate)} left"
        text += f"  configs {configs_done}/{self.n_configs}"
        self.stream.write("\r" + text.ljust(self._width))
        self.stream.flush()
        self._width = len(text)

    def close(self) -> None:
        if self.enabled and self._width:
            self.stream.write("\n")
            self.stream.flush()


def _duration(seconds: float) -> str:
    seconds = int(round(seconds))
    if seconds >= 3600:
        return f"{seconds // 3600}h{seconds % 3600 // 60:02d}m"
    return f"{seconds // 60}m{seconds % 60:02d}s" if seconds >= 60 else f"{seconds}s"


def _finish_provenance(store: Store, job: _Job, interrupted: bool) -> None:
    games = job.games if job.precision is not None else (
        job.limit if all(job.complete(c) for c in range(job.n_chunks)) else None)
    finish_provenance(store, job.key, interrupted=interrupted, new_games=job.new_games,
                      games=games, precision=job.precision, reached=job.half_width,
                      target_reached=job.target_reached, max_games=job.limit)


def scan_to_target(wins: np.ndarray, games: int, winner: np.ndarray,
                   precision: float) -> tuple[int, np.ndarray, float]:
    """The precision rule over the next games: ``wins`` per seat over the first ``games``
    games, ``winner`` the winner column of the games that follow (-1: nobody).

    Returns ``(kept, wins, half_width)``: ``kept`` is the number of those games up to and
    including the first at which every seat's win-rate half-width is at most ``precision``
    (``len(winner)`` when there is none), with the wins and the widest half-width after them.
    Elementwise float operations only, so the answer is the same however the games are split."""
    winner = np.asarray(winner)
    if not len(winner):
        return 0, wins, float(np.max(win_rate_half_width(wins, games)))
    n = games + np.arange(1, len(winner) + 1, dtype=np.int64)
    widest = np.zeros(len(winner))
    for seat in range(len(wins)):
        seat_wins = wins[seat] + np.cumsum(winner == seat, dtype=np.int64)
        np.maximum(widest, win_rate_half_width(seat_wins, n), out=widest)
    within = np.flatnonzero(widest <= precision)
    kept = int(within[0]) + 1 if len(within) else len(winner)
    counted = winner[:kept]
    counted = counted[counted >= 0].astype(np.int64)
    wins = wins + np.bincount(counted, minlength=len(wins))[: len(wins)]
    return kept, wins, float(widest[kept - 1])


def _count(job: _Job, c: int, winner: np.ndarray, partial: bool) -> int | None:
    """Apply the precision rule to chunk ``c``'s games (``partial``: a stored chunk cut short,
    usable only if the stopping game lies within it) and return the rows kept, or None."""
    kept, wins, half_width = scan_to_target(job.wins, job.games, winner, job.precision)
    reached = half_width <= job.precision
    if partial and not reached:
        return None
    job.prefix, job.games, job.wins, job.half_width = c + 1, job.games + kept, wins, half_width
    if reached:
        job.done, job.target_reached = True, True
    elif job.games >= job.limit:
        job.done, job.target_reached = True, False
    return kept


def _advance(job: _Job, store: Store, writer: _Writer) -> None:
    """Precision: count the next chunks in order while they are at hand, stop when done; the
    chunk with the stopping game is written cut there."""
    while not job.done:
        c = job.prefix
        if c in job.buffer:
            df = job.buffer.pop(c)
            kept = _count(job, c, df["winner"].to_numpy(), partial=False)
            df = df.iloc[:kept] if kept < len(df) else df
            writer.write(job, c, df)
            job.rows[c] = len(df)
            job.new_games += len(df)
        elif c in job.rows and c not in job.inflight and c not in job.short:
            stored = store.read_column(job.key, c, "winner")[: job.need(c)]
            if _count(job, c, stored, partial=len(stored) < job.need(c)) is None:
                job.short.add(c)  # computed again in full by next_chunk
                return
        else:
            return
    job.buffer.clear()


def _accept(job: _Job, c: int, df: pd.DataFrame, store: Store, writer: _Writer) -> None:
    job.inflight.discard(c)
    if job.precision is None:
        writer.write(job, c, df)
        job.rows[c] = len(df)
        job.new_games += len(df)
        job.done = not job.todo and not job.inflight
    elif not job.done:  # a chunk beyond the stopping point is dropped
        job.buffer[c] = df
        _advance(job, store, writer)


def run_sweep(configs: Iterable[Config], *, games: int | None = None,
              precision: float | None = None, seed: int = 0,
              chunk_size: int = DEFAULT_CHUNK_SIZE, store=DEFAULT_STORE, backend="local",
              threads: int | None = None, progress: bool | None = None, command: str = "",
              max_games: int | None = None,
              stop_requested: Callable[[], bool] | None = None,
              record: dict | None = None, phase: str = "", feel: bool = False) -> pd.DataFrame:
    """Run every configuration for ``games`` games (or to win-rate half-width ``precision``)
    into ``store`` and return one summary row per configuration (see :func:`summarize`).

    Chunks already stored are not computed again. ``backend``: ``"local"``, ``"dask-local"``
    or a Dask scheduler address. ``threads``: engine threads per chunk (local: default all;
    Dask: default one per worker process for dask-local, all the worker's cores otherwise).
    ``progress``: show the progress line on stderr (default: when stderr is a terminal).
    All settings are checked before anything is written (:class:`SweepError`).

    Each configuration's key is locked (:meth:`Store.lock`) for the whole run, so concurrent
    sweeps on one store serialise per configuration (a waiting run says so on stderr, with the
    holder's pid). Under the lock, temporary files of the key are removed and every stored
    chunk is verified; bad ones are moved into ``KEY/quarantine/`` and computed again.
    ``stop_requested``: polled after every chunk; when true the run stops as if interrupted
    (KeyboardInterrupt), so that a signal swallowed somewhere is still obeyed. ``feel``: new
    configurations also record the game feel (docs/columns.md; a slower kernel); a stored
    configuration keeps the columns it was first stored with.
    ``record``: what the run says about itself in the provenance (kind, rules file, user label;
    :data:`~vandatta_sim.sweep.provenance.RECORD_FIELDS`). ``phase``: what the progress line
    calls this run (a command that runs several phases labels each).
    """
    configs = dedupe_configs(configs)
    if not configs:
        raise SweepError("the sweep has no configurations")
    if precision is not None and max_games is None:
        max_games = DEFAULT_MAX_GAMES
    check_run_settings(games, precision, seed, chunk_size, max_games, threads)
    kind = check_backend(backend)
    seed, chunk_size = int(seed), int(chunk_size)
    store = as_store(store)
    command = command or shlex.join([Path(sys.argv[0]).name, *sys.argv[1:]])
    limit = int(games) if games is not None else int(max_games)

    jobs = []
    for i, config in enumerate(configs):
        key = config.key(seed, chunk_size)
        store.chunk_rows(key)  # a key folder that is a symlink is refused before any work
        jobs.append(_Job(i, config, key, limit, chunk_size, precision, {}, feel=feel))
    by_key = {job.key: job for job in jobs}

    versions = package_versions(("dask", "distributed") if kind != "local" else ())
    settings = ({"games": games} if precision is None else
                {"precision": precision, "max_games": max_games}) | {"threads": threads}
    # a Dask scheduler that cannot be reached is a SweepError here, before anything is written
    executor = executor_for(backend, threads)
    writer = _Writer(store)
    show = sys.stderr.isatty() if progress is None else bool(progress)
    bar = _Progress(show, len(jobs), phase=phase)
    interrupted = True
    started = []
    locks = contextlib.ExitStack()
    try:
        # Locks in key order: two sweeps sharing several keys never wait for each other crosswise.
        for job in sorted(jobs, key=lambda j: j.key):
            locks.enter_context(store.lock(job.key, _say_waiting(job.key)))
        for job in jobs:
            _prepare(store, job)
            start_provenance(store, job.config, job.key, seed, job.chunk_size, job.rows, command,
                             executor.name, versions, settings, record)
            started.append(job)
            if precision is not None:
                _advance(job, store, writer)  # count what is stored already; maybe done
        fixed_total = sum(job.need(c) for job in jobs for c in job.todo)

        def total() -> int | None:
            if precision is None:
                return fixed_total
            estimates = [job.estimate() for job in jobs]
            if any(e is None for e in estimates):
                return None
            return bar.done + sum(max(0, e - job.games) for e, job in zip(estimates, jobs))

        cursor = 0

        def fill() -> None:
            nonlocal cursor
            while executor.pending() < executor.capacity:
                for step in range(len(jobs)):
                    job = jobs[(cursor + step) % len(jobs)]
                    c = job.next_chunk(executor.capacity)
                    if c is not None:
                        job.inflight.add(c)
                        executor.submit(job.task(c, seed))
                        cursor = (cursor + step + 1) % len(jobs)
                        break
                else:
                    return

        fill()
        while executor.pending():
            task, df = executor.next()
            job, c = by_key[task.key], task.index
            _accept(job, c, df, store, writer)
            if job.done:
                executor.discard(job.key)
                job.inflight.clear()
            bar.update(len(df), total(), sum(j.done for j in jobs))
            if stop_requested is not None and stop_requested():
                raise KeyboardInterrupt
            fill()
        writer.close()
        interrupted = False
    finally:
        try:
            writer.close()
        finally:
            executor.close()
            bar.close()
            with locks:  # released after the provenance is final
                for job in started:
                    try:
                        _finish_provenance(store, job, interrupted)
                    except OSError:
                        if not interrupted:
                            raise
    rows = []
    for job in jobs:
        row = {"key": job.key, "label": job.config.label} | _job_summary(store, job).result()
        row |= {"new_games": job.new_games, "precision_target": precision,
                "target_reached": job.target_reached}
        rows.append(row)
    return pd.DataFrame(rows)


def _say_waiting(key: str):
    def say(pid: int | None) -> None:
        holder = f"pid {pid}" if pid is not None else "another process"
        sys.stderr.write(f"waiting for the sweep holding the lock on {key} ({holder}) to "
                         "finish\n")
        sys.stderr.flush()
    return say


def _prepare(store: Store, job: _Job) -> None:
    """Under the key's lock: remove temporary files (any is a dead writer's), move foreign
    files and bad chunks aside, and read what is stored, deciding the chunks to compute."""
    store.clean_temp(job.key)
    for source, target in store.move_foreign_aside(job.key):
        sys.stderr.write(f"foreign file moved aside to {target}: the store did not write "
                         f"{source.name}\n")
    for c, reason in store.verify(job.key).items():
        target = store.quarantine(job.key, c)
        sys.stderr.write(f"bad chunk moved aside to {target} and computed again: {reason}\n")
    job.rows = store.chunk_rows(job.key)
    job.feel_stored = stored_feel_columns(store, job.key)
    if job.rows and job.feel != bool(job.feel_stored):
        job.feel = bool(job.feel_stored)
        if not job.feel:
            sys.stderr.write(f"{job.key}: its games were stored without the game feel, and "
                             "its new chunks keep their columns\n")
    if job.precision is None:
        job.todo.extend(c for c in range(job.n_chunks) if not job.complete(c))
        job.done = not job.todo
    else:
        job.wins = np.zeros(job.config.rules.players, np.int64)


def _job_summary(store: Store, job: _Job) -> SummaryStats:
    """The games this run asked for, merged in chunk order: chunks computed now from memory,
    the others from their stored columns."""
    players = job.config.rules.players
    used = job.prefix if job.precision is not None else job.n_chunks
    total = SummaryStats(players)
    for c in range(used):
        part = job.summaries.get(c)
        if part is None:
            df = store.load_chunks(job.key, [c], summary_columns(players, job.feel_stored))
            part = SummaryStats.of(df.iloc[: job.kept(c)], players)
        total = total.merge(part)
    return total
