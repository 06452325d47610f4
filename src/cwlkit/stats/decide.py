"""The topics that decide a comparison: those whose removal changes its significance.

For every comparison of a :class:`~cwlkit.stats.comparison.ComparisonTable` (a run against
its baseline on a measure), each topic is left out in turn and every comparison is tested
again on the other topics, with the same test, samples and seed, and corrected again over
the whole family (a topic's removal moves every p-value, so the correction's threshold
moves too). A topic *decides* a comparison when, without it, the comparison's decision at
``alpha`` flips: significant becomes not significant, or the reverse.

The leave-one-out tests run for all comparisons at once, one call per topic; above
:data:`MAX_TOPICS` topics they are not run (the report says so).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

import numpy as np

__all__ = ["MAX_TOPICS", "deciding_topics"]

#: the most topics whose removal is tried (one test of every comparison per topic)
MAX_TOPICS = 500


def deciding_topics(table: Any) -> list[dict[str, Any]] | None:
    """One dict per comparison of ``table`` (in its records' order): ``measure``, ``run``,
    ``baseline``, ``significant`` (with every topic) and ``topics``, the topics whose
    removal flips it; None when the table has more than :data:`MAX_TOPICS` topics (or
    fewer than 3: nothing left to test)."""
    from .correct import correct

    vals = table.scores
    n = vals.shape[2]
    if n > MAX_TOPICS or n < 3:
        return None
    runs, measures = list(table.runs), list(table.measures)
    pairs = list(dict.fromkeys((r["run"], r["baseline"]) for r in table.records))
    a = np.array([runs.index(x) for x, _ in pairs])
    b = np.array([runs.index(y) for _, y in pairs])
    flips = np.zeros((len(pairs), len(measures), n), dtype=bool)
    base = None
    for j in range(-1, n):
        keep = np.arange(n) != j
        p = _p_values(table, vals[:, :, keep], a, b)
        reject, _ = correct(p, table.correction, table.alpha)
        if j < 0:
            base = reject
        else:
            flips[:, :, j] = reject != base
    assert base is not None
    out = []
    for rec in table.records:
        k, m = pairs.index((rec["run"], rec["baseline"])), measures.index(rec["measure"])
        out.append(
            {
                "measure": rec["measure"],
                "run": rec["run"],
                "baseline": rec["baseline"],
                "significant": bool(base[k, m]),
                "topics": [table.topics[t] for t in np.flatnonzero(flips[k, m])],
            }
        )
    return out


def _p_values(table: Any, vals: np.ndarray, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """float64[P, M]: the table's test on ``vals`` (runs x measures x topics) at the pairs."""
    confidence = 1.0 - table.alpha
    if table.test == "tukey":
        return _tukey_sides(vals, a, b, table.alpha)
    from .tests import paired_test

    samples = table.samples if table.samples is not None else 10_000
    res = paired_test(
        vals[a], vals[b], table.test, confidence=confidence, samples=samples, seed=table.seed
    )
    return res.p_value


#: a Tukey statistic within this relative distance of the critical value is left to scipy
_NEAR = 1e-4


def _tukey_sides(vals: np.ndarray, a: np.ndarray, b: np.ndarray, alpha: float) -> np.ndarray:
    """float64[P, M]: p-values on the side of ``alpha`` that Tukey's HSD (scipy's) puts
    them, all that a decision needs (Tukey's p-values are never corrected further).

    Tukey's statistic for runs ``i, j`` over ``n`` topics is ``q = |mean_i - mean_j| /
    sqrt(MSE / n)``, ``MSE`` the mean of the runs' variances, and ``p <= alpha`` exactly
    when ``q >= q*``, the studentized range's ``1 - alpha`` quantile for ``R`` runs and
    ``R (n - 1)`` degrees of freedom: one quantile instead of a numerical integral per pair
    (scipy's ``tukey_hsd`` took over a minute to leave out each of 50 topics of 8 runs). A
    pair is given p = 0 (``q > q*``) or 1 (``q < q*``); a measure with a pair within
    :data:`_NEAR` of ``q*``, or a statistic that is not finite, gets scipy's own p-values.
    """
    from .multi import pairwise_tukey

    R, M, n = vals.shape
    crit = _tukey_critical(R, R * (n - 1), alpha)
    with np.errstate(invalid="ignore", divide="ignore"):
        means = vals.mean(axis=2)
        mse = vals.var(axis=2, ddof=1).mean(axis=0)
        q = np.abs(means[a] - means[b]) / np.sqrt(mse / n)
        near = ~np.isfinite(q) | (np.abs(q / crit - 1.0) <= _NEAR)
    p = np.where(q > crit, 0.0, 1.0)
    for m in np.flatnonzero(near.any(axis=0)).tolist():
        exact = pairwise_tukey(vals[:, m : m + 1, :], a, b, confidence=1.0 - alpha)
        p[:, m] = exact.p_value[:, 0]
    return p


@lru_cache(maxsize=64)
def _tukey_critical(runs: int, df: int, alpha: float) -> float:
    """The studentized range's ``1 - alpha`` quantile (scipy's)."""
    from scipy import stats

    return float(stats.studentized_range.ppf(1.0 - alpha, runs, df))
