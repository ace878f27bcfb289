"""The eight under house rules: one section of reports/eight-value.md, and its measurements.

Each common house rule and each preset, per scale, at 3 and 4 players: what one more eight in
the starting hand does to its holder's deal win and penalty points, and how much that changes
against the scale's `standard`, paired game by game (same seed and game index: the same deal
and the same focal seat; :func:`vandatta_sim.report.card_value.paired_effect_difference`).
"""

from __future__ import annotations

import common
import matplotlib.pyplot as plt
import numpy as np

from vandatta_sim.report.card_value import effects_per_game, paired_effect_difference
from vandatta_sim.report.designs import SCALE_NAMES
from vandatta_sim import cards
from vandatta_sim.rules import PRESETS
from vandatta_sim.simulate import trace_game
from vandatta_sim.stats import holm_adjust, mean_interval, p_value, proportion
from vandatta_sim.trace import Event
from vandatta_sim.tables import format_estimate as fmt, format_table

STANDARD = PRESETS["standard"]
#: The house rules people play, each one change to `standard` (RULES.md's catalogue).
HOUSE_RULES = (
    ("stacking=true", {"stacking": True}),
    ("ace_on_ace=allowed", {"ace_on_ace": "allowed"}),
    ("ace_on_ace=counter", {"ace_on_ace": "counter"}),
    ("eight_on_eight=true", {"eight_on_eight": True}),
    ("eight_follow=same_player", {"eight_follow": "same_player"}),
    ("out_on_special=true", {"out_on_special": True}),
    ("specials_only_must_draw=false", {"specials_only_must_draw": False}),
    ("draw_limit=1", {"draw_limit": 1}),
    ("draw_limit=0", {"draw_limit": 0}),
    ("two_draws_two=true", {"two_draws_two": True}),
    ("jokers=2, joker_effect=super_eight", {"jokers": 2, "joker_effect": "super_eight"}),
)
#: Every preset but `standard` and `crazy-eights-scoring` (which is `standard` on the
#: crazy_eights scale, so its cells are the standard's): each played on every scale.
PRESET_NAMES = ("seed000", "seed001", "seed001-hundred", "seed002", "svang-atta", "kids")
HOUSE_PLAYERS = (3, 4)
#: The Holm family: every (variant, scale, players) cell's change of the deal-win effect.
FAMILY_ALPHA = 0.05
#: A change of the deal-win effect this large (pp) is explained in the text ...
BIG = 0.02
#: ... from the traces of this many of its deals (and as many of the standard's), at most
#: this many changes.
TRACED = 3


def variants() -> list[tuple[str, object]]:
    """(label, function of (scale, players) -> rules) of every house rule and preset."""
    out = []
    for label, change in HOUSE_RULES:
        out.append((f"`{label}`", lambda scale, p, c=change: STANDARD.replace(
            scale=scale, players=p, match="single", **c)))
    for name in PRESET_NAMES:
        out.append((f"preset `{name}`", lambda scale, p, n=name: PRESETS[n].replace(
            scale=scale, players=p, match="single")))
    return out


def measure(ctx, player: str) -> dict:
    """Per (scale, players): the standard's per-game effects, and per variant its effect and
    its paired change against the standard, with the base runs' deal length."""
    games, seed = ctx.counts["house_deals"], ctx.seeds["value_deals"]
    cells = {}
    for scale in SCALE_NAMES:
        for p in HOUSE_PLAYERS:
            ctx.log(f"house rules: {scale}, {p} players")
            std_rules = STANDARD.replace(scale=scale, players=p, match="single")
            std = effects_per_game(ctx.runner, std_rules, player, "8", games, seed)
            cells[(scale, p, "standard")] = summary(std, std)
            for label, build in variants():
                eff = effects_per_game(ctx.runner, build(scale, p), player, "8", games, seed)
                cells[(scale, p, label)] = summary(eff, std)
    changes = [(k, c["d_win"]) for k, c in cells.items() if k[2] != "standard"]
    adjusted = holm_adjust([p_value(e) for _, e in changes])
    for (key, _), adj in zip(changes, adjusted):
        cells[key]["p_holm"] = float(adj)
    return cells


