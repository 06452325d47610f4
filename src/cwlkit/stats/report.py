"""The numbers of a comparison report: one row per run, one block of cells per measure.

:func:`report_table` takes one :class:`cwlkit.Results` per run (each computed once, with
every measure) and gives a :class:`ReportTable`: per run and measure the mean over the
topics every run has, its confidence interval, the significance marks, the difference and
relative change against the baseline, the per-topic wins, ties and losses against it, and an
effect size. The tests are :func:`cwlkit.stats.compare`'s (one vectorised call for every
measure and pair of runs, the correction across all of them), so ``cwlkit report`` and
``cwlkit compare`` print the same p-values. Formatting (HTML, LaTeX, Markdown, CSV, JSON)
lives in :mod:`cwlkit.report`.

Marks
-----
- against a baseline (``baseline=`` given, ``pairwise=False``): ``▲`` where the run is
  significantly better than the baseline, ``▼`` where significantly worse;
- pairwise (no baseline, or ``pairwise=True``; as ranx's reports): each run gets a letter
  (``a``, ``b``, ...), and a run's cell carries the letters of the runs it is significantly
  better than.

"Significantly" means the adjusted p-value is at most ``alpha``. Higher scores are taken to
be better for every measure.
"""

from __future__ import annotations

import math
import string
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..results import Results

MARK_BETTER = "\u25b2"  # ▲
MARK_WORSE = "\u25bc"  # ▼
#: a per-topic difference at most this large (in absolute value) is a tie
TIE_TOLERANCE = 1e-12

TEST_NAMES = {
    "t": "paired t-test",
    "wilcoxon": "Wilcoxon signed-rank test",
    "sign": "sign test",
    "randomization": "randomization (sign-flip) test",
    "bootstrap": "paired bootstrap test",
    "tukey": "Tukey's HSD",
}
CORRECTION_NAMES = {
    "none": "no correction",
    "bonferroni": "Bonferroni correction",
    "holm": "Holm correction",
    "bh": "Benjamini-Hochberg correction",
    "by": "Benjamini-Yekutieli correction",
    "sidak": "Sidak correction",
    "holm-sidak": "Holm-Sidak correction",
    "simes-hochberg": "Simes-Hochberg correction",
    "hommel": "Hommel correction",
    "fdr_tsbh": "two-stage Benjamini-Hochberg correction",
    "fdr_tsbky": "two-stage Benjamini-Krieger-Yekutieli correction",
    "fdr_gbs": "adaptive Gavrilov-Benjamini-Sarkar correction",
    "lfdr": "local FDR (support line) correction",
}


