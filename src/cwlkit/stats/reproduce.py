"""How closely a reproduced experiment matches its original (Breuer, Ferro, Fuhr, Maistro,
Schaer, Soboroff, Sanchez-Ramirez and Zobel, "How to measure the reproducibility of
system-oriented IR experiments", SIGIR 2020), computed as the repro_eval package computes
it, every topic at once.

An experiment compares a *baseline* run ``b`` with an *advanced* run ``a``; the original
runs ``b, a`` are reproduced as ``b', a'``. Topics are those each pair shares, in string
order (repro_eval's).

Document order, per topic (reproducibility: the same topics):

- **KTU@k**, Kendall's tau Union: with ``o_1..o_n`` and ``r_1..r_n`` the first ``n =
  min(k, |o|, |r|)`` documents of the original and the reproduced ranking and ``u(d)`` a
  document's place among the documents of both in id order, Kendall's tau-b between the
  sequences ``u(o_i)`` and ``u(r_i)`` (scipy's ``kendalltau``, rounded to 14 decimals as
  repro_eval rounds it; NaN for ``n < 2``);
- **RBO@k**, repro_eval's rank-biased overlap (Clarke et al.'s normalised prefix form):
  ``sum_{d=1..k} p^(d-1) X_d / d / sum_{d=1..k} p^(d-1)``, ``X_d`` the documents the two
  depth-``d`` prefixes share (default ``p = 0.95``, repro_eval's). It is not
  :func:`cwlkit.rbo`'s extrapolated RBO.

Effectiveness, per measure:

- **RMSE** of the per-topic scores of each original run against its reproduction:
  ``sqrt(sum_j (x_j - x'_j)^2 / n)``;
- **ER**, the effect ratio: the mean per-topic improvement ``a_j - b_j`` of the reproduced
  pair over that of the original pair;
- **DeltaRI**: ``RI - RI'`` with ``RI = (mean(a) - mean(b)) / mean(b)``;
- **p-values**: a paired t-test of each original run against its reproduction
  (reproducibility: same topics), or an unpaired one (replicability: the reproduction is on
  other topics, ``rep_qrels``; then KTU, RBO and RMSE are not defined).

The rankings are ordered as trec_eval 10 orders them: score descending in double precision,
ties by document id descending (repro_eval's order for a run written in score order), a
document listed twice at its first place.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..errors import NoTopicsError, ParamError
from ..support.checks import check_int, check_probability

__all__ = ["Reproducibility", "reproducibility"]

#: repro_eval's defaults: RBO's persistence and the cutoffs it trims runs to
RBO_P = 0.95
CUTOFFS = (5, 10, 20, 50, 100, 1000)
#: the deepest cutoff (the measures hold topics x cutoff matrices)
MAX_CUTOFF = 100_000


@dataclass
class Reproducibility:
    """The measures of :func:`reproducibility` (see the module for each definition).

    Attributes
    ----------
    measures : list of str
        The effectiveness measures' canonical names.
    runs : list of str
        ``"baseline"`` and, when given, ``"advanced"``.
    topics : list of str
        The topics compared, in string order.
    cutoffs : list of int
        The depths of KTU and RBO.
    ktu, rbo : dict of str to numpy.ndarray
        Per run, float64[cutoffs, T] (empty for replicability).
    rmse, p_value : dict of str to dict of str to float
        Per run and measure.
    er, delta_ri : dict of str to float
        Per measure (empty without the advanced runs).
    paired : bool
        Reproducibility (paired tests, same topics) or replicability (unpaired).
    """

    measures: list[str]
    runs: list[str]
    topics: list[str]
    cutoffs: list[int]
    paired: bool
    p: float
    ktu: dict[str, np.ndarray] = field(default_factory=dict)
    rbo: dict[str, np.ndarray] = field(default_factory=dict)
    rmse: dict[str, dict[str, float]] = field(default_factory=dict)
    p_value: dict[str, dict[str, float]] = field(default_factory=dict)
    er: dict[str, float] = field(default_factory=dict)
    delta_ri: dict[str, float] = field(default_factory=dict)

    def rows(self) -> list[dict[str, Any]]:
        """One row per (run, measure name, value): the means over topics of KTU@k and RBO@k,
        and RMSE, p, ER and DeltaRI."""
        out: list[dict[str, Any]] = []
        for run in self.runs:
            for i, k in enumerate(self.cutoffs):
                if run in self.ktu:
                    out.append(
                        {"run": run, "measure": f"KTU@{k}", "value": _mean(self.ktu[run][i])}
                    )
                    out.append(
                        {"run": run, "measure": f"RBO@{k}", "value": _mean(self.rbo[run][i])}
                    )
            for m in self.measures:
                if run in self.rmse:
                    out.append({"run": run, "measure": f"RMSE {m}", "value": self.rmse[run][m]})
                out.append({"run": run, "measure": f"p {m}", "value": self.p_value[run][m]})
        for m in self.er:
            out.append({"run": "", "measure": f"ER {m}", "value": self.er[m]})
            out.append({"run": "", "measure": f"DeltaRI {m}", "value": self.delta_ri[m]})
        return out


def _mean(values: np.ndarray) -> float:
    """repro_eval's mean over topics (numpy's, over the values in topic order)."""
    return float(np.mean(values))


def reproducibility(
    qrels: Any,
    orig_baseline: Any,
    rep_baseline: Any,
    orig_advanced: Any = None,
    rep_advanced: Any = None,
    *,
    measures: Any = ("AP", "nDCG@10", "P@10"),
    cutoffs: Any = CUTOFFS,
    p: float = RBO_P,
    rep_qrels: Any = None,
    **options: Any,
) -> Reproducibility:
    """Reproducibility (or, with ``rep_qrels``, replicability) of an experiment.

    Parameters
    ----------
    qrels :
        The original judgements (any form :func:`cwlkit.evaluate` takes).
    orig_baseline, rep_baseline, orig_advanced, rep_advanced :
        The runs (any form :func:`cwlkit.evaluate` takes); the advanced pair is optional
        (without it no ER or DeltaRI).
    measures : str or sequence
        The effectiveness measures of RMSE, ER, DeltaRI and the t-tests.
    cutoffs : sequence of int
        The depths of KTU and RBO (each >= 1).
    p : float
        RBO's persistence, in (0, 1).
    rep_qrels : optional
        The judgements of a replication on other topics: the reproduced runs are scored
        on them and compared with unpaired tests; KTU, RBO and RMSE are then not computed.
    **options :
        :class:`cwlkit.Evaluator`'s options for the effectiveness scores.
    """
    from ..api import Evaluator

    ks = _cutoffs(cutoffs)
    persistence = check_probability("p", p)
    assert persistence is not None
    pairs = {"baseline": (orig_baseline, rep_baseline)}
    if (orig_advanced is None) != (rep_advanced is None):
        raise ParamError("give both advanced runs (original and reproduced) or neither")
    if orig_advanced is not None:
        pairs["advanced"] = (orig_advanced, rep_advanced)
    ev = Evaluator(qrels, measures, **options)
    ev_rep = ev if rep_qrels is None else Evaluator(rep_qrels, measures, **options)
    names = [m.name for m in ev.measures]
    scores = {run: (ev.evaluate(o), ev_rep.evaluate(r)) for run, (o, r) in pairs.items()}
    paired = rep_qrels is None
    topics = _topics(scores, paired)
    out = Reproducibility(names, list(pairs), topics, ks, paired, persistence)
    for run, (orig, rep) in scores.items():
        x = _matrix(orig, names, topics if paired else sorted(orig.topics))
        y = _matrix(rep, names, topics if paired else sorted(rep.topics))
        out.p_value[run] = _ttests(x, y, names, paired)
        if paired:
            out.rmse[run] = {m: _rmse(x[i], y[i]) for i, m in enumerate(names)}
            out.ktu[run], out.rbo[run] = _order(ev, *pairs[run], topics, ks, persistence)
    if "advanced" in scores:
        _effects(out, scores, names)
    return out


def _cutoffs(cutoffs: Any) -> list[int]:
    values = [cutoffs] if isinstance(cutoffs, int) else cutoffs
    try:
        ks = [check_int("cutoffs", k, least=1, most=MAX_CUTOFF) for k in values]
    except TypeError:
        raise ParamError(f"cutoffs must be integers >= 1; got {cutoffs!r}") from None
    if not ks:
        raise ParamError("cutoffs must name at least one depth")
    return [int(k) for k in ks if k is not None]


def _topics(scores: dict[str, tuple[Any, Any]], paired: bool) -> list[str]:
    """The topics every run holds (paired), or the original runs' (unpaired), in order."""
    sets = [set(o.topics) & set(r.topics) if paired else set(o.topics) for o, r in scores.values()]
    common = sorted(set.intersection(*sets))
    if not common:
        raise NoTopicsError("no topics to compare: the original and reproduced runs share none")
    return common


