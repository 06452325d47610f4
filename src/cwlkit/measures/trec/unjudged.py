"""Measures of the unjudged part of a ranking: ``unj`` and ``rbp_resid`` (10.0), and
``relstring``.

- ``unj_k``: documents in the top k that are not in the qrels or have a negative qrels value,
  divided by k (a ranking shorter than k is padded with judged documents).
- ``rbp_resid``: with p = 0.9 and n = num_ret, ``p^n + (1 - p) sum_{unjudged i} p^(i-1)``
  when the ranking holds an unjudged document, else 0 (even for a short, fully judged
  ranking: trec_eval 10.0's definition).
- ``relstring_N`` (per topic only): one character per document of the top N: the qrels value
  if 0..9, ``>`` above 9, ``-`` not in the qrels, ``.`` negative qrels value.
"""

from __future__ import annotations

import numpy as np

from ._ctx import NONPOOL, UNJUDGED, Ctx, powers, seqsum


def _unjudged(ctx: Ctx) -> np.ndarray:
    return ((ctx.codes == NONPOOL) | (ctx.codes == UNJUDGED)) & ctx.valid


def unj(ctx: Ctx, cutoffs) -> list[np.ndarray]:
    """Fraction of the top k that is unjudged."""
    c = np.cumsum(_unjudged(ctx), axis=1)
    return [ctx.cut(c, k) / float(k) for k in cutoffs]


def rbp_resid(ctx: Ctx, params=None) -> list[np.ndarray]:
    """RBP residual (p = 0.9)."""
    p = 0.9
    u = _unjudged(ctx)
    pw = powers(p, ctx.D)
    s = seqsum(u * pw[None, : ctx.D])
    val = pw[ctx.depth] + (1 - p) * s
    return [np.where(u.any(axis=1) if ctx.D else False, val, 0.0)]


_CHARS = np.array(list("0123456789"), dtype="<U1")


def relstring(ctx: Ctx, params) -> list[list[str]]:
    """The codes of the top N documents as a string."""
    n = int(float(params[0])) if params else 10
    n = max(0, min(n, ctx.D))
    c = ctx.codes[:, :n]
    ch = np.full(c.shape, "<", dtype="<U1")
    ch[(c >= 0) & (c <= 9)] = _CHARS[np.clip(c, 0, 9)][(c >= 0) & (c <= 9)]
    ch[c > 9] = ">"
    ch[c == NONPOOL] = "-"
    ch[c == UNJUDGED] = "."
    lens = np.minimum(ctx.depth, n)
    return [["".join(row[:k]) for row, k in zip(ch.tolist(), lens.tolist(), strict=True)]]
