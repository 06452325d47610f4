"""The plots of a comparison report, and SVG text to inline them in an HTML page.

- :func:`plot_topic_differences`: per-topic differences of a run against the baseline on one
  measure, sorted (the "win/loss" bars of many IR papers);
- :func:`plot_distributions`: box or violin plots of each run's per-topic scores;
- :func:`plot_pr_curves`: each run's 11-point interpolated precision-recall curve, averaged
  over topics;
- :func:`plot_expected_depth`: the C/W/L expected depth ``ED`` of each run and metric;
- :func:`report_figures`: every figure of a report's HTML page, from its
  :class:`~cwlkit.stats.ReportTable` (panels in rows with no empty cell: a short last row is
  centred; the box plots of measures in [0, 1] share the y range 0-1);
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
    """Run names (file names, for paths) without the first and last dot-separated parts they
    all share (``web2012.ql.cata.run`` -> ``ql.cata``; a ``.gz`` they all end with goes
    first: ``web2012.ql.cata.run.gz`` -> ``ql.cata``), when what remains is distinct and
    non-empty."""
    names = [str(r) for r in runs]
    base = [n.rsplit("/", 1)[-1] for n in names]  # (paths: their file names, when distinct)
    if any("/" in n for n in names) and len(set(base)) == len(base) and all(base):
        names = base
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
    losses red, ties a grey tick. Topic ids label the bars when there are at most 60; the x
    axis says the bars are the topics sorted by the difference."""
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
        ax.set_xlabel("topic, sorted by the difference", fontsize=8)
    else:
        ax.set_xticks([])
        ax.set_xlabel(f"{ds.size} topics, sorted by the difference", fontsize=8)
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
    rotation: float = 30,
) -> Any:
    """Box (``kind="box"``) or violin plots of ``scores[R, n]``, one per run, with the mean
    as a white diamond; the run names below, turned by ``rotation`` degrees."""
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
    if rotation:  # the name's end at the tick, turned about it
        ax.set_xticks(pos, list(runs), fontsize=7)
        ax.tick_params(axis="x", labelrotation=rotation)
        for lab in ax.get_xticklabels():
            lab.set(ha="right", va="center" if rotation == 90 else "top", rotation_mode="anchor")
    else:
        ax.set_xticks(pos, list(runs), fontsize=7)
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


