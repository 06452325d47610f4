"""Bad input to every public function of cwlkit.stats: only CwlkitError comes out.

Each function is called with valid arguments except one, replaced by a bad value (a wrong
type, None, an empty container, NaN, an infinity, a negative or huge number, a string, a
wrongly nested or ragged shape, mismatched lengths, non-numeric scores). Whatever it does
with it, it either returns or raises a :class:`cwlkit.errors.CwlkitError` subclass: never a
raw TypeError, ValueError, AttributeError or numpy error.

The deterministic corpus (:data:`BAD_VALUES` against every argument of every function) runs
in the fast tier; hypothesis draws more values (bounded in the fast tier, more under
``-m slow``). ``tau_ap``, ``rbo`` and ``rbo_scores`` are checked with the agreement
functions' tests, not here.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cwlkit import stats
from cwlkit.errors import CwlkitError
from cwlkit.results import Results

TOPICS = [f"t{i}" for i in range(8)]
_rng = np.random.default_rng(7)


def _results(run: str, shift: float) -> Results:
    vals = np.clip(_rng.random((2, len(TOPICS))) + shift, 0, 1)
    return Results(values=vals, measures=["AP", "P@10"], topics=list(TOPICS), run=run)


RUNS = {"a": _results("a", 0.0), "b": _results("b", 0.1), "c": _results("c", -0.1)}
X = _rng.random(8)
Y = _rng.random(8)


def _example(kind: str) -> str:
    import cwlkit

    return cwlkit.example(kind)


def _fit_result():
    return stats.fit_parameter(X, np.vstack([X, Y]), [0.1, 0.2])


#: function name -> (function, valid keyword arguments)
CALLS: dict[str, tuple[Callable[..., Any], dict[str, Any]]] = {
    "compare": (
        stats.compare,
        dict(
            results_by_run=RUNS,
            test="t",
            correction="none",
            alpha=0.05,
            baseline="a",
            all_pairs=False,
            measures=["AP"],
            samples=20,
            seed=0,
            anova=False,
        ),
    ),
    "report_table": (
        stats.report_table,
        dict(
            results_by_run=RUNS,
            baseline="a",
            pairwise=False,
            test="t",
            correction="none",
            alpha=0.05,
            anova=False,
            measures=["AP"],
            samples=20,
            seed=0,
        ),
    ),
    "paired_test": (
        stats.paired_test,
        dict(x=X, y=Y, test="bootstrap", confidence=0.95, samples=20, seed=0),
    ),
    "t_test": (stats.t_test, dict(x=X, y=Y, confidence=0.95)),
    "wilcoxon_test": (stats.wilcoxon_test, dict(x=X, y=Y, confidence=0.95)),
    "sign_test": (stats.sign_test, dict(x=X, y=Y, confidence=0.95)),
    "randomization_test": (
        stats.randomization_test,
        dict(x=X, y=Y, samples=20, seed=0, confidence=0.95),
    ),
    "bootstrap_test": (
        stats.bootstrap_test,
        dict(x=X, y=Y, samples=20, seed=0, confidence=0.95),
    ),
    "correct": (stats.correct, dict(pvalues=[0.01, 0.2, 0.03], method="holm", alpha=0.05)),
    "pearson": (stats.pearson, dict(x=X, y=Y)),
    "spearman": (stats.spearman, dict(x=X, y=Y)),
    "kendall_tau_b": (stats.kendall_tau_b, dict(x=X, y=Y)),
    "weighted_tau": (stats.weighted_tau, dict(x=X, y=Y, rank="both")),
    "correlation_matrix": (
        stats.correlation_matrix,
        dict(
            runs=RUNS,
            measures=["AP", "P@10"],
            levels=["systems", "scores"],
            coefficients=["pearson"],
            max_residual=None,
            reference=None,
        ),
    ),
    "correlate_runs": (
        stats.correlate_runs,
        dict(
            qrels=_example("qrels"),
            runs=[_example("run"), _example("run")],
            measures=["AP", "P@2"],
            levels=["scores"],
            coefficients=["pearson"],
            max_residual=None,
            jobs=1,
            progress=False,
        ),
    ),
    "fit_parameter": (
        stats.fit_parameter,
        dict(
            target=X,
            values=np.vstack([X, Y]),
            grid=[0.1, 0.2],
            residual=None,
            max_residual=None,
            parameter="p",
            measures=None,
            target_name="target",
        ),
    ),
    "fit_runs": (
        stats.fit_runs,
        dict(
            qrels=_example("qrels"),
            runs=[_example("run"), _example("run")],
            target="AP",
            metric="RBP(p=0.5:0.7:0.1)",
            max_residual=None,
            gain="auto",
            order="score",
            topics="both",
            jobs=1,
            progress=False,
        ),
    ),
    "parse_grid": (stats.parse_grid, dict(text="RBP(p=0.1:0.3:0.1)")),
    "tukey_hsd": (stats.tukey_hsd, dict(scores=np.vstack([X, Y, X / 2]), confidence=0.95)),
    "two_way_anova": (stats.two_way_anova, dict(scores=np.vstack([X, Y, X / 2]))),
}


class _Weird:
    """An object no function can use."""

    def __repr__(self) -> str:
        return "<weird>"


#: the deterministic corpus: tried at every argument of every function
BAD_VALUES: list[Any] = [
    None,
    True,
    -1,
    0,
    10**30,
    -(10**30),
    1.5,
    math.nan,
    math.inf,
    -math.inf,
    "",
    "x",
    "-1",
    b"ab",
    [],
    {},
    (),
    [None, None],
    ["a", "b"],
    ["a", "b", "c", "d", "e", "f", "g", "h"],
    [1.0, math.nan, 0.5, 0.2, 0.1, 0.3, 0.4, 0.6],
    [1.0, math.inf, 0.5, 0.2, 0.1, 0.3, 0.4, 0.6],
    [1, 2, 3],
    [[1, 2], [3]],
    [[[0.1, 0.2]]],
    [1j, 2j],
    np.array([]),
    np.zeros((0, 8)),
    np.full(8, np.nan),
    np.array(["a", "b"]),
    np.zeros((2, 2, 2)),
    {"a": 42},
    {"a": RUNS["a"], "b": 42},
    {"a": RUNS["a"]},
    {"a": "x", "b": "y"},
    {"t1": "x"},
    {"a": [1, 2], "b": [1, 2, 3]},
    _Weird(),
    object,
]


def _try(fn: Callable[..., Any], kwargs: dict[str, Any]) -> BaseException | None:
    """Call; return a raw (non-Cwlkit) exception, or None."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            fn(**kwargs)
    except CwlkitError as exc:
        text = str(exc)
        if not text or "\n" in text.strip():  # a message must be one line
            return exc
        return None
    except Exception as exc:  # noqa: BLE001 - what the test looks for
        return exc
    return None


