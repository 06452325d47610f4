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
}

__all__ = [
    "CwlkitError",
    "FormatError",
    "ParamError",
    "Qrels",
    "RankingBatch",
    "Results",
    "Run",
    "UnknownMeasureError",
    "__version__",
    "build_batch",
    "cwl_vectors",
    "evaluate",
    "evaluate_cwl",
    "parse_measure",
    "read_costs",
    "read_qrels",
    "read_run",
]

if TYPE_CHECKING:  # pragma: no cover
    from .api import cwl_vectors, evaluate, evaluate_cwl
    from .core.batch import RankingBatch, build_batch
    from .errors import CwlkitError, FormatError, ParamError, UnknownMeasureError
    from .io.costs import read_costs
    from .io.trec import Qrels, Run, read_qrels, read_run
    from .measures.parse import parse_measure
    from .results import Results


def __getattr__(name: str) -> Any:
    mod = _LAZY.get(name)
    if mod is None:
        raise AttributeError(f"module 'cwlkit' has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(mod), name)
    globals()[name] = value
    return value
