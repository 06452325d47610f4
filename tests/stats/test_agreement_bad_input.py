"""cwlkit.rbo and cwlkit.tau_ap on what is not a ranking or scores (None, strings,
mappings of the wrong kind, nested lists, NaN, infinities, duplicates, empty inputs...):
only CwlkitError subclasses come out (a valid result is fine too); the forms users hold
(lists, tuples, numpy arrays, pandas Series, mappings, rankings of ids) give the numbers of
plain lists; the refusals' wording."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import cwlkit
from cwlkit.errors import CwlkitError, ParamError

SCALAR = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(10**30), max_value=10**30),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=4),
    st.binary(max_size=3),
    st.just(object()),
)
BAD = st.one_of(
    SCALAR,
    st.lists(SCALAR, max_size=4),
    st.tuples(SCALAR, SCALAR),
    st.lists(st.lists(SCALAR, max_size=2), max_size=3),
    st.dictionaries(st.text(max_size=2), SCALAR, max_size=3),
    st.sets(st.text(max_size=2), max_size=3),
    st.lists(st.one_of(st.text(max_size=2), st.sets(st.text(max_size=2), max_size=2)), max_size=4),
    st.sampled_from([[], (), {}, "", np.zeros((2, 2)), np.array([]), [set()], [np.nan, 1.0]]),
)
FAST = settings(max_examples=50, deadline=None, suppress_health_check=list(HealthCheck))
SLOW = settings(max_examples=1000, deadline=None, suppress_health_check=list(HealthCheck))


def _only_own_errors(call):
    """``call()``'s result, or None when it raised a CwlkitError."""
    try:
        return call()
    except CwlkitError:
        return None


def _rbo(which, value):
    args = {"a": list("abc"), "b": list("bcd"), "p": 0.9}
    if which == "both":
        args["a"] = args["b"] = value
    else:
        args[which] = value
    r = _only_own_errors(lambda: cwlkit.rbo(**args))
    if r is not None:  # a result is a number in [0, 1], with its bounds in order
        assert 0.0 <= r.min <= r.ext <= r.max + 1e-12 <= 1.0 + 2e-12 and r.res >= 0.0


def _tau(which, value):
    args = {"truth_scores": [3.0, 2.0, 1.0], "estimate_scores": [1.0, 3.0, 2.0], "ties": "a"}
    if which == "both":
        args["truth_scores"] = args["estimate_scores"] = value
    else:
        args[which] = value
    t = _only_own_errors(lambda: cwlkit.tau_ap(**args))
    if t is not None:  # a coefficient in [-1, 1] (NaN: undefined, every system tied)
        assert math.isnan(t) or -1.0 - 1e-12 <= t <= 1.0 + 1e-12


@FAST
@given(st.sampled_from(("a", "b", "p", "both")), BAD)
def test_rbo(which, value):
    _rbo(which, value)


@FAST
@given(st.sampled_from(("truth_scores", "estimate_scores", "ties", "both")), BAD)
def test_tau_ap(which, value):
    _tau(which, value)


@pytest.mark.slow
@SLOW
@given(st.sampled_from(("a", "b", "p", "both")), BAD)
def test_rbo_many(which, value):
    _rbo(which, value)


@pytest.mark.slow
@SLOW
@given(st.sampled_from(("truth_scores", "estimate_scores", "ties", "both")), BAD)
def test_tau_ap_many(which, value):
    _tau(which, value)


RANKINGS = [
    lambda x: x,
    tuple,
    lambda x: np.array(x),
    lambda x: np.array(x, dtype=object),
    lambda x: iter(x),
]


@pytest.mark.parametrize("form", RANKINGS, ids=["list", "tuple", "array", "objects", "iterator"])
def test_rbo_forms(form):
    a, b = ["d1", "d2", "d3", "d4"], ["d2", "d1", "d4", "d5", "d6"]
    want = cwlkit.rbo(a, b, 0.8)
    got = cwlkit.rbo(form(a), form(b), 0.8)
    assert (got.min, got.res, got.ext) == (want.min, want.res, want.ext)
    assert cwlkit.rbo(form([1, 2, 3]), form([2, 1, 3]), 0.5).ext == pytest.approx(
        cwlkit.rbo(["1", "2", "3"], ["2", "1", "3"], 0.5).ext
    )


