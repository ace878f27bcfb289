"""Hostile inputs of round 4 (issue 39) for the newer commands: design, tune, value, labels.

One table of cases by class: the conflict rule and limits, dry runs and output paths that
must write nothing, and library errors (optuna/SQLAlchemy storage, damaged files, TOML dates)
that must be one ``Error:`` line with exit 1 or 2, never a traceback, with nothing left on
disk that was not there. Each case prepares its folder, runs the command in process and says
what the line must name. The tuner's own cases (crafted state, concurrent tunes, names) are in
tests/test_tune.py, label cases in tests/test_catalogue.py.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import pytest
from click.testing import CliRunner

from vandatta_sim.cli import main

#: A small design: two free parameters, two players, a handful of games.
SPEC = """
title = "probe"
[fixed]
set = ["match=single"]
[free]
stacking = [false, true]
[table]
players = 2
[[goals]]
measure = "first_player_advantage"
aim = "minimise"
[search]
trials = 2
seed = 1
games = 100
final_games = 100
finalists = 1
"""


def spec_with(old: str = "", new: str = "") -> str:
    assert old in SPEC
    return SPEC.replace(old, new, 1) if old else SPEC


@dataclass
class Case:
    name: str
    args: list[str]
    words: str  # what the one Error line must contain
    files: dict[str, str | bytes | None] = field(default_factory=dict)  # None: a folder
    codes: tuple[int, ...] = (2,)


CASES = [
    # --- the conflict rule and the limits, where the newer commands lacked them -------------
    Case("design target outside its own cap",
         ["design", "spec.toml"], "target 0.4 lies outside its own cap (at most 0.3)",
         {"spec.toml": spec_with('aim = "minimise"', "target = 0.4\n[[goals]]\nmeasure = "
                                 '"first_player_advantage"\nat_most = 0.3')}),
    Case("design target below its own cap",
         ["design", "spec.toml"], "lies outside its own cap (at least 30)",
         {"spec.toml": spec_with('measure = "first_player_advantage"\naim = "minimise"',
                                 'measure = "deal_length"\ntarget = 20\n[[goals]]\nmeasure = '
                                 '"deal_length"\nat_least = 30')}),
    Case("value rank twice", ["value", "--rank", "8,A,8", "--games", "10"],
         "rank 8 is given twice"),
    Case("value scale twice", ["value", "--scale", "base,base", "--games", "10"],
         "scale base is given twice"),
    Case("sweep max-games beyond the game indices",
         ["sweep", "--precision", "0.01", "--max-games", str(2**62 + 1), "--dry-run"],
         "max_games = 4611686018427387905 is not allowed; allowed: an integer 1–2^62"),
    Case("sweep file max_games beyond the game indices",
         ["sweep", "sw.toml", "--dry-run"], "max_games",
         {"sw.toml": f"precision = 0.01\nmax_games = {2**62 + 1}\nplayers = [2]\n"}),
    Case("tune a shipped name", ["tune", "standard-base-4", "--players", "4"],
         "is a shipped policy's name"),
    Case("results label of a missing key", ["results", "label", "0123abcd", "x"],
         "no configuration"),
    # --- nothing written: output paths found before the work -------------------------------
    Case("design out-dir holds a folder where front.png goes",
         ["design", "spec.toml", "--out-dir", "out"], "a folder is in the way",
         {"spec.toml": SPEC, "out": None, "out/front.png": None}),
    Case("design out-dir holds a folder where rank-1.toml goes",
         ["design", "spec.toml", "--out-dir", "out"], "a folder is in the way",
         {"spec.toml": SPEC, "out": None, "out/rank-1.toml": None}),
    Case("tune result path is a folder",
         ["tune", "t", "--players", "2", "--set", "match=deals:2", "--generations", "1",
          "--population", "4", "--candidate-games", "8", "--validation-games", "8"],
         "a folder is in the way", {"results": None, "results/tuned": None,
                                    "results/tuned/t.json": None}),
    # --- library errors at their boundary -----------------------------------------------------
    Case("design storage of an unknown scheme", ["design", "spec.toml", "--storage",
                                                  "nosuchdb://x/y"],
         "--storage 'nosuchdb://x/y'", {"spec.toml": SPEC}, (1,)),
    Case("design dry run, storage of an unknown scheme",
         ["design", "spec.toml", "--dry-run", "--storage", "nosuchdb://x/y"],
         "--storage 'nosuchdb://x/y'", {"spec.toml": SPEC}, (1,)),
    Case("design storage whose driver is missing",
         ["design", "spec.toml", "--storage", "postgresql+psycopg2://u@127.0.0.1:1/db"],
         "--storage", {"spec.toml": SPEC}, (1,)),
    Case("design storage a damaged SQLite file",
         ["design", "spec.toml", "--storage", "sqlite:///study.db"], "--storage",
         {"spec.toml": SPEC, "study.db": b"this is not a database\x00" * 100}, (1,)),
    Case("design dry run, storage a damaged SQLite file",
         ["design", "spec.toml", "--dry-run", "--storage", "sqlite:///study.db"], "--storage",
         {"spec.toml": SPEC, "study.db": b"this is not a database\x00" * 100}, (1,)),
    Case("design storage a folder", ["design", "spec.toml", "--storage", "sqlite:///study.db"],
         "--storage", {"spec.toml": SPEC, "study.db": None}, (1,)),
    Case("design spec with a TOML date in a rule",
         ["design", "spec.toml"], "fixed.set.draw_limit = 1979-05-27: a date is not allowed",
         {"spec.toml": spec_with('set = ["match=single"]',
                                 'set = { match = "single", draw_limit = 1979-05-27 }')}),
    Case("tune over a damaged saved state",
         ["tune", "t", "--players", "2", "--set", "match=deals:2", "--generations", "1",
          "--population", "4", "--candidate-games", "8", "--validation-games", "8"],
         "saved tuning state", {"results": None, "results/tuned": None,
                                "results/tuned/t.run": None,
                                "results/tuned/t.run/state.json": "[" * 50_000}),
    Case("tune over a damaged policy file",
         ["tune", "t", "--players", "2", "--set", "match=deals:2", "--generations", "1",
          "--population", "4", "--candidate-games", "8", "--validation-games", "8"],
         "cannot be read", {"results": None, "results/tuned": None,
                            "results/tuned/t.json": "{\"name\": \"t\"}"}),
    Case("simulate with a damaged tuned policy",
         ["simulate", "--games", "4", "--match", "single", "--policy", "0=tuned:t"],
         "tuned policy file", {"results": None, "results/tuned": None,
                               "results/tuned/t.json": b"\xff\xfe{}"}),
]


def _prepare(folder: Path, files: dict) -> None:
    for name, content in files.items():
        path = folder / name
        if content is None:
            path.mkdir(parents=True, exist_ok=True)
        elif isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content, encoding="utf-8")


def _listing(folder: Path) -> dict[str, bytes | None]:
    return {str(p.relative_to(folder)): (p.read_bytes() if p.is_file() else None)
            for p in sorted(folder.rglob("*"))}


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_hostile_input_round_4(case: Case, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("VANDATTA_TUNED", raising=False)
    _prepare(tmp_path, case.files)
    before = _listing(tmp_path)
    result = CliRunner().invoke(main, case.args)
    assert result.exception is None or isinstance(result.exception, SystemExit), (
        f"traceback: {result.exception!r}")
    lines = [ln for ln in result.output.splitlines() if ln.strip()]
    errors = [ln for ln in lines if ln.startswith("Error:")]
    assert result.exit_code in case.codes and len(errors) == 1, result.output
    assert case.words in errors[0], errors[0]
    assert "Traceback" not in result.output
    assert _listing(tmp_path) == before, "something was written"


def test_a_design_dry_run_with_storage_creates_no_database(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "spec.toml").write_text(SPEC, encoding="utf-8")
    result = CliRunner().invoke(main, ["design", "spec.toml", "--dry-run", "--storage",
                                       "sqlite:///sub/study.db", "--store", "s"])
    assert result.exit_code == 0, result.output
    assert "0 of 2 trials done" in result.output
    assert sorted(p.name for p in tmp_path.iterdir()) == ["spec.toml"]


def test_a_rerun_with_fewer_finalists_leaves_no_older_rank_file(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "spec.toml").write_text(SPEC, encoding="utf-8")
    out = tmp_path / "out"
    out.mkdir()
    for name in ("rank-2.toml", "rank-07.toml", "rank-x.toml", "notes.txt"):
        (out / name).write_text("# an earlier run's\n")
    result = CliRunner().invoke(main, ["design", "spec.toml", "--out-dir", "out", "--store",
                                       "s", "--no-progress"])
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in out.iterdir()) == ["front.png", "notes.txt", "rank-1.toml",
                                                     "rank-x.toml"]
