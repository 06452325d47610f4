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
    runid : str
        Printed on the ``all`` line of the name ``runid`` (the run's tag).
    text : dict of str to list of str
        ``name -> [str] * len(topics)``: per-topic string values (``relstring``), printed
        quoted, with no ``all`` line.
    zscore : bool
        Values are Z scores (``-Z``): numeric names are printed with a ``Z`` prefix and every
        number with four decimals.

    Notes
    -----
    A name without an entry in ``values`` (or ``text``) has no per-topic lines (``num_q``,
    ``gm_map``); a name without an entry in ``summary`` has no ``all`` line.
    """

    topics: list[str]
    names: list[str] = field(default_factory=list)
    values: dict[str, np.ndarray] = field(default_factory=dict)
    summary: dict[str, float] = field(default_factory=dict)
    integer: set[str] = field(default_factory=set)
    runid: str = ""
    text: dict[str, list[str]] = field(default_factory=dict)
    zscore: bool = False
