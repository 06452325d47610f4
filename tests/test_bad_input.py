"""Generated bad input at every public function of the top-level namespace: only
:class:`cwlkit.CwlkitError` subclasses come out (or a value, where the input is in fact
valid), never a raw TypeError, ValueError, AttributeError or a pyarrow error.

Each public callable of ``cwlkit.__all__`` has its arguments listed in ``TARGETS``; a test
checks the list is complete, so that a new public function is fuzzed as soon as it exists.
The judging functions and the statistics package have their own such tests
(``tests/judging/test_judging_bad_input.py``, ``tests/stats/test_stats_bad_input.py``). The
fast tier draws a few examples per argument; the slow tier many more.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import cwlkit
from cwlkit.errors import CwlkitError

Q = {"q1": {"a": 1, "b": 0}, "q2": {"c": 2}}
R = {"q1": {"a": 1.0, "b": 0.5, "x": 0.2}, "q2": {"c": 0.3, "d": 0.1}}

# values nobody means as an input: wrong types, None, empty, NaN, infinities, negatives,
# huge numbers, strings, bytes and wrongly nested shapes
_leaf = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=6),
    st.binary(max_size=4),
)
BAD = st.one_of(
    _leaf,
    st.lists(_leaf, max_size=3),
    st.tuples(_leaf, _leaf),
    st.dictionaries(st.text(max_size=3), _leaf, max_size=3),
    st.dictionaries(
        st.one_of(st.text(max_size=3), st.integers()),
        st.dictionaries(st.one_of(st.text(max_size=3), st.integers()), _leaf, max_size=3),
        max_size=3,
    ),
    st.sampled_from(
        [
            pd.DataFrame(),
            pd.DataFrame({"a": [1]}),
            pd.DataFrame({"query_id": ["q1"], "doc_id": ["a"], "score": ["x"]}),
            pd.DataFrame({"query_id": [None], "doc_id": ["a"], "relevance": [1]}),
            np.array([1, 2]),
            np.array([[math.nan]]),
            object(),
            {"q1": {"a": math.nan}},
            {"q1": {"a": 2**64}},
            {"q1": []},
        ]
    ),
)


def _results() -> cwlkit.Results:
    res = cwlkit.evaluate(Q, R, ["AP", "P@2"])
    assert isinstance(res, cwlkit.Results)
    return res


def _evaluate_option(name: str) -> Callable[[Any], Any]:
    def call(value: Any) -> Any:
        return cwlkit.evaluate(Q, R, ["AP"], **{name: value})

    return call


def _report_option(name: str) -> Callable[[Any], Any]:
    def call(value: Any) -> Any:
        return cwlkit.report(Q, {"a": R, "b": R}, ["AP"], **{"curves": False, name: value})

    return call


# every public callable: {argument: function of the bad value}
TARGETS: dict[str, dict[str, Callable[[Any], Any]]] = {
    "evaluate": {
        "qrels": lambda v: cwlkit.evaluate(v, R, ["AP"]),
        "run": lambda v: cwlkit.evaluate(Q, v, ["AP"]),
        "measures": lambda v: cwlkit.evaluate(Q, R, v),
        **{
            f"option {k}": _evaluate_option(k)
            for k in (
                "topics",
                "trec_version",
                "order",
                "depth",
                "judged_only",
                "gain",
                "residuals",
                "ties",
                "compat_depth",
                "cwl_columns",
                "max_gain",
                "min_cost",
                "topic_params",
                "compat",
                "chunk_topics",
                "costs",
            )
        },
    },
    "Evaluator": {
        "qrels": lambda v: cwlkit.Evaluator(v, ["AP"]),
        "measures": lambda v: cwlkit.Evaluator(Q, v),
        "evaluate run": lambda v: cwlkit.Evaluator(Q, ["AP"]).evaluate(v),
        "evaluate_many runs": lambda v: cwlkit.Evaluator(Q, ["AP"]).evaluate_many(v),
        "evaluate_many jobs": lambda v: cwlkit.Evaluator(Q, ["AP"]).evaluate_many([R], jobs=v),
        "batch run": lambda v: cwlkit.Evaluator(Q, ["AP"]).batch(v),
    },
    "Results": {
        "per_topic": lambda v: _results().per_topic(v),
        "mean column": lambda v: _results().mean(v),
        "select": lambda v: _results().select(v),
        "to_dict column": lambda v: _results().to_dict(v),
        "to_json per_topic": lambda v: _results().to_json(per_topic=v),
        "to_frame wide": lambda v: _results().to_frame(wide=v),
    },
    "as_qrels": {"obj": lambda v: cwlkit.as_qrels(v)},
    "as_run": {"obj": lambda v: cwlkit.as_run(v)},
    "as_diversity_qrels": {"obj": lambda v: cwlkit.as_diversity_qrels(v)},
    "read_qrels": {"path": lambda v: cwlkit.read_qrels(v)},
    "read_run": {"path": lambda v: cwlkit.read_run(v)},
    "read_costs": {"path": lambda v: cwlkit.read_costs(v)},
    "read_diversity_qrels": {"path": lambda v: cwlkit.read_diversity_qrels(v)},
    "parse_measure": {"text": lambda v: cwlkit.parse_measure(v)},
    "list_measures": {"name": lambda v: cwlkit.list_measures(v)},
    "example": {"kind": lambda v: cwlkit.example(v)},
    "cwl_vectors": {
        "qrels": lambda v: cwlkit.cwl_vectors(v, R, "RBP", "q1"),
        "run": lambda v: cwlkit.cwl_vectors(Q, v, "RBP", "q1"),
        "metric": lambda v: cwlkit.cwl_vectors(Q, R, v, "q1"),
        "topic": lambda v: cwlkit.cwl_vectors(Q, R, "RBP", v),
        "horizon": lambda v: cwlkit.cwl_vectors(Q, R, "RBP", "q1", horizon=v),
    },
    "pr_curve": {
        "qrels": lambda v: cwlkit.pr_curve(v, R),
        "run": lambda v: cwlkit.pr_curve(Q, v),
        "rel": lambda v: cwlkit.pr_curve(Q, R, rel=v),
        "levels": lambda v: cwlkit.pr_curve(Q, R, levels=v),
    },
    "roc_curve": {
        "qrels": lambda v: cwlkit.roc_curve(v, R),
        "run": lambda v: cwlkit.roc_curve(Q, v),
        "rel": lambda v: cwlkit.roc_curve(Q, R, rel=v),
    },
    "to_ir_measures": {"measure": lambda v: cwlkit.to_ir_measures(v)},
    "risk": {
        "qrels": lambda v: cwlkit.risk(v, {"a": R, "b": R}, "P@2"),
        "runs": lambda v: cwlkit.risk(Q, v, "P@2"),
        "measure": lambda v: cwlkit.risk(Q, {"a": R, "b": R}, v),
        "baseline": lambda v: cwlkit.risk(Q, {"a": R, "b": R}, "P@2", baseline=v),
        "alpha": lambda v: cwlkit.risk(Q, {"a": R, "b": R}, "P@2", alpha=v),
    },
    "reproducibility": {
        "qrels": lambda v: cwlkit.reproducibility(v, R, R, measures=["P@2"]),
        "orig_baseline": lambda v: cwlkit.reproducibility(Q, v, R, measures=["P@2"]),
        "rep_baseline": lambda v: cwlkit.reproducibility(Q, R, v, measures=["P@2"]),
        "orig_advanced": lambda v: cwlkit.reproducibility(Q, R, R, v, R, measures=["P@2"]),
        "measures": lambda v: cwlkit.reproducibility(Q, R, R, measures=v),
        "cutoffs": lambda v: cwlkit.reproducibility(Q, R, R, measures=["P@2"], cutoffs=v),
        "p": lambda v: cwlkit.reproducibility(Q, R, R, measures=["P@2"], p=v),
        "rep_qrels": lambda v: cwlkit.reproducibility(Q, R, R, measures=["P@2"], rep_qrels=v),
    },
    "diff": {
        "qrels": lambda v: cwlkit.diff(v, R, R, "P@2"),
        "run_a": lambda v: cwlkit.diff(Q, v, R, "P@2"),
        "measure": lambda v: cwlkit.diff(Q, R, R, v),
        "depth": lambda v: cwlkit.diff(Q, R, R, "P@2", depth=v),
        "p": lambda v: cwlkit.diff(Q, R, R, "P@2", p=v),
        "queries": lambda v: cwlkit.diff(Q, R, R, "P@2", queries=v),
        "docs": lambda v: cwlkit.diff(Q, R, R, "P@2", docs=v),
        "names": lambda v: cwlkit.diff(Q, R, R, "P@2", names=v),
    },
    "fuse": {
        "runs": lambda v: cwlkit.fuse(v, "sum"),
        "method": lambda v: cwlkit.fuse([R, R], v),
        "norm": lambda v: cwlkit.fuse([R, R], "sum", v),
        "depth": lambda v: cwlkit.fuse([R, R], "sum", depth=v),
        "tag": lambda v: cwlkit.fuse([R, R], "sum", tag=v),
        "weights": lambda v: cwlkit.fuse([R, R], "wsum", weights=v),
        "k": lambda v: cwlkit.fuse([R, R], "rrf", k=v),
        "phi": lambda v: cwlkit.fuse([R, R], "rbc", phi=v),
        "w": lambda v: cwlkit.fuse([R, R], "slidefuse", train_qrels=Q, w=v),
        "train_qrels": lambda v: cwlkit.fuse([R, R], "probfuse", train_qrels=v),
        "train_runs": lambda v: cwlkit.fuse([R, R], "posfuse", train_qrels=Q, train_runs=v),
        "probs": lambda v: cwlkit.fuse([R, R], "posfuse", probs=v),
        "map_scores": lambda v: cwlkit.fuse([R, R], "mapfuse", map_scores=v),
    },
    "optimize_fusion": {
        "qrels": lambda v: cwlkit.optimize_fusion(v, [R, R], "rrf", "AP", folds=2),
        "runs": lambda v: cwlkit.optimize_fusion(Q, v, "rrf", "AP", folds=2),
        "method": lambda v: cwlkit.optimize_fusion(Q, [R, R], v, "AP", folds=2),
        "measure": lambda v: cwlkit.optimize_fusion(Q, [R, R], "rrf", v, folds=2),
        "norm": lambda v: cwlkit.optimize_fusion(Q, [R, R], "rrf", "AP", v, folds=2),
        "folds": lambda v: cwlkit.optimize_fusion(Q, [R, R], "rrf", "AP", folds=v),
        "seed": lambda v: cwlkit.optimize_fusion(Q, [R, R], "rrf", "AP", folds=2, seed=v),
        "step": lambda v: cwlkit.optimize_fusion(Q, [R, R], "wsum", "AP", folds=2, step=v),
        "grid": lambda v: cwlkit.optimize_fusion(Q, [R, R], "rrf", "AP", folds=2, grid=v),
        "depth": lambda v: cwlkit.optimize_fusion(Q, [R, R], "rrf", "AP", folds=2, depth=v),
    },
    "report": {
        "qrels": lambda v: cwlkit.report(v, {"a": R, "b": R}, ["AP"], curves=False),
        "runs": lambda v: cwlkit.report(Q, v, ["AP"], curves=False),
        "measures": lambda v: cwlkit.report(Q, {"a": R, "b": R}, v, curves=False),
        **{
            f"option {k}": _report_option(k)
            for k in (
                "baseline",
                "pairwise",
                "test",
                "correction",
                "alpha",
                "anova",
                "samples",
                "seed",
                "title",
                "curves",
                "progress",
                "jobs",
            )
        },
    },
}

# fuzzed in tests/judging and tests/stats; classes and exceptions are not called here
ELSEWHERE = {
    "pool",
    "simulate_judging",
    "compare_runs",
    "reusability",
    "rbo",
    "tau_ap",
}


def test_every_public_callable_is_fuzzed():
    public = {
        n
        for n in cwlkit.__all__
        if callable(getattr(cwlkit, n))
        and not (isinstance(getattr(cwlkit, n), type) and n not in ("Evaluator",))
    }
    assert public - set(TARGETS) - ELSEWHERE == set()


CASES = [(f, a) for f, args in TARGETS.items() for a in args]


def _only_own_errors(call: Callable[[Any], Any], value: Any) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            call(value)
        except CwlkitError:
            pass


def _case(function: str, argument: str, examples: int):
    call = TARGETS[function][argument]

    @settings(
        max_examples=examples,
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
        derandomize=True,
    )
    @given(BAD)
    def run(value):
        _only_own_errors(call, value)

    run()


@pytest.mark.parametrize(("function", "argument"), CASES)
def test_bad_values_give_own_errors(function, argument):
    _case(function, argument, 12)


@pytest.mark.slow
@pytest.mark.parametrize(("function", "argument"), CASES)
def test_bad_values_give_own_errors_many(function, argument):
    _case(function, argument, 150)
