"""A C/W/L metric on labels rescaled to [0, 1], as ir_measures' cwl_eval provider scores it.

ir_measures spells its C/W/L measures with the label range (``INST(T=2,max_rel=4)``,
``SDCG(max_rel=4)@10``, ``NERR8(max_rel=4)@10``): every label is clipped to
``[min_rel, max_rel]`` and mapped to ``(label - min_rel) / (max_rel - min_rel)``, and the
ranking is scored by cwl_eval 1.0.12 over a fixed depth of 1000. In cwlkit the gain mapping
and depth are evaluation options (``gain=``, ``compat_depth=``); :class:`ScaledCWL` carries
them in the measure, so that one measure object gives ir_measures' numbers whatever the
evaluation's options (``CWL_scaled(metric='INST(T=2)',max_rel=4)``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

import numpy as np

from ..errors import ParamError
from .base import Measure, format_value, measure, param
from .registry import register

if TYPE_CHECKING:  # pragma: no cover
    from ..core.batch import RankingBatch
    from ..core.gains import GainMap
    from .cwl.base import CWLMetric


@register
@measure
class ScaledCWL(Measure):
    """A C/W/L metric's expected utility with labels scaled to [0, 1] (ir_measures' cwl_eval).

    ``gain(label) = (clip(max(label, 0), min_rel, max_rel) - min_rel) / (max_rel - min_rel)``
    for every judged document; unjudged documents have gain 0; costs are 1. The metric's EU
    is computed as cwl_eval 1.0.12 does, over exactly ``depth`` ranks (the run cut there, or
    padded with gain 0; W normalised over those ranks, no tail past them).

    Parameters
    ----------
    metric : str, default 'INST(T=1)'
        The C/W/L metric, e.g. ``'INST(T=2)'``, ``'SDCG@10'``, ``'C_E8@10'``, ``'BPM(T=1,K=20)'``.
    max_rel : float, default 1
        The label that maps to gain 1 (larger labels are clipped to it).
    min_rel : float, default 0
        The label that maps to gain 0 (smaller labels, and negative ones, are clipped).
    depth : int, default 1000
        cwl_eval's fixed depth (ir_measures passes 1000); 0 scores the whole run with the
        exact tail, as cwlkit does by default.

    Notes
    -----
    Negative labels are first raised to 0 (ir_measures' "trec_eval convention"), then
    clipped. Ties in score are ordered by the batch; ir_measures' cwl_eval provider keeps
    tied documents in the order it was given them.
    """

    family: ClassVar[str] = "CWL_scaled"
    aliases: ClassVar[tuple[str, ...]] = ("ScaledCWL",)

    metric: str = param("INST(T=1)", doc="the C/W/L metric, e.g. 'INST(T=2)'")
    max_rel: float = param(1.0, doc="label mapped to gain 1")
    min_rel: float = param(0.0, doc="label mapped to gain 0")
    depth: int = param(1000, ge=0, integer=True, doc="cwl_eval's fixed depth (0: the whole run)")

    def __post_init__(self) -> None:
        super().__post_init__()
        if not self.min_rel < self.max_rel:
            raise ParamError(
                f"{self.family} needs min_rel < max_rel; got min_rel={self.min_rel:g}, "
                f"max_rel={self.max_rel:g}"
            )
        self.inner()  # validates the metric

    @property
    def name(self) -> str:
        """``CWL_scaled(metric='INST(T=2)',max_rel=4)``: the metric and ``max_rel`` always
        spelled, ``min_rel`` and ``depth`` when not 0 and 1000."""
        parts = [f"metric={self.metric!r}", f"max_rel={format_value(self.max_rel)}"]
        if self.min_rel != 0:
            parts.append(f"min_rel={format_value(self.min_rel)}")
        if self.depth != 1000:
            parts.append(f"depth={format_value(self.depth)}")
        return f"{self.family}({','.join(parts)})"

    def inner(self) -> CWLMetric:
        """The C/W/L metric scored."""
        from .cwl.base import CWLMetric
        from .parse import parse_measure

        m = parse_measure(self.metric)
        if not isinstance(m, CWLMetric):
            raise ParamError(f"{self.family}: {self.metric!r} is not a C/W/L metric")
        return m

    def gain_map(self, batch: RankingBatch) -> GainMap:
        """The label -> gain table for every label of the batch's qrels."""
        from ..core.gains import GainMap

        values = batch.qrels_label_values
        if values is None:
            ql = batch.qrel_labels
            values = np.unique(ql[np.isfinite(ql)])
        if len(values) == 0:
            return GainMap("identity")
        lab = np.asarray(values, dtype=np.float64)
        gains = (np.clip(np.maximum(lab, 0.0), self.min_rel, self.max_rel) - self.min_rel) / (
            self.max_rel - self.min_rel
        )
        return GainMap(
            ",".join(f"{lv!r}:{gv!r}" for lv, gv in zip(lab.tolist(), gains.tolist(), strict=True))
        )

    def compute(self, batch: RankingBatch) -> np.ndarray:
        """EU of the metric on the scaled labels for every topic of ``batch``, float64[T]."""
        from .cwl.evaluate import cwl_scores

        return cwl_scores(
            self.inner(),
            batch,
            gain=self.gain_map(batch),
            max_gain=1.0,
            min_gain=0.0,
            max_depth=self.depth or None,
        ).EU
