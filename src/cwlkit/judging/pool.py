"""Pools: which documents to judge, in which order.

Every strategy scores each (topic, document) that some run retrieved with a *priority*, sums
or takes the largest over the runs, and judges each topic's documents by decreasing priority
(ties by document id, ascending), the first ``depth`` of them:

``depth`` (``depth=k``)
    The depth-k pool: every document some run ranks in its top ``k``; priority ``-best rank``
    (a document's best rank over the runs), so the judging order is by best rank. Equal to
    trectools' ``topX``. Unlike the others, ``depth`` here is a rank, not a count.
``rbp`` (``p=0.8, aggregate="sum"|"max", depth=n``)
    RBP's weight ``(1 - p) p^(rank - 1)`` summed (or the largest) over the runs; the top ``n``
    a topic. Equal to trectools' ``rbp``.
``rrf`` (``k=60, depth=n``)
    Reciprocal rank fusion's ``1 / (k + rank)`` summed over the runs; the top ``n`` a topic.
    Equal to trectools' ``rrf``.
``residual`` (``measure="RBP(p=0.8)", depth=n`` or ``budget=N``, ``qrels=None``)
    Moffat, Webber and Zobel's (SIGIR 2007) "judge next the document carrying the most
    residual", for any C/W/L metric: a document's priority is the sum over the runs of the
    weight ``W(i)`` the metric's user model gives the rank ``i`` it holds (cwlkit's C/W/L
    engine, exact tails). With ``qrels``, already-judged documents are skipped and W follows
    the known gains (so an adaptive metric such as INST weighs the ranks as its user would,
    with unjudged documents at gain 0). ``budget`` judges the ``N`` documents of largest
    priority over every topic at once instead of ``n`` a topic.
``maxmean``, ``mtf`` (``qrels=`` or ``judge=``, ``depth=n``, ``pool_depth=k``, ``rel=1``)
    Losada, Parapar and Barreiro's (2016) bandit pooling: the runs are arms, a pull judges
    the run's next unjudged document, the reward is its relevance; MaxMean pulls the run of
    largest posterior mean relevance (Beta(1, 1) prior), move-to-front stays with a run
    while it yields relevant documents. They judge as they go, so they take an oracle:
    complete ``qrels`` or a function ``judge(topic, doc) -> label``. See
    :mod:`cwlkit.judging.bandit`.

The ranks are the runs' rankings as cwlkit evaluates them: by decreasing score, ties by
document id descending (trec_eval's order; ``order="rank"`` takes the rank column, as
trectools does for ``rbp`` and ``rrf``; trectools' ``topX`` sorts by score, ties by document
id *ascending*). Documents tied in priority at a topic's cut are kept by ascending id.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, cast

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from ..errors import ParamError
from ..support.checks import check_choice, check_int, check_number, check_probability, refuse
from .bandit import check_bandit_options

STRATEGIES = ("depth", "rbp", "rrf", "residual", "maxmean", "mtf")
ORDERS = ("score", "rank", "file")
#: a depth beyond any ranking (a larger one means the same: every document)
HUGE = 2**62


@dataclass
class Pool:
    """Documents to judge, per topic, in judging order.

    Attributes
    ----------
    topics, docs : numpy.ndarray
        object[N]: the (topic, document) pairs, grouped by topic (topics in string order),
        each topic's in judging order.
    priority : numpy.ndarray
        float64[N]: each pair's priority under the strategy (larger is judged first).
    strategy : str
    params : dict
        The strategy's parameters as used.
    """

    topics: np.ndarray
    docs: np.ndarray
    priority: np.ndarray
    strategy: str
    params: dict = field(default_factory=dict)

    def __len__(self) -> int:
        return int(self.docs.size)

    def to_dict(self) -> dict[str, list[str]]:
        """``{topic: [document ids in judging order]}``."""
        out: dict[str, list[str]] = {}
        if not self.docs.size:
            return out
        starts = np.flatnonzero(np.r_[True, self.topics[1:] != self.topics[:-1]])
        ends = np.r_[starts[1:], self.topics.size]
        for a, b in zip(starts.tolist(), ends.tolist(), strict=True):
            out[str(self.topics[a])] = self.docs[a:b].tolist()
        return out

    def sizes(self) -> dict[str, int]:
        """``{topic: number of documents to judge}``."""
        return {t: len(d) for t, d in self.to_dict().items()}

    def to_qrels_text(self, label: str = "0") -> str:
        """TREC qrels-shaped lines, ``topic 0 document label``, in judging order, for
        assessors' tools (``label`` is a placeholder until judged)."""
        if not self.docs.size:
            return ""
        t = self.topics.astype(str)
        d = self.docs.astype(str)
        return "".join(f"{a} 0 {b} {label}\n" for a, b in zip(t.tolist(), d.tolist(), strict=True))

    def head(self, n: int | Mapping[str, int]) -> Pool:
        """The first ``n`` documents of each topic (a number, or one per topic: a topic
        missing from the mapping keeps none)."""
        keep = _head_mask(self.topics, check_depth("n", n))
        return Pool(
            self.topics[keep], self.docs[keep], self.priority[keep], self.strategy, self.params
        )


