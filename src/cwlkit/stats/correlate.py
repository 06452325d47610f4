"""Correlations between two measures: of scores, and of the system orderings they induce.

Score level: Pearson's r and Spearman's rho (scipy, with p-values). Ordering level:
Kendall's tau-b (scipy, with its p-value), tau_AP (Yilmaz, Aslam and Robertson 2008; with
Urbano and Marrero's 2017 treatment of ties), the top-weighted Kendall tau used in the ERR
paper (Vigna 2015's weighted tau with hyperbolic weight ``1/(r + 1)``), and rank-biased
overlap (Webber, Moffat and Zobel 2010, extrapolated ``RBO_ext``).

Scores come as arrays or lists (paired by position) or by key (mappings ``{system: score}``,
pandas Series, one-measure :class:`~cwlkit.Results`), paired by key, the same keys on both
sides.

Orderings are by *decreasing* score: the system with the highest score is at rank 1 (rank 0
for the weighted tau's weights). tau_AP, the weighted tau and RBO have no p-value (NaN).
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..errors import ParamError
from ..support.checks import check_choice, check_probability


@dataclass(frozen=True)
class Correlation:
    """A correlation coefficient.

    Attributes
    ----------
    name : str
        ``pearson``, ``spearman``, ``kendall_tau_b``, ``tau_ap``, ``tau_ap_b``,
        ``weighted_tau`` or ``rbo``.
    value : float
        The coefficient (NaN when undefined, e.g. a constant input).
    p_value : float
        Two-sided p-value of "no association"; NaN where none is defined.
    n : int
        Number of paired items.
    """

    name: str
    value: float
    p_value: float
    n: int

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "value": self.value, "p_value": self.p_value, "n": self.n}


def _pair(x: Any, y: Any, min_n: int = 2) -> tuple[np.ndarray, np.ndarray]:
    """Two score vectors paired item by item: arrays and lists by position, scores by key
    (mappings, pandas Series, one-measure Results) by key, the same keys on both sides
    (:func:`cwlkit.stats.inputs.paired`)."""
    from .inputs import paired

    xa, ya = paired(x, y)
    if xa.size != ya.size:
        raise ParamError(f"cannot correlate {xa.size} values with {ya.size} values")
    if xa.size < min_n:
        raise ParamError(f"a correlation needs at least {min_n} pairs; got {xa.size}")
    if not (np.isfinite(xa).all() and np.isfinite(ya).all()):
        raise ParamError("values to correlate must be finite (got NaN or infinity)")
    return xa, ya


def _scipy_corr(fn, name: str, x: np.ndarray, y: np.ndarray, **kw) -> Correlation:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # constant input: NaN, reported as such
        res = fn(x, y, **kw)
    return Correlation(name, float(res.statistic), float(res.pvalue), int(x.size))


def pearson(x: Any, y: Any) -> Correlation:
    """Pearson's product-moment r with its two-sided p-value (``scipy.stats.pearsonr``)."""
    from scipy import stats

    xa, ya = _pair(x, y)
    return _scipy_corr(stats.pearsonr, "pearson", xa, ya)


def spearman(x: Any, y: Any) -> Correlation:
    """Spearman's rho (Pearson's r of the mid-ranks) with scipy's p-value
    (``scipy.stats.spearmanr``: the t approximation)."""
    from scipy import stats

    xa, ya = _pair(x, y)
    return _scipy_corr(stats.spearmanr, "spearman", xa, ya)


def kendall_tau_b(x: Any, y: Any) -> Correlation:
    """Kendall's tau-b with scipy's p-value (``scipy.stats.kendalltau(variant="b")``: exact
    for small untied inputs, normal approximation otherwise).

    ``tau_b = (n_c - n_d) / sqrt((n_0 - n_x)(n_0 - n_y))`` with ``n_c``/``n_d`` concordant and
    discordant pairs, ``n_0 = n(n-1)/2`` and ``n_x``/``n_y`` the pairs tied in ``x``/``y``.
    """
    from scipy import stats

    xa, ya = _pair(x, y)
    return _scipy_corr(stats.kendalltau, "kendall_tau_b", xa, ya, variant="b")


def _harmonic(n: int) -> np.ndarray:
    """``H[k] = 1 + 1/2 + ... + 1/k`` for k = 0..n."""
    h = np.zeros(n + 1)
    h[1:] = np.cumsum(1.0 / np.arange(1, n + 1))
    return h


