"""Streamed evaluation of one run file (``chunk_topics`` of :class:`cwlkit.Evaluator`).

A text run file, plain or gzipped (and such a qrels file not yet read), is streamed in
blocks into topic
buckets on disk (:mod:`cwlkit.io.partition`); the buckets are then joined and scored one at
a time, and the per-topic values put back in the order :meth:`cwlkit.Evaluator.evaluate` gives
(byte order of topics, or the order of first appearance in the run with ``order="file"``).
Peak memory is one block of text, one bucket's batch and the per-topic values, not the
files.

Every measure scores a topic from that topic's lines alone, so the values are those of the
whole file: each bucket's ranking matrices are padded to the widths the whole run's batch
would have (the longest ranking kept, the most judgements of a topic kept), so that sums
whose rounding depends on the row length (numpy's pairwise summation) are the same. One
exception: the C/W/L engine skips the ranks past which every user of a batch has stopped
(AP past every topic's last relevant document...), and where that is depends on the
batch, so C/W/L values may differ from the whole file's in their last bits (1e-15
relative). What depends on the whole files is computed from all of them: the topics kept
(``topics=``), the qrels' label values (``gain="linear"``, the default ``max_gain``), the
run's tag (that of its last line).

Errors name the file and line as reading the whole files does, the qrels' first when both
files have one. Memory: the topic ids (with their line counts) and the per-topic values are
kept for the whole run; a topic's ranking matrices are as wide as the longest ranking.
"""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from ..errors import CwlkitError, FormatError, NoTopicsError
from ..io.partition import first_error
from ..results import Results

if TYPE_CHECKING:  # pragma: no cover
    from ..plan import Plan

#: bytes of text parsed at a time when streaming
BLOCK = 1 << 20
#: run columns kept when the batch needs more than trec_eval's (costs, ties, rank order)
FULL_RUN = ("topic", "q0", "doc", "rank", "score_text", "tag")


class MemoryParts:
    """The topic buckets of qrels already in memory, as :class:`~cwlkit.io.partition.Parts`
    gives those of a file (``read(k)``, ``counts``, ``labels``, ``path``), bucketed as
    ``buckets`` says (topics it has not seen: dropped when frozen, else new buckets)."""

    def __init__(self, obj: Any, buckets: Any) -> None:
        from ..core.batch import qrels_label_values

        codes, dictionary = obj.codes()[:2]
        topics = [str(t) for t in dictionary.to_pylist()]
        n = np.bincount(codes, minlength=len(topics))
        b = buckets.assign(topics, n.tolist())[codes] if codes.size else codes
        self._order = np.argsort(b, kind="stable")
        self._bounds = np.searchsorted(b[self._order], np.arange(buckets.n + 1))
        self.counts = dict(zip(topics, n.tolist(), strict=True))
        self.labels = set(qrels_label_values(obj).tolist())
        self.path, self._obj = obj.path, obj

    def read(self, k: int):
        from ..core.chunks import RowLines
        from ..io.text import from_numpy

        rows = self._order[self._bounds[k] : self._bounds[k + 1]]
        if rows.size == 0:
            return None
        obj = self._obj
        return type(obj)(obj.table.take(from_numpy(rows)), RowLines(obj.lines, rows), obj.path)


def evaluate_streamed(
    plan: Plan,
    qrels: Any,
    run_path: str,
    buckets,
    name: str | None,
    *,
    jobs: int | None = 1,
    progress: bool | None = None,
) -> Results:
    """:meth:`cwlkit.Evaluator.evaluate` of the run file ``run_path``, one bucket of topics at
    a time (``buckets``: a :class:`~cwlkit.io.partition.Buckets`) in each of ``jobs``
    processes (see :func:`cwlkit.executors.processes.imap`: a task is a bucket's index, the
    buckets are read from disk by the process scoring them, at most ``2 * jobs`` are in
    flight, and the Results are collected in bucket order, so they are those of ``jobs=1``).

    ``qrels`` is the path of a qrels file (plain or gzipped: streamed too) or a loaded
    :class:`Qrels`. The run is partitioned first (its topics fill the buckets in order of
    appearance), then the qrels, into the run's buckets (their topics the run lacks: into
    further buckets when the ``topics`` rule keeps them, else dropped).
    """
    o = plan.options
    try:
        with tempfile.TemporaryDirectory(prefix="cwlkit-") as tmp:
            qp, rp = _partitions(plan, qrels, run_path, buckets, Path(tmp))
            label_values = np.asarray(sorted(qp.labels), dtype=np.float64)
            plan.streamed_label_values = label_values  # (the whole qrels', for messages)
            kept = len(_kept(o.topics, qp.counts, rp.counts))
            widths = _widths(plan, qp, rp, buckets.n, label_values)
            out = _Collected(kept, o.order == "file")
            try:
                parts = (qp, rp, label_values, widths)
                _score_buckets(plan, parts, buckets.n, name, jobs, out, progress)
            finally:
                for parts in (qp, rp):
                    getattr(parts, "close", lambda: None)()
    except FormatError as exc:
        # the whole-file path reads the qrels first: an error in them comes before the run's
        if exc.path != str(qrels) and isinstance(qrels, str):
            first = first_error(qrels, "qrels", rules=o.rules, block=BLOCK)
            if first is not None:
                raise first from None
        raise
    if not out.n:
        raise NoTopicsError.between(run_path, qp.path, o.topics)
    return out.results()


