"""The coach: what a search player thinks each of a person's options is worth, and a review.

Before a person's move the coach asks the engine's search player (``search_decision_nb``, the
very estimate a search bot makes, from the person's seat and with only what that seat may see)
for every legal option's value: the chance of winning the deal (objective ``win``), or the
points left in hand at its end (``points``; lower is better). It runs the search
``REPLICATES`` times on independent streams of worlds, so each value gets a t interval from the
spread of the replicates, and the difference between two options a paired one (all options of a
replicate meet the same worlds). The coach never touches the game's own random stream: a game
is the same with hints as without.

The tree search player (``ismcts``) can coach too (``ismcts_decision_nb``): an option's value in
a replicate is the share of deals won where its tree played it (a replicate that never tried
it has no value for it, and a difference is paired over the replicates that tried both); its
best option is the one its trees chose most often (then the one they played most), as the
player itself decides.

After the deal, :func:`review` names each move whose option was worse than the best one by
more than the paired difference's uncertainty (the interval of best minus chosen lies above 0).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .. import engine as E
from ..cards import SUIT_SYMBOLS, card_name
from ..simulate import check_policy, frozen_rules, policy_code
from ..stats import Estimate, mean_interval

REPLICATES = 8


@dataclass(frozen=True)
class Option:
    """One move the search weighs: a card (-1: draw), the suit it names (-1: none) and
    ``stop`` (1: no stacking after it)."""

    card: int
    suit: int = -1
    stop: int = 0

    def describe(self, card_text=card_name, suit_text=SUIT_SYMBOLS.__getitem__) -> str:
        text = "draw" if self.card < 0 else card_text(self.card)
        if self.suit >= 0:
            text += "→" + suit_text(self.suit)
        return text + (" (stop stacking)" if self.stop else "")


@dataclass(frozen=True)
class Hint:
    option: Option
    value: Estimate            # win chance (0-1) or points left in hand
    samples: np.ndarray        # the value in each replicate (NaN: not tried there)
    played: int = 0            # the tree search's visits to it, all replicates together
    chosen: int = 0            # the replicates whose tree search chose it


@dataclass(frozen=True)
class Decision:
    """A person's hinted move: what the coach said, what was chosen (None: not one of them)."""

    deal: int
    seat: int
    hints: tuple[Hint, ...]
    chosen: Option | None


class Coach:
    """A search player's estimates for a person's move. ``policy``: a search spec
    (``search``, ``search:objective=points``, ``search:budget=128``, ``ismcts``, ...)."""

    def __init__(self, policy: str = "search", seed: int = 0):
        spec = check_policy(policy)
        if spec.partition(":")[0] not in ("search", "ismcts"):
            raise ValueError(f"the coach is a search player (search or ismcts); got {policy!r}")
        self.policy = spec
        self.code = policy_code(spec)
        self.tree = (self.code & E.POL_KIND) == E.POL_ISMCTS
        # the bit is search's points objective; ismcts has no such option (its bit is unused)
        self.points = not self.tree and bool(self.code & E.OPT_SEARCH_POINTS)
        self.seed = int(seed)
        self.asked = 0

    @property
    def measure(self) -> str:
        if self.points:
            return "points left in hand (lower is better)"
        return "chance to win the match" if self.code & E.OPT_SEARCH_MATCH else \
            "chance to win the deal"

    def hints(self, state, seat: int) -> list[Hint]:
        """Every option of ``seat``'s move in ``state`` (a :class:`vandatta_sim.step.State`
        at that seat's move; empty where it has no card to play)."""
        if state.decision is None or state.decision.seat != seat:
            raise ValueError(f"the coach is asked about seat {seat}, which is not to move")
        C, G, H, p, n = state.engine_state()
        # search: every option in every world (no racing): the coach wants each option's value
        C[E.C_POL + seat] = self.code if self.tree else self.code | E.OPT_SEARCH_FLAT
        frozen = frozen_rules(C, lean=False)
        self.asked += 1
        per_replicate, visits, chosen, options = [], 0, 0, None
        for r in range(REPLICATES):
            stream = np.random.SeedSequence([self.seed, self.asked, r]).generate_state(1, np.uint64)
            if self.tree:
                cards, suits, stops, _, played, totals, _, choice = E.ismcts_decision_nb(
                    C, frozen, G, H, p, n, stream[0])
                visits = visits + played
                chosen = chosen + (np.arange(len(cards)) == choice)
            else:
                cards, suits, stops, _, totals, _, _, played = E.search_decision_nb(
                    C, frozen, G, H, p, n, stream[0])
            if len(cards) == 0:
                return []
            values = np.where(played > 0, totals / np.maximum(played, 1), np.nan)
            per_replicate.append(-values if self.points else values)
            options = [Option(int(c), int(s), int(x)) for c, s, x in zip(cards, suits, stops)]
        samples = np.array(per_replicate)  # replicate × option
        return [Hint(o, _interval(samples[:, i]), samples[:, i],
                     int(visits[i]) if self.tree else 0, int(chosen[i]) if self.tree else 0)
                for i, o in enumerate(options)]

    def better(self, best: Hint, other: Hint) -> Estimate:
        """How much better ``best`` is than ``other`` (positive: better), paired over the
        replicates that valued both."""
        diff = _interval(best.samples - other.samples)
        if self.points:
            return Estimate(-diff.value, -diff.high, -diff.low, diff.n)
        return diff

    def best(self, hints: list[Hint]) -> Hint:
        """The option the coach's player would choose: search's best value; the option the
        tree searches chose most often (then the most played)."""
        if self.tree:
            return max(hints, key=lambda h: (h.chosen, h.played))
        key = (lambda h: -h.value.value) if self.points else (lambda h: h.value.value)
        return max(hints, key=key)


def _interval(samples: np.ndarray) -> Estimate:
    """The mean over the replicates that have a value (NaN: an option a tree never tried)."""
    return mean_interval(samples[np.isfinite(samples)])


def match_option(hints: list[Hint], card: int, suit: int, stacked: bool) -> Option | None:
    """The option a move was: its card, the suit it named where the option names one, and
    ``stop`` where the option is about stacking (a move that went on stacking is the option
    that leaves stacking to the rollout policy)."""
    for h in hints:
        o = h.option
        if o.card == card and (o.suit < 0 or o.suit == suit) and \
                (o.stop == (0 if stacked else 1) or not any(
                    x.option.card == card and x.option.stop != o.stop for x in hints)):
            return o
    return None


def review(coach: Coach, decisions: list[Decision]) -> list[tuple[Decision, Hint, Hint, Estimate]]:
    """The moves that were worse than the best option by more than the uncertainty: each with
    the best option's hint, the chosen one's and the paired difference."""
    flagged = []
    for d in decisions:
        if d.chosen is None or len(d.hints) < 2:
            continue
        chosen = next(h for h in d.hints if h.option == d.chosen)
        best = coach.best(list(d.hints))
        if best.option == chosen.option:
            continue
        gap = coach.better(best, chosen)
        if gap.low > 0:
            flagged.append((d, best, chosen, gap))
    return flagged


__all__ = ["Coach", "Hint", "Option", "Decision", "review", "match_option", "REPLICATES"]
