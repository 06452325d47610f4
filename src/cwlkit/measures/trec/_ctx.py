"""What every trec_eval measure reads: the ranked relevance codes of all topics at once.

trec_eval turns each ranked document into a relevance code (``form_res_rels.c``): the qrels
value (an integer: the label truncated toward zero, as ``atol`` reads it) when the document
is judged with a value >= 0 once truncated, ``-2`` (``RELVALUE_UNJUDGED``: in the pool, not
judged) when it is negative,
``-1`` (``RELVALUE_NONPOOL``) when the document is not in the qrels. :class:`Ctx` holds those
codes as a ``[T, D]`` matrix (``-3`` past the end of a ranking) and memoises the arrays that
several measures share (relevant mask, cumulative counts, R, the ideal gain lists).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Generic, TypeVar

import numpy as np

from ...core.small import NONPOOL, UNJUDGED

if TYPE_CHECKING:  # pragma: no cover
    from ...core.batch import RankingBatch

#: past the end of a ranking
PAD = -3

_T = TypeVar("_T")


class cached_property(Generic[_T]):  # noqa: N801  (functools' name and behaviour)
    """:func:`functools.cached_property` without its lock (Python 3.11 takes one at every
    first access: a few microseconds each, which a training loop scoring one-topic runs pays
    for every array of every :class:`Ctx`). A :class:`Ctx` belongs to one batch, scored by
    one thread."""

    def __init__(self, fn: Callable[[Any], _T]) -> None:
        self.fn = fn
        self.__doc__ = fn.__doc__
        self.name = fn.__name__

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    def __get__(self, obj: Any, owner: type | None = None) -> _T:
        if obj is None:
            return self  # type: ignore[return-value]
        value = obj.__dict__[self.name] = self.fn(obj)
        return value


def seqsum(x: np.ndarray) -> np.ndarray:
    """Row sums added left to right, as trec_eval's loops add (numpy's pairwise ``sum`` can
    differ in the last bit).

    Parameters
    ----------
    x : numpy.ndarray
        float64[T, D].
    """
    if x.shape[1] == 0:
        return np.zeros(x.shape[0])
    return np.cumsum(x, axis=1)[:, -1]


def masked_seqsum(
    mask: np.ndarray, term: Callable[[np.ndarray, np.ndarray], np.ndarray]
) -> np.ndarray:
    """``seqsum(np.where(mask, terms, 0.0))``, the terms computed only where ``mask`` holds.

    ``term(rows, cols)`` gets the coordinates of ``mask``'s true cells in row-major order
    and returns their terms (float64). The terms of each row are packed to the left of a
    ``[T, K]`` matrix (K: the largest count, plus one column of zeros when no row is full)
    and added left to right: the same additions as the dense sum, whose zeros change no
    partial sum, so the same bits, including the sign of a zero sum.

    Parameters
    ----------
    mask : numpy.ndarray
        bool[T, D], the cells that contribute.
    term : callable
        ``(rows, cols) -> float64[n]`` for the n true cells.
    """
    T, D = mask.shape
    rows, cols = np.nonzero(mask)
    counts = np.bincount(rows, minlength=T)
    most = int(counts.max(initial=0))
    packed = np.zeros((T, most + (most < D)))
    at = np.arange(rows.size) - (np.cumsum(counts) - counts)[rows]
    packed[rows, at] = term(rows, cols)
    return seqsum(packed)


def powers(p: float, n: int) -> np.ndarray:
    """float64[n + 1]: 1, p, p*p, ... by repeated multiplication (trec_eval's ``cur_p``)."""
    out = np.full(n + 1, p)
    out[0] = 1.0
    return np.cumprod(out)


def codes_of(batch: RankingBatch) -> tuple[np.ndarray, np.ndarray]:
    """int64[T, D] relevance codes and int64[T] depths of a batch: the label truncated toward
    zero (as trec_eval's ``atol`` reads it), :data:`NONPOOL` for a document not in the
    qrels, :data:`UNJUDGED` for a label below 0 once truncated (``-0.5`` is 0: judged
    non-relevant), :data:`PAD` past the ranking's end."""
    _check_levels(batch)
    with np.errstate(invalid="ignore"):
        # NaN (unjudged) casts to garbage that the judged mask replaces (in place: one
        # int64 matrix at a time)
        codes = np.clip(batch.labels, -(2.0**62), 2.0**62).astype(np.int64)
    if codes.size <= 4096:  # (a few cells: one numpy call a rule)
        codes[codes < 0] = UNJUDGED
        codes[~batch.judged] = NONPOOL
        codes[~batch.valid] = PAD
        return codes, batch.depth.astype(np.int64)
    # (each rule as arithmetic on whole matrices, in place: ``c -= (c - v) * mask`` makes a
    # cell v where mask holds and leaves it elsewhere, exactly (int64, |c| <= 2^63 - 4),
    # at SIMD speed, where ``c[mask] = v`` takes a branch per cell)
    _set_where(codes, codes < 0, UNJUDGED)
    _set_where(codes, ~batch.judged, NONPOOL)
    if not batch.valid.all():
        _set_where(codes, ~batch.valid, PAD)
    return codes, batch.depth.astype(np.int64)


def _set_where(codes: np.ndarray, mask: np.ndarray, value: int) -> None:
    """``codes[mask] = value`` (int64 codes of magnitude below 2^63 - 4; in place)."""
    diff = codes - value
    diff *= mask
    codes -= diff


#: the largest label trec_eval's measures read exactly (an integer, as ``atol`` reads it;
#: beyond 2^53 a float64 label is no longer every integer, and trec_eval's C program
#: refuses such qrels: "Can't calculate measure")
MAX_LEVEL = 2.0**53


def _check_levels(batch: RankingBatch) -> None:
    """Refuse a qrels label beyond +-:data:`MAX_LEVEL` (nDCG silently gave 0.46 for 1e19)."""
    from ...errors import ParamError

    values = batch.qrels_label_values
    if values is None or not values.size or values is _CHECKED[0]:
        return
    if values.size <= 64:  # (a few distinct labels: faster in Python than numpy's calls)
        top = max((abs(x) for x in values.tolist() if x == x), default=float("nan"))
    else:
        top = float(np.nanmax(np.abs(values)))
    if top > MAX_LEVEL:
        raise ParamError(
            f"a qrels label of magnitude {top:.6g} is beyond 2^53: trec_eval's measures read "
            "labels as integers (trec_eval cannot compute them either); rescale the labels"
        )
    if not values.flags.writeable:  # (read-only: the qrels' own, checked once for every run)
        _CHECKED[0] = values


#: the last read-only label values found within bounds (kept alive here, so that the same
#: object is the same values)
_CHECKED: list[Any] = [None]


def stand_ins(
    codes: np.ndarray, depth: np.ndarray, absent: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """``codes`` and ``depth`` with trec_eval 10.0's stand-in ranking for each ``absent``
    topic (bool[T]): one document not in the qrels (:data:`NONPOOL`) at rank 1."""
    if not absent.any():
        return codes, depth
    if codes.shape[1] == 0:
        codes = np.full((codes.shape[0], 1), PAD, dtype=np.int64)
    codes = codes.copy()
    codes[absent, 0] = NONPOOL
    return codes, np.where(absent, 1, depth)


def gain_table(pairs: list[tuple[str, float]] | None) -> dict[int, float]:
    """Level -> gain overrides from ``level=gain`` parameters (non-integer names dropped;
    the first of a repeated level kept)."""
    out: dict[int, float] = {}
    for name, value in pairs or []:
        try:
            lvl = int(name)
        except ValueError:
            continue
        out.setdefault(lvl, float(value))
    return out


class Ctx:
    """Relevance codes of a batch and the per-topic counts trec_eval derives from them.

    Parameters
    ----------
    codes : numpy.ndarray
        int64[T, D] relevance codes in rank order, ``PAD`` past each topic's depth.
    depth : numpy.ndarray
        int64[T], number of ranked documents (``num_ret``).
    qrel_levels : numpy.ndarray
        float64[T, Q] every qrels value of the topic (truncated to integers), sorted
        descending, NaN-padded.
    rel_level : float
        ``-l``: the smallest code counted relevant.
    num_docs : int
        ``-N``: documents in the collection (utility).
    version : int
        9 or 10 (trec_eval 9.0.8 or 10.0 rules).
    """

    def __init__(
        self,
        codes: np.ndarray,
        depth: np.ndarray,
        qrel_levels: np.ndarray,
        *,
        rel_level: float = 1.0,
        num_docs: int = 0,
        version: int = 9,
    ) -> None:
        self.codes = codes
        self.depth = depth
        self.qrel_levels = qrel_levels
        self.rel_level = rel_level
        self.num_docs = num_docs
        self.version = version
        self.T, self.D = codes.shape
        self._memo: dict = {}

    # ---- masks and counts over the ranking -------------------------------------------
    @cached_property
    def valid(self) -> np.ndarray:
        """bool[T, D], rank inside the ranking."""
        return np.arange(self.D)[None, :] < self.depth[:, None]

    @cached_property
    def rel(self) -> np.ndarray:
        """bool[T, D], the document at that rank is relevant (code >= ``-l``)."""
        return (self.codes >= self.rel_level) & self.valid

    @cached_property
    def cumrel(self) -> np.ndarray:
        """int64[T, D], relevant documents in the top ``i+1``."""
        return np.cumsum(self.rel, axis=1, dtype=np.int64)

    @cached_property
    def num_rel_ret(self) -> np.ndarray:
        """int64[T], relevant documents retrieved."""
        return self.cumrel[:, -1] if self.D else np.zeros(self.T, np.int64)

    @cached_property
    def nonrel(self) -> np.ndarray:
        """bool[T, D], judged non-relevant (0 <= code < ``-l``)."""
        return (self.codes >= 0) & (self.codes < self.rel_level)

    @cached_property
    def num_ret(self) -> np.ndarray:
        """int64[T], documents retrieved."""
        return self.depth

    @cached_property
    def ranks(self) -> np.ndarray:
        """float64[D], 1-based ranks."""
        return np.arange(1, self.D + 1, dtype=np.float64)

    # ---- counts over the qrels -------------------------------------------------------
    @cached_property
    def num_rel(self) -> np.ndarray:
        """int64[T], R: qrels entries with value >= max(0, ``-l``)."""
        q = self.qrel_levels  # (NaN padding compares False, without a warning)
        if self.rel_level >= 0:
            return (q >= self.rel_level).sum(axis=1, dtype=np.int64)
        return ((q >= 0) & (q >= self.rel_level)).sum(axis=1, dtype=np.int64)

    @cached_property
    def num_nonrel(self) -> np.ndarray:
        """int64[T], N: judged non-relevant qrels entries (0 <= value < ``-l``)."""
        with np.errstate(invalid="ignore"):
            q = self.qrel_levels
            return ((q >= 0) & (q < self.rel_level)).sum(axis=1).astype(np.int64)

    def cut(self, mat: np.ndarray, k: np.ndarray | int) -> np.ndarray:
        """Value of a cumulative ``[T, D]`` matrix at rank ``k`` (>= 0), per topic.

        ``k`` larger than the ranking takes the last value; ``k = 0`` gives 0.
        """
        if type(k) is int and self.D and k > 0:  # (one cutoff for every topic)
            kk = np.minimum(self.depth, k)
            if kk.all():
                return mat[self._rows, kk - 1]
        k = np.broadcast_to(np.asarray(k, dtype=np.int64), (self.T,))
        kk = np.minimum(k, self.depth)
        out = np.zeros(self.T, dtype=mat.dtype)
        has = kk > 0
        if has.any() and self.D:
            out[has] = mat[np.flatnonzero(has), kk[has] - 1]
        return out

    @cached_property
    def _rows(self) -> np.ndarray:
        """int64[T], 0..T-1."""
        return np.arange(self.T)

    # ---- gains -----------------------------------------------------------------------
    def gain_table(self, pairs: list[tuple[str, float]] | None) -> dict[int, float]:
        """Level -> gain overrides from ``level=gain`` parameters (:func:`gain_table`)."""
        return gain_table(pairs)

    def gains(self, table: dict[int, float]) -> np.ndarray:
        """float64[T, D] gain of each ranked document: its level (or the level's override);
        0 for non-pool and unjudged documents (unless overridden) and past the end.
        Memoised per gain table; do not modify the result."""
        key = ("gains", tuple(sorted(table.items())))
        got = self._memo.get(key)
        if got is None:
            got = self._memo[key] = self._gains(table)
        return got

    def gains_to(self, table: dict[int, float], width: int) -> np.ndarray:
        """The first ``width`` columns of :meth:`gains` (made alone when the whole matrix
        is not memoised yet: a cutoff measure reads a few ranks of a deep ranking)."""
        key = ("gains", tuple(sorted(table.items())))
        got = self._memo.get(key)
        if got is None and width < self.D:
            return self._gains(table, width)
        return self.gains(table)[:, :width]

    def _gains(self, table: dict[int, float], width: int | None = None) -> np.ndarray:
        c = self.codes[:, :width]
        g = c.astype(np.float64)
        g[c < 0] = 0.0
        for lvl, val in table.items():
            g[c == lvl] = val
        g[~self.valid[:, :width]] = 0.0
        return g

    def ideal(self, table: dict[int, float]) -> np.ndarray:
        """float64[T, L] the positive gains of the judged documents, sorted descending,
        0-padded (trec_eval's ideal ranking: it stops at the first gain <= 0).
        Memoised per gain table; do not modify the result."""
        key = ("ideal", tuple(sorted(table.items())))
        got = self._memo.get(key)
        if got is None:
            got = self._memo[key] = self._ideal(table)
        return got

    def _ideal(self, table: dict[int, float]) -> np.ndarray:
        q = self.qrel_levels
        ok = q >= 0  # (NaN, padding, compares False, without a warning)
        g = np.where(ok, q, 0.0)
        for lvl, val in table.items():
            g[ok & (q == lvl)] = val
        del ok
        g[~(g > 0)] = 0.0
        # (descending: sorted negated, in place, one matrix at a time)
        np.negative(g, out=g)
        g.sort(axis=1)
        np.negative(g, out=g)
        width = int((g > 0).sum(axis=1).max(initial=0))
        return g[:, :width]
