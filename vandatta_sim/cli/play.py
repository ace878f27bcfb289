"""``vandatta-sim play``: narrate one game move by move and have the referee check it, or sit
at the table yourself (``--human SEAT``) against the bots, with a coach (``--hints``)."""

from __future__ import annotations

from dataclasses import dataclass

import click

from .builders import TableOptions, build_rules, build_seats, warn_inert
from .errors import usage_errors
from .options import game_index_option, json_option, rules_options, seat_options, seed_option
from .paramtypes import ASCII_INT

#: The options that make a game; a replayed game's are in its file.
GAME_OPTIONS = ("preset", "rules_file", "overrides", "players", "match", "policies", "forget",
                "seed", "game")


@click.command("play")
@rules_options
@seat_options
@seed_option
@game_index_option
@click.option("--check/--no-check", default=True, show_default=True,
              help="Replay the game through the independent referee.")
@json_option
@click.option("--human", "people", multiple=True, type=ASCII_INT, metavar="SEAT",
              help="Play this seat yourself at the terminal (repeat for hot-seat play); "
                   "the other seats play their --policy.")
@click.option("--hints", is_flag=True,
              help="With --human: before each move, the coach's estimate for every legal "
                   "option with its 95% interval, and a review after each deal.")
@click.option("--coach", "coach_policy", default=None, metavar="POLICY",
              help="With --hints: the search player that estimates, e.g. "
                   "search:objective=points, search:budget=128 or ismcts (the tree search: "
                   "its best move is the one it played most) [default: search, which "
                   "weighs the deal; in a match search:objective=match, which weighs the "
                   "match].")
@click.option("--save", "save", default=None, metavar="FILE",
              help="With --human: write the game's trace (JSON) here when it ends.")
@click.option("--plain/--fancy", "plain", default=None,
              help="With --human: plain ASCII text (no colours, letter suits such as h8) or "
                   "colours and ♥; by default plain on a dumb terminal, a pipe or a terminal "
                   "whose encoding cannot write ♥ (where --fancy is refused).")
@click.option("--replay", "replay", default=None, metavar="FILE",
              help="Narrate and referee a game written by --save (its rules are in the file).")
@usage_errors()
def play_cmd(**options):
    """Narrate one game move by move (the same game as in `simulate` with this seed), or play
    it yourself with --human SEAT (--hints for a coach, --save FILE to keep it, --replay FILE
    to narrate it again).

    A game is what --match says, by default the preset's match format (standard: an
    elimination match); --match single narrates one deal."""
    o = PlayOptions(**options)
    if o.coach_policy is not None and not o.hints:
        raise click.UsageError("--coach goes with --hints (the coach speaks only when hints "
                               "are on)")
    if o.people and o.replay is None and not o.as_json:
        rules = build_rules(o.preset, o.rules_file, o.overrides, o.players, o.match)
        seats = build_seats(rules, o.policies, o.forget)
        from .human_play import play_at_table

        play_at_table(rules, seats, o.people, o.seed, o.game, o.hints, o.coach_policy, o.save,
                      o.plain)
        return
    for given, name in ((o.hints, "--hints"), (o.save, "--save"), (o.plain is not None, "--plain"),
                        (o.people, "--human")):
        if given:
            raise click.UsageError(f"{name} goes with --human SEAT (and neither with --replay "
                                   "nor --json); without it play narrates a game")
    _narrate(o, _replayed(o) if o.replay is not None else _played(o))


@dataclass(frozen=True)
class PlayOptions(TableOptions):
    """The options of ``play`` as click parses them (the table's, then its own)."""

    seed: int
    game: int
    check: bool
    as_json: bool
    people: tuple
    hints: bool
    coach_policy: str | None
    save: str | None
    plain: bool | None
    replay: str | None


@dataclass(frozen=True)
class _Game:
    """A game to narrate: its rules, its trace, the seats' names and policies, seed and index."""

    rules: object
    trace: object
    names: list | None
    policies: list
    seed: int
    game: int


def _replayed(o: PlayOptions) -> _Game:
    """The game of a file ``play --human --save`` wrote."""
    from .human_play import load_saved

    refuse_game_options(click.get_current_context(), "--replay", "the game's rules, seats, "
                        "seed and game are in the file")
    saved = load_saved(o.replay)
    return _Game(saved["rules"], saved["trace"], saved["names"], saved["policies"],
                 saved["seed"], saved["game"])


def _played(o: PlayOptions) -> _Game:
    """The game of ``simulate`` with these rules, seats, seed and index, traced."""
    from ..simulate import trace_game

    rules = build_rules(o.preset, o.rules_file, o.overrides, o.players, o.match)
    seats = build_seats(rules, o.policies, o.forget)
    warn_inert(rules, seats)
    trace = trace_game(rules, o.seed, o.game, policies=seats)
    return _Game(rules, trace, None, list(seats.policies), o.seed, o.game)


def _narrate(o: PlayOptions, g: _Game) -> None:
    """The game move by move (or as JSON), refereed unless --no-check."""
    from ..referee import RefereeError, referee
    from ..trace import narrate
    from ..play.person import for_terminal

    text = narrate(g.trace, g.names)
    if not o.as_json:
        click.echo(for_terminal(text))  # ASCII where the terminal cannot write ♠ or ö
    if o.check:
        try:
            referee(g.trace, g.rules)
        except RefereeError as exc:  # an engine bug: say so plainly, exit non-zero
            raise click.ClickException(f"referee rejected the game: {exc}") from None
    if o.as_json:
        import json

        record = {"rules": g.rules.canonical(), "rules_key": g.rules.key(), "seed": g.seed,
                  "game": g.game, "policies": g.policies,
                  "events": [list(map(int, row)) for row in g.trace],
                  "narration": text.splitlines(),
                  "referee": "checked" if o.check else "not checked"}
        out = json.dumps(record, indent=2, ensure_ascii=False)
        # JSON's own escapes where the terminal cannot write a character: the same data
        click.echo(out if out == for_terminal(out) else json.dumps(record, indent=2))
    elif o.check:
        click.echo("referee: every move legal, cards conserved, scores correct")


def refuse_game_options(ctx: click.Context, with_option: str, why: str) -> None:
    """A UsageError naming the first option of :data:`GAME_OPTIONS` given on the command line
    (the conflict rule: an option that would be ignored is an error, not a silent choice)."""
    from click.core import ParameterSource

    for param in ctx.command.params:
        if param.name in GAME_OPTIONS and \
                ctx.get_parameter_source(param.name) not in (ParameterSource.DEFAULT, None):
            raise click.UsageError(f"{param.opts[0]} does not go with {with_option}: {why}")
