"""``vandatta-sim simulate``: play many games and print each seat's win rate and points.

The games are played in chunks of :data:`CHUNK_GAMES`, summarised by the sweep's mergeable
summary and, with ``--out``, appended to the file chunk by chunk, so memory stays at one chunk
whatever ``--games`` is. A chunk is summed from its columns (numpy arrays): pandas and pyarrow
load only to write ``--out`` or ``--json`` (they cost about a fifth of a small run's start).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import click

from ..atomic import write_atomically
from ..rules import Rules
from ..simulate import Seats, game_columns
from .builders import TableOptions, build_rules, build_seats, check_user_file, warn_inert
from .errors import usage_errors
from .options import (dry_run_option, games_option, json_option, rules_options,
                      seat_options, seed_option, threads_option)


@click.command("simulate")
@rules_options
@seat_options
@games_option
@seed_option
@threads_option
@click.option("--out", help="Write the per-game table (.parquet or .csv).")
@dry_run_option
@json_option
@usage_errors()
def simulate_cmd(**options):
    """Play GAMES games and print each seat's win rate with a 95% interval.

    On a terminal a progress line on stderr counts the chunks of 250,000 games."""
    o = SimulateOptions(**options)
    rules = build_rules(o.preset, o.rules_file, o.overrides, o.players, o.match)
    seats = build_seats(rules, o.policies, o.forget)
    warn_inert(rules, seats)
    check_output_path(o.out)
    unit = "deals" if rules.match_kind == "single" else f"matches ({rules.match})"
    if o.games is None:
        raise click.UsageError(f"give --games N ({unit}), e.g. --games 100000")
    if o.dry_run:
        chunks = -(-o.games // CHUNK_GAMES)
        click.echo(f"simulate, dry run (nothing is played): {o.games:,} {unit}, {rules.players} "
                   f"players, rules key {rules.key()}, seed {o.seed}, policies "
                   f"{seats.describe()}, in {chunks:,} chunk(s) of up to {CHUNK_GAMES:,}"
                   + (f"; the games would be written to {o.out}" if o.out else ""))
        return
    result = _play(o, rules, seats, unit)
    if o.as_json:
        import json

        import pandas as pd

        from ..sweep.summary import summary_records

        record = summary_records(pd.DataFrame([result]))[0]
        click.echo(json.dumps({"rules": rules.canonical(), "rules_key": rules.key(),
                               "seed": o.seed, "policies": list(seats.policies),
                               "forget": [float(f) for f in seats.forget], "unit": unit,
                               "out": o.out, "summary": record}, indent=2, ensure_ascii=False))
    else:
        click.echo(summary_text(result, rules, seats, o.seed))
    if o.out:
        click.echo(f"wrote {result['games']:,} games to {o.out}", err=o.as_json)
    warning = _capped_warning(result, rules)
    if warning:
        click.echo(warning, err=True)


@dataclass(frozen=True)
class SimulateOptions(TableOptions):
    """The options of ``simulate`` as click parses them (the table's, then its own)."""

    games: int | None
    seed: int
    threads: int | None
    out: str | None
    dry_run: bool
    as_json: bool


def _play(o: SimulateOptions, rules, seats, unit: str) -> dict:
    """The games in chunks of :data:`CHUNK_GAMES` (streamed to ``--out`` where given), summed."""
    from ..sweep.summary import SummaryStats
    from .interrupts import received_signal

    total = SummaryStats(rules.players)
    progress = ChunkProgress(o.games, unit)

    def chunks():
        nonlocal total
        for first in range(0, o.games, CHUNK_GAMES):
            columns = game_columns(rules, min(CHUNK_GAMES, o.games - first), seed=o.seed,
                                   policies=seats, threads=o.threads, first_game=first)
            if received_signal() is not None:  # one a library swallowed while the chunk ran
                raise KeyboardInterrupt
            total = total.merge(SummaryStats.of(columns, rules.players))
            progress.done(first + len(columns["game"]))
            yield columns

    if o.out:
        stream_table(chunks(), o.out)
    else:
        for _ in chunks():
            pass
    progress.close()
    return total.result()


#: Games played and summarised at a time: about 60 MB (4 players) to 110 MB (10 players) (the
#: kernel's output arrays and the chunk's table), whatever ``--games`` is.
CHUNK_GAMES = 250_000


class ChunkProgress:
    """``simulate``'s progress line on stderr (only on a terminal, and only for runs of more
    than one chunk): games done of the total, rewritten in place after each chunk."""

    def __init__(self, games: int, unit: str):
        import sys

        self.games, self.unit = games, unit
        self.stream = sys.stderr
        self.show = games > CHUNK_GAMES and self.stream.isatty()

    def done(self, finished: int) -> None:
        if self.show:
            self.stream.write(f"\rsimulate: {finished:,} of {self.games:,} {self.unit} played "
                              f"({100 * finished / self.games:.0f}%)")
            self.stream.flush()

    def close(self) -> None:
        if self.show:
            self.stream.write("\n")
            self.stream.flush()


def check_output_path(out: str | None) -> None:
    """--out: a .parquet or .csv file that can be written (one Error line before any work)."""
    check_user_file(out, (".parquet", ".csv"))


def summary_text(result: dict, rules: Rules, seats: Seats, seed: int) -> str:
    """The summary of a run under the summary's field names (docs/columns.md), each with its
    95% interval."""
    from ..sweep.summary import estimate_cell

    unit = "deals" if rules.match_kind == "single" else f"matches ({rules.match})"
    lines = [f"{result['games']:,} {unit}, {rules.players} players, rules key {rules.key()}, "
             f"seed {seed}, policies {seats.describe()}",
             f"{'seat':<6}{'policy':<14}{'win_rate [95% CI]':<28}{'mean_points [95% CI]'}"]
    for s in range(rules.players):
        lines.append(f"{s:<6}{seats.policies[s]:<14}"
                     f"{estimate_cell(result, f'win_rate_{s}', 1, True):<28}"
                     f"{estimate_cell(result, f'mean_points_{s}', 2)}")
    lines.append(f"mean_turns {estimate_cell(result, 'mean_turns', 2)}; blocked_share "
                 f"{estimate_cell(result, 'blocked_share', 2, True)}; capped_share "
                 f"{estimate_cell(result, 'capped_share', 2, True)} "
                 f"({result['capped_games']:,} capped)")
    if rules.match_kind != "single":
        lines.append(f"mean_deals per match {estimate_cell(result, 'mean_deals', 2)}")
    return "\n".join(lines)


def _capped_warning(result: dict, rules: Rules) -> str | None:
    from ..sweep.summary import capped_warning

    return capped_warning([{"key": rules.key(), "label": "this run"} | result])


def stream_table(chunks, out: str) -> None:
    """Write the per-game tables of ``chunks`` (each :func:`~vandatta_sim.simulate.game_columns`'s
    columns) one after another to ``out`` (.csv: appended; .parquet: one row group each), as
    :func:`~vandatta_sim.simulate.simulate`'s table would be written, atomically
    (:func:`~vandatta_sim.atomic.write_atomically`): an interrupted write leaves nothing behind
    and no file of the user's is touched."""
    import pandas as pd
    import pyarrow as pa
    import pyarrow.parquet as pq

    frames = (pd.DataFrame(columns, copy=False) for columns in chunks)

    def write(tmp: str) -> None:
        if Path(out).suffix.lower() == ".csv":
            with open(tmp, "w", encoding="utf-8", newline="") as handle:
                for i, df in enumerate(frames):
                    df.to_csv(handle, index=False, header=i == 0)
            return
        writer = None
        try:
            for df in frames:
                table = pa.Table.from_pandas(df, preserve_index=False)
                writer = writer or pq.ParquetWriter(tmp, table.schema)
                writer.write_table(table)
        finally:
            if writer is not None:
                writer.close()

    write_atomically(out, write, "--out")


def write_table(df, out: str) -> None:
    """Write to a unique temporary name and rename, so an interrupted write leaves nothing
    behind and no other file is touched."""
    if Path(out).suffix.lower() == ".csv":
        write_atomically(out, lambda tmp: df.to_csv(tmp, index=False), "--out")
    else:
        write_atomically(out, lambda tmp: df.to_parquet(tmp, index=False), "--out")
