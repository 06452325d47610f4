"""Diversity and intent-aware measures, as the TREC Web Track's ndeval (version 4.5) computes them.

A topic has subtopics (intents) s = 1..S; a document is relevant to a subtopic when its
diversity qrels label for that subtopic is at least ``rel`` (default 1: ndeval's labels are
binary, every positive grade counts 1). Only the S subtopics with at least one relevant
document count (ndeval's "actual subtopics"). With c_s(i) the number of documents relevant to
s ranked above rank i, the novelty-biased gain of the document at rank i is

    g(i) = sum_{s : d_i relevant to s} (1 - alpha)^{c_s(i)}

(added over subtopics in ndeval's order: subtopic ids that are numbers, numerically). Then,
for a cutoff k and ``D`` the run's length (every sum stops at the run's end):

* ``alpha_DCG@k  = sum_{i<=k} g(i) / log2(i + 1)  /  sum_{i<=k} S (1-alpha)^{i-1} / log2(i + 1)``
* ``ERR_IA@k     = sum_{i<=k} g(i) / i            /  sum_{i<=k} S (1-alpha)^{i-1} / i``
  (ndeval's intent-aware ERR with every subtopic equally likely and r = alpha for a relevant
  document: the factor alpha cancels in the ratio)
* ``alpha_nDCG@k``, ``nERR_IA@k``: the same divided by the value of the ideal ranking
* ``NRBP         = (1 - (1-alpha) beta) / S  *  sum_{i<=D} g(i) beta^{i-1}``, ``nNRBP`` the
  same divided by the ideal ranking's
* ``AP_IA        = 1/S sum_s 1/R_s sum_{i: d_i relevant to s} c_s(i+1) / i`` (R_s the relevant
  documents of s in the qrels; the mean over subtopics of each subtopic's AP)
* ``P_IA@k       = (number of (document, subtopic) pairs relevant in the top k) / (k S)``
* ``StRecall@k   = (number of subtopics with a relevant document in the top k) / S``

The first two are "collection-independent": the denominator is an "ideal ideal" ranking in
which every document is relevant to every subtopic. The ideal ranking of the normalised forms
is ndeval's greedy approximation (finding the best is NP-hard): rank by rank, take the
unranked judged document with the largest g, ties to the greatest document id in byte order.

ndeval's own conventions, kept for values identical to it and to pyndeval:

* ``alpha_DCG@1`` and ``ERR_IA@1`` are not normalised (ndeval's normalising loop starts at
  rank 2): they are g(1); the normalised ``alpha_nDCG@1`` and ``nERR_IA@1`` are unaffected.
* A topic without any relevant judgement (S = 0) scores 0 on every measure. ndeval divides
  0 by 0 for its nNRBP (NaN, printed ``-nan``, which then poisons its mean): cwlkit scores it
  0 like nDCG, and ``cwlkit ndeval`` prints ndeval's ``-nan``. Likewise every nNRBP when
  1 - (1 - alpha) beta = 0 (alpha = 0, beta = 1: NRBP is 0 for every ranking).
* Unjudged documents and documents judged non-relevant to every subtopic have g = 0; the
  normalised alpha-nDCG and nERR-IA are 0 when the run's top k have no relevant document.
* Cutoffs are not limited to ndeval's 20; past a run's end, alpha-DCG and ERR-IA keep their
  numerator and the "ideal ideal" keeps growing, as ndeval's do up to rank 20.
* Ties in score are ordered by the batch (score descending, document id descending, as
  trec_eval and ``ndeval -traditional``); ndeval by default ranks by the rank column, and
  pyndeval (and so ir_measures) breaks ties by document id ascending.

Every value is the same double as ndeval's: sums are taken in ndeval's order and powers by
repeated multiplication, so equality holds bit for bit, not just to 1e-12.

The measures need diversity qrels (:func:`cwlkit.read_diversity_qrels`,
:func:`cwlkit.as_diversity_qrels`); on ordinary qrels they raise a :class:`CwlkitError`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, ClassVar, cast

import numpy as np
import pyarrow as pa

from ..errors import CwlkitError
from ..io.text import from_numpy, from_strings, sort_rank, to_numpy
from ..support import compute as pc
from .base import Measure, measure, param
from .registry import register

if TYPE_CHECKING:  # pragma: no cover
    from ..core.batch import RankingBatch
    from ..io.diversity import DiversityQrels

#: ndeval's default alpha (redundancy intolerance) and beta (patience)
ALPHA = 0.5
BETA = 0.5


# ---- the qrels' subtopics -----------------------------------------------------------------


@dataclass
class _QrelsSubtopics:
    """The subtopic structure of diversity qrels at one relevance threshold.

    Topics are the qrels' topic codes (``qrels.codes()``), rows its (topic, document) rows;
    one more topic (code ``Tq``, no subtopics) stands for topics not in the qrels, and one more
    row (``-1``, relevant to nothing) pads the candidate lists.
    """

    n_sub: np.ndarray  # int64[Tq + 1]: subtopics with a relevant document, per topic
    width: int  # max(n_sub, 1)
    row_bits: np.ndarray  # bool[rows + 1, width]: row relevant to the topic's s-th subtopic
    row_any: np.ndarray  # bool[rows + 1]
    n_rel: np.ndarray  # int64[Tq + 1, width]: relevant documents of each subtopic
    cand: np.ndarray  # int64[Tq + 1, Q]: relevant rows of each topic, docno descending; -1 pad


def _qrels_subtopics(qrels: DiversityQrels, rel: float) -> _QrelsSubtopics:
    key = ("diversity", float(rel))
    got = qrels.memo.get(key)
    if got is not None:
        return got
    from ..io.diversity import subtopic_order

    qt, qt_dict, qd, qd_dict = qrels.codes()
    Tq, n_rows = len(qt_dict), len(qt)
    sub = qrels.subtopics
    assert sub is not None, "a DiversityQrels keeps its judgements"  # (as _make builds it)
    jrow = qrels.judgement_rows()
    relevant = to_numpy(sub.column("label")) >= rel
    jrow = jrow[relevant]
    jt = qt[jrow]
    sub_col = pc.filter(sub.column("subtopic").combine_chunks(), from_numpy(relevant))
    enc = pc.dictionary_encode(sub_col)
    scode = to_numpy(enc.indices).astype(np.int64)
    srank = subtopic_order(enc.dictionary)[scode] if scode.size else scode
    n_codes = len(enc.dictionary)
    # (topic, subtopic) pairs in ndeval's order; local index = position within the topic
    pair = jt * max(n_codes, 1) + srank
    upair, pair_idx = np.unique(pair, return_inverse=True)
    ptopic = upair // max(n_codes, 1)
    n_sub = np.bincount(ptopic, minlength=Tq + 1).astype(np.int64)
    start = np.concatenate(([0], np.cumsum(n_sub)[:-1]))
    local = np.arange(upair.size) - start[ptopic]
    width = max(int(n_sub.max(initial=0)), 1)
    row_bits = np.zeros((n_rows + 1, width), dtype=bool)
    row_bits[jrow, local[pair_idx]] = True
    # (a 2-d array reduced over one axis is an array; numpy's stubs also allow a scalar)
    row_any = cast(np.ndarray, row_bits.any(axis=1))
    n_rel = np.zeros((Tq + 1, width), dtype=np.int64)
    np.add.at(n_rel, (jt, local[pair_idx]), 1)
    # ideal candidates: each topic's relevant rows, greatest document id first (ndeval's
    # greedy breaks ties towards the greater docno)
    rows = np.flatnonzero(row_any[:n_rows])
    doc_rank = sort_rank(qd_dict)[qd[rows]] if rows.size else np.zeros(0, np.int64)
    order = np.lexsort((-doc_rank, qt[rows]))
    rows = rows[order]
    counts = np.bincount(qt[rows], minlength=Tq + 1)
    cstart = np.concatenate(([0], np.cumsum(counts)[:-1]))
    cand = np.full((Tq + 1, max(int(counts.max(initial=0)), 1)), -1, dtype=np.int64)
    cand[qt[rows], np.arange(rows.size) - cstart[qt[rows]]] = rows
    got = _QrelsSubtopics(n_sub, width, row_bits, row_any, n_rel, cand)
    qrels.memo[key] = got
    return got


def topic_subtopics(
    qrels: DiversityQrels, topics: list[str], rel: float = 1.0
) -> tuple[np.ndarray, np.ndarray]:
    """(bool[T]: topic in the qrels, int64[T]: its subtopics with a relevant judgement) for
    each of ``topics`` (0 subtopics for a topic the qrels lack)."""
    sub = _qrels_subtopics(qrels, rel)
    tq = to_numpy(pc.index_in(from_strings(list(topics)), value_set=qrels.codes()[1]), null=-1)
    in_q = tq >= 0
    return in_q, sub.n_sub[np.where(in_q, tq, sub.n_sub.size - 1)]


# ---- the batch's view -------------------------------------------------------------------


def _qrels_of(batch: RankingBatch) -> DiversityQrels:
    q = batch.memo.get("diversity_qrels")
    if q is None:
        raise CwlkitError(
            "diversity measures need diversity qrels (topic subtopic document judgement): read "
            "them with cwlkit.read_diversity_qrels(path) or cwlkit.as_diversity_qrels(obj) and "
            "pass those to cwlkit.evaluate or cwlkit.Evaluator (or use 'cwlkit ndeval')"
        )
    return q


def _ranked_rows(batch: RankingBatch, qrels: DiversityQrels) -> np.ndarray:
    """int64[T, D]: the qrels row of the document at each rank (-1: unjudged or past the end);
    one join of the batch's document ids with the qrels, memoised on the batch."""
    got = batch.memo.get("diversity_rows")
    if got is not None:
        return got
    T, D = batch.labels.shape
    out = np.full((T, D), -1, dtype=np.int64)
    cells = batch.doc_cells()
    if cells is not None:
        row, col, docs = cells
    else:
        raise CwlkitError(
            "the batch has no document ids (built with light=True): diversity measures look "
            "each ranked document's subtopics up by its id; evaluate through cwlkit.Evaluator"
        )
    qt, qt_dict, qd, qd_dict = qrels.codes()
    if len(row) and len(qt):
        if isinstance(docs, pa.ChunkedArray):
            docs = docs.combine_chunks()
        tq = to_numpy(pc.index_in(from_strings(batch.topics.tolist()), value_set=qt_dict), null=-1)
        dq = to_numpy(pc.index_in(docs, value_set=qd_dict), null=-1).astype(np.int64)
        width = len(qd_dict) + 1
        qkeys = qt * width + qd
        qorder = np.argsort(qkeys, kind="stable")
        sk = qkeys[qorder]
        rt = tq.astype(np.int64)[row]
        keys = np.where((rt >= 0) & (dq >= 0), rt * width + dq, -1)
        pos = np.minimum(np.searchsorted(sk, keys), sk.size - 1)
        hit = (sk[pos] == keys) & (keys >= 0)
        out[row[hit], col[hit]] = qorder[pos[hit]]
    batch.memo["diversity_rows"] = out
    return out


