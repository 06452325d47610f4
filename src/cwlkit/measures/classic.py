"""The lecture's classic measures where trec_eval's conventions differ.

* ``F(beta=1)`` and ``F(beta=b)@k``: the F measure of the retrieved set (or of the top k),
  weighted with ``beta**2`` as in van Rijsbergen, Manning et al. and the lecture. trec_eval's
  ``set_F`` (``SetF`` here) weights with ``beta`` itself; the two agree only at beta = 1.
  ``F(alpha=a)`` is the lecture's other form, ``1 / (alpha/P + (1 - alpha)/R)``.
* ``IAP11``: 11-point interpolated average precision of each topic, with the recall levels
  reached at ``ceil(r * R)`` relevant documents exactly. trec_eval's ``11pt_avg`` rounds that
  count (``(long)(r R + 0.9)`` in 9.0.8, ``lround(r R)`` in 10.0), so it differs on topics
  whose R is not a multiple of 10.
* :func:`contingency`: precision, recall, F and accuracy from a 2x2 contingency table, for
  unranked results that are not a run.

Precision and recall at a rank (``P@k``, ``R@k``), average precision and set precision and
recall are the same in the lecture and in trec_eval; they are trec_eval's measures in the
registry. The curves (precision/recall at each rank, interpolated precision at any recall
level, ROC) are in :mod:`cwlkit.measures.curves`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from .base import Measure, measure, param
from .curves import STANDARD_LEVELS, interpolated_precision, relevant
from .registry import register

if TYPE_CHECKING:  # pragma: no cover
    from ..core.batch import RankingBatch


def f_beta(precision: np.ndarray, recall: np.ndarray, beta: float = 1.0) -> np.ndarray:
    """The lecture's F measure: ``(beta^2 + 1) P R / (beta^2 P + R)``, elementwise.

    The weighted harmonic mean ``1 / (alpha / P + (1 - alpha) / R)`` with
    ``beta^2 = (1 - alpha) / alpha``: beta = 1 is F1 = 2PR / (P + R), beta < 1 favours
    precision, beta > 1 recall; beta = 0 gives P and beta = inf gives R (exactly, whatever
    the other value). Otherwise F is 0 when P and R are both 0 (0/0 := 0).
    """
    p = np.asarray(precision, dtype=np.float64)
    r = np.asarray(recall, dtype=np.float64)
    shape = np.broadcast_shapes(p.shape, r.shape)
    if beta == 0:  # alpha = 1: all weight on precision, whatever the recall
        return np.broadcast_to(p, shape).astype(np.float64, copy=True)
    if np.isinf(beta):  # alpha = 0: all weight on recall
        return np.broadcast_to(r, shape).astype(np.float64, copy=True)
    b2 = float(beta) * float(beta)  # (** raises past the float range; * gives inf)
    if np.isinf(b2):  # F tends to R: (b2 + 1) P R / (b2 P + R) -> R
        return np.broadcast_to(r, shape).astype(np.float64, copy=True)
    den = b2 * p + r
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(den > 0, (b2 + 1.0) * p * r / np.where(den > 0, den, 1.0), 0.0)


def f_alpha(precision: np.ndarray, recall: np.ndarray, alpha: float = 0.5) -> np.ndarray:
    """The lecture's F measure in its alpha form: ``1 / (alpha / P + (1 - alpha) / R)``.

    The weighted harmonic mean of P and R, alpha in [0, 1]: alpha = 1 gives P and alpha = 0
    gives R (exactly, whatever the other value); otherwise F is 0 when P or R is 0 (the limit
    of the harmonic mean). Equal to :func:`f_beta` with ``beta^2 = (1 - alpha) / alpha``, up to
    rounding: alpha = 0.5 is F1.
    """
    p = np.asarray(precision, dtype=np.float64)
    r = np.asarray(recall, dtype=np.float64)
    shape = np.broadcast_shapes(p.shape, r.shape)
    a = float(alpha)
    if a == 1.0:
        return np.broadcast_to(p, shape).astype(np.float64, copy=True)
    if a == 0.0:
        return np.broadcast_to(r, shape).astype(np.float64, copy=True)
    ok = (p > 0) & (r > 0)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(
            ok, 1.0 / (a / np.where(ok, p, 1.0) + (1.0 - a) / np.where(ok, r, 1.0)), 0.0
        )


def contingency(
    tp, fp, fn, tn=None, *, beta: float = 1.0, alpha: float | None = None
) -> dict[str, np.ndarray]:
    """Set measures from a 2x2 contingency table (unranked retrieval).

    Parameters
    ----------
    tp, fp, fn : array_like of int
        Relevant retrieved (true positives), non-relevant retrieved (false positives) and
        relevant not retrieved (false negatives).
    tn : array_like of int, optional
        Non-relevant not retrieved (true negatives); needed only for accuracy.
    beta : float
        F weighting (``beta^2``, see :func:`f_beta`).
    alpha : float, optional
        F weighting in the alpha form instead (see :func:`f_alpha`); give beta or alpha.

    Returns
    -------
    dict
        ``precision = TP / (TP + FP)``, ``recall = TP / (TP + FN)`` (each 0 when its
        denominator is 0), ``F`` and, with ``tn``, ``accuracy = (TP + TN) / (TP + FP + FN + TN)``
        and ``fallout = FP / (FP + TN)``. Values are float64 arrays (0-d for scalar input).

    Examples
    --------
    The lecture's example: 20 relevant retrieved, 40 non-relevant retrieved, 60 relevant
    missed gives P = 1/3, R = 1/4, F1 = 2/7.

    >>> contingency(20, 40, 60)["F"]
    array(0.28571429)
    """
    tp, fp, fn = (np.asarray(x, dtype=np.float64) for x in (tp, fp, fn))
    for name, x in (("tp", tp), ("fp", fp), ("fn", fn)):
        if np.any(x < 0):
            from ..errors import ParamError

            raise ParamError(f"contingency counts must be >= 0; got {name}={x.tolist()}")
    with np.errstate(invalid="ignore", divide="ignore"):
        p = np.where(tp + fp > 0, tp / (tp + fp), 0.0)
        r = np.where(tp + fn > 0, tp / (tp + fn), 0.0)
        if alpha is not None and beta != 1.0:
            from ..errors import ParamError

            raise ParamError("give F's weight as beta or as alpha, not both")
        f = f_beta(p, r, beta) if alpha is None else f_alpha(p, r, alpha)
        out = {"precision": p, "recall": r, "F": f}
        if tn is not None:
            tn = np.asarray(tn, dtype=np.float64)
            total = tp + fp + fn + tn
            out["accuracy"] = np.where(total > 0, (tp + tn) / total, 0.0)
            out["fallout"] = np.where(fp + tn > 0, fp / (fp + tn), 0.0)
    return out


def set_counts(
    batch: RankingBatch, rel: float = 1.0, k: int | None = None
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(retrieved, relevant retrieved, relevant) per topic, int64[T] each.

    The retrieved set is the whole run, or its first ``k`` documents when ``k`` is given (a run
    shorter than ``k`` retrieves only its own documents). Relevant: qrels label ``>= rel``;
    unjudged documents are not relevant.
    """
    isrel = relevant(batch, rel)
    if k is None:
        ret, rel_ret = batch.depth, isrel.sum(axis=1)
    else:
        ret, rel_ret = np.minimum(batch.depth, int(k)), isrel[:, : int(k)].sum(axis=1)
    return ret.astype(np.int64), rel_ret.astype(np.int64), batch.num_rel(rel)


