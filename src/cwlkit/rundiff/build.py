"""``cwlkit.diff(...)``: two runs side by side, topic by topic, down to each rank.

For every topic both runs were scored on (the Evaluator's topics rule), the page data hold:

- each run's value of the measure and their difference ``B - A``;
- two agreements of the rankings: RBO (``p``, the extrapolated RBO_EXT of the full
  rankings, :func:`cwlkit.rbo`) and tau_AP of B's order against A's over the documents both
  retrieved (NaN when they share fewer than 2);
- each run's residual interval: ``[value, value + residual]`` for a measure that defines a
  residual (the C/W/L metrics and ERR: unjudged documents and the ranks past the run at the
  top gain, :mod:`cwlkit.measures.cwl`); for the other measures the values with every
  unjudged ranked document as non-relevant and as relevant at the qrels' top label (the
  lower and the larger of the two), since they have no residual of their own. The
  difference is *decided* by the judgements when the two intervals do not overlap;
- the top ``depth`` documents of each run with their label (None: unjudged), their rank in
  the other run (0: not retrieved by it), and their contribution to the measure: for a
  C/W/L metric ``W(i) g(i)`` (scaled by ``1 / ideal`` for one normalised by its ideal
  ranking, so that the contributions of all ranks sum to the value); for any other measure
  the change in the value when rank ``i`` is added to ranks ``1 .. i-1`` (the value of the
  ranking cut at ``i`` minus that cut at ``i - 1``; for P@k, nDCG@k, AP, RR and ERR the
  term of rank ``i`` in their sums).

Every per-rank array is computed for all topics at once (numpy over the topics x depth
matrices); only the agreements are computed topic by topic.
"""

from __future__ import annotations

import dataclasses
import os
from typing import TYPE_CHECKING, Any, cast

import numpy as np

from ..errors import NoTopicsError, ParamError
from ..support.checks import check_int, check_probability
from .model import DiffData

if TYPE_CHECKING:  # pragma: no cover
    from ..api import Evaluator
    from ..core.ranking import RankingBatch
    from ..measures.base import Measure

__all__ = ["Diff", "diff"]

#: the most ranks a diff page shows per run (the page holds them all)
MAX_DEPTH = 10_000


class Diff(DiffData):
    """Two runs compared topic by topic (see :class:`~cwlkit.rundiff.model.DiffData` for
    what it holds), drawn as one HTML page."""

    def to_html(self, *, title: str | None = None) -> str:
        """One self-contained page (no server, no network): :mod:`cwlkit.rundiff.html`."""
        from .html import render_html

        return render_html(self, title=title)

    def save(self, path: str | os.PathLike) -> None:
        """Write :meth:`to_html` to ``path``."""
        with open(path, "w", encoding="utf-8", newline="") as fh:
            fh.write(self.to_html())


def diff(
    qrels: Any,
    run_a: Any,
    run_b: Any,
    measure: Any = "nDCG@10",
    *,
    depth: int = 10,
    p: float = 0.9,
    queries: Any = None,
    docs: Any = None,
    names: tuple[str, str] | None = None,
    **options: Any,
) -> Diff:
    """Compare two runs topic by topic and rank by rank (see the module).

    Parameters
    ----------
    qrels, run_a, run_b :
        Any form :func:`cwlkit.evaluate` takes.
    measure : str or Measure
        One measure (any of the registry).
    depth : int, default 10
        Ranks shown per run (>= 1).
    p : float, default 0.9
        RBO's persistence, in (0, 1).
    queries : path or "irds:ID", optional
        Query texts (:func:`cwlkit.io.texts.read_queries`).
    docs : path or "irds:ID", optional
        Document texts (:func:`cwlkit.io.texts.read_docs`).
    names : (str, str), optional
        The runs' names (default: file names, else "A" and "B").
    **options :
        :class:`cwlkit.Evaluator`'s options (``topics``, ``gain``, ``order``...).
    """
    from ..api import Evaluator

    k = check_int("depth", depth, least=1, most=MAX_DEPTH)
    assert k is not None
    persistence = check_probability("p", p)
    assert persistence is not None
    options.pop("residuals", None)  # (always computed: the intervals need them)
    ev = Evaluator(qrels, measure, residuals=True, **options)
    ev.plan.keep_docs = True  # (the batches carry the document ids)
    if len(ev.measures) != 1:
        raise ParamError(f"diff compares runs on one measure; got {len(ev.measures)}")
    m = ev.measures[0]
    pair = _names(run_a, run_b) if names is None else _given_names(names)
    batches = [ev.batch(run_a), ev.batch(run_b)]
    rows = _common_rows(batches, run_a, run_b, qrels)
    topics = [str(t) for t in batches[0].topics[rows[0]]]
    values, low, high, interval = _values(ev, m, batches, rows, (run_a, run_b))
    codes, strings = _codes(batches, rows)
    shown, labels = _shown(batches, rows, codes, strings, k)
    other, rbo, tau = _agreements(codes, k, persistence)
    out = Diff(
        measure=m.name,
        runs=pair,
        depth=k,
        topics=topics,
        values=values,
        rbo=rbo,
        tau_ap=tau,
        low=low,
        high=high,
        interval=interval,
        docs=shown,
        labels=labels,
        contributions=np.stack(
            [_contributions(ev, m, b, r, k) for b, r in zip(batches, rows, strict=True)]
        ),
        other_rank=other,
        p=persistence,
        cwl=_is_cwl(m),
    )
    if queries is not None:
        from ..io.texts import read_queries

        out.queries = read_queries(queries, topics)
    if docs is not None:
        from ..io.texts import read_docs

        ids = {d for d in out.docs.ravel().tolist() if d is not None}
        out.texts = read_docs(docs, ids)
    return out