def panel_figure(
    n: int,
    ncols: int,
    panel: tuple[float, float],
    *,
    margins: tuple[float, float, float, float],
    gaps: tuple[float, float],
    sharey: bool = False,
) -> tuple[Any, list[Any]]:
    """A Figure of ``n`` panes of ``panel = (width, height)`` inches, ``ncols`` a row, and
    the list of its axes: the figure is just big enough (``margins`` (left, right, top,
    bottom) and ``gaps`` (between columns, between rows) in inches), and a last row with
    fewer panes is centred, so that no cell of the grid is left empty. No layout engine:
    each figure is drawn once."""
    try:
        from matplotlib.figure import Figure
    except ImportError:
        raise CwlkitError("report plots need matplotlib: pip install 'cwlkit[report]'") from None
    ncols = max(1, min(int(ncols), n))
    nrows = -(-n // ncols)
    (pw, ph), (left, right, top, bottom), (wgap, hgap) = panel, margins, gaps
    width = left + ncols * pw + (ncols - 1) * wgap + right
    height = top + nrows * ph + (nrows - 1) * hgap + bottom
    fig = Figure(figsize=(width, height))
    axes: list[Any] = []
    for k in range(n):
        r, c = divmod(k, ncols)
        shift = (ncols - min(ncols, n - r * ncols)) * (pw + wgap) / 2.0
        x0 = left + shift + c * (pw + wgap)
        y0 = height - top - (r + 1) * ph - r * hgap
        rect = (x0 / width, y0 / height, pw / width, ph / height)
        axes.append(fig.add_axes(rect, sharey=axes[0] if sharey and axes else None))
    return fig, axes


#: the y range of box and violin plots of measures whose scores all lie in [0, 1]
UNIT_RANGE = (-0.03, 1.03)


def _name_inches(names: Sequence[str], fontsize: float) -> float:
    """About how long the longest of ``names`` is at ``fontsize`` points (inches)."""
    return 0.6 * fontsize / 72.0 * max((len(str(n)) for n in names), default=0)


def report_figures(
    table: Any,
    *,
    levels: Any = None,
    pr_curves: dict[str, Any] | None = None,
    distribution: str = "box",
) -> list[tuple[str, str, Any]]:
    """``(heading, caption, Figure)`` of each plot of a report's page.

    - per measure, the sorted per-topic differences of each run against the baseline (the
      first run without one), one pane per run, the x axis labelled;
    - the per-topic scores of every run, a box (or violin) plot per measure; measures whose
      scores all lie in [0, 1] share the y range :data:`UNIT_RANGE`;
    - each run's 11-point interpolated precision-recall curve (with ``pr_curves``);
    - the C/W/L expected depth of each run and metric (when the table has C/W/L metrics).

    Runs are named by ``table.runs`` (the report's names). Panes are laid out by
    :func:`panel_figure`: no empty cell.
    """
    t = table
    runs = list(t.runs)
    b = t.base_index
    out: list[tuple[str, str, Any]] = []
    others = [i for i in range(len(runs)) if i != b]
    labelled = len(others) <= 2 and len(t.topics) <= 60
    below = 0.45 + (0.4 if labelled else 0.0)  # the x label (and the rotated topic ids)
    # topic ids at 6 pt, turned upright: about 0.11 in a bar
    wide = max(3.4, 0.11 * len(t.topics) + 0.3) if labelled else 3.4
    for j, m in enumerate(t.measures):
        fig, axes = panel_figure(
            len(others),
            3,
            (wide, 1.9),
            margins=(0.75, 0.2, 0.35, below),
            gaps=(0.75, 0.35 + below),
            sharey=True,
        )
        for a, i in zip(axes, others, strict=True):
            d = t.scores[i, j] - t.scores[b, j]
            plot_topic_differences(
                d,
                t.topics,
                title=f"{runs[i]}: {t.wins[i, j]}/{t.ties[i, j]}/{t.losses[i, j]}",
                ylabel=f"Δ {m}",
                ax=a,
                label_topics=labelled,
            )
            a.tick_params(axis="y", labelleft=True)
        out.append(
            (
                f"Per-topic differences against {t.baseline}: {m}",
                "Each bar is one topic's score minus the baseline's, sorted; green: the run "
                "wins the topic, red: it loses, grey: a tie. Titles give wins/ties/losses.",
                fig,
            )
        )
    M = len(t.measures)
    # run names level when each fits under its box, else upright
    pw = max(3.0, 0.5 * len(runs) + 0.8)
    long = _name_inches(runs, 7)
    upright = long + 0.1 > 0.9 * pw / len(runs)
    names_high = (long if upright else 0.1) + 0.2
    fig, axes = panel_figure(
        M,
        M if M <= 3 else 2 if M == 4 else 3,  # one row up to 3; 2 x 2; rows of 3
        (pw, 2.6),
        margins=(0.75, 0.2, 0.35, names_high + 0.1),
        gaps=(0.75, names_high + 0.45),
    )
    for j, a in enumerate(axes):
        plot_distributions(
            t.scores[:, j, :],
            runs,
            kind=distribution,
            title=t.measures[j],
            ax=a,
            rotation=90 if upright else 0,
        )
        s = t.scores[:, j, :]
        if np.all((s >= 0.0) & (s <= 1.0)):
            a.set_ylim(*UNIT_RANGE)
    out.append(
        (
            "Per-topic scores",
            f"{'Box' if distribution == 'box' else 'Violin'} plots of each run's per-topic "
            "scores; the white diamond is the mean.",
            fig,
        )
    )
    if pr_curves and levels is not None:
        fig, axes2 = new_figure(6.0, 4.2)
        plot_pr_curves(levels, {r: pr_curves[r] for r in runs}, ax=axes2[0, 0])
        out.append(
            (
                "Precision-recall",
                "Interpolated precision at the 11 recall levels 0.0, 0.1, ..., 1.0, averaged "
                "over the report's topics (relevant: qrels label ≥ 1).",
                fig,
            )
        )
    if t.has_cwl:
        cols = [j for j in range(len(t.measures)) if np.isfinite(t.expected_depth[:, j]).all()]
        legend = 0.85 * _name_inches(runs, 7) + 0.55  # the legend right of the axes
        fig, axes2 = new_figure(
            max(4.0, 1.2 * len(cols) + 1.5) + legend,
            3.6,
            margins=(0.7, legend + 0.2, 0.4, 0.45),
        )
        plot_expected_depth(
            t.expected_depth[:, cols], runs, [t.measures[j] for j in cols], ax=axes2[0, 0]
        )
        out.append(
            (
                "C/W/L expected depth",
                "The mean expected depth ED (documents a user of the metric's model examines) "
                "of each run and C/W/L metric.",
                fig,
            )
        )
    return out


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
