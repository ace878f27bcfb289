"""reports/variants.md: how the presets and the single house rules compare.

    python analyses/variants.py --out reports/variants.md [--quick]
"""

from __future__ import annotations

import common
import matplotlib.pyplot as plt
import numpy as np
from matplotlib.lines import Line2D

from vandatta_sim.experiments.designs import skill_comparisons
from vandatta_sim.formatting import format_estimate as fmt
from vandatta_sim.plots import (mark_beyond, needs_log_axis, outlier_limit, plain_log_axis,
                                quantile_rows)
from vandatta_sim.experiments.measures import (SKILLED, STRONGEST, UNSKILLED, deal_summary,
                                          forhand_advantage, match_summary, mean_points,
                                          quantiles)
from vandatta_sim.experiments.runner import make_config
from vandatta_sim.experiments.variants import CALL_FORGET, Variant, single
from vandatta_sim.experiments.variants import variants as all_variants
from vandatta_sim.experiments.verdicts import CONTRADICTED, SUPPORTED, claim_verdict
from vandatta_sim.simulate import simulate
from vandatta_sim.stats import Estimate, detectable_difference, mean_interval, paired_difference
from vandatta_sim.sweep.summary import FEEL_MEASURES, feel_values
from vandatta_sim.formatting import format_table

MAIN_PLAYERS = 4
LENGTHS = ("turns", "plays", "draws")


def run_all(ctx: common.Context, variants: list[Variant]) -> dict:
    """Every measurement of every variant, reduced to Estimates, histograms and the per-game
    arrays needed for paired comparisons with the baseline variant."""
    res: dict = {v.name: {"forhand": {}} for v in variants}
    n_deals = ctx.counts["variant_deals"]
    for players in common.PLAYERS:
        ctx.log(f"single deals, {players} players ({len(variants)} variants)")
        configs = [make_config(single(v.rules, players=players), common.POLICY,
                               forget=v.forget, label=v.name) for v in variants]
        for v, df in zip(variants, ctx.runner.run(configs, n_deals, ctx.seeds["variant_deals"])):
            r = res[v.name]
            r["forhand"][players] = forhand_advantage(df, players)
            if players == MAIN_PLAYERS:
                r["deal"] = deal_summary(df, players)
                r["arrays"] = {k: df[k].to_numpy(np.int64) for k in LENGTHS}
                r["arrays"]["points"] = mean_points(df)
                r["feel"] = feel_values(with_feel(df, v, players, n_deals,
                                                  ctx.seeds["variant_deals"]), players)
    ctx.log("matches to 100")
    configs = [make_config(v.rules.replace(players=MAIN_PLAYERS, match="elimination:100"),
                           common.POLICY, forget=v.forget, label=v.name) for v in variants]
    for v, df in zip(variants, ctx.runner.run(configs, ctx.counts["variant_matches"],
                                              ctx.seeds["variant_matches"])):
        res[v.name]["match"] = match_summary(df)
    for v, (per_game, cmp) in zip(variants, skill_of(ctx, variants, SKILLED, "variant_skill")):
        res[v.name]["skill"], res[v.name]["skill_games"] = cmp, per_game
    strong = skill_of(ctx, variants, STRONGEST, "variant_skill_search")
    # the random focal seat's games of the strong run are the first games of the expert run
    # (same seeds), so search − expert is paired on them: (S − R) − (E − R) = S − E per game
    paired = ctx.seeds["variant_skill_search"] == ctx.seeds["variant_skill"]
    shared = min(ctx.counts["variant_skill_search"], ctx.counts["variant_skill"])
    for v, (per_game, cmp) in zip(variants, strong):
        r = res[v.name]
        r["strong"], r["strong_games"] = cmp, per_game
        r["strong_vs_skilled"] = (paired_difference(
            leading_games(per_game, MAIN_PLAYERS, shared),
            leading_games(r["skill_games"], MAIN_PLAYERS, shared)) if paired else None)
    # paired comparisons with each variant's baseline (same seeds and game indices)
    for v in variants:
        r, b = res[v.name], res[v.baseline]
        r["delta"] = {k: paired_difference(r["arrays"][k], b["arrays"][k])
                      for k in ("turns", "plays", "draws", "points")}
        r["feel_delta"] = {m: paired_difference(r["feel"][m], b["feel"][m]) for m in FEEL}
        r["delta_skill"] = paired_difference(r["skill_games"], b["skill_games"])
        r["delta_strong"] = paired_difference(r["strong_games"], b["strong_games"])
        r["survival"] = (None if v.name == v.baseline
                         else survival(r["delta_skill"], r["delta_strong"]))
    return res


