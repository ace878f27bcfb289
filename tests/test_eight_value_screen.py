"""reports/eight-value.md's first screen with each table's tuned player (`--player`, ADAPTED):
it names them, says why, sets `expert` beside them, and still fits one screen; and the §1
across-scale comparisons carry their multiplicity (issue 37)."""

from __future__ import annotations

import sys
from pathlib import Path

from types import SimpleNamespace

import pandas as pd

from vandatta_sim.experiments.fair_score import FairScore
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


def _fair() -> dict:
    """The widest fair-score text: no score of a 10-point grid to 691 accepted."""
    grid = (0, 14, 28, 48, 69, 104, 173, 276, 414, 691)
    none = FairScore(grid, tuple(Estimate(-1.0, -1.5, -0.5, 1) for _ in grid), float("nan"),
                     float("nan"), float("nan"), False, 99_999)
    return {(s, p): {"points": none, "standing": none} for s in SCALES for p in (2, 3, 4, 5)}


def test_the_first_screen_names_the_tuned_players_and_sets_expert_beside_them():
    player = eight_value.ADAPTED
    ctx = SimpleNamespace(counts={"value_deals": 100_000}, seeds={"value_deals": 8301})
    text = eight_value.first_screen(ctx, _values(player), player, _rob(), _fair())
    # the header as a --quick run in a long temporary folder writes it: 4 lines
    head = "# How much is an eight worth?\n\n" + "made\n" * 4 + "\n"
    eight_value.check_screen(head + text)  # one screen, even with the widest numbers
    flat = " ".join(text.split())
    assert "`tuned:standard-SCALE-N`" in flat and "players who adapt" in flat
    assert "`expert`, one fixed player for all tables, is the reference" in flat
    # the paired difference, with its interval rounded outward (-0.82 is shown -0.9)
    assert "-0.6 [-0.9, -0.3]" in flat
    # the fair score per scale, with its command
    assert flat.count("none from 0 to 691 (one more saves points at every score)") == 3
    assert "vandatta-sim value --fair --players 4 --scale base --policy " \
           "all=tuned:standard-base-4 --games 100000 --seed 8301" in flat
    assert "fewer matches in 100" in flat  # a negative match effect is not "none measured"


def test_the_across_scale_comparisons_state_their_multiplicity():
    """Holm over the eight comparisons: a plain-95 % difference with p about 0.03 is not kept,
    one with p far below 0.05/8 is."""
    scales = {(s, p): Estimate(0.004, 0.0004, 0.0076, 1) for s in SCALES[1:] for p in (2, 3, 4, 5)}
    scales[("hundred", 3)] = Estimate(0.02, 0.015, 0.025, 1)
    text = eight_value.across_multiplicity(scales)
    assert "8 comparisons" in text and "Holm" in text
    assert "1 of 8 stay distinguishable from 0: hundred − base at 3 players" in text
