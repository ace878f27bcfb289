"""reports/eight-value.md: how much an eight (and every other rank) is worth under each scale.

    python analyses/eight_value.py --out reports/eight-value.md [--quick] [--player NAME]

``--player`` names the strongest practical player who plays the scale, the one the top screen
is made with (``{scale}`` and ``{players}`` in the name become each table's scale and size;
default ``tuned:standard-{scale}-{players}``, the shipped tuned players, who adapt to what an
eight scores).
Where it is not ``expert``, ``expert`` is measured beside it on the same deals for continuity; the slow ``search`` player is checked on the same deals as it in every
headline cell. The house-rules section is ``eight_house_rules.py``.
"""

from __future__ import annotations

import textwrap

import common
import eight_house_rules
import eight_players
import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from eight_players import break_even_cell, player_for, shown

from vandatta_sim.experiments.card_value import (card_value, effects_per_game,
                                                 paired_effect_difference)
from vandatta_sim.experiments.designs import RANKS, SCALE_NAMES, face_values
from vandatta_sim.experiments.fair_score import changed_share, fair_scores
from vandatta_sim.experiments.plain import outward
from vandatta_sim.rules import PRESETS
from vandatta_sim.stats import Estimate, holm_adjust, p_value, row_estimate as est
from vandatta_sim.formatting import format_estimate as fmt, format_table

STANDARD = PRESETS["standard"]  # matches: elimination at 100
#: Each table's tuned player: `expert` with weights fitted to that scale and table size, the
#: players who adapt to what an eight scores (issue 37's headline); with it `expert`, one fixed
#: player for every table, is measured beside it as the reference, on the same deals.
ADAPTED = "tuned:standard-{scale}-{players}"
#: The first screen's players (``--player``): by default the adapted ones.
PLAYER = ADAPTED
#: The first screen: no line wider than this, and at most SCREEN_LINES lines.
WIDTH = 100
SCREEN_LINES = 40

def wrap(text: str, indent: str = "") -> str:
    """A paragraph wrapped to WIDTH (list items keep their hanging indent)."""
    return textwrap.fill(text, WIDTH, subsequent_indent=indent, break_long_words=False,
                         break_on_hyphens=False)


def pp(e: Estimate, digits: int = 1, scale: float = 100.0) -> str:
    """A compact signed estimate: ``+6.2 [+5.8, +6.5]`` (percentage points by default), the
    bounds rounded outward (plain.outward), never narrower than the interval computed."""
    if not np.isfinite(e.value):
        return "–"
    low, high = outward(e.low, e.high, digits, scale)
    sign = lambda t: t if t.startswith("-") else "+" + t  # noqa: E731
    return f"{scale * e.value:+.{digits}f} [{sign(low)}, {sign(high)}]"


def section_face(ctx, number: int) -> str:
    fv = face_values()
    rows = [[rank] + [int(fv.loc[rank, s]) for s in SCALE_NAMES] for rank in fv.index]
    return (f"## {number}. Face value\n\n"
            "Points a card scores when it is left in a loser's hand "
            "(docs/spec.md §2, `vandatta_sim/cards.py`). A joker scores as an eight.\n\n"
            + format_table(["rank"] + list(SCALE_NAMES), rows) + "\n")


# ------------------------------------------------------------------------------------------------
# the experiments
# ------------------------------------------------------------------------------------------------
def headline(ctx, player: str) -> pd.DataFrame:
    """One more eight and one more ace, every scale and table size, with the scale's headline
    player everywhere: deals for both, matches for the eight (the ace's match effect is left
    out to keep the run short; `vandatta-sim value --rank 8,A` adds it without changing the
    eight's numbers)."""
    frames = []
    for scale in SCALE_NAMES:
        for p in common.PLAYERS:
            kw = dict(players=(p,), scales=(scale,), policies=player_for(player, scale, p),
                      games=ctx.counts["value_deals"], seed=ctx.seeds["value_deals"],
                      log=ctx.log)
            both = card_value(STANDARD, ctx.runner, ranks=("8", "A"), match_games=0, **kw)
            # the eight's deal runs again (read back from the store) with its matches
            eight = card_value(STANDARD, ctx.runner, ranks=("8",), break_even_point=False,
                               match_games=ctx.counts["value_matches"], **kw)
            match_columns = [c for c in eight.columns
                             if c.startswith(("match_", "corr_match"))]
            frame = both.merge(eight[["scale", "players", "rank", *match_columns]],
                               on=["scale", "players", "rank"], how="left")
            frame.insert(0, "player", kw["policies"])
            frames.append(frame)
    return pd.concat(frames, ignore_index=True)