@dataclass
class Ranked:
    """Every ranked row of every run: topic, document, 1-based rank, the run's index, whether
    the qrels judge it, and the metric's weight W of its rank (residual pooling)."""

    topic: np.ndarray
    doc: np.ndarray
    rank: np.ndarray
    run: np.ndarray
    judged: np.ndarray
    weight: np.ndarray | None


def ranked_rows(
    runs: Any,
    *,
    qrels: Any = None,
    measure: Any = None,
    order: str = "score",
    gain: Any = None,
) -> Ranked:
    """The rows of ``runs`` (a list of runs) as the Evaluator ranks them (``order``), with
    the C/W/L weights of ``measure`` over each ranking when one is given (unjudged documents
    at gain 0)."""
    from ..api import Evaluator
    from ..io.trec import Qrels
    from ..measures.cwl import CWLMetric
    from ..measures.cwl.engine import weights_matrix

    items = list(runs)
    if order == "rank" and measure is None and qrels is None:
        return _rank_column_rows(items)
    q = Qrels.from_records([]) if qrels is None else qrels
    opts: dict[str, Any] = {"topics": "run", "order": order}
    if gain is not None:
        opts["gain"] = gain
    ev = Evaluator(q, [measure if measure is not None else "P@10"], **opts)
    ev.plan.keep_docs = True
    metric = ev.measures[0] if measure is not None else None
    if metric is not None and not isinstance(metric, CWLMetric):
        raise ParamError(f"residual pooling needs a C/W/L metric; {metric.name} is not one")
    parts: dict[str, list[np.ndarray]] = {k: [] for k in ("t", "d", "r", "i", "j", "w")}
    for i, run in enumerate(items):
        batch = ev.batch(run)
        cells = batch.doc_cells()
        if cells is None:  # pragma: no cover - keep_docs asks for them
            raise ParamError("the run's document ids were not kept")
        rows, cols, docs = cells
        parts["t"].append(np.asarray(batch.topics, dtype=object)[rows])
        parts["d"].append(np.asarray(pa.chunked_array(docs).to_numpy(), dtype=object))
        parts["r"].append(cols.astype(np.int64) + 1)
        parts["i"].append(np.full(rows.size, i, dtype=np.int64))
        parts["j"].append(np.asarray(batch.judged)[rows, cols])
        if metric is not None:
            inp = ev.plan.cwl_input(batch)
            W = weights_matrix(metric, inp.gain_lo, inp.cost_lo, batch.depth, pad_cost=inp.max_cost)
            parts["w"].append(W[rows, cols])
    cat = {k: (np.concatenate(v) if v else np.zeros(0)) for k, v in parts.items()}
    return Ranked(
        cat["t"].astype(object),
        cat["d"].astype(object),
        cat["r"].astype(np.int64),
        cat["i"].astype(np.int64),
        cat["j"].astype(bool),
        cat["w"] if metric is not None else None,
    )