def _matrix(res: Any, names: list[str], topics: list[str]) -> np.ndarray:
    """float64[measures, topics] of a run's Results."""
    pos = {t: j for j, t in enumerate(res.topics)}
    cols = [pos[t] for t in topics]
    return np.asarray(res.select(names).values[:, cols], dtype=np.float64)


def _rmse(x: np.ndarray, y: np.ndarray) -> float:
    """repro_eval's RMSE: Python's sum of the squared differences in topic order."""
    d = x - y
    return math.sqrt(sum(np.square(d)) / len(d))


def _ttests(x: np.ndarray, y: np.ndarray, names: list[str], paired: bool) -> dict[str, float]:
    """p of scipy's paired (``ttest_rel``) or unpaired (``ttest_ind``) t-test per measure;
    1 when every p is NaN and the scores are the same (repro_eval's rule)."""
    from scipy import stats

    test = stats.ttest_rel if paired else stats.ttest_ind
    with np.errstate(divide="ignore", invalid="ignore"):
        p = {m: float(test(x[i], y[i]).pvalue) for i, m in enumerate(names)}
    if all(math.isnan(v) for v in p.values()) and x.shape == y.shape and np.array_equal(x, y):
        p = dict.fromkeys(p, 1.0)
    return p


def _effects(out: Reproducibility, scores: dict[str, tuple[Any, Any]], names: list[str]) -> None:
    """ER and DeltaRI per measure, over the topics of each advanced run that its baseline
    also holds."""
    (ob, rb), (oa, ra) = scores["baseline"], scores["advanced"]

    def pair(a: Any, b: Any) -> tuple[np.ndarray, np.ndarray]:
        topics = sorted(set(a.topics) & set(b.topics))
        return _matrix(a, names, topics), _matrix(b, names, topics)

    (a_o, b_o), (a_r, b_r) = pair(oa, ob), pair(ra, rb)
    for i, m in enumerate(names):
        with np.errstate(divide="ignore", invalid="ignore"):
            out.er[m] = float((a_r[i] - b_r[i]).mean() / (a_o[i] - b_o[i]).mean())
            ri_o = (a_o[i].mean() - b_o[i].mean()) / b_o[i].mean()
            ri_r = (a_r[i].mean() - b_r[i].mean()) / b_r[i].mean()
        out.delta_ri[m] = float(ri_o - ri_r)