def across_scales(ctx, player: str) -> dict:
    """The eight's deal-win effect under hundred and crazy_eights minus under base, paired game
    by game (the same seed: the same deals and focal seats; only the scores and what the
    players make of them differ)."""
    out = {}
    for p in common.PLAYERS:
        eff = {s: effects_per_game(ctx.runner, STANDARD.replace(scale=s, players=p,
                                                                 match="single"),
                                   player_for(player, s, p), "8", ctx.counts["value_deals"],
                                   ctx.seeds["value_deals"]) for s in SCALE_NAMES}
        for s in SCALE_NAMES[1:]:
            out[(s, p)] = paired_effect_difference(eff[s], eff[SCALE_NAMES[0]], "win")
    return out


def fair(ctx, player: str, values: pd.DataFrame) -> dict:
    """Per table (scale, players): the eight's fair score on own points and on standing
    (every seat told each score of the grid, report.fair_score), on the headline's deals; and
    the share of games played otherwise at the fixed-play break-even when the players are told
    it (the threshold's premise, measured)."""
    out = {}
    n, seed = ctx.counts["value_deals"], ctx.seeds["value_deals"]
    for scale in SCALE_NAMES:
        for p in common.PLAYERS:
            ctx.log(f"fair score: {scale}, {p} players")
            rules = STANDARD.replace(scale=scale, players=p, match="single")
            head = player_for(player, scale, p)
            cell = fair_scores(rules, ctx.runner, head, "8", n, seed)
            r = values[(values["rank"] == "8") & (values["scale"] == scale)
                       & (values["players"] == p)].iloc[0]
            v = float(r["break_even"])
            cell["changed"] = (changed_share(rules, ctx.runner, head, v, "8", n, seed)
                               if np.isfinite(v) and v >= 0 else None)
            out[(scale, p)] = cell
    return out


def ordinary_ranks(ctx) -> pd.DataFrame:
    """Every rank's deal value with expert play and with random play, 4 players."""
    frames = []
    for play in ("expert", "random"):
        df = card_value(STANDARD.replace(match="single"), ctx.runner, ranks="all",
                        players=(4,), scales=SCALE_NAMES, policies=play,
                        games=ctx.counts["value_ranks"], seed=ctx.seeds["value_ranks"],
                        break_even_point=False, log=ctx.log)
        df.insert(0, "play", play)
        frames.append(df)
    return pd.concat(frames, ignore_index=True)


# ------------------------------------------------------------------------------------------------
# the first screen
# ------------------------------------------------------------------------------------------------
def per_deal(row) -> Estimate:
    """Δ match win divided by the match's mean length in deals: the effect per deal played
    (the length's own uncertainty, under 1 %, is left out)."""
    deals = float(row["match_deals"])
    return Estimate(row["match_win"] / deals, row["match_win_low"] / deals,
                    row["match_win_high"] / deals, int(row["n"]))


def in_100(x: float) -> str:
    """A share as "N in 100" words, rounded (at least one decimal below 1)."""
    v = abs(100 * x)
    return f"{v:.0f}" if v >= 1 else f"{v:.1f}"


