"""Precision-recall and ROC plots of :class:`~cwlkit.measures.curves.PRCurve` and
:class:`~cwlkit.measures.curves.ROCCurve`.

The functions draw on a given matplotlib ``Axes`` or on a new ``Figure`` (made without
pyplot, so no global state and no window) and return the ``Axes``. They never write files:
save with ``ax.figure.savefig(path)``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from ..errors import CwlkitError

if TYPE_CHECKING:  # pragma: no cover
    from ..measures.curves import PRCurve, ROCCurve


def _axes(ax: Any) -> Any:
    if ax is not None:
        return ax
    try:
        from matplotlib.figure import Figure
    except ImportError:
        raise CwlkitError("plotting needs matplotlib: pip install 'cwlkit[plot]'") from None
    return Figure(figsize=(5, 4.5)).add_subplot()


def _rows(topics: np.ndarray, chosen: Sequence[str] | None) -> list[int]:
    if chosen is None:
        return []
    names = [str(t) for t in topics]
    rows = []
    for t in chosen:
        if str(t) not in names:
            raise CwlkitError(f"topic {t!r} is not in the curve")
        rows.append(names.index(str(t)))
    return rows


def plot_pr(
    curve: PRCurve,
    *,
    topics: Sequence[str] | None = None,
    mean: bool = True,
    measured: bool = True,
    ax: Any = None,
) -> Any:
    """Plot precision against recall.

    Parameters
    ----------
    curve : PRCurve
        From :func:`cwlkit.measures.curves.pr_curve`.
    topics : sequence of str, optional
        Topics whose curves to draw: the measured points (precision and recall after each
        rank, dots) and the interpolated precision at ``curve.levels`` (a step line).
    mean : bool
        Draw the interpolated curve averaged over all topics (the lecture's averaged 11-point
        curve).
    measured : bool
        With ``topics``, also draw each rank's (recall, precision) point.
    ax : matplotlib.axes.Axes, optional
        Where to draw; a new figure when omitted.

    Returns
    -------
    matplotlib.axes.Axes
    """
    ax = _axes(ax)
    for row in _rows(curve.topics, topics):
        name = str(curve.topics[row])
        line = ax.plot(
            curve.levels,
            curve.interpolated[row],
            marker="o",
            markersize=3,
            label=f"{name} (interpolated)",
        )
        if measured:
            ok = ~np.isnan(curve.precision[row])
            ax.plot(
                curve.recall[row][ok],
                curve.precision[row][ok],
                linestyle="none",
                marker=".",
                color=line[0].get_color(),
                alpha=0.6,
                label=f"{name} (measured)",
            )
    if mean:
        ax.plot(
            curve.levels,
            curve.mean_interpolated,
            color="black",
            marker="o",
            markersize=4,
            label=f"mean over {curve.interpolated.shape[0]} topics",
        )
    ax.set_xlabel("recall")
    ax.set_ylabel("precision")
    ax.set_xlim(0.0, 1.0)
    ax.set_ylim(0.0, 1.05)
    ax.set_title("Precision-recall")
    if ax.get_legend_handles_labels()[0]:
        ax.legend(loc="best", fontsize="small")
    return ax


def plot_roc(
    curve: ROCCurve,
    *,
    topics: Sequence[str] | None = None,
    ax: Any = None,
) -> Any:
    """Plot ROC curves (TPR against FPR) with their area in the legend.

    Each curve starts at (0, 0), follows the run's ranks and is closed by a straight segment to
    (1, 1) (the unretrieved documents in random order, see
    :func:`cwlkit.measures.curves.roc_curve`). The diagonal is a random ranking.

    Parameters
    ----------
    curve : ROCCurve
    topics : sequence of str, optional
        Topics to draw; default every topic where the curve is defined, up to 10.
    ax : matplotlib.axes.Axes, optional
        Where to draw; a new figure when omitted.

    Returns
    -------
    matplotlib.axes.Axes
    """
    ax = _axes(ax)
    rows = (
        _rows(curve.topics, topics)
        if topics is not None
        else [int(i) for i in np.flatnonzero(~np.isnan(curve.auc))[:10]]
    )
    for row in rows:
        x, y = roc_points(curve, row)
        ax.plot(x, y, label=f"{curve.topics[row]} (AUC {curve.auc[row]:.3f})")
    ax.plot([0, 1], [0, 1], color="grey", linestyle=":", linewidth=1)
    ax.set_xlabel("false positive rate (fall-out)")
    ax.set_ylabel("true positive rate (recall)")
    ax.set_xlim(0.0, 1.0)
    ax.set_ylim(0.0, 1.0)
    ax.set_title("ROC")
    if rows:
        ax.legend(loc="lower right", fontsize="small")
    return ax


def roc_points(curve: ROCCurve, row: int) -> tuple[np.ndarray, np.ndarray]:
    """The (FPR, TPR) polyline of one topic: (0, 0), each rank, then (1, 1)."""
    ok = ~(np.isnan(curve.fpr[row]) | np.isnan(curve.tpr[row]))
    x = np.concatenate(([0.0], curve.fpr[row][ok], [1.0]))
    y = np.concatenate(([0.0], curve.tpr[row][ok], [1.0]))
    return x, y
