"""The step (vandatta_sim.step): a game one decision at a time, driven from outside.

The engine is the only text of the rules of a turn, so the step is checked against the two
independent readings the project has: the batch kernel (answered with each seat's own policy's
choice, the step must play exactly the batch kernel's game, event by event) and the referee
(whatever legal action is taken, the game stays legal, and the options a move offers are
exactly the cards the referee's rules allow)."""

from __future__ import annotations

import random

import numpy as np
import pytest
import test_engine
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from vandatta_sim import step as S
from vandatta_sim.referee import GameState, legal_plays, referee
from vandatta_sim.rules import Rules, get_preset
from vandatta_sim.simulate import simulate, trace_game
from vandatta_sim.trace import Event, as_rows

HEURISTIC = ["random", "greedy", "expert", "expert:eights=dump", "eight-dumper",
             "expert:eights=3"]


def play_out(state: S.State, choose) -> S.State:
    while not state.is_terminal():
        state.apply_action(choose(state))
    return state


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rules=test_engine.rule_sets(), seed=st.integers(0, 2**32), game=st.integers(0, 99),
       data=st.data())
def test_answered_with_each_policys_own_choice_the_step_plays_the_batch_kernels_game(
        rules, seed, game, data):
    """Any rules, table size and mix of policies, with some seats external (their forget is
    their own answer, so 0) and the others bots that forget calls: every decision is the
    external seat's, its suggestion is one of its options, and the events, the winner and the
    points are those of trace_game and simulate for the same seed and game."""
    players = rules.players
    policies = [data.draw(st.sampled_from(HEURISTIC)) for _ in range(players)]
    external = data.draw(st.sets(st.integers(0, players - 1), min_size=1))
    forget = [0.0 if s in external else 0.3 for s in range(players)]
    state = S.Game(rules, policies, external=external, forget=forget).new_state(seed, game)
    while not state.is_terminal():
        decision = state.decision
        assert decision.seat in external
        assert decision.suggestion in decision.actions
        assert state.legal_actions() == list(decision.actions) == sorted(decision.actions)
        state.apply_action(decision.suggestion)
    expected = trace_game(rules, seed, game, policies=policies, forget=forget)
    np.testing.assert_array_equal(state.events(), expected)
    row = simulate(rules, 1, seed=seed, first_game=game, policies=policies,
                   forget=forget).iloc[0]
    assert state.winner() == row.winner
    assert list(state.points()) == [row[f"points_{s}"] for s in range(players)]


def move_options_agree_with_the_referee(state: S.State, rules: Rules) -> None:
    """At a move (or a duty's answer), the cards offered are the referee's legal plays for the
    hand the seat holds: every legal card and no other."""
    if state.decision.kind not in ("move", "duty"):
        return
    judge = GameState(rules)
    for index, row in enumerate(as_rows(state.events())):
        judge.step(index, row)
    offered = {a for a in state.decision.actions if a < S.NAME_SUIT}
    assert offered == legal_plays(judge, state.decision.seat)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rules=test_engine.rule_sets(), seed=st.integers(0, 2**32))
def test_any_legal_action_keeps_the_game_legal_for_the_referee(rules, seed):
    """Random legal actions at every seat (draws where the policy would play, stops, any
    suit, forgotten calls): the referee accepts the whole game and agrees on its result, and
    every move's options are the referee's legal plays. Matches of a few deals only: each action
    replays the game from its start, and an elimination match of random play ran to 594 s in
    one CI run (the square of its length); the test above steps elimination matches through."""
    if rules.match.startswith("elimination"):
        rules = rules.replace(match="deals:3")
    chooser = random.Random(seed)
    state = S.Game(rules).new_state(seed, 0)
    checked = 0
    while not state.is_terminal():
        if checked < 60:
            move_options_agree_with_the_referee(state, rules)
            checked += 1
        state.apply_action(chooser.choice(state.legal_actions()))
    summary = referee(state.events(), rules)
    assert summary["winner"] == state.winner()
    assert list(summary["totals"]) == list(state.points())


def test_eight_to_ten_seats_with_two_decks():
    for players in (8, 9, 10):
        rules = get_preset("standard").replace(players=players, match="single")
        state = play_out(S.Game(rules, "expert").new_state(3, players),
                         lambda s: s.decision.suggestion)
        np.testing.assert_array_equal(state.events(), trace_game(rules, 3, players))
        referee(state.events(), rules)


@pytest.fixture(scope="module")
def standard():
    return get_preset("standard").replace(players=4, match="single")


