"""Probabilistic fusion: methods whose points per rank are learned from judged topics.

Training reads *hit lists*: for each training topic (a topic of the training runs that the
training qrels judge) and each position of a run's ranking, 1 if the document there is
judged relevant (label >= 1, ranx's level) and 0 otherwise. :math:`T` is the number of
training topics, :math:`h_{t,i}` the hit at 0-based position :math:`i` of topic :math:`t`.
Each ``train_*`` function returns one array per run; the fusion functions take them.
"""

from __future__ import annotations

import math

import numpy as np

from ..support import compute as pc
from .layout import Aligned

#: SegFuse's segment bounds: :math:`[0, 5, 15, 35, ..., 5115]`, :math:`10 \cdot 2^{k-1} - 5`
SEGFUSE_BOUNDS = np.array([0] + [10 * 2 ** (k - 1) - 5 for k in range(1, 11)], dtype=np.int64)
#: BayesFuse's cut-offs
BAYES_CUTOFFS = np.array([0, 5, 10, 15, 20, 30, 100, 200, 500, 1000], dtype=np.int64)
#: BayesFuse's log-odds of a document a run did not retrieve: :math:`\log(0.001/0.999)`
MIN_ODD = math.log(0.001 / 0.999)


class Hits:
    """Hit lists of aligned training runs: ``hit`` per row, ``n_topics`` training topics,
    ``topics`` (bool per topic of the layout: a training topic), ``relevant`` per topic."""

    def __init__(self, al: Aligned, qrels) -> None:
        table = qrels.table
        labels = table.column("label").to_numpy()
        rel = labels >= 1
        qt = pc.index_in(table.column("topic").combine_chunks(), al.topics)
        qd = pc.index_in(table.column("doc").combine_chunks(), al.docs)
        qt_np = np.asarray(qt.to_numpy(zero_copy_only=False), dtype=np.float64)
        qd_np = np.asarray(qd.to_numpy(zero_copy_only=False), dtype=np.float64)
        judged_topic = ~np.isnan(qt_np)
        self.topics = np.zeros(al.n_topics, dtype=bool)
        self.topics[qt_np[judged_topic].astype(np.int64)] = True
        self.relevant = np.bincount(
            qt_np[judged_topic & rel].astype(np.int64), minlength=al.n_topics
        ).astype(np.float64)
        known = judged_topic & rel & ~np.isnan(qd_np)
        n_docs = np.int64(len(al.docs))
        keys = qt_np[known].astype(np.int64) * n_docs + qd_np[known].astype(np.int64)
        row_keys = al.topic * n_docs + al.cell_doc[al.cell]
        self.hit = np.isin(row_keys, keys).astype(np.float64)
        self.n_topics = int(self.topics.sum())
        self.al = al
        self.train_row = self.topics[al.topic]


def hits_of(al: Aligned, qrels) -> Hits:
    """The hit lists of ``al``'s runs under ``qrels`` (:class:`Hits`)."""
    return Hits(al, qrels)


def _per_run(h: Hits, index: np.ndarray, values: np.ndarray, size: int) -> list[np.ndarray]:
    """Sum ``values`` of the training rows into ``size`` slots per run at ``index``."""
    al, keep = h.al, h.train_row & (index >= 0) & (index < size)
    flat = np.bincount(
        al.run[keep] * size + index[keep], weights=values[keep], minlength=al.n_runs * size
    )
    return list(flat.reshape(al.n_runs, size))


def train_positions(h: Hits) -> list[np.ndarray]:
    """PosFuse's and SlideFuse's probabilities (Lillis et al., SIGIR 2006; Lillis et al.,
    ECIR 2008): :math:`P_i = \\sum_t h_{t,i} / |\\{t: n_t > i\\}|`, for positions up to the
    longest training list of the run."""
    al = h.al
    out = []
    for r in range(al.n_runs):
        rows = h.train_row & (al.run == r)
        size = int(al.rank[rows].max()) + 1 if rows.any() else 0
        num = np.bincount(al.rank[rows], weights=h.hit[rows], minlength=size)
        den = np.bincount(al.rank[rows], minlength=size)
        out.append(num / den)
    return out


