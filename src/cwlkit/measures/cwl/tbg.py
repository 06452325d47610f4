"""Time-biased gain and the U-measure: weights from the time (cost) spent before rank i."""

from __future__ import annotations

import numpy as np

from ..base import measure, param
from .base import CWLMetric, register_cwl
from .engine import CWLContext, geometric_tail


@register_cwl
@measure
class TBG(CWLMetric):
    """TBG (Smucker and Clarke 2012): W(i) proportional to 2^(-CC(i-1) / h).

    Equivalently C(i) = 2^(-c_i / h). Past the run every document costs the padding cost, so
    the tail is geometric with ratio 2^(-c / h). cwl_eval forces C = 0 at its depth cut (done
    here in ``--max-depth`` mode only) and prints the name with a trailing space, which
    cwlkit drops.
    """

    family = "TBG"
    cwl_class = "TBGCWLMetric"
    cwl_params = (("halflife", "halflife", "224"),)
    cwl_format = "TBG-H@{halflife}"
    halflife: float = param(224.0, gt=0.0, doc="half-life, in cost units")

    def derived(self) -> list[tuple[str, str, float]]:
        """1/halflife, the rate every cost is scaled by, must be finite."""
        return [("halflife", "1/halflife", 1.0 / self.halflife)]

    def continuation(self, x: CWLContext) -> np.ndarray:
        c = np.exp2(-x.cost / self.halflife)
        if x.compat:
            c = c.copy()
            c[:, -1] = 0.0
        return c

    def tail(self, x: CWLContext) -> np.ndarray:
        return geometric_tail(np.exp2(-x.pad_cost / self.halflife))


@register_cwl
@measure
class UMeasure(CWLMetric):
    """U-measure (Sakai and Dou 2013): W(i) proportional to max(0, 1 - CC(i-1) / L).

    The gain of an item is placed at its start offset CC(i-1) (cwl_eval's convention), so
    W(1) is always the largest. C(i) = W(i+1) / W(i) (0 once W reaches 0); the user stops once
    the cost spent reaches L, so the model is finite. cwl_eval also sets W = 0 at its depth
    cut (done here in ``--max-depth`` mode only).
    """

    family = "U"
    aliases = ("UMeasure",)
    cwl_class = "UMeasureCWLMetric"
    cwl_params = (("L", "L", "1000"),)
    cwl_format = "U-L@{L}"
    L: float = param(1000.0, gt=0.0, doc="cost budget (e.g. characters)")

    def derived(self) -> list[tuple[str, str, float]]:
        """1/L, the rate every cost is scaled by, must be finite."""
        return [("L", "1/L", 1.0 / self.L)]

    def continuation(self, x: CWLContext) -> np.ndarray:
        start = x.cum_cost - x.cost  # CC(i-1)
        w_i = np.maximum(0.0, 1.0 - start / self.L)
        w_next = np.maximum(0.0, 1.0 - x.cum_cost / self.L)
        if x.compat:
            w_next = w_next.copy()
            w_next[:, -2:] = 0.0  # cwl_eval: W(n) = 0, and C(n) = 0
        with np.errstate(invalid="ignore", divide="ignore"):
            return np.where(w_i > 0, w_next / w_i, 0.0)