def test_every_kind_of_decision_is_reached(standard):
    """Under rules with stacking, same-player eights, counter aces and calls, the step asks
    every kind of decision a policy makes."""
    rules = standard.replace(stacking=True, eight_follow="same_player", ace_on_ace="counter",
                             two_draws_two=True)
    kinds = set()
    chooser = random.Random(5)
    for game in range(30):
        state = S.Game(rules, "random").new_state(1, game)
        while not state.is_terminal():
            kinds.add(state.decision.kind)
            state.apply_action(chooser.choice(state.legal_actions()))
    assert kinds == set(S.E.DECISION_KINDS)


def test_misuse_is_a_clear_error(standard):
    game = S.Game(standard)
    state = game.new_state(1, 0)
    illegal = next(a for a in range(S.NUM_ACTIONS) if a not in state.legal_actions())
    with pytest.raises(S.StepError, match=r"action .* is not allowed for seat 0's move; allowed"):
        state.apply_action(illegal)
    for bad in (-1, S.NUM_ACTIONS, True, "3", 2.0):
        with pytest.raises(S.StepError, match="not allowed"):
            state.apply_action(bad)
    assert state.history() == []  # nothing applied
    done = play_out(state, lambda s: s.decision.suggestion)
    with pytest.raises(S.StepError, match="the game is over"):
        done.apply_action(0)
    with pytest.raises(S.StepError, match="not over yet"):
        game.new_state(1, 0).winner()
    with pytest.raises(S.StepError, match="seat 4 is not allowed; allowed: 0–3"):
        S.Game(standard, external=[4])
    with pytest.raises(S.StepError, match="policy of external seat 0 'search"):
        S.Game(standard, "search", external=[0])
    with pytest.raises(S.StepError, match="action 63 is not allowed; allowed: 0–62"):
        S.action_to_string(63)
    with pytest.raises(S.StepError, match="takes"):
        game.new_state(1, 0, takes=[54])


def test_a_clone_goes_its_own_way(standard):
    state = S.Game(standard).new_state(2, 0)
    twin = state.clone()
    first = state.legal_actions()[0]
    state.apply_action(first)
    assert twin.history() == [] and state.history() == [first]
    twin.apply_action(first)
    np.testing.assert_array_equal(twin.events(), state.events())


def test_an_observation_holds_the_seats_own_cards_and_the_public_record(standard):
    state = S.Game(standard).new_state(4, 0)
    for _ in range(25):
        state.apply_action(state.decision.suggestion)
    seat = state.current_player()
    view = state.observation(seat)
    assert view.hand == state.hand(seat) and view.to_move == seat
    assert view.hand_sizes == tuple(len(state.hand(s)) for s in range(4))
    assert view.pile[-1] == view.top
    assert sum(view.hand_sizes) + view.talon + len(view.pile) == 52
    other = (seat + 1) % 4
    hidden = [row for row in view.events if row[0] in (Event.DEAL, Event.DRAW) and row[1] == other]
    assert hidden and all(row[2] == -1 for row in hidden)
    # what another seat holds cannot change this seat's view: the same view in every world
    # where two other seats' dealt cards are exchanged and the same actions stay legal
    dealt = [row[1] for row in as_rows(state.events()) if row[0] == Event.DEAL]
    others = [k for k, s in enumerate(dealt) if s != seat]
    consistent = 0
    for i in others:
        for j in others:
            if dealt[i] >= dealt[j] or consistent >= 5:
                continue
            takes = list(state.takes())
            takes[i], takes[j] = takes[j], takes[i]
            world = state.world(takes)
            if world.consistent:
                consistent += 1
                assert world.observation(seat) == view
                assert world.hand(dealt[i]) != state.hand(dealt[i])
    assert consistent > 0


def test_a_world_of_the_same_takes_is_the_game_and_a_wrong_one_is_flagged(standard):
    state = S.Game(standard).new_state(1, 3)
    for _ in range(150):
        state.apply_action(state.decision.suggestion)
    same = state.world(state.takes())
    # the same decision (its suggestion aside: a world's stream is not the game's, and the
    # policies break ties with it)
    assert same.consistent and same.decision.actions == state.decision.actions
    assert (same.decision.kind, same.decision.seat) == (state.decision.kind, state.decision.seat)
    np.testing.assert_array_equal(same.events(), state.events())
    takes = list(state.takes())
    played = [row[2] for row in as_rows(state.events()) if row[0] == Event.PLAY and row[1] == 0]
    # seat 0's first played card dealt to seat 1 instead: seat 0 could not have played it
    first = takes.index(played[0])
    swap = next(k for k in range(7, 14) if takes[k] != played[0])
    takes[first], takes[swap] = takes[swap], takes[first]
    assert not state.world(takes).consistent


def test_returns_are_zero_sum_with_the_winner_on_top(standard):
    state = play_out(S.Game(standard).new_state(6, 1), lambda s: s.decision.suggestion)
    returns = state.returns()
    assert abs(sum(returns)) < 1e-12
    assert returns[state.winner()] == 1.0 and state.current_player() == S.TERMINAL
