"""tau_AP between two orderings of the same systems (Yilmaz, Aslam and Robertson, SIGIR
2008), the first argument's order taken as the truth: scores, rankings of system ids or
mappings of system to score, checked here; the coefficient is
:func:`cwlkit.stats.correlate.tau_ap_correlation`'s."""

from __future__ import annotations

import numbers
from collections.abc import Iterable, Mapping
from typing import Any

import numpy as np

from ..errors import ParamError
from ..support.checks import check_choice, refuse

#: what each argument of :func:`tau_ap` may be
EXPECTED = (
    "scores (a list, tuple or 1-d array of numbers, one per system), a ranking (system ids "
    "as strings, best first) or a mapping {system: score}"
)


def tau_ap(truth_scores: Any, estimate_scores: Any, *, ties: str = "a") -> float:
    """AP rank correlation tau_AP (Yilmaz, Aslam and Robertson, SIGIR 2008).

    The systems are ordered by decreasing score. ``truth_scores`` gives the true order and
    ``estimate_scores`` the estimated one. With the systems listed in the estimate's order and
    ``C(i)`` the number of systems above position ``i`` that the truth also ranks above the
    system at ``i``::

        tau_AP = 2 / (n - 1) * sum_{i=2..n} C(i) / (i - 1) - 1

    It is 1 for the same order and -1 for the reverse, and, unlike Kendall's tau, weighs a
    swap near the top more than one near the bottom; it is not symmetric.

    Parameters
    ----------
    truth_scores, estimate_scores : sequence of float, sequence of str or mapping
        Both of one form, over the same ``n >= 2`` systems:

        - scores: a list, tuple or 1-d numpy array (or pandas Series) of finite numbers,
          one per system, in the same order in both;
        - rankings: the system ids (strings), best first, each system once (a ranking of
          ``n`` systems is the scores ``n, n - 1, ..., 1``; no ties);
        - mappings from system to score (the same systems in both).

        Anything else (None, a string, numbers and ids mixed, nested lists, NaN, a system
        twice in a ranking, fewer than two systems) is a :class:`ParamError`.
    ties : {"a", "b"}
        Urbano and Marrero's (ICTIR 2017) treatment of tied scores: ``"a"`` (the truth has no
        ties; the mean of tau_AP over the orders of the estimate's tied systems) or ``"b"``
        (ties in both; symmetric). Without ties ``"a"`` is the paper's tau_AP.

    Returns
    -------
    float

    Examples
    --------
    >>> import cwlkit
    >>> cwlkit.tau_ap([4, 3, 2, 1], [3, 4, 2, 1])      # a swap at the top
    0.33333333333333304
    >>> cwlkit.tau_ap(["A", "B", "C", "D"], ["B", "A", "C", "D"])
    0.33333333333333304
    """
    from .correlate import tau_ap_correlation

    ties = check_choice("ties", ties, ("a", "b"))
    x, y = aligned_scores(truth_scores, estimate_scores)
    return tau_ap_correlation(x, y, ties=ties).value


def aligned_scores(x: Any, y: Any) -> tuple[np.ndarray, np.ndarray]:
    """float64[n] twice: the scores of the same ``n >= 2`` systems, in one order, from two
    arguments of :func:`tau_ap` (scores, rankings or mappings); :class:`ParamError` for
    anything else."""
    kx, vx = _form("truth_scores", x)
    ky, vy = _form("estimate_scores", y)
    if kx != ky:
        raise ParamError(f"give truth_scores and estimate_scores in one form; got {kx} and {ky}")
    if kx == "scores":
        sx, sy = np.asarray(vx, dtype=np.float64), np.asarray(vy, dtype=np.float64)
        if sx.size != sy.size:
            raise ParamError(f"cannot correlate {sx.size} scores with {sy.size} scores")
    else:
        if set(vx) != set(vy):
            only = sorted(map(str, set(vx) ^ set(vy)))
            raise ParamError(f"the two {kx} have different systems: {', '.join(only[:5])}")
        keys = list(vx)
        sx = np.array([vx[k] for k in keys], dtype=np.float64)
        sy = np.array([vy[k] for k in keys], dtype=np.float64)
    if sx.size < 2:
        raise ParamError(f"tau_AP needs at least 2 systems; got {sx.size}")
    if not (np.isfinite(sx).all() and np.isfinite(sy).all()):
        raise ParamError("scores to correlate must be finite (got NaN or infinity)")
    return sx, sy


def _is_number(v: Any) -> bool:
    return isinstance(v, numbers.Real) and not isinstance(v, bool | np.bool_)


def _form(name: str, v: Any) -> tuple[str, Any]:
    """``("scores", list of numbers)``, ``("rankings", {system: score})`` or
    ``("mappings", {system: score})``."""
    if isinstance(v, Mapping):
        if not all(_is_number(s) for s in v.values()):
            raise refuse(name, EXPECTED, v)
        return "mappings", dict(v)
    if isinstance(v, np.ndarray) and v.ndim != 1:
        raise refuse(name, EXPECTED, v)
    if isinstance(v, str | bytes) or not isinstance(v, Iterable):
        raise refuse(name, EXPECTED, v)
    items = list(v)
    if items and all(_is_number(s) for s in items):
        return "scores", items
    if items and all(isinstance(s, str) for s in items):
        if len(set(items)) != len(items):
            twice = next(s for i, s in enumerate(items) if s in items[:i])
            raise ParamError(f"{name}: system {twice!r} is ranked twice")
        n = len(items)
        return "rankings", {s: float(n - i) for i, s in enumerate(items)}
    raise refuse(name, EXPECTED, v)