@dataclass
class DiversityView:
    """What the intent-aware measures need of one batch at one relevance threshold.

    The relevant documents of each run are kept compactly: ``rank[t, n]`` is the 0-based rank
    of the n-th document of topic t's ranking that is relevant to some subtopic (-1 pad) and
    ``bits[t, n, s]`` says which of the topic's subtopics it is relevant to. ``cand`` and
    ``cand_bits`` are the same for the relevant judged documents of the topic (the ideal
    ranking's pool), greatest document id first.
    """

    n_sub: np.ndarray  # int64[T]
    in_qrels: np.ndarray  # bool[T]
    rank: np.ndarray  # int64[T, N]
    bits: np.ndarray  # bool[T, N, W]
    n_rel: np.ndarray  # int64[T, W]
    cand_bits: np.ndarray  # bool[T, Q, W]
    cand_ok: np.ndarray  # bool[T, Q]
    depth: np.ndarray  # int64[T]
    _memo: dict = field(default_factory=dict)

    @property
    def width(self) -> int:
        return int(self.bits.shape[2])

    # -- run side --------------------------------------------------------------------------
    def gains(self, alpha: float) -> np.ndarray:
        """float64[T, N]: g(i) of every compact entry (0 for pads)."""
        key = ("gains", alpha)
        got = self._memo.get(key)
        if got is None:
            bits = self.bits
            before = np.cumsum(bits, axis=1, dtype=np.int64) - bits
            pw = _powers(1.0 - alpha, int(before.max(initial=0)))
            g = pw[before] * bits  # (exact: gain * 1.0, gain * 0.0)
            got = np.zeros(bits.shape[:2])
            for s in range(bits.shape[2]):  # ndeval's order of subtopics
                got += g[:, :, s]
            self._memo[key] = got
        return got

    def dense(self, alpha: float, k: int) -> np.ndarray:
        """float64[T, k]: g at ranks 1..k (0 where nothing relevant)."""
        g = self.gains(alpha)
        out = np.zeros((g.shape[0], k))
        t, n = np.nonzero((self.rank >= 0) & (self.rank < k))
        out[t, self.rank[t, n]] = g[t, n]
        return out

    def ideal(self, alpha: float) -> _Greedy:
        key = ("ideal", alpha)
        got = self._memo.get(key)
        if got is None:
            got = self._memo[key] = _Greedy(self.cand_bits, self.cand_ok, alpha)
        return got


