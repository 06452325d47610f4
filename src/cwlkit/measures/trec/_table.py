"""The table trec_eval prints: per-topic values and the summary ("all") value of each measure.

This is the contract between the measure code and the trec_eval report: every producer (the
qrels-based measures, the preference and judgment-group measures) fills one, and
:mod:`cwlkit.report.trec_eval` prints it byte for byte.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np


@dataclass
class TrecTable:
    """Per-topic and summary values of trec_eval measures.

    Attributes
    ----------
    topics : list of str
        Topics that get per-topic lines (``-q``), in trec_eval's print order.
    names : list of str
        Measure names exactly as printed (``P_10``, ``prefs_simp``), in print order.
    values : dict of str to numpy.ndarray
        ``name -> float64[len(topics)]`` per-topic values.
    summary : dict of str to float
        ``name -> value`` printed on the ``all`` line (mean, sum or geometric mean, as the
        measure defines).
    integer : set of str
        Names printed as integers (trec_eval's ``%ld`` measures such as ``num_ret``).
    """

    topics: list[str]
    names: list[str] = field(default_factory=list)
    values: dict[str, np.ndarray] = field(default_factory=dict)
    summary: dict[str, float] = field(default_factory=dict)
    integer: set[str] = field(default_factory=set)
