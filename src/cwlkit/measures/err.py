"""Expected reciprocal rank (Chapelle, Metzler, Zhang, Grinspan 2009) and gdeval's nDCG.

ERR models a user who reads the ranking top down and stops at rank i, satisfied, with
probability r_i (the "satisfaction probability" of the document's relevance grade)::

    ERR@k = sum_{i=1..k} (r_i / i) prod_{j<i} (1 - r_j)

ERR is *not* a C/W/L metric (Azzopardi, Mackenzie, Moffat, ICTIR 2021): on a ranking where
every r_i = alpha every C/W/L metric scores alpha (its weights sum to one), while ERR scores
alpha + sum_{i>=2} (alpha/i)(1 - alpha)^(i-1) > alpha. See ``docs/err.md``.

gdeval.pl's nDCG (gain 2^g - 1, discount log2(i + 1), ideal ranking from the qrels cut at k)
is :func:`gdeval_ndcg`, reached as ``nDCG(dcg='exp-log2')@k`` (ir_measures' spelling; the
default ``nDCG`` is trec_eval's, gain = label).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from ..core.gains import GainMap
from ..errors import ParamError
from .base import Measure, measure, param
from .registry import register

if TYPE_CHECKING:  # pragma: no cover
    from ..core.batch import RankingBatch

#: gdeval.pl's top grade (``$MAX_JUDGMENT``), ERR's default ``g_max``: ir_measures' ``ERR@k``
#: is gdeval.pl's
GDEVAL_MAX_GRADE = 4.0
#: ``max_grade`` that takes the largest label of the qrels
QRELS_MAX = "qrels"

#: relative size of the last term summed in the residual's geometric tail
TAIL_TOL = 1e-18


def _labels_max(batch: RankingBatch) -> float | None:
    """The largest label of the whole qrels file (every topic, evaluated or not)."""
    top = batch.qrels_max_label
    return top if top is not None else _evaluated_max(batch)


def _evaluated_max(batch: RankingBatch) -> float | None:
    """The largest label in the qrels of the evaluated topics."""
    ql = batch.qrel_labels
    finite = ql[np.isfinite(ql)]
    return float(finite.max()) if finite.size else None


def err_sum(r: np.ndarray) -> np.ndarray:
    """Sum of ``r_i / i * prod_{j<i} (1 - r_j)`` over the columns of ``r`` (float64[T, D]),
    added in rank order (``np.cumsum``: zero columns past a topic's depth leave its bits as
    they are, whatever the width of its batch)."""
    T, D = r.shape
    if D == 0:
        return np.zeros(T)
    survive = np.ones((T, D))
    survive[:, 1:] = np.cumprod(1.0 - r[:, :-1], axis=1)
    return np.cumsum(r * survive / np.arange(1, D + 1, dtype=np.float64), axis=1)[:, -1]


def cascade_tail(depth: np.ndarray, rho: float) -> np.ndarray:
    """ERR of an endless run of documents with probability ``rho``, starting after ``depth``.

    ``sum_{m>=0} rho (1 - rho)^m / (depth + 1 + m)`` for every entry of ``depth`` (the
    contribution of ranks past the end of a run, per user who reached its end). Summed term by
    term until ``(1 - rho)^m`` drops below :data:`TAIL_TOL` (61 terms for rho = 1/2); for
    rho = 1 it is ``1 / (depth + 1)``.
    """
    a = np.asarray(depth, dtype=np.float64) + 1.0
    if rho <= 0.0:
        return np.zeros(a.shape)
    x = 1.0 - rho
    if x <= 0.0:
        return 1.0 / a
    n_terms = int(np.ceil(np.log(TAIL_TOL) / np.log(x))) + 1
    out = np.zeros(a.shape)
    chunk = 4096
    for start in range(0, n_terms, chunk):  # one pass unless rho is tiny
        m = np.arange(start, min(start + chunk, n_terms), dtype=np.float64)
        out += (x**m / (a[:, None] + m[None, :])).sum(axis=1)
    return rho * out


@register
@measure
class ERR(Measure):
    """Expected reciprocal rank, ``ERR@k`` (full depth without a cutoff).

    ``ERR@k = sum_{i=1..min(k, n)} (r_i / i) prod_{j<i} (1 - r_j)`` where ``n`` is the length
    of the run and ``r_i`` the satisfaction probability of the document at rank ``i``.

    Parameters
    ----------
    max_grade : float or "qrels", default 4
        ``g_max`` of the gain mapping: the top grade of the relevance scale. 4 by default,
        gdeval.pl's (and so ir_measures', whose ``ERR@k`` is gdeval.pl's), whatever labels
        the qrels hold: ``ERR@20`` is ir_measures' ``ERR@20``. The ERR paper's Equation 2
        takes ``g_max`` as the top grade of the scale the assessors used: give it
        (``ERR(max_grade=2)@20`` for a 0..2 scale). ``"qrels"``: the largest label in the
        whole qrels file, every topic included, so that a topic's score does not depend on
        which other topics are evaluated (1 if that is not positive). A label of an
        evaluated topic above a numeric ``max_grade`` is an error (gdeval.pl refuses it too).
    gain : {"err", "exp", "linear"}
        Label -> probability: ``err`` (default) ``r = (2^g - 1) / 2^g_max``, the ERR paper's
        Equation 2 (never 1, so some users read on forever); ``exp``
        ``(2^g - 1)/(2^g_max - 1)`` and ``linear`` ``g / g_max`` (both 1 at the top grade: with
        binary labels these make ERR reciprocal rank).
    k : int, optional
        Cutoff: only the first ``k`` ranks count. Omitted: the whole run.

    Notes
    -----
    Conventions: negative labels (spam, junk) and unjudged documents have r = 0; a run shorter
    than ``k`` adds nothing past its end; ties are ordered by the batch (score descending, docno
    descending, as trec_eval and gdeval.pl do).

    :meth:`residual` is the ERR paper's residual (Azzopardi et al. 2021, Section 4): the
    full-depth ERR with every unjudged document, and every rank past the end of the run, at
    the highest grade, minus ERR@k with unjudged documents at r = 0.
    """

    family = "ERR"
    aliases = ("expected_reciprocal_rank",)

    max_grade: float | str = param(
        GDEVAL_MAX_GRADE,
        gt=0.0,
        doc="g_max of the gain mapping: the scale's top grade (gdeval.pl's 4), or 'qrels' "
        "(the largest label in the qrels)",
    )
    gain: str = param(
        "err", choices=("err", "exp", "linear"), doc="label -> satisfaction probability"
    )
    k: int | None = param(None, ge=1, integer=True, doc="cutoff (default: the whole run)")

    def __post_init__(self) -> None:
        if isinstance(self.max_grade, str) and self.max_grade != QRELS_MAX:
            raise ParamError(
                f"The 'max_grade' parameter of {self.family} must be a number > 0 or "
                f"{QRELS_MAX!r}; got {self.max_grade!r}."
            )
        if self.max_grade is None:  # (not a grade: the largest label is spelled "qrels")
            raise ParamError(
                f"The 'max_grade' parameter of {self.family} must be a number > 0 or "
                f"{QRELS_MAX!r}; got None."
            )
        super().__post_init__()

    def gain_map(self, batch: RankingBatch) -> GainMap:
        """The label -> probability mapping for ``batch`` (checks labels against max_grade)."""
        top = _labels_max(batch)
        if not isinstance(self.max_grade, str):
            top = _evaluated_max(batch)  # only the labels that are mapped must fit
            if top is not None and top > self.max_grade:
                raise ParamError(
                    f"qrels label {top:g} is above the max_grade {self.max_grade:g} of "
                    f"{self.name}; give the scale's top grade (ERR(max_grade={top:g})) or "
                    f"max_grade='qrels' (the largest label)"
                )
            top = float(self.max_grade)
        if top is None or top <= 0:
            top = 1.0
        return GainMap(self.gain, float(top))

    def probabilities(
        self, batch: RankingBatch, *, unjudged: float = 0.0, cut: bool = True
    ) -> np.ndarray:
        """float64[T, D'] satisfaction probabilities of the ranked documents.

        Unjudged documents get ``unjudged``; ranks past a run's end 0. With ``cut`` only the
        first ``k`` columns are returned.
        """
        gm = self.gain_map(batch)
        labels = batch.labels
        judged, valid = batch.judged, batch.valid
        if cut and self.k is not None:
            labels, judged, valid = labels[:, : self.k], judged[:, : self.k], valid[:, : self.k]
        r = gm(labels)
        return np.where(valid, np.where(judged, np.nan_to_num(r, nan=0.0), unjudged), 0.0)

    def compute(self, batch: RankingBatch) -> np.ndarray:
        """ERR@k for every topic of ``batch``, float64[T]."""
        return err_sum(self.probabilities(batch))

    def top_probability(self, batch: RankingBatch) -> float:
        """The satisfaction probability of the highest grade (``g_max``)."""
        gm = self.gain_map(batch)
        return float(gm(np.array([gm.max_label]))[0])

    def upper(self, batch: RankingBatch) -> np.ndarray:
        """Full-depth ERR with unjudged documents and every rank past the run at the top grade."""
        rho = self.top_probability(batch)
        r = self.probabilities(batch, unjudged=rho, cut=False)
        inside = err_sum(r)
        reach_end = np.cumprod(1.0 - r, axis=1)[:, -1] if r.shape[1] else np.ones(r.shape[0])
        return inside + reach_end * cascade_tail(batch.depth, rho)

    def residual(self, batch: RankingBatch) -> np.ndarray:
        """How much ERR@k could still rise: :meth:`upper` minus :meth:`compute` (>= 0)."""
        return np.maximum(self.upper(batch) - self.compute(batch), 0.0)


def gdeval_ndcg(batch: RankingBatch, k: int) -> np.ndarray:
    """nDCG@k as gdeval.pl computes it (``nDCG(dcg='exp-log2')@k``), float64[T].

    ``DCG@k = sum_{i=1..min(k, n)} (2^{g_i} - 1) / log2(i + 1)``; negative labels and
    unjudged documents have gain 0; ``IDCG@k`` is the same sum over the topic's qrels labels
    sorted in decreasing order (every judged document, retrieved or not), cut at ``k``. A
    topic without a positive label scores 0 (gdeval.pl does not evaluate such topics at all).
    Unlike trec_eval's ``nDCG`` (gain = label), the gain is exponential; with binary labels
    the two coincide.
    """
    lab = np.where(batch.judged & batch.valid, batch.labels, 0.0)[:, :k]
    ideal = np.nan_to_num(batch.qrel_labels, nan=0.0)[:, :k]
    dcg = _dcg(lab)
    idcg = _dcg(ideal)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(idcg > 0, dcg / np.where(idcg > 0, idcg, 1.0), 0.0)


def _dcg(labels: np.ndarray) -> np.ndarray:
    T, D = labels.shape
    if D == 0:
        return np.zeros(T)
    gain = np.exp2(np.maximum(labels, 0.0)) - 1.0
    # gdeval.pl's discount: log(i + 1) / log(2), i = 1..D
    disc = np.log(np.arange(2, D + 2, dtype=np.float64)) / np.log(2.0)
    return np.cumsum(gain / disc, axis=1)[:, -1]  # rank order: the same bits in any batch
