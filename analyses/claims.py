"""reports/claims.md: every claim of RULES.md §4 with its evidence and a verdict.

    python analyses/claims.py --out reports/claims.md [--quick]
"""

from __future__ import annotations

import common
import matplotlib.pyplot as plt
import numpy as np

from vandatta_sim.report.designs import (card_values, compare_policies, focal_outcomes,
                                         focal_outcomes_many, head_to_head, skill_per_game,
                                         swap_effects, swap_pairs)
from vandatta_sim.report.markdown import column_estimate, fmt, row_estimate
from vandatta_sim.report.measures import deal_summary, most_eights_seat
from vandatta_sim.report.runner import make_config
from vandatta_sim.report.variants import single
from vandatta_sim.report.verdicts import (CONTRADICTED, SUPPORTED, UNCLEAR, claim_verdict,
                                          combine_verdicts, direction, holding_verdict)
from vandatta_sim.rules import PRESETS
from vandatta_sim.stats import (Estimate, independent_difference, paired_difference, proportion,
                                relative_change)
from vandatta_sim.tables import format_table

STD = PRESETS["standard"]
P4 = 4
#: A deal is "much" shorter/longer when the relative change is beyond 10 %.
MUCH = 0.10
#: The talon runs out "rarely" when it does so in fewer than 10 % of deals.
RARELY = 0.10
DRAW_LIMITS = (0, 1, 2, 3, 4, 5)


class Claim:
    def __init__(self, number: int, source: str, text: str):
        self.number, self.source, self.text = number, source, text
        self.parts: list[tuple[str, str]] = []  # (what, verdict)
        self.body = ""
        self.overall: str | None = None

    def part(self, what: str, verdict: str) -> str:
        self.parts.append((what, verdict))
        return verdict

    @property
    def anchor(self) -> str:
        """GitHub's anchor of the section heading."""
        title = f"{self.number}. {self.text}".lower()
        keep = "".join(ch for ch in title if ch.isalnum() or ch in " -_")
        return keep.replace(" ", "-")

    def tally(self) -> str:
        counts = [(sum(v == kind for _, v in self.parts), word) for kind, word in
                  ((SUPPORTED, "supported"), (CONTRADICTED, "contradicted"),
                   (UNCLEAR, "not distinguishable"))]
        return ", ".join(f"{n} {word}" for n, word in counts if n)

    @property
    def verdict(self) -> str:
        return self.overall or combine_verdicts(v for _, v in self.parts)

    def render(self) -> str:
        out = f"## {self.number}. {self.text}\n\n*Source: {self.source}.*\n\n{self.body}\n"
        if self.parts:
            out += format_table(["part of the claim", "verdict"], self.parts, "ll")
        return out + f"\n**Verdict: {self.verdict}.**\n\n"


def fp(est, kind="pct", digits=1):
    return fmt(est, kind, digits)


# ------------------------------------------------------------------------------------------------
def claim_forhand(ctx, data) -> Claim:
    c = Claim(1, "002", "Moving first is a small but real advantage, most of all with two "
                        "players")
    adv = {p: data["forhand"][p]["forhand_adv"] for p in common.PLAYERS}
    rows = [[p, fp(data["forhand"][p]["forhand_win"], "pct", 2),
             fp(data["forhand"][p]["won"], "pct", 2), fp(adv[p], "pp", 2),
             fmt(data["forhand"][p]["relative_adv"], "rel", 1)] for p in common.PLAYERS]
    c.body = (
        f"Standard rules, single deals, all seats `expert`, {ctx.counts['forhand_deals']:,} "
        "deals per table size. Förhand's advantage is P(förhand wins) minus its fair share "
        "P(the deal is won) / players (per deal: 1[förhand wins] − 1[someone wins] / players, "
        "a mean with a normal interval); *relative* divides it by the fair share.\n\n"
        + format_table(["players", "P(förhand wins)", "P(deal is won)", "advantage",
                       "relative advantage"], rows) + "\n")
    for p in common.PLAYERS:
        c.part(f"advantage > 0 with {p} players ({fp(adv[p], 'pp', 2)})",
               claim_verdict(adv[p], +1))
    cmp_rows = []
    for p in common.PLAYERS[1:]:
        d = independent_difference(adv[2], adv[p])
        cmp_rows.append([f"2 − {p} players", fp(d, "pp", 2)])
        c.part(f"larger with 2 players than with {p} ({fp(d, 'pp', 2)})", claim_verdict(d, +1))
    c.body += ("Differences of the advantage between table sizes (independent samples):\n\n"
               + format_table(["comparison", "Δ advantage"], cmp_rows) + "\n")
    c.body += data["fig_forhand"] + "\n"
    return c