def _names(run_a: Any, run_b: Any) -> tuple[str, str]:
    from ..api import named_runs

    got = [n for n, _ in named_runs([run_a, run_b])]
    if got[0] == got[1] or got == ["run1", "run2"]:
        return "A", "B"
    return got[0], got[1]


def _given_names(names: Any) -> tuple[str, str]:
    if (
        not isinstance(names, (tuple, list))
        or len(names) != 2
        or not all(isinstance(n, str) and n for n in names)
        or names[0] == names[1]
    ):
        raise ParamError(f"names must be two different non-empty strings; got {names!r}")
    return str(names[0]), str(names[1])


def _common_rows(
    batches: list[RankingBatch], run_a: Any, run_b: Any, qrels: Any
) -> tuple[np.ndarray, np.ndarray]:
    """Rows of each batch for the topics both hold, in byte order."""
    ta, tb = batches[0].topics.astype(str), batches[1].topics.astype(str)
    common, ia, ib = np.intersect1d(ta, tb, assume_unique=True, return_indices=True)
    if common.size == 0:
        raise NoTopicsError(
            f"no topics to compare: {_label(run_a)} and {_label(run_b)} share no topic "
            f"scored against {_label(qrels)}"
        )
    return ia, ib


def _label(obj: Any) -> str:
    if isinstance(obj, (str, os.PathLike)):
        return os.fspath(obj)
    return f"the {type(obj).__name__}"


def _values(
    ev: Evaluator,
    m: Measure,
    batches: list[RankingBatch],
    rows: tuple[np.ndarray, np.ndarray],
    runs: tuple[Any, Any],
) -> tuple[np.ndarray, np.ndarray, np.ndarray, str]:
    """Values [2, T], and the intervals' ends [2, T] with how they were made."""
    scored = [ev.score(b) for b in batches]
    values = np.stack([s.values[0, r] for s, r in zip(scored, rows, strict=True)])
    res = [s.columns.get("ResEU") for s in scored]
    if all(r is not None and np.isfinite(r[0]).any() for r in res):
        resid = np.stack(
            [np.nan_to_num(np.asarray(r)[0, i]) for r, i in zip(res, rows, strict=True)]
        )
        return values, values, values + resid, "residual"
    other = np.stack(
        [
            _unjudged_relevant(ev, m, b, run)[r]
            for b, run, r in zip(batches, runs, rows, strict=True)
        ]
    )
    return values, np.minimum(values, other), np.maximum(values, other), "unjudged"


def _unjudged_relevant(ev: Evaluator, m: Measure, batch: RankingBatch, run: Any) -> np.ndarray:
    """float64[T]: the measure with every unjudged ranked document labelled at the qrels'
    top label (rows of ``batch``)."""
    top = batch.qrels_max_label if batch.qrels_max_label is not None else 1.0
    unjudged = batch.valid & ~batch.judged
    labels = np.where(unjudged, top, batch.labels)
    extra = np.where(unjudged, top, np.nan)
    # the new relevant documents join each topic's judgements (R and the ideal ranking)
    qrel_labels = -np.sort(-np.concatenate([batch.qrel_labels, extra], axis=1), axis=1)
    hi = dataclasses.replace(
        batch,
        labels=labels,
        judged=batch.judged | unjudged,
        qrel_labels=qrel_labels,
        n_judged=batch.n_judged + unjudged.sum(axis=1),
        memo={},
    )
    return np.asarray(ev.score(hi, measures=[m]).values[0], dtype=np.float64)


def _codes(
    batches: list[RankingBatch], rows: tuple[np.ndarray, np.ndarray]
) -> tuple[list[np.ndarray], list[str]]:
    """Each run's ranking as document codes int64[T, D] (-1 past the ranking; one dictionary
    for both runs) over the common topics, and the codes' strings."""
    from ..core.doccodes import document_codes

    codes, dictionary = document_codes(batches, rows)
    return codes, dictionary.to_pylist()


