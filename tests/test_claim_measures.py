"""Measures the claims report adds: the suit of a swapped-in ace, the skill ladder."""

import numpy as np

from vandatta_sim.experiments.designs import swap_pairs
from vandatta_sim.experiments.measures import SKILL_LADDER, SKILLED, UNSKILLED, same_suit_swaps
from vandatta_sim.rules import PRESETS
from vandatta_sim.simulate import check_policy, simulate, trace_game
from vandatta_sim.trace import Event

RULES = PRESETS["standard"].replace(match="single", decks=2, ace_on_ace="allowed")


def test_skill_is_measured_between_the_ends_of_one_ladder():
    assert (UNSKILLED, SKILLED) == (SKILL_LADDER[0], SKILL_LADDER[-1])
    assert all(check_policy(p) == p for p in SKILL_LADDER)


def test_same_suit_swaps_finds_the_twin_ace():
    seed, n = 5, 400
    base = simulate(RULES, n, seed)
    swapped = simulate(RULES, n, seed, swap="A")
    pairs = swap_pairs(base, swapped, 4)
    second = pairs[(pairs["aces_base"] == 1) & pairs["swapped"]]
    same = same_suit_swaps(RULES, seed, second["game"].to_numpy(), ["expert"] * 4)
    assert same.shape == (len(second),) and 0 < same.sum() < len(second)
    # checked another way: the focal seat's hand after the swap (the deal plus the card swapped
    # in, from the record) holds one ace number twice exactly when the swap made a pair
    for game, flag in zip(second["game"].to_numpy()[:60], same[:60]):
        rows = trace_game(RULES, seed, int(game), swap="A")
        seat = int(game) % 4
        swap = rows[rows[:, 0] == Event.SWAP][0]
        hand = list(rows[(rows[:, 0] == Event.DEAL) & (rows[:, 1] == seat), 2])
        hand.remove(swap[2])
        hand.append(swap[3])
        aces = [c for c in hand if c < 4]
        assert flag == (len(aces) != len(set(aces)))
    # games without a swap, or swapping a non-ace, are never a pair
    assert not same_suit_swaps(RULES, seed, np.array([], dtype=int), ["expert"] * 4).size
