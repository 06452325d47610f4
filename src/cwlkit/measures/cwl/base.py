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

``max_depth`` reproduces cwl_eval 1.0.12 instead: the ranking is cut or padded to exactly n
ranks, W is normalised over those n ranks and nothing is added for the tail.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from ...errors import CwlkitError, ParamError
from ..base import Measure, format_value, measure

TAIL_TOL = 1e-12
MAX_HORIZON = 1 << 22
#: topics x ranks per block when the grid is extended past the runs (bounds the memory)
BLOCK_CELLS = 1 << 20
#: the most cells of a grid padded past the batch's depth (a cut-off or ``max_depth`` larger
#: than the rankings): 2 GiB an array, beyond which the request is refused, not attempted
MAX_PADDED_CELLS = 1 << 28


def register_cwl(cls: type) -> type:
    """Register a C/W/L metric in the registry, with its cwl_eval class name as the
    ``cwl_eval`` anchor name (what cwl_eval's metrics files and ``-M`` spell)."""
    from ..registry import register

    if cls.cwl_class:
        cls.anchors = {**cls.anchors, "cwl_eval": (cls.cwl_class,)}
    return register(cls)


@dataclass
class CWLContext:
    """What a continuation function sees, for all topics at once.

    Attributes
    ----------
    rank : numpy.ndarray
        float64[1, H], ranks 1..H.
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
    def horizon(self) -> int:
        """The last rank H of the grid (a block past the runs starts after rank 1)."""
        return int(self.rank[0, -1])


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


@measure
class CWLMetric(Measure):
    """Base class of C/W/L metrics: subclasses implement :meth:`continuation`.

    Class attributes
    ----------------
    cwl_class : str
        cwl_eval's class name (``INSTCWLMetric``), accepted in metrics files.
    cwl_params : tuple of (str, str, str)
        cwl_eval's constructor parameters in order: (cwl keyword, our field, cwl default as
        written in cwl_eval's source, used to print its names).
    cwl_format : str
        cwl_eval's printed name, formatted with the cwl keywords (``INST-T={T}``).
    gain_domain : tuple of float or None
        Gains the metric requires (INST and the ERR-inspired metrics need [0, 1]).
    upper_tail : bool
        Whether the upper bound (residuals) fills ranks past the run with the maximum gain.
    """

    cwl_class: ClassVar[str] = ""
    cwl_params: ClassVar[tuple[tuple[str, str, str], ...]] = ()
    cwl_format: ClassVar[str] = ""
    gain_domain: ClassVar[tuple[float, float] | None] = None
    upper_tail: ClassVar[bool] = True
    normalise_by_ideal: ClassVar[bool] = False
    show_defaults: ClassVar[bool] = True

    # --- what a metric states -------------------------------------------------------------
    def continuation(self, x: CWLContext) -> np.ndarray:
        """C(i) for every topic and rank, float64[T, H] in [0, 1]."""
        raise NotImplementedError  # pragma: no cover

    def cwl_form(self) -> tuple[CWLMetric, str | None]:
        return self, self.gain_spec()

    def gain_spec(self) -> str | None:
        """The gain mapping this metric fixes for itself (``RBP(rel=1)``: ``binary:1``), or None
        to use the evaluation's ``gain`` option."""
        return None

    def min_horizon(self) -> int:
        """Ranks the grid must cover beyond which the tail is simple: the cutoff ``k`` of a
        metric that has one (P@k, SDCG@k...), else 1."""
        return int(getattr(self, "k", None) or 1)

    def tail(self, x: CWLContext) -> np.ndarray | None:
        """Remaining expected depth from rank H+1, per topic.

        ``sum_{m>=0} prod_{j=H+1}^{H+m} C(j)`` when every rank past H has gain
        ``x.pad_gain`` and cost ``x.pad_cost`` (``inf`` if it diverges), or None when there
        is no closed form (the engine then extends the grid).
        """
        return None

    # --- cwl_eval names ---------------------------------------------------------------------
    def cwl_name(self, written: dict[str, str] | None = None) -> str:
        """cwl_eval's printed name; ``written`` holds parameter texts as the user wrote them."""
        if not self.cwl_format:
            return self.name
        values = {}
        for cwl_kw, fld, default in self.cwl_params:
            text = (written or {}).get(fld)
            if text is None:
                v = getattr(self, fld)
                dv = _literal(default)
                text = default if (dv is not None and float(v) == dv) else format_value(v)
                values[cwl_kw] = text
            else:
                values[cwl_kw] = _cwl_str(text)
        return self.cwl_format.format(**values)

    # --- Measure API --------------------------------------------------------------------
    def compute(self, batch) -> np.ndarray:  # type: ignore[override]
        """EU for every topic, with identity gains, unit costs and no depth cut."""
        from .evaluate import cwl_scores

        return cwl_scores(self, batch).EU


def _literal(text: str) -> float | None:
    try:
        return float(text)
    except ValueError:
        return None


