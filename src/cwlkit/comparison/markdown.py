"""The comparison report as a GitHub-flavoured Markdown table (for READMEs and issues).

One row per run; per measure the mean with its marks (bold for the best), the relative
change and the wins/ties/losses against the baseline; the legend follows the table.
Pairwise letters are ``<sup>`` (GitHub renders them), baseline marks ▲/▼.
"""

from __future__ import annotations

import re
from typing import Any

_SPECIAL = re.compile(r"([\\`*_{}\[\]<>|#])")


def md_escape(text: str) -> str:
    """Escape Markdown's special characters in a run or measure name."""
    return _SPECIAL.sub(r"\\\1", str(text))


def _grid(t: Any, markup: bool, named_baseline: bool) -> tuple[list[str], list[list[str]]]:
    """Header and rows of the table (``markup``: Markdown's escapes, bold and ``<sup>``);
    the baseline's row is tagged only when one was named (``named_baseline``)."""
    from ..stats.report import fmt_relative

    esc = md_escape if markup else str
    b = t.base_index
    head = ["Run"]
    for m in t.measures:
        head += [esc(m), "Δ%", "W/T/L"]
    rows = []
    best = [set(t.best(j)) for j in range(len(t.measures))]
    for i, run in enumerate(t.runs):
        name = esc(run)
        if t.pairwise:
            name = f"({t.letters[i]}) {name}"
        if i == b and named_baseline:
            name += " (baseline)" if not t.pairwise else " (reference)"
        cells = [name]
        for j in range(len(t.measures)):
            v = f"{t.mean[i, j]:.4f}"
            if i in best[j]:
                v = f"**{v}**" if markup else f"{v}*"
            marks = t.marks(i, j)
            if marks:
                v += f"<sup>{marks}</sup>" if t.pairwise and markup else f" {marks}"
            if i == b:
                cells += [v, "", ""]
            else:
                wtl = f"{t.wins[i, j]}/{t.ties[i, j]}/{t.losses[i, j]}"
                cells += [v, fmt_relative(float(t.relative[i, j])), wtl]
        rows.append(cells)
    return head, rows


def render_markdown(t: Any, *, title: str | None = None, named_baseline: bool | None = None) -> str:
    """``t``: a :class:`cwlkit.stats.ReportTable`; ``named_baseline``: tag the baseline's
    row (default: when the marks are against it)."""
    head, rows = _grid(t, True, not t.pairwise if named_baseline is None else named_baseline)
    align = ["---"] + ["---:", "---:", ":---:"] * len(t.measures)
    out = []
    if title:
        out += [f"**{md_escape(title)}**", ""]
    out.append("| " + " | ".join(head) + " |")
    out.append("|" + "|".join(align) + "|")
    out += ["| " + " | ".join(r) + " |" for r in rows]
    out.append("")
    out += [f"- {md_escape_legend(s)}" for s in t.legend(interval=False, effect=False)]
    if t.risk:
        head, rows = t.risk_rows()
        out += ["", md_escape_legend(t.risk_title()), ""]
        out.append("| " + " | ".join(head) + " |")
        out.append("|---|---|" + "---:|" * (len(head) - 2))
        out += ["| " + " | ".join(md_escape(c) for c in r) + " |" for r in rows]
    return "\n".join(out) + "\n"


def render_text(t: Any, *, title: str | None = None, named_baseline: bool | None = None) -> str:
    """``t``: a :class:`cwlkit.stats.ReportTable`, as aligned plain text (the Markdown
    table's cells without markup: ``*`` after the best mean of each measure)."""
    from ..stats.render import table_text

    head, rows = _grid(t, False, not t.pairwise if named_baseline is None else named_baseline)
    right = [False] + [True, True, True] * len(t.measures)
    out = [f"# {title}\n"] if title else []
    out.append(table_text(head, rows, right))
    legend = [s for s in t.legend(interval=False, effect=False) if not s.startswith("Bold")]
    out += [f"# {s}\n" for s in ["*: the best mean of each measure.", *legend]]
    if t.risk:
        head, rows = t.risk_rows()
        out += ["\n", f"# {t.risk_title()}\n", table_text(head, rows, [False, False] + [True] * 7)]
    return "".join(out)


def md_escape_legend(text: str) -> str:
    """Legend sentences: escape only what would turn into markup (``*``, ``_``, ``|``)."""
    return re.sub(r"([*_|<>])", r"\\\1", text)
