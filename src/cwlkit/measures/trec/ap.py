"""Average-precision family: ``map``, ``gm_map``, ``recip_rank``, ``yaap``, ``bpref``,
``gm_bpref``, ``infAP``, ``binG``.

Notation: relevant = code >= ``-l``; R = num_rel; ``rel(i)`` relevant documents in the top i.

- ``map``: sum over relevant retrieved documents of rel(i)/i, divided by R (0 when R = 0).
  ``gm_map`` prints only the summary: exp(mean(log(max(AP, 1e-5)))).
- ``recip_rank``: 1/rank of the first relevant document, 0 if none (no cutoff).
- ``yaap`` (Robertson): log((1 + s)/(1 + R - s)) with s the sum in ``map``.
- ``bpref``: (1/R) sum over judged relevant retrieved documents of
  ``1 - min(n, R)/min(N, R)``, n the judged non-relevant documents ranked above it and N the
  judged non-relevant documents in the qrels (a term is 1 when n = 0). Documents not in the
  qrels or with a negative value are skipped. ``gm_bpref``: its geometric mean.
- ``infAP`` (Yilmaz and Aslam, as trec_eval computes it): for the relevant document at
  0-based position j with ``r`` relevant, ``n`` judged non-relevant and ``u`` pooled-unjudged
  (negative value) documents above it, ``1/(j+1) + j/(j+1) * (r+n+u)/j * (r+e)/(r+n+2e)``
  (1 at j = 0), e = 1e-5, summed and divided by R; documents not in the qrels count in j
  only.
- ``binG``: (1/R) sum over relevant documents of 1/log2(2 + non-relevant documents above).
"""

from __future__ import annotations

from math import ceil, floor, nan

import numpy as np

from ._ctx import UNJUDGED, Ctx, masked_seqsum
from .one_topic import One, div
from .precision import ap_terms
from .set import _div

MIN_GEO_MEAN = 1e-5
INFAP_EPSILON = 1e-5


def map_(ctx: Ctx, params=None) -> list[np.ndarray]:
    """Average precision."""
    return [_div(ctx.cut(ap_terms(ctx), ctx.D), ctx.num_rel)]


def recip_rank(ctx: Ctx, params=None) -> list[np.ndarray]:
    """Reciprocal rank of the first relevant document."""
    rel = ctx.rel
    has = rel.any(axis=1) if ctx.D else np.zeros(ctx.T, bool)
    first = np.argmax(rel, axis=1) if ctx.D else np.zeros(ctx.T, np.int64)
    return [np.where(has, 1.0 / (first + 1.0), 0.0)]


def yaap(ctx: Ctx, params=None) -> list[np.ndarray]:
    """Robertson's yet another average precision."""
    s = ctx.cut(ap_terms(ctx), ctx.D)
    return [np.log((1.0 + s) / (1.0 + ctx.num_rel - s))]


def bpref(ctx: Ctx, params=None) -> list[np.ndarray]:
    """Binary preference."""
    above = np.cumsum(ctx.nonrel & ctx.valid, axis=1)
    R = ctx.num_rel.astype(np.float64)
    denom = np.minimum(ctx.num_nonrel, ctx.num_rel).astype(np.float64)

    def term(rows: np.ndarray, cols: np.ndarray) -> np.ndarray:
        a = above[rows, cols]
        with np.errstate(divide="ignore", invalid="ignore"):
            frac = np.minimum(a, R[rows]) / denom[rows]
        return np.where(a > 0, 1.0 - frac, 1.0)

    total = masked_seqsum(ctx.rel & (ctx.codes >= 0), term)
    return [_div(total, ctx.num_rel)]


def infAP(ctx: Ctx, params=None) -> list[np.ndarray]:
    """Inferred average precision (trec_eval's formula)."""
    judged_rel = ctx.rel & (ctx.codes >= 0)
    r_all = np.cumsum(judged_rel, axis=1)
    n_all = np.cumsum(ctx.nonrel & ctx.valid, axis=1)
    u_all = np.cumsum(ctx.codes == UNJUDGED, axis=1)

    def term(rows: np.ndarray, cols: np.ndarray) -> np.ndarray:
        r = r_all[rows, cols] - 1  # relevant above (judged_rel at the point itself)
        n, u = n_all[rows, cols], u_all[rows, cols]
        fj = cols.astype(np.float64)
        with np.errstate(divide="ignore", invalid="ignore"):
            t = 1.0 / (fj + 1.0) + (fj / (fj + 1.0)) * ((r + n + u) / fj) * (
                (r + INFAP_EPSILON) / (r + n + 2 * INFAP_EPSILON)
            )
        return np.where(cols == 0, 1.0, t)

    total = masked_seqsum(judged_rel, term)
    return [_div(total, ctx.num_rel)]


def binG(ctx: Ctx, params=None) -> list[np.ndarray]:
    """Binary G."""
    cumrel = ctx.cumrel

    def term(rows: np.ndarray, cols: np.ndarray) -> np.ndarray:
        with np.errstate(divide="ignore"):
            return 1.0 / np.log2(3.0 + cols.astype(np.float64) - cumrel[rows, cols])

    total = masked_seqsum(ctx.rel, term)
    return [_div(total, ctx.num_rel)]


