"""Experiments, tables and estimators behind the reports in ``reports/`` (issue 4).

The analysis scripts in ``analyses/`` only choose game counts and seeds, call the functions
here and write Markdown and figures. Everything that turns per-game tables into numbers lives
in this module, so it can be imported and tested on small runs.

Designs
-------
* **Swap experiment** (value of a card): every sampled deal is played twice with the same seed
  and game index, once as dealt and once with one ordinary card of the *focal seat*
  (``game % players``) exchanged for a card of rank R from the talon; every later random choice
  is identical. The effect of R is the paired difference of the focal seat's outcome over the
  games where the swap was possible (:func:`swap_pairs`, :func:`swap_effects`). Because the
  card taken out is an ordinary card of another rank, the effect of R is the value of holding
  an R *instead of a random ordinary card*.
* **Policy substitution** (value of a policy, skill): the focal seat plays policy A or policy B
  against the same opponents on the same deals; the focal seat rotates over all seats, each
  seat with its own seed, so that the pooled games are independent (:func:`focal_outcomes`).
* **Rule variants** are compared on the same seeds and game indices (common random numbers):
  game ``i`` of variant A and game ``i`` of variant B share their random stream, so per-game
  differences are paired (:func:`paired_difference`).

Every rate and mean comes with a 95 % interval (:mod:`vandatta_sim.stats`): Wilson for
proportions, normal for means; differences of paired outcomes use the variance of the per-game
differences; a ratio of two paired means uses the delta method (:func:`relative_change`).

Running simulations
-------------------
:class:`Runner` runs a batch of configurations with one seed and game count. It uses the sweep
layer (``vandatta_sim.sweep``: stored, resumable, reused across reports) when that module is
importable and otherwise calls :func:`vandatta_sim.simulate.simulate` directly; both give the
same per-game table for the same ``(config, seed, game)``.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction

import numpy as np
import pandas as pd

from . import cards
from .rules import PRESETS, Rules
from .simulate import Seats, simulate
from .tables import format_table
from .stats import (Estimate, independent_difference, mean_interval, normal_critical,
                    paired_difference, proportion, relative_change)

try:  # the sweep layer (stored results); optional until it exists
    from .sweep import Config, load_config_games, run_sweep

    HAVE_SWEEP = True
except ImportError:  # pragma: no cover - depends on the checkout
    HAVE_SWEEP = False

    @dataclass(frozen=True)
    class Config:  # type: ignore[no-redef]
        """One simulation configuration (same fields as ``vandatta_sim.sweep.Config``)."""

        rules: Rules
        seats: Seats
        swap: str | None = None
        swap_seat: int | None = None
        label: str = ""


SCALE_NAMES = tuple(cards.SCALES)  # base, hundred, crazy_eights
RANKS = cards.RANK_NAMES  # A, 2, ..., K
Z95 = normal_critical(0.95)


# ================================================================================================
# running configurations
# ================================================================================================
def make_config(rules: Rules, policies="expert", forget=None, swap: str | None = None,
                swap_seat: int | None = None, label: str = "") -> Config:
    """A :class:`Config` with per-seat ``policies`` (a name for all seats, or a list)."""
    return Config(rules=rules, seats=Seats.build(rules.players, policies, forget), swap=swap,
                  swap_seat=swap_seat, label=label)


def focal_policies(players: int, seat: int, focal: str, others: str) -> list[str]:
    """Policies of a table where ``seat`` plays ``focal`` and every other seat ``others``."""
    return [focal if s == seat else others for s in range(players)]


class Runner:
    """Runs batches of configurations: through the sweep store when available, else directly.

    ``run(configs, games, seed)`` returns one per-game DataFrame per configuration, rows
    ``game = 0 … games-1`` in order. ``games_played`` counts the games requested (a stored
    game counts too), for the scripts' logs.
    """

    def __init__(self, store: str = "results", threads: int | None = None,
                 use_sweep: bool | None = None, command: str = "", progress=None):
        self.store = store
        self.threads = threads
        self.use_sweep = HAVE_SWEEP if use_sweep is None else bool(use_sweep)
        if self.use_sweep and not HAVE_SWEEP:
            raise RuntimeError("the sweep layer (vandatta_sim.sweep) is not available")
        self.command = command
        self.progress = progress
        self.games_played = 0

    def run(self, configs: Sequence[Config], games: int, seed: int) -> list[pd.DataFrame]:
        configs = list(configs)
        if not configs:
            return []
        self.games_played += games * len(configs)
        if self.use_sweep:
            run_sweep(configs, games=games, seed=seed, store=self.store, threads=self.threads,
                      progress=self.progress, command=self.command)
            return [load_config_games(config, seed, store=self.store, games=games)
                    for config in configs]
        return [simulate(c.rules, games, seed, policies=c.seats, swap=c.swap,
                         swap_seat=c.swap_seat, threads=self.threads) for c in configs]

    def one(self, config: Config, games: int, seed: int) -> pd.DataFrame:
        return self.run([config], games, seed)[0]


# ================================================================================================
# small helpers on per-game tables
# ================================================================================================
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


# ================================================================================================
# estimators
# ================================================================================================
def forhand_advantage(df: pd.DataFrame, players: int | None = None) -> Estimate:
    """How much more often förhand (seat 0) wins a single deal than the average seat.

    Per game ``1[winner = 0] - 1[somebody won] / players``; its mean is
    ``P(seat 0 wins) - P(a deal is won) / players`` (0 for a fair seat, blocked deals
    accounted for), with a normal interval.
    """
    players = players or n_players(df)
    w = df["winner"].to_numpy()
    return mean_interval((w == 0).astype(np.float64) - (w >= 0) / players)


def win_rates_by_seat(df: pd.DataFrame, players: int | None = None) -> list[Estimate]:
    players = players or n_players(df)
    w = df["winner"].to_numpy()
    return [proportion(int((w == s).sum()), len(w)) for s in range(players)]


def most_eights_seat(df: pd.DataFrame, players: int | None = None) -> np.ndarray:
    """Per game, the seat dealt strictly more eights than every other seat (at least one),
    or -1 where no single seat holds most (from the ``eights_<s>`` starting-hand columns)."""
    players = players or n_players(df)
    e = df[[f"eights_{s}" for s in range(players)]].to_numpy()
    top = e.max(axis=1)
    unique = ((e == top[:, None]).sum(axis=1) == 1) & (top > 0)
    return np.where(unique, e.argmax(axis=1), -1)


# ================================================================================================
# swap experiment
# ================================================================================================
def swap_pairs(base: pd.DataFrame, swapped: pd.DataFrame, players: int,
               swap_seat: int | None = None) -> pd.DataFrame:
    """Pair the unswapped and the swapped run of the same games.

    Returns one row per game with the focal seat (``swap_seat`` or ``game % players``),
    ``swapped`` (whether the exchange was possible), the focal seat's win and points in both
    runs (``win_base, win_swap, points_base, points_swap``) and its eights and aces as dealt
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
        "eights_base": seat_values(base, "eights", seat),
        "aces_base": seat_values(base, "aces", seat),
        "deals_base": base["deals"].to_numpy(),
        "deals_swap": swapped["deals"].to_numpy(),
    })


