"""Where the cards a seat has not seen really are, against where a uniform deal of them puts
them: the signal a card-location prior learned from self-play would add to the search's worlds.

    python scripts/card_locations.py [DEALS] [PLAYERS] [PRESET] [POLICY] [SEED]
    python scripts/card_locations.py 1500 4 standard expert 11

Plays DEALS single deals of PRESET with every seat POLICY (the step engine, seat 0 answered
with its own policy's choice, so these are the games `simulate` plays). At each of seat 0's
decisions, every card seat 0 has not seen (not in its hand, not in the discard pile) is either
in an opponent's hand or in the talon; a uniform deal (the public worlds before their
bookkeeping) puts a copy in opponent q's hand with probability q's hand size over the unseen
count. Prints, per rank and per the opponent's hand size (1, 2-3, 4-6, 7+), the copies found in
such hands over the copies a uniform deal expects there (1.00: no signal), and the expected
count under it.
"""

from __future__ import annotations

import sys
from collections import defaultdict

from vandatta_sim import engine as E
from vandatta_sim.cards import N_DECK_TYPES, N_TYPES
from vandatta_sim.rules import auto_decks, get_preset
from vandatta_sim.step import Game

BUCKETS = ("1", "2-3", "4-6", "7+")
RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "joker")


def bucket(size: int) -> str:
    return "1" if size == 1 else "2-3" if size <= 3 else "4-6" if size <= 6 else "7+"


def locations(rules, policy: str, deals: int, seed: int):
    """Per (rank, hand-size bucket): the copies found in opponents' hands at seat 0's decisions,
    and the copies a uniform deal of the unseen cards expects there; per rank: the copies seat 0
    had not seen, and those of them in the talon (the engine's own, so that a test can check
    that every unseen copy is found in a hand or there)."""
    players = rules.players
    game = Game(rules, policies=policy, external=[0])
    decks = rules.decks if isinstance(rules.decks, int) else auto_decks(players)
    copies = [decks] * N_DECK_TYPES + [decks] * rules.jokers  # a joker type per joker of a deck
    copies += [0] * (N_TYPES - len(copies))
    found, expected = defaultdict(float), defaultdict(float)
    unseen_by_rank, talon_by_rank = defaultdict(int), defaultdict(int)
    for index in range(deals):
        state = game.new_state(seed=seed, game=index)
        while not state.is_terminal():
            if state.current_player() == 0:
                seen = state.observation(0)
                unseen = list(copies)
                for card in (*seen.hand, *seen.pile):
                    unseen[card] -= 1
                total = sum(unseen)
                _, G, _, _, _ = state.engine_state()
                for card in G[E.G_TALON:E.G_TALON + G[E.S_NT]]:
                    talon_by_rank[min(int(card) // 4, 13)] += 1
                for card, k in enumerate(unseen):
                    unseen_by_rank[min(card // 4, 13)] += k
                for q in range(1, players):
                    hand = state.hand(q)
                    where = bucket(len(hand))
                    for card in hand:
                        found[min(card // 4, 13), where] += 1
                    for card, k in enumerate(unseen):
                        expected[min(card // 4, 13), where] += k * len(hand) / total
            state.apply_action(state.decision.suggestion)
    return found, expected, unseen_by_rank, talon_by_rank


def main() -> None:
    deals = int(sys.argv[1]) if len(sys.argv) > 1 else 1500
    players = int(sys.argv[2]) if len(sys.argv) > 2 else 4
    preset = sys.argv[3] if len(sys.argv) > 3 else "standard"
    policy = sys.argv[4] if len(sys.argv) > 4 else "expert"
    seed = int(sys.argv[5]) if len(sys.argv) > 5 else 11
    rules = get_preset(preset).replace(players=players, match="single")
    found, expected, _, _ = locations(rules, policy, deals, seed)
    print(f"{preset}, {players} players, every seat {policy}, {deals} deals (seed {seed}): "
          "copies in an opponent's hand over a uniform deal's, by that hand's size")
    print("rank   " + "".join(f"{b:>16}" for b in BUCKETS))
    for rank, name in enumerate(RANKS):
        if not any(expected[rank, b] for b in BUCKETS):
            continue
        print(f"{name:<7}" + "".join(
            f"{found[rank, b] / expected[rank, b]:>7.2f} (n={expected[rank, b]:>5.0f})"
            if expected[rank, b] else f"{'-':>16}" for b in BUCKETS))


if __name__ == "__main__":
    main()
