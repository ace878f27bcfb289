"""Text tables: the one formatter for Markdown reports and terminal output.

A table is a header and rows of cells (anything with ``str``); ``align`` gives one letter per
column, ``l``, ``r`` or ``c``. ``style="markdown"`` writes a GitHub Markdown table (the reports),
``style="text"`` aligned columns two spaces apart under a rule of dashes (the command line).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

_MARKDOWN_RULE = {"l": ":---", "r": "---:", "c": ":---:"}


def format_table(header: Sequence, rows: Iterable[Sequence], align: str | None = None,
                 style: str = "markdown") -> str:
    """``header`` and ``rows`` as a Markdown (``style="markdown"``) or terminal (``"text"``)
    table; ``align`` defaults to the first column left, the others right."""
    header = [str(h) for h in header]
    align = align or "l" + "r" * (len(header) - 1)
    if len(align) != len(header) or set(align) - set(_MARKDOWN_RULE):
        raise ValueError("align needs one letter l, r or c per column")
    cells = [[str(c) for c in row] for row in rows]
    for row in cells:
        if len(row) != len(header):
            raise ValueError(f"row has {len(row)} cells, header {len(header)}")
    if style == "markdown":
        lines = ["| " + " | ".join(header) + " |",
                 "|" + "|".join(_MARKDOWN_RULE[a] for a in align) + "|"]
        lines += ["| " + " | ".join(c.replace("|", "\\|") for c in row) + " |" for row in cells]
        return "\n".join(lines) + "\n"
    if style == "text":
        widths = [max(len(x) for x in col) for col in zip(header, *cells)]
        pad = {"l": str.ljust, "r": str.rjust, "c": str.center}

        def line(row):
            return "  ".join(pad[a](c, w) for a, c, w in zip(align, row, widths)).rstrip()

        return "\n".join([line(header), line(["-" * w for w in widths])]
                         + [line(row) for row in cells])
    raise ValueError(f"style must be 'markdown' or 'text', not {style!r}")