def letters(n: int) -> list[str]:
    """``n`` run letters: a..z, then A..Z, then a1, b1, ..."""
    pool = string.ascii_lowercase + string.ascii_uppercase
    return [pool[i % len(pool)] + (str(i // len(pool)) if i >= len(pool) else "") for i in range(n)]


@dataclass
class ReportTable:
    """A comparison report's numbers (``R`` runs, ``M`` measures, ``n`` common topics).

    Attributes
    ----------
    runs, measures, topics : list of str
        Runs in the order given, canonical measure names, the topics every run has.
    baseline : str
        The reference of ``delta``, ``relative``, W/T/L and ``effect`` (the baseline, or the
        first run when none was named).
    pairwise : bool
        Marks are letters over every pair of runs (True) or ▲/▼ against the baseline.
    scores : numpy.ndarray
        float64[R, M, n] per-topic scores on ``topics``.
    mean, ci_low, ci_high : numpy.ndarray
        float64[R, M]: the mean over ``topics`` and its Student-t confidence interval at
        ``1 - alpha`` (``mean +- t_{1-alpha/2, n-1} sd / sqrt(n)``).
    delta, relative : numpy.ndarray
        float64[R, M]: ``mean - mean_baseline`` and ``delta / mean_baseline`` (NaN when the
        baseline's mean is 0).
    wins, ties, losses : numpy.ndarray
        int64[R, M]: topics where the run scores above, equal to (within 1e-12) or below the
        baseline.
    effect : numpy.ndarray
        float64[R, M]: Cohen's ``d_z`` of the paired differences against the baseline,
        ``mean(d) / sd(d)`` (``sd`` with ``n - 1``; 0 when every difference is 0).
    p_value, p_adjusted : numpy.ndarray
        float64[R, M]: the test of the run against the baseline (NaN on the baseline's row).
    significant : numpy.ndarray
        bool[R, M]: ``p_adjusted <= alpha`` against the baseline.
    pair_p_value, pair_p_adjusted : numpy.ndarray
        float64[M, R, R]: every pair's p-values in pairwise mode (symmetric; NaN where no
        test was made, e.g. the diagonal, or pairs without the baseline in baseline mode).
    pair_significant : numpy.ndarray
        bool[M, R, R]: ``[m, i, j]`` run ``i`` is significantly *better* than run ``j``.
    letters : list of str
        One letter per run (pairwise marks).
    expected_depth : numpy.ndarray
        float64[R, M]: the mean C/W/L expected depth ``ED`` (NaN for other measures).
    anova : dict of str to AnovaResult
        Each measure's two-way ANOVA (with ``anova=True``).
    risk : dict of str to RiskTable
        Each measure's risk-sensitive measures (with ``risk=alpha``): URisk and TRisk
        against the baseline (the first run without one), ZRisk and GeoRisk over the runs.
    deciding : list of dict or None
        For each comparison, the topics whose removal flips its significance
        (:func:`cwlkit.stats.decide.deciding_topics`); None above its topic limit.
    test, correction, alpha, samples, seed
        The settings of the tests.
    dropped : dict of str to int
        Topics of each run left out because another run lacks them.
    comparisons : list of dict
        :func:`cwlkit.stats.compare`'s records, one per test made.
    """

    runs: list[str]
    measures: list[str]
    topics: list[str]
    baseline: str
    pairwise: bool
    scores: np.ndarray
    mean: np.ndarray
    ci_low: np.ndarray
    ci_high: np.ndarray
    delta: np.ndarray
    relative: np.ndarray
    wins: np.ndarray
    ties: np.ndarray
    losses: np.ndarray
    effect: np.ndarray
    p_value: np.ndarray
    p_adjusted: np.ndarray
    significant: np.ndarray
    pair_p_value: np.ndarray
    pair_p_adjusted: np.ndarray
    pair_significant: np.ndarray
    letters: list[str]
    expected_depth: np.ndarray
    test: str
    correction: str
    alpha: float
    samples: int | None = None
    seed: int | None = None
    anova: dict[str, Any] = field(default_factory=dict)
    risk: dict[str, Any] = field(default_factory=dict)
    deciding: list[dict[str, Any]] | None = None
    dropped: dict[str, int] = field(default_factory=dict)
    comparisons: list[dict[str, Any]] = field(default_factory=list, repr=False)

    # --- lookups ----------------------------------------------------------------------
    @property
    def base_index(self) -> int:
        return self.runs.index(self.baseline)

    @property
    def confidence(self) -> float:
        return 1.0 - self.alpha

    def best(self, j: int) -> list[int]:
        """Rows with the highest mean of measure ``j`` (all of them when tied)."""
        col = self.mean[:, j]
        if not np.isfinite(col).any():
            return []
        top = np.nanmax(col)
        return [int(i) for i in np.flatnonzero(col == top)]

    def beats(self, i: int, j: int) -> list[int]:
        """Runs that run ``i`` is significantly better than on measure ``j`` (pairwise)."""
        return [int(k) for k in np.flatnonzero(self.pair_significant[j, i])]

    def marks(self, i: int, j: int) -> str:
        """The significance marks of run ``i`` on measure ``j``: letters or ▲/▼ (or "")."""
        if self.pairwise:
            return "".join(self.letters[k] for k in self.beats(i, j))
        if i == self.base_index or not self.significant[i, j]:
            return ""
        return MARK_BETTER if self.delta[i, j] > 0 else MARK_WORSE

    @property
    def has_cwl(self) -> bool:
        """Whether any measure has C/W/L expected depths."""
        return bool(np.isfinite(self.expected_depth).any())

    # --- words ------------------------------------------------------------------------
    def describe_test(self) -> str:
        """The test, correction and alpha in words (for captions and legends)."""
        name = TEST_NAMES.get(self.test, self.test)
        if self.samples is not None:
            name += f" ({self.samples} samples, seed {self.seed})"
        if self.test == "tukey":
            corr = "p-values adjusted for every pair of runs of a measure"
        else:
            corr = CORRECTION_NAMES.get(self.correction, f"{self.correction} correction")
            n = len(self.comparisons)
            if self.correction != "none":
                corr += f" over {n} comparison{'s' if n != 1 else ''}"
        return f"two-sided {name}, {corr}, alpha = {self.alpha:g}"

    def legend(self, *, interval: bool = True, effect: bool = True) -> list[str]:
        """Sentences explaining the marks and columns (``interval``: the table shows the
        confidence intervals; ``effect``: it shows the effect sizes ``d``)."""
        out = []
        if self.pairwise:
            out.append(
                "Letters: the run is significantly better than the runs with those letters "
                f"({self.describe_test()})."
            )
        else:
            out.append(
                f"{MARK_BETTER} / {MARK_WORSE}: significantly better / worse than the baseline "
                f"{self.baseline} ({self.describe_test()})."
            )
        out.append("Bold: the best mean of each measure.")
        scores = f"Scores are means over the {len(self.topics)} topics every run has"
        if interval:
            scores += (
                f"; the interval is the {100 * self.confidence:g}% Student-t confidence "
                "interval of the mean"
            )
        out.append(scores + ".")
        cols = (
            f"Δ%: relative change of the mean against {self.baseline}; W/T/L: topics where "
            "the run scores above / equal to / below it"
        )
        if effect:
            cols += "; d: Cohen's d_z of the per-topic differences (mean / standard deviation)"
        out.append(cols + ".")
        return out

    # --- exports ----------------------------------------------------------------------
    def to_records(self) -> list[dict[str, Any]]:
        """One dict per (run, measure)."""
        out = []
        b = self.base_index
        for i, run in enumerate(self.runs):
            for j, m in enumerate(self.measures):
                out.append(
                    {
                        "run": run,
                        "letter": self.letters[i],
                        "measure": m,
                        "mean": float(self.mean[i, j]),
                        "ci_low": float(self.ci_low[i, j]),
                        "ci_high": float(self.ci_high[i, j]),
                        "baseline": self.baseline,
                        "delta": float(self.delta[i, j]),
                        "relative": float(self.relative[i, j]),
                        "wins": int(self.wins[i, j]),
                        "ties": int(self.ties[i, j]),
                        "losses": int(self.losses[i, j]),
                        "effect_size": float(self.effect[i, j]),
                        "p_value": float(self.p_value[i, j]),
                        "p_adjusted": float(self.p_adjusted[i, j]),
                        "significant": bool(self.significant[i, j]) if i != b else None,
                        "marks": self.marks(i, j),
                        "best": i in self.best(j),
                        "expected_depth": float(self.expected_depth[i, j]),
                    }
                )
        return out

    def to_dict(self) -> dict[str, Any]:
        """Everything as plain Python (for JSON)."""
        doc: dict[str, Any] = {
            "test": self.test,
            "correction": self.correction,
            "alpha": self.alpha,
            "confidence": self.confidence,
            "samples": self.samples,
            "seed": self.seed,
            "description": self.describe_test(),
            "baseline": self.baseline,
            "pairwise": self.pairwise,
            "runs": self.runs,
            "letters": dict(zip(self.runs, self.letters, strict=True)),
            "measures": self.measures,
            "topics": self.topics,
            "dropped": self.dropped,
            "rows": self.to_records(),
            "comparisons": self.comparisons,
        }
        if self.anova:
            doc["anova"] = {m: a.to_records() for m, a in self.anova.items()}
        if self.deciding is not None:
            doc["deciding"] = self.deciding
        if self.risk:
            doc["risk"] = {m: r.rows() for m, r in self.risk.items()}
            doc["risk_alpha"] = float(next(iter(self.risk.values())).alpha)
        return doc

    def risk_rows(self) -> tuple[list[str], list[list[str]]]:
        """The risk table's header and formatted rows (measure, run, mean, URisk, TRisk, p,
        ZRisk, GeoRisk, W/L), for the report's formats."""
        from .render import fmt_num, fmt_p

        head = ["measure", "run", "mean", "URisk", "TRisk", "p", "ZRisk", "GeoRisk", "W/L"]
        rows = []
        for m, t in self.risk.items():
            for r in t.rows():
                base = r["run"] == t.baseline  # (against itself: nothing to say)
                rows.append(
                    [
                        m,
                        r["run"],
                        fmt_num(r["mean"]),
                        "-" if base else fmt_num(r["URisk"], signed=True),
                        "-" if base else fmt_num(r["TRisk"], 3),
                        "-" if base else fmt_p(r["p"]),
                        fmt_num(r["ZRisk"], 3),
                        fmt_num(r["GeoRisk"]),
                        "-" if base else f"{r['wins']}/{r['losses']}",
                    ]
                )
        return head, rows

    def risk_title(self) -> str:
        """One line saying what the risk table holds."""
        first = next(iter(self.risk.values()))
        return (
            f"Risk (alpha {first.alpha:g}: a loss weighs {1 + first.alpha:g} times a win): "
            f"URisk and TRisk against {first.baseline}, ZRisk and GeoRisk over the runs."
        )


def _mean_ci(scores: np.ndarray, alpha: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Mean and Student-t interval over the last axis."""
    from scipy import stats

    n = scores.shape[-1]
    mean = scores.mean(axis=-1)
    if n < 2:
        nan = np.full(mean.shape, np.nan)
        return mean, nan, nan.copy()
    half = stats.t.ppf(1.0 - alpha / 2.0, n - 1) * np.sqrt(scores.var(axis=-1, ddof=1) / n)
    return mean, mean - half, mean + half


def _effect(d: np.ndarray) -> np.ndarray:
    """Cohen's d_z over the last axis: mean / sd (0 for all-zero, +-inf for constant)."""
    n = d.shape[-1]
    mean = d.mean(axis=-1)
    sd = d.std(axis=-1, ddof=1) if n > 1 else np.zeros(mean.shape)
    with np.errstate(divide="ignore", invalid="ignore"):
        out = mean / sd
    out[(sd == 0) & (mean == 0)] = 0.0
    return out


def _expected_depth(res: Results, measures: list[str], topics: list[str]) -> np.ndarray:
    ed = res.columns.get("ED")
    if ed is None:
        return np.full(len(measures), np.nan)
    pos = {t: k for k, t in enumerate(res.topics)}
    cols = [pos[t] for t in topics]
    rows = [res._row(m) for m in measures]
    vals = ed[np.ix_(rows, cols)]
    with np.errstate(invalid="ignore"):
        return vals.mean(axis=1)


def report_table(
    results_by_run: Any,
    *,
    baseline: str | None = None,
    pairwise: bool | None = None,
    test: str = "t",
    correction: str = "none",
    alpha: float = 0.05,
    anova: bool = False,
    measures: Sequence[str] | None = None,
    samples: int = 10_000,
    seed: int | None = 0,
    risk: float | None = None,
) -> ReportTable:
    """The report's numbers for several runs' :class:`~cwlkit.Results`.

    Parameters
    ----------
    results_by_run : mapping of str to Results, or any form of :mod:`cwlkit.stats.inputs`
        One Results per run, each with every measure (e.g. ``Evaluator.evaluate_many``), or
        any other form :func:`cwlkit.stats.compare` takes.
    baseline : str, optional
        The run the others are compared with: ▲/▼ marks, Δ%, W/T/L and effect sizes. When
        not given the marks are pairwise letters and the first run is the reference of
        Δ%, W/T/L and effect sizes.
    pairwise : bool, optional
        Letters over every pair of runs even with a baseline (default: only without one).
    test : str
        ``t``, ``wilcoxon``, ``sign``, ``randomization``, ``bootstrap`` or ``tukey``.
    correction : str
        A multiple-testing correction (:data:`cwlkit.stats.correct.CORRECTIONS`), across
        every comparison made (every measure and pair); ``none`` with ``tukey``.
    alpha : float
        Significance level; the intervals are at ``1 - alpha``.
    anova : bool
        Add each measure's two-way ANOVA of topics x systems.
    measures : sequence of str, optional
        A subset of the measures (default: every measure all runs have).
    samples, seed :
        For the randomization and bootstrap tests (an integer from 1 to 10^8; an integer
        >= 0 or None).
    risk : float, optional
        Add each measure's risk-sensitive measures with this alpha (>= 0;
        :mod:`cwlkit.stats.risk`).
    """
    from ..support.checks import check_bool, check_choice
    from .comparison import compare
    from .decide import deciding_topics
    from .inputs import runs_results

    if pairwise is not None:
        pairwise = check_bool("pairwise", pairwise)
    results_by_run = runs_results("results_by_run", results_by_run)
    names = list(results_by_run)
    if baseline is not None:
        check_choice("baseline", baseline, names)
    if pairwise is None:
        pairwise = baseline is None
    ref = baseline if baseline is not None else (names[0] if names else "")
    table = compare(
        results_by_run,
        test=test,
        correction=correction,
        alpha=alpha,
        baseline=ref,
        all_pairs=bool(pairwise),
        measures=measures,
        samples=samples,
        seed=seed,
        anova=anova,
        risk=risk,
    )
    vals = table.scores
    assert vals is not None
    R, M, n = vals.shape
    runs, meas = table.runs, table.measures
    b = runs.index(ref)
    mean, lo, hi = _mean_ci(vals, table.alpha)
    d = vals - vals[b][None]
    delta = mean - mean[b][None]
    with np.errstate(divide="ignore", invalid="ignore"):
        relative = np.where(mean[b][None] != 0, delta / mean[b][None], np.nan)
    wins = (d > TIE_TOLERANCE).sum(axis=2)
    losses = (d < -TIE_TOLERANCE).sum(axis=2)
    ties = n - wins - losses
    effect = _effect(d)
    effect[b] = np.nan
    relative[b] = np.nan

    pp = np.full((M, R, R), np.nan)
    pa = np.full((M, R, R), np.nan)
    sig = np.zeros((M, R, R), dtype=bool)
    ridx = {r: i for i, r in enumerate(runs)}
    midx = {m: j for j, m in enumerate(meas)}
    for rec in table.records:
        i, k, j = ridx[rec["run"]], ridx[rec["baseline"]], midx[rec["measure"]]
        for a, c in ((i, k), (k, i)):
            pp[j, a, c] = rec["p_value"]
            pa[j, a, c] = rec["p_adjusted"]
        if rec["significant"] and rec["diff"] != 0:
            winner, loser = (i, k) if rec["diff"] > 0 else (k, i)
            sig[j, winner, loser] = True
    p_value = pp[:, :, b].T.copy()  # [R, M]
    p_adj = pa[:, :, b].T.copy()
    significant = (sig[:, :, b] | sig[:, b, :]).T.copy()
    significant[b] = False
    ed = np.stack([_expected_depth(results_by_run[r], meas, table.topics) for r in runs])
    return ReportTable(
        runs=runs,
        measures=meas,
        topics=table.topics,
        baseline=ref,
        pairwise=bool(pairwise),
        scores=vals,
        mean=mean,
        ci_low=lo,
        ci_high=hi,
        delta=delta,
        relative=relative,
        wins=wins,
        ties=ties,
        losses=losses,
        effect=effect,
        p_value=p_value,
        p_adjusted=p_adj,
        significant=significant,
        pair_p_value=pp,
        pair_p_adjusted=pa,
        pair_significant=sig,
        letters=letters(R),
        expected_depth=ed,
        test=table.test,
        correction=table.correction,
        alpha=table.alpha,
        samples=table.samples,
        seed=table.seed,
        anova=table.anova,
        risk=table.risk,
        deciding=deciding_topics(table),
        dropped=table.dropped,
        comparisons=table.records,
    )


def fmt_relative(x: float) -> str:
    """A relative change as a signed percentage (``+12.3%``), ``-`` when undefined."""
    if not math.isfinite(x):
        return "-"
    return f"{100.0 * x:+.1f}%"