def family_line(values: pd.DataFrame, scale: str) -> str:
    """One scale's answer in everyday words, at 4 players (the table has the others)."""
    four = values[(values["rank"] == "8") & (values["scale"] == scale)].set_index(
        "players").loc[4]
    pts = four["points"]
    saves = (f"saves you {-pts:.1f} penalty points a deal" if four["points_high"] < 0 else
             f"costs you {pts:.1f} penalty points a deal" if four["points_low"] > 0 else
             "penalty points: too few deals to tell")
    count = in_100(four["match_win"])
    noun = "match" if count == "1" else "matches"
    matches = (f"about {count} more {noun} in 100" if four["match_win_low"] > 0 else
               f"about {count} fewer {noun} in 100"
               if four["match_win_high"] < 0 else
               "match wins: too few matches to tell")
    return wrap(f"- **{scale}** (an eight counts {int(four['face'])}), 4 players: about "
                f"{in_100(four['win'])} more deals in 100, {matches}; {saves}.", "  ")


def players_words(player: str) -> str:
    """Which players the first screen is for, in a few words (a template named once)."""
    if "{scale}" in player or "{players}" in player:
        return f"its table's tuned player, `{shown(player)}`"
    return f"`{player}`"


def who_and_why(player: str) -> str:
    """The one sentence that says which players the numbers are for and why."""
    if player == "expert":
        return "every seat plays `expert`."
    why = " (`expert` fitted by `tune` to that scale and size)" if player.startswith(
        "tuned:") else ""
    return (f"for players who adapt to what an eight scores (it is worth what they make of it): "
            f"every seat plays {players_words(player)}{why}; `expert`, one fixed player for "
            "all tables, is the reference on the same deals.")


def fair_line(fair: dict, player: str, ctx) -> str:
    """The fair score per scale at 4 players on the first screen, with its command."""
    if not fair:
        return ""
    cells = "; ".join(f"`{s}` {fair[(s, 4)]['points'].text()}" for s in SCALE_NAMES)
    policy = player_for(player, SCALE_NAMES[0], 4)
    return wrap(
        "**Fair score** (§2): the score s* at which players who know an eight scores s* gain "
        f"no penalty points from one more (4 players): {cells}. `vandatta-sim value --fair "
        f"--players 4 --scale base --policy all={policy} --games {ctx.counts['value_deals']} "
        f"--seed {ctx.seeds['value_deals']}` (each scale with its player).") + "\n\n"


def first_screen(ctx, values: pd.DataFrame, player: str, rob: dict,
                 fair: dict | None = None) -> str:
    """The answer on one screen: at most SCREEN_LINES lines of at most WIDTH characters."""
    e = values[values["rank"] == "8"]
    beside = "vs_expert" in rob[(SCALE_NAMES[0], common.PLAYERS[0])]
    rows = []
    for _, r in e.iterrows():
        row = [r["scale"], r["players"], pp(est(r, "win"))]
        if beside:
            c = rob[(r["scale"], r["players"])]
            row += [pp(c["expert"]), pp(c["vs_expert"])]
        else:
            row += [pp(est(r, "match_win"), 2), pp(est(r, "points"), 2, 1.0)]
        rows.append(row)
    header = (["scale", "players", "deal wins, tuned (pp)" if player.startswith("tuned:")
               else "deal wins (pp)", "deal wins, `expert`", "it − `expert`, paired"]
              if beside else ["scale", "players", "deal wins (pp)", "match wins (pp)",
                              "own penalty points a deal (− fewer)"])
    text = (
        wrap("**One more eight in your starting hand** (`standard` rules; 95 % intervals; "
             "pp: wins in 100; when an eight is left to exchange, §1), " + who_and_why(player))
        + "\n\n"
        + format_table(header, rows, "lr" + "r" * (len(header) - 2)) + "\n"
        + "\n".join(family_line(values, s) for s in SCALE_NAMES) + "\n\n"
        + fair_line(fair or {}, player, ctx)
        + "---\n\n")
    return text


def check_screen(text: str) -> str:
    """``text`` (the report's start) if everything before the first section break fits one
    screen: at most SCREEN_LINES lines, none over WIDTH characters; else a ValueError."""
    screen = text.split("\n---\n", 1)[0].splitlines()
    # a development run's banner (and the blank line after it) is never in a committed report
    banner = [k for k, line in enumerate(screen) if line.startswith("> **Development run**")]
    if banner:
        end = banner[0] + 1
        while end < len(screen) and screen[end].startswith("> "):
            end += 1
        end += end < len(screen) and not screen[end].strip()
        screen = screen[: banner[0]] + screen[end:]
    wide = [line for line in screen if len(line) > WIDTH]
    if len(screen) > SCREEN_LINES or wide:
        raise ValueError(f"the first screen has {len(screen)} lines (at most {SCREEN_LINES}) "
                         f"and {len(wide)} over {WIDTH} characters: {wide[:1]}")
    return text


