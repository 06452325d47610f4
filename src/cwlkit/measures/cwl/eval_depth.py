"""How deep a ranking must be judged: the INST paper's Equation 7 and Table 2.

On a ranking with no gain, INST's continuation is C(i) = ((i + 2T - 1)/(i + 2T))^2, so
V(i) = (2T / (i - 1 + 2T))^2, the expected depth is (2T)^2 psi_1(2T) (psi_1: trigamma) and the
weight past depth n (Moffat et al. 2015, Equation 7) is

    rho_n = 1 - (1 / S_{2T-1}) sum_{i=1}^{n} 1/(i + 2T - 1)^2 = psi_1(n + 2T) / psi_1(2T),

with S_m = pi^2/6 - sum_{j=1}^{m} 1/j^2 = psi_1(m + 1) (the trigamma form extends S to any real
T > 0). The ranking with no gain has the longest expected depth, hence the largest residual,
so judging a ranking to the smallest depth n with rho_n < delta bounds its INST residual by
delta (Table 2). The fraction of users who go past depth n on that ranking (Equation 6) is
V(n + 1) = (2T / (n + 2T))^2.

Table 2's RBP rows use the same rule with rho_n = p^n and p = 1 - 1/E, E the expected depth of
INST's all-zero ranking (:func:`matching_rbp_p`). :func:`evaluation_depth` applies the rule to
any C/W/L metric, numerically.

>>> inst_evaluation_depth(3, 0.05), inst_evaluation_depth(3, 0.01)
(105, 547)
>>> rbp_evaluation_depth(matching_rbp_p(3), 0.05)
19
"""

from __future__ import annotations

import math

import numpy as np

from ...errors import CwlkitError, ParamError
from .base import CWLMetric
from .engine import score_metric, trigamma, weights

#: the largest depth :func:`evaluation_depth` searches
MAX_SEARCH = 1 << 24


def _check(T: float, delta: float) -> None:
    if not (isinstance(T, (int, float, np.number)) and math.isfinite(T) and T > 0):
        raise ParamError(f"T must be a positive number; got {T!r}")
    if not (0.0 < delta <= 1.0):
        raise ParamError(f"the residual bound delta must be in (0, 1]; got {delta!r}")


def inst_tail_mass(T: float, n: int | np.ndarray) -> float | np.ndarray:
    """rho_n (Equation 7): INST's weight past depth ``n`` on a ranking with no gain.

    Computed as x^2 psi_1(n + x) / (1 + x^2 psi_1(1 + x)), x = 2T (psi_1(x) = 1/x^2 +
    psi_1(1 + x)), which stays finite for any T > 0.
    """
    n = np.asarray(n, dtype=np.float64)
    x = 2.0 * float(T)
    den = 1.0 + x * x * trigamma(np.float64(1.0 + x))
    num = np.where(n > 0, x * x * trigamma(np.maximum(n, 1.0) + x), den)
    out = num / den
    return float(out) if out.ndim == 0 else out


def inst_expected_depth(T: float) -> float:
    """INST's expected depth on a ranking with no gain, (2T)^2 psi_1(2T) (2.58 for T = 1)."""
    x = 2.0 * float(T)
    return float(1.0 + x * x * trigamma(np.float64(1.0 + x)))


def inst_beyond(T: float, n: int) -> float:
    """Equation 6 on a ranking with no gain: the fraction of users who go past depth ``n``,
    V(n + 1) = (2T / (n + 2T))^2."""
    return (2.0 * T / (n + 2.0 * T)) ** 2


def _smallest(rho, delta: float) -> int:
    """The smallest n >= 0 with rho(n) < delta, rho decreasing (bracket, then bisection)."""
    if rho(0) < delta:
        return 0
    hi = 1
    while rho(hi) >= delta:
        hi *= 2
        if hi > 1 << 62:  # pragma: no cover - delta > 0 always ends the doubling
            raise CwlkitError(f"no depth brings the tail below {delta!r}")
    lo = hi // 2  # rho(lo) >= delta > rho(hi)
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if rho(mid) < delta:
            hi = mid
        else:
            lo = mid
    return hi


def inst_evaluation_depth(T: float, delta: float) -> int:
    """The smallest depth n with rho_n < ``delta`` (Table 2: 105 for T = 3, delta = 0.05).

    Judged to depth n, no ranking has an INST residual from its tail of ``delta`` or more.
    """
    _check(T, delta)
    return _smallest(lambda n: inst_tail_mass(T, n), delta)


def matching_rbp_p(T: float) -> float:
    """The RBP persistence with INST's all-zero expected depth E: p = 1 - 1/E (Table 2 rounds
    them to 0.612, 0.847 and 0.951 for T = 1, 3 and 10)."""
    return 1.0 - 1.0 / inst_expected_depth(T)


def rbp_evaluation_depth(p: float, delta: float) -> int:
    """The smallest depth n with p^n < ``delta``: RBP's weight past n (Table 2's RBP rows)."""
    if not (0.0 <= p < 1.0):
        raise ParamError(f"p must be in [0, 1); got {p!r}")
    if not (0.0 < delta <= 1.0):
        raise ParamError(f"the residual bound delta must be in (0, 1]; got {delta!r}")
    return _smallest(lambda n: p**n, delta)


def tail_masses(metric: CWLMetric, horizon: int) -> np.ndarray:
    """float64[horizon + 1]: the weight past depth n = 0 .. horizon of ``metric`` on a ranking
    with no gain and unit costs (the exact expected depth, tail included, normalises it)."""
    ed = score_metric(metric, np.zeros((1, 1)), np.ones((1, 1)), np.array([0])).ED[0]
    if not np.isfinite(ed):
        raise ParamError(
            f"{metric.name} never stops on a ranking without gain: no depth bounds its residual"
        )
    v = weights(metric, np.zeros(horizon), horizon=horizon)["V"][:horizon]
    return np.maximum(1.0 - np.concatenate([[0.0], np.cumsum(v)]) / ed, 0.0)


def evaluation_depth(metric: CWLMetric, delta: float) -> int:
    """The smallest depth n whose weight past n, on a ranking with no gain, is below ``delta``.

    Closed forms for INST and INSQ (Equation 7: INSQ is INST's all-zero model) and RBP;
    other metrics are summed numerically over a growing horizon (up to 2^24 ranks).
    """
    from .inst import INSQ, INST
    from .rbp import RBP

    if not (0.0 < delta <= 1.0):
        raise ParamError(f"the residual bound delta must be in (0, 1]; got {delta!r}")
    if isinstance(metric, (INST, INSQ)):
        return inst_evaluation_depth(metric.T, delta)
    if isinstance(metric, RBP):  # C = p whatever the gains
        return rbp_evaluation_depth(metric.p, delta)
    H = 1024
    while True:
        rho = tail_masses(metric, H)
        below = np.flatnonzero(rho < delta)
        if below.size:
            return int(below[0])
        if H >= MAX_SEARCH:
            raise CwlkitError(
                f"{metric.name}: the weight past depth {H} is still {rho[-1]:.3g} >= {delta!r}"
            )
        H *= 4
