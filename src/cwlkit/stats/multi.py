"""Tests over many systems at once: Tukey's HSD and the two-way ANOVA of topics x systems.

Scores come as ``[R, n]`` arrays (``R`` systems, the same ``n`` topics) or ``[R, M, n]``
(``M`` measures, each tested on its own); :func:`tukey_hsd` and :func:`two_way_anova` also
take a pandas DataFrame with one column per system (rows: topics) or a mapping
``{system: per-topic scores}`` (arrays, or scores by topic paired by topic).

- :func:`tukey_hsd`: Tukey's honestly significant difference over every pair of systems,
  ``scipy.stats.tukey_hsd`` with one group per system (its p-values are already adjusted for
  the ``R (R - 1) / 2`` pairs of one measure; it treats the systems' scores as independent
  samples and so ignores that they share topics).
- :func:`two_way_anova`: the additive two-way ANOVA (systems and topics as factors, one score
  per cell, no interaction), as statsmodels'
  ``anova_lm(ols("score ~ C(system) + C(topic)"))``: whether the systems' means differ once
  the topics' difficulty is taken out.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from ..errors import ParamError
from ..support.checks import check_probability
from .tests import PairedTestResult

#: tests over every system at once (``compare``/``report``'s ``test=``)
MULTI_TESTS: tuple[str, ...] = ("tukey",)


@dataclass(frozen=True)
class TukeyResult:
    """Tukey's HSD over ``R`` systems (one measure).

    Attributes
    ----------
    diff : numpy.ndarray
        float64[R, R]: ``mean_i - mean_j``.
    p_value : numpy.ndarray
        float64[R, R]: the adjusted p-value of pair ``(i, j)`` (1 on the diagonal).
    ci_low, ci_high : numpy.ndarray
        float64[R, R]: simultaneous confidence interval for ``mean_i - mean_j``.
    confidence : float
    """

    diff: np.ndarray
    p_value: np.ndarray
    ci_low: np.ndarray
    ci_high: np.ndarray
    confidence: float


def _scores(scores: Any, min_systems: int = 2) -> np.ndarray:
    from .inputs import check_spread, system_scores

    s = system_scores("scores", scores)
    if s.ndim < 2:
        raise ParamError("tests over systems need scores of shape [systems, topics]")
    if s.shape[0] < min_systems:
        raise ParamError(f"a test over systems needs at least {min_systems} systems")
    if s.shape[-1] < 2:
        raise ParamError(f"a test over systems needs at least 2 topics; got {s.shape[-1]}")
    if not np.isfinite(s).all():
        raise ParamError("scores must be finite (got NaN or infinity)")
    check_spread("scores", s)
    check_spread("scores", s.reshape(-1))
    return s


def tukey_hsd(scores: Any, *, confidence: float = 0.95) -> TukeyResult:
    """Tukey's HSD of ``scores[R, n]`` (system ``i``'s scores on ``n`` topics):
    ``scipy.stats.tukey_hsd(*scores)``.

    When every score is equal the variance is zero and scipy's p-values are NaN: then no
    pair can be told apart and the p-values are 1 (as the paired tests' convention).
    """
    import warnings

    from scipy import stats

    s = _scores(scores)
    if s.ndim != 2:
        raise ParamError("tukey_hsd takes scores of shape [systems, topics]")
    check_probability("confidence", confidence)
    confidence = float(confidence)
    with warnings.catch_warnings(), np.errstate(invalid="ignore", divide="ignore"):
        warnings.simplefilter("ignore")
        res = stats.tukey_hsd(*s)
        ci = res.confidence_interval(confidence_level=float(confidence))
    p = np.array(res.pvalue, dtype=np.float64)
    p[np.isnan(p)] = 1.0
    np.fill_diagonal(p, 1.0)
    return TukeyResult(
        diff=np.array(res.statistic, dtype=np.float64),
        p_value=p,
        ci_low=np.array(ci.low, dtype=np.float64),
        ci_high=np.array(ci.high, dtype=np.float64),
        confidence=float(confidence),
    )


def pairwise_tukey(scores: Any, a: Any, b: Any, *, confidence: float = 0.95) -> PairedTestResult:
    """Tukey's HSD of ``scores[R, M, n]`` for each measure, read off at the pairs
    ``(a[k], b[k])``: a :class:`~cwlkit.stats.tests.PairedTestResult` of shape ``[P, M]``
    (``statistic`` and ``estimate`` are the mean differences, as scipy's ``statistic``)."""
    s = _scores(scores)
    if s.ndim != 3:
        raise ParamError("pairwise_tukey takes scores of shape [systems, measures, topics]")
    ia, ib = np.asarray(a, dtype=np.int64), np.asarray(b, dtype=np.int64)
    R, M, n = s.shape
    shape = (ia.size, M)
    out = {k: np.empty(shape) for k in ("diff", "p_value", "ci_low", "ci_high")}
    for j in range(M):
        res = tukey_hsd(s[:, j, :], confidence=confidence)
        for k in out:
            out[k][:, j] = getattr(res, k)[ia, ib]
    return PairedTestResult(
        test="tukey",
        diff=out["diff"],
        estimate=out["diff"].copy(),
        p_value=out["p_value"],
        ci_low=out["ci_low"],
        ci_high=out["ci_high"],
        statistic=out["diff"].copy(),
        n=n,
        confidence=float(confidence),
    )


@dataclass(frozen=True)
class AnovaResult:
    """The additive two-way ANOVA table of one measure.

    Each attribute except ``n_systems``/``n_topics`` is a dict keyed by source (``system``,
    ``topic``, ``residual``); ``F`` and ``p_value`` have no ``residual`` entry.
    """

    df: dict[str, float]
    sum_sq: dict[str, float]
    mean_sq: dict[str, float]
    F: dict[str, float]
    p_value: dict[str, float]
    n_systems: int
    n_topics: int

    @property
    def eta_sq_partial(self) -> float:
        """Partial eta squared of the systems: ``SS_system / (SS_system + SS_residual)``."""
        ss = self.sum_sq["system"] + self.sum_sq["residual"]
        return self.sum_sq["system"] / ss if ss > 0 else float("nan")

    def to_records(self) -> list[dict[str, Any]]:
        """One dict per source: ``source, df, sum_sq, mean_sq, F, p_value``."""
        return [
            {
                "source": src,
                "df": self.df[src],
                "sum_sq": self.sum_sq[src],
                "mean_sq": self.mean_sq[src],
                "F": self.F.get(src, float("nan")),
                "p_value": self.p_value.get(src, float("nan")),
            }
            for src in ("system", "topic", "residual")
        ]


def two_way_anova(scores: Any) -> AnovaResult:
    """Two-way ANOVA without interaction of ``scores[R, n]`` (systems x topics).

    With grand mean ``y..``, system means ``yi.`` and topic means ``y.t``::

        SS_system = n sum_i (yi. - y..)^2       df R - 1
        SS_topic  = R sum_t (y.t - y..)^2       df n - 1
        SS_resid  = sum (y - yi. - y.t + y..)^2 df (R - 1)(n - 1)
        F = MS / MS_resid,  p = P(F_{df, df_resid} > F)

    Equal to statsmodels' ``anova_lm(ols("score ~ C(system) + C(topic)", data))``. When the
    residual variance is zero, ``F`` is infinite (or NaN when the source's is zero too) and
    ``p`` is 0 (NaN is reported as 1: nothing to tell apart).
    """
    from scipy import stats

    s = _scores(scores)
    if s.ndim != 2:
        raise ParamError("two_way_anova takes scores of shape [systems, topics]")
    R, n = s.shape
    grand = s.mean()
    sys_m = s.mean(axis=1)
    top_m = s.mean(axis=0)
    resid = s - sys_m[:, None] - top_m[None, :] + grand
    ss = {
        "system": float(n * ((sys_m - grand) ** 2).sum()),
        "topic": float(R * ((top_m - grand) ** 2).sum()),
        "residual": float((resid**2).sum()),
    }
    df = {"system": float(R - 1), "topic": float(n - 1), "residual": float((R - 1) * (n - 1))}
    ms = {k: ss[k] / df[k] for k in ss}
    F: dict[str, float] = {}
    p: dict[str, float] = {}
    for k in ("system", "topic"):
        with np.errstate(divide="ignore", invalid="ignore"):
            f = np.float64(ms[k]) / np.float64(ms["residual"])
        F[k] = float(f)
        pv = float(stats.f.sf(f, df[k], df["residual"])) if np.isfinite(f) else 0.0
        p[k] = 1.0 if np.isnan(f) else pv
    return AnovaResult(df, ss, ms, F, p, n_systems=R, n_topics=n)
