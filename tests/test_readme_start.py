"""The README's first screen (issue 38): the shortest path to each job with what it costs, the
first compile's time stated, the two set-up commands kept, and the page short enough to read."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text("utf-8")
#: the jobs a family comes for, by the command that does each
JOBS = {"install once": r"^make install\b", "sit at the table": r"vandatta-sim play --human ",
        "the eight question": r"vandatta-sim value .*'8'|vandatta-sim value .*\"8\"",
        "two house rules": r"vandatta-sim sweep .*--vary \w+=\w+,\w+",
        "the reports": r"^make reports\b", "the tests": r"^make test\b"}
COST = re.compile(r"#.*\(.*?\d+(?:-\d+|\+)? (?:min|s)\b")
SCREEN = 40  # lines of a terminal, roughly


def first_block() -> tuple[int, list[str]]:
    """The line number where the first code block ends, and its lines."""
    match = re.search(r"```bash\n(.*?)```", README, flags=re.S)
    return README[:match.end()].count("\n") + 1, match.group(1).strip().splitlines()


def test_the_first_screen_gives_each_job_its_command_and_cost():
    end, lines = first_block()
    assert end <= SCREEN, f"the first commands end on line {end}, below the first screen"
    for job, pattern in JOBS.items():
        found = [line for line in lines if re.search(pattern, line)]
        assert found, f"no command for {job} on the first screen"
        assert all(COST.search(line) for line in found), f"{job}: no cost in {found}"


def test_the_first_compile_time_is_stated():
    _, lines = first_block()
    (install,) = [line for line in lines if line.startswith("make install")]
    low = re.search(r"(\d+)-\d+ min on 2 cores", install)
    assert low and "first time only" in install
    start = README.index("## Start here")
    quiet = re.search(r"([\d.]+) min on a quiet 2-core machine,\s+up to 22 min on a busy one",
                      README[start:start + 2500])
    assert quiet
    # the figure is docs/speed.md's fresh-clone `make install`, rounded to a tenth of a minute
    speed = (ROOT / "docs" / "speed.md").read_text("utf-8")
    measured = re.search(r"from a fresh clone .*?\*\*(\d+) min\s+(\d+) s\*\*", speed, flags=re.S)
    assert measured, "docs/speed.md gives no fresh-clone install time"
    minutes = int(measured[1]) + int(measured[2]) / 60
    assert float(quiet[1]) == round(minutes, 1) and int(low[1]) <= minutes


def test_the_set_up_commands_are_make_targets():
    makefile = (ROOT / "Makefile").read_text("utf-8")
    _, lines = first_block()
    for line in lines:
        if line.startswith("make "):
            target = line.split()[1]
            assert re.search(rf"^{re.escape(target)}:", makefile, flags=re.M), target
    assert re.search(r"^test-fast:", makefile, flags=re.M)  # the comment names it


def test_the_readme_stays_short():
    assert README.count("\n") <= 300
