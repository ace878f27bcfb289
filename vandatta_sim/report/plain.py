"""Plain verdicts: what a result means, in two to four everyday sentences.

Each command that answers a question (``value``, ``sweep``, ``results compare``) ends with
one. The sentences say what changes and by how much (per 100 deals or matches), whether the
difference is real at this many games (the 95% interval excludes no difference) or too small
to tell from chance, which players produced it, and they explain every odd case (a break-even
below zero, one the games cannot pin down) in words. Numbers are rounded to what their
interval supports (:func:`rounded`). The statistics come from elsewhere (``value``'s table,
:mod:`vandatta_sim.sweep.compare`): this module only reads them.
"""

from __future__ import annotations

import math

RANK_WORDS = {"A": "ace", "J": "jack", "Q": "queen", "K": "king", "8": "eight"}


def _decimals(half_width: float) -> int:
    """Decimals that keep the first significant digit of the interval's half-width (none for
    a half-width of 1 or more; at most 3)."""
    if not (math.isfinite(half_width) and half_width > 0):
        return 1
    return max(0, min(3, -math.floor(math.log10(half_width))))


def rounded(value: float, low: float, high: float, scale: float = 1.0) -> tuple[str, str, str]:
    """``value``, ``low`` and ``high`` (times ``scale``) as text rounded to what the interval
    supports: to the decimal of the half-width's first significant digit, and to tens or
    hundreds where the half-width is that large."""
    v, lo, hi = value * scale, low * scale, high * scale
    half = (hi - lo) / 2
    if math.isfinite(half) and half >= 10:
        step = 10 ** math.floor(math.log10(half))
        return tuple(f"{round(x / step) * step:.0f}" for x in (v, lo, hi))
    d = _decimals(half)
    return tuple(f"{x:.{d}f}" for x in (v, lo, hi))


def _abs_text(value: float, low: float, high: float, scale: float = 1.0) -> str:
    """``|value|`` rounded by its interval (the sentence carries the sign in words)."""
    v, _, _ = rounded(abs(value), low, high, scale)
    return v


def _interval_text(low: float, high: float, scale: float = 1.0) -> str:
    """The interval as ``lo to hi``; an interval that lies wholly below 0 is given by its
    magnitudes (``3.3 to 4.6``), since the sentence says "fewer" or "shorter" in words."""
    if high < 0:
        low, high = -high, -low
    _, lo, hi = rounded((low + high) / 2, low, high, scale)
    return f"{lo} to {hi}"


def _real(low: float, high: float) -> bool:
    return bool(low > 0 or high < 0)


def _players_text(policies: str) -> str:
    """Which players the answer is about, from a policy description (``all=expert``)."""
    policies = str(policies or "").strip()
    if policies.startswith("all="):
        return f"every seat played by the `{policies[4:]}` player"
    if policies in ("", "varied"):
        return "the players each configuration names (its `policy=`)"
    return f"the seats played by {policies}"


def _get(row, name: str):
    """An estimate's value, low and high from a row, whichever suffix the table uses."""
    for low, high in (("_lo", "_hi"), ("_low", "_high")):
        if f"{name}{low}" in row:
            return float(row[name]), float(row[f"{name}{low}"]), float(row[f"{name}{high}"])
    if name in row:
        value = float(row[name])
        return value, math.nan, math.nan
    return None


def _rank_word(rank: str) -> str:
    return RANK_WORDS.get(str(rank), f"{rank}")


def _card_value_row(row) -> list[str]:
    """The sentences for one (scale, players, rank) row of ``value``'s table."""
    card = _rank_word(row["rank"])
    where = f"At {int(row['players'])} players ({row['scale']} scale, the {card} counting " \
            f"{int(row['face'])})"
    out = []
    win = _get(row, "win")
    points = _get(row, "points")
    if win is not None:
        v, lo, hi = win
        if _real(lo, hi):
            more = "more" if v > 0 else "fewer"
            out.append(f"{where}, one more {card} in the hand wins about "
                       f"{_abs_text(v, lo, hi, 100)} {more} deals in 100 "
                       f"({_interval_text(lo, hi, 100)})")
        else:
            out.append(f"{where}, one more {card} changes the deals won too little to tell "
                       f"from chance at this many deals ({_interval_text(lo, hi, 100)} in 100)")
    if points is not None:
        v, lo, hi = points
        if _real(lo, hi):
            way = "saves" if v < 0 else "costs"
            out[-1] += (f" and {way} about {_abs_text(v, lo, hi)} penalty points a deal "
                        f"({_interval_text(lo, hi)}).")
        else:
            out[-1] += (", and its effect on penalty points is too small to tell from chance "
                        f"({_interval_text(lo, hi)} a deal).")
    else:
        out[-1] += "."
    even = _get(row, "break_even")
    if even is not None:
        out.append(_break_even_sentence(card, int(row["face"]), *even))
    match = _get(row, "match_win")
    if match is not None:
        v, lo, hi = match
        if _real(lo, hi):
            more = "more" if v > 0 else "fewer"
            out.append(f"Over whole matches it wins about {_abs_text(v, lo, hi, 100)} {more} "
                       f"matches in 100 ({_interval_text(lo, hi, 100)}).")
        else:
            out.append("Over whole matches the difference is too small to tell from chance "
                       f"at this many matches ({_interval_text(lo, hi, 100)} in 100).")
    return out


