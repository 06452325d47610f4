"""A run's documents encoded together with the judged documents of its topics.

Evaluating a run needs two things of each run row's document string: a code (to find a
document retrieved twice for a topic, to order tied scores by docno) and the qrels row that
judges it for the row's topic, if any. Both come from one hashing pass per block of run rows
(whole topics, about ``BLOCK_ROWS`` rows): the block's run documents are dictionary-encoded
together with the qrels documents of the block's topics, which come first, so that a run
document that is judged anywhere in those topics shares the code of its qrels rows. A code
held by one qrels row gives each run row with that code its candidate row, kept when the
topics agree (one gather); the few codes of documents judged for several of the block's
topics are looked up among those rows' sorted (topic, code) keys. The hash tables are small
enough to stay in cache, the blocks run on every core, and the qrels' own documents are
never encoded as a whole (one table over every judged document costs several times more).
The qrels side (rows grouped by topic) is prepared once per qrels (:class:`JudgedByTopic`).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pyarrow as pa

from ..support.arrays import unique
from . import text
from .text import from_numpy, to_numpy


def _ranges(starts: np.ndarray, counts: np.ndarray) -> np.ndarray:
    """The concatenated ranges ``starts[i] .. starts[i] + counts[i] - 1``."""
    total = int(counts.sum())
    if total == 0:
        return np.zeros(0, dtype=np.int64)
    return np.repeat(starts - (np.cumsum(counts) - counts), counts) + np.arange(total)


@dataclass(frozen=True)
class JudgedByTopic:
    """The qrels arranged for :func:`joint_encode`: rows grouped by topic (kept with the
    qrels, for every run evaluated against them).

    Attributes
    ----------
    topic : numpy.ndarray
        int64 topic code of each qrels row, in ``topics``.
    topics : pyarrow.Array
        The qrels' topic dictionary.
    docs : pyarrow.Array
        The document of each qrels row.
    order : numpy.ndarray
        The qrels rows, topic by topic (a stable sort of ``topic``).
    first, count : numpy.ndarray
        Where each topic code's rows start in ``order``, and how many there are.
    """

    topic: np.ndarray
    topics: pa.Array
    docs: pa.Array
    order: np.ndarray
    first: np.ndarray
    count: np.ndarray

    @classmethod
    def of(cls, topic: np.ndarray, topics: pa.Array, docs: pa.Array) -> JudgedByTopic:
        """Arrange the qrels rows with topic codes ``topic`` and documents ``docs``."""
        order = np.argsort(topic, kind="stable")
        first = np.searchsorted(topic[order], np.arange(len(topics) + 1))
        return cls(topic, topics, docs, order, first[:-1], np.diff(first))


def joint_encode(
    run_topic: np.ndarray,
    run_topics: pa.Array,
    run_docs: pa.Array,
    judged: JudgedByTopic,
    *,
    block: int | None = None,
    max_ratio: float = 4.0,
) -> tuple[np.ndarray, pa.Array, np.ndarray] | None:
    """Encode the run's documents with the judged documents of its topics.

    Parameters
    ----------
    run_topic : numpy.ndarray
        int64 topic code of each run row, in ``run_topics``.
    run_docs : pyarrow.Array
        The document of each run row.
    judged : JudgedByTopic
        The qrels (no (topic, document) pair twice).
    block : int, optional
        Run rows per block (whole topics: a topic is never split); default ``BLOCK_ROWS``.
    max_ratio : float
        Give up (None) when the qrels rows of the run's topics outnumber the run's rows by
        more than this: hashing them for this run alone would cost more than a lookup in the
        qrels' own dictionary, encoded once for every run.

    Returns
    -------
    (codes, dictionary, qrels_row) or None
        int64 code of each run row's document in ``dictionary`` (equal strings of one topic
        share a code; the dictionary may repeat a string across blocks and holds the qrels'
        strings too), and the qrels row judging each run row's (topic, document), -1 where
        none does. None when a topic's run rows are not contiguous or per ``max_ratio``.
    """
    from ..support import compute as pc

    n = run_topic.size
    block = text.BLOCK_ROWS if block is None else block
    change = np.flatnonzero(run_topic[1:] != run_topic[:-1]) + 1
    starts = np.concatenate(([0], change)) if n else np.zeros(0, dtype=np.int64)
    if unique(run_topic[starts]).size != starts.size:
        return None
    r2q = to_numpy(pc.index_in(run_topics, value_set=judged.topics), null=-1).astype(np.int64)
    wanted = r2q[run_topic[starts]]
    if judged.count[wanted[wanted >= 0]].sum() > max_ratio * max(n, 1):
        return None
    bounds = np.concatenate((starts, [n]))
    cuts = unique(bounds[np.searchsorted(bounds, np.arange(0, max(n, 1), block))])
    cuts = np.concatenate((cuts, [n])) if cuts[-1] != n else cuts
    spans = list(zip(cuts[:-1].tolist(), cuts[1:].tolist(), strict=True))

    def one(ab: tuple[int, int]) -> tuple[np.ndarray, pa.Array, np.ndarray]:
        q = r2q[run_topic[starts[(starts >= ab[0]) & (starts < ab[1])]]]
        return _encode_block(run_topic, run_docs, r2q, judged, q[q >= 0], *ab)

    from ..support.threads import thread_map

    parts = thread_map(one, spans, least=2)
    codes = np.empty(n, dtype=np.int64)
    match = np.empty(n, dtype=np.int64)
    offset = 0
    for (a, b), (rc, dictionary, m) in zip(spans, parts, strict=True):
        codes[a:b] = rc + offset
        match[a:b] = m
        offset += len(dictionary)
    return codes, pa.concat_arrays([p[1] for p in parts]), match


def _encode_block(
    run_topic: np.ndarray,
    run_docs: pa.Array,
    r2q: np.ndarray,
    judged: JudgedByTopic,
    topics: np.ndarray,
    a: int,
    b: int,
) -> tuple[np.ndarray, pa.Array, np.ndarray]:
    """(codes, dictionary, qrels rows) of the run rows ``a:b``, whose topics are judged
    under the qrels topic codes ``topics`` (``r2q``: run topic code -> qrels', or -1)."""
    from ..support import compute as pc

    rows = judged.order[_ranges(judged.first[topics], judged.count[topics])]
    strings = pa.concat_arrays([pc.take(judged.docs, from_numpy(rows)), run_docs.slice(a, b - a)])
    enc = pc.dictionary_encode(strings)
    idx = to_numpy(enc.indices).astype(np.int64)
    rc = idx[rows.size :]
    return rc, enc.dictionary, _match(rows, idx[: rows.size], rc, judged.topic, r2q[run_topic[a:b]])


def _match(
    rows: np.ndarray,
    qcodes: np.ndarray,
    rcodes: np.ndarray,
    qrels_topic: np.ndarray,
    rtopic: np.ndarray,
) -> np.ndarray:
    """The qrels row (of ``rows``, coded ``qcodes``) with each run row's qrels topic
    ``rtopic`` (-1: not judged) and document code ``rcodes``, -1 where none.

    The qrels strings were encoded first, so their codes are ``0 .. K-1`` and a run code of
    ``K`` or more is judged for none of these topics. A code of one qrels row only (a
    document judged for one topic) is checked by a gather; the run rows whose code several
    qrels rows share are looked up among those rows' sorted (topic, code) keys.
    """
    if rows.size == 0:
        return np.full(rcodes.size, -1, dtype=np.int64)
    k = int(qcodes.max()) + 1
    # per code (and one more for "not judged here"): a qrels row and its topic
    at = np.full(k + 1, -1, dtype=np.int64)
    at[qcodes] = rows  # (for a shared code, one of its rows: looked up again below)
    topic_at = np.full(k + 1, -2, dtype=np.int64)
    topic_at[qcodes] = qrels_topic[rows]
    code = np.minimum(rcodes, k)
    out = np.where(topic_at[code] == rtopic, at[code], -1)
    shared = np.bincount(qcodes, minlength=k) > 1
    if shared.any():
        many = np.flatnonzero((rcodes < k) & (rtopic >= 0))
        many = many[shared[rcodes[many]]]
        out[many] = _search(rows, qcodes, qrels_topic, rcodes[many], rtopic[many], k)
    return out


def _search(
    rows: np.ndarray,
    qcodes: np.ndarray,
    qrels_topic: np.ndarray,
    rcodes: np.ndarray,
    rtopic: np.ndarray,
    width: int,
) -> np.ndarray:
    """:func:`_match` by binary search among the sorted (topic, code) keys of ``rows``."""
    qkey = qrels_topic[rows] * width + qcodes
    order = np.argsort(qkey)
    qkey = qkey[order]
    rkey = rtopic * width + rcodes
    pos = np.minimum(np.searchsorted(qkey, rkey), qkey.size - 1)
    return np.where(qkey[pos] == rkey, rows[order[pos]], -1)
