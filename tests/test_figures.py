"""Helpers of the report figures: when an axis goes log, which values are drawn beyond it."""

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

from vandatta_sim.plots import mark_beyond, needs_log_axis, outlier_limit, quantile_rows  # noqa: E402
from vandatta_sim.experiments.measures import QUANTILES, quantiles  # noqa: E402


def test_log_axis_only_when_one_value_dwarfs_the_rest():
    assert needs_log_axis([40, 66, 1170])        # ace_draw=3 against the rest
    assert not needs_log_axis([40, 66, 210])
    assert not needs_log_axis([-1.0, 2.0, 50.0])  # not all positive: no log axis
    assert not needs_log_axis([np.nan, 3.0])


def test_outlier_limit_leaves_out_only_the_far_value():
    skill = [13.7, 15.0, 6.0, 5.5, 12.0, 13.0, 14.0, 25.3, 84.6, 10.9]
    limit = outlier_limit(skill)
    assert limit is not None and 25.3 < limit < 84.6
    assert outlier_limit([1.0, 2.0, 3.0, 4.0, 5.0, 6.0]) is None
    assert outlier_limit([1.0, 100.0]) is None  # too few values to call one an outlier


def test_quantile_rows_and_mark_beyond_draw():
    rng = np.random.default_rng(1)
    rows = [quantiles(rng.exponential(50, 2000)), quantiles(rng.exponential(80, 2000))]
    assert set(rows[0]) == set(QUANTILES)
    assert all(r[q].low <= r[q].value <= r[q].high for r in rows for q in QUANTILES)
    fig, ax = plt.subplots()
    before = len(ax.lines)
    quantile_rows(ax, [1, 0], rows, "tab:blue")
    # per row: the 10-90 line, the 25-75 bar, the median, one interval per quantile
    assert len(ax.lines) - before == 2 * (3 + len(QUANTILES))
    mark_beyond(ax, [0, 1], [5.0, 90.0], 30.0, " pp")
    assert [t.get_text() for t in ax.texts] == ["90.0 pp →"]
    plt.close(fig)
