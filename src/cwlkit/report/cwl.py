"""cwl_eval's output format (and tsv/json) for C/W/L results."""

from __future__ import annotations

import json
import math

import numpy as np

from ..results import Results

BASE = ("EU", "ETU", "EC", "ETC", "ED")


def _columns(res: Results, residuals: bool) -> list[str]:
    cols = list(BASE)
    if residuals:
        cols += [f"Res{c}" for c in BASE]
    return cols


def _matrix(res: Results, col: str) -> np.ndarray:
    return res.values if col == "EU" else res.columns[col]


def format_cwl(
    res: Results,
    names: list[str],
    *,
    residuals: bool = False,
    header: bool = False,
    mean: bool = False,
    fmt: str = "text",
    topic_order: list[int] | None = None,
) -> str:
    """Render C/W/L results.

    ``text`` is cwl_eval's: ``topic<TAB>metric<TAB>EU<TAB>ETU<TAB>EC<TAB>ETC<TAB>ED`` with 4
    decimals (``inf`` for an infinite expected depth, ``nan`` for a column a non-C/W/L measure
    does not define), one line per topic and metric, topics in ``topic_order``. ``tsv`` is the
    same with full precision and always a header; ``json`` a list of records. ``mean`` adds
    an ``all`` row per metric: the mean over topics.
    """
    cols = _columns(res, residuals)
    order = list(range(len(res.topics))) if topic_order is None else topic_order
    mats = [_matrix(res, c) for c in cols]
    rows: list[tuple[str, str, list[float]]] = []
    for j in order:
        for i, name in enumerate(names):
            rows.append((res.topics[j], name, [float(m[i, j]) for m in mats]))
    if mean:
        with np.errstate(invalid="ignore"):
            means = [m.mean(axis=1) if m.shape[1] else np.full(m.shape[0], np.nan) for m in mats]
        for i, name in enumerate(names):
            rows.append(("all", name, [float(m[i]) for m in means]))
    if fmt == "json":
        recs = [
            {"topic": t, "metric": n, **{c: (v if math.isfinite(v) else str(v)) for c, v in zip(cols, vals, strict=True)}}
            for t, n, vals in rows
        ]
        return json.dumps(recs, indent=1) + "\n"
    if fmt == "tsv":
        out = ["\t".join(("topic", "metric", *cols))]
        out += ["\t".join((t, n, *(repr(v) for v in vals))) for t, n, vals in rows]
        return "\n".join(out) + "\n"
    out = []
    if header:
        out.append("\t".join(("Topic", "Metric", *cols)))
    out += ["\t".join((t, n, *(f"{v:.4f}" for v in vals))) for t, n, vals in rows]
    return "\n".join(out) + ("\n" if out else "")