@register
@measure
class F(Measure):
    """F measure of the retrieved set, the lecture's ``beta^2`` (or ``alpha``) weighting.

    ``F_beta = (beta^2 + 1) P R / (beta^2 P + R)`` with set precision ``P = rel_ret / ret``
    and set recall ``R = rel_ret / num_rel``, over the whole run, or over its first ``k``
    documents with ``@k`` (the lecture's "set measure of each prefix").

    Or, with ``alpha``, the lecture's other form ``F = 1 / (alpha/P + (1 - alpha)/R)``: the
    same measure with ``beta^2 = (1 - alpha) / alpha`` (``F(alpha=0.2)`` is ``F(beta=2)`` up to
    rounding), computed in that form. Give beta or alpha, not both.

    Parameters
    ----------
    beta : float, default 1
        Relative weight of recall (``beta^2 = (1 - alpha) / alpha``); 0 gives P, ``inf`` R.
    rel : float, default 1
        Relevance threshold: qrels labels ``>= rel`` are relevant.
    k : int, optional
        Cutoff: the retrieved set is the top ``k`` documents.
    alpha : float, optional
        Weight of precision in [0, 1], instead of beta: 1 gives P, 0 gives R, 0.5 is F1
        (``F(alpha=0.5)`` and ``F(beta=1)`` are both spelled ``F``).

    Notes
    -----
    Unjudged documents are non-relevant. A run shorter than ``k`` is its own retrieved set
    (unlike ``P@k``, which divides by ``k``). P = 0 for an empty run, R = 0 for a topic with
    no relevant documents, F = 0 when P = R = 0.

    trec_eval's ``set_F`` (``SetF``) computes ``(beta + 1) P R / (beta P + R)``: its
    ``SetF(beta=b)`` equals ``F(beta=sqrt(b))``; they agree only at beta = 1.
    """

    family = "F"
    aliases = ("Fbeta", "F_beta")
    beta: float | None = param(
        None,
        ge=0.0,
        infinite=True,
        doc="weight of recall against precision (squared); default 1; inf: recall",
    )
    rel: float = param(1.0, doc="relevance threshold: labels >= rel are relevant")
    k: int | None = param(None, ge=1, integer=True, doc="cutoff: F of the top k documents")
    alpha: float | None = param(
        None, ge=0.0, le=1.0, doc="weight of precision, 1/(alpha/P + (1-alpha)/R); not with beta"
    )

    def __post_init__(self) -> None:
        super().__post_init__()
        if self.alpha is not None and self.beta is not None:
            from ..errors import ParamError

            raise ParamError(
                "F takes beta or alpha, not both (beta^2 = (1 - alpha)/alpha); "
                f"got beta={self.beta!r}, alpha={self.alpha!r}."
            )
        # the balanced F1, however spelled, is F: one name, one measure
        if self.beta is not None and float(self.beta) == 1.0:
            object.__setattr__(self, "beta", None)
        if self.alpha is not None and float(self.alpha) == 0.5:
            object.__setattr__(self, "alpha", None)

    def compute(self, batch: RankingBatch) -> np.ndarray:
        ret, rel_ret, R = set_counts(batch, self.rel, self.k)
        with np.errstate(invalid="ignore", divide="ignore"):
            p = np.where(ret > 0, rel_ret / np.maximum(ret, 1), 0.0)
            r = np.where(R > 0, rel_ret / np.maximum(R, 1), 0.0)
        if self.alpha is not None:
            return f_alpha(p, r, self.alpha)
        return f_beta(p, r, 1.0 if self.beta is None else self.beta)


