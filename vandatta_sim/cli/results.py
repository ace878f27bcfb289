"""``vandatta-sim results``: list, show, compare, plot, verify, export and remove the
configurations in a result store.

A KEY may be given as any unique prefix of a stored key (an ambiguous prefix is a one-line error
listing the matches). Bad chunks (see :mod:`vandatta_sim.store`) are never summarised: ``show``
and ``export`` leave them out with one warning line on stderr naming them, ``verify`` lists them
and exits 1 (exit 2 stays the code of a usage error, so scripts can tell "the store is damaged"
from "the command was wrong").
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import click

from ..plots import check_plot_path, plot_comparison
from ..store import PROVENANCE, BadProvenanceError, MissingKeyError, Store, UnsafeStoreError
from ..sweep import SweepError, stored_summary, summary_records, sweep_table
from ..sweep.compare import (comparison_text, compared_measures, paired_comparison,
                             pick_baseline)
from ..sweep.summary import capped_warning, estimate_cell, has_matches
from ..sweep import catalogue
from ..sweep.provenance import KINDS
from ..experiments.plain import comparison_verdict
from . import command_line
from .builders import check_store_path, check_user_file
from .options import (baseline_option, json_option, per_seat_option, plot_option, quiet_option,
                      store_option, summary_option)
from .simulate import write_table


@click.group("results")
def results_group():
    """List, show, verify, export and remove the configurations in a result store."""


def _open(store: str) -> Store:
    check_store_path(store, write=False)
    return Store(store)


def _resolve_key(s: Store, key: str, store: str) -> str:
    """The stored key that ``key`` names exactly or as a unique prefix (the one resolver of
    every ``results`` subcommand: :func:`vandatta_sim.sweep.catalogue.resolve_key`)."""
    try:
        return catalogue.resolve_key(s.keys(), key, store)
    except SweepError as exc:
        raise click.UsageError(f"results: {exc}") from None


@results_group.command("list")
@click.option("--kind", type=click.Choice(KINDS), help="Only runs of this kind.")
@click.option("--where", multiple=True, metavar="FIELD=VALUE",
              help="Only runs whose FIELD is VALUE (repeatable; for changes, policies, label "
                   "and command a part of it), e.g. --where players=3 --where changes=stacking.")
@click.option("--since", metavar="DATE", help="Only runs updated on or after DATE "
                                               "(YYYY-MM-DD or YYYY-MM-DDTHH:MM, UTC).")
@click.option("--all", "show_all", is_flag=True,
              help="Also the runs a command made for its own arithmetic (value's break-even "
                   "runs at a score nobody typed), hidden by default.")
@store_option
@json_option
def results_list(kind, where, since, show_all, store, as_json):
    """One line per stored configuration, oldest first (newest last), fitting 100 columns:
    the day it was last updated, the key's first digits (any unique prefix names it), the
    kinds of run that used it (sweep, value, report, design; --kind finds a configuration under
    each), games, and what tells it apart: your label (--label or `results label`), the rules
    as changes from standard (after the rules file's name), the swapped rank (@seat where one
    seat holds it) and the policies where not all expert. `results show KEY` gives the rest
    (the command, seed, engine, every field); --json gives every field of every row."""
    s = _open(store)
    try:
        rows = catalogue.select(s, kind, where, since)
    except SweepError as exc:
        raise click.UsageError(f"results list: {exc}") from None
    hidden = 0 if show_all else sum(r["internal"] for r in rows)
    rows = rows if show_all else [r for r in rows if not r["internal"]]
    if as_json:
        click.echo(json.dumps(rows, indent=2, ensure_ascii=False))
        return
    if rows:
        click.echo(catalogue.list_text(rows))
    else:
        filtered = " matching the filters" if kind or where or since else ""
        click.echo(f"no results{filtered} in {store}")
    if hidden:
        click.echo(f"({hidden} run(s) that value made for its own break-even arithmetic are "
                   "hidden; --all lists them)")


@results_group.command("label")
@click.argument("key")
@click.argument("text")
@store_option
def results_label(key, text, store):
    """Give the configuration KEY (or a unique prefix) the label TEXT, shown by `results
    list` and `results show` (an empty TEXT removes it). Only this key is relabelled."""
    s = _open(store)
    key = _resolve_key(s, key, store)
    try:
        text = catalogue.check_user_label(text, s.keys())
    except SweepError as exc:
        raise click.UsageError(f"results {exc}") from None
    with s.lock(key, lambda pid: click.echo(f"waiting for the run holding the lock on {key} "
                                            f"(pid {pid}) to finish", err=True)):
        s.update_provenance(key, user_label=text or None)
    click.echo(f"{key}: label {text!r}" if text else f"{key}: label removed")


def _warn_bad(s: Store, key: str) -> None:
    """Check ``key`` in full and warn, one line each, of bad chunks (then left out of what
    ``s`` reads) and of provenance that contradicts the chunks."""
    bad = s.verify(key)
    if bad:
        names = ", ".join(f"chunk-{c:06d}.parquet" for c in bad)
        click.echo(f"warning: {key}: {len(bad)} bad chunk(s) left out ({names}); games from the "
                   f"first bad chunk on are not summarised; `vandatta-sim results verify {key}` "
                   "says why; run the sweep again to repair them", err=True)
    for line in s.provenance_warnings(key):
        click.echo(f"warning: {line}", err=True)


@results_group.command("show")
@click.argument("key")
@store_option
@summary_option
@json_option
def results_show(key, store, summary_file, as_json):
    """Provenance and summary (with 95% intervals) of the configuration KEY (or a unique
    prefix of it). Bad chunks are left out, with a warning on stderr."""
    check_user_file(summary_file, (".md",), "--summary")
    s = _open(store)
    key = _resolve_key(s, key, store)
    try:
        provenance = s.read_provenance(key)  # a damaged one is the one line, before warnings
        _warn_bad(s, key)
        stats = stored_summary(key, s)
    except (MissingKeyError, ValueError, KeyError, UnsafeStoreError) as exc:
        message = exc.args[0] if isinstance(exc, KeyError) and exc.args else str(exc)
        raise click.UsageError(f"results: {message}") from None
    if as_json:
        click.echo(json.dumps({"provenance": provenance,
                               "summary": summary_records_one(stats)},
                              indent=2, ensure_ascii=False))
        if summary_file is None:
            return
    text = show_text(key, provenance, stats)
    click.echo(text)
    if summary_file is not None:
        from ..experiments.plain import single_verdict

        row = catalogue.row_of(key, provenance)
        unit = "deals" if provenance.get("match") == "single" else "matches"
        verdict = single_verdict(stats, catalogue.policies_text(provenance.get("policies")),
                                 unit)
        _write_note(summary_file, f"Stored run {key}", row, text, verdict, as_json)
    _warn_capped(_one_row(key, provenance.get("label", ""), stats))


def show_text(key: str, p: dict, stats: dict) -> str:
    """``results show``'s description of a stored configuration and its summary table."""
    r = catalogue.row_of(key, p)
    swap = "none" if p.get("swap") is None else (
        f"one card of rank {p['swap']} to "
        + ("each seat in turn" if p.get("swap_seat") is None else f"seat {p['swap_seat']}"))
    lines = [f"key           {key}  ({r['kind']})", f"configuration {p.get('label')}"
             + (f"  label {r['user_label']!r}" if r["user_label"] else ""),
             f"rules         {catalogue.changes_text(r['changes'], r['rules_file'])}  "
             f"(changes from standard; rules key {p.get('rules_key')})",
             f"players       {p.get('players')}  policies "
             f"{catalogue.policies_text(p.get('policies'))}  forget "
             f"{catalogue.value_text(p.get('forget'))}",
             f"match         {p.get('match')}  scale {r['scale']}  swap {swap}",
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
    row = _one_row(key, p.get("label", ""), stats)
    lines.append("\n" + sweep_table(row))
    rates = ", ".join(f"{s}: {100 * w:.2f}%" for s, w in enumerate(stats["win_rates"]))
    lines.append(f"win_rate_<seat>: {rates}  (half_width, the largest 95% half-width: "
                 f"{stats['half_width']:.4f})")
    lines.append(f"capped_share {estimate_cell(row.iloc[0], 'capped_share', 2, True)} "
                 f"({stats['capped_games']:,} capped games); blocked_share "
                 f"{estimate_cell(row.iloc[0], 'blocked_share', 2, True)}")
    return "\n".join(lines)


def _warn_capped(summary) -> None:
    warning = capped_warning(summary.to_dict("records"))
    if warning:
        click.echo(warning, err=True)


def _stored_summaries(keys, store):
    """The summary rows of stored configurations ``keys`` (full keys or unique prefixes; one
    line, exit 2, on any problem)."""
    import pandas as pd

    s = _open(store)
    rows = []
    for key in keys:
        key = _resolve_key(s, key, store)
        try:
            p = s.read_provenance(key)
            label = p.get("user_label") or p.get("label", "")
            rows.append({"key": key, "label": label} | stored_summary(key, s))
        except (MissingKeyError, ValueError, KeyError) as exc:
            message = exc.args[0] if isinstance(exc, KeyError) and exc.args else str(exc)
            raise click.UsageError(f"results: {message}") from None
    return pd.DataFrame(rows)


def _comparison(keys, store, baseline, per_seat):
    summary = _stored_summaries(keys, store)
    try:
        index = pick_baseline(list(summary["label"]), list(summary["key"]), baseline)
        players = int(summary["players"].max())
        measures = compared_measures(players, per_seat, has_matches(summary))
        rows = paired_comparison(list(summary["key"]), index, Store(store), None, measures)
    except SweepError as exc:
        raise click.UsageError(f"results: {exc}") from None
    return summary, index, rows


@results_group.command("compare")
@click.argument("keys", nargs=-1, required=True)
@baseline_option
@per_seat_option
@store_option
@summary_option
@quiet_option
@json_option
def results_compare(keys, baseline, per_seat, store, summary_file, quiet, as_json):
    """Paired differences of stored configurations KEY… (full keys or unique prefixes) from a
    baseline, game by game over the games both hold, and a plain verdict. Pairing needs the
    same seed and player count (refused otherwise)."""
    check_user_file(summary_file, (".md",), "--summary")
    summary, index, rows = _comparison(keys, store, baseline, per_seat)
    verdict = comparison_verdict(summary, rows, index, _policies_of(store, summary),
                                 "matches" if has_matches(summary) else "games")
    table = sweep_table(summary) + "\n\n" + comparison_text(summary, rows, index, per_seat)
    if as_json:
        records = summary_records(summary)
        for record, row in zip(records, rows):
            record |= summary_records_one(row)
        click.echo(json.dumps({"baseline": str(summary["key"].iloc[index]), "configs": records,
                               "verdict": verdict}, indent=2, ensure_ascii=False))
    else:
        click.echo(table)
        if not quiet:
            click.echo("\n" + verdict)
    if summary_file is not None:
        p = Store(store).read_provenance(str(summary["key"].iloc[index]))
        r = catalogue.row_of(str(summary["key"].iloc[index]), p)
        _write_note(summary_file, f"Comparison of {len(summary)} stored runs", r, table,
                    verdict, as_json)
    _warn_capped(summary)


def _policies_of(store: str, summary) -> str:
    """The policies the compared configurations share (their description), or a phrase
    saying they differ."""
    s = Store(store)
    texts = {catalogue.policies_text(s.read_provenance(k).get("policies"))
             for k in summary["key"]}
    return texts.pop() if len(texts) == 1 else "the policies of each configuration"


def _write_note(path: str, title: str, row: dict, table: str, verdict: str,
                as_json: bool) -> None:
    """``--summary``: the note with the rules of ``row`` (a catalogue row) and the command
    that reproduces this output."""
    from ..experiments.summary_note import note_text, write_note

    command = command_line()
    made = (f"The games were made by `{row['command']}`." if row.get("command") else "")
    write_note(path, note_text(title, row["changes"], table, verdict, command,
                               row.get("rules_file"), made))
    click.echo(f"wrote the note to {path}", err=as_json)


@results_group.command("plot")
@click.argument("keys", nargs=-1, required=True)
@baseline_option
@plot_option
@store_option
def results_plot(keys, baseline, plot, store):
    """Draw stored configurations KEY… side by side: each measure with its 95% interval, the
    baseline marked, and the paired differences from it."""
    if plot is None:
        raise click.UsageError("results plot: give --plot FILE (.png or .svg)")
    try:
        check_plot_path(plot)
    except ValueError as exc:
        raise click.UsageError(str(exc)) from None
    summary, index, rows = _comparison(keys, store, baseline, False)
    plot_comparison(summary, rows if len(keys) > 1 else None, index, plot)
    click.echo(f"wrote the chart to {plot}")


@results_group.command("verify")
@click.argument("key", required=False)
@store_option
def results_verify(key, store):
    """Check every chunk of KEY (default: of every configuration) against its proof and its
    checksums. One line per bad chunk with the reason; exit 0 when all are good, 1 otherwise."""
    s = _open(store)
    root = Path(store)
    if not root.is_dir():  # nothing to check is no "all good"
        raise click.UsageError(f"results verify: --store {store[:80]!r} does not exist; "
                               "nothing to check")
    problems = []  # (path, reason), one BAD line each
    if key is not None:
        keys = [_resolve_key(s, key, store)]
    else:
        keys, problems = _store_folders(s, root)
    checked = 0
    for k in keys:
        try:
            bad = s.verify(k)
            checked += len(s.chunks(k))
            problems += [(None, reason) for reason in bad.values()]
            problems += [(path, "not written by this store (a foreign file; a sweep of this "
                                "key moves it into quarantine/)") for path in s.foreign_files(k)]
        except OSError as exc:  # e.g. a key folder that cannot be read
            problems.append((None, str(exc)))
            continue
        try:
            s.read_provenance(k)
        except BadProvenanceError as exc:  # damaged: a sweep of the key writes a fresh one
            problems.append((None, str(exc)))
            continue
        for line in s.provenance_warnings(k):
            click.echo(f"warning: {line}", err=True)
    for path, reason in problems:
        click.echo(f"BAD {reason}" if path is None else f"BAD {path}: {reason}")
    verdict = "all good" if not problems else f"{len(problems)} bad"
    click.echo(f"{checked:,} chunk(s) of {len(keys)} configuration(s) checked in {store}: "
               f"{verdict}")
    sys.exit(1 if problems else 0)


def _store_folders(s: Store, root: Path) -> tuple[list[str], list[tuple[Path, str]]]:
    """The keys to check in ``root`` and the problems of its other entries: a key folder that
    is a symlink or cannot be read, chunks without provenance."""
    keys, problems = [], []
    for path in sorted(root.iterdir()):
        if path.name.startswith("."):
            continue  # the store's own temporary names
        if path.is_symlink():
            problems.append((path, "key folder is a symlink; the store does not follow it"))
            continue
        if not path.is_dir():
            continue  # not a key folder: no key reads it
        try:
            names = os.listdir(path)
        except OSError as exc:
            problems.append((path, f"key folder cannot be read: {exc.strerror or exc}"))
            continue
        if PROVENANCE in names:
            keys.append(path.name)
        elif any(name.startswith("chunk-") for name in names):
            problems.append((path, f"holds chunks but no {PROVENANCE}"))
    return keys, problems


def _good_games(s: Store, key: str):
    """The contiguous good games of ``key`` from game 0 on, as one DataFrame."""
    chunk_size = int(s.read_provenance(key)["chunk_size"])
    rows = s.chunk_rows(key)
    chunks, c = [], 0
    while c in rows:
        chunks.append(c)
        if rows[c] < chunk_size:
            break
        c += 1
    return s.load_chunks(key, chunks)


@results_group.command("export")
@click.argument("key")
@click.option("--out", required=True, help="Write the per-game table (.parquet or .csv).")
@store_option
def results_export(key, out, store):
    """Write the stored games of KEY (from game 0 on, bad chunks left out with a warning) to
    the --out file, one row per game, atomically (a temporary file renamed into place)."""
    s = _open(store)
    key = _resolve_key(s, key, store)
    check_user_file(out, (".parquet", ".csv"))  # before any work: one line, exit 2
    try:
        s.read_provenance(key)  # a damaged one is the one line, before warnings
        _warn_bad(s, key)
        df = _good_games(s, key)
    except (MissingKeyError, ValueError, KeyError, UnsafeStoreError) as exc:
        message = exc.args[0] if isinstance(exc, KeyError) and exc.args else str(exc)
        raise click.UsageError(f"results: {message}") from None
    try:
        write_table(df, out)  # atomic: a temporary file renamed into place
    except OSError as exc:  # a WriteError names the file and the reason
        raise click.UsageError(str(exc)) from None
    click.echo(f"{len(df):,} games of {key} written to {out}")


@results_group.command("rm")
@click.argument("key")
@click.option("--yes", is_flag=True, help="Do not ask for confirmation.")
@store_option
def results_rm(key, yes, store):
    """Remove the configuration KEY (all its chunks and provenance) from the store. Asks first;
    without a terminal to ask on, refuses unless --yes."""
    s = _open(store)
    key = _resolve_key(s, key, store)
    if not yes:
        if not sys.stdin.isatty():
            raise click.UsageError(f"results rm: refusing to remove {key} without a terminal "
                                   "to confirm on; add --yes")
        click.confirm(f"remove {key} ({sum(s.chunk_rows(key).values()):,} games) from "
                      f"{store}?", abort=True)
    try:
        with s.lock(key, lambda pid: click.echo(f"waiting for the sweep holding the lock on "
                                                f"{key} (pid {pid}) to finish", err=True)):
            s.delete(key)  # all or nothing
    except MissingKeyError:  # removed by another process while this one waited
        raise click.UsageError(f"results rm: {key} was removed meanwhile") from None
    except OSError as exc:  # e.g. a read-only store: nothing was removed
        raise click.UsageError(f"results rm: cannot remove {key} from {store}: "
                               f"{exc.strerror or exc}; nothing was removed") from None
    click.echo(f"removed {key} from {store}")


def summary_records_one(stats: dict) -> dict:
    import pandas as pd

    return summary_records(pd.DataFrame([stats]))[0]


def _one_row(key, label, stats):
    import pandas as pd

    return pd.DataFrame([{"key": key, "label": label} | stats])