def _partitions(plan: Plan, qrels: Any, run_path: str, buckets, tmp: Path):
    """(qrels parts, run parts): the run partitioned first (its topics fill ``buckets`` in
    order of appearance), then the qrels."""
    from ..io.partition import partition

    keep = None if plan.light else FULL_RUN
    o = plan.options
    rp = partition(
        run_path,
        "run",
        buckets,
        tmp,
        rules=o.rules,
        keep=keep,
        counts=True,
        block=BLOCK,
    )
    buckets.frozen = plan.options.topics in ("run", "both")
    if isinstance(qrels, str):
        qp: Any = partition(qrels, "qrels", buckets, tmp, rules=o.rules, counts=True, block=BLOCK)
    else:
        qp = MemoryParts(qrels, buckets)
    return qp, rp


def _kept(topics: str, q: dict[str, int], r: dict[str, int]) -> list[str]:
    """The topics the ``topics`` rule keeps, given the topics of the qrels and of the run."""
    if topics == "run":
        return list(r)
    if topics == "qrels":
        return list(q)
    if topics == "both":
        return [t for t in r if t in q]
    return [*r, *(t for t in q if t not in r)]


def _widths(plan: Plan, qp, rp, buckets: int, label_values: np.ndarray) -> tuple[int, int]:
    """(D, Q): the widths of the whole run's batch (longest ranking kept, most judgements of a
    kept topic). With ``judged_only`` the kept rankings are known only once joined: each
    bucket's batch is built once more to measure them."""
    o = plan.options
    qc, rc = qp.counts, rp.counts
    kept = _kept(o.topics, qc, rc)
    Q = max((qc.get(t, 0) for t in kept), default=0)
    if not o.judged_only:
        D = max((rc.get(t, 0) for t in kept), default=0)
        return (D if o.depth is None else min(D, o.depth)), Q
    D = 0
    for k in range(buckets):
        pair = _pair(plan, qp, rp, k, label_values)
        if pair is not None:
            D = max(D, plan.build(*pair).max_depth)
    return D, Q


def _pair(plan: Plan, qp, rp, k: int, label_values: np.ndarray):
    """(qrels, run) of bucket ``k``; None when the ``topics`` rule keeps none of its topics."""
    from ..io.text import to_numpy
    from ..support import compute as pc

    q, r = qp.read(k), rp.read(k)
    topics = plan.options.topics
    if q is None and r is None:
        return None
    if r is None and topics in ("run", "both") or q is None and topics in ("qrels", "both"):
        return None
    if q is None:
        q = _empty_qrels(qp.path)
    if r is None:
        r = _empty_run(rp.path, plan.light)
    if topics == "both" and not to_numpy(pc.is_in(r.codes()[1], value_set=q.codes()[1])).any():
        return None
    q.memo["label_values"] = label_values
    return q, r


def _score_buckets(
    plan: Plan,
    parts: tuple,
    n: int,
    name: str | None,
    jobs: int | None,
    out: _Collected,
    progress: bool | None = None,
) -> None:
    """Score the ``n`` buckets of ``parts`` (qrels parts, run parts, label values, widths)
    over ``jobs`` processes into ``out``, in bucket order (``progress``: a bar on stderr)."""
    from contextlib import closing

    from .processes import imap, progress_bar

    qp, rp = parts[:2]
    for p in (qp, rp):  # each process opens the bucket files for itself
        getattr(p, "close", lambda: None)()
    state = (plan, *parts, name or rp.last_tag)
    work = closing(imap(_bucket_task, state, range(n), jobs=jobs))
    with work as done, progress_bar(n, "topic chunks", "chunk", progress) as tick:
        for got in done:
            if got is not None:
                out.add(*got)
            tick(0 if got is None else len(got[0].topics))
            del got


