"""Precision at k as a C/W/L metric."""

from __future__ import annotations

import numpy as np

from ..base import measure, param
from .base import CWLMetric, register_cwl
from .engine import CWLContext


@register_cwl
@measure
class Precision(CWLMetric):
    """cwl_eval's graded precision ``P_cwl@k``: C(i) = 1 for i < k, 0 from k on, W(i) = 1/k.

    cwl_eval prints it ``P@k``; it averages the *gains* of the top k, so with graded labels it
    is not trec_eval's (binary) ``P@k``. With binary gains the two coincide.

    EU = (sum of the gains of the first k documents) / k. A run shorter than k is padded with
    the padding gain (0: unretrieved documents are not relevant), so P@k is defined for every k.
    """

    family = "P_cwl"
    aliases = ("Precision_cwl",)
    cwl_class = "PrecisionCWLMetric"
    cwl_params = (("k", "k", "10"),)
    cwl_format = "P@{k}"
    k: int = param(10, ge=1, integer=True, doc="cutoff")

    def continuation(self, x: CWLContext) -> np.ndarray:
        return np.broadcast_to((x.rank < self.k).astype(np.float64), x.gain.shape)
