"""Charts of the commands: each measure per configuration with its 95% interval.

:func:`plot_card_value` draws the card-value experiment (``value --plot``).

matplotlib is imported here only, and this module only when a chart is asked for, so that no
other command pays for it.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

#: The panels: (summary field, axis label with its unit, scale applied to the values).
PANELS = (("win_rate_0", "förhand (seat 0) win rate, %", 100.0),
          ("mean_turns", "mean turns per game", 1.0),
          ("loser_points", "mean points of the non-winners per game", 1.0),
          ("capped_share", "games that hit the cap, %", 100.0))

PLOT_SUFFIXES = (".png", ".svg")


#: The salt of the SVG element ids (clip paths): matplotlib's default is random per process,
#: which made the same chart differ from run to run.
SVG_HASH_SALT = "vandatta-sim"


def check_plot_path(path: str, what: str = "--plot") -> None:
    """PathError (one line) before any work unless ``path`` is a .png or .svg file that can
    be written (:func:`vandatta_sim.paths.check_output_file`)."""
    from .paths import check_output_file

    check_output_file(path, what, PLOT_SUFFIXES)


def save_figure(fig, path, what: str = "--plot", **savefig) -> None:
    """Write ``fig`` to ``path`` (PNG or SVG by its suffix) atomically and byte-stably: the
    same figure gives the same bytes (no date or software version in the metadata, SVG ids
    from a fixed salt), and a failed or interrupted write leaves ``path`` as it was."""
    import matplotlib

    from .atomic import write_atomically

    kind = Path(path).suffix.lower().lstrip(".")
    metadata = {"Software": None} if kind == "png" else {"Date": None, "Creator": None}

    def write(tmp: str) -> None:
        with matplotlib.rc_context({"svg.hashsalt": SVG_HASH_SALT}):
            fig.savefig(tmp, format=kind, metadata=metadata, **savefig)

    write_atomically(path, write, what)


def varied_labels(labels: list[str]) -> list[str]:
    """The labels without the words they all share (``players=4 policy=expert``), so that each
    says what varies; the full label where nothing would be left."""
    words = [label.split() for label in labels]
    common = set.intersection(*(set(w) for w in words)) if len(words) > 1 else set()
    return [" ".join(w for w in ws if w not in common) or label
            for ws, label in zip(words, labels)]


def drawn_panels(summary: pd.DataFrame) -> tuple[list[tuple], list[str]]:
    """The panels worth drawing, and the names of those left out because the measure is
    exactly 0 in every configuration (no capped game anywhere, say: a panel of zeros)."""
    drawn, dropped = [], []
    for panel in PANELS:
        field = panel[0]
        if field != "win_rate_0" and np.all(summary[field].to_numpy(np.float64) == 0):
            dropped.append(field)
        else:
            drawn.append(panel)
    return drawn, dropped


def plot_comparison(summary: pd.DataFrame, comparison: list[dict] | None, baseline: int,
                    path: str, title: str = "") -> None:
    """Write ``path`` (PNG or SVG by its suffix): one panel per measure, one row per
    configuration, the point estimate with its 95% interval; the baseline is drawn in another
    colour with a dashed line through its value, and each other row is annotated with its
    paired difference from the baseline (Δ, 95% interval) where the comparison has one."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    labels = varied_labels([str(label) or str(key)
                            for label, key in zip(summary["label"], summary["key"])])
    y = np.arange(len(labels))[::-1]
    panels, dropped = drawn_panels(summary)
    fig, axes = plt.subplots(1, len(panels), figsize=(4.2 * len(panels), 1.8 + 0.7 * len(labels)),
                             sharey=True, squeeze=False)
    for ax, (field, axis_label, scale) in zip(axes[0], panels):
        value = summary[field].to_numpy(np.float64) * scale
        low = summary[f"{field}_low"].to_numpy(np.float64) * scale
        high = summary[f"{field}_high"].to_numpy(np.float64) * scale
        err = np.nan_to_num(np.vstack([value - low, high - value]), nan=0.0)
        colours = ["tab:orange" if i == baseline else "tab:blue" for i in range(len(labels))]
        for i in range(len(labels)):
            ax.errorbar(value[i], y[i], xerr=err[:, i: i + 1], fmt="o", color=colours[i],
                        capsize=4)
        if np.isfinite(value[baseline]):
            ax.axvline(value[baseline], color="tab:orange", linestyle="--", linewidth=1)
        if field == "win_rate_0":  # the fair share: every seat as likely to win
            fair = 100.0 / summary["players"].to_numpy(np.float64)
            if np.all(fair == fair[0]):
                ax.axvline(fair[0], color="grey", linestyle=":", linewidth=1.2,
                           label=f"fair share {fair[0]:.1f}%")
                ax.legend(fontsize=7, loc="lower right")
            else:
                ax.plot(fair, y, "|", color="grey", markersize=14, label="fair share")
                ax.legend(fontsize=7, loc="lower right")
        for i, row in enumerate(comparison or ()):
            delta = row.get(f"delta_{field}")
            if row.get("baseline") or delta is None or not np.isfinite(delta):
                continue
            lo, hi = row[f"delta_{field}_low"] * scale, row[f"delta_{field}_high"] * scale
            unit = " pp" if scale == 100 else ""
            ax.annotate(f"Δ {delta * scale:+.2f}{unit} [{lo:+.2f}, {hi:+.2f}]",
                        (value[i], y[i]), textcoords="offset points", xytext=(0, 8),
                        ha="center", fontsize=8)
        ax.set_title(f"{field} (förhand)" if field == "win_rate_0" else field)
        if scale == 1.0 and needs_log_axis(np.concatenate([low, high])):
            plain_log_axis(ax)  # one configuration would squash the others on a linear axis
            axis_label += ", log scale"
        ax.set_xlabel(axis_label)
        ax.grid(axis="x", alpha=0.3)
        ax.margins(x=0.3, y=0.45)
    axes[0][0].set_yticks(y, [f"{label}{' (baseline)' if i == baseline else ''}"
                              for i, label in enumerate(labels)])
    axes[0][0].set_ylabel("configuration")
    common = " ".join(w for w in str(summary["label"].iloc[0]).split()
                      if all(w in str(other).split() for other in summary["label"]))
    fig.suptitle(title or (f"{common + ': ' if common and len(labels) > 1 else ''}estimate and "
                           "95% interval per configuration; Δ = paired difference from the "
                           "baseline (orange, dashed line)"))
    if dropped:
        fig.text(0.01, 0.005, "left out, zero in every configuration: " + ", ".join(dropped),
                 fontsize=8, color="dimgrey", ha="left", va="bottom")
    fig.tight_layout(rect=(0, 0.04 if dropped else 0, 1, 1))
    try:
        save_figure(fig, path)
    finally:
        plt.close(fig)


