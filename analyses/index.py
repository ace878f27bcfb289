"""reports/README.md: the index of the reports, how to make them, seeds, game counts, versions.

    python analyses/index.py --out reports/README.md
"""

from __future__ import annotations

import argparse

import common
import players

from vandatta_sim.formatting import format_table

REPORTS = [
    ("eight-value.md", "analyses/eight_value.py",
     "What one more eight is worth to its holder under each scoring scale (`base`, `hundred`, "
     "`crazy_eights`) at 2–5 players, on one screen (deal wins, match wins, points, with the "
     "players named); then the detail (opponents' points and standing, matches per deal "
     "played, one more ace), for each table's tuned player with `expert` beside it, the fair "
     "score (where players told the score gain nothing from one more eight) and the "
     "fixed-play break-even as a threshold (Fieller intervals, in ordinary cards, on own "
     "points and on standing), the eight under each house rule and "
     "preset at 3 and 4 players (paired against `standard`, Holm), the `search` player on "
     "the same deals in every headline cell, how much belongs to the game and how much to "
     "the players, hold or dump and when to play the eights, and every rank with a "
     "random-play control. `vandatta-sim value` asks the same for any house rules."),
    ("variants.md", "analyses/variants.py",
     "Every preset and every single house rule toggled from `standard`: deal length with "
     "distributions, förhand advantage per table size, blocked deals and reshuffles, points, "
     "match length, skill (`expert` against `random`), and the game feel (lead changes, "
     "comebacks, decisiveness, real choices)."),
    ("claims.md", "analyses/claims.py",
     "Each claim of docs/spec.md §4 with its evidence and a verdict."),
    ("players.md", "analyses/players.py",
     "The ladder of players: each policy's seat against `expert`s at 2 and 4 players under "
     "`standard`, `seed002` and `crazy-eights-scoring`, ratings (Bradley–Terry–Luce) from the "
     "head-to-heads, and the time per decision (machine-dependent)."),
    ("design.md", "analyses/design.py",
     "The rules designer (`vandatta-sim design`) on its three worked examples: the fairest "
     "two-player rules with deals of 30–40 turns, a kids' table with short deals, no "
     "stalls and a small first-player edge, and a lively table (the game feel as goals: most "
     "comebacks, swinging leads, real choices); the finalists re-measured on fresh seeds (seeds, "
     "trials and deal counts in each example's [search] section)."),
]


def players_counts() -> list[list]:
    """The rows of the seeds-and-counts table for reports/players.md, whose counts live in
    its script (its LADDER and SLOW_GAMES are the one place its players are listed)."""
    fast = f"{players.GAMES['full']:,}"
    slow = "".join(f", {games:,} for `{spec}`" for spec, games in players.SLOW_GAMES.items()
                   if any(s == spec or s.split(":")[0] == spec for s in players.LADDER))
    return [["`players_ladder`", players.SEEDS["ladder"], fast + slow, "players",
             "single deals per (preset, players 2 and 4, focal policy, focal seat)"],
            ["`players_round_robin`", players.SEEDS["round_robin"], fast, "players",
             "single deals per (preset, pair of heuristics heads-up, focal seat)"]]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default="reports/README.md")
    args = parser.parse_args()
    text = ["# Reports\n",
            "Monte Carlo answers to the house-rule questions of the [top-level README](../README.md) "
            "and the claims of [the rules specification](../docs/spec.md) §4, made by the scripts in "
            "`analyses/` from the simulator in `vandatta_sim/`. Every rate and mean carries a "
            "95 % confidence interval (Wilson for proportions, normal for means, paired "
            "differences for comparisons on the same deals); \"n.s.\" marks a difference whose "
            "interval contains 0. Every check that a finding survives stronger play (the slow "
            "`search` player, on fewer deals) states the smallest difference it could see: "
            "80 % power at 5 % (two-sided), at its game count. `search` is the strongest player "
            "that fits the reports' time: `ismcts` wins about 1 pp more against `expert`s but "
            "makes four to six times fewer decisions a second ([docs/policies.md]"
            "(../docs/policies.md)).\n",
            "## Index\n"]
    text.append(format_table(["report", "script", "contents"],
                             [[f"[{name}]({name})", f"`{script}`", what]
                               for name, script, what in REPORTS], "lll"))
    text.append(
        "\n## How to make them\n\n"
        "```\nmake reports\n```\n\n"
        "runs, for each stale report, its script on the embedded engine (no server; all cores):"
        "\n\n```\n"
        + "".join(f"python {script} --out reports/{name}\n" for name, script, _ in REPORTS)
        + "python analyses/index.py --out reports/README.md\n```\n\n"
        "Simulations go through the sweep layer into the result store `results/` (one folder "
        "per configuration, seed and chunk size); a configuration already stored is read back, "
        "not played again, so the reports share their common runs (the claims reuse the "
        "eight-value runs) and a second `make reports` only redraws. Each game depends only on "
        "(rules, seats, seed, game index), so the same seeds give the same numbers and, with "
        "the same library versions, byte-identical Markdown and PNG files. `--quick` runs tiny "
        "game counts into `results-quick/` (for tests); `--backend direct` skips the store.\n")
    text.append("\n## Seeds and game counts\n\n"
                "All in `analyses/common.py` (the players report's in `analyses/players.py`). "
                "Policy substitution uses seed + focal seat "
                "(seat *s* of a table plays seed *seed + s*). Unless a report says otherwise "
                f"every seat plays `{common.POLICY}`.\n\n")
    text.append(format_table(
        ["experiment", "seed", "games", "used in", "what a game count counts"],
        [[f"`{k}`", common.SEEDS[k], f"{common.FULL[k]:,}", *common.COUNT_NOTES[k]]
         for k in common.FULL] + players_counts(), "lrrll"))
    text.append("\n## Versions\n\n")
    text.append(format_table(["package", "version"],
                             [[k, f"`{v}`"] for k, v in common.versions().items()], "ll"))
    text.append("\nThe engine version is part of every stored configuration's key, so results "
                "of a different engine are never mixed in.\n")
    out = common.Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text("\n".join(t.strip("\n") + "\n" for t in text), encoding="utf-8")


if __name__ == "__main__":
    main()
