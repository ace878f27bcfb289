"""``vandatta-sim value``: what one more card of a rank is worth at a table, on one screen.

The card-value experiment of :mod:`vandatta_sim.experiments.card_value` for any rules: per
scale and player count, one more card of the rank's paired effect on the deal win, the penalty
points and the match win (where a match is set), and its break-even face value, each with a
95% interval.
Every game goes through the result store (``--store``): an interrupted run resumes, a repeated
one reads what is stored, and the output is the same for any thread count.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass

import click

from . import command_line
from .interrupts import interrupts_end_the_run
from .builders import (build_rules, check_file_fields_once, check_store_path, check_user_file,
                       warn_inert)
from .errors import usage_errors
from .options import (dry_run_option, json_option, label_option, match_option, overrides_option,
                      player_counts_option, plot_option, policy_option, precision_option,
                      preset_option, quiet_option, rules_file_option, store_option,
                      summary_option, sweep_games_option, sweep_seed_option, sweep_threads_option)
from .paramtypes import MAX_SWEEP_GAMES, CountType


@click.command("value")
@preset_option
@rules_file_option
@overrides_option
@player_counts_option
@click.option("--scale", "scales", metavar="NAME[,NAME]",
              help="Scales to compare: base, hundred, crazy_eights (default: the rules' own).")
@click.option("--rank", "ranks", default="8", show_default=True, metavar="RANK[,RANK]|all",
              help="Rank(s) whose value to measure: A, 2–10, J, Q, K, or all.")
@match_option
@policy_option
@sweep_games_option
@click.option("--match-games", type=CountType("match-games", 1, MAX_SWEEP_GAMES, "2^62"),
              metavar="N", help="Matches per table where the rules set a match (default: "
                                "as --games).")
@precision_option
@click.option("--fair", is_flag=True,
              help="Also the fair score: the rank's score at which players told it are "
                   "indifferent to one more card (own points and standing), from 2 more runs "
                   "of --games deals at each of 10 scores per table (needs --games).")
@sweep_seed_option
@sweep_threads_option
@store_option
@dry_run_option
@label_option
@plot_option
@summary_option
@quiet_option
@json_option
def value_cmd(**options):
    """What one more card of RANK (default an eight) is worth, per scale and player count.

    Each deal is played as dealt and with one ordinary card of the focal seat (every seat in
    turn) exchanged for a card of the rank (same seed and game): the paired differences in
    deal win, penalty points and match win, and the break-even face value (the rank's score
    at which one more card leaves the expected penalty points unchanged, play held fixed).
    --policy sets the seats as in simulate (all=NAME). With --precision the measure is the
    deal-win effect; give --games N or --precision H. The output ends with a plain verdict
    (--quiet leaves it out; --json has it as "verdict"); --summary FILE.md writes a note to
    paste. Example: --preset standard --players 4 --games 20000 --seed 1.
    """
    o = ValueOptions(**options)
    message = (f"interrupted: every chunk finished before the interrupt is stored in {o.store} "
               "(none if it came before the first); run the same command again to resume")
    with interrupts_end_the_run(message):
        _value(o)


@dataclass(frozen=True)
class ValueOptions:
    """The options of ``value`` as click parses them (one field per option)."""

    preset: str | None
    rules_file: str | None
    overrides: tuple
    players: tuple | None
    scales: str | None
    ranks: str
    match: str | None
    policies: tuple
    games: int | None
    match_games: int | None
    precision: float | None
    fair: bool
    seed: int | None
    threads: int | None
    store: str
    dry_run: bool
    label: str | None
    plot: str | None
    summary_file: str | None
    quiet: bool
    as_json: bool


@dataclass(frozen=True)
class _Tables:
    """The checked question: the rules, the tables' sizes and scales, the ranks, the seats."""

    rules: object
    players: list
    scales: list
    ranks: list
    policies: list
    policy: str  # the seats in words
    label: str | None