def _cwl_str(text: str) -> str:
    """How cwl_eval prints an argument: ``str(float(t))`` if it has a '.', else ``str(int(t))``."""
    t = text.strip()
    try:
        if "." in t:
            return str(float(t))
        return str(int(t))
    except ValueError:
        try:
            return str(float(t))
        except ValueError:
            return t


# --------------------------------------------------------------------------------------------
# the engine


def _grid(
    gain: np.ndarray,
    cost: np.ndarray,
    depth: np.ndarray,
    H: int,
    pad_gain: float,
    pad_cost: float,
    compat: bool,
) -> CWLContext:
    T, D = gain.shape
    if H > D and T * H > MAX_PADDED_CELLS:
        raise ParamError(
            f"a ranking of {H:,} ranks for {T:,} topics (a cut-off or depth past the run's "
            f"end) needs {T * H * 8 / 2**30:,.1f} GiB an array; use a smaller one"
        )
    g = np.full((T, H), pad_gain)
    c = np.full((T, H), pad_cost)
    w = min(D, H)
    inside = np.arange(w)[None, :] < depth[:, None]
    g[:, :w] = np.where(inside, gain[:, :w], pad_gain)
    c[:, :w] = np.where(inside, cost[:, :w], pad_cost)
    return CWLContext(
        rank=np.arange(1, H + 1, dtype=np.float64)[None, :],
        gain=g,
        cost=c,
        cum_gain=np.cumsum(g, axis=1),
        cum_cost=np.cumsum(c, axis=1),
        depth=np.minimum(depth, H),
        pad_gain=pad_gain,
        pad_cost=pad_cost,
        compat=compat,
    )


def _padding_block(
    cg: np.ndarray,
    cc: np.ndarray,
    depth: np.ndarray,
    H: int,
    width: int,
    pad_gain: float,
    pad_cost: float,
) -> CWLContext:
    """Ranks H+1 .. H+width of topics whose runs ended by rank H: all padding, with the
    cumulative gain and cost carried over from rank H."""
    n = cg.size
    steps = np.arange(1, width + 1, dtype=np.float64)[None, :]
    return CWLContext(
        rank=np.arange(H + 1, H + width + 1, dtype=np.float64)[None, :],
        gain=np.full((n, width), pad_gain),
        cost=np.full((n, width), pad_cost),
        cum_gain=cg[:, None] + pad_gain * steps,
        cum_cost=cc[:, None] + pad_cost * steps,
        depth=depth,
        pad_gain=pad_gain,
        pad_cost=pad_cost,
    )