def _tau_ap_b_half(x: np.ndarray, y: np.ndarray) -> float:
    """Urbano and Marrero's asymmetric tau_AP_b piece: ``y`` orders, ``x`` judges."""
    above = y[None, :] > y[:, None]  # above[i, j]: j strictly above i's tie group in y
    p = above.sum(axis=1) + 1  # 1-based rank of i's tie group
    conc = (above & (x[None, :] > x[:, None])).sum(axis=1)
    nt = p != 1
    if not nt.any():
        return math.nan
    return float(2.0 / nt.sum() * (conc[nt] / (p[nt] - 1)).sum() - 1.0)


def tau_ap_correlation(x: Any, y: Any, *, ties: str = "a") -> Correlation:
    """AP rank correlation tau_AP (Yilmaz, Aslam and Robertson, SIGIR 2008) of two score
    vectors, as a :class:`Correlation` (the public :func:`cwlkit.tau_ap` returns its value
    and checks what users give it).

    ``x`` gives the true ordering and ``y`` the estimated one, both by decreasing score.
    Without ties, with items listed in ``y``'s order and ``C(i)`` the number of items above
    position ``i`` that ``x`` also ranks above the item at ``i``::

        tau_AP = 2 / (n - 1) * sum_{i=2..n} C(i) / (i - 1) - 1

    Like average precision it penalises errors near the top more; it is not symmetric.

    Ties follow Urbano and Marrero (ICTIR 2017):

    - ``ties="a"`` (accuracy; ``x`` is a true ordering and must have no ties): the expectation
      of tau_AP over uniformly random orders within ``y``'s tie groups. With ``p`` the first
      position and ``t`` the size of the item's group in ``y``, and ``c`` the items of
      strictly higher groups that ``x`` ranks above it, the sum becomes
      ``sum_i c_i * mean_{k=1..t} 1/(p+k-2) + sum_groups 1/2 sum_{k=1..t-1} k/(p+k-1)``.
      Equal to the original without ties.
    - ``ties="b"`` (agreement; ties allowed in both): the mean of the asymmetric coefficients
      ``2 / |{i: p_i > 1}| * sum_{p_i > 1} c_i / (p_i - 1) - 1`` with each ordering in turn
      as ``y``; symmetric. Without ties it is the mean of ``tau_AP(x, y)`` and
      ``tau_AP(y, x)``.
    """
    xa, ya = _pair(x, y)
    n = xa.size
    if ties == "b":
        return Correlation(
            "tau_ap_b", (_tau_ap_b_half(xa, ya) + _tau_ap_b_half(ya, xa)) / 2.0, math.nan, n
        )
    if ties != "a":
        raise ParamError(f"ties must be one of 'a', 'b'; got {ties!r}")
    if np.unique(xa).size != n:
        raise ParamError(
            "tau_AP with ties='a' needs a true ordering (x) without ties; use ties='b'"
        )
    above = ya[None, :] > ya[:, None]
    p = above.sum(axis=1) + 1
    t = (ya[None, :] == ya[:, None]).sum(axis=1)
    conc = (above & (xa[None, :] > xa[:, None])).sum(axis=1)
    H = _harmonic(n)
    nt = p >= 2
    term1 = (conc[nt] * (H[p[nt] + t[nt] - 2] - H[p[nt] - 2]) / t[nt]).sum()
    # one entry per tie group (its first position p and size t)
    _, first = np.unique(p, return_index=True)
    gp, gt = p[first], t[first]
    term2 = (0.5 * ((gt - 1) - (gp - 1) * (H[gp + gt - 2] - H[gp - 1]))).sum()
    return Correlation("tau_ap", float(2.0 / (n - 1) * (term1 + term2) - 1.0), math.nan, n)


