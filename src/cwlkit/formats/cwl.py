"""cwl_eval's output format (and tsv/json) for C/W/L results."""

from __future__ import annotations

import numpy as np

from ..results import Results

BASE = ("EU", "ETU", "EC", "ETC", "ED")
#: lines of text formatted at a time
ROWS = 4096


def _columns(res: Results, residuals: bool) -> list[str]:
    cols = list(BASE)
    if residuals:
        cols += [f"Res{c}" for c in BASE]
    return cols


def _matrix(res: Results, col: str) -> np.ndarray:
    if col == "EU":
        return res.values
    return res.columns.get(col, np.full(res.values.shape, np.nan))


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
    order = (
        np.arange(len(res.topics))
        if topic_order is None
        else np.asarray(topic_order, dtype=np.int64)
    )
    M = len(names)
    # [rows, columns] with rows ordered topic-major, then metric
    block = (
        np.stack([_matrix(res, c)[:, order].T.reshape(-1) for c in cols], axis=1)
        if M
        else np.zeros((0, len(cols)))
    )
    topics = np.repeat(np.asarray(res.topics, dtype=object)[order], M)
    metrics = np.tile(np.asarray(names, dtype=object), len(order))
    if mean:
        with np.errstate(invalid="ignore"):
            means = np.stack(
                [
                    (_matrix(res, c).mean(axis=1) if res.values.shape[1] else np.full(M, np.nan))
                    for c in cols
                ],
                axis=1,
            )
        block = np.vstack([block, means])
        topics = np.concatenate([topics, np.full(M, "all", dtype=object)])
        metrics = np.concatenate([metrics, np.asarray(names, dtype=object)])
    if fmt == "json":
        recs = [
            {
                "topic": t,
                "metric": n,
                **dict(zip(cols, vals, strict=True)),
            }
            for t, n, vals in zip(topics, metrics, block.tolist(), strict=True)
        ]
        from ..support.jsontext import dumps

        return dumps(recs, indent=1) + "\n"
    if fmt == "tsv":
        out = ["\t".join(("topic", "metric", *cols))]
        out += [
            "\t".join((t, n, *(repr(v) for v in vals)))
            for t, n, vals in zip(topics, metrics, block.tolist(), strict=True)
        ]
        return "\n".join(out) + "\n"
    out = []
    if header:
        out.append("\t".join(("Topic", "Metric", *cols)))
    line = "\t".join(["%s", "%s"] + ["%.4f"] * len(cols))
    for i in range(0, len(topics), ROWS):
        # one ``%`` over a template of ROWS lines, filled row by row (topic, metric, values):
        # the Python objects of one slice at a time
        n = min(ROWS, len(topics) - i)
        args = np.empty((n, 2 + len(cols)), dtype=object)
        rows = slice(i, i + n)
        args[:, 0], args[:, 1], args[:, 2:] = topics[rows], metrics[rows], block[rows]
        out.append("\n".join([line] * n) % tuple(args.ravel().tolist()))
        del args
    return "\n".join(out) + ("\n" if out else "")
