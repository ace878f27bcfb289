"""``vandatta-sim play``: narrate one game move by move and have the referee check it."""

from __future__ import annotations

import click

from ..simulate import trace_game
from .options import (build_rules, build_seats, game_index_option, rules_options, seat_options,
                      seed_option, usage_errors)


@click.command("play")
@rules_options
@seat_options
@seed_option
@game_index_option
@click.option("--check/--no-check", default=True, show_default=True,
              help="Replay the game through the independent referee.")
@usage_errors()
def play_cmd(preset, rules_file, overrides, players, match, policies, forget, seed, game, check):
    """Narrate one game move by move (the same game as in `simulate` with this seed)."""
    from ..referee import RefereeError, referee
    from ..trace import narrate

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
