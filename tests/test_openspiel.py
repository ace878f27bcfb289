"""The OpenSpiel game (vandatta_sim.openspiel): OpenSpiel's own checks for Python games under
many house rules, parameters and their errors, serialization, what a seat sees, the world
sampler that IS-MCTS needs, and one whole game of OpenSpiel's IS-MCTS against our expert that
the referee accepts. The extra ``open-spiel`` is installed by ``make install`` (and CI), so these
tests run there; they are not skipped."""

from __future__ import annotations

import random

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import ismcts, mcts

from vandatta_sim import openspiel as V
from vandatta_sim import step as S
from vandatta_sim.cards import card_name
from vandatta_sim.referee import referee
from vandatta_sim.rules import RulesError, get_preset

# Ten and more house rules: table sizes 2-6, stacking, the eight's follow-up, ace on ace,
# jokers, draw limits, a custom scale and two match formats (short ones: random play is long).
CONFIGS = [
    {"players": 2, "match": "single"},
    {"players": 3, "stacking": True, "match": "single"},
    {"players": 4, "eight_follow": "same_player", "match": "single"},
    {"players": 5, "ace_on_ace": "counter", "two_draws_two": True, "match": "single"},
    {"players": 6, "match": "single", "hand_size": 5},
    {"players": 4, "jokers": 2, "joker_effect": "super_eight", "match": "single"},
    {"players": 3, "jokers": 1, "joker_effect": "draw_two", "draw_limit": 0, "match": "single"},
    {"players": 4, "draw_limit": 1, "call_at": 3, "call_penalty": 1, "match": "single"},
    {"players": 2, "must_play": False, "reshuffles": "0", "match": "single"},
    {"players": 2, "start_eight": "dealer_names", "start_ace": "bury", "reshuffles": "1",
     "match": "single"},
    {"players": 2, "match": "deals:2", "scale": '{ base = "hundred", "8" = 40 }'},
    {"players": 2, "match": "best_of:2", "eight_on_eight": True, "ace_on_eight": True},
    {"players": 3, "decks": "2", "stacking": True, "out_on_special": True, "match": "single"},
]


def expert(state) -> int:
    return state.suggestion


@pytest.mark.parametrize("params", CONFIGS, ids=lambda p: ",".join(f"{k}={v}" for k, v in p.items()))
def test_openspiels_random_simulation_checks_pass(params):
    """OpenSpiel's random_sim_test (legal actions sorted and unique in name, clones, every
    seat's information state and observation strings and tensors, returns zero-sum and within
    the utility range). serialize=False: OpenSpiel cannot serialize a Python game with sampled
    chance (its Game.Serialize asks for an RNG state a Python game cannot give); the states'
    own serialization is tested below."""
    game = pyspiel.load_game(V.SHORT_NAME, params)
    pyspiel.random_sim_test(game, num_sims=2, serialize=False, verbose=False)


def test_every_rule_field_is_a_parameter_with_standards_default():
    game = pyspiel.load_game(V.SHORT_NAME, {"stacking": True, "players": 3})
    assert game.rules == get_preset("standard").replace(stacking=True, players=3)
    assert game.num_players() == 3 and game.num_distinct_actions() == S.NUM_ACTIONS == 63
    assert set(game.get_parameters()) == set(V.PARAMETERS)
    assert pyspiel.load_game(V.SHORT_NAME).rules == get_preset("standard")
    assert game.get_type().chance_mode == pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC


def test_a_bad_parameter_is_a_clear_error_naming_it():
    with pytest.raises(pyspiel.SpielError, match="Unknown parameter 'stacked'. Available "
                                                 "parameters are: .*stacking"):
        pyspiel.load_game(V.SHORT_NAME, {"stacked": True})
    with pytest.raises(RulesError, match="players = 11 is not allowed; allowed: 2–10"):
        pyspiel.load_game(V.SHORT_NAME, {"players": 11})
    with pytest.raises(RulesError, match="eight_follow = 'x' is not allowed; allowed: "
                                         "next_player, same_player"):
        pyspiel.load_game(V.SHORT_NAME, {"eight_follow": "x"})
    with pytest.raises(RulesError, match="decks = 3 is not allowed; allowed: auto, 1, 2"):
        pyspiel.load_game(V.SHORT_NAME, {"decks": "3"})
    with pytest.raises(pyspiel.SpielError, match="Wrong type for parameter decks"):
        pyspiel.load_game(V.SHORT_NAME, {"decks": 2})
    with pytest.raises(RulesError, match="seed = -1 is not allowed"):
        pyspiel.load_game(V.SHORT_NAME, {"seed": -1})


