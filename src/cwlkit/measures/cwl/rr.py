"""Reciprocal rank as a C/W/L metric."""

from __future__ import annotations

import numpy as np

from ..base import measure
from .base import CWLMetric, register_cwl
from .engine import CWLContext


@register_cwl
@measure
class RR(CWLMetric):
    """cwl_eval's graded reciprocal rank ``RR_cwl``: C(i) = 1 until the first document with
    positive gain (rank r), 0 from r on. cwl_eval prints it ``RR``; trec_eval's binary
    reciprocal rank is ``RR``.

    EU = g_r / r (graded), ETU = g_r, ED = r. With no gain anywhere the user never stops: ED is
    infinite, and EU = ETU = 0 (cwl_eval reports ED = its depth cut, 1000).
    """

    family = "RR_cwl"
    cwl_class = "RRCWLMetric"
    cwl_format = "RR"

    def continuation(self, x: CWLContext) -> np.ndarray:
        return (x.cum_gain <= 0).astype(np.float64)

    def tail(self, x: CWLContext) -> np.ndarray:
        seen = x.cum_gain[:, -1] > 0
        return np.where(seen | (x.pad_gain > 0), 1.0, np.inf)
