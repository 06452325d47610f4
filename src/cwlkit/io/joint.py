"""A run's documents encoded together with the judged documents of its topics.

Evaluating a run needs two things of each run row's document string: a code (to find a
document retrieved twice for a topic, to order tied scores by docno) and the qrels row that
judges it for the row's topic, if any. Both come from one hashing pass per block of run rows
(whole topics, about ``BLOCK_ROWS`` rows): the block's run documents are dictionary-encoded
together with the qrels documents of the block's topics, which come first, so that a run
document that is judged anywhere in those topics shares the code of its qrels rows; the
(topic, code) pairs of the qrels rows, sorted, then give each run row its qrels row by binary
search. The hash tables are small enough to stay in cache, the blocks run on every core, and
the qrels' own documents are never encoded as a whole (one table over every judged
document costs several times more).
"""

from __future__ import annotations

import numpy as np
import pyarrow as pa

from .._arrays import unique
from . import _text
from ._text import from_numpy, to_numpy


def _ranges(starts: np.ndarray, counts: np.ndarray) -> np.ndarray:
    """The concatenated ranges ``starts[i] .. starts[i] + counts[i] - 1``."""
    total = int(counts.sum())
    if total == 0:
        return np.zeros(0, dtype=np.int64)
    return np.repeat(starts - (np.cumsum(counts) - counts), counts) + np.arange(total)


def joint_encode(
    run_topic: np.ndarray,
    run_topics: pa.Array,
    run_docs: pa.Array,
    qrels_topic: np.ndarray,
    qrels_topics: pa.Array,
    qrels_docs: pa.Array,
    *,
    block: int | None = None,
    max_ratio: float = 4.0,
) -> tuple[np.ndarray, pa.Array, np.ndarray] | None:
    """Encode the run's documents with the judged documents of its topics.

    Parameters
    ----------
    run_topic, qrels_topic : numpy.ndarray
        int64 topic code of each run row / qrels row, in ``run_topics`` / ``qrels_topics``.
    run_docs, qrels_docs : pyarrow.Array
        The document of each run row / qrels row (no (topic, document) pair twice in the
        qrels).
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
    import pyarrow.compute as pc

    n = run_topic.size
    block = _text.BLOCK_ROWS if block is None else block
    change = np.flatnonzero(run_topic[1:] != run_topic[:-1]) + 1
    starts = np.concatenate(([0], change)) if n else np.zeros(0, dtype=np.int64)
    if unique(run_topic[starts]).size != starts.size:
        return None
    r2q = to_numpy(pc.index_in(run_topics, value_set=qrels_topics), null=-1).astype(np.int64)
    qorder = np.argsort(qrels_topic, kind="stable")
    qfirst = np.searchsorted(qrels_topic[qorder], np.arange(len(qrels_topics) + 1))
    qcount = np.diff(qfirst)
    wanted = r2q[run_topic[starts]]
    if qcount[wanted[wanted >= 0]].sum() > max_ratio * max(n, 1):
        return None
    bounds = np.concatenate((starts, [n]))
    cuts = unique(bounds[np.searchsorted(bounds, np.arange(0, max(n, 1), block))])
    cuts = np.concatenate((cuts, [n])) if cuts[-1] != n else cuts
    spans = list(zip(cuts[:-1].tolist(), cuts[1:].tolist(), strict=True))

    def one(ab: tuple[int, int]) -> tuple[np.ndarray, pa.Array, np.ndarray]:
        a, b = ab
        q = r2q[run_topic[starts[(starts >= a) & (starts < b)]]]
        q = q[q >= 0]
        rows = qorder[_ranges(qfirst[q], qcount[q])]
        strings = pa.concat_arrays([qrels_docs.take(from_numpy(rows)), run_docs.slice(a, b - a)])
        enc = pc.dictionary_encode(strings)
        idx = to_numpy(enc.indices).astype(np.int64)
        rc, width = idx[rows.size :], len(enc.dictionary)
        got = _match(rows, idx[: rows.size], rc, qrels_topic, r2q[run_topic[a:b]], width)
        return rc, enc.dictionary, got

    from .._parallel import thread_map

    parts = thread_map(one, spans, least=2)
    codes = np.empty(n, dtype=np.int64)
    match = np.empty(n, dtype=np.int64)
    offset = 0
    for (a, b), (rc, dictionary, m) in zip(spans, parts, strict=True):
        codes[a:b] = rc + offset
        match[a:b] = m
        offset += len(dictionary)
    return codes, pa.concat_arrays([p[1] for p in parts]), match


def _match(
    rows: np.ndarray,
    qcodes: np.ndarray,
    rcodes: np.ndarray,
    qrels_topic: np.ndarray,
    rtopic: np.ndarray,
    width: int,
) -> np.ndarray:
    """The qrels row (of ``rows``, coded ``qcodes``) with each run row's qrels topic
    ``rtopic`` (-1: not judged) and document code ``rcodes``, -1 where none."""
    out = np.full(rcodes.size, -1, dtype=np.int64)
    if rows.size == 0:
        return out
    qkey = qrels_topic[rows] * width + qcodes
    order = np.argsort(qkey)
    qkey = qkey[order]
    rkey = rtopic * width + rcodes
    pos = np.searchsorted(qkey, rkey)
    np.minimum(pos, qkey.size - 1, out=pos)
    hit = (qkey[pos] == rkey) & (rtopic >= 0)
    out[hit] = rows[order[pos[hit]]]
    return out