def _call(name: str, arg: str, value: Any, tmp: Path | None = None) -> BaseException | None:
    fn, base = CALLS[name]
    kwargs = dict(base)
    kwargs[arg] = value
    return _try(fn, kwargs)


def corpus() -> list[tuple[str, str, int]]:
    return [
        (name, arg, i)
        for name, (_, base) in CALLS.items()
        for arg in base
        for i in range(len(BAD_VALUES))
    ]


def raw_failures() -> tuple[int, list[str]]:
    """(calls made, the raw exceptions of the corpus as text): the count in the report."""
    import signal

    def hang(*_):
        raise TimeoutError("no answer within 5 s")

    signal.signal(signal.SIGALRM, hang)
    out = []
    cases = corpus()
    for name, arg, i in cases:
        signal.alarm(5)
        try:
            exc = _call(name, arg, BAD_VALUES[i])
        except TimeoutError as e:
            exc = e
        signal.alarm(0)
        if exc is not None:
            out.append(f"{name}({arg}={BAD_VALUES[i]!r}): {type(exc).__name__}: {exc}")
    return len(cases), out


@pytest.mark.parametrize("name", list(CALLS))
def test_corpus_gives_own_errors_only(name):
    fn, base = CALLS[name]
    raw = []
    for arg in base:
        for value in BAD_VALUES:
            exc = _call(name, arg, value)
            if exc is not None:
                raw.append(f"{arg}={value!r}: {type(exc).__name__}: {exc}")
    assert not raw, "\n".join(raw)


@pytest.mark.parametrize("name", list(CALLS))
def test_valid_call_succeeds(name):
    """The base arguments are valid (else the corpus would test nothing)."""
    fn, base = CALLS[name]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        fn(**base)


# ------------------------------------------------------------------- hypothesis


_floats = st.floats(allow_nan=True, allow_infinity=True)
_scalar = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(10**40), max_value=10**40),
    _floats,
    st.text(max_size=4),
    st.binary(max_size=3),
    st.complex_numbers(max_magnitude=1e3),
)
_bad = (
    st.recursive(
        _scalar,
        lambda inner: st.one_of(
            st.lists(inner, max_size=9),
            st.tuples(inner, inner),
            st.dictionaries(st.text(max_size=3), inner, max_size=4),
        ),
        max_leaves=12,
    )
    | st.builds(lambda n, fill: np.full(n, fill), st.integers(0, 9), _floats)
    | st.builds(lambda a, b: np.zeros((a, b)), st.integers(0, 3), st.integers(0, 9))
)