# ------------------------------------------------------------------------------------------------
# helpers for the report figures: wide ranges, outliers, quantiles
# ------------------------------------------------------------------------------------------------
#: A panel whose positive values span more than this factor gets a log axis.
LOG_RATIO = 10.0


def needs_log_axis(values) -> bool:
    """Whether positive ``values`` span more than :data:`LOG_RATIO` (one would dwarf the rest
    on a linear axis)."""
    v = np.asarray(values, dtype=np.float64)
    v = v[np.isfinite(v)]
    return bool(v.size and v.min() > 0 and v.max() / v.min() > LOG_RATIO)


def outlier_limit(values, factor: float = 2.0) -> float | None:
    """An axis end that leaves out values far above the rest (``None`` when there are none):
    the largest value is far above when its gap to the next exceeds ``factor`` times the range
    of the values below it (repeated for the next largest). The end lies a tenth of the
    remaining range above the largest remaining value; :func:`mark_beyond` draws the rest at
    the edge."""
    v = np.sort(np.asarray(values, dtype=np.float64)[np.isfinite(values)])
    k = 0
    while v.size - k >= 4 and v[-1 - k] - v[-2 - k] > factor * (v[-2 - k] - v[0]):
        k += 1
    if not k:
        return None
    inside = v[: v.size - k]
    return float(inside[-1] + 0.1 * (inside[-1] - inside[0]))


def mark_beyond(ax, y, values, limit: float, unit: str = "") -> None:
    """Draw every value beyond ``limit`` as an arrow at the axis edge labelled with its value
    (a broken axis in one panel)."""
    for yi, v in zip(y, values):
        if np.isfinite(v) and v > limit:
            ax.annotate(f"{v:.1f}{unit} →", (limit, yi), xytext=(-2, 0),
                        textcoords="offset points", ha="right", va="center", fontsize=7,
                        color="black")
            ax.plot([limit], [yi], marker=">", color="black", markersize=5, clip_on=False)


