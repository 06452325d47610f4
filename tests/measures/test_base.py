"""The shared machinery of measure classes (``measures/base.py``): every measure is declared
with ``@measure`` and behaves as the frozen dataclass it replaces, checked here against a
stdlib ``dataclass(frozen=True)`` twin of the same fields."""

from __future__ import annotations

import copy
import dataclasses
import pickle

import pytest

from cwlkit.errors import ParamError
from cwlkit.measures.base import Measure, measure, param
from cwlkit.measures.parse import parse_measure


@measure
class Toy(Measure):
    family = "Toy"
    p: float = param(0.5, gt=0, lt=1, doc="a probability")
    k: int = param(10, ge=1, integer=True, doc="cutoff")


@dataclasses.dataclass(frozen=True)
class Twin:  # what @dataclass(frozen=True) generates for the same fields
    p: float = 0.5
    k: int = 10


@pytest.mark.parametrize(
    ("args", "kwargs"), [((), {}), ((0.8,), {}), ((0.8, 5), {}), ((), {"k": 3}), ((0.2,), {"k": 3})]
)
def test_constructor_binds_like_a_dataclass(args, kwargs):
    got, twin = Toy(*args, **kwargs), Twin(*args, **kwargs)
    assert (got.p, got.k) == (twin.p, twin.k)
    assert repr(got) == repr(twin).replace("Twin", "Toy")


@pytest.mark.parametrize(
    ("args", "kwargs", "message"),
    [
        ((0.5, 10, 1), {}, "takes 2 positional arguments but 3 were given"),
        ((0.5,), {"p": 0.5}, "multiple values for argument 'p'"),
        ((), {"q": 1}, "unexpected keyword argument 'q'"),
    ],
)
def test_constructor_rejects_what_a_dataclass_rejects(args, kwargs, message):
    with pytest.raises(TypeError, match=message):
        Toy(*args, **kwargs)
    with pytest.raises(TypeError):
        Twin(*args, **kwargs)


def test_a_required_field_is_named_when_missing():
    @measure
    class Needs(Measure):
        family = "Needs"
        a: float = param(doc="required")

    with pytest.raises(TypeError, match="missing 1 required argument: 'a'"):
        Needs()
    assert Needs(2.0).a == 2.0


def test_parameters_are_checked_on_construction():
    with pytest.raises(ParamError, match="'p' parameter of Toy must be in"):
        Toy(p=1.5)
    with pytest.raises(ParamError, match="must be an integer"):
        Toy(k=2.5)


def test_equality_hash_and_immutability():
    a, b, c = Toy(0.8, 5), Toy(0.8, 5), Toy(0.8, 6)
    assert a == b and hash(a) == hash(b) and a != c
    assert len({a, b, c}) == 2
    assert Toy() != Twin()  # another class is never equal
    with pytest.raises(dataclasses.FrozenInstanceError):
        a.p = 0.1  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        del a.k


def test_replace_copy_and_pickle_keep_the_measure():
    a = Toy(0.8, 5)
    assert dataclasses.replace(a, k=7) == Toy(0.8, 7)
    assert copy.copy(a) == a and copy.deepcopy(a) == a
    assert pickle.loads(pickle.dumps(parse_measure("nDCG@10"))) == parse_measure("nDCG@10")
    assert [f.name for f in dataclasses.fields(a)] == ["p", "k"]
    assert a.name == "Toy(p=0.8)@5"


def test_every_registered_measure_round_trips_through_its_name():
    from cwlkit.measures import registry

    for cls in registry.entries():
        if any(f.default is dataclasses.MISSING for f in dataclasses.fields(cls)):
            continue
        m = cls()
        assert parse_measure(m.name) == m, m.name
        assert hash(parse_measure(m.name)) == hash(m)
        assert repr(m).startswith(f"{type(m).__qualname__}(")


@pytest.mark.parametrize(
    "name",
    ["INST(T=inf)", "Utility(c=inf)", "RBP_eval(scale=inf)", "TBG(halflife=inf)", "RBP(p=nan)"],
)
def test_infinite_parameters_are_refused(name):
    """A parameter is a finite number (INST(T=inf) gave NaN, Utility(c=inf) inf) but where
    the measure defines the limit: F(beta=inf) is recall."""
    from cwlkit.measures.parse import parse_measure

    with pytest.raises(ParamError, match="finite number|must be a number"):
        parse_measure(name)
    assert parse_measure("F(beta=inf)").name == "F(beta=inf)"
