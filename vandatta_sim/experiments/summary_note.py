"""The pasteable note of ``--summary FILE.md``: one run's answer as Markdown.

A note holds the rules in words (each change from ``standard``, what the rule decides and the
standard value it replaces), the command's table, its plain verdict and the exact command that
reproduces it, so that it can be pasted into a message or a family wiki and checked by anyone.
It is written atomically (a temporary file renamed into place).
"""

from __future__ import annotations

from ..atomic import write_atomically
from ..rulebook import PARAMETERS, show_value
from ..rules import Rules

#: The suffix a note's file name must have.
NOTE_SUFFIXES = (".md",)


def rules_in_words(changes: dict, rules_file: str | None = None) -> list[str]:
    """Markdown list items: each rule that differs from ``standard``, with what it decides
    and the standard's value; one item saying the rules are standard where none differ."""
    standard = Rules()
    source = f" (from the rules file `{rules_file}`)" if rules_file else ""
    if not changes:
        return [f"- the `standard` rules, unchanged{source}"]
    items = []
    for name, value in changes.items():
        shown = show_value(tuple(value) if isinstance(value, list) else value)
        was = show_value(getattr(standard, name)) if hasattr(standard, name) else "?"
        what = PARAMETERS[name].summary if name in PARAMETERS else name
        items.append(f"- **{what}**: `{name} = {shown}` (standard: `{was}`)")
    if rules_file:
        items.insert(0, f"- the `standard` rules with these changes{source}:")
    return items


def note_text(title: str, changes: dict, table: str, verdict: str, command: str,
              rules_file: str | None = None, extra: str = "") -> str:
    """The note: a title, the rules in words, the table (as printed, in a code block), the
    verdict and the reproducing command."""
    parts = [f"# {title}", "", "**Rules** (changes from `standard`):", "",
             *rules_in_words(changes, rules_file), "", "**Result** (95% intervals):", "",
             "```text", table.rstrip("\n"), "```", ""]
    if extra:
        parts += [extra.rstrip("\n"), ""]
    if verdict:
        parts += ["**In plain words:** " + " ".join(verdict.split("\n")), ""]
    parts += ["**Reproduce it** (same seed, same games):", "", "```bash", command, "```", ""]
    return "\n".join(parts)


def write_note(path: str, text: str) -> None:
    """Write the note to ``path`` atomically."""
    def write(tmp: str) -> None:
        with open(tmp, "w", encoding="utf-8") as handle:
            handle.write(text)

    write_atomically(path, write, "--summary")


def rules_changes(rules: Rules) -> dict:
    """``rules`` as changes from ``standard``."""
    return rules.diff(Rules())