def _break_even_sentence(card: str, face: int, value: float, low: float, high: float) -> str:
    """The break-even face value in words, every odd case explained."""
    if not (math.isfinite(value) and math.isfinite(low) and math.isfinite(high)):
        return (f"These games cannot pin down the score at which an extra {card} would be "
                "neutral (its interval is unbounded): more games would.")
    v, lo, hi = rounded(value, low, high)
    if high < 0:
        return (f"No score of zero or more makes the extra {card} neutral (the break-even comes "
                f"out below zero, {v}, from {lo} to {hi}): even counted as 0 it leaves you with "
                "more penalty points, because holding it changes how the hand is played.")
    if low <= face <= high:
        return (f"At {face} points it is about neutral: the score that would make it neutral, "
                f"about {v} ({lo} to {hi}), includes {face}.")
    if face < low:
        return (f"At {face} points it pays to hold: only at about {v} points ({lo} to {hi}) "
                "would it stop saving penalty points.")
    return (f"At {face} points it costs you points: about {v} ({lo} to {hi}) would be "
            "neutral.")


def _break_even_clause(face: int, value: float, low: float, high: float) -> str:
    """The break-even in a few words, for one line of several."""
    if not (math.isfinite(value) and math.isfinite(low) and math.isfinite(high)):
        return "the games cannot pin down its break-even score (more games would)"
    v, lo, hi = rounded(value, low, high)
    if high < 0:
        return f"no score of zero or more makes it neutral (break-even {v}, {lo} to {hi})"
    if low <= face <= high:
        return f"at {face} points it is about neutral (break-even {v}, {lo} to {hi})"
    if face < low:
        return f"at {face} points it pays to hold (break-even about {v}, {lo} to {hi})"
    return f"at {face} points it costs you points (about {v}, {lo} to {hi}, would be neutral)"


def _compact_row(row) -> str:
    """One line of several: the deal win, the points and the break-even of one row."""
    card = _rank_word(row["rank"])
    parts = []
    win, points, even = _get(row, "win"), _get(row, "points"), _get(row, "break_even")
    if win is not None:
        v, lo, hi = win
        parts.append(f"{'+' if v > 0 else '−'}{_abs_text(v, lo, hi, 100)} deals won in 100 "
                     f"({_interval_text(lo, hi, 100)})" if _real(lo, hi) else
                     "no deal-win difference beyond chance")
    if points is not None:
        v, lo, hi = points
        parts.append((f"{'saves' if v < 0 else 'costs'} {_abs_text(v, lo, hi)} points a deal"
                       if _real(lo, hi) else "points unchanged beyond chance"))
    if even is not None:
        parts.append(_break_even_clause(int(row["face"]), *even))
    return (f"At {int(row['players'])} players ({row['scale']} scale, one more {card} "
            f"counting {int(row['face'])}): " + "; ".join(parts) + ".")


def card_value_verdict(table, policies: str, deals_word: str = "deals") -> str:
    """The plain verdict under ``value``'s table and the players who produced it: one row in
    full sentences, or for several rows one line each (at most three, the rest referred to
    the table)."""
    rows = [r for _, r in table.iterrows()] if hasattr(table, "iterrows") else list(table)
    if not rows:
        return ""
    if len(rows) == 1:
        sentences = _card_value_row(rows[0])
    else:
        sentences = [_compact_row(r) for r in rows[:3]]
        if len(rows) > 3:
            sentences[-1] = sentences[-1][:-1] + (f" ({len(rows) - 3} more line(s) in the "
                                                  "table above).")
    sentences.append(f"This is what happens with {_players_text(policies)}; other players "
                     "can value the card differently.")
    return "\n".join(sentences)


# --- comparisons of configurations (sweep, results compare) ---------------------------------

#: What each compared measure is in words: (name, unit per 100 or per game, scale).
MEASURE_WORDS = {
    "win_rate_0": ("förhand (seat 0) wins", "in 100 games", 100.0),
    "mean_turns": ("a game lasts", "turns", 1.0),
    "loser_points": ("the non-winners collect", "penalty points a game", 1.0),
}


