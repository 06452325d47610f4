"""The base class of C/W/L metrics: a metric states its continuation C(i) (and, where it has
one, the closed form of its tail); :mod:`.engine` computes everything else from it, and
:mod:`.evaluate` prepares a batch's gains and costs for it.
"""

from __future__ import annotations

from typing import ClassVar, TypeVar

import numpy as np

from ..base import Measure, format_value, measure
from .engine import CWLContext

_MetricClass = TypeVar("_MetricClass", bound="type[CWLMetric]")


def register_cwl(cls: _MetricClass) -> _MetricClass:
    """Register a C/W/L metric in the registry, with its cwl_eval class name as the
    ``cwl_eval`` anchor name (what cwl_eval's metrics files and ``-M`` spell)."""
    from ..registry import register

    if cls.cwl_class:
        cls.anchors = {**cls.anchors, "cwl_eval": (cls.cwl_class,)}
    register(cls)
    return cls


@measure
class CWLMetric(Measure):
    """Base class of C/W/L metrics: subclasses implement :meth:`continuation`.

    Class attributes
    ----------------
    cwl_class : str
        cwl_eval's class name (``INSTCWLMetric``), accepted in metrics files.
    cwl_params : tuple of (str, str, str)
        cwl_eval's constructor parameters in order: (cwl keyword, our field, cwl default as
        written in cwl_eval's source, used to print its names).
    cwl_format : str
        cwl_eval's printed name, formatted with the cwl keywords (``INST-T={T}``).
    cwl_name_tail : str
        What cwl_eval prints after that name (a space for TBG and the U-measure), printed in
        cwl_eval's mode only.
    gain_domain : tuple of float or None
        Gains the metric requires (INST and the ERR-inspired metrics need [0, 1]).
    upper_tail : bool
        Whether the upper bound (residuals) fills ranks past the run with the maximum gain.
    """

    cwl_class: ClassVar[str] = ""
    cwl_params: ClassVar[tuple[tuple[str, str, str], ...]] = ()
    cwl_format: ClassVar[str] = ""
    cwl_name_tail: ClassVar[str] = ""
    gain_domain: ClassVar[tuple[float, float] | None] = None
    upper_tail: ClassVar[bool] = True
    normalise_by_ideal: ClassVar[bool] = False
    show_defaults: ClassVar[bool] = True

    # --- what a metric states -------------------------------------------------------------
    def continuation(self, x: CWLContext) -> np.ndarray:
        """C(i) for every topic and rank, float64[T, H] in [0, 1]."""
        raise NotImplementedError  # pragma: no cover

    def cwl_form(self) -> tuple[CWLMetric, str | None]:
        return self, self.gain_spec()

    def gain_spec(self) -> str | None:
        """The gain mapping this metric fixes for itself (``RBP(rel=1)``: ``binary:1``), or None
        to use the evaluation's ``gain`` option."""
        return None

    def min_horizon(self) -> int:
        """Ranks the grid must cover beyond which the tail is simple: the cutoff ``k`` of a
        metric that has one (P@k, SDCG@k...), else 1."""
        return int(getattr(self, "k", None) or 1)

    def tail(self, x: CWLContext) -> np.ndarray | None:
        """Remaining expected depth from rank H+1, per topic.

        ``sum_{m>=0} prod_{j=H+1}^{H+m} C(j)`` when every rank past H has gain
        ``x.pad_gain`` and cost ``x.pad_cost`` (``inf`` if it diverges), or None when there
        is no closed form (the engine then extends the grid), or NaN for the topics without
        one. ``x`` holds one rank per topic (float64[T, 1] arrays): H = ``x.horizon`` is each
        topic's own last rank, and a topic's tail must depend on its own row alone.
        """
        return None

    def cwl_eval_vectors(self, x: CWLContext) -> tuple[np.ndarray, np.ndarray | None]:
        """cwl_eval 1.0.12's C vector over ``x`` (its n ranks, ``x.compat``), and its W where
        its class overrides ``w_vector`` (else None: W follows from C).

        Computed with cwl_eval's floating-point operations in cwl_eval's order, so that
        :func:`~.engine.cwl_eval_scores` gives cwl_eval's numbers to the bit. The default is
        :meth:`continuation`, for the metrics whose C is the same either way (0/1 values,
        constants).
        """
        return self.continuation(x), None

    # --- cwl_eval names ---------------------------------------------------------------------
    def cwl_name(self, written: dict[str, str] | None = None) -> str:
        """cwl_eval's printed name; ``written`` holds parameter texts as the user wrote them."""
        if not self.cwl_format:
            return self.name
        values = {}
        for cwl_kw, fld, default in self.cwl_params:
            text = (written or {}).get(fld)
            if text is None:
                v = getattr(self, fld)
                dv = _literal(default)
                text = default if (dv is not None and float(v) == dv) else format_value(v)
                values[cwl_kw] = text
            else:
                values[cwl_kw] = _cwl_str(text)
        return self.cwl_format.format(**values)

    # --- Measure API --------------------------------------------------------------------
    def compute(self, batch) -> np.ndarray:
        """EU for every topic, with identity gains, unit costs and no depth cut."""
        from .evaluate import cwl_scores

        return cwl_scores(self, batch).EU


def _literal(text: str) -> float | None:
    try:
        return float(text)
    except ValueError:
        return None


def _cwl_str(text: str) -> str:
    """How cwl_eval prints an argument: ``str(float(t))`` if it has a '.', else ``str(int(t))``."""
    t = text.strip()
    try:
        if "." in t:
            return str(float(t))
        return str(int(t))
    except ValueError:
        try:
            return str(float(t))
        except ValueError:
            return t


# --------------------------------------------------------------------------------------------
# the engine
#
# A topic's five measurements depend on that topic alone, to the bit, whatever the other
# topics of its batch (chunk, bucket, process): each topic is summed over its own ranks
# 1 .. h (h = max(its depth, the metric's min_horizon(), 1); the whole grid in cwl_eval's
# mode), V being exactly 0 past h, by sums grouped by rank alone (one einsum kernel over
# fixed blocks of SUM_BLOCK ranks from rank 1, the blocks then in rank order: no reduction
# whose grouping depends on the grid's width); its tail is taken at its own h; ranks past
# h are padding computed from (h, CG(h), CC(h)) alone, in blocks of EXTEND_RANKS ranks
# starting at h + 1, checked for a closed form at the end of each block and for convergence
# at every rank.
# The grid of a batch is as wide as its deepest ranking; the ranks a topic does not use are
# computed and ignored.
