"""What the commands share: their options (each declared once), rules/seat builders and errors.

An option that several commands take is declared here once, as a module-level ``click.option``
object (pip-tools' ``scripts/options.py`` does the same), so that its name, type and help are
the same everywhere. Where a command needs another form of the same flag, both forms are here
under distinct names, with the reason beside them.

Every bad input becomes one ``Error:`` line and exit code 2: :func:`usage_errors` turns the
library's validation errors into click usage errors, and :class:`OneLineErrorGroup` prints a
usage error without click's usage text above it.
"""

from __future__ import annotations

import contextlib
import sys

import click

from ..rules import Rules, RulesError, resolve_rules
from ..simulate import Seats, SimulationError
from ..sweep import DEFAULT_STORE, SweepError

# --- errors --------------------------------------------------------------------------------------

LIBRARY_ERRORS = (RulesError, SimulationError, SweepError)


@contextlib.contextmanager
def usage_errors():
    """Turn the library's validation errors into click usage errors (one line, exit 2).

    A context manager (``with usage_errors():``) and, called, a decorator
    (``@usage_errors()``)."""
    try:
        yield
    except LIBRARY_ERRORS as exc:
        raise click.UsageError(str(exc)) from None


class OneLineErrorGroup(click.Group):
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


# --- the rules -----------------------------------------------------------------------------------

preset_option = click.option("--preset", default=None, metavar="NAME",
                             help="Preset to start from (see `rules list`); default standard.")
rules_file_option = click.option("--rules", "rules_file", type=click.Path(dir_okay=False),
                                 metavar="FILE",
                                 help="TOML variant file (may name a preset and override fields).")
overrides_option = click.option("--set", "overrides", multiple=True, metavar="FIELD=VALUE",
                                help="Override one rule (repeatable), e.g. --set draw_limit=1.")

# One game has one player count and one match format; a sweep varies both over a comma list,
# so it takes the list forms, under the same flags.
players_option = click.option("--players", type=click.IntRange(2, 10),
                              help="Number of players (2–10).")
match_option = click.option("--match",
                            help="Match format: single, deals:N, elimination:T, best_of:N.")


def _player_counts(ctx, param, value):
    if value is None:
        return ()
    out = []
    for part in value.split(","):
        part = part.strip()
        if not part.isdigit():
            raise click.BadParameter(f"{value!r}: allowed: player counts 2–10, e.g. 2,3,4")
        out.append(int(part))
    return tuple(out)


player_counts_option = click.option("--players", callback=_player_counts, metavar="2,3,4",
                                    help="Player counts (varied).")
match_formats_option = click.option("--match", metavar="FORMAT[,FORMAT]",
                                    help="Match format(s): single, deals:N, elimination:T, "
                                         "best_of:N.")


def rules_options(func):
    """--preset, --rules FILE, --set field=value (repeatable), --players, --match."""
    for option in (match_option, players_option, overrides_option, rules_file_option,
                   preset_option):
        func = option(func)
    return func


def build_rules(preset, rules_file, overrides, players=None, match=None) -> Rules:
    overrides = list(overrides)
    if players is not None:
        overrides.append(f"players={players}")
    if match is not None:
        overrides.append(f"match={match}")
    return resolve_rules(preset=preset, file=rules_file, overrides=overrides)


def changes_text(diff) -> str:
    """Rule changes as ``field=value, …`` (booleans as in TOML); empty when there are none."""
    return ", ".join(f"{k}={str(v).lower() if isinstance(v, bool) else v}"
                     for k, v in (diff or {}).items())


# --- the seats -----------------------------------------------------------------------------------

policy_option = click.option("--policy", "policies", multiple=True, metavar="SEAT=NAME",
                             help="Policy per seat (all=expert, 0=greedy); random by default.")
forget_option = click.option("--forget", multiple=True, metavar="SEAT=P",
                             help="Probability that a seat forgets the call (all=0.1, 2=0.5).")


def seat_options(func):
    """--policy SEAT=NAME and --forget SEAT=P, both repeatable."""
    return policy_option(forget_option(func))


def build_seats(rules: Rules, policies, forget) -> Seats:
    return Seats.build(rules.players, list(policies) or None, list(forget) or None)


# --- the run -------------------------------------------------------------------------------------

games_option = click.option("--games", type=click.IntRange(1, 10**9), default=100_000,
                            show_default=True, help="Number of games (deals or matches).")
seed_option = click.option("--seed", type=click.IntRange(0, None), default=0, show_default=True)
threads_option = click.option("--threads", type=click.IntRange(1, None),
                              help="Threads (default: all cores).")

# The sweep's run settings override those of a sweep file, so they default to None (not
# given), and the sweep library checks them, so that a bad value reads the same from the
# command line as from the file; the threads are checked against the backend that runs them.
sweep_games_option = click.option("--games", type=int, metavar="N",
                                  help="Games per configuration.")
sweep_seed_option = click.option("--seed", type=int, help="Seed of the sweep (default 0).")
sweep_threads_option = click.option("--threads", type=int,
                                    help="Engine threads per chunk (default: all cores).")

# --- the result store ----------------------------------------------------------------------------

store_option = click.option("--store", default=DEFAULT_STORE, show_default=True, metavar="DIR",
                            help="Results folder.")
json_option = click.option("--json", "as_json", is_flag=True,
                           help="Machine-readable output (JSON) on stdout.")
plot_option = click.option("--plot", metavar="FILE",
                           help="Draw the compared measures with their 95% intervals, the "
                                "baseline marked (.png or .svg).")
baseline_option = click.option(
    "--baseline", metavar="LABEL|INDEX",
    help="Compare every configuration with this one (default: the first): paired differences "
         "per game index, which need the same seed and player count. An index from 0, a "
         "label, a unique part of a label (stacking=true), or a key.")
per_seat_option = click.option(
    "--per-seat", is_flag=True,
    help="Show every seat's win rate and mean points and their paired differences.")