def _iprec_table(ctx: Ctx) -> np.ndarray:
    """float64[T, M]: interpolated precision at the j-th relevant retrieved document
    (max precision at any rank at or below it), M the largest num_rel_ret."""
    got = ctx._memo.get("iprec")
    if got is not None:
        return got
    with np.errstate(invalid="ignore", divide="ignore"):
        prec = np.where(ctx.valid, ctx.cumrel / ctx.ranks[None, :], 0.0)
    suf = np.maximum.accumulate(prec[:, ::-1], axis=1)[:, ::-1]
    M = int(ctx.num_rel_ret.max(initial=0))
    table = np.zeros((ctx.T, max(M, 1)))
    rows, cols = np.nonzero(ctx.rel)
    table[rows, ctx.cumrel[rows, cols] - 1] = suf[rows, cols]
    ctx._memo["iprec"] = table
    return table


def iprec_cut(ctx: Ctx, x: float) -> np.ndarray:
    """Relevant-document count at recall level x: (long)(x R + 0.9) in 9.0.8, lround(x R)
    in 10.0."""
    v = x * ctx.num_rel.astype(np.float64)
    if ctx.version >= 10:
        return np.where(v >= 0, np.floor(v + 0.5), np.ceil(v - 0.5)).astype(np.int64)
    return np.trunc(v + 0.9).astype(np.int64)


def iprec_at_recall(ctx: Ctx, cutoffs) -> list[np.ndarray]:
    """Interpolated precision at each recall level (max precision at any rank at or after
    the point where that many relevant documents have been retrieved).

    A level whose cut-off is 0 relevant documents is NaN on an empty ranking (trec_eval
    divides 0 by 0 there and prints ``-nan``); other levels are 0 then.
    """
    table = _iprec_table(ctx)
    nrr = ctx.num_rel_ret
    out = []
    for x in cutoffs:
        c = iprec_cut(ctx, x)
        idx = np.clip(c - 1, 0, table.shape[1] - 1)
        v = table[np.arange(ctx.T), idx]
        v = np.where((c <= nrr) & (nrr > 0), v, 0.0)
        # an empty ranking (-J, or -c in 10.0): trec_eval's 0/0 leaves NaN at cut-off 0
        out.append(np.where((ctx.num_ret == 0) & (c <= 0), -np.nan, v))
    return out


def eleven_pt_avg(ctx: Ctx, cutoffs) -> list[np.ndarray]:
    """Mean of the interpolated precision at the given recall levels, added from the
    highest level down, as trec_eval adds them (walking the ranking from its end)."""
    vals = iprec_at_recall(ctx, sorted(cutoffs))
    total = np.zeros(ctx.T)
    for v in reversed(vals):
        total = total + v
    return [total / len(vals)]


# ---- one topic (see .one_topic): the same operations, on Python numbers ---------------------


def map_one(o: One, params=None) -> list[float]:
    """:func:`map_` of one topic."""
    return [div(o.ap_sum(o.depth), o.num_rel)]


def recip_rank_one(o: One, params=None) -> list[float]:
    """:func:`recip_rank` of one topic."""
    ranks = o.rel_ranks
    return [1.0 / (ranks[0] + 1.0) if ranks else 0.0]


def bpref_one(o: One, params=None) -> list[float]:
    """:func:`bpref` of one topic (and ``gm_bpref``'s per-topic value)."""
    R, low = o.num_rel, o.rel_level
    denom = float(min(o.num_nonrel, R))
    s, above = 0.0, 0
    for c in o.codes:
        if c >= low and c >= 0:  # (judged relevant)
            s += 1.0 - min(float(above), float(R)) / denom if above > 0 else 1.0
        elif 0 <= c < low:  # (judged non-relevant)
            above += 1
    return [div(s, R)]


def infAP_one(o: One, params=None) -> list[float]:
    """:func:`infAP` of one topic."""
    low, e = o.rel_level, INFAP_EPSILON
    s, r, n, u = 0.0, 0, 0, 0  # (judged relevant, judged non-relevant, unjudged above)
    for j, c in enumerate(o.codes):
        if c >= low and c >= 0:
            if j == 0:
                s += 1.0
            else:
                fj = float(j)
                s += 1.0 / (fj + 1.0) + (fj / (fj + 1.0)) * ((r + n + u) / fj) * (
                    (r + e) / (r + n + 2 * e)
                )
            r += 1
        elif 0 <= c < low:
            n += 1
        elif c == UNJUDGED:
            u += 1
    return [div(s, o.num_rel)]


def _iprec_one(o: One) -> list[float]:
    """:func:`_iprec_table` of one topic: the highest precision at or below the j-th
    relevant document (reached at a relevant document: precision falls between them)."""
    got, best = [], 0.0
    ranks = o.rel_ranks
    for k in range(len(ranks) - 1, -1, -1):
        p = (k + 1) / (ranks[k] + 1.0)
        if p > best:
            best = p
        got.append(best)
    got.reverse()
    return got


def _iprec_cut_one(o: One, x: float) -> int:
    """:func:`iprec_cut` of one topic."""
    v = x * float(o.num_rel)
    if o.version >= 10:
        return int(floor(v + 0.5) if v >= 0 else ceil(v - 0.5))
    return int(v + 0.9)


def iprec_at_recall_one(o: One, cutoffs) -> list[float]:
    """:func:`iprec_at_recall` of one topic."""
    table = _iprec_one(o)
    nrr = len(table)
    out = []
    for x in cutoffs:
        c = _iprec_cut_one(o, x)
        v = table[max(c - 1, 0)] if 0 < nrr and c <= nrr else 0.0
        out.append(-nan if o.depth == 0 and c <= 0 else v)
    return out


def eleven_pt_avg_one(o: One, cutoffs) -> list[float]:
    """:func:`eleven_pt_avg` of one topic."""
    vals = iprec_at_recall_one(o, sorted(cutoffs))
    total = 0.0
    for v in reversed(vals):
        total = total + v
    return [total / len(vals)]
