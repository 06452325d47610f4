"""Average precision as a C/W/L metric (cwl_eval's definition)."""

from __future__ import annotations

import numpy as np

from ..base import measure
from .base import CWLMetric, register_cwl
from .engine import CWLContext


@register_cwl
@measure
class AP(CWLMetric):
    """cwl_eval's AP (printed ``AP``): C(i) = sum_{j>i} rho_j / sum_{j>=i} rho_j, rho = g/i.

    So L(i) = rho_i / sum rho and EU = sum_i (g_i / i) CG_i / sum_i g_i: the denominator is
    the gain *retrieved*, not R from the qrels (use trec_eval's ``AP`` for that). A ranking
    without gain has C(1) = 0: ED = 1, EU = 0. O(n): suffix sums, not cwl_eval's O(n^2) loop.

    The user model has no tail past the last relevant document, so the upper bound of the
    residual fills only the unjudged documents inside the run (filling an infinite tail with
    relevant documents would drive AP's W to a non-summable sequence). AP is not monotone in
    the gains (a relevant document deep in the ranking lowers it), so upper minus lower can be
    negative: the EU residual reported is max(0, upper - lower).
    """

    family = "AP_cwl"
    cwl_class = "APCWLMetric"
    cwl_format = "AP"
    upper_tail = False

    def continuation(self, x: CWLContext) -> np.ndarray:
        rho = x.gain / x.rank
        suffix = np.cumsum(rho[:, ::-1], axis=1)[:, ::-1]
        after = np.subtract(suffix, rho, out=rho)  # rho is not needed any more
        ok = after > 0
        ok &= suffix > 0
        c = np.zeros_like(after)
        np.divide(after, suffix, out=c, where=ok)  # 0 where the ratio is not taken
        c[:, -1] = 0.0
        return c

    def cwl_eval_vectors(self, x: CWLContext) -> tuple[np.ndarray, None]:
        """cwl_eval's C: ``np.sum(rii[i+1:n]) / np.sum(rii[i:n])`` (0 where the numerator
        is not positive, and at rank n), rii = g / rank.

        Each suffix sum is numpy's pairwise sum over its n - i terms, as cwl_eval computes
        it (``np.sum`` of a row of a 2-D array groups its terms as ``np.sum`` of that row
        alone): one reduction over all the topics per rank, cwl_eval's O(n^2) additions.
        """
        rho = np.ascontiguousarray(x.gain / x.rank)
        T, n = rho.shape
        suffix = np.zeros((T, n + 1))
        for i in range(n):  # (each length is its own pairwise grouping)
            suffix[:, i] = rho[:, i:].sum(axis=1)
        top, bot = suffix[:, 1:n], suffix[:, : n - 1]
        c = np.zeros((T, n))
        np.divide(top, bot, out=c[:, : n - 1], where=top > 0.0)
        return c, None
