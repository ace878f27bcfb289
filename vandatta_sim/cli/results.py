"""``vandatta-sim results``: list, show, compare and plot the configurations in a result store."""

from __future__ import annotations

import json

import click

from .. import tables
from ..simulate import Seats
from ..store import MissingKeyError, Store
from ..plots import check_plot_path, plot_comparison
from ..sweep import SweepError, format_table, stored_summary, summary_records
from ..sweep.compare import (comparison_text, compared_measures, paired_comparison,
                             pick_baseline)
from ..sweep.summary import capped_warning, format_estimate
from .options import (baseline_option, changes_text, json_option, per_seat_option,
                      plot_option, store_option)


@click.group("results")
def results_group():
    """List and show the configurations in a result store."""


def _policies_text(value) -> str:
    if isinstance(value, list) and value:
        return Seats(tuple(value), (0.0,) * len(value)).describe()
    return "" if value is None else str(value)


@results_group.command("list")
@store_option
@json_option
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


@results_group.command("show")
@click.argument("key")
@store_option
@json_option
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
             f"changes       {changes_text(p.get('rules_diff')) or '(none)'}",
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
    row = _one_row(key, p.get("label", ""), stats)
    click.echo("\n" + format_table(row))
    rates = ", ".join(f"{s}: {100 * w:.2f}%" for s, w in enumerate(stats["win_rates"]))
    click.echo(f"win_rate_<seat>: {rates}  (half_width, the largest 95% half-width: "
               f"{stats['half_width']:.4f})")
    click.echo(f"capped_share {format_estimate(row.iloc[0], 'capped_share', 2, True)} "
               f"({stats['capped_games']:,} capped games); blocked_share "
               f"{format_estimate(row.iloc[0], 'blocked_share', 2, True)}")
    _warn_capped(row)


def _warn_capped(summary) -> None:
    warning = capped_warning(summary)
    if warning:
        click.echo(warning, err=True)


def _stored_summaries(keys, store):
    """The summary rows of stored configurations ``keys`` (one line, exit 2, on any problem)."""
    import pandas as pd

    s = Store(store)
    known = s.keys()
    rows = []
    for key in keys:
        if key not in known:
            raise click.UsageError(f"results: no configuration {key!r} in {store}; see "
                                   f"`vandatta-sim results list --store {store}`")
        try:
            label = s.read_provenance(key).get("label", "")
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
        measures = compared_measures(players, per_seat)
        rows = paired_comparison(list(summary["key"]), index, Store(store), None, measures)
    except SweepError as exc:
        raise click.UsageError(f"results: {exc}") from None
    return summary, index, rows


@results_group.command("compare")
@click.argument("keys", nargs=-1, required=True)
@baseline_option
@per_seat_option
@store_option
@json_option
def results_compare(keys, baseline, per_seat, store, as_json):
    """Paired differences of stored configurations KEY… from a baseline, game by game over the
    games both hold. Pairing needs the same seed and player count (refused otherwise)."""
    summary, index, rows = _comparison(keys, store, baseline, per_seat)
    if as_json:
        records = summary_records(summary)
        for record, row in zip(records, rows):
            record |= summary_records_one(row)
        click.echo(json.dumps({"baseline": keys[index], "configs": records}, indent=2,
                              ensure_ascii=False))
    else:
        click.echo(format_table(summary))
        click.echo("\n" + comparison_text(summary, rows, index, per_seat))
    _warn_capped(summary)


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


def summary_records_one(stats: dict) -> dict:
    import pandas as pd

    return summary_records(pd.DataFrame([stats]))[0]


def _one_row(key, label, stats):
    import pandas as pd

    return pd.DataFrame([{"key": key, "label": label} | stats])

