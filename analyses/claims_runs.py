"""Measurements of reports/claims.md: the games each claim is tested on, and what they give.

The constants at the top (the rule sets and table size, the practical thresholds, the hold or
dump design and its timing policies) are shared with the claims' text (``claims.py``) and the
figures (``claims_figures.py``), which import them from here so each is stated once.
"""

from __future__ import annotations

import common
import numpy as np

from vandatta_sim.experiments.designs import (card_values, compare_policies, focal_outcomes,
                                         skill_comparisons, skill_per_game, swap_effects,
                                         swap_pairs)
from vandatta_sim.stats import column_estimate
from vandatta_sim.experiments.measures import (SKILLED, STRONGEST, UNSKILLED, deal_summary,
                                          most_eights_seat, same_suit_swaps)
from vandatta_sim.experiments.runner import make_config
from vandatta_sim.experiments.variants import single
from vandatta_sim.rules import PRESETS
from vandatta_sim.simulate import SimulationError, check_policy
from vandatta_sim.stats import (independent_difference, log_odds_change, paired_difference,
                                proportion, relative_change)

STD = PRESETS["standard"]
P4 = 4
DRAW_LIMITS = (0, 1, 2, 3, 4, 5)

# --- practical thresholds: what the claims' words mean as numbers. A verdict compares the
# (Holm-adjusted) interval with the threshold and with the margin around it; see verdicts.py.
#: "Much shorter", "considerably longer": the relative change of the mean length beyond 10 %.
MUCH = 0.10
#: "Rarely": in fewer than 10 % of deals.
RARELY = 0.10
#: "Shorter", "fastest" without "much": a relative change of the length that counts, 5 %.
LENGTH_MARGIN = 0.05
#: "A real advantage" (förhand) and "larger with two players": a quarter percentage point.
ADVANTAGE_MARGIN = 0.0025
#: "Pays", "worth more", "counts less" in win rate (deal or match): one percentage point.
WIN_MARGIN = 0.01
#: "Fewer penalty points": half a point per deal.
POINTS_MARGIN = 0.5
#: "Weaker" in relative terms (value of a special, skill relative to the fair share): 5 %.
RELATIVE_MARGIN = 0.05
#: Each claim is judged on one primary measure; the others are a sensitivity check, with the
#: primary margin translated to them at this reference win rate (a fair share at 4 players):
#: absolute m <-> relative m / r <-> log-odds m / (r (1 - r)).
REFERENCE_RATE = 0.25


def margins(absolute: float | None = None, relative: float | None = None) -> dict[str, float]:
    """One margin on all three measures, given on one of them (absolute or relative)."""
    r = REFERENCE_RATE
    absolute = relative * r if absolute is None else absolute
    return {"absolute": absolute, "relative": absolute / r, "log-odds": absolute / (r * (1 - r))}

# --- hold or dump: the matched pair (the expert in every respect but its eights), and the
# timing policies: the expert plays an eight whenever one is legal once its hand has at most K
# cards. The hand starts with 7 cards, so its last third is at most LAST_THIRD cards.
HOLD, DUMP = "expert", "expert:eights=dump"
TIMING_KS = (1, 2, 3, 4, 5)
LAST_THIRD = 2
#: ... and its middle third 3 to 4 cards (releasing the eights then is "too early").
MIDDLE_THIRD = (3, 4)
HOLD_DUMP_SCALES = ("crazy_eights", "hundred")


def timing_spec(k: int) -> str:
    """The policy that plays eights once its hand has at most ``k`` cards."""
    return f"expert:eights={k}"


def timing_available() -> bool:
    """Whether the engine offers the timing policies; until it does, the report says so where
    the timing would be tested."""
    try:
        check_policy(timing_spec(LAST_THIRD))
    except SimulationError:
        return False
    return True


def timing_policies() -> tuple[str, ...]:
    """Hold, each timing K, dump: from the latest release of the eights to the earliest (hold
    and dump only while the engine has no timing policies)."""
    ks = TIMING_KS if timing_available() else ()
    return (HOLD, *(timing_spec(k) for k in ks), DUMP)


