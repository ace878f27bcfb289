"""Charts of compared configurations: each measure per configuration with its 95% interval.

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


def check_plot_path(path: str) -> None:
    """ValueError (one line) unless ``path`` ends in .png or .svg inside an existing folder."""
    if Path(path).suffix.lower() not in PLOT_SUFFIXES:
        raise ValueError(f"--plot {path!r}: the file name must end in .png or .svg")
    if not Path(path).resolve().parent.is_dir():
        raise ValueError(f"--plot {path!r}: folder {str(Path(path).parent)!r} does not exist")


def varied_labels(labels: list[str]) -> list[str]:
    """The labels without the words they all share (``players=4 policy=expert``), so that each
    says what varies; the full label where nothing would be left."""
    words = [label.split() for label in labels]
    common = set.intersection(*(set(w) for w in words)) if len(words) > 1 else set()
    return [" ".join(w for w in ws if w not in common) or label
            for ws, label in zip(words, labels)]


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
    fig, axes = plt.subplots(1, len(PANELS), figsize=(4.2 * len(PANELS), 1.8 + 0.7 * len(labels)),
                             sharey=True, squeeze=False)
    for ax, (field, axis_label, scale) in zip(axes[0], PANELS):
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
    fig.tight_layout()
    fig.savefig(path, format=Path(path).suffix.lower().lstrip("."), metadata=(
        {"Software": None} if Path(path).suffix.lower() == ".png" else {"Date": None}))
    plt.close(fig)
