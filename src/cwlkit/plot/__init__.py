"""Plots of evaluation results (matplotlib, the optional extra ``plot``).

matplotlib is imported inside the plotting functions only, so importing this package is
cheap and works without it.
"""

from __future__ import annotations

from .curves import plot_pr, plot_roc

__all__ = ["plot_pr", "plot_roc"]
