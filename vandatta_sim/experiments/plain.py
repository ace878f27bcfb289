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

import decimal
import math

RANK_WORDS = {"A": "ace", "J": "jack", "Q": "queen", "K": "king", "8": "eight"}


#: The finest rounding step: a thousandth (a half-width below it still shows 3 decimals).
_FINEST = -3


def _step_exponent(half_width: float) -> int:
    """The rounding step 10**e of an interval of this half-width: the largest power of ten at
    most half the half-width (so rounding each end outward widens it by less than a quarter of
    its width), never finer than a thousandth (the step of a zero-width interval too); a
    tenth where it is undefined."""
    if not math.isfinite(half_width):
        return -1
    if half_width <= 0:
        return _FINEST
    return max(_FINEST, math.floor(math.log10(half_width / 2)))


def _round_text(x: float, exponent: int, rounding: str) -> str:
    """``x`` rounded to a multiple of 10**exponent in the direction ``rounding`` (a
    :mod:`decimal` rounding), exactly: the float's exact decimal value is rounded, so a bound
    rounded down is never above ``x`` and one rounded up never below it."""
    with decimal.localcontext() as ctx:
        ctx.prec = 2000  # a double has at most ~770 significant digits, a product of two twice
        d = decimal.Decimal(x).scaleb(-exponent).to_integral_value(rounding)
        if d.is_zero():
            d = d.copy_abs()  # no "-0"
        if exponent >= 0:
            return str(int(d) * 10 ** exponent)
        return f"{d.scaleb(exponent):.{-exponent}f}"


def rounded(value: float, low: float, high: float, scale: float = 1.0) -> tuple[str, str, str]:
    """``value``, ``low`` and ``high`` (times ``scale``) as text rounded to what the interval
    supports: to the step of :func:`_step_exponent` (the largest power of ten at most half the
    half-width), the value to the nearest step and the bounds **outward** (the low end down,
    the high end up), so the interval shown always holds the interval computed:
    [80, 282] is "80 to 290", never "100 to 300"."""
    v, lo, hi = value * scale, low * scale, high * scale
    if not all(math.isfinite(x) for x in (v, lo, hi)):
        return tuple(f"{x}" if not math.isfinite(x) else f"{x:.1f}" for x in (v, lo, hi))
    e = _step_exponent((hi - lo) / 2)
    return (_round_text(v, e, decimal.ROUND_HALF_EVEN), _round_text(lo, e, decimal.ROUND_FLOOR),
            _round_text(hi, e, decimal.ROUND_CEILING))


def outward(low: float, high: float, digits: int, scale: float = 1.0) -> tuple[str, str]:
    """``[low, high]`` times ``scale`` at a fixed number of ``digits`` decimals, rounded
    **outward** (the low end down, the high end up) from the exact product, so a table's
    interval never shows narrower than the one computed: [0.01351, 0.05305] in % at one
    decimal is "1.3" to "5.4", where rounding to the nearest gave [1.4, 5.3]."""
    with decimal.localcontext() as ctx:
        ctx.prec = 2000  # exact (as in _round_text)
        lo = decimal.Decimal(low) * decimal.Decimal(scale)
        hi = decimal.Decimal(high) * decimal.Decimal(scale)
    return (_round_text(lo, -digits, decimal.ROUND_FLOOR),
            _round_text(hi, -digits, decimal.ROUND_CEILING))


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


def _zero(value: float, low: float, high: float) -> bool:
    """An effect exactly 0 by construction (every paired game the same): said in words, not
    as an interval "too small to tell from chance"."""
    return value == 0 and low == 0 and high == 0


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
        elif _zero(v, lo, hi):
            out.append(f"{where}, one more {card} changes no deal's winner")
        else:
            out.append(f"{where}, one more {card} changes the deals won too little to tell "
                       f"from chance at this many deals ({_interval_text(lo, hi, 100)} in 100)")
    if points is not None:
        v, lo, hi = points
        if _real(lo, hi):
            way = "saves" if v < 0 else "costs"
            out[-1] += (f" and {way} about {_abs_text(v, lo, hi)} penalty points a deal "
                        f"({_interval_text(lo, hi)}).")
        elif _zero(v, lo, hi):
            out[-1] += ", and no deal's penalty points."
        else:
            out[-1] += (", and its effect on penalty points is too small to tell from chance "
                        f"({_interval_text(lo, hi)} a deal).")
    else:
        out[-1] += "."
    if _get(row, "break_even") is not None:
        out.append(_break_even_sentence(row, card))
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


# --- the break-even verdict -----------------------------------------------------------------

