"""The eight under house rules: one section of reports/eight-value.md, and its measurements.

Each common house rule and each preset, per scale, at 3 and 4 players: what one more eight in
the starting hand does to its holder's deal win and penalty points, and how much that changes
against the scale's `standard`, paired game by game (same seed and game index: the same deal
and the same focal seat; :func:`vandatta_sim.experiments.card_value.paired_effect_difference`).
"""

from __future__ import annotations

import common
import matplotlib.pyplot as plt
import numpy as np
from eight_players import player_for, shown

from vandatta_sim.experiments.card_value import effects_per_game, paired_effect_difference
from vandatta_sim.experiments.designs import SCALE_NAMES
from vandatta_sim import cards
from vandatta_sim.rules import PRESETS
from vandatta_sim.simulate import trace_game
from vandatta_sim.stats import holm_adjust, mean_interval, paired_difference, p_value
from vandatta_sim.trace import Event
from vandatta_sim.formatting import format_estimate as fmt, format_table

STANDARD = PRESETS["standard"]
#: The house rules people play, each one change to `standard` (docs/spec.md's catalogue).
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
#: ... the largest change of each of at most this many rules, from traced deals.
TRACED = 5


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
    games, seed = ctx.counts["house_deals"], ctx.seeds["house_deals"]
    cells = {}
    for scale in SCALE_NAMES:
        for p in HOUSE_PLAYERS:
            ctx.log(f"house rules: {scale}, {p} players")
            std_rules = STANDARD.replace(scale=scale, players=p, match="single")
            head = player_for(player, scale, p)
            std = effects_per_game(ctx.runner, std_rules, head, "8", games, seed)
            cells[(scale, p, "standard")] = summary(std, std)
            for label, build in variants():
                eff = effects_per_game(ctx.runner, build(scale, p), head, "8", games, seed)
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
        f"players, single deals, all seats `{shown(player)}`, "
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
    text += same_as_a_rule() + big_changes(cells) + "\n" + mechanism(ctx, cells, player)
    return text + figure(ctx, cells, labels, player)


