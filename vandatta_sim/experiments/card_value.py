"""The card-value experiment: what one more card of a rank is worth, and its break-even score.

For each table (scale × player count) and rank R, the swap experiment
(:func:`vandatta_sim.experiments.designs.swap_pairs`) plays every sampled deal twice on the same
seed and game index, once as dealt and once with one ordinary card of the focal seat exchanged
for an R from the talon, and reads the paired difference of the focal seat's outcome:

* **deal win** (pp) and **penalty points** per deal, on single deals;
* **match win** (pp) and the match's length in deals, where the rules' match is not single
  (the swap is in the match's first deal only);
* **break-even face value** ``v*``: the score of R at which one more R leaves the expected
  penalty points unchanged, *with play held fixed*. The policies weigh the table's own scale
  (``valuation``), so changing R's score changes only what the cards count, and each game's
  Δ points is linear in R's score: ``Δ(v) = a + b·v``. Two runs at two scores give ``a`` and
  ``b`` per game; ``v* = −mean(a) / mean(b)`` with Fieller's interval
  (:func:`vandatta_sim.stats.ratio_root`). It is a *threshold* (the score above which one
  more R costs its holder points on average), not a worth: R's worth is its effect on the
  deal and the match. Given in points and in units of an ordinary card of the scale
  (``break_even_cards``: ``v*`` / the mean score of ranks 2–7 and 9–K), and on the holder's
  *standing* too (own points minus the mean of the other seats', ``break_even_standing``),
  since an extra R also changes what the opponents are caught with.

**Estimand.** The exchange needs a card of R left in the talon, so every effect is that of one
more R *when one is left to exchange*, over those deals; ``possible`` is their share of the
deals (a few percent of deals at 4–5 players have none, more with the rarer ranks).

The unswapped and swapped runs share the seed and game index, so their deals and random
streams start alike, but after the exchange the draws diverge; the pairing is only as strong
as the measured correlation of the two outcomes (``corr_*`` columns), and the paired
intervals use the variance of the per-game differences, so they are valid whatever it is.

Every run goes through a :class:`~vandatta_sim.experiments.runner.Runner` (by default the sweep's
result store: resumable and identical for any backend or thread count).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from .. import cards
from ..rules import Rules
from ..stats import (Estimate, estimate_columns, mean_interval, paired_difference, proportion,
                     ratio_root)
from .designs import focal_policies, swap_pairs
from .runner import Runner, make_config

RANKS = cards.RANK_NAMES  # A, 2, ..., K
#: Where --precision starts, and the most games one cell may take with it.
PILOT_GAMES = 10_000
MAX_PRECISION_GAMES = 2_000_000


def check_ranks(text: str | Iterable[str]) -> list[str]:
    """Rank names from ``"8"``, ``"8,A"`` or ``"all"`` (every rank), in rank order; a
    :class:`~vandatta_sim.simulate.SimulationError` names what is allowed."""
    from ..simulate import SimulationError

    parts = text.split(",") if isinstance(text, str) else list(text)
    if [p.strip().lower() for p in parts] == ["all"]:
        return list(RANKS)
    out = []
    for part in parts:
        name = str(part).strip().upper()
        if name not in RANKS:
            raise SimulationError(f"rank {str(part).strip()!r} is not allowed; allowed: "
                                  f"{', '.join(RANKS)} or all")
        if name in out:  # the conflict rule: a value twice in a list is an error
            given = ",".join(str(p).strip() for p in parts)
            raise SimulationError(f"rank {name} is given twice in {given!r}; give each rank "
                                  "once")
        out.append(name)
    return sorted(out, key=RANKS.index)


def check_scales(text: str | Iterable[str]) -> list[str]:
    """Scale names from ``"base,hundred"``; a SimulationError names what is allowed."""
    from ..simulate import SimulationError

    parts = text.split(",") if isinstance(text, str) else list(text)
    out = []
    for part in parts:
        name = str(part).strip()
        if name not in cards.SCALES:
            raise SimulationError(f"scale {name!r} is not allowed; allowed: "
                                  f"{', '.join(cards.SCALES)}")
        if name in out:  # the conflict rule, as for ranks
            given = ",".join(str(p).strip() for p in parts)
            raise SimulationError(f"scale {name} is given twice in {given!r}; give each scale "
                                  "once")
        out.append(name)
    return out


def scale_points(scale) -> tuple[int, ...]:
    """The 14 rank points (A … K, joker) of a scale name or a custom 14-tuple."""
    return tuple(cards.SCALES[scale]) if isinstance(scale, str) else tuple(scale)


def scale_with(scale, rank: str, points: int) -> tuple[int, ...]:
    """``scale`` with ``rank`` scoring ``points``. A joker that scores as an eight (the rule,
    and every named scale) moves with the eight; one the scale gives its own score (a custom
    ``joker = 100``) keeps it, so that only the rank's score changes between the two runs of
    the break-even line."""
    out = list(scale_points(scale))
    joker_is_an_eight = out[13] == out[RANKS.index("8")]
    out[RANKS.index(rank)] = points
    if rank == "8" and joker_is_an_eight:
        out[13] = points
    return tuple(out)


def face_value(scale, rank: str) -> int:
    return scale_points(scale)[RANKS.index(rank)]


def second_score(face: int) -> int:
    """The other score of the break-even pair: 0, or 1 where the face value is 0."""
    return 0 if face > 0 else 1


def pairing_correlation(x, y) -> float:
    """Pearson correlation of the paired outcomes (nan where one side does not vary)."""
    x, y = np.asarray(x, np.float64), np.asarray(y, np.float64)
    if len(x) < 2 or x.std() == 0 or y.std() == 0:
        return float("nan")
    return float(np.corrcoef(x, y)[0, 1])


def ordinary_points(scale) -> float:
    """The mean score of an ordinary card of a scale (ranks 2–7 and 9–K: every rank but the
    specials, eight and ace): the unit a break-even score is compared in across scales."""
    points = scale_points(scale)
    return float(np.mean([points[RANKS.index(r)] for r in RANKS if r not in ("8", "A")]))


def _lines(d_face: np.ndarray, d_other: np.ndarray, face: int, other: int):
    """Per game, the line Δ(v) = a + b·v through the differences at two scores."""
    slope = (d_face - d_other) / (face - other)
    return d_face - slope * face, slope


def break_even(pairs_face: pd.DataFrame, pairs_other: pd.DataFrame, face: int,
               other: int) -> dict[str, Estimate]:
    """The per-game lines through two scores of the rank (same games, play held fixed), and
    their roots with Fieller's interval (:func:`vandatta_sim.stats.ratio_root`):

    * ``slope``, ``break_even``: own penalty points, Δ points(v) = a + b·v, ``b`` being the
      extra copies of the card left in the holder's hand when someone else goes out;
    * ``standing_slope``, ``break_even_standing``: the holder's *standing*, own points minus
      the mean of the other seats' points (the points that decide a match), whose line
      counts the copies left in the opponents' hands too.
    """
    keep = pairs_face["swapped"].to_numpy() & pairs_other["swapped"].to_numpy()

    def delta(pairs, column):
        return (pairs[f"{column}_swap"] - pairs[f"{column}_base"]).to_numpy(np.float64)[keep]

    own_a, own_b = _lines(delta(pairs_face, "points"), delta(pairs_other, "points"), face, other)
    opp_a, opp_b = _lines(delta(pairs_face, "opponents"), delta(pairs_other, "opponents"),
                          face, other)
    return {"slope": mean_interval(own_b), "break_even": ratio_root(own_a, own_b),
            "standing_slope": mean_interval(own_b - opp_b),
            "break_even_standing": ratio_root(own_a - opp_a, own_b - opp_b)}


def in_cards(est: Estimate, unit: float) -> Estimate:
    """An estimate of a score in units of ``unit`` points (an ordinary card's score)."""
    return Estimate(est.value / unit, est.low / unit, est.high / unit, est.n)


@dataclass(frozen=True)
class Table:
    """One table of the experiment: its scale and number of players."""

    scale: str | tuple[int, ...]
    players: int

    @property
    def scale_name(self) -> str:
        return self.scale if isinstance(self.scale, str) else "custom"


def _cell(runner: Runner, configs: list, games: int | None, precision: float | None,
          seed: int, measure: Callable[[list[pd.DataFrame]], float]) -> list[pd.DataFrame]:
    """Run ``configs`` for ``games``, or with ``precision``: a pilot of PILOT_GAMES, then the
    count the pilot's half-width (``measure``) asks for, until it is met or the cap reached.
    The counts depend only on the games, so the same call always plays the same games."""
    if games is not None:
        return runner.run(configs, games, seed)
    n = PILOT_GAMES
    while True:
        runs = runner.run(configs, n, seed)
        half = measure(runs)
        if not half > precision or n >= MAX_PRECISION_GAMES:
            return runs
        need = n * (half / precision) ** 2 * 1.1
        n = int(min(MAX_PRECISION_GAMES, max(2 * n, -(-need // PILOT_GAMES) * PILOT_GAMES)))


def _win_half_width(base: pd.DataFrame, swapped: Sequence[pd.DataFrame], players: int,
                    seat: int | None = None) -> float:
    """The widest half-width of the swap runs' paired win effects."""
    widths = [0.0]
    for run in swapped:
        p = swap_pairs(base, run, players, seat)
        p = p[p["swapped"]]
        est = paired_difference(p["win_swap"], p["win_base"])
        widths.append((est.high - est.low) / 2)
    return max(widths)


def card_value(rules: Rules, runner: Runner, *, ranks: Sequence[str] = ("8",),
               players: Sequence[int] | None = None, scales: Sequence | None = None,
               policies="expert", games: int | None = 20_000, match_games: int | None = None,
               precision: float | None = None, seed: int = 0, break_even_point: bool = True,
               holder: str | None = None, log: Callable[[str], None] | None = None
               ) -> pd.DataFrame:
    """The card-value experiment for ``rules`` at every (scale, players) and rank.

    ``players``/``scales`` default to the rules' own; ``games`` (or ``precision``, a half-width
    of the deal-win effect, in [0, 1]) counts single deals, ``match_games`` matches (default:
    ``games``; matches only where ``rules.match`` is not single). Returns one tidy row per
    (scale, players, rank) with ``face``, ``n`` and value/low/high columns of ``win``,
    ``points``, ``base_win``, ``base_points``, ``possible``, and, as asked, ``slope``
    (Δ points per point of face value) and ``break_even`` (Fieller's interval),
    ``break_even_cards`` (in units of ``ordinary``, an ordinary card's mean score),
    ``standing_slope``, ``break_even_standing`` and ``break_even_standing_cards`` (on own
    points minus the mean opponent's), ``opponents`` (Δ mean points of the other seats) and
    ``standing`` (Δ own − mean opponents' points), ``match_win``, ``match_base_win``,
    ``match_deals`` (mean deals per unswapped match); plus ``corr_win``, ``corr_points``,
    ``corr_match_win`` (pairing correlations), ``games`` and ``match_games`` played.

    ``holder``: a policy for the focal seat apart from the table's ``policies``; each seat is
    then focal in its own run (seed + seat, ``games`` each), the others playing ``policies``.
    """
    ranks = check_ranks(ranks)
    players = list(players or [rules.players])
    scales = list(scales or [rules.scale])
    match_games = games if match_games is None else match_games
    rows = []
    for scale in scales:
        for n in players:
            table = Table(scale, n)
            if log is not None:
                log(f"card value: {table.scale_name}, {n} players")
            rows += _table_rows(rules, runner, table, ranks, policies, games, match_games,
                                precision, seed, break_even_point, holder)
    return pd.DataFrame(rows)


def _seatings(players: int, policies, holder, per_seat: bool = False
              ) -> list[tuple[int | None, object, int]]:
    """(focal seat, seat policies, seed offset) of each run of a table: one run with the focal
    seat rotating (``game % players``) where every seat plays alike (unless ``per_seat``),
    else one run per focal seat, the holder there and ``policies`` elsewhere, each on
    seed + seat."""
    if not per_seat and (holder is None or holder == policies):
        return [(None, policies, 0)]
    holder = policies if holder is None else holder
    return [(s, focal_policies(players, s, holder, policies), s) for s in range(players)]


def _swap_runs(runner, rules, ranks, seating, games, precision, seed, second=False):
    """Base and swap runs of ``ranks`` (and, with ``second``, base and swap at each
    rank's second score with the table's valuation), as pairs per rank."""
    seat, policies, offset = seating
    configs = [make_config(rules, policies, swap_seat=seat)]
    configs += [make_config(rules, policies, swap=r, swap_seat=seat) for r in ranks]
    if second:  # base and swap again with the rank at a second score
        for r in ranks:
            other = rules.replace(scale=scale_with(rules.scale, r,
                                                   second_score(face_value(rules.scale, r))))
            configs += [make_config(other, policies, swap_seat=seat, valuation=rules.scale),
                        make_config(other, policies, swap=r, swap_seat=seat,
                                    valuation=rules.scale)]
    runs = _cell(runner, configs, games, precision, seed + offset,
                 lambda rs: _win_half_width(rs[0], rs[1:1 + len(ranks)], rules.players, seat))
    k = len(ranks)
    pairs = [swap_pairs(runs[0], runs[1 + i], rules.players, seat) for i in range(k)]
    others = [swap_pairs(runs[1 + k + 2 * i], runs[2 + k + 2 * i], rules.players, seat)
              for i in range(k)] if second else None
    return runs[0], pairs, others


def _joined(parts: list) -> list[pd.DataFrame] | None:
    """Per-rank pairs of every seating, one table per rank."""
    if parts[0] is None:
        return None
    return [pd.concat(group, ignore_index=True) for group in zip(*parts)]


def _table_rows(rules, runner, table: Table, ranks, policies, games, match_games, precision,
                seed, break_even_point, holder=None) -> list[dict]:
    seatings = _seatings(table.players, policies, holder)
    deal_rules = rules.replace(players=table.players, scale=table.scale, match="single")
    deal_runs = [_swap_runs(runner, deal_rules, ranks, seating, games, precision, seed,
                            break_even_point) for seating in seatings]
    pairs = _joined([run[1] for run in deal_runs])
    others = _joined([run[2] for run in deal_runs])
    games_played = sum(len(run[0]) for run in deal_runs)
    mpairs = None
    if rules.match_kind != "single" and match_games != 0:
        match_rules = rules.replace(players=table.players, scale=table.scale)
        match_runs = [_swap_runs(runner, match_rules, ranks, seating, match_games, precision,
                                 seed) for seating in seatings]
        mpairs = _joined([run[1] for run in match_runs])
        match_deals = np.concatenate([run[0]["deals"].to_numpy() for run in match_runs])
    rows = []
    for i, rank in enumerate(ranks):
        p = pairs[i][pairs[i]["swapped"]]
        face = face_value(table.scale, rank)
        row = {"scale": table.scale_name, "players": table.players, "rank": rank,
               "face": face, "games": games_played, "n": int(len(p))}
        effects = {"win": paired_difference(p["win_swap"], p["win_base"]),
                   "points": paired_difference(p["points_swap"], p["points_base"]),
                   "base_win": proportion(int(p["win_base"].sum()), len(p)),
                   "base_points": mean_interval(p["points_base"]),
                   "possible": proportion(int(pairs[i]["swapped"].sum()), len(pairs[i]))}
        effects["opponents"] = paired_difference(p["opponents_swap"], p["opponents_base"])
        effects["standing"] = paired_difference(p["points_swap"] - p["opponents_swap"],
                                                p["points_base"] - p["opponents_base"])
        row["corr_win"] = pairing_correlation(p["win_swap"], p["win_base"])
        row["corr_points"] = pairing_correlation(p["points_swap"], p["points_base"])
        row["ordinary"] = ordinary_points(table.scale)
        if others is not None:
            lines = break_even(pairs[i], others[i], face, second_score(face))
            effects.update(lines)
            effects["break_even_cards"] = in_cards(lines["break_even"], row["ordinary"])
            effects["break_even_standing_cards"] = in_cards(lines["break_even_standing"],
                                                            row["ordinary"])
        if mpairs is not None:
            mp = mpairs[i][mpairs[i]["swapped"]]
            effects["match_win"] = paired_difference(mp["win_swap"], mp["win_base"])
            effects["match_base_win"] = proportion(int(mp["win_base"].sum()), len(mp))
            effects["match_deals"] = mean_interval(match_deals)
            row["match_games"] = len(match_deals)
            row["corr_match_win"] = pairing_correlation(mp["win_swap"], mp["win_base"])
        for name, est in effects.items():
            row.update(estimate_columns(name, est))
        rows.append(row)
    return rows


def effects_per_game(runner: Runner, rules: Rules, policies, rank: str, games: int,
                     seed: int, holder: str | None = None) -> pd.DataFrame:
    """The swap experiment's per-game effects at one table: ``seat`` (the focal seat),
    ``game``, ``swapped`` and the focal seat's ``win``, ``points`` and ``standing`` (own points
    minus the mean opponent's) differences, swap − as dealt.

    Without ``holder`` one run, the focal seat rotating (``game % players``), every seat
    playing ``policies``. With ``holder`` (even one equal to ``policies``) one run per focal
    seat on seed + seat, ``games`` each, the holder there and ``policies`` elsewhere, as
    :func:`card_value` does. Two frames of the same design and seed pair game by game
    (:func:`paired_effect_difference`): the same deal and the same focal seat."""
    frames = []
    for seat, seats, offset in _seatings(rules.players, policies, holder, per_seat=holder
                                         is not None):
        base, swapped = runner.run([make_config(rules, seats, swap_seat=seat),
                                    make_config(rules, seats, swap=rank, swap_seat=seat)],
                                   games, seed + offset)
        p = swap_pairs(base, swapped, rules.players, seat)
        points = (p["points_swap"] - p["points_base"]).to_numpy(np.float64)
        frames.append(pd.DataFrame({
            "seat": p["seat"].to_numpy(), "game": p["game"].to_numpy(),
            "swapped": p["swapped"].to_numpy(bool),
            "win": p["win_swap"].to_numpy(np.float64) - p["win_base"].to_numpy(np.float64),
            "points": points,
            "standing": points - (p["opponents_swap"]
                                  - p["opponents_base"]).to_numpy(np.float64)}))
    return pd.concat(frames, ignore_index=True)


def paired_effect_difference(x: pd.DataFrame, y: pd.DataFrame, column: str = "win"
                             ) -> Estimate:
    """The effect in ``x`` minus the effect in ``y`` (frames of :func:`effects_per_game`),
    paired by (focal seat, game) over the games where the exchange was possible in both."""
    m = x.merge(y, on=["seat", "game"], suffixes=("_x", "_y"))
    keep = (m["swapped_x"] & m["swapped_y"]).to_numpy()
    return paired_difference(m[f"{column}_x"].to_numpy()[keep],
                             m[f"{column}_y"].to_numpy()[keep])
