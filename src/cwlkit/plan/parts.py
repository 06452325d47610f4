"""Results of parts of one run joined, and put in the order of a run's first appearances.

Every measure scores a topic from that topic's lines alone, so the Results of disjoint topic
groups of one run, side by side, are the Results of the whole run.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from ..results import Results

if TYPE_CHECKING:  # pragma: no cover
    from ..core.batch import RankingBatch
    from ..io.trec import Run
    from ..measures.base import Measure


def batch_results(
    batch: RankingBatch,
    measures: list[Measure],
    values: np.ndarray,
    columns: dict[str, np.ndarray],
    *,
    run: str,
    text: dict[str, list[str]],
    names: list[str] | None = None,
    aggregates: list[str] | None = None,
) -> Results:
    """The Results of ``measures`` on ``batch``: topics in the batch's order, those the run
    lacks (``batch.memo["absent"]``, kept by the ``qrels`` and ``either`` rules) marked.
    ``names``, ``aggregates``: the measures' (when known already)."""
    topics = list(map(str, batch.topics.tolist()))  # (str: each as it is, no copy)
    absent = batch.memo.get("absent")
    return Results(
        values,
        [m.name for m in measures] if names is None else list(names),
        topics,
        columns,
        run=run,
        aggregates=[m.aggregate for m in measures] if aggregates is None else list(aggregates),
        text=text,
        absent=[] if absent is None else [t for t, a in zip(topics, absent, strict=True) if a],
    )


def join_parts(parts: list[Results]) -> Results:
    """The Results of disjoint topic groups of one run, side by side (topics in the order of
    the parts, then of each part's topics); measures, run and aggregates are the first's."""
    p0 = parts[0]
    return Results(
        np.concatenate([p.values for p in parts], axis=1),
        p0.measures,
        [t for p in parts for t in p.topics],
        {c: np.concatenate([p.columns[c] for p in parts], axis=1) for c in p0.columns},
        p0.run,
        p0.aggregates,
        text={m: [x for p in parts for x in p.text[m]] for m in p0.text},
        absent=[t for p in parts for t in p.absent],
    )


def first_appearance(run: Run) -> list[str]:
    """The run's topics in the order of their first line."""
    from ..support import compute as pc

    return [str(t) for t in pc.unique(run.table.column("topic")).to_pylist()]


def reorder(res: Results, first: list[str]) -> Results:
    """``res`` with the topics of ``first`` first, in that order, then the others."""
    pos = {t: i for i, t in enumerate(res.topics)}
    idx = [pos[t] for t in first if t in pos]
    seen = set(first)
    idx += [i for i, t in enumerate(res.topics) if t not in seen]
    cols = {c: a[:, idx] for c, a in res.columns.items()}
    topics = [res.topics[i] for i in idx]
    text = {m: [v[i] for i in idx] for m, v in res.text.items()}
    absent = set(res.absent)
    return Results(
        res.values[:, idx],
        res.measures,
        topics,
        cols,
        res.run,
        res.aggregates,
        text=text,
        absent=[t for t in topics if t in absent],
    )
