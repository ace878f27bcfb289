"""Scale-aware play: what a card is believed to cost (``valuation``) reaches every decision that
weighs cards, the eight's hold-or-dump rule included; a policy that weighs no card ignores it."""

import numpy as np
import pytest

from vandatta_sim import engine as E
from vandatta_sim.cards import parse_card
from vandatta_sim.rules import get_preset
from vandatta_sim.simulate import Seats, kernel_constants, simulate


def _state(hands, top="♣K"):
    """A mid-deal state: position p holds hands[p] (seat p), the top card ``top``, no duty."""
    G = np.zeros(E.G_SIZE, np.int64)
    H = np.zeros(E.H_SIZE, np.uint64)
    for p, hand in enumerate(hands):
        G[E.G_SEATS + p] = p
        for card in hand:
            b = np.uint64(1) << np.uint64(parse_card(card))
            if H[p] & b:
                H[E.HI + p] |= b
            else:
                H[p] |= b
    top = parse_card(top)
    G[E.S_EFF], G[E.S_SUIT], G[E.S_RANK], G[E.S_DIR] = E.EFF_ORDINARY, top % 4, top // 4, 1
    G[E.S_FORCE_SUIT] = -1
    H[E.H_RNG], H[E.H_AHEAD] = np.uint64(12345), np.uint64(67890)
    return G, H


def _choice(policy, valuation, hands, top="♣K"):
    rules = get_preset("standard").replace(players=len(hands))
    C = kernel_constants(rules, Seats.build(len(hands), policy), valuation=valuation)
    G, H = _state(hands, top)
    card = E.policy_choice_nb(C, G, H, 0, len(hands))
    return "draw" if card < 0 else ("♣♦♥♠"[card % 4] + "A2345678910JQK"[card // 4]
                                    if card // 4 != 9 else "♣♦♥♠"[card % 4] + "10")


def eight_costing(points):
    return {"base": "hundred", "8": points}


@pytest.mark.parametrize("hand_left", [1, 2])
def test_experts_eight_rule_depends_on_what_an_eight_costs(hand_left):
    """An opponent close to going out: an eight believed cheap is kept (the lead's ♣5 is
    played), an eight believed costly is dumped. Only the valuation differs."""
    hands = [["♣8", "♣5", "♦6", "♦7", "♥9"], ["♠2", "♠3"][:hand_left]]
    cheap = _choice("expert", eight_costing(10), hands)
    dear = _choice("expert", eight_costing(100), hands)
    assert cheap == "♣5" and dear == "♣8"


def test_without_a_threat_the_eight_is_kept():
    """No opponent close to going out: crazy_eights' 50-point eight is kept too; one worth
    hundreds makes every hand a threat."""
    hands = [["♣8", "♣5", "♦6", "♦7", "♥9"], ["♠2", "♠3", "♠4", "♠5", "♠6"]]
    assert _choice("expert", eight_costing(10), hands) == "♣5"
    assert _choice("expert", eight_costing(50), hands) == "♣5"
    assert _choice("expert", eight_costing(1000), hands) == "♣8"


def test_experts_and_greedys_ordinary_cards_follow_the_valuation():
    """Two legal ordinary cards: the one believed costlier goes first."""
    hands = [["♣5", "♣9", "♦6", "♦7"], ["♠2", "♠3", "♠4", "♠5"]]
    for policy in ("expert", "greedy"):
        assert _choice(policy, {"base": "hundred", "5": 1, "9": 20}, hands) == "♣9"
        assert _choice(policy, {"base": "hundred", "5": 20, "9": 1}, hands) == "♣5"


def test_a_valuation_change_changes_experts_games_and_not_randoms():
    rules = get_preset("standard").replace(players=4, match="single")
    # greedy plays eights last whatever they cost, random weighs no card
    for policy, changes in (("expert", True), ("greedy", False), ("random", False)):
        a = simulate(rules, 400, seed=8, policies=policy, valuation=eight_costing(10))
        b = simulate(rules, 400, seed=8, policies=policy, valuation=eight_costing(200))
        assert (not a.equals(b)) == changes, policy
    # the eight alone: expert plays differently only because of what an eight costs
    a = simulate(rules, 400, seed=8, valuation=eight_costing(10))
    b = simulate(rules, 400, seed=8, valuation=eight_costing(200))
    assert (a.turns != b.turns).mean() > 0.05
