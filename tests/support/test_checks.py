"""The option contract (support/checks.py): each check's accepted and refused values, and
its one wording."""

from __future__ import annotations

import math

import numpy as np
import pytest

from cwlkit.errors import ParamError
from cwlkit.support.checks import (
    check_bool,
    check_choice,
    check_int,
    check_number,
    check_probability,
    check_seed,
)


@pytest.mark.parametrize("v", [True, False, np.bool_(True)])
def test_bool_accepts_bools(v):
    assert check_bool("flag", v) is bool(v)


@pytest.mark.parametrize("v", ["no", "False", "", 0, 1, None, 1.0, [True]])
def test_bool_refuses_truthy_things(v):
    with pytest.raises(ParamError, match=r"^flag must be True or False; got "):
        check_bool("flag", v)


@pytest.mark.parametrize("v", [0, 3, np.int64(7), 2**70])
def test_int_accepts_integers(v):
    out = check_int("depth", v)
    assert out == v and type(out) is int


@pytest.mark.parametrize("v", [-1, 1.5, 2.0, "3", True, None, math.nan, np.float64(1)])
def test_int_refuses(v):
    with pytest.raises(ParamError, match=r"^depth must be an integer >= 0; got "):
        check_int("depth", v)


def test_int_ranges_and_none():
    assert check_int("k", None, none=True) is None
    with pytest.raises(ParamError, match=r"^k must be an integer >= 1 or None; got 0$"):
        check_int("k", 0, least=1, none=True)
    with pytest.raises(ParamError, match=r"^k must be an integer from 1 to 5; got 6$"):
        check_int("k", 6, least=1, most=5)


def test_seed():
    assert check_seed("seed", None) is None
    assert check_seed("seed", 0) == 0
    for bad in (-1, "x", 1.0, True):
        with pytest.raises(ParamError, match=r"^seed must be an integer >= 0 or None; got "):
            check_seed("seed", bad)


@pytest.mark.parametrize("v", [0.5, 1e-9, np.float32(0.25), 1])
def test_probability_inside(v):
    if v == 1:
        with pytest.raises(ParamError, match=r"^alpha must be a number in \(0, 1\); got 1$"):
            check_probability("alpha", v)
    else:
        assert check_probability("alpha", v) == float(v)


@pytest.mark.parametrize("v", [0, 0.0, 2, -0.1, math.nan, math.inf, "0.5", None, True])
def test_probability_refuses(v):
    with pytest.raises(ParamError, match=r"^alpha must be a number in \(0, 1\); got "):
        check_probability("alpha", v)


def test_probability_closed_ends():
    assert check_probability("p", 0, zero=True) == 0.0
    assert check_probability("p", 1, one=True) == 1.0


def test_number_bounds_wording():
    with pytest.raises(ParamError, match=r"^w must be a number >= 0; got -1$"):
        check_number("w", -1, least=0)
    with pytest.raises(ParamError, match=r"^w must be a finite number; got inf$"):
        check_number("w", math.inf)


def test_choice_suggests():
    assert check_choice("norm", "max", ["max", "min-max"]) == "max"
    with pytest.raises(ParamError, match=r"did you mean 'min-max'\?"):
        check_choice("norm", "minmax", ["max", "min-max"])
    with pytest.raises(ParamError, match=r"^norm must be one of 'max', 'min-max'; got 3$"):
        check_choice("norm", 3, ["max", "min-max"])