def _checked(o: ValueOptions) -> _Tables:
    """Every input checked before any game is played (:class:`SweepError` and the rules')."""
    from ..experiments.card_value import check_ranks, check_scales
    from ..rules import settings
    from ..simulate import Seats
    from ..store import Store
    from ..sweep import SweepError, check_run_settings
    from ..sweep.catalogue import check_user_label

    players = o.players
    # the one "given twice" rule: --players and --scale are shortcuts of --set fields
    settings(o.overrides, [("players", ",".join(map(str, players)) if players else None,
                            f"--players {','.join(map(str, players))}"),
                           ("scale", o.scales, f"--scale {o.scales}")])
    # the rules checked at the first table's size (then every other's below), not at
    # the preset's: hand_size = 13 is a 2-player rule
    rules = build_rules(o.preset, o.rules_file, o.overrides, match=o.match,
                        players=players[0] if players else None)
    if players:  # the tables' player counts replace the rules': not also the file's
        check_file_fields_once(o.rules_file,
                               {"players": f"--players {','.join(map(str, players))}"})
    if o.match_games is not None and rules.match == "single":
        raise SweepError(f"--match-games {o.match_games} changes nothing here: the rules play "
                         "single deals (match = single); give a match (--match …) or "
                         "leave --match-games out")
    ranks = check_ranks(o.ranks)
    scales = check_scales(o.scales) if o.scales is not None else [rules.scale]
    policies = list(o.policies) or ["expert"]
    players = list(players) or [rules.players]
    for n in players:
        # every table's rules and seats are checked before any game is played
        policy = Seats.build(n, policies).describe()
        for scale in scales:
            warn_inert(rules.replace(players=n, scale=scale, match="single"))
    games, precision = o.games, o.precision
    if games is not None and precision is not None:
        raise SweepError("give --games or --precision, not both")
    if precision is not None and not 0 < precision <= 0.5:
        raise SweepError(f"precision = {precision!r} is not allowed; allowed: a "
                         "half-width 0 < H ≤ 0.5")
    if o.fair and games is None:
        raise SweepError("--fair needs --games N (deals per score of its grid), not "
                         "--precision")
    if games is None and precision is None:
        raise SweepError("give --games N (deals per table) or --precision H (a deal-win "
                         "half-width), e.g. --games 20000")
    check_run_settings(games=games or 1, seed=o.seed or 0, threads=o.threads)
    check_store_path(o.store, write=not o.dry_run)
    label = check_user_label(o.label, Store(o.store).keys())
    check_user_file(o.plot, (".png", ".svg"), "--plot")
    check_user_file(o.summary_file, (".md",), "--summary")
    return _Tables(rules, players, scales, ranks, policies, policy, label)


def _value(o: ValueOptions) -> None:
    from .. import tuned
    from ..experiments.card_value import card_value
    from ..experiments.plain import card_value_verdict
    from ..experiments.runner import Runner

    tuned.use_store(o.store)  # tuned:NAME is looked up in this store too
    with usage_errors():
        t = _checked(o)
    seed = o.seed or 0
    command = command_line()
    if o.dry_run:
        click.echo(dry_run_text(t.rules, t.players, t.scales, t.ranks, o.games, o.match_games,
                                o.precision, seed, o.store))
        if o.fair:
            click.echo(fair_cost_text(t.players, t.scales, t.ranks, o.games))
        click.echo(dry_run_estimate(t.rules, t.players, t.scales, t.ranks, t.policies, o.games,
                                    o.match_games, o.threads))
        return
    runner = Runner(store=o.store, threads=o.threads, command=command,
                    record={"kind": "value", "rules_file": o.rules_file, "user_label": t.label})
    table = card_value(t.rules, runner, ranks=t.ranks, players=t.players, scales=t.scales,
                       policies=t.policies, games=o.games, match_games=o.match_games,
                       precision=o.precision, seed=seed)
    verdict = card_value_verdict(table, t.policy)
    fairs = (fair_table(t.rules, runner, t.players, t.scales, t.ranks, t.policies, o.games, seed)
             if o.fair else None)
    if o.as_json:
        click.echo(json.dumps(_json_out(t, o, seed, table, fairs, verdict), indent=2,
                              ensure_ascii=False))
    else:
        click.echo(value_text(table, t.rules, t.policy, seed))
        if fairs is not None:
            click.echo("\n" + fair_text(fairs, o.games))
        if not o.quiet:
            click.echo("\n" + verdict)
    if o.summary_file is not None:
        from ..experiments.summary_note import note_text, rules_changes, write_note

        write_note(o.summary_file, note_text(
            f"What one more card is worth (rules key {t.rules.key()}, seed {seed})",
            rules_changes(t.rules), value_text(table, t.rules, t.policy, seed), verdict, command,
            o.rules_file))
        click.echo(f"wrote the note to {o.summary_file}", err=o.as_json)
    if o.plot is not None:
        from ..plots import plot_card_value

        plot_card_value(table, o.plot)
        click.echo(f"wrote the chart to {o.plot}", err=o.as_json)