#: The game feel's measures in the report (docs/columns.md, "Game-feel fields"): name, words,
#: decimals, shown as a percentage.
FEEL = tuple(m for m, _, _ in FEEL_MEASURES)
FEEL_WORDS = {"lead_changes": "lead changes/deal", "winner_behind": "winner's worst lag (cards)",
              "comeback_share": "comebacks", "decisiveness": "decisiveness",
              "choice_share": "turns with a choice", "mean_options": "options/turn"}


def with_feel(df, v: Variant, players: int, games: int, seed: int):
    """The games with their game-feel columns: as stored where the store has them, else the
    same games played again by the kernel that records them (game i depends only on the seed
    and i, so they are the stored games; runs stored before the feel was recorded lack it)."""
    if "lead_changes" in df:
        return df
    felt = simulate(single(v.rules, players=players), games, int(seed),
                    policies=common.POLICY, forget=v.forget, feel=True)
    assert (felt["turns"].to_numpy() == df["turns"].to_numpy()).all(), "not the same games"
    return felt


def shown(v: Variant) -> str:
    """A variant's name as the tables show it (presets in code font)."""
    return f"`{v.name}`" if v.group == "preset" else v.name


def feel_table(variants, res) -> str:
    """Per variant each game-feel measure with its 95% interval and its paired difference from
    the variant's baseline (n.s. where that interval holds 0)."""
    header = ["variant"]
    for m in FEEL:
        header += [FEEL_WORDS[m], "Δ"]
    rows = []
    for v in variants:
        r = res[v.name]
        row = [shown(v)]
        for m, _, pct in FEEL_MEASURES:
            digits = 1 if pct else 2
            row.append(fmt(mean_interval(r["feel"][m]), "pct" if pct else "num", digits))
            row.append("–" if v.name == v.baseline else fmt(
                r["feel_delta"][m], "pp" if pct else "diff", digits))
        rows.append(row)
    return format_table(header, rows, "l" + "r" * (len(header) - 1))


def feel_paragraph(variants, res) -> str:
    """The plain words: which single rule or preset moves comebacks and lead changes most
    (among the differences whose interval excludes 0)."""
    out = []
    for m, what in (("comeback_share", "comebacks (deals won by a seat that was last at some "
                                       "point)"),
                    ("lead_changes", "lead changes")):
        moved = [v for v in variants if v.name != v.baseline
                 and res[v.name]["feel_delta"][m].significant]
        if not moved:
            out.append(f"No variant changes {what} distinguishably from its baseline.")
            continue
        up = max(moved, key=lambda v: res[v.name]["feel_delta"][m].value)
        down = min(moved, key=lambda v: res[v.name]["feel_delta"][m].value)
        parts = []
        for v in ([up] if down is up else [up, down]):
            new, old = (float(np.mean(res[n]["feel"][m])) for n in (v.name, v.baseline))
            if m == "comeback_share":
                parts.append(f"with `{v.name}` {what.split(' (')[0]} go from about "
                             f"{100 * old:.0f}% of deals to {100 * new:.0f}%")
            else:
                parts.append(f"with `{v.name}` the lead changes hands about {new:.1f} times a "
                             f"deal instead of {old:.1f}")
            what = what.split(" (")[0]
        parts[0] = parts[0][0].upper() + parts[0][1:]
        out.append("; ".join(parts) + ".")
    out.append("Both have more room in longer deals, so a rule that lengthens the deal moves them "
               "too (the deal lengths are in the summary table).")
    return " ".join(out)


