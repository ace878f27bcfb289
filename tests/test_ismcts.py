"""The tree search player (ismcts): its spec, reproducibility, bounded tree, legal games, and that
it decides from its own information only."""

import numpy as np
import pytest

from test_search import _move_card, _rich_state, _same, _swap_hidden, _with_public_facts, _cards_of
from vandatta_sim import engine as E
from vandatta_sim.referee import referee
from vandatta_sim.rules import get_preset
from vandatta_sim.simulate import (Seats, SimulationError, check_policy, frozen_rules,
                                   kernel_constants, policy_code, simulate, trace_game)
from vandatta_sim.trace import Event, narrate

SINGLE = get_preset("standard").replace(match="single")


def _decide(G, H, seed, policy="ismcts:iterations=64", frozen=None):
    C = kernel_constants(SINGLE, Seats.build(4, [policy, "expert", "expert", "expert"]))
    frozen = frozen_rules(C, lean=False) if frozen is None else frozen
    # the seed as the coach passes it (a uint64), so that this is the coach's compiled kernel
    return E.ismcts_decision_nb(C, frozen, G.copy(), H.copy(), 0, 4, np.uint64(seed))


def test_ismcts_specs_are_canonical_and_checked():
    assert check_policy("ismcts:iterations=256:rollout=expert:c=0.7") == "ismcts"
    assert check_policy("ismcts:c=1.4:iterations=64") == "ismcts:c=1.4:iterations=64"
    assert check_policy("ismcts:root=paired") == "ismcts"  # the default root
    assert policy_code("ismcts:root=plain") == policy_code("ismcts") | E.OPT_ISMCTS_PLAIN_ROOT
    code = policy_code("ismcts:iterations=1024:rollout=greedy:c=0.35")
    assert code & E.POL_KIND == E.POL_ISMCTS
    assert (code >> E.SEARCH_BUDGET_SHIFT) & 0xFFFF == 1024
    assert (code >> E.SEARCH_ROLLOUT_SHIFT) & E.ROLLOUT_KIND == E.POL_GREEDY
    assert E.ISMCTS_C[(code >> E.SEARCH_MARGIN_SHIFT) & 3] == 0.35
    # the paired root's margin in standard errors: 1 unless given (search's is 2)
    assert check_policy("ismcts:margin=1") == "ismcts"
    assert (policy_code("ismcts") >> E.ISMCTS_MARGIN_SHIFT) & 3 == 1
    assert (policy_code("ismcts:margin=2:c=1.4") >> E.ISMCTS_MARGIN_SHIFT) & 3 == 2
    for bad, message in [("ismcts:iterations=0", "iterations='0' is not allowed; allowed: 256"),
                         ("ismcts:budget=8", "option 'budget' is not allowed; allowed for "
                                             "ismcts: iterations, rollout, c, root, margin, "
                                             "beliefs"),
                         ("ismcts:root=both", "allowed: paired, plain"),
                         ("ismcts:margin=5", "allowed: 1, 0, 2, 3"),
                         ("ismcts:beliefs=seen", "allowed: public, lacks, oracle, weighted"),
                         ("ismcts:rollout=ismcts", "allowed: expert, greedy")]:
        with pytest.raises(SimulationError, match=message):
            check_policy(bad)


def test_ismcts_games_do_not_depend_on_threads_or_blocks():
    seats = ["ismcts:iterations=16", "expert", "greedy"]
    rules = SINGLE.replace(players=3)
    one = simulate(rules, 40, seed=4, policies=seats, threads=1)
    two = simulate(rules, 40, seed=4, policies=seats, threads=2)
    assert one.equals(two)
    tail = simulate(rules, 20, seed=4, policies=seats, first_game=20)
    assert tail.reset_index(drop=True).equals(one.iloc[20:].reset_index(drop=True))


def test_an_ismcts_seat_plays_differently_from_its_rollout_policy():
    rules = SINGLE.replace(players=2)
    searched = simulate(rules, 40, seed=2, policies=["ismcts:iterations=32", "expert"])
    assert not searched.equals(simulate(rules, 40, seed=2, policies=["expert", "expert"]))
    # the margin is read: with none, any option that led in its worlds replaces the rollout's
    bold = simulate(rules, 40, seed=2, policies=["ismcts:iterations=32:margin=0", "expert"])
    assert not searched.equals(bold)


def test_the_tree_grows_below_the_root_and_is_bounded_by_the_iterations():
    G, H = _rich_state()
    for iterations in (16, 64, 256):
        cards, suits, no_stack, base, visits, wins, nodes, _ = _decide(
            G, H, seed=5, policy=f"ismcts:iterations={iterations}")
        options = list(zip(cards, suits, no_stack))
        assert len(options) >= 3 and len(set(options)) == len(options)
        assert visits.sum() == iterations and visits[base] > 0  # the rollout's move tried
        assert (visits > 0).sum() >= 2  # and others beside it
        assert ((0 <= wins) & (wins <= visits)).all()
        assert 1 < nodes <= iterations + 1  # nodes below the root; one new node at most a walk


@pytest.mark.parametrize("policy", ["ismcts:iterations=64", "ismcts:iterations=64:beliefs=lacks"])
def test_no_peeking_hidden_cards_do_not_change_the_decision(policy):
    G, H = _rich_state()
    for state in ((G, H), (_with_public_facts(G, H), H)):
        seen = _decide(*state, seed=5, policy=policy)
        assert _same(seen, _decide(*_swap_hidden(*state), seed=5, policy=policy))


