"""The search player's beliefs audited against the true hands (a diagnostic, not a player).

A search seat deals the cards it has not seen into worlds within what its seat knows. This
module plays real deals turn by turn and, at every turn of one seat, checks those beliefs
against the true hands: how often the old rule (``search:beliefs=lacks``: a suit a player once
could not follow, held as lacking until it plays that suit) excludes a card an opponent really
holds, how often the public bookkeeping of ``beliefs=public`` does (its one approximation: a
failed hand of 3 or more cards is taken not to be all specials), and how much each excludes.
``scripts/belief_audit.py`` prints it with intervals.
"""

from __future__ import annotations

import numpy as np

from .. import engine as E
from ..rules import Rules
from ..simulate import SeatSpec, Seats, frozen_rules, kernel_constants, seed_key


def audit(rules: Rules, games: int, seed: int = 0, policies: SeatSpec = "expert",
          focal_seat: int = 0) -> dict[str, int]:
    """The audit counts (:data:`engine.AUDIT_FIELDS`) over single deals ``0 … games-1`` of
    ``seed`` (the deals ``simulate`` plays with these seats), at every turn of ``focal_seat``."""
    rules = rules.replace(match="single")
    C = kernel_constants(rules, Seats.build(rules.players, policies))
    counts = np.zeros(len(E.AUDIT_FIELDS), np.int64)
    E.belief_audit_nb(C, frozen_rules(C, lean=False), seed_key(seed), games, focal_seat, counts)
    return dict(zip(E.AUDIT_FIELDS, (int(c) for c in counts)))