def fig_feel(ctx, variants, res) -> str:
    """One panel per game-feel measure: every variant's estimate with its 95% interval, the
    baseline's value as a line."""
    fig, axes = plt.subplots(1, len(FEEL), figsize=(16, 0.22 * len(variants) + 1.6),
                             sharey=True)
    y = np.arange(len(variants))[::-1]
    for ax, (m, _, pct) in zip(axes, FEEL_MEASURES):
        scale = 100 if pct else 1
        ests = [mean_interval(res[v.name]["feel"][m]) for v in variants]
        v_, err = common._values_and_bars(ests, scale)
        ax.errorbar(v_, y, xerr=err, fmt="o", markersize=3, capsize=2, color=common.COLORS[0])
        ax.axvline(scale * float(np.mean(res["standard"]["feel"][m])), color="black",
                   linewidth=0.8)
        ax.set_title(FEEL_WORDS[m] + (" (%)" if pct else ""), fontsize=9)
        ax.tick_params(labelsize=7)
    axes[0].set_yticks(y)
    axes[0].set_yticklabels([v.name for v in variants], fontsize=7)
    fig.tight_layout()
    return common.save(fig, ctx, "variants-feel", "The game feel of every variant (4 players, "
                       "single deals), each measure with its 95% interval; the line is "
                       "standard's value")


def feel_section(ctx, variants, res) -> str:
    c = ctx.counts
    return (
        "## Game feel\n\n"
        "How the deals *feel* (docs/columns.md, *Game-feel fields*, defines each measure and "
        "its source: Browne's and Ludii's game-evaluation measures with hand size as the "
        "evaluation): *lead changes/deal*: how often the seat holding strictly the fewest cards "
        "changes; *winner's worst lag*: how many cards the eventual winner was behind the "
        "leader at worst; *comebacks*: deals won by a seat that held strictly the most cards "
        "at the end of some turn; *decisiveness*: the share of the deal's turns after which "
        "the winner led to the end (high: decided early); *turns with a choice*: turns whose "
        "first move had two or more options (distinct cards, or drawing where the rules let a "
        "player decline); *options/turn*: their mean number. "
        f"{MAIN_PLAYERS} players, `{common.POLICY}`, the same {c['variant_deals']:,} single "
        "deals per variant as the summary table. Δ: the paired difference from the variant's "
        "baseline with its 95% interval; the multiplicity rule is the summary table's: each "
        "difference is read on its own interval, marked n.s. where it holds 0, with no "
        f"correction across the {len(variants) - 2} variants and {len(FEEL)} measures (so a few "
        "of the smallest marked differences may be chance).\n\n"
        + feel_paragraph(variants, res) + "\n\n"
        + feel_table(variants, res) + "\n\n" + fig_feel(ctx, variants, res) + "\n")


def skill_of(ctx: common.Context, variants: list[Variant], skilled: str, count: str) -> list:
    """Skill of ``skilled`` over UNSKILLED in every variant, 4 players, single deals, with the
    game count and seed named ``count`` (per variant: per-game differences, comparison)."""
    ctx.log(f"skill: {skilled} against {UNSKILLED} ({ctx.counts[count]:,} deals per seat)")
    return skill_comparisons(ctx.runner, [single(v.rules, players=MAIN_PLAYERS) for v in variants],
                             skilled, UNSKILLED, ctx.counts[count], ctx.seeds[count],
                             [v.forget for v in variants])


def leading_games(per_game: np.ndarray, seats: int, games: int) -> np.ndarray:
    """The first ``games`` games of every focal seat of a per-(seat, game) array whose rows run
    seat by seat (:func:`skill_per_game`)."""
    return np.asarray(per_game).reshape(seats, -1)[:, :games].ravel()


#: Whether a significant Δ skill measured with SKILLED holds with STRONGEST (in table order).
SURVIVES = "survives"
SAME_SIGN = "same sign, not distinguishable"
OPPOSITE_SIGN = "opposite sign, not distinguishable"
REVERSED = "reversed"


def survival(skilled: Estimate, strong: Estimate) -> str | None:
    """Does a Δ skill vs baseline measured with SKILLED survive stronger play? None where the
    SKILLED difference is not significant (no finding to check); otherwise :data:`SURVIVES`
    (same sign, interval without 0), :data:`SAME_SIGN`, :data:`OPPOSITE_SIGN` (the interval
    holds 0) or :data:`REVERSED` (opposite sign, interval without 0)."""
    if not skilled.significant:
        return None
    verdict = claim_verdict(strong, 1 if skilled.value > 0 else -1)
    if verdict == SUPPORTED:
        return SURVIVES
    if verdict == CONTRADICTED:
        return REVERSED
    return SAME_SIGN if np.sign(strong.value) == np.sign(skilled.value) else OPPOSITE_SIGN