def answer_figure(ctx, values: pd.DataFrame) -> str:
    m = values[values["rank"] == "8"]
    fig, axes = plt.subplots(1, 3, figsize=(12, 3.8))
    x = np.array(common.PLAYERS, dtype=float)
    for i, scale in enumerate(SCALE_NAMES):
        sel = [r for _, r in m[m["scale"] == scale].iterrows()]
        kw = dict(color=common.COLORS[i], label=scale)
        dx = (i - 1) * 0.08
        common.errorbars(axes[0], x + dx, [est(r, "win") for r in sel], 100, **kw)
        common.errorbars(axes[1], x + dx, [per_deal(r) for r in sel], 100, **kw)
        common.errorbars(axes[2], x + dx, [est(r, "points") for r in sel], 1, **kw)
    common.label_panels(
        axes, ("Deal wins: one more eight", "Match wins, per deal played",
               "Own penalty points per deal"),
        ("Δ P(win deal) (percentage points)", "Δ P(win match) / deals per match (pp)",
         "Δ penalty points per deal"))
    for ax in axes:
        ax.legend(title="scale", fontsize=8)
    fig.tight_layout()
    # the alt text stays short: the image line is part of the first screen
    return common.save(fig, ctx, "eight-value-answer", "One more eight, 95% intervals")


# ------------------------------------------------------------------------------------------------
# the detail
# ------------------------------------------------------------------------------------------------
def value_command(ctx, player: str) -> str:
    """Where the detail tables' numbers come from: one `value` command, or one per table where
    the players are a template (a tuned player per scale and size)."""
    counts = (f"--rank 8,A --games {ctx.counts['value_deals']} --match-games "
              f"{ctx.counts['value_matches']} --seed {ctx.seeds['value_deals']}")
    if player_for(player, "x", 0) == player:
        policy = "" if player == "expert" else f" --policy all={player}"
        return ("same numbers come from\n\n```\nvandatta-sim value --preset standard --players "
                f"2,3,4,5 --scale base,hundred,crazy_eights{policy} {counts}\n```\n\n")
    return ("same numbers come from one command per table (its own players), e.g. for "
            "`base` at 4 players\n\n```\nvandatta-sim value --preset standard --players 4 "
            f"--scale base --policy all={player_for(player, 'base', 4)} {counts}\n```\n\n")