def test_the_deal_comes_from_the_seed_and_the_game_index():
    game = pyspiel.load_game(V.SHORT_NAME, {"players": 3, "match": "single", "seed": 7})
    same = game.new_initial_state("5")
    assert str(same) == str(game.new_initial_state("5")) != str(game.new_initial_state("6"))
    other_seed = pyspiel.load_game(V.SHORT_NAME, {"players": 3, "match": "single", "seed": 8})
    assert str(other_seed.new_initial_state("5")) != str(same)
    with pytest.raises(S.StepError, match="initial state 'x' is not allowed"):
        game.new_initial_state("x")


def play(state, choose):
    while not state.is_terminal():
        state.apply_action(choose(state))
    return state


def test_a_state_serializes_and_comes_back_the_same():
    game = pyspiel.load_game(V.SHORT_NAME, {"players": 3, "match": "single"})
    state = game.new_initial_state("2")
    for _ in range(20):
        state.apply_action(state.suggestion)
    back = game.deserialize_state(state.serialize())
    assert str(back) == str(state) and back.history() == state.history()
    for seat in range(3):
        assert back.information_state_string(seat) == state.information_state_string(seat)
    world = state.resample_from_infostate(1, random.Random(3).random)
    again = game.deserialize_state(world.serialize())
    assert again.information_state_string(1) == world.information_state_string(1)
    assert str(again) == str(world)


def test_the_information_state_holds_the_seats_whole_view_and_the_observation_the_present():
    game = pyspiel.load_game(V.SHORT_NAME, {"players": 3, "match": "single"})
    state = game.new_initial_state("1")
    for _ in range(12):
        state.apply_action(state.suggestion)
    seat = state.current_player()
    info, now = state.information_state_string(seat), state.observation_string(seat)
    assert now in info and len(info) > len(now)  # the present and then the events
    for card in state.step.hand(seat):
        assert card_name(card) in now
    other = (seat + 1) % 3
    assert state.information_state_string(other) != info
    hidden = [row for row in state.step.observation(seat).events
              if row[0] == 2 and row[1] == other]
    assert hidden and all(row[2] == -1 for row in hidden)
    # the tensors: sized as the game says, finite, and the hand counted
    tensor = np.array(state.information_state_tensor(seat))
    assert tensor.shape == (game.information_state_tensor_size(),)
    assert np.isfinite(tensor).all()
    assert len(state.observation_tensor(seat)) == game.observation_tensor_size()


@pytest.mark.parametrize("players, index, moves", [(2, "1", 30), (4, "3", 12), (4, "3", 60)])
def test_resampled_worlds_keep_the_seats_view_and_vary_the_rest(players, index, moves,
                                                                monkeypatch):
    """Worlds drawn for the seat to move: its information state is the real one, the engine
    finds them consistent, the other seats' hands differ between worlds, and the real game's
    hidden cards are never read (its takes and full trace are made unreadable here)."""
    game = pyspiel.load_game(V.SHORT_NAME, {"players": players, "match": "single"})
    state = game.new_initial_state(index)
    for _ in range(moves):
        state.apply_action(state.suggestion)
    seat = state.current_player()
    real = state.information_state_string(seat)
    others = {}

    def unreadable(*_):
        raise AssertionError("the resampler read the real game's hidden cards")

    monkeypatch.setattr(state.step, "takes", unreadable)
    monkeypatch.setattr(state.step, "events", unreadable)
    rng = random.Random(0)
    for _ in range(8):
        world = state.resample_from_infostate(seat, rng.random)
        assert world.information_state_string(seat) == real
        assert world.step.consistent and world.current_player() == seat
        assert world.legal_actions() == state.legal_actions()
        hands = tuple(world.step.hand(s) for s in range(players) if s != seat)
        others[hands] = others.get(hands, 0) + 1
    assert len(others) > 1


def test_openspiels_ismcts_plays_a_whole_game_against_our_expert_and_the_referee_accepts_it():
    """OpenSpiel's (Python) ISMCTSBot at seat 0, a small budget, worlds from our sampler; our
    expert at the other seats. The game ends, and the referee accepts every event."""
    params = {"players": 3, "match": "single", "seed": 2}
    game = pyspiel.load_game(V.SHORT_NAME, params)
    numbers = np.random.RandomState(1)
    bot = ismcts.ISMCTSBot(
        game, mcts.RandomRolloutEvaluator(1, numbers), uct_c=2.0, max_simulations=6,
        max_world_samples=2, random_state=numbers, allow_inconsistent_action_sets=True)
    sampler = random.Random(1)
    bot.set_resampler(lambda state, player: state.resample_from_infostate(player, sampler.random))
    state = game.new_initial_state("0")
    searched = 0
    while not state.is_terminal():
        if state.current_player() == 0:
            action = bot.step(state)
            searched += 1
        else:
            action = expert(state)
        state.apply_action(int(action))
    assert searched > 0
    summary = referee(state.step.events(), game.rules)
    assert summary["winner"] == state.step.winner()
    assert sum(state.returns()) == pytest.approx(0)
