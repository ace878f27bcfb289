"""The interactive table (vandatta_sim.play.table): the engine's game, people's turns refereed."""

from __future__ import annotations

import ast
from pathlib import Path

import numpy as np
import pytest

from vandatta_sim.play import table as table_module
from vandatta_sim.referee import referee, replay, why_illegal
from vandatta_sim.rules import resolve_rules
from vandatta_sim.simulate import Seats, trace_game
from vandatta_sim.play.table import Answer, Table
from vandatta_sim.trace import Event

RULE_SETS = [
    ("standard", ["players=3", "match=single"]),
    ("seed001", ["players=2", "match=deals:2"]),            # stacking, base scale
    ("seed000", ["players=3", "match=single"]),             # eight_follow=same_player
    ("standard", ["players=4", "match=single", "ace_on_ace=counter", "two_draws_two=true",
                  "jokers=2", "joker_effect=super_eight", "must_play=false", "call_at=3"]),
    ("standard", ["players=3", "match=single", "jokers=1", "joker_effect=draw_two",
                  "stacking=true", "draw_limit=0", "reshuffles=1"]),
    ("kids", ["players=2", "match=elimination:30"]),
]


class RandomPerson:
    """A stand-in person: a random allowed answer to every question, and a lappen call said
    with probability ``calls`` (its own stream: the same seed gives the same answers)."""

    def __init__(self, seed: int, calls: float = 0.5):
        self.rng = np.random.default_rng(seed)
        self.calls = calls
        self.asked = []

    def __call__(self, table, q):
        self.asked.append(q)
        if q.kind == "suit":
            return Answer(int(self.rng.choice(q.suits)))
        options = list(q.cards) + ([-1] if q.may_decline else [])
        return Answer(int(self.rng.choice(options)), call=bool(self.rng.random() < self.calls))


@pytest.mark.parametrize("preset,overrides", RULE_SETS)
def test_a_table_of_bots_plays_the_engines_own_game(preset, overrides):
    rules = resolve_rules(preset, overrides=overrides)
    seats = Seats.build(rules.players, ["expert", "random", "greedy", "search"][:rules.players])
    for seed in (1, 2):
        table = Table(rules, seats, people=[], seed=seed)
        assert np.array_equal(table.play(RandomPerson(0)), trace_game(rules, seed, 0, seats))


@pytest.mark.parametrize("preset,overrides", RULE_SETS)
def test_every_game_with_a_person_is_legal(preset, overrides):
    rules = resolve_rules(preset, overrides=overrides)
    seats = Seats.build(rules.players, "expert")
    for seed in range(4):
        person = RandomPerson(seed)
        trace = Table(rules, seats, people=[0], seed=seed).play(person)
        summary = referee(trace, rules)
        assert summary["deals"] >= 1
        assert person.asked, "the person was never asked"


def test_two_people_hot_seat_and_the_same_answers_give_the_same_game():
    rules = resolve_rules("seed001", overrides=["players=3", "match=single"])
    seats = Seats.build(3, "expert")
    first = Table(rules, seats, people=[0, 2], seed=9).play(RandomPerson(4))
    again = Table(rules, seats, people=[0, 2], seed=9).play(RandomPerson(4))
    other = Table(rules, seats, people=[0, 2], seed=9).play(RandomPerson(5))
    assert np.array_equal(first, again)
    assert not np.array_equal(first, other)
    referee(first, rules)
    assert {int(s) for k, s, _, _ in first if k == Event.TURN} == {0, 1, 2}