def _dot_rows(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Row-wise dot products, sum_j a[t, j] b[t, j], without a temporary [T, H] product."""
    return np.einsum("ij,ij->i", a, b)


def _sums(C: np.ndarray, x: CWLContext, v0: np.ndarray | None = None) -> tuple[np.ndarray, ...]:
    """V = prod C and the engine's five sums over the grid, per topic.

    Returns ``(sum V, sum V g, sum V c, sum L CG, sum L CC, V(H+1))``, V starting at ``v0``
    (1 by default) on the grid's first rank. Columns past the point
    where V is exactly 0 for every topic (every user has stopped: P@k, SDCG@k, RR..., or V has
    underflowed: RBP with a small p) contribute exactly 0 and are skipped.
    """
    n, H = C.shape
    stop = ~C.any(axis=0)
    m = int(np.argmax(stop)) + 1 if stop.any() else H  # V is 0 for every topic past column m
    V = np.empty((n, m))
    V[:, 0] = 1.0
    if m > 1:
        np.cumprod(C[:, : m - 1], axis=1, out=V[:, 1:])
    if v0 is not None:
        V *= v0[:, None]
    if m > 1 and not V[:, -1].any():
        m = int(np.flatnonzero(V.any(axis=0))[-1]) + 1
        V = V[:, :m]
    C = C[:, :m]
    if m < H:
        v_next = np.zeros(n)  # V(m+1) = V(m) C(m) is 0 for every topic, by the choice of m
    else:
        v_next = V[:, -1] * C[:, -1]
    L = V * (1.0 - C)
    return (
        V.sum(axis=1),
        _dot_rows(V, x.gain[:, :m]),
        _dot_rows(V, x.cost[:, :m]),
        _dot_rows(L, x.cum_gain[:, :m]),
        _dot_rows(L, x.cum_cost[:, :m]),
        v_next,
    )


def measure(
    metric: CWLMetric,
    gain: np.ndarray,
    cost: np.ndarray,
    depth: np.ndarray,
    *,
    pad_gain: float = 0.0,
    pad_cost: float = 1.0,
    max_depth: int | None = None,
    cache: dict | None = None,
) -> CWLScores:
    """The five measurements of ``metric`` for every topic.

    Parameters
    ----------
    metric : CWLMetric
    gain, cost : numpy.ndarray
        float64[T, D]: gain and cost of the document at each rank (values past ``depth`` are
        ignored).
    depth : numpy.ndarray
        int64[T], length of each ranking.
    pad_gain, pad_cost : float
        Gain and cost of every rank past the end of the ranking.
    max_depth : int, optional
        cwl_eval's mode: cut or pad every ranking to exactly ``max_depth`` ranks, normalise W
        over them and ignore the tail.
    cache : dict, optional
        Reuse padded grids across metrics scored on the same ``gain`` and ``cost`` arrays.
    """

    T = gain.shape[0]
    depth = np.asarray(depth, dtype=np.int64)
    pads = (pad_gain, pad_cost)
    if max_depth is not None:
        x = _cached_grid(cache, gain, cost, depth, max_depth, pads, True)
        ED, svg, svc, etu, etc, _ = _sums(np.clip(metric.continuation(x), 0.0, 1.0), x)
        return CWLScores(EU=svg / ED, ETU=etu, EC=svc / ED, ETC=etc, ED=ED)

    out = {k: np.zeros(T) for k in CWLScores.COLUMNS}
    todo = np.arange(T)
    H = max(int(gain.shape[1]), int(metric.min_horizon()), 1)
    x = _cached_grid(cache, gain, cost, depth, H, pads, False)
    C = np.clip(metric.continuation(x), 0.0, 1.0)
    *acc, V_next = _sums(C, x)
    while True:
        open_, rest, done = _tail_rest(metric, x, C, V_next, H)
        _store_finished(out, todo, acc, V_next, open_, rest, done, x, pads)
        if done.all():
            break
        # extend the open topics by a block of padding ranks, carrying V, CG and CC over
        keep = ~done
        todo = todo[keep]
        acc = [s[keep] for s in acc]
        V_next = V_next[keep]
        cg_h, cc_h = x.cum_gain[:, -1], x.cum_cost[:, -1]
        block = min(H, max(1024, BLOCK_CELLS // todo.size))
        x = _padding_block(cg_h[keep], cc_h[keep], depth[todo], H, block, pad_gain, pad_cost)
        C = np.clip(metric.continuation(x), 0.0, 1.0)
        *b_acc, V_next = _sums(C, x, V_next)
        acc = [s + b for s, b in zip(acc, b_acc, strict=True)]
        H += block
    return CWLScores(**out)


def _cached_grid(
    cache: dict | None,
    gain: np.ndarray,
    cost: np.ndarray,
    depth: np.ndarray,
    H: int,
    pads: tuple[float, float],
    compat: bool,
) -> CWLContext:
    """:func:`_grid` over ranks 1..H with padding ``pads = (pad_gain, pad_cost)``, reused
    from ``cache`` (keyed by the identity of ``gain`` and ``cost``) when one is given."""
    key = (id(gain), id(cost), H, *pads, compat)
    if cache is not None and key in cache:
        return cache[key]
    x = _grid(gain, cost, depth, H, *pads, compat)
    if cache is not None:
        cache[key] = x
    return x


def _tail_rest(
    metric: CWLMetric, x: CWLContext, C: np.ndarray, V_next: np.ndarray, H: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """What lies past the grid ``x`` (last rank H) for each of its topics.

    Returns ``(open_, rest, done)``: whether V(H+1) > 0; the remaining expected depth from
    H+1 per unit of V(H+1) (the metric's closed form, 0 where none or not open); whether the
    topic is finished (closed form, not open, or the remaining mass, estimated as a geometric
    series at the last C, is at most ``TAIL_TOL``). Raises :class:`CwlkitError` when a
    topic without closed form is still open at ``MAX_HORIZON``.
    """
    n = V_next.size
    open_ = V_next > 0
    rest = np.zeros(n)
    done = np.ones(n, dtype=bool)
    if open_.any():
        r = metric.tail(x)
        if r is None:
            # no closed form: stop where the remaining mass is negligible, else extend
            if H >= MAX_HORIZON:
                raise CwlkitError(
                    f"{metric.name}: the user model does not converge within {MAX_HORIZON} ranks"
                )
            # remaining mass, estimated as a geometric series at the last C
            with np.errstate(divide="ignore"):
                left = V_next / (1.0 - C[:, -1])
            done = ~open_ | (left <= TAIL_TOL)
        else:
            rest = np.where(open_, np.asarray(r, dtype=np.float64) * np.ones(n), 0.0)
    return open_, rest, done


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
    metric: CWLMetric,
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
    x = _grid(g, c, np.array([g.shape[1]]), H, pad_gain, pad_cost, False)
    C = np.clip(metric.continuation(x), 0.0, 1.0)[0]
    V = np.cumprod(np.concatenate([[1.0], C[:-1]]))
    ED = measure(metric, g, c, np.array([g.shape[1]]), pad_gain=pad_gain, pad_cost=pad_cost).ED[0]
    return {"C": C, "V": V, "W": V / ED, "L": V * (1.0 - C), "ED": np.array(ED)}


def trigamma(x: np.ndarray) -> np.ndarray:
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


def trigamma_tail(a: np.ndarray) -> np.ndarray:
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


def cwl_fields(cls: type[CWLMetric]) -> list[dataclasses.Field]:
    """The dataclass fields of a metric."""
    return list(dataclasses.fields(cls))
