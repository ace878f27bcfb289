"""reports/eight-value.md: how much an eight (and every other rank) is worth under each scale.

    python analyses/eight_value.py --out reports/eight-value.md [--quick]
"""

from __future__ import annotations

import common
import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from vandatta_sim.report.designs import (RANKS, SCALE_NAMES, compare_policies, face_values,
                                         focal_outcomes)
from vandatta_sim.report.markdown import estimate_columns, fmt, row_estimate as est
from vandatta_sim.rules import PRESETS
from vandatta_sim.stats import Estimate
from vandatta_sim.tables import format_table
from vandatta_sim.value import card_value

STANDARD = PRESETS["standard"]  # matches: elimination at 100
#: Who plays: (holder of the extra eight, the other seats).
SEATINGS = (("expert", "expert"), ("random", "random"), ("random", "expert"),
            ("expert", "random"))
#: Hold or dump, and when to play the eights: the matched pair and the timing rule
#: (``expert:eights=K`` plays eights once its hand has at most K cards), against expert tables.
#: K = 1 and 2 played every deal exactly as `expert` in a development run (with two cards left
#: the expert plays its eight anyway), so the study starts at 3.
TIMING = ("expert", "expert:eights=dump", "expert:eights=3", "expert:eights=4",
          "expert:eights=5", "expert:eights=7")
TIMING_PLAYERS = 4
#: The ladder's top rung as a holder (docs/policies.md), at `expert` tables.
SEARCH = "search"

SCALE_TITLES = {"base": "base (001: eight 10, ace 5, others 1)",
                "hundred": "hundred (Swedish: eight 25, ace 15, 10–K 10, others 5)",
                "crazy_eights": "crazy_eights (Hoyle: eight 50, 10–K 10, ace 1, others pips)"}


# ------------------------------------------------------------------------------------------------
def section_face(ctx) -> str:
    fv = face_values()
    rows = [[rank] + [int(fv.loc[rank, s]) for s in SCALE_NAMES] for rank in fv.index]
    return ("## 1. Face value\n\nPoints a card scores when it is left in a loser's hand "
            "(docs/spec.md §2, `vandatta_sim/cards.py`). A joker scores as an eight.\n\n"
            + format_table(["rank"] + list(SCALE_NAMES), rows) + "\n")




# ------------------------------------------------------------------------------------------------
# the experiments
# ------------------------------------------------------------------------------------------------
def headline(ctx) -> pd.DataFrame:
    """One more eight and one more ace, every scale and table size: deals for both, matches
    for the eight (the ace's match effect is left out to keep the run short; `vandatta-sim
    value --rank 8,A` adds it without changing the eight's numbers)."""
    kw = dict(players=common.PLAYERS, scales=SCALE_NAMES, policies=common.POLICY,
              games=ctx.counts["value_deals"], seed=ctx.seeds["value_deals"], log=ctx.log)
    both = card_value(STANDARD, ctx.runner, ranks=("8", "A"), match_games=0, **kw)
    # the eight's deal runs again (read back from the store) with its matches
    eight = card_value(STANDARD, ctx.runner, ranks=("8",), break_even_point=False,
                       match_games=ctx.counts["value_matches"], **kw)
    match_columns = [c for c in eight.columns if c.startswith(("match_", "corr_match"))]
    return both.merge(eight[["scale", "players", "rank", *match_columns]],
                      on=["scale", "players", "rank"], how="left")


