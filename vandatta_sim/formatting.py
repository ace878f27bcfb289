"""Text tables and the estimates in them: the one formatter for reports and terminal output.

A table is a header and rows of cells (anything with ``str``); ``align`` gives one letter per
column, ``l``, ``r`` or ``c``. ``style="markdown"`` writes a GitHub Markdown table (the reports),
``style="text"`` aligned columns two spaces apart under a rule of dashes (the command line).

An estimate (:class:`vandatta_sim.stats.Estimate`) is written by :func:`format_estimate` in one
of a few kinds (a percentage, percentage points, a signed difference, ...). This module knows
estimates only by their fields (``value``, ``low``, ``high``) and imports nothing of the
package: :mod:`vandatta_sim.stats` formats its estimates here, and keeps their three columns in
tidy tables (``stats.estimate_columns``) itself.

Lines within a terminal's width (:func:`wrapped`, :func:`listed`, :func:`whole`) are the
table's and the narrated game's: broken between seats, never inside one.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence

#: How each kind of estimate is written: (scale, unit, signed, marked n.s. when its interval
#: holds 0). ``pct`` a proportion as a percentage, ``pp`` a difference of proportions in
#: percentage points, ``diff`` a signed difference, ``rel`` a relative change in percent,
#: ``num`` a plain number.
KINDS = {"pct": (100, "%", False, False), "pp": (100, " pp", True, True),
         "diff": (1, "", True, True), "rel": (100, "%", True, True),
         "num": (1, "", False, False)}


def _finite(x) -> bool:
    try:
        return math.isfinite(float(x))
    except (TypeError, ValueError):
        return False


def format_number(x: float, kind: str = "num", digits: int = 2) -> str:
    """One number of ``kind``: ``+6.2 pp``, ``25.7%``, ``-0.21``."""
    scale, unit, signed, _ = KINDS[kind]
    return f"{x * scale:{'+' if signed else ''}.{digits}f}{unit}"


def format_interval(est, kind: str = "num", digits: int = 2, unit: bool = True) -> str:
    """An estimate's interval alone: ``[+5.8, +6.5] pp`` (``–`` where it is undefined)."""
    if not (_finite(est.low) and _finite(est.high)):
        return "–"
    scale, suffix, signed, _ = KINDS[kind]
    sign = "+" if signed else ""
    return (f"[{est.low * scale:{sign}.{digits}f}, {est.high * scale:{sign}.{digits}f}]"
            + (suffix if unit else ""))


def format_estimate(est, kind: str = "num", digits: int = 2) -> str:
    """An estimate with its interval, as every report and command writes it:
    ``25.7% [25.4, 26.0]`` (``pct``), ``+6.2 pp [+5.8, +6.5]`` (``pp``), ``-0.21 [-0.26,
    -0.16]`` (``diff``), ``+3.4% [+0.5, +6.3]`` (``rel``), ``0.261 [0.258, 0.264]`` (``num``).
    A difference (``pp``, ``diff``, ``rel``) not shown to differ from 0 (its interval holds 0
    or is undefined) is marked ``(n.s.)``; ``–`` where the value is undefined. A difference
    exactly 0 with a zero-width interval (every paired game the same, e.g. a rule that cannot
    act) is said in words, ``0 (no game changed)``: not a test that failed to reject."""
    if not _finite(est.value):
        return "–"
    if KINDS[kind][3] and est.value == 0 and est.low == 0 and est.high == 0:
        return f"0{KINDS[kind][1]} (no game changed)"
    text = format_number(est.value, kind, digits)
    if _finite(est.low) and _finite(est.high):
        text += " " + format_interval(est, kind, digits, unit=False)
    if KINDS[kind][3] and not (est.low > 0 or est.high < 0):
        text += " (n.s.)"
    return text


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


# ---- lines within a terminal's width (the table's lines, the narrated game's scores)

#: The width of the table's and the narration's lines: a default terminal's.
COLUMNS = 80
_WHOLE = "\0"  # a space that wrapped() never breaks at


def whole(text: str) -> str:
    """``text`` kept on one line by :func:`wrapped` (a seat's name, a seat and its count)."""
    return text.replace(" ", _WHOLE)


def wrapped(text: str, width: int = COLUMNS) -> list[str]:
    """``text`` in lines of at most ``width`` columns, broken between words but never inside
    a :func:`whole` part (a part longer than a line is a line of its own); the lines after the
    first are indented by two spaces."""
    import textwrap

    return [line.replace(_WHOLE, " ") for line in
            textwrap.wrap(text, width, break_long_words=False, break_on_hyphens=False,
                          subsequent_indent="  ")]


def listed(items: list[str], sep: str = " ·") -> str:
    """``items`` joined by ``sep`` and a space, each item whole and each separator kept with
    the item before it, so that :func:`wrapped` breaks a line only after a separator."""
    return " ".join(whole(item + (sep if k < len(items) - 1 else ""))
                    for k, item in enumerate(items))