def strong_table(variants, res) -> str:
    """Skill with STRONGEST beside SKILLED's, and whether each Δ skill finding survives."""
    rows = []
    for v in variants:
        r = res[v.name]
        same = v.name == v.baseline
        rows.append([
            f"`{v.name}`" if v.group == "preset" else v.name,
            fmt(r["strong"]["win"], "pp", 1),
            "–" if r["strong_vs_skilled"] is None else fmt(r["strong_vs_skilled"], "pp", 1),
            "–" if same else fmt(r["delta_skill"], "pp", 1),
            "–" if same else fmt(r["delta_strong"], "pp", 1),
            r["survival"] or "–",
        ])
    return format_table(
        ["variant", f"skill: Δ win {STRONGEST} − {UNSKILLED}",
         f"skill {STRONGEST} − skill {SKILLED} (paired)", f"Δ skill vs baseline: {SKILLED}",
         f"Δ skill vs baseline: {STRONGEST}", f"{SKILLED}'s finding with {STRONGEST}"], rows,
        "l" + "r" * 4 + "l")


def strong_section(ctx, variants, res) -> str:
    """The skill check with STRONGEST: what it measures, STRONGEST against SKILLED at the
    baseline, and the table."""
    n, std = ctx.counts["variant_skill_search"], res["standard"]
    vs = std["strong_vs_skilled"]
    if vs is None:
        stronger = (f"(not paired here: the two skill runs have different seeds) `{STRONGEST}` "
                    f"{fmt(std['strong']['win'], 'pp', 1)} against `{SKILLED}` "
                    f"{fmt(std['skill']['win'], 'pp', 1)}.")
    else:
        word = ("stronger than" if vs.low > 0 else "weaker than" if vs.high < 0
                else "not distinguishable from")
        stronger = (f"skill with `{STRONGEST}` minus skill with `{SKILLED}`, paired on the "
                    f"same {n:,} deals per focal seat, is {fmt(vs, 'pp', 1)}: against "
                    f"`{UNSKILLED}` tables `{STRONGEST}` is **{word}** `{SKILLED}` at this "
                    "count.")
    return (
        "## Skill with stronger play\n\n"
        f"The skill measure repeated with `{STRONGEST}` (default budget) as the skilled player "
        f"instead of `{SKILLED}`: the focal seat plays `{STRONGEST}` or `{UNSKILLED}`, the three "
        f"others `{UNSKILLED}`, {n:,} deals per variant, policy and focal seat, on the seeds "
        f"of the `{SKILLED}` runs (so the `{UNSKILLED}` focal seat's deals are the first "
        f"{n:,} of theirs, and skill with `{STRONGEST}` minus skill with `{SKILLED}` is a "
        f"paired difference per deal). `{STRONGEST}`'s playouts model every other seat as "
        f"`{SKILLED}`, which `{UNSKILLED}` players are not, so it need not be the stronger "
        f"player at these tables. At `standard`, {stronger}\n\n"
        "The last column checks each significant Δ skill vs baseline measured with "
        f"`{SKILLED}` (a check that the finding survives stronger play, on far fewer deals): "
        f"*{SURVIVES}*: the Δ with `{STRONGEST}` has the same sign and its interval excludes 0; "
        f"*{SAME_SIGN}*: same sign, interval holds 0 (too few deals to tell); *{OPPOSITE_SIGN}*; "
        f"*{REVERSED}*: opposite sign, interval excludes 0. \"–\": no significant finding "
        f"with `{SKILLED}` to check. " + strong_power(ctx, variants, res) + "\n\n"
        + strong_table(variants, res) + "\n")