def who_plays(ctx) -> pd.DataFrame:
    """The eight's deal value with random/expert holders and tables, 4 players."""
    frames = []
    for holder, table in SEATINGS:
        df = card_value(STANDARD.replace(match="single"), ctx.runner, ranks=("8",),
                        players=(4,), scales=SCALE_NAMES, policies=table, holder=holder,
                        games=ctx.counts["value_players"], seed=ctx.seeds["value_players"],
                        log=ctx.log)
        df.insert(0, "holder", holder)
        df.insert(1, "table", table)
        frames.append(df)
    # the search player is about a thousand times slower than the expert: one scale, few deals
    df = card_value(STANDARD.replace(match="single"), ctx.runner, ranks=("8",), players=(4,),
                    scales=("hundred",), policies="expert", holder=SEARCH,
                    games=ctx.counts["value_search"], seed=ctx.seeds["value_search"],
                    break_even_point=False, log=ctx.log)
    df.insert(0, "holder", SEARCH)
    df.insert(1, "table", "expert")
    frames.append(df)
    return pd.concat(frames, ignore_index=True)


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


def timing(ctx, match: bool) -> pd.DataFrame:
    """Each timing policy against `expert` (holding) in the focal seat, expert tables."""
    key = "timing_matches" if match else "timing_deals"
    rows = []
    for scale in SCALE_NAMES:
        rules = STANDARD.replace(players=TIMING_PLAYERS, scale=scale,
                                 match=STANDARD.match if match else "single")
        ctx.log(f"hold or dump: {scale}, {'matches' if match else 'deals'}")
        out = focal_outcomes(ctx.runner, rules, TIMING, common.POLICY, ctx.counts[key],
                             ctx.seeds[key])
        for policy in TIMING[1:]:
            cmp = compare_policies(out, policy, "expert")
            row = {"scale": scale, "policy": policy, "n": cmp["win"].n}
            for name, e in cmp.items():
                row.update(estimate_columns(name, e))
            rows.append(row)
    return pd.DataFrame(rows)


# ------------------------------------------------------------------------------------------------
# the top screen
# ------------------------------------------------------------------------------------------------
def per_deal(row) -> Estimate:
    """Δ match win divided by the match's mean length in deals: the effect per deal played
    (the length's own uncertainty, under 1 %, is left out)."""
    deals = float(row["match_deals"])
    return Estimate(row["match_win"] / deals, row["match_win_lo"] / deals,
                    row["match_win_hi"] / deals, int(row["n"]))


def break_even_text(row) -> str:
    e = est(row, "break_even")
    if not np.isfinite(e.value):
        return "not bounded (Δ points hardly depends on the score)"
    return fmt(e, "num", 1) + (" (slope < 0)" if row["slope_hi"] < 0 else "")


def answer_table(values: pd.DataFrame, rank: str) -> str:
    d = values[values["rank"] == rank]
    matches = bool(d["match_win"].notna().all())
    rows = []
    for _, r in d.iterrows():
        row = [r["scale"], r["players"], r["face"], fmt(est(r, "win"), "pp", 1),
               fmt(est(r, "points"), "diff", 2), break_even_text(r)]
        if matches:
            row += [fmt(est(r, "match_deals"), "num", 1), fmt(est(r, "match_win"), "pp", 2),
                    fmt(per_deal(r), "pp", 3)]
        rows.append(row)
    header = ["scale", "players", "face", "Δ deal win", "Δ points per deal",
              "break-even face value"]
    if matches:
        header += ["deals per match", "Δ match win", "Δ match win per deal played"]
    return format_table(header, rows, "l" + "r" * (len(header) - 1))


def verdict_words(face: int, be: Estimate) -> str:
    if not np.isfinite(be.value):
        return "not resolved against a break-even score at this precision"
    where = f"{be.value:.0f} [{be.low:.0f}, {be.high:.0f}]"
    if face < be.low:
        return f"below its break-even score of {where}, so it also saves points"
    if face > be.high:
        return (f"above its break-even score of {where}, so it costs points when you are "
                "caught with it")
    return (f"inside the interval of its break-even score ({where}): in points it is not "
            "distinguishable from even at this precision")


