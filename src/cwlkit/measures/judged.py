"""Judgement coverage of a ranking: ``Judged@k`` (ir_measures' ``Judged``) and ``NumQ``.

``Judged@k`` is the share of the top k retrieved documents that have a judgement of any
label (negative and zero labels included): how much of what a measure sees at depth k was
assessed. It is the complement of trec_eval 10.0's ``unj`` (``Unjudged@k``) only for rankings
with at least k documents, because the two divide differently when a run is shorter than k.
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
class Judged(Measure):
    """Fraction of the top k retrieved documents that are judged (ir_measures' ``Judged@k``).

    ``Judged@k = |{i <= n_k : d_i in qrels}| / n_k`` with ``n_k = min(k, n)``, where ``n`` is
    the number of documents the run retrieved for the topic; without a cutoff ``n_k = n``
    (the whole ranking).

    Parameters
    ----------
    k : int, optional
        Cutoff. Omitted: every retrieved document.

    Notes
    -----
    Conventions (ir_measures 0.4.3's ``judged`` provider, adapted from OpenNIR):

    * a document is judged when the qrels list it for the topic, whatever its label
      (negative "spam" labels and 0 included); unjudged documents count 0;
    * a cutoff past the run's end divides by the run's length, not by k (trec_eval's
      ``unj`` divides by k), so a short, fully judged run scores 1;
    * a topic without retrieved documents (evaluated with ``topics="qrels"``) scores 0, as
      ir_measures' default for a topic the run lacks;
    * ties in score are ordered by the batch (trec_eval: document id descending); ir_measures
      orders them by document id ascending, which can change which documents fill the last
      ranks before k.
    """

    family: ClassVar[str] = "Judged"
    anchors: ClassVar[dict[str, tuple[str, ...]]] = {"ir_measures": ("Judged",)}

    k: int | None = param(None, ge=1, integer=True, doc="cutoff (None: the whole ranking)")

    def compute(self, batch: RankingBatch) -> np.ndarray:
        """Judged@k for every topic of ``batch``, float64[T]."""
        judged = batch.judged & batch.valid
        depth = batch.depth.astype(np.int64)
        if self.k is not None:
            judged = judged[:, : self.k]
            depth = np.minimum(depth, self.k)
        count = judged.sum(axis=1).astype(np.float64)
        return np.where(depth > 0, count / np.maximum(depth, 1), 0.0)


@register
@measure
class NumQ(Measure):
    """Number of topics evaluated: 1 per topic, summed (trec_eval's ``num_q``, ir_measures'
    ``NumQ``).

    Every topic of the evaluation counts, whether or not the run retrieved anything for it
    (with ``topics="qrels"`` a topic the run lacks counts too, as in trec_eval ``-c``;
    ir_measures reports 0 for such a topic, its default for every measure).
    """

    family: ClassVar[str] = "NumQ"
    aliases: ClassVar[tuple[str, ...]] = ("num_q",)
    anchors: ClassVar[dict[str, tuple[str, ...]]] = {
        "ir_measures": ("NumQ",),
        "trec_eval": ("num_q",),
    }
    aggregate: ClassVar[str] = "sum"

    def compute(self, batch: RankingBatch) -> np.ndarray:
        """1.0 for every topic of ``batch``."""
        return np.ones(batch.n_topics)
