"""The eight and its players: sections of reports/eight-value.md and their measurements.

Who plays (the game's part of the eight's value and the players' part), stronger play on the
same deals (the slow ``search`` holder against the headline player's, every headline cell),
and hold or dump (when to play the eights). Used by ``eight_value.py``.
"""

from __future__ import annotations

import common
import numpy as np
import pandas as pd

from vandatta_sim.experiments.card_value import (card_value, effects_per_game,
                                                 paired_effect_difference)
from vandatta_sim.experiments.designs import SCALE_NAMES, compare_policies, focal_outcomes
from vandatta_sim.experiments.measures import STRONGEST
from vandatta_sim.rules import PRESETS
from vandatta_sim.stats import estimate_columns, mean_interval, row_estimate as est
from vandatta_sim.formatting import format_estimate as fmt
from vandatta_sim.formatting import format_table

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


def player_for(template: str, scale: str, players: int) -> str:
    """The headline player of a table: ``template`` with ``{scale}`` and ``{players}`` filled
    in (a tuned player is fitted per rule set and table size)."""
    return template.replace("{scale}", scale).replace("{players}", str(players))


def shown(player: str) -> str:
    """A player name as the report writes it: a template's fields as SCALE and N
    (``tuned:standard-SCALE-N``: each table's own tuned player)."""
    return player.replace("{scale}", "SCALE").replace("{players}", "N")


def break_even_cell(r, name: str) -> str:
    """A break-even score with its Fieller interval, and in ordinary cards."""
    e = est(r, name)
    if not np.isfinite(e.value):
        return "not bounded"
    cards = est(r, f"{name}_cards")
    return f"{e.value:.0f} [{e.low:.0f}, {e.high:.0f}] = {cards.value:.1f} cards"


def robustness(ctx, player: str) -> dict:
    """For every headline cell (scale, players; single deals, one more eight): the effect for
    a ``search`` holder and for the headline player as holder, at a table of the headline
    player, on the same deals (``value_search`` per focal seat, seed + seat), and their
    paired difference; and,
    where the headline player is not ``expert``, the same against ``expert`` on all the
    headline's deals."""
    out = {}
    for scale in SCALE_NAMES:
        for p in common.PLAYERS:
            rules = STANDARD.replace(scale=scale, players=p, match="single")
            ctx.log(f"stronger play on the same deals: {scale}, {p} players")
            head = player_for(player, scale, p)
            n, seed = ctx.counts["value_search"], ctx.seeds["value_search"]
            # one run per focal seat (seed + seat), the holder there: the same deals twice
            mine = effects_per_game(ctx.runner, rules, head, "8", n, seed, holder=head)
            strong = effects_per_game(ctx.runner, rules, head, "8", n, seed, holder=STRONGEST)
            cell = {"search": mean_interval(strong.loc[strong["swapped"], "win"]),
                    "head": mean_interval(mine.loc[mine["swapped"], "win"]),
                    "diff": paired_effect_difference(strong, mine, "win"),
                    "diff_points": paired_effect_difference(strong, mine, "points")}
            if head != "expert":
                full = ctx.counts["value_deals"]
                a = effects_per_game(ctx.runner, rules, head, "8", full, seed)
                b = effects_per_game(ctx.runner, rules, "expert", "8", full, seed)
                cell["expert"] = mean_interval(b.loc[b["swapped"], "win"])
                cell["vs_expert"] = paired_effect_difference(a, b, "win")
            out[(scale, p)] = cell
    return out


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
    return pd.concat(frames, ignore_index=True)


def timing(ctx, match: bool) -> pd.DataFrame:
    """`expert` (holding) against each timing policy in the focal seat, expert tables: every
    difference is holder − variant, the sign convention of claims.md's claim 4."""
    key = "timing_matches" if match else "timing_deals"
    rows = []
    for scale in SCALE_NAMES:
        rules = STANDARD.replace(players=TIMING_PLAYERS, scale=scale,
                                 match=STANDARD.match if match else "single")
        ctx.log(f"hold or dump: {scale}, {'matches' if match else 'deals'}")
        out = focal_outcomes(ctx.runner, rules, TIMING, common.POLICY, ctx.counts[key],
                             ctx.seeds[key])
        for policy in TIMING[1:]:
            cmp = compare_policies(out, "expert", policy)
            row = {"scale": scale, "policy": policy, "n": cmp["win"].n}
            for name, e in cmp.items():
                row.update(estimate_columns(name, e))
            rows.append(row)
    return pd.DataFrame(rows)


def section_who(ctx, who: pd.DataFrame, number: int) -> str:
    rows = []
    for (holder, table), d in who.groupby(["holder", "table"], sort=False):
        for _, r in d.iterrows():
            rows.append([holder, table, r["scale"], fmt(est(r, "win"), "pp", 1),
                         fmt(est(r, "points"), "diff", 2), break_even_cell(r, "break_even")])
    return (
        f"## {number}. Who plays: the game's numbers and the players'\n\n"
        "The eight's value at four players (single deals) with the holder of the extra eight "
        "and the other seats playing `random` or `expert`. Where holder and table differ, each "
        "seat is focal in its own run (seed + seat), "
        f"{ctx.counts['value_players']:,} deals per seat; otherwise "
        f"{ctx.counts['value_players']:,} deals with the focal seat rotating.\n\n"
        + format_table(["holder", "table", "scale", "Δ deal win", "Δ points per deal",
                        "break-even, own points"], rows, "lllrrr")
        + "\n" + who_words(who) + "\n\n")