def quantile_rows(ax, y, quantiles, color, label: str | None = None) -> None:
    """One row per entry of ``quantiles`` (a mapping q -> Estimate, q in 0.1, 0.25, 0.5, 0.75,
    0.9): a thin line from the 10 % to the 90 % quantile, a thick one from 25 % to 75 %, a
    dot at the median, and every quantile's 95 % interval as a short bar."""
    for i, (yi, qs) in enumerate(zip(y, quantiles)):
        ax.plot([qs[0.1].value, qs[0.9].value], [yi, yi], color=color, linewidth=1,
                solid_capstyle="butt")
        ax.plot([qs[0.25].value, qs[0.75].value], [yi, yi], color=color, linewidth=4.5,
                alpha=0.55, solid_capstyle="butt", label=label if i == 0 else None)
        ax.plot([qs[0.5].value], [yi], "o", color="white", markeredgecolor=color, markersize=5)
        for q, e in qs.items():
            ax.plot([e.low, e.high], [yi + 0.28, yi + 0.28], color="black", linewidth=1.2)


def plain_log_axis(ax, axis: str = "x") -> None:
    """A log scale on ``axis`` with ticks at 1, 2 and 5 times the powers of ten, written as
    plain numbers (``20``, ``500``) rather than powers."""
    from matplotlib.ticker import FuncFormatter, LogLocator, NullFormatter

    target = ax.xaxis if axis == "x" else ax.yaxis
    (ax.set_xscale if axis == "x" else ax.set_yscale)("log")
    target.set_major_locator(LogLocator(base=10, subs=(1.0, 2.0, 5.0)))
    target.set_major_formatter(FuncFormatter(lambda v, _: f"{v:g}"))
    target.set_minor_formatter(NullFormatter())


def plot_card_value(table: pd.DataFrame, path: str) -> None:
    """Write ``path`` (.png or .svg, atomically): one panel per measure (deal win, penalty
    points, break-even face value, match win where measured) against the player count, a line
    per (scale, rank) with 95% interval bars; the face values are marked on the break-even
    panel."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from .stats import row_estimate

    panels = [("win", "Δ P(win deal), percentage points", 100.0),
              ("points", "Δ penalty points per deal", 1.0)]
    if "break_even" in table.columns:
        panels.append(("break_even", "break-even face value (points)", 1.0))
    if "match_win" in table.columns:
        panels.append(("match_win", "Δ P(win match), percentage points", 100.0))
    fig, axes = plt.subplots(1, len(panels), figsize=(4.2 * len(panels), 3.8), squeeze=False)
    groups = list(table.groupby(["scale", "rank"], sort=False))
    for k, ((scale, rank), rows) in enumerate(groups):
        x = rows["players"].to_numpy(np.float64) + (k - (len(groups) - 1) / 2) * 0.06
        for ax, (name, _, factor) in zip(axes[0], panels):
            est = [row_estimate(r, name) for _, r in rows.iterrows()]
            v = np.array([e.value for e in est]) * factor
            err = np.nan_to_num(np.vstack([v - np.array([e.low for e in est]) * factor,
                                           np.array([e.high for e in est]) * factor - v]))
            ax.errorbar(x, v, yerr=np.maximum(err, 0), fmt="o-", capsize=3, markersize=4,
                        label=f"{scale}, rank {rank}", color=f"C{k % 10}")
            if name == "break_even":
                ax.plot(x, rows["face"], "_", markersize=14, color=f"C{k % 10}")
    for ax, (name, label, _) in zip(axes[0], panels):
        ax.axhline(0, color="black", linewidth=0.8)
        ax.set_xlabel("players at the table")
        ax.set_ylabel(label)
        ax.set_xticks(sorted(table["players"].unique()))
        ax.set_title(label.split(",")[0] + (" (dash: its face value)"
                                             if name == "break_even" else ""))
        ax.grid(alpha=0.3)
    axes[0][0].legend(fontsize=8)
    fig.suptitle("One more card of the rank: paired effect with 95% interval")
    fig.tight_layout()
    try:
        save_figure(fig, path)
    finally:
        plt.close(fig)
