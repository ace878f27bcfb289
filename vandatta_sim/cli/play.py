"""``vandatta-sim play``: narrate one game move by move and have the referee check it."""

from __future__ import annotations

import click

from .options import (build_rules, build_seats, game_index_option, json_option, rules_options,
                      seat_options, seed_option, usage_errors, warn_inert)


@click.command("play")
@rules_options
@seat_options
@seed_option
@game_index_option
@click.option("--check/--no-check", default=True, show_default=True,
              help="Replay the game through the independent referee.")
@json_option
@usage_errors()
def play_cmd(preset, rules_file, overrides, players, match, policies, forget, seed, game, check,
             as_json):
    """Narrate one game move by move (the same game as in `simulate` with this seed).

    A game is what --match says, by default the preset's match format (standard: an
    elimination match); --match single narrates one deal."""
    from ..referee import RefereeError, referee
    from ..simulate import trace_game
    from ..trace import narrate

    rules = build_rules(preset, rules_file, overrides, players, match)
    seats = build_seats(rules, policies, forget)
    warn_inert(rules, seats)
    trace = trace_game(rules, seed, game, policies=seats)
    text = narrate(trace)
    if not as_json:
        click.echo(text)
    if check:
        try:
            referee(trace, rules)
        except RefereeError as exc:  # an engine bug: say so plainly, exit non-zero
            raise click.ClickException(f"referee rejected the game: {exc}") from None
    if as_json:
        import json

        click.echo(json.dumps({"rules": rules.canonical(), "rules_key": rules.key(),
                               "seed": seed, "game": game, "policies": list(seats.policies),
                               "events": [list(map(int, row)) for row in trace],
                               "narration": text.splitlines(),
                               "referee": "checked" if check else "not checked"},
                              indent=2, ensure_ascii=False))
    elif check:
        click.echo("referee: every move legal, cards conserved, scores correct")
