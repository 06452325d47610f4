"""ERR-inspired C/W/L metrics (Azzopardi, Mackenzie, Moffat 2021): C_E5, C_E6, C_E8..C_E11.

Each multiplies a stopping model by (1 - r_i), where r_i in [0, 1] is the probability that
document i satisfies the user. ERR itself (``ERR@k``) is *not* C/W/L: for a ranking with
every r_i = alpha, every C/W/L metric has EU = alpha (the weights sum to one) while ERR scores
alpha + sum_{i>=2} (alpha/i)(1-alpha)^(i-1) > alpha.

C_E5 and C_E6 diverge: past the last judged document r = 0, C_E5 = 1 and C_E6 = i/(i+1),
so sum V is infinite (harmonically so for C_E6) unless some r_i = 1. cwlkit reports them
exactly: ED = inf, EU = 0, unless a document with r = 1 stops every user. C_E8/C_E9 cut at k;
C_E10 and C_E11 converge (geometric and trigamma tails, summed exactly).
"""

from __future__ import annotations

import numpy as np

from ..base import measure, param
from .base import CWLContext, CWLMetric, geometric_tail, register_cwl, trigamma_tail


@register_cwl
@measure
class CE5(CWLMetric):
    """C_E5: C(i) = 1 - r_i (the ERR paper's Equation 5). Diverges; see the module notes."""

    family = "C_E5"
    aliases = ("CE5",)
    gain_domain = (0.0, 1.0)

    def continuation(self, x: CWLContext) -> np.ndarray:
        return 1.0 - x.gain

    def tail(self, x: CWLContext) -> np.ndarray:
        return np.full(x.gain.shape[0], geometric_tail(1.0 - x.pad_gain))


@register_cwl
@measure
class CE6(CWLMetric):
    """C_E6: C(i) = i/(i+1) (1 - r_i) (Equation 6).

    Diverges (harmonically) when r = 0 past the run.
    """

    family = "C_E6"
    aliases = ("CE6",)
    gain_domain = (0.0, 1.0)

    def continuation(self, x: CWLContext) -> np.ndarray:
        return x.rank / (x.rank + 1.0) * (1.0 - x.gain)

    def tail(self, x: CWLContext) -> np.ndarray | None:
        n = x.gain.shape[0]
        if x.pad_gain == 0.0:
            return np.full(n, np.inf)
        if x.pad_gain == 1.0:
            return np.ones(n)
        return None


@register_cwl
@measure
class CE8(CWLMetric):
    """C_E8@k: C(i) = 1 - r_i for i < k, 0 from k on (cwl_eval's NERReq8CWLMetric)."""

    family = "C_E8"
    aliases = ("CE8", "NERR8")
    cwl_class = "NERReq8CWLMetric"
    cwl_params = (("k", "k", ""),)
    cwl_format = "NERR-EQ8@k={k}"
    gain_domain = (0.0, 1.0)
    k: int = param(ge=1, integer=True, doc="cutoff")

    def continuation(self, x: CWLContext) -> np.ndarray:
        return np.where(x.rank < self.k, 1.0 - x.gain, 0.0)


@register_cwl
@measure
class CE9(CWLMetric):
    """C_E9@k: C(i) = i/(i+1) (1 - r_i) for i < k, 0 from k on (NERReq9CWLMetric)."""

    family = "C_E9"
    aliases = ("CE9", "NERR9")
    cwl_class = "NERReq9CWLMetric"
    cwl_params = (("k", "k", ""),)
    cwl_format = "NERR-EQ9@k={k}"
    gain_domain = (0.0, 1.0)
    k: int = param(ge=1, integer=True, doc="cutoff")

    def continuation(self, x: CWLContext) -> np.ndarray:
        return np.where(x.rank < self.k, x.rank / (x.rank + 1.0) * (1.0 - x.gain), 0.0)


@register_cwl
@measure
class CE10(CWLMetric):
    """C_E10: C(i) = phi (1 - r_i) (NERReq10CWLMetric); geometric tail phi (1 - r_pad)."""

    family = "C_E10"
    aliases = ("CE10", "NERR10")
    cwl_class = "NERReq10CWLMetric"
    cwl_params = (("phi", "phi", "0.9"),)
    cwl_format = "NERR-EQ10@phi={phi}"
    gain_domain = (0.0, 1.0)
    phi: float = param(0.9, gt=0.0, lt=1.0, doc="RBP-like persistence")

    def continuation(self, x: CWLContext) -> np.ndarray:
        return self.phi * (1.0 - x.gain)

    def tail(self, x: CWLContext) -> np.ndarray:
        return np.full(x.gain.shape[0], geometric_tail(self.phi * (1.0 - x.pad_gain)))


@register_cwl
@measure
class CE11(CWLMetric):
    """C_E11: C(i) = ((i + 2T - 1)/(i + 2T))^2 (1 - r_i) (NERReq11CWLMetric); INSQ-like tail."""

    family = "C_E11"
    aliases = ("CE11", "NERR11")
    cwl_class = "NERReq11CWLMetric"
    cwl_params = (("T", "T", "1.0"),)
    cwl_format = "NERR-EQ11@T={T}"
    gain_domain = (0.0, 1.0)
    T: float = param(1.0, gt=0.0, doc="INSQ's T")

    def continuation(self, x: CWLContext) -> np.ndarray:
        b = x.rank + 2.0 * self.T
        return ((b - 1.0) / b) ** 2 * (1.0 - x.gain)

    def tail(self, x: CWLContext) -> np.ndarray | None:
        n = x.gain.shape[0]
        if x.pad_gain == 0.0:
            return trigamma_tail(np.full(n, x.horizon + 2.0 * self.T))
        if x.pad_gain == 1.0:
            return np.ones(n)
        return None