def _rank_column_rows(items: list[Any]) -> Ranked:
    """The rows with the rank column's values as their ranks (trectools' convention: a run
    whose ranks have gaps keeps them)."""
    from ..io.inputs import as_run

    parts: dict[str, list[np.ndarray]] = {k: [] for k in ("t", "d", "r", "i")}
    for i, run in enumerate(items):
        tab = as_run(run).table
        try:
            rank = pc.cast(tab.column("rank"), pa.int64())
        except pa.ArrowInvalid as exc:
            raise ParamError(f"a rank column that is not an integer: {exc}") from None
        parts["t"].append(np.asarray(tab.column("topic").to_numpy(), dtype=object))
        parts["d"].append(np.asarray(tab.column("doc").to_numpy(), dtype=object))
        parts["r"].append(np.asarray(rank.to_numpy(), dtype=np.int64))
        parts["i"].append(np.full(tab.num_rows, i, dtype=np.int64))
    cat = {k: (np.concatenate(v) if v else np.zeros(0)) for k, v in parts.items()}
    n = cat["r"].size
    return Ranked(
        cat["t"].astype(object),
        cat["d"].astype(object),
        cat["r"].astype(np.int64),
        cat["i"].astype(np.int64),
        np.zeros(n, dtype=bool),
        None,
    )


def named_run_list(runs: Any) -> list[tuple[str, Any]]:
    """``(name, run)`` pairs of ``runs``: each run as given (the Evaluator reads files and
    dicts by its fast paths), but an iterator read once with :func:`cwlkit.as_run`.

    ``runs`` is one run in any form :func:`cwlkit.as_run` reads, a list or tuple of runs,
    or a mapping of name to run. A pytrec_eval dict ``{topic: {doc: score}}`` and a list of
    ``(topic, doc, score)`` tuples or ir_measures records are one run (as
    :func:`cwlkit.evaluate` reads them). Names are the mapping's keys, file names for paths,
    ``run1``, ``run2``... otherwise. Raises :class:`ParamError` for no run at all.
    """
    from ..io.inputs import as_run

    named = split_runs(runs)
    if not named:
        raise refuse("runs", "a run, a list of runs or a mapping of names to runs", runs)
    return [(name, as_run(run) if _iterator(run) else run) for name, run in named]


def one_run(run: Any) -> Any:
    """``run`` as given, or read with :func:`cwlkit.as_run` if it is an iterator (so that it
    can be read more than once)."""
    from ..io.inputs import as_run

    return as_run(run) if _iterator(run) else run


def _iterator(obj: Any) -> bool:
    return isinstance(obj, Iterable) and iter(obj) is obj


def split_runs(runs: Any) -> list[tuple[str, Any]]:
    """``(name, run)`` pairs of ``runs`` as given (see :func:`named_run_list`), unread."""
    from ..api import named_runs

    if _iterator(runs):
        runs = list(runs)  # (a generator: of runs, or of one run's records)
    return named_runs([runs] if _one_run(runs) else runs)


def _one_run(obj: Any) -> bool:
    """Whether ``obj`` is one run rather than several: a path, a table, a Run, a pytrec_eval
    dict (its values map documents to scores), records (a list or tuple whose first element
    is a tuple), anything that is not a list, a tuple or a mapping."""
    if isinstance(obj, str | bytes | os.PathLike):
        return True
    if isinstance(obj, Mapping):
        first = next(iter(obj.values()), None)
        return isinstance(first, Mapping) and not isinstance(
            next(iter(first.values()), None), Mapping
        )
    if isinstance(obj, list | tuple):
        return bool(obj) and (isinstance(obj[0], tuple) or hasattr(obj[0], "_fields"))
    return True


def check_measure(name: str, measure: Any, *, none: bool = False) -> None:
    """Nothing: :class:`ParamError` unless ``measure`` is a measure's name or a Measure
    (or None if ``none``)."""
    from ..measures.base import Measure

    if not (isinstance(measure, str | Measure) or (none and measure is None)):
        raise refuse(name, "a measure name or a Measure" + (" or None" if none else ""), measure)


