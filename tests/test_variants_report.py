"""Tests of reports/variants.md's skill check with stronger play: the survival verdict, the
pairing of the strong run with the first games of the expert run, and (slow) the quick report:
the same bytes from two runs, and a table whose verdicts follow from the numbers it shows."""

import re
import sys
from pathlib import Path

import numpy as np
import pytest

from vandatta_sim.experiments.designs import skill_comparisons
from vandatta_sim.experiments.runner import Runner
from vandatta_sim.rules import PRESETS
from vandatta_sim.stats import Estimate

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "analyses"))
import variants  # noqa: E402
from conftest import quick_report_twice  # noqa: E402


def est(value, low, high):
    return Estimate(value, low, high, 100)


@pytest.mark.parametrize("skilled, strong, verdict", [
    (est(0.03, 0.01, 0.05), est(0.02, 0.001, 0.04), variants.SURVIVES),
    (est(-0.03, -0.05, -0.01), est(-0.04, -0.07, -0.01), variants.SURVIVES),
    (est(0.03, 0.01, 0.05), est(0.01, -0.02, 0.04), variants.SAME_SIGN),
    (est(-0.03, -0.05, -0.01), est(-0.01, -0.04, 0.02), variants.SAME_SIGN),
    (est(0.03, 0.01, 0.05), est(-0.01, -0.04, 0.02), variants.OPPOSITE_SIGN),
    (est(0.03, 0.01, 0.05), est(-0.04, -0.07, -0.01), variants.REVERSED),
    (est(-0.03, -0.05, -0.01), est(0.04, 0.01, 0.07), variants.REVERSED),
    (est(0.03, -0.01, 0.05), est(0.04, 0.01, 0.07), None),  # no expert finding to check
])
def test_survival_verdict_follows_from_the_two_intervals(skilled, strong, verdict):
    assert variants.survival(skilled, strong) == verdict


def test_strong_run_pairs_with_the_first_games_of_the_longer_run():
    """The same seed: the first games per seat of a longer skill run are the shorter run's, so
    the per-game skill of two skilled players can be differenced game by game."""
    direct = Runner(use_sweep=False)
    rules = [PRESETS["standard"].replace(players=4, match="single")]
    (long_games, _), = skill_comparisons(direct, rules, "expert", "random", 30, seed=21)
    (short_games, short_cmp), = skill_comparisons(direct, rules, "expert", "random", 12,
                                                  seed=21)
    assert np.array_equal(variants.leading_games(long_games, 4, 12), short_games)
    assert not np.array_equal(long_games[:48], short_games)  # rows run seat by seat
    assert short_cmp["win"].value == pytest.approx(short_games.mean())


PP = r"([+-]\d+\.\d) pp \[[+-]\d+\.\d, [+-]\d+\.\d\]( \(n\.s\.\))?"


def shown(cell: str):
    """(sign, significant) of a ``pp`` cell, or None for "–"; an exact zero (a variant that
    changes no game) is written in words and is not significant."""
    if cell == "–":
        return None
    if cell == "0 pp (no game changed)":
        return 0, False
    m = re.fullmatch(PP, cell)
    assert m, cell
    return (-1 if m.group(1).startswith("-") else 1), m.group(2) is None


@pytest.mark.slow
def test_quick_report_is_deterministic_and_its_verdicts_follow_from_its_numbers(tmp_path):
    # the two quick runs are the determinism check of the report script (the one that
    # tests/test_report.py makes for the other reports); the table is read from the first
    text = quick_report_twice("variants", tmp_path)
    assert "the strongest player)" not in text and "`search`" in text
    section = text.split("## Skill with stronger play\n", 1)[1].split("\n## ", 1)[0]
    lines = [ln for ln in section.splitlines() if ln.startswith("| ")]
    header = [c.strip() for c in lines[0].strip("|").split("|")]
    assert header == ["variant", "skill: Δ win search − random",
                      "skill search − skill expert (paired)", "Δ skill vs baseline: expert",
                      "Δ skill vs baseline: search", "expert's finding with search"]
    rows = [[c.strip() for c in ln.strip("|").split("|")] for ln in lines[1:]]
    assert len(rows) == len(variants.all_variants())
    counts = dict.fromkeys((variants.SURVIVES, variants.SAME_SIGN, variants.OPPOSITE_SIGN,
                            variants.REVERSED), 0)
    checked_widths = []
    for name, _, _, d_expert, d_search, verdict in rows:
        e, s = shown(d_expert), shown(d_search)
        if e is None or not e[1]:
            assert verdict == "–", name
            continue
        same = e[0] == s[0]
        expected = ((variants.SURVIVES if same else variants.REVERSED) if s[1]
                    else variants.SAME_SIGN if same else variants.OPPOSITE_SIGN)
        assert verdict == expected, name
        counts[verdict] += 1
        low, high = map(float, re.search(r"\[([+-]\d+\.\d), ([+-]\d+\.\d)\]", d_search).groups())
        checked_widths.append((high - low) / 2)
    # the power sentence reads the checked rows' intervals: their half-widths, and the smallest
    # difference seen with 80 % power, (z.975 + z.8) / z.975 of a half-width
    power = re.search(r"half-widths? (?:is|are) (\d+\.\d)(?:–(\d+\.\d))? pp, so the smallest "
                      r"difference this check sees with 80 % power \(5 %, two-sided\) is "
                      r"(\d+\.\d)(?:–(\d+\.\d))? pp", section)
    assert power, section
    lo_w, hi_w, lo_see, hi_see = (float(g) if g else None for g in power.groups())
    hi_w, hi_see = hi_w or lo_w, hi_see or lo_see
    assert lo_w == pytest.approx(min(checked_widths), abs=0.11)
    assert hi_w == pytest.approx(max(checked_widths), abs=0.11)
    ratio = (1.959964 + 0.841621) / 1.959964
    assert lo_see == pytest.approx(lo_w * ratio, abs=0.11)
    assert hi_see == pytest.approx(hi_w * ratio, abs=0.11)
    # the game feel: one row a variant, each measure with its interval, the baseline's no Δ
    feel = text.split("## Game feel\n", 1)[1].split("\n## ", 1)[0]
    feel_rows = [[c.strip() for c in ln.strip("|").split("|")]
                 for ln in feel.splitlines() if ln.startswith("| ")][1:]
    assert len(feel_rows) == len(variants.all_variants())
    assert all(row[1].count("[") == 1 for row in feel_rows) and feel_rows[0][2] == "–"
    assert "figures/variants-feel" in feel
    summary = text.split("## Summary table\n", 1)[1].split("## Skill with stronger play", 1)[0]
    assert (f"{sum(counts.values())} variants whose Δ skill vs baseline with `expert` is "
            f"significant, {counts[variants.SURVIVES]} keep it") in summary
