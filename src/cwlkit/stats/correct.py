"""Multiple-testing corrections of a family of p-values.

Every method of statsmodels' ``statsmodels.stats.multitest.multipletests`` is offered, with
its adjusted p-values and rejections:

- ``bonferroni`` and ``holm``: a few lines of numpy (equal to statsmodels', tested), so the
  common corrections need no statsmodels;
- ``bh`` and ``by`` (``fdr_bh``, ``fdr_by``): adjusted values from scipy's
  ``false_discovery_control``, rejections by the step-up rule on the raw p-values;
- ``sidak``, ``holm-sidak``, ``simes-hochberg``, ``hommel``, ``fdr_tsbh``, ``fdr_tsbky``,
  ``fdr_gbs``, ``lfdr``: statsmodels' ``multipletests`` itself (statsmodels must be
  installed).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..errors import ParamError
from ..support.checks import check_choice, check_probability

CORRECTIONS: tuple[str, ...] = (
    "none",
    "bonferroni",
    "holm",
    "bh",
    "by",
    "sidak",
    "holm-sidak",
    "simes-hochberg",
    "hommel",
    "fdr_tsbh",
    "fdr_tsbky",
    "fdr_gbs",
    "lfdr",
)
#: statsmodels' name of each correction (``multipletests(method=...)``)
STATSMODELS_NAMES = {
    **{c: c for c in CORRECTIONS},
    "bh": "fdr_bh",
    "by": "fdr_by",
}
#: what ``--correction`` accepts: every canonical name and statsmodels' names
CHOICES: tuple[str, ...] = (*CORRECTIONS, "fdr_bh", "fdr_by")

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
    "by": "by",
    "fdr_by": "by",
    "benjamini-yekutieli": "by",
    "sidak": "sidak",
    "holm-sidak": "holm-sidak",
    "hs": "holm-sidak",
    "simes-hochberg": "simes-hochberg",
    "hochberg": "simes-hochberg",
    "sh": "simes-hochberg",
    "hommel": "hommel",
    "ho": "hommel",
    "fdr_tsbh": "fdr_tsbh",
    "fdr_2sbh": "fdr_tsbh",
    "fdr_tsbky": "fdr_tsbky",
    "fdr_2sbky": "fdr_tsbky",
    "fdr_gbs": "fdr_gbs",
    "lfdr": "lfdr",
    # statsmodels' initials
    "b": "bonferroni",
    "s": "sidak",
    "h": "holm",
}


def correction_name(method: str) -> str:
    """The canonical name (one of :data:`CORRECTIONS`) of ``method``, or raise ParamError."""
    if isinstance(method, str) and method.lower() in _ALIASES:
        return _ALIASES[method.lower()]
    return check_choice("correction", method, CORRECTIONS)


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
    - ``by`` (Benjamini-Yekutieli, any dependence): as ``bh`` with ``m`` replaced by
      ``m c_m``, ``c_m = 1 + 1/2 + ... + 1/m``.
    - ``sidak``, ``holm-sidak``, ``simes-hochberg``, ``hommel``, ``fdr_tsbh``,
      ``fdr_tsbky``, ``fdr_gbs``, ``lfdr``: statsmodels' ``multipletests`` (needs
      statsmodels).

    These equal statsmodels' ``multipletests(p, alpha, method)`` (``fdr_bh`` for ``bh``,
    ``fdr_by`` for ``by``). NaN p-values (comparisons that could not be tested) are left out
    of the family: their adjusted value is NaN and they are not rejected.

    Parameters
    ----------
    pvalues : array_like
        The family, any shape: numbers in [0, 1] or NaN (a numpy array, list, pandas
        Series...).
    method : str
        One of :data:`CORRECTIONS`, or statsmodels' name (``fdr_bh``, ``fdr_by``...).
    alpha : float
        Family-wise error rate (false discovery rate for ``bh``).

    Returns
    -------
    reject : numpy.ndarray
        bool, same shape as ``pvalues``.
    adjusted : numpy.ndarray
        float64, same shape as ``pvalues``.
    """
    from .inputs import as_array

    name = correction_name(method)
    check_probability("alpha", alpha)
    alpha = float(alpha)
    p = as_array("pvalues", pvalues, ndim=None)
    flat = p.reshape(-1)
    ok = ~np.isnan(flat)
    if ((flat[ok] < 0) | (flat[ok] > 1)).any():
        raise ParamError("p-values must lie in [0, 1] (or be NaN: not tested)")
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
    elif name in ("bh", "by"):
        from scipy.stats import false_discovery_control

        ecdf = np.arange(1, m + 1) / float(m)
        cm = 1.0 if name == "bh" else float(np.sum(1.0 / np.arange(1, m + 1)))
        below = ps <= ecdf * alpha / cm
        last = int(np.nonzero(below)[0].max()) if below.any() else -1
        rej = np.arange(m) <= last
        adj = false_discovery_control(ps, method=name)
    else:
        rej, adj = _statsmodels(ps, name, float(alpha))
    adj = np.minimum(adj, 1.0)
    out_adj = np.empty(m)
    out_rej = np.empty(m, dtype=bool)
    out_adj[order] = adj
    out_rej[order] = rej
    adjusted[ok] = out_adj
    reject[ok] = out_rej
    return reject.reshape(p.shape), adjusted.reshape(p.shape)


def _statsmodels(ps: np.ndarray, name: str, alpha: float) -> tuple[np.ndarray, np.ndarray]:
    """Rejections and adjusted p-values of sorted ``ps`` by statsmodels' ``multipletests``."""
    try:
        from statsmodels.stats.multitest import multipletests
    except ImportError:
        from ..errors import CwlkitError

        raise CwlkitError(
            f"the {name} correction needs statsmodels: pip install statsmodels "
            "(none, bonferroni, holm, bh and by work without it)"
        ) from None
    try:
        with np.errstate(divide="ignore"):  # Sidak's log1p(-1) for p = 1: adjusted to 1
            rej, adj, _, _ = multipletests(
                ps, alpha=alpha, method=STATSMODELS_NAMES[name], is_sorted=True
            )
    except ValueError as exc:  # e.g. lfdr on p-values of exactly 0, or an old statsmodels
        raise ParamError(
            f"statsmodels' {name} correction failed on these p-values: {exc}"
        ) from None
    return np.asarray(rej, dtype=bool), np.asarray(adj, dtype=np.float64)
