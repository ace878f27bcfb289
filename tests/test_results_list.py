"""`results list` for people reading it (issue 38): rows fit a 100-column terminal (the command
and the other fields are in `results show` and --json), and the runs `value` makes for its own
arithmetic (an eight worth a score nobody typed) are hidden unless --all."""

from __future__ import annotations

import json

from click.testing import CliRunner
from hypothesis import example, given, settings
from hypothesis import strategies as st

from vandatta_sim.cli import main
from vandatta_sim.sweep import catalogue

WIDTH = 100


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args], catch_exceptions=False)


# printable text one column a character (labels are checked for control characters)
TEXT = st.text(st.characters(min_codepoint=32, max_codepoint=126) | st.sampled_from("åäöÅÄÖé…"),
               max_size=300)


@st.composite
def rows(draw):
    keys = draw(st.lists(st.text("0123456789abcdef", min_size=16, max_size=16), min_size=1,
                         max_size=12, unique=True))
    out = []
    for key in keys:
        changes = draw(st.dictionaries(st.sampled_from(["stacking", "draw_limit", "scale",
                                                        "players", "match", "hand_size"]),
                                       TEXT, max_size=6))
        out.append({
            "updated": draw(st.sampled_from(["", "2026-12-05T07:37:46+00:00"])), "key": key,
            "kinds": draw(st.lists(st.sampled_from(["sweep", "value", "report", "design"]),
                                   min_size=1, max_size=4, unique=True)),
            "games": draw(st.integers(0, 2**62)), "changes": changes,
            "rules_file": draw(st.one_of(st.none(), TEXT)),
            "swap": draw(st.one_of(st.none(), st.sampled_from(["8", "A"]))),
            "swap_seat": draw(st.one_of(st.none(), st.integers(0, 9))),
            "policies": draw(st.lists(st.sampled_from(["expert", "random", "tuned:standard-"
                                                       "hundred-4"]), min_size=2, max_size=10)),
            "user_label": draw(TEXT), "internal": draw(st.booleans())})
    return out


@settings(max_examples=300, deadline=None)
@given(rows())
@example([{"updated": "", "key": "0" * 16, "kinds": ["sweep"], "games": 0,  # a trailing space
           "changes": {"stacking": " "}, "rules_file": None, "swap": None, "swap_seat": None,
           "policies": ["expert", "expert"], "user_label": "", "internal": False}])
def test_every_line_fits_and_each_key_shown_names_its_row(listed):
    lines = catalogue.list_text(listed).splitlines()
    assert all(len(line) <= WIDTH for line in lines), max(lines, key=len)
    keys = [r["key"] for r in listed]
    at = lines[0].index("key")  # the date is empty for a damaged provenance
    for r, line in zip(listed, lines[2:]):
        shown = line[at:].split()[0]
        assert [k for k in keys if k.startswith(shown)] == [r["key"]]  # a unique prefix
        what = catalogue.list_what(r)
        cut = line.rstrip()[line.index(shown):]
        # whole (a line's trailing spaces are not printed), or visibly cut
        assert what.rstrip() in cut or cut.endswith("…")


def test_value_runs_list_in_100_columns_its_internal_runs_only_with_all(tmp_path):
    store = tmp_path / "r"
    done = run("value", "--match", "single", "--players", "3", "--games", "200", "--seed", "1",
               "--label", "our table, where the eight counts fifty and nobody stacks nines",
               "--store", store, "--quiet")
    assert done.exit_code == 0, done.output
    every = json.loads(run("results", "list", "--all", "--json", "--store", store).stdout)
    inner = [r for r in every if r["internal"]]
    asked = [r for r in every if not r["internal"]]
    assert inner and asked  # value's break-even runs, and the runs the person asked for
    for r in inner:  # the eight at a second score nobody typed
        assert r["scale"] == "custom" and "scale" in r["changes"]

    text = run("results", "list", "--store", store).stdout
    lines = text.splitlines()
    assert all(len(line) <= WIDTH for line in lines), max(lines, key=len)
    assert all(r["key"][:8] in text for r in asked)
    assert not any(r["key"][:8] in text for r in inner)
    assert f"({len(inner)} run(s) that value made for its own break-even arithmetic are " \
           "hidden; --all lists them)" in text
    assert "vandatta-sim value" not in text  # the command is in show
    assert json.loads(run("results", "list", "--json", "--store", store).stdout) == asked

    everything = run("results", "list", "--all", "--store", store).stdout
    assert all(len(line) <= WIDTH for line in everything.splitlines())
    for r in inner:
        (line,) = [x for x in everything.splitlines() if r["key"][:8] in x]
        assert line.split()[4] == "internal;"
    assert "hidden" not in everything

    shown = run("results", "show", asked[0]["key"][:8], "--store", store).stdout
    assert "command       vandatta-sim value --match single --players 3" in shown
