"""scripts/tree_properties.py: Long et al.'s tree properties measured on Vändåtta.

The counting is checked by brute force, the public bookkeeping against the true hands (the
real world is always one the count counts, and after a reshuffle each hand holds exactly the
number of the old pile's cards the bookkeeping says), the sibling sets against the reference
deal they branch from, and the summaries for their bounds and their reproducibility."""

from __future__ import annotations

import importlib.util
import itertools
import random
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from vandatta_sim.rules import get_preset
from vandatta_sim.step import Game

_SPEC = importlib.util.spec_from_file_location(
    "tree_properties", Path(__file__).resolve().parent.parent / "scripts" / "tree_properties.py")
T = importlib.util.module_from_spec(_SPEC)
sys.modules["tree_properties"] = T  # its dataclasses look their module up
_SPEC.loader.exec_module(T)


@settings(deadline=None)
@given(st.lists(st.integers(0, 2), min_size=1, max_size=4))
def test_the_multinomial_counts_the_placements_by_brute_force(sizes):
    total = sum(sizes)
    # every way to send each of the cards to a box, kept where the boxes get their sizes
    placements = sum(all(boxes.count(b) == n for b, n in enumerate(sizes))
                     for boxes in itertools.product(range(len(sizes)), repeat=total))
    assert T.log10_multinomial(total, sizes) == pytest.approx(np.log10(placements), abs=1e-9)
    with pytest.raises(ValueError):
        T.log10_multinomial(total + 1, sizes)


def check_bookkeeping(players: int, seed: int) -> bool:
    """Random play on a short talon (reshuffles come early at 3 and 4 players): at every
    turn, after a reshuffle the talon holds only cards the seat knows were moved there by the
    last, and each other hand holds exactly as many of each reshuffle's cards as the
    bookkeeping says; and the count does not grow between two of a seat's turns unless
    another seat drew (plays and own draws only remove placements).
    Whether the game reshuffled."""
    rules = get_preset("standard").replace(players=players, match="single",
                                           hand_size=min(15, 52 // players - 4))
    chooser = random.Random(seed)
    state = Game(rules, "random").new_state(seed, 0)
    last, reshuffled = {}, False
    while not state.is_terminal():
        seat = state.decision.seat
        if state.decision.kind in T.TURNS:
            obs = state.observation(seat)
            size = T.log10_information_set(obs, rules.deck_size)
            k = T.knowledge(obs.events, seat)
            if k.pools:
                reshuffled = True
                assert set(T.talon_of(state)) <= k.pools[-1].cards
            for pool in k.pools:
                for other, held in pool.held.items():
                    assert sum(c in pool.cards for c in state.hand(other)) == held
            if seat in last:
                before, seen = last[seat]
                others_drew = any(kind == T.Event.DRAW and who != seat
                                  for kind, who, _, _ in obs.events[seen:])
                if not others_drew:
                    assert size <= before + 1e-9
            last[seat] = (size, len(obs.events))
        state.apply_action(chooser.choice(state.legal_actions()))
    return reshuffled


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st.sampled_from([2, 3, 4]), seed=st.integers(0, 2**31))
def test_the_bookkeeping_agrees_with_the_true_hands_and_never_grows_without_a_draw(
        players, seed):
    check_bookkeeping(players, seed)


def test_the_bookkeeping_check_sees_reshuffles():
    """The check above reaches the post-reshuffle count (it is not vacuous)."""
    assert sum(check_bookkeeping(players, seed) for players in (2, 4) for seed in range(3)) >= 3


@pytest.fixture(scope="module")
def reference():
    """Reference deals of standard at 3 players (long ones reshuffle), with their decisions."""
    rules = get_preset("standard").replace(players=3, match="single")
    game = Game(rules, "expert")
    deals = []
    for index in range(6):
        world = T.World.of_deal(game, 7, index)
        state, path = world.start(game, 7, index), []
        while not state.is_terminal():
            path.append(state)
            state = world.apply(state, state.decision.suggestion)
        deals.append((world, path, state))
    assert any(row[0] == T.Event.RESHUFFLE for _, _, s in deals for row in s.events())
    return deals


def test_every_draw_follows_the_worlds_order(reference):
    """The talon always gives its card first in the world's order, reshuffles included."""
    for world, _, final in reference:
        taken = list(final.takes())
        assert final.consistent and taken == world.script(final.events())[: len(taken)]
        assert sorted(world.order) == list(range(52))


def test_the_reference_move_replays_the_reference_deal(reference):
    """The option the reference deal took, continued by expert, gives the reference deal
    itself (the siblings share its world and stream), at any depth."""
    for world, path, final in reference:
        for at in (path[0], path[len(path) // 2], path[-3], path[-1]):
            outcomes = T.sibling_outcomes(world, at)
            taken = at.decision.actions.index(at.decision.suggestion)
            assert outcomes[taken] == int(final.winner() == at.decision.seat)
            assert len(outcomes) == len(at.decision.actions) and set(outcomes) <= {0, 1}
        replayed = T.play_out(world, world.apply(path[1], path[1].decision.suggestion))
        np.testing.assert_array_equal(replayed.events(), final.events())


@given(st.lists(st.lists(st.integers(0, 1), min_size=2, max_size=5), min_size=1,
                max_size=30), st.integers(0, 2**31))
@settings(max_examples=50, deadline=None)
def test_leaf_correlation_and_bias_are_shares_within_their_bounds(sets, seed):
    rng = np.random.default_rng(seed)
    corr = T.cluster_ratio([T.correlated(o) for o in sets], [1] * len(sets), rng, boot=200)
    bias = T.cluster_ratio([sum(o) for o in sets], [len(o) for o in sets], rng, boot=200)
    for est in (corr, bias):
        assert 0 <= est.low <= est.value <= est.high <= 1
    assert corr.value == sum(len(set(o)) == 1 for o in sets) / len(sets)
    # a set whose options all agree is correlated, one with a win and a loss is not
    assert T.correlated([1, 1, 1]) and T.correlated([0, 0]) and not T.correlated([0, 1, 1])


def test_the_trick_taking_reference_reveals_everything_but_the_last_trick():
    df, left, turns = T.trick_game_reference(players=4, hand=13)
    assert turns == 13 and 0 < left < 0.05 and 0 < df < 1
    # 3 unseen cards in 3 hands of one at the last trick: 3! placements
    assert left * T.log10_multinomial(39, [13] * 3) == pytest.approx(np.log10(6))


def test_same_seed_same_output_and_the_measures_are_in_range(capsys):
    args = ["--presets", "standard", "--players", "2", "--deals", "12", "--seed", "3"]
    assert T.main(args) == 0
    first = capsys.readouterr().out
    assert T.main(args) == 0
    assert capsys.readouterr().out == first
    result = T.measure("standard", 2, 12, 3, boot=200)
    for est in [result.lc, result.bias, result.all_win, result.all_lose, result.left,
                result.df, result.rise] + result.left_at:
        assert 0 <= est.low <= est.value <= est.high <= 1
    assert result.all_win.value + result.all_lose.value == pytest.approx(result.lc.value)
    assert result.first.value > 0


@pytest.mark.parametrize("args, field", [
    (["--presets", "nope"], "--presets"), (["--players", "7"], "--players"),
    (["--deals", "3"], "--deals"), (["--deals", "٣٠"], "--deals"), (["--seed=-1"], "--seed"),
    (["--presets", ","], "--presets")])
def test_bad_input_is_one_error_line(args, field, capsys):
    assert T.main(args) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("Error: ") and field in err[0]