def swap_effects(pairs: pd.DataFrame) -> dict[str, Estimate]:
    """Effects of the swap over the games where it happened.

    ``win``: paired difference of the focal seat's win indicator (swap - base);
    ``points``: same for its penalty points; ``relative_win``: the relative change of its win
    rate; ``base_win``/``base_points``: the unswapped rate and mean on the same games;
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


# ================================================================================================
# policy substitution (head to head, skill)
# ================================================================================================
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
    win rate, ``win_a``/``win_b``/``points_a``/``points_b`` the plain rates and means."""
    x, y = outcomes[a], outcomes[b]
    return {
        "win_a": proportion(int(x["win"].sum()), len(x)),
        "win_b": proportion(int(y["win"].sum()), len(y)),
        "points_a": mean_interval(x["points"]),
        "points_b": mean_interval(y["points"]),
        "win": paired_difference(x["win"], y["win"]),
        "points": paired_difference(x["points"], y["points"]),
        "relative_win": relative_change(x["win"], y["win"]),
    }


def skill_per_game(outcomes: dict[str, pd.DataFrame], a: str = "expert",
                   b: str = "random") -> np.ndarray:
    """Per (seat, game): focal win with policy ``a`` minus focal win with ``b``."""
    return (outcomes[a]["win"].to_numpy(np.float64) - outcomes[b]["win"].to_numpy(np.float64))


