"""`play --human` through a real pseudo-terminal (pexpect) and through a pipe."""

from __future__ import annotations

import asyncio
import json
import os
import re
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import numpy as np
import pytest

from vandatta_sim.referee import referee
from vandatta_sim.rules import resolve_rules
from vandatta_sim.trace import Event

pexpect = pytest.importorskip("pexpect")

CLI = str(Path(sys.executable).with_name("vandatta-sim"))
# two players, one deal, the call at three cards: a whole deal takes a few dozen keystrokes
RULES = ["--players", "2", "--match", "single", "--set", "call_at=3"]
SEED = "3"  # a deal in which seat 0 plays an eight, holds an unplayable card and reaches 3 cards
CARD = r"(?:[cdhs](?:10|[2-9AJQK])|JK)"


def _env(term: str) -> dict:
    env = dict(os.environ, TERM=term, PROMPT_TOOLKIT_NO_CPR="1", COLUMNS="100")
    env.pop("NO_COLOR", None)
    return env


def _last(pattern: str, text: str) -> str | None:
    found = re.findall(pattern, text)
    return found[-1] if found else None


def drive(tmp_path: Path, term: str, extra=()) -> tuple[list[str], str, Path]:
    """Play seat 0 through a pty: each move the first listed one, except that the first move
    with a card in hand that does not fit tries that card first, the first suit asked gets a
    misspelling first, and lappen is never called. Returns the keystrokes, the transcript and
    the saved trace."""
    saved = tmp_path / "game.json"
    child = pexpect.spawn(CLI, ["play", "--human", "0", "--seed", SEED, *RULES, "--plain",
                                "--save", str(saved), *extra],
                          env=_env(term), encoding="utf-8", timeout=180, dimensions=(50, 100))
    keys, transcript = [], []
    tried_illegal = tried_suit = False

    def send(text):
        keys.append(text)
        child.sendline(text)

    # each question's own line, printed before its prompt (prompt_toolkit redraws the prompt
    # itself as keys arrive, so the prompt is no marker); keys typed early wait in the pty
    questions = [r"moves: [^\r\n]*\r\n", r"no card fits", r"name a suit: [^\r\n]*\r\n",
                 r"stack another\? [^\r\n]*\r\n", r"follow up: [^\r\n]*\r\n", pexpect.EOF]
    while True:
        i = child.expect(questions)
        screen = child.before + (child.after if isinstance(child.after, str) else "")
        transcript.append(screen)
        if i == 5:
            break
        if i == 2:
            if not tried_suit:
                tried_suit = True
                send("harts")
                child.expect(r"'harts' is not a suit")
                transcript.append(child.before + child.after)
            send("h")
        elif i == 0:
            moves = child.after
            hand = _last(r"your hand: ([^\r\n]*)", screen) or ""
            legal = re.findall(rf"\d\) ({CARD})", moves)
            unplayable = [c for c in re.findall(CARD, hand) if c not in legal]
            if not tried_illegal and unplayable:
                tried_illegal = True
                send(unplayable[0])
                child.expect(r"(does not match|is not \w, the suit named|no \w+ on an|"
                             r"may not)[^\r\n]*")
                transcript.append(child.before + child.after)
            send("1")
        else:  # no card fits, stack another, follow up
            send("d" if i in (1, 3) else "1")
    child.close()
    assert child.exitstatus == 0, "".join(transcript)[-3000:]
    assert tried_illegal and tried_suit, "the scripted deal lost its illegal card or its eight"
    return keys, "".join(transcript), saved


def _trace(saved: Path) -> np.ndarray:
    record = json.loads(saved.read_text())
    return np.array(record["trace"], np.int32)


def test_a_whole_deal_through_a_pty(tmp_path):
    keys, transcript, saved = drive(tmp_path, "xterm")
    assert "referee: every move legal" in transcript
    trace = _trace(saved)
    rules = resolve_rules("standard", overrides=["players=2", "match=single", "call_at=3"])
    summary = referee(trace, rules)
    rows = [tuple(int(x) for x in r) for r in trace]
    forgot = [k for k, r in enumerate(rows) if r[0] == Event.CALL and r[1] == 0 and r[2] == 0]
    assert forgot, "seat 0 never forgot a call"
    assert summary["forgotten_calls"] >= 1
    # the penalty: call_penalty (3) cards drawn by seat 0 with cause "call" in that turn
    after = rows[forgot[0] + 1:]
    turn_end = next(j for j, r in enumerate(after) if r[0] in (Event.TURN, Event.END_DEAL))
    penalty = [r for r in after[:turn_end] if r[0] == Event.DRAW and r[1] == 0 and r[3] == 4]
    assert len(penalty) == rules.call_penalty
    assert "you forgot to call lappen" in transcript
    assert re.search(r"you draw .* \(call\)", transcript)

    # the same seed and the same keystrokes (now through a pipe) give the same game
    again = tmp_path / "again.json"
    done = subprocess.run([CLI, "play", "--human", "0", "--seed", SEED, *RULES, "--save",
                           str(again)], input="\n".join(keys) + "\n", text=True,
                          capture_output=True, env=_env("dumb"), timeout=300)
    assert done.returncode == 0, done.stderr
    assert np.array_equal(_trace(again), trace)
    assert "♥" not in done.stdout  # a pipe is plain