def claim_stacking(ctx, data) -> Claim:
    c = Claim(2, "002", "Stacking makes deals much shorter and makes luck of the deal count "
                        "more than skill")
    rel = relative_change(data["deals"]["stacking"]["turns"], data["deals"]["standard"]["turns"])
    d_skill = paired_difference(data["skill"]["stacking"], data["skill"]["standard"])
    s_std = data["skill_cmp"]["standard"]
    s_stk = data["skill_cmp"]["stacking"]
    c.body = (
        f"Standard against `stacking=true`, 4 players, single deals on the same seeds "
        f"({ctx.counts['claim_deals']:,} deals each, all `expert`): mean turns "
        f"{fp(data['summary']['standard']['turns'], 'num')} against "
        f"{fp(data['summary']['stacking']['turns'], 'num')}, relative change "
        f"{fp(rel, 'rel')} (paired). *Much shorter* is read as more than {MUCH:.0%} "
        "shorter.\n\n"
        "Skill is the focal seat's chance to win with `expert` minus with `random`, the other "
        f"three `random`, same deals ({ctx.counts['claim_skill']:,} deals per focal seat and "
        f"policy): standard {fp(s_std['win'], 'pp')}, stacking {fp(s_stk['win'], 'pp')}; "
        f"difference stacking − standard {fp(d_skill, 'pp')} (paired per deal).\n\n")
    c.part(f"deals more than {MUCH:.0%} shorter (turns {fp(rel, 'rel')})",
           claim_verdict(rel, -1, -MUCH))
    c.part(f"skill counts less (Δ skill {fp(d_skill, 'pp')})", claim_verdict(d_skill, -1))
    return c


def claim_draw_limit(ctx, data) -> Claim:
    c = Claim(3, "002", "A draw limit of 3 keeps deals short compared with drawing until a "
                        "card fits; drawing only one is fastest")
    deals = data["deals"]
    rows = []
    for k in DRAW_LIMITS:
        name = f"draw_limit={k}"
        s = data["summary"][name]
        d = relative_change(deals[name]["turns"], deals["standard"]["turns"])
        da = relative_change(deals[name]["actions"], deals["standard"]["actions"])
        rows.append([k if k else "0 (until a card fits)", fp(s["turns"], "num"),
                     "–" if k == 3 else fp(d, "rel"), fp(s["actions"], "num"),
                     "–" if k == 3 else fp(da, "rel")])
    c.body = (
        f"Standard rules with each draw limit, 4 players, single deals on the same seeds "
        f"({ctx.counts['claim_deals']:,} each, all `expert`). Length in turns (one player's "
        "move) and in actions (cards played plus cards drawn); changes are relative to the "
        "limit 3, paired per deal.\n\n"
        + format_table(["draw limit", "turns/deal", "Δ turns vs 3", "actions/deal",
                       "Δ actions vs 3"], rows) + "\n" + data["fig_length"] + "\n")
    r30 = relative_change(deals["standard"]["turns"], deals["draw_limit=0"]["turns"])
    c.part(f"limit 3 shorter than drawing until a card fits (turns {fp(r30, 'rel')})",
           claim_verdict(r30, -1))
    for k in DRAW_LIMITS:
        if k == 1:
            continue
        name = "standard" if k == 3 else f"draw_limit={k}"
        r = relative_change(deals["draw_limit=1"]["turns"], deals[name]["turns"])
        c.part(f"limit 1 shorter than limit {k} (turns {fp(r, 'rel')})", claim_verdict(r, -1))
    return c


