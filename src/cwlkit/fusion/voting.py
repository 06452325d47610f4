"""Voting: Condorcet fusion (Montague and Aslam, CIKM 2002) and its weighted form.

A document :math:`x` is put before :math:`y` when at least half the votes rank it above
:math:`y`: :math:`\\sum_{q: r_{q,x} < r_{q,y}} w_q \\ge \\sum_{q: r_{q,x} \\ge r_{q,y}} w_q`
(a run that did not retrieve a document ranks it :math:`10^6`; unweighted, every
:math:`w_q = 1`). The candidates are sorted with this comparison by Python's merge sort,
as ranx does, and the :math:`i`-th of :math:`C` gets the score :math:`C - i` (0-based
:math:`i`). The comparison is not transitive when the majority has cycles or ties (an even
number of runs splitting): the order then depends on the order the sort starts from.
ranx starts from a Python set of document ids (an order that changes from one process to
the next with string hashing); cwlkit starts from the documents sorted by id, so its
output is the same every time.
"""

from __future__ import annotations

from functools import cmp_to_key
from itertools import compress
from operator import lt

import numpy as np

from .layout import Aligned

_MISSING = 1_000_000


def condorcet(al: Aligned, weights: np.ndarray | None = None) -> np.ndarray:
    """Condorcet fusion (Montague and Aslam, CIKM 2002); with ``weights``, weighted
    Condorcet (the same paper): see the module's docstring for the comparison."""
    ranks = np.full((al.n_cells, al.n_runs), _MISSING, dtype=np.int64)
    ranks[al.cell, al.run] = al.rank
    order = np.lexsort((al.cell_doc, al.cell_topic))  # cells by topic, then document id
    topics = al.cell_topic[order]
    starts = np.flatnonzero(np.concatenate(([True], topics[1:] != topics[:-1])))
    bounds = np.append(starts, order.size)
    out = np.empty(al.n_cells)
    rows = ranks[order].tolist()
    w = [1.0] * al.n_runs if weights is None else [float(x) for x in weights]
    total = sum(w)

    def compare(a: int, b: int) -> int:
        # the weights of the runs ranking a above b, summed in run order (C-level iteration)
        votes = sum(compress(w, map(lt, rows[a], rows[b])), 0.0)
        return -1 if votes >= total - votes else 1

    key = cmp_to_key(compare)
    for lo, hi in zip(bounds[:-1].tolist(), bounds[1:].tolist(), strict=True):
        ranked = sorted(range(lo, hi), key=key)
        n = hi - lo
        out[order[ranked]] = n - np.arange(n, dtype=np.float64)
    return out
