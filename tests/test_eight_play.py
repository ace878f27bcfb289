"""How a seat plays its eights (report/eight_play.py): per-deal records and intervals clustered
by deal, the unit the deals are drawn by."""

import numpy as np

from vandatta_sim.experiments.eight_play import EightPlay, eight_play
from vandatta_sim.rules import get_preset


def _play(played, hand_sums):
    played = np.asarray(played, np.float64)
    return EightPlay(np.zeros_like(played), played, np.asarray(hand_sums, np.float64))


def test_hand_at_an_eight_is_clustered_by_deal_not_counted_per_eight():
    # Counting each deal's eights twice adds no information: a per-deal (clustered) interval
    # stays as it is, where a per-eight one would narrow by √2.
    rng = np.random.default_rng(3)
    played = rng.integers(0, 4, 400)
    hand_sums = played * rng.integers(1, 9, 400)  # each deal's eights at one hand size
    once = _play(played, hand_sums).hand_at_eight_mean()
    twice = _play(2 * played, 2 * hand_sums).hand_at_eight_mean()
    assert np.isclose(once.value, twice.value)
    assert np.isclose(once.high - once.low, twice.high - twice.low, rtol=1e-9)
    assert np.isclose(once.value, hand_sums.sum() / played.sum())


def test_traced_deals_give_consistent_per_deal_records():
    rules = get_preset("standard").replace(players=4)
    play = eight_play(rules, "expert", 24, seed=5)
    assert play.eights_left.shape == play.eights_played.shape == play.hand_at_eights.shape == (24,)
    assert (play.eights_left >= 0).all() and (play.eights_played >= 0).all()
    # an eight is played from a hand that holds at least that eight
    assert (play.hand_at_eights >= play.eights_played).all()
    assert play.eights_played.sum() > 0
    est = play.hand_at_eight_mean()
    assert est.low <= est.value <= est.high
