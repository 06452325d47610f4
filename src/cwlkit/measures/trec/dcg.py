"""Gain measures: ``ndcg``, ``dcg``, ``ideal_dcg``, ``ndcg_cut``, ``ndcg_rel``, ``Rndcg``,
``G``, ``rbp``.

Gains: a judged document's gain is its qrels value, or the value given for that level with
``level=gain`` parameters (``-m ndcg.1=3,2=9``); documents not in the qrels or with a
negative value have gain 0. ``-l`` is not used. The ideal ranking holds the positive gains of
all judged documents of the topic, in decreasing order, and is never truncated at num_ret
(``-M`` does not shorten it). trec_eval sorts gains with an integer comparison, so
fractional gains that differ by less than 1 can come out of order; cwlkit sorts them exactly
(the intended ideal ranking).

- ``dcg = sum_i g_i / log2(i + 1)`` over the whole ranking (i the 1-based rank);
  ``ideal_dcg`` the same over the ideal ranking; ``ndcg = dcg / ideal_dcg`` (0 if no ideal).
- ``ndcg_cut_k``: DCG and ideal DCG both truncated at k; gains are the qrels values
  (parameters are cutoffs, not gains).
- ``ndcg_rel``: nDCG averaged over the relevant documents (gain > 0): at each retrieved one
  the DCG so far over the ideal DCG so far; unretrieved ones count DCG(end)/IDCG(all).
- ``Rndcg``: nDCG averaged at the breakpoints of the ideal gain sequence (where the ideal gain
  changes, including its end), plus the end of the ranking when it is more than one past the
  end of the ideal list (trec_eval's loop); 0 when R = 0.
- ``G``: sum over retrieved documents with gain g_i != 0 of
  ``g_i / log2(2 + C_i - S_i)``, with ``S_i`` the gain retrieved so far (inclusive) and
  ``C_i = sum_{m <= i} max(ideal_m, 1)``, divided by the total ideal gain.
- ``rbp`` (10.0): ``(1 - p) sum_i g_i p^(i-1)``, p = 0.9 unless ``p=``; when a gain of the
  topic's levels 0..max (or a parameter) lies outside [0, 1] all gains are min-max rescaled
  to [0, 1]. trec_eval 10.0 reads ``min`` and ``max`` uninitialised here; cwlkit uses the
  minimum and maximum gain, which is what the code intends.
"""

from __future__ import annotations

import numpy as np

from ._ctx import Ctx, gain_table, masked_seqsum, powers, seqsum
from .one_topic import One
from .set import _div


def _pairs(params) -> list[tuple[str, float]]:
    return list(params or [])


def _disc(n: int, offset: float = 1.0) -> np.ndarray:
    """float64[n], ``log2(rank + offset)`` for ranks 1..n (read-only): the first n of one
    table per offset, which only grows (its values, once made, never change), so that the
    batch path and the one-topic kernels (:func:`disc_list`) divide by the same bits."""
    got = _DISC.get(offset)
    if got is None or got.size < n:
        _grow(n, offset)
        got = _DISC[offset]
    return got[:n]


def disc_list(n: int, offset: float = 1.0) -> list[float]:
    """The table of :func:`_disc` as a list of at least ``n`` floats (the one-topic
    kernels index it: no numpy call per topic)."""
    got = _DISC_LIST.get(offset)
    if got is None or len(got) < n:
        _grow(n, offset)
        got = _DISC_LIST[offset]
    return got


def _grow(n: int, offset: float) -> None:
    """Extend the table of ``offset`` to at least ``n`` ranks (doubling; at least 1024): the
    ranks it lacks are computed and appended, the others kept as they are."""
    old = _DISC.get(offset)
    have = 0 if old is None else old.size
    size = max(n, 2 * have, 1024)
    tail = np.log2(np.arange(have + 1, size + 1, dtype=np.float64) + offset)
    table = tail if old is None else np.concatenate((old, tail))
    table.setflags(write=False)
    if offset not in _DISC and len(_DISC) >= 64:
        _DISC.clear()
        _DISC_LIST.clear()
    _DISC[offset] = table
    _DISC_LIST[offset] = table.tolist()


_DISC: dict[float, np.ndarray] = {}
_DISC_LIST: dict[float, list[float]] = {}


