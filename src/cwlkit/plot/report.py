"""The plots of a comparison report, and SVG text to inline them in an HTML page.

- :func:`plot_topic_differences`: per-topic differences of a run against the baseline on one
  measure, sorted (the "win/loss" bars of many IR papers);
- :func:`plot_distributions`: box or violin plots of each run's per-topic scores;
- :func:`plot_pr_curves`: each run's 11-point interpolated precision-recall curve, averaged
  over topics;
- :func:`plot_expected_depth`: the C/W/L expected depth ``ED`` of each run and metric;
- :func:`figure_svg`: a figure as an ``<svg>`` element with ids unique to it (several can
  share one page), text kept as text, no date or other metadata (reproducible output).

matplotlib is imported inside the functions; figures are made without pyplot (no global
state, no window). Each plotting function draws on ``ax`` (or a new figure) and returns
the ``Axes``.
"""

from __future__ import annotations

import io
import re
from collections.abc import Sequence
from typing import Any

import numpy as np

from ..errors import CwlkitError

#: colours of the runs, in order (matplotlib's tab10), cycled
PALETTE = (
    "#1f77b4",
    "#ff7f0e",
    "#2ca02c",
    "#d62728",
    "#9467bd",
    "#8c564b",
    "#e377c2",
    "#7f7f7f",
    "#bcbd22",
    "#17becf",
)
BETTER, WORSE, NEUTRAL = "#2b8a3e", "#c92a2a", "#adb5bd"


def colour(i: int) -> str:
    return PALETTE[i % len(PALETTE)]


def new_figure(
    width: float = 6.0,
    height: float = 3.5,
    nrows: int = 1,
    ncols: int = 1,
    *,
    margins: tuple[float, float, float, float] = (0.7, 0.2, 0.4, 0.45),
    wspace: float = 0.12,
    hspace: float = 0.35,
    **kw: Any,
):
    """A Figure (without pyplot) and its axes array (always 2-D).

    ``margins`` are (left, right, top, bottom) in inches; fixed margins instead of a layout
    engine, which would draw every figure twice.
    """
    try:
        from matplotlib.figure import Figure
    except ImportError:
        raise CwlkitError("report plots need matplotlib: pip install 'cwlkit[report]'") from None
    fig = Figure(figsize=(width, height))
    left, right, top, bottom = margins
    fig.subplots_adjust(
        left=left / width,
        right=1 - right / width,
        top=1 - top / height,
        bottom=bottom / height,
        wspace=wspace,
        hspace=hspace,
    )
    axes = fig.subplots(nrows, ncols, squeeze=False, **kw)
    return fig, axes


def _axes(ax: Any, width: float = 6.0, height: float = 3.5, **kw: Any) -> Any:
    return ax if ax is not None else new_figure(width, height, **kw)[1][0, 0]


def short_names(runs: Sequence[str]) -> list[str]:
    """Run names without the first and last dot-separated parts they all share
    (``web2012.ql.cata.run`` -> ``ql.cata``; a ``.gz`` they all end with goes first:
    ``web2012.ql.cata.run.gz`` -> ``ql.cata``), when what remains is distinct and non-empty."""
    names = [str(r) for r in runs]
    if len(names) < 2 or not all("." in n for n in names):
        return names
    out = list(names)
    if all(n.endswith(".gz") and "." in n[:-3] for n in out):
        out = [n[:-3] for n in out]
    pre = out[0].split(".", 1)[0] + "."
    suf = "." + out[0].rsplit(".", 1)[1]
    if all(n.startswith(pre) for n in out):
        out = [n[len(pre) :] for n in out]
    if all(n.endswith(suf) and len(n) > len(suf) for n in out):
        out = [n[: -len(suf)] for n in out]
    return out if len(set(out)) == len(out) and all(out) else names


def plot_topic_differences(
    diff: Any,
    topics: Sequence[str] | None = None,
    *,
    title: str = "",
    ylabel: str = "difference",
    ax: Any = None,
    label_topics: bool | None = None,
) -> Any:
    """Sorted bars of per-topic differences ``diff`` (run minus baseline): wins green,
    losses red, ties a grey tick. Topic ids label the bars when there are at most 60."""
    ax = _axes(ax)
    d = np.asarray(diff, dtype=np.float64)
    order = np.argsort(-d, kind="stable")
    ds = d[order]
    x = np.arange(ds.size)
    cols = [BETTER if v > 0 else WORSE if v < 0 else NEUTRAL for v in ds]
    heights = np.where(ds == 0, 0.002 * max(1e-12, float(np.abs(ds).max(initial=0))), ds)
    ax.bar(x, heights, color=cols, width=0.85, linewidth=0)
    ax.axhline(0.0, color="#495057", linewidth=0.8)
    ax.set_xlim(-0.7, ds.size - 0.3)
    show = label_topics if label_topics is not None else (topics is not None and ds.size <= 60)
    if show and topics is not None:
        ax.set_xticks(x, [str(topics[i]) for i in order], rotation=90, fontsize=6)
    else:
        ax.set_xticks([])
    ax.set_ylabel(ylabel, fontsize=8)
    ax.tick_params(axis="y", labelsize=7)
    if title:
        ax.set_title(title, fontsize=9)
    ax.grid(axis="y", linewidth=0.3, alpha=0.6)
    return ax


