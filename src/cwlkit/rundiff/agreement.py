"""RBO and tau_AP of two runs' rankings, every topic at once.

The rankings come as document codes, ``int64[T, D]`` per run with ``-1`` past each ranking
(the two runs' documents encoded with one dictionary). A document ranked twice counts at its
first rank: the rankings are first reduced to their first occurrences, ranks renumbered
``1, 2, ...`` (as ``list(dict.fromkeys(ranking))`` does).

- :func:`rbo_ext` is :func:`cwlkit.rbo`'s ``ext`` (Webber, Moffat and Zobel 2010, Eq. 32) for
  rankings without ties, with the sums over depths taken for all topics at once; it equals
  the one-topic function to rounding (1e-12).
- :func:`tau_ap` is :func:`cwlkit.tau_ap` of B's order against A's (A the truth) over the
  documents both retrieve, NaN when they share fewer than 2: for the common documents
  listed in B's order with ``a_i`` their rank in A, ``C(i) = #{j < i : a_j < a_i}`` is counted
  with a Fenwick tree over A's ranks, one position of every topic at a time.
"""

from __future__ import annotations

import numpy as np

__all__ = ["first_ranks", "rank_in", "rbo_ext", "tau_ap"]


def first_ranks(codes: np.ndarray) -> np.ndarray:
    """int64[T, D]: the rank (1-based) of each cell among its row's first occurrences, 0 for a
    repeated document and past the ranking."""
    T, D = codes.shape
    valid = codes >= 0
    n_codes = int(codes.max()) + 1 if codes.size and valid.any() else 1
    flat = np.flatnonzero(valid)
    keys = (flat // D) * n_codes + codes.ravel()[flat]
    _, first_at = np.unique(keys, return_index=True)
    first = np.zeros(T * D, dtype=bool)
    first[flat[first_at]] = True
    first = first.reshape(T, D)
    return np.where(first, np.cumsum(first, axis=1), 0)


def rank_in(
    codes: np.ndarray, ranks: np.ndarray, other_codes: np.ndarray, other_ranks: np.ndarray
) -> np.ndarray:
    """int64[T, D]: for each cell with a rank in ``ranks`` (> 0), the rank (``other_ranks``)
    of the same document in the other matrix's row, 0 when that row does not hold it."""
    T = codes.shape[0]
    n_codes = max(int(codes.max(initial=-1)), int(other_codes.max(initial=-1))) + 1
    t_o, c_o = np.nonzero(other_ranks > 0)
    keys = t_o.astype(np.int64) * n_codes + other_codes[t_o, c_o]
    order = np.argsort(keys)
    keys, vals = keys[order], other_ranks[t_o, c_o][order]
    out = np.zeros(codes.shape, dtype=np.int64)
    t, c = np.nonzero(ranks > 0)
    if keys.size == 0 or t.size == 0:
        return out
    want = t.astype(np.int64) * n_codes + codes[t, c]
    at = np.minimum(np.searchsorted(keys, want), keys.size - 1)
    out[t, c] = np.where(keys[at] == want, vals[at], 0)
    del T
    return out


def rbo_ext(rank_a: np.ndarray, rank_b: np.ndarray, a_in_b: np.ndarray, p: float) -> np.ndarray:
    """float64[T]: RBO_EXT of each topic's two rankings (see the module).

    ``rank_a``, ``rank_b``: :func:`first_ranks` of each run; ``a_in_b``: :func:`rank_in` of
    A's documents in B (0: B does not hold it).
    """
    T = rank_a.shape[0]
    len_a, len_b = rank_a.max(axis=1, initial=0), rank_b.max(axis=1, initial=0)
    s, l_ = np.minimum(len_a, len_b), np.maximum(len_a, len_b)
    width = int(l_.max(initial=0))
    both = (rank_a > 0) & (a_in_b > 0)
    t, c = np.nonzero(both)
    enter = np.maximum(rank_a[t, c], a_in_b[t, c])  # the depth from which both prefixes hold it
    hist = np.bincount(t * (width + 1) + enter, minlength=T * (width + 1))
    X = np.cumsum(hist.reshape(T, width + 1)[:, 1:], axis=1).astype(np.float64)
    d = np.arange(1, width + 1, dtype=np.float64)
    pd = p**d
    inside = d[None, :] <= l_[:, None]
    term = np.where(inside, X / d * pd, 0.0).sum(axis=1)
    # P1[n] = sum_{d<=n} p^d, P2[n] = sum_{d<=n} p^d / d
    P1 = np.concatenate([[0.0], np.cumsum(pd)])
    P2 = np.concatenate([[0.0], np.cumsum(pd / d)])
    rows = np.arange(T)
    safe_s = np.maximum(s, 1)
    Xs = np.where(s > 0, X[rows, np.maximum(s - 1, 0)] if width else 0.0, 0.0)
    Xl = np.where(l_ > 0, X[rows, np.maximum(l_ - 1, 0)] if width else 0.0, 0.0)
    As = Xs / safe_s
    tail = As * ((P1[l_] - P1[s]) - s * (P2[l_] - P2[s]))
    k = (1.0 - p) / p
    with np.errstate(divide="ignore", invalid="ignore"):
        ext = k * (term + tail) + (Xl + (l_ - s) * As) / l_ * p ** l_.astype(np.float64)
    ext = np.where(s == 0, 0.0, ext)
    return np.where(l_ == 0, np.nan, ext)


def tau_ap(rank_b: np.ndarray, b_in_a: np.ndarray) -> np.ndarray:
    """float64[T]: tau_AP of B's order against A's over the documents both hold (see the
    module). ``rank_b``: :func:`first_ranks` of B; ``b_in_a``: :func:`rank_in` of B's
    documents in A."""
    from ..support.arrays import smaller_before

    T = rank_b.shape[0]
    common = (rank_b > 0) & (b_in_a > 0)
    n = common.sum(axis=1)
    width = int(n.max(initial=0))
    # the A-ranks of the common documents in B's order, 0-padded
    seq = np.zeros((T, width), dtype=np.int64)
    t, c = np.nonzero(common)  # row-major: B's order within each row
    pos = np.cumsum(common, axis=1)[t, c] - 1
    seq[t, pos] = b_in_a[t, c]
    C = smaller_before(seq).astype(np.float64)
    i = np.arange(width, dtype=np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        total = np.where((seq > 0) & (i > 0), C / np.maximum(i, 1), 0.0).sum(axis=1)
        out = 2.0 / (n - 1) * total - 1.0
    return np.where(n >= 2, out, np.nan)