def claim_eight_fifty(ctx, data) -> Claim:
    c = Claim(4, "002", "With an eight worth 50 it is almost always right to dump the eight "
                        "early; on the Swedish scale holding it pays")
    d = data["h2h_deals"].set_index(["scale", "players", "holder"])
    m = data["h2h_matches"].set_index(["scale", "players", "holder"])
    rows = []
    pts, win = {}, {}
    for scale in ("crazy_eights", "hundred"):
        for p in common.PLAYERS:
            r, mm = d.loc[(scale, p, "greedy")], m.loc[(scale, p, "greedy")]
            pts[(scale, p)] = row_estimate(r, "points")
            win[(scale, p)] = row_estimate(mm, "win")
            rows.append([scale, p, fp(pts[(scale, p)], "diff", 2), fp(win[(scale, p)], "pp", 2),
                         holding_verdict(pts[(scale, p)], win[(scale, p)])])
    c.body = (
        "The focal seat plays `greedy` (keeps its eights until nothing else fits) or "
        "`eight-dumper` (the same, but plays an eight whenever one is legal) against three "
        "`expert` opponents, on the same deals (policy substitution, focal seat rotating; "
        "see [eight-value.md](eight-value.md) §4 for `expert` as the holder and the `base` "
        f"scale). {ctx.counts['h2h_deals']:,} deals and {ctx.counts['h2h_matches']:,} matches "
        "to 100 per focal seat and policy. Holder − dumper: Δ points < 0 (fewer penalty points "
        "per deal) and Δ match win > 0 mean holding pays.\n\n"
        + format_table(["scale", "players", "Δ points/deal", "Δ P(win match)",
                       "which pays"], rows, "llrrl") + "\n"
        "The claim is read on both measures: the expected penalty per deal (the reason the "
        "source gives: an eight of 50 is expensive to be caught with) and the chance to win "
        "the match (what \"right\" means in a game played to 100). *Almost always* is read "
        "as: significantly in the claimed direction at three or four of the four table sizes "
        "and in the other direction at none; the part is contradicted when the other choice "
        "is significantly better at two or more.\n\n")

    def side(values, scale, sign):
        """sign +1: the claim says holding pays; -1: dumping pays (values are holder − dumper
        with 'larger is better for the holder' orientation)."""
        dirs = [direction(values[(scale, p)]) * sign for p in common.PLAYERS]
        if sum(x == 1 for x in dirs) >= 3 and -1 not in dirs:
            return SUPPORTED
        if sum(x == -1 for x in dirs) >= 2:
            return CONTRADICTED
        return UNCLEAR

    neg_pts = {k: Estimate(-v.value, -v.high, -v.low, v.n) for k, v in pts.items()}
    c.part("eight = 50 (`crazy_eights`): dumping lowers the penalty points per deal",
           side(neg_pts, "crazy_eights", -1))
    c.part("eight = 50 (`crazy_eights`): dumping wins more matches", side(win, "crazy_eights", -1))
    c.part("Swedish scale (`hundred`): holding lowers the penalty points per deal",
           side(neg_pts, "hundred", +1))
    c.part("Swedish scale (`hundred`): holding wins more matches", side(win, "hundred", +1))
    return c


def claim_eight_stacks(ctx, data) -> Claim:
    c = Claim(5, "002", "Stacking eights without the ban on going out on specials makes "
                        "whoever saved most eights win")
    e = data["eights"]
    rows = [[name, fp(e["most"][name], "pct"), fp(e["eight"][name], "pp"),
             fp(e["skill"][name], "pp")] for name in e["names"]]
    d_most = e["d_most"]
    d_eight = e["d_eight"]
    d_skill = e["d_skill"]
    c.body = (
        "Seed 002's own rules (`seed002`: a hand of only specials may play) as the base, 4 "
        "players, single deals on the same seeds. *Ban* = `stacking=true`; *no ban* = "
        "`stacking=true, out_on_special=true`. All seats play `greedy`, which saves its eights "
        "for last and stacks them (the `expert` never stacks eights). Measures: how often the "
        "seat dealt strictly the most eights wins; the swap-experiment value of one more eight "
        f"(Δ P(win), {ctx.counts['claim_swap']:,} deals per run); and skill (`expert` − "
        f"`random` focal seat against `random`, {ctx.counts['claim_skill']:,} deals per focal "
        "seat and policy).\n\n"
        + format_table(["rules", "P(most-eights seat wins)", "value of one more eight",
                       "skill"], rows) + "\n"
        f"No ban − ban (paired per deal): most-eights seat wins {fp(d_most, 'pp')}; value of "
        f"an eight {fp(d_eight, 'pp')}; skill {fp(d_skill, 'pp')}. The claim is read both "
        "as a direction (the most eights win more often, eights are worth more, skill less) "
        "and literally (the seat with the most eights wins, i.e. more than half the deals; "
        "the seat dealt the most stands in for the one that saved the most).\n\n")
    noban = e["names"][1]
    c.part(f"the seat with most eights wins more often without the ban ({fp(d_most, 'pp')})",
           claim_verdict(d_most, +1))
    c.part("without the ban the seat with most eights wins most deals (over half: "
           f"{fp(e['most'][noban], 'pct')})", claim_verdict(e["most"][noban], +1, 0.5))
    c.part(f"an eight is worth more without the ban ({fp(d_eight, 'pp')})",
           claim_verdict(d_eight, +1))
    c.part(f"skill counts less without the ban ({fp(d_skill, 'pp')})",
           claim_verdict(d_skill, -1))
    return c


