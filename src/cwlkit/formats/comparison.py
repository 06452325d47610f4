"""``cwlkit compare``'s output: a :class:`~cwlkit.stats.comparison.ComparisonTable` as text,
tsv, csv, json, markdown or LaTeX (the means, every comparison, the optional ANOVA)."""

from __future__ import annotations

from typing import Any

from .table import FORMATS

__all__ = ["FORMATS", "format_comparison"]


#: the tests' names in the heading (compare's "paired bootstrap"; the report says "test")
_TEST_NAMES = {
    "t": "paired t-test",
    "wilcoxon": "Wilcoxon signed-rank test",
    "sign": "sign test",
    "randomization": "randomization (sign-flip) test",
    "bootstrap": "paired bootstrap",
    "tukey": "Tukey's HSD",
}
_ANOVA_TITLE = "two-way ANOVA, topics x systems (score ~ system + topic)"
_RISK_TITLE = (
    "risk (alpha {alpha:g}: losses weigh {weight:g}): URisk and TRisk against {base}, "
    "ZRisk and GeoRisk over the runs"
)


def format_comparison(table: Any, fmt: str) -> str:
    """The comparison ``table`` in one of :data:`FORMATS`: json and tsv/csv hold every
    record; text, markdown and LaTeX a heading (test, corrections, alpha, topics), the means
    per run, the comparisons (difference, interval, p, adjusted p, ``*`` when significant)
    and the ANOVA tables when computed."""
    if fmt == "json":
        return _json(table)
    if fmt in ("tsv", "csv"):
        from ..stats.comparison import COLUMNS
        from ..stats.render import table_csv, table_tsv

        rows = [[r[c] for c in COLUMNS] for r in table.records]
        return (table_tsv if fmt == "tsv" else table_csv)(COLUMNS, rows)
    return _document(table, fmt)


def _json(table: Any) -> str:
    from ..stats.render import dump_json

    anova = {m: a.to_records() for m, a in table.anova.items()} if table.anova else None
    risk = {m: r.rows() for m, r in table.risk.items()} if table.risk else None
    return dump_json(
        {
            "test": table.test,
            "correction": table.correction,
            "alpha": table.alpha,
            "confidence": 1.0 - table.alpha,
            "samples": table.samples,
            "seed": table.seed,
            "topics": len(table.topics),
            "runs": table.runs,
            "measures": table.measures,
            "means": table.means_records(),
            "comparisons": table.records,
            **({"anova": anova} if anova else {}),
            **({"risk_alpha": _risk_alpha(table), "risk": risk} if risk else {}),
        }
    )


def _heading(table: Any) -> tuple[str, str]:
    """The heading line and the note on dropped topics ("" when none)."""
    n = len(table.records)
    mc = f", {table.samples} samples, seed {table.seed}" if table.samples is not None else ""
    corr = "no correction" if table.correction == "none" else f"{table.correction} correction"
    if table.test == "tukey":
        corr = "p-values adjusted for every pair of runs of a measure"
    head = (
        f"{_TEST_NAMES.get(table.test, table.test)} (two-sided{mc}); "
        f"{n} comparison{'s' if n != 1 else ''}, {corr}; "
        f"alpha {table.alpha:g}; {len(table.topics)} topics"
    )
    dropped = {k: v for k, v in table.dropped.items() if v}
    note = ""
    if dropped:
        note = "topics not in every run were left out: " + ", ".join(
            f"{k} ({v})" for k, v in dropped.items()
        )
    return head, note


