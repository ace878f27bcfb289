"""The ``vandatta-sim`` command line: a thin layer over the Python API.

Every bad input (unknown preset, field, policy, bad value, seed or count, unreadable file) is
turned into one ``Error:`` line and exit code 2 before any work starts or anything is written.
"""

from __future__ import annotations

import functools
import sys
from pathlib import Path

import click
import numpy as np

from . import __version__
from .cli_sweep import results, sweep
from .rules import PRESET_NOTES, PRESETS, Rules, RulesError, resolve_rules
from .simulate import Seats, SimulationError, simulate, trace_game
from .stats import mean_interval, proportion


def usage_errors(func):
    """Turn the library's validation errors into click usage errors (one line, exit 2)."""

    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        try:
            return func(*args, **kwargs)
        except (RulesError, SimulationError) as exc:
            raise click.UsageError(str(exc)) from None

    return wrapper


def rules_options(func):
    """--preset, --rules FILE, --set field=value (repeatable), --players, --match."""
    func = click.option("--match", help="Match format: single, deals:N, elimination:T, best_of:N.")(func)
    func = click.option("--players", type=click.IntRange(2, 10), help="Number of players (2–10).")(func)
    func = click.option("--set", "overrides", multiple=True, metavar="FIELD=VALUE",
                        help="Override one rule (repeatable), e.g. --set draw_limit=1.")(func)
    func = click.option("--rules", "rules_file", type=click.Path(dir_okay=False),
                        help="TOML variant file (may name a preset and override fields).")(func)
    func = click.option("--preset", default=None, metavar="NAME",
                        help="Preset to start from (see `rules list`); default standard.")(func)
    return func


def seat_options(func):
    """--policy SEAT=NAME and --forget SEAT=P, both repeatable."""
    func = click.option("--forget", multiple=True, metavar="SEAT=P",
                        help="Probability that a seat forgets the call (all=0.1, 2=0.5).")(func)
    func = click.option("--policy", "policies", multiple=True, metavar="SEAT=NAME",
                        help="Policy per seat (all=expert, 0=greedy); random by default.")(func)
    return func


def build_rules(preset, rules_file, overrides, players=None, match=None) -> Rules:
    overrides = list(overrides)
    if players is not None:
        overrides.append(f"players={players}")
    if match is not None:
        overrides.append(f"match={match}")
    return resolve_rules(preset=preset, file=rules_file, overrides=overrides)


def build_seats(rules: Rules, policies, forget) -> Seats:
    return Seats.build(rules.players, list(policies) or None, list(forget) or None)


def check_output_path(out: str | None) -> None:
    if out is None:
        return
    if Path(out).suffix.lower() not in (".parquet", ".csv"):
        raise click.UsageError(f"--out {out!r}: the file name must end in .parquet or .csv")
    if not Path(out).resolve().parent.is_dir():
        raise click.UsageError(f"--out {out!r}: folder {str(Path(out).parent)!r} does not exist")


class _Group(click.Group):
    """Errors in one line: click normally prints the usage text above a usage error."""

    def main(self, args=None, prog_name=None, complete_var=None, standalone_mode=True, **extra):
        if not standalone_mode:
            return super().main(args, prog_name, complete_var, False, **extra)
        try:
            code = super().main(args, prog_name, complete_var, False, **extra)
        except click.ClickException as exc:
            if isinstance(exc, click.UsageError):
                exc.ctx = None
            exc.show()
            sys.exit(exc.exit_code)
        except click.Abort:
            click.echo("Aborted.", err=True)
            sys.exit(130)
        sys.exit(code if isinstance(code, int) else 0)


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="vandatta-sim")
def main():
    """Monte Carlo rules-variant analysis for the Swedish card game Vändåtta."""


# --- rules ---------------------------------------------------------------------------------------
@main.group("rules")
def rules_group():
    """List the presets and show fully resolved rules."""


