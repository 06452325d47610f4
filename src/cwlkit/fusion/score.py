"""Score-based fusion: the CombSUM family (Fox and Shaw, TREC-2 1993) and its weighted forms.

Each function takes the aligned, normalised rows and returns the fused score of every cell
(one per topic and document retrieved by some run). :math:`s_{r,d}` is run :math:`r`'s
(normalised) score of document :math:`d`, :math:`R_d` the runs that retrieved :math:`d`,
:math:`w_r` run :math:`r`'s weight.
"""

from __future__ import annotations

import numpy as np

from .layout import Aligned


def _sum(al: Aligned, values: np.ndarray) -> np.ndarray:
    return np.bincount(al.cell, weights=values, minlength=al.n_cells)


def _count(al: Aligned) -> np.ndarray:
    return np.bincount(al.cell, minlength=al.n_cells).astype(np.float64)


def comb_sum(al: Aligned) -> np.ndarray:
    """CombSUM (Fox and Shaw, TREC-2 1993): :math:`\\sum_{r \\in R_d} s_{r,d}`."""
    return _sum(al, al.value)


def comb_mnz(al: Aligned) -> np.ndarray:
    """CombMNZ (Fox and Shaw, TREC-2 1993): :math:`|R_d| \\sum_{r \\in R_d} s_{r,d}`."""
    return _sum(al, al.value) * _count(al)


def comb_anz(al: Aligned) -> np.ndarray:
    """CombANZ (Fox and Shaw, TREC-2 1993): :math:`\\frac{1}{|R_d|}\\sum_{r \\in R_d} s_{r,d}`."""
    return _sum(al, al.value) / _count(al)


def comb_gmnz(al: Aligned, gamma: float = 1.0) -> np.ndarray:
    """CombGMNZ (Joon Ho Lee, SIGIR 1997):
    :math:`|R_d|^{\\gamma} \\sum_{r \\in R_d} s_{r,d}` (``gamma``; 1 is CombMNZ)."""
    return _sum(al, al.value) * _count(al) ** gamma


def comb_max(al: Aligned) -> np.ndarray:
    """CombMAX (Fox and Shaw, TREC-2 1993): :math:`\\max_{r} s_{r,d}`, a run that did not
    retrieve :math:`d` counting :math:`-10^9` (ranx's convention)."""
    out = np.full(al.n_cells, -np.inf)
    _reduce(al, np.maximum, out)
    missing = _count(al) < al.n_runs
    out[missing] = np.maximum(out[missing], -1e9)
    return out


def comb_min(al: Aligned) -> np.ndarray:
    """CombMIN (Fox and Shaw, TREC-2 1993): :math:`\\min_{r} s_{r,d}`, a run that did not
    retrieve :math:`d` counting :math:`10^9` (ranx's convention)."""
    out = np.full(al.n_cells, np.inf)
    _reduce(al, np.minimum, out)
    missing = _count(al) < al.n_runs
    out[missing] = np.minimum(out[missing], 1e9)
    return out


def _reduce(al: Aligned, ufunc: np.ufunc, out: np.ndarray) -> None:
    order = np.argsort(al.cell, kind="stable")
    cells = al.cell[order]
    starts = np.flatnonzero(np.concatenate(([True], cells[1:] != cells[:-1])))
    out[cells[starts]] = ufunc.reduceat(al.value[order], starts)


def comb_med(al: Aligned) -> np.ndarray:
    """CombMED (Fox and Shaw, TREC-2 1993): the median of :math:`s_{r,d}` over
    :math:`r \\in R_d` (the mean of the two middle values for an even count)."""
    order = np.lexsort((al.value, al.cell))
    cells = al.cell[order]
    v = al.value[order]
    starts = np.flatnonzero(np.concatenate(([True], cells[1:] != cells[:-1])))
    n = np.diff(np.append(starts, v.size))
    out = np.empty(al.n_cells)
    out[cells[starts]] = (v[starts + (n - 1) // 2] + v[starts + n // 2]) / 2.0
    return out


def wsum(al: Aligned, weights: np.ndarray) -> np.ndarray:
    """Weighted CombSUM (linear combination; Bartell et al., SIGIR 1994):
    :math:`\\sum_{r \\in R_d} w_r s_{r,d}`."""
    return _sum(al, weights[al.run] * al.value)


def wmnz(al: Aligned, weights: np.ndarray) -> np.ndarray:
    """Weighted CombMNZ (Wu, "Data fusion in information retrieval", 2012):
    :math:`(\\sum_{r \\in R_d} w_r) \\sum_{r \\in R_d} s_{r,d}`."""
    return _sum(al, al.value) * _sum(al, weights[al.run])


def mixed(al: Aligned, weights: np.ndarray) -> np.ndarray:
    """Mixed (Wu, "Data fusion in information retrieval", 2012):
    :math:`\\sqrt{|R_d|} \\sum_{r \\in R_d} w_r s_{r,d}`."""
    return _sum(al, weights[al.run] * al.value) * np.sqrt(_count(al))
