"""Generated bad values (wrong types, None, empty, NaN, infinities, negatives, huge numbers,
strings, wrongly nested shapes) thrown at each argument of pool, compare_runs,
simulate_judging and reusability: only CwlkitError subclasses come out (a valid result is
fine too), never a raw TypeError, ValueError, pyarrow error... The fast tier draws a few
dozen cases per function; the slow one many more."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import cwlkit
from cwlkit.errors import CwlkitError

RUN = {"q1": {"d1": 3.0, "d2": 2.0, "d3": 1.0}, "q2": {"d4": 1.0, "d5": 0.5}}
RUNB = {"q1": {"d2": 3.0, "d1": 2.0, "d6": 1.0}, "q2": {"d5": 1.0, "d7": 0.5}}
RUNS = {"a1": RUN, "b1": RUNB}
QR = {"q1": {"d1": 1, "d2": 0, "d6": 2}, "q2": {"d5": 1}}

SCALAR = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(10**30), max_value=10**30),
    st.floats(allow_nan=True, allow_infinity=True),
    st.sampled_from([0, -1, 1, 2, 0.5, 1.5, -3, 10**20, float("nan"), float("inf")]),
    st.text(max_size=6),
    st.binary(max_size=3),
    st.just(object()),
)
#: bad values, and some that look like runs or qrels but are wrongly nested
BAD = st.one_of(
    SCALAR,
    st.lists(SCALAR, max_size=3),
    st.tuples(SCALAR, SCALAR),
    st.dictionaries(st.text(max_size=3), SCALAR, max_size=3),
    st.dictionaries(
        st.text(max_size=3), st.dictionaries(st.text(max_size=3), SCALAR, max_size=2), max_size=2
    ),
    st.lists(st.tuples(SCALAR, SCALAR, SCALAR), max_size=2),
    st.lists(st.lists(SCALAR, max_size=2), max_size=2),
    st.sampled_from([[], {}, (), "", [[]], {"q1": {}}, {"q1": None}, [RUN, None], {"a": None}]),
)


def _only_own_errors(call) -> None:
    try:
        call()
    except CwlkitError:
        pass


FAST = settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
SLOW = settings(max_examples=400, deadline=None, suppress_health_check=list(HealthCheck))

POOL_ARGS = (
    "runs",
    "strategy",
    "depth",
    "budget",
    "p",
    "aggregate",
    "k",
    "measure",
    "qrels",
    "order",
    "gain",
    "pool_depth",
    "judge",
    "judged",
    "rel",
)
STRATEGIES = ("depth", "rbp", "rrf", "residual", "maxmean", "mtf")


def _pool(strategy: str, arg: str, value: Any) -> None:
    kw: dict[str, Any] = {"strategy": strategy}
    if strategy in ("maxmean", "mtf"):
        kw["qrels"] = QR
    if arg == "judged":  # the judge's answer is the bad value
        kw.pop("qrels", None)
        kw["strategy"] = "mtf"
        kw["judge"] = lambda t, d: value
    elif arg == "runs":
        _only_own_errors(lambda: cwlkit.pool(value, **kw))
        return
    else:
        kw[arg] = value
        if arg == "judge":
            kw.pop("qrels", None)
    _only_own_errors(lambda: cwlkit.pool(RUNS, **kw))


def _compare(arg: str, value: Any) -> None:
    kw: dict[str, Any] = {"a": RUN, "b": RUNB, arg: value}
    _only_own_errors(lambda: cwlkit.compare_runs(**kw))


def _simulate(strategy: str, arg: str, value: Any) -> None:
    kw: dict[str, Any] = {
        "qrels": QR,
        "runs": RUNS,
        "strategy": strategy,
        "measure": "P@2",
        "budgets": [1, 2],
        arg: value,
    }
    _only_own_errors(lambda: cwlkit.simulate_judging(**kw))


def _reuse(arg: str, value: Any) -> None:
    kw: dict[str, Any] = {
        "qrels": QR,
        "runs": RUNS,
        "group_by": {"a1": "a", "b1": "b"},
        "depth": 2,
        "measure": "P@2",
        arg: value,
    }
    _only_own_errors(lambda: cwlkit.reusability(**kw))


SIM_ARGS = ("qrels", "runs", "strategy", "measure", "budgets", "alpha", "pool_measure", "p")
SIM_ARGS += ("k", "rel", "pool_depth", "order", "aggregate", "gain")
REUSE_ARGS = ("qrels", "runs", "group_by", "depth", "measure", "order", "baseline", "gain")


@FAST
@given(st.sampled_from(STRATEGIES), st.sampled_from(POOL_ARGS), BAD)
def test_pool(strategy, arg, value):
    _pool(strategy, arg, value)


@FAST
@given(st.sampled_from(("a", "b", "p", "depth", "order")), BAD)
def test_compare_runs(arg, value):
    _compare(arg, value)


@FAST
@given(st.sampled_from(("depth", "rbp", "residual", "mtf")), st.sampled_from(SIM_ARGS), BAD)
def test_simulate_judging(strategy, arg, value):
    _simulate(strategy, arg, value)


@FAST
@given(st.sampled_from(REUSE_ARGS), BAD)
def test_reusability(arg, value):
    _reuse(arg, value)


@pytest.mark.slow
@SLOW
@given(st.sampled_from(STRATEGIES), st.sampled_from(POOL_ARGS), BAD)
def test_pool_many(strategy, arg, value):
    _pool(strategy, arg, value)


@pytest.mark.slow
@SLOW
@given(st.sampled_from(("a", "b", "p", "depth", "order")), BAD)
def test_compare_runs_many(arg, value):
    _compare(arg, value)


@pytest.mark.slow
@SLOW
@given(st.sampled_from(("depth", "rbp", "residual", "mtf")), st.sampled_from(SIM_ARGS), BAD)
def test_simulate_judging_many(strategy, arg, value):
    _simulate(strategy, arg, value)


@pytest.mark.slow
@SLOW
@given(st.sampled_from(REUSE_ARGS), BAD)
def test_reusability_many(arg, value):
    _reuse(arg, value)