@rules_group.command("list")
def rules_list():
    """The presets, each with its source and what it changes from standard."""
    for name, rules in PRESETS.items():
        changes = ", ".join(f"{k}={_fmt(v)}" for k, v in rules.diff(PRESETS["standard"]).items())
        click.echo(f"{name:<22} {PRESET_NOTES.get(name, '')}")
        click.echo(f"{'':<22} {changes or '(the defaults)'}  key {rules.key()}")


@rules_group.command("show")
@click.argument("name", required=False)
@rules_options
@usage_errors
def rules_show(name, preset, rules_file, overrides, players, match):
    """The fully resolved rules of preset NAME (with any --rules/--set applied), as TOML."""
    rules = build_rules(name or preset, rules_file, overrides, players, match)
    click.echo(f"# key {rules.key()}")
    click.echo(rules.to_toml().rstrip())


def _fmt(value) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


# --- simulate ------------------------------------------------------------------------------------
@main.command("simulate")
@rules_options
@seat_options
@click.option("--games", type=click.IntRange(1, 10**9), default=100_000, show_default=True,
              help="Number of games (deals or matches).")
@click.option("--seed", type=click.IntRange(0, None), default=0, show_default=True)
@click.option("--threads", type=click.IntRange(1, None), help="Threads (default: all cores).")
@click.option("--out", help="Write the per-game table (.parquet or .csv).")
@usage_errors
def simulate_cmd(preset, rules_file, overrides, players, match, policies, forget, games, seed,
                 threads, out):
    """Play GAMES games and print each seat's win rate with a 95% interval."""
    rules = build_rules(preset, rules_file, overrides, players, match)
    seats = build_seats(rules, policies, forget)
    check_output_path(out)
    df = simulate(rules, games, seed=seed, policies=seats, threads=threads)
    click.echo(summary_text(df, rules, seats, seed))
    if out:
        write_table(df, out)
        click.echo(f"wrote {len(df):,} games to {out}")


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
    """Write to a temporary name and rename, so an interrupted write leaves nothing behind."""
    path = Path(out)
    tmp = path.with_name(f".tmp-{path.name}")
    try:
        if path.suffix.lower() == ".csv":
            df.to_csv(tmp, index=False)
        else:
            df.to_parquet(tmp, index=False)
        tmp.replace(path)
    finally:
        tmp.unlink(missing_ok=True)


# --- play ----------------------------------------------------------------------------------------
@main.command("play")
@rules_options
@seat_options
@click.option("--seed", type=click.IntRange(0, None), default=0, show_default=True)
@click.option("--game", type=click.IntRange(0, None), default=0, show_default=True,
              help="Index of the game in the run with this seed.")
@click.option("--check/--no-check", default=True, show_default=True,
              help="Replay the game through the independent referee.")
@usage_errors
def play_cmd(preset, rules_file, overrides, players, match, policies, forget, seed, game, check):
    """Narrate one game move by move (the same game as in `simulate` with this seed)."""
    from .referee import RefereeError, referee
    from .trace import narrate

    rules = build_rules(preset, rules_file, overrides, players, match or "single")
    seats = build_seats(rules, policies, forget)
    trace = trace_game(rules, seed, game, policies=seats)
    click.echo(narrate(trace))
    if check:
        try:
            referee(trace, rules)
        except RefereeError as exc:  # an engine bug: say so plainly, exit non-zero
            raise click.ClickException(f"referee rejected the game: {exc}") from None
        click.echo("referee: every move legal, cards conserved, scores correct")


# --- bench ---------------------------------------------------------------------------------------
@main.command("bench")
@click.option("--quick", is_flag=True, help="Fewer games and variants (a smoke test).")
@click.option("--repeats", type=click.IntRange(1, 50), default=3, show_default=True,
              help="Timed repeats; the median is reported.")
@click.option("--sweep-overhead/--no-sweep-overhead", default=False,
              help="Also measure sweep orchestration and storage overhead.")
def bench_cmd(quick, repeats, sweep_overhead):
    """Deals per second for the presets, 2–5 players, random and expert, 1 and all threads."""
    from .bench import run_bench

    run_bench(quick=quick, repeats=repeats, sweep_overhead=sweep_overhead, echo=click.echo)


main.add_command(sweep)
main.add_command(results)

if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