def section_detail(ctx, values: pd.DataFrame, scales: dict, number: int,
                   figure: str = "", player: str = "expert") -> str:
    e = values[values["rank"] == "8"]
    deal_rows = [[r["scale"], r["players"], fmt(est(r, "possible"), "pct", 1),
                  fmt(est(r, "win"), "pp", 1), fmt(est(r, "points"), "diff", 2),
                  fmt(est(r, "opponents"), "diff", 2), fmt(est(r, "standing"), "diff", 2)]
                 for _, r in e.iterrows()]
    match_rows = [[r["scale"], r["players"], fmt(est(r, "match_deals"), "num", 1),
                   fmt(est(r, "match_win"), "pp", 2), fmt(per_deal(r), "pp", 3)]
                  for _, r in e.iterrows()]
    a = values[values["rank"] == "A"]
    ace_rows = [[r["scale"], r["players"], r["face"], fmt(est(r, "win"), "pp", 1),
                 fmt(est(r, "points"), "diff", 2)] for _, r in a.iterrows()]
    lengths = e[e["players"] == 4].set_index("scale")["match_deals"]
    across = "; ".join(
        f"{p} players: " + ", ".join(f"{s} − base {fmt(scales[(s, p)], 'pp', 1)}"
                                     for s in SCALE_NAMES[1:]) for p in common.PLAYERS)
    return (
        f"## {number}. The answer in detail\n\n" + (figure + "\n" if figure else "") +
        "Each sampled deal is played as dealt and again with one ordinary card of one seat "
        "(every seat in turn) exchanged for an eight (or an ace) from the talon, same seed and "
        "game; the tables show the paired difference for that seat. **Estimand:** the effect "
        "of one more eight *when one is left in the talon to exchange*, over those deals; the "
        "first column is their share of all deals (the rest have every eight in hand or "
        "buried: the value there is not measured). Deals are single deals; matches are "
        "elimination at 100 with the extra card in the first deal only. "
        f"{ctx.counts['value_deals']:,} deals per row and {ctx.counts['value_matches']:,} "
        "matches per eight row. *Opponents* is the change of the mean penalty points of the "
        "other seats, *standing* own points minus the opponents' mean (lower is better). The "
        + value_command(ctx, player) +
        "### One more eight: single deals\n\n"
        + format_table(["scale", "players", "eight left to exchange", "Δ deal win",
                        "Δ own points", "Δ opponents' points", "Δ standing"], deal_rows,
                       "lrrrrrr")
        + "\n### One more eight: matches to 100\n\n"
        + format_table(["scale", "players", "deals per match", "Δ match win",
                        "Δ match win per deal played"], match_rows, "lrrrr")
        + "\n### One more ace (the other special; single deals)\n\n"
        + format_table(["scale", "players", "face", "Δ deal win", "Δ own points"], ace_rows,
                       "lrrrr")
        + "\n**Across scales.** The scale changes who wins a deal only through how the players "
        "weigh the cards" + (", and here through the players too (each scale's tuned player "
                             "has weights of its own)" if player_for(player, "x", 0) != player
                             else "") + ". The eight's deal-win effect under each scale minus under `base`, "
        "paired game by game (the same seeds give the same deals and focal seats under every "
        f"scale): {across}. " + across_multiplicity(scales) + "\n\n"
        "**Matches across scales.** A match to 100 lasts "
        + ", ".join(f"{lengths[s]:.1f} deals under `{s}`" for s in SCALE_NAMES)
        + " at four players, and the extra card is in the first deal only, so the match "
          "effect of the same card is diluted over more deals under `base`; the last column "
          "divides it by the match length (its interval is the match effect's divided by the "
          "mean length; the length's own uncertainty, under 1 %, is left out).\n\n")


#: The family error rate of the across-scale comparisons (Holm, as claims.md does).
ACROSS_ALPHA = 0.05


def across_multiplicity(scales: dict) -> str:
    """The across-scale comparisons as one family: which stay distinguishable from 0 under
    Holm's procedure over all of them (each interval above is a plain 95 % one)."""
    keys = list(scales)
    adjusted = holm_adjust([p_value(scales[k]) for k in keys])
    kept = [f"{s} − base at {p} players (Holm p {a:.2g})" for (s, p), a in zip(keys, adjusted)
            if a <= ACROSS_ALPHA]
    return (f"**Multiplicity:** these are {len(keys)} comparisons, each interval a plain 95 % "
            f"one; taken as one family with Holm's procedure at error rate "
            f"{ACROSS_ALPHA:.0%} (as claims.md does), "
            + (f"{len(kept)} of {len(keys)} stay distinguishable from 0: " + "; ".join(kept)
               if kept else f"none of the {len(keys)} stays distinguishable from 0") + ".")


def held_fixed(player: str, fair: dict) -> str:
    """What "decisions held fixed" means for the players used, and how far it is from play
    that knows the score (measured: the share of games played otherwise at the threshold)."""
    shares = [c["changed"] for c in fair.values() if c.get("changed") is not None]
    measured = (f"Told the threshold instead, the players play {min(100 * e.low for e in shares):.1f}"
                f"–{max(100 * e.high for e in shares):.1f} % of the threshold's games otherwise "
                "(the last column of the table below, per table)" if shares else
                "How many games change at the threshold is not measured here")
    return (f"**Decisions held fixed, and what that means:** in both runs every seat "
            f"({players_words(player)}) weighs the eight at the table's real score, so the "
            "cards left in each hand are those of the play chosen at that score. The players "
            "weigh the eight by the score they are told (`valuation`: the scale-aware eight "
            "rule of docs/policies.md), so the threshold belongs to today's play at the real "
            f"score: it is the **fixed-play threshold**, not a fair score. {measured}: the "
            "threshold describes a play nobody who knew the score would choose, and the fair "
            "score below is the answer for players who do.")


