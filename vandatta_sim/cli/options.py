"""What the commands share: their options (each declared once), rules/seat builders and errors.

An option that several commands take is declared here once, as a module-level ``click.option``
object (pip-tools' ``scripts/options.py`` does the same), so that its name, type and help are
the same everywhere. Where a command needs another form of the same flag, both forms are here
under distinct names, with the reason beside them.

Every bad input becomes one ``Error:`` line and exit code 2: :func:`usage_errors` turns the
library's validation errors into click usage errors, and :class:`OneLineErrorGroup` prints a
usage error without click's usage text above it.

This module imports neither the engine (numba) nor pandas: ``--version`` and ``rules list``
start in a fraction of a second because nothing here compiles or loads a data library.
"""

from __future__ import annotations

import contextlib
import sys
import tomllib

import click

from ..paths import MAX_ECHO, check_output_file, check_store_folder, shorten
from ..rules import Rules, RulesError, parse_override, resolve_rules

# --- errors --------------------------------------------------------------------------------------

#: The library's validation errors, by module and class. They are looked up only in modules
#: already imported (an error of a module that was never imported cannot have been raised), so
#: that this module need not import the engine.
LIBRARY_ERRORS = (("vandatta_sim.rules", "RulesError"),
                  ("vandatta_sim.simulate", "SimulationError"),
                  ("vandatta_sim.sweep.config", "SweepError"),
                  ("vandatta_sim.paths", "PathError"))
#: An error line is cut to this length; its words (echoed values) to MAX_ECHO characters each.
MAX_ERROR_LINE = 1000


def one_line(message: str) -> str:
    """An error message as one readable line: an echoed input can be megabytes long."""
    words = [shorten(word) if len(word) > MAX_ECHO else word for word in str(message).split()]
    text = " ".join(words)
    if len(text) > MAX_ERROR_LINE:  # keep the end: it says what is allowed
        text = f"{text[:MAX_ERROR_LINE // 2]} … {text[-MAX_ERROR_LINE // 2 + 3:]}"
    return text


def library_errors() -> tuple[type[Exception], ...]:
    """The classes of :data:`LIBRARY_ERRORS` whose modules are imported."""
    return tuple(getattr(sys.modules[module], name) for module, name in LIBRARY_ERRORS
                 if module in sys.modules)


@contextlib.contextmanager
def usage_errors():
    """Turn the library's validation errors into click usage errors (one line, exit 2).

    A context manager (``with usage_errors():``) and, called, a decorator
    (``@usage_errors()``)."""
    try:
        yield
    except ValueError as exc:
        if not isinstance(exc, library_errors()):
            raise
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
            click.echo(f"Error: {one_line(exc.format_message())}", err=True)
            sys.exit(exc.exit_code)
        except click.Abort:
            click.echo("Aborted.", err=True)
            sys.exit(130)
        except MemoryError:
            # the last resort of a run too large for this machine: one line, not a traceback
            click.echo("Error: out of memory: this machine cannot hold the run; ask for fewer "
                       "games at once", err=True)
            sys.exit(2)
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
        if not _is_ascii_number(part):
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
    """The rules of preset/file/``--set`` with the ``--players``/``--match`` shortcuts; a field
    given both by a shortcut and by ``--set`` (or twice by ``--set``) is an error, as in the
    sweep, never resolved silently."""
    overrides = list(overrides)
    given = {}
    for text in overrides:
        name, _ = parse_override(text)
        if name in given:
            raise RulesError(f"{name} is given twice (--set {given[name]} and --set {text}); "
                             "give it once")
        given[name] = text
    for name, value in (("players", players), ("match", match)):
        if value is None:
            continue
        if name in given:
            raise RulesError(f"{name} is given twice (--set {given[name]} and --{name} {value}); "
                             "give it once")
        overrides.append(f"{name}={value}")
    check_preset_once(preset, rules_file)
    rules = resolve_rules(preset=preset, file=rules_file, overrides=overrides)
    # after resolve_rules: it has checked the file (regular, small, shallow) before this reads it
    check_file_fields_once(rules_file, {name: f"--{name} {value}" for name, value in
                                        (("players", players), ("match", match))
                                        if value is not None}
                           | {name: f"--set {text}" for name, text in given.items()})
    return rules


def check_preset_once(preset, rules_file) -> None:
    """A ``--preset`` other than the one the ``--rules`` file names is an error (the file's
    would win silently)."""
    file_preset = _file_preset(rules_file) if preset is not None else None
    if file_preset is not None and file_preset != preset:
        raise RulesError(f"preset is given twice (--preset {preset} and preset = "
                         f"{file_preset!r} in {rules_file}); give it once")


def check_file_fields_once(rules_file, given: dict[str, str]) -> None:
    """A field that the ``--rules`` file sets and an option sets again (``given``: field →
    the option as typed) is an error, as a preset given twice is: one of them would win
    silently. Call it once the file has been read by
    :func:`~vandatta_sim.rules.resolve_rules` (which refuses a file that is not a small
    regular one)."""
    if rules_file is None or not given:
        return
    try:
        with open(rules_file, "rb") as f:
            fields = tomllib.load(f)
    except (OSError, tomllib.TOMLDecodeError):
        return  # reported by resolve_rules, in its own words
    for name, option in given.items():
        if name in fields:
            raise RulesError(f"{name} is given twice ({option} and {name} in {rules_file}); "
                             "give it once")


