"""Plots of tournament summaries."""
from __future__ import annotations

import numpy as np
import pandas as pd

from ..errors import HeimlichError
from .statistics import by_columns, win_rates


def plot_win_rates(data: pd.DataFrame, by=("bot",), ax=None, confidence: float = 0.95, title: str | None = None):
    """Bar chart of win rates with confidence-interval error bars; returns the matplotlib Axes.

    ``data`` is a tournament table (win rates are computed with :func:`win_rates`) or a table
    :func:`win_rates` returned. A short grey tick on each bar marks its fair share.

    >>> from matplotlib.figure import Figure
    >>> from heimlich_lab.analysis import tournament
    >>> df = tournament(3, "basic", "random", games=3, progress=False)
    >>> ax = plot_win_rates(df, by="seat", ax=Figure().subplots())
    >>> len(ax.patches), ax.get_ylabel()
    (3, 'win rate')
    """
    rates = data if "win_rate" in data.columns else win_rates(data, by=by, confidence=confidence)
    cols = [c for c in by_columns(by) if c in rates.columns]
    if not cols:
        raise HeimlichError(f"the win-rate table has none of the columns {list(by_columns(by))}")
    if ax is None:
        import matplotlib.pyplot as plt
        _, ax = plt.subplots(figsize=(max(4.0, 0.6 * len(rates) + 2), 3.5))
    labels = [" / ".join(str(v) for v in row) for row in rates[cols].itertuples(index=False)]
    x = np.arange(len(rates))
    r = rates["win_rate"].to_numpy(dtype=float)
    yerr = np.vstack([r - rates["ci_low"].to_numpy(dtype=float), rates["ci_high"].to_numpy(dtype=float) - r])
    ax.bar(x, r, yerr=yerr, capsize=4, color="#4c72b0", alpha=0.85)
    if "fair_share" in rates:
        ax.scatter(x, rates["fair_share"], marker="_", s=600, color="0.3", zorder=3, label="fair share")
    ax.set_xticks(x, labels, rotation=30 if len(labels) > 4 else 0, ha="right" if len(labels) > 4 else "center")
    ax.set_ylabel("win rate")
    ax.set_xlabel(" / ".join(cols))
    ax.set_ylim(0, max(1e-9, min(1.0, float(np.nanmax(rates["ci_high"])) * 1.15 if len(rates) else 1.0)))
    ax.set_title(title if title is not None else f"Win rates ({round(confidence * 100)}% Wilson intervals)")
    return ax
