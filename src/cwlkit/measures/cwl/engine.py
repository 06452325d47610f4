"""The C/W/L engine: a metric states its continuation C(i); everything else follows.

For each topic the user model reads the ranking top down and continues from rank i to rank
i+1 with probability C(i). With V(1) = 1 and V(i+1) = V(i) C(i):

* ``W(i) = V(i) / sum V``          (attention at rank i),
* ``L(i) = V(i) (1 - C(i))``       (probability of stopping at rank i),
* ``EU = sum W g``, ``EC = sum W c``, ``ED = sum V``,
* ``ETU = sum L CG``, ``ETC = sum L CC`` (CG, CC: cumulative gain and cost).

The sums run to infinity: past the end of the run the user meets documents of the padding
gain (0 for the lower bound; the maximum gain for the upper bound) and padding cost. Where
C has a known form there (RBP, INSQ, INST once no more gain can come, TBG...), the metric gives
the closed form of the remaining expected depth; otherwise the engine extends the grid, block
by block, until the remaining mass (estimated as a geometric series at the last C) is below
``TAIL_TOL``. Then EU * ED = ETU and EC * ED = ETC exactly (up to
rounding). A topic whose ED is infinite (RR on a topic with no relevant document) reports
``ED = ETC = inf``, ``EU = ETU = 0`` and ``EC`` = the padding cost.

``max_depth`` reproduces cwl_eval 1.0.12 instead (:func:`cwl_eval_scores`): the ranking is
cut or padded to exactly n ranks, W is normalised over those n ranks and nothing is added for
the tail, every number computed with cwl_eval's floating-point operations in cwl_eval's order,
so that its printed output is cwl_eval's to the byte.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import ClassVar, Protocol

import numpy as np
import numpy.typing as npt

from ...errors import CwlkitError, ParamError

TAIL_TOL = 1e-12
MAX_HORIZON = 1 << 22
#: topics x ranks per block when the grid is extended past the runs (bounds the memory)
BLOCK_CELLS = 1 << 20
#: the most cells of a grid padded past the batch's depth (a cut-off or ``max_depth`` larger
#: than the rankings): 2 GiB an array, beyond which the request is refused, not attempted
MAX_PADDED_CELLS = 1 << 28
#: ranks summed together by einsum's dot product (a fixed width, whatever the batch), before
#: the blocks are added in rank order
SUM_BLOCK = 64


@dataclass
class CWLContext:
    """What a continuation function sees, for all topics at once.

    Attributes
    ----------
    rank : numpy.ndarray
        float64[1, H], ranks 1..H of a grid; float64[T, H] when each topic has its own
        ranks (the padding past a topic's horizon, or one rank per topic for
        :meth:`CWLMetric.tail`).
    gain, cost : numpy.ndarray
        float64[T, H], gain and cost at each rank (padding past the run's end).
    cum_gain, cum_cost : numpy.ndarray
        float64[T, H], CG(i) and CC(i), including rank i.
    depth : numpy.ndarray
        int64[T], length of each run.
    pad_gain, pad_cost : float
        Gain and cost of every rank past the run, and past H.
    compat : bool
        True in cwl_eval's truncated mode (H is the fixed depth n).
    """

    rank: np.ndarray
    gain: np.ndarray
    cost: np.ndarray
    cum_gain: np.ndarray
    cum_cost: np.ndarray
    depth: np.ndarray
    pad_gain: float
    pad_cost: float
    compat: bool = False

    @property
    def horizon(self) -> np.ndarray:
        """The last rank H of the context, per topic: float64[T], or float64[1] when every
        topic has the same ranks (a grid starting at rank 1)."""
        return self.rank[:, -1]


@dataclass
class CWLScores:
    """The five C/W/L measurements of one metric for every topic (float64[T] each)."""

    EU: np.ndarray
    ETU: np.ndarray
    EC: np.ndarray
    ETC: np.ndarray
    ED: np.ndarray

    COLUMNS: ClassVar[tuple[str, ...]] = ("EU", "ETU", "EC", "ETC", "ED")

    def as_array(self) -> np.ndarray:
        """float64[5, T] in the order EU, ETU, EC, ETC, ED."""
        return np.vstack([self.EU, self.ETU, self.EC, self.ETC, self.ED])


class Metric(Protocol):
    """What the engine reads of a C/W/L metric (:class:`~.base.CWLMetric` is one)."""

    gain_domain: ClassVar[tuple[float, float] | None]
    upper_tail: ClassVar[bool]
    normalise_by_ideal: ClassVar[bool]

    @property
    def name(self) -> str: ...

    def continuation(self, x: CWLContext) -> np.ndarray: ...

    def min_horizon(self) -> int: ...

    def tail(self, x: CWLContext) -> np.ndarray | None: ...

    def cwl_eval_vectors(self, x: CWLContext) -> tuple[np.ndarray, np.ndarray | None]: ...


def _grid(
    gain: np.ndarray,
    cost: np.ndarray,
    depth: np.ndarray,
    H: int,
    pad_gain: float,
    pad_cost: float,
    compat: bool,
) -> tuple[CWLContext, np.ndarray, np.ndarray]:
    """Ranks 1..H of every topic: the run's gains and costs, then padding; CG and CC summed
    in rank order.

    Returns the context and the stacks its arrays are views of, ``(1, g, c)`` float64[3, T, W]
    and ``(CG, CC)`` float64[2, T, W], W = H rounded up to whole blocks of ``SUM_BLOCK`` (the
    operands of :func:`_sums`; columns past H are padding).
    """
    T, D = gain.shape
    if H > D and T * H > MAX_PADDED_CELLS:
        raise ParamError(
            f"a ranking of {H:,} ranks for {T:,} topics (a cut-off or depth past the run's "
            f"end) needs {T * H * 8 / 2**30:,.1f} GiB an array; use a smaller one"
        )
    W = -(-H // SUM_BLOCK) * SUM_BLOCK
    vops = np.empty((3, T, W))
    vops[0] = 1.0
    vops[1] = pad_gain
    vops[2] = pad_cost
    w = min(D, H)
    inside = np.arange(w)[None, :] < depth[:, None]
    vops[1, :, :w] = np.where(inside, gain[:, :w], pad_gain)
    vops[2, :, :w] = np.where(inside, cost[:, :w], pad_cost)
    lops = np.empty((2, T, W))
    np.cumsum(vops[1], axis=1, out=lops[0])
    np.cumsum(vops[2], axis=1, out=lops[1])
    x = CWLContext(
        rank=np.arange(1, H + 1, dtype=np.float64)[None, :],
        gain=vops[1, :, :H],
        cost=vops[2, :, :H],
        cum_gain=lops[0, :, :H],
        cum_cost=lops[1, :, :H],
        depth=np.minimum(depth, H),
        pad_gain=pad_gain,
        pad_cost=pad_cost,
        compat=compat,
    )
    return x, vops, lops


@dataclass
class _Frontier:
    """Where the sums of the topics still open stand: their last summed rank and what the
    ranks past it need.

    Attributes
    ----------
    rows : numpy.ndarray
        int64[n], the topics' rows in the output.
    sums : list of numpy.ndarray
        float64[n] each: sum V, sum V g, sum V c, sum L CG, sum L CC over ranks 1 .. ``last``.
    v_next : numpy.ndarray
        float64[n], V(last + 1).
    at : CWLContext
        float64[n, 1] context of rank ``last`` (its rank, gain, cost, CG, CC), which the
        metric's :meth:`~CWLMetric.tail` reads.
    c_last : numpy.ndarray
        float64[n], C(last).
    origin : tuple of numpy.ndarray
        (rank, CG, CC) of the topic's last grid rank: padding past it has
        ``CG(r) = CG + pad_gain (r - rank)`` (and CC alike), whatever the blocks.
    """

    rows: np.ndarray
    sums: list[np.ndarray]
    v_next: np.ndarray
    at: CWLContext
    c_last: np.ndarray
    origin: tuple[np.ndarray, np.ndarray, np.ndarray]

    def take(self, keep: np.ndarray) -> _Frontier:
        """The topics of ``keep`` (bool[n])."""
        at = _subset(self.at, keep)
        return _Frontier(
            self.rows[keep],
            [s[keep] for s in self.sums],
            self.v_next[keep],
            at,
            self.c_last[keep],
            (self.origin[0][keep], self.origin[1][keep], self.origin[2][keep]),
        )


def _walk(
    C: np.ndarray,
    v0: np.ndarray | None = None,
    col: np.ndarray | None = None,
    width: int | None = None,
) -> np.ndarray:
    """V over a block of ranks: V[:, 0] = ``v0`` (1 by default), V[:, j] = V[:, j-1] C[:, j-1],
    multiplied in rank order (so a topic's V does not depend on where its blocks start).

    With ``col`` (int64[n]), V is exactly 0 past column ``col[t]`` of row t (the user stops
    there), as the sums of :func:`_sums` require; with ``width`` (at least C's), V has that
    many columns, 0 past C's.
    """
    n, m = C.shape
    V = np.empty((n, max(width or m, m)))
    V[:, 0] = 1.0 if v0 is None else v0
    V[:, 1:m] = C[:, :-1]
    V[:, m:] = 0.0
    if col is not None:
        cut = col + 1 < m
        V[np.flatnonzero(cut), col[cut] + 1] = 0.0
    return np.cumprod(V, axis=1, out=V)


def _block_sums(V: np.ndarray, L: np.ndarray, vops: np.ndarray, lops: np.ndarray) -> np.ndarray:
    """float64[5, n]: the row sums of V 1, V g, V c (``vops``), L CG and L CC (``lops``),
    grouped by rank alone.

    ``V``, ``L``: float64[n, w]; ``vops``: float64[3, n, >= w], ``lops``: float64[2, n, >= w];
    w a multiple of ``SUM_BLOCK``. Columns are summed in blocks of ``SUM_BLOCK`` from column 0
    (one ``np.einsum`` kernel, the dot product over that fixed width, for all five), then the
    block sums one after the other in rank order (``np.cumsum``). So a row's sums are the
    same, to the bit, in wider arrays whose extra columns of V and L are 0, and whatever the
    other rows: no reduction whose grouping depends on the batch (a sum over the batch's
    depth would). sum V is the dot product with 1, so with unit costs sum V c is sum V to the
    bit (EC = 1 exactly).
    """
    n, w = V.shape
    nb = w // SUM_BLOCK
    blocks = np.empty((5, n, nb))
    spec = "ijk,sijk->sij"
    np.einsum(spec, V.reshape(n, nb, SUM_BLOCK), _blocked(vops, w), out=blocks[:3])
    np.einsum(spec, L.reshape(n, nb, SUM_BLOCK), _blocked(lops, w), out=blocks[3:])
    if nb > 1:
        np.cumsum(blocks, axis=2, out=blocks)
    return blocks[:, :, -1]


def _blocked(ops: np.ndarray, w: int) -> np.ndarray:
    """The first ``w`` columns of a stack of operands [s, n, >= w], as [s, n, w / SUM_BLOCK,
    SUM_BLOCK] (a view)."""
    s, n, _ = ops.shape
    return ops[:, :, :w].reshape(s, n, w // SUM_BLOCK, SUM_BLOCK)


def _sums(
    V: np.ndarray,
    C: np.ndarray,
    vops: np.ndarray,
    lops: np.ndarray,
    carry: list[np.ndarray] | None,
) -> list[np.ndarray]:
    """sum V, sum V g, sum V c, sum L CG, sum L CC over a block (L = V (1 - C)), plus ``carry``.

    ``V`` is 0 past each topic's last rank (:func:`_walk` with ``col``), so every term there
    is 0 and :func:`_block_sums` gives the topic's own sums, whatever the block's width or
    its other rows. ``V`` may be wider than ``C`` (whole blocks of ``SUM_BLOCK``; 0 there).
    ``carry`` (the sums before the block) is added last.
    """
    w = V.shape[1]
    m = C.shape[1]
    if m == w:
        L = np.subtract(1.0, C)
        L *= V
    else:
        L = np.empty_like(V)
        np.subtract(1.0, C, out=L[:, :m])
        L[:, :m] *= V[:, :m]
        L[:, m:] = 0.0
    out = list(_block_sums(V, L, vops, lops))
    if carry is not None:
        out = [c + s for c, s in zip(carry, out, strict=True)]
    return out


def _live_width(C: np.ndarray, last: np.ndarray) -> int:
    """Columns of the grid worth walking: up to the deepest ``last``, and not past the first
    column where C is 0 for every topic (V is exactly 0 beyond it, so the rank-order sums
    there only add zeros)."""
    m = int(last.max(initial=1))
    stop = ~C[:, :m].any(axis=0)
    return int(np.argmax(stop)) + 1 if stop.any() else m


def _at(x: CWLContext, col: np.ndarray, rank: np.ndarray) -> CWLContext:
    """The context of one rank per topic (column ``col[t]`` of ``x``, rank ``rank[t]``), as
    float64[n, 1] arrays."""
    rows = np.arange(col.size)

    def pick(a: np.ndarray) -> np.ndarray:
        return np.ascontiguousarray(a[rows, col][:, None])

    return CWLContext(
        rank=rank.astype(np.float64)[:, None],
        gain=pick(x.gain),
        cost=pick(x.cost),
        cum_gain=pick(x.cum_gain),
        cum_cost=pick(x.cum_cost),
        depth=x.depth,
        pad_gain=x.pad_gain,
        pad_cost=x.pad_cost,
        compat=x.compat,
    )


def _grid_sums(
    C: np.ndarray, vops: np.ndarray, lops: np.ndarray, last: np.ndarray
) -> tuple[list[np.ndarray], np.ndarray]:
    """The five sums of every topic over ranks 1 .. ``last[t]`` of the grid (``last`` >= 1;
    ``vops``, ``lops``: its stacks, see :func:`_grid`), and V(last + 1)."""
    n = C.shape[0]
    m = _live_width(C, last)
    col = np.minimum(last, m) - 1
    rows = np.arange(n)
    width = -(-m // SUM_BLOCK) * SUM_BLOCK  # whole blocks: the sums copy nothing
    # walk whole blocks where the grid has them (V is 0 past col anyway), else pad with 0
    walked = min(width, C.shape[1])
    V = _walk(C[:, :walked], col=col, width=width)
    # V(last + 1) = V(last) C(last); 0 when last is past m (V is 0 there for every topic)
    v_next = np.where(last <= m, V[rows, col] * C[rows, last - 1], 0.0)
    if width > SUM_BLOCK and not V[:, -1].any():
        # V has underflowed to 0 for every topic (RBP with a small p): the blocks past the
        # last nonzero V would only add 0
        used = np.flatnonzero(V.any(axis=0))
        width = -(-(int(used[-1]) + 1 if used.size else 1) // SUM_BLOCK) * SUM_BLOCK
        V = V[:, :width]
        walked = min(walked, width)
    return _sums(V, C[:, :walked], vops, lops, None), v_next


def _closed(sums: list[np.ndarray]) -> CWLScores:
    """The measurements when no user reads past the grid: what :func:`_store_finished`
    writes for a topic without a tail (the same operations, so the same bits)."""
    sv, svg, svc, etu, etc = sums
    ED = sv + 0.0
    return CWLScores(
        EU=(svg + 0.0) / ED, ETU=etu + 0.0 + 0.0, EC=(svc + 0.0) / ED, ETC=etc + 0.0 + 0.0, ED=ED
    )


def score_metric(
    metric: Metric,
    gain: np.ndarray,
    cost: np.ndarray,
    depth: np.ndarray,
    *,
    pad_gain: float = 0.0,
    pad_cost: float = 1.0,
    max_depth: int | None = None,
    cwl_eval_order: bool = False,
    cache: dict | None = None,
) -> CWLScores:
    """The five measurements of ``metric`` for every topic.

    Each topic's values depend on its own row alone, to the bit: not on the other topics
    scored with it, nor on the width of ``gain`` past the topic's depth (see the engine's
    notes above :func:`_grid`).

    Parameters
    ----------
    metric : Metric
    gain, cost : numpy.ndarray
        float64[T, D]: gain and cost of the document at each rank (values past ``depth`` are
        ignored).
    depth : numpy.ndarray
        int64[T], length of each ranking.
    pad_gain, pad_cost : float
        Gain and cost of every rank past the end of the ranking.
    max_depth : int, optional
        Cut or pad every ranking to exactly ``max_depth`` ranks, normalise W over them and
        ignore the tail (cwl_eval's model; inst_eval.py's with INST).
    cwl_eval_order : bool
        With ``max_depth``: compute as cwl_eval 1.0.12 does, its operations in its order
        (:func:`cwl_eval_scores`; cwl_eval's mode, whose output is cwl_eval's to the byte).
        Without: the engine's rank-order block sums over the same model.
    cache : dict, optional
        Reuse padded grids across metrics scored on the same ``gain`` and ``cost`` arrays.

    Returns
    -------
    CWLScores
        EU, ETU, EC, ETC and ED, float64[T] each.
    """
    T = gain.shape[0]
    depth = np.asarray(depth, dtype=np.int64)
    pads = (pad_gain, pad_cost)
    if max_depth is not None:
        x, vops, lops = _cached_grid(cache, gain, cost, depth, max_depth, pads, True)
        if cwl_eval_order:
            return cwl_eval_scores(metric, x)
        C = np.clip(metric.continuation(x), 0.0, 1.0)
        sums, _ = _grid_sums(C, vops, lops, np.full(T, max_depth, dtype=np.int64))
        ED, svg, svc, etu, etc = sums
        return CWLScores(EU=svg / ED, ETU=etu, EC=svc / ED, ETC=etc, ED=ED)

    out = {k: np.zeros(T) for k in CWLScores.COLUMNS}
    k = max(int(metric.min_horizon()), 1)
    # whole blocks of SUM_BLOCK ranks (the extra ranks are padding no topic uses)
    H = -(-max(int(gain.shape[1]), k) // SUM_BLOCK) * SUM_BLOCK
    x, vops, lops = _cached_grid(cache, gain, cost, depth, H, pads, False)
    C = np.clip(metric.continuation(x), 0.0, 1.0)
    # each topic's own horizon: its depth, or the metric's cut-off past a shorter run
    last = np.maximum(x.depth, k)
    sums, v_next = _grid_sums(C, vops, lops, last)
    if not (v_next > 0).any():
        return _closed(sums)  # every user stopped within the grid (P@k, SDCG@k, AP...)
    rows = np.arange(T)
    at = _at(x, last - 1, last)
    origin = (last.astype(np.float64), at.cum_gain[:, 0], at.cum_cost[:, 0])
    f = _Frontier(rows, sums, v_next, at, C[rows, last - 1], origin)
    left = _finish(metric, f, out, pads, checkpoint=True)
    step = max(1, BLOCK_CELLS // EXTEND_RANKS)  # topics per block of padding ranks
    while left is not None:
        n = left.rows.size
        group = np.arange(n) // step
        parts = [_extend(metric, left.take(group == i), out, pads) for i in range(-(-n // step))]
        left = _concat([p for p in parts if p is not None])
    return CWLScores(**out)


def cwl_eval_scores(metric: Metric, x: CWLContext) -> CWLScores:
    """The five measurements as cwl_eval 1.0.12 computes them, to the bit (cwl_eval's mode).

    ``x`` is the grid of cwl_eval's n ranks (``x.compat``: every ranking cut or padded to n).
    cwl_eval's ``CWLMetric._do_score`` on one ranking, for all topics at once:

    * C from :meth:`~.base.CWLMetric.cwl_eval_vectors` (cwl_eval's ``c_vector``, its
      operations in its order; not clipped to [0, 1]);
    * V = cumprod(1, C(1), ..., C(n-1)) (sequential products);
    * W = (1 / sum V) V, sum V being ``np.sum`` over the n ranks of a row (numpy's pairwise
      summation, which depends on the length n alone: every row has n ranks), unless the
      metric has its own W (TBG, U-measure, whose cwl_eval classes override ``w_vector``);
    * L = V (1 - C);
    * EU = W . g, ETU = L . CG, EC = W . c, ETC = L . CC: ``np.vecdot`` over the rows, which
      calls the same BLAS dot kernel as cwl_eval's ``np.dot`` on one ranking's vectors (so
      the same grouping of the products, and the same noise: EC = 1 - 1.1e-16 where
      cwl_eval has it, and the residual of EC -1.1e-16, printed ``-0.0000``);
    * ED = 1 / W(1).

    One vectorised pass over the topics: every row has the same length n, so each row's
    reductions are those of cwl_eval's vectors.
    """
    C, W = metric.cwl_eval_vectors(x)
    C = np.ascontiguousarray(C, dtype=np.float64)
    n_topics, n = C.shape
    V = np.empty((n_topics, n))
    V[:, 0] = 1.0
    V[:, 1:] = C[:, :-1]
    np.cumprod(V, axis=1, out=V)
    if W is None:
        w1 = 1.0 / V.sum(axis=1)
        W = V * w1[:, None]
    L = V * (1.0 - C)
    gain, cost = np.ascontiguousarray(x.gain), np.ascontiguousarray(x.cost)
    cg, cc = np.ascontiguousarray(x.cum_gain), np.ascontiguousarray(x.cum_cost)
    with np.errstate(divide="ignore", invalid="ignore"):
        return CWLScores(
            EU=_dot(W, gain),
            ETU=_dot(L, cg),
            EC=_dot(W, cost),
            ETC=_dot(L, cc),
            ED=1.0 / W[:, 0],
        )


def _dot(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Row-wise dot products, float64[T]: each row's is ``np.dot`` of the two rows (numpy's
    BLAS dot, the kernel ``np.vecdot`` and a stack of 1 x n @ n x 1 ``np.matmul`` call)."""
    if hasattr(np, "vecdot"):
        return np.asarray(np.vecdot(a, b), dtype=np.float64)
    return np.matmul(a[:, None, :], b[:, :, None])[:, 0, 0]  # pragma: no cover (numpy < 2)


def _pow_or_inf(a: float, b: float) -> float:
    try:
        return math.pow(a, b)
    except OverflowError:
        return math.inf


_POW = np.frompyfunc(_pow_or_inf, 2, 1)


def c_pow(base: npt.ArrayLike, exponent: npt.ArrayLike) -> np.ndarray:
    """``base ** exponent`` element by element as Python's floats compute it (C's ``pow``,
    the same bits as cwl_eval's ``x ** 2.0``, ``2.0 ** x`` and ``math.pow``), float64.

    numpy's ``np.power`` (and ``np.exp2``, ``np.exp``) use SIMD kernels whose results
    differ from C's ``pow`` in the last bit for some arguments (about 5% of them for
    ``np.power(e, x)``, 0.1% for ``x ** 2``); cwl_eval's mode needs C's. An overflow gives
    inf (``math.pow`` raises OverflowError, which cwl_eval lets through).
    """
    with np.errstate(over="ignore"):  # (the flag math.pow's OverflowError leaves)
        out = _POW(np.asarray(base, dtype=np.float64), np.asarray(exponent, dtype=np.float64))
    return np.asarray(out, dtype=np.float64)


#: ranks of padding per block past a topic's horizon; a closed-form tail is looked for at
#: the end of each (every topic at the same ranks past its own horizon, whatever its batch)
EXTEND_RANKS = 1024


def _padding_block(f: _Frontier, width: int) -> tuple[CWLContext, np.ndarray, np.ndarray]:
    """The next ``width`` ranks past each open topic's last summed rank: all padding, CG and
    CC continued from the topic's last grid rank (``f.origin``); with its stacks of
    operands, as :func:`_grid`."""
    pad_gain, pad_cost = f.at.pad_gain, f.at.pad_cost
    rank = f.at.rank + np.arange(1, width + 1, dtype=np.float64)[None, :]
    r0, cg0, cc0 = f.origin
    steps = rank - r0[:, None]
    n = rank.shape[0]
    vops = np.empty((3, n, width))
    vops[0] = 1.0
    vops[1] = pad_gain
    vops[2] = pad_cost
    lops = np.empty((2, n, width))
    np.add(cg0[:, None], pad_gain * steps, out=lops[0])
    np.add(cc0[:, None], pad_cost * steps, out=lops[1])
    x = CWLContext(
        rank=rank,
        gain=vops[1],
        cost=vops[2],
        cum_gain=lops[0],
        cum_cost=lops[1],
        depth=f.at.depth,
        pad_gain=pad_gain,
        pad_cost=pad_cost,
    )
    return x, vops, lops


def _extend(
    metric: Metric, f: _Frontier, out: dict[str, np.ndarray], pads: tuple[float, float]
) -> _Frontier | None:
    """Sum ``EXTEND_RANKS`` more ranks of padding for the open topics ``f``; write those that
    converge within them (at the first rank where the remaining mass is at most
    ``TAIL_TOL``) or have a closed-form tail at the block's end; return the others."""
    if float(f.at.rank.max()) >= MAX_HORIZON:
        raise CwlkitError(
            f"{metric.name}: the user model does not converge within {MAX_HORIZON} ranks"
        )
    n = f.rows.size
    rows = np.arange(n)
    x, vops, lops = _padding_block(f, EXTEND_RANKS)
    C = np.clip(metric.continuation(x), 0.0, 1.0)
    V = _walk(C, f.v_next)
    v_after = V * C  # V(r + 1) for each rank r of the block
    with np.errstate(divide="ignore", invalid="ignore"):
        settled = ~(v_after > 0) | (v_after / (1.0 - C) <= TAIL_TOL)
    found = settled.any(axis=1)
    col = np.where(found, np.argmax(settled, axis=1), EXTEND_RANKS - 1)
    v_next = v_after[rows, col]
    c_last = C[rows, col]
    V = np.where(np.arange(EXTEND_RANKS)[None, :] <= col[:, None], V, 0.0)
    sums = _sums(V, C, vops, lops, f.sums)
    nxt = _Frontier(f.rows, sums, v_next, _at(x, col, x.rank[rows, col]), c_last, f.origin)
    return _finish(metric, nxt, out, pads, checkpoint=~found)


def _concat(parts: list[_Frontier]) -> _Frontier | None:
    """One frontier of several (row groups of the same batch; None if there are none)."""
    if not parts:
        return None
    if len(parts) == 1:
        return parts[0]
    a = [p.at for p in parts]
    at = CWLContext(
        rank=np.concatenate([p.rank for p in a]),
        gain=np.concatenate([p.gain for p in a]),
        cost=np.concatenate([p.cost for p in a]),
        cum_gain=np.concatenate([p.cum_gain for p in a]),
        cum_cost=np.concatenate([p.cum_cost for p in a]),
        depth=np.concatenate([p.depth for p in a]),
        pad_gain=a[0].pad_gain,
        pad_cost=a[0].pad_cost,
        compat=a[0].compat,
    )
    r0, cg0, cc0 = (np.concatenate([p.origin[i] for p in parts]) for i in range(3))
    return _Frontier(
        np.concatenate([p.rows for p in parts]),
        [np.concatenate([p.sums[i] for p in parts]) for i in range(5)],
        np.concatenate([p.v_next for p in parts]),
        at,
        np.concatenate([p.c_last for p in parts]),
        (r0, cg0, cc0),
    )


def _finish(
    metric: Metric,
    f: _Frontier,
    out: dict[str, np.ndarray],
    pads: tuple[float, float],
    checkpoint: bool | np.ndarray,
) -> _Frontier | None:
    """Write the topics of ``f`` that are finished at their last summed rank; return the
    others (None if none).

    A topic is finished when no user reads on (V(last + 1) = 0), when the metric has a
    closed-form tail for it there (looked for only where ``checkpoint``: a NaN from
    :meth:`~CWLMetric.tail` means none for that topic), or when the remaining mass, estimated
    as a geometric series at C(last), is at most ``TAIL_TOL``.
    """
    n = f.rows.size
    open_ = f.v_next > 0
    rest = np.full(n, np.nan)
    ask = open_ & np.broadcast_to(checkpoint, (n,))
    if ask.any():
        r = metric.tail(f.at if ask.all() else _subset(f.at, ask))
        if r is not None:
            rest[ask] = np.asarray(r, dtype=np.float64) * np.ones(int(ask.sum()))
    closed = open_ & ~np.isnan(rest)
    with np.errstate(divide="ignore", invalid="ignore"):
        converged = f.v_next / (1.0 - f.c_last) <= TAIL_TOL
    done = ~open_ | closed | converged
    rest = np.where(closed, rest, 0.0)
    _store_finished(out, f.rows, f.sums, f.v_next, open_, rest, done, f.at, pads)
    return None if done.all() else f.take(~done)


def _subset(a: CWLContext, keep: np.ndarray) -> CWLContext:
    """The topics ``keep`` (bool[n]) of a one-rank context (:func:`_at`)."""
    return CWLContext(
        rank=a.rank[keep],
        gain=a.gain[keep],
        cost=a.cost[keep],
        cum_gain=a.cum_gain[keep],
        cum_cost=a.cum_cost[keep],
        depth=a.depth[keep],
        pad_gain=a.pad_gain,
        pad_cost=a.pad_cost,
        compat=a.compat,
    )


def _cached_grid(
    cache: dict | None,
    gain: np.ndarray,
    cost: np.ndarray,
    depth: np.ndarray,
    H: int,
    pads: tuple[float, float],
    compat: bool,
) -> tuple[CWLContext, np.ndarray, np.ndarray]:
    """:func:`_grid` over ranks 1..H with padding ``pads = (pad_gain, pad_cost)``, reused
    from ``cache`` (keyed by the identity of ``gain`` and ``cost``) when one is given."""
    key = (id(gain), id(cost), H, *pads, compat)
    if cache is not None and key in cache:
        return cache[key]
    grid = _grid(gain, cost, depth, H, *pads, compat)
    if cache is not None:
        cache[key] = grid
    return grid


def _store_finished(
    out: dict[str, np.ndarray],
    todo: np.ndarray,
    acc: list[np.ndarray],
    V_next: np.ndarray,
    open_: np.ndarray,
    rest: np.ndarray,
    done: np.ndarray,
    x: CWLContext,
    pads: tuple[float, float],
) -> None:
    """Write the five measurements of the finished topics (``done``; rows ``todo`` of ``out``).

    ``acc`` holds the grid sums (sum V, sum V g, sum V c, sum L CG, sum L CC) so far; the tail
    adds ``V(H+1) rest`` to ED, that times the padding gain and cost to the V g and V c sums,
    and the users still reading at H+1 stop later with CG(H), CC(H) plus padding. A topic with
    an infinite tail gets ``ED = ETC = inf``, ``EU = ETU = 0``, ``EC = pad_cost``.
    """
    sv, svg, svc, etu, etc = acc
    pad_gain, pad_cost = pads
    inf = open_ & np.isinf(rest) & done
    fin = done & ~inf
    with np.errstate(invalid="ignore"):
        tail_v = np.where(open_ & ~np.isinf(rest), V_next * rest, 0.0)
    cg_h, cc_h = x.cum_gain[:, -1], x.cum_cost[:, -1]
    idx = todo[fin]
    ED = (sv + tail_v)[fin]
    out["ED"][idx] = ED
    out["EU"][idx] = (svg + pad_gain * tail_v)[fin] / ED
    out["EC"][idx] = (svc + pad_cost * tail_v)[fin] / ED
    out["ETU"][idx] = (
        etu + np.where(open_ & ~np.isinf(rest), cg_h * V_next, 0.0) + pad_gain * tail_v
    )[fin]
    out["ETC"][idx] = (
        etc + np.where(open_ & ~np.isinf(rest), cc_h * V_next, 0.0) + pad_cost * tail_v
    )[fin]
    idx = todo[inf]
    out["EU"][idx] = 0.0
    out["ETU"][idx] = 0.0
    out["EC"][idx] = pad_cost
    out["ETC"][idx] = np.inf
    out["ED"][idx] = np.inf


def weights(
    metric: Metric,
    gain: np.ndarray,
    cost: np.ndarray | None = None,
    *,
    pad_gain: float = 0.0,
    pad_cost: float = 1.0,
    horizon: int | None = None,
) -> dict[str, np.ndarray]:
    """C, V, W and L vectors of one ranking, over its ranks (or ``horizon`` ranks).

    W is normalised by the full (infinite) expected depth, so over a finite horizon it sums to
    less than one by exactly the mass of the tail.
    """
    g = np.asarray(gain, dtype=np.float64)[None, :]
    c = np.ones_like(g) if cost is None else np.asarray(cost, dtype=np.float64)[None, :]
    H = max(horizon or g.shape[1], metric.min_horizon(), g.shape[1])
    x = _grid(g, c, np.array([g.shape[1]]), H, pad_gain, pad_cost, False)[0]
    C = np.clip(metric.continuation(x), 0.0, 1.0)[0]
    V = np.cumprod(np.concatenate([[1.0], C[:-1]]))
    ED = score_metric(
        metric, g, c, np.array([g.shape[1]]), pad_gain=pad_gain, pad_cost=pad_cost
    ).ED[0]
    return {"C": C, "V": V, "W": V / ED, "L": V * (1.0 - C), "ED": np.array(ED)}


def weights_matrix(
    metric: Metric,
    gain: np.ndarray,
    cost: np.ndarray,
    depth: np.ndarray,
    *,
    pad_gain: float = 0.0,
    pad_cost: float = 1.0,
) -> np.ndarray:
    """W(i) of every rank of every topic's ranking: float64[T, D], 0 past each depth.

    ``W(i) = V(i) / ED`` with ``V(i) = prod_{j<i} C(j)`` and the exact (infinite-tail)
    expected depth ``ED`` of the topic, as :func:`weights` gives for one ranking; the tail
    past the ranking carries the rest, ``1 - sum_i W(i)``. Gains and costs as
    :func:`score_metric` takes them.
    """
    g = np.asarray(gain, dtype=np.float64)
    c = np.asarray(cost, dtype=np.float64)
    dep = np.asarray(depth, dtype=np.int64)
    T, D = g.shape
    if T == 0 or D == 0:
        return np.zeros((T, D))
    H = max(D, metric.min_horizon())
    x = _grid(g, c, dep, H, pad_gain, pad_cost, False)[0]
    C = np.clip(metric.continuation(x), 0.0, 1.0)
    V = np.cumprod(np.concatenate([np.ones((T, 1)), C[:, : D - 1]], axis=1), axis=1)
    ED = score_metric(metric, g, c, dep, pad_gain=pad_gain, pad_cost=pad_cost).ED
    with np.errstate(invalid="ignore", divide="ignore"):
        W = V / np.asarray(ED, dtype=np.float64)[:, None]
    return np.where(np.arange(D)[None, :] < dep[:, None], W, 0.0)


def trigamma(x: npt.ArrayLike) -> np.ndarray:
    """psi_1(x) = sum_{m>=0} 1/(x+m)^2 for x > 0 (recurrence to x >= 16, then the asymptotic
    series; relative error below 1e-15)."""
    x = np.array(x, dtype=np.float64, copy=True)
    acc = np.zeros_like(x)
    small = x < 16.0
    while small.any():
        acc = np.where(small, acc + 1.0 / (x * x), acc)
        x = np.where(small, x + 1.0, x)
        small = x < 16.0
    inv = 1.0 / x
    inv2 = inv * inv
    # 1/x + 1/(2x^2) + 1/(6x^3) - 1/(30x^5) + 1/(42x^7) - 1/(30x^9) + 5/(66x^11)
    series = (
        inv
        + 0.5 * inv2
        + inv
        * inv2
        * (1 / 6 + inv2 * (-1 / 30 + inv2 * (1 / 42 + inv2 * (-1 / 30 + inv2 * 5 / 66))))
    )
    return acc + series


def trigamma_tail(a: npt.ArrayLike) -> np.ndarray:
    """``a^2 * sum_{m>=0} 1/(a+m)^2 = a^2 psi_1(a)``: the tail of C(j) = ((j+b-1)/(j+b))^2."""
    a = np.asarray(a, dtype=np.float64)
    return a * a * trigamma(a)


def geometric_tail(c: np.ndarray | float) -> np.ndarray:
    """``1 / (1 - c)`` (inf when c = 1): the tail of a constant continuation c."""
    c = np.asarray(c, dtype=np.float64)
    with np.errstate(divide="ignore"):
        return np.where(c >= 1.0, np.inf, 1.0 / (1.0 - np.minimum(c, 1.0)))


def logistic(z: np.ndarray) -> np.ndarray:
    """1 / (1 + e^-z), computed without overflow for any z."""
    z = np.asarray(z, dtype=np.float64)
    e = np.exp(-np.abs(z))
    return np.where(z >= 0, 1.0 / (1.0 + e), e / (1.0 + e))
