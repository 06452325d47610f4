"""cwlkit.list_measures: the registry as data, and its one argument checked."""

from __future__ import annotations

import pytest

import cwlkit
from cwlkit.errors import ParamError


@pytest.mark.parametrize("bad", [42, 1.5, ["AP"], b"AP"])
def test_list_measures_refuses_a_name_that_is_not_a_str(bad):
    # (42 raised TypeError: 'int' object is not iterable)
    with pytest.raises(ParamError, match=r"^name must be a measure's name \(a str\) or None; got "):
        cwlkit.list_measures(bad)


def test_list_measures_by_name_and_all():
    assert [m["name"] for m in cwlkit.list_measures("map")] == ["AP"]
    assert len(cwlkit.list_measures()) == len(cwlkit.list_measures(None)) > 50