def _json_out(t: _Tables, o: ValueOptions, seed: int, table, fairs, verdict) -> dict:
    """The ``--json`` document (docs/columns.md)."""
    out = {"rules": t.rules.canonical(), "policy": t.policy, "seed": seed, "store": o.store,
           "games": o.games, "precision": o.precision,
           "rows": [{k: _json_value(v) for k, v in row.items()}
                    for row in table.to_dict("records")], "verdict": verdict}
    if fairs is not None:
        out["fair"] = [{"scale": sc, "players": n, "rank": r, "grid": list(f["points"].grid),
                        "games": f["points"].n,
                        **{k: {"text": f[k].text(), "value": _json_value(f[k].value),
                               "low": _json_value(f[k].low),
                               "high": _json_value(f[k].high),
                               "open_above": f[k].open_above}
                           for k in ("points", "standing")}}
                       for (sc, n, r), f in fairs.items()]
    return out


def dry_run_text(rules, players, scales, ranks, games, match_games, precision, seed,
                 store) -> str:
    """What ``value`` would play: tables, configurations and games (nothing is run). Per
    table: the deals as dealt, one swap run per rank and two more per rank for the
    break-even; where a match is set, the matches as dealt and one swap run per rank."""
    tables = len(players) * len(scales)
    deal_configs = 1 + 3 * len(ranks)
    match_configs = 0 if rules.match_kind == "single" or match_games == 0 else 1 + len(ranks)
    lines = [f"value, dry run (nothing is played): {tables} table(s) ({len(scales)} scale(s) × "
             f"{len(players)} player count(s)), rank(s) {', '.join(ranks)}, seed {seed}, "
             f"store {store}"]
    if precision is not None:
        lines.append(f"each table plays {deal_configs} runs of deals, from a pilot of 10,000 "
                     f"deals until the deal-win half-width is ≤ {precision}"
                     + (f", and {match_configs} runs of matches ({rules.match})"
                        if match_configs else ""))
        return "\n".join(lines)
    matches = games if match_games is None else match_games
    total = tables * (deal_configs * games + match_configs * matches)
    lines.append(f"each table: {deal_configs} runs of {games:,} deals"
                 + (f" and {match_configs} runs of {matches:,} matches ({rules.match})"
                    if match_configs else "")
                 + f": {total:,} games in all (stored ones are read back, not played again)")
    return "\n".join(lines)


def fair_table(rules, runner, players, scales, ranks, policies, games, seed) -> dict:
    """The fair score of each (scale, players, rank): report.fair_score on single deals."""
    from ..experiments.fair_score import fair_scores

    return {(scale, n, rank): fair_scores(rules.replace(players=n, scale=scale), runner,
                                          policies, rank, games, seed)
            for scale in scales for n in players for rank in ranks}


def fair_cost_text(players, scales, ranks, games) -> str:
    """What --fair adds: 2 runs of ``games`` deals at each score of the grid, per table."""
    from ..experiments.fair_score import GRID_CARDS

    runs = 2 * len(GRID_CARDS)
    total = runs * games * len(players) * len(scales) * len(ranks)
    return (f"--fair: {runs} more runs of {games:,} deals per (table, rank) (2 at each of "
            f"{len(GRID_CARDS)} scores): {total:,} more deals in all")


def fair_text(fairs: dict, games: int) -> str:
    """The fair scores, one line per (scale, players, rank), with what they cost."""
    from ..experiments.fair_score import GRID_CARDS

    lines = ["Fair score: the rank's score s* at which players told it scores s* are "
             "indifferent to one more card",
             "(Δ own points = 0; on standing: own points minus the mean opponent's). Each "
             "score of a grid from 0 to",
             "100 ordinary cards is played with every seat told it, on the same deals; the "
             "interval inverts the paired",
             "z-test (95 %) over the scores, Δ interpolated per deal between them; 'none' "
             "means no score of the grid is",
             f"accepted. Cost: 2 runs of {games:,} deals at each of {len(GRID_CARDS)} scores "
             f"per line ({2 * len(GRID_CARDS) * games:,} deals)."]
    for (scale, n, rank), f in fairs.items():
        lines.append(f"  {scale}, {n} players, rank {rank}: own points {f['points'].text()}; "
                     f"standing {f['standing'].text()}")
    return "\n".join(lines)


