"""``vandatta-sim play``: narrate one game move by move and have the referee check it, or sit
at the table yourself (``--human SEAT``) against the bots, with a coach (``--hints``)."""

from __future__ import annotations

import click

from .builders import build_rules, build_seats, warn_inert
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
def play_cmd(preset, rules_file, overrides, players, match, policies, forget, seed, game, check,
             as_json, people, hints, coach_policy, save, plain, replay):
    """Narrate one game move by move (the same game as in `simulate` with this seed), or play
    it yourself with --human SEAT (--hints for a coach, --save FILE to keep it, --replay FILE
    to narrate it again).

    A game is what --match says, by default the preset's match format (standard: an
    elimination match); --match single narrates one deal."""
    from ..referee import RefereeError, referee
    from ..trace import narrate

    if coach_policy is not None and not hints:
        raise click.UsageError("--coach goes with --hints (the coach speaks only when hints "
                               "are on)")
    if people and replay is None and not as_json:
        rules = build_rules(preset, rules_file, overrides, players, match)
        seats = build_seats(rules, policies, forget)
        from .human_play import play_at_table

        play_at_table(rules, seats, people, seed, game, hints, coach_policy, save, plain)
        return
    for given, name in ((hints, "--hints"), (save, "--save"), (plain is not None, "--plain"),
                        (people, "--human")):
        if given:
            raise click.UsageError(f"{name} goes with --human SEAT (and neither with --replay "
                                   "nor --json); without it play narrates a game")
    if replay is not None:
        from .human_play import load_saved

        refuse_game_options(click.get_current_context(), "--replay", "the game's rules, seats, "
                            "seed and game are in the file")
        saved = load_saved(replay)
        rules, trace, names = saved["rules"], saved["trace"], saved["names"]
        policies_played, seed, game = saved["policies"], saved["seed"], saved["game"]
    else:
        from ..simulate import trace_game

        rules = build_rules(preset, rules_file, overrides, players, match)
        seats = build_seats(rules, policies, forget)
        warn_inert(rules, seats)
        trace = trace_game(rules, seed, game, policies=seats)
        names, policies_played = None, list(seats.policies)
    from .human import for_terminal

    text = narrate(trace, names)
    if not as_json:
        click.echo(for_terminal(text))  # ASCII where the terminal cannot write ♠ or ö
    if check:
        try:
            referee(trace, rules)
        except RefereeError as exc:  # an engine bug: say so plainly, exit non-zero
            raise click.ClickException(f"referee rejected the game: {exc}") from None
    if as_json:
        import json

        record = {"rules": rules.canonical(), "rules_key": rules.key(), "seed": seed,
                  "game": game, "policies": policies_played,
                  "events": [list(map(int, row)) for row in trace],
                  "narration": text.splitlines(),
                  "referee": "checked" if check else "not checked"}
        out = json.dumps(record, indent=2, ensure_ascii=False)
        # JSON's own escapes where the terminal cannot write a character: the same data
        click.echo(out if out == for_terminal(out) else json.dumps(record, indent=2))
    elif check:
        click.echo("referee: every move legal, cards conserved, scores correct")


def refuse_game_options(ctx: click.Context, with_option: str, why: str) -> None:
    """A UsageError naming the first option of :data:`GAME_OPTIONS` given on the command line
    (the conflict rule: an option that would be ignored is an error, not a silent choice)."""
    from click.core import ParameterSource

    for param in ctx.command.params:
        if param.name in GAME_OPTIONS and \
                ctx.get_parameter_source(param.name) not in (ParameterSource.DEFAULT, None):
            raise click.UsageError(f"{param.opts[0]} does not go with {with_option}: {why}")
