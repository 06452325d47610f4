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


def render_markdown(t: Any, *, title: str | None = None) -> str:
    """``t``: a :class:`cwlkit.stats.ReportTable`."""
    from ..stats.report import fmt_relative

    b = t.base_index
    head = ["Run"]
    align = ["---"]
    for m in t.measures:
        head += [md_escape(m), "Δ%", "W/T/L"]
        align += ["---:", "---:", ":---:"]
    rows = []
    best = [set(t.best(j)) for j in range(len(t.measures))]
    for i, run in enumerate(t.runs):
        name = md_escape(run)
        if t.pairwise:
            name = f"({t.letters[i]}) {name}"
        if i == b:
            name += " (baseline)" if not t.pairwise else " (reference)"
        cells = [name]
        for j in range(len(t.measures)):
            v = f"{t.mean[i, j]:.4f}"
            if i in best[j]:
                v = f"**{v}**"
            marks = t.marks(i, j)
            if marks:
                v += f"<sup>{marks}</sup>" if t.pairwise else f" {marks}"
            if i == b:
                cells += [v, "", ""]
            else:
                wtl = f"{t.wins[i, j]}/{t.ties[i, j]}/{t.losses[i, j]}"
                cells += [v, fmt_relative(float(t.relative[i, j])), wtl]
        rows.append(cells)
    out = []
    if title:
        out += [f"**{md_escape(title)}**", ""]
    out.append("| " + " | ".join(head) + " |")
    out.append("|" + "|".join(align) + "|")
    out += ["| " + " | ".join(r) + " |" for r in rows]
    out.append("")
    out += [f"- {md_escape_legend(s)}" for s in t.legend(interval=False, effect=False)]
    return "\n".join(out) + "\n"


def md_escape_legend(text: str) -> str:
    """Legend sentences: escape only what would turn into markup (``*``, ``_``, ``|``)."""
    return re.sub(r"([*_|<>])", r"\\\1", text)
