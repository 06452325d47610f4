"""Results: a lookup that cannot succeed is a CwlkitError (a KeyError too where a mapping
would raise one), never a raw TypeError or AttributeError; containment answers False."""

from __future__ import annotations

import pytest

import cwlkit
from cwlkit.errors import CwlkitError, NotInResultsError, ParamError


@pytest.fixture(scope="module")
def res():
    return cwlkit.evaluate(cwlkit.example("qrels"), cwlkit.example("run"), ["P@2", "AP"])


@pytest.mark.parametrize("name", [None, 123, ["AP"], 1.5, b"AP"])
def test_lookups_of_what_is_no_measure_name(res, name):
    with pytest.raises(CwlkitError):
        res.per_topic(name)
    with pytest.raises(CwlkitError):
        res[name]
    assert (name in res) is False


def test_containment_and_lookups_of_names(res):
    assert "map" in res and "AP" in res and "nDCG@10" not in res
    with pytest.raises(NotInResultsError, match="no measure 'nDCG@10'"):
        res.per_topic("nDCG@10")


def test_columns_name_what_they_hold(res):
    with pytest.raises(NotInResultsError, match="no column 'bogus'") as got:
        res.columns["bogus"]
    assert isinstance(got.value, KeyError)
    cwl = cwlkit.evaluate(cwlkit.example("qrels"), cwlkit.example("run"), ["RBP(p=0.8)"])
    assert cwl.columns["ED"].shape == cwl.values.shape
    with pytest.raises(NotInResultsError, match="have ETU, EC, ETC, ED"):
        cwl.columns["ResEU"]


def test_align_and_score_take_their_own_types(res):
    with pytest.raises(ParamError, match="align takes another Results"):
        res.align(None)
    ev = cwlkit.Evaluator(cwlkit.example("qrels"), ["AP"])
    with pytest.raises(ParamError, match="score takes a ranking batch"):
        ev.score("x")


@pytest.mark.parametrize("column", [[], {"ED": 1}, 3, b"ED"])
def test_a_column_that_is_not_a_name_is_refused(column):
    import cwlkit
    from cwlkit.errors import ParamError

    res = cwlkit.evaluate(cwlkit.example("qrels"), cwlkit.example("run"), ["AP"])
    with pytest.raises(ParamError, match=r"^column must be a column's name"):
        res.mean(column)
    with pytest.raises(ParamError, match=r"^column must be a column's name"):
        res.to_dict(column)


@pytest.mark.parametrize("method", ["to_frame", "to_polars"])
def test_wide_is_a_bool(method):
    import cwlkit
    from cwlkit.errors import ParamError

    res = cwlkit.evaluate(cwlkit.example("qrels"), cwlkit.example("run"), ["AP"])
    with pytest.raises(ParamError, match=r"^wide must be True or False; got 'no'$"):
        getattr(res, method)(wide="no")
    with pytest.raises(ParamError, match=r"^per_topic must be True or False; got 0$"):
        res.to_json(per_topic=0)