def _tables(table: Any) -> list[tuple[list[str], list[list[str]], list[bool]]]:
    """(header, rows, right-aligned columns) of the means and of the comparisons."""
    from ..stats.render import fmt_num, fmt_p

    means = [
        [run, *(fmt_num(float(v)) for v in table.means[i])] for i, run in enumerate(table.runs)
    ]
    p_adj = "p" if table.correction == "none" else f"p ({table.correction})"
    conf = f"{100 * (1 - table.alpha):g}% CI"
    # every column is named (LaTeX and Markdown tables with an empty header cell read as a
    # missing column): "sig." holds the '*' of a comparison significant at alpha
    header = ["measure", "run", "vs", "diff", conf, "p", p_adj, "sig."]
    rows = [
        [
            r["measure"],
            r["run"],
            r["baseline"],
            fmt_num(r["diff"], signed=True),
            f"[{fmt_num(r['ci_low'], signed=True)}, {fmt_num(r['ci_high'], signed=True)}]",
            fmt_p(r["p_value"]),
            fmt_p(r["p_adjusted"]),
            "*" if r["significant"] else "",
        ]
        for r in table.records
    ]
    if table.correction == "none":  # the adjusted column would repeat p
        header = header[:6] + header[7:]
        rows = [row[:6] + row[7:] for row in rows]
    right = [False, False, False, True, False] + [True] * (len(header) - 6) + [False]
    return [
        (["run", *table.measures], means, [False] + [True] * len(table.measures)),
        (header, rows, right),
    ]


def _anova(table: Any, render: Any) -> list[str]:
    """The ANOVA table (measure, source, df, SS, MS, F, p) rendered, or nothing."""
    if not table.anova:
        return []
    from ..stats.render import fmt_num, fmt_p

    cells = [
        [m, r["source"], f"{r['df']:g}", fmt_num(r["sum_sq"]), fmt_num(r["mean_sq"])]
        + (["", ""] if r["source"] == "residual" else [fmt_num(r["F"], 3), fmt_p(r["p_value"])])
        for m, res in table.anova.items()
        for r in res.to_records()
    ]
    head = ["measure", "source", "df", "sum_sq", "mean_sq", "F", "p_value"]
    return [render(head, cells, [False, False, True, True, True, True, True])]


def _risk_alpha(table: Any) -> float:
    return float(next(iter(table.risk.values())).alpha)


def _risk(table: Any, render: Any) -> list[str]:
    """The risk table (measure, run, mean, URisk, TRisk, p, ZRisk, GeoRisk, W/L) rendered,
    or nothing."""
    if not table.risk:
        return []
    from ..stats.render import fmt_num, fmt_p

    cells = [
        [
            m,
            r["run"],
            fmt_num(r["mean"]),
            fmt_num(r["URisk"], signed=True),
            fmt_num(r["TRisk"], 3),
            fmt_p(r["p"]),
            fmt_num(r["ZRisk"], 3),
            fmt_num(r["GeoRisk"]),
            f"{r['wins']}/{r['losses']}",
        ]
        for m, t in table.risk.items()
        for r in t.rows()
    ]
    head = ["measure", "run", "mean", "URisk", "TRisk", "p", "ZRisk", "GeoRisk", "W/L"]
    return [render(head, cells, [False, False, *[True] * 7])]


def _risk_title(table: Any) -> str:
    first = next(iter(table.risk.values()))
    return _RISK_TITLE.format(alpha=first.alpha, weight=1 + first.alpha, base=first.baseline)


def _document(table: Any, fmt: str) -> str:
    """Text (``#`` comments), markdown or LaTeX (``%`` comments): heading, tables, ANOVA."""
    from ..stats.render import table_latex, table_markdown, table_text

    head, note = _heading(table)
    render = {"markdown": table_markdown, "latex": table_latex}.get(fmt, table_text)
    tables = [render(h, rows, right) for h, rows, right in _tables(table)]
    anova = _anova(table, render)
    risk = _risk(table, render)
    if fmt == "markdown":
        extra = [f"{_risk_title(table)}\n", *risk] if risk else []
        return "\n".join([f"{head}\n", *tables, *([note + "\n"] if note else []), *anova, *extra])
    mark = "%" if fmt == "latex" else "#"
    parts = [f"{mark} {head}\n"] + ([f"{mark} {note}\n"] if note else [])
    parts += tables if fmt == "latex" else [tables[0], "\n", tables[1]]
    if anova:
        parts += [("" if fmt == "latex" else "\n") + f"{mark} {_ANOVA_TITLE}\n", *anova]
    if risk:
        parts += [("" if fmt == "latex" else "\n") + f"{mark} {_risk_title(table)}\n", *risk]
    return "".join(parts)
