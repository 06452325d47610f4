"""Bandit pooling (Losada, Parapar and Barreiro, SAC 2016): the runs are the arms of a
multi-armed bandit; pulling an arm judges the next document of that run's ranking not yet
judged, and the reward is whether it is relevant. The judging order depends on the
judgements made so far, so these strategies need an oracle: a judging function or complete
qrels.

Per topic, every run ranks its documents (cut at ``pool_depth``); a pull of run ``s`` skips
the documents of ``s``'s ranking already judged (found by other runs: no reward, nothing
updated) and judges the next one; a run with nothing left to judge leaves the game. Ties
between runs go to the run given first.

``mtf`` (move-to-front; Cormack, Palmer and Clarke 1998, as Losada et al. describe it)
    Every run starts at priority 0. Judge from the current run while it yields relevant
    documents; at a non-relevant one its priority drops by 1 and the run of largest
    priority becomes the current one.
``maxmean`` (MaxMean, MM)
    Each run's rate of relevant documents has a Beta(1, 1) prior; after ``n`` pulls of which
    ``r`` were relevant, its posterior mean is ``(r + 1) / (n + 2)``. Each pull goes to the
    run of largest posterior mean (stationary: every judgement weighs the same; the
    non-stationary variants of Losada et al. 2017 are not built).
"""

from __future__ import annotations

import inspect
import math
import numbers
from collections.abc import Callable, Mapping
from functools import partial
from typing import Any, cast

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from ..errors import ParamError
from ..support.checks import check_int, check_number, refuse

BANDITS = ("maxmean", "mtf")


def _order_topic(
    lists: list[np.ndarray], rel: Callable[[int], bool], n_docs: int, limit: int, policy: str
) -> list[int]:
    """The judging order of one topic: ``lists`` holds each run's ranking as document codes
    ``0 .. n_docs-1``; ``rel(code)`` judges a document (called once per document, in the
    order returned)."""
    judged = np.zeros(n_docs, dtype=bool)
    pos = np.zeros(len(lists), dtype=np.int64)
    alive = np.array([lst.size > 0 for lst in lists])
    prio = np.zeros(len(lists), dtype=np.float64)  # mtf: priority; maxmean: posterior mean
    hits = np.zeros(len(lists), dtype=np.int64)
    pulls = np.zeros(len(lists), dtype=np.int64)
    if policy == "maxmean":
        prio[:] = 0.5
    order: list[int] = []
    current = -1
    while len(order) < limit and alive.any():
        if current < 0 or not alive[current]:
            masked = np.where(alive, prio, -np.inf)
            current = int(np.argmax(masked))
        s = current
        lst = lists[s]
        p = int(pos[s])
        while p < lst.size and judged[lst[p]]:
            p += 1
        pos[s] = p
        if p >= lst.size:
            alive[s] = False
            current = -1
            continue
        d = int(lst[p])
        judged[d] = True
        pos[s] = p + 1
        order.append(d)
        good = bool(rel(d))
        if policy == "mtf":
            if not good:
                prio[s] -= 1.0
                current = -1
        else:
            pulls[s] += 1
            hits[s] += good
            prio[s] = (hits[s] + 1.0) / (pulls[s] + 2.0)
            current = -1
    return order


def _by_label(labels: np.ndarray, rel: float, code: int) -> bool:
    return bool(labels[code] >= rel)


def _by_judge(
    judge: Callable[[str, str], float], topic: str, docs: np.ndarray, rel: float, code: int
) -> bool:
    doc = str(docs[code])
    got = judge(topic, doc)
    if isinstance(got, bool | np.bool_):
        return float(got) >= rel
    if not isinstance(got, numbers.Real) or not math.isfinite(got):
        raise refuse(f"judge({topic!r}, {doc!r})", "a finite number (a label)", got)
    return float(got) >= rel


def _check_judge(judge: Any) -> None:
    """Nothing: raises :class:`ParamError` unless ``judge`` is None or callable with two
    positional arguments (topic, document)."""
    if judge is None:
        return
    if not callable(judge):
        raise refuse("judge", "a function judge(topic, doc) -> label or None", judge)
    try:
        sig = inspect.signature(judge)
    except (TypeError, ValueError):  # (a builtin without a signature: called as it is)
        return
    try:
        sig.bind("topic", "doc")
    except TypeError:
        raise refuse(
            "judge", "a function of two arguments, judge(topic, doc) -> label", judge
        ) from None