def view(batch: RankingBatch, rel: float) -> DiversityView:
    """The :class:`DiversityView` of ``batch`` at threshold ``rel`` (memoised on the batch)."""
    key = ("diversity_view", float(rel))
    got = batch.memo.get(key)
    if got is not None:
        return got
    qrels = _qrels_of(batch)
    sub = _qrels_subtopics(qrels, rel)
    rows = _ranked_rows(batch, qrels)
    T = batch.n_topics
    tq = to_numpy(
        pc.index_in(from_strings(batch.topics.tolist()), value_set=qrels.codes()[1]), null=-1
    ).astype(np.int64)
    in_q = tq >= 0
    tqs = np.where(in_q, tq, sub.n_sub.size - 1)  # (the last code: no subtopics)
    n_sub = sub.n_sub[tqs]
    relevant = np.zeros(rows.shape, dtype=bool)
    hit = rows >= 0
    relevant[hit] = sub.row_any[rows[hit]]
    t, d = np.nonzero(relevant)
    counts = np.bincount(t, minlength=T)
    N = max(int(counts.max(initial=0)), 1)
    slot = np.arange(t.size) - np.concatenate(([0], np.cumsum(counts)[:-1]))[t]
    rank = np.full((T, N), -1, dtype=np.int64)
    rank[t, slot] = d
    bits = np.zeros((T, N, sub.width), dtype=bool)
    bits[t, slot] = sub.row_bits[rows[t, d]]
    cand = sub.cand[tqs]
    cand_ok = cand >= 0
    cand_bits = sub.row_bits[cand]  # (-1: the padding row, relevant to nothing)
    n_rel = sub.n_rel[tqs]
    got = DiversityView(n_sub, in_q, rank, bits, n_rel, cand_bits, cand_ok, batch.depth)
    batch.memo[key] = got
    return got


