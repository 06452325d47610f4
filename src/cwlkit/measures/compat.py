"""Compatibility (Clarke, Vtyurina and Smucker, TOIS 2021): how close a ranking is to an ideal.

The ideal ranking lists every document judged relevant (label > 0) by decreasing label;
compatibility is the rank-biased overlap (RBO) of the run with it, normalised by the RBO of
the ideal with itself so that a finite ideal ranking can score 1. Computed for all topics at
once from the batch (no loop over topics or ranks): a relevant retrieved document adds its
weight to every depth at which it is in both prefixes, so the sums reduce to prefix sums of
the RBO weights.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

import numpy as np

from .base import Measure, measure, param
from .registry import register

if TYPE_CHECKING:  # pragma: no cover
    from ..core.batch import RankingBatch


@register
@measure
class Compat(Measure):
    """Compatibility: RBO of the run against the ideal ranking, normalised (ir_measures' Compat).

    With ``n`` the number of retrieved documents, ``R`` the number of documents judged
    relevant (label > 0), ``d = max(n, R)``, ``A_i`` the run's top ``i`` and ``I_i`` the ideal
    ranking's top ``i``::

        RBO(A, I) = sum_{i=1..d} p^(i-1) |A_i & I_i| / i  /  sum_{i=1..d} p^(i-1)
        Compat    = RBO(A, I) / RBO(I, I)        (normalize=True)
        Compat    = RBO(A, I)                    (normalize=False)

    ``RBO(I, I) = sum_i p^(i-1) min(i, R) / i / sum_i p^(i-1)`` is the best score a ranking
    of depth ``d`` can reach, so a normalised Compat is 1 for the ideal ranking.

    Parameters
    ----------
    p : float, default 0.95
        Persistence of the RBO weights, in (0, 1] (Clarke et al. use 0.95).
    normalize : bool, default True
        Divide by the ideal ranking's own RBO (for finite ideal rankings).

    Notes
    -----
    Conventions:

    * the ideal ranking holds the judged documents with label > 0, by decreasing label;
      documents of equal label are ordered as the run ranks them, retrieved before
      unretrieved (ties in the ideal are broken in the run's favour, as Clarke et al. do);
    * unjudged, zero and negative documents of the run never overlap the ideal, but they
      count in the run's length ``n``, which sets the depth ``d``;
    * ``d`` covers the whole run and the whole ideal ranking: there is no cutoff, and no
      extrapolation past ``d``;
    * a topic without relevant documents scores 0 (so does one without retrieved documents);
    * ties in score are ordered by the batch (trec_eval: document id descending).

    ir_measures 0.4.3's compat provider computes the same formula but ranks ties by document
    id ascending and, in the ideal, orders documents of equal label by the run's score with
    unretrieved documents at score 0.0 (so before retrieved ones when the run's scores are
    negative) and documents of equal score in qrels order. On a run with distinct positive
    scores the two agree.
    """

    family: ClassVar[str] = "Compat"
    aliases: ClassVar[tuple[str, ...]] = ("compatibility",)
    anchors: ClassVar[dict[str, tuple[str, ...]]] = {"ir_measures": ("Compat",)}

    p: float = param(0.95, gt=0.0, le=1.0, doc="persistence of the RBO weights")
    normalize: bool = param(True, doc="divide by the ideal ranking's RBO")

    def compute(self, batch: RankingBatch) -> np.ndarray:
        """Compat for every topic of ``batch``, float64[T]."""
        return compatibility(batch, self.p, normalize=self.normalize)


def compatibility(batch: RankingBatch, p: float, *, normalize: bool = True) -> np.ndarray:
    """Compatibility of every topic of ``batch`` (see :class:`Compat`), float64[T].

    A relevant retrieved document at rank ``r`` (0-based) and ideal position ``q`` is in both
    prefixes from depth ``m = max(r, q) + 1`` on, so it adds ``S(d) - S(m)`` to the RBO sum,
    where ``S(j) = sum_{i<j} p^i / (i + 1)``; its ideal position is the number of relevant
    documents with a higher label plus the retrieved ones of its label ranked above it.
    """
    T = batch.n_topics
    with np.errstate(invalid="ignore"):
        rel = batch.valid & batch.judged & (batch.labels > 0)
        ideal_pos = batch.qrel_labels > 0
    n_ideal = ideal_pos.sum(axis=1).astype(np.int64)
    depth = np.maximum(batch.depth.astype(np.int64), n_ideal)
    width = int(depth.max(initial=0))
    steps = np.arange(width, dtype=np.float64)
    weight = np.power(float(p), steps)
    s = np.concatenate(([0.0], np.cumsum(weight / (steps + 1.0))))
    norm = np.concatenate(([0.0], np.cumsum(weight)))

    t_idx, r_idx = np.nonzero(rel)  # relevant retrieved documents, by topic then rank
    labels = batch.labels[t_idx, r_idx]
    q_idx = _ideal_position(batch, t_idx, r_idx, labels, ideal_pos, n_ideal)
    m = np.maximum(r_idx, q_idx)
    num = np.bincount(t_idx, weights=s[depth[t_idx]] - s[m], minlength=T)
    if normalize:
        den = norm[n_ideal] + n_ideal * (s[depth] - s[n_ideal])
    else:
        den = norm[depth]
    return np.where(den > 0, num / np.where(den > 0, den, 1.0), 0.0)


def _ideal_position(
    batch: RankingBatch,
    t_idx: np.ndarray,
    r_idx: np.ndarray,
    labels: np.ndarray,
    ideal_pos: np.ndarray,
    n_ideal: np.ndarray,
) -> np.ndarray:
    """0-based position in the ideal ranking of each relevant retrieved document."""
    if t_idx.size == 0:
        return np.zeros(0, dtype=np.int64)
    # relevant qrels entries above each label of the same topic: sort the qrels labels and
    # the queries together, a query before qrels entries of its own label, and count
    qt, qc = np.nonzero(ideal_pos)
    qv = batch.qrel_labels[qt, qc]
    n_q = t_idx.size
    topic = np.concatenate((t_idx, qt))
    neg_label = -np.concatenate((labels, qv))
    is_qrel = np.concatenate((np.zeros(n_q, np.int64), np.ones(qt.size, np.int64)))
    order = np.lexsort((is_qrel, neg_label, topic))
    qrels_before = np.cumsum(is_qrel[order])
    first_of_topic = np.concatenate(([0], np.cumsum(n_ideal)[:-1]))
    above = np.empty(n_q, dtype=np.int64)
    is_query = order < n_q
    above[order[is_query]] = qrels_before[is_query] - first_of_topic[topic[order[is_query]]]
    # retrieved relevant documents of the same topic and label ranked above
    order2 = np.lexsort((r_idx, labels, t_idx))
    ts, ls = t_idx[order2], labels[order2]
    new_group = np.ones(n_q, dtype=bool)
    new_group[1:] = (ts[1:] != ts[:-1]) | (ls[1:] != ls[:-1])
    start = np.maximum.accumulate(np.where(new_group, np.arange(n_q), 0))
    same_above = np.empty(n_q, dtype=np.int64)
    same_above[order2] = np.arange(n_q) - start
    return above + same_above
