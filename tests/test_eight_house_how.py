"""reports/eight-value.md §3's "how": the traced deals compare a house rule with `standard` by
paired differences with intervals, never by two side-by-side numbers (issue 37)."""

from __future__ import annotations

import sys
from pathlib import Path
from types import SimpleNamespace

import numpy as np

from vandatta_sim.stats import Estimate, paired_difference

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "analyses"))
try:
    import eight_house_rules as house
finally:
    sys.path.remove(str(ROOT / "analyses"))


def test_paired_how_is_rule_minus_standard_deal_by_deal():
    rng = np.random.default_rng(4)
    deal = rng.normal(0, 5, 500)  # a shared deal effect: pairing removes it
    rule = {"draws": deal + 0.3 + rng.normal(0, 1, 500), "early": rng.random(500) < 0.9,
            "turns": 40 + deal + rng.normal(0, 1, 500)}
    std = {"draws": deal + rng.normal(0, 1, 500), "early": rng.random(500) < 0.8,
           "turns": 70 + deal + rng.normal(0, 1, 500)}
    how = house.paired_how(rule, std)
    for name in ("draws", "early", "turns"):
        assert how[name] == paired_difference(rule[name], std[name])
    assert how["draws"].low < 0.3 < how["draws"].high and how["turns"].high < -25


def test_the_how_compares_by_paired_differences_on_traced_deals():
    """With a real rule and a few traced deals: one row per rule (no `standard` row beside
    it), every cell an estimate with its interval or an exact zero in words."""
    change = Estimate(0.034, 0.027, 0.041, 300)
    cells = {("base", 3, "`draw_limit=1`"): {"d_win": change, "p_holm": 0.0},
             ("base", 3, "standard"): {}}
    ctx = SimpleNamespace(counts={"house_traced": 12, "house_deals": 300},
                          seeds={"house_traced": 8301}, log=lambda *a: None)
    text = house.mechanism(ctx, cells, "expert")
    rows = [line for line in text.splitlines() if line.startswith("| `draw_limit=1`")]
    assert len(rows) == 1 and "… `standard`" not in text
    cells_shown = [c.strip() for c in rows[0].strip("|").split("|")][1:]
    assert cells_shown[0] == "+3.4 pp [+2.7, +4.1]"
    for cell in cells_shown:
        assert ("[" in cell and "]" in cell) or "(no game changed)" in cell, cell
    assert "paired difference" in text and " against " not in text