def claim_last_card(ctx, data) -> Claim:
    c = Claim(6, "002", "The \"last card in the start suit\" rule lengthens deals considerably")
    rel = relative_change(data["deals"]["last_card"]["turns"],
                          data["deals"]["standard"]["turns"])
    c.body = (
        f"Standard against `last_card_start_suit=true`, 4 players, single deals on the same "
        f"seeds ({ctx.counts['claim_deals']:,} each, all `expert`): mean turns "
        f"{fp(data['summary']['standard']['turns'], 'num')} against "
        f"{fp(data['summary']['last_card']['turns'], 'num')}; relative change {fp(rel, 'rel')} "
        f"(paired). *Considerably* is read as more than {MUCH:.0%} longer.\n\n")
    c.part(f"deals more than {MUCH:.0%} longer ({fp(rel, 'rel')})",
           claim_verdict(rel, +1, MUCH))
    return c


def claim_talon(ctx, data) -> Claim:
    c = Claim(7, "000, 002", "The talon rarely runs out with 3–5 players")
    rows = [[p, fp(data["forhand"][p]["reshuffled"], "pct", 1),
             fp(data["forhand"][p]["reshuffles"], "num", 2)] for p in common.PLAYERS]
    c.body = (
        f"Standard rules (unlimited reshuffles), single deals, all `expert`, "
        f"{ctx.counts['forhand_deals']:,} deals per table size: the share of deals in which the "
        "talon ran out (at least one reshuffle of the discards) and the mean number of "
        f"reshuffles. *Rarely* is read as in fewer than {RARELY:.0%} of deals.\n\n"
        + format_table(["players", "talon ran out", "reshuffles/deal"], rows) + "\n")
    for p in (3, 4, 5):
        est = data["forhand"][p]["reshuffled"]
        c.part(f"{p} players: fewer than {RARELY:.0%} of deals ({fp(est, 'pct')})",
               claim_verdict(est, -1, RARELY))
    return c


def claim_two_aces(ctx, data) -> Claim:
    c = Claim(8, "002", "Two aces of one suit in a row is one of the heaviest combinations")
    t = data["aces"]
    rows = [[what, f"{e.n:,}", fp(e, "pp", 2)] for what, e in t["rows"]]
    c.body = (
        "Two aces of one suit exist only with two decks, and one may follow the other only "
        "where an ace may be played on an ace; so: `standard` with `decks=2, "
        "ace_on_ace=allowed`, 4 players, single deals, all `expert`, "
        f"{ctx.counts['claim_swap']:,} deals per swap run. The swap experiment gives the value "
        "(Δ P(win) of the focal seat) of one more ace and of one more eight, split by how many "
        "the seat was dealt: a second ace against a second eight compares the two special "
        "pairs. (The swap puts in an ace of a random suit, so the pair is of one suit in "
        "about a quarter of the cases; with `ace_on_ace=allowed` any two aces can follow each "
        "other.)\n\n"
        + format_table(["card swapped in", "deals", "Δ P(win)"], rows) + "\n"
        f"Second ace − second eight: {fp(t['diff'], 'pp', 2)} (the two come from different "
        "swap runs on overlapping deals; the interval treats them as independent, which is "
        "approximate).\n\n")
    c.part(f"a second ace is worth more than a second eight ({fp(t['diff'], 'pp', 2)})",
           claim_verdict(t["diff"], +1))
    return c