def _order(
    ev: Any, orig: Any, rep: Any, topics: list[str], ks: list[int], p: float
) -> tuple[np.ndarray, np.ndarray]:
    """KTU and RBO, float64[cutoffs, T], of the original and reproduced rankings."""
    from ..api import Evaluator

    order_ev = Evaluator(ev.qrels, [], trec_version=10, topics="run")
    order_ev.plan.keep_docs = True
    lex_o, lex_r = _rankings([order_ev.batch(orig), order_ev.batch(rep)], topics)
    ktu = np.stack([_ktu(lex_o, lex_r, k) for k in ks])
    rbo = np.stack([_rbo(lex_o, lex_r, k, p) for k in ks])
    return ktu, rbo


def _rankings(batches: list[Any], topics: list[str]) -> list[np.ndarray]:
    """Each run's rankings of ``topics`` as int64[T, D]: each document's place in the id
    order of both runs' documents (one code for one id in both), at its first rank only,
    -1 after the ranking."""
    import pyarrow.compute as pc

    from ..core.doccodes import document_codes
    from ..support.arrays import first_occurrences

    rows = []
    for b in batches:
        pos = {str(t): i for i, t in enumerate(b.topics)}
        rows.append(np.array([pos[t] for t in topics], dtype=np.int64))
    codes, dictionary = document_codes(batches, rows)
    lex = np.empty(len(dictionary), dtype=np.int64)
    lex[np.asarray(pc.array_sort_indices(dictionary))] = np.arange(len(dictionary))
    return [first_occurrences(np.where(c >= 0, lex[np.maximum(c, 0)], -1)) for c in codes]