def strong_power(ctx, variants, res) -> str:
    """What the check with STRONGEST can see, against the size of the findings it checks."""
    checked = [res[v.name] for v in variants if res[v.name]["survival"] is not None]
    if not checked:
        return ""
    small = sum(abs(r["delta_skill"].value) < detectable_difference(r["delta_strong"])
                for r in checked)
    return (common.power_sentence([r["delta_strong"] for r in checked],
                                  ctx.counts["variant_skill_search"],
                                  "deals per focal seat and policy", target=None)
            + f"; {small} of the {len(checked)} `{SKILLED}` findings it checks are smaller than "
            "that, and a finding of that size mostly reads "
            f"*{SAME_SIGN}* even where it holds: the check is too small to tell, which is not a "
            "sign that the finding fails.")


def findings(variants, res) -> dict[str, list[str]]:
    """The variants whose SKILLED Δ skill is significant, by :func:`survival` verdict."""
    out: dict[str, list[str]] = {k: [] for k in (SURVIVES, SAME_SIGN, OPPOSITE_SIGN, REVERSED)}
    for v in variants:
        if res[v.name]["survival"] is not None:
            out[res[v.name]["survival"]].append(v.name)
    return out


def survival_sentence(variants, res) -> str:
    """One sentence: which SKILLED Δ-skill findings survive stronger play."""
    f = findings(variants, res)
    total = sum(len(names) for names in f.values())

    def names(key):
        return ", ".join(f"`{n}`" for n in f[key]) or "none"

    return (f"*With stronger play* (section below): of the {total} variants whose Δ skill vs "
            f"baseline with `{SKILLED}` is significant, {len(f[SURVIVES])} keep it with "
            f"`{STRONGEST}` (same sign, interval without 0: {names(SURVIVES)}); "
            f"{len(f[SAME_SIGN])} keep the sign but are not distinguishable from 0 at "
            f"`{STRONGEST}`'s game count; {len(f[OPPOSITE_SIGN])} change sign without being "
            f"distinguishable ({names(OPPOSITE_SIGN)}); {len(f[REVERSED])} are reversed "
            f"({names(REVERSED)}).\n")


def summary_table(variants, res) -> str:
    rows = []
    for v in variants:
        r = res[v.name]
        d, m = r["deal"], r["match"]
        same = v.name == v.baseline
        rows.append([
            f"`{v.name}`" if v.group == "preset" else v.name,
            fmt(d["turns"], "num", 1),
            "–" if same else fmt(r["delta"]["turns"], "diff", 1),
            fmt(d["plays"], "num", 1), fmt(d["draws"], "num", 1),
            fmt(d["blocked"], "pct", 2),
            "–" if v.rules.reshuffles == 0 else fmt(d["reshuffled"], "pct", 1),
            fmt(d["points"], "num", 1),
            fmt(d["forhand_adv"], "pp", 2),
            fmt(m["deals"], "num", 2),
            fmt(r["skill"]["win"], "pp", 1),
            "–" if same else fmt(r["delta_skill"], "pp", 1),
        ])
    return format_table(
        ["variant", "turns/deal", "Δ turns vs baseline", "plays/deal", "draws/deal",
         "blocked", "talon ran out", "points/seat/deal", "förhand advantage",
         "deals/match to 100", f"skill: Δ win {SKILLED} − {UNSKILLED}", "Δ skill vs baseline"], rows,
        "l" + "r" * 11)


def forhand_table(variants, res) -> str:
    rows = [[v.name] + [fmt(res[v.name]["forhand"][p], "pp", 2) for p in common.PLAYERS]
            for v in variants]
    return format_table(["variant"] + [f"{p} players" for p in common.PLAYERS], rows)


