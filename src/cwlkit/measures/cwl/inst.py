"""INST and INSQ (Moffat, Bailey, Scholer, Thomas 2015; Moffat et al. 2012)."""

from __future__ import annotations

from typing import ClassVar

import numpy as np

from ..base import MAX_COUNT, measure, param
from .base import CWLMetric, register_cwl
from .engine import CWLContext, c_pow, geometric_tail, trigamma_tail


@register_cwl
@measure
class INST(CWLMetric):
    """INST: C(i) = ((i + T + T_i - 1) / (i + T + T_i))^2 with T_i = T - CG(i).

    T is the total gain the user wants; gains must lie in [0, 1]. Past the run (gain 0) T_i is
    constant, C(j) = ((j + b - 1)/(j + b))^2 with b = 2T - CG(H), and the remaining expected
    depth telescopes to (H + b)^2 psi_1(H + b) (psi_1: trigamma). With gain 1 per rank past
    the run (the upper bound), i + T + T_i is constant and the tail is geometric. With a gain
    a in (0, 1) past the run (the upper bound with ``--max-gain a``) the tail is a sum of
    squared Gamma-function ratios (see ``_power_tail``). All are summed exactly, so INST-T=2
    on the cwl_eval paper's topic T1 gives ED = ETC = 3.9363 (cwl_eval, cut at 1000, prints
    3.9220 and 3.9292).

    When T < 1/2 Equation 1's numerator can reach zero (all-relevant rankings); it is floored
    at 0 there (see ``_continue``), so a user who needs less than half a document stops at the
    first fully relevant one. cwl_eval's mode (``max_depth``) keeps the formula as written.
    """

    family = "INST"
    cwl_class = "INSTCWLMetric"
    cwl_params = (("T", "T", "1.0"),)
    cwl_format = "INST-T={T}"
    gain_domain: ClassVar[tuple[float, float] | None] = (0.0, 1.0)
    T: float = param(1.0, gt=0.0, doc="total gain the user wants")

    def derived(self) -> list[tuple[str, str, float]]:
        return _t_derived(self.T)

    def continuation(self, x: CWLContext) -> np.ndarray:
        a = x.rank + 2.0 * self.T - x.cum_gain
        if x.compat:  # cwl_eval's (and inst_eval.py's) Equation 1 as written
            return ((a - 1.0) / a) ** 2
        return _continue(a)

    def cwl_eval_vectors(self, x: CWLContext) -> tuple[np.ndarray, None]:
        """cwl_eval's C: ``(((i+1.0)+T+Ti-1.0) / ((i+1.0)+T+Ti))**2.0``, Ti = T - CG(i): its
        additions in its order, and C's ``pow`` for the square."""
        b = (x.rank + self.T) + (self.T - x.cum_gain)
        return c_pow((b - 1.0) / b, 2.0), None

    def tail(self, x: CWLContext) -> np.ndarray | None:
        H = x.horizon
        cg = x.cum_gain[:, -1]
        if x.pad_gain == 0.0:
            return trigamma_tail(H + 2.0 * self.T - cg)
        if x.pad_gain == 1.0:
            return geometric_tail(_continue(H + 2.0 * self.T - cg))
        if 0.0 < x.pad_gain <= 0.9:
            return _power_tail(H, 2.0 * self.T - cg, x.pad_gain)
        return None  # gain in (0.9, 1): V decays like m^(-2/(1-a)) <= m^-20; the engine extends


def _t_derived(T: float) -> list[tuple[str, str, float]]:
    """INST's, INSQ's and C_E11's check of T: the tail squares i + 2T at ranks i up to 2^53
    ((i + 2T)^2 psi_1(i + 2T)), which must be finite (T below about 6.7e153)."""
    x = np.float64(2.0) * T + MAX_COUNT
    return [("T", "(i + 2T)^2 at rank i = 2^53", float(x * x))]


def _continue(a: np.ndarray) -> np.ndarray:
    """Equation 1 with a = i + T + T_i: (max(a - 1, 0) / a)^2.

    For gains in [0, 1], a >= 2T > 0. When a <= 1 (only possible for T < 1/2, once the user
    has gained at least i + 2T - 1) the numerator of Equation 1 is zero or negative: squared as
    written, C would rise again as more gain comes (C = 1 for T = 1/4 on an all-relevant
    ranking, an infinite expected depth; C > 1 for T < 1/4). The numerator is floored at 0, so
    C stays a probability, never rises with gain, and a user with no remaining need stops.
    (a can round to 0 when T is below the resolution of i + 2T; C is 0 there too.)
    """
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(a > 1.0, ((a - 1.0) / a) ** 2, 0.0)