#: "About neutral" needs the whole break-even interval within this many ordinary cards' score
#: (:func:`vandatta_sim.experiments.card_value.ordinary_points`) of the card's own score: scored
#: anywhere in it, one more of the card saves or costs less than re-scoring it by an ordinary
#: card would move the threshold. The sentence states the margin in points.
NEUTRAL_MARGIN_CARDS = 1.0

PAYS = "pays to hold"
COSTS = "costs you points"
NEUTRAL = "about neutral"
UNCLEAR = "cannot tell yet"
UNBOUNDED = "not bounded"


def break_even_verdict(face: float, low: float, high: float, slope_low: float,
                       slope_high: float, margin: float) -> str:
    """Whether one more card scored ``face`` pays to hold, from its break-even score's interval
    ``[low, high]`` and the interval of the slope ``b`` of its Δ own points in its score.

    One more card changes its holder's points by Δ(v) = b·(v − v*) at score v, so at ``face``
    it saves points (:data:`PAYS`) where ``face`` lies outside the interval on the side where
    b·(face − v*) < 0 for every v* in it (below it for a rising line, above it for a falling
    one), and costs points (:data:`COSTS`) on the other side: right for either sign of the
    slope. :data:`NEUTRAL` only where the whole interval lies within ``margin`` of ``face``
    (it takes precedence: a small effect of known sign is still neutral); :data:`UNCLEAR`
    where neither holds; :data:`UNBOUNDED` where the interval is not bounded or the slope's
    sign is not shown. Monotone in the data: as the intervals shrink (nested), the verdict
    only leaves UNBOUNDED / UNCLEAR, and PAYS or COSTS may only sharpen to NEUTRAL; NEUTRAL
    never changes, and PAYS never becomes COSTS."""
    if not (margin >= 0):
        raise ValueError("the margin must be >= 0")
    finite = all(math.isfinite(x) for x in (low, high, slope_low, slope_high))
    if not finite or not (slope_low > 0 or slope_high < 0):
        return UNBOUNDED
    if face - margin <= low and high <= face + margin:
        return NEUTRAL
    rising = slope_low > 0
    if face < low:
        return PAYS if rising else COSTS
    if face > high:
        return COSTS if rising else PAYS
    return UNCLEAR


def _ordinary(row) -> float:
    """An ordinary card's mean score at the row's scale (the unit of the neutral margin)."""
    if "ordinary" in row and math.isfinite(float(row["ordinary"])):
        return float(row["ordinary"])
    from .card_value import ordinary_points

    return ordinary_points(str(row["scale"]))


def _margin_text(margin: float) -> str:
    number = f"{margin:.0f}" if float(margin).is_integer() else f"{margin:.1f}"
    return f"{number} point{'' if margin == 1 else 's'}"


def _break_even_parts(row):
    """(verdict, face, value, low, high, rising, margin) of a row with a break-even."""
    v, lo, hi = _get(row, "break_even")
    slope = _get(row, "slope")
    slope_lo, slope_hi = (slope[1], slope[2]) if slope is not None else (math.nan, math.nan)
    margin = NEUTRAL_MARGIN_CARDS * _ordinary(row)
    face = int(row["face"])
    verdict = break_even_verdict(face, lo, hi, slope_lo, slope_hi, margin)
    return verdict, face, v, lo, hi, slope_lo > 0, margin


def _break_even_sentence(row, card: str) -> str:
    """The break-even verdict in words (:func:`break_even_verdict`), every case explained."""
    verdict, face, value, low, high, rising, margin = _break_even_parts(row)
    if verdict == UNBOUNDED:
        return (f"These games cannot pin down the score at which an extra {card} would be "
                "neutral (its interval is unbounded): more games would.")
    v, lo, hi = rounded(value, low, high)
    where = f"its break-even score, about {v} ({lo} to {hi})"
    m = _margin_text(margin)
    if verdict == NEUTRAL:
        return (f"At {face} points it is about neutral: {where}, lies within {m} (one "
                f"ordinary card of the scale) of {face}.")
    if verdict == UNCLEAR:
        return (f"At {face} points these games cannot tell yet whether it pays to hold: "
                f"{where}, holds {face} and reaches more than {m} (one ordinary card) from it.")
    below_zero = (" No score of zero or more makes it neutral: even counted as 0 it "
                  + ("leaves you with more penalty points, because holding it changes how the "
                     "hand is played." if rising else
                     "saves you penalty points, because holding it changes how the hand is "
                     "played.")) if high < 0 else ""
    if rising:  # one more costs more points the more it scores
        side = (f"it saves penalty points at any score below {where}" if verdict == PAYS else
                f"{where}, is below it: only scored lower would it save points")
    else:  # one more leaves fewer of the card in the hand: it saves more the more it scores
        side = (f"it saves penalty points at any score above {where}, and the more the "
                "higher the score, since the extra one leaves fewer of them in your hand "
                "when someone else goes out" if verdict == PAYS else
                f"{where}, is above it: only scored higher would it save points")
    return f"At {face} points it {verdict}: {side}." + below_zero


