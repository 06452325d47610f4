"""Cutoff measures: ``P``, ``recall``, ``relative_P``, ``success``, ``map_cut``, ``Rprec``,
``Rprec_mult``.

With ``rel(k)`` the relevant documents in the top k (a run shorter than k is padded with
non-relevant documents) and R = num_rel: ``P_k = rel(k)/k``, ``recall_k = rel(k)/R``,
``relative_P_k = rel(k)/min(k, R)``, ``success_k = [rel(k) > 0]``,
``map_cut_k = sum over relevant documents at ranks i <= k of rel(i)/i, divided by R``,
``Rprec = rel(R)/R``, ``Rprec_mult_x = rel(c)/c`` with ``c = (long)(x R + 0.9)`` (0 when
c = 0; both trec_eval versions). Ties in score were broken before (docno descending).
A ratio with a zero denominator is 0.
"""

from __future__ import annotations

import numpy as np

from ._ctx import Ctx
from .one_topic import One, div
from .set import _div


def _rel_at(ctx: Ctx, k) -> np.ndarray:
    return ctx.cut(ctx.cumrel, k).astype(np.float64)


def P(ctx: Ctx, cutoffs) -> list[np.ndarray]:
    """Precision at each cutoff."""
    return [_rel_at(ctx, k) / k for k in cutoffs]


def recall(ctx: Ctx, cutoffs) -> list[np.ndarray]:
    """Recall at each cutoff."""
    return [_div(_rel_at(ctx, k), ctx.num_rel) for k in cutoffs]


def relative_P(ctx: Ctx, cutoffs) -> list[np.ndarray]:
    """Precision at k relative to the best possible, min(k, R)."""
    return [_div(_rel_at(ctx, k), np.minimum(k, ctx.num_rel)) for k in cutoffs]


def success(ctx: Ctx, cutoffs) -> list[np.ndarray]:
    """1 if a relevant document is in the top k."""
    return [(_rel_at(ctx, k) > 0).astype(np.float64) for k in cutoffs]


def ap_terms(ctx: Ctx) -> np.ndarray:
    """float64[T, D] cumulative sum of precision at each relevant document (AP numerator)."""
    c = ctx._memo.get("ap_terms")
    if c is None:
        terms = ctx.cumrel / ctx.ranks[None, :]
        terms *= ctx.rel  # (0.0 where not relevant: the terms are finite, >= 0)
        c = ctx._memo["ap_terms"] = np.cumsum(terms, axis=1, out=terms)
    return c


def map_cut(ctx: Ctx, cutoffs) -> list[np.ndarray]:
    """Average precision truncated at each cutoff (normalised by R, not by min(k, R))."""
    c = ap_terms(ctx)
    return [_div(ctx.cut(c, k), ctx.num_rel) for k in cutoffs]


def Rprec(ctx: Ctx, params=None) -> list[np.ndarray]:
    """Precision at rank R."""
    return [_div(_rel_at(ctx, ctx.num_rel), ctx.num_rel)]


def Rprec_mult(ctx: Ctx, cutoffs) -> list[np.ndarray]:
    """Precision at rank (long)(x R + 0.9) for each multiple x."""
    out = []
    for x in cutoffs:
        # the cutoff stays a double (inf when x R overflows): ranks past the ranking count
        # as its last, so the index is clipped to the depth, and the precision tends to 0
        with np.errstate(over="ignore"):
            c = np.floor(x * ctx.num_rel.astype(np.float64) + 0.9)
        k = np.clip(c, 0, ctx.depth).astype(np.int64)
        out.append(_div(_rel_at(ctx, k), c))
    return out


# ---- one topic (see .one_topic): the same operations, on Python numbers ----------------


def P_one(o: One, cutoffs) -> list[float]:
    """:func:`P` of one topic."""
    return [o.rel_at(k) / k for k in cutoffs]


def recall_one(o: One, cutoffs) -> list[float]:
    """:func:`recall` of one topic."""
    return [div(o.rel_at(k), o.num_rel) for k in cutoffs]


def relative_P_one(o: One, cutoffs) -> list[float]:
    """:func:`relative_P` of one topic."""
    return [div(o.rel_at(k), min(k, o.num_rel)) for k in cutoffs]


def success_one(o: One, cutoffs) -> list[float]:
    """:func:`success` of one topic."""
    return [1.0 if o.rel_at(k) > 0 else 0.0 for k in cutoffs]


def map_cut_one(o: One, cutoffs) -> list[float]:
    """:func:`map_cut` of one topic."""
    return [div(o.ap_sum(k), o.num_rel) for k in cutoffs]


def Rprec_one(o: One, params=None) -> list[float]:
    """:func:`Rprec` of one topic."""
    R = o.num_rel
    return [div(o.rel_at(R), R)]
