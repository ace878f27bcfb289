"""``vandatta-sim sweep`` and ``vandatta-sim results``: the sweep layer's commands.

Plain click commands, added to the main group by :mod:`vandatta_sim.cli`. Every bad input (grid,
sweep file, run settings, backend) is one ``Error:`` line with exit code 2 before any work
starts or anything is written.
"""

from __future__ import annotations

import functools
import json
import shlex
import sys

import click

from .rules import RulesError
from .simulate import Seats, SimulationError
from .store import MissingKeyError, Store
from . import tables
from .sweep import (DEFAULT_CHUNK_SIZE, DEFAULT_MAX_GAMES, DEFAULT_STORE, SWEEP_FILE_HELP,
                    SweepError, check_backend, check_run_settings, expand_grid, format_table,
                    load_sweep_file, plan, run_sweep, stored_summary, summary_records)


def _usage_errors(func):
    """The library's validation errors as click usage errors (one line, exit code 2)."""

    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        try:
            return func(*args, **kwargs)
        except (RulesError, SimulationError, SweepError) as exc:
            raise click.UsageError(str(exc)) from None

    return wrapper


def _players(ctx, param, value):
    if value is None:
        return ()
    out = []
    for part in value.split(","):
        part = part.strip()
        if not part.isdigit():
            raise click.BadParameter(f"{value!r}: allowed: player counts 2–10, e.g. 2,3,4")
        out.append(int(part))
    return tuple(out)


@click.command("sweep", epilog="\b\n" + SWEEP_FILE_HELP)
@click.argument("sweep_file", required=False, metavar="[SWEEP_FILE]")
@click.option("--preset", default=None, metavar="NAME",
              help="Preset to start from (default standard).")
@click.option("--rules", "rules_file", metavar="FILE", help="TOML rules file (may name a preset).")
@click.option("--set", "overrides", multiple=True, metavar="FIELD=VALUE",
              help="Fixed rule override (repeatable), e.g. --set draw_limit=1.")
@click.option("--vary", multiple=True, metavar="FIELD=V1,V2",
              help="Vary a rule (or policy/forget/swap) over values (repeatable): a grid.")
@click.option("--players", callback=_players, metavar="2,3,4", help="Player counts (varied).")
@click.option("--policy", "policies", multiple=True, metavar="SEAT=NAME",
              help="Policy per seat (all=expert, 0=greedy); random by default.")
@click.option("--forget", multiple=True, metavar="SEAT=P",
              help="Probability that a seat forgets its call (all=0.1, 2=0.5).")
@click.option("--match", metavar="FORMAT[,FORMAT]",
              help="Match format(s): single, deals:N, elimination:T, best_of:N.")
@click.option("--swap", metavar="RANK", help="Swap experiment: give a seat a card of RANK.")
@click.option("--games", type=int, metavar="N", help="Games per configuration.")
@click.option("--precision", type=float, metavar="H",
              help="Instead of --games: play until every seat's win-rate 95% half-width ≤ H.")
@click.option("--max-games", type=int, metavar="N",
              help=f"Cap per configuration with --precision (default {DEFAULT_MAX_GAMES:,}).")
@click.option("--seed", type=int, help="Seed of the sweep (default 0).")
@click.option("--chunk-size", type=int, metavar="N",
              help=f"Games per stored chunk (default {DEFAULT_CHUNK_SIZE:,}).")
@click.option("--store", default=DEFAULT_STORE, show_default=True, metavar="DIR",
              help="Results folder.")
