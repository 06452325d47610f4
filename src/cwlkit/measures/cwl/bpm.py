"""The Bejewelled Player Model (Zhang et al. 2017), static and dynamic."""

from __future__ import annotations

import numpy as np

from ..base import MAX_COUNT, measure, param
from .base import CWLMetric, register_cwl
from .engine import CWLContext


def _until_first_failure(ok: np.ndarray) -> np.ndarray:
    """1 while every test so far passed, 0 from the first failure on."""
    return np.cumprod(ok, axis=1).astype(np.float64)


@register_cwl
@measure
class BPM(CWLMetric):
    """BPM-Static: C(i) = 1 while CG(i) < T and CC(i) < K, 0 from the first rank failing either."""

    family = "BPM"
    cwl_class = "BPMCWLMetric"
    cwl_params = (("T", "T", "1.0"), ("K", "K", "10"))
    cwl_format = "BPM-Static-T={T}-K={K}"
    T: float = param(1.0, gt=0.0, doc="benefit wanted")
    K: float = param(10.0, gt=0.0, doc="cost the user will spend")

    def continuation(self, x: CWLContext) -> np.ndarray:
        return _until_first_failure((x.cum_gain < self.T) & (x.cum_cost < self.K))


@register_cwl
@measure
class BPMD(CWLMetric):
    """BPM-Dynamic: the bounds move with the gain seen.

    T_1 = T, K_1 = K; T_{i+1} = T_i + hb (g_i - gain_med); K_{i+1} = K_i + hc (g_i - gain_med).
    C(i) = 1 while CG(i) < T_i and CC(i) < K_i, 0 from the first failure on. cwl_eval 1.0.12
    applies the hc update to T instead of K (``cwl_bpm.py:154``), and only within its cost
    loop, after the gain loop has read T, so its K never moves and hc has no effect. cwlkit
    updates K as the model says; in cwl_eval's mode (``x.compat``: ``--max-depth N``,
    ``compat_depth=N``) it keeps K fixed, as cwl_eval does. With hc = 0 both agree.
    """

    family = "BPMD"
    aliases = ("BPM-Dynamic",)
    cwl_class = "BPMDCWLMetric"
    cwl_params = (
        ("T", "T", "1"),
        ("K", "K", "10"),
        ("hb", "hb", "1.0"),
        ("hc", "hc", "1.0"),
        ("gain_med", "gain_med", "0.5"),
    )
    cwl_format = "BPM-Dynamic-T={T}-K={K}-hb={hb}-hc={hc}"
    T: float = param(1.0, gt=0.0, doc="benefit wanted")
    K: float = param(10.0, gt=0.0, doc="cost the user will spend")
    hb: float = param(1.0, doc="how far T moves per unit of gain above gain_med")
    hc: float = param(1.0, doc="how far K moves per unit of gain above gain_med")
    gain_med: float = param(0.5, doc="the gain that leaves T and K unchanged")

    def derived(self) -> list[tuple[str, str, float]]:
        """The bounds' moves stay finite up to rank 2^53: the sum of g_j - gain_med over the
        ranks before (at most (1 + |gain_med|) 2^53 for gains in [0, 1]) times hb and hc."""
        span = (1.0 + abs(self.gain_med)) * MAX_COUNT
        return [
            ("gain_med", "gain_med x 2^53", self.gain_med * MAX_COUNT),
            ("hb", "hb x (1 + |gain_med|) x 2^53", self.hb * span),
            ("hc", "hc x (1 + |gain_med|) x 2^53", self.hc * span),
        ]

    def continuation(self, x: CWLContext) -> np.ndarray:
        if x.compat:
            # cwl_eval 1.0.12: T_{i+1} = T_i + hb (g_i - med) added up one rank at a time (the
            # same floats, so CG(i) < T_i ties break as there), and K never moves: its hc
            # update lands on T after the gain test has read T
            steps = self.hb * (x.gain[:, :-1] - self.gain_med)
            first = np.full((x.gain.shape[0], 1), float(self.T))
            t_i = np.cumsum(np.concatenate([first, steps], axis=1), axis=1)
            return _until_first_failure((x.cum_gain < t_i) & (x.cum_cost < self.K))
        before = x.cum_gain - x.gain - (x.rank - 1.0) * self.gain_med  # sum_{j<i}(g_j - med)
        t_i = self.T + self.hb * before
        k_i = self.K + self.hc * before
        return _until_first_failure((x.cum_gain < t_i) & (x.cum_cost < k_i))