def check_depth(name: str, depth: Any, *, least: int = 0, none: bool = False) -> Any:
    """``depth`` as an int ``>= least`` or a mapping ``{topic: int >= 0}`` (topics as
    strings), or None if ``none``; :class:`ParamError` otherwise (the option contract's
    wording, the mapping's entries named ``NAME[topic]``)."""
    if isinstance(depth, Mapping):
        out: dict[str, int] = {}
        for key, value in depth.items():
            if not isinstance(key, str | int) or isinstance(key, bool):
                raise refuse(f"{name}'s topics", "topic ids (strings or integers)", key)
            got = check_int(f"{name}[{key!r}]", value, least=0)
            assert got is not None
            out[str(key)] = min(got, HUGE)
        return out
    if depth is None and none:
        return None
    if isinstance(depth, bool) or not isinstance(depth, int | np.integer) or depth < least:
        either = ", " if none else " or "
        expected = f"an integer >= {least}{either}a mapping {{topic: integer >= 0}}"
        raise refuse(name, expected + (" or None" if none else ""), depth)
    return min(int(depth), HUGE)


def _head_mask(topics: np.ndarray, n: int | Mapping[str, int]) -> np.ndarray:
    """bool[N]: the first ``n`` rows of each topic's group (rows grouped by topic)."""
    if not topics.size:
        return np.zeros(0, dtype=bool)
    starts = np.r_[True, topics[1:] != topics[:-1]]
    group = np.cumsum(starts) - 1
    first = np.flatnonzero(starts)
    pos = np.arange(topics.size) - first[group]
    if isinstance(n, Mapping):
        lim = np.array([int(n.get(str(t), 0)) for t in topics[first]], dtype=np.int64)
        return pos < lim[group]
    return pos < int(n)


def _group(topic: np.ndarray, doc: np.ndarray, value: np.ndarray, how: str) -> pa.Table:
    """Aggregate ``value`` per (topic, document) with pyarrow's group-by."""
    t = pa.table({"topic": pa.array(topic, pa.string()), "doc": pa.array(doc, pa.string())})
    t = t.append_column("v", pa.array(value, pa.float64()))
    if how == "sum":
        # in a canonical order and on one thread, so that the sums do not depend on the order
        # of the runs (floating-point addition is not associative; the largest is exact)
        t = t.sort_by([("topic", "ascending"), ("doc", "ascending"), ("v", "ascending")])
    g = t.group_by(["topic", "doc"], use_threads=False).aggregate([("v", how)])
    return g.rename_columns(["topic", "doc", "v"]) if g.column_names[0] == "topic" else g