def _file_preset(rules_file) -> str | None:
    """The ``preset`` a rules file names, or None (an unreadable file is reported later, by
    :func:`~vandatta_sim.rules.resolve_rules`, in its own words)."""
    if rules_file is None:
        return None
    try:
        with open(rules_file, "rb") as f:
            preset = tomllib.load(f).get("preset")
    except (OSError, tomllib.TOMLDecodeError):
        return None
    return preset if isinstance(preset, str) else None


def warn_inert(rules: Rules, seats=None, seen: set | None = None) -> None:
    """One line on stderr per rule setting that cannot change any game of this configuration
    (:func:`vandatta_sim.rulebook.inert_settings`), each distinct line once per ``seen`` set.

    Without ``seats`` (``rules show``) nobody's forgetting is known, so only the settings that
    are inert whatever the seats do are reported."""
    from ..rulebook import inert_settings, show_value

    forgetting = True if seats is None else any(seats.forget)
    for name, reason in inert_settings(rules, forgetting=forgetting):
        value = show_value(getattr(rules, name))
        line = f"Warning: {name} = {value} changes nothing here: {reason}"
        if seen is None or line not in seen:
            click.echo(line, err=True)
        if seen is not None:
            seen.add(line)


def changes_text(diff) -> str:
    """Rule changes as ``field=value, …`` (booleans as in TOML); empty when there are none."""
    return ", ".join(f"{k}={str(v).lower() if isinstance(v, bool) else v}"
                     for k, v in (diff or {}).items())


# --- the seats -----------------------------------------------------------------------------------

policy_option = click.option("--policy", "policies", multiple=True, metavar="SEAT=NAME",
                             help="Policy per seat (all=random, 0=greedy); expert by default.")
forget_option = click.option("--forget", multiple=True, metavar="SEAT=P",
                             help="Probability that a seat forgets the call (all=0.1, 2=0.5).")


def seat_options(func):
    """--policy SEAT=NAME and --forget SEAT=P, both repeatable."""
    return policy_option(forget_option(func))


def build_seats(rules: Rules, policies, forget):
    """The :class:`~vandatta_sim.simulate.Seats` of the options (imported here: the engine
    loads only when a command plays)."""
    from ..simulate import Seats

    return Seats.build(rules.players, list(policies) or None, list(forget) or None)


# --- numbers -----------------------------------------------------------------------------------

#: Seeds fit a signed 64-bit integer, the widest integer the store's tables and JSON readers
#: in other languages keep exactly (numpy's SeedSequence itself would take any size).
MAX_SEED = 2**63 - 1
#: The kernel holds a game index as a signed 64-bit integer and adds the index within the run
#: to the first game's (first_game + g): 2^62 leaves room for any run that starts there.
MAX_GAME_INDEX = 2**62
#: The most games one simulate run plays (the limit it had before these types).
MAX_SIMULATE_GAMES = 10**9
#: A sweep configuration's games are game indices 0 … games - 1 of its seed.
MAX_SWEEP_GAMES = MAX_GAME_INDEX


def _is_ascii_number(text: str) -> bool:
    """Only ASCII digits make a number: str.isdigit() also accepts "²", int() reads "٣"."""
    return text.isascii() and text.isdigit()


class AsciiInt(click.ParamType):
    """A whole number written in ASCII digits (an optional sign, ``_`` between digits): click's
    INT takes whatever int() reads, "٣" included, and converts a million digits slowly."""

    name = "integer"
    #: More digits than any limit of this command line has.
    MAX_DIGITS = 25

    def _refuse(self, value, param, ctx):
        self.fail(f"{shorten(repr(str(value).strip()))} is not allowed; allowed: an integer "
                  "in ASCII digits", param, ctx)

    def convert(self, value, param, ctx):
        if isinstance(value, int) and not isinstance(value, bool):
            return value
        text = str(value).strip()
        digits = text.lstrip("+-").replace("_", "")
        try:
            if not _is_ascii_number(digits) or len(digits) > self.MAX_DIGITS:
                raise ValueError
            return int(text)
        except ValueError:
            self._refuse(value, param, ctx)


class CountType(AsciiInt):
    """An :class:`AsciiInt` from ``low`` to ``high``, checked by
    :func:`~vandatta_sim.simulate.check_count`; the message states the limits."""

    def __init__(self, what: str, low: int, high: int, high_text: str):
        self.what, self.low, self.high, self.high_text = what, low, high, high_text

    def _refuse(self, value, param, ctx):
        self.fail(f"{self.what} = {shorten(str(value).strip())} is not allowed; allowed: an "
                  f"integer {self.low}–{self.high_text}", param, ctx)

    def convert(self, value, param, ctx):
        from ..simulate import SimulationError, check_count  # the engine loads only to play

        number = super().convert(value, param, ctx)
        try:
            return check_count(number, self.what, self.low, self.high)
        except SimulationError:
            self._refuse(value, param, ctx)


ASCII_INT = AsciiInt()
SEED_TYPE = CountType("seed", 0, MAX_SEED, "2^63−1")

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


def check_user_file(out: str | None, suffixes: tuple[str, ...], what: str = "--out") -> None:
    """A user file to write: one Error line (exit 2) before any work for a path that cannot
    be written (see :func:`vandatta_sim.paths.check_output_file`)."""
    if out is not None:
        with usage_errors():
            check_output_file(out, what, suffixes)


def check_store_path(store, write: bool = True) -> None:
    """The --store folder: one Error line (exit 2) before any work for a path that is not a
    folder or, with ``write``, where nothing can be created."""
    with usage_errors():
        check_store_folder(store, "--store", write=write)
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
