"""Measures read off one per-game table (deal length, förhand's advantage, eights dealt, …).

They cover the length, end and score of deals, the length of matches, förhand's advantage,
the seat dealt most eights, the distribution of a length, and which players skill is measured
between (:data:`SKILL_LADDER`); one measure (:func:`same_suit_swaps`) reads the game's record
instead. A per-game table is what
:func:`vandatta_sim.simulate.simulate` returns (one row per game, ``points_<s>``,
``eights_<s>``, … per seat); the intervals come from :mod:`vandatta_sim.stats`.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ..cards import rank_of
from ..rules import Rules
from ..simulate import Seats, trace_game
from ..stats import Estimate, mean_interval, proportion, quantile_interval
from ..trace import Event


def seat_values(df: pd.DataFrame, prefix: str, seat) -> np.ndarray:
    """``df[f"{prefix}_{seat[i]}"][i]`` for every row: the value of each row's own seat."""
    seat = np.broadcast_to(np.asarray(seat, dtype=np.int64), (len(df),))
    matrix = df[[f"{prefix}_{s}" for s in range(n_players(df))]].to_numpy()
    return matrix[np.arange(len(df)), seat]


def n_players(df: pd.DataFrame) -> int:
    """Number of seats of a per-game table (from its ``points_<s>`` columns)."""
    return sum(1 for c in df.columns if c.startswith("points_") and c[7:].isdigit())


def mean_points(df: pd.DataFrame) -> np.ndarray:
    """Per game: the mean of the seats' penalty points (the winner's 0 included)."""
    p = n_players(df)
    return df[[f"points_{s}" for s in range(p)]].to_numpy(np.float64).mean(axis=1)


def forhand_advantage(df: pd.DataFrame, players: int | None = None) -> Estimate:
    """How much more often förhand (seat 0) wins a single deal than the average seat.

    Per game ``1[winner = 0] - 1[somebody won] / players``; its mean is
    ``P(seat 0 wins) - P(a deal is won) / players`` (0 for a fair seat, blocked deals
    accounted for), with a normal interval.
    """
    players = players or n_players(df)
    w = df["winner"].to_numpy()
    return mean_interval((w == 0).astype(np.float64) - (w >= 0) / players)


def most_eights_seat(df: pd.DataFrame, players: int | None = None) -> np.ndarray:
    """Per game, the seat dealt strictly more eights than every other seat (at least one),
    or -1 where no single seat holds most (from the ``eights_<s>`` starting-hand columns)."""
    players = players or n_players(df)
    e = df[[f"eights_{s}" for s in range(players)]].to_numpy()
    top = e.max(axis=1)
    unique = ((e == top[:, None]).sum(axis=1) == 1) & (top > 0)
    return np.where(unique, e.argmax(axis=1), -1)


def deal_summary(df: pd.DataFrame, players: int | None = None) -> dict[str, Estimate]:
    """Length, end and score of single deals: means of ``turns, plays, draws, actions``
    (plays + draws), the share of ``blocked``, ``reshuffled`` (talon ran out at least once)
    and ``capped`` deals, mean ``reshuffles``, mean ``points`` per seat, förhand's win rate
    and its advantage (:func:`forhand_advantage`)."""
    players = players or n_players(df)
    n = len(df)
    w = df["winner"].to_numpy()
    return {
        "turns": mean_interval(df["turns"]),
        "plays": mean_interval(df["plays"]),
        "draws": mean_interval(df["draws"]),
        "actions": mean_interval(df["plays"].to_numpy(np.int64) + df["draws"].to_numpy()),
        "blocked": proportion(int((df["blocked"].to_numpy() > 0).sum()), n),
        "reshuffled": proportion(int((df["reshuffles"].to_numpy() > 0).sum()), n),
        "reshuffles": mean_interval(df["reshuffles"]),
        "capped": proportion(int(df["capped"].to_numpy().sum()), n),
        "points": mean_interval(mean_points(df)),
        "forhand_win": proportion(int((w == 0).sum()), n),
        "forhand_adv": forhand_advantage(df, players),
    }


def match_summary(df: pd.DataFrame) -> dict[str, Estimate]:
    """Deals per match (mean), the share of matches without a winner and of capped ones."""
    n = len(df)
    return {
        "deals": mean_interval(df["deals"]),
        "no_winner": proportion(int((df["winner"].to_numpy() < 0).sum()), n),
        "capped": proportion(int(df["capped"].to_numpy().sum()), n),
    }


def share_at_most(values, grid) -> np.ndarray:
    """Empirical distribution function: the share of ``values`` that are ``<= x`` for every
    ``x`` in ``grid``."""
    v = np.sort(np.asarray(values).ravel())
    return np.searchsorted(v, np.asarray(grid), side="right") / max(v.size, 1)


#: The quantiles the reports mark on a distribution of lengths.
QUANTILES = (0.1, 0.25, 0.5, 0.75, 0.9)


def quantiles(values, qs=QUANTILES) -> dict[float, Estimate]:
    """Each quantile of ``values`` with its distribution-free 95 % interval."""
    return {q: quantile_interval(values, q) for q in qs}


def same_suit_swaps(rules: Rules, seed: int, games, policies) -> np.ndarray:
    """Per game of a swap run with ``swap="A"``: whether the ace swapped in has the suit of an
    ace the focal seat was dealt (a pair of one suit), read off the game's record."""
    out = np.zeros(len(games), dtype=bool)
    seats = Seats.build(rules.players, policies)  # once, not per game
    for i, game in enumerate(games):
        rows = trace_game(rules, seed, int(game), seats, swap="A")
        at = np.flatnonzero(rows[:, 0] == Event.SWAP)
        if not at.size:
            continue
        seat, incoming = int(rows[at[0], 1]), int(rows[at[0], 3])
        # the record deals the hands just before the swap; the two decks share card numbers,
        # so the same suit's ace is the same number
        before = rows[: at[0]]
        dealt = before[(before[:, 0] == Event.DEAL) & (before[:, 1] == seat), 2]
        out[i] = rank_of(incoming) == 0 and bool(np.any(dealt == incoming))
    return out


def log_grid(upper: int, points: int = 200) -> np.ndarray:
    """Integers from 1 to ``upper``, roughly evenly spaced on a log scale."""
    return np.unique(np.round(np.logspace(0, np.log10(upper), points)).astype(np.int64))


#: The players from weakest to strongest (one list, in one place). "Skill" in the reports is the
#: strongest player's edge over the weakest in the same seat on the same deals; a stronger
#: player, once it exists, goes at the end and every skill measure follows. The tuned players
#: (``tuned:NAME``) beat ``expert`` by at most about 1 pp, but each is fitted to one rule set and
#: table size, and a skill measure compares variants with one player across all of them.
SKILL_LADDER = ("random", "greedy", "expert")
SKILLED, UNSKILLED = SKILL_LADDER[-1], SKILL_LADDER[0]
#: The strongest player the package has (reports/players.md): about a thousand times slower
#: than ``expert``, so the skill measures' game counts stay with SKILLED and the claims repeat
#: their skill comparisons with this one on fewer deals, to check that a finding survives
#: stronger play.
STRONGEST = "search"