def scale_sentence(values: pd.DataFrame, scale: str) -> str:
    d = values[(values["rank"] == "8") & (values["scale"] == scale)].set_index("players")
    four = d.loc[4]
    face = int(four["face"])
    wins = ", ".join(f"{100 * d.loc[p, 'win']:+.1f}" for p in common.PLAYERS)
    pts = four["points"]
    return (f"- **`{scale}`** (an eight scores {face}): an extra eight in your starting hand "
            f"changes your chance to win the deal by {wins} percentage points at "
            f"{', '.join(map(str, common.PLAYERS))} players. At four players it changes your "
            f"penalty points by {pts:+.2f} per deal; its {face} points are "
            f"{verdict_words(face, est(four, 'break_even'))}. Over a match to 100 "
            f"(about {four['match_deals']:.0f} deals at four players) the one deal's "
            f"advantage is worth {fmt(est(four, 'match_win'), 'pp', 1)} of match wins. "
            + ace_sentence(values, scale) + "\n")


def ace_sentence(values: pd.DataFrame, scale: str) -> str:
    ace = values[(values["rank"] == "A") & (values["scale"] == scale)].set_index("players")
    four = ace.loc[4]
    face = int(four["face"])
    return (f"An extra ace (it scores {face}) adds {fmt(est(four, 'win'), 'pp', 1)} of deal "
            f"wins at four players; its {face} points are "
            f"{verdict_words(face, est(four, 'break_even'))}.").replace(" 1 points", " 1 point")


def deal_win_across_scales(values: pd.DataFrame) -> str:
    """What the data say about the deal-win effect across scales (the scale changes the deal
    winner only through how the players weigh the cards)."""
    d = values[values["rank"] == "8"].set_index(["scale", "players"])
    parts = []
    for players in common.PLAYERS:
        ests = [est(d.loc[(s, players)], "win") for s in SCALE_NAMES]
        overlap = max(e.low for e in ests) <= min(e.high for e in ests)
        parts.append(f"{players} players: " + " / ".join(f"{100 * e.value:+.1f}" for e in ests)
                     + (" pp (intervals overlap)" if overlap else " pp (they differ)"))
    return ("The scale decides who wins a deal only through how the players weigh the cards, "
            "so the deal-win effect of an eight is compared across scales (base / hundred / "
            "crazy_eights): " + "; ".join(parts) + ". The points and the break-even score are "
            "what the scale itself decides.")


