"""``play --human``: one session at the table, from the checked options to the referee's word.

Checks every option before the game starts (bad input: one ``Error:`` line, exit 2), plays the
game with :class:`vandatta_sim.play.table.Table`, referees its trace, reviews each deal when the
coach is on and writes ``--save`` only once the game is over (atomically: a Ctrl-C leaves no
file). Ctrl-C or Ctrl-D at any point: one line, exit 130; SIGTERM: one line, exit 143, as in
every command. ``--replay`` reads a saved game as untrusted data: every field is checked, a
file that is not one is one ``Error:`` line naming the field.
"""

from __future__ import annotations

import json
import os
import signal
import sys
import tempfile

import click

from .. import __version__
from ..paths import PathError, check_output_file, read_json_file, shorten

INTERRUPTED = "game abandoned (q, Ctrl-C or Ctrl-D): nothing was saved"
SIGNALLED = "interrupted: game abandoned, nothing was saved"
SAVED_FORMAT = "vandatta-sim trace"
#: A saved game is kilobytes (the longest of 5 elimination matches at 10 seats: about 100 KB);
#: 16 MiB refuses a file that is no saved game before it fills memory.
MAX_SAVED_BYTES = 16 << 20
INT32 = (-2**31, 2**31 - 1)


def default_coach(rules) -> str:
    """The coach's search player when --coach is not given: in a match it weighs the match
    (its playouts play the rest of it), in a single deal the deal."""
    return "search" if rules.match_kind == "single" else "search:objective=match"


def header_lines(version: str, people, names: dict, rules, seed: int, examples: str) -> list[str]:
    """The lines said before the first deal, each within the table's width
    (:data:`~vandatta_sim.formatting.COLUMNS`): wrapped between words, never inside a seat's
    name (a name longer than a line is a line of its own)."""
    from ..formatting import whole, wrapped

    you = ", ".join(whole(f"seat {s}") for s in people)
    bots = ", ".join(whole(names[s]) for s in sorted(names) if s not in people)
    paragraphs = [f"vandatta-sim {version}, seed {seed}: {you} at the table with {bots}",
                  f"match {rules.match}, lappen at {rules.call_at} card(s)",
                  f"type a card ({examples}) or its number, d to draw, add l to call lappen "
                  "(" + whole("'h5 l'") + "), ? for help, q to quit"]
    return [line for text in paragraphs for line in wrapped(text)]


def check_people(people, players: int) -> tuple[int, ...]:
    seats = []
    for seat in people:
        if not 0 <= seat < players:
            raise click.BadParameter(f"seat {seat} is not at the table; allowed: 0 to "
                                     f"{players - 1}", param_hint="--human")
        if seat in seats:
            raise click.BadParameter(f"seat {seat} is given twice", param_hint="--human")
        seats.append(seat)
    return tuple(seats)


def save_trace(path, trace, rules, seats, people, seed, game) -> None:
    """The game as JSON (rules, seats, seed, the trace rows), written whole or not at all."""
    record = {"format": "vandatta-sim trace", "version": __version__,
              "rules": rules.canonical(), "policies": list(seats.policies),
              "people": list(people), "seed": seed, "game": game,
              "trace": [[int(x) for x in row] for row in trace]}
    folder = os.path.dirname(os.path.abspath(path))
    handle, temporary = tempfile.mkstemp(dir=folder, prefix=".play-", suffix=".json")
    try:
        with os.fdopen(handle, "w") as out:
            json.dump(record, out)
        os.replace(temporary, path)
    except BaseException:
        os.unlink(temporary)
        raise