def train_probfuse(h: Hits, n_segments: int) -> list[np.ndarray]:
    """ProbFuse's probabilities (Lillis et al., SIGIR 2006): each topic's list of
    :math:`n_t` is cut into ``n_segments`` segments of :math:`\\lceil n_t / S \\rceil`;
    :math:`P_k = \\frac{1}{T}\\sum_t \\text{(relevant fraction of segment } k)`."""
    al = h.al
    n = al.lengths()[al.run, al.topic]
    size = -(-n // n_segments)
    k = al.rank // np.maximum(size, 1)
    seg_len = np.minimum((k + 1) * size, n) - k * size
    probs = _per_run(h, k, h.hit / np.maximum(seg_len, 1), n_segments)
    return [p / max(h.n_topics, 1) for p in probs]


def train_segfuse(h: Hits) -> list[np.ndarray]:
    """SegFuse's probabilities (Shokouhi, ECIR 2007): segments
    :data:`SEGFUSE_BOUNDS` of sizes :math:`10 \\cdot 2^{k-1} - 5` ...,
    :math:`P_k = \\frac{1}{T}\\sum_t \\sum_{i \\in k} h_{t,i} / |k|`."""
    k = np.searchsorted(SEGFUSE_BOUNDS, h.al.rank, side="right") - 1
    width = np.diff(SEGFUSE_BOUNDS).astype(np.float64)
    ok = k < width.size
    value = np.where(ok, h.hit / width[np.minimum(k, width.size - 1)], 0.0)
    probs = _per_run(h, np.where(ok, k, -1), value, width.size)
    return [p / max(h.n_topics, 1) for p in probs]


def train_bayesfuse(h: Hits) -> list[np.ndarray]:
    """BayesFuse's log-odds (Aslam and Montague, SIGIR 2001), per position up to 1,000:
    for each segment :math:`k` of :data:`BAYES_CUTOFFS`, :math:`p_k` the mean precision of
    the segment over the training topics (0 made 0.001, 1 made 0.999 as ranx makes
    :math:`1 - p` 0.001), and every position of the segment gets
    :math:`\\log(p_k / (1 - p_k))`."""
    k = np.searchsorted(BAYES_CUTOFFS, h.al.rank, side="right") - 1
    width = np.diff(BAYES_CUTOFFS).astype(np.float64)
    ok = k < width.size
    value = np.where(ok, h.hit / width[np.minimum(k, width.size - 1)], 0.0)
    sums = _per_run(h, np.where(ok, k, -1), value, width.size)
    out = []
    for s in sums:
        p = s / max(h.n_topics, 1)
        p = np.where(p == 0, 0.001, p)
        neg = 1.0 - p
        neg = np.where(neg == 0, 0.001, neg)
        out.append(np.repeat(np.log(p / neg), width.astype(np.int64)))
    return out


def train_mapfuse(h: Hits) -> np.ndarray:
    """MAPFuse's weights (Lillis et al., ECIR 2010): each run's mean average precision over
    the training topics, :math:`AP_t = \\frac{1}{|Rel_t|}\\sum_{i: h_{t,i}=1}
    \\frac{\\sum_{j \\le i} h_{t,j}}{i + 1}` (0 for a topic without relevant documents)."""
    al = h.al
    starts = al.block_starts()
    sizes = np.diff(np.append(starts, al.run.size))
    csum = np.cumsum(h.hit)
    before = np.repeat(csum[starts] - h.hit[starts], sizes)
    prec = (csum - before) / (al.rank + 1.0) * h.hit
    rel = h.relevant[al.topic]
    contrib = np.where(rel > 0, prec / np.maximum(rel, 1.0), 0.0) * h.train_row
    total = np.bincount(al.run, weights=contrib, minlength=al.n_runs)
    return total / max(h.n_topics, 1)


# ---- fusion ------------------------------------------------------------------------------


def _sum(al: Aligned, values: np.ndarray) -> np.ndarray:
    return np.bincount(al.cell, weights=values, minlength=al.n_cells)


def _lookup(table: list[np.ndarray], al: Aligned, index: np.ndarray) -> np.ndarray:
    """``table[run][index]`` per row, 0 where ``index`` is beyond the run's array."""
    sizes = np.array([t.size for t in table], dtype=np.int64)
    offsets = np.concatenate(([0], np.cumsum(sizes)[:-1]))
    flat = np.concatenate([np.asarray(t, dtype=np.float64) for t in table] + [np.zeros(1)])
    ok = (index >= 0) & (index < sizes[al.run])
    where = np.where(ok, offsets[al.run] + index, flat.size - 1)
    return np.where(ok, flat[where], 0.0)


def posfuse(al: Aligned, probs: list[np.ndarray]) -> np.ndarray:
    """PosFuse (Lillis et al., SIGIR 2006): :math:`\\sum_{q \\in R_d} P_q[r_{q,d}]`
    (0 beyond the trained positions)."""
    return _sum(al, _lookup(probs, al, al.rank))


def probfuse(al: Aligned, probs: list[np.ndarray]) -> np.ndarray:
    """ProbFuse (Lillis et al., SIGIR 2006): :math:`\\sum_{q \\in R_d} P_q[k] / k`, with
    :math:`k` the 1-based segment of :math:`d` when run :math:`q`'s list of :math:`n_q` is
    cut into :math:`S` (the trained number) segments of :math:`\\lceil n_q / S \\rceil`."""
    n_seg = np.array([p.size for p in probs], dtype=np.int64)
    n = al.lengths()[al.run, al.topic]
    size = -(-n // n_seg[al.run])
    k = al.rank // np.maximum(size, 1)
    return _sum(al, _lookup(probs, al, k) / (k + 1.0))


def segfuse(al: Aligned, probs: list[np.ndarray]) -> np.ndarray:
    """SegFuse (Shokouhi, ECIR 2007): :math:`\\sum_{q \\in R_d} P_q[k] (s_{q,d} + 1)`, with
    :math:`k` the segment of :data:`SEGFUSE_BOUNDS` holding :math:`d`'s rank (0 beyond)."""
    k = np.searchsorted(SEGFUSE_BOUNDS, al.rank, side="right") - 1
    return _sum(al, _lookup(probs, al, k) * (al.value + 1.0))


def slidefuse(al: Aligned, probs: list[np.ndarray], w: int) -> np.ndarray:
    """SlideFuse (Lillis et al., ECIR 2008): :math:`\\sum_{q \\in R_d}
    \\frac{1}{b - a + 1}\\sum_{i=a}^{b} P_q[i]` with :math:`a = \\max(p - w, 0)`,
    :math:`b = \\min(p + w, n_q - 1)`, :math:`p` the 0-based rank (positions beyond the
    trained ones add 0 but count in :math:`b - a + 1`, as in ranx)."""
    n = al.lengths()[al.run, al.topic]
    a = np.maximum(al.rank - w, 0)
    b = np.minimum(al.rank + w, n - 1)
    cs = [np.concatenate(([0.0], np.cumsum(p))) for p in probs]
    lens = np.array([p.size for p in probs], dtype=np.int64)[al.run]
    hi = _lookup(cs, al, np.minimum(b + 1, lens))
    lo = _lookup(cs, al, np.minimum(a, lens))
    return _sum(al, (hi - lo) / (b - a + 1.0))


def bayesfuse(al: Aligned, log_odds: list[np.ndarray]) -> np.ndarray:
    """BayesFuse (Aslam and Montague, SIGIR 2001): :math:`\\sum_q o_q[r_{q,d}]`, the
    log-odds of relevance at the rank, :data:`MIN_ODD` for a run that did not retrieve
    :math:`d` (and, in cwlkit, beyond the trained 1,000 positions)."""
    sizes = np.array([o.size for o in log_odds], dtype=np.int64)[al.run]
    odds = np.where(al.rank < sizes, _lookup(log_odds, al, al.rank), MIN_ODD)
    count = np.bincount(al.cell, minlength=al.n_cells)
    return _sum(al, odds) + (al.n_runs - count) * MIN_ODD


def mapfuse(al: Aligned, map_scores: np.ndarray) -> np.ndarray:
    """MAPFuse (Lillis et al., ECIR 2010): :math:`\\sum_{q \\in R_d} MAP_q / r_{q,d}`."""
    return _sum(al, np.asarray(map_scores, dtype=np.float64)[al.run] / (al.rank + 1.0))