def _shown(
    batches: list[RankingBatch],
    rows: tuple[np.ndarray, np.ndarray],
    codes: list[np.ndarray],
    strings: list[str],
    k: int,
) -> tuple[np.ndarray, np.ndarray]:
    """Document ids object[2, T, k] and labels float64[2, T, k] of the top k ranks."""
    table = np.asarray(strings + [None], dtype=object)  # (code -1 -> None)
    docs, labels = [], []
    for b, r, cd in zip(batches, rows, codes, strict=True):
        w = min(k, b.max_depth)
        d = np.full((r.size, k), None, dtype=object)
        d[:, :w] = table[cd[:, :w]]
        lab = np.full((r.size, k), np.nan)
        lab[:, :w] = np.where(b.judged[r, :w], b.labels[r, :w], np.nan)
        docs.append(d)
        labels.append(lab)
    return np.stack(docs), np.stack(labels)


def _agreements(
    codes: list[np.ndarray], k: int, p: float
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The other run's rank of each shown document int64[2, T, k] (0: not retrieved; a
    document ranked twice there, its first rank), RBO_EXT and tau_AP of every topic
    (:mod:`cwlkit.rundiff.agreement`)."""
    from . import agreement

    raw = [np.where(c >= 0, np.arange(1, c.shape[1] + 1)[None, :], 0) for c in codes]
    firsts = [agreement.first_ranks(c) for c in codes]
    other = np.zeros((2, codes[0].shape[0], k), dtype=np.int64)
    for side in (0, 1):
        o = 1 - side
        shown = np.where(np.arange(codes[side].shape[1]) < k, raw[side], 0)
        # (the other run's raw rank of its first occurrence)
        first_raw = np.where(firsts[o] > 0, raw[o], 0)
        got = agreement.rank_in(codes[side], shown, codes[o], first_raw)
        w = min(k, got.shape[1])
        other[side, :, :w] = got[:, :w]
    a_in_b = agreement.rank_in(codes[0], firsts[0], codes[1], firsts[1])
    b_in_a = agreement.rank_in(codes[1], firsts[1], codes[0], firsts[0])
    rbo = agreement.rbo_ext(firsts[0], firsts[1], a_in_b, p)
    tau = agreement.tau_ap(firsts[1], b_in_a)
    return other, rbo, tau


def _is_cwl(m: Measure) -> bool:
    from ..measures.cwl import CWLMetric

    return isinstance(m, CWLMetric)


def _contributions(
    ev: Evaluator, m: Measure, batch: RankingBatch, rows: np.ndarray, k: int
) -> np.ndarray:
    """float64[T, k]: each shown rank's contribution to the measure (see the module)."""
    if _is_cwl(m):
        return _cwl_contributions(ev, m, batch, rows, k)
    out = np.zeros((rows.size, k))
    before = np.zeros(rows.size)
    for i in range(1, min(k, batch.max_depth) + 1):
        now = ev.score(_cut(batch, i), measures=[m]).values[0, rows]
        out[:, i - 1] = np.where(i <= batch.depth[rows], now - before, 0.0)
        before = now
    return out


def _cwl_contributions(
    ev: Evaluator, m: Measure, batch: RankingBatch, rows: np.ndarray, k: int
) -> np.ndarray:
    """``W(i) g(i)`` of the shown ranks, scaled so that every rank's sum is the value."""
    from ..measures.cwl.engine import Metric, weights_matrix

    inp = ev.plan.cwl_input(batch)
    w = weights_matrix(
        cast("Metric", m), inp.gain_lo, inp.cost_lo, inp.depth, pad_cost=inp.max_cost
    )
    terms = w * inp.gain_lo
    total = terms.sum(axis=1)
    value = ev.score(batch, measures=[m]).values[0]
    with np.errstate(divide="ignore", invalid="ignore"):
        scale = np.where(total > 0, value / total, 1.0)
    out = np.zeros((rows.size, k))
    width = min(k, terms.shape[1])
    out[:, :width] = (terms * scale[:, None])[rows, :width]
    return out


def _cut(batch: RankingBatch, i: int) -> RankingBatch:
    """The batch with each ranking cut at rank ``i``."""
    keep = np.arange(batch.max_depth) < i
    valid = batch.valid & keep

    def cut(a: Any, pad: float) -> Any:  # (scores and q0 may be kept empty: [T, 0])
        return np.where(valid, a, pad) if a is not None and a.shape == valid.shape else a

    return dataclasses.replace(
        batch,
        depth=np.minimum(batch.depth, i),
        labels=np.where(valid, batch.labels, np.nan),
        judged=batch.judged & valid,
        valid=valid,
        scores=cut(batch.scores, np.nan),
        q0=cut(batch.q0, -1),
        memo={},
    )