def _ktu(lex_o: np.ndarray, lex_r: np.ndarray, k: int) -> np.ndarray:
    """float64[T]: repro_eval's KTU@k (see the module): scipy's tau-b of ``u(o_i)`` against
    ``u(r_i)`` over the first ``n`` places, computed as scipy computes it and rounded."""
    from ..support.arrays import smaller_before

    x, y = lex_o[:, :k], lex_r[:, :k]
    width = min(x.shape[1], y.shape[1])
    x, y = x[:, :width], y[:, :width]
    n = np.minimum((x >= 0).sum(axis=1), (y >= 0).sum(axis=1))
    valid = np.arange(width)[None, :] < n[:, None]
    big = np.iinfo(np.int64).max
    order = np.argsort(np.where(valid, x, big), axis=1, kind="stable")
    ys = np.take_along_axis(np.where(valid, y, big), order, axis=1)
    ranks = np.argsort(np.argsort(ys, axis=1, kind="stable"), axis=1) + 1
    ranks = np.where(np.take_along_axis(valid, order, axis=1), ranks, 0)
    concordant = smaller_before(ranks).sum(axis=1)
    out = np.full(n.size, np.nan)
    some = n >= 2
    tot = (n * (n - 1) // 2)[some]
    dis = tot - concordant[some]
    # scipy's arithmetic, element by element; then Python's round (correctly rounded, which
    # numpy's multiply-round-divide is not)
    root = np.sqrt(tot.astype(np.float64))
    tau = np.clip((tot - 2 * dis) / root / root, -1.0, 1.0)
    out[some] = [round(v, 14) for v in tau.tolist()]
    return out


def _rbo(lex_o: np.ndarray, lex_r: np.ndarray, k: int, p: float) -> np.ndarray:
    """float64[T]: repro_eval's RBO@k (see the module), its sums taken in its order."""
    T = lex_o.shape[0]
    ranks = []
    for m in (lex_o, lex_r):
        r = np.where(m >= 0, np.arange(1, m.shape[1] + 1)[None, :], 0)
        ranks.append(r)
    # each document both rankings hold enters both prefixes at the later of its two ranks
    span = int(max(lex_o.max(initial=-1), lex_r.max(initial=-1))) + 1
    t_o, c_o = np.nonzero(ranks[0] > 0)
    t_r, c_r = np.nonzero(ranks[1] > 0)
    key_o = t_o.astype(np.int64) * span + lex_o[t_o, c_o]
    key_r = t_r.astype(np.int64) * span + lex_r[t_r, c_r]
    common, io, ir = np.intersect1d(key_o, key_r, assume_unique=True, return_indices=True)
    enter = np.maximum(ranks[0][t_o[io], c_o[io]], ranks[1][t_r[ir], c_r[ir]])
    rows = common // span
    hist = np.zeros((T, k + 1), dtype=np.int64)
    inside = enter <= k
    np.add.at(hist, (rows[inside], enter[inside]), 1)
    X = np.cumsum(hist[:, 1:], axis=1).astype(np.float64)
    weight = np.cumprod(np.concatenate([[1.0], np.full(k - 1, p)]))  # 1, p, p*p, ...
    d = np.arange(1, k + 1, dtype=np.float64)
    score = np.cumsum(weight * X / d, axis=1)[:, -1]
    return score / np.cumsum(weight)[-1]