def _powers(x: float, n: int) -> np.ndarray:
    """``[1, x, x*x, ...]`` (n + 1 values) by repeated multiplication, as ndeval's gains."""
    seq = np.full(n + 1, x)
    seq[0] = 1.0
    return np.multiply.accumulate(seq)


class _Greedy:
    """ndeval's greedy ideal ranking of every topic at once, extended rank by rank on demand.

    At each rank every topic takes its unranked relevant document with the largest g (ties:
    the first of the candidates, which are ordered by document id descending) and multiplies
    the gains of the document's subtopics by 1 - alpha. ``scores[:, i]`` is g of the i-th
    pick (0 when a topic has no candidate left). One numpy step per rank, over all topics.
    """

    def __init__(self, bits: np.ndarray, ok: np.ndarray, alpha: float) -> None:
        self.bits = bits
        # 1.0 / 0.0 per subtopic: 1.0 * gain and 0.0 * gain are exact, so the sum of the
        # products over the subtopics in order is ndeval's sum of the relevant gains
        self.planes = [
            np.ascontiguousarray(bits[:, :, s], dtype=np.float64) for s in range(bits.shape[2])
        ]
        self.block = np.where(ok, 0.0, -np.inf)  # added to the scores: taken and pads drop out
        self.alpha = alpha
        T, _, W = bits.shape
        self.gain = np.ones((T, W))
        self.cols: list[np.ndarray] = []
        self.left = ok.sum(axis=1)
        self.exhausted = not self.left.any()

    @property
    def n(self) -> int:
        return len(self.cols)

    def step(self) -> None:
        T = self.bits.shape[0]
        sc = self.block.copy()
        for s, plane in enumerate(self.planes):  # ndeval's order of subtopics
            sc += plane * self.gain[:, s : s + 1]
        j = np.argmax(sc, axis=1)
        ar = np.arange(T)
        best = sc[ar, j]
        has = self.left > 0
        self.cols.append(np.where(has, best, 0.0))
        self.block[ar[has], j[has]] = -np.inf
        self.left -= has
        upd = self.bits[ar, j] & has[:, None]
        self.gain = np.where(upd, self.gain * (1.0 - self.alpha), self.gain)
        self.exhausted = not self.left.any()

    def scores(self, k: int) -> np.ndarray:
        """float64[T, k]: g of the ideal ranking's first k documents."""
        while self.n < k and not self.exhausted:
            self.step()
        T = self.bits.shape[0]
        out = np.zeros((T, k))
        if self.n:
            m = min(k, self.n)
            out[:, :m] = np.stack(self.cols[:m], axis=1)
        return out

    def nrbp_sum(self, beta: float) -> np.ndarray:
        """sum_i g_i beta^(i-1) over the whole ideal ranking, float64[T], summed in rank order.

        The ranking is extended until no topic's sum can change: a later term is at most
        (sum of the current subtopic gains) x beta^i, and once that is below a quarter of the
        spacing of the doubles at the sum, adding it (or any later, smaller one) leaves the
        sum as it is.
        """
        T = self.bits.shape[0]
        while True:
            n = self.n
            dec = _powers(beta, n)
            if n:
                acc = np.cumsum(np.stack(self.cols, axis=1) * dec[:n], axis=1)[:, -1]
            else:
                acc = np.zeros(T)
            if self.exhausted:
                return acc
            todo = self.left > 0
            bound = self.gain.sum(axis=1) * dec[n] * (1.0 + 1e-9)
            quarter = np.spacing(acc) / 4
            settled = ~todo | ((acc > 0) & (bound < quarter))
            if settled.all():
                return acc
            # ranks still needed, from bound * beta^m < quarter (at least one more); with
            # beta = 1 no term ever becomes negligible: the whole ranking
            more = self.left.max() if beta >= 1.0 else 1
            if 0.0 < beta < 1.0 and (acc[~settled] > 0).all():
                ratio = bound[~settled] / quarter[~settled]
                more = max(1, int(np.ceil(np.log(ratio.max()) / -np.log(beta))))
            for _ in range(more):
                if self.exhausted:
                    break
                self.step()


