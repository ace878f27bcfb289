"""The change in skill across rules: a difference of paired differences, game by game.

Where a sweep crosses two policies of one focal seat with several rules (``--vary
policy=0=random,expert --vary stacking=false,true``), "does the rule change reward skill?" is
the difference of differences: (the focal seat's win rate with policy B − with policy A) under
one rules variant minus the same under the baseline rules. All four configurations share the
seed, so game ``i`` is dealt alike in each and the difference of differences is estimated from
its per-game values (an interval from their spread, merged chunk by chunk).
"""

from __future__ import annotations

import json
from dataclasses import dataclass

import numpy as np

from ..stats import Estimate, Moments
from ..store import Store
from .compare import GameReader, stored_games
from .config import Config


@dataclass(frozen=True)
class SkillPlan:
    """The focal seat, its two policies (``low`` the baseline's, ``high`` the other) and, per
    rules variant, the keys of (low, high) configurations; the first variant is the
    baseline rules."""

    seat: int
    low: str
    high: str
    variants: list[tuple[str, str, str]]  # (label of the rules, key low, key high)


def _rules_id(config: Config) -> str:
    identity = config.identity()
    identity.pop("policies")
    return json.dumps(identity, sort_keys=True)


def plan_skill(configs: list[Config], keys: list[str], labels: list[str]) -> SkillPlan | None:
    """The :class:`SkillPlan` of a sweep whose configurations are exactly two seat
    assignments, differing in one seat's policy, crossed with two or more rules variants
    (each pair present); None for any other sweep."""
    seatings = list(dict.fromkeys(tuple(c.seats.policies) for c in configs))
    variants = list(dict.fromkeys(_rules_id(c) for c in configs))
    if len(seatings) != 2 or len(variants) < 2 or len(configs) != 2 * len(variants):
        return None
    a, b = seatings
    differ = [s for s, (x, y) in enumerate(zip(a, b)) if x != y]
    if len(differ) != 1:
        return None
    by = {(tuple(c.seats.policies), _rules_id(c)): i for i, c in enumerate(configs)}
    rows = []
    for v in variants:
        if (a, v) not in by or (b, v) not in by:
            return None
        i, j = by[(a, v)], by[(b, v)]
        rows.append((_rules_words(labels[i], a[differ[0]]), keys[i], keys[j]))
    return SkillPlan(differ[0], a[differ[0]], b[differ[0]], rows)


def _rules_words(label: str, policy: str) -> str:
    """A configuration's label without its policy part: what names its rules."""
    words = [w for w in label.split() if not w.startswith("policy=")]
    return " ".join(words) or label


def skill_change(plan: SkillPlan, store, players: int, chunk_size_of) -> list[Estimate]:
    """Per rules variant after the first, the difference of differences of the focal seat's
    win rate (high policy − low policy, under the variant minus under the baseline rules),
    with its 95% interval, over the games all four hold."""
    store = store if isinstance(store, Store) else Store(store)
    seat = plan.seat
    base_low, base_high = plan.variants[0][1:]
    out = []
    for _, low, high in plan.variants[1:]:
        keys = (high, low, base_high, base_low)
        readers = [GameReader(store, k, chunk_size_of(k), players) for k in keys]
        n = min(stored_games(store, k, r.chunk_size) for k, r in zip(keys, readers))
        moments = Moments()
        block = readers[0].chunk_size
        for start in range(0, n, block):
            stop = min(start + block, n)
            wins = [(r.read(start, stop)["winner"].to_numpy() == seat).astype(np.float64)
                    for r in readers]
            moments = moments.merge(Moments.of((wins[0] - wins[1]) - (wins[2] - wins[3])))
        out.append(moments.estimate())
    return out
