"""The ERR paper's figures of agreement between measures (Azzopardi, Mackenzie and Moffat,
ICTIR 2021): scatter plots of each metric against a reference (ERR@20) per (run, topic) pair
and per system (their Figure 4), and the correlation matrix of every pair of measures as a
heat map (their Table 2).

Both take a :class:`~cwlkit.stats.matrix.CorrelationMatrix` (what
:func:`cwlkit.stats.correlation_matrix` returns), so the points drawn are exactly the values
correlated, and the coefficients shown are the matrix's cells. They return a matplotlib
``Figure`` made without pyplot; each scatter carries a ``gid`` (``"scores|ERR@20|AP"``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from ..errors import CwlkitError
from .figures import figure

if TYPE_CHECKING:  # pragma: no cover
    from ..stats.matrix import CorrelationMatrix

LEVEL_LABELS = {"scores": "per (run, topic)", "systems": "per system (mean over topics)"}
#: most tick labels on a side of a scatter pane
MAX_TICKS = 7


def plot_scatter(
    cm: CorrelationMatrix,
    x: str | None = None,
    ys: Sequence[str] | None = None,
    *,
    levels: Sequence[str] | None = None,
    ncols: int | None = None,
) -> Any:
    """Each measure of ``ys`` against ``x`` (default: the first measure against every other).

    One block of rows per level (``scores``: a point per (run, topic) pair; ``systems``: a
    point per run), the points coloured by run, which a legend below the panes names; one
    pane per measure, ``ncols`` panes a row (default up to 5). Each pane's axes are labelled
    with the two measures (``x`` below, the pane's measure on the left) and its title names
    the level and gives Pearson's r and Spearman's rho from ``cm`` and the number of points.
    At most :data:`MAX_TICKS` ticks a side, at steps of 1, 2 or 5 times a power of ten, so
    that system means a few thousandths apart get labels with gaps between them.
    """
    from .report import short_names

    x = cm.measures[0] if x is None else x
    if x not in cm.measures:
        raise CwlkitError(f"{x} is not in the correlation matrix ({', '.join(cm.measures)})")
    ys = [m for m in cm.measures if m != x] if ys is None else list(ys)
    for y in ys:
        if y not in cm.measures:
            raise CwlkitError(f"{y} is not in the correlation matrix")
    if not ys:
        raise CwlkitError("nothing to plot against " + x)
    levels = [lv for lv in ("scores", "systems") if lv in cm.data] if levels is None else levels
    from matplotlib.ticker import MaxNLocator

    short = dict(zip(cm.runs, short_names(cm.runs), strict=True))
    colour = {run: f"C{i % 10}" for i, run in enumerate(cm.runs)}
    ncols = min(len(ys), 5) if ncols is None else max(1, min(int(ncols), len(ys)))
    per = -(-len(ys) // ncols)  # rows per level
    nrows = per * len(levels)
    fig, axes = figure(2.7 * ncols + 0.6, 2.7 * nrows + 0.8, nrows, ncols)
    for ax in [a for k, a in enumerate(axes.flat) if k % (per * ncols) >= len(ys)]:
        ax.set_visible(False)
    i = cm.measures.index(x)
    for lv, level in enumerate(levels):
        d = cm.data[level]
        runs_of = np.array([item[0] for item in d.items])
        for k, y in enumerate(ys):
            j = cm.measures.index(y)
            c = k % ncols
            ax = axes[lv * per + k // ncols, c]
            xs, yv = d.values[i], d.values[j]
            ax.scatter(  # coloured by run; the legend below the panes names the colours
                xs,
                yv,
                s=8 if level == "scores" else 26,
                c=[colour[str(u)] for u in runs_of],
                alpha=0.55 if level == "scores" else 0.9,
                linewidths=0,
                gid=f"{level}|{x}|{y}",
            )
            pr = cm.values[level].get("pearson")
            sr = cm.values[level].get("spearman")
            stats = []
            if pr is not None:
                stats.append(f"r={pr[i, j]:.3f}")
            if sr is not None:
                stats.append(f"rho={sr[i, j]:.3f}")
            ax.set_title(f"{LEVEL_LABELS[level]}\n{', '.join(stats)} (n={cm.n(level)})", fontsize=8)
            ax.set_xlabel(x, fontsize=8)
            ax.set_ylabel(y, fontsize=8)
            for axis in (ax.xaxis, ax.yaxis):
                axis.set_major_locator(MaxNLocator(nbins=MAX_TICKS - 1, steps=[1, 2, 5, 10]))
            ax.tick_params(labelsize=7)
            ax.grid(linewidth=0.3, alpha=0.6)
            ax.margins(0.08)
    from matplotlib.lines import Line2D

    handles = [
        Line2D([], [], linestyle="none", marker="o", color=colour[run], label=short[run])
        for run in cm.runs
    ]
    # as many runs a row as fit the figure's width (about 0.06 in a character at 7 pt, and
    # 0.45 in for the marker and the gaps), so that no name runs past the edge
    entry = max(0.45 + 0.06 * max(len(short[r]) for r in cm.runs), 0.8)
    fig.legend(
        handles=handles,
        loc="outside lower center",
        ncols=max(1, min(len(handles), int(fig.get_figwidth() // entry))),
        fontsize=7,
        frameon=False,
    )
    return fig


def plot_matrix(
    cm: CorrelationMatrix,
    *,
    levels: Sequence[str] | None = None,
    folds: Sequence[tuple[str, str]] = (("kendall_tau_b", "weighted_tau"), ("pearson", "spearman")),
) -> Any:
    """Heat maps of the matrix: per level, per ``(upper, lower)`` pair of coefficients, one
    square with ``upper`` above the diagonal and ``lower`` below (the ERR paper's Table 2 is
    ``("kendall_tau_b", "weighted_tau")`` at the systems level), each cell printed."""
    from ..stats.matrix import LABELS

    levels = list(cm.levels) if levels is None else list(levels)
    folds = [f for f in folds if f[0] in cm.values[levels[0]] and f[1] in cm.values[levels[0]]]
    M = len(cm.measures)
    # room for each pane: the square of cells, the names on its left (7 pt, about 0.06 in a
    # character), the names below (at 45 degrees: 0.71 of their length), the 3-line title;
    # the figure is as big as these, so no layout engine has to squeeze a text out of it
    cell, name = 0.5, 0.06 * max(len(m) for m in cm.measures)
    side = cell * M
    fig, axes = figure(
        (side + name + 0.35) * len(folds) + 1.0,
        (side + 0.71 * name + 0.95) * len(levels) + 0.2,
        len(levels),
        len(folds),
        layout="compressed",
    )
    finite = [cm.combined(lv, up, lo)[~np.eye(M, dtype=bool)] for lv in levels for up, lo in folds]
    allv = np.concatenate(finite) if finite else np.array([0.0])
    # colour scale from a round value at or below every cell (and 0.5 at most) up to 1
    low = float(np.nanmin(allv)) if np.isfinite(allv).any() else 0.0
    lo_lim = min(0.5, np.floor(low * 10.0) / 10.0)
    image = None
    for r, level in enumerate(levels):
        for c, (upper, lower) in enumerate(folds):
            ax = axes[r, c]
            mat = cm.combined(level, upper, lower)
            image = ax.imshow(mat, vmin=lo_lim, vmax=1.0, cmap="viridis", gid=f"{level}|{upper}")
            for a in range(M):
                for b in range(M):
                    if a == b or not np.isfinite(mat[a, b]):
                        continue
                    v = mat[a, b]
                    light = (v - lo_lim) / (1.0 - lo_lim or 1.0) > 0.6
                    ax.text(
                        b,
                        a,
                        f"{v:.3f}",
                        ha="center",
                        va="center",
                        fontsize=6,
                        color="black" if light else "white",
                    )
            ax.set_xticks(
                range(M), cm.measures, rotation=45, ha="right", rotation_mode="anchor", fontsize=7
            )
            ax.set_yticks(range(M), cm.measures, fontsize=7)
            what = "systems" if level == "systems" else "(run, topic) pairs"
            ax.set_title(
                f"{what} (n={cm.n(level)})\nabove: {LABELS[upper]}\nbelow: {LABELS[lower]}",
                fontsize=8,
            )
    if image is not None:
        bar = fig.colorbar(image, ax=axes, shrink=0.6)
        bar.ax.tick_params(labelsize=7)
    return fig