def _delta_clause(row: dict, measure: str) -> str | None:
    value, low, high = (row.get(f"delta_{measure}{s}", math.nan) for s in ("", "_low", "_high"))
    if value is None or not math.isfinite(value):
        return None
    name, unit, scale = MEASURE_WORDS[measure]
    if not _real(low, high):
        return f"{name} about as often (the difference, {_interval_text(low, high, scale)}, " \
               "is too small to tell from chance)" if measure == "win_rate_0" else \
            f"{name} about the same ({_interval_text(low, high, scale)} {unit}, not a real " \
            "difference at this many games)"
    way = "more" if value > 0 else "fewer"
    if measure == "mean_turns":
        way = "longer" if value > 0 else "shorter"
        return f"a game lasts about {_abs_text(value, low, high)} turns {way} " \
               f"({_interval_text(low, high)})"
    if measure == "win_rate_0":
        return f"förhand wins about {_abs_text(value, low, high, scale)} {way} games in 100 " \
               f"({_interval_text(low, high, scale)})"
    return f"the non-winners collect about {_abs_text(value, low, high)} {way} penalty " \
           f"points a game ({_interval_text(low, high)})"


def comparison_verdict(summary, rows: list[dict], baseline: int, policies: str | None = None,
                       unit: str = "games", most: int = 3) -> str:
    """The plain verdict under a comparison of configurations with a baseline: for each of up
    to ``most`` others, what changes (förhand's wins, the length of a game, the losers'
    points) with the real differences first, then the players it assumes."""
    labels = [str(x) for x in summary["label"]]
    from ..plots import varied_labels

    short = varied_labels(labels)
    sentences = []
    others = [r for r in rows if not r.get("baseline")]
    for i, r in enumerate(rows):
        if r.get("baseline") or len(sentences) >= most:
            continue
        measured = [m for m in MEASURE_WORDS if _delta_clause(r, m)]
        if not measured:
            continue
        real = [m for m in measured if _real(r[f"delta_{m}_low"], r[f"delta_{m}_high"])]
        clauses = [_delta_clause(r, m) for m in real + [m for m in measured if m not in real]]
        head = f"With {short[i]} instead of {short[baseline]}"
        n = int(r.get("paired_games", 0))
        if real:
            sentences.append(f"{head}, " + "; ".join(clauses) + f", over {n:,} paired {unit}.")
        else:
            sentences.append(f"{head}, nothing measured differs by more than chance at "
                             f"{n:,} paired {unit}.")
    if len(others) > most and sentences:
        sentences[-1] = sentences[-1][:-1] + (f" ({len(others) - most} more configuration(s) in "
                                              "the table above).")
    players = policies if policies is not None else _common_policies(summary)
    sentences.append(f"This is what happens with {_players_text(players)}; other players can "
                     "give other answers.")
    return "\n".join(sentences)


def _common_policies(summary) -> str:
    if "policies" not in summary:
        return ""
    values = {str(p) for p in summary["policies"]}
    return values.pop() if len(values) == 1 else "varied"


def single_verdict(row, policies: str, unit: str = "games") -> str:
    """The plain verdict of one configuration: förhand's win rate against the fair share (1 /
    players), the length of a game (deals per match where matches are played) and the players
    it assumes."""
    players = int(row["players"])
    fair = 1 / players
    v, lo, hi = (float(row[f"win_rate_0{s}"]) for s in ("", "_low", "_high"))
    share, slo, shi = rounded(v, lo, hi, 100)
    if lo > fair:
        judged = "more than the fair share, a real förhand advantage at this many " + unit
    elif hi < fair:
        judged = "less than the fair share, a real förhand disadvantage at this many " + unit
    else:
        judged = "about the fair share (the difference is too small to tell from chance)"
    out = [f"Förhand (seat 0) wins {share}% of the {unit} ({slo} to {shi}), against a fair "
           f"share of {100 * fair:.1f}% at {players} players; that is {judged}."]
    turns = _get(row, "mean_turns")
    deals = _get(row, "mean_deals")
    length = f"A game lasts about {rounded(*turns)[0]} turns"
    if unit == "matches" and deals is not None:
        length = f"A match lasts about {rounded(*deals)[0]} deals and {rounded(*turns)[0]} turns"
    out.append(length + ".")
    out.append(f"This is what happens with {_players_text(policies)}.")
    return "\n".join(out)


def skill_sentences(plan, changes) -> str:
    """The Δ-skill line: for each rules variant, how much more (or less) the focal seat's
    better policy gains over the other than under the baseline rules, per 100 games."""
    from ..plots import varied_labels

    out = []
    names = varied_labels([v[0] for v in plan.variants])
    base = names[0]
    for rules, est in zip(names[1:], changes):
        lo, hi = est.low, est.high
        if not _real(lo, hi):
            out.append(f"Δ skill: {rules} changes how much seat {plan.seat} gains from playing "
                       f"`{plan.high}` rather than `{plan.low}` too little to tell from chance "
                       f"(compared with {base}: {_interval_text(lo, hi, 100)} wins in 100).")
            continue
        way = "more" if est.value > 0 else "fewer"
        out.append(f"Δ skill: with {rules}, playing `{plan.high}` rather than `{plan.low}` is "
                   f"worth about {_abs_text(est.value, lo, hi, 100)} {way} wins in 100 to seat "
                   f"{plan.seat} than with {base} ({_interval_text(lo, hi, 100)}).")
    return "\n".join(out)
