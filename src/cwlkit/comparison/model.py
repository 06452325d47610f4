"""What a comparison report holds (:class:`ReportData`): the numbers and the curves its
renderers (:mod:`.html`, :mod:`.latex`, :mod:`.markdown`, :mod:`.data`) read."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np


@dataclass
class ReportData:
    """A comparison report's content: the numbers (``table``) and the curves behind its plots.

    Attributes
    ----------
    table : cwlkit.stats.ReportTable
        Means, intervals, marks, relative change, W/T/L, effect sizes, ANOVA.
    title : str or None
        The page's or table's title (the page says "Evaluation report" when None; the
        Markdown table then has no title line).
    levels : numpy.ndarray or None
        Recall levels of ``pr_curves`` (0.0, 0.1, ..., 1.0).
    pr_curves : dict of str to numpy.ndarray
        Each run's interpolated precision at ``levels``, averaged over the report's topics
        (empty when the runs came as Results).
    source : dict
        What was evaluated (qrels, measures, options), for the page's header.
    diff_links : dict of (str, str, str) to str
        ``(run, baseline, measure)`` -> the address of that comparison's diff page
        (:func:`cwlkit.diff`), relative to the report: the topics that decide it link to
        ``address#topic=ID`` (``cwlkit report --diff-pages`` writes the pages and fills it).
    named_baseline : bool or None
        Whether the user named the baseline (``baseline=`` / ``--baseline``). Only then is a
        run tagged "baseline" (or, with pairwise letters, "reference"); without one, Δ% and
        W/T/L are against the first run and the legend says so. None: named when the marks
        are against a baseline (not pairwise).
    """

    table: Any
    title: str | None = None
    levels: np.ndarray | None = None
    pr_curves: dict[str, np.ndarray] = field(default_factory=dict)
    source: dict[str, Any] = field(default_factory=dict)
    named_baseline: bool | None = None
    diff_links: dict[tuple[str, str, str], str] = field(default_factory=dict)

    @property
    def has_baseline(self) -> bool:
        """True when the report's baseline was named (see ``named_baseline``)."""
        if self.named_baseline is not None:
            return self.named_baseline
        return not self.table.pairwise
