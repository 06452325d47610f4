"""Precision-recall and ROC curves of every topic of a batch, all topics at once.

These are not per-topic scalars but the data behind the lecture's plots (Manning, Raghavan
and Schütze, ch. 8; the Cambridge IR lecture 6): precision and recall after each rank,
interpolated precision at recall levels (the 11-point curve), and the true/false positive
rates of a ROC curve with its area.

Conventions shared by both curves
---------------------------------
* A document is relevant when its qrels label is ``>= rel`` (default 1).
* Unjudged documents (not in the qrels) are not relevant.
* ``[T, D]`` arrays follow the batch: row ``t`` is topic ``batch.topics[t]``, column ``i`` is
  rank ``i + 1``; entries past a topic's run are NaN.
* The ranking is the batch's order (by default score descending, trec_eval's tie-break), so
  there are no ties inside a ranking.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, cast

import numpy as np

from ..errors import ParamError

if TYPE_CHECKING:  # pragma: no cover
    from ..core.batch import RankingBatch

#: The 11 standard recall levels 0.0, 0.1, ..., 1.0 (j / 10, each exactly rounded).
STANDARD_LEVELS = np.arange(11) / 10.0


# --------------------------------------------------------------------------- shared pieces


def relevant(batch: RankingBatch, rel: float = 1.0) -> np.ndarray:
    """bool[T, D]: the document at that rank has a qrels label ``>= rel``.

    Unjudged documents and padding past the run's end are False.
    """
    key = ("classic.relevant", float(rel))
    got = batch.memo.get(key)
    if got is None:
        with np.errstate(invalid="ignore"):
            got = (batch.labels >= rel) & batch.valid
        batch.memo[key] = got
    return got


def _relevant_positions(batch: RankingBatch, rel: float) -> np.ndarray:
    """int64[T, K]: 0-based rank of the n-th relevant retrieved document (column n - 1), -1 after.

    ``K`` is the largest number of relevant documents any topic retrieves, usually far below
    the run depth, so everything computed at recall levels works on ``[T, K]``.
    """
    key = ("classic.relpos", float(rel))
    got = batch.memo.get(key)
    if got is None:
        isrel = relevant(batch, rel)
        rel_ret = isrel.sum(axis=1)
        k = int(rel_ret.max(initial=0))
        got = np.full((batch.n_topics, k), -1, dtype=np.int64)
        rows, cols = np.nonzero(isrel)  # row-major: ranks ascending within each topic
        starts = np.concatenate(([0], np.cumsum(rel_ret)[:-1]))
        got[rows, np.arange(rows.size) - starts[rows]] = cols
        batch.memo[key] = got
    return got


def _levels(levels: object) -> np.ndarray:
    try:
        lv = np.atleast_1d(np.asarray(levels, dtype=np.float64))
    except (TypeError, ValueError):
        raise ParamError(f"recall levels must be numbers in [0, 1]; got {levels!r}") from None
    if lv.ndim != 1 or lv.size == 0:
        raise ParamError("recall levels must be a non-empty list of numbers in [0, 1]")
    if not np.all((lv >= 0.0) & (lv <= 1.0)):
        raise ParamError(f"recall levels must be in [0, 1]; got {lv.tolist()}")
    return lv


def needed_relevant(levels: np.ndarray, num_rel: np.ndarray) -> np.ndarray:
    """int64[T, L]: the fewest relevant documents n with n / R >= level, i.e. ceil(level * R).

    The product is rounded to 9 decimals before the ceiling so that floating-point noise
    (``0.7 * 3 = 2.0999999999999996``) does not move a level onto the wrong document.
    """
    x = np.round(levels[None, :] * num_rel[:, None].astype(np.float64), 9)
    return np.ceil(x).astype(np.int64)


def _precision_at_relevant(batch: RankingBatch, rel: float) -> np.ndarray:
    """float64[T, K]: precision at the n-th relevant retrieved document (column n - 1), 0 after."""
    pos = _relevant_positions(batch, rel)
    n = np.arange(1, pos.shape[1] + 1, dtype=np.float64)
    return np.where(pos >= 0, n / (np.maximum(pos, 0) + 1.0), 0.0)


def _pick(values: np.ndarray, need: np.ndarray, rel_ret: np.ndarray) -> np.ndarray:
    """``values[t, need - 1]`` where ``1 <= need <= rel_ret``, else 0."""
    if values.shape[1] == 0:
        return np.zeros(need.shape)
    got = np.take_along_axis(values, np.clip(need - 1, 0, values.shape[1] - 1), axis=1)
    return np.where((need >= 1) & (need <= rel_ret[:, None]), got, 0.0)


def precision_recall(batch: RankingBatch, rel: float = 1.0) -> tuple[np.ndarray, np.ndarray]:
    """Precision and recall after each rank, float64[T, D] each (NaN past the run's end).

    ``P_t(i) = rel_t(i) / i`` and ``R_t(i) = rel_t(i) / R_t``, where ``rel_t(i)`` is the number
    of relevant documents among the first ``i`` and ``R_t`` the number of qrels entries of the
    topic with label ``>= rel``. A topic with no relevant documents has recall 0 (0/0 := 0).
    """
    cum = np.cumsum(relevant(batch, rel), axis=1, dtype=np.int64).astype(np.float64)
    ranks = np.arange(1, batch.max_depth + 1, dtype=np.float64)
    R = batch.num_rel(rel).astype(np.float64)
    prec = np.where(batch.valid, cum / ranks, np.nan)
    with np.errstate(invalid="ignore", divide="ignore"):
        rec = np.where(batch.valid, np.where(R[:, None] > 0, cum / R[:, None], 0.0), np.nan)
    return prec, rec


def interpolated_precision(
    batch: RankingBatch, levels: object = STANDARD_LEVELS, rel: float = 1.0
) -> np.ndarray:
    """Interpolated precision at recall levels, float64[T, L].

    ``P~_t(r) = max { P_t(i) : R_t(i) >= r }``, the lecture's "highest precision found for any
    recall level r' >= r". Recall ``r`` is reached once ``ceil(r R)`` relevant documents are
    retrieved (recall 0 at rank 1); the maximum runs over every later rank of the run, and is
    attained at a relevant document, since precision rises only there. A level the run never
    reaches (fewer than ``ceil(r R)`` relevant documents retrieved) gets 0; a topic with no
    relevant documents gets 0 at every level (its precision is 0 everywhere).

    Parameters
    ----------
    batch : RankingBatch
    levels : array_like of float, optional
        Recall levels in [0, 1]; default the 11 standard levels 0.0, 0.1, ..., 1.0.
    rel : float
        Relevance threshold.
    """
    lv = _levels(levels)
    best_after = _best_after(batch, rel)
    rel_ret = (_relevant_positions(batch, rel) >= 0).sum(axis=1)
    # recall 0 is reached at rank 1: the maximum over the whole run, i.e. from the first
    # relevant document on (0 if none)
    need = np.maximum(needed_relevant(lv, batch.num_rel(rel)), 1)
    return _pick(best_after, need, rel_ret)


def precision_at_recall(
    batch: RankingBatch, levels: object = STANDARD_LEVELS, rel: float = 1.0
) -> np.ndarray:
    """Uninterpolated precision at recall levels, float64[T, L].

    The precision at the first rank where recall reaches ``r`` (the lecture's "Precision @
    Recall r" table): ``P_t(i*)`` with ``i* = min { i : R_t(i) >= r }``, i.e. at the
    ``ceil(r R)``-th relevant document; at rank 1 for ``ceil(r R) = 0``; 0 when the run never
    reaches ``r``.
    """
    lv = _levels(levels)
    need = needed_relevant(lv, batch.num_rel(rel))
    rel_ret = (_relevant_positions(batch, rel) >= 0).sum(axis=1)
    out = _pick(_precision_at_relevant(batch, rel), need, rel_ret)
    first = (
        relevant(batch, rel)[:, 0].astype(np.float64)
        if batch.max_depth
        else np.zeros(batch.n_topics)
    )
    return np.where(need == 0, first[:, None], out)


def _best_after(batch: RankingBatch, rel: float) -> np.ndarray:
    """float64[T, K]: max precision at the n-th or any later relevant document (column n - 1)."""
    prel = _precision_at_relevant(batch, rel)
    return np.maximum.accumulate(prel[:, ::-1], axis=1)[:, ::-1]


def interpolated_at_ranks(batch: RankingBatch, rel: float = 1.0) -> np.ndarray:
    """Interpolated precision at the recall of each rank, float64[T, D] (NaN past the run).

    ``P~_t(R_t(i)) = max { P_t(j) : R_t(j) >= R_t(i) }``: with ``c`` relevant documents in the
    first ``i``, the best precision from the ``c``-th relevant document on (from rank 1 when
    ``c = 0``). This is the interpolated (upper, staircase) curve through the measured points.
    """
    best = _best_after(batch, rel)
    if best.shape[1] == 0:
        return np.where(batch.valid, 0.0, np.nan)
    cum = np.cumsum(relevant(batch, rel), axis=1, dtype=np.int64)
    got = np.take_along_axis(best, np.clip(cum - 1, 0, best.shape[1] - 1), axis=1)
    # (a 2-d array reduced over one axis is an array; numpy's stubs also allow a scalar)
    has_rel = cast(np.ndarray, (_relevant_positions(batch, rel) >= 0).any(axis=1))[:, None]
    return np.where(batch.valid, np.where(has_rel, got, 0.0), np.nan)


# --------------------------------------------------------------------------- PR curve


@dataclass(frozen=True, eq=False)
class PRCurve:
    """Precision-recall curves of every topic.

    Attributes
    ----------
    topics : numpy.ndarray
        Topic ids, one per row.
    precision, recall : numpy.ndarray
        float64[T, D], after each rank (NaN past the run's end); see
        :func:`precision_recall`.
    relevant : numpy.ndarray
        bool[T, D], the document at that rank is relevant.
    num_rel : numpy.ndarray
        int64[T], relevant documents in the qrels (R).
    levels : numpy.ndarray
        float64[L], the recall levels of ``interpolated``.
    interpolated : numpy.ndarray
        float64[T, L], interpolated precision at ``levels`` (:func:`interpolated_precision`).
    interpolated_ranks : numpy.ndarray
        float64[T, D], interpolated precision at the recall of each rank,
        ``max { P(j) : R(j) >= R(i) }`` (the lecture's "take the maximum of all future
        points"); NaN past the run's end.
    rel : float
        The relevance threshold used.
    """

    topics: np.ndarray
    precision: np.ndarray
    recall: np.ndarray
    relevant: np.ndarray
    num_rel: np.ndarray
    levels: np.ndarray
    interpolated: np.ndarray
    interpolated_ranks: np.ndarray
    rel: float = 1.0
    _batch: RankingBatch | None = None

    @property
    def mean_interpolated(self) -> np.ndarray:
        """float64[L]: interpolated precision at each level averaged over topics (the lecture's
        averaged 11-point curve); NaN when there are no topics."""
        if self.interpolated.shape[0] == 0:
            return np.full(self.levels.shape, np.nan)
        return self.interpolated.mean(axis=0)

    @property
    def average_interpolated(self) -> np.ndarray:
        """float64[T]: mean over the levels of each topic's interpolated precision (with the 11
        standard levels, the 11-point interpolated average precision of each topic)."""
        return self.interpolated.mean(axis=1)

    def interpolate(self, levels: object) -> np.ndarray:
        """Interpolated precision at other recall levels, float64[T, L]."""
        if self._batch is None:  # pragma: no cover - always set by pr_curve
            raise ParamError("this curve was not built by pr_curve()")
        return interpolated_precision(self._batch, levels, self.rel)

    def at_recall(self, levels: object) -> np.ndarray:
        """Uninterpolated precision at recall levels, float64[T, L]
        (:func:`precision_at_recall`)."""
        if self._batch is None:  # pragma: no cover - always set by pr_curve
            raise ParamError("this curve was not built by pr_curve()")
        return precision_at_recall(self._batch, levels, self.rel)

    def topic(self, topic: str) -> int:
        """Row index of ``topic``."""
        where = np.flatnonzero(self.topics == topic)
        if where.size == 0:
            raise ParamError(f"topic {topic!r} is not in this curve")
        return int(where[0])


def pr_curve(batch: RankingBatch, rel: float = 1.0, *, levels: object = STANDARD_LEVELS) -> PRCurve:
    """Precision-recall curve of every topic of ``batch``.

    Parameters
    ----------
    batch : RankingBatch
        From :meth:`cwlkit.Evaluator.batch` (or :func:`cwlkit.core.batch.build_batch`).
    rel : float
        Relevance threshold: labels ``>= rel`` are relevant; unjudged documents are not.
    levels : array_like of float
        Recall levels of the interpolated curve (default 0.0, 0.1, ..., 1.0).

    Returns
    -------
    PRCurve
        ``precision``/``recall`` after each rank ([T, D]), ``interpolated`` precision at the
        levels ([T, L]) with ``P~(r) = max_{i : R(i) >= r} P(i)`` (0 when the run never
        reaches r), and ``mean_interpolated`` ([L]), the curve averaged over topics.

    Examples
    --------
    >>> curve = pr_curve(batch)                      # doctest: +SKIP
    >>> curve.mean_interpolated                      # the averaged 11-point curve
    >>> curve.average_interpolated.mean()            # 11-point interpolated AP, mean of topics
    """
    lv = _levels(levels)
    prec, rec = precision_recall(batch, rel)
    return PRCurve(
        topics=batch.topics,
        precision=prec,
        recall=rec,
        relevant=relevant(batch, rel),
        num_rel=batch.num_rel(rel),
        levels=lv,
        interpolated=interpolated_precision(batch, lv, rel),
        interpolated_ranks=interpolated_at_ranks(batch, rel),
        rel=float(rel),
        _batch=batch,
    )


# --------------------------------------------------------------------------- ROC curve


@dataclass(frozen=True, eq=False)
class ROCCurve:
    """ROC curves of every topic.

    Attributes
    ----------
    topics : numpy.ndarray
        Topic ids, one per row.
    tpr, fpr : numpy.ndarray
        float64[T, D], true and false positive rates after each rank (NaN past the run's end,
        and everywhere for a topic with no positives, resp. no negatives).
    num_pos, num_neg : numpy.ndarray
        int64[T]: positives (qrels label >= rel) and negatives (judged, 0 <= label < rel).
    auc : numpy.ndarray
        float64[T], area under each curve (NaN when a topic has no positives or no negatives).
    """

    topics: np.ndarray
    tpr: np.ndarray
    fpr: np.ndarray
    num_pos: np.ndarray
    num_neg: np.ndarray
    auc: np.ndarray
    rel: float = 1.0

    @property
    def mean_auc(self) -> float:
        """AUC averaged over the topics where it is defined (NaN if none)."""
        ok = ~np.isnan(self.auc)
        return float(self.auc[ok].mean()) if ok.any() else float("nan")


def roc_curve(batch: RankingBatch, rel: float = 1.0) -> ROCCurve:
    """ROC curve (TPR against FPR after each rank) and its area, for every topic.

    ``TPR_t(i) = TP_t(i) / P_t`` (recall) and ``FPR_t(i) = FP_t(i) / N_t`` (fall-out), where
    ``P_t`` counts the topic's qrels entries with label ``>= rel`` and ``N_t`` those with
    ``0 <= label < rel`` (the judged non-relevant documents; negative labels, trec_eval's
    "pooled but unjudged", are neither).

    Conventions
    -----------
    * Unjudged retrieved documents (and retrieved documents with a negative label) are
      neither positives nor negatives: they leave both counts unchanged, so the curve stays
      at the previous point. Counting them as negatives would need a collection size.
    * Documents the run does not retrieve are taken as ranked after all retrieved ones in an
      unknown order: the curve is closed with a straight segment to (1, 1), the expected
      curve of a random order.
    * ``AUC = [sum over retrieved negatives of TP before them + (N - FP) (TP + P) / 2] / (P N)``
      (trapezoids under the points (0, 0), each rank, (1, 1), with TP and FP those of the
      whole run): the Mann-Whitney probability that a random positive is ranked above a
      random negative, unretrieved documents tied with each other and below every retrieved
      one. NaN when ``P = 0`` or ``N = 0``.
    """
    isrel = relevant(batch, rel)
    with np.errstate(invalid="ignore"):
        isneg = batch.judged & batch.valid & (batch.labels >= 0) & (batch.labels < rel)
        ql = batch.qrel_labels
        num_neg = ((ql >= 0) & (ql < rel)).sum(axis=1).astype(np.int64)
    num_pos = batch.num_rel(rel)
    tp = np.cumsum(isrel, axis=1, dtype=np.int64)
    fp = np.cumsum(isneg, axis=1, dtype=np.int64)
    P = num_pos.astype(np.float64)[:, None]
    N = num_neg.astype(np.float64)[:, None]
    with np.errstate(invalid="ignore", divide="ignore"):
        tpr = np.where(batch.valid & (P > 0), tp / P, np.nan)
        fpr = np.where(batch.valid & (N > 0), fp / N, np.nan)
        tp_end = tp[:, -1].astype(np.float64) if tp.shape[1] else np.zeros(batch.n_topics)
        fp_end = fp[:, -1].astype(np.float64) if fp.shape[1] else np.zeros(batch.n_topics)
        above = np.where(isneg, tp, 0).sum(axis=1).astype(np.float64)
        Pv, Nv = P[:, 0], N[:, 0]
        auc = (above + (Nv - fp_end) * (tp_end + Pv) / 2.0) / (Pv * Nv)
        auc = np.where((Pv > 0) & (Nv > 0), auc, np.nan)
    return ROCCurve(
        topics=batch.topics,
        tpr=tpr,
        fpr=fpr,
        num_pos=num_pos,
        num_neg=num_neg,
        auc=auc,
        rel=float(rel),
    )
