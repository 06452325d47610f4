"""Rank-biased overlap between two rankings, with its bounds.

:func:`rbo` is Webber, Moffat and Zobel's (TOIS 2010)
rank-biased overlap of two prefixes of indefinite rankings, with the lower bound
``RBO_min``, the residual ``RBO_res`` and the point estimate ``RBO_ext``, for rankings of
uneven lengths and with ties.
"""

from __future__ import annotations

import math
import numbers
from collections import Counter
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, cast

import numpy as np

from ..errors import ParamError
from ..support.checks import check_probability, refuse

#: what each ranking given to :func:`rbo` may be
EXPECTED = "a ranking: a list, tuple or 1-d array of distinct ids (or sets of tied ids), best first"


@dataclass(frozen=True)
class RBO:
    """Rank-biased overlap of two ranking prefixes (Webber, Moffat and Zobel 2010).

    Attributes
    ----------
    min : float
        ``RBO_min``: the value if the unseen parts of the rankings share nothing more.
    res : float
        ``RBO_res``: how much the unseen parts could add at most (``max - min``).
    ext : float
        ``RBO_ext``: the extrapolation that assumes the agreement seen at the shorter
        ranking's depth goes on.
    p : float
        The persistence.
    depth : tuple of int
        The lengths ``(s, l)`` of the shorter and the longer ranking.
    """

    min: float
    res: float
    ext: float
    p: float
    depth: tuple[int, int]

    @property
    def max(self) -> float:
        """``RBO_max = RBO_min + RBO_res``: the value if the unseen parts agree as much as
        they can."""
        return self.min + self.res

    def to_dict(self) -> dict[str, float]:
        return {"min": self.min, "max": self.max, "res": self.res, "ext": self.ext, "p": self.p}


def _flatten(name: str, ranking: Any) -> tuple[list[Hashable], np.ndarray]:
    """Items and their 1-based *entry depth*: the first position of their tie group. A tie
    group is a set or frozenset; any other element is one item. :class:`ParamError` for
    what is not a ranking (None, a string, a mapping, a scalar, an array of more than one
    dimension), an item that is not an id (None, NaN, a list...) or an item given twice."""
    if (
        isinstance(ranking, str | bytes | Mapping)
        or not isinstance(ranking, Iterable)
        or (isinstance(ranking, np.ndarray) and ranking.ndim != 1)
    ):
        raise refuse(name, EXPECTED, ranking)
    items = list(ranking)
    if all(type(x) is str for x in items):  # (the usual ranking: document ids, no ties)
        return _distinct(name, items), np.arange(1, len(items) + 1, dtype=np.int64)
    flat: list[Hashable] = []
    enter: list[int] = []
    for el in items:
        if isinstance(el, set | frozenset):
            if not el:
                raise refuse(f"a set of tied ids in {name}", "non-empty", el)
            group = sorted(el, key=str)
            first = len(flat) + 1
            flat.extend(_id(name, x) for x in group)
            enter.extend([first] * len(group))
        else:
            flat.append(_id(name, el))
            enter.append(len(flat))
    return _distinct(name, flat), np.asarray(enter, dtype=np.int64)


def _distinct(name: str, items: list[Hashable]) -> list[Hashable]:
    """``items``, or :class:`ParamError` naming one given twice."""
    if len(set(items)) != len(items):
        twice = next(x for x, n in Counter(items).items() if n > 1)
        raise ParamError(f"RBO needs rankings without repeated items; {name} has {twice!r} twice")
    return items


def _id(name: str, item: Any) -> Hashable:
    """``item`` if it can be an id in a ranking: hashable, not None, not NaN, not a
    container; :class:`ParamError` otherwise."""
    bad = (
        item is None
        or isinstance(item, list | dict | set | tuple | np.ndarray | bytes)
        or not isinstance(item, Hashable)
        or (isinstance(item, numbers.Real) and not math.isfinite(float(item)))
    )
    if bad:
        raise refuse(
            f"an item of {name}", "an id (hashable, not None nor NaN) or a set of ids", item
        )
    return item


def _tail_sum(p: float, l_: int, head: float) -> float:
    """``sum_{d > l} p^(d-1) / d``, the weight of the depths beyond both prefixes.

    Summed term by term (ratio ``p``) when ``p^n`` falls below ``e^-40`` within 100,000
    terms: ``(-ln(1 - p) - head) / p`` with ``head = sum_{d <= l} p^d / d`` loses every digit
    to cancellation when the tail is small (``p = 1e-5`` put ``RBO_min`` above ``RBO_ext``).
    For ``p`` closer to 1 that difference is used, held within the tail's exact bounds
    ``p^l / (l + 1) <= tail <= p^l / ((l + 1)(1 - p))``.
    """
    n = math.ceil(40.0 / -math.log(p))
    if n <= 100_000:
        j = np.arange(n, dtype=np.float64)
        return float((p ** (l_ + j) / (l_ + 1.0 + j)).sum())
    lowest = p**l_ / (l_ + 1.0)
    return min(max((-math.log1p(-p) - head) / p, lowest), lowest / (1.0 - p))


