"""Comparing systems: paired significance tests, multiple-testing corrections, rank
correlations of measures and systems, and fitting a metric's parameter to a target measure.

Everything here works on numpy arrays and on the other forms of scores and runs cwlkit gives
or reads (:mod:`cwlkit.stats.inputs`: lists, mappings by topic, pandas and polars, Results,
pytrec_eval dicts, ir_measures records...); every option is checked by
:mod:`cwlkit.support.checks`, and bad input is a :class:`~cwlkit.errors.CwlkitError`. scipy is
imported inside the functions that need it, so ``import cwlkit.stats`` is cheap.

Submodules
----------
tests
    :func:`paired_test` and one function per test (t, Wilcoxon, sign, randomization,
    bootstrap), vectorised over many comparisons at once.
correct
    :func:`correct`: every method of statsmodels' ``multipletests`` (Bonferroni, Holm,
    Benjamini-Hochberg/-Yekutieli without statsmodels).
multi
    Tests over many systems: :func:`tukey_hsd` (scipy's) and :func:`two_way_anova`.
report
    :func:`report_table`: the numbers of ``cwlkit report`` (means, intervals, marks,
    relative change, win/tie/loss, effect sizes).
correlate
    Pearson, Spearman, Kendall tau-b, tau_AP, weighted tau (1/(r+1) weights), RBO.
matrix
    :func:`correlation_matrix`: those coefficients for every pair of measures, per system and
    per (run, topic) pair (the ERR paper's Table 2).
fit
    The ERR paper's parameter fit: correlation of a metric family with a target measure over
    a parameter grid.
comparison
    :func:`compare`: mean scores and paired tests of several runs' :class:`Results`.
inputs
    The input forms: per-topic scores, several runs' scores, systems x topics, as numpy
    arrays and :class:`cwlkit.Results`.
runs
    :func:`~cwlkit.stats.runs.evaluate_runs`: a qrels and several run files, evaluated (for
    the comparing command lines).
render
    Numbers and tables as text, TSV, Markdown and JSON (for the comparing command lines).
"""

from __future__ import annotations

from typing import Any

# Eager (numpy only): a function named like its module must be bound after the module import,
# or ``cwlkit.stats.correct`` would be the module once anything imported it.
from .comparison import ComparisonTable, compare
from .correct import CORRECTIONS, correct

_LAZY = {
    "paired_test": "cwlkit.stats.tests",
    "t_test": "cwlkit.stats.tests",
    "wilcoxon_test": "cwlkit.stats.tests",
    "sign_test": "cwlkit.stats.tests",
    "randomization_test": "cwlkit.stats.tests",
    "bootstrap_test": "cwlkit.stats.tests",
    "PairedTestResult": "cwlkit.stats.tests",
    "TESTS": "cwlkit.stats.tests",
    "pearson": "cwlkit.stats.correlate",
    "spearman": "cwlkit.stats.correlate",
    "kendall_tau_b": "cwlkit.stats.correlate",
    "tau_ap": "cwlkit.stats.ap_correlation",
    "weighted_tau": "cwlkit.stats.correlate",
    "rbo": "cwlkit.stats.agreement",
    "RBO": "cwlkit.stats.agreement",
    "rbo_scores": "cwlkit.stats.correlate",
    "Correlation": "cwlkit.stats.correlate",
    "correlation_matrix": "cwlkit.stats.matrix",
    "correlate_runs": "cwlkit.stats.matrix",
    "CorrelationMatrix": "cwlkit.stats.matrix",
    "fit_parameter": "cwlkit.stats.fit",
    "fit_runs": "cwlkit.stats.fit",
    "parse_grid": "cwlkit.stats.fit",
    "plot_fit": "cwlkit.stats.fit",
    "FitResult": "cwlkit.stats.fit",
    "tukey_hsd": "cwlkit.stats.multi",
    "two_way_anova": "cwlkit.stats.multi",
    "TukeyResult": "cwlkit.stats.multi",
    "AnovaResult": "cwlkit.stats.multi",
    "report_table": "cwlkit.stats.report",
    "ReportTable": "cwlkit.stats.report",
}

__all__ = [
    "AnovaResult",
    "CORRECTIONS",
    "ComparisonTable",
    "Correlation",
    "CorrelationMatrix",
    "FitResult",
    "PairedTestResult",
    "RBO",
    "ReportTable",
    "TESTS",
    "TukeyResult",
    "bootstrap_test",
    "compare",
    "correct",
    "correlate_runs",
    "correlation_matrix",
    "fit_parameter",
    "fit_runs",
    "kendall_tau_b",
    "paired_test",
    "parse_grid",
    "pearson",
    "plot_fit",
    "randomization_test",
    "rbo",
    "rbo_scores",
    "report_table",
    "sign_test",
    "spearman",
    "t_test",
    "tau_ap",
    "tukey_hsd",
    "two_way_anova",
    "weighted_tau",
    "wilcoxon_test",
]


def __getattr__(name: str) -> Any:
    mod = _LAZY.get(name)
    if mod is None:
        raise AttributeError(f"module 'cwlkit.stats' has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(mod), name)
    globals()[name] = value
    return value