def _score_vectors():
    """Pairs of equal- or unequal-length score lists with NaN, infinities, huge numbers."""
    return st.lists(_floats, min_size=0, max_size=10)


#: near misses of several runs' scores: runs mapped to per-topic mappings, pytrec_eval-like
#: nestings, lists and records with bad values inside
_runs_like = st.dictionaries(
    st.text(max_size=2),
    st.one_of(
        _bad,
        st.dictionaries(st.text(max_size=2), _scalar, max_size=5),
        st.dictionaries(
            st.text(max_size=2), st.dictionaries(st.sampled_from(["AP", "P@10", "x"]), _scalar)
        ),
        st.lists(_floats, max_size=6),
        st.lists(
            st.fixed_dictionaries(
                {
                    "topic": st.text(max_size=2),
                    "measure": st.sampled_from(["AP", "x"]),
                    "value": _scalar,
                }
            ),
            max_size=4,
        ),
    ),
    max_size=4,
)
#: the arguments that take several runs' (or systems') scores
RUNS_ARGS = {
    ("compare", "results_by_run"),
    ("report_table", "results_by_run"),
    ("correlation_matrix", "runs"),
    ("tukey_hsd", "scores"),
    ("two_way_anova", "scores"),
}


def _check(name: str, data: st.DataObject) -> None:
    fn, base = CALLS[name]
    kwargs = dict(base)
    arg = data.draw(st.sampled_from(list(base)), label="argument")
    near = (name, arg) in RUNS_ARGS and data.draw(st.booleans(), label="near miss")
    kwargs[arg] = data.draw(_runs_like if near else _bad, label=arg)
    if "x" in base and data.draw(st.booleans(), label="replace x and y"):
        kwargs["x"] = data.draw(_score_vectors(), label="x")
        kwargs["y"] = data.draw(_score_vectors(), label="y")
    exc = _try(fn, kwargs)
    assert exc is None, f"{name}({arg}=...): {type(exc).__name__}: {exc}"


def _property(examples: int):
    @settings(
        max_examples=examples,
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )
    @given(data=st.data())
    def run(name: str, data: st.DataObject) -> None:
        _check(name, data)

    return run


_fast = _property(30)
_slow = _property(300)


@pytest.mark.parametrize("name", list(CALLS))
def test_generated_bad_values_give_own_errors_only(name):
    _fast(name)


@pytest.mark.slow
@pytest.mark.parametrize("name", list(CALLS))
def test_generated_bad_values_give_own_errors_only_slow(name):
    _slow(name)


# the count quoted in reports: python tests/stats/test_stats_bad_input.py
if __name__ == "__main__":
    n, raw = raw_failures()
    print(f"{n} bad calls, {len(raw)} raw exceptions, {n - len(raw)} own errors or results")
    for line in raw:
        print(" ", line)


# ------------------------------------------------------- no silent wrong numbers


@pytest.mark.parametrize("scale", [1e-100, 1e100, 1e140])
def test_large_and_small_scores_keep_their_p_values(scale):
    """The tests are scale-invariant: scores times 1e140 give the p-values of the scores."""
    z = np.vstack([X, Y, X / 2])
    ref_t, got_t = stats.t_test(X, Y), stats.t_test(X * scale, Y * scale)
    assert got_t.p_value == pytest.approx(ref_t.p_value, rel=1e-9)
    ref_h, got_h = stats.tukey_hsd(z), stats.tukey_hsd(z * scale)
    np.testing.assert_allclose(got_h.p_value, ref_h.p_value, rtol=1e-9)
    ref_a, got_a = stats.two_way_anova(z), stats.two_way_anova(z * scale)
    assert got_a.p_value["system"] == pytest.approx(ref_a.p_value["system"], rel=1e-9)


@pytest.mark.parametrize(
    "call",
    [
        lambda s: stats.t_test(X * s, Y),
        lambda s: stats.bootstrap_test(X * s, Y, samples=20),
        lambda s: stats.tukey_hsd(np.vstack([X, Y]) * s),
        lambda s: stats.two_way_anova(np.vstack([X, Y]) * s),
        lambda s: stats.compare(
            {n: Results(r.values * s, r.measures, r.topics) for n, r in RUNS.items()}
        ),
    ],
    ids=["t", "bootstrap", "tukey", "anova", "compare"],
)
def test_scores_whose_variance_overflows_are_refused(call):
    """At 1e200 the variance overflows: the p-values would silently be 0 or 1."""
    with pytest.raises(CwlkitError, match="too large: their variance overflows float64"):
        call(1e200)
