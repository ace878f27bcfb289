"""reports/eight-value.md: how much an eight (and every other rank) is worth under each scale.

    python analyses/eight_value.py --out reports/eight-value.md [--quick] [--player NAME]

``--player`` names the strongest practical player who plays the scale, the one the top screen
is made with (default ``expert``; ``{scale}`` and ``{players}`` in the name become each
table's scale and size, e.g. ``tuned:standard-{scale}-{players}``, the shipped tuned players).
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
from eight_players import break_even_cell, player_for

from vandatta_sim.report.card_value import card_value, effects_per_game, paired_effect_difference
from vandatta_sim.report.designs import RANKS, SCALE_NAMES, face_values
from vandatta_sim.rules import PRESETS
from vandatta_sim.stats import Estimate, holm_adjust, p_value, row_estimate as est
from vandatta_sim.tables import format_estimate as fmt, format_table

STANDARD = PRESETS["standard"]  # matches: elimination at 100
#: The first screen's players (``--player``; default `expert`, the committed report's).
PLAYER = "expert"
#: Each table's tuned player: `expert` with weights fitted to that scale and table size, the
#: players who adapt to what an eight scores (issue 37's headline); with it `expert`, one fixed
#: player for every table, is measured beside it as the reference. The first screen then has 40
#: lines for a full run, so a `--quick` run's extra header note does not fit with it.
ADAPTED = "tuned:standard-{scale}-{players}"
#: The first screen: no line wider than this, and at most SCREEN_LINES lines.
WIDTH = 100
SCREEN_LINES = 40

def wrap(text: str, indent: str = "") -> str:
    """A paragraph wrapped to WIDTH (list items keep their hanging indent)."""
    return textwrap.fill(text, WIDTH, subsequent_indent=indent, break_long_words=False,
                         break_on_hyphens=False)


def pp(e: Estimate, digits: int = 1, scale: float = 100.0) -> str:
    """A compact signed estimate: ``+6.2 [+5.8, +6.5]`` (percentage points by default)."""
    if not np.isfinite(e.value):
        return "–"
    s = scale
    return f"{s * e.value:+.{digits}f} [{s * e.low:+.{digits}f}, {s * e.high:+.{digits}f}]"


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
             "changes your penalty points too little to tell at this many deals")
    matches = (f"about {in_100(four['match_win'])} more matches in 100"
               if four["match_win_low"] > 0 else
               f"about {in_100(four['match_win'])} fewer matches in 100"
               if four["match_win_high"] < 0 else
               "a change of match wins too small to tell at this many matches")
    return wrap(f"- **{scale}** (an eight counts {int(four['face'])}): at 4 players one more "
                f"eight wins you about {in_100(four['win'])} more deals in 100, {matches}, "
                f"and {saves}.", "  ")


def players_words(player: str) -> str:
    """Which players the first screen is for, in a few words (a template named once)."""
    if "{scale}" in player or "{players}" in player:
        return ("its table's tuned player, `"
                + player.replace("{scale}", "SCALE").replace("{players}", "N") + "`")
    return f"`{player}`"


def continuity(rob: dict, player: str) -> str:
    """Where the headline player is not `expert`: which players and why in one sentence, and
    `expert`'s numbers beside them at 4 players with the paired difference (all sizes: §6)."""
    cells = [rob[(scale, 4)] for scale in SCALE_NAMES]
    if "expert" not in cells[0]:
        return ""
    why = ("Tuned players are `expert` with weights fitted by `vandatta-sim tune` to each scale "
           "and table size (match wins): they play eights by what an eight scores there, as "
           "players who adapt would. " if player.startswith("tuned:") else "")
    return (why + "Beside them `expert`, one fixed player for every table (the reference), "
            "gets " + " / ".join(f"{100 * c['expert'].value:+.1f}" for c in cells)
            + " pp of deal wins from one more eight at 4 players (" + " / ".join(SCALE_NAMES)
            + "); headline minus `expert` on the same deals: "
            + " / ".join(pp(c["vs_expert"]) for c in cells) + " pp (every size: §6). ")


