"""Rank-based fusion: each run gives each document points by its rank, the points are summed.

:math:`r_{q,d}` is document :math:`d`'s 1-based rank in run :math:`q` (after normalisation,
by decreasing score, ties by decreasing document id), :math:`R_d` the runs that retrieved
it, :math:`C` the topic's candidates (documents any run retrieved), :math:`n_q` the number
of documents run :math:`q` retrieved for the topic.
"""

from __future__ import annotations

import numpy as np

from .layout import Aligned
from .score import _count, _sum


def _pos(al: Aligned) -> np.ndarray:
    return al.rank.astype(np.float64) + 1.0


def rrf(al: Aligned, k: float = 60) -> np.ndarray:
    """Reciprocal Rank Fusion (Cormack, Clarke and Büttcher, SIGIR 2009):
    :math:`\\sum_{q \\in R_d} 1 / (k + r_{q,d})`."""
    return _sum(al, 1.0 / (k + _pos(al)))


def isr(al: Aligned) -> np.ndarray:
    """Inverse Square Rank (Mourão, Martins and Magalhães, CMIG 2015):
    :math:`|R_d| \\sum_{q \\in R_d} 1 / r_{q,d}^2`."""
    return _sum(al, 1.0 / _pos(al) ** 2) * _count(al)


def log_isr(al: Aligned) -> np.ndarray:
    """Log ISR (Mourão, Martins and Magalhães, CMIG 2015):
    :math:`\\log |R_d| \\sum_{q \\in R_d} 1 / r_{q,d}^2`."""
    return _sum(al, 1.0 / _pos(al) ** 2) * np.log(_count(al))


def logn_isr(al: Aligned, sigma: float = 0.01) -> np.ndarray:
    """LogN ISR (Mourão, Martins and Magalhães, CMIG 2015):
    :math:`\\log(|R_d| + \\sigma) \\sum_{q \\in R_d} 1 / r_{q,d}^2`."""
    return _sum(al, 1.0 / _pos(al) ** 2) * np.log(_count(al) + sigma)


def rbc(al: Aligned, phi: float = 0.8) -> np.ndarray:
    """Rank-Biased Centroid (Bailey, Moffat, Scholer and Thomas, SIGIR 2017):
    :math:`\\sum_{q \\in R_d} (1 - \\phi)\\, \\phi^{r_{q,d} - 1}`."""
    return _sum(al, (1.0 - phi) * phi ** al.rank.astype(np.float64))


def _borda_parts(al: Aligned) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(points of each row above what its run gives a document it did not retrieve, the
    latter per (run, topic), the candidates per topic)."""
    cand = al.candidates().astype(np.float64)
    unranked = (cand[None, :] - al.lengths() + 1.0) / 2.0  # [runs, topics]
    points = cand[al.topic] - al.rank
    return points - unranked[al.run, al.topic], unranked, cand


def bordafuse(al: Aligned) -> np.ndarray:
    """BordaFuse (Aslam and Montague, SIGIR 2001): :math:`\\sum_q b_{q,d}`, with
    :math:`b_{q,d} = C - r_{q,d} + 1` for a retrieved document and
    :math:`(C - n_q + 1)/2` for a candidate run :math:`q` did not retrieve."""
    extra, unranked, _ = _borda_parts(al)
    return _sum(al, extra) + unranked.sum(axis=0)[al.cell_topic]


def w_bordafuse(al: Aligned, weights: np.ndarray) -> np.ndarray:
    """Weighted BordaFuse (Aslam and Montague, SIGIR 2001): :math:`\\sum_q w_q b_{q,d}`
    (:func:`bordafuse`'s points)."""
    extra, unranked, _ = _borda_parts(al)
    return _sum(al, weights[al.run] * extra) + (weights @ unranked)[al.cell_topic]