def plot_distributions(
    scores: Any,
    runs: Sequence[str],
    *,
    kind: str = "box",
    title: str = "",
    ylabel: str = "score",
    ax: Any = None,
) -> Any:
    """Box (``kind="box"``) or violin plots of ``scores[R, n]``, one per run, with the mean
    as a white diamond."""
    if kind not in ("box", "violin"):
        raise CwlkitError(f"kind must be 'box' or 'violin'; got {kind!r}")
    s = np.asarray(scores, dtype=np.float64)
    ax = _axes(ax, max(4.0, 0.7 * len(runs) + 1.5), 4.0, margins=(0.7, 0.2, 0.4, 1.2))
    pos = np.arange(1, len(runs) + 1)
    if kind == "box":
        parts = ax.boxplot(list(s), positions=pos, widths=0.6, patch_artist=True, showfliers=True)
        for i, box in enumerate(parts["boxes"]):
            box.set_facecolor(colour(i))
            box.set_alpha(0.55)
        for med in parts["medians"]:
            med.set_color("#212529")
    else:
        parts = ax.violinplot(list(s), positions=pos, widths=0.8, showmedians=True)
        for i, body in enumerate(parts["bodies"]):
            body.set_facecolor(colour(i))
            body.set_alpha(0.55)
        for key in ("cbars", "cmins", "cmaxes", "cmedians"):
            if key in parts:
                parts[key].set_color("#495057")
                parts[key].set_linewidth(0.8)
    ax.scatter(pos, s.mean(axis=1), marker="D", s=18, color="white", edgecolor="#212529", zorder=3)
    ax.set_xticks(pos, list(runs), rotation=30, ha="right", fontsize=7)
    ax.set_ylabel(ylabel, fontsize=8)
    ax.tick_params(axis="y", labelsize=7)
    ax.grid(axis="y", linewidth=0.3, alpha=0.6)
    if title:
        ax.set_title(title, fontsize=9)
    return ax


def plot_pr_curves(
    levels: Any,
    curves: dict[str, Any],
    *,
    title: str = "Interpolated precision-recall (11 points)",
    ax: Any = None,
) -> Any:
    """Each run's mean interpolated precision at the recall ``levels``: ``{run: [L]}``."""
    ax = _axes(ax, 5.5, 4.0)
    lv = np.asarray(levels, dtype=np.float64)
    for i, (name, prec) in enumerate(curves.items()):
        ax.plot(lv, np.asarray(prec), marker="o", markersize=3, color=colour(i), label=name)
    ax.set_xlabel("recall", fontsize=8)
    ax.set_ylabel("interpolated precision", fontsize=8)
    ax.set_xlim(0.0, 1.0)
    ax.set_ylim(0.0, 1.02)
    ax.tick_params(labelsize=7)
    ax.grid(linewidth=0.3, alpha=0.6)
    if title:
        ax.set_title(title, fontsize=9)
    ax.legend(fontsize=7, loc="upper right")
    return ax


def plot_expected_depth(
    depth: Any,
    runs: Sequence[str],
    measures: Sequence[str],
    *,
    title: str = "C/W/L expected depth (ED)",
    ax: Any = None,
) -> Any:
    """Grouped bars of ``depth[R, K]``: the mean expected depth of each run (colour) and
    C/W/L metric (group)."""
    ed = np.asarray(depth, dtype=np.float64)
    R, K = ed.shape
    ax = _axes(ax, max(4.5, 1.1 * K + 1.0) + 2.4, 3.5, margins=(0.7, 2.6, 0.4, 0.45))
    width = 0.8 / max(R, 1)
    x = np.arange(K)
    for i, name in enumerate(runs):
        ax.bar(x - 0.4 + (i + 0.5) * width, ed[i], width=width, color=colour(i), label=name)
    ax.set_xticks(x, list(measures), fontsize=7)
    ax.set_ylabel("expected depth (documents)", fontsize=8)
    ax.tick_params(axis="y", labelsize=7)
    ax.grid(axis="y", linewidth=0.3, alpha=0.6)
    if title:
        ax.set_title(title, fontsize=9)
    ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.02, 1.0), borderaxespad=0.0)
    return ax


_ID = re.compile(r'\bid="([^"]+)"')


def figure_svg(fig: Any, prefix: str) -> str:
    """``fig`` as an inline ``<svg>`` element: no XML prolog, every id prefixed with
    ``prefix`` (and every reference to it), text as text, no metadata."""
    import matplotlib

    buf = io.StringIO()
    with matplotlib.rc_context({"svg.fonttype": "none", "svg.hashsalt": prefix}):
        fig.savefig(buf, format="svg", metadata={"Date": None, "Creator": None})
    svg = buf.getvalue()
    svg = svg[svg.index("<svg") :]
    ids = set(_ID.findall(svg))
    for old in sorted(ids, key=len, reverse=True):
        new = f"{prefix}-{old}"
        svg = svg.replace(f'id="{old}"', f'id="{new}"')
        svg = svg.replace(f"url(#{old})", f"url(#{new})")
        svg = svg.replace(f'href="#{old}"', f'href="#{new}"')
    return svg