def test_ctrl_d_ends_with_one_line_and_writes_nothing(tmp_path):
    saved = tmp_path / "game.json"
    child = pexpect.spawn(CLI, ["play", "--human", "0", "--seed", SEED, *RULES, "--save",
                                str(saved)], env=_env("xterm"), encoding="utf-8", timeout=180)
    child.expect(r"moves: ")
    child.expect(r"move>")
    child.sendcontrol("d")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 130
    assert "nothing was saved" in child.before
    assert not saved.exists() and list(tmp_path.iterdir()) == []


def test_bad_seat_is_one_error_line():
    done = subprocess.run([CLI, "play", "--human", "7", *RULES], capture_output=True,
                          text=True, stdin=subprocess.DEVNULL, timeout=120)
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and "--human" in done.stderr and "0 to 1" in done.stderr


HINT = re.compile(r"^  (\d+|d)\) (\S+?)(?:>([cdhs]))?(?: \(stop stacking\))?\s+(-?[\d.]+)%? "
                  r"\[(-?[\d.]+), (-?[\d.]+)\]", re.M)


def test_hints_value_every_option_and_the_review_names_a_bad_move():
    """Through a pipe: every hinted move lists each legal card with a value and an interval;
    choosing the option the coach rates worst each time gets named in the review."""
    from pexpect.popen_spawn import PopenSpawn

    child = PopenSpawn([CLI, "play", "--human", "0", "--seed", SEED, *RULES, "--hints",
                        "--coach", "search:objective=points"], env=_env("dumb"),
                       encoding="utf-8", timeout=300)
    chosen, hinted = [], 0
    while True:
        i = child.expect([r"move> ", r"suit> ", pexpect.EOF])
        screen = child.before
        if i == 2:
            break
        if i == 1:
            child.sendline(chosen[-1][1] if chosen and chosen[-1][1] else "h")
            continue
        moves = _last(r"moves: ([^\n]*)", screen.split("coach (")[0]) or ""
        legal = dict((c, k) for k, c in re.findall(rf"(\d+)\) ({CARD})", moves))
        hints = HINT.findall(screen.split("coach (")[-1]) if "coach (" in screen else []
        if not hints:
            child.sendline("d" if "no card fits" in screen else "1")
            continue
        hinted += 1
        assert {card for _, card, *_ in hints} == set(legal), screen
        for _, _, _, value, low, high in hints:
            assert float(low) <= float(value) <= float(high)
        number, card, suit, *_ = max(hints, key=lambda h: float(h[3]))  # most points: worst
        chosen.append((card, suit))
        child.sendline(number)
    out = child.before
    child.proc.wait()
    child.proc.stdin.close()
    child.proc.stdout.close()
    assert child.proc.returncode == 0, out
    assert hinted >= 2
    review = re.search(r"coach's review of deal 1: (\d+) move\(s\) with a choice, (\d+) clearly",
                       out)
    assert review and int(review.group(2)) >= 1, out
    named = re.findall(rf"you played ({CARD})", out)
    assert named and all(any(card == c for c, _ in chosen) for card in named)
    assert "referee: every move legal" in out


def test_a_saved_game_replays_with_the_narrator(tmp_path):
    saved = tmp_path / "game.json"
    done = subprocess.run([CLI, "play", "--human", "0", "--seed", SEED, *RULES, "--save",
                           str(saved)], input="1\n" * 200, text=True, capture_output=True,
                          env=_env("dumb"), timeout=300)
    assert done.returncode == 0, done.stderr
    replay = subprocess.run([CLI, "play", "--replay", str(saved)], capture_output=True,
                            text=True, timeout=120)
    assert replay.returncode == 0, replay.stderr
    assert "seat 0 (person) plays" in replay.stdout
    assert replay.stdout.rstrip().endswith("every move legal, cards conserved, scores correct")
    bad = tmp_path / "bad.json"
    bad.write_text("{}")
    refused = subprocess.run([CLI, "play", "--replay", str(bad)], capture_output=True,
                             text=True, timeout=120)
    assert refused.returncode == 2 and refused.stderr.count("\n") == 1


async def _signalled():
    os.kill(os.getpid(), signal.SIGTERM)  # its handler runs here, inside a task of the loop
    for _ in range(3):
        await asyncio.sleep(0)


def test_a_signal_inside_the_prompts_event_loop_ends_the_read_without_a_traceback(capfd):
    # Raised inside a task of prompt_toolkit's loop, the KeyboardInterrupt reached the loop's
    # exception handler, which printed "Unhandled exception in event loop" and waited for Enter
    # (a CI run's SIGTERM at a pty prompt); through signals_stop the signal ends the read.
    from prompt_toolkit.application import create_app_session
    from prompt_toolkit.input import create_pipe_input
    from prompt_toolkit.output import DummyOutput

    from vandatta_sim.cli.interrupts import (received_signal, restore_signals,
                                             signals_raise_interrupt, signals_stop)
    from vandatta_sim.play.person import Quit, line_reader

    def signal_from_a_task(app_session):
        for _ in range(1000):
            app = app_session.app
            if app is not None and app.loop is not None and app.is_running:
                app.loop.call_soon_threadsafe(app.create_background_task, _signalled())
                return
            time.sleep(0.01)

    signals_raise_interrupt()
    try:
        with create_pipe_input() as keys, \
                create_app_session(input=keys, output=DummyOutput()) as session:
            sender = threading.Thread(target=signal_from_a_task, args=(session,), daemon=True)
            sender.start()
            with pytest.raises(Quit):
                line_reader(True, signals_stop)("move> ", ["1"])
            sender.join()
        assert received_signal() == signal.SIGTERM
    finally:
        restore_signals()
    out, err = capfd.readouterr()
    assert "Unhandled" not in out + err and "Traceback" not in out + err