def fair_rows(fair: dict, values: pd.DataFrame) -> list[list]:
    e = values[values["rank"] == "8"].set_index(["scale", "players"])
    rows = []
    for (scale, p), c in fair.items():
        changed = c.get("changed")
        rows.append([scale, p, int(e.loc[(scale, p), "face"]), c["points"].text(),
                     c["standing"].text(), break_even_cell(e.loc[(scale, p)], "break_even"),
                     "–" if changed is None else fmt(changed, "pct", 1)])
    return rows


def section_fair(ctx, fair: dict, values: pd.DataFrame, player: str) -> str:
    """The fair score per table, with the fixed-play threshold and its premise beside it."""
    if not fair:
        return ""
    counted = [c["points"].n for c in fair.values()]
    widths = [(e.high - e.low) / 2 for c in fair.values() for k in ("points", "standing")
              for e in c[k].curve]
    grids = {s: fair[(s, common.PLAYERS[0])]["points"].grid for s in SCALE_NAMES}
    return (
        "### The fair score: players who know what the eight scores\n\n"
        "The **fair score** s* is the score at which players who know that an eight scores "
        "s*, and weigh it so, are indifferent to one more eight: one more eight then changes "
        "its holder's expected penalty points by 0 (and on standing, own points minus the "
        "mean opponent's). At each score v of a grid the swap experiment is played with the "
        f"eight scoring v and every seat ({players_words(player)}) told so, on the same "
        f"{ctx.counts['value_deals']:,} deals at every v (seed {ctx.seeds['value_deals']}: "
        "common random numbers), giving each deal's Δ(v); between grid scores Δ is "
        "interpolated per deal. The estimate is the smallest score where the mean curve "
        "crosses 0; the **interval is test inversion**: every score whose mean Δ the paired "
        "z-test does not reject from 0 at 95 % (on 200 sub-steps per grid segment, widened "
        "outward by one), shown as its hull and rounded outward to whole points. *None from "
        "a to b* means no score of the grid is accepted: the data exclude a fair score there "
        "at 95 %, and the words say which way the eight goes at every score. *Above* means "
        "the accepted scores reach the grid's top. The grid is 0 to 100 ordinary cards ("
        + "; ".join(f"`{s}`: {', '.join(map(str, g))}" for s, g in grids.items())
        + f" points); each grid score's mean Δ has a half-width of {min(widths):.2f} to "
        f"{max(widths):.2f} penalty points at {min(counted):,}–{max(counted):,} counted deals "
        "per table (wider at the larger scores, where a deal's Δ scales with the score). "
        "**Tuned players away "
        "from their score** keep their fitted weights; what depends on the eight's score is "
        "read from the score they are told, as for `expert`: its cost term (points × the "
        "`card_value` weight) and the hand size of an opponent at which it dumps its eights "
        "(the eight's cost in ordinary cards // `eight_threat_ratio`). Beside it, the "
        "fixed-play threshold of the table above and the share of its games (as dealt or "
        "with one more eight, the pair counted once) that are played otherwise when the "
        "players are told the threshold (a game's winner, turns, plays, draws, reshuffles or "
        "a seat's points differ: a lower bound).\n\n"
        + format_table(["scale", "players", "face", "fair score, own points",
                        "fair score, standing", "fixed-play threshold, own points",
                        "games played otherwise at it"], fair_rows(fair, values), "lrrrrrr")
        + "\n")