# ---- shared arithmetic --------------------------------------------------------------------

_DISCOUNT: list[float] = []


def discount(k: int) -> np.ndarray:
    """ndeval's ``log(2)/log(i + 2)`` for ranks i = 0..k-1, with the C library's log (as
    ndeval; numpy's vectorised log can differ in the last bit)."""
    while len(_DISCOUNT) < k:
        i = len(_DISCOUNT)
        _DISCOUNT.append(math.log(2.0) / math.log(i + 2.0))
    return np.asarray(_DISCOUNT[:k])


def _cumulative(scores: np.ndarray, k: int, kind: str) -> np.ndarray:
    """sum_{i<=k} of g(i) / i (``err``) or g(i) * discount (``dcg``), in rank order."""
    if kind == "err":
        terms = scores[:, :k] / np.arange(1, k + 1, dtype=np.float64)
    else:
        terms = scores[:, :k] * discount(k)
    return np.cumsum(terms, axis=1)[:, k - 1]


def _ideal_ideal(n_sub: np.ndarray, alpha: float, k: int, kind: str) -> np.ndarray:
    """The "ideal ideal" normaliser at rank k: every document relevant to every subtopic."""
    g = np.full((n_sub.size, k), 1.0 - alpha)
    g[:, 0] = n_sub.astype(np.float64)
    g = np.multiply.accumulate(g, axis=1)
    return _cumulative(g, k, kind)


