"""Figures without pyplot, and saving them as PNG or SVG."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Literal

from ..errors import CwlkitError

#: what ``save`` writes, by file extension
FORMATS = (".png", ".svg")
NEEDS = "plotting needs matplotlib: pip install 'cwlkit[plot]'"


def require_matplotlib() -> Any:
    """matplotlib, or a one-line CwlkitError naming the extra when it is missing."""
    try:
        import matplotlib
    except ImportError:
        raise CwlkitError(NEEDS) from None
    return matplotlib


def figure(
    width: float,
    height: float,
    nrows: int = 1,
    ncols: int = 1,
    *,
    layout: Literal["constrained", "compressed"] = "constrained",
    **kw: Any,
):
    """A Figure (no pyplot: no global state, no window) and its 2-D array of axes;
    ``layout`` is matplotlib's layout engine (``"compressed"`` for panes of a fixed aspect,
    such as heat maps)."""
    try:
        from matplotlib.figure import Figure
    except ImportError:
        raise CwlkitError(NEEDS) from None
    fig = Figure(figsize=(width, height), layout=layout)
    axes = fig.subplots(nrows, ncols, squeeze=False, **kw)
    return fig, axes


def check_path(path: str | Path) -> str:
    """The format of ``path`` from its extension (``png`` or ``svg``), or a CwlkitError."""
    ext = Path(str(path)).suffix.lower()
    if ext not in FORMATS:
        raise CwlkitError(
            f"{path}: write the figure as .png or .svg (got {ext or 'no extension'!r})"
        )
    return ext[1:]


def save(fig: Any, path: str | Path, *, dpi: int = 150) -> None:
    """Write ``fig`` to ``path`` (.png or .svg); SVG without a date, text as text."""
    fmt = check_path(path)
    import matplotlib

    try:
        if fmt == "svg":
            with matplotlib.rc_context({"svg.fonttype": "none", "svg.hashsalt": "cwlkit"}):
                fig.savefig(str(path), format="svg", metadata={"Date": None})
        else:
            fig.savefig(str(path), format="png", dpi=dpi)
    except OSError as exc:
        raise CwlkitError(f"{path}: cannot write the figure ({exc.strerror or exc})") from None
