"""Plots of evaluation results (matplotlib, the optional extra ``plot``).

matplotlib is imported inside the plotting functions only, so importing this package is
cheap and works without it.
"""

from __future__ import annotations

from .correlation import plot_matrix, plot_scatter
from .curves import plot_pr, plot_roc
from .cwl import plot_sweep, plot_vectors

__all__ = ["plot_matrix", "plot_pr", "plot_roc", "plot_scatter", "plot_sweep", "plot_vectors"]
