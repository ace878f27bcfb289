"""Sweeps: grids of configurations, run chunk by chunk into the result store.

A sweep is a list of :class:`Config` (rules, seat settings, swap experiment). Its work items are
(configuration, chunk) pairs: chunk ``c`` of a configuration holds games ``c·k … c·k+k-1`` of
the run with the sweep's seed (``k`` = chunk size), which is exactly
``simulate(..., games=k, first_game=c·k)`` because game ``i`` depends only on ``(seed, i)``.
Every chunk is one Parquet file under the configuration's key in a
:class:`~vandatta_sim.store.Store` (written to a temporary name and renamed into place), so

* resuming is listing what exists: a stored chunk is never computed again, and a sweep
  interrupted by Ctrl-C, ``kill -9`` or a full disk computes only the missing chunks when it is
  run again, ending with the same files as an uninterrupted run;
* the stored bytes depend only on (configuration, seed, chunk size, chunk index), never on the
  backend, the order the chunks were computed in, or the number of threads or processes.

The last chunk of a fixed ``games`` count may be partial (``games`` need not be a multiple of
the chunk size); a later, longer run replaces it by the full chunk (same first rows).

The modules, one concept each: :mod:`.config` (configurations, run settings, defaults),
:mod:`.grid` (the grid grammar and sweep files), :mod:`.executors` (where chunks are computed:
backends), :mod:`.run` (the run loop and precision stopping), :mod:`.provenance` (what
``provenance.json`` holds), :mod:`.summary` (per-configuration summaries), :mod:`.dry_run` (the
dry run), :mod:`.catalogue` (the stored runs listed, filtered and labelled; key prefixes),
:mod:`.compare` (paired comparisons with a baseline) and :mod:`.skill` (the change in skill
across rules: a difference of paired differences). The sweep overhead benchmark is in
:mod:`vandatta_sim.bench`, which imports this package (not the reverse).
"""

import importlib

# The package's names, each imported from its module when first asked for (PEP 562), so that
# `simulate`, which needs only .summary, does not import the grid, the executors, the run loop
# and the dry run (tests/test_startup.py checks which modules a small `simulate` loads).
_FROM = {
    "config": ("DEFAULT_CHUNK_SIZE", "DEFAULT_MAX_GAMES", "DEFAULT_STORE", "MAX_CHUNK_SIZE",
               "STALE_TEMP_SECONDS", "Config", "SweepError", "check_run_settings"),
    "executors": ("ChunkTask", "DaskExecutor", "Executor", "LocalExecutor", "check_backend",
                  "executor_for"),
    "grid": ("SWEEP_FILE_HELP", "RunSettings", "expand_grid", "load_sweep_file",
             "merge_run_settings", "parse_vary"),
    "dry_run": ("plan",),
    "run": ("run_sweep",),
    "summary": ("sweep_table", "load_config_games", "stored_summary", "summarize",
                "summary_records"),
}
_MODULE_OF = {name: module for module, names in _FROM.items() for name in names}


def __getattr__(name):
    module = _MODULE_OF.get(name)
    if module is None:  # a submodule not imported yet: `from .sweep import catalogue` imports it
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{module}", __name__), name)
    globals()[name] = value
    return value


def __dir__():
    return sorted(set(globals()) | set(_MODULE_OF))


__all__ = ["Config", "SweepError", "expand_grid", "parse_vary", "load_sweep_file", "run_sweep",
           "RunSettings", "merge_run_settings",
           "load_config_games", "stored_summary", "summarize", "sweep_table",
           "summary_records", "plan",
           "check_backend", "check_run_settings", "DEFAULT_CHUNK_SIZE", "DEFAULT_MAX_GAMES",
           "SWEEP_FILE_HELP", "DEFAULT_STORE", "MAX_CHUNK_SIZE", "STALE_TEMP_SECONDS",
           "Executor", "ChunkTask", "LocalExecutor", "DaskExecutor", "executor_for"]