def check_bandit_options(pool_depth: Any, judge: Any, rel: Any) -> tuple[int | None, float]:
    """``pool_depth`` and ``rel`` checked; :class:`ParamError` for a ``judge`` that is not
    None nor a function of two arguments, a ``pool_depth`` that is not an integer >= 1 or
    None, or a ``rel`` that is not a finite number."""
    _check_judge(judge)
    least = cast(float, check_number("rel", rel))
    return check_int("pool_depth", pool_depth, least=1, none=True), least


def _check_options(
    strategy: str, qrels: Any, judge: Any, pool_depth: Any, rel: Any
) -> tuple[int | None, float]:
    """``pool_depth`` and ``rel`` checked (:func:`check_bandit_options`); raises
    :class:`ParamError` for a strategy that is not a bandit or for no oracle or two
    (``qrels`` and ``judge``)."""
    if strategy not in BANDITS:
        raise ParamError(f"bandit strategies are {', '.join(BANDITS)}; got {strategy!r}")
    if (qrels is None) == (judge is None):
        raise ParamError(
            f"{strategy} pooling judges as it goes: give one oracle, complete qrels (qrels=, "
            "--qrels) or a judging function of topic and document returning a label (judge=)"
        )
    return check_bandit_options(pool_depth, judge, rel)


def _coded_rows(
    rows: Any, pool_depth: int | None
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, pa.Table]:
    """The rows cut at ``pool_depth`` with each document coded: ``pdoc`` (the distinct
    (topic, document) pairs' documents, sorted by topic then document, a pair's code its
    index), ``pstart`` (each topic's first index in ``pdoc``), then ``ctop``, ``crun`` and
    ``ccode`` (each row's topic, run and document code, sorted by topic, run and rank), and
    the pairs' table (``topic``, ``doc``, ``code``)."""
    keep = rows.rank <= pool_depth if pool_depth is not None else np.ones(rows.rank.size, bool)
    t = pa.array(rows.topic[keep], pa.string())
    d = pa.array(rows.doc[keep], pa.string())
    tab = pa.table({"topic": t, "doc": d, "run": rows.run[keep], "rank": rows.rank[keep]})
    tab = tab.sort_by([("topic", "ascending"), ("run", "ascending"), ("rank", "ascending")])
    pairs = tab.group_by(["topic", "doc"], use_threads=False).aggregate([])
    pairs = pairs.sort_by([("topic", "ascending"), ("doc", "ascending")])
    ptop = np.asarray(pairs.column("topic").to_numpy(zero_copy_only=False), dtype=object)
    pdoc = np.asarray(pairs.column("doc").to_numpy(zero_copy_only=False), dtype=object)
    pstart = np.flatnonzero(np.r_[True, ptop[1:] != ptop[:-1]]) if ptop.size else np.zeros(0, int)
    pairs = pairs.append_column("code", pa.array(np.arange(ptop.size), pa.int64()))
    coded = tab.join(pairs, keys=["topic", "doc"], use_threads=False).sort_by(
        [("topic", "ascending"), ("run", "ascending"), ("rank", "ascending")]
    )
    ctop = np.asarray(coded.column("topic").to_numpy(zero_copy_only=False), dtype=object)
    crun = np.asarray(coded.column("run").to_numpy(), dtype=np.int64)
    ccode = np.asarray(coded.column("code").to_numpy(), dtype=np.int64)
    return pdoc, pstart, ctop, crun, ccode, pairs


def _oracle_labels(qrels: Any, pairs: pa.Table, n: int) -> np.ndarray:
    """float64[n]: the label ``qrels`` give each coded pair of ``pairs`` (the largest if
    they give several; 0 if none)."""
    from ..io.inputs import as_qrels

    q = as_qrels(qrels).table.select(["topic", "doc", "label"])
    q = q.group_by(["topic", "doc"], use_threads=False).aggregate([("label", "max")])
    lab = pairs.join(q.rename_columns(["topic", "doc", "label"]), keys=["topic", "doc"])
    lab = lab.sort_by("code")
    labels = np.zeros(n)
    filled = pc.fill_null(lab.column("label"), 0.0).to_numpy()
    labels[np.asarray(lab.column("code").to_numpy())] = filled
    return labels