def claim_heuristics(ctx, data) -> Claim:
    c = Claim(9, "000, 002", "Keep eights for the last third; dump expensive cards early; "
                             "play an ace when an opponent is on one card; name the suit an "
                             "opponent lacks")
    h = data["heuristics"]
    rows = [[label, fp(cmp["points"], "diff", 2), fp(cmp["win"], "pp", 2)]
            for label, cmp in h.items()]
    c.body = (
        "Policy substitution at 4 players, `hundred` scale, single deals: the focal seat plays "
        "one policy or another against three `expert` opponents on the same deals "
        f"({ctx.counts['h2h_deals']:,} deals per focal seat and policy). `greedy` plays its "
        "most expensive legal card but never an eight while something else fits; "
        "`eight-dumper` is `greedy` that plays eights first; `expert` adds the other advice "
        "(an ace kept for an opponent on one card, the suit named that the next player lacks, "
        "long suits, never left with only specials); `random` plays a random legal card.\n\n"
        + format_table(["comparison", "Δ points/deal", "Δ P(win)"], rows) + "\n"
        "The policies bundle the advice, so only *keep eights* is tested on its own "
        "(`greedy` against `eight-dumper`). *Dump expensive cards early* is tested only "
        "together with keeping eights (`greedy` against `random`), and the ace and suit-naming "
        "advice only as part of the `expert` bundle (`expert` against `greedy`). Separate "
        "verdicts on those two would need policies that switch one heuristic off.\n\n")
    keep = h["greedy − eight-dumper (keep eights)"]
    c.part(f"keep eights (hundred): holding pays ({fp(keep['points'], 'diff', 2)} points, "
           f"{fp(keep['win'], 'pp', 2)})",
           combine_verdicts([claim_verdict(keep["points"], -1),
                             claim_verdict(keep["win"], +1)]))
    g = h["greedy − random (expensive first + keep eights)"]
    c.part(f"expensive cards first, with eights kept: beats random ({fp(g['win'], 'pp', 2)})",
           claim_verdict(g["win"], +1))
    e = h["expert − greedy (ace timing, suit naming, …)"]
    c.part(f"the expert's further advice as a bundle beats greedy ({fp(e['win'], 'pp', 2)})",
           claim_verdict(e["win"], +1))
    return c