def _bucket_task(state: tuple, k: int):
    """:func:`_bucket` ``k`` of ``state`` (the Plan, qrels parts, run parts, label
    values, widths, run name): module level, run in worker processes."""
    plan, qp, rp, label_values, widths, run = state
    return _bucket(plan, qp, rp, k, label_values, widths, run)


def _bucket(plan: Plan, qp, rp, k: int, label_values, widths, run: str):
    """(Results of bucket ``k``, each topic's first line in the run), or None when empty."""
    from ..core.chunks import widen

    pair = _pair(plan, qp, rp, k, label_values)
    if pair is None:
        return None
    q, r = pair
    del pair
    batch = widen(plan.build(q, r), *widths)
    first = None
    if plan.options.order == "file":
        codes, dictionary = r.codes()[:2]
        _, at = np.unique(codes, return_index=True)
        line = dict(zip(dictionary.to_pylist(), np.asarray(r.lines)[at].tolist(), strict=True))
        first = np.array([line.get(str(t), np.inf) for t in batch.topics], dtype=np.float64)
    del q, r
    res = plan.score(batch, run=run)
    return res, first


class _Collected:
    """The buckets' Results, gathered into arrays made once for the ``n`` topics kept (the
    small per-bucket arrays would otherwise pin the heap between the buckets' large
    temporaries, which then could not reuse its freed memory)."""

    def __init__(self, n: int, file_order: bool) -> None:
        self.size, self.n = n, 0
        self.topics: list[str] = []
        self.first = np.full(n, np.inf) if file_order else None
        self.values: np.ndarray | None = None
        self.columns: dict[str, np.ndarray] = {}
        self.text: dict[str, list[str]] = {}
        self.absent: set[str] = set()
        self.meta: tuple = ()

    def add(self, res: Results, first: np.ndarray | None) -> None:
        """Append the topics of one bucket (``first``: their first lines in the run)."""
        at, t = self.n, len(res.topics)
        if self.values is None:
            shape = (res.values.shape[0], self.size)
            self.values = np.full(shape, np.nan)
            self.columns = {c: np.full(shape, np.nan) for c in res.columns}
            self.meta = (res.measures, res.run, res.aggregates)
        self.values[:, at : at + t] = res.values
        for c, v in res.columns.items():
            self.columns[c][:, at : at + t] = v
        if self.first is not None and first is not None:
            self.first[at : at + t] = first
        for m, strings in res.text.items():
            self.text.setdefault(m, []).extend(strings)
        self.absent.update(res.absent)
        self.topics += res.topics
        self.n += t

    def results(self) -> Results:
        """One Results, topics in byte order, or (order of the file) in order of first
        appearance in the run (topics it lacks last, in byte order)."""
        from ..io.text import from_strings, sort_rank

        if self.n != self.size:  # (the topics counted when partitioning are those scored)
            raise CwlkitError(f"internal error: {self.n} topics scored, {self.size} expected")
        rank = sort_rank(from_strings(self.topics))
        order = np.argsort(rank) if self.first is None else np.lexsort((rank, self.first))
        measures, run, aggregates = self.meta
        assert self.values is not None
        # the memory order of the whole-file Results (C order; with order="file", that of
        # their reordering, ``values[:, order]``): a sum along a row adds its terms in
        # another order in another layout, and means would differ in their last bits
        lay = np.ascontiguousarray if self.first is None else _same

        topics = [self.topics[i] for i in order]
        return Results(
            lay(self.values[:, order]),
            measures,
            topics,
            {c: lay(v[:, order]) for c, v in self.columns.items()},
            run,
            aggregates,
            text={m: [v[i] for i in order] for m, v in self.text.items()},
            absent=[t for t in topics if t in self.absent],
        )


def _same(a: np.ndarray) -> np.ndarray:
    return a


def _empty_qrels(path: str):
    """Qrels without lines (a bucket with run topics only)."""
    import pyarrow as pa

    from ..io.text import from_numpy, from_strings
    from ..io.trec import Qrels

    none = from_strings([])
    table = pa.table({"topic": none, "doc": none, "label": from_numpy(np.zeros(0))})
    return Qrels(table, np.zeros(0, np.int64), path)


def _empty_run(path: str, light: bool):
    """A run without lines (a bucket with qrels topics only)."""
    import pyarrow as pa

    from ..io.text import from_numpy, from_strings
    from ..io.trec import Run

    names = ("topic", "doc", "tag") if light else ("topic", "q0", "doc", "rank", "tag")
    cols: dict[str, Any] = {c: from_strings([]) for c in names}
    cols["score"] = from_numpy(np.zeros(0))
    return Run(pa.table(cols), np.zeros(0, np.int64), path)
