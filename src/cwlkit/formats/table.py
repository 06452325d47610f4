"""Tables of results for people and machines: one row per run (or per run and topic).

Formats: ``text`` (aligned columns, 4 decimals), ``tsv`` and ``csv`` (full precision),
``json`` (a list of records), ``markdown`` (a pipe table, 4 decimals), ``latex`` (a booktabs
``tabular``, 4 decimals). The header names each measure by its canonical name
(``Measure.name``: ``MAP`` and ``map`` print ``AP``, ``ndcg_cut_10`` prints ``nDCG@10``).
"""

from __future__ import annotations

import csv
import io
import math
from collections.abc import Mapping
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # pragma: no cover
    from ..results import Results

FORMATS = ("text", "tsv", "csv", "json", "markdown", "latex")


def rows(results: Mapping[str, Results], per_topic: bool) -> tuple[list[str], list[list]]:
    """Header and rows: ``run, measures...`` (aggregates) or ``run, topic, measures...``."""
    measures: list[str] = []
    for res in results.values():
        measures += [m for m in res.measures if m not in measures]
    head = ["run", *(["topic"] if per_topic else []), *measures]
    out: list[list] = []
    for name, res in results.items():
        if per_topic:
            for t in res.topics:
                out.append([name, t, *(_get(res, m, t) for m in measures)])
        else:
            agg = res.aggregate()
            counts = {
                m for m, h in zip(res.measures, res.aggregates or [], strict=True) if h == "sum"
            }
            out.append([name, *(_count(agg.get(m, math.nan), m in counts) for m in measures)])
    return head, out


def _count(v: float, is_count: bool) -> float | int:
    """A summed count as an integer (printed without decimals)."""
    return int(v) if is_count and math.isfinite(v) and v == int(v) else v


def _get(res: Results, measure: str, topic: str) -> float:
    if measure not in res.measures:
        return math.nan
    return float(res.values[res.measures.index(measure), res.topics.index(topic)])


def _cell(v, digits: int | None) -> str:
    if isinstance(v, (str, int)):
        return str(v)
    if math.isnan(v):
        return "nan"
    if math.isinf(v):
        return "inf" if v > 0 else "-inf"
    if digits is None:
        return repr(float(v))
    return f"{v:.{digits}f}"


def format_table(
    results: Mapping[str, Results], *, per_topic: bool = False, fmt: str = "text"
) -> str:
    """Render ``{run name: Results}`` in ``fmt`` (see the module docstring)."""
    head, body = rows(results, per_topic)
    if fmt == "json":
        from ..support.jsontext import dumps

        recs = [dict(zip(head, r, strict=True)) for r in body]
        return dumps(recs, indent=1) + "\n"
    if fmt in ("tsv", "csv"):
        buf = io.StringIO()
        w = csv.writer(buf, delimiter="\t" if fmt == "tsv" else ",", lineterminator="\n")
        w.writerow(head)
        w.writerows([[_cell(v, None) for v in r] for r in body])
        return buf.getvalue()
    cells = [[_cell(v, 4) for v in r] for r in body]
    if fmt == "markdown":
        lines = ["| " + " | ".join(head) + " |", "|" + "|".join("---" for _ in head) + "|"]
        lines += ["| " + " | ".join(r) + " |" for r in cells]
        return "\n".join(lines) + "\n"
    if fmt == "latex":
        from ..stats.render import table_latex

        n_text = 2 if per_topic else 1
        return table_latex(head, cells, [i >= n_text for i in range(len(head))])
    if fmt != "text":
        raise ValueError(f"unknown format {fmt!r}")
    widths = [max(len(str(x)) for x in col) for col in zip(head, *cells, strict=True)]
    n_text = 2 if per_topic else 1

    def line(r):
        return "  ".join(
            str(c).ljust(w) if i < n_text else str(c).rjust(w)
            for i, (c, w) in enumerate(zip(r, widths, strict=True))
        ).rstrip()

    return "\n".join([line(head), *(line(r) for r in cells)]) + "\n"