def fig_summary(ctx, variants, res) -> str:
    n = len(variants)
    y = np.arange(n)[::-1]
    fig, axes = plt.subplots(1, 4, figsize=(15, 0.22 * n + 2.0), sharey=True)
    panels = [
        (lambda r: r["deal"]["turns"], 1, "Deal length (4 players)", "mean turns per deal"),
        (lambda r: r["match"]["deals"], 1, "Match length (4 players, to 100)",
         "mean deals per match"),
        (lambda r: r["deal"]["forhand_adv"], 100, "Förhand advantage (4 players)",
         "P(förhand wins) − fair share (pp)"),
        (lambda r: r["skill"]["win"], 100, f"Skill: {SKILLED} − {UNSKILLED} (4 players)",
         "Δ P(win) in the same seat (pp)"),
    ]
    groups = sorted({v.group for v in variants}, key=[v.group for v in variants].index)
    for ax, (get, scale, title, xlabel) in zip(axes, panels):
        estimates = [get(res[v.name]) for v in variants]
        for g, group in enumerate(groups):
            idx = [i for i, v in enumerate(variants) if v.group == group]
            common.hbars(ax, y[idx], [estimates[i] for i in idx], scale,
                         color=common.COLORS[g], label=group)
        ax.set_title(title)
        ax.axvline(get(res["standard"]).value * scale, color="grey", linestyle="--",
                   linewidth=0.8, label="standard's value")
        if scale == 1 and needs_log_axis([e.value for e in estimates]):
            # ace_draw=3 (over 1,000 turns a deal) would squash every other row into a corner
            plain_log_axis(ax)
            xlabel += ", log scale"
        limit = outlier_limit([e.high * scale for e in estimates]) if scale == 100 else None
        if limit is not None:  # must_play=false's skill: drawn at the edge with its value
            ax.set_xlim(right=limit)
            mark_beyond(ax, y, [e.value * scale for e in estimates], limit, " pp")
            xlabel += "; → off the axis"
        ax.set_xlabel(xlabel)
        if scale == 100:
            ax.axvline(0, color="black", linewidth=0.8)
    axes[0].set_yticks(y, [v.name for v in variants], fontsize=7)
    axes[0].set_ylabel("variant (preset or single rule changed from standard)")
    axes[0].legend(title="group", fontsize=7, loc="lower right")
    fig.suptitle("Every variant against standard: means and differences with 95% intervals "
                 "(all seats expert unless stated)")
    fig.tight_layout(rect=(0, 0, 1, 0.985))
    return common.save(fig, ctx, "variants-summary",
                       "Deal length, match length, förhand advantage and skill per variant, "
                       "with 95% intervals")


def fig_length_means(ctx, variants, res) -> str:
    n = len(variants)
    y = np.arange(n)[::-1]
    fig, axes = plt.subplots(1, 3, figsize=(13, 0.22 * n + 2.0), sharey=True)
    for ax, key in zip(axes, LENGTHS):
        estimates = [res[v.name]["deal"][key] for v in variants]
        common.hbars(ax, y, estimates, 1, color=common.COLORS[0], label="mean with 95% interval")
        ax.set_title(f"{key.capitalize()} per deal (4 players)")
        log = needs_log_axis([e.value for e in estimates])
        if log:
            plain_log_axis(ax)
        ax.set_xlabel(f"mean {key} per deal ({key}{', log scale' if log else ''})")
    axes[0].set_yticks(y, [v.name for v in variants], fontsize=7)
    axes[0].set_ylabel("variant")
    axes[0].legend(fontsize=7, loc="lower right")
    fig.suptitle("Mean deal length per variant, 4 players, all seats expert")
    fig.tight_layout(rect=(0, 0, 1, 0.985))
    return common.save(fig, ctx, "variants-length-means",
                       "Mean turns, plays and draws per deal per variant, with 95% intervals")


def fig_distributions(ctx, variants, res, names, stem, title) -> str:
    """Quantiles of the deal length per variant: one row each, with intervals (overlapping
    distribution curves could not be told apart)."""
    y = np.arange(len(names))[::-1]
    fig, axes = plt.subplots(1, 3, figsize=(14, 1.9 + 0.42 * len(names)), sharey=True)
    for ax, key in zip(axes, LENGTHS):
        rows = [quantiles(res[name]["arrays"][key]) for name in names]
        for yi, name, qs in zip(y, names, rows):
            quantile_rows(ax, [yi], [qs], common.COLORS[0])
            mean = res[name]["deal"][key]
            common.hbars(ax, [yi - 0.25], [mean], 1, color=common.COLORS[1], fmt="D",
                         markersize=3, label="mean, 95% interval" if yi == y[0] else None)
        plain_log_axis(ax)
        ax.set_title(f"{title}: {key} per deal (4 players)")
        ax.set_xlabel(f"{key} per deal ({key}, log scale)")
    axes[0].set_yticks(y, names, fontsize=8)
    axes[0].set_ylabel("variant")
    handles = [Line2D([], [], color=common.COLORS[0], linewidth=1),
               Line2D([], [], color=common.COLORS[0], linewidth=4.5, alpha=0.55),
               Line2D([], [], marker="o", color="white", markeredgecolor=common.COLORS[0],
                      linestyle=""),
               Line2D([], [], color="black", linewidth=1.2),
               Line2D([], [], marker="D", color=common.COLORS[1], linestyle="", markersize=3)]
    fig.legend(handles, ["10–90% of deals", "25–75% of deals", "median",
                         "95% interval of each quantile (above the row)",
                         "mean with 95% interval (below the row)"],
               loc="lower center", ncol=5, fontsize=7)
    fig.suptitle(f"Distribution of the deal length: {title.lower()}, 4 players, all expert")
    fig.tight_layout(rect=(0, 0.07, 1, 1))
    return common.save(fig, ctx, stem, f"Quantiles of the deal length: {title.lower()}, with "
                       "95% intervals")