def _with_a_recorded_choice(G, H):
    """The state after seat 1, holding 8 cards, chose to play a card of the start card's suit
    from the talon's cards (now the top): the choice beliefs=weighted weighs its worlds by."""
    G = G.copy()
    start = int(G[E.G_DISCARD])
    card = next(int(c) for c in G[E.G_TALON:E.G_TALON + G[E.S_NT]]
                if c % 4 == start % 4 and c // 4 not in (0, 1, 7))  # no ace, two or eight
    talon = [int(c) for c in G[E.G_TALON:E.G_TALON + G[E.S_NT]] if c != card]
    G[E.G_TALON:E.G_TALON + len(talon)], G[E.S_NT] = talon, len(talon)
    G[E.G_DISCARD + 1], G[E.S_ND] = card, 2
    G[E.S_SUIT], G[E.S_RANK] = card % 4, card // 4
    at = E.G_CHOICES + (1 * E.CHOICES_KEPT) * E.CHOICE_FIELDS
    G[at:at + E.CHOICE_FIELDS] = [card, E.EFF_ORDINARY | (start % 4) << 2 | (start // 4) << 4,
                                  8, 0, E.MAX_SEATS]
    G[E.G_CHOICES_N + 1] = 1
    return G


def test_weighted_worlds_read_the_recorded_choices_and_no_hidden_card():
    G, H = _rich_state()
    G = _with_a_recorded_choice(G, H)
    policy = "ismcts:iterations=64:beliefs=weighted"
    seen = _decide(G, H, seed=5, policy=policy)
    assert _same(seen, _decide(*_swap_hidden(G, H), seed=5, policy=policy))
    unrecorded = G.copy()
    unrecorded[E.G_CHOICES_N + 1] = 0
    assert not _same(seen, _decide(unrecorded, H, seed=5, policy=policy))


def test_the_decision_depends_on_what_the_seat_sees_and_the_oracle_peeks():
    G, H = _rich_state()
    plain = _decide(G, H, seed=5)
    assert not _same(plain, _decide(G, H, seed=6))  # its own stream
    assert not _same(plain, _decide(_with_public_facts(G, H), H, seed=5))  # the public facts
    oracle = "ismcts:iterations=64:beliefs=oracle"
    assert not _same(_decide(G, H, seed=5, policy=oracle),
                     _decide(*_swap_hidden(G, H), seed=5, policy=oracle))
    mine, theirs = _cards_of(H, 0)[0], _cards_of(H, 1)[0]
    _move_card(H, G, ("hand", 0), ("hand", 1), mine)
    _move_card(H, G, ("hand", 1), ("hand", 0), theirs)
    assert not _same(plain, _decide(G, H, seed=5))  # its own hand


def test_playouts_on_the_frozen_rules_decide_as_the_general_ones():
    G, H = _rich_state()
    frozen = _decide(G, H, seed=5)
    general = _decide(G, H, seed=5, frozen=E.FrozenRules())
    assert _same(frozen, general)


def test_ismcts_games_are_legal_and_narrated():
    rules = get_preset("seed001").replace(players=3, match="single", jokers=2,
                                          joker_effect="super_eight")
    policies = ["ismcts:iterations=16", "search:budget=2", "expert"]
    df = simulate(rules, 8, seed=3, policies=policies)
    for game in range(8):
        trace = trace_game(rules, 3, game, policies=policies)
        assert referee(trace, rules)["winner"] == df.winner[game]
    estimates = trace[trace[:, 0] == Event.ESTIMATE]
    assert len(estimates) and set(estimates[:, 1]) <= {0, 1}
    assert "weighs: " in narrate(trace)


def _move_states(count: int):
    """States of 4-player standard deals at seat 0's moves with two or more options."""
    from vandatta_sim.step import Game
    game = Game(SINGLE, "expert", external=[0])
    found = []
    for index in range(40):
        state = game.new_state(seed=36, game=index)
        while not state.is_terminal() and len(found) < count:
            d = state.decision
            if d.kind == "move" and len(d.actions) >= 3:
                found.append(state.clone())
                break
            state.apply_action(d.suggestion)
        if len(found) == count:
            return found
    return found


def test_the_tree_search_coaches_a_person_as_it_plays():
    """play --hints --coach ismcts: every legal move valued, the best one is the one its trees
    chose most often (then played most), values are win shares, and a difference is paired over replicates that tried
    both options (an option a replicate never tried has no value there, never a made-up 0)."""
    from vandatta_sim.play.coach import REPLICATES, Coach
    for state in _move_states(3):
        tree, flat = Coach("ismcts:iterations=64", seed=1), Coach("search:budget=4", seed=1)
        hints, options = tree.hints(state, 0), flat.hints(state, 0)
        assert [h.option for h in hints] == [h.option for h in options]  # the same legal moves
        assert sum(h.played for h in hints) == REPLICATES * 64
        assert sum(h.chosen for h in hints) == REPLICATES  # each replicate's tree chose one
        best = tree.best(hints)
        assert (best.chosen, best.played) == max((h.chosen, h.played) for h in hints)
        for h in hints:
            tried = np.isfinite(h.samples)
            assert h.value.n == tried.sum() and (h.played > 0) == tried.any()
            assert np.all((h.samples[tried] >= 0) & (h.samples[tried] <= 1))
        for other in hints:
            gap = tree.better(best, other)
            both = np.isfinite(best.samples) & np.isfinite(other.samples)
            assert gap.n == both.sum()
            if gap.n:
                assert gap.value == pytest.approx(np.mean(best.samples[both] - other.samples[both]))
        again = Coach("ismcts:iterations=64", seed=1).hints(state, 0)  # seeded: the same hints
        assert [h.played for h in again] == [h.played for h in hints]


def test_the_coach_is_a_search_player():
    from vandatta_sim.play.coach import Coach
    for policy in ("expert", "tuned:standard-base-4", "random"):
        with pytest.raises(ValueError, match="search or ismcts"):
            Coach(policy)