def _power_tail(H: np.ndarray, c0: np.ndarray, a: float) -> np.ndarray:
    """INST's remaining expected depth when every rank past H has gain a, 0 < a < 1.

    ``H`` and ``c0`` are per topic (float64[T]); the result is NaN for a topic where C past
    H is not of the form below (A <= 0: some i + 2T - CG(i) < 1 past H, T < 1/2), which the
    engine then extends rank by rank.

    Past H, i + 2T - CG(i) = (1 - a) i + c with c = 2T - CG(H) + H a, so
    C(j) = ((j + u)/(j + w))^2 with u = (c - 1)/(1 - a), w = c/(1 - a), and with A = H + 1 + u,
    B = H + 1 + w = A + delta (delta = 1/(1 - a)) the tail is sum_{m>=0} R(m)^2 with
    R(m) = prod_{i<m} (A + i)/(B + i) = Gamma(A + m) Gamma(B) / (Gamma(A) Gamma(B + m)).

    The first M terms are summed directly. Beyond, with z = m + (A + B - 1)/2 and
    b = (1 + delta)/2, log(Gamma(z + 1 - b)/Gamma(z + b)) = -delta log z + B_3(b)/(3 z^2)
    + B_5(b)/(10 z^4) + O(z^-6) (B_n: Bernoulli polynomials), so
    R(m)^2 = K z^(-2 delta) (1 + c2/z^2 + c4/z^4) with c2 = 2 B_3(b)/3, c4 = B_5(b)/5 + c2^2/2,
    K fitted at m = M, and the sum over m >= M is K times Hurwitz zeta functions. M >= 32 delta
    keeps the neglected terms below 1e-11 of the tail.
    """
    from scipy.special import zeta

    delta = 1.0 / (1.0 - a)
    c = np.asarray(c0, dtype=np.float64) + H * a
    A = H + 1.0 + (c - 1.0) * delta
    bad = A <= 0.0  # some i + 2T - CG(i) < 1 past H (T < 1/2): C is not of this form; extend
    A = np.where(bad, 1.0, A)
    B = A + delta
    M = 64 + 32 * int(np.ceil(delta))
    i = np.arange(M, dtype=np.float64)[None, :]
    R = np.cumprod((A[:, None] + i) / (B[:, None] + i), axis=1)  # R(1) ... R(M)
    direct = 1.0 + np.sum(R[:, :-1] ** 2, axis=1)  # m = 0 ... M-1
    z = M + (A + B - 1.0) / 2.0
    b = (1.0 + delta) / 2.0
    c2 = 2.0 * (b**3 - 1.5 * b**2 + 0.5 * b) / 3.0
    c4 = (b**5 - 2.5 * b**4 + 5.0 / 3.0 * b**3 - b / 6.0) / 5.0 + c2 * c2 / 2.0
    s = 2.0 * delta
    K = R[:, -1] ** 2 * z**s / (1.0 + c2 / z**2 + c4 / z**4)
    tail = direct + K * (zeta(s, z) + c2 * zeta(s + 2.0, z) + c4 * zeta(s + 4.0, z))
    return np.where(bad, np.nan, tail)


@register_cwl
@measure
class INSQ(CWLMetric):
    """INSQ: C(i) = ((i + 2T - 1) / (i + 2T))^2, independent of the gains.

    V(i) = (2T / (i - 1 + 2T))^2, so ED = (2T)^2 psi_1(2T) exactly (4.5412 for T = 2).
    """

    family = "INSQ"
    cwl_class = "INSQCWLMetric"
    cwl_params = (("T", "T", "1.0"),)
    cwl_format = "INSQ-T={T}"
    T: float = param(1.0, gt=0.0, doc="total gain the user wants")

    def derived(self) -> list[tuple[str, str, float]]:
        return _t_derived(self.T)

    def continuation(self, x: CWLContext) -> np.ndarray:
        b = x.rank + 2.0 * self.T
        return np.broadcast_to(((b - 1.0) / b) ** 2, x.gain.shape)

    def cwl_eval_vectors(self, x: CWLContext) -> tuple[np.ndarray, None]:
        """cwl_eval's C: ``(((i+1.0)+(2.0*T)-1.0) / ((i+1.0)+(2.0*T)))**2.0`` (C's ``pow``),
        a constant of the rank."""
        b = x.rank[0] + 2.0 * self.T
        return np.broadcast_to(c_pow((b - 1.0) / b, 2.0), x.gain.shape), None

    def tail(self, x: CWLContext) -> np.ndarray:
        return trigamma_tail(np.full(x.gain.shape[0], x.horizon + 2.0 * self.T))