def _dcg_parts(ctx: Ctx, params) -> tuple[np.ndarray, np.ndarray]:
    table = ctx.gain_table(_pairs(params))
    g = ctx.gains(table)
    ideal = ctx.ideal(table)
    dcg = seqsum(g / _disc(ctx.D)[None, :])
    idcg = seqsum(ideal / _disc(ideal.shape[1])[None, :])
    return dcg, idcg


def ndcg(ctx: Ctx, params) -> list[np.ndarray]:
    """Normalised DCG over the whole ranking."""
    dcg, idcg = _dcg_parts(ctx, params)
    return [np.where(idcg > 0, _div(dcg, idcg), 0.0)]


def dcg(ctx: Ctx, params) -> list[np.ndarray]:
    """DCG over the whole ranking."""
    return [_dcg_parts(ctx, params)[0]]


def ideal_dcg(ctx: Ctx, params) -> list[np.ndarray]:
    """DCG of the ideal ranking."""
    return [_dcg_parts(ctx, params)[1]]


def ndcg_cut(ctx: Ctx, cutoffs, table: dict[int, float] | None = None) -> list[np.ndarray]:
    """nDCG at each cutoff, gains = qrels values (trec_eval's ``ndcg_cut``), or the gain
    ``table`` of ``ndcg``'s parameters (not trec_eval's: ir_measures' ``nDCG(gains=...)@k``,
    ``ndcg_cut`` on the qrels relabelled by the table)."""
    # (cumulative sums run left to right: the first w columns are the same for any width)
    top = max((int(k) for k in cutoffs), default=0)
    w = min(ctx.D, top)
    g = ctx.gains_to(table or {}, w)
    ideal = ctx.ideal(table or {})
    ideal = ideal[:, : min(ideal.shape[1], top)]  # (the ideal may go past the run's depth)
    cd = np.cumsum(g / _disc(w)[None, :], axis=1)
    ci = np.cumsum(ideal / _disc(ideal.shape[1])[None, :], axis=1)
    out = []
    for k in cutoffs:
        a = ctx.cut(cd, k)
        kk = min(int(k), ideal.shape[1])
        b = ci[:, kk - 1] if kk > 0 else np.zeros(ctx.T)
        out.append(np.where(b > 0, _div(a, b), 0.0))
    return out


