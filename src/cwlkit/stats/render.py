"""Rendering helpers shared by the compare / correlate / fit command lines.

Tables come as a header and rows of cells (str, int, float, bool or None) and are rendered
as aligned text, TSV or CSV (full precision, ``nan``/``inf`` spelled out), GitHub Markdown
or a LaTeX booktabs ``tabular`` (cells already formatted, escaped here); JSON
documents get non-finite floats as the strings ``"nan"``, ``"inf"``, ``"-inf"``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

Cell = Any


def fmt_num(v: Cell, digits: int = 4, signed: bool = False) -> str:
    """A number for people: fixed ``digits`` decimals (``+`` sign if ``signed``)."""
    if v is None:
        return "-"
    if isinstance(v, bool):
        return "yes" if v else "no"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        if math.isnan(v):
            return "nan"
        if math.isinf(v):
            return "inf" if v > 0 else "-inf"
        return f"{v:+.{digits}f}" if signed else f"{v:.{digits}f}"
    return str(v)


def fmt_p(p: float | None) -> str:
    """A p-value for people: 4 decimals, or scientific notation below 0.0001."""
    if p is None or math.isnan(p):
        return "nan"
    if p == 0.0:
        return "0"
    return f"{p:.4f}" if p >= 1e-4 else f"{p:.1e}"


def fmt_exact(v: Cell) -> str:
    """A cell for machines: shortest round-trip float, ``nan``, ``inf``, ``true``/``false``."""
    if v is None:
        return ""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, float):
        if math.isnan(v):
            return "nan"
        if math.isinf(v):
            return "inf" if v > 0 else "-inf"
        return repr(v)
    return str(v)


def table_text(
    header: Sequence[str], rows: Sequence[Sequence[str]], right: Sequence[bool] | None = None
) -> str:
    """Aligned plain-text table (cells already formatted)."""
    cols = len(header)
    widths = [max([len(header[i])] + [len(r[i]) for r in rows]) for i in range(cols)]
    right = right or [False] * cols

    def line(cells: Sequence[str]) -> str:
        parts = [
            c.rjust(w) if r else c.ljust(w) for c, w, r in zip(cells, widths, right, strict=True)
        ]
        return "  ".join(parts).rstrip()

    return "\n".join([line(header)] + [line(r) for r in rows]) + "\n"


def table_tsv(header: Sequence[str], rows: Sequence[Sequence[Cell]]) -> str:
    """Tab-separated values with a header line; cells via :func:`fmt_exact`."""
    lines = ["\t".join(header)] + ["\t".join(fmt_exact(c) for c in r) for r in rows]
    return "\n".join(lines) + "\n"


def table_csv(header: Sequence[str], rows: Sequence[Sequence[Cell]]) -> str:
    """Comma-separated values (RFC 4180 quoting) with a header line; cells via
    :func:`fmt_exact`."""
    import csv
    import io

    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(header)
    w.writerows([[fmt_exact(c) for c in r] for r in rows])
    return buf.getvalue()


_TEX = {
    "\\": r"\textbackslash{}",
    "&": r"\&",
    "%": r"\%",
    "$": r"\$",
    "#": r"\#",
    "_": r"\_",
    "{": r"\{",
    "}": r"\}",
    "~": r"\textasciitilde{}",
    "^": r"\textasciicircum{}",
}


def tex_escape(text: str) -> str:
    """``text`` with LaTeX's special characters escaped (``_`` as ``\\_``...)."""
    return "".join(_TEX.get(c, c) for c in str(text))


def table_latex(
    header: Sequence[str], rows: Sequence[Sequence[str]], right: Sequence[bool] | None = None
) -> str:
    """A booktabs ``tabular`` (``\\usepackage{booktabs}``; cells already formatted, escaped
    here): ``r`` columns where ``right``, else ``l``."""
    right = right or [False] * len(header)
    spec = "".join("r" if r else "l" for r in right)
    out = [f"\\begin{{tabular}}{{{spec}}}", "\\toprule"]
    out.append(" & ".join(tex_escape(h) for h in header) + " \\\\")
    out.append("\\midrule")
    out += [" & ".join(tex_escape(c) for c in r) + " \\\\" for r in rows]
    out += ["\\bottomrule", "\\end{tabular}"]
    return "\n".join(out) + "\n"


def _md_escape(s: str) -> str:
    return s.replace("|", "\\|")


def table_markdown(
    header: Sequence[str], rows: Sequence[Sequence[str]], right: Sequence[bool] | None = None
) -> str:
    """A GitHub-flavoured Markdown table (cells already formatted)."""
    right = right or [False] * len(header)
    out = [
        "| " + " | ".join(_md_escape(h) for h in header) + " |",
        "|" + "|".join("---:" if r else "---" for r in right) + "|",
    ]
    out += ["| " + " | ".join(_md_escape(c) for c in r) + " |" for r in rows]
    return "\n".join(out) + "\n"


def dump_json(doc: Any) -> str:
    """``doc`` as indented strict JSON text: NaN as ``null``, infinities as ``"inf"`` and
    ``"-inf"`` (:func:`cwlkit.support.jsontext.json_safe`)."""
    from ..support.jsontext import dumps

    return dumps(doc, indent=2) + "\n"
