"""``vandatta-sim sweep``: run a grid of configurations into the result store, resumably.

Every bad input (grid, sweep file, run settings, backend) is one ``Error:`` line with exit code
2 before any work starts or anything is written.

Interrupts: from the moment the command starts, Ctrl-C (SIGINT) and SIGTERM stop the sweep and
print one "interrupted … run the same command again" line, exit 130 (SIGINT) or 143 (SIGTERM),
never a traceback. The signal is also recorded, and polled after every chunk, so that one
swallowed by a library (e.g. while numba loads its cached kernels) still stops the run.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

import click
import pandas as pd

from .. import formatting, tuned
from ..plots import check_plot_path, plot_comparison
from ..rules import parse_override
from ..store import Store
from ..sweep import (DEFAULT_CHUNK_SIZE, DEFAULT_MAX_GAMES, SWEEP_FILE_HELP, RunSettings,
                     SweepError, check_backend, check_run_settings, expand_grid, load_sweep_file,
                     merge_run_settings, plan, run_sweep, summary_records, sweep_table)
from ..sweep.compare import (comparison_text, compared_measures, paired_comparison,
                             pick_baseline)
from ..sweep.catalogue import check_user_label
from ..sweep.config import dedupe_configs
from ..sweep.dry_run import estimate_time
from ..sweep.summary import capped_warning, has_matches
from . import command_line
from .interrupts import interrupts_end_the_run
from .builders import (check_file_fields_once, check_preset_once, check_store_path,
                       check_user_file, warn_inert)
from .errors import usage_errors
from .options import (baseline_option, dry_run_option, forget_option, json_option, label_option,
                      match_formats_option, overrides_option, per_seat_option,
                      player_counts_option, plot_option, policy_option, precision_option,
                      preset_option, quiet_option, rules_file_option, store_option,
                      summary_option, sweep_games_option, sweep_seed_option, sweep_threads_option)
from .paramtypes import ASCII_INT, MAX_SWEEP_GAMES, CountType


@click.command("sweep", epilog="\b\n" + SWEEP_FILE_HELP)
@click.argument("sweep_file", required=False, metavar="[SWEEP_FILE]")
@preset_option
@rules_file_option
@overrides_option
@click.option("--vary", multiple=True, metavar="FIELD=V1,V2",
              help="Vary a rule (or policy/forget/swap) over values (repeatable): a grid.")
@player_counts_option
@policy_option
@forget_option
@match_formats_option
@click.option("--swap", metavar="RANK", help="Swap experiment: give a seat a card of RANK.")
@sweep_games_option
@precision_option
@click.option("--max-games", type=CountType("max_games", 1, MAX_SWEEP_GAMES, "2^62"),
              metavar="N",
              help=f"Cap per configuration with --precision (default {DEFAULT_MAX_GAMES:,}).")
@sweep_seed_option
@click.option("--chunk-size", type=ASCII_INT, metavar="N",
              help=f"Games per stored chunk (default {DEFAULT_CHUNK_SIZE:,}).")
@store_option
@click.option("--dask", type=click.Choice(["local"]), help="Run on a Dask LocalCluster.")
@click.option("--scheduler", metavar="ADDR", help="Run on a Dask cluster: tcp://HOST:PORT.")
@sweep_threads_option
@click.option("--feel", is_flag=True,
              help="Also record the game feel (lead changes, comebacks, real choices; "
                   "docs/columns.md): a slower kernel.")
@dry_run_option
@baseline_option
@per_seat_option
@label_option
@plot_option
@summary_option
@quiet_option
@json_option
def sweep_cmd(**options):
    """Run a grid of configurations into the result store, resumably.

    The grid comes from SWEEP_FILE or from the options, e.g. --preset standard
    --vary stacking=false,true --vary draw_limit=0,1,3 --players 2,3,4,5 --policy all=expert
    --games 1000000 --seed 1. Chunks already stored are never computed again: rerun the same
    command to resume an interrupted sweep.

    With --precision H the games are kept up to the first one at which every seat's win-rate
    95% half-width is ≤ H, checked game by game (chunks are played in order and the last is
    cut there), so the count does not depend on --chunk-size, threads or backend.

    --vary policy=0=random,expert varies one seat's policy (the others as --policy says).
    The output ends with a plain verdict (--quiet leaves it out; --json has it as "verdict");
    --summary FILE.md writes a note to paste; --label TEXT names the stored runs.
    """
    o = SweepOptions(**options)
    message = (f"interrupted: every chunk finished before the interrupt is stored in {o.store} "
               "(none if it came before the first); run the same command again to resume")
    with interrupts_end_the_run(message) as signals:
        _sweep(o, signals.stop_requested)


@dataclass(frozen=True)
class SweepOptions:
    """The options of ``sweep`` as click parses them (one field per option)."""

    sweep_file: str | None
    preset: str | None
    rules_file: str | None
    overrides: tuple
    vary: tuple
    players: tuple | None
    policies: tuple
    forget: tuple
    match: str | None
    swap: str | None
    games: int | None
    precision: float | None
    max_games: int | None
    seed: int | None
    chunk_size: int | None
    store: str
    dask: str | None
    scheduler: str | None
    threads: int | None
    feel: bool
    dry_run: bool
    baseline: str | None
    per_seat: bool
    label: str | None
    plot: str | None
    summary_file: str | None
    quiet: bool
    as_json: bool

    @property
    def backend(self) -> str:
        # an empty --scheduler is a bad address (check_backend), never "run locally"
        return "dask-local" if self.dask else "local" if self.scheduler is None else self.scheduler


@dataclass(frozen=True)
class _Plan:
    """A checked sweep: its configurations (each once), how it runs, the baseline and label."""

    configs: list
    unique: list
    settings: RunSettings
    baseline_index: int
    label: str | None


def _sweep(o: SweepOptions, stop_requested) -> None:
    with usage_errors():
        sweep = _checked(o)
        if o.dry_run:
            _dry_run(o, sweep)
            return
    settings = sweep.settings
    command = command_line()
    try:
        summary = run_sweep(sweep.configs, seed=settings.seed, chunk_size=settings.chunk_size,
                            store=o.store, backend=o.backend, threads=o.threads, command=command,
                            stop_requested=stop_requested,
                            record={"kind": "sweep", "rules_file": o.rules_file,
                                    "user_label": sweep.label}, feel=o.feel, **settings.length())
    except SweepError as exc:  # e.g. the scheduler cannot be reached: nothing was written
        raise click.UsageError(str(exc)) from None
    except OSError as exc:  # a full disk, a folder that became read-only: one line, exit 2
        raise click.UsageError(f"cannot write the results to {o.store}: "
                               f"{exc.strerror or exc}") from None
    except RuntimeError as exc:
        raise click.ClickException(str(exc)) from None
    _report(o, sweep, summary, command)


def _checked(o: SweepOptions) -> _Plan:
    """Every input checked, before anything runs or is written (:class:`SweepError`)."""
    check_store_path(o.store, write=not o.dry_run)  # a dry run only reads the store
    tuned.use_store(o.store)  # tuned:NAME is looked up in this store too
    configs, from_file = _resolve(o)
    seen_warnings = set()  # each distinct warning once, however many configurations share it
    for config in configs:
        warn_inert(config.rules, config.seats, seen_warnings)
    settings = merge_run_settings(from_file, games=o.games, precision=o.precision, seed=o.seed,
                                  chunk_size=o.chunk_size, max_games=o.max_games)
    if o.dask and o.scheduler is not None:
        raise SweepError("give --dask local or --scheduler ADDR, not both")
    unique = dedupe_configs(configs)
    keys = [c.key(settings.seed, settings.chunk_size) for c in unique]
    baseline_index = pick_baseline([c.label for c in unique], keys, o.baseline)
    label = check_user_label(o.label, [*Store(o.store).keys(), *keys])
    if o.plot is not None:
        try:
            check_plot_path(o.plot)
        except ValueError as exc:
            raise SweepError(str(exc)) from None
    check_user_file(o.summary_file, (".md",), "--summary")
    length = settings.length()
    if o.dry_run and length["games"] is None and length["precision"] is None:
        length = {"games": 1}  # the plan lists the configurations only; the rest is checked
    local = o.backend == "local"
    check_run_settings(seed=settings.seed, chunk_size=settings.chunk_size,
                       threads=o.threads if local or o.dry_run else None, **length)
    if not (o.dry_run and local):
        check_backend(o.backend)
    if o.threads is not None and o.threads < 1:
        raise SweepError(f"threads {o.threads} is not allowed; allowed: an integer ≥ 1")
    return _Plan(configs, unique, settings, baseline_index, label)


def _dry_run(o: SweepOptions, sweep: _Plan) -> None:
    settings = sweep.settings
    work = plan(sweep.configs, seed=settings.seed, chunk_size=settings.chunk_size, store=o.store,
                **settings.length())
    _print_plan(work, settings, o.store, o.backend, o.as_json)
    if not o.as_json and o.backend == "local":
        estimate = estimate_time(sweep.configs, work["to_run"].tolist(), o.threads)
        if estimate is not None:
            click.echo(estimate.text())


def _report(o: SweepOptions, sweep: _Plan, summary, command: str) -> None:
    """The table, the paired comparison and the verdict (or JSON); the note and the chart."""
    settings, baseline_index = sweep.settings, sweep.baseline_index
    comparison = _compare(summary, baseline_index, o.store, o.per_seat)
    verdict = _verdict(summary, comparison, baseline_index, sweep.unique, o.store,
                       settings.chunk_size)
    if o.as_json:
        records = summary_records(summary)
        for record, row in zip(records, comparison or ()):
            record |= summary_records(pd.DataFrame([row]))[0]
        out = {"store": o.store, "seed": settings.seed, "chunk_size": settings.chunk_size,
               "backend": o.backend,
               **{k: v for k, v in settings.length().items() if v is not None},
               "baseline": str(summary["key"].iloc[baseline_index]), "configs": records,
               "verdict": verdict}
        click.echo(json.dumps(out, indent=2, ensure_ascii=False))
    else:
        click.echo(sweep_table(summary))
        if comparison:
            click.echo("\n" + comparison_text(summary, comparison, baseline_index, o.per_seat))
        new = int(summary["new_games"].sum())
        click.echo(f"\n{new:,} new games; results in {o.store} (seed {settings.seed}, chunks of "
                   f"{settings.chunk_size:,}); `vandatta-sim results show KEY` for details")
        if settings.precision is not None:
            missed = summary[summary["target_reached"] == False]  # noqa: E712
            for _, row in missed.iterrows():
                click.echo(f"precision target not reached for {row['key']} ({row['label']}): "
                           f"half-width {row['half_width']:.4f} after {row['games']:,} games "
                           f"(--max-games)")
        if verdict and not o.quiet:
            click.echo("\n" + verdict)
    if o.summary_file is not None:
        from ..experiments.summary_note import note_text, write_note

        table = sweep_table(summary) + (
            "\n\n" + comparison_text(summary, comparison, baseline_index, o.per_seat)
            if comparison else "")
        base = sweep.unique[baseline_index]
        write_note(o.summary_file, note_text(
            f"Sweep of {len(summary)} configuration(s), seed {settings.seed} (the baseline's "
            "rules below; the table's labels say what each configuration changes)",
            base.rules.diff(type(base.rules)()), table, verdict, command, o.rules_file))
        click.echo(f"wrote the note to {o.summary_file}", err=o.as_json)
    warning = capped_warning(summary.to_dict("records"))
    if warning:
        click.echo(warning, err=True)
    if o.plot is not None:
        plot_comparison(summary, comparison, baseline_index, o.plot)
        click.echo(f"wrote the chart to {o.plot}", err=o.as_json)


def _verdict(summary, comparison, baseline_index, configs, store, chunk_size) -> str:
    """The plain verdict of the sweep: the comparison's (:mod:`vandatta_sim.experiments.plain`)
    and the Δ-skill line where a focal seat's policy is crossed with rules
    (:mod:`vandatta_sim.sweep.skill`), or for one configuration what förhand's win rate says
    against the fair share."""
    from ..experiments.plain import comparison_verdict, single_verdict, skill_sentences
    from ..sweep.skill import plan_skill, skill_change

    unit = "matches" if has_matches(summary) else "games"
    policies = {c.seats.describe() for c in configs}
    players = policies.pop() if len(policies) == 1 else "varied"
    if comparison is None:
        return single_verdict(summary.iloc[0], players, unit)
    plan = plan_skill(configs, list(summary["key"]), list(summary["label"]))
    text = comparison_verdict(summary, comparison, baseline_index, players, unit,
                              most=3 if plan is None else 2)
    if plan is None:
        return text
    changes = skill_change(plan, store, int(summary["players"].max()), lambda k: chunk_size)
    return text + "\n" + skill_sentences(plan, changes)


def _compare(summary, baseline_index, store, per_seat):
    """The paired differences of each configuration from the baseline (None for one)."""
    if len(summary) < 2:
        return None
    players = int(summary["players"].max())
    measures = compared_measures(players, per_seat, has_matches(summary))
    try:
        return paired_comparison(list(summary["key"]), baseline_index, store,
                                 dict(zip(summary["key"], summary["games"].astype(int))),
                                 measures)
    except SweepError as exc:  # e.g. different player counts: the sweep itself is stored
        click.echo(f"warning: no paired comparison: {exc}", err=True)
        return None


def _resolve(o: SweepOptions):
    """The configurations and the sweep file's run settings (none from the options)."""
    grid_given = [name for name, value in (
        ("--preset", o.preset), ("--rules", o.rules_file), ("--set", o.overrides),
        ("--vary", o.vary), ("--players", o.players), ("--policy", o.policies),
        ("--forget", o.forget), ("--match", o.match), ("--swap", o.swap)) if value]
    if o.sweep_file is not None:
        if grid_given:
            raise SweepError(f"give the grid in SWEEP_FILE or with options, not both "
                             f"({', '.join(grid_given)} given with {o.sweep_file})")
        return load_sweep_file(o.sweep_file)
    check_preset_once(o.preset, o.rules_file)
    configs = expand_grid("standard" if o.preset is None else o.preset, o.rules_file,
                          o.overrides, o.vary, o.players, o.policies, o.forget, o.match, o.swap)
    given = {parse_override(text)[0]: f"--set {text}" for text in o.overrides}
    given |= {str(text).partition("=")[0].strip(): f"--vary {text}" for text in o.vary}
    given |= {name: f"--{name} {value}" for name, value in (("players", o.players and ",".join(
        map(str, o.players))), ("match", o.match)) if value}
    check_file_fields_once(o.rules_file, given)  # after expand_grid has checked the file
    return configs, {}


