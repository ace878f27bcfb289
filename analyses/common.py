"""Shared settings of the report scripts: game counts, seeds, command line, figures.

Every game count and seed of every report is here, so ``reports/README.md`` can list them and
a change shows up in one diff. ``--quick`` swaps in :data:`QUICK` (tiny counts, for tests and
development; its results go to a separate store so they never mix with the real ones).
"""

from __future__ import annotations

import argparse
import os
import platform
import shlex
import sys
import textwrap
import time
from pathlib import Path

os.environ.setdefault("MPLBACKEND", "Agg")
import matplotlib  # noqa: E402

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

try:
    import vandatta_sim  # noqa: F401
except ImportError:  # run from a checkout without installing: use the package next to us
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from vandatta_sim.plots import save_figure  # noqa: E402
from vandatta_sim.experiments.runner import Runner  # noqa: E402
from vandatta_sim.stats import detectable_difference, games_to_detect  # noqa: E402

#: Games per configuration in the committed reports. A "game" is a single deal or a whole
#: match as the name says; "per seat" counts are per focal seat (the seats rotate).
FULL = {
    # claims.md (swap_deals, h2h_*) and eight-value.md (value_*, timing_*)
    "swap_deals": 100_000,     # swap experiment, per (scale, players, rank): single deals
    "h2h_deals": 50_000,       # hold vs dump, per (scale, players, policy, focal seat): deals
    "h2h_matches": 10_000,     # hold vs dump, per (scale, players, policy, focal seat): matches
    "value_deals": 100_000,    # eight-value top screen, per (scale, players): single deals
    "value_matches": 100_000,  # eight-value top screen, per (scale, players): matches to 100
    "value_players": 40_000,   # who plays, per (scale, holder, table, focal seat): deals
    "value_ranks": 50_000,     # ordinary ranks, per (scale, play, rank): deals, 4 players
    "value_search": 250,       # search holder vs the headline holder, per (cell, focal seat)
    "house_deals": 50_000,     # eight under house rules, per (rule, scale, players): deals
    "house_traced": 1_000,     # house rules: deals traced per explained change (and standard)
    "timing_deals": 25_000,    # hold/dump/timing, per (scale, policy, focal seat): deals
    "timing_matches": 5_000,   # hold/dump/timing, per (scale, policy, focal seat): matches
    # variants.md
    "variant_deals": 50_000,   # per (variant, players): single deals
    "variant_matches": 10_000,  # per variant: matches to 100 at four players
    "variant_skill": 25_000,   # per (variant, policy, focal seat): single deals, four players
    "variant_skill_search": 500,  # the same with `search` as the skilled player (slow)
    # claims.md
    "forhand_deals": 1_000_000,  # per number of players: single deals, standard
    "claim_deals": 200_000,    # per rule set in the deal-length and eights comparisons
    "claim_skill": 100_000,    # per (rule set or players, policy, focal seat)
    "claim_skill_search": 1_500,  # the same with `search` as the skilled player (slow)
    "claim_swap": 200_000,     # per swap run in the two-aces experiment
}
#: What each count is, for reports/README.md.
COUNT_NOTES = {
    "swap_deals": ("claims 10", "single deals per (scale, players, rank) and "
                   "the unswapped baseline; all seats expert"),
    "h2h_deals": ("claims 4 and 9", "single deals per (scale, players, focal "
                  "policy, focal seat)"),
    "h2h_matches": ("claims 4", "matches to 100 per (scale, players, focal "
                    "policy, focal seat)"),
    "value_deals": ("eight-value", "single deals per (scale, players): as dealt, one more "
                    "eight, one more ace, and both at a second face value (break-even); "
                    "and at each of the 10 scores of the fair-score grid with the players "
                    "told the score, plus the runs at the fixed-play threshold"),
    "value_matches": ("eight-value", "matches to 100 per (scale, players): as dealt, one "
                      "more eight, one more ace"),
    "value_players": ("eight-value", "single deals per (scale, holder, table, focal seat), "
                      "4 players"),
    "value_ranks": ("eight-value", "single deals per (scale, play, rank), 4 players"),
    "value_search": ("eight-value", "single deals per (scale, players, focal seat): a "
                     "`search` holder and the headline player's holder on the same deals"),
    "house_deals": ("eight-value", "single deals per (house rule or preset, scale, players "
                    "3 and 4): as dealt and with one more eight"),
    "house_traced": ("eight-value", "deals replayed with their traces per explained house-rule "
                     "change and its standard (the first of the swap run)"),
    "timing_deals": ("eight-value", "single deals per (scale, focal policy, focal seat), "
                     "4 players"),
    "timing_matches": ("eight-value", "matches to 100 per (scale, focal policy, focal seat), "
                       "4 players"),
    "variant_deals": ("variants", "single deals per (variant, players 2–5)"),
    "variant_matches": ("variants", "matches to 100 per variant, 4 players"),
    "variant_skill": ("variants", "single deals per (variant, focal policy, focal seat), "
                      "4 players"),
    "variant_skill_search": ("variants", "single deals per (variant, focal policy, focal "
                             "seat), 4 players, in the skill check with `search`"),
    "forhand_deals": ("claims 1 and 7", "single deals per number of players, standard"),
    "claim_deals": ("claims 2, 3 and 6", "single deals per rule set, 4 players"),
    "claim_skill": ("claims 2, 5 and 10", "single deals per (rule set or players, focal "
                    "policy, focal seat)"),
    "claim_swap": ("claims 5 and 8", "single deals per swap run"),
    "claim_skill_search": ("claims 2 and 10", "single deals per (rule set or players, focal "
                           "policy, focal seat) in the skill check with `search`"),
}
QUICK = {
    "swap_deals": 2_000, "h2h_deals": 1_000, "h2h_matches": 200,
    "value_deals": 2_000, "value_matches": 300, "value_players": 500, "value_ranks": 500,
    "value_search": 5, "house_deals": 300, "house_traced": 20,
    "timing_deals": 500, "timing_matches": 100,
    "variant_deals": 1_000, "variant_matches": 200, "variant_skill": 500,
    "variant_skill_search": 20,
    "forhand_deals": 5_000, "claim_deals": 2_000, "claim_skill": 1_000, "claim_swap": 2_000,
    "claim_skill_search": 20,
}
#: One fixed seed per experiment (policy substitution uses seed + focal seat).
SEEDS = {
    "swap_deals": 8_001,
    "h2h_deals": 8_100,
    "h2h_matches": 8_200,
    "value_deals": 8_301,
    "value_matches": 8_301,  # the same seed as the deals: `vandatta-sim value` runs both
    "value_players": 8_310,
    "value_ranks": 8_320,
    "value_search": 8_301,  # the headline's seed: search and headline holders pair per deal
    "house_deals": 8_301,   # the headline's seed: each rule's games pair with standard's
    "house_traced": 8_301,  # the house-rule runs' seed: the traced deals are their first
    "timing_deals": 8_400,
    "timing_matches": 8_500,
    "variant_deals": 9_001,
    "variant_matches": 9_002,
    "variant_skill": 9_100,
    "variant_skill_search": 9_100,  # the skill runs' seed: its random-focal deals are theirs
    "forhand_deals": 4_001,
    "claim_deals": 4_002,
    "claim_skill": 4_100,
    "claim_skill_search": 4_100,  # the skill runs' seed: its deals pair with theirs
    "claim_swap": 4_003,
}
PLAYERS = (2, 3, 4, 5)
#: Every experiment's tables: all seats play ``expert`` unless a comparison says otherwise.
POLICY = "expert"