def summary(eff, std) -> dict:
    s = eff[eff["swapped"]]
    out = {"win": mean_interval(s["win"]), "points": mean_interval(s["points"]),
           "possible": float(eff["swapped"].mean()), "n": len(s)}
    if eff is not std:
        out["d_win"] = paired_effect_difference(eff, std, "win")
        out["d_points"] = paired_effect_difference(eff, std, "points")
    return out


def section(ctx, cells: dict, player: str, number: int) -> str:
    labels = ["standard"] + [label for label, _ in variants()]
    n_family = sum(1 for k in cells if k[2] != "standard")
    text = (
        f"## {number}. The eight under house rules\n\n"
        "How much one more eight is worth when the table plays a house rule: each rule of the "
        "list changed alone from `standard`, and each preset, on every scale, at 3 and 4 "
        f"players, single deals, all seats `{player}`, "
        f"{ctx.counts['house_deals']:,} deals per cell on the seed of the top table (so each "
        "rule's games pair with the standard's game by game: same deal, same focal seat). "
        "Each cell shows the deal-win effect of one more eight under the rule and, below "
        "it, its change against the scale's `standard` (rule − standard, paired per game). "
        f"**Multiplicity:** the {n_family} changes form one family, tested with Holm's "
        f"procedure at {FAMILY_ALPHA:.0%}; **bold** marks a change that survives it.\n\n")
    header = ["rule"] + [f"{p} players: Δ deal win" for p in HOUSE_PLAYERS] + [
        f"{p} players: change" for p in HOUSE_PLAYERS]
    for scale in SCALE_NAMES:
        rows = []
        for label in labels:
            row = [label]
            row += [fmt(cells[(scale, p, label)]["win"], "pp", 1) for p in HOUSE_PLAYERS]
            for p in HOUSE_PLAYERS:
                c = cells[(scale, p, label)]
                if label == "standard":
                    row.append("–")
                    continue
                cell = fmt(c["d_win"], "pp", 1)
                row.append(f"**{cell}**" if c["p_holm"] <= FAMILY_ALPHA else cell)
            rows.append(row)
        text += f"### Scale `{scale}`\n\n" + format_table(header, rows) + "\n"
    text += big_changes(cells) + "\n" + mechanism(ctx, cells, player)
    return text + figure(ctx, cells, labels, player)


def traced(rules, player: str, seed: int, games: int) -> dict:
    """What the holder of the extra eight does in the first ``games`` deals of the swap run,
    read from their event traces: the share of deals it wins by going out on an eight (its
    last card played is an eight or a joker), the share where it plays an eight while it
    still holds three cards or more (an early eight), and the mean turns per deal."""
    out_on_eight = early = won = 0
    turns = []
    for game in range(games):
        focal = game % rules.players
        rows = trace_game(rules, seed, game, policies=player, swap="8")
        hand, last, n_turns = 0, None, 0  # the holder's cards, counted from the deal
        for kind, seat, a, _ in rows:
            if kind == Event.DEAL and seat == focal:
                hand += 1
            elif kind == Event.TURN:
                n_turns += 1
            elif kind == Event.DRAW and seat == focal:
                hand += 1
            elif kind == Event.PLAY and seat == focal:
                eight = cards.is_joker(int(a)) or cards.rank_of(int(a)) == cards.EIGHT
                early += eight and hand >= 3
                hand, last = hand - 1, eight
            elif kind == Event.END_DEAL:
                if seat == focal:
                    won += 1
                    out_on_eight += bool(last)
                break
        turns.append(n_turns)
    return {"out_on_eight": proportion(out_on_eight, games), "won": proportion(won, games),
            "early": proportion(early, games), "turns": mean_interval(turns)}


