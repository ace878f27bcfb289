"""reports/eight-value.md: how much an eight (and every other rank) is worth under each scale.

    python analyses/eight_value.py --out reports/eight-value.md [--quick]
"""

from __future__ import annotations

import common
import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from vandatta_sim.report.designs import (HOLDERS, RANKS, SCALE_NAMES, card_values, face_values,
                                         head_to_head, scale_grid)
from vandatta_sim.report.markdown import fmt, row_estimate as est
from vandatta_sim.report.verdicts import holding_verdict
from vandatta_sim.tables import format_table

SCALE_TITLES = {"base": "base (001: eight 10, ace 5, others 1)",
                "hundred": "hundred (Swedish: eight 25, ace 15, 10–K 10, others 5)",
                "crazy_eights": "crazy_eights (Hoyle: eight 50, 10–K 10, ace 1, others pips)"}


def card_value_runs(ctx: common.Context, match: bool) -> pd.DataFrame:
    """Swap experiment for every scale, number of players and rank (one tidy table)."""
    key = "swap_matches" if match else "swap_deals"
    frames = []
    for scale, players, rules in scale_grid(common.PLAYERS, match):
        ctx.log(f"card values: {scale}, {players} players, {'matches' if match else 'deals'}")
        df = card_values(ctx.runner, rules, RANKS, ctx.counts[key], ctx.seeds[key],
                         common.POLICY)
        df.insert(0, "scale", scale)
        frames.append(df)
    return pd.concat(frames, ignore_index=True)


def hold_vs_dump(ctx: common.Context, match: bool) -> pd.DataFrame:
    """Each holder against the eight-dumper in the focal seat, expert opponents."""
    key = "h2h_matches" if match else "h2h_deals"
    return head_to_head(ctx.runner, common.PLAYERS, match, ctx.counts[key], ctx.seeds[key],
                        common.POLICY, ctx.log)


# ------------------------------------------------------------------------------------------------
def section_face(ctx) -> str:
    fv = face_values()
    rows = [[rank] + [int(fv.loc[rank, s]) for s in SCALE_NAMES] for rank in fv.index]
    return ("## 1. Face value\n\nPoints a card scores when it is left in a loser's hand "
            "(RULES.md §2, `vandatta_sim/cards.py`). A joker scores as an eight.\n\n"
            + format_table(["rank"] + list(SCALE_NAMES), rows) + "\n")


def section_eight(ctx, deals: pd.DataFrame, matches: pd.DataFrame) -> str:
    d8 = deals[deals["rank"] == "8"].set_index(["scale", "players"])
    m8 = matches[matches["rank"] == "8"].set_index(["scale", "players"])
    rows = []
    for scale in SCALE_NAMES:
        for players in common.PLAYERS:
            r, m = d8.loc[(scale, players)], m8.loc[(scale, players)]
            rows.append([scale, players, int(r["face"]), f"{int(r['n']):,}",
                         fmt(est(r, "base_win"), "pct", 1),
                         fmt(est(r, "win"), "pp", 2),
                         fmt(est(r, "relative_win"), "rel", 1),
                         fmt(est(r, "points"), "diff", 2),
                         fmt(est(m, "base_win"), "pct", 1),
                         fmt(est(m, "win"), "pp", 2)])
    text = (
        "## 2. The marginal value of one more eight\n\n"
        "**Design (swap experiment).** Each sampled deal is played twice with the same seed and "
        "game index: once as dealt, once with one ordinary card of the focal seat (game index "
        "mod players, so every seat is focal equally often) exchanged for an eight taken from "
        "the talon. Every later random choice is identical (common random numbers), and the "
        "effect is the paired difference of the focal seat's outcome over the deals where the "
        "exchange was possible (an eight left in the talon). All seats play `expert`; the rules "
        "are `standard` with the scale shown, single deals for the deal columns and "
        "elimination at 100 (the swap in the first deal only) for the match columns. "
        f"Deals per cell: {ctx.counts['swap_deals']:,}; matches per cell: "
        f"{ctx.counts['swap_matches']:,} (minus the deals where no swap was possible).\n\n"
        "Δ win = change in the focal seat's chance to win (percentage points); rel. = the same "
        "relative to its unswapped win rate; Δ points = change in its penalty points for the "
        "deal (negative = fewer points, better).\n\n")
    text += format_table(
        ["scale", "players", "face", "deals", "P(win) as dealt", "Δ win", "rel. Δ win",
         "Δ points", "P(win match) as dealt", "Δ win match"], rows, "llrrrrrrrr")
    fig, axes = plt.subplots(1, 3, figsize=(12, 3.8))
    x = np.array(common.PLAYERS, dtype=float)
    for i, scale in enumerate(SCALE_NAMES):
        dx = (i - 1) * 0.08
        sel = [d8.loc[(scale, p)] for p in common.PLAYERS]
        msel = [m8.loc[(scale, p)] for p in common.PLAYERS]
        kw = dict(color=common.COLORS[i], label=scale)
        common.errorbars(axes[0], x + dx, [est(r, "win") for r in sel], 100, **kw)
        common.errorbars(axes[1], x + dx, [est(r, "points") for r in sel], 1, **kw)
        common.errorbars(axes[2], x + dx, [est(r, "win") for r in msel], 100, **kw)
    titles = ("Deal win: effect of one more eight", "Penalty points: effect of one more eight",
              "Match win (to 100): effect of one more eight")
    ylabels = ("Δ P(win deal) (percentage points)", "Δ penalty points per deal (points)",
               "Δ P(win match) (percentage points)")
    common.label_panels(axes, titles, ylabels)
    for ax in axes:
        ax.legend(title="scale", fontsize=8)
    fig.tight_layout()
    text += "\n" + common.save(fig, ctx, "eight-value-eight",
                               "Effect of one more eight on winning and points, per scale "
                               "and number of players, with 95% intervals")
    return text + "\n"