def _topic_limit(depth: int | Mapping[str, int] | None, topic: str, n_docs: int) -> int:
    """The number of documents to judge at ``topic``: ``depth``'s (a topic missing from a
    mapping gets 0), or all ``n_docs`` pooled if ``depth`` is None."""
    if isinstance(depth, Mapping):
        return int(depth.get(topic, 0))
    return n_docs if depth is None else int(depth)


def bandit_pool(
    rows: Any,
    strategy: str,
    *,
    depth: int | Mapping[str, int] | None = None,
    pool_depth: int | None = None,
    qrels: Any = None,
    judge: Callable[[str, str], float] | None = None,
    rel: float = 1.0,
    order: str = "score",
) -> tuple[np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
    """The ``maxmean`` or ``mtf`` pool of ``runs`` (see the module's description).

    Parameters
    ----------
    rows : Ranked
        Every ranked row of the runs (:func:`cwlkit.judging.pool.ranked_rows`).
    strategy : {"maxmean", "mtf"}
    depth : int or mapping of str to int, optional
        Documents to judge a topic (or ``{topic: n}``); default every pooled document.
    pool_depth : int, optional
        Each run's ranking is cut at this rank (the depth-k pool the bandit orders); default
        the whole ranking.
    qrels : optional
        The oracle: complete judgements (a document they do not hold is not relevant).
    judge : callable, optional
        The oracle instead: ``judge(topic, doc) -> label``, called once per judged document
        in judging order, topic by topic (topics in string order). The label is a finite
        number (a bool counts as 0 or 1); anything else (None, a string, NaN) is a
        :class:`ParamError` naming the call and what it returned.
    rel : float
        The smallest label that is a reward (relevant).
    order : {"score", "rank", "file"}
        How each run was ranked (recorded in the parameters).

    Returns
    -------
    topics, docs, priority, params
        The :class:`~cwlkit.judging.pool.Pool`'s fields: ``priority`` is minus the
        position in the topic's judging order (1-based).
    """
    pool_depth, rel = _check_options(strategy, qrels, judge, pool_depth, rel)
    pdoc, pstart, ctop, crun, ccode, pairs = _coded_rows(rows, pool_depth)
    labels = _oracle_labels(qrels, pairs, pdoc.size) if qrels is not None else None
    out_t: list[np.ndarray] = []
    out_d: list[np.ndarray] = []
    out_p: list[np.ndarray] = []
    tstart = np.flatnonzero(np.r_[True, ctop[1:] != ctop[:-1]]) if ctop.size else np.zeros(0, int)
    tend = np.r_[tstart[1:], ctop.size]
    pend = np.r_[pstart[1:], pdoc.size]
    for a, b, pa0, pb in zip(
        tstart.tolist(), tend.tolist(), pstart.tolist(), pend.tolist(), strict=True
    ):
        topic = str(ctop[a])
        runs_here = crun[a:b]
        codes = ccode[a:b] - pa0
        cuts = np.flatnonzero(np.r_[True, runs_here[1:] != runs_here[:-1]])
        lists = np.split(codes, cuts[1:])
        limit = _topic_limit(depth, topic, pb - pa0)
        relevant: Callable[[int], bool]
        if labels is not None:
            relevant = partial(_by_label, labels[pa0:pb], rel)
        else:
            assert judge is not None
            relevant = partial(_by_judge, judge, topic, pdoc[pa0:pb], rel)
        seq = np.asarray(_order_topic(lists, relevant, pb - pa0, limit, strategy), dtype=np.int64)
        out_t.append(np.full(seq.size, topic, dtype=object))
        out_d.append(pdoc[pa0 + seq] if seq.size else np.zeros(0, dtype=object))
        out_p.append(-(np.arange(seq.size, dtype=np.float64) + 1.0))
    cat = [np.concatenate(x) if x else np.zeros(0) for x in (out_t, out_d, out_p)]
    params: dict[str, Any] = {"depth": depth, "pool_depth": pool_depth, "rel": rel}
    params["order"] = order
    return cat[0].astype(object), cat[1].astype(object), cat[2].astype(np.float64), params
