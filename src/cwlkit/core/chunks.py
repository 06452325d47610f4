"""Topic chunks: split a qrels and a run into groups of whole topics, in byte order.

Every measure scores a topic from that topic's lines alone, so evaluating the chunks one
after the other and concatenating their per-topic values gives the values of the whole run,
in the same (byte) topic order; summaries computed from the concatenation are then the same,
bit for bit. Each chunk's batch (the ``[T, D]`` matrices and their temporaries, the largest
part of an evaluation's peak memory) holds only ``chunk_topics`` topics.

What stays global: the topic set kept (``topics=`` rule, decided on the whole files), the
qrels' label values (``gain="linear"`` divides by the largest label of the whole qrels), the
run's tag (the tag of its last line).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator

import numpy as np
import pyarrow as pa

from ..errors import CwlkitError, NoTopicsError, ParamError
from ..io.text import encode_runs, from_numpy, sort_rank
from ..io.trec import Qrels, Run
from ..support import compute as pc
from .batch import RankingBatch


class RowLines:
    """The line numbers of some rows of a file, computed only when an error needs one (the
    file's own line numbers are lazy too: see :class:`cwlkit.io.text.LazyLines`)."""

    def __init__(self, parent, rows: np.ndarray) -> None:
        self._parent, self._rows = parent, rows

    @property
    def array(self) -> np.ndarray:
        return np.asarray(self._parent)[self._rows]

    def __getitem__(self, i):
        return self.array[i]

    def __len__(self) -> int:
        return int(self._rows.size)

    def __array__(self, dtype=None, copy=None):
        return self.array if dtype is None else self.array.astype(dtype)

    @property
    def size(self) -> int:
        return int(self._rows.size)

    def __reduce__(self):
        # sent to another process (a Dask worker): only this chunk's line numbers, unless
        # they are still to be computed from a file that can be read again
        if getattr(self._parent, "_reload", None) is not None:
            return (RowLines, (self._parent, self._rows))
        return (np.array, (self.array,))


def check_chunk(chunk_topics: int | str | None, *, auto: bool = False) -> None:
    """A positive integer (or None; or, with ``auto``, the string ``"auto"``)."""
    from ..support.checks import check_int

    if auto and isinstance(chunk_topics, str) and chunk_topics == "auto":
        return
    if isinstance(chunk_topics, str):
        also = " or 'auto'" if auto else ""
        raise ParamError(f"chunk_topics must be a positive integer{also}; got {chunk_topics!r}")
    check_int("chunk_topics", chunk_topics, least=1, none=True)


def widen(batch: RankingBatch, depth: int, judged: int) -> RankingBatch:
    """``batch`` with its ranking matrices ``depth`` columns wide and its qrels matrix
    ``judged`` columns wide (padded past the end as the batch pads: NaN labels, unjudged,
    invalid), the widths of a larger batch holding these topics: every measure then scores
    each topic as in that batch, to the bit (a row sum's rounding depends on its length).
    """
    T, D = batch.labels.shape
    Q = batch.qrel_labels.shape[1]
    if D > depth or Q > judged:
        raise CwlkitError(f"cannot narrow a batch ({D}, {Q}) to ({depth}, {judged})")
    if (D, Q) == (depth, judged):
        return batch

    def pad(a: np.ndarray, width: int, fill, was: int) -> np.ndarray:
        if a.shape[1] != was:  # [T, 0]: not kept (scores and q0 of light batches)
            return a
        out = np.full((T, width), fill, dtype=a.dtype)
        out[:, :was] = a
        return out

    out = dataclasses.replace(
        batch,
        labels=pad(batch.labels, depth, np.nan, D),
        judged=pad(batch.judged, depth, False, D),
        valid=pad(batch.valid, depth, False, D),
        scores=pad(batch.scores, depth, np.nan, D),
        q0=pad(batch.q0, depth, -1, D),
        qrel_labels=pad(batch.qrel_labels, judged, np.nan, Q),
        memo=dict(batch.memo),
    )
    return out


def kept_topics(qrels: Qrels, run: Run, topics: str) -> list[str]:
    """The topics the ``topics`` rule keeps (``both``, ``qrels``, ``run``, ``either``), in
    byte (strcmp) order."""
    _, rd = encode_runs(run.table.column("topic"))
    _, qd = encode_runs(qrels.table.column("topic"))
    if topics == "run":
        keep = rd
    elif topics == "qrels":
        keep = qd
    elif topics == "both":
        keep = pc.filter(rd, pc.is_in(rd, value_set=qd))
    else:
        keep = pa.concat_arrays([rd, pc.filter(qd, pc.invert(pc.is_in(qd, value_set=rd)))])
    order = np.argsort(sort_rank(keep), kind="stable")
    return [str(t) for t in pc.take(keep, from_numpy(order)).to_pylist()]


def _rows_by_chunk(table: pa.Table, chunk_of: dict[str, int], n_chunks: int):
    """(row order grouping rows by chunk, file order kept within; chunk bounds in it)."""
    codes, dictionary = encode_runs(table.column("topic"))
    of_code = np.array([chunk_of.get(str(t), -1) for t in dictionary.to_pylist()], np.int64)
    chunk = of_code[codes] if codes.size else codes
    order = np.argsort(chunk, kind="stable")
    bounds = np.searchsorted(chunk[order], np.arange(n_chunks + 1))
    return order, bounds


def split(qrels: Qrels, run: Run, topics: str, chunk_topics: int) -> Iterator[tuple[Qrels, Run]]:
    """Yield ``(qrels, run)`` restricted to each group of ``chunk_topics`` kept topics."""
    plan = Chunks(qrels, run, topics, chunk_topics)
    for k in range(plan.n):
        yield plan.chunk(k)


class Chunks:
    """The topic chunks of a loaded ``(qrels, run)``: ``n`` groups of ``chunk_topics`` kept
    topics (byte order); :meth:`chunk` makes one. Only row indices are kept here, so that
    processes sharing this object (forked) can each make the chunks they are given."""

    def __init__(self, qrels: Qrels, run: Run, topics: str, chunk_topics: int) -> None:
        check_chunk(chunk_topics)
        kept = kept_topics(qrels, run, topics)
        if not kept:
            raise NoTopicsError.between(run.path, qrels.path, topics)
        self.n = n = -(-len(kept) // chunk_topics)
        chunk_of = {t: i // chunk_topics for i, t in enumerate(kept)}
        self._q = (qrels, *_rows_by_chunk(qrels.table, chunk_of, n))
        self._r = (run, *_rows_by_chunk(run.table, chunk_of, n))
        label_values = qrels.memo.get("label_values")
        if label_values is None:
            from .batch import qrels_label_values

            label_values = qrels_label_values(qrels)
        self.label_values = label_values

    def chunk(self, k: int) -> tuple[Qrels, Run]:
        """``(qrels, run)`` of chunk ``k`` (rows in file order)."""
        qrels, qo, qb = self._q
        run, ro, rb = self._r
        qi, ri = qo[qb[k] : qb[k + 1]], ro[rb[k] : rb[k + 1]]
        q = Qrels(pc.take(qrels.table, from_numpy(qi)), RowLines(qrels.lines, qi), qrels.path)
        q.memo["label_values"] = self.label_values
        r = Run(pc.take(run.table, from_numpy(ri)), RowLines(run.lines, ri), run.path)
        return q, r