# ================================================================================================
# deal and match summaries
# ================================================================================================
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


def log_grid(upper: int, points: int = 200) -> np.ndarray:
    """Integers from 1 to ``upper``, roughly evenly spaced on a log scale."""
    return np.unique(np.round(np.logspace(0, np.log10(upper), points)).astype(np.int64))


# ================================================================================================
# rule variants
# ================================================================================================
@dataclass(frozen=True)
class Variant:
    """A rule set to compare: ``name`` (shown), ``group``, the rules, the seats' chance of
    forgetting a call, and the name of the variant it is compared with (paired)."""

    name: str
    group: str
    rules: Rules
    forget: float = 0.0
    baseline: str = "standard"
    note: str = ""


#: Calls only matter when somebody forgets one; call rules are compared at this chance.
CALL_FORGET = 0.1


def variants() -> list[Variant]:
    """Every preset, then every house rule (RULES.md §2) toggled singly from ``standard``."""
    std = PRESETS["standard"]
    out = [Variant(name, "preset", rules) for name, rules in PRESETS.items()]

    def toggle(group, note="", forget=0.0, baseline="standard", **changes):
        name = ", ".join(f"{k}={_show(v)}" for k, v in changes.items())
        out.append(Variant(name, group, std.replace(**changes), forget, baseline, note))

    toggle("table", hand_size=5)
    toggle("table", hand_size=6)
    toggle("table", hand_size=8)
    toggle("table", decks=2)
    toggle("table", jokers=2)
    toggle("table", jokers=2, joker_effect="draw_two")
    toggle("table", jokers=2, joker_effect="super_eight")
    toggle("start card", start_eight="dealer_names")
    toggle("start card", start_eight="forehand_names")
    toggle("start card", start_ace="all_but_dealer_draw")
    toggle("start card", start_ace="dealer_draws")
    toggle("start card", start_ace="bury")
    toggle("play", must_play=False)
    toggle("play", stacking=True)
    toggle("play", eight_follow="same_player")
    toggle("play", eight_on_ace=True)
    toggle("play", eight_on_eight=True)
    toggle("play", ace_on_eight=True)
    toggle("play", ace_on_ace="allowed")
    toggle("play", ace_on_ace="counter")
    toggle("play", ace_draw=0)
    toggle("play", ace_draw=2)
    toggle("play", ace_draw=3)
    toggle("play", ace_extra_turn=False)
    toggle("play", draw_limit=0)
    toggle("play", draw_limit=1)
    toggle("play", draw_limit=2)
    toggle("play", draw_limit=5)
    toggle("play", specials_only_must_draw=False)
    toggle("play", out_on_special=True)
    toggle("play", last_card_start_suit=True)
    toggle("play", two_draws_two=True)
    toggle("play", reshuffles=0)
    toggle("play", reshuffles=1)
    calls = f"every seat forgets a due call with probability {CALL_FORGET:g}"
    out.append(Variant(f"standard, forget={CALL_FORGET:g}", "calls", std, CALL_FORGET,
                       "standard", calls))
    for changes in ({"call_at": 3}, {"call_penalty": 0}, {"call_penalty": 1},
                    {"call_penalty": 5}):
        toggle("calls", calls, CALL_FORGET, f"standard, forget={CALL_FORGET:g}", **changes)
    toggle("scoring", scale="base")
    toggle("scoring", eliminate_at="pass", note="changes matches only")
    return out


def _show(value) -> str:
    return ("true" if value else "false") if isinstance(value, bool) else str(value)


def single(rules: Rules, **changes) -> Rules:
    """``rules`` for single deals (plus any other changes)."""
    return rules.replace(match="single", **changes)