def first_screen(ctx, values: pd.DataFrame, player: str, figure: str, rob: dict) -> str:
    """The answer on one screen: at most SCREEN_LINES lines of at most WIDTH characters."""
    e = values[values["rank"] == "8"]
    rows = [[r["scale"], r["players"], pp(est(r, "win")), pp(est(r, "match_win"), 2),
             pp(est(r, "points"), 2, 1.0)] for _, r in e.iterrows()]
    possible = e.groupby("players")["possible"].min()
    share = ", ".join(f"{100 * possible.loc[p]:.0f} % at {p}" for p in possible.index)
    text = (
        wrap("**What one more eight in your starting hand does for you** (`standard` rules; "
             f"every seat plays {players_words(player)}; 95 % intervals; pp: wins in 100):")
        + "\n\n"
        + format_table(["scale", "players", "deal wins (pp)", "match wins (pp)",
                        "own penalty points a deal (− fewer)"], rows, "lrrrr") + "\n"
        + "\n".join(family_line(values, s) for s in SCALE_NAMES) + "\n\n"
        + wrap(continuity(rob, player) + "Counted over the deals where an eight is left in "
               f"the talon to exchange ({share} players). The slow, stronger `search` was "
               "checked on the same deals (§6).")
        + "\n\n" + figure + "\n---\n\n")
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
def section_detail(ctx, values: pd.DataFrame, scales: dict, number: int) -> str:
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
        f"## {number}. The answer in detail\n\n"
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
        "same numbers come from\n\n"
        "```\nvandatta-sim value --preset standard --players 2,3,4,5 --scale "
        f"base,hundred,crazy_eights --rank 8,A --games {ctx.counts['value_deals']} "
        f"--match-games {ctx.counts['value_matches']} --seed {ctx.seeds['value_deals']}\n```\n\n"
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
        "weigh the cards. The eight's deal-win effect under each scale minus under `base`, "
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


def held_fixed(player: str) -> str:
    """What "decisions held fixed" means for the players used, and what it does not."""
    return (f"**Decisions held fixed, and what that means:** in both runs every seat "
            f"(`{player}`) weighs the eight at the table's real score, so the cards left in "
            "each hand are those of the play chosen at that score. The players weigh the "
            "eight by the score they are told (`valuation`: the scale-aware eight rule of "
            "docs/policies.md), so a player told that the eight scored the break-even would "
            "in general play its eights otherwise (the opponents' hand size at which it dumps "
            "an eight moves with the score), below 100 too. The break-even "
            "is therefore a threshold of today's play at the real score, not the score at "
            "which players who know it would be indifferent to one more eight; how many "
            "games change when the players weigh the eight at the break-even is not measured "
            "in this report.")


def section_break_even(ctx, values: pd.DataFrame, player: str, number: int) -> str:
    rows = [[r["rank"], r["scale"], r["players"], r["face"], f"{r['ordinary']:.1f}",
             break_even_cell(r, "break_even"), break_even_cell(r, "break_even_standing")]
            for _, r in values.sort_values("rank", kind="stable").iterrows()]  # 8, then A
    four = values[(values["rank"] == "8") & (values["players"] == 4)].set_index("scale")
    h = four.loc["hundred"]
    ordinary = four["ordinary"]
    return (
        f"## {number}. The break-even score: a threshold, not a worth\n\n"
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
        "differ from 0). " + held_fixed(player) + "\n\n"
        "**Units.** The scales score an ordinary card (2–7, 9–K) differently: "
        + ", ".join(f"{ordinary[sc]:.1f} under `{sc}`" for sc in SCALE_NAMES)
        + " (the mean over those ranks); the break-even in *cards* divides by that, so "
        "scales compare. **Standing.** A match is "
        "decided by points relative to the others, and one more eight in your hand changes "
        "theirs too (the opponents' column of the detail tables); the break-even on standing "
        "uses own points minus the mean opponent's.\n\n"
        + format_table(["rank", "scale", "players", "face", "ordinary card",
                        "break-even, own points", "break-even, standing"], rows, "llrrrrr")
        + "\n")


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
    options = "" if player == PLAYER else f"--player '{player}'"
    text = common.header("How much is an eight worth?", ctx, "eight_value.py", WIDTH, options)
    text = check_screen(text + first_screen(ctx, values, player, answer_figure(ctx, values), rob))
    text += section_detail(ctx, values, scales, 1)
    text += section_break_even(ctx, values, player, 2)
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