def test_a_forgotten_call_costs_the_rules_penalty():
    rules = resolve_rules("standard", overrides=["players=2", "match=single", "call_at=3",
                                                 "call_penalty=2"])
    seats = Seats.build(2, "expert")
    forgotten = 0
    for seed in range(6):
        trace = Table(rules, seats, people=[0], seed=seed).play(RandomPerson(seed, calls=0.0))
        rows = [tuple(int(x) for x in r) for r in trace]
        summary = referee(trace, rules)
        for k, (kind, seat, a, _) in enumerate(rows):
            if kind == Event.CALL and seat == 0:
                assert a == 0, "a person who never calls was recorded as calling"
                forgotten += 1
                # the penalty: call_penalty cards drawn by seat 0 before its turn ends
                rest = rows[k + 1:]
                end = next(j for j, r in enumerate(rest)
                           if r[0] in (Event.TURN, Event.END_DEAL))
                penalty = [r for r in rest[:end] if r[0] == Event.DRAW and r[3] == 4]
                if rest[end][0] == Event.TURN:
                    assert len(penalty) == 2 and all(r[1] == 0 for r in penalty)
        assert summary["forgotten_calls"] == sum(
            1 for r in rows if r[0] == Event.CALL and r[2] == 0)
    assert forgotten > 0


def test_a_person_who_always_calls_never_forgets():
    rules = resolve_rules("standard", overrides=["players=3", "match=single", "call_at=3"])
    seats = Seats.build(3, "expert")
    calls = 0
    for seed in range(4):
        trace = Table(rules, seats, people=[1], seed=seed).play(RandomPerson(seed, calls=1.0))
        mine = [int(r[2]) for r in trace if r[0] == Event.CALL and r[1] == 1]
        assert all(mine), "a person who says lappen with every card forgot a call"
        calls += len(mine)
    assert calls > 0


@pytest.mark.parametrize("preset,overrides", [RULE_SETS[1], RULE_SETS[5]])
def test_each_deal_end_is_told_once_with_its_results(preset, overrides):
    """on_deal_end sees each deal's rows up to its scores (and eliminations), never the next
    deal's, with deal_no that deal's number."""
    rules = resolve_rules(preset, overrides=overrides)
    told = []

    def deal_over(table):
        rows = table.rows
        assert rows[-1][0] in (Event.SCORE, Event.ELIMINATED)
        told.append((table.deal_no, len(rows)))

    table = Table(rules, Seats.build(rules.players, "expert"), people=[0], seed=5)
    trace = table.play(RandomPerson(5), on_deal_end=deal_over)
    ends = [k for k, r in enumerate(trace) if r[0] == Event.END_DEAL]
    assert [d for d, _ in told] == list(range(len(ends)))
    starts = [k for k, r in enumerate(trace) if r[0] == Event.NEW_DEAL][1:] + [
        len(trace) - (trace[-1][0] == Event.END_MATCH)]
    assert [n for _, n in told] == starts


@pytest.mark.parametrize("preset,overrides", RULE_SETS)
def test_every_refused_card_has_the_referees_reason(preset, overrides):
    """At a person's move or duty, each card held but not offered gets a reason from the
    referee's one text of them, naming a rule (never its fallback: the engine and the
    referee agree on what is legal)."""
    rules = resolve_rules(preset, overrides=overrides)
    reasons = []

    def person(table, q):
        if q.kind in ("move", "duty"):
            judge = replay(table.rows, rules)
            for card in set(table.hand(q.seat)) - set(q.cards):
                reason = why_illegal(judge, card, q.seat)
                assert "rule" in reason and "now" not in reason, reason
                reasons.append(reason)
        return chooser(table, q)

    for seed in range(3):
        chooser = RandomPerson(seed)
        Table(rules, Seats.build(rules.players, "expert"), people=[0], seed=seed).play(person)
    assert reasons


def test_the_table_imports_no_private_engine_name():
    """table.py reaches the engine through the step and the engine's public names only."""
    source = Path(table_module.__file__).read_text()
    tree = ast.parse(source)
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            module = node.module or ""
            assert "engine" not in module, f"imports from {module}"
            assert not any(a.name.startswith("_") for a in node.names), ast.dump(node)
        elif isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and \
                node.value.id in ("E", "S"):
            assert not node.attr.startswith("_"), f"{node.value.id}.{node.attr}"