FIGURE_DPI = 100
COLORS = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2",
          "#7f7f7f", "#bcbd22", "#17becf")
plt.rcParams.update({
    "figure.dpi": FIGURE_DPI, "savefig.dpi": FIGURE_DPI, "font.size": 9,
    "axes.grid": True, "grid.alpha": 0.3, "svg.hashsalt": "vandatta",
    "path.simplify": False,
})


class Context:
    """What a report script needs: counts, runner, where to write, and a log."""

    def __init__(self, args: argparse.Namespace, name: str):
        self.args = args
        self.name = name
        self.quick = args.quick
        self.counts = dict(QUICK if args.quick else FULL)
        if args.fraction != 1.0:  # development: a share of the full counts
            self.counts = {k: max(int(v * args.fraction), 100) for k, v in FULL.items()}
        self.seeds = dict(SEEDS)
        self.out = Path(args.out)
        self.figures = self.out.parent / "figures"
        self.figures.mkdir(parents=True, exist_ok=True)
        scratch = args.quick or args.fraction != 1.0
        store = args.store or ("results-quick" if scratch else "results")
        command = "python " + " ".join(shlex.quote(a) for a in sys.argv)
        self.runner = Runner(store=store, threads=args.threads,
                             use_sweep=args.backend == "sweep", command=command)
        self.started = time.monotonic()

    def log(self, message: str) -> None:
        elapsed = time.monotonic() - self.started
        print(f"[{self.name} {elapsed:6.0f}s] {message}", file=sys.stderr, flush=True)

    def figure_path(self, stem: str) -> tuple[Path, str]:
        """Where to save a figure, and its link relative to the report."""
        path = self.figures / f"{stem}.png"
        return path, f"figures/{path.name}"

    def write(self, text: str) -> None:
        self.out.parent.mkdir(parents=True, exist_ok=True)
        self.out.write_text(text, encoding="utf-8")
        self.log(f"wrote {self.out} ({self.runner.games_played:,} games requested)")


