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
        out.rank = np.arange(out.run.size, dtype=np.int64) - np.repeat(starts, sizes)
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
        same = ~change
        dv = value[1:] - value[:-1]
        ordered = (dv[same] < 0) | ((dv[same] == 0) & (doc[1:][same] < doc[:-1][same]))
        if ordered.all():
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


def _sorted_codes(column: pa.Array) -> tuple[np.ndarray, pa.Array]:
    """int64 codes of ``column`` into its distinct values sorted (so codes order as strings)."""
    enc = pc.dictionary_encode(column)
    dictionary = enc.dictionary
    order = np.asarray(pc.sort_indices(dictionary), dtype=np.int64)
    where = np.empty(order.size, dtype=np.int64)
    where[order] = np.arange(order.size, dtype=np.int64)
    codes = where[np.asarray(enc.indices.to_numpy(zero_copy_only=False), dtype=np.int64)]
    return codes, pc.take(dictionary, pa.array(order))


def align(runs: list) -> Aligned:
    """Align :class:`~cwlkit.io.trec.Run` objects (at least one) for fusion.

    Topics are the union of the runs' topics (a run without a topic retrieved nothing for it);
    they must share at least one.

    Raises
    ------
    InputError
        Runs with no topic in common.
    """
    tables = [r.table.select(["topic", "doc", "score"]) for r in runs]
    sizes = np.array([t.num_rows for t in tables], dtype=np.int64)
    topic_col = pa.chunked_array([c for t in tables for c in t.column("topic").chunks], pa.string())
    doc_col = pa.chunked_array([c for t in tables for c in t.column("doc").chunks], pa.string())
    topic_col = topic_col.combine_chunks() if topic_col.num_chunks != 1 else topic_col.chunk(0)
    doc_col = doc_col.combine_chunks() if doc_col.num_chunks != 1 else doc_col.chunk(0)
    if pa.types.is_dictionary(topic_col.type):  # pragma: no cover - tables hold strings
        topic_col = topic_col.cast(pa.string())
    topic, topics = _sorted_codes(topic_col)
    doc, docs = _sorted_codes(doc_col)
    del topic_col, doc_col  # (the codes hold what is needed: free the strings)
    score = np.concatenate(
        [t.column("score").to_numpy().astype(np.float64, copy=False) for t in tables]
    )
    run = np.repeat(np.arange(len(runs), dtype=np.int64), sizes)
    n_topics = len(topics)
    seen = np.zeros((len(runs), n_topics), dtype=bool)
    seen[run, topic] = True
    if n_topics and not seen.all(axis=0).any():
        raise InputError(f"the {len(runs)} runs have no topic in common")
    if n_topics == 0:
        raise InputError("the runs retrieved nothing: no topic to fuse")
    key = topic * np.int64(len(docs)) + doc
    enc = pc.dictionary_encode(pa.array(key))
    cell = np.asarray(enc.indices.to_numpy(zero_copy_only=False), dtype=np.int64)
    cell_key = enc.dictionary.to_numpy()
    del enc, key
    out = Aligned(
        topics,
        docs,
        len(runs),
        run,
        topic,
        cell,
        score,
        np.zeros(0, dtype=np.int64),
        cell_key // len(docs),
        cell_key % len(docs),
    )
    return out.ranked()
