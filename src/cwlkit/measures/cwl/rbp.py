"""Rank-biased precision and net present value: constant continuation."""

from __future__ import annotations

import numpy as np

from ..base import measure, param
from .base import CWLMetric, register_cwl
from .engine import CWLContext, geometric_tail


@register_cwl
@measure
class RBP(CWLMetric):
    """RBP (Moffat and Zobel 2008): C(i) = p, W(i) = (1 - p) p^(i-1).

    On the evaluation's gains (``gain=`` option, the labels by default), or with ``rel`` on
    binary gains (ir_measures' ``RBP(rel=1)``: labels >= rel count 1).

    The tail past the run is the geometric series, summed exactly: ED = 1 / (1 - p) and
    EU = (1 - p) sum g_i p^(i-1). (cwl_eval renormalises W over its depth cut.)
    """

    family = "RBP"
    cwl_class = "RBPCWLMetric"
    cwl_params = (("theta", "p", "0.9"),)
    cwl_format = "RBP@{theta}"
    p: float = param(0.8, gt=0.0, lt=1.0, doc="persistence")
    rel: float | None = param(None, doc="binary gains: 1 for labels >= rel (None: the gains)")

    def gain_spec(self) -> str | None:
        return None if self.rel is None else f"binary:{self.rel:g}"

    def continuation(self, x: CWLContext) -> np.ndarray:
        return np.full(x.gain.shape, self.p)

    def tail(self, x: CWLContext) -> np.ndarray:
        return geometric_tail(self.p)


@register_cwl
@measure
class NPV(CWLMetric):
    """Net present value: C(i) = 1 / (1 + rate); RBP with p = 1 / (1 + rate)."""

    family = "NPV"
    cwl_class = "NPVCWLMetric"
    cwl_params = (("rate", "rate", "0.1"),)
    cwl_format = "NPV-r@{rate}"
    rate: float = param(0.1, gt=0.0, doc="discount rate")

    def continuation(self, x: CWLContext) -> np.ndarray:
        return np.full(x.gain.shape, 1.0 / (1.0 + self.rate))

    def tail(self, x: CWLContext) -> np.ndarray:
        return geometric_tail(1.0 / (1.0 + self.rate))
