"""Set measures (the ranking ignored): ``set_P``, ``set_recall``, ``set_relative_P``,
``set_map``, ``set_F``, ``utility``.

With ``n`` = num_ret, ``r`` = num_rel_ret and ``R`` = num_rel:
``set_P = r/n``, ``set_recall = r/R``, ``set_relative_P = r/min(n, R)``,
``set_map = r^2/(n R)`` (set_P x set_recall), ``set_F = (1+b) P Rc / (b P + Rc)`` with
``P``, ``Rc`` set precision and recall and ``b`` the parameter (trec_eval's own formula: b,
not b squared; default 1). A ratio with a zero denominator is 0.
``utility = p1 a + p2 b + p3 c + p4 d`` over the contingency table (a = r, b = n - r,
c = R - r, d = N + r - n - R with N the ``-N`` collection size); default 1,-1,0,0.
"""

from __future__ import annotations

import numpy as np

from ._ctx import Ctx
from .one_topic import One, div


def _div(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """``a / b`` as float64, 0 where ``b`` is 0."""
    a = np.asarray(a, dtype=np.float64)
    b = np.asarray(b, dtype=np.float64)
    out = np.zeros(a.shape if a.shape == b.shape else np.broadcast(a, b).shape)
    np.divide(a, b, out=out, where=b != 0)
    return out


def set_P(ctx: Ctx, params=None) -> list[np.ndarray]:
    """num_rel_ret / num_ret."""
    return [_div(ctx.num_rel_ret, ctx.num_ret)]


def set_recall(ctx: Ctx, params=None) -> list[np.ndarray]:
    """num_rel_ret / num_rel."""
    return [_div(ctx.num_rel_ret, ctx.num_rel)]


def set_relative_P(ctx: Ctx, params=None) -> list[np.ndarray]:
    """num_rel_ret / min(num_ret, num_rel)."""
    return [_div(ctx.num_rel_ret, np.minimum(ctx.num_ret, ctx.num_rel))]


def set_map(ctx: Ctx, params=None) -> list[np.ndarray]:
    """num_rel_ret^2 / (num_ret num_rel)."""
    r = ctx.num_rel_ret.astype(np.float64)
    return [_div(r * r, ctx.num_ret.astype(np.float64) * ctx.num_rel)]


def set_F(ctx: Ctx, params) -> list[np.ndarray]:
    """(1 + b) P R / (b P + R), b the first parameter."""
    b = float(params[0]) if params else 1.0
    p = set_P(ctx)[0]
    r = set_recall(ctx)[0]
    return [_div((b + 1.0) * p * r, b * p + r)]


def utility(ctx: Ctx, params) -> list[np.ndarray]:
    """p1 a + p2 b + p3 c + p4 d over the retrieved/relevant contingency table; a fifth
    parameter, if given, is the collection size (else ``ctx.num_docs``)."""
    p = [float(x) for x in params]
    num_docs = p[4] if len(p) > 4 else ctx.num_docs
    r = ctx.num_rel_ret.astype(np.float64)
    n = ctx.num_ret.astype(np.float64)
    R = ctx.num_rel.astype(np.float64)
    return [p[0] * r + p[1] * (n - r) + p[2] * (R - r) + p[3] * (num_docs + r - n - R)]


# ---- one topic (see .one_topic): the same operations, on Python numbers ---------------------


def set_P_one(o: One, params=None) -> list[float]:
    """:func:`set_P` of one topic."""
    return [div(len(o.rel_ranks), o.depth)]


def set_recall_one(o: One, params=None) -> list[float]:
    """:func:`set_recall` of one topic."""
    return [div(len(o.rel_ranks), o.num_rel)]


def set_relative_P_one(o: One, params=None) -> list[float]:
    """:func:`set_relative_P` of one topic."""
    return [div(len(o.rel_ranks), min(o.depth, o.num_rel))]


def set_map_one(o: One, params=None) -> list[float]:
    """:func:`set_map` of one topic."""
    r = float(len(o.rel_ranks))
    return [div(r * r, float(o.depth) * o.num_rel)]


def set_F_one(o: One, params) -> list[float]:
    """:func:`set_F` of one topic."""
    b = float(params[0]) if params else 1.0
    p = set_P_one(o)[0]
    r = set_recall_one(o)[0]
    return [div((b + 1.0) * p * r, b * p + r)]