@click.option("--dask", type=click.Choice(["local"]), help="Run on a Dask LocalCluster.")
@click.option("--scheduler", metavar="ADDR", help="Run on a Dask cluster: tcp://HOST:PORT.")
@click.option("--threads", type=int, help="Engine threads per chunk (default: all cores).")
@click.option("--dry-run", is_flag=True, help="List the configurations and the work; run nothing.")
@click.option("--json", "as_json", is_flag=True, help="Print a machine-readable summary on stdout.")
def sweep(sweep_file, preset, rules_file, overrides, vary, players, policies, forget, match,
          swap, games, precision, max_games, seed, chunk_size, store, dask, scheduler, threads,
          dry_run, as_json):
    """Run a grid of configurations into the result store, resumably.

    The grid comes from SWEEP_FILE or from the options, e.g. --preset standard
    --vary stacking=false,true --vary draw_limit=0,1,3 --players 2,3,4,5 --policy all=expert
    --games 1000000 --seed 1. Chunks already stored are never computed again: rerun the same
    command to resume an interrupted sweep.
    """
    try:
        configs, settings = _resolve(sweep_file, preset, rules_file, overrides, vary, players,
                                     policies, forget, match, swap)
        for name, value in (("games", games), ("precision", precision), ("seed", seed),
                            ("chunk_size", chunk_size), ("max_games", max_games)):
            if value is not None:
                settings[name] = value
        if games is not None:
            settings.pop("precision", None)
        if precision is not None:
            settings.pop("games", None)
        if games is not None and precision is not None:
            raise SweepError("give --games or --precision, not both")
        if dask and scheduler:
            raise SweepError("give --dask local or --scheduler ADDR, not both")
        backend = "dask-local" if dask else scheduler or "local"
        seed = settings.get("seed", 0)
        chunk_size = settings.get("chunk_size", DEFAULT_CHUNK_SIZE)
        run = {k: settings.get(k) for k in ("games", "precision", "max_games")}
        if dry_run:
            if run["games"] is not None or run["precision"] is not None:
                check_run_settings(seed=seed, chunk_size=chunk_size, threads=threads, **run)
            work = plan(configs, seed=seed, chunk_size=chunk_size, store=store, **run)
            _print_plan(work, run, seed, chunk_size, store, backend, as_json)
            return
        check_run_settings(seed=seed, chunk_size=chunk_size,
                           threads=threads if backend == "local" else None, **run)
        check_backend(backend)
        if threads is not None and threads < 1:
            raise SweepError(f"threads {threads} is not allowed; allowed: an integer ≥ 1")
    except (RulesError, SimulationError, SweepError) as exc:
        raise click.UsageError(str(exc)) from None

    command = shlex.join(["vandatta-sim", *sys.argv[1:]])
    try:
        summary = run_sweep(configs, seed=seed, chunk_size=chunk_size, store=store,
                            backend=backend, threads=threads, command=command, **run)
    except SweepError as exc:  # e.g. the scheduler cannot be reached: nothing was written
        raise click.UsageError(str(exc)) from None
    except KeyboardInterrupt:
        click.echo(f"\ninterrupted: the finished chunks are stored in {store}; run the same "
                   "command again to resume", err=True)
        sys.exit(130)
    except OSError as exc:
        raise click.ClickException(f"cannot write the results to {store}: "
                                   f"{exc.strerror or exc}") from None
    except RuntimeError as exc:
        raise click.ClickException(str(exc)) from None
    if as_json:
        out = {"store": store, "seed": seed, "chunk_size": chunk_size, "backend": backend,
               **{k: v for k, v in run.items() if v is not None},
               "configs": summary_records(summary)}
        click.echo(json.dumps(out, indent=2, ensure_ascii=False))
    else:
        click.echo(format_table(summary))
        new = int(summary["new_games"].sum())
        click.echo(f"\n{new:,} new games; results in {store} (seed {seed}, chunks of "
                   f"{chunk_size:,}); `vandatta-sim results show KEY` for details")
        if precision is not None or run["precision"] is not None:
            missed = summary[summary["target_reached"] == False]  # noqa: E712
            for _, row in missed.iterrows():
                click.echo(f"precision target not reached for {row['key']} ({row['label']}): "
                           f"half-width {row['half_width']:.4f} after {row['games']:,} games "
                           f"(--max-games)")


def _resolve(sweep_file, preset, rules_file, overrides, vary, players, policies, forget, match,
             swap):
    grid_given = [name for name, value in (
        ("--preset", preset), ("--rules", rules_file), ("--set", overrides), ("--vary", vary),
        ("--players", players), ("--policy", policies), ("--forget", forget),
        ("--match", match), ("--swap", swap)) if value]
    if sweep_file is not None:
        if grid_given:
            raise SweepError(f"give the grid in SWEEP_FILE or with options, not both "
                             f"({', '.join(grid_given)} given with {sweep_file})")
        return load_sweep_file(sweep_file)
    configs = expand_grid(preset or "standard", rules_file, overrides, vary, players,
                          policies, forget, match, swap)
    return configs, {}


def _print_plan(work, run, seed, chunk_size, store, backend, as_json):
    if as_json:
        out = {"store": store, "seed": seed, "chunk_size": chunk_size, "backend": backend,
               **{k: v for k, v in run.items() if v is not None},
               "configs": summary_records(work),
               "games_to_run": None if work["to_run"].isna().any() else int(work["to_run"].sum())}
        click.echo(json.dumps(out, indent=2, ensure_ascii=False))
        return
    header = ["key", "configuration", "players", "policies", "match", "games", "stored",
              "to run"]
    rows = []
    for _, r in work.iterrows():
        games = "–" if r["games"] is None or r["games"] != r["games"] else (
            ("≈" if r["estimated"] else "") + f"{int(r['games']):,}")
        todo = "–" if r["to_run"] is None or r["to_run"] != r["to_run"] else (
            ("≈" if r["estimated"] else "") + f"{int(r['to_run']):,}")
        rows.append([r["key"], r["label"], str(r["players"]), r["policies"], r["match"], games,
                     f"{int(r['stored']):,}", todo])
    widths = [max(len(str(x)) for x in col) for col in zip(header, *rows)]
    for cells in [header, ["-" * w for w in widths], *rows]:
        click.echo("  ".join(str(c).ljust(w) for c, w in zip(cells, widths)).rstrip())
    n = len(work)
    if run["games"] is None and run["precision"] is None:
        click.echo(f"\n{n} configurations; give --games N or --precision H to run them")
        return
    todo = work["to_run"]
    approx = "≈" if run["precision"] is not None else ""
    chunks = "" if run["precision"] is not None else (
        f" in {sum(-(-int(g) // chunk_size) for g in work['to_run'] if g):,} chunk(s)")
    click.echo(f"\n{n} configurations, seed {seed}, chunks of {chunk_size:,}, store {store}, "
               f"backend {backend}: {approx}{int(todo.sum()):,} games to run{chunks} "
               f"({int(work['stored'].sum()):,} stored); dry run, nothing was run")


