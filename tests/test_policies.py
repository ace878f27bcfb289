"""Policy specs with options, and the heuristics' behaviour that the reports rest on."""

import numpy as np
import pytest

from vandatta_sim import engine as E
from vandatta_sim.referee import GameState, legal_plays
from vandatta_sim.rules import get_preset
from vandatta_sim.simulate import (DEFAULT_POLICY, Seats, SimulationError, check_policy, policy_code,
                                   simulate, trace_game)

from vandatta_sim.sweep.grid import expand_grid
from vandatta_sim.trace import Event, as_rows


def test_policy_specs_have_one_canonical_spelling():
    assert check_policy("expert:eights=hold") == "expert"
    assert check_policy(" expert : eights = dump ") == "expert:eights=dump"
    assert policy_code("expert") == policy_code("expert:eights=hold") == E.POL_EXPERT
    assert policy_code("expert:eights=dump") == E.POL_EXPERT | E.OPT_EIGHTS_DUMP
    assert Seats.build(3, "expert:eights=hold") == Seats.build(3, "expert")
    assert Seats.build(3, ["0=expert:eights=dump"]).policies[0] == "expert:eights=dump"
    assert Seats.build(2, {"all": "expert:eights=dump"}).describe() == "all=expert:eights=dump"


@pytest.mark.parametrize("spec, message", [
    ("expert:eights=maybe", "allowed: hold, dump"),
    ("greedy:eights=dump", "allowed for greedy: none"),
    ("expert:colour=red", "allowed for expert: eights"),
    ("expert:eights=dump:eights=hold", "option 'eights' is not allowed"),
    ("cheater:eights=dump", "allowed: random, greedy, expert, eight-dumper"),
])
def test_unknown_policies_and_options_are_one_line_errors(spec, message):
    with pytest.raises(SimulationError, match=message) as err:
        check_policy(spec)
    assert "\n" not in str(err.value)


def test_sweeps_vary_and_key_policy_variants():
    configs = expand_grid(vary=["policy=expert,expert:eights=dump,expert:eights=hold"],
                          players=[2])
    assert [c.seats.policies[0] for c in configs] == ["expert", "expert:eights=dump"]
    assert len({c.key(1) for c in configs}) == 2
    fixed = expand_grid(players=[3], policies=["0=expert:eights=dump", "1=expert"])
    # seats not named play the default policy
    assert fixed[0].seats.policies == ("expert:eights=dump", "expert", DEFAULT_POLICY)


def _eights_legal_and_held(policy: str, games: int = 20) -> tuple[int, int]:
    """Seat 0 playing ``policy`` against ``random`` (standard, 2 players): at how many of its
    plays an eight was legal (the referee's legal plays, hand and pile replayed), and at how
    many of those it played another card."""
    rules = get_preset("standard").replace(players=2, match="single")
    legal = held = 0
    for game in range(games):
        judge = GameState(rules)
        for index, row in enumerate(as_rows(trace_game(rules, 5, game,
                                                       policies=[policy, "random"]))):
            kind, seat, card, _ = row
            if kind == Event.PLAY and seat == 0 and any(
                    c < 52 and c // 4 == 7 for c in legal_plays(judge, 0)):
                legal += 1
                held += card // 4 != 7
            judge.step(index, row)
    return legal, held


@pytest.mark.parametrize("policy", ["expert:eights=dump", "eight-dumper"])
def test_eight_dumpers_play_every_legal_eight(policy):
    """expert:eights=dump and eight-dumper play an eight at every play where one is legal;
    expert (which keeps its eights) and greedy (eights last) do not: the check sees a held
    eight."""
    legal, held = _eights_legal_and_held(policy)
    assert legal > 5 and held == 0, (legal, held)
    for holder in ("expert", "greedy"):
        assert _eights_legal_and_held(holder)[1] > 0, holder


def test_expert_dumping_eights_plays_other_games_than_expert():
    """The option reaches the kernel: the same deals play out differently."""
    rules = get_preset("standard").replace(players=2, match="single")
    a = simulate(rules, 400, seed=3, policies=["expert", "random"])
    b = simulate(rules, 400, seed=3, policies=["expert:eights=dump", "random"])
    assert not a.equals(b)


@pytest.mark.parametrize("preset", ["standard", "crazy-eights-scoring", "kids"])
def test_big_expert_tables_end_with_a_winner(preset):
    # all-expert tables of 8-10 used to stall (49% of 10-player standard deals capped): every
    # ace the hand could follow made everyone draw the few cards left. No capped deal now.
    for players in (8, 9, 10):
        rules = get_preset(preset).replace(players=players, match="single")
        df = simulate(rules, 300, seed=players, policies="all=expert")
        assert not df.capped.any(), (preset, players, int(df.capped.sum()))


def test_big_search_tables_end_with_a_winner():
    rules = get_preset("standard").replace(players=10, match="single")
    df = simulate(rules, 12, seed=1, policies="all=search:budget=2")
    assert not df.capped.any() and (df.winner >= 0).all()
