"""Small numpy helpers shared by the hot paths."""

from __future__ import annotations

import numpy as np


def unique(a: np.ndarray) -> np.ndarray:
    """The sorted distinct values of an integer array or a float array without NaN.

    The same values as ``numpy.unique(a)``, without its ``numpy.ma`` check: numpy 2 imports
    ``numpy.ma`` on the first plain ``numpy.unique`` call, several milliseconds of every
    command's start-up.
    """
    s = np.sort(np.asarray(a).ravel())
    if s.size <= 1:
        return s
    keep = np.empty(s.size, bool)
    keep[0] = True
    np.not_equal(s[1:], s[:-1], out=keep[1:])
    return s[keep]


def smaller_before(seq: np.ndarray) -> np.ndarray:
    """int64[T, W]: for each cell of each row, how many earlier cells of its row hold a
    smaller value: ``#{j < i : seq[t, j] < seq[t, i]}``.

    ``seq`` holds integers ``1 .. W`` (ranks; distinct within a row) and 0 for a cell to skip
    (it counts nothing and is not counted). A Fenwick tree per row, one column of every row at
    a time: ``O(W log W)`` numpy steps over ``T`` rows, for Kendall's tau and tau_AP of many
    rankings at once.
    """
    seq = np.asarray(seq, dtype=np.int64)
    T, W = seq.shape
    size = int(seq.max(initial=0))
    tree = np.zeros((T, size + 1), dtype=np.int64)
    rows = np.arange(T)
    out = np.zeros((T, W), dtype=np.int64)
    for i in range(W):
        v = seq[:, i]
        out[:, i] = np.where(v > 0, _fenwick_prefix(tree, rows, v - 1), 0)
        _fenwick_add(tree, rows, v)
    return out


def _fenwick_prefix(tree: np.ndarray, rows: np.ndarray, upto: np.ndarray) -> np.ndarray:
    """Per row, the count of values ``<= upto`` added so far (0 where ``upto <= 0``)."""
    out = np.zeros(rows.size, dtype=np.int64)
    k = np.maximum(upto, 0)
    while (k > 0).any():
        out += tree[rows, k]
        k = k - (k & -k)
    return out


def _fenwick_add(tree: np.ndarray, rows: np.ndarray, at: np.ndarray) -> None:
    """Per row, add one at ``at`` (rows with ``at <= 0`` unchanged)."""
    size = tree.shape[1] - 1
    k = at.copy()
    live = k > 0
    while live.any():
        tree[rows[live], k[live]] += 1
        k = np.where(live, k + (k & -k), k)
        live = live & (k <= size)
