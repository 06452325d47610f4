"""C/W/L metrics: one small module per family, all computed by :mod:`.base`'s engine."""

from __future__ import annotations

from . import ap, bpm, dcg, ift, inst, nerr, precision, rbp, rr, set, tbg  # noqa: F401  (registration)
from .base import CWLMetric
from .engine import CWLContext, CWLScores, score_metric, weights

__all__ = ["CWLContext", "CWLMetric", "CWLScores", "score_metric", "weights"]