def weighted_tau(x: Any, y: Any, *, rank: str = "both") -> Correlation:
    """Top-weighted Kendall tau (Vigna, WWW 2015) with hyperbolic weights ``1/(r + 1)``:
    ``scipy.stats.weightedtau``.

    As in the ERR paper (Azzopardi, Mackenzie and Moffat 2021, Table 2: "the weight of the
    system at rank s was set to 1/(s + 1)"), following Shieh (1998) and Vigna. Each element
    has a rank ``r`` (0 for the top) and each pair the additive weight
    ``w_ij = 1/(r_i + 1) + 1/(r_j + 1)``; then, like tau-b::

        tau_w = sum_{i<j} w_ij sgn(x_i - x_j) sgn(y_i - y_j)
                / sqrt(sum_{i<j} w_ij [x_i != x_j] * sum_{i<j} w_ij [y_i != y_j])

    ``rank="x"`` ranks the elements by decreasing ``x`` (ties by decreasing ``y``):
    ``weightedtau(x, y, rank=None)``; ``rank="y"`` by ``y`` then ``x``:
    ``weightedtau(y, x, rank=None)``; ``rank="both"`` (default) averages the two, which makes
    the coefficient symmetric: ``weightedtau(x, y)``. The paper's ``1/(s + 1)`` is this
    weigher with ranks counted from 0 (the top weighs 1); counting from 1 (the top weighing
    1/2) would be scipy's ``weigher=lambda r: 1 / (r + 2)``, a different coefficient.
    """
    from scipy import stats

    if not (isinstance(rank, str) and rank in ("x", "y", "both")):
        check_choice("rank", rank, ("x", "y", "both"))
    xa, ya = _pair(x, y)
    if rank == "x":
        res = stats.weightedtau(xa, ya, rank=None)
    elif rank == "y":
        res = stats.weightedtau(ya, xa, rank=None)
    else:
        res = stats.weightedtau(xa, ya)
    return Correlation("weighted_tau", float(res.statistic), math.nan, int(xa.size))


def rbo_ext(a: Sequence[Hashable], b: Sequence[Hashable], p: float = 0.9) -> float:
    """Extrapolated rank-biased overlap ``RBO_ext`` (Webber, Moffat and Zobel, TOIS 2010,
    Eq. 32) of two rankings: :func:`cwlkit.stats.agreement.rbo`'s ``.ext``, which states the
    formula, with its bounds."""
    from .agreement import rbo as _rbo

    return _rbo(a, b, p).ext


def ranking(scores: Any, labels: Sequence[Hashable] | None = None) -> list:
    """Labels (default: indices) ordered by decreasing score, ties by increasing label."""
    sc = np.asarray(scores, dtype=np.float64).reshape(-1)
    labs = list(range(sc.size)) if labels is None else list(labels)
    if len(labs) != sc.size:
        raise ParamError(f"{len(labs)} labels for {sc.size} scores")
    key = (
        np.argsort(np.asarray([str(x) for x in labs], dtype=object), kind="stable")
        if labels is not None
        else np.arange(sc.size)
    )
    tiebreak = np.empty(sc.size, dtype=np.int64)
    tiebreak[key] = np.arange(sc.size)
    order = np.lexsort((tiebreak, -sc))
    return [labs[i] for i in order]


def rbo_scores(
    x: Any, y: Any, labels: Sequence[Hashable] | None = None, p: float = 0.9
) -> Correlation:
    """RBO of the orderings induced by two score vectors over the same items (decreasing
    score; tied scores are ordered by label, so RBO, unlike the taus, is not tie-aware)."""
    xa, ya = _pair(x, y, min_n=1)
    return Correlation(
        "rbo", rbo_ext(ranking(xa, labels), ranking(ya, labels), p), math.nan, int(xa.size)
    )


def correlate_systems(
    x: Any, y: Any, labels: Sequence[Hashable] | None = None, *, rbo_p: float = 0.9
) -> list[Correlation]:
    """Every ordering-level coefficient of two score vectors over the same systems.

    ``x`` is taken as the reference ordering for the asymmetric tau_AP (``ties="a"``, or
    ``"b"`` when ``x`` has ties). Returns Pearson, Spearman, Kendall tau-b, tau_AP, the
    weighted tau and RBO, in that order.
    """
    check_probability("rbo_p", rbo_p)
    xa, ya = _pair(x, y)
    ap = tau_ap_correlation(xa, ya, ties="a" if np.unique(xa).size == xa.size else "b")
    return [
        pearson(xa, ya),
        spearman(xa, ya),
        kendall_tau_b(xa, ya),
        ap,
        weighted_tau(xa, ya),
        rbo_scores(xa, ya, labels, p=rbo_p),
    ]