def _normalised(
    v: DiversityView, scores: np.ndarray, alpha: float, k: int, kind: str
) -> tuple[np.ndarray, np.ndarray]:
    """(ndeval's alpha-DCG@k or ERR-IA@k from the gains ``scores``, raw cumulative sum)."""
    raw = _cumulative(scores, k, kind)
    if k == 1:  # ndeval normalises from rank 2 on
        out = raw.copy()
    else:
        ii = _ideal_ideal(v.n_sub, alpha, k, kind)
        with np.errstate(invalid="ignore", divide="ignore"):
            out = raw / ii
    return np.where(v.n_sub > 0, out, 0.0), raw


def _cascade(batch, rel: float, alpha: float, k: int, kind: str, ideal: bool) -> np.ndarray:
    v = view(batch, rel)
    run, raw = _normalised(v, v.dense(alpha, k), alpha, k, kind)
    if not ideal:
        return run
    best, _ = _normalised(v, v.ideal(alpha).scores(k), alpha, k, kind)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where((raw != 0) & (v.n_sub > 0), run / best, 0.0)


def _nrbp(batch, rel: float, alpha: float, beta: float, ideal: bool) -> np.ndarray:
    v = view(batch, rel)
    g = v.gains(alpha)
    dec = _powers(beta, int(v.depth.max(initial=0)))
    terms = np.where(v.rank >= 0, g * dec[np.maximum(v.rank, 0)], 0.0)
    total = np.cumsum(terms, axis=1)[:, -1]
    S = np.maximum(v.n_sub, 1).astype(np.float64)
    factor = (1.0 - (1.0 - alpha) * beta) / S
    run = np.where(v.n_sub > 0, total * factor, 0.0)
    if not ideal:
        return run
    best = v.ideal(alpha).nrbp_sum(beta) * factor
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where((v.n_sub > 0) & (best > 0), run / best, 0.0)


# ---- the measures -------------------------------------------------------------------------


def _alpha():
    return param(
        ALPHA,
        ge=0.0,
        le=1.0,
        doc="redundancy intolerance: each repeat of a subtopic keeps 1 - alpha of its gain",
    )


def _rel():
    return param(1.0, gt=0.0, doc="smallest label counted relevant to a subtopic")


def _cut():
    return param(ge=1, integer=True, doc="cutoff (ndeval prints 5, 10 and 20)")


def _judged():
    return param(
        False,
        choices=(False, True),
        doc="drop the documents the qrels do not list (any label) from the ranking before the "
        "measure and its cutoff (ir_measures' judged_only)",
    )


@measure
class _Diversity(Measure):
    """Base of the intent-aware measures (they need diversity qrels)."""

    #: the measure reads the subtopics of diversity qrels (the registry test gives it some)
    needs_subtopics: ClassVar[bool] = True
    #: ``judged_only`` keeps every document the qrels list, as ir_measures' pyndeval provider
    judged_keeps_negative: ClassVar[bool] = True


