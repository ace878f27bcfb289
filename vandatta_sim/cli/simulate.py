"""``vandatta-sim simulate``: play many games and print each seat's win rate and points."""

from __future__ import annotations

from pathlib import Path

import click
import numpy as np

from ..paths import write_atomically
from ..rules import Rules
from ..simulate import Seats, simulate
from ..stats import mean_interval, proportion
from .options import (build_rules, build_seats, check_user_file, games_option, rules_options,
                      seat_options, seed_option, threads_option, usage_errors, warn_inert)


@click.command("simulate")
@rules_options
@seat_options
@games_option
@seed_option
@threads_option
@click.option("--out", help="Write the per-game table (.parquet or .csv).")
@usage_errors()
def simulate_cmd(preset, rules_file, overrides, players, match, policies, forget, games, seed,
                 threads, out):
    """Play GAMES games and print each seat's win rate with a 95% interval."""
    rules = build_rules(preset, rules_file, overrides, players, match)
    seats = build_seats(rules, policies, forget)
    warn_inert(rules, seats)
    check_output_path(out)
    df = simulate(rules, games, seed=seed, policies=seats, threads=threads)
    click.echo(summary_text(df, rules, seats, seed))
    if out:
        write_table(df, out)
        click.echo(f"wrote {len(df):,} games to {out}")


def check_output_path(out: str | None) -> None:
    """--out: a .parquet or .csv file that can be written (one Error line before any work)."""
    check_user_file(out, (".parquet", ".csv"))


def summary_text(df, rules: Rules, seats: Seats, seed: int) -> str:
    unit = "deals" if rules.match_kind == "single" else f"matches ({rules.match})"
    lines = [f"{len(df):,} {unit}, {rules.players} players, rules key {rules.key()}, "
             f"seed {seed}, policies {seats.describe()}",
             f"{'seat':<6}{'policy':<14}{'win rate [95% CI]':<28}{'mean points [95% CI]'}"]
    for s in range(rules.players):
        win = proportion(int((df.winner == s).sum()), len(df))
        pts = mean_interval(df[f"points_{s}"].to_numpy(np.float64))
        lines.append(f"{s:<6}{seats.policies[s]:<14}{win.format(3, percent=True):<28}"
                     f"{pts.format(2)}")
    turns = mean_interval(df.turns.to_numpy(np.float64))
    lines.append(f"mean turns {turns.format(2)}; blocked {int(df.blocked.sum()):,}; "
                 f"capped {int(df.capped.sum()):,}")
    if rules.match_kind != "single":
        deals = mean_interval(df.deals.to_numpy(np.float64))
        lines.append(f"mean deals per match {deals.format(2)}")
    return "\n".join(lines)


def write_table(df, out: str) -> None:
    """Write to a unique temporary name and rename, so an interrupted write leaves nothing
    behind and no other file is touched."""
    if Path(out).suffix.lower() == ".csv":
        write_atomically(out, lambda tmp: df.to_csv(tmp, index=False), "--out")
    else:
        write_atomically(out, lambda tmp: df.to_parquet(tmp, index=False), "--out")
