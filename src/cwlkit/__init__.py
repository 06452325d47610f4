"""cwlkit: fast, exact offline evaluation of ranked retrieval.

Public API (imports are lazy so that ``import cwlkit`` stays fast)::

    import cwlkit
    qrels = cwlkit.read_qrels("qrels.txt")
    run = cwlkit.read_run("run.txt")
    res = cwlkit.evaluate(qrels, run, ["P@10", "RBP(p=0.8)", "INST(T=2)"])
    res.mean()
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

_LAZY = {
    "read_qrels": "cwlkit.io.trec",
    "read_run": "cwlkit.io.trec",
    "Qrels": "cwlkit.io.trec",
    "Run": "cwlkit.io.trec",
    "read_costs": "cwlkit.io.costs",
    "build_batch": "cwlkit.core.batch",
    "RankingBatch": "cwlkit.core.batch",
    "evaluate": "cwlkit.api",
    "evaluate_cwl": "cwlkit.api",
    "cwl_vectors": "cwlkit.api",
    "Results": "cwlkit.results",
    "parse_measure": "cwlkit.measures.parse",
    "CwlkitError": "cwlkit.errors",
    "FormatError": "cwlkit.errors",
    "ParamError": "cwlkit.errors",
    "UnknownMeasureError": "cwlkit.errors",
    "pr_curve": "cwlkit.measures.curves",
    "roc_curve": "cwlkit.measures.curves",
    "PRCurve": "cwlkit.measures.curves",
    "ROCCurve": "cwlkit.measures.curves",
    "contingency": "cwlkit.measures.classic",
    "evaluate_letor_files": "cwlkit.measures.letor",
    "gdeval_report": "cwlkit.report.gdeval",
    "evaluate_trec": "cwlkit.measures.trec.evaluate",
}

__all__ = [
    "CwlkitError",
    "FormatError",
    "PRCurve",
    "ParamError",
    "Qrels",
    "ROCCurve",
    "RankingBatch",
    "Results",
    "Run",
    "UnknownMeasureError",
    "__version__",
    "build_batch",
    "contingency",
    "cwl_vectors",
    "evaluate",
    "evaluate_cwl",
    "evaluate_letor_files",
    "evaluate_trec",
    "gdeval_report",
    "parse_measure",
    "pr_curve",
    "read_costs",
    "read_qrels",
    "read_run",
    "roc_curve",
]

if TYPE_CHECKING:  # pragma: no cover
    from .api import cwl_vectors, evaluate, evaluate_cwl
    from .core.batch import RankingBatch, build_batch
    from .errors import CwlkitError, FormatError, ParamError, UnknownMeasureError
    from .io.costs import read_costs
    from .io.trec import Qrels, Run, read_qrels, read_run
    from .measures.classic import contingency
    from .measures.curves import PRCurve, ROCCurve, pr_curve, roc_curve
    from .measures.letor import evaluate_letor_files
    from .measures.parse import parse_measure
    from .measures.trec.evaluate import evaluate_trec
    from .report.gdeval import gdeval_report
    from .results import Results


def __getattr__(name: str) -> Any:
    mod = _LAZY.get(name)
    if mod is None:
        raise AttributeError(f"module 'cwlkit' has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(mod), name)
    globals()[name] = value
    return value