def _ordered(g: pa.Table) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Rows sorted by topic, decreasing priority, then increasing document id."""
    g = g.select(["topic", "doc", "v"] if "v" in g.column_names else g.column_names)
    idx = pc.sort_indices(
        g, sort_keys=[("topic", "ascending"), ("v", "descending"), ("doc", "ascending")]
    )
    g = g.take(idx)
    return (
        np.asarray(g.column("topic").to_numpy(), dtype=object),
        np.asarray(g.column("doc").to_numpy(), dtype=object),
        np.asarray(g.column("v").to_numpy(), dtype=np.float64),
    )


def _bandit(
    runs: Any,
    strategy: str,
    depth: int | Mapping[str, int] | None,
    pool_depth: int | None,
    qrels: Any,
    judge: Any,
    rel: float,
    order: str,
) -> Pool:
    """The ``maxmean`` or ``mtf`` pool of ``runs``, judged with the oracle ``qrels`` or
    ``judge`` (see :func:`cwlkit.judging.bandit.bandit_pool`)."""
    from .bandit import bandit_pool

    b_topics, b_docs, b_prio, b_params = bandit_pool(
        ranked_rows(runs, order=order),
        strategy,
        depth=depth,
        pool_depth=pool_depth,
        qrels=qrels,
        judge=judge,
        rel=rel,
        order=order,
    )
    return Pool(b_topics, b_docs, b_prio, strategy, b_params)


def _residual(
    runs: Any,
    depth: int | Mapping[str, int] | None,
    budget: int | None,
    measure: Any,
    qrels: Any,
    order: str,
    gain: Any,
) -> Pool:
    """The ``residual`` pool of ``runs``: the unjudged documents by decreasing summed weight
    W of ``measure``, the first ``depth`` a topic (all if None) or the ``budget`` largest
    over every topic."""
    rows = ranked_rows(runs, qrels=qrels, measure=measure, order=order, gain=gain)
    assert rows.weight is not None
    keep = ~rows.judged
    g = _group(rows.topic[keep], rows.doc[keep], rows.weight[keep], "sum")
    topics, docs, prio = _ordered(g)
    params: dict[str, Any] = {"measure": str(getattr(measure, "name", measure))}
    if budget is not None:
        if depth is not None:
            raise ParamError("give depth= (per topic) or budget= (in all), not both")
        top = np.lexsort((docs.astype(str), -prio))[: max(int(budget), 0)]
        sel = np.zeros(prio.size, dtype=bool)
        sel[top] = True
        params["budget"] = int(budget)
    else:
        sel = _head_mask(topics, depth) if depth is not None else np.ones(prio.size, bool)
        params["depth"] = depth
    return Pool(topics[sel], docs[sel], prio[sel], "residual", params)


def _depth(rows: Ranked, depth: int | Mapping[str, int] | None) -> Pool:
    """The depth-k pool of ``rows`` (k = ``depth``, default 10, or one per topic), each
    document's priority minus its best rank."""
    kk = 10 if depth is None else depth
    if isinstance(kk, Mapping):
        lim = np.array([int(kk.get(str(t), 0)) for t in rows.topic], dtype=np.int64)
    else:
        lim = np.full(rows.rank.size, int(kk))
    sel = rows.rank <= lim
    g = _group(rows.topic[sel], rows.doc[sel], -rows.rank[sel].astype(np.float64), "max")
    topics, docs, prio = _ordered(g)
    return Pool(topics, docs, prio, "depth", {"depth": kk})


def _fusion_weights(
    rows: Ranked, strategy: str, p: float, aggregate: str, k: float
) -> tuple[np.ndarray, str, dict[str, Any]]:
    """Each row's weight under ``rbp`` (``(1 - p) p^(rank - 1)``) or ``rrf`` (``1 / (k +
    rank)``), how the weights combine over the runs (``aggregate``; always ``"sum"`` for
    ``rrf``), and the strategy's parameters (checked by :func:`pool`)."""
    if strategy == "rbp":
        w = (1.0 - p) * p ** (rows.rank - 1.0)
        params: dict[str, Any] = {"p": p, "aggregate": aggregate}
    else:
        w = 1.0 / (k + rows.rank)
        aggregate = "sum"
        params = {"k": k}
    return w, aggregate, params