def claim_two_players(ctx, data) -> Claim:
    c = Claim(10, "000", "Two players makes the specials weaker and the game less strategic")
    t = data["two"]
    rows = [[p, fp(t["eight"][p], "rel"), fp(t["ace"][p], "rel"), fp(t["skill_abs"][p], "pp"),
             fp(t["skill"][p], "rel")] for p in common.PLAYERS]
    c.body = (
        "Strength is measured relative to the seat's own win rate, because a fair share is "
        "1/2 with two players and 1/4 with four. *Value of a special*: the relative change of "
        "the focal seat's win rate when one ordinary card is swapped for an eight or an ace "
        f"(`hundred` scale, `expert` everywhere, {ctx.counts['swap_deals']:,} deals per run, "
        "as in [eight-value.md](eight-value.md)). *Skill*: the win rate of an `expert` focal "
        "seat relative to a `random` one in the same seat on the same deals, the others "
        f"`random` ({ctx.counts['claim_skill']:,} deals per focal seat and policy); the "
        "absolute difference is shown too.\n\n"
        + format_table(["players", "one more eight", "one more ace", "skill (Δ P(win))",
                       "skill (relative)"], rows) + "\n" + data["fig_two"] + "\n")
    for what, key in (("an eight", "eight"), ("an ace", "ace"), ("skill", "skill")):
        d = independent_difference(t[key][2], t[key][4])
        c.part(f"{what}: weaker with 2 players than with 4 (relative, 2 − 4: {fp(d, 'rel')})",
               claim_verdict(d, -1))
    rel = independent_difference(t["skill"][2], t["skill"][4])
    ab = independent_difference(t["skill_abs"][2], t["skill_abs"][4])
    if direction(rel) and direction(ab) and direction(rel) != direction(ab):
        c.body += (f"Note: in absolute terms the skill gain points the other way (2 − 4 "
                   f"players: {fp(ab, 'pp')}), so the verdict on skill depends on measuring it "
                   "relative to the fair share, as above.\n\n")
    return c


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
    outs = focal_outcomes_many(runner, [single(STD, players=P4),
                                        single(STD.replace(stacking=True), players=P4)],
                               ("expert", "random"), "random", counts["claim_skill"],
                               seeds["claim_skill"])
    data["skill"] = {n: skill_per_game(o) for n, o in zip(("standard", "stacking"), outs)}
    data["skill_cmp"] = {n: compare_policies(o, "expert", "random")
                         for n, o in zip(("standard", "stacking"), outs)}

    ctx.log("hold vs dump (shared with eight-value)")
    for key, match in (("h2h_deals", False), ("h2h_matches", True)):
        data[key] = head_to_head(runner, common.PLAYERS, match, counts[key], seeds[key],
                                 common.POLICY, ctx.log)

    ctx.log("stacked eights without the ban")
    data["eights"] = run_eights(ctx)

    ctx.log("two aces")
    data["aces"] = run_aces(ctx)

    ctx.log("heuristics")
    pols = ("expert", "greedy", "eight-dumper", "random")
    out = focal_outcomes(runner, single(STD, players=P4, scale="hundred"), pols,
                         common.POLICY, counts["h2h_deals"], seeds["h2h_deals"])
    data["heuristics"] = {
        "greedy − eight-dumper (keep eights)": compare_policies(out, "greedy", "eight-dumper"),
        "greedy − random (expensive first + keep eights)": compare_policies(out, "greedy",
                                                                            "random"),
        "expert − greedy (ace timing, suit naming, …)": compare_policies(out, "expert",
                                                                         "greedy"),
        "expert − random (all advice)": compare_policies(out, "expert", "random"),
    }

    ctx.log("two players: specials and skill per table size")
    two = {"eight": {}, "ace": {}, "skill": {}, "skill_abs": {}}
    for p in common.PLAYERS:
        rules = single(STD, players=p, scale="hundred")
        cv = card_values(runner, rules, ("8", "A"), counts["swap_deals"], seeds["swap_deals"],
                         common.POLICY).set_index("rank")
        two["eight"][p] = column_estimate(cv.loc["8"], "relative_win", int(cv.loc["8", "n"]))
        two["ace"][p] = column_estimate(cv.loc["A"], "relative_win", int(cv.loc["A", "n"]))
        o = focal_outcomes(runner, single(STD, players=p), ("expert", "random"), "random",
                           counts["claim_skill"], seeds["claim_skill"])
        cmp = compare_policies(o, "expert", "random")
        two["skill"][p], two["skill_abs"][p] = cmp["relative_win"], cmp["win"]
    data["two"] = two
    return data


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
        out = focal_outcomes(runner, rules, ("expert", "random"), "random",
                             counts["claim_skill"], seeds["claim_skill"])
        res["skill"][name] = compare_policies(out, "expert", "random")["win"]
        skill_games[name] = skill_per_game(out)
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
    base, sa, s8 = ctx.runner.run([make_config(rules, common.POLICY),
                                   make_config(rules, common.POLICY, swap="A"),
                                   make_config(rules, common.POLICY, swap="8")],
                                  ctx.counts["claim_swap"], ctx.seeds["claim_swap"])
    pa, p8 = swap_pairs(base, sa, P4), swap_pairs(base, s8, P4)
    rows = []
    effects = {}
    for label, pairs, column in (("ace", pa, "aces_base"), ("eight", p8, "eights_base")):
        for held, word in ((0, "first"), (1, "second")):
            sub = pairs[pairs[column] == held]
            e = swap_effects(sub)["win"]
            effects[(label, held)] = e
            rows.append((f"{word} {label} (seat dealt {held})", e))
    return {"rows": rows,
            "diff": independent_difference(effects[("ace", 1)], effects[("eight", 1)])}