def rbo(a: Sequence[Any], b: Sequence[Any], p: float = 0.9) -> RBO:
    """Rank-biased overlap of two rankings, with its bounds (Webber, Moffat and Zobel, TOIS
    2010).

    ``a`` and ``b`` list items best first; they may differ in length and contents. With ``S``
    the shorter ranking (length ``s``), ``L`` the longer (length ``l``), ``X_d`` the number of
    items that ``S[:d]`` (all of ``S`` when ``d > s``) and ``L[:d]`` share and ``A_d = X_d /
    d`` the agreement at depth ``d``, RBO is ``(1 - p) sum_d p^(d-1) A_d`` over every depth
    of the indefinite rankings, which the prefixes bound:

    - ``RBO_min`` (Eq. 11; Eq. 30 for uneven lengths): no item beyond the prefixes matches,
      ``X_d = X_l`` for ``d > l``::

          (1 - p) / p * ( sum_{d=1..l} (X_d - X_l) / d * p^d - X_l ln(1 - p) )

    - ``RBO_res`` (Eq. 31): the unseen items match as early as they can. For ``s < d <= l``
      each unseen item of ``S`` matches an unmatched item of ``L[:d]``, ``X_d + (d - s)``;
      beyond ``l`` both rankings' new items match, ``min(d, 2d - f)`` with
      ``f = l + s - X_l``. ``RBO_res = RBO_max - RBO_min``; for equal lengths ``k`` it is
      ``p^f + (1-p)/p (2 sum_{d=k+1..f} (d-k) p^d / d - X_k sum_{d>f} p^d / d)``.
    - ``RBO_ext`` (Eq. 32): the agreement ``X_s / s`` seen at depth ``s`` goes on, for ``S``
      beyond ``s`` and for both beyond ``l``::

          (1 - p) / p * ( sum_{d=1..l} X_d / d * p^d + sum_{d=s+1..l} X_s (d - s) / (s d) p^d )
          + ((X_l - X_s) / l + X_s / s) * p^l

      which for equal lengths ``k`` is ``(1 - p)/p sum_{d=1..k} X_d / d p^d + X_k / k p^k``:
      1 for the same ranking.

    Ties (Section 4.3): an element that is a ``set`` or ``frozenset`` is a group of tied
    items occupying as many positions; every item of a group is in the prefix from the
    group's first position on, and the agreement is ``2 X_d / (|S:d| + |L:d|)`` with ``|R:d|``
    the number of items of ``R`` in its depth-``d`` prefix (``d`` for ``S`` beyond ``s``),
    which without ties is ``X_d / d``.

    Parameters
    ----------
    a, b : sequence
        The rankings, best first: lists, tuples or 1-d numpy arrays (any iterable but a
        string or a mapping) of distinct ids (strings, integers, finite numbers: hashable,
        not None nor NaN), or sets of tied ids. Anything else, an id given twice or two
        empty rankings is a :class:`ParamError`.
    p : float
        The persistence in (0, 1); the expected depth of the comparison is ``1 / (1 - p)``.

    Returns
    -------
    RBO
        ``.min``, ``.res``, ``.ext`` (and ``.max``). One empty ranking against a non-empty
        one gives ``min = ext = 0``.
    """
    p = cast(float, check_probability("p", p))
    ia, ea = _flatten("a", a)
    ib, eb = _flatten("b", b)
    (S, eS), (L, eL) = ((ia, ea), (ib, eb)) if len(ia) <= len(ib) else ((ib, eb), (ia, ea))
    s, l_ = len(S), len(L)
    if l_ == 0:
        raise ParamError("RBO of two empty rankings is undefined: give at least one item")
    d = np.arange(1, l_ + 1, dtype=np.float64)
    pd = p**d
    # each depth's weight (1 - p) p^(d - 1): the sums below are (1 - p)/p sum_d p^d ... with
    # the factor taken in, so that a tiny p (1/p overflowing, p^d underflowing) stays finite
    w = (1.0 - p) * p ** (d - 1.0)
    # X_d: items in both prefixes, entering at the later of their two entry depths
    pos_s = {item: i for i, item in enumerate(S)}
    in_s = np.fromiter((item in pos_s for item in L), dtype=bool, count=l_)
    both = np.maximum(eL[in_s], eS[[pos_s[item] for item in np.asarray(L, dtype=object)[in_s]]])
    X = np.cumsum(np.bincount(both, minlength=l_ + 1)[1:]).astype(np.float64)
    nS = np.cumsum(np.bincount(eS, minlength=l_ + 1)[1:]).astype(np.float64)
    nS[s:] = d[s:]  # S continues beyond s, unseen
    nL = np.cumsum(np.bincount(eL, minlength=l_ + 1)[1:]).astype(np.float64)
    denom = nS + nL
    Xl = X[-1]
    tail_sum = _tail_sum(p, l_, float((pd / d).sum()))
    rbo_min = float((2.0 * X / denom * w).sum()) + Xl * (1.0 - p) * tail_sum
    # max: the unseen items of S (depths s+1..d) match L's items not in S, seen by depth d
    tail = np.arange(l_) >= s
    unseen_l = np.cumsum(np.bincount(eL[~in_s], minlength=l_ + 1)[1:]).astype(np.float64)
    Xmax = X.copy()
    Xmax[tail] += np.minimum(d[tail] - s, unseen_l[tail])
    f = int(l_ + s - Xl)
    dd = np.arange(l_ + 1, f + 1, dtype=np.float64)
    beyond = (1.0 - p) * float(((2.0 * dd - l_ - s + Xl) / dd * p ** (dd - 1.0)).sum()) + p**f
    rbo_max = float((2.0 * Xmax / denom * w).sum()) + beyond
    if s == 0:
        ext = 0.0
    else:
        As = 2.0 * X[s - 1] / denom[s - 1]
        Xext = X.copy()
        Xext[tail] += (d[tail] - s) * As
        ext = float((2.0 * Xext / denom * w).sum()) + (Xl + (l_ - s) * As) / l_ * p**l_
    return RBO(float(rbo_min), float(rbo_max - rbo_min), float(ext), p, (s, l_))