def who_words(who: pd.DataFrame) -> str:
    """Which numbers belong to the game and which to the players, from the table."""
    w = who.set_index(["holder", "table", "scale"])
    rr = [est(w.loc[("random", "random", s)], "win") for s in SCALE_NAMES]
    ee = [est(w.loc[("expert", "expert", s)], "win") for s in SCALE_NAMES]
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
          f"a `random` table {mixed[1]}). How often the eight is still in hand when someone "
          "else goes out, hence its points and its break-even score, is a property of the "
          "holder's play too: a `random` holder plays it whenever chance picks it, and where "
          "the break-even is negative the extra eight leaves fewer eights in a loser's hand "
          "than the ordinary card it replaced (played early instead of drawn late), so it "
          "saves points at any score. The first screen is therefore the value for careful "
          "players, not a constant of the game.")


def section_robustness(ctx, rob: dict, player: str, number: int) -> str:
    player = shown(player)
    rows = []
    for (scale, p), c in rob.items():
        row = [scale, p, fmt(c["head"], "pp", 1), fmt(c["search"], "pp", 1),
               fmt(c["diff"], "pp", 1), fmt(c["diff_points"], "diff", 2)]
        if "vs_expert" in c:
            row += [fmt(c["expert"], "pp", 1), fmt(c["vs_expert"], "pp", 1)]
        rows.append(row)
    header = ["scale", "players", f"holder `{player}`", f"holder `{STRONGEST}`",
              "Δ deal win, search − it", "Δ own points, search − it"]
    if rows and len(rows[0]) > 6:
        header += ["`expert` everywhere", "Δ deal win, it − `expert`"]
    diffs = [c["diff"] for c in rob.values()]
    above = sum(d.low > 0 for d in diffs)
    below = sum(d.high < 0 for d in diffs)
    return (
        f"## {number}. Stronger play, on the same deals\n\n"
        f"Every cell of the first screen again, with the slow `{STRONGEST}` player (a "
        "determinized Monte Carlo player, about a thousand times slower) holding the extra "
        f"eight at a table of `{player}`, and with `{player}` holding it, on the same deals: "
        "one run per focal seat (seed + seat), "
        f"{ctx.counts['value_search']:,} deals per focal seat, the same seeds and game "
        "indices for both holders, so each deal is played by both and the difference is "
        "paired per deal. Single deals only (a match with a search player is too slow for "
        "every cell).\n\n"
        + format_table(header, rows, "lr" + "r" * (len(header) - 2)) + "\n"
        + (f"In {above} of {len(diffs)} cells the `{STRONGEST}` holder gets more deal wins "
           f"out of the eight than `{player}` (interval above 0), in {below} fewer; in the "
           "rest the difference is not distinguishable at this precision. "
           + common.power_sentence(diffs, ctx.counts["value_search"], "deals per focal seat")
           + ", beyond this report's time budget with the slow search, while real players "
           "differ by about 1 pp or less (the first screen's last column): a difference this "
           "check does not show is not shown to be absent.")
        + "\n\n")


def section_timing(ctx, deals: pd.DataFrame, matches: pd.DataFrame, number: int) -> str:
    d = deals.set_index(["scale", "policy"])
    m = matches.set_index(["scale", "policy"])
    rows = []
    for scale in SCALE_NAMES:
        for policy in TIMING[1:]:
            r, mm = d.loc[(scale, policy)], m.loc[(scale, policy)]
            rows.append([scale, f"`{policy}`", fmt(est(r, "points"), "diff", 2),
                         fmt(est(r, "win"), "pp", 2), fmt(est(mm, "win"), "pp", 2)])
    return (
        f"## {number}. Hold or dump, and when to play the eights\n\n"
        "**Design (policy substitution, a matched pair).** The focal seat plays `expert` "
        "(keeps its eights for the end) or a variant that differs from it only in when it "
        "plays an eight: `expert:eights=dump` plays one whenever it is legal, "
        "`expert:eights=K` once its hand has at most K cards. The other three seats play "
        "`expert`; the same deals and random numbers for every focal policy, each seat focal "
        f"in turn (seed + seat). {ctx.counts['timing_deals']:,} deals and "
        f"{ctx.counts['timing_matches']:,} matches to 100 per focal seat, four players. "
        "Differences are `expert` (holding) − the variant, as in claims.md's claim 4: "
        "Δ points < 0 and Δ win > 0 mean holding pays.\n\n"
        + format_table(["scale", "against", "Δ points per deal", "Δ deal win",
                        "Δ match win"], rows, "llrrr") + "\n" + timing_words(deals, matches))


def timing_words(deals: pd.DataFrame, matches: pd.DataFrame) -> str:
    """What the hold-or-dump table says, per scale, read off its intervals."""
    d = deals.set_index(["scale", "policy"])
    m = matches.set_index(["scale", "policy"])
    lines, ordered = [], True
    for scale in SCALE_NAMES:
        better = [p for p in TIMING[1:]
                  if d.loc[(scale, p), "win_low"] > 0 and m.loc[(scale, p), "win_low"] > 0]
        wins = [d.loc[(scale, p), "win"] for p in TIMING[2:]]  # K = 3, 4, 5, 7
        ordered &= len(better) == len(TIMING) - 1 and all(np.diff(wins) > 0)
        pts = est(d.loc[(scale, "expert:eights=dump")], "points")
        holding = ("saves" if pts.high < 0 else "costs" if pts.low > 0 else
                   "does not measurably change")
        lines.append(f"- `{scale}`: holding wins more deals and more matches than {len(better)} "
                     f"of {len(TIMING) - 1} variants (both intervals above 0); against dumping "
                     f"it {holding} penalty points ({fmt(pts, 'diff', 2)} per deal).")
    text = "\n".join(lines) + "\n\n"
    if ordered:
        text += ("On every scale, the earlier the eights are released (larger K), the more "
                 "deals holding wins over it: holding them to the end pays in deals and "
                 "matches whatever it does to the points.\n\n")
    return text