def section_answer(ctx, values: pd.DataFrame) -> str:
    m = values[values["rank"] == "8"]
    reached = ", ".join(
        f"{s} {100 * float(((g['match_win_hi'] - g['match_win_lo']) / 2).max()):.2f}"
        for s, g in m.groupby("scale", sort=False))
    widest = float(((m["match_win_hi"] - m["match_win_lo"]) / 2).max()) * 100
    lengths = values[values["players"] == 4].groupby("scale", sort=False)["match_deals"].first()
    text = (
        "## The answer\n\n"
        "What one more card in your starting hand is worth: each sampled deal is played as "
        "dealt and again with one ordinary card of one seat (every seat in turn) exchanged "
        "for an eight (or an ace) from the talon, same seed and game; the table shows the "
        "paired difference for that seat. All seats play `expert`, `standard` rules with the "
        "scale shown; deals are single deals, matches are elimination at 100 with the extra "
        "card in the first deal only. **Break-even face value**: the score the card would "
        "need for one more of it to leave the expected penalty points unchanged, with the "
        "players' decisions held fixed (they weigh the table's own scale, only the scoring "
        "changes; see §2). "
        f"{ctx.counts['value_deals']:,} deals per row and {ctx.counts['value_matches']:,} "
        "matches per eight row (minus the few where no exchange was possible). The same "
        "numbers come from\n\n"
        "```\nvandatta-sim value --preset standard --players 2,3,4,5 --scale "
        f"base,hundred,crazy_eights --rank 8,A --games {ctx.counts['value_deals']} "
        f"--match-games {ctx.counts['value_matches']} --seed {ctx.seeds['value_deals']}\n```\n\n"
        "### One more eight\n\n" + answer_table(values, "8")
        + "\n### One more ace (the other special; single deals)\n\n"
        + answer_table(values, "A")
        + "\n**In words:**\n\n"
        + "".join(scale_sentence(values, s) for s in SCALE_NAMES)
        + "\n" + deal_win_across_scales(values) + "\n\n"
        "**Matches across scales.** A match to 100 lasts "
        + ", ".join(f"{lengths[s]:.1f} deals under `{s}`" for s in SCALE_NAMES)
        + " at four players, and the extra card is in the first deal only, so the match "
          "effect of the same card is diluted over more deals under `base`. The last column "
          "divides the match effect by the match length (percentage points of match wins per "
          "deal played) to compare scales on one footing (its interval is the match effect's "
          "divided by the mean length; the length's own uncertainty, under 1 %, is left "
          "out). The widest match interval has "
          f"half-width {widest:.2f} pp (widest per scale, pp: {reached})"
        + (" (the target of ±0.5 pp is met)." if widest <= 0.5 else
           " (the target was ±0.5 pp; this is the precision reached).")
        + "\n\n")
    fig, axes = plt.subplots(1, 3, figsize=(12, 3.8))
    x = np.array(common.PLAYERS, dtype=float)
    for i, scale in enumerate(SCALE_NAMES):
        sel = [r for _, r in m[m["scale"] == scale].iterrows()]
        kw = dict(color=common.COLORS[i], label=scale)
        dx = (i - 1) * 0.08
        common.errorbars(axes[0], x + dx, [est(r, "win") for r in sel], 100, **kw)
        common.errorbars(axes[1], x + dx, [est(r, "break_even") for r in sel], 1, **kw)
        axes[1].plot(x + dx, [r["face"] for r in sel], "_", markersize=14,
                     color=common.COLORS[i])
        common.errorbars(axes[2], x + dx, [per_deal(r) for r in sel], 100, **kw)
    common.label_panels(
        axes, ("Deal win: one more eight", "Break-even face value (dash: actual)",
               "Match win per deal played"),
        ("Δ P(win deal) (percentage points)", "face value of the eight (points)",
         "Δ P(win match) / deals per match (pp)"))
    for ax in axes:
        ax.legend(title="scale", fontsize=8)
    fig.tight_layout()
    return text + common.save(fig, ctx, "eight-value-answer",
                              "One more eight: deal-win effect, break-even face value against "
                              "the actual one, and match effect per deal played, per scale "
                              "and number of players, with 95% intervals") + "\n"


# ------------------------------------------------------------------------------------------------
# the rest
# ------------------------------------------------------------------------------------------------
def section_design(ctx, values: pd.DataFrame) -> str:
    cw, cp = values["corr_win"], values["corr_points"]
    cm = values["corr_match_win"].dropna()
    return (
        "## 2. Design\n\n"
        "**Swap experiment.** Deal *i* is played twice on the same seed and game index: as "
        "dealt, and with one ordinary card of the focal seat (game index mod players, so every "
        "seat is focal equally often) exchanged for a card of the rank from the talon. The two "
        "runs start from the same deal and the same random stream, but once the hands differ "
        "the players' choices differ and the later draws drift apart, so the two outcomes are "
        "only partly alike: they correlate "
        f"{cw.min():.2f}–{cw.max():.2f} for the deal win, {cp.min():.2f}–{cp.max():.2f} for "
        f"the penalty points and {cm.min():.2f}–{cm.max():.2f} for the match win (Pearson, "
        "per row of the top tables). The intervals are those of the per-deal differences, so "
        "they are valid whatever the correlation; the pairing only makes them somewhat "
        "narrower than independent runs would. The effect is read over the deals where the "
        "exchange was possible (a card of the rank left in the talon).\n\n"
        "**Break-even face value.** Two more runs give the card a second score (0 points) "
        "while every player keeps weighing the table's own scale (`valuation`), so the "
        "decisions, and with them the cards left in each hand, are the same as in the runs "
        "at the real score. A hand's penalty points are then a straight line in the card's "
        "score, per deal: Δ points(v) = a + b·v, b being the extra copies of the card left in "
        "a loser's hand. The break-even score is v* = −mean(a)/mean(b), with a delta-method "
        "95 % interval (linearised values −(aᵢ + v*·bᵢ)/mean(b)); a test checks the line "
        "exactly on a third score.\n\n")


