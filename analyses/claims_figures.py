"""Figures of reports/claims.md: the plots the claims' text links, saved byte-stably.

Each figure is saved with ``common.save``, and its Markdown image line is stored in ``data``
under ``fig_*`` for the text to place.
"""

from __future__ import annotations

import common
import matplotlib.pyplot as plt
import numpy as np
from claims_runs import (ADVANTAGE_MARGIN, DRAW_LIMITS, HOLD_DUMP_SCALES, POINTS_MARGIN, RARELY,
                         WIN_MARGIN, timing_policies)

from vandatta_sim.experiments.measures import SKILLED, UNSKILLED


def figures(ctx, data) -> None:
    # förhand and talon
    fig, axes = plt.subplots(1, 2, figsize=(10, 3.8))
    x = np.array(common.PLAYERS)
    common.errorbars(axes[0], x, [data["forhand"][p]["forhand_adv"] for p in x], 100,
                     color=common.COLORS[0], label="förhand − fair share")
    axes[0].axhline(0, color="black", linewidth=0.8)
    axes[0].axhline(100 * ADVANTAGE_MARGIN, color="grey", linestyle="--", linewidth=0.8,
                    label=f"'real' threshold ({100 * ADVANTAGE_MARGIN:.2f} pp)")
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
                                      ("skill", f"{SKILLED} instead of {UNSKILLED}"))):
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
    data["fig_hold_dump"] = fig_hold_dump(ctx, data["hold_dump"])


def fig_hold_dump(ctx, hd) -> str:
    """Holder − dumper per table size and scale (points per deal, match win), and at 4 players
    every timing policy against holding."""
    fig, axes = plt.subplots(1, 3, figsize=(14, 3.9))
    x = np.array(common.PLAYERS, dtype=float)
    for i, scale in enumerate(HOLD_DUMP_SCALES):
        dx = (i - 0.5) * 0.1
        common.errorbars(axes[0], x + dx, [hd["deals"][(scale, p)]["points"] for p in x], 1,
                         color=common.COLORS[i], label=scale)
        common.errorbars(axes[1], x + dx, [hd["matches"][(scale, p)]["win"] for p in x], 100,
                         color=common.COLORS[i], label=scale)
    for ax, margin, title, ylabel in (
            (axes[0], POINTS_MARGIN, "Penalty points: holder − dumper",
             "Δ points per deal (points; < 0: holding pays)"),
            (axes[1], 100 * WIN_MARGIN, "Match win: holder − dumper",
             "Δ P(win match to 100) (pp; > 0: holding pays)")):
        ax.axhline(0, color="black", linewidth=0.8)
        for m in (-margin, margin):
            ax.axhline(m, color="grey", linestyle="--", linewidth=0.8,
                       label="practical margin" if m > 0 else None)
        ax.set_title(f"{title} (vs 3 expert)")
        ax.set_xlabel("players at the table")
        ax.set_ylabel(ylabel)
        ax.set_xticks(common.PLAYERS)
        ax.legend(fontsize=7)
    policies = timing_policies()[1:]
    labels = [p.split("=")[-1] for p in policies]
    for i, scale in enumerate(HOLD_DUMP_SCALES):
        common.errorbars(axes[2], np.arange(len(policies)) + (i - 0.5) * 0.1,
                         [hd["timing"][scale][p]["win"] for p in policies], 100,
                         color=common.COLORS[i], label=scale)
    axes[2].axhline(0, color="black", linewidth=0.8)
    axes[2].set_xticks(np.arange(len(policies)), labels)
    axes[2].set_title("When to play eights (4 players), against holding")
    axes[2].set_xlabel("eights played once the hand has at most K cards (dump: at once)")
    axes[2].set_ylabel("Δ P(win deal) vs holding (pp)")
    axes[2].legend(fontsize=7)
    fig.tight_layout()
    return common.save(fig, ctx, "claims-hold-dump", "Holding against dumping eights per table "
                       "size and scale, and the timing of the eights, with 95% intervals")
