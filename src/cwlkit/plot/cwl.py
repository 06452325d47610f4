"""The cwl_eval paper's figures (Azzopardi, Thomas and Moffat, SIGIR 2019 demo).

- :func:`plot_vectors` (their Figure 1): a metric's C, W and L vectors over the ranks of one
  or more topics; one row per metric, one column per vector, one line per topic;
- :func:`plot_sweep` (their Figure 2): how EU, ETU and ETC move with the expected depth ED as a
  metric's parameter varies over a grid; one column per grid, one row per measurement, one
  line per topic (or the mean over topics), one point per parameter value.

Both take what the API returns (:func:`cwlkit.cwl_vectors`, :class:`cwlkit.Results`) and
return a matplotlib ``Figure`` made without pyplot. Every line carries a ``gid`` naming what
it shows (``"RBP(p=0.8)|T1|C"``, ``"RBP(p=0.1:0.9:0.2)|mean|EU"``), and its data is exactly
the API's numbers, so tests can read the figure back.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from ..errors import CwlkitError
from .figures import figure

if TYPE_CHECKING:  # pragma: no cover
    from ..results import Results

VECTORS = (("C", "C(i): continue"), ("W", "W(i): attention"), ("L", "L(i): stop here"))
MEASUREMENTS = (
    ("EU", "EU: utility per document"),
    ("ETU", "ETU: total utility"),
    ("ETC", "ETC: total cost"),
)


def plot_vectors(
    vectors: Mapping[str, Mapping[str, Mapping[str, Any]]],
    *,
    ranks: int | None = None,
) -> Any:
    """Draw C, W and L over the ranks: ``vectors[metric][topic]`` is
    :func:`cwlkit.cwl_vectors` (``C``, ``W``, ``L``, ``ED``...) of that metric and topic.

    ``ranks``: draw ranks 1..ranks (default: all the ranks each vector has). Returns the
    Figure (one row per metric; columns C, W, L; one line per topic, labelled with its ED).
    """
    if not vectors:
        raise CwlkitError("no metric to plot")
    rows = list(vectors)
    fig, axes = figure(9.0, 2.3 * len(rows) + 0.4, len(rows), 3)
    for r, metric in enumerate(rows):
        for c, (key, title) in enumerate(VECTORS):
            ax = axes[r, c]
            for k, (topic, vec) in enumerate(vectors[metric].items()):
                y = np.asarray(vec[key], dtype=np.float64)
                n = y.size if ranks is None else min(int(ranks), y.size)
                ed = float(np.asarray(vec.get("ED", np.nan)))
                ax.plot(
                    np.arange(1, n + 1),
                    y[:n],
                    marker="o",
                    markersize=3,
                    linewidth=1.2,
                    color=f"C{k % 10}",
                    label=f"{topic} (ED {ed:.2f})",
                    gid=f"{metric}|{topic}|{key}",
                )
            if r == 0:
                ax.set_title(title, fontsize=9)
            if c == 0:
                ax.set_ylabel(wrap(metric), fontsize=9)
                ax.set_ylim(-0.03, 1.05)
                ax.legend(fontsize=7, loc="best")
            else:
                ax.set_ylim(bottom=0.0)
            if r == len(rows) - 1:
                ax.set_xlabel("rank i", fontsize=8)
            ax.tick_params(labelsize=7)
            ax.grid(linewidth=0.3, alpha=0.6)
    return fig


def wrap(name: str, width: int = 24) -> str:
    """A long measure name on several lines, broken after its commas."""
    lines = [""]
    for part in name.replace(",", ",\x00").split("\x00"):
        if lines[-1] and len(lines[-1]) + len(part) > width:
            lines.append("")
        lines[-1] += part
    return "\n".join(lines)


def _parameter(names: Sequence[str]) -> tuple[str, list[str]] | None:
    """The parameter that varies along ``names`` and its value at each, as written."""
    from ..measures.parse import parse_measure

    try:
        ms = [parse_measure(n) for n in names]
    except CwlkitError:
        return None
    if len(ms) < 2 or len({type(m) for m in ms}) != 1:
        return None
    for f in dataclasses.fields(ms[0]):
        vals = [getattr(m, f.name) for m in ms]
        if len(set(map(repr, vals))) > 1:
            return f.name, [format(v, "g") if isinstance(v, float) else str(v) for v in vals]
    return None


def sweep_series(
    results: Results, names: Sequence[str], topic: str | None
) -> dict[str, np.ndarray]:
    """``{"ED", "EU", "ETU", "ETC"}`` of the measures ``names`` (in order) on ``topic``, or
    their means over every topic of ``results`` when ``topic`` is None."""
    rows = [results._row(n) for n in names]
    cols: slice | int
    if topic is None:
        cols = slice(None)
    else:
        if str(topic) not in results.topics:
            raise CwlkitError(f"topic {topic!r} is not in the results")
        cols = results.topics.index(str(topic))
    out = {}
    for key in ("ED", "EU", "ETU", "ETC"):
        mat = results.values if key == "EU" else results.columns.get(key)
        if mat is None:
            raise CwlkitError(f"the results have no {key} column: evaluate C/W/L metrics")
        v = mat[rows][:, cols]
        out[key] = v.mean(axis=1) if topic is None else v
    return out


def plot_sweep(
    results: Results,
    grids: Mapping[str, Sequence[str]],
    *,
    topics: Sequence[str] | None = None,
    mean: bool | None = None,
) -> Any:
    """Draw EU, ETU and ETC against ED along each grid (the cwl_eval paper's Figure 2).

    Parameters
    ----------
    results : Results
        One run evaluated with every measure of the grids (C/W/L metrics: their ED, ETU and
        ETC columns), e.g. ``cwlkit.evaluate(qrels, run, ["RBP(p=0.1:0.9:0.1)"])``.
    grids : mapping of str to sequence of str
        Column title -> the measures of one grid, in parameter order (one point each).
    topics : sequence of str, optional
        Draw one line per topic.
    mean : bool, optional
        Also draw the mean over all topics of ``results`` (default: when no ``topics``).

    Returns
    -------
    matplotlib.figure.Figure
        Rows EU, ETU, ETC; one column per grid; points joined in grid order, the first
        marked with a triangle and the last with a square, whose parameter values the
        column's title gives (no text on the lines); the series (topics, mean) in a legend
        below the panes. Points with an infinite ED are left out.
    """
    if not grids:
        raise CwlkitError("no grid to plot")
    series: list[str | None] = [str(t) for t in (topics or [])]
    if mean or (mean is None and not series):
        series.append(None)
    cols = list(grids)
    fig, axes = figure(3.2 * len(cols) + 0.4, 7.2, 3, len(cols), sharex="col")
    for c, title in enumerate(cols):
        names = list(grids[title])
        par = _parameter(names)
        for k, topic in enumerate(series):
            data = sweep_series(results, names, topic)
            x = data["ED"]
            ok = np.isfinite(x)
            label = f"mean of {len(results.topics)} topics" if topic is None else topic
            color = "black" if topic is None else f"C{k % 10}"
            for r, (key, ylabel) in enumerate(MEASUREMENTS):
                ax = axes[r, c]
                y = data[key]
                ax.plot(
                    x[ok],
                    y[ok],
                    marker="o",
                    markersize=3,
                    linewidth=1.0,
                    color=color,
                    label=label,
                    gid=f"{title}|{topic or 'mean'}|{key}",
                )
                if par is not None and ok.any():
                    idx = np.flatnonzero(ok)
                    for i, shape in ((int(idx[0]), "^"), (int(idx[-1]), "s")):
                        ax.plot(
                            x[i],
                            y[i],
                            linestyle="none",
                            marker=shape,
                            markersize=6,
                            markerfacecolor="none",
                            color=color,
                            label="_nolegend_",
                        )
                ax.margins(x=0.05, y=0.08)
                if c == 0:
                    ax.set_ylabel(ylabel, fontsize=8)
                if r == 0:
                    ends = (
                        ""
                        if par is None
                        else f"\n\u25b3 {par[0]}={par[1][0]}   \u25a1 {par[0]}={par[1][-1]}"
                    )
                    ax.set_title(wrap(title, 40) + ends, fontsize=9)
                if r == len(MEASUREMENTS) - 1:
                    ax.set_xlabel("ED: expected depth", fontsize=8)
                ax.tick_params(labelsize=7)
                ax.grid(linewidth=0.3, alpha=0.6)
    handles, labels = axes[0, 0].get_legend_handles_labels()
    fig.legend(
        handles,
        labels,
        loc="outside lower center",
        ncols=max(1, min(len(handles), int(fig.get_figwidth() // 1.6))),
        fontsize=7,
        frameon=False,
    )
    return fig
