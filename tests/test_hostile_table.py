"""Hostile inputs at the table (issue 39): ``play --human`` and ``play --replay``, through the CLI.

A probe by class: what a person types at a prompt (numbers in other scripts, very long numbers,
control characters and escape sequences, rich markup, bytes that are no text), the terminal's
encoding, signals and the end of input, the table's options, and damaged, wrong-typed, deeply
nested or huge files given to ``--replay``. Each case runs the command line in a subprocess (a
pipe, or a pseudo-terminal where the prompt_toolkit path matters) and is *clean* when it ends
with the expected exit code, no traceback, the words it must show, no raw control character on
the screen and no file left behind. A game that a hostile answer does not end goes on: the
answer is refused, the question asked again, and the rest of the game is answered "1".

Run as a script (``python tests/test_hostile_table.py``) it prints the counts by class and
outcome (clean / traceback / silent / hang), which the issue's note quotes; as a test it prints
nothing and fails naming every case that is not clean.
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import tempfile
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

CLI = str(Path(sys.executable).with_name("vandatta-sim"))
#: two players, one deal: seed 3 opens with "moves: 1) dA  2) d4  3) h8" (3 is an eight)
TABLE = ["play", "--human", "0", "--players", "2", "--match", "single", "--seed", "3"]
REST = b"1\n" * 200  # answers enough to finish the deal after a hostile one
EIGHT = b"3\n"       # plays h8: the next question is the suit
DONE = "referee: every move legal"
REFUSED_NUMBER = "not a number in ASCII digits"
#: what a terminal would act on: C0 controls but tab and newline, DEL, C1 controls, bidi overrides
RAW_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f\x80-\x9f\u202a-\u202e\u2066-\u2069]")
TIMEOUT = 120


def _env(**extra) -> dict:
    env = dict(os.environ, TERM="dumb", PROMPT_TOOLKIT_NO_CPR="1", COLUMNS="100")
    env.pop("NO_COLOR", None)
    env.pop("PYTHONIOENCODING", None)
    env.update(extra)
    return env


@dataclass
class Case:
    cls: str                 # the class of hostile input
    name: str
    args: list[str]
    stdin: bytes = b""
    code: int = 0
    words: str | None = None  # a regular expression the output (stdout and stderr) must match
    env: dict = field(default_factory=dict)
    # name -> bytes, a callable(record) -> bytes, None (a folder) or "fifo"
    files: dict = field(default_factory=dict)
    ascii_only: bool = False  # every byte on stdout is ASCII
    absent: str | None = None  # text that must not be on stdout (e.g. markup eaten)
    signal_at: str | None = None  # send SIGTERM/SIGINT once this text is on stdout
    signum: int = signal.SIGTERM
    pty: bool = False         # run on a pseudo-terminal (prompt_toolkit reads), keys = stdin
    raw: bytes | None = None  # on a pty: the typed sequence that must not come back raw


def hostile_move(cls, name, text: bytes, words, **kw) -> Case:
    """``text`` at the first move prompt, then the rest of the deal."""
    return Case(cls, name, TABLE, text + b"\n" + REST, 0, words, **kw)


def hostile_suit(cls, name, text: bytes, words, **kw) -> Case:
    """``text`` at the suit prompt after the eight, then the rest of the deal."""
    return Case(cls, name, TABLE, EIGHT + text + b"\n" + REST, 0, words, **kw)


def _saved(record: dict, **changes) -> bytes:
    return json.dumps({**record, **changes}).encode()


def _rows(record, row) -> bytes:
    return _saved(record, trace=[row, *record["trace"][1:]])


FILE = ["play", "--replay", "game.json"]
CASES = [
    # --- numbers typed at a prompt: the project's ASCII-number rule --------------------------
    hostile_move("number", "superscript two at a move", "²".encode(), REFUSED_NUMBER),
    hostile_move("number", "arabic-indic three at a move", "٣".encode(), REFUSED_NUMBER),
    hostile_move("number", "full-width three at a move", "３".encode(), REFUSED_NUMBER),
    hostile_move("number", "devanagari one at a move", "१".encode(), REFUSED_NUMBER),
    hostile_move("number", "5000 digits at a move", b"9" * 5000,
                 r"there is no move 9+(…|\.\.\.)\(5,000 characters\)"),
    hostile_move("number", "20 digits at a move", b"9" * 20, "there is no move 9{20}: choose"),
    hostile_move("number", "move 0", b"0", "there is no move 0: choose 1 to 3"),
    hostile_move("number", "a signed number", b"-1", "'-1' is not a card"),
    hostile_suit("number", "superscript two at the suit", "²".encode(), REFUSED_NUMBER),
    hostile_suit("number", "arabic-indic one at the suit", "١".encode(), REFUSED_NUMBER),
    hostile_suit("number", "5000 digits at the suit", b"9" * 5000, "is not a suit"),
    hostile_suit("number", "suit 0", b"0", "'0' is not a suit"),
    # --- what is typed is echoed escaped: no raw control character reaches the screen --------
    hostile_move("echo", "OSC retitle at a move", b"\x1b]0;pwned\x07h9", r"\\x1b\]0;pwned\\x07"),
    hostile_move("echo", "clear screen at a move", b"\x1b[2J", r"\\x1b\[2J"),
    hostile_move("echo", "C1 CSI at a move", "\u009b2J".encode(), r"\\x9b2J"),
    hostile_move("echo", "bidi override at a move", "\u202eh9".encode(), r"\\u202e"),
    hostile_move("echo", "NUL and backspaces", b"h9\x00\x08\x08\x08ok", r"\\x00\\x08"),
    hostile_suit("echo", "escape at the suit", b"\x1b[31mred", r"\\x1b\[31mred"),
    hostile_move("echo", "a line of a megabyte", b"x" * (1 << 20),
                 r"'x+(…|\.\.\.)\(1,048,576 characters\)'"),
    hostile_move("echo", "bytes that are not UTF-8", b"\xff\xfeh8", "is not a card"),
    Case("echo", "markup closing nothing (--fancy)", [*TABLE, "--fancy"], b"[/x]\n" + REST, 0,
         r"'\[/x\]' is not a card"),
    Case("echo", "markup shown as typed (--fancy)", [*TABLE, "--fancy"], b"[red]x\n" + REST, 0,
         r"'\[red\]x' is not a card"),
    # pasted (bracketed paste: prompt_toolkit inserts it as it is; a typed ESC starts a key)
    Case("echo", "escape pasted in a pty (fancy)", TABLE,
         b"\x1b[200~\x1b[2J\x1b[201~\r" + b"1\r" * 200, 0,
         r"\\x1b\[2J", pty=True, env={"TERM": "xterm"}, raw=b"\x1b[2J"),
    Case("echo", "markup in a pty (fancy)", TABLE, b"[/x]\r" + b"1\r" * 200, 0,
         r"'\[/x\]' is not a card", pty=True, env={"TERM": "xterm"}),
    # --- the terminal's encoding: plain ASCII holds on any -------------------------------------
    Case("encoding", "ascii stdout", TABLE, REST, 0, DONE, env={"PYTHONIOENCODING": "ascii"},
         ascii_only=True),
    Case("encoding", "ascii stdout, a suit symbol typed", TABLE, "♥8\n".encode() + REST, 0,
         "is not a card", env={"PYTHONIOENCODING": "ascii"}, ascii_only=True),
    Case("encoding", "latin-1 stdout", TABLE, REST, 0, DONE,
         env={"PYTHONIOENCODING": "latin-1"}, ascii_only=True),
    Case("encoding", "C locale", TABLE, REST, 0, DONE, env={"LC_ALL": "C", "LANG": "C"}),
    Case("encoding", "plain on a UTF-8 pipe is ASCII", TABLE, REST, 0, DONE, ascii_only=True),
    Case("encoding", "--plain is ASCII", [*TABLE, "--plain"], REST, 0, DONE, ascii_only=True),
    Case("encoding", "--fancy where the symbols cannot be written", [*TABLE, "--fancy"], REST,
         2, r"^Error: .*--fancy.*ascii.*--plain", env={"PYTHONIOENCODING": "ascii"}),
    Case("encoding", "ascii pty picks plain", TABLE, b"1\r" * 200, 0, DONE, pty=True,
         env={"TERM": "xterm", "PYTHONIOENCODING": "ascii"}, ascii_only=True),
    Case("encoding", "play's narration on ascii stdout", ["play", "--players", "2", "--match",
                                                           "single"], words="referee: every",
         env={"PYTHONIOENCODING": "ascii"}, ascii_only=True),
    Case("encoding", "a replay on ascii stdout", FILE, words=DONE, env={"PYTHONIOENCODING":
                                                                      "ascii"},
         ascii_only=True, files={"game.json": lambda r: _saved(r)}),
    Case("encoding", "a replay's JSON on ascii stdout", [*FILE, "--json"], words='"narration"',
         env={"PYTHONIOENCODING": "ascii"}, ascii_only=True,
         files={"game.json": lambda r: _saved(r)}),
    # --- signals and the end of input ----------------------------------------------------------
    Case("signal", "SIGTERM at a piped prompt", [*TABLE, "--save", "game.json"], code=143,
         words="interrupted", signal_at="move> "),
    Case("signal", "SIGINT at a piped prompt", [*TABLE, "--save", "game.json"], code=130,
         words="nothing was saved", signal_at="move> ", signum=signal.SIGINT),
    Case("signal", "SIGTERM at a pty prompt", [*TABLE, "--save", "game.json"], code=143,
         words="interrupted", signal_at="move>", pty=True, env={"TERM": "xterm"}),
    Case("signal", "Ctrl-C at a pty prompt", [*TABLE, "--save", "game.json"], b"\x03", 130,
         "nothing was saved", pty=True, env={"TERM": "xterm"}),
    Case("signal", "end of input at once", [*TABLE, "--save", "game.json"], b"", 130,
         "nothing was saved"),
    Case("signal", "end of input at the suit", [*TABLE, "--save", "game.json"], EIGHT, 130,
         "nothing was saved"),
    # --- the table's options -------------------------------------------------------------------
    Case("option", "--human in arabic-indic digits", [*TABLE[:2], "١", *TABLE[3:]], code=2,
         words=r"^Error: .*--human"),
    Case("option", "--human of 5000 digits", [*TABLE[:2], "9" * 5000, *TABLE[3:]], code=2,
         words=r"^Error: .*--human"),
    Case("option", "--human -1", [*TABLE[:2], "-1", *TABLE[3:]], code=2,
         words=r"^Error: .*--human.*0 to 1"),
    Case("option", "--human twice", [*TABLE, "--human", "0"], code=2,
         words=r"^Error: .*seat 0 is given twice"),
    Case("option", "--save into a folder", [*TABLE, "--save", "out"], code=2,
         words=r"^Error: .*--save", files={"out": None}),
    Case("option", "--save in a missing folder", [*TABLE, "--save", "no/game.json"], code=2,
         words=r"^Error: .*--save"),
    Case("option", "--coach unknown", [*TABLE, "--hints", "--coach", "nobody"], code=2,
         words=r"^Error: .*--coach"),
    Case("option", "--fancy without --human", ["play", "--fancy"], code=2,
         words=r"^Error: .*--plain goes with --human"),
    Case("option", "--replay with --players", [*FILE, "--players", "3"], code=2,
         words=r"^Error: .*--players.*--replay", files={"game.json": lambda r: _saved(r)}),
    Case("option", "--replay with --seed", [*FILE, "--seed", "5"], code=2,
         words=r"^Error: .*--seed.*--replay", files={"game.json": lambda r: _saved(r)}),
    # --- files given to --replay ---------------------------------------------------------------
    Case("replay", "a good file", FILE, words=DONE, files={"game.json": lambda r: _saved(r)}),
    Case("replay", "--json gives the file's seed", [*FILE, "--json"], words=r'"seed": 3,',
         files={"game.json": lambda r: _saved(r)}),
    Case("replay", "missing", FILE, code=2, words=r"^Error: .*game\.json"),
    Case("replay", "a folder", FILE, code=2, words=r"^Error: .*game\.json",
         files={"game.json": None}),
    Case("replay", "a named pipe", FILE, code=2, words=r"^Error: .*regular file",
         files={"game.json": "fifo"}),
    Case("replay", "empty", FILE, code=2, words=r"^Error: .*game\.json",
         files={"game.json": b""}),
    Case("replay", "damaged JSON", FILE, code=2, words=r"^Error: .*game\.json",
         files={"game.json": lambda r: _saved(r)[:-30]}),
    Case("replay", "not UTF-8", FILE, code=2, words=r"^Error: .*(UTF-8|utf-8)",
         files={"game.json": b"\xff\xfe{}"}),
    Case("replay", "a JSON list", FILE, code=2, words=r"^Error: .*game\.json",
         files={"game.json": b"[]"}),
    Case("replay", "a JSON string", FILE, code=2, words=r"^Error: .*game\.json",
         files={"game.json": b'"trace"'}),
    Case("replay", "nested 100000 deep", FILE, code=2, words=r"^Error: .*nested too deeply",
         files={"game.json": b"[" * 100_000 + b"]" * 100_000}),
    Case("replay", "rules nested 100000 deep", FILE, code=2, words=r"^Error: .*nested too deeply",
         files={"game.json": lambda r: _saved(r, rules=None).replace(
             b'"rules": null', b'"rules": ' + b"[" * 100_000 + b"]" * 100_000)}),
    Case("replay", "a good game padded past its limit", FILE, code=2, words=r"^Error: .*limit",
         files={"game.json": lambda r: _saved(r) + b" " * (17 << 20)}),
    Case("replay", "NaN in the trace", FILE, code=2, words=r"^Error: .*NaN",
         files={"game.json": lambda r: _rows(r, [float("nan"), *r["trace"][0][1:]])}),
    Case("replay", "another format", FILE, code=2, words=r"^Error: .*(format|not a trace)",
         files={"game.json": lambda r: _saved(r, format="x")}),
    Case("replay", "no rules", FILE, code=2, words=r"^Error: .*rules",
         files={"game.json": lambda r: _saved({k: v for k, v in r.items() if k != "rules"})}),
    Case("replay", "rules a list", FILE, code=2, words=r"^Error: .*rules",
         files={"game.json": lambda r: _saved(r, rules=[1, 2])}),
    Case("replay", "rules of an unknown field", FILE, code=2, words=r"^Error: .*rules",
         files={"game.json": lambda r: _saved(r, rules={**r["rules"], "nope": 1})}),
    Case("replay", "rules of a bad value", FILE, code=2, words=r"^Error: .*players",
         files={"game.json": lambda r: _saved(r, rules={**r["rules"], "players": "x"})}),
    Case("replay", "no policies", FILE, code=2, words=r"^Error: .*policies",
         files={"game.json": lambda r: _saved({k: v for k, v in r.items() if k != "policies"})}),
    Case("replay", "policies too few", FILE, code=2, words=r"^Error: .*policies",
         files={"game.json": lambda r: _saved(r, policies=[])}),
    Case("replay", "policies not text", FILE, code=2, words=r"^Error: .*policies",
         files={"game.json": lambda r: _saved(r, policies=[1, {"a": 2}])}),
    Case("replay", "a policy with an escape sequence", FILE, words=r"\\x1b\]0;x\\x07",
         files={"game.json": lambda r: _saved(r, policies=["expert", "\x1b]0;x\x07"])}),
    Case("replay", "people not a list", FILE, code=2, words=r"^Error: .*people",
         files={"game.json": lambda r: _saved(r, people=5)}),
    Case("replay", "people out of the table", FILE, code=2, words=r"^Error: .*people",
         files={"game.json": lambda r: _saved(r, people=[7])}),
    Case("replay", "no trace", FILE, code=2, words=r"^Error: .*trace",
         files={"game.json": lambda r: _saved({k: v for k, v in r.items() if k != "trace"})}),
    Case("replay", "a trace row of three", FILE, code=2, words=r"^Error: .*trace",
         files={"game.json": lambda r: _rows(r, [0, 0, 0])}),
    # the same numbers in the wrong type: numpy would read them as the game itself
    Case("replay", "a trace of text", FILE, code=2, words=r"^Error: .*trace",
         files={"game.json": lambda r: _rows(r, [str(x) for x in r["trace"][0]])}),
    Case("replay", "a trace of booleans", FILE, code=2, words=r"^Error: .*trace",
         files={"game.json": lambda r: _rows(r, [x == 1 if x in (0, 1) else x
                                                 for x in r["trace"][0]])}),
    Case("replay", "a trace of fractions", FILE, code=2, words=r"^Error: .*trace",
         files={"game.json": lambda r: _rows(r, [float(x) for x in r["trace"][0]])}),
    Case("replay", "a trace number beyond 32 bits", FILE, code=2, words=r"^Error: .*trace",
         files={"game.json": lambda r: _rows(r, [2**40, 0, 0, 0])}),
    Case("replay", "a trace number of 5000 digits", FILE, code=2, words=r"^Error: ",
         files={"game.json": lambda r: _saved(r).replace(b"[[", b"[[" + b"9" * 5000 + b", ", 1)}),
    Case("replay", "a trace the referee rejects", FILE, code=1, words=r"^Error: referee rejected",
         files={"game.json": lambda r: _saved(r, trace=[r["trace"][0]] + r["trace"][2:])}),
    Case("replay", "a rejected trace not checked", [*FILE, "--no-check"],
         files={"game.json": lambda r: _saved(r, trace=[[99, 9, -5, 7], *r["trace"]])}),
]


def _record(folder: Path) -> dict:
    """A game saved by play --human --save (made once, read by the replay cases)."""
    path = folder / "good.json"
    if not path.exists():
        done = subprocess.run([CLI, *TABLE, "--save", str(path)], input=REST, env=_env(),
                              capture_output=True, timeout=TIMEOUT)
        assert done.returncode == 0, done.stderr.decode(errors="replace")
    return json.loads(path.read_text())


def _prepare(case: Case, folder: Path, record: dict) -> None:
    for name, content in case.files.items():
        path = folder / name
        if content is None:
            path.mkdir()
        elif content == "fifo":
            os.mkfifo(path)
        else:
            path.write_bytes(content(record) if callable(content) else content)


def _run_pipe(case: Case, folder: Path, env: dict) -> tuple[int | None, bytes, bytes]:
    if case.signal_at is None:
        try:
            done = subprocess.run([CLI, *case.args], input=case.stdin, cwd=folder, env=env,
                                  capture_output=True, timeout=TIMEOUT)
        except subprocess.TimeoutExpired as exc:
            return None, exc.stdout or b"", exc.stderr or b""
        return done.returncode, done.stdout, done.stderr
    from pexpect.popen_spawn import PopenSpawn

    child = PopenSpawn([CLI, *case.args], cwd=str(folder), env=env, timeout=TIMEOUT)
    try:
        child.expect_exact(case.signal_at.encode())
    except Exception:  # the prompt never came (a crash or a hang): what is there is judged
        child.kill(signal.SIGKILL)
    else:
        child.kill(case.signum)
    out = child.before + (child.after if isinstance(child.after, bytes) else b"")
    try:
        rest = child.read()
    except Exception:
        rest = b""
    code = child.wait()
    child.proc.stdin.close()
    child.proc.stdout.close()
    # PopenSpawn's stdout carries stderr too; the shared stream is judged as both
    return code, out + rest, out + rest


def _run_pty(case: Case, folder: Path, env: dict) -> tuple[int | None, bytes, bytes]:
    import pexpect

    child = pexpect.spawn(CLI, case.args, cwd=str(folder), env=env, timeout=TIMEOUT,
                          dimensions=(50, 100))
    try:
        child.expect_exact(b"move>")
        if case.signal_at is not None:
            child.kill(case.signum)
        else:
            child.send(case.stdin)
        child.expect(pexpect.EOF)
    except pexpect.TIMEOUT:
        child.close(force=True)
        return None, child.before or b"", b""
    except pexpect.EOF:
        pass
    out = (child.before or b"")
    child.close()
    code = child.exitstatus if child.exitstatus is not None else 128 + child.signalstatus
    return code, out, out


def judge(case: Case, folder: Path, record: dict) -> tuple[str, str]:
    """(outcome, why): clean, traceback, silent (a wrong code, missing words, a raw control
    character, a file left) or hang."""
    _prepare(case, folder, record)
    before = {p.name for p in folder.iterdir()}
    env = _env(**case.env)
    code, out, err = (_run_pty if case.pty else _run_pipe)(case, folder, env)
    text = (out + b"\n" + err).decode("utf-8", errors="replace")
    if "Traceback" in text or re.search(r"^\w+(Error|Exception): ", text, re.M):
        return "traceback", text[-600:]
    if code is None:
        return "hang", text[-300:]
    if code != case.code:
        return "silent", f"exit {code}, expected {case.code}: {text[-400:]}"
    if case.words and not re.search(case.words, text, re.M):
        return "silent", f"no {case.words!r} in {text[-400:]}"
    screen = out.decode("utf-8", errors="replace")
    # on a pty the terminal's own codes (prompt_toolkit's redraws) are there: only the person's
    # sequence counts; prompt_toolkit shows what is typed in caret notation (^[)
    if case.pty and case.raw and case.raw in out:
        return "silent", f"{case.raw!r} came back raw: {out[-300:]!r}"
    if not case.pty and RAW_CONTROL.search(screen):
        return "silent", f"a raw control character on the screen: {screen[-300:]!r}"
    if case.ascii_only and not out.isascii():
        return "silent", f"not ASCII: {out[-300:]!r}"
    if code != 0 and not case.pty and case.signal_at is None:
        lines = [line for line in err.decode(errors="replace").splitlines() if line.strip()]
        if len(lines) != 1:
            return "silent", f"{len(lines)} lines on stderr: {lines[-3:]}"
    left = {p.name for p in folder.iterdir()} - before
    if left:
        return "silent", f"left behind: {sorted(left)}"
    return "clean", ""


def run_probe(workers: int = 3) -> list[tuple[Case, str, str]]:
    with tempfile.TemporaryDirectory() as top:
        top = Path(top)
        record = _record(top)

        def one(k_case):
            k, case = k_case
            folder = top / f"case{k}"
            folder.mkdir()
            return (case, *judge(case, folder, record))

        with ThreadPoolExecutor(workers) as pool:
            return list(pool.map(one, enumerate(CASES)))


@settings(max_examples=300, deadline=None)
@given(st.text())
def test_an_echo_is_one_line_without_a_control_character(text):
    from vandatta_sim.play.person import Screen, ascii_text, printable

    shown = printable(text)
    assert not RAW_CONTROL.search(shown) and "\n" not in shown and "\r" not in shown
    assert len(shown) <= 10 * 80 + 40  # cut to 80 characters (an escape is at most 10)
    assert ascii_text(shown).isascii() and ascii_text(text).isascii()
    # every character either shows as itself or as its escape: nothing typed is hidden
    if len(" ".join(text.split())) <= 80:
        undone = shown.encode("raw_unicode_escape").decode("unicode_escape")
        assert undone == " ".join(text.split())
    # the colour screen shows markup as typed (rich's escape is undone by rich itself)
    fancy = Screen(plain=False)
    with fancy.console.capture() as captured:
        fancy.console.print(fancy.echo(text))
    assert captured.get().rstrip("\n") == f"'{shown}'"


@given(st.text(max_size=30))
def test_a_number_is_ascii_digits_only(text):
    from vandatta_sim.play.person import ascii_number, number_in_other_digits

    k = ascii_number(text)
    assert (k is not None) == (text.isascii() and text.isdigit())
    if k is not None:
        assert k == (int(text) if len(text.lstrip("0")) <= 4 else 0)
    assert not (k is not None and number_in_other_digits(text))


def test_the_table_holds_against_every_hostile_case():
    names = [case.name for case in CASES]
    assert len(names) == len(set(names))
    bad = [f"{case.cls}: {case.name}: {outcome}: {why}"
           for case, outcome, why in run_probe() if outcome != "clean"]
    assert not bad, "\n".join(bad)


if __name__ == "__main__":
    results = run_probe()
    counts = Counter((case.cls, outcome) for case, outcome, _ in results)
    for cls in dict.fromkeys(case.cls for case in CASES):
        row = {o: counts[cls, o] for o in ("clean", "traceback", "silent", "hang")}
        print(f"{cls:9} " + "  ".join(f"{o} {n}" for o, n in row.items()))
    total = Counter(outcome for _, outcome, _ in results)
    print(f"{'all':9} " + "  ".join(f"{o} {total[o]}" for o in ("clean", "traceback", "silent",
                                                               "hang")) + f"  of {len(results)}")
    if "-v" in sys.argv:
        for case, outcome, why in results:
            if outcome != "clean":
                print(f"- {case.cls}: {case.name}: {outcome}: {why[:300]!r}")
