"""Tests of the players' ladder: the focal design that keeps winners, and the report script's
pieces (game counts for slow policies, the rating tables) and its quick run, a slow policy
included."""

import sys
from pathlib import Path

import pytest

from vandatta_sim.experiments.designs import focal_outcomes, focal_winners
from vandatta_sim.experiments.runner import Runner
from vandatta_sim.rules import PRESETS
from vandatta_sim.simulate import simulate

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "analyses"))
import players  # noqa: E402


def test_focal_winners_line_up_with_focal_outcomes_and_count_no_winner():
    direct = Runner(use_sweep=False)
    rule_sets = [PRESETS[p].replace(players=3, match="single") for p in ("standard", "seed002")]
    out = focal_winners(direct, rule_sets, ("greedy", "expert"), "random", 150, seed=11)
    for rules, table in zip(rule_sets, out):
        ref = focal_outcomes(direct, rules, ("greedy", "expert"), "random", 150, seed=11)
        for pol in ("greedy", "expert"):
            assert table[pol]["win"].tolist() == ref[pol]["win"].tolist()
            assert table[pol][["seat", "game"]].equals(ref[pol][["seat", "game"]])
        raw = simulate(rules, 150, seed=13, policies=["random", "random", "greedy"])
        seat2 = table["greedy"][table["greedy"]["seat"] == 2]
        assert seat2["no_winner"].tolist() == (raw["winner"] < 0).tolist()
    with pytest.raises(ValueError, match="one number of players"):
        focal_winners(direct, [rule_sets[0], rule_sets[0].replace(players=2)], ("expert",),
                      "random", 5, seed=1)


class Args:
    quick, fraction = False, 1.0


class Ctx:
    def __init__(self, quick=False, fraction=1.0):
        self.quick, self.args = quick, Args()
        self.args.quick, self.args.fraction = quick, fraction


def test_games_for_gives_slow_policies_their_own_count(monkeypatch):
    monkeypatch.setattr(players, "SLOW_GAMES", {"search": 300, "expert:eights=dump": 40})
    assert players.games_for(Ctx(), "random") == players.GAMES["full"]
    assert players.games_for(Ctx(), "search:budget=16") == 300  # by policy name
    assert players.games_for(Ctx(), "expert:eights=dump") == 40  # by full spec
    assert players.games_for(Ctx(), "expert") == players.GAMES["full"]
    assert players.games_for(Ctx(quick=True), "search") == players.SLOW_QUICK
    assert players.games_for(Ctx(quick=True), "greedy") == players.GAMES["quick"]
    assert players.games_for(Ctx(fraction=0.5), "search") == 150
    assert players.is_slow("search:budget=64") and not players.is_slow("expert")


def test_rating_tables_count_each_deal_once():
    import pandas as pd

    def focal(wins, losses, none):
        return pd.DataFrame({"win": [True] * wins + [False] * (losses + none),
                             "no_winner": [False] * (wins + losses) + [True] * none})

    ladder = {("standard", n, s): focal(3, 5, 1) for n in players.TABLE_SIZES
              for s in ("greedy", "expert")}
    rr = {("standard", "random", "greedy"): focal(2, 4, 0),
          ("seed002", "random", "greedy"): focal(9, 9, 0)}
    tables = players.rating_tables("standard", ladder, rr, ("greedy", "expert"))
    assert tables == [(("greedy", "expert"), (3, 5)),
                      (("greedy", "expert", "expert", "expert"), (3, 5, 0, 0)),
                      (("random", "greedy"), (2, 4))]


@pytest.mark.slow
def test_quick_run_with_a_slow_policy(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(players, "LADDER", ("random", "expert", "expert:eights=dump"))
    monkeypatch.setattr(players, "SLOW_GAMES", {"expert:eights=dump": 5})
    monkeypatch.setattr(players, "BUDGET_SECONDS", 0)  # every slow spec is over it
    out = tmp_path / "players.md"
    monkeypatch.setattr(sys, "argv", ["players.py", "--quick", "--backend", "direct",
                                      "--out", str(out)])
    players.main()
    log = capsys.readouterr().err
    assert "expert:eights=dump: ~" in log and "s projected" in log
    assert "over the budget of 0 s; SLOW_GAMES['expert:eights=dump'] = 0 would fit" in log
    text = out.read_text(encoding="utf-8")
    for heading in ("## 1. The ladder", "## 2. Ratings", "## 3. Time per decision",
                    "## 4. Which players"):
        assert heading in text
    # 2 players: 5 games per seat × 2 seats; 4 players: × 4 seats
    assert "| `expert:eights=dump` | 10 (slow) |" in text
    assert "| `expert:eights=dump` | 20 (slow) |" in text
    assert f"| `random` | {2 * players.GAMES['quick']:,} |" in text
    assert "machine-dependent" in text and "This run took" in text
    assert "](figures/players-ladder.png)" in text
    assert (tmp_path / "figures" / "players-ladder.png").stat().st_size > 0
    assert "between every pair of `random`, `expert`; " in text  # the slow one meets expert only