def _holder_counts(rows: np.ndarray, focal: int) -> tuple[int, bool, int]:
    """From one single deal's event trace: the focal seat's cards drawn, whether it played an
    eight (or a joker) with three or more cards in hand, and the turns of the deal."""
    kind, seat, card = rows[:, 0], rows[:, 1], rows[:, 2]
    mine = seat == focal
    gets = mine & ((kind == Event.DEAL) | (kind == Event.DRAW))
    plays = mine & (kind == Event.PLAY)
    hand_before = np.cumsum(gets.astype(np.int64) - plays) + plays  # before each play
    joker = np.isin(card, cards.JOKER_TYPES)
    eight = plays & (joker | (card // cards.N_SUITS == cards.EIGHT))
    return (int((mine & (kind == Event.DRAW)).sum()), bool((eight & (hand_before >= 3)).any()),
            int((kind == Event.TURN).sum()))


def traced(rules, player: str, seed: int, games: int) -> dict:
    """The first ``games`` deals replayed with their event traces, as dealt and with the
    extra eight, one value per deal: what one more eight changes in how many cards its holder
    draws (``draws``: swap − as dealt), whether the holder plays an eight early (with three or
    more cards in hand; ``early``, with the extra eight) and how long the deal lasts
    (``turns``, as dealt). Per deal, so that two rules replayed on the same seed compare
    deal by deal (:func:`paired_how`)."""
    draws, early, turns = [], [], []
    for game in range(games):
        focal = game % rules.players
        base = _holder_counts(trace_game(rules, seed, game, policies=player), focal)
        swap = _holder_counts(trace_game(rules, seed, game, policies=player, swap="8"), focal)
        draws.append(swap[0] - base[0])
        early.append(swap[1])
        turns.append(base[2])
    return {"draws": np.array(draws, np.float64), "early": np.array(early, np.float64),
            "turns": np.array(turns, np.float64)}


def paired_how(rule: dict, std: dict) -> dict:
    """Rule − standard on the same traced deals (same seed and game index), deal by deal:
    the change of the extra eight's effect on its holder's draws, of the share of deals in
    which the holder plays an eight early, and of the deal's length."""
    return {name: paired_difference(rule[name], std[name]) for name in ("draws", "early",
                                                                         "turns")}


def mechanism(ctx, cells: dict, player: str) -> str:
    """The largest changes, looked at in traced deals: how the rule changes what the extra
    eight does in its holder's deal, against the standard on the same deals (paired)."""
    big = largest(cells)
    if not big:
        return ""
    games, seed = ctx.counts["house_traced"], ctx.seeds["house_traced"]
    builders = dict(variants())
    rows, lines = [], []
    first = {}  # the largest change of each rule, at most TRACED rules
    for key, c in big:
        if key[2] not in first and len(first) < TRACED:
            first[key[2]] = (key, c)
    for (scale, p, label), c in first.values():
        ctx.log(f"house rules: tracing {label}, {scale}, {p} players")
        std_rules = STANDARD.replace(scale=scale, players=p, match="single")
        head = player_for(player, scale, p)
        how = paired_how(traced(builders[label](scale, p), head, seed, games),
                         traced(std_rules, head, seed, games))
        rows.append([f"{label}, `{scale}`, {p}", fmt(c["d_win"], "pp", 1),
                     fmt(how["draws"], "diff", 2), fmt(how["early"], "pp", 0),
                     fmt(how["turns"], "diff", 1)])
        lines.append(
            f"- {label}, `{scale}`, {p} players: the extra eight's deal value changes by "
            f"{fmt(c['d_win'], 'pp', 1)}; on the same deals its effect on its holder's draws "
            f"changes by {fmt(how['draws'], 'diff', 2)} a deal, the share of deals in which "
            f"the holder plays an eight early by {fmt(how['early'], 'pp', 0)}, and a deal's "
            f"length by {fmt(how['turns'], 'diff', 1)} turns.")
    return (
        "**How, from traced deals.** For the largest change of each of the rules that "
        "change the eight's value most, the first "
        f"{games:,} deals replayed with their event traces, as dealt and with the extra "
        "eight (`trace_game(rules, seed, game, swap=\"8\")` in `vandatta_sim.simulate` "
        "replays any of them; the focal seat is the game index mod players), under the rule "
        "and under `standard` on the same seed: how the rule changes the extra eight's effect "
        "on its holder's draws per deal (an eight can be played where nothing else fits, but "
        "under `standard` not as the last card, `out_on_special=false`, and a hand of only "
        "specials must draw), how often the holder plays an eight with three or more cards "
        "in hand, and how long a deal lasts as dealt. Every number is a paired difference, "
        "rule − `standard`, deal by deal on the same deals (same seed and game index), with "
        "its 95 % interval; the deal-value column is the table's change above (its "
        f"{ctx.counts['house_deals']:,} deals). The intervals are not adjusted for the "
        "several comparisons: they describe where the deal changes, not a proof of why.\n\n"
        + format_table(["rule, scale, players", "change of the eight's deal value",
                        "change of its effect on the holder's draws per deal",
                        "change in deals with an eight played early",
                        "change in turns per deal"], rows)
        + "\n" + "\n".join(lines) + "\n\n")


def repeats() -> dict[str, str]:
    """The presets that, on single deals at a given scale, are one of the listed house rules:
    {preset label: rule label} (their rows repeat the rule's numbers)."""
    rules = dict(variants())
    out = {}
    for name in PRESET_NAMES:
        preset = rules[f"preset `{name}`"]("hundred", 4).canonical()
        for label, _ in HOUSE_RULES:
            if rules[f"`{label}`"]("hundred", 4).canonical() == preset:
                out[f"preset `{name}`"] = f"`{label}`"
    return out


def same_as_a_rule() -> str:
    """A sentence naming the presets of :func:`repeats`, or nothing."""
    same = [f"{preset} is {rule}" for preset, rule in repeats().items()]
    if not same:
        return ""
    return ("On single deals at a given scale " + ", ".join(same) + ", so its rows repeat "
            "that rule's (and it is left out of the lists below).\n\n")


def largest(cells: dict) -> list:
    """The changes that survive Holm and reach BIG, largest first, without repeated rows."""
    again = repeats()
    big = [(k, c) for k, c in cells.items() if k[2] != "standard" and k[2] not in again
           and c["p_holm"] <= FAMILY_ALPHA and abs(c["d_win"].value) >= BIG]
    return sorted(big, key=lambda kc: -abs(kc[1]["d_win"].value))


def big_changes(cells: dict) -> str:
    """The changes that survive Holm and exceed BIG, in words, with the rule's points too."""
    big = largest(cells)
    if not big:
        return (f"No change of {100 * BIG:.0f} pp or more survives Holm's procedure: at this "
                "precision the house rules leave the eight's deal value where `standard` "
                "has it.\n")
    lines = [f"Changes of {100 * BIG:.0f} pp or more that survive Holm's procedure, largest "
             "first (what the eight does under the rule, then under `standard`, and the "
             "paired change, rule − standard on the same deals):\n"]
    for (scale, p, label), c in big[:12]:
        std = cells[(scale, p, "standard")]
        lines.append(f"- {label}, `{scale}`, {p} players: {100 * c['win'].value:+.1f} pp "
                     f"against {100 * std['win'].value:+.1f} pp of deal wins, a change of "
                     f"{fmt(c['d_win'], 'pp', 1)}; penalty points {c['points'].value:+.2f} "
                     f"against {std['points'].value:+.2f} per deal, a change of "
                     f"{fmt(c['d_points'], 'diff', 2)}.")
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
                       f"players ({shown(player)}), with 95% intervals; dashed: the standard's "
                       "value") + "\n"

