"""The paired experiments behind the reports: swap experiment, policy substitution, hold vs dump.

* **Swap experiment** (value of a card): every sampled deal is played twice with the same seed
  and game index, once as dealt and once with one ordinary card of the *focal seat*
  (``game % players``) exchanged for a card of rank R from the talon. Both runs start from the
  same deal and random stream, but the choices and draws drift apart after the exchange, so
  the outcomes are only partly correlated (measured:
  :func:`vandatta_sim.experiments.card_value.pairing_correlation`).
  The effect of R is the paired difference of the focal seat's outcome over the games where
  the swap was possible (:func:`swap_pairs`, :func:`swap_effects`), its interval from the
  per-game differences. Because the card taken out is an ordinary card of another rank, the
  effect of R is the value of holding an R *instead of a random ordinary card*. The card-value
  experiment and the break-even face value built on it are :mod:`.card_value`.
* **Policy substitution** (value of a policy, skill): the focal seat plays policy A or policy B
  against the same opponents on the same deals; the focal seat rotates over all seats, each
  seat with its own seed, so that the pooled games are independent (:func:`focal_outcomes`).
  This is the package's one focal-seat design: the reports, ``bench`` (:func:`focal_policies`)
  and the scripts call it (``tune`` trains on a block layout of one seed, kept for the shipped
  tuned players: :func:`vandatta_sim.tune.candidate_outcomes`).
  **Hold vs dump** (:func:`head_to_head`) is policy substitution between the policies that
  keep their eights and the one that dumps them, on every scale and table size.
* **Rule variants** are compared on the same seeds and game indices (common random numbers):
  game ``i`` of variant A and game ``i`` of variant B share their random stream, so per-game
  differences are paired (:func:`vandatta_sim.stats.paired_difference`).

Every rate and mean comes with a 95 % interval (:mod:`vandatta_sim.stats`): Wilson for
proportions, normal for means; differences of paired outcomes use the variance of the per-game
differences; a ratio of two paired means uses the delta method
(:func:`vandatta_sim.stats.relative_change`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence

import numpy as np
import pandas as pd

from .. import cards
from ..rules import PRESETS, Rules
from ..stats import (Estimate, estimate_columns, log_odds_change, mean_interval,
                     paired_difference, proportion, relative_change)
from .measures import seat_values
from .runner import Runner, make_config

SCALE_NAMES = tuple(cards.SCALES)  # base, hundred, crazy_eights
RANKS = cards.RANK_NAMES  # A, 2, ..., K
#: Hold vs dump: the policies that keep their eights, and the one that plays them at once.
HOLDERS = ("greedy", "expert")
DUMPER = "eight-dumper"
H2H_POLICIES = (*HOLDERS, DUMPER)


# ------------------------------------------------------------------------------------------------
# swap experiment
# ------------------------------------------------------------------------------------------------
def face_values() -> pd.DataFrame:
    """Points of every rank (and the joker) under each scale: rows ranks, columns scales."""
    return pd.DataFrame({name: list(points) for name, points in cards.SCALES.items()},
                        index=list(cards.SCALE_KEYS))


def swap_pairs(base: pd.DataFrame, swapped: pd.DataFrame, players: int,
               swap_seat: int | None = None) -> pd.DataFrame:
    """Pair the unswapped and the swapped run of the same games.

    Returns one row per game with the focal seat (``swap_seat`` or ``game % players``),
    ``swapped`` (whether the exchange was possible), the focal seat's win and points in both
    runs (``win_base, win_swap, points_base, points_swap``), the mean penalty points of the
    other seats (``opponents_base, opponents_swap``) and its eights and aces as dealt
    (``eights_base, aces_base``; the swap run holds one more card of the swapped rank).
    """
    if not np.array_equal(base["game"].to_numpy(), swapped["game"].to_numpy()):
        common = np.intersect1d(base["game"].to_numpy(), swapped["game"].to_numpy())
        base = base.set_index("game").loc[common].reset_index()
        swapped = swapped.set_index("game").loc[common].reset_index()
    game = base["game"].to_numpy()
    seat = np.full(len(game), swap_seat) if swap_seat is not None else game % players
    return pd.DataFrame({
        "game": game,
        "seat": seat,
        "swapped": swapped["swapped"].to_numpy(bool),
        "win_base": (base["winner"].to_numpy() == seat),
        "win_swap": (swapped["winner"].to_numpy() == seat),
        "points_base": seat_values(base, "points", seat),
        "points_swap": seat_values(swapped, "points", seat),
        "opponents_base": _opponents_mean(base, "points", seat, players),
        "opponents_swap": _opponents_mean(swapped, "points", seat, players),
        "eights_base": seat_values(base, "eights", seat),
        "aces_base": seat_values(base, "aces", seat),
        "deals_base": base["deals"].to_numpy(),
        "deals_swap": swapped["deals"].to_numpy(),
    })


def _opponents_mean(df: pd.DataFrame, column: str, seat: np.ndarray, players: int) -> np.ndarray:
    """The mean of ``column`` over every seat but ``seat``, per game."""
    total = sum(df[f"{column}_{s}"].to_numpy(np.float64) for s in range(players))
    return (total - seat_values(df, column, seat).astype(np.float64)) / (players - 1)


def swap_effects(pairs: pd.DataFrame) -> dict[str, Estimate]:
    """Effects of the swap over the games where it happened.

    ``win``: paired difference of the focal seat's win indicator (swap - base);
    ``points``: same for its penalty points; ``relative_win``: the relative change of its win
    rate; ``log_odds_win``: the change of its log-odds; ``base_win``/``base_points``: the
    unswapped rate and mean on the same games;
    ``possible``: the share of games where the swap could be made.
    """
    p = pairs[pairs["swapped"]]
    return {
        "possible": proportion(int(pairs["swapped"].sum()), len(pairs)),
        "base_win": proportion(int(p["win_base"].sum()), len(p)),
        "base_points": mean_interval(p["points_base"]),
        "win": paired_difference(p["win_swap"], p["win_base"]),
        "points": paired_difference(p["points_swap"], p["points_base"]),
        "relative_win": relative_change(p["win_swap"], p["win_base"]),
        "log_odds_win": log_odds_change(p["win_swap"], p["win_base"]),
    }


def card_values(runner: Runner, rules: Rules, ranks: Iterable[str], games: int, seed: int,
                policies="expert") -> pd.DataFrame:
    """The swap-experiment effect of every rank in ``ranks`` at one table (``rules``).

    One tidy row per rank: ``players, rank, face`` (the rank's points under ``rules.scale``),
    ``n`` (games where the swap was possible), and value/low/high columns for ``possible``,
    ``base_win``, ``base_points``, ``win``, ``points`` and ``relative_win`` (see
    :func:`swap_effects`). For a match (``rules.match`` not single) ``win`` is winning the
    match and ``points`` the match total.
    """
    ranks = list(ranks)
    configs = [make_config(rules, policies)] + [make_config(rules, policies, swap=r)
                                                for r in ranks]
    base, *runs = runner.run(configs, games, seed)
    face = rules.scale_points()
    rows = []
    for rank, swapped in zip(ranks, runs):
        eff = swap_effects(swap_pairs(base, swapped, rules.players))
        row = {"players": rules.players, "rank": rank,
               "face": int(face[cards.make_card(RANKS.index(rank), 0)]),
               "n": eff["win"].n}
        for name, est in eff.items():
            row.update(estimate_columns(name, est))
        rows.append(row)
    return pd.DataFrame(rows)


# ------------------------------------------------------------------------------------------------
# policy substitution (head to head, skill)
# ------------------------------------------------------------------------------------------------
def focal_policies(players: int, seat: int, focal: str, others: str) -> list[str]:
    """Policies of a table where ``seat`` plays ``focal`` and every other seat ``others``."""
    return [focal if s == seat else others for s in range(players)]


def focal_outcomes(runner: Runner, rules: Rules, policies: Sequence[str], others: str,
                   games_per_seat: int, seed: int, forget: float = 0.0
                   ) -> dict[str, pd.DataFrame]:
    """Outcomes of a focal seat playing each of ``policies`` against ``others``.

    For every seat ``s`` the games ``0 … games_per_seat-1`` of seed ``seed + s`` are played
    once per focal policy (so the comparison between policies is paired: same deals, same
    random numbers) with seat ``s`` focal. Returns, per policy, a table with one row per
    (seat, game): ``seat, game, win, points, deals``; the rows of all policies line up.
    """
    return focal_outcomes_many(runner, [rules], policies, others, games_per_seat, seed,
                               forget)[0]


def focal_outcomes_many(runner: Runner, rule_sets: Sequence[Rules], policies: Sequence[str],
                        others: str, games_per_seat: int, seed: int, forget: float = 0.0,
                        ) -> list[dict[str, pd.DataFrame]]:
    """:func:`focal_outcomes` for several rule sets with the same number of players, run as
    one batch per seat (so the sweep layer can schedule them together)."""
    players = {r.players for r in rule_sets}
    if len(players) != 1:
        raise ValueError("focal_outcomes_many needs rule sets with one number of players")
    (n,) = players
    forgets = forget if isinstance(forget, Sequence) else [forget] * len(rule_sets)
    out = [{pol: [] for pol in policies} for _ in rule_sets]
    for s in range(n):
        configs = [make_config(r, focal_policies(n, s, pol, others), forget=f)
                   for r, f in zip(rule_sets, forgets) for pol in policies]
        runs = iter(runner.run(configs, games_per_seat, seed + s))
        for table in out:
            for pol in policies:
                df = next(runs)
                table[pol].append(pd.DataFrame({
                    "seat": np.full(len(df), s, dtype=np.int8),
                    "game": df["game"].to_numpy(),
                    "win": df["winner"].to_numpy() == s,
                    "points": df[f"points_{s}"].to_numpy(np.int64),
                    "deals": df["deals"].to_numpy(),
                }))
    return [{pol: pd.concat(frames, ignore_index=True) for pol, frames in table.items()}
            for table in out]


def compare_policies(outcomes: dict[str, pd.DataFrame], a: str, b: str) -> dict[str, Estimate]:
    """Paired comparison of focal policies ``a`` and ``b`` (from :func:`focal_outcomes`):
    ``win`` and ``points`` are differences a - b, ``relative_win`` the relative change of the
    win rate, ``log_odds_win`` the change of its log-odds, ``win_a``/``win_b``/``points_a``/
    ``points_b`` the plain rates and means."""
    x, y = outcomes[a], outcomes[b]
    return {
        "win_a": proportion(int(x["win"].sum()), len(x)),
        "win_b": proportion(int(y["win"].sum()), len(y)),
        "points_a": mean_interval(x["points"]),
        "points_b": mean_interval(y["points"]),
        "win": paired_difference(x["win"], y["win"]),
        "points": paired_difference(x["points"], y["points"]),
        "relative_win": relative_change(x["win"], y["win"]),
        "log_odds_win": log_odds_change(x["win"], y["win"]),
    }


def skill_per_game(outcomes: dict[str, pd.DataFrame], a: str = "expert",
                   b: str = "random") -> np.ndarray:
    """Per (seat, game): focal win with policy ``a`` minus focal win with ``b``."""
    return (outcomes[a]["win"].to_numpy(np.float64) - outcomes[b]["win"].to_numpy(np.float64))


def skill_comparisons(runner: Runner, rule_sets: Sequence[Rules], skilled: str, unskilled: str,
                      games_per_seat: int, seed: int, forget=0.0
                      ) -> list[tuple[np.ndarray, dict[str, Estimate]]]:
    """Skill per rule set: the focal seat plays ``skilled`` or ``unskilled``, the other seats
    ``unskilled`` (:func:`focal_outcomes_many`). Per rule set the per-game differences
    (:func:`skill_per_game`, rows seat by seat) and the paired comparison
    (:func:`compare_policies`, ``skilled`` − ``unskilled``)."""
    outs = focal_outcomes_many(runner, rule_sets, (skilled, unskilled), unskilled,
                               games_per_seat, seed, forget)
    return [(skill_per_game(o, skilled, unskilled), compare_policies(o, skilled, unskilled))
            for o in outs]


# ------------------------------------------------------------------------------------------------
# hold vs dump: every scale and table size
# ------------------------------------------------------------------------------------------------
def scale_grid(players: Iterable[int], match: bool) -> Iterator[tuple[str, int, Rules]]:
    """(scale, players, rules) for every scale and table size: standard rules, single deals or
    elimination matches to 100."""
    for scale in SCALE_NAMES:
        for n in players:
            yield scale, n, PRESETS["standard"].replace(
                scale=scale, players=n, match="elimination:100" if match else "single")


def head_to_head(runner: Runner, players: Iterable[int], match: bool, games_per_seat: int,
                 seed: int, others: str = "expert",
                 log: Callable[[str], None] | None = None) -> pd.DataFrame:
    """Each holder against the eight-dumper in the focal seat, ``others`` in the other seats.

    One tidy row per (scale, players, holder) of :func:`scale_grid`: ``n`` and the
    value/low/high columns of :func:`compare_policies` (holder − dumper). ``log`` hears one
    line per table.
    """
    rows = []
    for scale, n, rules in scale_grid(players, match):
        if log is not None:
            log(f"hold vs dump: {scale}, {n} players, {'matches' if match else 'deals'}")
        out = focal_outcomes(runner, rules, H2H_POLICIES, others, games_per_seat, seed)
        for holder in HOLDERS:
            cmp = compare_policies(out, holder, DUMPER)
            row = {"scale": scale, "players": n, "holder": holder, "n": cmp["win"].n}
            for name, est in cmp.items():
                row.update(estimate_columns(name, est))
            rows.append(row)
    return pd.DataFrame(rows)


# ------------------------------------------------------------------------------------------------
# the ladder: a focal seat against one opponent policy, winners kept
# ------------------------------------------------------------------------------------------------
def focal_winners(runner: Runner, rule_sets: Sequence[Rules], policies: Sequence[str],
                  others: str, games_per_seat: int, seed: int) -> list[dict[str, pd.DataFrame]]:
    """The design of :func:`focal_outcomes_many` (seat ``s`` focal on games
    ``0 … games_per_seat-1`` of seed ``seed + s``), keeping who won: per rule set and policy a
    table with one row per (seat, game): ``seat, game, win`` (the focal seat won) and
    ``no_winner`` (nobody won: a blocked or capped deal), for win counts by seat kind."""
    players = {r.players for r in rule_sets}
    if len(players) != 1:
        raise ValueError("focal_winners needs rule sets with one number of players")
    (n,) = players
    out = [{pol: [] for pol in policies} for _ in rule_sets]
    for s in range(n):
        configs = [make_config(r, focal_policies(n, s, pol, others))
                   for r in rule_sets for pol in policies]
        runs = iter(runner.run(configs, games_per_seat, seed + s))
        for table in out:
            for pol in policies:
                df = next(runs)
                winner = df["winner"].to_numpy()
                table[pol].append(pd.DataFrame({
                    "seat": np.full(len(winner), s, dtype=np.int8),
                    "game": df["game"].to_numpy(),
                    "win": winner == s, "no_winner": winner < 0}))
    return [{pol: pd.concat(frames, ignore_index=True) for pol, frames in table.items()}
            for table in out]