def section_who(ctx, who: pd.DataFrame) -> str:
    rows = []
    for (holder, table), d in who.groupby(["holder", "table"], sort=False):
        for _, r in d.iterrows():
            rows.append([holder, table, r["scale"], fmt(est(r, "win"), "pp", 1),
                         fmt(est(r, "points"), "diff", 2),
                         "not measured" if holder == SEARCH else break_even_text(r)])
    return (
        "## 3. Who plays: the game's numbers and the players'\n\n"
        "The eight's value at four players (single deals) with the holder of the extra eight "
        "and the other seats playing `random` or `expert`. Where holder and table differ, each "
        "seat is focal in its own run (seed + seat), "
        f"{ctx.counts['value_players']:,} deals per seat; otherwise "
        f"{ctx.counts['value_players']:,} deals with the focal seat rotating. The `search` "
        "holder (a determinized Monte Carlo player, about a thousand times slower) is "
        f"measured under `hundred` only, {ctx.counts['value_search']:,} deals per seat, "
        "without the break-even runs.\n\n"
        + format_table(["holder", "table", "scale", "Δ deal win", "Δ points per deal",
                        "break-even face value"], rows, "lllrrr")
        + "\n" + who_words(who) + "\n\n")


def who_words(who: pd.DataFrame) -> str:
    """Which numbers belong to the game and which to the players, from the table."""
    w = who.set_index(["holder", "table", "scale"])
    rr = [est(w.loc[("random", "random", s)], "win") for s in SCALE_NAMES]
    ee = [est(w.loc[("expert", "expert", s)], "win") for s in SCALE_NAMES]
    searched = fmt(est(w.loc[(SEARCH, "expert", "hundred")], "win"), "pp", 1)
    mixed = (fmt(est(w.loc[("random", "expert", "hundred")], "win"), "pp", 1),
             fmt(est(w.loc[("expert", "random", "hundred")], "win"), "pp", 1))
    return (
        "**The game's part.** `random` players ignore the scores, so with `random` everywhere "
        "the deal-win effect is the same under every scale "
        f"({fmt(rr[0], 'pp', 1)}): an eight can be played on anything, and that alone is worth "
        "this much to a player who does nothing clever with it. **The players' part.** With "
        "`expert` everywhere the same card is worth "
        + " / ".join(fmt(e, "pp", 1) for e in ee)
        + " (base / hundred / crazy_eights): most of the eight's deal value comes from keeping "
          "it for the end, i.e. from skill; the mixed rows separate holder and table (under "
          f"`hundred`: a `random` holder at an `expert` table {mixed[0]}, an `expert` holder at "
          f"a `random` table {mixed[1]}; a `search` holder at an `expert` table {searched}, "
          "against the `expert` holder's "
          f"{fmt(est(w.loc[('expert', 'expert', 'hundred')], 'win'), 'pp', 1)}). How often "
          "the eight is still in hand when someone else goes out, hence its points and its "
          "break-even score, is a property of the holder's play too: a `random` holder plays "
          "it whenever chance picks it; where the slope is negative (marked), the extra eight "
          "leaves fewer eights in a loser's hand than the ordinary card it replaced (played "
          "early instead of drawn late), so it saves points at any score and the break-even "
          "is negative. The top screen is therefore the value for careful (`expert`) players, "
          "not a constant of the game.")


