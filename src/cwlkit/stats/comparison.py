"""Compare runs: mean scores and paired tests of every run against a baseline (or all pairs).

:func:`compare` takes one :class:`cwlkit.Results` per run, aligns them on the topics they
share, runs one paired test per (measure, pair of runs) -- all comparisons in one vectorised
call -- and corrects the p-values for multiple testing across every comparison made.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..errors import CwlkitError, NoTopicsError, ParamError
from ..results import Results
from ..support.checks import (
    check_bool,
    check_choice,
    check_int,
    check_number,
    check_probability,
    check_seed,
    refuse,
)
from .correct import correct, correction_name
from .tests import MAX_SAMPLES, paired_test

#: Columns of :meth:`ComparisonTable.to_records`, in order.
COLUMNS = (
    "measure",
    "run",
    "baseline",
    "run_mean",
    "baseline_mean",
    "diff",
    "estimate",
    "ci_low",
    "ci_high",
    "statistic",
    "p_value",
    "p_adjusted",
    "significant",
    "n",
)


@dataclass
class ComparisonTable:
    """Mean scores of several runs and paired comparisons between them.

    Attributes
    ----------
    runs : list of str
        Run names, in the order given.
    measures : list of str
        Canonical measure names.
    topics : list of str
        The topics every run has (the tests pair runs on these; the means are over them).
    means : numpy.ndarray
        float64[R, M] mean score of each run on each measure over ``topics``.
    records : list of dict
        One per comparison, with the keys of :data:`COLUMNS`: ``diff = run_mean -
        baseline_mean``, the test's ``estimate`` and interval, the raw and adjusted p-values,
        and ``significant`` (adjusted p-value rejected at ``alpha``).
    test, correction : str
        The test and the multiple-testing correction.
    alpha : float
        Significance level; the intervals are at confidence ``1 - alpha`` (not adjusted for
        multiplicity).
    samples, seed : int or None
        Monte-Carlo settings (randomization, bootstrap).
    dropped : dict of str to int
        For each run, the number of its topics left out because another run lacks them.
    anova : dict of str to AnovaResult
        With ``anova=True``: each measure's two-way ANOVA of topics x systems
        (:func:`cwlkit.stats.multi.two_way_anova`).
    risk : dict of str to RiskTable
        With ``risk=alpha``: each measure's URisk and TRisk against the baseline and ZRisk
        and GeoRisk over the runs (:func:`cwlkit.stats.risk.risk_table`, on the same topics).
    scores : numpy.ndarray
        float64[R, M, n]: the per-topic scores tested (runs x measures x ``topics``).
    """

    runs: list[str]
    measures: list[str]
    topics: list[str]
    means: np.ndarray
    records: list[dict[str, Any]]
    test: str
    correction: str
    alpha: float
    samples: int | None = None
    seed: int | None = None
    dropped: dict[str, int] = field(default_factory=dict)
    anova: dict[str, Any] = field(default_factory=dict)
    scores: np.ndarray | None = field(default=None, repr=False)
    risk: dict[str, Any] = field(default_factory=dict)

    def to_records(self) -> list[dict[str, Any]]:
        """The comparisons, one dict per (measure, pair of runs)."""
        return [dict(r) for r in self.records]

    def means_records(self) -> list[dict[str, Any]]:
        """One dict per run: ``run`` and the mean of each measure."""
        return [
            {"run": run, **{m: float(self.means[i, j]) for j, m in enumerate(self.measures)}}
            for i, run in enumerate(self.runs)
        ]

    def to_frame(self):
        """The comparisons as a pandas DataFrame (needs pandas)."""
        try:
            import pandas as pd
        except ImportError:  # pragma: no cover - optional
            raise ImportError(
                "ComparisonTable.to_frame() needs pandas: pip install pandas"
            ) from None
        return pd.DataFrame.from_records(self.to_records(), columns=list(COLUMNS))


def _pairs(names: list[str], baseline: str | None, all_pairs: bool) -> list[tuple[int, int]]:
    """(run, baseline) index pairs."""
    if all_pairs:
        return [(j, i) for i in range(len(names)) for j in range(i + 1, len(names))]
    b = 0 if baseline is None else names.index(check_choice("baseline", baseline, names))
    return [(j, b) for j in range(len(names)) if j != b]


def measure_names(measures: Any) -> list[str] | None:
    """``measures=``: None, one name, or a sequence of names (strings or Measure objects)."""
    if measures is None:
        return None
    if isinstance(measures, str):
        return [measures]
    if isinstance(measures, (Mapping, bytes)) or not isinstance(measures, Sequence):
        raise refuse("measures", "a list of measure names or None", measures)
    out = []
    for m in measures:
        if not isinstance(m, str) and not hasattr(m, "name"):
            raise refuse("measures", "a list of measure names or None", measures)
        out.append(m)
    return out


def compare(
    results_by_run: Any,
    *,
    test: str = "t",
    correction: str = "none",
    alpha: float = 0.05,
    baseline: str | None = None,
    all_pairs: bool = False,
    measures: Sequence[str] | None = None,
    samples: int = 10_000,
    seed: int | None = 0,
    anova: bool = False,
    risk: float | None = None,
) -> ComparisonTable:
    """Compare runs with a paired test on every measure.

    Parameters
    ----------
    results_by_run : mapping of str to Results, or any form of :mod:`cwlkit.stats.inputs`
        Per-topic scores of each run (same measures), e.g. from :func:`cwlkit.evaluate`;
        also ``{run: {topic: {measure: score}}}`` (pytrec_eval's output), ``{run: records}``
        (ir_measures' ``Metric`` tuples), ``{run: DataFrame}`` (as
        :meth:`cwlkit.Results.to_frame`), one long DataFrame with a ``run`` column, or
        ``{run: per-topic scores}`` of one measure (``{topic: score}``, a pandas Series, an
        array: the measure is named ``score``).
    test : str
        ``t``, ``wilcoxon``, ``sign``, ``randomization`` or ``bootstrap`` (see
        :mod:`cwlkit.stats.tests`), or ``tukey``: Tukey's HSD over all the runs of each
        measure (:func:`cwlkit.stats.multi.tukey_hsd`), read off at the pairs compared; its
        p-values are already adjusted for every pair of runs, so ``correction`` must be
        ``none``.
    correction : str
        Any of :data:`cwlkit.stats.correct.CORRECTIONS` (``none``, ``bonferroni``, ``holm``,
        ``bh``...), applied across *all* comparisons made (every measure and every pair of
        runs together).
    alpha : float
        Significance level of the (adjusted) p-values; intervals are at ``1 - alpha``.
    baseline : str, optional
        The run every other run is compared with (default: the first).
    all_pairs : bool
        Compare every pair of runs instead (run ``j`` against run ``i`` for ``i < j``).
    measures : sequence of str, optional
        A subset of the measures (default: every measure all runs have).
    samples, seed : optional
        For the Monte-Carlo tests: an integer from 1 to 10^8, and an integer >= 0 or None
        (fresh entropy); checked whichever test runs.
    anova : bool
        Also run each measure's two-way ANOVA of topics x systems (``anova`` attribute).
    risk : float, optional
        Also compute each measure's risk-sensitive measures with this alpha (>= 0; losses
        weigh ``1 + alpha``): URisk and TRisk of every run against the baseline (the first
        run with ``all_pairs``), ZRisk and GeoRisk over the runs (``risk`` attribute;
        :mod:`cwlkit.stats.risk`).

    Notes
    -----
    Runs are paired on the topics they all have; the means in the table are over the same
    topics, so ``diff`` is the difference of the printed means. Topics some run lacks are
    counted in ``dropped``.
    """
    from .inputs import check_spread, runs_results
    from .multi import MULTI_TESTS
    from .tests import ALIASES, TESTS

    check_probability("alpha", alpha)
    alpha = float(alpha)
    correction = correction_name(correction)
    if not (isinstance(test, str) and test.lower() in (*TESTS, *ALIASES, *MULTI_TESTS)):
        check_choice("test", test, (*TESTS, *MULTI_TESTS))
    all_pairs = check_bool("all_pairs", all_pairs)
    anova = check_bool("anova", anova)
    risk_alpha = check_number("risk", risk, least=0.0, none=True)
    check_int("samples", samples, least=1, most=MAX_SAMPLES)
    samples = int(samples)
    seed = check_seed("seed", seed)
    wanted = measure_names(measures)
    by_run = runs_results("results_by_run", results_by_run)
    names = list(by_run)
    res = list(by_run.values())
    if len(res) < 2:
        raise ParamError(f"comparing runs needs at least 2 runs; got {len(res)}")
    if baseline is not None:
        check_choice("baseline", baseline, names)
    if wanted is None:
        common_m = [m for m in res[0].measures if all(m in r.measures for r in res[1:])]
    else:
        common_m = wanted
    if not common_m:
        raise ParamError("the runs have no measure in common")
    rows = [[r._row(m) for m in common_m] for r in res]
    canon = [res[0].measures[i] for i in rows[0]]
    topic_sets = [set(r.topics) for r in res]
    topics = sorted(set.intersection(*topic_sets))
    if not topics:
        raise NoTopicsError("the runs have no topic in common")
    dropped = {n: len(s) - len(topics) for n, s in zip(names, topic_sets, strict=True)}

    def columns(r: Results) -> list[int]:
        pos = {t: i for i, t in enumerate(r.topics)}
        return [pos[t] for t in topics]

    vals = np.stack(
        [r.values[np.ix_(rw, columns(r))] for r, rw in zip(res, rows, strict=True)]
    )  # [R, M, n]
    if r_bad := [names[i] for i in range(len(res)) if not np.isfinite(vals[i]).all()]:
        raise CwlkitError(f"run {r_bad[0]!r} has undefined (NaN) or infinite scores; cannot test")
    check_spread("per-topic scores", vals)
    means = vals.mean(axis=2)
    pairs = _pairs(names, baseline, all_pairs)
    a = np.array([p[0] for p in pairs])
    b = np.array([p[1] for p in pairs])
    if test.lower() == "tukey":
        from .multi import pairwise_tukey

        if correction != "none":
            raise ParamError(
                "Tukey's HSD p-values are already adjusted for every pair of runs; "
                "use correction 'none'"
            )
        tr = pairwise_tukey(vals, a, b, confidence=1.0 - alpha)
    else:
        tr = paired_test(
            vals[a], vals[b], test, confidence=1.0 - alpha, samples=samples, seed=seed
        )  # [P, M]
    reject, adj = correct(tr.p_value, correction, alpha)
    records: list[dict[str, Any]] = []
    for j, m in enumerate(canon):
        for k, (ia, ib) in enumerate(pairs):
            records.append(
                {
                    "measure": m,
                    "run": names[ia],
                    "baseline": names[ib],
                    "run_mean": float(means[ia, j]),
                    "baseline_mean": float(means[ib, j]),
                    "diff": float(tr.diff[k, j]),
                    "estimate": float(tr.estimate[k, j]),
                    "ci_low": float(tr.ci_low[k, j]),
                    "ci_high": float(tr.ci_high[k, j]),
                    "statistic": float(tr.statistic[k, j]),
                    "p_value": float(tr.p_value[k, j]),
                    "p_adjusted": float(adj[k, j]),
                    "significant": bool(reject[k, j]),
                    "n": len(topics),
                }
            )
    return ComparisonTable(
        runs=names,
        measures=canon,
        topics=topics,
        means=means,
        records=records,
        test=tr.test,
        correction=correction,
        alpha=alpha,
        samples=tr.samples,
        seed=tr.seed,
        dropped=dropped,
        anova=_anova(vals, canon) if anova else {},
        scores=vals,
        risk={} if risk_alpha is None else _risk(vals, canon, names, topics, baseline, risk_alpha),
    )


def _risk(
    vals: np.ndarray,
    measures: list[str],
    names: list[str],
    topics: list[str],
    baseline: str | None,
    alpha: float,
) -> dict[str, Any]:
    """Each measure's :class:`~cwlkit.stats.risk.RiskTable` (runs x topics of ``vals``)."""
    from .risk import risk_table

    base = names[0] if baseline is None else baseline
    if (vals < 0).any():
        raise ParamError("risk: ZRisk and GeoRisk need scores >= 0")
    return {
        m: risk_table(vals[:, j, :], names, topics, measure=m, baseline=base, alpha=alpha)
        for j, m in enumerate(measures)
    }


def _anova(vals: np.ndarray, measures: list[str]) -> dict[str, Any]:
    from .multi import two_way_anova

    return {m: two_way_anova(vals[:, j, :]) for j, m in enumerate(measures)}