def _cum_padded(
    ctx: Ctx, params, width: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Gains, cumulative DCG and cumulative ideal DCG, padded to ``width`` ranks (read-only
    views).

    Computed once per gain table at the widest width ``ndcg_rel`` and ``Rndcg`` ask for
    (``max(D, L) + 2``) and memoised on ``ctx``: a narrower request gets the first ``width``
    columns, which are exactly the narrower computation (cumulative sums run left to right).
    """
    table = ctx.gain_table(_pairs(params))
    key = ("cum_padded", tuple(sorted(table.items())))
    got = ctx._memo.get(key)
    if got is None:
        ideal_raw = ctx.ideal(table)
        full = max(ctx.D, int((ideal_raw > 0).sum(axis=1).max(initial=0))) + 2
        g = np.zeros((ctx.T, full))
        g[:, : ctx.D] = ctx.gains(table)
        ideal = np.zeros((ctx.T, full))
        ideal[:, : ideal_raw.shape[1]] = ideal_raw
        disc = _disc(full)[None, :]
        got = (g, ideal, np.cumsum(g / disc, axis=1), np.cumsum(ideal / disc, axis=1))
        for a in got:
            a.flags.writeable = False
        ctx._memo[key] = got
    if width > got[0].shape[1]:  # pragma: no cover - callers never ask for more
        raise ValueError(f"width {width} > {got[0].shape[1]}")
    g, ideal, cum, cum_ideal = (a[:, :width] for a in got)
    return g, ideal, cum, cum_ideal


def _ratio(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """``a / b``, NaN or infinite where ``b`` is 0 (no warning)."""
    with np.errstate(divide="ignore", invalid="ignore"):
        return a / b


def ndcg_rel(ctx: Ctx, params) -> list[np.ndarray]:
    """nDCG averaged over the relevant documents."""
    table = ctx.gain_table(_pairs(params))
    L = (ctx.ideal(table) > 0).sum(axis=1)
    width = max(ctx.D, int(L.max(initial=0))) + 1
    g, ideal, cd, ci = _cum_padded(ctx, params, width)
    pos = g > 0
    s = masked_seqsum(pos, lambda r, c: _ratio(cd[r, c], ci[r, c]))
    nrr = pos.sum(axis=1)
    end = np.arange(ctx.T)
    last = np.maximum(np.maximum(ctx.depth, L) - 1, 0)
    with np.errstate(divide="ignore", invalid="ignore"):  # (multiplied, then divided, as
        s = s + (L - nrr) * cd[end, last] / ci[end, last]  # trec_eval does: the same bits)
    s = np.nan_to_num(s, nan=0.0)
    return [np.where((s > 0) & (L > 0), s / np.maximum(L, 1), 0.0)]


def Rndcg(ctx: Ctx, params) -> list[np.ndarray]:
    """nDCG averaged at the ideal gain breakpoints."""
    table = ctx.gain_table(_pairs(params))
    L = (ctx.ideal(table) > 0).sum(axis=1)
    width = max(ctx.D, int(L.max(initial=0))) + 2
    g, ideal, cd, ci = _cum_padded(ctx, params, width)
    # breakpoints b in 1..L: ideal[b] != ideal[b-1] (ideal[L] = 0); term = cd[b-1] / ci[b-1]
    change = np.zeros((ctx.T, width), bool)
    change[:, 1:] = ideal[:, 1:] != ideal[:, :-1]
    b = np.arange(width)[None, :]
    change &= (b >= 1) & (b <= L[:, None])
    ok = change & (np.roll(ci, 1, axis=1) > 0)  # (change is false in column 0)
    s = masked_seqsum(ok, lambda r, c: _ratio(cd[r, c - 1], ci[r, c - 1]))
    cnt = ok.sum(axis=1).astype(np.float64)
    extra = ctx.depth > L + 1
    rows = np.arange(ctx.T)
    with np.errstate(divide="ignore", invalid="ignore"):
        fin = cd[rows, np.maximum(ctx.depth - 1, 0)] / ci[rows, np.maximum(L - 1, 0)]
    add = extra & (L > 0)
    s = s + np.where(add, fin, 0.0)
    cnt = cnt + add
    val = _div(s, cnt)
    return [np.where(ctx.num_rel > 0, val, 0.0)]


def G(ctx: Ctx, params) -> list[np.ndarray]:
    """Buckley's normalised gain G."""
    table = ctx.gain_table(_pairs(params))
    ideal = ctx.ideal(table)
    total_ideal = seqsum(ideal)
    g = ctx.gains(table)
    width = ctx.D
    idp = np.zeros((ctx.T, width))
    w = min(width, ideal.shape[1])
    idp[:, :w] = ideal[:, :w]
    cost = np.cumsum(np.maximum(idp, 1.0), axis=1)
    got = np.cumsum(g, axis=1)

    def term(r: np.ndarray, c: np.ndarray) -> np.ndarray:
        with np.errstate(divide="ignore", invalid="ignore"):
            return g[r, c] / np.log2(2.0 + cost[r, c] - got[r, c])

    s = masked_seqsum((g != 0) & ctx.valid, term)
    return [_div(s, total_ideal)]


def _unlisted_bounds(maxlvl: np.ndarray, keys: list[int]) -> tuple[np.ndarray, np.ndarray]:
    """Per topic, the least and the greatest level in ``0..maxlvl`` that has no parameter
    (its gain is itself), as floats; +inf and -inf where there is none. Computed from the
    few parameter levels, not by listing every level (a label of 1e10 is 1e10 levels)."""
    free_lo = 0
    while free_lo in keys:
        free_lo += 1
    free_hi = maxlvl.copy()
    for _ in range(len(keys)):  # (each step passes at most one parameter level)
        free_hi = np.where(np.isin(free_hi, keys), free_hi - 1, free_hi)
    lo = np.where(free_lo <= maxlvl, float(free_lo), np.inf)
    hi = np.where(free_hi >= 0, free_hi.astype(np.float64), -np.inf)
    return lo, hi


def _rbp_gains(ctx: Ctx, params) -> tuple[np.ndarray, float]:
    p = 0.9
    for name, value in _pairs(params):
        if name == "p":
            p = float(value)
    table = ctx.gain_table(_pairs(params))
    q = ctx.qrel_levels
    with np.errstate(invalid="ignore"):
        judged = q >= 0
    maxlvl = np.where(judged, q, -1).max(axis=1, initial=-1).astype(np.int64)  # -1: no levels
    # gains of the topic: its levels 0..maxlvl (a level's gain is its parameter, else the
    # level itself), plus every parameter
    param_vals = np.array(list(table.values()), dtype=np.float64)
    lo, hi = _unlisted_bounds(maxlvl, sorted(int(k) for k in table))
    if param_vals.size:
        lo = np.minimum(lo, param_vals.min())
        hi = np.maximum(hi, param_vals.max())
    g = ctx.gains(table)
    # only listed levels get a gain: levels above the topic's max and not parameters give 0
    c = ctx.codes
    listed = (c >= 0) & (c <= maxlvl[:, None])
    for k in table:
        listed |= c == k
    g = np.where(listed & ctx.valid, g, 0.0)
    rescale = (lo < 0) | (hi > 1)
    with np.errstate(divide="ignore", invalid="ignore"):
        scaled = (g - lo[:, None]) / (hi - lo)[:, None]
    g = np.where(rescale[:, None] & listed & ctx.valid, scaled, g)
    return g, p


def rbp(ctx: Ctx, params) -> list[np.ndarray]:
    """Rank-biased precision with trec_eval's gain rescaling."""
    g, p = _rbp_gains(ctx, params)
    w = powers(p, ctx.D)[: ctx.D]
    return [(1.0 - p) * seqsum(g * w[None, :])]


# ---- one topic (see .one_topic): the same operations, on Python numbers ---------------------


def _gains_one(o: One, table: dict[int, float], width: int) -> list[float]:
    """:meth:`Ctx.gains` of one topic's first ``width`` ranks."""
    if not table:
        return [float(c) if c >= 0 else 0.0 for c in o.codes[:width]]
    return [table[c] if c in table else float(c) if c >= 0 else 0.0 for c in o.codes[:width]]


def _ideal_one(o: One, table: dict[int, float]) -> list[float]:
    """The cumulated DCG of one topic's ideal ranking (:meth:`Ctx.ideal`: its positive
    gains, descending), rank by rank, added left to right (kept with its judgements)."""
    key = ("ideal", tuple(sorted(table.items())))
    got = o.judged.memo.get(key)
    if got is None:
        if table:
            gains = [table.get(int(x), x) for x in o.levels if x >= 0]  # (levels are whole)
            ideal = sorted((g for g in gains if g > 0), reverse=True)
        else:
            ideal = [x for x in o.levels if x > 0]  # (levels are sorted descending)
        disc = disc_list(len(ideal))
        got, s = [], 0.0
        for i, g in enumerate(ideal):
            s += g / disc[i]
            got.append(s)
        o.judged.memo[key] = got
    return got


def _at(cumulated: list[float], k: int) -> float:
    """The ``k``-th value of a cumulated DCG (the last past its end; 0 at k = 0)."""
    if k <= 0 or not cumulated:
        return 0.0
    return cumulated[min(k, len(cumulated)) - 1]


def _dcg_one(gains: list[float], n: int) -> float:
    """``sum gains[i] / log2(i + 2)`` over the first ``n``, added left to right."""
    disc = disc_list(n)
    s = 0.0
    for i in range(min(n, len(gains))):
        s += gains[i] / disc[i]
    return s


def ndcg_cut_one(o: One, cutoffs, table: dict[int, float] | None = None) -> list[float]:
    """:func:`ndcg_cut` of one topic."""
    table = table or {}
    top = max((int(k) for k in cutoffs), default=0)
    g = _gains_one(o, table, top)
    ideal = _ideal_one(o, table)
    out = []
    for k in cutoffs:
        b = _at(ideal, int(k))
        out.append(_dcg_one(g, int(k)) / b if b > 0 else 0.0)
    return out


def ndcg_one(o: One, params) -> list[float]:
    """:func:`ndcg` of one topic."""
    table = gain_table(_pairs(params))
    ideal = _ideal_one(o, table)
    b = ideal[-1] if ideal else 0.0
    a = _dcg_one(_gains_one(o, table, o.depth), o.depth)
    return [a / b if b > 0 else 0.0]
