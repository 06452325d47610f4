"""From a RankingBatch to C/W/L measurements: gains, costs, ties, residuals."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ...core.gains import GainMap
from ...core.ranking import RankingBatch
from ...errors import CwlkitError, ParamError
from ...io.costs import Costs, DocCosts
from .engine import CWLScores, Metric, score_metric


@dataclass
class CWLInput:
    """Gains and costs of every ranked document, lower and upper bound, prepared once.

    ``gain_lo`` has unjudged documents at gain 0; ``gain_hi`` at ``max_gain``. ``cost_lo``
    uses ``max_cost`` for documents without a cost, ``cost_hi`` uses ``min_cost`` (cwl_eval's
    convention; both are 1 by default). Padding past the run uses the same rule.
    """

    gain_lo: np.ndarray
    gain_hi: np.ndarray
    cost_lo: np.ndarray
    cost_hi: np.ndarray
    depth: np.ndarray
    ideal: np.ndarray
    max_gain: float
    max_cost: float
    min_cost: float
    judged_gains: np.ndarray
    judged_labels: np.ndarray
    cache: dict = field(default_factory=dict)
    #: number of unjudged documents in each ranking (int64[T])
    unjudged: np.ndarray | None = None


def prepare(
    batch: RankingBatch,
    *,
    gain: GainMap | str = "identity",
    costs: Costs | None = None,
    doc_costs: DocCosts | None = None,
    max_gain: float | None = None,
    min_gain: float | None = None,
    max_cost: float = 1.0,
    min_cost: float = 1.0,
    ties: str = "none",
) -> CWLInput:
    """Map labels to gains and element types to costs for every rank of every topic.

    Parameters
    ----------
    ties : {"none", "average"}
        ``average``: documents with equal scores share the mean gain of their group (the
        INST paper's recommendation), so the order among ties does not matter.
    max_gain, min_gain : float, optional
        When given, every qrels gain must lie in [min_gain, max_gain] (cwl_eval's check).
        ``max_gain`` is also the gain of unjudged documents in the upper bound; by default it
        is max(1, largest gain in the qrels). "The qrels" is the whole file (every topic, as
        recorded by :func:`~cwlkit.core.batch.build_batch`), also for the largest label that
        ``linear``, ``exp`` and ``err`` gains divide by.
    """
    gm = gain if isinstance(gain, GainMap) else GainMap(gain)
    ql = batch.qrel_labels
    # the top label and gain are those of the whole qrels file, not of the evaluated topics:
    # a topic's score must not depend on which other topics the run holds
    data_max = batch.qrels_max_label
    if data_max is None:  # a batch built without the qrels-wide labels
        finite = ql[np.isfinite(ql)]
        data_max = float(finite.max()) if finite.size else None
    judged_gain = gm(ql, data_max)
    judged = np.isfinite(ql)
    jg = judged_gain[judged]
    if min_gain is not None or max_gain is not None:
        lo = -np.inf if min_gain is None else min_gain
        hi = np.inf if max_gain is None else max_gain
        bad = (jg < lo) | (jg > hi)
        if bad.any():
            raise ParamError(
                f"qrels gain {jg[bad][0]:g} (label {ql[judged][bad][0]:g}) is outside "
                f"[{lo:g}, {hi:g}]; map labels with --gain linear or --gain exp, "
                "or widen --min-gain/--max-gain"
            )
    if max_gain is None:
        top = None
        if batch.qrels_label_values is not None:
            top = gm.top_gain(batch.qrels_label_values, data_max)
        elif jg.size:
            top = float(jg.max())
        max_gain = max(1.0, top if top is not None else 1.0)
    g = gm(batch.labels, data_max)
    g_lo = np.where(batch.judged & batch.valid, g, 0.0)
    g_hi = np.where(batch.valid, np.where(batch.judged, g, max_gain), 0.0)
    if ties == "average":
        g_lo = _tie_average(g_lo, batch)
        g_hi = _tie_average(g_hi, batch)
    elif ties != "none":
        raise ParamError(f"ties must be 'none' or 'average'; got {ties!r}")

    if max_cost < 0 or min_cost < 0:
        raise ParamError("costs must be >= 0")
    T, D = batch.labels.shape
    c = np.full((T, D), np.nan)
    if costs is not None:
        lut = np.array([costs.types.get(name, np.nan) for name in batch.q0_names] + [np.nan])
        c = lut[batch.q0]  # code -1 (past depth) takes the trailing NaN
    if doc_costs is not None:
        c = _apply_doc_costs(c, batch, doc_costs)
    c_lo = np.where(np.isnan(c), max_cost, c)
    c_hi = np.where(np.isnan(c), min_cost, c)
    ideal = np.where(np.isfinite(judged_gain), judged_gain, 0.0)
    ideal = -np.sort(-ideal, axis=1)
    unjudged = np.count_nonzero(batch.valid & ~batch.judged, axis=1)
    return CWLInput(
        g_lo,
        g_hi,
        c_lo,
        c_hi,
        batch.depth,
        ideal,
        float(max_gain),
        max_cost,
        min_cost,
        jg,
        ql[judged],
        unjudged=unjudged,
    )


def _tie_average(g: np.ndarray, batch: RankingBatch) -> np.ndarray:
    T, D = g.shape
    if D == 0:
        return g
    s = batch.scores
    new = np.ones((T, D), dtype=bool)
    new[:, 1:] = s[:, 1:] != s[:, :-1]
    new &= batch.valid
    gid = np.cumsum(new.ravel()) - 1
    flat_valid = batch.valid.ravel()
    ids = gid[flat_valid]
    sums = np.bincount(ids, weights=g.ravel()[flat_valid])
    counts = np.bincount(ids)
    out = g.copy().ravel()
    out[flat_valid] = (sums / counts)[ids]
    return out.reshape(T, D)


def _doc_cells(batch: RankingBatch) -> tuple[np.ndarray, np.ndarray, Any]:
    """(rows, columns, document ids) of the batch's ranked documents."""
    got = batch.doc_cells()
    if got is None:
        raise CwlkitError("document costs need the run's document ids; this batch has none")
    return got


def _apply_doc_costs(c: np.ndarray, batch: RankingBatch, dc: DocCosts) -> np.ndarray:
    from ...io.text import encode, from_strings, to_numpy

    rows, cols, docs = _doc_cells(batch)
    topics_of_rows = np.asarray(batch.topics, dtype=object)[rows]
    (rt, ct), _ = encode(from_strings(topics_of_rows.tolist()), dc.table.column("topic"))
    (rd, cd), _ = encode(docs, dc.table.column("doc"))
    width = int(max(rd.max(initial=0), cd.max(initial=0))) + 1
    ck = ct * width + cd
    order = np.argsort(ck)
    cks = ck[order]
    rk = rt * width + rd
    pos = np.minimum(np.searchsorted(cks, rk), max(cks.size - 1, 0))
    hit = cks.size > 0
    found = (cks[pos] == rk) if hit else np.zeros(rk.size, bool)
    out = c.copy()
    vals = to_numpy(dc.table.column("cost"))[order[pos]] if hit else np.zeros(rk.size)
    out[rows[found], cols[found]] = vals[found]
    return out


def check_domain(metric: Metric, inp: CWLInput, residuals: bool) -> None:
    """Gains outside the metric's domain get a message naming the metric and ``--gain``."""
    if metric.gain_domain is None:
        return
    lo, hi = metric.gain_domain
    bad = (inp.judged_gains < lo) | (inp.judged_gains > hi)
    if bad.any():
        lab = inp.judged_labels[bad][0]
        raise ParamError(
            f"qrels label {lab:g} (gain {inp.judged_gains[bad][0]:g}) is outside [{lo:g}, {hi:g}], "
            f"which {metric.name} requires; map labels with --gain linear or --gain exp"
        )
    if residuals and not (lo <= inp.max_gain <= hi):
        raise ParamError(
            f"--max-gain {inp.max_gain:g} is outside [{lo:g}, {hi:g}], which {metric.name} "
            "requires for its residuals"
        )


def score(
    metric: Metric,
    inp: CWLInput,
    *,
    residuals: bool = False,
    max_depth: int | None = None,
    cwl_eval_order: bool = False,
) -> tuple[CWLScores, CWLScores | None]:
    """Lower-bound measurements and, if asked, residuals (upper minus lower bound).

    The upper bound scores every unjudged document in the run, and every rank past its end,
    at ``max_gain`` (the INST paper's Algorithm 1); metrics with ``upper_tail = False`` (AP)
    fill only the run. With ``max_depth`` (cwl_eval's mode) the padding to ``max_depth``
    counts as unjudged, as cwl_eval does; ``cwl_eval_order`` computes there with cwl_eval's
    arithmetic (:func:`~.engine.cwl_eval_scores`).

    The EU residual is clamped at 0 (AP and nDCG are not monotone in the gains, so their
    upper bound can fall below the lower one), except in cwl_eval's mode, where it is
    cwl_eval's upper minus lower, possibly negative (nDCG, not a cwl_eval metric, is still
    clamped).
    """
    check_domain(metric, inp, residuals)
    lo = score_metric(
        metric,
        inp.gain_lo,
        inp.cost_lo,
        inp.depth,
        pad_gain=0.0,
        pad_cost=inp.max_cost,
        max_depth=max_depth,
        cwl_eval_order=cwl_eval_order,
        cache=inp.cache,
    )
    if metric.normalise_by_ideal:
        lo = _normalise(metric, lo, inp)
    if not residuals:
        return lo, None
    pad = inp.max_gain if (metric.upper_tail or max_depth is not None) else 0.0
    hi = score_metric(
        metric,
        inp.gain_hi,
        inp.cost_hi,
        inp.depth,
        pad_gain=pad,
        pad_cost=inp.min_cost,
        max_depth=max_depth,
        cwl_eval_order=cwl_eval_order,
        cache=inp.cache,
    )
    if metric.normalise_by_ideal:
        hi = _normalise(metric, hi, inp, upper_pad=pad)
    with np.errstate(invalid="ignore"):
        res = CWLScores(
            *(
                np.where(np.isinf(a) & np.isinf(b), np.nan, a - b)
                for a, b in zip(hi.as_array(), lo.as_array(), strict=True)
            )
        )
    # the EU residual is a bound, never negative: for monotone metrics this only removes
    # rounding noise; for AP (not monotone in the gains) it is max(0, upper - lower). In
    # cwl_eval's mode (max_depth) it is printed as cwl_eval computes it, upper - lower, which
    # can be negative for AP; nDCG, which cwl_eval does not have, keeps the clamp
    if max_depth is None or metric.normalise_by_ideal:
        res.EU = np.maximum(res.EU, 0.0)
    if pad == 0.0:
        # (AP: its weights come from the gains alone) a topic with the same gains in both
        # bounds has the same EU in both, to the bit (its sums are its own, in rank order)
        res.EU = np.where(np.all(inp.gain_lo == inp.gain_hi, axis=1), 0.0, res.EU)
    return lo, res


def _normalise(
    metric: Metric, s: CWLScores, inp: CWLInput, upper_pad: float | None = None
) -> CWLScores:
    """EU divided by the EU of the ideal ranking; ETU = EU * ED.

    The lower bound's ideal ranks the judged documents of the qrels by gain. The upper bound
    (``upper_pad`` given) is the score of a completed judgement in which every unjudged
    document of the run, and every padded rank within the cutoff when ``upper_pad`` > 0, has
    the maximum gain; those documents are then in the ideal ranking too, so the upper bound
    is a proper nDCG (at most 1). It can be below the lower bound (the ideal grows faster than
    the run's gain), so the EU residual is max(0, upper - lower), as for AP.
    """
    ideal = inp.ideal
    if upper_pad is not None:
        extra = (
            np.zeros(ideal.shape[0], dtype=np.int64)
            if inp.unjudged is None
            else inp.unjudged.astype(np.int64)
        )
        k = int(metric.min_horizon())
        if upper_pad > 0:
            extra = extra + np.maximum(0, k - inp.depth.astype(np.int64))
        width = max(k, ideal.shape[1])
        padded = np.zeros((ideal.shape[0], width))
        padded[:, : ideal.shape[1]] = ideal
        src = np.arange(width)[None, :] - extra[:, None]
        ideal = np.where(
            src < 0, inp.max_gain, np.take_along_axis(padded, np.maximum(src, 0), axis=1)
        )
    best = score_metric(
        metric, ideal, np.ones_like(ideal), np.full(ideal.shape[0], ideal.shape[1])
    ).EU
    with np.errstate(invalid="ignore", divide="ignore"):
        eu = np.where(best > 0, s.EU / np.where(best > 0, best, 1.0), 0.0)
    return CWLScores(eu, eu * s.ED, s.EC, s.ETC, s.ED)


def cwl_scores(metric: Metric, batch: RankingBatch, **options) -> CWLScores:
    """Lower-bound measurements of ``metric`` on ``batch`` (identity gains and unit costs by
    default)."""
    residuals = options.pop("residuals", False)
    max_depth = options.pop("max_depth", None)
    inp = prepare(batch, **options)
    try:
        return score(metric, inp, residuals=residuals, max_depth=max_depth)[0]
    except CwlkitError:
        raise
