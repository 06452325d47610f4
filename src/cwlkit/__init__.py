"""cwlkit: fast, exact offline evaluation of ranked retrieval.

Public API (imports are lazy so that ``import cwlkit`` stays fast)::

    import cwlkit
    res = cwlkit.evaluate("qrels.txt", "run.txt", ["P@10", "RBP(p=0.8)", "INST(T=2)"])
    res.mean()            # trec_eval 9.0.8's rules: topics in both files, float32 scores
    ev = cwlkit.Evaluator("qrels.txt", ["AP", "nDCG@10"])   # qrels prepared once
    ev.evaluate_many(["a.run", "b.run"])
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .support.version import VERSION as __version__

_LAZY = {
    "read_qrels": "cwlkit.io.trec",
    "read_run": "cwlkit.io.trec",
    "Qrels": "cwlkit.io.trec",
    "Run": "cwlkit.io.trec",
    "read_costs": "cwlkit.io.costs",
    "evaluate": "cwlkit.api",
    "Evaluator": "cwlkit.api",
    "example": "cwlkit.api",
    "cwl_vectors": "cwlkit.api",
    "as_qrels": "cwlkit.io.inputs",
    "as_run": "cwlkit.io.inputs",
    "InputError": "cwlkit.errors",
    "list_measures": "cwlkit.measures.catalogue",
    "to_ir_measures": "cwlkit.ir_measures_provider",
    "Results": "cwlkit.results",
    "parse_measure": "cwlkit.measures.parse",
    "CwlkitError": "cwlkit.errors",
    "FormatError": "cwlkit.errors",
    "ParamError": "cwlkit.errors",
    "NoTopicsError": "cwlkit.errors",
    "UnknownMeasureError": "cwlkit.errors",
    "pr_curve": "cwlkit.api",
    "roc_curve": "cwlkit.api",
    "read_diversity_qrels": "cwlkit.io.diversity",
    "as_diversity_qrels": "cwlkit.io.diversity",
    "DiversityQrels": "cwlkit.io.diversity",
    "report": "cwlkit.comparison.build",
    "rbo": "cwlkit.stats.agreement",
    "RBO": "cwlkit.stats.agreement",
    "tau_ap": "cwlkit.stats.ap_correlation",
    "pool": "cwlkit.judging",
    "Pool": "cwlkit.judging",
    "simulate_judging": "cwlkit.judging",
    "Simulation": "cwlkit.judging",
    "compare_runs": "cwlkit.judging",
    "reusability": "cwlkit.judging",
    "diff": "cwlkit.rundiff",
    "risk": "cwlkit.stats.risk",
    "reproducibility": "cwlkit.stats.reproduce",
    "Reproducibility": "cwlkit.stats.reproduce",
    "RiskTable": "cwlkit.stats.risk",
    "Diff": "cwlkit.rundiff",
    "Reusability": "cwlkit.judging",
    "fuse": "cwlkit.fusion",
    "optimize_fusion": "cwlkit.fusion",
    "FusionOptimisation": "cwlkit.fusion",
}

__all__ = [
    "CwlkitError",
    "Evaluator",
    "FormatError",
    "InputError",
    "NoTopicsError",
    "ParamError",
    "Qrels",
    "Results",
    "Run",
    "UnknownMeasureError",
    "__version__",
    "as_qrels",
    "as_run",
    "cwl_vectors",
    "Diff",
    "diff",
    "evaluate",
    "example",
    "fuse",
    "FusionOptimisation",
    "optimize_fusion",
    "DiversityQrels",
    "as_diversity_qrels",
    "read_diversity_qrels",
    "list_measures",
    "parse_measure",
    "Pool",
    "pool",
    "pr_curve",
    "read_costs",
    "read_qrels",
    "read_run",
    "RBO",
    "rbo",
    "report",
    "reproducibility",
    "Reproducibility",
    "risk",
    "RiskTable",
    "Reusability",
    "reusability",
    "roc_curve",
    "Simulation",
    "simulate_judging",
    "compare_runs",
    "tau_ap",
    "to_ir_measures",
]

if TYPE_CHECKING:  # pragma: no cover
    from .api import Evaluator, cwl_vectors, evaluate, example, pr_curve, roc_curve
    from .comparison.build import report
    from .errors import CwlkitError, FormatError, InputError, ParamError, UnknownMeasureError
    from .fusion import FusionOptimisation, fuse, optimize_fusion
    from .io.costs import read_costs
    from .io.diversity import DiversityQrels, as_diversity_qrels, read_diversity_qrels
    from .io.inputs import as_qrels, as_run
    from .io.trec import Qrels, Run, read_qrels, read_run
    from .ir_measures_provider import to_ir_measures
    from .judging import (
        Pool,
        Reusability,
        Simulation,
        compare_runs,
        pool,
        reusability,
        simulate_judging,
    )
    from .measures.catalogue import list_measures
    from .measures.parse import parse_measure
    from .results import Results
    from .rundiff import Diff, diff
    from .stats.agreement import RBO, rbo
    from .stats.ap_correlation import tau_ap
    from .stats.reproduce import Reproducibility, reproducibility
    from .stats.risk import RiskTable, risk


def __getattr__(name: str) -> Any:
    mod = _LAZY.get(name)
    if mod is None:
        raise AttributeError(f"module 'cwlkit' has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(mod), name)
    globals()[name] = value
    return value