# ================================================================================================
# verdicts
# ================================================================================================
SUPPORTED = "supported"
CONTRADICTED = "contradicted"
UNCLEAR = "not distinguishable at this precision"


def claim_verdict(est: Estimate, sign: int, threshold: float = 0.0) -> str:
    """Verdict on a claim that ``est`` lies beyond ``threshold`` in direction ``sign`` (+1: above,
    -1: below): supported when the whole interval is beyond it, contradicted when the whole
    interval is on the other side, otherwise not distinguishable at this precision."""
    if sign not in (1, -1):
        raise ValueError("sign must be +1 or -1")
    if not (np.isfinite(est.low) and np.isfinite(est.high)):
        return UNCLEAR
    low, high = sign * (est.low - threshold), sign * (est.high - threshold)
    low, high = min(low, high), max(low, high)
    if low > 0:
        return SUPPORTED
    if high < 0:
        return CONTRADICTED
    return UNCLEAR


def combine_verdicts(verdicts: Iterable[str]) -> str:
    """A claim made of parts: contradicted if any part is, supported if all are, else unclear."""
    verdicts = list(verdicts)
    if CONTRADICTED in verdicts:
        return CONTRADICTED
    if verdicts and all(v == SUPPORTED for v in verdicts):
        return SUPPORTED
    return UNCLEAR


