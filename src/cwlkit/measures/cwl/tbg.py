"""Time-biased gain and the U-measure: weights from the time (cost) spent before rank i."""

from __future__ import annotations

import math

import numpy as np

from ..base import measure, param
from .base import CWLMetric, register_cwl
from .engine import CWLContext, c_pow, geometric_tail


@register_cwl
@measure
class TBG(CWLMetric):
    """TBG (Smucker and Clarke 2012): W(i) proportional to 2^(-CC(i-1) / h).

    Equivalently C(i) = 2^(-c_i / h). Past the run every document costs the padding cost, so
    the tail is geometric with ratio 2^(-c / h). cwl_eval forces C = 0 at its depth cut (done
    here in ``--max-depth`` mode only) and prints the name with a trailing space, which
    cwlkit prints in that mode only.
    """

    family = "TBG"
    cwl_class = "TBGCWLMetric"
    cwl_params = (("halflife", "halflife", "224"),)
    cwl_format = "TBG-H@{halflife}"
    cwl_name_tail = " "  # cwl_eval prints "TBG-H@224 "
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

    def cwl_eval_vectors(self, x: CWLContext) -> tuple[np.ndarray, np.ndarray]:
        """cwl_eval's W and C: W(i) = D(CC(i-1)) / sum_j D(CC(j-1)), D(t) = (h 2.0**(-t/h)) /
        log(2) (C's ``pow``; the norm added up rank by rank from D(0)), and C(i) = W(i+1) /
        W(i) (0 where W(i) is 0, and at rank n)."""
        h = self.halflife
        ln2 = math.log(2.0, math.e)
        n_topics, n = x.cost.shape
        d = np.empty((n_topics, n))
        d[:, 0] = (h * (2.0 ** (-0.0 / h))) / ln2
        d[:, 1:] = (h * c_pow(2.0, -x.cum_cost[:, :-1] / h)) / ln2
        norm = np.cumsum(d, axis=1)[:, -1]
        return _ratios(d / norm[:, None]), d / norm[:, None]


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
    cwl_name_tail = " "  # cwl_eval prints "U-L@1000 "
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

    def cwl_eval_vectors(self, x: CWLContext) -> tuple[np.ndarray, np.ndarray]:
        """cwl_eval's W and C: W(i) = max(0, 1 - CC(i-1)/L) / norm for i < n, W(n) = 0, the
        norm added up rank by rank; C(i) = W(i+1) / W(i) (0 where W(i) is 0, and at n)."""
        n_topics, n = x.cost.shape
        start = np.zeros((n_topics, n))
        start[:, 1:] = x.cum_cost[:, :-1]
        v = 1.0 - start / self.L
        w = np.where(v > 0.0, v, 0.0)  # Python's max(0.0, v)
        w[:, -1] = 0.0
        norm = np.cumsum(w, axis=1)[:, -1]
        with np.errstate(invalid="ignore", divide="ignore"):  # (n = 1: cwl_eval's 0/0)
            W = w / norm[:, None]
        return _ratios(W), W


def _ratios(W: np.ndarray) -> np.ndarray:
    """cwl_eval's C from its W (TBG, U-measure): W(i+1) / W(i) where W(i) > 0, else 0; 0 at the
    last rank."""
    C = np.zeros_like(W)
    np.divide(W[:, 1:], W[:, :-1], out=C[:, :-1], where=W[:, :-1] > 0.0)
    return C
