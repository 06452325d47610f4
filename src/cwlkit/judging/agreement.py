"""How different two runs' result lists are, apart from their scores: per-topic RBO."""

from __future__ import annotations

from typing import Any, cast

import numpy as np

from ..support.checks import check_choice, check_int, check_probability


def compare_runs(
    a: Any, b: Any, *, p: float = 0.9, depth: int | None = None, order: str = "score"
) -> list[dict[str, Any]]:
    """Rank-biased overlap (:func:`cwlkit.rbo`) of two runs' rankings, topic by topic.

    Each run is ranked as the Evaluator ranks it (``order``; trec_eval's by default), cut at
    ``depth`` if given. Topics of one run only compare a ranking with an empty one
    (``min = ext = 0``).

    Parameters
    ----------
    a, b : run
        Any form :func:`cwlkit.as_run` reads (a path, a DataFrame, a pyarrow Table, a
        pytrec_eval dict, records, a Run...).
    p : float
        RBO's persistence, in (0, 1).
    depth : int, optional
        Compare each ranking's top ``depth`` (an integer >= 1); default all of it.
    order : {"score", "rank", "file"}
        How each run is ranked (the Evaluator's option).

    Returns
    -------
    list of dict
        One row per topic (in string order): ``topic``, ``depth_a``, ``depth_b``, ``min``,
        ``max``, ``res``, ``ext``.
    """
    from ..stats.agreement import rbo
    from .pool import one_run, ranked_rows

    p = cast(float, check_probability("p", p))
    depth = check_int("depth", depth, least=1, none=True)
    order = check_choice("order", order, ("score", "rank", "file"))
    ra = ranked_rows([one_run(a)], order=order)
    rb = ranked_rows([one_run(b)], order=order)

    def lists(r: Any) -> dict[str, list[str]]:
        idx = np.lexsort((r.rank, r.topic.astype(str)))
        t, d, k = r.topic[idx], r.doc[idx], r.rank[idx]
        if depth is not None:
            keep = k <= depth
            t, d = t[keep], d[keep]
        out: dict[str, list[str]] = {}
        if t.size:
            starts = np.flatnonzero(np.r_[True, t[1:] != t[:-1]])
            for s, e in zip(starts.tolist(), np.r_[starts[1:], t.size].tolist(), strict=True):
                out[str(t[s])] = d[s:e].tolist()
        return out

    la, lb = lists(ra), lists(rb)
    rows = []
    for topic in sorted(set(la) | set(lb)):
        x, y = la.get(topic, []), lb.get(topic, [])
        r = rbo(x, y, p)
        rows.append(
            {
                "topic": topic,
                "depth_a": len(x),
                "depth_b": len(y),
                "min": r.min,
                "max": r.max,
                "res": r.res,
                "ext": r.ext,
            }
        )
    return rows
