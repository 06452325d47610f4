"""Runs aligned for fusion: every run's rows, their topic, their cell and their rank.

A *cell* is one (topic, document) pair retrieved by at least one run; the fused run has one
row per cell. The rows of all runs are kept in one set of flat arrays ordered by run, topic,
then rank (decreasing score, ties by decreasing document id: trec_eval's order), so that every
fusion method is a handful of numpy operations over all topics at once (``np.bincount`` over
cells, ``reduceat`` over (run, topic) blocks), with no Python loop per topic or document.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pyarrow as pa

from ..errors import InputError
from ..support import compute as pc


@dataclass
class Aligned:
    """The rows of ``n_runs`` runs over the same topics.

    Attributes
    ----------
    topics : pyarrow.Array
        The topic ids (sorted strings); ``topic`` codes index it.
    docs : pyarrow.Array
        The document ids (sorted strings); ``cell_doc`` codes index it.
    n_runs : int
    run, topic, cell : numpy.ndarray
        int64 per row: its run, topic and cell.
    value : numpy.ndarray
        float64 per row: its score (after normalisation, see :mod:`.normalise`).
    rank : numpy.ndarray
        int64 per row: its 0-based position in its run's ranking of its topic.
    cell_topic, cell_doc : numpy.ndarray
        int64 per cell: its topic and document codes.
    """

    topics: pa.Array
    docs: pa.Array
    n_runs: int
    run: np.ndarray
    topic: np.ndarray
    cell: np.ndarray
    value: np.ndarray
    rank: np.ndarray
    cell_topic: np.ndarray
    cell_doc: np.ndarray

    @property
    def n_topics(self) -> int:
        return len(self.topics)

    @property
    def n_cells(self) -> int:
        return int(self.cell_topic.size)

    def block_starts(self) -> np.ndarray:
        """Start row of each (run, topic) block that has rows (rows are sorted by both)."""
        key = self.run * self.n_topics + self.topic
        return np.flatnonzero(np.concatenate(([True], key[1:] != key[:-1])))

    def lengths(self) -> np.ndarray:
        """int64 [runs, topics]: how many documents each run retrieved for each topic."""
        counts = np.bincount(
            self.run * self.n_topics + self.topic, minlength=self.n_runs * self.n_topics
        )
        return counts.reshape(self.n_runs, self.n_topics)

    def candidates(self) -> np.ndarray:
        """int64 per topic: how many distinct documents the runs retrieved for it."""
        return np.bincount(self.cell_topic, minlength=self.n_topics)

    def with_values(self, value: np.ndarray, *, reorder: bool) -> Aligned:
        """These rows with other values; ``reorder``: rank them again by the new values."""
        out = Aligned(**{**self.__dict__, "value": value})
        return out.ranked() if reorder else out

    def ranked(self) -> Aligned:
        """Rows grouped by (run, topic), each group by decreasing value then decreasing
        document id; ranks anew. (The groups keep the order they come in when each is
        contiguous; rows already in that order are not sorted.)"""
        order = rank_order(
            self.run * self.n_topics + self.topic, self.value, self.cell_doc[self.cell]
        )
        if order is None:
            out = Aligned(**self.__dict__)
        else:
            out = Aligned(
                self.topics,
                self.docs,
                self.n_runs,
                self.run[order],
                self.topic[order],
                self.cell[order],
                self.value[order],
                self.rank,
                self.cell_topic,
                self.cell_doc,
            )
        starts = out.block_starts()
        sizes = np.diff(np.append(starts, out.run.size))
        rank = np.arange(out.run.size, dtype=np.int64)
        rank -= np.repeat(starts, sizes)
        out.rank = rank
        return out

    def select_topics(self, keep: np.ndarray) -> Aligned:
        """The rows (and cells) of the topics where ``keep`` (bool per topic) is True."""
        rows = keep[self.topic]
        cells = keep[self.cell_topic]
        new_cell = np.cumsum(cells) - 1
        return Aligned(
            self.topics,
            self.docs,
            self.n_runs,
            self.run[rows],
            self.topic[rows],
            new_cell[self.cell[rows]],
            self.value[rows],
            self.rank[rows],
            self.cell_topic[cells],
            self.cell_doc[cells],
        )


def rank_order(
    group: np.ndarray, value: np.ndarray, doc: np.ndarray, *, sort_groups: bool = False
) -> np.ndarray | None:
    """The permutation that puts rows (``group``: int64 >= 0) in contiguous groups, each by
    decreasing ``value`` then decreasing ``doc``; None when they already are. Groups keep
    their first-seen order when each is contiguous (the usual input: a run's topics one
    after the other) unless ``sort_groups``, else they are sorted by ``group``."""
    n = group.size
    if n == 0:
        return None
    change = group[1:] != group[:-1]
    contiguous = False
    if not sort_groups or not (group[1:] < group[:-1]).any():
        distinct = int(np.count_nonzero(np.bincount(group)))
        contiguous = int(change.sum()) + 1 == distinct
    if contiguous:
        if _in_order(change, value, doc):
            return None
        seg = np.concatenate(([0], np.cumsum(change)))
    else:
        seg = group
    # ties of value are rare: sort by (group, -value), then settle any tie by document
    order = np.lexsort((-value, seg))
    sv, sg = value[order], seg[order]
    tie = (sv[1:] == sv[:-1]) & (sg[1:] == sg[:-1])
    if tie.any():
        order = np.lexsort((-doc, -value, seg))
    return order


def _in_order(change: np.ndarray, value: np.ndarray, doc: np.ndarray) -> bool:
    """Whether every row is by decreasing value, then decreasing document, within its group
    (``change[i]``: rows ``i`` and ``i + 1`` are in different groups). Checked a million rows
    at a time, so that the temporary arrays stay small."""
    step = 1 << 20
    for lo in range(0, change.size, step):
        hi = min(lo + step, change.size)
        same = ~change[lo:hi]
        after, before = value[lo + 1 : hi + 1][same], value[lo:hi][same]
        tie = after == before
        ordered = after < before
        if tie.any():
            ordered[tie] = doc[lo + 1 : hi + 1][same][tie] < doc[lo:hi][same][tie]
        if not ordered.all():
            return False
    return True


def _sorted_codes(column: pa.ChunkedArray) -> tuple[np.ndarray, pa.Array]:
    """int64 codes of ``column`` into its distinct values sorted (so codes order as strings).

    The chunks are encoded as they are (one dictionary for all of them), with no copy of
    their strings put end to end."""
    enc = pc.dictionary_encode(column)
    chunks = enc.chunks
    if not chunks:
        return np.zeros(0, dtype=np.int64), pa.array([], pa.string())
    dictionary = chunks[-1].dictionary
    order = np.asarray(pc.sort_indices(dictionary), dtype=np.int64)
    where = np.empty(order.size, dtype=np.int64)
    where[order] = np.arange(order.size, dtype=np.int64)
    codes = np.concatenate([where[c.indices.to_numpy(zero_copy_only=False)] for c in chunks])
    return codes, pc.take(dictionary, pa.array(order))


def _strings(tables: list[pa.Table], name: str) -> pa.ChunkedArray:
    """Column ``name`` of every table, as one chunked array of strings."""
    chunks = []
    for t in tables:
        col = t.column(name)
        if not pa.types.is_string(col.type):  # pragma: no cover - tables hold strings
            col = pc.cast(col, pa.string())
        chunks.extend(col.chunks)
    return pa.chunked_array(chunks, pa.string())


def align(runs: list) -> Aligned:
    """Align :class:`~cwlkit.io.trec.Run` objects (at least one) for fusion.

    Topics are the union of the runs' topics (a run without a topic retrieved nothing for it);
    they must share at least one. ``runs`` is emptied as it is read, so that the runs' strings
    are freed once encoded (the caller's inputs are its own and are kept).

    Raises
    ------
    InputError
        Runs with no topic in common.
    """
    n_runs = len(runs)
    tables = [r.table.select(["topic", "doc", "score"]) for r in runs]
    runs.clear()
    sizes = np.array([t.num_rows for t in tables], dtype=np.int64)
    score = np.concatenate(
        [t.column("score").to_numpy().astype(np.float64, copy=False) for t in tables]
    )
    topic_col, doc_col = _strings(tables, "topic"), _strings(tables, "doc")
    del tables
    topic, topics = _sorted_codes(topic_col)
    del topic_col
    doc, docs = _sorted_codes(doc_col)
    del doc_col
    run = np.repeat(np.arange(n_runs, dtype=np.int64), sizes)
    n_topics = len(topics)
    seen = np.zeros((n_runs, n_topics), dtype=bool)
    seen[run, topic] = True
    if n_topics and not seen.all(axis=0).any():
        raise InputError(f"the {n_runs} runs have no topic in common")
    if n_topics == 0:
        raise InputError("the runs retrieved nothing: no topic to fuse")
    key = topic * np.int64(len(docs)) + doc
    del doc
    enc = pc.dictionary_encode(pa.array(key))
    del key
    cell = np.asarray(enc.indices.to_numpy(zero_copy_only=False), dtype=np.int64)
    cell_key = enc.dictionary.to_numpy()
    del enc
    out = Aligned(
        topics,
        docs,
        n_runs,
        run,
        topic,
        cell,
        score,
        np.zeros(0, dtype=np.int64),
        cell_key // len(docs),
        cell_key % len(docs),
    )
    return out.ranked()
