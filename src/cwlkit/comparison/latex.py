"""The comparison report as a LaTeX booktabs table, as ranx prints it.

One row per run and one column per measure: the mean, in bold where it is the best of the
measure, with the significance marks as superscripts (the letters of the runs it is
significantly better than, or ↑/↓ against a baseline), and a ``\\caption`` naming the test,
the correction and alpha. Needs ``\\usepackage{booktabs}``; nothing else.
"""

from __future__ import annotations

from typing import Any

from ..stats.render import tex_escape


def caption(t: Any) -> str:
    """The caption: topics, the marks, the test, correction and alpha (LaTeX)."""
    from ..stats.report import CORRECTION_NAMES, TEST_NAMES

    test = TEST_NAMES.get(t.test, t.test)
    if t.samples is not None:
        test += f" ({t.samples} samples, seed {t.seed})"
    if t.test == "tukey":
        corr = "p-values adjusted for every pair of runs of a measure"
    else:
        corr = CORRECTION_NAMES.get(t.correction, f"{t.correction} correction")
    alpha = rf"$\alpha = {t.alpha:g}$"
    if t.pairwise:
        marks = "Superscripts: the run is significantly better than the runs with those letters"
    else:
        marks = (
            r"$\uparrow$ / $\downarrow$: significantly better / worse than the baseline "
            + tex_escape(t.baseline)
        )
    return (
        f"Mean scores over the {len(t.topics)} topics every run has; bold: the best of each "
        f"measure. {marks} (two-sided {tex_escape(test)}, {tex_escape(corr)}, {alpha})."
    )


def render_latex(t: Any, *, label: str = "tab:results", named_baseline: bool | None = None) -> str:
    """``t``: a :class:`cwlkit.stats.ReportTable`; ``named_baseline``: tag the baseline's
    row (default: when the marks are against it)."""
    named = not t.pairwise if named_baseline is None else named_baseline
    M = len(t.measures)
    b = t.base_index
    lead = "cl" if t.pairwise else "l"
    lines = [
        r"% \usepackage{booktabs}",
        r"\begin{table}[htbp]",
        r"  \centering",
        rf"  \caption{{{caption(t)}}}",
        rf"  \label{{{tex_escape(label)}}}",
        rf"  \begin{{tabular}}{{{lead}{'r' * M}}}",
        r"    \toprule",
    ]
    head = (["\\#"] if t.pairwise else []) + ["Run"] + [tex_escape(m) for m in t.measures]
    lines.append("    " + " & ".join(head) + r" \\")
    lines.append(r"    \midrule")
    best = [set(t.best(j)) for j in range(M)]
    for i, run in enumerate(t.runs):
        name = tex_escape(run)
        if i == b and named:
            name += " (baseline)" if not t.pairwise else " (reference)"
        cells = ([t.letters[i]] if t.pairwise else []) + [name]
        for j in range(M):
            v = f"{t.mean[i, j]:.4f}"
            if i in best[j]:
                v = rf"\textbf{{{v}}}"
            marks = t.marks(i, j)
            if marks and t.pairwise:
                v += f"$^{{{marks}}}$"
            elif marks:
                v += r"$^{\uparrow}$" if t.delta[i, j] > 0 else r"$^{\downarrow}$"
            cells.append(v)
        lines.append("    " + " & ".join(cells) + r" \\")
    lines += [r"    \bottomrule", r"  \end{tabular}", r"\end{table}", ""]
    return "\n".join(lines)