def section_ranks(ctx, deals: pd.DataFrame, matches: pd.DataFrame) -> str:
    text = (
        "## 3. Card-value table: every rank\n\n"
        "The same swap experiment for each rank R: one ordinary card of the focal seat "
        "(of another rank) is exchanged for an R from the talon. The effect of R is therefore "
        "the value of holding an R *instead of a random ordinary card*; for the ordinary "
        "ranks it is mostly the difference in face value (and suit/rank matching). "
        "Positive Δ win and negative Δ points mean the card helps its holder.\n\n")
    for k, scale in enumerate(SCALE_NAMES):
        d = deals[deals["scale"] == scale].set_index(["rank", "players"])
        m = matches[matches["scale"] == scale].set_index(["rank", "players"])
        rows = []
        for rank in RANKS:
            rows.append([rank, int(d.loc[(rank, 2), "face"])]
                        + [fmt(est(d.loc[(rank, p)], "win"), "pp", 2) for p in common.PLAYERS]
                        + [fmt(est(d.loc[(rank, p)], "points"), "diff", 2)
                           for p in common.PLAYERS])
        text += f"### 3.{k + 1} Scale `{scale}`\n\nDeal outcomes, single deals:\n\n"
        text += format_table(
            ["rank", "face"] + [f"Δ win {p}p" for p in common.PLAYERS]
            + [f"Δ points {p}p" for p in common.PLAYERS], rows, "lr" + "r" * 8)
        rows = [[rank] + [fmt(est(m.loc[(rank, p)], "win"), "pp", 2) for p in common.PLAYERS]
                for rank in RANKS]
        text += "\nMatch outcome (elimination at 100; the swap in the first deal):\n\n"
        text += format_table(["rank"] + [f"Δ win match {p}p" for p in common.PLAYERS], rows)
        fig, axes = plt.subplots(1, 3, figsize=(13, 4))
        x = np.arange(len(RANKS), dtype=float)
        for i, p in enumerate(common.PLAYERS):
            dx = (i - 1.5) * 0.15
            kw = dict(color=common.COLORS[i], label=f"{p} players")
            common.errorbars(axes[0], x + dx, [est(d.loc[(r, p)], "win") for r in RANKS], 100,
                             **kw)
            common.errorbars(axes[1], x + dx, [est(d.loc[(r, p)], "points") for r in RANKS],
                             1, **kw)
            common.errorbars(axes[2], x + dx, [est(m.loc[(r, p)], "win") for r in RANKS], 100,
                             **kw)
        titles = (f"Deal win by rank ({scale})", f"Penalty points by rank ({scale})",
                  f"Match win by rank ({scale})")
        ylabels = ("Δ P(win deal) (percentage points)", "Δ penalty points per deal (points)",
                   "Δ P(win match) (percentage points)")
        for ax, title, ylabel in zip(axes, titles, ylabels):
            ax.axhline(0, color="black", linewidth=0.8)
            ax.set_title(title)
            ax.set_xlabel("rank swapped in (for a random ordinary card)")
            ax.set_ylabel(ylabel)
            ax.set_xticks(x, RANKS)
            ax.legend(fontsize=7)
        fig.tight_layout()
        text += "\n" + common.save(fig, ctx, f"eight-value-ranks-{scale}",
                                   f"Value of each rank under the {scale} scale, "
                                   "with 95% intervals") + "\n"
    return text


