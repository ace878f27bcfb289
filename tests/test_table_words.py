"""What the table says (issue 38): q quits, a lappen call that cannot count is refused with
the reason, the coach weighs what the game is, the header and the state said every turn fit 80
columns, and the session in docs/playing.md is the one the command plays today."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_table import RULE_SETS, RandomPerson

from vandatta_sim.play.person import Person, Screen
from vandatta_sim.cli.human_play import default_coach, header_lines
from vandatta_sim.referee import referee
from vandatta_sim.rules import resolve_rules
from vandatta_sim.simulate import Seats
from vandatta_sim.play.table import Answer, Table
from vandatta_sim.formatting import COLUMNS, listed, whole, wrapped
from vandatta_sim.trace import Event

ROOT = Path(__file__).resolve().parent.parent
CLI = str(Path(sys.executable).with_name("vandatta-sim"))
TWO = ["play", "--human", "0", "--players", "2", "--seed", "3", "--plain"]


def _run(args, typed, tmp_path=None) -> subprocess.CompletedProcess:
    env = dict(os.environ, TERM="dumb", COLUMNS="80")
    return subprocess.run([CLI, *args], input=typed, text=True, capture_output=True, env=env,
                          timeout=300, cwd=tmp_path)


# --- lappen ----------------------------------------------------------------------------------
@pytest.mark.parametrize("preset,overrides", RULE_SETS)
def test_a_call_counts_exactly_where_rule_26_makes_it_due(preset, overrides):
    """Table.call_counts (the step's word) against rule 26 read off the hand sizes: a call is
    due when a play takes the hand from more than call_at to 1..call_at cards. A person who
    calls exactly where it counts (with a card or a decline) never forgets a call."""
    rules = resolve_rules(preset, overrides=overrides)
    checked = 0

    def person(table, q):
        nonlocal checked
        answer = chooser(table, q)
        if q.kind == "suit":
            return answer
        before = table.hand_size(q.seat)
        for card in q.cards:
            due = before > rules.call_at >= before - 1 >= 1
            assert table.call_counts(q, Answer(card, True)) == due, (q, card, before)
            checked += 1
        # a decline: a draw may be played at once under some rules, and then the call counts
        return Answer(answer.value, table.call_counts(q, answer))

    for seed in range(2):
        chooser = RandomPerson(seed)
        trace = Table(rules, Seats.build(rules.players, "expert"), people=[0],
                      seed=seed).play(person)
        referee(trace, rules)
        forgot = [r for r in trace if r[0] == Event.CALL and r[1] == 0 and r[2] == 0]
        assert not forgot, "a person who called where it counts forgot a call"
    assert checked


def test_a_call_that_cannot_count_is_refused_with_its_reason_and_asked_again():
    """'1 l' on the first move at seven cards (call at 3) and 'd l' are refused naming rule 26
    and the cards left; the answers after them are taken."""
    done = _run([*TWO, "--match", "single", "--set", "call_at=3", "--set", "must_play=false"],
               "1 l\nd l\nq\n")
    assert done.returncode == 130, done.stderr
    out = done.stdout
    assert "lappen does not count with dA, which leaves you 6 card(s)" in out, out
    assert "from more than 3 to 1-3 card(s) (rule 26)" in out
    assert "lappen does not count with this draw" in out
    assert "you play" not in out and "you draw" not in out  # both refused, nothing played


# --- quitting --------------------------------------------------------------------------------
@pytest.mark.parametrize("typed", ["q\n", "quit\n", "QUIT\n", "1\nq\n"])
def test_q_quits_like_ctrl_d_and_writes_nothing(tmp_path, typed):
    """q or quit at a move prompt (the first, or the next after a card) ends the game with
    the Ctrl-D line, exit 130, and writes no file."""
    saved = tmp_path / "game.json"
    done = _run([*TWO, "--match", "single", "--save", str(saved)], typed, tmp_path)
    assert done.returncode == 130, done.stderr
    assert done.stderr.strip().splitlines() == [
        "game abandoned (q, Ctrl-C or Ctrl-D): nothing was saved"]
    assert "is not a card" not in done.stdout
    assert list(tmp_path.iterdir()) == []


def test_q_quits_at_the_suit_prompt():
    done = _run([*TWO, "--match", "single"], "3\nq\n")  # 3) h8: the suit is asked next
    assert "name a suit" in done.stdout, done.stdout
    assert done.returncode == 130 and "nothing was saved" in done.stderr
    assert "is not a suit" not in done.stdout


# --- the coach -------------------------------------------------------------------------------
@pytest.mark.parametrize("match,measure", [("single", "chance to win the deal"),
                                           ("elimination:100", "chance to win the match"),
                                           ("deals:3", "chance to win the match")])
def test_the_coach_weighs_the_match_in_a_match(match, measure):
    rules = resolve_rules("standard", overrides=["players=2", f"match={match}"])
    assert ("objective=match" in default_coach(rules)) == (match != "single")
    done = _run([*TWO, "--match", match, "--hints"], "q\n")
    assert done.returncode == 130, done.stderr
    assert f", {measure}, 95% interval):" in done.stdout, done.stdout


def test_coach_without_hints_is_an_error():
    done = _run([*TWO, "--match", "single", "--coach", "search"], "")
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and "--coach goes with --hints" in done.stderr


# --- the header ------------------------------------------------------------------------------
POLICY_NAMES = ["expert", "random", "search:budget=128:objective=points",
                "tuned:standard-hundred-4", "expert:eights=dump", "eight-dumper"]


@settings(max_examples=200, deadline=None)
@given(players=st.integers(2, 10), data=st.data(),
       seed=st.integers(0, 2**63 - 1), call_at=st.sampled_from([1, 3]),
       match=st.sampled_from(["single", "elimination:100", "deals:12", "best_of:999"]))
def test_the_header_fits_80_columns(players, data, seed, call_at, match):
    people = data.draw(st.lists(st.integers(0, players - 1), min_size=1, unique=True))
    policies = data.draw(st.lists(st.sampled_from(POLICY_NAMES), min_size=players,
                                  max_size=players))
    rules = resolve_rules("standard", overrides=[f"players={players}", f"match={match}",
                                                 f"call_at={call_at}"])
    names = {s: f"seat {s}" if s in people else f"seat {s} ({policies[s]})"
             for s in range(players)}
    lines = header_lines("0.1.0", people, names, rules, seed, "♥8, h8 or 8h")
    assert all(len(line) <= COLUMNS for line in lines), lines
    text = " ".join(lines)
    for s in range(players):  # every seat named whole, on one line
        assert any(names[s] in line for line in lines), (names[s], lines)
    assert str(seed) in text and match in text and "q to quit" in text


# --- the state said every turn ---------------------------------------------------------------
@settings(max_examples=300, deadline=None)
@given(items=st.lists(st.text(st.sampled_from("ab1 ()"), min_size=1, max_size=30).map(str.strip)
                      .filter(bool), min_size=1, max_size=12),
       head=st.sampled_from(["scores:", "hands:", "points:"]), width=st.integers(20, 100))
def test_a_wrapped_list_keeps_every_item_whole_and_within_the_width(items, head, width):
    """wrapped(listed(...)): every line within the width unless one item alone is longer (a
    line of its own), every item whole on one line, nothing lost or reordered."""
    lines = wrapped(f"{head} {listed(items)}", width)
    for line in lines:
        assert len(line) <= width or line.strip().removesuffix(" ·") in items, (line, width)
    assert " ".join(line.strip() for line in lines) == f"{head} {' · '.join(items)}"
    pieces = [piece for k, line in enumerate(lines)
              for piece in line.strip().removeprefix(head if k == 0 else "").strip()
              .removesuffix(" ·").split(" · ")]
    assert [piece for piece in pieces if piece] == items


def _told(lines: list[str]) -> list[tuple[str, str]]:
    """The lines a person is told, each with its wrapped continuation lines joined to it, as
    (the words before its colon, the rest): ('hands', 'you 7 · seat 1 7   talon 30')."""
    told = []
    for line in lines:
        if line.startswith("  "):
            told[-1] = (told[-1][0], f"{told[-1][1]} {line.strip()}")
        else:
            head, _, text = line.partition(": ")
            told.append((head, text))
    return told


@pytest.mark.parametrize("players,match", [(4, "elimination:100"), (6, "elimination:100"),
                                           (10, "deals:2")])
def test_the_state_said_every_turn_fits_80_columns(players, match):
    """The scores:/hands: lines at 4, 6 and 10 seats with long player names, and the points
    line after each deal, are at most 80 columns and still give every seat's count once, in
    seat order (the old lines named each seat with its player: 93 columns at 4 expert seats)."""
    rules = resolve_rules("standard", overrides=[f"players={players}", f"match={match}"])
    policies = ["tuned:standard-hundred-4", "expert:eights=dump", "eight-dumper"]
    seats = Seats.build(players, [f"{s}={policies[s % 3]}" for s in range(1, players)])
    names = {s: f"seat {s}" if s == 0 else f"seat {s} ({seats.policies[s]})"
             for s in range(players)}
    person = Person(Screen(plain=True), None, names, None)
    chooser = RandomPerson(players)
    turns = 0

    def answer(table, q):
        nonlocal turns
        if q.kind != "suit":
            turns += 1
            lines = person.status(table, q.seat)
            state = dict(_told(lines))
            assert all(len(line) <= COLUMNS for line in lines
                       if not line.startswith("your hand")), lines

            def seat(s):
                return "you" if s == q.seat else f"seat {s}"

            # the tail (talon, match) may be wrapped onto a line of its own
            hands = " ".join(state["hands"].split())
            talon = f" talon {table.talon_size}"
            assert hands.endswith(talon), lines
            assert hands.removesuffix(talon).split(" · ") == [
                f"{seat(s)} {table.hand_size(s)}" for s in table.seats_in_deal()], lines
            scores = " ".join(state["scores"].split())
            assert scores.endswith(f" ({match})"), lines
            totals = table.totals()
            assert scores.removesuffix(f" ({match})").split(" · ") == [
                f"{seat(s)} {totals[s]}" + ("" if table.active(s) else " (out)")
                for s in range(players)], lines
        return chooser(table, q)

    trace = Table(rules, seats, people=[0], seed=players).play(answer)
    narration = person.describe([tuple(int(x) for x in r) for r in trace], 0)
    points = [text for head, text in _told(narration) if head == "points"]
    assert turns and points and points[0].count("(total ") == players, points  # all in deal 1
    in_points = False
    for line in narration:  # the points lines and their continuations
        in_points = line.startswith("points:") or in_points and line.startswith("  ")
        assert not in_points or len(line) <= COLUMNS, line


# --- the session in docs/playing.md ----------------------------------------------------------
def _transcript_script():
    spec = importlib.util.spec_from_file_location("play_transcript",
                                                  ROOT / "scripts" / "play_transcript.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_playing_page_is_the_session_the_command_plays_today():
    """docs/playing.md's transcript is the real command's output for the scripted answers
    (seeded game and coach): after a change to the table, the coach or the engine this fails
    until `.venv/bin/python scripts/play_transcript.py` rewrites it."""
    script = _transcript_script()
    session = script.play()
    committed = script.committed_block((ROOT / "docs" / "playing.md").read_text("utf-8"))
    assert committed == script.block(session), \
        "docs/playing.md is stale: run .venv/bin/python scripts/play_transcript.py"
    # the page still shows what it says it shows
    assert "lappen does not count with" in session and "(rule 26)" in session
    assert "does not match" in session and "(rule 8)" in session
    assert "you forgot to call lappen" in session
    assert "coach's review of deal 1" in session
    assert session.rstrip().splitlines()[-1].startswith("referee: every move legal")