def fig_forhand(ctx, variants, res, names) -> str:
    fig, ax = plt.subplots(figsize=(9.5, 4.2))
    x = np.array(common.PLAYERS, dtype=float)
    for i, name in enumerate(names):
        dx = (i - (len(names) - 1) / 2) * 0.05
        common.errorbars(ax, x + dx, [res[name]["forhand"][p] for p in common.PLAYERS], 100,
                         color=common.COLORS[i % 10], label=name)
    ax.axhline(0, color="black", linewidth=0.8)
    ax.set_title("Förhand advantage per number of players (presets)")
    ax.set_xlabel("players at the table")
    ax.set_ylabel("P(förhand wins) − fair share (percentage points)")
    ax.set_xticks(common.PLAYERS)
    ax.legend(fontsize=7, title="preset", loc="upper left", bbox_to_anchor=(1.01, 1))
    fig.tight_layout()
    return common.save(fig, ctx, "variants-forhand",
                       "Förhand advantage per number of players for every preset, "
                       "with 95% intervals")


def main() -> None:
    args = common.parse_args(__doc__.splitlines()[0], "reports/variants.md")
    ctx = common.Context(args, "variants")
    variants = all_variants()
    res = run_all(ctx, variants)
    presets = [v.name for v in variants if v.group == "preset"]
    c = ctx.counts
    text = common.header("How the variants compare", ctx, "variants.py")
    text += (
        "Every preset of docs/spec.md §3 and every house rule of §2 changed on its own from "
        "`standard`. All seats play `expert` (except in the skill columns). Unless a column says "
        f"otherwise the table has {MAIN_PLAYERS} players and plays single deals.\n\n"
        "**Design.** All variants play the same seeds and game indices, so game *i* of a variant "
        "and game *i* of its baseline share their random stream (the same deal where the deal "
        "rules agree): the Δ columns are paired differences per game. Baseline: `standard`; "
        f"the call rules are compared with `standard, forget={CALL_FORGET:g}` (every seat "
        f"forgets a due call with probability {CALL_FORGET:g}: without forgotten calls the "
        "call rules change nothing).\n\n"
        "Columns: *turns/plays/draws* per deal (a turn is one player's whole move; plays and "
        "draws count cards); *blocked*: deals that ended with nobody able to play or draw; "
        "*talon ran out*: deals with at least one reshuffle (not shown for `reshuffles=0`, "
        "where the talon is never renewed); *points/seat/deal*: mean penalty points per seat (the "
        "winner's 0 included), under each variant's own scale; *förhand advantage*: P(förhand "
        "wins) minus P(the deal is won) / players; *deals/match*: elimination at 100 under the "
        "variant's scale and elimination rule; *skill*: the focal seat's chance to win when it "
        f"plays `{SKILLED}` (the reference fast player) minus when it plays `{UNSKILLED}`, the "
        f"three others `{UNSKILLED}`, same deals (focal seat rotating, one seed per seat); the "
        f"section *Skill with stronger play* repeats it with `{STRONGEST}` (the strongest "
        "practical player, about a thousand times slower) on fewer deals.\n\n"
        f"Games: {c['variant_deals']:,} single deals per variant and table size; "
        f"{c['variant_matches']:,} matches per variant; {c['variant_skill']:,} deals per "
        f"variant, policy and focal seat for skill with `{SKILLED}`, "
        f"{c['variant_skill_search']:,} with `{STRONGEST}`.\n\n")
    text += "## Summary table\n\n" + summary_table(variants, res) + "\n"
    text += survival_sentence(variants, res) + "\n"
    text += fig_summary(ctx, variants, res) + "\n"
    text += strong_section(ctx, variants, res)
    text += ("## Deal length\n\nMean turns, plays and draws per deal for every variant "
             "(4 players):\n\n" + fig_length_means(ctx, variants, res) + "\n")
    text += ("Distribution of the deal length for the presets: per preset the middle 50 % and "
             "80 % of deals, the median, each of these quantiles with its 95 % interval "
             "(distribution-free, from order statistics) and the mean with its interval; log "
             "scale:\n\n"
             + fig_distributions(ctx, variants, res, presets, "variants-length-presets",
                                 "Presets") + "\n")
    lengths = sorted((v for v in variants if v.group != "preset" and v.name != v.baseline),
                     key=lambda v: -abs(res[v.name]["delta"]["turns"].value))[:6]
    text += ("The six single rules that change the deal length most, against `standard`:\n\n"
             + fig_distributions(ctx, variants, res, ["standard"] + [v.name for v in lengths],
                                 "variants-length-rules", "Rules") + "\n")
    text += ("## Förhand advantage per number of players\n\n"
             "P(förhand wins) − P(the deal is won) / players, in percentage points, single "
             f"deals, {c['variant_deals']:,} per cell.\n\n" + forhand_table(variants, res)
             + "\n" + fig_forhand(ctx, variants, res, presets) + "\n")
    text += feel_section(ctx, variants, res)
    text += notes(variants, res)
    ctx.write(text)