def section_h2h(ctx, deals: pd.DataFrame, matches: pd.DataFrame) -> tuple[str, str]:
    d = deals.set_index(["scale", "players", "holder"])
    m = matches.set_index(["scale", "players", "holder"])
    text = (
        "## 4. Holding eights against dumping them\n\n"
        "**Design (policy substitution).** The focal seat plays a policy that keeps its eights "
        "(`greedy`: plays its most expensive legal non-eight, an eight only when nothing else "
        "fits; `expert`: seed 000/002's advice, eights kept for the end) or `eight-dumper` "
        "(`greedy`, but it plays an eight whenever one is legal). The other seats play "
        "`expert`. Both policies play the same deals with the same random numbers, and the "
        "focal seat rotates over all seats (one seed per seat), so the difference is paired. "
        "`greedy` against `eight-dumper` differs *only* in when the eights are played: it is "
        "the clean test of the claim; `expert` differs in more. "
        f"Deals per focal seat: {ctx.counts['h2h_deals']:,}; matches (to 100) per focal "
        f"seat: {ctx.counts['h2h_matches']:,}.\n\n"
        "Differences are holder − dumper: Δ points < 0 and Δ win > 0 mean holding the eights "
        "pays.\n\n")
    rows = []
    for scale in SCALE_NAMES:
        for players in common.PLAYERS:
            for holder in HOLDERS:
                r, mm = d.loc[(scale, players, holder)], m.loc[(scale, players, holder)]
                rows.append([scale, players, holder,
                             fmt(est(r, "points_b"), "num", 2),
                             fmt(est(r, "points"), "diff", 2),
                             fmt(est(r, "win"), "pp", 2),
                             fmt(est(mm, "win_b"), "pct", 1),
                             fmt(est(mm, "win"), "pp", 2)])
    text += format_table(
        ["scale", "players", "holder", "dumper's points/deal", "Δ points (holder − dumper)",
         "Δ win deal", "dumper's P(win match)", "Δ win match"], rows, "llllrrrr")
    fig, axes = plt.subplots(1, 3, figsize=(12, 4.4))
    x = np.array(common.PLAYERS, dtype=float)
    for i, scale in enumerate(SCALE_NAMES):
        for j, holder in enumerate(HOLDERS):
            dx = (2 * i + j - 2.5) * 0.05
            sel = [d.loc[(scale, p, holder)] for p in common.PLAYERS]
            msel = [m.loc[(scale, p, holder)] for p in common.PLAYERS]
            kw = dict(color=common.COLORS[i], label=f"{scale}, {holder}",
                      fmt="o" if holder == "greedy" else "s",
                      mfc=common.COLORS[i] if holder == "greedy" else "white")
            common.errorbars(axes[0], x + dx, [est(r, "points") for r in sel], 1, **kw)
            common.errorbars(axes[1], x + dx, [est(r, "win") for r in sel], 100, **kw)
            common.errorbars(axes[2], x + dx, [est(r, "win") for r in msel], 100, **kw)
    titles = ("Penalty points: holder − dumper", "Deal win: holder − dumper",
              "Match win (to 100): holder − dumper")
    ylabels = ("Δ penalty points per deal (points)", "Δ P(win deal) (percentage points)",
               "Δ P(win match) (percentage points)")
    common.label_panels(axes, titles, ylabels)
    handles, labels = axes[0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="lower center", ncol=6, fontsize=8,
               title="scale, holding policy (filled: greedy, open: expert)", title_fontsize=8)
    fig.tight_layout(rect=(0, 0.13, 1, 1))
    text += "\n" + common.save(fig, ctx, "eight-value-hold-vs-dump",
                               "Holding eights minus dumping them, per scale and players, "
                               "with 95% intervals") + "\n"

    # The claim of seed 002, read off the clean comparison (greedy vs eight-dumper).
    lines = []
    for scale in SCALE_NAMES:
        parts = []
        for players in common.PLAYERS:
            r = d.loc[(scale, players, "greedy")]
            mm = m.loc[(scale, players, "greedy")]
            pts, win = est(r, "points"), est(mm, "win")
            parts.append(f"{players}p: points {fmt(pts, 'diff', 2)}, match "
                         f"{fmt(win, 'pp', 2)} → {holding_verdict(pts, win)}")
        lines.append(f"- `{scale}`: " + "; ".join(parts))
    summary = "\n".join(lines) + "\n"
    text += ("### What this says about seed 002's claim\n\n"
             "Seed 002: *with an eight worth 50 it is almost always right to dump it early; on "
             "the Swedish scale holding it pays.* Per scale and table size, `greedy` (holds) − "
             "`eight-dumper` (dumps):\n\n" + summary)
    return text, summary


def main() -> None:
    args = common.parse_args(__doc__.splitlines()[0], "reports/eight-value.md")
    ctx = common.Context(args, "eight-value")
    deal_values = card_value_runs(ctx, match=False)
    match_values = card_value_runs(ctx, match=True)
    h2h_deals = hold_vs_dump(ctx, match=False)
    h2h_matches = hold_vs_dump(ctx, match=True)
    text = common.header("How much is an eight worth?", ctx, "eight_value.py")
    text += ("Questions: the face value of an eight under each scoring scale (`base`, `hundred`, "
             "`crazy_eights`), what one more eight in a starting hand does to the chance of "
             "winning the deal and the match and to the penalty points, the same for every "
             "other rank, and whether holding eights or dumping them early pays.\n\n")
    text += section_face(ctx)
    text += section_eight(ctx, deal_values, match_values)
    text += section_ranks(ctx, deal_values, match_values)
    h2h_text, _ = section_h2h(ctx, h2h_deals, h2h_matches)
    text += h2h_text
    ctx.write(text)


if __name__ == "__main__":
    main()
