"""SET (cwl_eval's set-based metric with diminishing returns)."""

from __future__ import annotations

import math

import numpy as np

from ..base import measure, param
from .base import CWLMetric, register_cwl
from .engine import CWLContext


@register_cwl
@measure
class SET(CWLMetric):
    """SET: with w(i) = (i+1)^beta - i^beta, C(i) = w(i+1)/w(i) for i < k, else 0.

    So W(i) is proportional to (i+1)^beta - i^beta for i <= k. This is cwl_eval's SETCWLMetric
    exactly; its docstring's g(k) = k^beta would give i^beta - (i-1)^beta (an index shift), kept
    as cwl_eval has it for comparability.
    """

    family = "SET"
    cwl_class = "SETCWLMetric"
    cwl_params = (("beta", "beta", "0.5"), ("k", "k", "10"))
    cwl_format = "SET-k@{k}-b@{beta}"
    beta: float = param(0.5, ge=0.0, le=1.0, doc="diminishing returns exponent")
    k: int = param(10, ge=1, integer=True, doc="cutoff")

    def continuation(self, x: CWLContext) -> np.ndarray:
        i = x.rank
        w = (i + 1.0) ** self.beta - i**self.beta
        w1 = (i + 2.0) ** self.beta - (i + 1.0) ** self.beta
        with np.errstate(invalid="ignore", divide="ignore"):
            c = np.where((i < self.k) & (w > 0), w1 / w, 0.0)
        return np.broadcast_to(c, x.gain.shape)

    def cwl_eval_vectors(self, x: CWLContext) -> tuple[np.ndarray, None]:
        """cwl_eval's C: w(i+1) / w(i) with w(i) = ``math.pow(i + 1, beta) - math.pow(i,
        beta)`` for i < k, 0 after (constants of the rank, C's ``pow``)."""
        n = x.gain.shape[1]
        c = np.zeros(n)
        m = min(self.k - 1, n)
        b = self.beta

        def w(i: int) -> float:
            return math.pow(i + 1, b) - math.pow(i, b)

        c[:m] = [w(i + 1) / w(i) for i in range(1, m + 1)]
        return np.broadcast_to(c, x.gain.shape), None
