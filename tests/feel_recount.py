"""The game feel recounted from a traced game, in plain Python: the trace's rows and the rules
only, with the referee (which shares no code with the engine) for what was legal at each turn.
Written from docs/columns.md's definitions, independently of vandatta_sim/engine/feel.py:
tests/test_feel.py checks that the two agree exactly.
"""

from __future__ import annotations

from vandatta_sim.referee import GameState, legal_plays
from vandatta_sim.trace import Event, as_rows


def _alone(values: dict[int, int], pick) -> int | None:
    """The seat whose value is ``pick`` (min or max) of them all, if no other seat shares it."""
    best = pick(values.values())
    seats = [s for s, v in values.items() if v == best]
    return seats[0] if len(seats) == 1 else None


def _lead_changes(leaders: list[int | None]) -> int:
    """A seat leads alone where the last seat that led alone was another one (ties between
    break no lead and change none)."""
    changes, last = 0, None
    for leader in leaders:
        if leader is not None:
            if last is not None and leader != last:
                changes += 1
            last = leader
    return changes


def recount(rows, rules) -> dict[str, int]:
    """The game's feel measures, named as simulate's feel columns (per seat: ``name_<seat>``)."""
    state = GameState(rules)  # checks every row, and knows what is legal
    players = rules.players
    match = rules.match != "single"
    out = dict(lead_changes=0, won_deals=0, won_turns=0, behind=0, comebacks=0,
               decisive_turns=0)
    seat_turns, choice_turns, options = [0] * players, [0] * players, [0] * players
    sizes: dict[int, int] = {}
    turn_ends: list[dict[int, int]] = []  # the hand sizes at the end of each turn of the deal
    in_turn = False
    totals: dict[int, int] = {}
    scored: list[int] = []  # the seats scored for the deal just ended
    points_ends: list[dict[int, int]] = []  # the match totals after each deal
    match_winner = -1

    def deal_over(winner: int) -> None:
        leaders = [_alone(sizes_t, min) for sizes_t in turn_ends]
        out["lead_changes"] += _lead_changes(leaders)
        if winner < 0:
            return
        turns = len(turn_ends)
        out["won_deals"] += 1
        out["won_turns"] += turns
        out["behind"] += max(s[winner] - min(s.values()) for s in turn_ends)
        out["comebacks"] += any(_alone(s, max) == winner for s in turn_ends)
        not_leading = [t for t, leader in enumerate(leaders, 1) if leader != winner]
        out["decisive_turns"] += turns - (not_leading[-1] if not_leading else 0)

    for index, row in enumerate(as_rows(rows)):
        kind, seat, a, b = (int(x) for x in row)
        if kind != Event.SCORE and scored:
            points_ends.append({s: totals[s] for s in scored})
            scored = []
        if kind in (Event.TURN, Event.END_DEAL) and in_turn:
            turn_ends.append(dict(sizes))
            in_turn = False
        state.step(index, (kind, seat, a, b))
        if kind == Event.NEW_DEAL:
            sizes, turn_ends = {}, []
        elif kind == Event.DEAL:
            sizes[seat] = sizes.get(seat, 0) + 1
        elif kind == Event.DRAW:
            sizes[seat] += 1
        elif kind == Event.PLAY:
            sizes[seat] -= 1
        elif kind == Event.TURN:
            in_turn = True
            legal = legal_plays(state)
            k = len(legal) + (1 if not legal or not rules.must_play else 0)
            seat_turns[seat] += 1
            options[seat] += k
            choice_turns[seat] += k >= 2
        elif kind == Event.END_DEAL:
            deal_over(seat)
            if not match:
                match_winner = seat
        elif kind == Event.SCORE:
            totals[seat] = b
            scored.append(seat)
        elif kind == Event.END_MATCH:
            match_winner = seat
    if scored:
        points_ends.append({s: totals[s] for s in scored})
    if match:
        leaders = [_alone(t, min) for t in points_ends]
        out["points_lead_changes"] = _lead_changes(leaders)
        won = match_winner >= 0
        out["points_behind"] = max(t[match_winner] - min(t.values()) for t in points_ends
                                   if match_winner in t) if won else 0
        out["points_comeback"] = int(won and any(_alone(t, max) == match_winner
                                                 for t in points_ends))
    for name, values in (("seat_turns", seat_turns), ("choice_turns", choice_turns),
                         ("options", options)):
        for s in range(players):
            out[f"{name}_{s}"] = values[s]
    return out
