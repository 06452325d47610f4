"""Information foraging (Azzopardi et al. 2018): goal and rate sensitive continuation."""

from __future__ import annotations

import math

import numpy as np

from ..base import measure, param
from .base import CWLMetric, register_cwl
from .engine import CWLContext, c_pow, geometric_tail, logistic


def _c1(x: CWLContext, T: float, b1: float, R1: float) -> np.ndarray:
    # 1 - 1/(1 + b1 e^((T - CG) R1)) = logistic((T - CG) R1 + ln b1): no overflow
    return logistic((T - x.cum_gain) * R1 + np.log(b1))


def _rate(x: CWLContext) -> np.ndarray:
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(
            x.cum_cost > 0,
            x.cum_gain / np.where(x.cum_cost > 0, x.cum_cost, 1.0),
            np.where(x.cum_gain > 0, np.inf, 0.0),
        )


def _c2(x: CWLContext, A: float, b2: float, R2: float) -> np.ndarray:
    # 1/(1 + b2 e^((A - CG/CC) R2)) = logistic(-(A - CG/CC) R2 - ln b2)
    return logistic((_rate(x) - A) * R2 - np.log(b2))


def _c1_cwl_eval(x: CWLContext, T: float, b1: float, R1: float) -> np.ndarray:
    """cwl_eval's ``c1_func``: ``1.0 - math.pow(1.0 + b1 * math.pow(e, (T - CG) * R1), -1.0)``
    (an overflow of the inner power gives C = 1, where cwl_eval raises OverflowError)."""
    ex = 1.0 + b1 * c_pow(math.e, (T - x.cum_gain) * R1)
    return 1.0 - c_pow(ex, -1.0)


def _c2_cwl_eval(x: CWLContext, A: float, b2: float, R2: float) -> np.ndarray:
    """cwl_eval's ``c2_func``: ``math.pow(1.0 + b2 * math.pow(e, (A - CG/CC) * R2), -1.0)``
    (the rate 0 before anything is gained or spent, where cwl_eval has 0/0)."""
    with np.errstate(invalid="ignore"):
        ex = 1.0 + b2 * c_pow(math.e, (A - _rate(x)) * R2)
    return c_pow(ex, -1.0)


@register_cwl
@measure
class IFTGoal(CWLMetric):
    """IFT-C1: C(i) = 1 - 1 / (1 + b1 exp((T - CG(i)) R1)): the user stops once the goal T is met.

    Computed as a logistic in log space, so large (T - CG) R1 cannot overflow (cwl_eval's
    ``math.pow`` raises OverflowError, e.g. for T=2, b1=0.9, R1=1000). Past the run CG is
    constant, C is constant and the tail is geometric.
    """

    family = "IFT-C1"
    aliases = ("IFTGoal",)
    cwl_class = "IFTGoalCWLMetric"
    cwl_params = (("T", "T", ""), ("b1", "b1", ""), ("R1", "R1", ""))
    cwl_format = "IFT-C1-T={T}-b1={b1}-R1={R1}"
    T: float = param(gt=0.0, doc="gain goal")
    b1: float = param(gt=0.0, doc="scale of the goal term")
    R1: float = param(ge=0.0, doc="sharpness of the goal term")

    def continuation(self, x: CWLContext) -> np.ndarray:
        return _c1(x, self.T, self.b1, self.R1)

    def cwl_eval_vectors(self, x: CWLContext) -> tuple[np.ndarray, None]:
        """cwl_eval's C, with its powers (:func:`_c1_cwl_eval`)."""
        return _c1_cwl_eval(x, self.T, self.b1, self.R1), None

    def tail(self, x: CWLContext) -> np.ndarray | None:
        if x.pad_gain != 0.0:
            return None
        return geometric_tail(_c1(x, self.T, self.b1, self.R1)[:, -1])


@register_cwl
@measure
class IFTRate(CWLMetric):
    """IFT-C2: C(i) = 1 / (1 + b2 exp((A - CG(i)/CC(i)) R2)), rate of gain against A.

    The user stops when the rate of gain falls below A.
    """

    family = "IFT-C2"
    aliases = ("IFTRate",)
    cwl_class = "IFTRateCWLMetric"
    cwl_params = (("A", "A", ""), ("b2", "b2", ""), ("R2", "R2", ""))
    cwl_format = "IFT-C2-A={A}-b2={b2}-R2={R2}"
    A: float = param(ge=0.0, doc="rate of gain wanted")
    b2: float = param(gt=0.0, doc="scale of the rate term")
    R2: float = param(ge=0.0, doc="sharpness of the rate term")

    def continuation(self, x: CWLContext) -> np.ndarray:
        return _c2(x, self.A, self.b2, self.R2)

    def cwl_eval_vectors(self, x: CWLContext) -> tuple[np.ndarray, None]:
        """cwl_eval's C, with its powers (:func:`_c2_cwl_eval`)."""
        return _c2_cwl_eval(x, self.A, self.b2, self.R2), None


@register_cwl
@measure
class IFTGoalRate(CWLMetric):
    """IFT-C1-C2: C(i) = C1(i) C2(i), goal and rate together."""

    family = "IFT"
    aliases = ("IFTGoalRate", "IFT-C1-C2")
    cwl_class = "IFTGoalRateCWLMetric"
    cwl_params = (
        ("T", "T", ""),
        ("b1", "b1", ""),
        ("R1", "R1", ""),
        ("A", "A", ""),
        ("b2", "b2", ""),
        ("R2", "R2", ""),
    )
    cwl_format = "IFT-C1-C2-T={T}-b1={b1}-R1={R1}-A={A}-b2={b2}-R2={R2}"
    T: float = param(gt=0.0, doc="gain goal")
    b1: float = param(gt=0.0, doc="scale of the goal term")
    R1: float = param(ge=0.0, doc="sharpness of the goal term")
    A: float = param(ge=0.0, doc="rate of gain wanted")
    b2: float = param(gt=0.0, doc="scale of the rate term")
    R2: float = param(ge=0.0, doc="sharpness of the rate term")

    def continuation(self, x: CWLContext) -> np.ndarray:
        return _c1(x, self.T, self.b1, self.R1) * _c2(x, self.A, self.b2, self.R2)

    def cwl_eval_vectors(self, x: CWLContext) -> tuple[np.ndarray, None]:
        """cwl_eval's C = c1 c2, with its powers."""
        c1 = _c1_cwl_eval(x, self.T, self.b1, self.R1)
        return c1 * _c2_cwl_eval(x, self.A, self.b2, self.R2), None