def mechanism(ctx, cells: dict, player: str) -> str:
    """The largest changes explained from traced deals: how the holder wins with the extra
    eight under the rule and under the standard."""
    big = [(k, c) for k, c in cells.items() if k[2] != "standard"
           and c["p_holm"] <= FAMILY_ALPHA and abs(c["d_win"].value) >= BIG]
    big.sort(key=lambda kc: -abs(kc[1]["d_win"].value))
    if not big:
        return ""
    games, seed = ctx.counts["house_traced"], ctx.seeds["value_deals"]
    builders = dict(variants())
    rows = []
    for (scale, p, label), c in big[:TRACED]:
        ctx.log(f"house rules: tracing {label}, {scale}, {p} players")
        std_rules = STANDARD.replace(scale=scale, players=p, match="single")
        for name, rules in ((label, builders[label](scale, p)), ("standard", std_rules)):
            t = traced(rules, player, seed, games)
            rows.append([f"{label}, `{scale}`, {p}" if name != "standard" else "… `standard`",
                         fmt(cells[(scale, p, name)]["win"], "pp", 1),
                         fmt(t["out_on_eight"], "pct", 1), fmt(t["early"], "pct", 1),
                         fmt(t["turns"], "num", 1)])
    return (
        "**Why, from traced deals.** For the largest changes, the first "
        f"{games:,} deals of the run with the extra eight replayed with their event traces "
        "(`vandatta-sim play --seed S --game G` shows any of them), under the rule and under "
        "`standard`: how often the holder wins by going out on an eight (its last card), how "
        "often it has to play an eight early (three or more cards in hand), and how long the "
        "deal lasts. Where the rule lets others answer or match an eight, or ends deals "
        "sooner, fewer deals are won on the last eight and the eight's value falls with "
        "it.\n\n"
        + format_table(["rule, scale, players", "Δ deal win of one more eight",
                        "holder wins going out on an eight", "holder plays an eight early",
                        "turns per deal"], rows) + "\n")


def big_changes(cells: dict) -> str:
    """The changes that survive Holm and exceed BIG, in words, with the rule's points too."""
    big = [(k, c) for k, c in cells.items() if k[2] != "standard"
           and c["p_holm"] <= FAMILY_ALPHA and abs(c["d_win"].value) >= BIG]
    if not big:
        return (f"No change of {100 * BIG:.0f} pp or more survives Holm's procedure: at this "
                "precision the house rules leave the eight's deal value where `standard` "
                "has it.\n")
    big.sort(key=lambda kc: -abs(kc[1]["d_win"].value))
    lines = [f"Changes of {100 * BIG:.0f} pp or more that survive Holm's procedure, largest "
             "first (what the eight does under the rule, then under `standard`):\n"]
    for (scale, p, label), c in big[:12]:
        std = cells[(scale, p, "standard")]
        lines.append(f"- {label}, `{scale}`, {p} players: {fmt(c['win'], 'pp', 1)} against "
                     f"{fmt(std['win'], 'pp', 1)} of deal wins; penalty points "
                     f"{fmt(c['points'], 'diff', 2)} against {fmt(std['points'], 'diff', 2)} "
                     "per deal.")
    return "\n".join(lines) + "\n"


def figure(ctx, cells: dict, labels: list[str], player: str) -> str:
    fig, axes = plt.subplots(1, len(SCALE_NAMES), figsize=(13, 0.32 * len(labels) + 1.6),
                             sharey=True)
    y = np.arange(len(labels))[::-1].astype(float)
    for ax, scale in zip(axes, SCALE_NAMES):
        for i, p in enumerate(HOUSE_PLAYERS):
            ests = [cells[(scale, p, label)]["win"] for label in labels]
            common.hbars(ax, y + (i - 0.5) * 0.3, ests, 100, color=common.COLORS[i],
                         label=f"{p} players")
            ax.axvline(100 * cells[(scale, p, "standard")]["win"].value,
                       color=common.COLORS[i], linewidth=0.8, linestyle="--")
        ax.set_title(f"scale {scale}")
        ax.set_xlabel("Δ P(win deal) of one more eight (pp)")
    axes[0].set_yticks(y)
    axes[0].set_yticklabels([label.replace("`", "") for label in labels], fontsize=8)
    axes[0].legend(fontsize=8)
    fig.tight_layout()
    return common.save(fig, ctx, "eight-value-house-rules",
                       "One more eight under each house rule and preset, per scale, at 3 and 4 "
                       f"players ({player}), with 95% intervals; dashed: the standard's "
                       "value") + "\n"

