"""``play --human``: one session at the table, from the checked options to the referee's word.

Checks every option before the game starts (bad input: one ``Error:`` line, exit 2), plays the
game with :class:`vandatta_sim.table.Table`, referees its trace, reviews each deal when the
coach is on and writes ``--save`` only once the game is over (atomically: a Ctrl-C leaves no
file). Ctrl-C or Ctrl-D at any point: one line, exit 130.
"""

from __future__ import annotations

import json
import os
import sys
import tempfile

import click

from .. import __version__
from ..paths import check_output_file

INTERRUPTED = "game abandoned (Ctrl-C / Ctrl-D): nothing was saved"


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


def load_saved(path):
    """A game written by --save: its rules and trace (click errors for a file that is not one)."""
    from ..rules import Rules

    try:
        with open(path) as handle:
            record = json.load(handle)
        if record.get("format") != "vandatta-sim trace":
            raise ValueError("not a trace written by play --save")
        rules = Rules(**record["rules"])
        import numpy as np

        trace = np.array(record["trace"], np.int32).reshape(-1, 4)
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise click.BadParameter(f"{path}: {exc}", param_hint="--replay") from None
    names = {s: f"seat {s}" + (" (person)" if s in record.get("people", []) else
                               f" ({record['policies'][s]})") for s in range(rules.players)}
    return rules, trace, names, list(record["policies"])


def play_at_table(rules, seats, people, seed, game, hints, coach_policy, save, plain):
    people = check_people(people, rules.players)
    if save is not None:
        check_output_file(save, "--save", (".json",))
    coach = None
    if hints:
        from ..coach import Coach

        try:
            coach = Coach(coach_policy, seed)
        except ValueError as exc:
            raise click.BadParameter(str(exc), param_hint="--coach") from None
    from .human import Person, Quit, Screen, line_reader, plain_wanted

    screen = Screen(plain_wanted(plain))
    interactive = (sys.stdin.isatty() and sys.stdout.isatty()
                   and os.environ.get("TERM", "") not in ("", "dumb"))
    names = {s: f"seat {s}" if s in people else f"seat {s} ({seats.policies[s]})"
             for s in range(rules.players)}
    person = Person(screen, line_reader(interactive), names, coach)
    you = ", ".join(f"seat {s}" for s in people)
    bots = ", ".join(names[s] for s in range(rules.players) if s not in people)
    screen.say(f"vandatta-sim {__version__}: {you} at the table with {bots}; "
               f"match {rules.match}, call at {rules.call_at} card(s), seed {seed}")
    screen.say("type a card (h8, 8h or ♥8) or its number, d to draw, "
               "add l to call lappen ('h5 l'), ? for help")
    try:
        trace = _play(rules, seats, people, seed, game, person, coach, screen)
    except (Quit, KeyboardInterrupt):
        sys.stdout.flush()
        sys.stderr.write(f"\n{INTERRUPTED}\n")
        sys.stderr.flush()
        os._exit(130)
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
    from ..table import Table

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
    from ..coach import review

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