# ================================================================================================
# exact cases
# ================================================================================================
def exact_first_turn_win(rules: Rules) -> Fraction:
    """Exact probability that förhand empties its hand on its first turn, for ``hand_size=1``.

    With one card each förhand wins at once iff its card is legal on the start card and may be
    the last card (and no start ace made it draw). It cannot win later in that turn: a legal
    drawn card must be played and leaves the dealt card in hand, and a drawn ace's extra turn
    needs a card of the ace's suit, which would have been legal at once. (Two settings open
    other paths, which this function does not count, so it refuses them:
    ``eight_follow=same_player``, where a drawn eight is followed up by the dealt card, and
    ``ace_on_ace=allowed``, where a drawn ace on a start ace gives an extra turn in a new
    suit.) Under ``must_play`` every policy plays its only legal card, so the value does not
    depend on the policies. The start card is uniform over the cards that are not buried
    (every order of the talon is equally likely and the bury loop treats all non-buried cards
    alike), whatever the other seats hold.

    Supported: one deck, no jokers, ``start_eight=bury``, ``must_play``, no stacking,
    ``eight_follow=next_player``, ``ace_on_ace`` forbidden or counter; the other parameters
    (``start_ace``, ``ace_draw``, ``eight_on_ace``, ``out_on_special``,
    ``specials_only_must_draw``, ``last_card_start_suit``) are honoured.
    """
    if rules.hand_size != 1 or rules.n_decks != 1 or rules.jokers or not rules.must_play \
            or rules.stacking or rules.start_eight != "bury" \
            or rules.eight_follow != "next_player" or rules.ace_on_ace == "allowed":
        raise ValueError("exact_first_turn_win needs hand_size=1, one deck, no jokers, "
                         "must_play, no stacking, start_eight=bury, "
                         "eight_follow=next_player and ace_on_ace forbidden or counter")
    ace, eight = cards.ACE, cards.EIGHT
    buried = {eight} | ({ace} if rules.start_ace == "bury" else set())
    dealer = rules.players - 1
    forehand_draws = rules.ace_draw > 0 and (
        rules.start_ace == "all_draw"
        or (rules.start_ace == "all_but_dealer_draw" and dealer != 0)
        or (rules.start_ace == "dealer_draws" and dealer == 0))

    def wins(c: int, s: int) -> bool:
        rc, sc, rs, ss = c // 4, c % 4, s // 4, s % 4
        special = rc in (ace, eight)
        if special and (rules.specials_only_must_draw or not rules.out_on_special):
            return False  # a hand of only specials cannot play; or specials may not end it
        if rules.last_card_start_suit and sc != ss:
            return False
        if rs == ace:  # a start ace (not buried)
            if forehand_draws:
                return False
            if rc == eight:
                return rules.eight_on_ace
            if rc == ace:
                return rules.ace_on_ace != "forbidden"
            return sc == ss
        if rc == eight:
            return True
        return sc == ss or rc == rs

    total = Fraction(0)
    for c in range(52):
        starts = [s for s in range(52) if s != c and s // 4 not in buried]
        total += Fraction(sum(wins(c, s) for s in starts), len(starts))
    return total / 52


# ================================================================================================
# tables and formatting
# ================================================================================================
def face_values() -> pd.DataFrame:
    """Points of every rank (and the joker) under each scale: rows ranks, columns scales."""
    return pd.DataFrame({name: list(points) for name, points in cards.SCALES.items()},
                        index=list(cards.SCALE_KEYS))


def estimate_columns(name: str, est: Estimate) -> dict[str, float]:
    """``{name: value, name_lo: low, name_hi: high}`` for tidy tables."""
    return {name: est.value, f"{name}_lo": est.low, f"{name}_hi": est.high}


def column_estimate(row, name: str, n: int = 0) -> Estimate:
    """The :class:`Estimate` stored by :func:`estimate_columns` in a row (mapping/Series)."""
    return Estimate(float(row[name]), float(row[f"{name}_lo"]), float(row[f"{name}_hi"]), n)


def fmt(est: Estimate, kind: str = "num", digits: int = 2) -> str:
    """One estimate for a Markdown table.

    ``kind``: ``pct`` a proportion as a percentage (``25.7% [25.4, 26.0]``); ``pp`` a difference
    of proportions in percentage points, signed, marked ``n.s.`` when its interval holds 0;
    ``diff`` a signed difference marked the same way; ``rel`` a relative change in percent,
    signed and marked; ``num`` a plain mean.
    """
    v, lo, hi = est.value, est.low, est.high
    if not np.isfinite(v):
        return "–"
    scale, unit, signed, marked = {
        "pct": (100, "%", False, False), "pp": (100, " pp", True, True),
        "diff": (1, "", True, True), "rel": (100, "%", True, True), "num": (1, "", False, False),
    }[kind]
    sign = "+" if signed else ""
    text = f"{v * scale:{sign}.{digits}f}{unit}"
    if np.isfinite(lo) and np.isfinite(hi):
        text += f" [{lo * scale:{sign}.{digits}f}, {hi * scale:{sign}.{digits}f}]"
    if marked and not est.significant:
        text += " (n.s.)"
    return text


def direction(est: Estimate) -> int:
    """+1 / -1 when the interval is above / below 0, 0 when it holds 0 (or is undefined)."""
    if not (np.isfinite(est.low) and np.isfinite(est.high)):
        return 0
    return 1 if est.low > 0 else -1 if est.high < 0 else 0


def markdown_table(header: Sequence[str], rows: Iterable[Sequence], align: str | None = None
                   ) -> str:
    """A GitHub Markdown table; ``align`` is one of ``l``/``r``/``c`` per column."""
    return format_table(header, rows, align, style="markdown")


def describe_rules(rules: Rules, base: Rules | None = None) -> str:
    """``field=value, …`` of the fields that differ from ``base`` (default: standard)."""
    diff = rules.diff(base or PRESETS["standard"])
    return ", ".join(f"{k}={_show(v)}" for k, v in diff.items()) or "(standard)"


__all__ = [
    "Config", "HAVE_SWEEP", "Runner", "make_config", "focal_policies", "SCALE_NAMES", "RANKS",
    "seat_values", "n_players", "mean_points", "relative_change", "independent_difference",
    "forhand_advantage", "win_rates_by_seat", "most_eights_seat", "swap_pairs", "swap_effects",
    "card_values", "focal_outcomes", "focal_outcomes_many", "compare_policies",
    "skill_per_game", "deal_summary",
    "match_summary", "share_at_most", "log_grid", "Variant", "CALL_FORGET", "variants", "single",
    "SUPPORTED", "CONTRADICTED", "UNCLEAR", "claim_verdict", "combine_verdicts",
    "exact_first_turn_win", "face_values", "estimate_columns", "column_estimate", "fmt",
    "direction", "markdown_table", "describe_rules",
]
