"""Risk-sensitive evaluation: how much a run loses against a baseline, topic by topic.

Against one baseline (Dinçer, Macdonald and Ounis, "Hypothesis testing for the risk-sensitive
evaluation of retrieval systems", SIGIR 2014):

- the risk-adjusted difference of topic ``j`` is ``d_j = x_j - b_j`` when the run wins or
  ties (``x_j >= b_j``) and ``d_j = (1 + alpha) (x_j - b_j)`` when it loses: a loss weighs
  ``1 + alpha`` times a win of the same size;
- ``URisk_alpha = (1/c) sum_j d_j``, over the ``c`` topics both were scored on (the TREC
  2013-2014 Web Track's risk measure; gdeval.pl's ``-riskAlpha`` mean);
- ``TRisk_alpha = URisk_alpha / (s_d / sqrt(c))``, with ``s_d`` the sample standard deviation
  (``c - 1`` degrees of freedom) of the ``d_j``: a paired t statistic of the risk-adjusted
  differences. ``|TRisk| > 2`` is the paper's rule of thumb; :func:`trisk` also gives the
  two-sided p-value of Student's t with ``c - 1`` degrees of freedom.

Against a set of runs (Dinçer, Macdonald and Ounis, "Risk-sensitive evaluation and learning
to rank using multiple baselines", SIGIR 2016), with ``x_ij`` the score of run ``i`` on
topic ``j`` (scores >= 0), ``S_i = sum_j x_ij``, ``T_j = sum_i x_ij``, ``N = sum_ij x_ij``:

- the expected score under independence of runs and topics is ``e_ij = S_i T_j / N`` and
  ``z_ij = (x_ij - e_ij) / sqrt(e_ij)`` (0 where ``e_ij = 0``: a topic or a run that scores
  0 everywhere);
- ``ZRisk_alpha(i) = sum_{j: z_ij > 0} z_ij + (1 + alpha) sum_{j: z_ij < 0} z_ij``;
- ``GeoRisk_alpha(i) = sqrt( (S_i / c) * Phi(ZRisk_alpha(i) / c) )``, ``Phi`` the standard
  normal distribution function: the geometric mean of the run's mean score and of its
  normalised risk-reward trade-off.

``alpha = 0`` gives the plain mean difference (URisk), a paired t statistic (TRisk) and
chi-square-like residual sums (ZRisk). Higher is better for all four.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from ..errors import ParamError
from ..support.checks import check_number

__all__ = ["RiskTable", "georisk", "risk", "risk_deltas", "risk_table", "trisk", "urisk", "zrisk"]


def _alpha(alpha: Any) -> float:
    value = check_number("alpha", alpha, least=0.0)
    assert value is not None
    return value


def _paired(scores: Any, baseline: Any) -> tuple[np.ndarray, np.ndarray]:
    """Two float arrays of the same shape, topics on the last axis, all finite."""
    try:
        x = np.asarray(scores, dtype=np.float64)
        b = np.asarray(baseline, dtype=np.float64)
    except (TypeError, ValueError):
        raise ParamError("risk: scores must be arrays of numbers, one per topic") from None
    if x.ndim == 0 or x.shape[-1] == 0:
        raise ParamError("risk: no topics to compare")
    try:
        x, b = np.broadcast_arrays(x, b)
    except ValueError:
        raise ParamError(
            f"risk: the run's scores ({x.shape[-1]} topics) and the baseline's "
            f"({b.shape[-1] if b.ndim else 1}) do not pair up"
        ) from None
    if not (np.isfinite(x).all() and np.isfinite(b).all()):
        raise ParamError("risk: scores must be finite (a NaN or infinite score was given)")
    return x, b


def risk_deltas(scores: Any, baseline: Any, alpha: float = 0.0) -> np.ndarray:
    """The risk-adjusted differences ``d_j``: ``x_j - b_j``, times ``1 + alpha`` where the
    run loses (``x_j < b_j``). Topics on the last axis; several runs at once on the others."""
    x, b = _paired(scores, baseline)
    d = x - b
    return np.where(d < 0, (1.0 + _alpha(alpha)) * d, d)


def urisk(scores: Any, baseline: Any, alpha: float = 0.0) -> Any:
    """``URisk_alpha = (1/c) sum_j d_j`` (the mean risk-adjusted difference; see the module).

    Examples
    --------
    >>> round(float(urisk([0.5, 0.2, 0.4], [0.3, 0.4, 0.4], alpha=1)), 4)  # (0.2 - 0.4) / 3
    -0.0667
    """
    return risk_deltas(scores, baseline, alpha).mean(axis=-1)


def trisk(scores: Any, baseline: Any, alpha: float = 0.0) -> tuple[Any, Any]:
    """``(TRisk_alpha, p)``: ``URisk_alpha / (s_d / sqrt(c))`` and its two-sided p-value under
    Student's t with ``c - 1`` degrees of freedom. NaN for fewer than 2 topics; when every
    ``d_j`` is the same, ``s_d = 0`` and TRisk is ``+-inf`` (p = 0), or NaN (p = 1) when
    they are all 0."""
    from scipy import stats

    d = risk_deltas(scores, baseline, alpha)
    c = d.shape[-1]
    if c < 2:
        nan = np.full(d.shape[:-1], np.nan)
        return (nan[()], nan[()])
    mean = d.mean(axis=-1)
    sd = d.std(axis=-1, ddof=1)
    with np.errstate(divide="ignore", invalid="ignore"):
        t = mean / (sd / np.sqrt(c))
    p = np.where(np.isnan(t), 1.0, 2.0 * stats.t.sf(np.abs(t), c - 1))
    return t[()], p[()]


def _matrix(scores: Any) -> np.ndarray:
    try:
        x = np.asarray(scores, dtype=np.float64)
    except (TypeError, ValueError):
        raise ParamError("risk: scores must be a matrix of numbers (runs x topics)") from None
    if x.ndim != 2 or x.shape[0] < 1 or x.shape[1] < 1:
        raise ParamError(f"risk: scores must be a runs x topics matrix; got shape {x.shape}")
    if not np.isfinite(x).all() or (x < 0).any():
        raise ParamError("risk: ZRisk and GeoRisk need finite scores >= 0")
    return x


def zrisk(scores: Any, alpha: float = 0.0) -> np.ndarray:
    """``ZRisk_alpha`` of every run of a runs x topics matrix of scores >= 0 (see the
    module): ``z_ij = (x_ij - e_ij) / sqrt(e_ij)``, ``e_ij = S_i T_j / N``, losses weighted
    ``1 + alpha``."""
    x = _matrix(scores)
    a = _alpha(alpha)
    total = x.sum()
    if total == 0:
        return np.zeros(x.shape[0])
    e = x.sum(axis=1, keepdims=True) * x.sum(axis=0, keepdims=True) / total
    with np.errstate(divide="ignore", invalid="ignore"):
        z = np.where(e > 0, (x - e) / np.sqrt(e), 0.0)
    return np.where(z < 0, (1.0 + a) * z, z).sum(axis=1)


def georisk(scores: Any, alpha: float = 0.0) -> np.ndarray:
    """``GeoRisk_alpha = sqrt((S_i / c) Phi(ZRisk_alpha(i) / c))`` of every run of a runs x
    topics matrix of scores >= 0 (see the module)."""
    from scipy.special import ndtr

    x = _matrix(scores)
    c = x.shape[1]
    return np.sqrt(x.sum(axis=1) / c * ndtr(zrisk(x, alpha) / c))


@dataclass(frozen=True)
class RiskTable:
    """Risk of several runs on one measure, against a baseline and against each other.

    Attributes
    ----------
    measure : str
        The measure's canonical name.
    baseline : str
        The baseline run's name (URisk and TRisk are against it; its own are 0 and NaN).
    alpha : float
        The risk parameter: losses weigh ``1 + alpha``.
    runs : list of str
        Run names, in the order given.
    topics : list of str
        The topics every run was scored on (the only ones compared).
    mean, urisk, trisk, p_value, zrisk, georisk : numpy.ndarray
        float64[runs]: the mean score and the four risk measures (the module's formulas);
        ZRisk and GeoRisk are over the set of runs given, baseline included.
    wins, losses : numpy.ndarray
        int64[runs]: topics where the run beats (loses to) the baseline.
    """

    measure: str
    baseline: str
    alpha: float
    runs: list[str]
    topics: list[str]
    mean: np.ndarray
    urisk: np.ndarray
    trisk: np.ndarray
    p_value: np.ndarray
    zrisk: np.ndarray
    georisk: np.ndarray
    wins: np.ndarray
    losses: np.ndarray

    def rows(self) -> list[dict[str, Any]]:
        """One dict per run: run, mean, URisk, TRisk, p, ZRisk, GeoRisk, wins, losses."""
        return [
            {
                "run": r,
                "mean": float(self.mean[i]),
                "URisk": float(self.urisk[i]),
                "TRisk": float(self.trisk[i]),
                "p": float(self.p_value[i]),
                "ZRisk": float(self.zrisk[i]),
                "GeoRisk": float(self.georisk[i]),
                "wins": int(self.wins[i]),
                "losses": int(self.losses[i]),
            }
            for i, r in enumerate(self.runs)
        ]


def risk_table(
    scores: np.ndarray,
    runs: list[str],
    topics: list[str],
    *,
    measure: str,
    baseline: str,
    alpha: float = 0.0,
) -> RiskTable:
    """The :class:`RiskTable` of a runs x topics matrix (``baseline`` one of ``runs``)."""
    if not isinstance(baseline, str) or baseline not in runs:
        shown = baseline if isinstance(baseline, str) else type(baseline).__name__
        raise ParamError(f"baseline {shown!r} is not one of the runs ({', '.join(runs)})")
    a = _alpha(alpha)
    x = np.asarray(scores, dtype=np.float64)
    b = x[runs.index(baseline)]
    t, p = trisk(x, b, a)
    d = x - b
    return RiskTable(
        measure=measure,
        baseline=baseline,
        alpha=a,
        runs=list(runs),
        topics=list(topics),
        mean=x.mean(axis=1),
        urisk=urisk(x, b, a),
        trisk=np.asarray(t, dtype=np.float64),
        p_value=np.asarray(p, dtype=np.float64),
        zrisk=zrisk(x, a),
        georisk=georisk(x, a),
        wins=(d > 0).sum(axis=1),
        losses=(d < 0).sum(axis=1),
    )


def risk(
    qrels: Any,
    runs: Any,
    measure: Any = "nDCG@20",
    *,
    baseline: str | None = None,
    alpha: float = 1.0,
    **options: Any,
) -> RiskTable:
    """URisk, TRisk, ZRisk and GeoRisk of several runs on one measure (see the module).

    Parameters
    ----------
    qrels : path, DataFrame, dict, ... or None
        The judgements (any form :func:`cwlkit.evaluate` takes); None when ``runs`` are
        already evaluated.
    runs : sequence or mapping
        At least two runs (any form :func:`cwlkit.evaluate` takes, named as
        :meth:`cwlkit.Evaluator.evaluate_many` names them), or ``{name: Results}``.
    measure : str or Measure
        One measure (default ``nDCG@20``, the TREC Web Track's).
    baseline : str, optional
        The baseline run's name (default: the first run).
    alpha : float, default 1
        Losses weigh ``1 + alpha`` (the Web Track reported alpha = 1, 5 and 10).
    **options :
        :class:`cwlkit.Evaluator`'s options.

    Returns
    -------
    RiskTable
        Over the topics every run was scored on.

    Examples
    --------
    >>> import cwlkit
    >>> q = {"1": {"a": 1}, "2": {"b": 1}}
    >>> base = {"1": {"a": 1.0}, "2": {"x": 1.0}}
    >>> runs = {"base": base, "new": {"1": {"x": 1.0}, "2": {"b": 1.0}}}
    >>> t = cwlkit.risk(q, runs, "P@1", alpha=1)
    >>> [round(r["URisk"], 3) for r in t.rows()]     # new: (-2 * 1 + 1) / 2
    [0.0, -0.5]
    """
    from ..api import Evaluator, named_runs
    from ..results import Results

    a = _alpha(alpha)
    if isinstance(runs, dict) and runs and all(isinstance(v, Results) for v in runs.values()):
        results = {str(k): v for k, v in runs.items()}
    else:
        if qrels is None:
            raise ParamError("risk: give the qrels to evaluate the runs with")
        ev = Evaluator(qrels, measure, **options)
        if len(ev.measures) != 1:
            raise ParamError(f"risk is computed on one measure; got {len(ev.measures)}")
        items = named_runs(runs)
        if len({n for n, _ in items}) != len(items):
            raise ParamError("run names must be distinct")
        results = ev.evaluate_many(dict(items))
    if len(results) < 2:
        raise ParamError(f"risk compares at least 2 runs; got {len(results)}")
    names = list(results)
    name = _one_measure(results, measure)
    topics = sorted(set.intersection(*(set(r.topics) for r in results.values())))
    if not topics:
        from ..errors import NoTopicsError

        raise NoTopicsError("no topics to compare: the runs share no scored topic")
    x = np.stack([_row(results[r], name, topics) for r in names])
    base = names[0] if baseline is None else baseline
    return risk_table(x, names, topics, measure=name, baseline=base, alpha=a)


def _row(res: Any, name: str, topics: list[str]) -> np.ndarray:
    """float64[T]: one measure of a run's Results at ``topics``."""
    pos = {t: i for i, t in enumerate(res.topics)}
    values = np.asarray(res.select([name]).values[0], dtype=np.float64)
    return values[np.array([pos[t] for t in topics], dtype=np.int64)]


def _one_measure(results: dict[str, Any], measure: Any) -> str:
    """The canonical name of the one measure the results are read for."""
    from ..measures.parse import parse_list

    wanted = parse_list(measure)
    if len(wanted) != 1:
        raise ParamError(f"risk is computed on one measure; got {len(wanted)}")
    name = wanted[0].name
    for r in results.values():
        if name not in r.measures:
            raise ParamError(f"the results hold no {name} (they hold {', '.join(r.measures)})")
    return name