def _total(column) -> int:
    """A column's sum in Python integers: int64 wraps past 2^63 (two configurations of 2^62)."""
    return sum(int(value) for value in column)


def _print_plan(work, settings: RunSettings, store, backend, as_json):
    run, seed, chunk_size = settings.length(), settings.seed, settings.chunk_size
    if as_json:
        out = {"store": store, "seed": seed, "chunk_size": chunk_size, "backend": backend,
               **{k: v for k, v in run.items() if v is not None},
               "configs": summary_records(work),
               "games_to_run": None if work["to_run"].isna().any() else _total(work["to_run"])}
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
    click.echo(formatting.format_table(header, rows, "l" * len(header), style="text"))
    n = len(work)
    if run["games"] is None and run["precision"] is None:
        click.echo(f"\n{n} configurations; give --games N or --precision H to run them")
        return
    todo = work["to_run"]
    approx = "≈" if run["precision"] is not None else ""
    chunks = "" if run["precision"] is not None else (
        f" in {sum(-(-int(g) // chunk_size) for g in work['to_run'] if g):,} chunk(s)")
    click.echo(f"\n{n} configurations, seed {seed}, chunks of {chunk_size:,}, store {store}, "
               f"backend {backend}: {approx}{_total(todo):,} games to run{chunks} "
               f"({int(work['stored'].sum()):,} stored); dry run, nothing was run")
    if run["precision"] is not None:
        cap = run["max_games"] or DEFAULT_MAX_GAMES
        click.echo(f"precision: each configuration plays chunks in order and keeps the games up "
                   f"to the first one at which every seat's win-rate 95% half-width is ≤ "
                   f"{run['precision']} (at most {cap:,} games); the chunk holding it is played "
                   f"whole and stored cut there, so games and to run are estimates")
