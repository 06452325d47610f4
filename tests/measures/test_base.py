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


@pytest.mark.parametrize(
    ("name", "param_name"),
    [
        ("Utility(a=1e308)", "a"),  # issue 21: a x num_rel_ret overflowed to inf
        ("Utility(d=-1e300)", "d"),
        ("TBG(halflife=5e-324)", "halflife"),  # issue 21: cost / halflife overflowed
        ("U(L=5e-324)", "L"),
        ("INST(T=1e308)", "T"),  # (2T)^2 in the tail: NaN
        ("INSQ(T=1e200)", "T"),
        ("C_E11(T=1e300)", "T"),
        ("RBP_eval(scale=1e308)", "scale"),
        ("BPMD(hb=1e308)", "hb"),
        ("BPMD(gain_med=-1e306)", "gain_med"),
    ],
)
def test_finite_parameters_that_overflow_are_refused(name, param_name):
    """A finite parameter whose computation overflows to inf or NaN is refused on
    construction, with a message naming the parameter (Measure.derived)."""
    with pytest.raises(ParamError, match=rf"^The '{param_name}' parameter of .* overflows"):
        parse_measure(name)


def test_parameters_below_the_overflow_bound_compute_exactly(tmp_path):
    """Just inside the bounds the values are finite and equal a hand computation from counts
    that trec_eval's own measures give (num_rel_ret, num_ret, num_rel)."""
    import numpy as np

    import cwlkit

    q = tmp_path / "q"
    r = tmp_path / "r"
    q.write_text("1 0 a 1\n1 0 b 0\n1 0 c 1\n1 0 d 1\n")
    r.write_text("".join(f"1 Q0 {d} {i} {10 - i} x\n" for i, d in enumerate("axbyc", 1)))
    big = 1e290  # a x 2^55 is about 3.6e306: finite
    res = cwlkit.evaluate(q, r, [f"Utility(a={big},b=0)", "num_rel_ret", "TBG(halflife=1e-300)"])
    assert res.mean()[f"Utility(a={big:g},b=0)"] == big * 2  # a and c retrieved
    # C(1) = 2^(-cost / 1e-300) = 0: the user reads rank 1 only (a, relevant)
    assert res.mean()["TBG(halflife=1e-300)"] == 1.0  # the rate of gain: 1 per unit of cost
    # Rprec_mult with x R beyond int64: precision at that rank tends to 0 (no cast overflow)
    k = 1e300
    got = cwlkit.evaluate(q, r, [f"Rprec_mult@{k:g}"]).per_topic(f"Rprec_mult@{k:g}")
    assert list(got.values()) == [2.0 / np.floor(k * 3 + 0.9)]


def test_every_parameter_at_the_extremes_is_refused_or_finite():
    """Every registered family's numeric parameters at +-1e308, +-5e-324 and 1e300: either
    ParamError on construction, or finite values without a floating-point warning on the
    bundled example (costs included)."""
    import warnings

    import numpy as np

    import cwlkit
    from cwlkit.errors import CwlkitError
    from cwlkit.measures import registry

    data = pytest.importorskip("conftest").EXAMPLE
    qrels, run = data / "example.qrels", data / "example.run"
    tried = 0
    for cls in registry.entries():
        for f in dataclasses.fields(cls):
            meta = f.metadata
            if not meta or meta.get("choices") or meta.get("integer"):
                continue
            if "float" not in str(f.type) and "int" not in str(f.type):
                continue  # text parameters (gain tables, levels)
            for v in (1e308, -1e308, 5e-324, -5e-324, 1e300):
                try:
                    m = cls(**{f.name: v})
                except (CwlkitError, TypeError):
                    continue  # refused, or another parameter is required
                if f.name == "rel":
                    continue  # a label threshold: no arithmetic on it
                tried += 1
                with warnings.catch_warnings():
                    warnings.simplefilter("error", RuntimeWarning)  # numpy's floating point
                    try:
                        res = cwlkit.evaluate(qrels, run, [m], costs=data / "example.costs")
                    except CwlkitError:
                        continue  # the data do not fit the measure (gains outside its domain)
                values = np.asarray(list(res.per_topic(m.name).values()), dtype=float)
                assert np.isfinite(values).all(), (m.name, values)
    assert tried > 50