@register
@measure
class IntP(Measure):
    """Interpolated precision at one recall level (the lecture's definition): the 11-point
    precision-recall curve is ``IntP(r=0), IntP(r=0.1), ..., IntP(r=1)``.

    ``IntP(r) = P~(r) = max { P(i) : recall(i) >= r }``, the highest precision at any rank
    whose recall is at least ``r``; recall ``r`` is reached once ``ceil(r num_rel)`` relevant
    documents are retrieved, computed exactly (``cwlkit.pr_curve``'s ``interpolated`` and the
    curves of ``cwlkit plot pr`` and ``cwlkit report``).

    Parameters
    ----------
    r : float, default 0
        The recall level, in [0, 1].
    rel : float, default 1
        Relevance threshold: qrels labels ``>= rel`` are relevant.

    Notes
    -----
    Unjudged documents are non-relevant; a level the run never reaches gives 0, and so does
    a topic with no relevant documents. trec_eval's ``iprec_at_recall`` (``IPrec@r``) reaches
    a level at ``(long)(r num_rel + 0.9)`` relevant documents (9.0.8), one fewer than this
    measure where ``r num_rel`` has a fraction of at most 0.1: on Web 2012's topic 155
    (67 relevant), ``IPrec@0.3`` reads the 20th relevant document and ``IntP(r=0.3)`` the 21st.
    """

    family = "IntP"
    r: float = param(0.0, ge=0.0, le=1.0, doc="recall level in [0, 1]")
    rel: float = param(1.0, doc="relevance threshold: labels >= rel are relevant")

    def compute(self, batch: RankingBatch) -> np.ndarray:
        return interpolated_precision(batch, np.array([self.r]), self.rel)[:, 0]


@register
@measure
class IAP11(Measure):
    """11-point interpolated average precision of each topic (the lecture's definition).

    ``IAP11 = (1/11) sum_{j=0..10} P~(j/10)`` with ``P~(r) = max { P(i) : recall(i) >= r }``,
    the highest precision at any rank whose recall is at least ``r``; recall ``r`` is reached
    once ``ceil(r num_rel)`` relevant documents are retrieved, computed exactly. The
    lecture's ``P_11pt`` (the 11-point curve averaged over topics, then over levels) is the
    mean of IAP11 over topics (``Results.mean()``).

    Parameters
    ----------
    rel : float, default 1
        Relevance threshold: qrels labels ``>= rel`` are relevant.

    Notes
    -----
    Unjudged documents are non-relevant; a level the run never reaches (relevant documents
    missing from the run) contributes 0; a topic with no relevant documents scores 0.

    trec_eval's ``11pt_avg`` reaches a level at ``(long)(r num_rel + 0.9)`` (9.0.8) or
    ``lround(r num_rel)`` (10.0) relevant documents; with num_rel = 3 and r = 0.7 both give
    2 documents where the lecture (and this measure) needs 3.
    """

    family = "IAP11"
    aliases = ("IAP_11",)
    rel: float = param(1.0, doc="relevance threshold: labels >= rel are relevant")

    def compute(self, batch: RankingBatch) -> np.ndarray:
        return interpolated_precision(batch, STANDARD_LEVELS, self.rel).mean(axis=1)
