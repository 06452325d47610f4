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

from collections.abc import Iterator

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from ..errors import CwlkitError, ParamError
from ..io._text import encode_runs, from_numpy, sort_rank
from ..io.trec import Qrels, Run


class _Lines:
    """The line numbers of some rows of a file, computed only when an error needs one (the
    file's own line numbers are lazy too: see :class:`cwlkit.io._text.LazyLines`)."""

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


def check_chunk(chunk_topics: int | None) -> None:
    if chunk_topics is not None and (
        isinstance(chunk_topics, bool) or not isinstance(chunk_topics, int) or chunk_topics < 1
    ):
        raise ParamError(f"chunk_topics must be a positive integer; got {chunk_topics!r}")


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
        keep = rd.filter(pc.is_in(rd, value_set=qd))
    else:
        keep = pa.concat_arrays([rd, qd.filter(pc.invert(pc.is_in(qd, value_set=rd)))])
    order = np.argsort(sort_rank(keep), kind="stable")
    return [str(t) for t in keep.take(from_numpy(order)).to_pylist()]


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
    check_chunk(chunk_topics)
    kept = kept_topics(qrels, run, topics)
    if not kept:
        raise CwlkitError(
            f"no topics to evaluate: {run.path} and {qrels.path} share no topic"
            if topics == "both"
            else "no topics to evaluate"
        )
    n = -(-len(kept) // chunk_topics)
    chunk_of = {t: i // chunk_topics for i, t in enumerate(kept)}
    qo, qb = _rows_by_chunk(qrels.table, chunk_of, n)
    ro, rb = _rows_by_chunk(run.table, chunk_of, n)
    label_values = qrels._cache.get("label_values")
    if label_values is None:
        from .batch import _label_values

        label_values = _label_values(qrels)
    for k in range(n):
        qi, ri = qo[qb[k] : qb[k + 1]], ro[rb[k] : rb[k + 1]]
        q = Qrels(qrels.table.take(from_numpy(qi)), _Lines(qrels.lines, qi), qrels.path)  # type: ignore[arg-type]
        q._cache["label_values"] = label_values
        r = Run(run.table.take(from_numpy(ri)), _Lines(run.lines, ri), run.path)  # type: ignore[arg-type]
        yield q, r
