"""The README and docs stay true: every README command runs (as written, or a cheap variant
with fewer games and a scratch store), and every reference in the docs and reports resolves
inside the repository."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest
from click.testing import CliRunner

from vandatta_sim.cli import main

ROOT = Path(__file__).resolve().parents[1]
DOCS = sorted([ROOT / "README.md", *(ROOT / "docs").glob("*.md"), *(ROOT / "reports").glob("*.md"),
               *(ROOT / "examples").glob("*.md"), *(ROOT / "scripts").glob("*.md")])


def readme_commands() -> list[list[str]]:
    """The ``vandatta-sim`` commands of the README's code blocks (continuation lines joined,
    comments dropped), as argument lists."""
    text = (ROOT / "README.md").read_text("utf-8")
    out = []
    for block in re.findall(r"```(?:bash|console)?\n(.*?)```", text, flags=re.S):
        joined = re.sub(r"\\\n\s*", " ", block)
        for line in joined.splitlines():
            line = line.strip().removeprefix("$ ")
            if not line.startswith(".venv/bin/vandatta-sim"):
                continue
            out.append(shlex.split(line, comments=True)[1:])
    return out


#: Cheap variants: the README's counts are for a real run; the test plays a few games.
SMALL = {"--games": "40", "--match-games": "20"}


def cheap(args: list[str], tmp: Path, keys: list[str]) -> list[str]:
    """``args`` with small counts, files in ``tmp``, a scratch store, KEY placeholders filled
    from ``keys`` and the benchmark cut to its quickest form."""
    out = []
    it = iter(args)
    for a in it:
        if a in SMALL:
            next(it)
            out += [a, SMALL[a]]
        elif a in ("--out", "--plot", "--summary"):
            out += [a, str(tmp / Path(next(it)).name)]
        elif a == "--players" and args[0] == "value":
            next(it)
            out += [a, "3"]
        elif re.fullmatch(r"KEY\d*", a):
            out.append(keys[int(a[3:] or 1) - 1])
        else:
            out.append(a)
    if args[0] == "bench":
        return ["bench", "--help"]  # a full benchmark takes minutes; its options are checked
    if "--human" in args:  # a person at the keyboard: the session has its own tests
        return ["play", "--help"]
    if args[0] in ("sweep", "value", "results") and "--store" not in out:
        out += ["--store", str(tmp / "results")]
    if args[0] == "sweep" and "--dry-run" not in out:
        out += ["--games", "40"] if "--games" not in out else []
    return out


def test_the_readme_has_commands():
    names = {args[0] for args in readme_commands()}
    assert {"rules", "simulate", "play", "sweep", "results", "value"} <= names


def test_every_readme_command_runs(tmp_path, monkeypatch):
    monkeypatch.chdir(ROOT)
    runner = CliRunner()
    keys: list[str] = []
    commands = readme_commands()
    # the sweeps first, so that results' KEY placeholders have keys to name
    commands.sort(key=lambda a: (a[0] != "sweep", a[0] == "results"))
    for args in commands:
        if args[0] == "results" and not keys:
            from vandatta_sim.store import Store

            keys = Store(tmp_path / "results").keys()
        argv = cheap(args, tmp_path, keys)
        result = runner.invoke(main, argv, catch_exceptions=False)
        assert result.exit_code == 0, (argv, result.output)


LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")
PATHLIKE = re.compile(r"`((?:docs|reports|examples|scripts|analyses|vandatta_sim|tests)/"
                      r"[\w./-]+\.(?:md|py|toml|png|svg))`")


@pytest.mark.parametrize("doc", DOCS, ids=[str(d.relative_to(ROOT)) for d in DOCS])
def test_every_reference_resolves_inside_the_repository(doc):
    text = doc.read_text("utf-8")
    for target in LINK.findall(text):
        if re.match(r"[a-z]+:", target) or target.startswith("#"):
            continue
        path = (doc.parent / target.split("#", 1)[0]).resolve()
        assert path.exists(), f"{doc.name}: link {target} leads nowhere"
        assert ROOT in path.parents or path == ROOT, f"{doc.name}: {target} is outside"
    for target in PATHLIKE.findall(text):
        assert (ROOT / target).exists() or (doc.parent / target).exists(), \
            f"{doc.name}: {target} does not exist"
    assert "RULES.md" not in text and "shared/" not in text, f"{doc.name} cites outside"
    assert not re.search(r"\bissue \d+\b", text), f"{doc.name} cites an issue number"
