"""tau_AP between two score vectors (Yilmaz, Aslam and Robertson, SIGIR 2008), the first
argument's order taken as the truth: the public form of
:func:`cwlkit.stats.correlate.tau_ap`."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..errors import ParamError


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
    truth_scores, estimate_scores : sequence of float or mapping
        One score per system, in the same order; or two mappings from system to score (the
        systems of both, which must be the same).
    ties : {"a", "b"}
        Urbano and Marrero's (ICTIR 2017) treatment of tied scores: ``"a"`` (the truth has no
        ties; the mean of tau_AP over the orders of the estimate's tied systems) or ``"b"``
        (ties in both; symmetric). Without ties ``"a"`` is the paper's tau_AP.

    Returns
    -------
    float
    """
    from .correlate import tau_ap as _coefficient

    x, y = _aligned(truth_scores, estimate_scores)
    return _coefficient(x, y, ties=ties).value


def _aligned(x: Any, y: Any) -> tuple[Any, Any]:
    if isinstance(x, Mapping) or isinstance(y, Mapping):
        if not (isinstance(x, Mapping) and isinstance(y, Mapping)):
            raise ParamError("give both scores as mappings (system -> score), or neither")
        if set(x) != set(y):
            only = sorted(map(str, set(x) ^ set(y)))
            raise ParamError(f"the two mappings have different systems: {', '.join(only[:5])}")
        keys = list(x)
        return [x[k] for k in keys], [y[k] for k in keys]
    return x, y
