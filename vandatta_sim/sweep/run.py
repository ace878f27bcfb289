"""The run loop: chunks scheduled on an executor, written, counted in order, with progress.

Chunks are written on a background thread and, for a precision target, counted in chunk order.

Precision target
----------------
With ``precision=H`` each configuration plays chunks in order until the 95% Wilson half-width
of every seat's win rate, over all games so far, is at most ``H`` (or ``max_games`` is reached,
which is recorded as not reaching the target). The decision is taken after each whole chunk, on
the chunks ``0 … n`` in order, so the number of chunks, and the store, do not depend on the
backend: chunks a Dask cluster computed speculatively beyond the stopping point are discarded.
"""

from __future__ import annotations

import math
import shlex
import sys
import time
from collections import deque
from collections.abc import Iterable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

from ..stats import games_for_half_width, win_rate_half_width
from ..store import Store
from .config import (DEFAULT_CHUNK_SIZE, DEFAULT_MAX_GAMES, DEFAULT_STORE, STALE_TEMP_SECONDS,
                     Config, SweepError, _as_store, _dedupe, check_run_settings)
from .executors import ChunkTask, check_backend, executor_for
from .provenance import _versions, finish_provenance, start_provenance
from .summary import _Summary, _summary_columns


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
    games: int = 0                 # precision: games in those chunks
    wins: np.ndarray | None = None
    half_width: float = math.inf
    target_reached: bool | None = None
    done: bool = False
    new_games: int = 0
    summaries: dict = field(default_factory=dict)  # chunk → _Summary of the chunks written now

    @property
    def n_chunks(self) -> int:
        return -(-self.limit // self.chunk_size)

    def need(self, c: int) -> int:
        return min(self.chunk_size, self.limit - c * self.chunk_size)

    def task(self, c: int, seed: int) -> ChunkTask:
        """Chunk ``c`` as an executor's task."""
        return ChunkTask(self.config, seed, self.key, c, c * self.chunk_size, self.need(c))

    def complete(self, c: int) -> bool:
        return self.rows.get(c, 0) >= self.need(c)

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
            if not self.complete(c) and c not in self.inflight and c not in self.buffer:
                return c
        return None


class _Writer:
    """Summarises and writes chunks on one background thread, one chunk behind the engine
    (the engine releases the GIL, so this overlaps with the next chunk's games)."""

    def __init__(self, store: Store):
        self.store = store
        self._pool = ThreadPoolExecutor(1, thread_name_prefix="vandatta-writer")
        self._pending = None

    def _work(self, job: _Job, index: int, df: pd.DataFrame) -> _Summary:
        summary = _Summary.of(df, job.config.rules.players)
        self.store.write_chunk(job.key, index, df)
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

    def __init__(self, enabled: bool, n_configs: int, stream=None):
        self.enabled = enabled
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
        text = f"{self.done:,}"
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


def _add_wins(job: _Job, winner: np.ndarray) -> None:
    winner = winner[winner >= 0].astype(np.int64)
    job.wins += np.bincount(winner, minlength=job.config.rules.players)[: len(job.wins)]


def _advance(job: _Job, store: Store, writer: _Writer) -> None:
    """Precision: count the next chunks in order while they are at hand, stop when done."""
    while not job.done:
        c = job.prefix
        if c in job.buffer:
            df = job.buffer.pop(c)
            writer.write(job, c, df)
            job.rows[c] = len(df)
            job.new_games += len(df)
            _add_wins(job, df["winner"].to_numpy())
        elif job.complete(c) and c not in job.inflight:
            _add_wins(job, store.read_column(job.key, c, "winner")[: job.need(c)])
        else:
            return
        job.prefix += 1
        job.games += job.need(c)
        widths = np.asarray(win_rate_half_width(job.wins, job.games), dtype=np.float64)
        job.half_width = float(widths.max())
        if job.half_width <= job.precision:
            job.done, job.target_reached = True, True
        elif job.games >= job.limit:
            job.done, job.target_reached = True, False
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
              max_games: int | None = None) -> pd.DataFrame:
    """Run every configuration for ``games`` games (or to win-rate half-width ``precision``)
    into ``store`` and return one summary row per configuration (see :func:`summarize`).

    Chunks already stored are not computed again. ``backend``: ``"local"``, ``"dask-local"``
    or a Dask scheduler address. ``threads``: engine threads per chunk (local: default all;
    Dask: default one per worker process for dask-local, all the worker's cores otherwise).
    ``progress``: show the progress line on stderr (default: when stderr is a terminal).
    All settings are checked before anything is written (:class:`SweepError`).
    """
    configs = _dedupe(configs)
    if not configs:
        raise SweepError("the sweep has no configurations")
    if precision is not None and max_games is None:
        max_games = DEFAULT_MAX_GAMES
    check_run_settings(games, precision, seed, chunk_size, max_games, threads)
    kind = check_backend(backend)
    seed, chunk_size = int(seed), int(chunk_size)
    store = _as_store(store)
    command = command or shlex.join([Path(sys.argv[0]).name, *sys.argv[1:]])
    limit = int(games) if games is not None else int(max_games)

    jobs = []
    for i, config in enumerate(configs):
        key = config.key(seed, chunk_size)
        job = _Job(i, config, key, limit, chunk_size, precision, store.chunk_rows(key))
        if precision is None:
            job.todo.extend(c for c in range(job.n_chunks) if not job.complete(c))
            job.done = not job.todo
        else:
            job.wins = np.zeros(config.rules.players, np.int64)
        jobs.append(job)
    by_key = {job.key: job for job in jobs}

    versions = _versions(("dask", "distributed") if kind != "local" else ())
    settings = ({"games": games} if precision is None else
                {"precision": precision, "max_games": max_games}) | {"threads": threads}
    # a Dask scheduler that cannot be reached is a SweepError here, before anything is written
    executor = executor_for(backend, threads)
    writer = _Writer(store)
    show = sys.stderr.isatty() if progress is None else bool(progress)
    bar = _Progress(show, len(jobs))
    interrupted = True
    started = []
    try:
        for job in jobs:
            store.clean_stale_temp(job.key, STALE_TEMP_SECONDS)
            start_provenance(store, job.config, job.key, seed, job.chunk_size, job.rows, command,
                             executor.name, versions, settings)
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
            fill()
        writer.close()
        interrupted = False
    finally:
        try:
            writer.close()
        finally:
            executor.close()
            bar.close()
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


def _job_summary(store: Store, job: _Job) -> _Summary:
    """The games this run asked for, merged in chunk order: chunks computed now from memory,
    the others from their stored columns."""
    players = job.config.rules.players
    used = job.prefix if job.precision is not None else job.n_chunks
    total = _Summary(players)
    for c in range(used):
        part = job.summaries.get(c)
        if part is None:
            df = store.load_chunks(job.key, [c], _summary_columns(players))
            part = _Summary.of(df.iloc[: job.need(c)], players)
        total = total.merge(part)
    return total
