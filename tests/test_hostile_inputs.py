"""Hostile inputs: each is one ``Error:`` line and exit code 2, with nothing written.

One table lists the 22 inputs of issue 12 (output paths, store paths, scheduler addresses,
rules files, Unicode digits, huge integers, huge runs) and, after them, the classes they stand
for. Inputs that used to hang or to fill memory run in a child process under a watchdog, so
that a hang fails the test instead of stopping the suite: after HANG_SECONDS (imports
excluded; generous, so that a loaded machine never reads as a hang: no speed is asserted here)
it ends the child. A run that goes on by design (10^9 games, streamed) is stopped after a few
seconds instead, and its peak memory is read.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from click.testing import CliRunner

from vandatta_sim.cli import main

REPO = Path(__file__).resolve().parent.parent
HANG_SECONDS = 120.0  # a child still running after this has hung
STILL_RUNNING = 99  # the watchdog's exit code
#: A huge run that is still running at the watchdog must hold less than this.
BOUNDED_MEMORY_KIB = 1 << 20

# The watchdog starts after the imports, so a loaded machine's import time is not counted; its
# seconds are the child's first argument.
DRIVER = f"""
import resource, os, sys, threading, time
from vandatta_sim.cli import main

seconds = float(sys.argv[1])

def watchdog():
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    print(f"\\nstill running after {{seconds}} s; peak {{peak}} KiB", file=sys.stderr, flush=True)
    os._exit({STILL_RUNNING})