def _break_even_clause(row) -> str:
    """The break-even verdict in a few words, for one line of several."""
    verdict, face, value, low, high, rising, margin = _break_even_parts(row)
    if verdict == UNBOUNDED:
        return "the games cannot pin down its break-even score (more games would)"
    v, lo, hi = rounded(value, low, high)
    even = f"break-even about {v}, {lo} to {hi}"
    m = _margin_text(margin)
    if verdict == NEUTRAL:
        return f"at {face} points it is about neutral ({even}, within {m} of {face})"
    if verdict == UNCLEAR:
        return (f"at {face} points the games cannot tell yet whether it pays to hold ({even}, "
                f"not within {m} of {face})")
    way = "below" if rising else "above"
    return f"at {face} points it {verdict} ({even}; it saves points {way} that)"


def _compact_row(row) -> str:
    """One line of several: the deal win, the points and the break-even of one row."""
    card = _rank_word(row["rank"])
    parts = []
    win, points = _get(row, "win"), _get(row, "points")
    if win is not None:
        v, lo, hi = win
        parts.append(f"{'+' if v > 0 else '−'}{_abs_text(v, lo, hi, 100)} deals won in 100 "
                     f"({_interval_text(lo, hi, 100)})" if _real(lo, hi) else
                     "no deal's winner changed" if _zero(v, lo, hi) else
                     "no deal-win difference beyond chance")
    if points is not None:
        v, lo, hi = points
        parts.append((f"{'saves' if v < 0 else 'costs'} {_abs_text(v, lo, hi)} points a deal"
                       if _real(lo, hi) else "no deal's points changed" if _zero(v, lo, hi)
                       else "no points difference beyond chance"))
    if _get(row, "break_even") is not None:
        parts.append(_break_even_clause(row))
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


#: What each measure is about, for a sentence that says no difference is shown in it.
MEASURE_TOPICS = {"win_rate_0": "how often förhand (seat 0) wins",
                  "mean_turns": "how long a game lasts",
                  "loser_points": "the non-winners' penalty points"}


def _delta_clause(row: dict, measure: str) -> str | None:
    value, low, high = (row.get(f"delta_{measure}{s}", math.nan) for s in ("", "_low", "_high"))
    if value is None or not math.isfinite(value):
        return None
    name, unit, scale = MEASURE_WORDS[measure]
    if _zero(value, low, high):
        return f"{MEASURE_TOPICS[measure]}: the same in every paired game"
    if not _real(low, high):
        return f"no difference shown in {MEASURE_TOPICS[measure]} " \
               f"({_interval_text(low, high, scale)} {unit}, too small to tell from chance " \
               "at this many games)"
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
    points) with the real differences first, then the players it assumes. A configuration is
    named by the fields that tell it from the baseline (``rows``' ``varied``, from
    :func:`vandatta_sim.sweep.compare.paired_comparison`), never by its label's words."""
    sentences = []
    others = [r for r in rows if not r.get("baseline")]
    for r in rows:
        if r.get("baseline") or len(sentences) >= most:
            continue
        measured = [m for m in MEASURE_WORDS if _delta_clause(r, m)]
        if not measured:
            continue
        real = [m for m in measured if _real(r[f"delta_{m}_low"], r[f"delta_{m}_high"])]
        clauses = [_delta_clause(r, m) for m in real + [m for m in measured if m not in real]]
        ours, theirs = _pair_names(r, str(rows[baseline].get("key", "")))
        head = f"With {ours} instead of {theirs}"
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


def _pair_names(row: dict, baseline_key: str) -> tuple[str, str]:
    """A configuration's and the baseline's names in a comparison: the fields in which they
    differ (``stacking=true``, ``stacking=false``), each with the user's label beside it in
    quotes where their labels differ; the keys where no field differs (two chunkings, say)."""
    ours, theirs = row.get("varied") or "", row.get("varied_baseline") or ""
    if not ours:
        ours, theirs = (f"the games of key {row.get('key', '')}",
                        f"those of key {baseline_key} (the same rules and players)")
    mine, base = row.get("user_label") or "", row.get("baseline_user_label") or ""
    if mine != base:
        ours += f' ("{mine}")' if mine else ""
        theirs += f' ("{base}")' if base else ""
    return ours, theirs


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
        judged = ("not shown to differ from the fair share (the difference is too small to "
                  "tell from chance)")
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