@register
@measure
class alpha_DCG(_Diversity):
    """alpha-DCG@k (Clarke et al., SIGIR 2008) over the "ideal ideal" ranking (ndeval).

    ``sum_{i<=k} g(i)/log2(i+1)`` divided by the same sum for a ranking whose every document
    is relevant to all S subtopics, ``g(i)`` the novelty-biased gain (module docstring).
    ndeval leaves ``alpha_DCG@1`` unnormalised (it is g(1)).
    """

    family: ClassVar[str] = "alpha_DCG"
    aliases: ClassVar[tuple[str, ...]] = ("alpha-DCG", "α_DCG")
    anchors: ClassVar[dict[str, tuple[str, ...]]] = {"ir_measures": ("alpha_DCG", "α_DCG")}
    k: int = _cut()
    alpha: float = _alpha()
    rel: float = _rel()
    judged_only: bool = _judged()

    def compute(self, batch: RankingBatch) -> np.ndarray:
        batch = self.ranking_of(batch)
        return _cascade(batch, self.rel, self.alpha, int(self.k), "dcg", ideal=False)


@register
@measure
class alpha_nDCG(_Diversity):
    """alpha-nDCG@k (Clarke et al., SIGIR 2008): alpha-DCG@k over ndeval's greedy ideal ranking.

    The ideal ranking takes, rank by rank, the judged document with the largest novelty-biased
    gain (ties: the greatest document id). 0 when the top k hold nothing relevant.
    """

    family: ClassVar[str] = "alpha_nDCG"
    aliases: ClassVar[tuple[str, ...]] = ("alpha-nDCG", "α_nDCG")
    anchors: ClassVar[dict[str, tuple[str, ...]]] = {"ir_measures": ("alpha_nDCG", "α_nDCG")}
    k: int = _cut()
    alpha: float = _alpha()
    rel: float = _rel()
    judged_only: bool = _judged()

    def compute(self, batch: RankingBatch) -> np.ndarray:
        batch = self.ranking_of(batch)
        return _cascade(batch, self.rel, self.alpha, int(self.k), "dcg", ideal=True)


@register
@measure
class ERR_IA(_Diversity):
    """Intent-aware ERR@k (Chapelle et al., CIKM 2009) as ndeval computes it.

    ``sum_{i<=k} g(i)/i`` over the same sum for the "ideal ideal" ranking (every document
    relevant to all S subtopics): the mean over subtopics of ERR with r = alpha for a relevant
    document, divided by its largest possible value. ndeval leaves ``ERR_IA@1`` unnormalised.
    """

    family: ClassVar[str] = "ERR_IA"
    aliases: ClassVar[tuple[str, ...]] = ("ERR-IA",)
    anchors: ClassVar[dict[str, tuple[str, ...]]] = {"ir_measures": ("ERR_IA",)}
    k: int = _cut()
    alpha: float = _alpha()
    rel: float = _rel()
    judged_only: bool = _judged()

    def compute(self, batch: RankingBatch) -> np.ndarray:
        batch = self.ranking_of(batch)
        return _cascade(batch, self.rel, self.alpha, int(self.k), "err", ideal=False)


@register
@measure
class nERR_IA(_Diversity):
    """Intent-aware ERR@k over its value for ndeval's greedy ideal ranking (nERR-IA@k)."""

    family: ClassVar[str] = "nERR_IA"
    aliases: ClassVar[tuple[str, ...]] = ("nERR-IA",)
    anchors: ClassVar[dict[str, tuple[str, ...]]] = {"ir_measures": ("nERR_IA",)}
    k: int = _cut()
    alpha: float = _alpha()
    rel: float = _rel()
    judged_only: bool = _judged()

    def compute(self, batch: RankingBatch) -> np.ndarray:
        batch = self.ranking_of(batch)
        return _cascade(batch, self.rel, self.alpha, int(self.k), "err", ideal=True)


@register
@measure
class NRBP(_Diversity):
    """Novelty- and rank-biased precision (Clarke, Kolla, Vechtomova, ICTIR 2009), ndeval's.

    ``(1 - (1-alpha) beta)/S * sum_i g(i) beta^(i-1)`` over the whole ranking (no cutoff).
    """

    family: ClassVar[str] = "NRBP"
    anchors: ClassVar[dict[str, tuple[str, ...]]] = {"ir_measures": ("NRBP",)}
    alpha: float = _alpha()
    beta: float = param(
        BETA, ge=0.0, le=1.0, doc="patience: the user goes on with probability beta"
    )
    rel: float = _rel()

    def compute(self, batch: RankingBatch) -> np.ndarray:
        return _nrbp(batch, self.rel, self.alpha, self.beta, ideal=False)