@pytest.mark.parametrize(
    ("a", "b", "message"),
    [
        (
            None,
            ["a"],
            "a must be a ranking: a list, tuple or 1-d array of distinct ids (or sets of tied "
            "ids), best first; got None",
        ),
        (
            ["a"],
            "ab",
            "b must be a ranking: a list, tuple or 1-d array of distinct ids (or sets of tied "
            "ids), best first; got 'ab'",
        ),
        (
            ["a", ["b"]],
            ["a"],
            "an item of a must be an id (hashable, not None nor NaN) or a set of ids; got ['b']",
        ),
        (
            [1.0, math.nan],
            [1.0],
            "an item of a must be an id (hashable, not None nor NaN) or a set of ids; got nan",
        ),
        (
            ["a", None],
            ["a"],
            "an item of a must be an id (hashable, not None nor NaN) or a set of ids; got None",
        ),
        ([set(), "a"], ["a"], "a set of tied ids in a must be non-empty; got set()"),
        (["a", "b", "a"], ["a"], "RBO needs rankings without repeated items; a has 'a' twice"),
        ([], [], "RBO of two empty rankings is undefined: give at least one item"),
    ],
)
def test_rbo_refusals(a, b, message):
    with pytest.raises(ParamError) as info:
        cwlkit.rbo(a, b)
    assert str(info.value) == message


def test_rbo_p():
    with pytest.raises(ParamError, match=r"^p must be a number in \(0, 1\); got '0.9'$"):
        cwlkit.rbo(["a"], ["a"], "0.9")


def test_tau_ap_forms():
    """Scores in a list, a tuple, numpy arrays (float and int), a pandas Series; mappings;
    rankings of ids: the same value. By hand (Yilmaz et al.'s definition): with truth
    A > B > C > D and estimate B A C D, C(2) = 0, C(3) = 2, C(4) = 3:
    2/3 (0 + 2/2 + 3/3) - 1 = 1/3."""
    import pandas as pd

    truth, est = [4.0, 3.0, 2.0, 1.0], [3.0, 4.0, 2.0, 1.0]
    for form in (list, tuple, np.array, lambda x: np.array(x, dtype=np.int64), pd.Series):
        assert cwlkit.tau_ap(form(truth), form(est)) == pytest.approx(1 / 3, abs=1e-15)
    assert cwlkit.tau_ap(
        dict(zip("ABCD", truth, strict=True)), dict(zip("ABCD", est, strict=True))
    ) == pytest.approx(1 / 3, abs=1e-15)
    assert cwlkit.tau_ap(list("ABCD"), list("BACD")) == pytest.approx(1 / 3, abs=1e-15)
    assert cwlkit.tau_ap(np.array(list("ABCD")), ("B", "A", "C", "D")) == pytest.approx(1 / 3)
    # a ranking may list the systems in any order: the same systems, no ties
    assert cwlkit.tau_ap(["a", "b"], ["b", "a"]) == -1.0


TAU_EXPECTED = (
    "must be scores (a list, tuple or 1-d array of numbers, one per system), a ranking "
    "(system ids as strings, best first) or a mapping {system: score}"
)