def section_break_even(ctx, values: pd.DataFrame, player: str, number: int,
                       fair: dict | None = None) -> str:
    rows = [[r["rank"], r["scale"], r["players"], r["face"], f"{r['ordinary']:.1f}",
             break_even_cell(r, "break_even"), break_even_cell(r, "break_even_standing")]
            for _, r in values.sort_values("rank", kind="stable").iterrows()]  # 8, then A
    four = values[(values["rank"] == "8") & (values["players"] == 4)].set_index("scale")
    h = four.loc["hundred"]
    ordinary = four["ordinary"]
    return (
        f"## {number}. The break-even score, fixed-play and fair\n\n"
        "The **break-even score** of a card is the score at which one more of it would leave "
        "its holder's expected penalty points unchanged: scored below it, one more of the card "
        "saves its holder points on average; above it, it costs points. It is a threshold on "
        "the score, not what the card is worth: the worth is its effect on deals and matches "
        f"(§{number - 1}). At four players under `hundred` an eight, scored at its "
        f"{int(h['face'])}, changes its holder's penalty points by "
        f"{fmt(est(h, 'points'), 'diff', 2)} a deal and adds {fmt(est(h, 'win'), 'pp', 1)} of "
        "deal wins; it would add the same deal wins at its break-even score, where its points "
        "change is zero.\n\n"
        "**How it is measured.** Two more runs give the card a second score (0 points) while "
        "every player keeps weighing the table's own scale (`valuation`), so the decisions, "
        "and with them the cards left in each hand, are the same as in the runs at the real "
        "score. Each deal's Δ points is then a straight line in the card's score, "
        "Δ(v) = a + b·v, and the break-even score is v* = −mean(a)/mean(b), with **Fieller's "
        "interval** (every v whose mean line the paired z-test does not reject from 0: exact "
        "where the slope is uncertain, and unbounded exactly when the slope is not shown to "
        "differ from 0). " + held_fixed(player, fair or {}) + "\n\n"
        "**Units.** The scales score an ordinary card (2–7, 9–K) differently: "
        + ", ".join(f"{ordinary[sc]:.1f} under `{sc}`" for sc in SCALE_NAMES)
        + " (the mean over those ranks); the break-even in *cards* divides by that, so "
        "scales compare. **Standing.** A match is "
        "decided by points relative to the others, and one more eight in your hand changes "
        "theirs too (the opponents' column of the detail tables); the break-even on standing "
        "uses own points minus the mean opponent's.\n\n"
        + format_table(["rank", "scale", "players", "face", "ordinary card",
                        "break-even, own points", "break-even, standing"], rows, "llrrrrr")
        + "\n" + section_fair(ctx, fair or {}, values, player))


def section_design(ctx, values: pd.DataFrame, number: int) -> str:
    cw, cp = values["corr_win"], values["corr_points"]
    cm = values["corr_match_win"].dropna()
    return (
        f"## {number}. Design\n\n"
        "**Swap experiment.** Deal *i* is played twice on the same seed and game index: as "
        "dealt, and with one ordinary card of the focal seat (game index mod players, so every "
        "seat is focal equally often) exchanged for a card of the rank from the talon. The two "
        "runs start from the same deal and the same random stream, but once the hands differ "
        "the players' choices differ and the later draws drift apart, so the two outcomes are "
        "only partly alike: they correlate "
        f"{cw.min():.2f}–{cw.max():.2f} for the deal win, {cp.min():.2f}–{cp.max():.2f} for "
        f"the penalty points and {cm.min():.2f}–{cm.max():.2f} for the match win (Pearson, "
        "per row of the detail tables). The intervals are those of the per-deal differences, "
        "so they are valid whatever the correlation; the pairing only makes them somewhat "
        "narrower than independent runs would. **Estimand:** the exchange needs a card of the "
        "rank left in the talon, so every effect is that of one more card *when one is left "
        "to exchange*, read over those deals (their share is in the detail table); nothing is "
        "claimed for the other deals.\n\n")


