"""``cwlkit correlate --all-pairs``: a :class:`~cwlkit.stats.matrix.CorrelationMatrix` as text,
TSV, CSV, JSON, Markdown or LaTeX.

Text and Markdown print, per level, two square tables of the symmetric coefficients folded
into one each: Kendall's tau-b above the diagonal and the weighted tau below (the ERR paper's
Table 2 layout), then Pearson's r above and Spearman's rho below (LaTeX: a ``tabular``
each). TSV and CSV have one row per level,
coefficient and pair of measures (with p-values); JSON every full matrix with its p-values.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:  # pragma: no cover
    from ..stats.matrix import CorrelationMatrix

#: (above the diagonal, below it): the tables printed per level
FOLDS = (("kendall_tau_b", "weighted_tau"), ("pearson", "spearman"))


def _items(cm: CorrelationMatrix, level: str) -> str:
    n = cm.n(level)
    if level == "systems":
        return f"{n} runs, means over {len(cm.topics)} common topics"
    filt = f", residual of {cm.measures[0]} <= {cm.max_residual:g}" if cm.max_residual else ""
    return f"{n} (run, topic) pairs{filt}"


def format_correlation_matrix(cm: CorrelationMatrix, fmt: str = "text") -> str:
    """Render ``cm`` in ``fmt`` (one of :data:`cwlkit.formats.table.FORMATS`)."""
    from ..stats.matrix import LABELS
    from ..stats.render import (
        dump_json,
        fmt_num,
        table_csv,
        table_latex,
        table_markdown,
        table_text,
        table_tsv,
    )

    if fmt == "json":
        return dump_json(cm.to_dict())
    if fmt in ("tsv", "csv"):
        rows = []
        for level in cm.levels:
            for c in cm.values[level]:
                for i, a in enumerate(cm.measures):
                    # tau_AP is not symmetric: every ordered pair (row i the truth)
                    others = (
                        range(len(cm.measures)) if c == "tau_ap" else range(i + 1, len(cm.measures))
                    )
                    for j in (j for j in others if j != i):
                        rows.append(
                            [
                                level,
                                c,
                                a,
                                cm.measures[j],
                                float(cm.values[level][c][i, j]),
                                float(cm.p_values[level][c][i, j]),
                                cm.n(level),
                            ]
                        )
        return (table_tsv if fmt == "tsv" else table_csv)(
            ["level", "coefficient", "measure_a", "measure_b", "value", "p_value", "n"], rows
        )
    parts = []
    for level in cm.levels:
        for upper, lower in FOLDS:
            if upper not in cm.values[level] or lower not in cm.values[level]:
                continue
            mat = cm.combined(level, upper, lower)
            body = [
                [name] + ["-" if np.isnan(v) else fmt_num(float(v), 3) for v in mat[i]]
                for i, name in enumerate(cm.measures)
            ]
            header = ["", *cm.measures]
            right = [False] + [True] * len(cm.measures)
            title = (
                f"{level} ({_items(cm, level)}): {LABELS[upper]} above the diagonal, "
                f"{LABELS[lower]} below"
            )
            if fmt == "markdown":
                parts.append(f"**{title}**\n\n" + table_markdown(header, body, right))
            elif fmt == "latex":
                parts.append(f"% {title}\n" + table_latex(header, body, right))
            else:
                parts.append(f"# {title}\n" + table_text(header, body, right))
        if "tau_ap" in cm.values[level]:
            mat = np.array(cm.values[level]["tau_ap"], dtype=np.float64)
            np.fill_diagonal(mat, np.nan)
            body = [
                [name] + ["-" if np.isnan(v) else fmt_num(float(v), 3) for v in mat[i]]
                for i, name in enumerate(cm.measures)
            ]
            header = ["", *cm.measures]
            right = [False] + [True] * len(cm.measures)
            title = f"{level} ({_items(cm, level)}): {LABELS['tau_ap']}, column: estimate"
            if fmt == "markdown":
                parts.append(f"**{title}**\n\n" + table_markdown(header, body, right))
            else:
                parts.append(f"# {title}\n" + table_text(header, body, right))
    return "\n".join(parts)
