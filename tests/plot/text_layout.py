"""A figure's text, checked the way a reader sees it: no two text boxes overlap, none is cut
off by the figure's edge.

:func:`text_boxes` draws the figure with matplotlib's Agg renderer and returns the window
extent (pixels) of every text artist that is drawn: titles, axis labels, tick labels (only
the ticks inside the axes' view, the ones matplotlib draws), offset texts, legend entries
and titles, figure titles, free texts (``ax.text``, e.g. the matrix's cell values) and the
colour bars' labels. :func:`assert_text_layout` asserts that

- no two of these boxes intersect by more than ``tol`` pixels in both directions (tick labels
  running together, a title on the tick labels of the panes above, a legend on an axis
  label...);
- every box lies inside the figure (``fig.bbox``) within ``tol`` pixels (a clipped title, a
  tick label past the edge).

It is a test helper (imported by the tests of ``tests/plot``): the figures of ``cwlkit plot``
and of the report are drawn and checked with it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np


@dataclass(frozen=True)
class TextBox:
    """One drawn text: what it is (``"ax2 xtick"``...), its string and its extent (pixels)."""

    kind: str
    text: str
    x0: float
    y0: float
    x1: float
    y1: float

    def __str__(self) -> str:
        return (
            f"{self.kind} {self.text!r} [{self.x0:.1f}, {self.x1:.1f}] x "
            f"[{self.y0:.1f}, {self.y1:.1f}]"
        )


def _renderer(fig: Any, dpi: float) -> Any:
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    if not isinstance(fig.canvas, FigureCanvasAgg):
        FigureCanvasAgg(fig)
    fig.set_dpi(dpi)  # the layout engine's result depends on it: check at the saved dpi
    fig.canvas.draw()  # the layout engine runs and the tick labels are set
    return fig.canvas.get_renderer()


def _inside_view(axis: Any, loc: float) -> bool:
    lo, hi = sorted(axis.get_view_interval())
    eps = 1e-9 * max(1.0, abs(hi - lo))
    return bool(lo - eps <= loc <= hi + eps)


def _texts(fig: Any) -> list[tuple[str, Any]]:
    """(kind, Text) of every text artist the figure draws."""
    out: list[tuple[str, Any]] = []
    for k, ax in enumerate(fig.axes):
        if not ax.get_visible():
            continue
        name = f"ax{k}"
        for t in (ax.title, getattr(ax, "_left_title", None), getattr(ax, "_right_title", None)):
            if t is not None:
                out.append((f"{name} title", t))
        for axis, letter in ((ax.xaxis, "x"), (ax.yaxis, "y")):
            if not axis.get_visible():
                continue
            out.append((f"{name} {letter}label", axis.label))
            out.append((f"{name} {letter}offset", axis.get_offset_text()))
            for tick in axis.get_major_ticks() + axis.get_minor_ticks():
                if not _inside_view(axis, tick.get_loc()):
                    continue
                for lab in (tick.label1, tick.label2):
                    out.append((f"{name} {letter}tick", lab))
        for t in ax.texts:
            out.append((f"{name} text", t))
        legend = ax.get_legend()
        if legend is not None:
            out += [(f"{name} legend", t) for t in legend.get_texts()]
            out.append((f"{name} legend title", legend.get_title()))
    for legend in fig.legends:
        out += [("figure legend", t) for t in legend.get_texts()]
        out.append(("figure legend title", legend.get_title()))
    for t in fig.texts:
        out.append(("figure text", t))
    for attr in ("_suptitle", "_supxlabel", "_supylabel"):
        t = getattr(fig, attr, None)
        if t is not None:
            out.append((f"figure {attr[1:]}", t))
    return out


#: the dpi figures are checked at: ``cwlkit plot``'s default (150) and matplotlib's (100)
DPIS = (150, 100)


def text_boxes(fig: Any, dpi: float = DPIS[0]) -> list[TextBox]:
    """The extent (pixels, Agg at ``dpi``) of every visible, non-empty text the figure
    draws."""
    renderer = _renderer(fig, dpi)
    boxes = []
    for kind, t in _texts(fig):
        if not t.get_visible() or not t.get_text().strip():
            continue
        e = t.get_window_extent(renderer)
        if not np.all(np.isfinite(e.get_points())):
            continue
        boxes.append(TextBox(kind, t.get_text(), e.x0, e.y0, e.x1, e.y1))
    return boxes


def overlaps(boxes: list[TextBox], tol: float = 0.5) -> list[tuple[TextBox, TextBox]]:
    """Pairs of boxes that intersect by more than ``tol`` pixels in both directions."""
    if not boxes:
        return []
    a = np.array([[b.x0, b.y0, b.x1, b.y1] for b in boxes])
    w = np.minimum(a[:, None, 2], a[None, :, 2]) - np.maximum(a[:, None, 0], a[None, :, 0])
    h = np.minimum(a[:, None, 3], a[None, :, 3]) - np.maximum(a[:, None, 1], a[None, :, 1])
    hit = np.triu((w > tol) & (h > tol), k=1)
    return [(boxes[i], boxes[j]) for i, j in zip(*np.nonzero(hit), strict=True)]


def clipped(fig: Any, boxes: list[TextBox], tol: float = 0.5) -> list[TextBox]:
    """Boxes that reach past the figure's edge by more than ``tol`` pixels."""
    f = fig.bbox
    return [
        b
        for b in boxes
        if b.x0 < f.x0 - tol or b.y0 < f.y0 - tol or b.x1 > f.x1 + tol or b.y1 > f.y1 + tol
    ]


def layout_problems(fig: Any, tol: float = 0.5, dpis: tuple[float, ...] = DPIS) -> list[str]:
    """Each overlap and each clipped text at each of ``dpis``, one line each (empty: the
    figure is clean)."""
    out = []
    for dpi in dpis:
        boxes = text_boxes(fig, dpi)
        size = f"{fig.bbox.x1:.0f} x {fig.bbox.y1:.0f} px at dpi {dpi:g}"
        out += [f"overlap ({size}): {a}  /  {b}" for a, b in overlaps(boxes, tol)]
        out += [f"clipped ({size}): {b}" for b in clipped(fig, boxes, tol)]
    return out


def assert_text_layout(fig: Any, tol: float = 0.5, dpis: tuple[float, ...] = DPIS) -> None:
    """Fail, listing the problems, when two texts overlap or one is cut off."""
    problems = layout_problems(fig, tol, dpis)
    assert not problems, f"{len(problems)} text layout problem(s):\n" + "\n".join(problems[:40])