def dry_run_estimate(rules, players, scales, ranks, policies, games, match_games,
                     threads) -> str:
    """The time the dry run's games would take here: each table's deals (and matches) timed
    by :func:`vandatta_sim.sweep.dry_run.estimate_time` (2,000 games of the table as dealt,
    after a first untimed run that compiles) and scaled to its runs; the swap and break-even
    runs are taken to cost what the table as dealt costs. With --precision: the pilot's."""
    from ..experiments.card_value import PILOT_GAMES
    from ..experiments.runner import make_config
    from ..sweep.dry_run import estimate_time

    deals = games if games is not None else PILOT_GAMES
    matches = deals if match_games is None else match_games
    runs_of_matches = 0 if rules.match_kind == "single" or match_games == 0 else 1 + len(ranks)
    configs, counts = [], []
    for n in players:
        for scale in scales:
            table = rules.replace(players=n, scale=scale)
            configs.append(make_config(table.replace(match="single"), policies))
            counts.append((1 + 3 * len(ranks)) * deals)
            if runs_of_matches:
                configs.append(make_config(table, policies))
                counts.append(runs_of_matches * matches)
    estimate = estimate_time(configs, counts, threads)
    what = "if none of the games is stored yet" if games is not None else \
        "for the pilots alone (--precision plays more where the pilot asks for it)"
    return f"{estimate.text()}; {what}"


def _json_value(v):
    """A table cell as JSON: numpy numbers as Python numbers, nan as null."""
    if hasattr(v, "item"):
        v = v.item()
    if isinstance(v, float) and not math.isfinite(v):
        return None
    return v


def _break_even_text(est, cards) -> str:
    """A break-even score with its Fieller interval, and in ordinary cards of the scale."""
    from ..formatting import format_estimate as fmt

    if not math.isfinite(est.value):
        return "not bounded (more games)"
    return f"{fmt(est, 'num', 1)} = {cards.value:.1f} cards"


def value_text(table, rules, policy: str, seed: int) -> str:
    """The one-screen table: a line per (scale, players, rank), every number with its 95%
    interval, and the lines that say what the columns are."""
    from ..stats import row_estimate
    from ..formatting import format_estimate as fmt
    from ..formatting import format_table

    has_match = "match_win" in table.columns
    header = ["scale", "players", "rank", "face", "deals", "Δ deal win", "Δ points",
              "break-even face value", "on standing"]
    if has_match:
        header += ["matches", "deals/match", "Δ match win"]
    rows = []
    for _, r in table.iterrows():
        row = [r["scale"], r["players"], r["rank"], r["face"], f"{r['n']:,}",
               fmt(row_estimate(r, "win"), "pp", 2), fmt(row_estimate(r, "points"), "diff", 2),
               _break_even_text(row_estimate(r, "break_even"),
                                row_estimate(r, "break_even_cards")),
               _break_even_text(row_estimate(r, "break_even_standing"),
                                row_estimate(r, "break_even_standing_cards"))]
        if has_match:
            row += [f"{int(r['match_games']):,}", fmt(row_estimate(r, "match_deals"), "num", 1),
                    fmt(row_estimate(r, "match_win"), "pp", 2)]
        rows.append(row)
    low, high = (f"{x:.2f}" for x in table["corr_win"].agg(["min", "max"]))
    spread = low if low == high else f"{low}–{high}"
    least, most = (f"{100 * x:.1f}%" for x in table["possible"].agg(["min", "max"]))
    share = least if least == most else f"{least}–{most}"
    lines = [f"Value of one more card: rules key {rules.key()} (match {rules.match}), "
             f"policies {policy}, seed {seed}",
             format_table(header, rows, "lrlr" + "r" * (len(header) - 4), style="text"),
             "Δ: one ordinary card of the focal seat exchanged for a card of the rank, minus "
             "the deal as dealt (same seed and game),",
             "when a card of the rank is left in the talon to exchange (the deals counted: "
             f"{share} of all deals); 95% intervals of",
             "the paired differences; n.s. = the interval holds 0. Δ points < 0: fewer "
             "penalty points.",
             "break-even: a threshold, the rank's score above which one more card costs its "
             "holder points (Δ points = 0), play",
             "held fixed; Fieller's interval; in cards: divided by an ordinary card's mean "
             "score. on standing: the same for own",
             "points minus the mean opponent's.",
             f"Pairing: the two deal outcomes correlate {spread} (win); the later draws "
             "differ after the exchange."]
    return "\n".join(lines)