# ------------------------------------------------------------------------------------------------
def figures(ctx, data) -> None:
    # förhand and talon
    fig, axes = plt.subplots(1, 2, figsize=(10, 3.8))
    x = np.array(common.PLAYERS)
    common.errorbars(axes[0], x, [data["forhand"][p]["forhand_adv"] for p in x], 100,
                     color=common.COLORS[0], label="förhand − fair share")
    axes[0].axhline(0, color="black", linewidth=0.8)
    axes[0].set_title("Förhand advantage (standard, expert)")
    axes[0].set_ylabel("P(förhand wins) − fair share (percentage points)")
    common.errorbars(axes[1], x, [data["forhand"][p]["reshuffled"] for p in x], 100,
                     color=common.COLORS[1], label="deals where the talon ran out")
    axes[1].axhline(100 * RARELY, color="grey", linestyle="--", linewidth=0.8,
                    label=f"'rarely' threshold ({RARELY:.0%})")
    axes[1].set_title("Talon running out (standard, expert)")
    axes[1].set_ylabel("share of deals (%)")
    axes[1].set_ylim(0, 100)
    for ax in axes:
        ax.set_xlabel("players at the table")
        ax.set_xticks(x)
        ax.legend(fontsize=8)
    fig.tight_layout()
    data["fig_forhand"] = common.save(fig, ctx, "claims-forhand-talon",
                                      "Förhand advantage and talon running out per number of "
                                      "players, with 95% intervals")
    # deal length
    fig, axes = plt.subplots(1, 2, figsize=(11, 3.8))
    ks = np.array(DRAW_LIMITS)
    for i, key in enumerate(("turns", "actions")):
        common.errorbars(axes[i], ks, [data["summary"][f"draw_limit={k}"][key] for k in ks], 1,
                         color=common.COLORS[0], label="draw limit (standard otherwise)")
        for j, (name, label) in enumerate((("stacking", "stacking=true"),
                                           ("last_card", "last_card_start_suit=true"))):
            common.errorbars(axes[i], [3 + 0.15 * (j + 1)], [data["summary"][name][key]], 1,
                             color=common.COLORS[j + 1], fmt="s", label=f"{label} (limit 3)")
        axes[i].set_title(f"Deal length in {key} (4 players, expert)")
        axes[i].set_xlabel("draw limit (cards; 0 = until a card fits)")
        axes[i].set_ylabel(f"mean {key} per deal ({key})")
        axes[i].set_xticks(ks)
        axes[i].legend(fontsize=7)
    fig.tight_layout()
    data["fig_length"] = common.save(fig, ctx, "claims-deal-length",
                                     "Mean deal length per draw limit, stacking and last-card "
                                     "rule, with 95% intervals")
    # two players
    t = data["two"]
    fig, ax = plt.subplots(figsize=(7, 3.8))
    for i, (key, label) in enumerate((("eight", "one more eight"), ("ace", "one more ace"),
                                      ("skill", "expert instead of random"))):
        common.errorbars(ax, x + (i - 1) * 0.08, [t[key][p] for p in x], 100,
                         color=common.COLORS[i], label=label)
    ax.axhline(0, color="black", linewidth=0.8)
    ax.set_title("Relative change of the win rate per table size")
    ax.set_xlabel("players at the table")
    ax.set_ylabel("relative change of P(win) (%)")
    ax.set_xticks(x)
    ax.legend(fontsize=8)
    fig.tight_layout()
    data["fig_two"] = common.save(fig, ctx, "claims-two-players",
                                  "Relative value of an eight, an ace and skill per number of "
                                  "players, with 95% intervals")


def main() -> None:
    args = common.parse_args(__doc__.splitlines()[0], "reports/claims.md")
    ctx = common.Context(args, "claims")
    data = run(ctx)
    figures(ctx, data)
    claims = [claim_forhand(ctx, data), claim_stacking(ctx, data), claim_draw_limit(ctx, data),
              claim_eight_fifty(ctx, data), claim_eight_stacks(ctx, data),
              claim_last_card(ctx, data), claim_talon(ctx, data), claim_two_aces(ctx, data),
              claim_heuristics(ctx, data), claim_two_players(ctx, data)]
    text = common.header("The claims of the sources, tested", ctx, "claims.py")
    text += (
        "Each claim listed in RULES.md §4, the evidence for it and a verdict: **supported** "
        "(the 95 % interval lies on the claimed side), **contradicted** (it lies on the other "
        f"side) or **{UNCLEAR}** (it contains the boundary). A claim made of several parts "
        "is supported only if every part is and contradicted if any part is. Where a claim "
        "says *much* or *rarely*, the threshold used is stated with it. All comparisons of "
        "rules or policies are paired: the same seeds and game indices, so the same deals and "
        "random numbers.\n\n")
    text += format_table(["#", "claim", "source", "verdict", "parts"],
                         [[f"[{c.number}](#{c.anchor})", c.text, c.source,
                           f"**{c.verdict}**", c.tally()] for c in claims],
                         "rllll") + "\n"
    text += "".join(c.render() for c in claims)
    ctx.write(text)


if __name__ == "__main__":
    main()
