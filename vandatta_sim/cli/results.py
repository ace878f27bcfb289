"""``vandatta-sim results``: list and show the configurations in a result store."""

from __future__ import annotations

import json

import click

from .. import tables
from ..simulate import Seats
from ..store import MissingKeyError, Store
from ..sweep import format_table, stored_summary, summary_records
from .options import changes_text, json_option, store_option


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
    click.echo("\n" + format_table(_one_row(key, p.get("label", ""), stats)))
    rates = ", ".join(f"{s}: {100 * w:.2f}%" for s, w in enumerate(stats["win_rates"]))
    click.echo(f"win rate by seat: {rates}  (largest 95% half-width {stats['half_width']:.4f})")


def summary_records_one(stats: dict) -> dict:
    import pandas as pd

    return summary_records(pd.DataFrame([stats]))[0]


def _one_row(key, label, stats):
    import pandas as pd

    return pd.DataFrame([{"key": key, "label": label} | stats])

