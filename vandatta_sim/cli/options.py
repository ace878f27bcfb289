"""The command line's options, each declared once, as module-level ``click.option`` objects.

An option that several commands take is declared here once (pip-tools' ``scripts/options.py``
does the same), so that its name, type and help are the same everywhere. Where a command needs
another form of the same flag, both forms are here under distinct names, with the reason beside
them. The errors live in :mod:`.errors`, the parameter types in :mod:`.paramtypes`, and the
builders of rules and seats from these options in :mod:`.builders`.

This module imports neither the engine (numba) nor pandas: ``--version`` and ``rules list``
start in a fraction of a second because nothing here compiles or loads a data library.
"""

from __future__ import annotations

import click

from .paramtypes import (ASCII_INT, MAX_GAME_INDEX, MAX_SIMULATE_GAMES, MAX_SWEEP_GAMES, SEED_TYPE,
                         CountType, player_counts)

# --- the rules -----------------------------------------------------------------------------------

preset_option = click.option("--preset", default=None, metavar="NAME",
                             help="Preset to start from, by its name or family name (see "
                                  "`rules list`); default standard.")
rules_file_option = click.option("--rules", "rules_file", type=click.Path(dir_okay=False),
                                 metavar="FILE",
                                 help="TOML variant file (may name a preset and override fields).")
overrides_option = click.option("--set", "overrides", multiple=True, metavar="FIELD=VALUE",
                                help="Override one rule (repeatable), e.g. --set draw_limit=1.")

# One game has one player count and one match format; a sweep varies both over a comma list,
# so it takes the list forms, under the same flags.
players_option = click.option("--players", type=CountType("players", 2, 10, "10"),
                              help="Number of players (2–10).")
match_option = click.option("--match",
                            help="Match format: single, deals:N, elimination:T, best_of:N.")


player_counts_option = click.option("--players", callback=player_counts, metavar="2,3,4",
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


# --- the seats -----------------------------------------------------------------------------------

policy_option = click.option("--policy", "policies", multiple=True, metavar="SEAT=NAME",
                             help="Policy per seat (all=random, 0=greedy; a named seat wins "
                                  "over all=); expert by default.")
forget_option = click.option("--forget", multiple=True, metavar="SEAT=P",
                             help="Probability that a seat forgets the call (all=0.1, 2=0.5).")


def seat_options(func):
    """--policy SEAT=NAME and --forget SEAT=P, both repeatable."""
    return policy_option(forget_option(func))


# --- the run -------------------------------------------------------------------------------------

# --games has no default in any command (simulate, sweep, value): a run's size is the user's
# choice, never a silent 100,000 or 20,000
games_option = click.option("--games", type=CountType("games", 1, MAX_SIMULATE_GAMES, "10^9"),
                            metavar="N",
                            help="Number of games, 1–10^9: deals with --match single, else "
                                 "matches (required).")
seed_option = click.option("--seed", type=SEED_TYPE, default=0, show_default=True,
                           help="Seed of the run, 0–2^63−1.")
# threads are checked against the machine's cores by the library (check_threads)
threads_option = click.option("--threads", type=ASCII_INT,
                              help="Threads (default: all cores).")
game_index_option = click.option("--game", type=CountType("game", 0, MAX_GAME_INDEX, "2^62"),
                                 default=0, show_default=True,
                                 help="Index of the game in the run with this seed, 0–2^62.")

# The sweep's run settings override those of a sweep file, so they default to None (not
# given), and the sweep library checks them, so that a bad value reads the same from the
# command line as from the file; the threads are checked against the backend that runs them.
# --games and --seed are also CountTypes: ASCII digits within the limits, before int() or the
# dry run's arithmetic sees them.
sweep_games_option = click.option("--games", metavar="N",
                                  type=CountType("games", 1, MAX_SWEEP_GAMES, "2^62"),
                                  help="Games per configuration, 1–2^62: deals with "
                                       "--match single, else matches.")
# A run that plays until an interval is narrow enough (sweep, value); each command's help says
# which interval.
precision_option = click.option("--precision", type=float, metavar="H",
                                help="Instead of --games: play until the 95% half-width of "
                                     "the command's measure ≤ H (a share: 0.005 = 0.5 pp).")
sweep_seed_option = click.option("--seed", type=SEED_TYPE,
                                 help="Seed of the sweep, 0–2^63−1 (default 0).")
sweep_threads_option = click.option("--threads", type=ASCII_INT,
                                    help="Engine threads per chunk (default: all cores).")

# --- the result store ----------------------------------------------------------------------------


def store_option(func):
    """--store DIR (the sweep's default folder; the sweep package loads where a command that
    stores is declared, not when the command line starts)."""
    from ..sweep import DEFAULT_STORE

    return click.option("--store", default=DEFAULT_STORE, show_default=True, metavar="DIR",
                        help="Results folder.")(func)


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

# --- what a run is called and the notes it writes --------------------------------------------------

label_option = click.option("--label", metavar="TEXT",
                            help="Your label for the stored runs (shown by `results list`; "
                                 "`results label KEY TEXT` changes it later).")
summary_option = click.option("--summary", "summary_file", metavar="FILE.md",
                              help="Write a Markdown note to paste: the rules in words, the "
                                   "table, the verdict and the command that reproduces it.")
dry_run_option = click.option("--dry-run", is_flag=True,
                              help="Say what would be played (and what is stored); play nothing.")
quiet_option = click.option("--quiet", is_flag=True,
                            help="Leave out the plain verdict at the end.")