timer = threading.Timer(seconds, watchdog)
timer.daemon = True
timer.start()
main(sys.argv[2:], prog_name="vandatta-sim")
"""

SIM = ("simulate", "--games", "10", "--match", "single")
SWEEP = ("sweep", "--games", "10", "--chunk-size", "10", "--match", "single")


@dataclass
class Case:
    """One hostile input: ``args`` run in a fresh folder prepared by ``setup``."""

    name: str
    args: tuple[str, ...]
    says: str = ""  # a piece of the error line
    setup: tuple[str, ...] = ()  # steps of _prepare: "mkdir:NAME", "ro:NAME", "deep:NAME", …
    child: bool = False  # run in a child process under the watchdog
    exit_code: int = 2
    kept: tuple[str, ...] = field(default=())  # files that must be left as they were
    # a run that goes on by design (child only): stopped after this many seconds, it must be
    # holding less than BOUNDED_MEMORY_KIB
    sample_after: float | None = None


# --- the 22 inputs of issue 12 ------------------------------------------------------------------

ISSUE_CASES = [
    # output paths
    Case("out is a folder", (*SIM, "--out", "g.parquet"), "a folder is in the way",
         ("mkdir:g.parquet",)),
    Case("out in a read-only folder", (*SIM, "--out", "ro/g.parquet"), "cannot write in folder",
         ("ro:ro",)),
    Case("out through a missing folder", (*SIM, "--out", "nodir/../g.csv"), "does not exist"),
    Case("out in /proc", (*SIM, "--out", "/proc/g.csv"), "cannot write in folder"),
    Case("a leftover temp folder is not in the way", (*SIM, "--out", "g.csv"),
         setup=("mkdir:.tmp-g.csv",), exit_code=0, kept=(".tmp-g.csv", "g.csv")),
    # store paths
    Case("store is a file", (*SWEEP, "--store", "FILE"), "not a folder", ("file:FILE",)),
    Case("store is read-only", (*SWEEP, "--store", "ro"), "cannot write in folder", ("ro:ro",)),
    Case("store in /proc", (*SWEEP, "--store", "/proc/vandatta-store"), "cannot write"),
    # scheduler addresses
    *[Case(f"scheduler {address}", (*SWEEP, "--store", "results", "--scheduler", address),
           "allowed: tcp://HOST:PORT")
      for address in ("foo://x", "tcp://", "tcp://h:notaport", "tcp://[::1:8786", "ucx://h:1",
                      "inproc://x")],
    # rules files
    Case("rules nested 1,000 levels", (*SIM, "--rules", "deep.toml"), "nested deeper",
         ("deep:deep.toml",), child=True),
    Case("rules from /dev/zero", (*SIM, "--rules", "/dev/zero"), "not a regular file",
         child=True),
    # Unicode digits
    Case("sweep players superscript two", ("sweep", "--players", "²", "--dry-run"),
         "player counts"),
    # huge integers and huge runs
    Case("play game 2^63", ("play", "--game", "9223372036854775808"), "0–2^62", child=True),
    Case("play game 10^30", ("play", "--game", str(10**30)), "0–2^62", child=True),
    Case("simulate 10^9 games", ("simulate", "--games", "1000000000", "--match", "single"),
         "memory", child=True, sample_after=5.0),
    Case("sweep dry run of 10^15 games", ("sweep", "--games", "1000000000000000",
                                           "--match", "single", "--dry-run"),
         exit_code=0, child=True),
]
# http://127.0.0.1:1 is the seventh malformed address: a scheme other than tcp
ISSUE_CASES.insert(8, Case("scheduler http://127.0.0.1:1",
                           (*SWEEP, "--store", "results", "--scheduler", "http://127.0.0.1:1"),
                           "allowed: tcp://HOST:PORT"))

# --- the classes they stand for -----------------------------------------------------------------

CLASS_CASES = [
    Case("scheduler with nothing listening",
         (*SWEEP, "--store", "results", "--scheduler", "tcp://127.0.0.1:1"),
         "cannot connect to the Dask scheduler", child=True),
    Case("out is a named pipe", (*SIM, "--out", "g.csv"), "a special file is in the way",
         ("fifo:g.csv",)),
    Case("out is empty", (*SIM, "--out", ""), "empty"),
    Case("out is a folder name", (*SIM, "--out", "."), "not a file name"),
    Case("user's .tmp- file is never touched", (*SIM, "--out", "games.csv"), exit_code=0,
         setup=("file:.tmp-games.csv",), kept=(".tmp-games.csv", "games.csv")),
    Case("store is empty", (*SWEEP, "--store", ""), "empty"),
    Case("store under a file", (*SWEEP, "--store", "FILE/results"), "not a folder",
         ("file:FILE",)),
    Case("dry run store is a file", ("sweep", "--games", "10", "--dry-run", "--store", "FILE"),
         "not a folder", ("file:FILE",)),
    *[Case(f"scheduler {address}", (*SWEEP, "--store", "results", "--scheduler", address),
           "allowed: tcp://HOST:PORT")
      for address in ("tcp://h:0", "tcp://h:65536", "tcp://[zz::1]:1", "tls://h:1",
                      "tcp://h:1/path", "tcp://-h:1")],
    Case("rules is a folder", (*SIM, "--rules", "folder"), "'folder'", ("mkdir:folder",)),
    Case("rules file over the size limit", (*SIM, "--rules", "big.toml"), "limit of",
         ("big:big.toml",)),
    Case("rules nested by dotted keys", (*SIM, "--rules", "dotted.toml"), "nested deeper",
         ("dotted:dotted.toml",)),
    Case("override nested 1,000 levels", (*SIM, "--set", "scale=" + "[" * 1000 + "]" * 1000),
         "scale"),
    Case("sweep file from /dev/zero", ("sweep", "/dev/zero", "--dry-run"), "not a regular file",
         child=True),
    Case("sweep file nested 1,000 levels", ("sweep", "deep.toml", "--dry-run"), "nested deeper",
         ("deep:deep.toml",), child=True),
    Case("sweep file with a megabyte value", ("sweep", "long.toml", "--dry-run"), "players",
         ("long:long.toml",)),
    Case("simulate games Arabic-Indic three", ("simulate", "--games", "٣"), "games = ٣"),
    Case("simulate seed superscript", ("simulate", "--seed", "²"), "seed = ²"),
    Case("sweep players Arabic-Indic three", ("sweep", "--players", "٣", "--dry-run"),
         "player counts"),
    Case("sweep chunk size Arabic-Indic three", ("sweep", "--games", "10", "--chunk-size", "٣",
                                                 "--dry-run"), "ASCII digits"),
    Case("simulate threads Arabic-Indic one", ("simulate", "--threads", "١"), "ASCII digits"),
    Case("simulate players Arabic-Indic three", ("simulate", "--players", "٣"), "players = ٣"),
    Case("design trials full-width three", ("design", "--trials", "３", "x.toml"), "trials = ３"),
    Case("bench repeats superscript", ("bench", "--repeats", "²"), "repeats = ²"),
    Case("policy seat superscript", ("simulate", "--policy", "²=expert"), "seat '²'"),
    Case("forget seat Arabic-Indic three", ("simulate", "--forget", "٣=0.1"), "seat '٣'"),
    Case("seed 2^63", ("play", "--seed", str(2**63)), "0–2^63−1"),
    Case("seed of a thousand digits", ("play", "--seed", "9" * 1000), "0–2^63−1"),
    Case("sweep seed 10^30", ("sweep", "--games", "10", "--seed", str(10**30), "--dry-run"),
         "0–2^63−1"),
    Case("sweep games 2^62 + 1", ("sweep", "--games", str(2**62 + 1), "--dry-run"), "1–2^62"),
    Case("dry run of 3 × 2^62 games adds up without wrapping",
         ("sweep", "--games", str(2**62), "--players", "2,3,4", "--dry-run"),
         f"{3 * 2**62:,} games to run", exit_code=0),
    Case("simulate games 10^9 + 1", ("simulate", "--games", str(10**9 + 1)), "1–10^9"),
    Case("play game a float", ("play", "--game", "1e30"), "0–2^62"),
    Case("play game 2^62 + 1", ("play", "--game", str(2**62 + 1)), "0–2^62", child=True),
]

# --- round 3 (issue 24): figures, conflicts, numbers and TOML shapes, small ------------------

BIG = "9" * 5000  # beyond int()'s 4,300 digits
LONG = "1" + "0" * 1000  # within them, beyond any limit
VALUE = ("value", "--games", "10", "--store", "results")
ROUND3_CASES = [
    # 1. a figure's path is checked before any work (the store is not even created)
    *[Case(f"{cmd[0]} plot {what}", (*cmd, "--plot", path), says, setup)
      for cmd in ((*SWEEP, "--store", "results"), VALUE)
      for what, path, says, setup in (
          ("over a folder", "chart.png", "a folder is in the way", ("mkdir:chart.png",)),
          ("in a read-only folder", "ro/chart.svg", "cannot write in folder", ("ro:ro",)),
          ("with a name too long", "c" * 300 + ".png", "too long", ()),
          ("of another kind", "chart.pdf", "must end in .png or .svg", ()))],
    Case("out with a legal 250-character name", (*SIM, "--out", "g" * 246 + ".csv"),
         exit_code=0),
    Case("verify a store that does not exist", ("results", "verify", "--store", "nostore"),
         "does not exist"),
    # 3. one conflict rule
    Case("value players and set players", (*VALUE, "--players", "3", "--set", "players=4"),
         "players is given twice (--set players=4 and --players 3)"),
    Case("value scale and set scale", (*VALUE, "--scale", "base", "--set", "scale=hundred"),
         "scale is given twice"),
    Case("value match games with single deals", (*VALUE, "--set", "match=single",
                                                 "--match-games", "5"), "changes nothing"),
    Case("value players 3,3", (*VALUE, "--players", "3,3"), "3 is given twice"),
    Case("sweep players 3,3", ("sweep", "--players", "3,3", "--dry-run"), "3 is given twice"),
    Case("policy of one seat twice", (*SIM, "--policy", "0=random", "--policy", "0=greedy"),
         "seat 0 is given twice"),
    Case("policy of all seats twice", (*SIM, "--policy", "all=random", "--policy", "all=greedy"),
         "seat all is given twice"),
    Case("forget of one seat twice", (*SIM, "--forget", "1=0.1", "--forget", "1=0.2"),
         "seat 1 is given twice"),
    Case("sweep set twice", ("sweep", "--set", "draw_limit=1", "--set", "draw_limit=2",
                             "--dry-run"), "draw_limit is given twice"),
    Case("preset empty", (*SIM, "--preset", ""), "preset ''"),
    Case("sweep preset empty", ("sweep", "--preset", "", "--dry-run"), "preset ''"),
    Case("scheduler empty", (*SWEEP, "--store", "results", "--scheduler", ""), "tcp://HOST:PORT"),
    Case("dry run chunk size -5", ("sweep", "--games", "10", "--chunk-size", "-5", "--dry-run"),
         "chunk_size"),
    # 8. numbers and TOML shapes
    Case("set a 5,000-digit integer", (*SIM, "--set", f"draw_limit={BIG}"), "draw_limit"),
    Case("set a 1,001-digit integer", (*SIM, "--set", f"draw_limit={LONG}"), "draw_limit"),
    Case("rules file with a 5,000-digit integer", (*SIM, "--rules", "big.toml"),
         "cannot be read", (f"write:big.toml=draw_limit = {BIG}",)),
    Case("rules file with a 1,001-digit integer", (*SIM, "--rules", "long.toml"),
         "beyond the limit", (f"write:long.toml=draw_limit = {LONG}",)),
    Case("sweep file with a 5,000-digit player count", ("sweep", "s.toml", "--dry-run"),
         "cannot be read", (f"write:s.toml=players = [{BIG}]",)),
    Case("sweep players of 1,000 digits", ("sweep", "--players", LONG, "--dry-run"),
         "player counts"),
    Case("value players of 5,000 digits", (*VALUE, "--players", BIG), "player counts"),
    Case("scale base a list", (*SIM, "--set", "scale={base=[1,2]}"), "scale"),
    Case("scale base a table", (*SIM, "--set", "scale={base={a=1}}"), "scale"),
    Case("sweep file policy = []", ("sweep", "s.toml", "--dry-run"), "policy = []",
         ("write:s.toml=policy = []",)),
    Case("sweep file swap = []", ("sweep", "s.toml", "--dry-run"), "swap = []",
         ("write:s.toml=swap = []",)),
    # 9. small
    Case("bench seat-only with cold", ("bench", "--seat-only", "--cold"), "would change nothing"),
    Case("bench seat-only with sweep overhead", ("bench", "--seat-only", "--sweep-overhead"),
         "would change nothing"),
]

CASES = ISSUE_CASES + CLASS_CASES + ROUND3_CASES


def test_the_table_holds_the_22_inputs_of_issue_12():
    assert len(ISSUE_CASES) == 22
    assert len({c.name for c in CASES}) == len(CASES)


def _read_only(folder: Path) -> None:
    folder.mkdir()
    if os.geteuid() != 0:
        folder.chmod(0o555)
        return
    # root writes through permission bits; the immutable attribute stops root too
    if not shutil.which("chattr") or subprocess.run(["chattr", "+i", str(folder)],
                                                    capture_output=True).returncode:
        pytest.skip("running as root and chattr +i is not available here")


def _release(folder: Path) -> None:
    for ro in folder.glob("ro"):
        if os.geteuid() == 0:
            subprocess.run(["chattr", "-i", str(ro)], capture_output=True)
        ro.chmod(0o755)


def _prepare(case: Case, folder: Path) -> None:
    for step in case.setup:
        kind, name = step.split(":", 1)
        path = folder / name
        if kind == "mkdir":
            path.mkdir()
        elif kind == "file":
            path.write_text("the user's own file\n")
        elif kind == "fifo":
            os.mkfifo(path)
        elif kind == "ro":
            _read_only(path)
        elif kind == "deep":  # 1,000 nested inline arrays
            path.write_text("players = " + "[" * 1000 + "]" * 1000 + "\n")
        elif kind == "dotted":  # 1,000 nested tables by dotted keys
            path.write_text(".".join(["a"] * 1000) + " = 1\n")
        elif kind == "big":  # 2 MiB of comments
            path.write_text("# padding\n" * (2 << 17))
        elif kind == "write":  # write:NAME=CONTENT
            name, content = name.split("=", 1)
            (folder / name).write_text(content + "\n")
        elif kind == "long":  # an echoed value of a megabyte
            path.write_text(f'players = ["{"x" * 1_000_000}"]\n')
        else:
            raise AssertionError(step)


def _listing(folder: Path) -> dict[str, bytes | None]:
    out = {}
    for path in sorted(folder.rglob("*")):
        out[str(path.relative_to(folder))] = path.read_bytes() if path.is_file() else None
    return out


def _run_child(args, cwd: Path, seconds: float = HANG_SECONDS):
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(
        [str(REPO), *filter(None, [os.environ.get("PYTHONPATH")])]))
    # the watchdog ends the command; this bound is for the imports of a stuck interpreter
    proc = subprocess.run([sys.executable, "-c", DRIVER, str(seconds), *args], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=seconds + 300)
    return proc.returncode, proc.stdout, proc.stderr


def _run_here(args, cwd: Path, monkeypatch):
    monkeypatch.chdir(cwd)
    result = CliRunner().invoke(main, list(args))
    assert result.exception is None or isinstance(result.exception, SystemExit), \
        repr(result.exception)
    return result.exit_code, result.stdout, result.stderr


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_hostile_input(case: Case, tmp_path, monkeypatch):
    work = tmp_path / "work"
    work.mkdir()
    try:
        _prepare(case, work)
        before = _listing(work)
        if case.child:
            code, out, err = _run_child(case.args, work, case.sample_after or HANG_SECONDS)
        else:
            code, out, err = _run_here(case.args, work, monkeypatch)
        after = _listing(work)
    finally:
        _release(work)
    if code == STILL_RUNNING and case.sample_after:
        # a streaming simulate runs on: it must do so in bounded memory
        peak = int(err.split("peak ")[-1].split()[0])
        assert peak < BOUNDED_MEMORY_KIB, err
        return
    assert code != STILL_RUNNING, f"hung (still running after {HANG_SECONDS} s): {case.args}"
    assert "Traceback" not in out + err
    assert code == case.exit_code, out + err
    if case.exit_code == 2:
        lines = [line for line in (out + err).splitlines() if line.strip()]
        assert len(lines) == 1 and lines[0].startswith("Error:"), lines
        assert case.says in lines[0], lines[0]
        assert len(lines[0]) < 1200, len(lines[0])
        assert after == before  # nothing written, nothing removed
    else:
        assert case.says in out + err
        for name in case.kept:
            assert name in after
        for name, content in before.items():
            assert after.get(name, b"gone") == content, name
        # no temporary file left (the atomic writer's names start with .tmp-)
        assert not [n for n in set(after) - set(before) if n.startswith(".tmp-")], after
        umask = os.umask(0o022)
        os.umask(umask)
        for name in set(after) - set(before):  # written with the usual mode, not mkstemp's
            assert (work / name).stat().st_mode & 0o777 == 0o666 & ~umask, name


def test_a_web_server_at_the_scheduler_address_is_one_line(tmp_path, monkeypatch):
    """Something that answers, but not as Dask: its reply read as a frame length once made Dask
    allocate exabytes (a MemoryError traceback)."""
    pytest.importorskip("distributed")
    import socket
    import threading

    server = socket.create_server(("127.0.0.1", 0))
    port = server.getsockname()[1]

    def answer():
        for _ in range(5):  # Dask may retry
            try:
                conn, _ = server.accept()
            except OSError:
                return
            with conn:
                conn.sendall(b"HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n" * 4)

    threading.Thread(target=answer, daemon=True).start()
    try:
        code, lines = _sweep_with_scheduler(port, tmp_path, monkeypatch)
    finally:
        server.close()
    assert code == 2 and len(lines) == 1 and lines[0].startswith("Error: cannot connect"), lines
    assert list(tmp_path.iterdir()) == []


def _sweep_with_scheduler(port, tmp_path, monkeypatch, child: bool = False):
    """A small sweep sent to a scheduler at ``port``: its exit code and non-empty output lines
    (``child``: in a child process under the hang watchdog)."""
    args = (*SWEEP, "--store", "results", "--scheduler", f"tcp://127.0.0.1:{port}")
    code, out, err = (_run_child(args, tmp_path) if child
                      else _run_here(args, tmp_path, monkeypatch))
    return code, [line for line in (out + err).splitlines() if line.strip()]


def test_a_plain_http_server_at_the_scheduler_address_is_one_line_not_a_hang(tmp_path,
                                                                             monkeypatch):
    """An ordinary web server accepts the connection and waits for a request: Dask's own
    client then waited indefinitely. The probe waits for Dask's handshake (at most 3 s) and
    says what answered; the sweep runs under the watchdog, so a hang fails the test."""
    pytest.importorskip("distributed")
    import threading
    from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer

    server = ThreadingHTTPServer(("127.0.0.1", 0), SimpleHTTPRequestHandler)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        code, lines = _sweep_with_scheduler(server.server_port, tmp_path, monkeypatch,
                                            child=True)
    finally:
        server.shutdown()
        server.server_close()
    assert code != STILL_RUNNING, lines
    assert code == 2 and len(lines) == 1 and "not a Dask scheduler" in lines[0], lines
    assert list(tmp_path.iterdir()) == []


def test_a_bare_command_prints_its_help(tmp_path, monkeypatch):
    for args in ((), ("results",), ("rules",)):
        code, out, err = _run_here(args, tmp_path, monkeypatch)
        assert code == 0 and "Usage:" in out and "Error" not in out + err, args


def test_a_very_fine_precision_plans_up_to_the_cap_without_a_warning(tmp_path, monkeypatch):
    # 1e-12 needs ~10^24 games: int64 wrapped around, and the plan said about one game
    code, out, err = _run_here(("sweep", "--precision", "1e-12", "--match", "single",
                                "--dry-run", "--store", "results"), tmp_path, monkeypatch)
    assert code == 0 and "Warning" not in err and "RuntimeWarning" not in err, out + err
    assert f"{10**8:,}" in out  # the cap (DEFAULT_MAX_GAMES), not one game


def test_equal_settings_make_one_configuration():
    from vandatta_sim.sweep import expand_grid

    assert len(expand_grid(vary=["forget=0,-0.0"])) == 1
    assert len(expand_grid(vary=["decks=auto,1"], players=[4])) == 1
    assert len(expand_grid(vary=["decks=auto,2"], players=[4])) == 2
    # a named seat wins over all= whatever the order
    a = expand_grid(policies=["all=greedy", "0=random"])[0].seats
    b = expand_grid(policies=["0=random", "all=greedy"])[0].seats
    assert a == b and a.policies[0] == "random" and a.policies[1] == "greedy"


# --- round 3: the store reads what it finds as untrusted input ---------------------------------

STORED = ("sweep", "--games", "10", "--chunk-size", "5", "--match", "single", "--players", "2",
          "--store", "results", "--threads", "1", "--seed", "3")


def invoke(*args):
    result = CliRunner().invoke(main, list(args))
    assert result.exception is None or isinstance(result.exception, SystemExit), \
        repr(result.exception)
    assert "Traceback" not in result.output
    return result


def one_error_line(result) -> str:
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert result.exit_code == 2 and len(lines) == 1 and lines[0].startswith("Error:"), lines
    return lines[0]


@pytest.fixture
def stored(tmp_path, monkeypatch):
    """A store ``results`` in the working folder with one configuration in two chunks."""
    from vandatta_sim.store import Store

    monkeypatch.chdir(tmp_path)
    assert invoke(*STORED).exit_code == 0
    (key,) = Store("results").keys()
    return tmp_path / "results", key


def test_a_foreign_file_in_a_key_folder_is_reported_and_moved_aside_by_a_resume(stored):
    root, key = stored
    (root / key / "chunk-7.parquet").write_bytes(b"not a chunk of ours")
    assert invoke("results", "list").exit_code == 0
    verify = invoke("results", "verify")
    assert verify.exit_code == 1 and "chunk-7.parquet" in verify.stdout, verify.output
    resumed = invoke(*STORED)
    assert resumed.exit_code == 0 and "foreign file moved aside" in resumed.stderr
    assert not (root / key / "chunk-7.parquet").exists()
    assert [p.read_bytes() for p in (root / key / "quarantine").iterdir()] == [
        b"not a chunk of ours"]
    assert invoke("results", "verify").exit_code == 0


PROVENANCES = {"a folder": None, "a list": "[]", "invalid JSON": "{",
               "a wrongly typed field": '{"chunk_size": "five", "players": 2}',
               "nested very deep": "[" * 100_000 + "]" * 100_000}


@pytest.mark.parametrize("name", PROVENANCES)
def test_a_damaged_provenance_is_reported_by_name_and_repaired_by_a_sweep(stored, name):
    root, key = stored
    path = root / key / "provenance.json"
    path.unlink()
    if PROVENANCES[name] is None:
        path.mkdir()
    else:
        path.write_text(PROVENANCES[name])
    assert invoke("results", "list").exit_code == 0
    for args in (("results", "show", key), ("results", "export", key, "--out", "g.csv")):
        assert "provenance.json" in one_error_line(invoke(*args)), args
    assert not (root.parent / "g.csv").exists()
    assert invoke("results", "verify").exit_code == 1
    assert invoke(*STORED).exit_code == 0  # the sweep writes a fresh record
    assert invoke("results", "show", key).exit_code == 0


def test_a_symlinked_quarantine_never_takes_a_chunk_out_of_the_store(stored, tmp_path):
    root, key = stored
    outside = tmp_path / "outside"
    outside.mkdir()
    (root / key / "quarantine").symlink_to(outside)
    (root / key / "chunk-000000.parquet").write_bytes(b"garbage")
    assert invoke(*STORED).exit_code == 0
    assert list(outside.iterdir()) == []
    quarantine = root / key / "quarantine"
    assert quarantine.is_dir() and not quarantine.is_symlink()
    assert b"garbage" in [p.read_bytes() for p in quarantine.iterdir() if p.is_file()]
    assert invoke("results", "verify").exit_code == 0


def test_verify_fails_for_an_unreadable_key_folder(stored, monkeypatch):
    # root reads any folder, so the refusal is injected where the store lists one
    root, key = stored
    real = os.listdir

    def listdir(path="."):
        if os.path.basename(os.fspath(path)) == key:
            raise PermissionError(13, "Permission denied", os.fspath(path))
        return real(path)

    monkeypatch.setattr(os, "listdir", listdir)
    verify = invoke("results", "verify")
    assert verify.exit_code == 1 and "cannot be read" in verify.stdout, verify.output


def test_results_rm_and_a_sweep_of_the_same_key_are_serialised(stored):
    import threading

    from vandatta_sim.store import Store

    root, key = stored
    store = Store(root)
    frame = store.load_chunks(key, [0])
    written = []

    def sweep_writer():  # what a sweep does: lock, then write
        with store.lock(key):
            written.append(store.write_chunk(key, 0, frame, first_game=0))

    with store.lock(key):  # results rm holds the lock while it removes the key
        thread = threading.Thread(target=sweep_writer)
        thread.start()
        time.sleep(0.3)  # the writer now waits for the lock
        assert not written
        store.delete(key)
    thread.join(10)
    assert written and written[0].is_file() and written[0].parent == root / key
    assert [p.name for p in root.iterdir()] == [key]  # nothing of the deleted folder is left


def test_results_rm_on_a_read_only_store_removes_nothing(stored, monkeypatch):
    root, key = stored
    before = _listing(root)

    def replace(src, dst):
        raise OSError(30, "Read-only file system", os.fspath(src))

    monkeypatch.setattr(os, "replace", replace)
    assert "nothing was removed" in one_error_line(invoke("results", "rm", key, "--yes"))
    assert _listing(root) == before


# --- round 3: faults while a file is written -------------------------------------------------------


def _full_disk(monkeypatch):
    def fsync(fd):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "fsync", fsync)


def _unwritable_folder(monkeypatch):
    """The folder takes no new file after the check before the work (an injected EACCES for the
    atomic writer's temporary file)."""
    real = os.open

    def open_(path, flags, *args, **kwargs):
        if os.path.basename(os.fspath(path)).startswith(".tmp-") and flags & os.O_EXCL:
            raise PermissionError(13, "Permission denied", os.fspath(path))
        return real(path, flags, *args, **kwargs)

    monkeypatch.setattr(os, "open", open_)


FAULT_COMMANDS = {
    "results plot": lambda key: ("results", "plot", key, "--plot", "chart.png"),
    "results plot svg": lambda key: ("results", "plot", key, "--plot", "chart.svg"),
    "results export": lambda key: ("results", "export", key, "--out", "chart.csv"),
    "simulate out": lambda key: (*SIM, "--out", "chart.parquet"),
    "sweep plot": lambda key: (*STORED, "--plot", "chart.png"),
    "value store": lambda key: ("value", "--games", "10", "--players", "2", "--store", "v"),
}


@pytest.mark.parametrize("fault", [_full_disk, _unwritable_folder], ids=["full disk",
                                                                          "unwritable folder"])
@pytest.mark.parametrize("command", FAULT_COMMANDS)
def test_a_fault_while_writing_is_one_line_and_leaves_the_users_files(stored, command, fault,
                                                                      monkeypatch):
    root, key = stored
    folder = root.parent
    for name in ("chart.png", "chart.svg", "chart.csv", "chart.parquet"):
        (folder / name).write_text("the user's own file\n")
    before = _listing(folder)
    fault(monkeypatch)
    line = one_error_line(invoke(*FAULT_COMMANDS[command](key)))
    assert ("No space left" in line) if fault is _full_disk else ("Permission denied" in line)
    monkeypatch.undo()
    after = _listing(folder)
    for name in ("chart.png", "chart.svg", "chart.csv", "chart.parquet"):
        assert after[name] == b"the user's own file\n", name
    assert not [n for n in after if os.path.basename(n).startswith(".tmp-")], after
    if command != "value store":
        assert {n: c for n, c in after.items() if not n.startswith("v")} == before


def test_figures_are_byte_stable(stored, tmp_path):
    root, key = stored
    for suffix in ("png", "svg"):
        first, second = tmp_path / f"a.{suffix}", tmp_path / f"b.{suffix}"
        for path in (first, second):
            assert invoke("results", "plot", key, "--plot", str(path)).exit_code == 0
        assert first.read_bytes() == second.read_bytes(), suffix
    assert b"<dc:date>" not in first.read_bytes()


def test_sigterm_during_simulate_out_leaves_the_users_file_and_no_temporary(tmp_path):
    import signal

    (tmp_path / "g.csv").write_text("the user's own file\n")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(
        [str(REPO), *filter(None, [os.environ.get("PYTHONPATH")])]))
    proc = subprocess.Popen([sys.executable, "-m", "vandatta_sim.cli", "simulate", "--games",
                             "5000000", "--match", "single", "--out", "g.csv", "--threads", "1"],
                            cwd=tmp_path, env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 240
    while (not list(tmp_path.glob(".tmp-*")) and proc.poll() is None
           and time.monotonic() < deadline):
        time.sleep(0.05)  # until the first chunk is being written
    proc.send_signal(signal.SIGTERM)
    out, err = proc.communicate(timeout=120)
    assert proc.returncode == 128 + signal.SIGTERM, err
    assert "Traceback" not in err and "interrupted" in err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["g.csv"]
    assert (tmp_path / "g.csv").read_text() == "the user's own file\n"
