"""Multiple-testing corrections of a family of p-values.

The adjusted p-values and rejections are those of statsmodels'
``statsmodels.stats.multitest.multipletests`` (methods ``bonferroni``, ``holm``,
``fdr_bh``), reimplemented on numpy so that statsmodels is not a dependency.
"""

from __future__ import annotations

import difflib
from typing import Any

import numpy as np

from ..errors import ParamError

CORRECTIONS: tuple[str, ...] = ("none", "bonferroni", "holm", "bh")

_ALIASES = {
    "none": "none",
    "no": "none",
    "bonferroni": "bonferroni",
    "bonf": "bonferroni",
    "holm": "holm",
    "holm-bonferroni": "holm",
    "bh": "bh",
    "fdr_bh": "bh",
    "fdr": "bh",
    "benjamini-hochberg": "bh",
}


def correction_name(method: str) -> str:
    """The canonical name (one of :data:`CORRECTIONS`) of ``method``, or raise ParamError."""
    key = str(method).lower()
    if key in _ALIASES:
        return _ALIASES[key]
    close = difflib.get_close_matches(key, CORRECTIONS, n=1)
    hint = f"; did you mean {close[0]!r}?" if close else ""
    raise ParamError(f"unknown correction {method!r} (choose from {', '.join(CORRECTIONS)}){hint}")


def correct(
    pvalues: Any, method: str = "holm", alpha: float = 0.05
) -> tuple[np.ndarray, np.ndarray]:
    """Adjust a family of p-values for multiple testing.

    With ``m`` p-values sorted ascending, ``p_(1) <= ... <= p_(m)``:

    - ``none``: ``p~ = p``; reject when ``p <= alpha``.
    - ``bonferroni``: ``p~ = min(1, m p)``; reject when ``p <= alpha / m``.
    - ``holm`` (step-down): ``p~_(i) = min(1, max_{j <= i} (m - j + 1) p_(j))``; reject
      ``p_(1) .. p_(i-1)`` where ``i`` is the first index with ``p_(i) > alpha / (m - i + 1)``.
    - ``bh`` (Benjamini-Hochberg, step-up, controls the false discovery rate):
      ``p~_(i) = min(1, min_{j >= i} m p_(j) / j)``; reject ``p_(1) .. p_(k)`` for the largest
      ``k`` with ``p_(k) <= k alpha / m``.

    These equal statsmodels' ``multipletests(p, alpha, method)`` for ``bonferroni``, ``holm``
    and ``fdr_bh``. NaN p-values (comparisons that could not be tested) are left out of the
    family: their adjusted value is NaN and they are not rejected.

    Parameters
    ----------
    pvalues : array_like
        The family, any shape.
    method : str
        ``none``, ``bonferroni``, ``holm`` or ``bh`` (aliases ``fdr_bh``, ``fdr``).
    alpha : float
        Family-wise error rate (false discovery rate for ``bh``).

    Returns
    -------
    reject : numpy.ndarray
        bool, same shape as ``pvalues``.
    adjusted : numpy.ndarray
        float64, same shape as ``pvalues``.
    """
    name = correction_name(method)
    if not 0.0 < float(alpha) < 1.0:
        raise ParamError(f"alpha must be in (0, 1); got {alpha!r}")
    p = np.asarray(pvalues, dtype=np.float64)
    flat = p.reshape(-1)
    ok = np.isfinite(flat)
    if ((flat[ok] < 0) | (flat[ok] > 1)).any():
        raise ParamError("p-values must lie in [0, 1]")
    adjusted = np.full(flat.shape, np.nan)
    reject = np.zeros(flat.shape, dtype=bool)
    vals = flat[ok]
    m = vals.size
    if m == 0:
        return reject.reshape(p.shape), adjusted.reshape(p.shape)
    order = np.argsort(vals, kind="stable")
    ps = vals[order]
    if name == "none":
        adj = ps.copy()
        rej = ps <= alpha
    elif name == "bonferroni":
        adj = ps * float(m)
        rej = ps <= alpha / float(m)
    elif name == "holm":
        adj = np.maximum.accumulate(ps * np.arange(m, 0, -1))
        notrej = ps > alpha / np.arange(m, 0, -1)
        first = int(np.argmax(notrej)) if notrej.any() else m
        rej = np.arange(m) < first
    else:  # bh
        ecdf = np.arange(1, m + 1) / float(m)
        below = ps <= ecdf * alpha
        last = int(np.nonzero(below)[0].max()) if below.any() else -1
        rej = np.arange(m) <= last
        adj = np.minimum.accumulate((ps / ecdf)[::-1])[::-1]
    adj = np.minimum(adj, 1.0)
    out_adj = np.empty(m)
    out_rej = np.empty(m, dtype=bool)
    out_adj[order] = adj
    out_rej[order] = rej
    adjusted[ok] = out_adj
    reject[ok] = out_rej
    return reject.reshape(p.shape), adjusted.reshape(p.shape)