def notes(variants, res) -> str:
    """Plain sentences about what is and is not significant."""
    out = ["## Notes\n"]
    ns_turns = [v.name for v in variants if v.name != v.baseline
                and not res[v.name]["delta"]["turns"].significant]
    ns_skill = [v.name for v in variants if v.name != v.baseline
                and not res[v.name]["delta_skill"].significant]
    ns_forhand = [v.name for v in variants if not res[v.name]["deal"]["forhand_adv"].significant]
    out.append("- Deal length (turns) not distinguishable from the baseline at this precision: "
               + (", ".join(f"`{n}`" for n in ns_turns) or "none") + ".")
    out.append("- Skill effect not distinguishable from the baseline's: "
               + (", ".join(f"`{n}`" for n in ns_skill) or "none") + ".")
    out.append("- Förhand advantage at 4 players not distinguishable from 0: "
               + (", ".join(f"`{n}`" for n in ns_forhand) or "none") + ".")
    same = [v.name for v in variants if v.name != v.baseline
            and all(e.value == e.low == e.high == 0 for e in res[v.name]["delta"].values())]
    out.append("- Identical to the baseline game by game in every deal column (the rule never "
               "comes into play with these seats and rules): "
               + (", ".join(f"`{n}`" for n in same) or "none") + "."
               + (" `out_on_special=true` changes nothing on its own because "
                  "`specials_only_must_draw` is on: a hand of only specials cannot play at all, "
                  "so a special is never the last card played."
                  if "out_on_special=true" in same else ""))
    capped = [f"`{v.name}` ({res[v.name]['deal']['capped'].format(4, percent=True)} of deals, "
              f"{res[v.name]['match']['capped'].format(4, percent=True)} of matches)"
              for v in variants if res[v.name]["deal"]["capped"].value > 0
              or res[v.name]["match"]["capped"].value > 0]
    out.append("- Deals or matches that hit the turn cap of 5,000 turns (counted, never dropped; "
               "a capped deal is scored on the hands held, so where the share is large the mean "
               "length is a lower bound): " + ("; ".join(capped) or "none") + ".")
    out.append("- Skill with `must_play=false`: the `random` policy then also picks drawing "
               "instead of playing (as one more option beside its legal cards), so it plays "
               "much worse and the skill column is inflated for that row.")
    out.append("- `scale=base` and `eliminate_at=pass` change no rule of play; their deal "
               "columns differ from `standard` only through the expert's scale-aware choices "
               "(and `eliminate_at` not at all, so its deal columns equal `standard`'s).")
    return "\n".join(out) + "\n"


if __name__ == "__main__":
    main()
