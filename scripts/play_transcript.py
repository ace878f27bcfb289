"""The session at the table in docs/playing.md, played again through the real command.

    .venv/bin/python scripts/play_transcript.py          # rewrite docs/playing.md's transcript
    .venv/bin/python scripts/play_transcript.py --check  # exit 1 if the committed one differs

Plays :data:`COMMAND` with :data:`KEYS` typed (through a pipe: plain text, the answers read line
by line), writes each answer after its prompt as a terminal would show it, keeps the first
:data:`HEAD` and the last :data:`TAIL` lines, and puts the result between the markers of
docs/playing.md. The game and the coach are seeded, so the same code gives the same text;
``tests/test_play_transcript.py`` compares it with the committed one, so the page cannot go
stale: after a change to the table, the coach or the engine, rerun this script.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PAGE = ROOT / "docs" / "playing.md"
COMMAND = ["play", "--human", "0", "--players", "2", "--match", "single", "--seed", "3",
           "--set", "call_at=3", "--hints", "--plain"]
#: what the person types: a lappen call that cannot count (refused), a card that does not fit
#: (refused), then the first option, except hK; the eight without l forgets the call
KEYS = ["1 l", "c2", "1", "1", "hK", "1"]
FILL = "1"        # typed at every later prompt
HEAD, TAIL = 56, 6
BEGIN = "<!-- transcript: scripts/play_transcript.py writes it, tests/test_play_transcript.py checks it -->"
END = "<!-- /transcript -->"
PROMPT = re.compile(r"(?:seat \d+ )?(?:move|suit)> ")


def play() -> str:
    """The whole session as a terminal shows it (each typed answer after its prompt)."""
    cli = Path(sys.executable).with_name("vandatta-sim")
    typed = KEYS + [FILL] * 400
    env = dict(os.environ, TERM="dumb", COLUMNS="80")
    done = subprocess.run([str(cli), *COMMAND], input="\n".join(typed) + "\n", text=True,
                          capture_output=True, env=env, timeout=900)
    if done.returncode != 0:
        raise SystemExit(f"the session failed (exit {done.returncode}): {done.stderr.strip()}")
    answers = iter(typed)
    return PROMPT.sub(lambda m: m.group(0) + next(answers) + "\n", done.stdout)


def block(session: str) -> str:
    """The page's text between the markers: the command, the kept lines, the typed answers."""
    lines = session.rstrip("\n").splitlines()
    kept = lines if len(lines) <= HEAD + TAIL + 1 else lines[:HEAD] + ["…"] + lines[-TAIL:]
    typed = ", ".join(f"`{k}`" for k in KEYS)
    return "\n".join([
        "```text",
        "$ .venv/bin/vandatta-sim " + " ".join(COMMAND),
        *kept,
        "```",
        "",
        f"Typed here: {typed}, then `{FILL}` at every prompt ({len(lines)} lines in all, the "
        "middle left out); without `--plain` a terminal shows ♥ and colours and completes "
        "the legal moves with Tab."])


def page_with(text: str, new_block: str) -> str:
    start, end = text.index(BEGIN) + len(BEGIN), text.index(END)
    return text[:start] + "\n" + new_block + "\n" + text[end:]


def committed_block(text: str) -> str:
    return text[text.index(BEGIN) + len(BEGIN):text.index(END)].strip("\n")


def main(argv: list[str]) -> int:
    new = block(play())
    text = PAGE.read_text(encoding="utf-8")
    if "--check" in argv:
        if committed_block(text) != new:
            print(f"{PAGE.relative_to(ROOT)} is stale: run .venv/bin/python "
                  "scripts/play_transcript.py")
            return 1
        print(f"{PAGE.relative_to(ROOT)} is up to date")
        return 0
    PAGE.write_text(page_with(text, new), encoding="utf-8")
    print(f"wrote the transcript into {PAGE.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
