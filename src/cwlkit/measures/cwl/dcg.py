"""Scaled DCG (cwl_eval's "NDCG") and ideal-normalised nDCG."""

from __future__ import annotations

import math
from typing import ClassVar

import numpy as np

from ..base import measure, param
from .base import CWLMetric, register_cwl
from .engine import CWLContext


@register_cwl
@measure
class SDCG(CWLMetric):
    """SDCG@k: C(i) = log2(i+1) / log2(i+2) for i < k, else 0.

    So W(i) = (1/log2(i+1)) / sum_{j<=k} 1/log2(j+1) and EU = DCG@k / sum_{j<=k} 1/log2(j+1):
    DCG scaled by its largest discount sum, not by the ideal DCG. This is what cwl_eval prints
    as ``NDCG-k@k``. A run shorter than k is padded with zero gain (cwl_eval loses mass there
    when its depth cut is below k).
    """

    family = "SDCG"
    cwl_class = "NDCGCWLMetric"
    cwl_params: ClassVar[tuple[tuple[str, str, str], ...]] = (("k", "k", "10"),)
    cwl_format = "NDCG-k@{k}"
    k: int = param(10, ge=1, integer=True, doc="cutoff")

    def continuation(self, x: CWLContext) -> np.ndarray:
        r = x.rank
        c = np.log2(r + 1.0) / np.log2(r + 2.0)
        return np.broadcast_to(np.where(r < self.k, c, 0.0), x.gain.shape)

    def cwl_eval_vectors(self, x: CWLContext) -> tuple[np.ndarray, None]:
        """cwl_eval's C: ``math.log(i + 1, 2.0) / math.log(i + 2, 2.0)`` for i < k (C's
        ``log``, which numpy's SIMD ``np.log2`` does not reproduce to the bit), 0 after:
        constants of the rank, computed once for the first k - 1 ranks."""
        n = x.gain.shape[1]
        c = np.zeros(n)
        m = min(self.k - 1, n)
        c[:m] = [math.log(i + 1, 2.0) / math.log(i + 2, 2.0) for i in range(1, m + 1)]
        return np.broadcast_to(c, x.gain.shape), None


@register_cwl
@measure
class NDCG(SDCG):
    """nDCG@k normalised by the ideal ranking: EU = SDCG(run) / SDCG(ideal).

    The ideal ranking sorts every judged document of the topic by gain (the qrels, not the
    run). W, L, EC, ETC and ED are SDCG's (same user model); ETU = EU * ED. A topic with no
    gain in its qrels scores 0. Not a C/W/L metric in the strict sense: the normalisation
    depends on the qrels.

    Residuals: the upper bound gives the run's unjudged documents (and, for a run shorter than
    k, the ranks up to k) the maximum gain and puts those documents in the ideal ranking too,
    so it is the nDCG of a completed judgement, at most 1. It can be lower than the lower
    bound, so the EU residual is max(0, upper - lower), as for AP.
    """

    family = "nDCG_cwl"
    cwl_class = ""
    cwl_params = ()
    cwl_format = ""
    normalise_by_ideal = True