# ------------------------------------------------------------------------------------------------
def run(ctx) -> dict:
    data: dict = {}
    runner, counts, seeds = ctx.runner, ctx.counts, ctx.seeds

    ctx.log("förhand and talon: standard per table size")
    data["forhand"] = {}
    for p in common.PLAYERS:
        df = runner.one(make_config(single(STD, players=p), common.POLICY),
                        counts["forhand_deals"], seeds["forhand_deals"])
        s = deal_summary(df, p)
        won = df["winner"].to_numpy() >= 0
        s["won"] = proportion(int(won.sum()), len(df))
        s["relative_adv"] = relative_change((df["winner"].to_numpy() == 0) * p, won)
        s["log_odds_adv"] = log_odds_change(df["winner"].to_numpy() == 0, won / p)
        data["forhand"][p] = s

    ctx.log("deal length: stacking, draw limits, last card")
    rule_sets = {"standard": STD, "stacking": STD.replace(stacking=True),
                 "last_card": STD.replace(last_card_start_suit=True)}
    for k in DRAW_LIMITS:
        if k != 3:
            rule_sets[f"draw_limit={k}"] = STD.replace(draw_limit=k)
    names = list(rule_sets)
    dfs = runner.run([make_config(single(r, players=P4), common.POLICY)
                      for r in rule_sets.values()], counts["claim_deals"], seeds["claim_deals"])
    data["deals"], data["summary"] = {}, {}
    for name, df in zip(names, dfs):
        data["deals"][name] = {"turns": df["turns"].to_numpy(np.float64),
                               "actions": (df["plays"] + df["draws"]).to_numpy(np.float64)}
        data["summary"][name] = deal_summary(df, P4)
    data["deals"]["draw_limit=3"] = data["deals"]["standard"]
    data["summary"]["draw_limit=3"] = data["summary"]["standard"]

    ctx.log("skill: standard and stacking")
    data["skill"], data["skill_cmp"] = stacking_skill(ctx, SKILLED, "claim_skill")
    ctx.log(f"skill with {STRONGEST}: standard and stacking (fewer deals)")
    per_game, data["skill_strong"] = stacking_skill(ctx, STRONGEST, "claim_skill_search")
    data["skill_strong_diff"] = paired_difference(per_game["stacking"], per_game["standard"])

    ctx.log("hold or dump: the matched pair, and the timing of the eights")
    data["hold_dump"] = run_hold_dump(ctx)

    ctx.log("stacked eights without the ban")
    data["eights"] = run_eights(ctx)

    ctx.log("two aces")
    data["aces"] = run_aces(ctx)

    ctx.log("heuristics")
    last = timing_spec(LAST_THIRD)
    out = data["hold_dump"]["outcomes"]
    pairs = [(HOLD, DUMP), ("greedy", "random"), ("expert", "greedy"), ("expert", "random")]
    if timing_available():
        pairs[1:1] = [(last, timing_spec(k)) for k in MIDDLE_THIRD]
    data["heuristics"] = {f"{a} − {b}": compare_policies(out, a, b) for a, b in pairs}

    ctx.log("two players: specials and skill per table size")
    two = {"eight": {}, "ace": {}, "skill": {}, "skill_abs": {}, "strong": {},
           "absolute": {}, "log-odds": {}}
    for p in common.PLAYERS:
        rules = single(STD, players=p, scale="hundred")
        cv = card_values(runner, rules, ("8", "A"), counts["swap_deals"], seeds["swap_deals"],
                         common.POLICY).set_index("rank")
        two["eight"][p] = column_estimate(cv.loc["8"], "relative_win", int(cv.loc["8", "n"]))
        two["ace"][p] = column_estimate(cv.loc["A"], "relative_win", int(cv.loc["A", "n"]))
        o = focal_outcomes(runner, single(STD, players=p), (SKILLED, UNSKILLED), UNSKILLED,
                           counts["claim_skill"], seeds["claim_skill"])
        cmp = compare_policies(o, SKILLED, UNSKILLED)
        two["skill"][p], two["skill_abs"][p] = cmp["relative_win"], cmp["win"]
        # the same three comparisons on the other measures (the sensitivity check)
        for measure, column in (("absolute", "win"), ("log-odds", "log_odds_win")):
            two[measure][p] = {
                "eight": column_estimate(cv.loc["8"], column, int(cv.loc["8", "n"])),
                "ace": column_estimate(cv.loc["A"], column, int(cv.loc["A", "n"])),
                "skill": cmp[column]}
        if p in (2, 4):  # the check with stronger play needs only the two sizes compared
            two["strong"][p] = compare_policies(
                focal_outcomes(runner, single(STD, players=p), (STRONGEST, UNSKILLED),
                               UNSKILLED, counts["claim_skill_search"],
                               seeds["claim_skill_search"]), STRONGEST, UNSKILLED)
    data["two"] = two
    return data


def stacking_skill(ctx, skilled: str, count: str) -> tuple[dict, dict]:
    """Skill (``skilled`` against UNSKILLED, the others UNSKILLED) under standard and with
    stacking, 4 players: per game, and as the paired comparison of the two focal policies."""
    skills = skill_comparisons(ctx.runner, [single(STD, players=P4),
                                            single(STD.replace(stacking=True), players=P4)],
                               skilled, UNSKILLED, ctx.counts[count], ctx.seeds[count])
    names = ("standard", "stacking")
    return ({n: per_game for n, (per_game, _) in zip(names, skills)},
            {n: cmp for n, (_, cmp) in zip(names, skills)})