# --- results -------------------------------------------------------------------------------------


@click.group("results")
def results():
    """List and show the configurations in a result store."""


def _policies_text(value) -> str:
    if isinstance(value, list) and value:
        return Seats(tuple(value), (0.0,) * len(value)).describe()
    return "" if value is None else str(value)


@results.command("list")
@click.option("--store", default=DEFAULT_STORE, show_default=True, metavar="DIR")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
def results_list(store, as_json):
    """One line per stored configuration: key, games, chunks, label."""
    table = Store(store).summary()
    if as_json:
        click.echo(json.dumps(summary_records(table), indent=2, ensure_ascii=False))
        return
    if table.empty:
        click.echo(f"no results in {store}")
        return
    header = ["key", "games", "chunks", "players", "policies", "configuration"]
    rows = [[r["key"], f"{int(r['games']):,}", str(r["chunks"]), str(r["players"]),
             _policies_text(r["policies"]), str(r["label"])] for _, r in table.iterrows()]
    click.echo(tables.format_table(header, rows, "lrrlll", style="text"))


@results.command("show")
@click.argument("key")
@click.option("--store", default=DEFAULT_STORE, show_default=True, metavar="DIR")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
def results_show(key, store, as_json):
    """Provenance and summary (with 95% intervals) of the configuration KEY."""
    s = Store(store)
    if key not in s.keys():
        raise click.UsageError(f"results: no configuration {key!r} in {store}; see "
                               f"`vandatta-sim results list --store {store}`")
    try:
        provenance = s.read_provenance(key)
        stats = stored_summary(key, s)
    except (MissingKeyError, ValueError, KeyError) as exc:
        message = exc.args[0] if isinstance(exc, KeyError) and exc.args else str(exc)
        raise click.UsageError(f"results: {message}") from None
    if as_json:
        click.echo(json.dumps({"provenance": provenance,
                               "summary": summary_records_one(stats)},
                              indent=2, ensure_ascii=False))
        return
    p = provenance
    lines = [f"key           {key}", f"configuration {p.get('label')}",
             f"preset        {p.get('rules_preset')}  rules key {p.get('rules_key')}",
             f"changes       {_changes(p.get('rules_diff'))}",
             f"players       {p.get('players')}  policies {_policies_text(p.get('policies'))}"
             f"  forget {p.get('forget')}",
             f"match         {p.get('match')}  swap {p.get('swap')}",
             f"seed          {p.get('seed')}  chunks of {p.get('chunk_size'):,}",
             f"stored        {p.get('games_stored', 0):,} games in "
             f"{p.get('chunks_stored', 0)} chunks",
             f"engine        {p.get('engine_version')}  simulator {p.get('simulator_version')}  "
             + " ".join(f"{k} {v}" for k, v in (p.get("packages") or {}).items()),
             f"command       {p.get('command')}"]
    if p.get("precision"):
        pr = p["precision"]
        lines.append(f"precision     target {pr.get('target')}  reached "
                     f"{pr.get('reached', float('nan')):.5f} after {pr.get('games'):,} games"
                     + ("" if pr.get("target_reached") else "  (target not reached)"))
    click.echo("\n".join(lines))
    click.echo("\n" + format_table(_one_row(key, p.get("label", ""), stats)))
    rates = ", ".join(f"{s}: {100 * w:.2f}%" for s, w in enumerate(stats["win_rates"]))
    click.echo(f"win rate by seat: {rates}  (largest 95% half-width {stats['half_width']:.4f})")


def _changes(diff) -> str:
    if not diff:
        return "(none)"
    return ", ".join(f"{k}={str(v).lower() if isinstance(v, bool) else v}" for k, v in diff.items())


def summary_records_one(stats: dict) -> dict:
    import pandas as pd

    return summary_records(pd.DataFrame([stats]))[0]


def _one_row(key, label, stats):
    import pandas as pd

    return pd.DataFrame([{"key": key, "label": label} | stats])


__all__ = ["sweep", "results"]
