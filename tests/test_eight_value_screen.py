"""reports/eight-value.md's first screen with each table's tuned player (`--player`, ADAPTED):
it names them, says why, sets `expert` beside them, and still fits one screen; and the §1
across-scale comparisons carry their multiplicity (issue 37)."""

from __future__ import annotations

import sys
from pathlib import Path

import pandas as pd

from vandatta_sim.stats import Estimate

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "analyses"))
try:
    import eight_value
finally:
    sys.path.remove(str(ROOT / "analyses"))

SCALES = ("base", "hundred", "crazy_eights")


def _values(player: str) -> pd.DataFrame:
    rows = []
    for scale, face in zip(SCALES, (10, 25, 50)):
        for p in (2, 3, 4, 5):
            row = {"player": eight_value.player_for(player, scale, p), "scale": scale,
                   "players": p, "rank": "8", "face": face, "n": 100_000}
            for name, (v, half) in {"win": (0.141, 0.004), "match_win": (-0.0431, 0.0042),
                                    "points": (-10.49, 0.28), "possible": (0.997, 0.001)
                                    }.items():
                row |= {name: v, f"{name}_low": v - half, f"{name}_high": v + half}
            rows.append(row)
    return pd.DataFrame(rows)


def _rob() -> dict:
    cell = {"expert": Estimate(0.141, 0.137, 0.145, 1), "vs_expert": Estimate(-0.0059, -0.0082,
                                                                           -0.0037, 1)}
    return {(s, p): cell for s in SCALES for p in (2, 3, 4, 5)}


def test_the_first_screen_names_the_tuned_players_and_sets_expert_beside_them():
    player = eight_value.ADAPTED
    text = eight_value.first_screen(None, _values(player), player, "![x](figures/x.png)\n",
                                    _rob())
    head = "# How much is an eight worth?\n\n" + "made\n" * 3 + "\n"
    eight_value.check_screen(head + text)  # one screen, even with the widest numbers
    flat = " ".join(text.split())
    assert "`tuned:standard-SCALE-N`" in flat and "players who adapt" in flat
    assert "`expert`, one fixed player for every table (the reference)" in flat
    assert "-0.6 [-0.8, -0.4]" in flat  # the paired difference, with its interval
    assert "fewer matches in 100" in flat  # a negative match effect is not "none measured"


def test_the_across_scale_comparisons_state_their_multiplicity():
    """Holm over the eight comparisons: a plain-95 % difference with p about 0.03 is not kept,
    one with p far below 0.05/8 is."""
    scales = {(s, p): Estimate(0.004, 0.0004, 0.0076, 1) for s in SCALES[1:] for p in (2, 3, 4, 5)}
    scales[("hundred", 3)] = Estimate(0.02, 0.015, 0.025, 1)
    text = eight_value.across_multiplicity(scales)
    assert "8 comparisons" in text and "Holm" in text
    assert "1 of 8 stay distinguishable from 0: hundred − base at 3 players" in text