def run_hold_dump(ctx) -> dict:
    """Holder − dumper (the matched pair) per scale and table size, in deals and matches; at 4
    players every timing policy against holding; and at 4 players under `hundred` the focal
    outcomes of every policy claim 9 compares."""
    runner, counts, seeds = ctx.runner, ctx.counts, ctx.seeds
    res: dict = {"deals": {}, "matches": {}, "timing": {}}
    for scale in HOLD_DUMP_SCALES:
        for p in common.PLAYERS:
            rules = single(STD, players=p, scale=scale)
            policies = timing_policies() if p == P4 else (HOLD, DUMP)
            if p == P4 and scale == "hundred":
                policies += ("greedy", UNSKILLED)
            policies = tuple(dict.fromkeys(policies))  # each once (outcomes are keyed by it)
            out = focal_outcomes(runner, rules, policies, common.POLICY, counts["h2h_deals"],
                                 seeds["h2h_deals"])
            res["deals"][(scale, p)] = compare_policies(out, HOLD, DUMP)
            if p == P4:
                res["timing"][scale] = {pol: compare_policies(out, pol, HOLD)
                                        for pol in timing_policies()[1:]}
                if scale == "hundred":
                    res["outcomes"] = out
            match = STD.replace(players=p, scale=scale, match="elimination:100")
            out = focal_outcomes(runner, match, (HOLD, DUMP), common.POLICY,
                                 counts["h2h_matches"], seeds["h2h_matches"])
            res["matches"][(scale, p)] = compare_policies(out, HOLD, DUMP)
    return res


def run_eights(ctx) -> dict:
    base = PRESETS["seed002"].replace(stacking=True)
    sets = {"seed002 + stacking (ban)": base,
            "seed002 + stacking, out_on_special (no ban)": base.replace(out_on_special=True)}
    names = list(sets)
    runner, counts, seeds = ctx.runner, ctx.counts, ctx.seeds
    res = {"names": names, "most": {}, "eight": {}, "skill": {}}
    wins, eight_games, skill_games = {}, {}, {}
    for name, rules in sets.items():
        rules = single(rules, players=P4)
        base_df, swap_df = runner.run([make_config(rules, "greedy"),
                                       make_config(rules, "greedy", swap="8")],
                                      counts["claim_swap"], seeds["claim_swap"])
        seat = most_eights_seat(base_df, P4)
        ok = seat >= 0
        win = base_df["winner"].to_numpy() == seat
        res["most"][name] = proportion(int(win[ok].sum()), int(ok.sum()))
        wins[name] = (ok, win)
        pairs = swap_pairs(base_df, swap_df, P4)
        res["eight"][name] = swap_effects(pairs)["win"]
        eight_games[name] = pairs
        out = focal_outcomes(runner, rules, (SKILLED, UNSKILLED), UNSKILLED,
                             counts["claim_skill"], seeds["claim_skill"])
        res["skill"][name] = compare_policies(out, SKILLED, UNSKILLED)["win"]
        skill_games[name] = skill_per_game(out, SKILLED, UNSKILLED)
    ban, noban = names
    ok = wins[ban][0] & wins[noban][0]
    res["d_most"] = paired_difference(wins[noban][1][ok], wins[ban][1][ok])
    pa, pb = eight_games[noban], eight_games[ban]
    both = pa["swapped"].to_numpy() & pb["swapped"].to_numpy()
    effect_a = (pa["win_swap"].to_numpy(float) - pa["win_base"].to_numpy(float))[both]
    effect_b = (pb["win_swap"].to_numpy(float) - pb["win_base"].to_numpy(float))[both]
    res["d_eight"] = paired_difference(effect_a, effect_b)
    res["d_skill"] = paired_difference(skill_games[noban], skill_games[ban])
    return res


def run_aces(ctx) -> dict:
    rules = single(STD, players=P4, decks=2, ace_on_ace="allowed")
    seed = ctx.seeds["claim_swap"]
    base, sa, s8 = ctx.runner.run([make_config(rules, common.POLICY),
                                   make_config(rules, common.POLICY, swap="A"),
                                   make_config(rules, common.POLICY, swap="8")],
                                  ctx.counts["claim_swap"], seed)
    pa, p8 = swap_pairs(base, sa, P4), swap_pairs(base, s8, P4)
    rows = []
    effects = {}
    for label, pairs, column in (("ace", pa, "aces_base"), ("eight", p8, "eights_base")):
        for held, word in ((0, "first"), (1, "second")):
            sub = pairs[pairs[column] == held]
            e = swap_effects(sub)["win"]
            effects[(label, held)] = e
            rows.append((f"{word} {label} (seat dealt {held})", e))
    second = pa[(pa["aces_base"] == 1) & pa["swapped"]]
    ctx.log(f"two aces: reading the suits of {len(second):,} swapped deals")
    same = same_suit_swaps(rules, seed, second["game"].to_numpy(), [common.POLICY] * P4)
    one_suit = swap_effects(second[same])["win"]
    two_suits = swap_effects(second[~same])["win"]
    rows[2:2] = [("second ace of the same suit (a pair of one suit)", one_suit),
                 ("second ace of another suit", two_suits)]
    return {"rows": rows, "same_share": proportion(int(same.sum()), len(same)),
            "same_vs_other": independent_difference(one_suit, two_suits),
            "same_vs_eight": independent_difference(one_suit, effects[("eight", 1)])}
