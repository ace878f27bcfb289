"""How a seat plays its eights, read from traced deals: how many it still holds when the deal
ends, and how many cards it holds when it plays one.

Each deal is replayed with :func:`~vandatta_sim.simulate.trace_game` (the same game as in
``simulate``), the focal seat rotated with the game index (seat ``g % players`` in game ``g``),
and the focal seat's hand size followed through its DEAL, DRAW, SWAP and PLAY events.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..cards import EIGHT, rank_of
from ..rules import Rules
from ..simulate import trace_game
from ..stats import Estimate, mean_interval
from ..trace import Event


@dataclass(frozen=True)
class EightPlay:
    """Per deal, the focal seat's eights left at the end; per eight it played, its hand size
    just before (the eight included)."""

    eights_left: np.ndarray
    hand_at_eight: np.ndarray

    def eights_left_mean(self) -> Estimate:
        return mean_interval(tuple(self.eights_left))

    def hand_at_eight_mean(self) -> Estimate:
        return mean_interval(tuple(self.hand_at_eight))


def _is_eight(card: int) -> bool:
    return card < 52 and rank_of(card) == EIGHT


def eight_play(rules: Rules, policy: str, games: int, seed: int) -> EightPlay:
    """The focal seat (``policy``) against ``expert``s, single deals of ``rules``."""
    rules = rules.replace(match="single")
    P = rules.players
    left, at_eight = [], []
    for g in range(games):
        focal = g % P
        policies = ["expert"] * P
        policies[focal] = policy
        rows = trace_game(rules, seed, g, policies=policies)
        hand = eights = 0
        for kind, seat, a, b in rows:
            if seat != focal:
                continue
            if kind in (Event.DEAL, Event.DRAW):
                hand += 1
                eights += _is_eight(a)
            elif kind == Event.SWAP:
                eights += _is_eight(b) - _is_eight(a)
            elif kind == Event.PLAY:
                if _is_eight(a):
                    at_eight.append(hand)
                    eights -= 1
                hand -= 1
        left.append(eights)
    return EightPlay(np.array(left, np.float64), np.array(at_eight, np.float64))


__all__ = ["EightPlay", "eight_play"]