def section_ranks(ctx, ranks: pd.DataFrame, number: int) -> str:
    text = (
        f"## {number}. Every rank, with a random-play control\n\n"
        "The swap experiment for each rank R at four players (single deals): one ordinary "
        "card of the focal seat (of another rank) exchanged for an R. For an ordinary rank "
        "this measures what the players do with it: a `random` player (the control) plays "
        "any legal card alike, so no ordinary rank helps it go out more than another; the "
        "`expert` plays costly cards first, so which ranks it keeps depends on the scale. "
        f"{ctx.counts['value_ranks']:,} deals per (scale, play, rank).\n\n")
    ordinary = ranks[~ranks["rank"].isin(["8", "A"])]
    counts = {}
    for play in ("random", "expert"):
        o = ordinary[ordinary["play"] == play]
        if play == "random":  # random play ignores the scores: one scale's cells are all
            o = o[o["scale"] == SCALE_NAMES[0]]
        counts[play] = (int(((o["win_low"] > 0) | (o["win_high"] < 0)).sum()), len(o))
        what = ("ranks (the same under every scale)" if play == "random"
                else "(rank, scale) cells")
        text += (f"- `{play}` play: {counts[play][0]} of {len(o)} ordinary {what}"
                 " have a deal-win effect whose interval excludes 0 (about "
                 f"{0.05 * len(o):.1f} would by chance alone).\n")
    hits, cells = counts["random"]
    if hits <= 2 * 0.05 * cells + 1:
        text += ("\nWith `random` play an ordinary rank's deal value is not distinguishable "
                 "from 0 beyond chance; what the `expert` column shows beyond that belongs to "
                 "the heuristic's play order, not to the rank.\n\n")
    else:
        text += ("\nEven with `random` play more ordinary cells differ from 0 than chance "
                 "explains; the rank tables are not read further here.\n\n")
    for scale in SCALE_NAMES:
        d = ranks[ranks["scale"] == scale].set_index(["play", "rank"])
        rows = [[rank, int(d.loc[("expert", rank), "face"]),
                 fmt(est(d.loc[("expert", rank)], "win"), "pp", 2),
                 fmt(est(d.loc[("random", rank)], "win"), "pp", 2),
                 fmt(est(d.loc[("expert", rank)], "points"), "diff", 2),
                 fmt(est(d.loc[("random", rank)], "points"), "diff", 2)] for rank in RANKS]
        text += (f"### Scale `{scale}`\n\n"
                 + format_table(["rank", "face", "Δ deal win, expert", "Δ deal win, random",
                                 "Δ points, expert", "Δ points, random"], rows, "lrrrrr")
                 + "\n")
    return text


def add_arguments(parser) -> None:
    parser.add_argument("--player", default=PLAYER, metavar="NAME",
                        help="the strongest practical player who plays the scale, for the "
                             "first screen ({scale} and {players} become each table's; "
                             f"default {PLAYER})")


def main() -> None:
    args = common.parse_args(__doc__.splitlines()[0], "reports/eight-value.md", add_arguments)
    ctx = common.Context(args, "eight-value")
    player = args.player
    values = headline(ctx, player)
    scales = across_scales(ctx, player)
    rob = eight_players.robustness(ctx, player)
    house = eight_house_rules.measure(ctx, player)
    who = eight_players.who_plays(ctx)
    timing_deals = eight_players.timing(ctx, False)
    timing_matches = eight_players.timing(ctx, True)
    ranks = ordinary_ranks(ctx)
    fairs = fair(ctx, player, values)
    options = "" if player == PLAYER else f"--player '{player}'"
    text = common.header("How much is an eight worth?", ctx, "eight_value.py", WIDTH, options)
    figure = answer_figure(ctx, values)
    text = check_screen(text + first_screen(ctx, values, player, rob, fairs))
    text += section_detail(ctx, values, scales, 1, figure, player)
    text += section_break_even(ctx, values, player, 2, fairs)
    text += eight_house_rules.section(ctx, house, player, 3)
    text += section_face(ctx, 4)
    text += section_design(ctx, values, 5)
    text += eight_players.section_robustness(ctx, rob, player, 6)
    text += eight_players.section_who(ctx, who, 7)
    text += eight_players.section_timing(ctx, timing_deals, timing_matches, 8)
    text += section_ranks(ctx, ranks, 9)
    ctx.write(text)


if __name__ == "__main__":
    main()
