"""The evaluation options are checked by the one option contract (support.checks): a value
of the wrong kind is refused with ``NAME must be EXPECTED; got VALUE``, never taken as
truthy (``judged_only="no"`` silently meant True and changed AP from 0.8333 to 1)."""

from __future__ import annotations

import numpy as np
import pytest

import cwlkit
from cwlkit.errors import ParamError
from cwlkit.plan import Options

Q = {"q": {"a": 1, "b": 1}}
R = {"q": {"a": 0.9, "x": 0.5, "b": 0.1}}


def test_judged_only_no_is_refused_not_true():
    # by hand: a, x, b ranked; AP = (1/1 + 2/3) / 2 = 5/6; with x dropped (judged only) 1
    assert cwlkit.evaluate(Q, R, ["AP"]).mean()["AP"] == pytest.approx(5 / 6, abs=1e-15)
    assert cwlkit.evaluate(Q, R, ["AP"], judged_only=True).mean()["AP"] == 1.0
    with pytest.raises(ParamError, match=r"^judged_only must be True or False; got 'no'$"):
        cwlkit.evaluate(Q, R, ["AP"], judged_only="no")


@pytest.mark.parametrize("name", ["judged_only", "residuals"])
@pytest.mark.parametrize("value", ["no", "False", 0, 1, None, 1.0])
def test_bool_options_are_strict(name, value):
    with pytest.raises(ParamError, match=rf"^{name} must be True or False; got "):
        Options(**{name: value})


def test_bool_options_take_numpy_bools_as_python_bools():
    o = Options(judged_only=np.bool_(True), residuals=np.bool_(False), cwl_columns=np.True_)
    assert o.judged_only is True and o.residuals is False and o.cwl_columns is True
    assert Options(cwl_columns=None).cwl_columns is None
    with pytest.raises(ParamError, match=r"^cwl_columns must be True, False or None; got 'yes'$"):
        Options(cwl_columns="yes")


@pytest.mark.parametrize(
    ("kw", "message"),
    [
        ({"depth": 2.0}, "depth must be an integer >= 0 or None; got 2.0"),
        ({"depth": -1}, "depth must be an integer >= 0 or None; got -1"),
        ({"depth": True}, "depth must be an integer >= 0 or None; got True"),
        ({"compat_depth": 0}, "compat_depth must be an integer >= 1 or None; got 0"),
        ({"compat_depth": "5"}, "compat_depth must be an integer >= 1 or None; got '5'"),
        ({"trec_version": 9.0}, "trec_version must be 9 (9.0.8) or 10 (10.0); got 9.0"),
        ({"trec_version": 8}, "trec_version must be 9 (9.0.8) or 10 (10.0); got 8"),
        ({"max_cost": True}, "max_cost must be a finite number; got True"),
        ({"min_cost": float("inf")}, "min_cost must be a finite number; got inf"),
        ({"max_gain": "1"}, "max_gain must be a finite number or None; got '1'"),
        ({"order": "scores"}, "order must be one of 'score', 'rank', 'file'; got 'scores'"),
    ],
)
def test_int_and_number_options_are_strict(kw, message):
    with pytest.raises(ParamError, match="^" + __import__("re").escape(message)):
        Options(**kw)


def test_numpy_integers_are_taken_as_ints():
    o = Options(depth=np.int64(3), trec_version=np.int32(10), max_cost=np.float32(2.0))
    assert type(o.depth) is int and o.depth == 3 and type(o.trec_version) is int
    assert type(o.max_cost) is float
    assert Options(compat="inst_eval", compat_depth=0).compat_depth == 0


def test_jobs_is_not_an_evaluate_option_and_evaluators_check_it():
    # cwlkit.evaluate(qrels, run, measures, **options) passes its options to Evaluator: jobs
    # is not one of them (Evaluator.evaluate and evaluate_many take it)
    with pytest.raises(ParamError, match=r"^'jobs' is not an option of evaluate \("):
        cwlkit.evaluate(Q, R, ["AP"], jobs=0)
    with pytest.raises(ParamError, match=r"^'jobs' is not an option of Evaluator \("):
        cwlkit.Evaluator(Q, ["AP"], jobs=2)
    ev = cwlkit.Evaluator(Q, ["AP"])
    for bad in (0, 1.5, True, "2"):
        with pytest.raises(ParamError, match=rf"^jobs must be an integer >= 1; got {bad!r}$"):
            ev.evaluate(R, jobs=bad)
        with pytest.raises(ParamError, match=rf"^jobs must be an integer >= 1; got {bad!r}$"):
            ev.evaluate_many([R], jobs=bad)


def test_a_misspelt_option_is_named_with_the_closest():
    with pytest.raises(ParamError, match=r"^'judged' is not an option of evaluate \(did you mean"):
        cwlkit.evaluate(Q, R, ["AP"], judged=True)
