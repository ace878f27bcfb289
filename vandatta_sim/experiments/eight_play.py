"""How a seat plays its eights, read from traced deals: how many it still holds when the deal
ends, and how many cards it holds when it plays one.

Each deal is replayed with :func:`~vandatta_sim.simulate.trace_game` (the same game as in
``simulate``), the focal seat rotated with the game index (seat ``g % players`` in game ``g``),
and the focal seat's hand size followed through its DEAL, DRAW, SWAP and PLAY events.

Everything is kept per deal, the unit the deals are drawn by: the mean hand size at an eight is
the ratio of two per-deal sums (hand sizes at its eights, eights played) with Fieller's interval,
so a deal with several eights counts as one draw, not as several independent ones.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..cards import EIGHT, rank_of
from ..rules import Rules
from ..simulate import trace_game
from ..stats import Estimate, mean_interval, ratio_of_means
from ..trace import Event


@dataclass(frozen=True)
class EightPlay:
    """Per deal: the focal seat's eights left at the end, the eights it played, and the sum over
    those eights of its hand size just before each (the eight included)."""

    eights_left: np.ndarray
    eights_played: np.ndarray
    hand_at_eights: np.ndarray

    def eights_left_mean(self) -> Estimate:
        return mean_interval(tuple(self.eights_left))

    def hand_at_eight_mean(self) -> Estimate:
        """Mean hand size when an eight is played, clustered by deal (a ratio of means)."""
        return ratio_of_means(self.hand_at_eights, self.eights_played)


def _is_eight(card: int) -> bool:
    return card < 52 and rank_of(card) == EIGHT


def eight_play(rules: Rules, policy: str, games: int, seed: int) -> EightPlay:
    """The focal seat (``policy``) against ``expert``s, single deals of ``rules``."""
    rules = rules.replace(match="single")
    P = rules.players
    left, played, at_eights = [], [], []
    for g in range(games):
        focal = g % P
        policies = ["expert"] * P
        policies[focal] = policy
        rows = trace_game(rules, seed, g, policies=policies)
        hand = eights = plays = hand_sum = 0
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
                    plays += 1
                    hand_sum += hand
                    eights -= 1
                hand -= 1
        left.append(eights)
        played.append(plays)
        at_eights.append(hand_sum)
    return EightPlay(*(np.array(x, np.float64) for x in (left, played, at_eights)))


__all__ = ["EightPlay", "eight_play"]