@pytest.mark.parametrize(
    ("x", "y", "message"),
    [
        (None, None, f"truth_scores {TAU_EXPECTED}; got None"),
        ([1.0, 2.0], None, f"estimate_scores {TAU_EXPECTED}; got None"),
        ("abc", "cba", f"truth_scores {TAU_EXPECTED}; got 'abc'"),
        ([[1, 2], [3, 4]], [[1, 2], [3, 4]], f"truth_scores {TAU_EXPECTED}; got [[1, 2], [3, 4]]"),
        ([1, "b"], [1, 2], f"truth_scores {TAU_EXPECTED}; got [1, 'b']"),
        ([True, False], [1, 2], f"truth_scores {TAU_EXPECTED}; got [True, False]"),
        (
            ["a", "b"],
            [2.0, 1.0],
            "give truth_scores and estimate_scores in one form; got rankings and scores",
        ),
        (["a", "b", "a"], ["a", "b"], "truth_scores: system 'a' is ranked twice"),
        (["a", "b"], ["a", "c"], "the two rankings have different systems: b, c"),
        ([1.0], [1.0], "tau_AP needs at least 2 systems; got 1"),
        ([], [], f"truth_scores {TAU_EXPECTED}; got []"),
        ([1.0, 2.0], [1.0, 2.0, 3.0], "cannot correlate 2 scores with 3 scores"),
        ([1.0, math.nan], [1.0, 2.0], "scores to correlate must be finite (got NaN or infinity)"),
        ([1.0, math.inf], [1.0, 2.0], "scores to correlate must be finite (got NaN or infinity)"),
        (
            {"A": 1.0, "B": None},
            {"A": 1.0, "B": 2.0},
            f"truth_scores {TAU_EXPECTED}; got {{'A': 1.0, 'B': None}}",
        ),
    ],
)
def test_tau_ap_refusals(x, y, message):
    with pytest.raises(ParamError) as info:
        cwlkit.tau_ap(x, y)
    assert str(info.value) == message


def test_tau_ap_ties():
    with pytest.raises(ParamError) as info:
        cwlkit.tau_ap([1.0, 2.0], [2.0, 1.0], ties="c")
    assert str(info.value) == "ties must be one of 'a', 'b'; got 'c'"


def test_one_tau_ap_and_one_rbo():
    """One name, one thing: cwlkit.stats' tau_ap and rbo are cwlkit's."""
    from cwlkit import stats

    assert stats.tau_ap is cwlkit.tau_ap and stats.rbo is cwlkit.rbo
    assert isinstance(stats.tau_ap([3.0, 2.0, 1.0], [3.0, 1.0, 2.0]), float)


@pytest.mark.parametrize("p", [5e-324, 1e-300, 1e-12])
def test_rbo_of_a_tiny_p_is_finite(p):
    """As p -> 0 only depth 2 weighs here: a b against b a agree first at depth 2, A_2 = 1,
    so RBO = (1 - p) p A_2 + O(p^2) = p for every bound (it was NaN: (1 - p)/p overflowed
    while p^d underflowed)."""
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        r = cwlkit.rbo(["a", "b"], ["b", "a"], p)
    assert (r.min, r.ext, r.max) == (pytest.approx(p, rel=1e-9),) * 3


@pytest.mark.parametrize("p", [1e-8, 1e-5, 1e-3, 0.5, 0.9])
def test_rbo_min_of_a_small_p_has_its_digits(p):
    """abc against bcd: X = 0, 1, 2, and RBO_min's tail ``2 (1 - p) sum_{d > 3} p^(d-1) / d``
    summed in exact fractions (the terms beyond those summed are below 1e-30 of it). Taken
    as ``-ln(1 - p)`` minus the head, the tail lost every digit to cancellation: at p = 1e-5
    RBO_min came out above RBO_ext, at 1e-8 RBO_res was negative."""
    from fractions import Fraction

    P, n = Fraction(p), math.ceil(70 / -math.log(p))  # p^n < 1e-30
    tail = sum(P ** (d - 1) / d for d in range(4, 4 + n))
    head = sum(Fraction(x, d) * (1 - P) * P ** (d - 1) for d, x in ((1, 0), (2, 1), (3, 2)))
    r = cwlkit.rbo(list("abc"), list("bcd"), p)
    assert r.min == pytest.approx(float(head + 2 * (1 - P) * tail), rel=1e-15, abs=0)
    assert r.min <= r.ext <= r.max and r.res >= 0.0
