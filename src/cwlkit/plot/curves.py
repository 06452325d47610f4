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
        rank, dots) and the interpolated precision, a step function through the measured
        recalls (:func:`interpolated_steps`), with its values at ``curve.levels`` marked.
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
        x, y = interpolated_steps(curve, row)
        line = ax.plot(x, y, drawstyle="steps-pre", label=f"{name} (interpolated)")
        colour = line[0].get_color()
        ax.plot(
            curve.levels,
            curve.interpolated[row],
            linestyle="none",
            marker="o",
            markersize=3,
            color=colour,
            label="_nolegend_",
        )
        if measured:
            ok = ~np.isnan(curve.precision[row])
            ax.plot(
                curve.recall[row][ok],
                curve.precision[row][ok],
                linestyle="none",
                marker=".",
                color=colour,
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


def interpolated_steps(curve: PRCurve, row: int) -> tuple[np.ndarray, np.ndarray]:
    """The interpolated precision of one topic as a step function, drawn with
    ``drawstyle="steps-pre"``.

    Interpolated precision at recall r is the largest precision measured at a recall >= r:
    ``P_interp(r) = max { P(i) : R(i) >= r }``. It is constant on each interval
    (R_(j-1), R_j] between consecutive distinct measured recalls R_1 < ... < R_m (R_0 = 0),
    at the value ``P_interp(R_j)``, so it is never below a measured point; past the last
    recall R_m (when R_m < 1) no point qualifies and it is 0 (trec_eval's convention).

    Returns
    -------
    x, y : numpy.ndarray
        ``x = [0, R_1, ..., R_m(, 1)]``, ``y = [P_interp(R_1), P_interp(R_1), ...,
        P_interp(R_m)(, 0)]``: with ``steps-pre`` the segment ending at ``x[i]`` is drawn at
        ``y[i]``. Empty arrays for a topic with no ranks.
    """
    ok = ~(np.isnan(curve.recall[row]) | np.isnan(curve.precision[row]))
    r = curve.recall[row][ok]
    p = curve.precision[row][ok]
    if r.size == 0:
        return np.zeros(0), np.zeros(0)
    best = np.maximum.accumulate(p[::-1])[::-1]  # max over the ranks from here on
    levels, first = np.unique(r, return_index=True)  # recall never decreases with rank
    value = best[first]
    x = np.concatenate(([0.0], levels))
    y = np.concatenate((value[:1], value))
    if levels[-1] < 1.0:
        x = np.append(x, 1.0)
        y = np.append(y, 0.0)
    return x, y


#: topics :func:`plot_roc` draws when none are named
ROC_DEFAULT_TOPICS = 10


def plot_roc(
    curve: ROCCurve,
    *,
    topics: Sequence[str] | None = None,
    name: str | None = None,
    ax: Any = None,
) -> Any:
    """Plot ROC curves (TPR against FPR) with their area in the legend.

    Each curve starts at (0, 0), follows the run's ranks and is closed by a straight segment to
    (1, 1) (the unretrieved documents in random order, see
    :func:`cwlkit.measures.curves.roc_curve`). The diagonal is a random ranking. The title
    gives the mean AUC and the topics it is over (every topic where the AUC is defined, not
    only those drawn); when the default picks the topics, the legend's title says so
    ("first 10 of 50 topics").

    Parameters
    ----------
    curve : ROCCurve
    topics : sequence of str, optional
        Topics to draw; default the first :data:`ROC_DEFAULT_TOPICS` (10) topics where the
        curve is defined.
    name : str, optional
        The run's name, for the title.
    ax : matplotlib.axes.Axes, optional
        Where to draw; a new figure when omitted.

    Returns
    -------
    matplotlib.axes.Axes
    """
    ax = _axes(ax)
    defined = np.flatnonzero(~np.isnan(curve.auc))
    if topics is not None:
        rows = _rows(curve.topics, topics)
        note = None
    else:
        rows = [int(i) for i in defined[:ROC_DEFAULT_TOPICS]]
        note = (
            f"first {len(rows)} of {defined.size} topics"
            if defined.size > len(rows)
            else f"all {defined.size} topics"
        )
    for row in rows:
        x, y = roc_points(curve, row)
        ax.plot(x, y, label=f"{curve.topics[row]} (AUC {curve.auc[row]:.3f})")
    ax.plot([0, 1], [0, 1], color="grey", linestyle=":", linewidth=1)
    ax.set_xlabel("false positive rate (fall-out)")
    ax.set_ylabel("true positive rate (recall)")
    ax.set_xlim(0.0, 1.0)
    ax.set_ylim(0.0, 1.0)
    s = "" if defined.size == 1 else "s"
    ax.set_title(
        f"ROC{': ' + name if name else ''}\n"
        f"mean AUC {curve.mean_auc:.3f} over {defined.size} topic{s}",
        fontsize=9,
    )
    if rows:
        ax.legend(loc="lower right", fontsize="small", title=note, title_fontsize="small")
    return ax


def roc_points(curve: ROCCurve, row: int) -> tuple[np.ndarray, np.ndarray]:
    """The (FPR, TPR) polyline of one topic: (0, 0), each rank, then (1, 1)."""
    ok = ~(np.isnan(curve.fpr[row]) | np.isnan(curve.tpr[row]))
    x = np.concatenate(([0.0], curve.fpr[row][ok], [1.0]))
    y = np.concatenate(([0.0], curve.tpr[row][ok], [1.0]))
    return x, y