def pool(
    runs: Any,
    strategy: str = "depth",
    *,
    depth: int | Mapping[str, int] | None = None,
    budget: int | None = None,
    p: float = 0.8,
    aggregate: str = "sum",
    k: float = 60.0,
    measure: Any = "RBP(p=0.8)",
    qrels: Any = None,
    order: str = "score",
    gain: Any = None,
    pool_depth: int | None = None,
    judge: Any = None,
    rel: float = 1.0,
) -> Pool:
    """A pool of ``runs`` under ``strategy`` (see the module's description).

    Parameters
    ----------
    runs : run, sequence of runs or mapping of name to run
        Each in any form :func:`cwlkit.as_run` reads; a pytrec_eval dict and a list of
        records are one run (see :func:`named_run_list`).
    strategy : {"depth", "rbp", "rrf", "residual", "maxmean", "mtf"}
    depth : int or mapping of str to int, optional
        ``depth``: the rank cut k (default 10). Otherwise the documents a topic (default 10
        for ``rbp`` and ``rrf``, every retrieved document for ``residual``), or a budget per
        topic (``{topic: n}``). Integers >= 0.
    budget : int, optional
        ``residual`` only: the documents to judge in all, the largest priorities over every
        topic (an integer >= 0).
    p, aggregate : float, {"sum", "max"}
        ``rbp``'s persistence, in (0, 1), and how the runs' weights combine.
    k : float
        ``rrf``'s constant, a number > -1.
    measure : str or Measure
        ``residual``'s C/W/L metric.
    qrels : optional
        ``residual``: judgements already made (their documents are skipped; W follows their
        gains). ``gain`` maps their labels as the Evaluator's option does. ``maxmean`` and
        ``mtf``: the oracle, complete judgements (a document they lack is not relevant).
    pool_depth, judge, rel : optional
        ``maxmean`` and ``mtf``: each run's ranking cut at ``pool_depth`` (an integer >= 1);
        the oracle as a function ``judge(topic, doc) -> label`` instead of ``qrels`` (its
        label a finite number); the smallest label that is relevant (a reward, finite).

    order : {"score", "rank", "file"}
        How each run is ranked (the Evaluator's option). ``"rank"`` takes the rank column's
        values themselves as the ranks for ``depth``, ``rbp`` and ``rrf``, gaps included, as
        trectools does.

    Returns
    -------
    Pool

    Notes
    -----
    Every option is checked whatever the strategy (:mod:`cwlkit.support.checks`; a
    :class:`ParamError` says what was expected), and ``judge``, ``pool_depth``, ``qrels`` or
    ``gain`` given to a strategy that does not use them is refused.

    Examples
    --------
    >>> import cwlkit
    >>> pl = cwlkit.pool([cwlkit.example("run")], strategy="rbp", p=0.8, depth=2)
    >>> pl.to_dict()
    {'T1': ['T1-D1', 'T1-D2'], 'T2': ['T2-D1', 'T2-D2']}
    """
    strategy = check_choice("strategy", strategy, STRATEGIES)
    order = check_choice("order", order, ORDERS)
    depth = check_depth("depth", depth, none=True)
    budget = check_int("budget", budget, least=0, none=True)
    p = cast(float, check_probability("p", p))  # (every option checked, whatever the strategy)
    aggregate = check_choice("aggregate", aggregate, ("sum", "max"))
    k = cast(float, check_number("k", k, least=-1.0, open_low=True))
    check_measure("measure", measure)
    if gain is not None and strategy != "residual":
        raise ParamError(f"gain= is for residual pooling, not {strategy}")
    if strategy in ("maxmean", "mtf"):
        if budget is not None:
            raise ParamError("bandit pooling judges topic by topic: give depth= (per topic)")
        items = [r for _, r in named_run_list(runs)]
        return _bandit(items, strategy, depth, pool_depth, qrels, judge, rel, order)
    check_bandit_options(pool_depth, judge, rel)
    for name, value in (("judge", judge), ("pool_depth", pool_depth)):
        if value is not None:
            raise ParamError(f"{name}= is for maxmean and mtf pooling, not {strategy}")
    if qrels is not None and strategy != "residual":
        raise ParamError(f"qrels= is for residual, maxmean and mtf pooling, not {strategy}")
    if budget is not None and strategy != "residual":
        raise ParamError("a total budget is for residual pooling; give depth= (per topic)")
    items = [r for _, r in named_run_list(runs)]
    if strategy == "residual":
        return _residual(items, depth, budget, measure, qrels, order, gain)
    rows = ranked_rows(items, order=order)
    if strategy == "depth":
        return _depth(rows, depth)
    w, aggregate, params = _fusion_weights(rows, strategy, p, aggregate, k)
    g = _group(rows.topic, rows.doc, w, aggregate)
    topics, docs, prio = _ordered(g)
    n = 10 if depth is None else depth
    sel = _head_mask(topics, n)
    params["depth"] = n
    return Pool(topics[sel], docs[sel], prio[sel], strategy, params)