def section_timing(ctx, deals: pd.DataFrame, matches: pd.DataFrame) -> str:
    d = deals.set_index(["scale", "policy"])
    m = matches.set_index(["scale", "policy"])
    rows = []
    for scale in SCALE_NAMES:
        for policy in TIMING[1:]:
            r, mm = d.loc[(scale, policy)], m.loc[(scale, policy)]
            rows.append([scale, f"`{policy}`", fmt(est(r, "points"), "diff", 2),
                         fmt(est(r, "win"), "pp", 2), fmt(est(mm, "win"), "pp", 2)])
    return (
        "## 4. Hold or dump, and when to play the eights\n\n"
        "**Design (policy substitution, a matched pair).** The focal seat plays `expert` "
        "(keeps its eights for the end) or a variant that differs from it only in when it "
        "plays an eight: `expert:eights=dump` plays one whenever it is legal, "
        "`expert:eights=K` once its hand has at most K cards. The other three seats play "
        "`expert`; the same deals and random numbers for every focal policy, each seat focal "
        f"in turn (seed + seat). {ctx.counts['timing_deals']:,} deals and "
        f"{ctx.counts['timing_matches']:,} matches to 100 per focal seat, four players. "
        "Differences are variant − `expert` (holding): Δ points > 0 and Δ win < 0 mean "
        "holding pays.\n\n"
        + format_table(["scale", "focal policy", "Δ points per deal", "Δ deal win",
                        "Δ match win"], rows, "llrrr") + "\n" + timing_words(deals, matches))


def timing_words(deals: pd.DataFrame, matches: pd.DataFrame) -> str:
    """What the hold-or-dump table says, per scale, read off its intervals."""
    d = deals.set_index(["scale", "policy"])
    m = matches.set_index(["scale", "policy"])
    lines, ordered = [], True
    for scale in SCALE_NAMES:
        worse = [p for p in TIMING[1:]
                 if d.loc[(scale, p), "win_hi"] < 0 and m.loc[(scale, p), "win_hi"] < 0]
        wins = [d.loc[(scale, p), "win"] for p in TIMING[2:]]  # K = 3, 4, 5, 7
        ordered &= len(worse) == len(TIMING) - 1 and all(np.diff(wins) < 0)
        pts = est(d.loc[(scale, "expert:eights=dump")], "points")
        cheaper = ("saves" if pts.high < 0 else "costs" if pts.low > 0 else
                   "does not measurably change")
        lines.append(f"- `{scale}`: {len(worse)} of {len(TIMING) - 1} variants win fewer deals "
                     "and fewer matches than `expert` (both intervals below 0); dumping "
                     f"{cheaper} penalty points ({fmt(pts, 'diff', 2)} per deal).")
    text = "\n".join(lines) + "\n\n"
    if ordered:
        text += ("On every scale, the earlier the eights are released (larger K), the "
                 "fewer deals the holder wins: holding them to the end pays in "
                 "deals and matches whatever it does to the points.\n\n")
    return text


def section_ranks(ctx, ranks: pd.DataFrame) -> str:
    text = (
        "## 5. Every rank, with a random-play control\n\n"
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
        counts[play] = (int(((o["win_lo"] > 0) | (o["win_hi"] < 0)).sum()), len(o))
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


def main() -> None:
    args = common.parse_args(__doc__.splitlines()[0], "reports/eight-value.md")
    ctx = common.Context(args, "eight-value")
    values = headline(ctx)
    who = who_plays(ctx)
    timing_deals, timing_matches = timing(ctx, False), timing(ctx, True)
    ranks = ordinary_ranks(ctx)
    text = common.header("How much is an eight worth?", ctx, "eight_value.py")
    text += section_answer(ctx, values)
    text += section_face(ctx)
    text += section_design(ctx, values)
    text += section_who(ctx, who)
    text += section_timing(ctx, timing_deals, timing_matches)
    text += section_ranks(ctx, ranks)
    ctx.write(text)


if __name__ == "__main__":
    main()