def parse_args(description: str, default_out: str, extra=None) -> argparse.Namespace:
    """The report scripts' command line; ``extra(parser)`` adds a script's own options."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--out", default=default_out, help=f"report file (default {default_out})")
    parser.add_argument("--quick", action="store_true",
                        help="tiny game counts (tests, development); store results-quick")
    parser.add_argument("--store", default=None,
                        help="result store folder (default results, or results-quick)")
    parser.add_argument("--fraction", type=float, default=1.0,
                        help="development: run this share of the full game counts")
    parser.add_argument("--threads", type=int, default=None, help="threads (default: all)")
    parser.add_argument("--backend", choices=("sweep", "direct"), default="sweep",
                        help="sweep: stored results (default); direct: simulate, no store")
    if extra is not None:
        extra(parser)
    return parser.parse_args()


def header(title: str, ctx: Context, script: str, width: int | None = None,
           options: str = "") -> str:
    """The report's title and the line that says how it was made (no timestamps); with
    ``width``, its paragraphs wrapped to that many characters; ``options``: the script's own
    options as given (e.g. ``--player tuned``), part of the command."""
    mode = " --quick" if ctx.quick else (f" --fraction {ctx.args.fraction:g}"
                                         if ctx.args.fraction != 1.0 else "")
    note = ("> **Development run** (`--quick` or `--fraction`): reduced game counts; not "
            "the committed numbers.\n" if mode else "")
    made = (f"Generated by `python analyses/{script} --out {ctx.out.as_posix()}{mode}"
            f"{' ' + options if options else ''}` "
            f"(see [README](README.md) for versions, seeds and game counts). "
            f"Intervals are 95 % confidence intervals; \"n.s.\" marks a difference whose "
            f"interval contains 0 (not significant at this precision).")
    if width is not None:
        made = textwrap.fill(made, width, break_long_words=False, break_on_hyphens=False)
        note = textwrap.fill(note, width, break_long_words=False, break_on_hyphens=False,
                             subsequent_indent="> ") + ("\n" if note else "")
    return f"# {title}\n\n{made}\n" + (f"\n{note}" if note else "") + "\n"


def power_sentence(diffs, games: int, per: str, unit: str = "pp",
                   target: float | None = 0.01, target_is: str = "") -> str:
    """**Power** of a check made of the differences ``diffs``, each from ``games`` ``per``
    (e.g. "deals per focal seat"): their half-widths, the smallest difference each sees with
    80 % power (5 %, two-sided), and, with ``target``, about how many ``per`` the widest would
    need to see one of that size (``target_is``: what that size is, in words). ``unit``: "pp"
    (differences of rates) or "%" (of relative changes)."""
    suffix = unit if unit == "%" else f" {unit}"

    def span(values) -> str:
        lo, hi = f"{100 * min(values):.1f}", f"{100 * max(values):.1f}"
        return f"{lo}{suffix}" if lo == hi else f"{lo}–{hi}{suffix}"

    widths = "differences' half-widths are" if len(diffs) > 1 else "difference's half-width is"
    out = (f"**Power:** the {widths} {span([d.half_width for d in diffs])}, so "
           "the smallest difference this check sees with 80 % power (5 %, two-sided) is "
           f"{span([detectable_difference(d) for d in diffs])} at {games:,} {per}")
    if target is not None:
        widest = max(diffs, key=lambda d: d.half_width)
        need = -(-games_to_detect(widest, games, target) // 1000) * 1000  # a size, rounded up
        out += (f"; one of {span([target])}{target_is} would take about {need:,} {per}"
                + (" in the widest cell" if len(diffs) > 1 else ""))
    return out


def save(fig, ctx: Context, stem: str, alt: str) -> str:
    """Save a figure byte-stably and return its Markdown image line."""
    path, link = ctx.figure_path(stem)
    try:
        save_figure(fig, path, "figure", dpi=FIGURE_DPI)  # atomic and byte-stable
    finally:
        plt.close(fig)
    return f"![{alt}]({link})\n"


def _values_and_bars(estimates, scale: float):
    """Point values and the (below, above) bar lengths of their 95 % intervals."""
    v = np.array([e.value for e in estimates]) * scale
    lo = np.array([e.low for e in estimates]) * scale
    hi = np.array([e.high for e in estimates]) * scale
    return v, np.vstack([np.maximum(v - lo, 0), np.maximum(hi - v, 0)])


def errorbars(ax, x, estimates, scale: float = 1.0, **kwargs):
    """Points with 95 % interval bars for a sequence of Estimates."""
    v, err = _values_and_bars(estimates, scale)
    kwargs.setdefault("fmt", "o")
    kwargs.setdefault("capsize", 3)
    kwargs.setdefault("markersize", 4)
    return ax.errorbar(x, v, yerr=err, **kwargs)


def label_panels(axes, titles, ylabels, xlabel: str = "players at the table"):
    """Title, axis labels, a zero line and the player counts as ticks, for each panel."""
    for ax, title, ylabel in zip(axes, titles, ylabels):
        ax.axhline(0, color="black", linewidth=0.8)
        ax.set_title(title)
        ax.set_xlabel(xlabel)
        ax.set_ylabel(ylabel)
        ax.set_xticks(PLAYERS)


def hbars(ax, y, estimates, scale: float = 1.0, **kwargs):
    """Horizontal version of :func:`errorbars` (a dot chart with interval bars)."""
    v, err = _values_and_bars(estimates, scale)
    kwargs.setdefault("fmt", "o")
    kwargs.setdefault("capsize", 2)
    kwargs.setdefault("markersize", 3)
    return ax.errorbar(v, y, xerr=err, **kwargs)


def versions() -> dict[str, str]:
    import matplotlib as mpl
    import numba
    import pandas as pd
    import pyarrow
    import scipy

    import vandatta_sim

    out = {"python": platform.python_version(), "numpy": np.__version__,
           "numba": numba.__version__, "pandas": pd.__version__, "scipy": scipy.__version__,
           "pyarrow": pyarrow.__version__, "matplotlib": mpl.__version__,
           "vandatta_sim": vandatta_sim.__version__}
    engine = getattr(vandatta_sim, "ENGINE_VERSION", None)
    if engine is not None:
        out["engine version"] = str(engine)
    return out