def _is_int(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def load_saved(path) -> dict:
    """A game written by --save, every field checked: ``rules``, ``trace`` (an int32 array of
    rows of 4), ``names`` (the narrator's seat names), ``policies``, ``seed`` and ``game``.
    A file that is not one (damaged, wrong-typed, nested too deep, too large): UsageError,
    one line naming the field."""
    from ..rules import Rules, RulesError
    from ..play.person import printable

    def refuse(why: str):
        raise click.UsageError(f"--replay {shorten(os.fspath(path))}: {shorten(why, 200)}; "
                               "allowed: a game written by play --human --save")

    try:
        record = read_json_file(path, "--replay", MAX_SAVED_BYTES)
    except PathError as exc:
        raise click.UsageError(str(exc)) from None
    if not isinstance(record, dict):
        refuse(f"a JSON {type(record).__name__}, not an object")
    if record.get("format") != SAVED_FORMAT:
        refuse(f"format is not {SAVED_FORMAT!r}")
    for name in ("rules", "policies", "people", "seed", "game", "trace"):
        if name not in record:
            refuse(f"no {name} field")
    if not isinstance(record["rules"], dict):
        refuse("rules is not an object of rule fields")
    try:
        rules = Rules(**record["rules"])
    except (RulesError, TypeError) as exc:  # a bad value, or a field no rule has
        refuse(f"rules: {exc}")
    policies, people = record["policies"], record["people"]
    if not (isinstance(policies, list) and len(policies) == rules.players
            and all(isinstance(p, str) for p in policies)):
        refuse(f"policies is not a list of {rules.players} policy names (one a seat)")
    if not (isinstance(people, list) and all(_is_int(s) and 0 <= s < rules.players
                                             for s in people)
            and len(set(people)) == len(people)):
        refuse(f"people is not a list of distinct seats from 0 to {rules.players - 1}")
    for name in ("seed", "game"):
        if not _is_int(record[name]) or record[name] < 0:
            refuse(f"{name} is not a whole number ≥ 0")
    rows = record["trace"]
    if not isinstance(rows, list) or not rows:
        refuse("trace is not a list of event rows")
    for k, row in enumerate(rows):
        if not (isinstance(row, list) and len(row) == 4
                and all(_is_int(x) and INT32[0] <= x <= INT32[1] for x in row)):
            refuse(f"trace row {k} is not 4 whole numbers of 32 bits: {row!r}")
    import numpy as np

    trace = np.array(rows, np.int32).reshape(-1, 4)
    # the names are the file's: escaped, so that a name cannot act on the terminal
    names = {s: f"seat {s} (person)" if s in people else f"seat {s} ({printable(policies[s])})"
             for s in range(rules.players)}
    return {"rules": rules, "trace": trace, "names": names, "policies": list(policies),
            "seed": record["seed"], "game": record["game"]}


def play_at_table(rules, seats, people, seed, game, hints, coach_policy, save, plain):
    people = check_people(people, rules.players)
    if save is not None:
        check_output_file(save, "--save", (".json",))
    coach = None
    if hints:
        from ..play.coach import Coach

        try:
            coach = Coach(coach_policy or default_coach(rules), seed)
        except ValueError as exc:
            raise click.BadParameter(str(exc), param_hint="--coach") from None
    from ..play.person import Person, Quit, Screen, line_reader, plain_wanted
    from .interrupts import received_signal, signals_stop

    try:
        screen = Screen(plain_wanted(plain))
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="--fancy") from None
    interactive = (sys.stdin.isatty() and sys.stdout.isatty()
                   and os.environ.get("TERM", "") not in ("", "dumb"))
    names = {s: f"seat {s}" if s in people else f"seat {s} ({seats.policies[s]})"
             for s in range(rules.players)}
    person = Person(screen, line_reader(interactive, signals_stop), names, coach)
    for line in header_lines(__version__, people, names, rules, seed, screen.examples()):
        screen.say(line)
    try:
        trace = _play(rules, seats, people, seed, game, person, coach, screen)
    except (Quit, KeyboardInterrupt):
        # a signal (SIGTERM, or SIGINT where the terminal's Ctrl-C is one) is said as in every
        # command, exit 128 + signal; Ctrl-D and prompt_toolkit's Ctrl-C key are Quit
        signum = received_signal()
        sys.stdout.flush()
        sys.stderr.write(f"\n{INTERRUPTED if signum is None else SIGNALLED}\n")
        sys.stderr.flush()
        os._exit(128 + (signum or signal.SIGINT))
    from ..referee import RefereeError, referee

    try:
        summary = referee(trace, rules)
    except RefereeError as exc:  # a bug in the table: say so plainly, exit non-zero
        raise click.ClickException(f"referee rejected the game: {exc}") from None
    screen.say(f"referee: every move legal, cards conserved, scores correct "
               f"({summary['deals']} deal(s), {summary['forgotten_calls']} forgotten call(s))")
    if save is not None:
        save_trace(save, trace, rules, seats, people, seed, game)
        screen.say(f"saved the game to {save}")


def _play(rules, seats, people, seed, game, person, coach, screen):
    from ..play.table import Table

    def deal_over(table):
        for line in person.news(table, people[0]):
            screen.say(line)
        if coach is not None:
            for line in review_lines(coach, person, table.deal_no, screen):
                screen.say(line)

    table = Table(rules, seats, people, seed, game)
    trace = table.play(person, on_deal_end=deal_over)
    for line in person.news(table, people[0]):
        screen.say(line)
    return trace


def review_lines(coach, person, deal: int, screen) -> list[str]:
    """The coach's review of one deal: the moves worse than the best option by more than the
    uncertainty of the difference."""
    from ..play.coach import review

    decisions = person.decisions_of(deal)
    if not decisions:
        return []
    flagged = review(coach, decisions)
    def show(h):
        return h.option.describe(lambda c: screen.card(c), screen.suit)

    unit = "points" if coach.points else "win chance"
    lines = [f"coach's review of deal {deal + 1}: {len(decisions)} move(s) with a choice, "
             f"{len(flagged)} clearly worse than the best"]
    for d, best, chosen, gap in flagged:
        amount = (f"{gap.value:.1f} points [{gap.low:.1f}, {gap.high:.1f}]" if coach.points else
                  f"{100 * gap.value:.0f} points of win chance [{100 * gap.low:.0f}, "
                  f"{100 * gap.high:.0f}]")
        lines.append(f"  you played {show(chosen)}; {show(best)} was better by {amount}")
    if not flagged:
        lines.append(f"  no move was worse than the best by more than its uncertainty ({unit})")
    return lines