@register
@measure
class nNRBP(_Diversity):
    """NRBP over its value for ndeval's greedy ideal ranking (0 for a topic with S = 0)."""

    family: ClassVar[str] = "nNRBP"
    anchors: ClassVar[dict[str, tuple[str, ...]]] = {"ir_measures": ("nNRBP",)}
    alpha: float = _alpha()
    beta: float = param(
        BETA, ge=0.0, le=1.0, doc="patience: the user goes on with probability beta"
    )
    rel: float = _rel()

    def compute(self, batch: RankingBatch) -> np.ndarray:
        return _nrbp(batch, self.rel, self.alpha, self.beta, ideal=True)


@register
@measure
class AP_IA(_Diversity):
    """Intent-aware average precision (ndeval's MAP-IA): the mean over subtopics of each one's AP.

    ``1/S sum_s AP_s`` with ``AP_s`` the average precision of the run when only the documents
    relevant to s are relevant (divided by R_s, that subtopic's relevant documents in the
    qrels). Over the whole ranking.
    """

    family: ClassVar[str] = "AP_IA"
    aliases: ClassVar[tuple[str, ...]] = ("MAP_IA", "MAP-IA")
    anchors: ClassVar[dict[str, tuple[str, ...]]] = {"ir_measures": ("AP_IA", "MAP_IA")}
    rel: float = _rel()
    judged_only: bool = _judged()

    def compute(self, batch: RankingBatch) -> np.ndarray:
        batch = self.ranking_of(batch)
        v = view(batch, self.rel)
        bits = v.bits
        seen = np.cumsum(bits, axis=1, dtype=np.int64)
        at = (np.maximum(v.rank, 0) + 1).astype(np.float64)
        terms = np.where(bits, seen / at[:, :, None], 0.0)
        total = np.cumsum(terms, axis=1)[:, -1, :]  # in rank order, per subtopic
        out = np.zeros(v.n_sub.size)
        with np.errstate(invalid="ignore", divide="ignore"):
            for s in range(bits.shape[2]):  # ndeval's order of subtopics
                out += np.where(v.n_rel[:, s] > 0, total[:, s] / v.n_rel[:, s], 0.0)
            return np.where(v.n_sub > 0, out / v.n_sub, 0.0)


@register
@measure
class P_IA(_Diversity):
    """Intent-aware precision at k: relevant (document, subtopic) pairs in the top k / (k S)."""

    family: ClassVar[str] = "P_IA"
    aliases: ClassVar[tuple[str, ...]] = ("P-IA",)
    anchors: ClassVar[dict[str, tuple[str, ...]]] = {"ir_measures": ("P_IA",)}
    k: int = _cut()
    rel: float = _rel()
    judged_only: bool = _judged()

    def compute(self, batch: RankingBatch) -> np.ndarray:
        batch = self.ranking_of(batch)
        v = view(batch, self.rel)
        top = (v.rank >= 0) & (v.rank < self.k)
        count = (v.bits & top[:, :, None]).sum(axis=(1, 2))
        with np.errstate(invalid="ignore", divide="ignore"):
            return np.where(v.n_sub > 0, count / (int(self.k) * v.n_sub), 0.0)


@register
@measure
class StRecall(_Diversity):
    """Subtopic recall at k: share of the S subtopics with a relevant document in the top k."""

    family: ClassVar[str] = "StRecall"
    aliases: ClassVar[tuple[str, ...]] = ("strec",)
    anchors: ClassVar[dict[str, tuple[str, ...]]] = {"ir_measures": ("StRecall",)}
    k: int = _cut()
    rel: float = _rel()

    def compute(self, batch: RankingBatch) -> np.ndarray:
        v = view(batch, self.rel)
        top = (v.rank >= 0) & (v.rank < self.k)
        covered = (v.bits & top[:, :, None]).any(axis=1).sum(axis=1)
        with np.errstate(invalid="ignore", divide="ignore"):
            return np.where(v.n_sub > 0, covered / v.n_sub, 0.0)
