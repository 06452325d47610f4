"""The one-topic ranking (:mod:`cwlkit.core.small`): scores ordered with numpy, then each run
of tied scores put in document id order, descending. Checked against rankings sorted here
with Python's ``sorted`` on the scores rounded by ``struct`` (an independent reference),
with tie groups of every size and place, and on the inputs it leaves to the batch path."""

from __future__ import annotations

import struct
import warnings

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cwlkit.core import small

#: the two ways a topic is ranked: Python's sorts (a few documents), numpy's argsort
ROUTES = {"python": 1 << 30, "numpy": -1}


def _ranking(d: dict, single: bool, route: str) -> list[str] | None:
    """The documents of ``d``, ranked by ``route``."""
    keep, small._PY_RANKING = small._PY_RANKING, ROUTES[route]
    try:
        ranks = small._ranking(d, single)
    finally:
        small._PY_RANKING = keep
    return None if ranks is None else [list(d)[i] for i in ranks]


#: document ids of several scripts and lengths (code point order is UTF-8's byte order)
IDS = st.text(alphabet="aZ0_é中😀-", min_size=1, max_size=4)
#: few values, so that ties come in groups of every size (-0.0 ties 0.0; 1 + 2^-30 ties 1
#: only as float32; 3e38 and 4e38 tie at infinity as float32)
SCORES = st.sampled_from([0.0, -0.0, 1.0, 1 + 2.0**-30, -2.5, 7, 3e38, 4e38, 2**60])


def _reference(d: dict, single: bool) -> list[str]:
    """Score descending (as float32 when ``single``), ties by id descending: two stable
    sorts in Python."""
    if single:
        values = struct.unpack(f"{len(d)}f", struct.pack(f"{len(d)}f", *d.values()))
    else:
        values = tuple(map(float, d.values()))
    score = dict(zip(d, values, strict=True))
    return sorted(sorted(d, reverse=True), key=score.__getitem__, reverse=True)


@pytest.mark.parametrize("route", ROUTES)
@settings(max_examples=300, deadline=None)
@given(d=st.dictionaries(IDS, SCORES, min_size=1, max_size=40), single=st.booleans())
def test_the_ranking_is_pythons_sort_of_the_rounded_scores(route, d, single):
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # (no overflow warning from the float32 cast)
        assert _ranking(d, single, route) == _reference(d, single)


def test_a_few_documents_are_ranked_in_python_more_with_numpy(monkeypatch):
    used = []
    monkeypatch.setattr(small, "_scores", lambda *a: used.append(1) or None)
    assert _ranking({"a": 1.0}, True, "python") == ["a"] and not used
    d = {f"d{i}": 1.0 for i in range(small._PY_RANKING + 1)}
    assert small._ranking(d, True) is None and used  # (numpy's route, stubbed)


@pytest.mark.parametrize(
    "scores",
    [
        [1, 1, 0, 0, 0, -1, -1],  # adjacent groups, at both ends
        [5, 4, 4, 3, 2, 2, 2, 1],  # groups inside, one rank apart
        [2, 2, 2, 2, 2, 2],  # every document tied
        [3, 2, 1, 0],  # no tie
        [0.0, -0.0, 0.0, -0.0],  # signed zeros tie
        [float("inf"), 1e39, 3.0, 1e39],  # infinity and what is infinity as float32
    ],
)
@pytest.mark.parametrize("route", ROUTES)
def test_tie_groups_anywhere_are_ordered_by_id_descending(scores, route):
    d = {f"d{i}": s for i, s in enumerate(scores)}
    for single in (True, False):
        assert _ranking(d, single, route) == _reference(d, single)


@pytest.mark.parametrize("route", ROUTES)
def test_ids_are_ordered_by_code_point_within_ties(route):
    d = {"z": 1.0, "é": 1.0, "中": 1.0, "😀": 1.0, "Z": 1.0, "a": 2.0}
    assert _ranking(d, True, route) == ["a", "😀", "中", "é", "z", "Z"]


@pytest.mark.parametrize(
    ("d", "why"),
    [
        ({"a": float("nan"), "b": 1.0}, "NaN"),
        ({"a": float("inf"), "b": float("-inf")}, "infinities of both signs"),
        ({"a": 1e39, "b": -1e39}, "float32 infinities of both signs"),
        ({"a": 10**400, "b": 1.0}, "an int beyond a double"),
        ({"a": True, "b": 1.0}, "a bool"),
        ({"a": "1", "b": 1.0}, "text"),
        ({1: 1.0, "b": 1.0}, "an int id"),
    ],
)
@pytest.mark.parametrize("route", ROUTES)
def test_what_the_batch_path_decides_is_refused(d, why, route):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert _ranking(d, True, route) is None, why
        if "float32" not in why:
            assert _ranking(d, False, route) is None, why


@pytest.mark.parametrize("route", ROUTES)
def test_in_double_precision_scores_beyond_float32_are_finite(route):
    d = {"a": 1e39, "b": 2e39, "c": 1e39}
    assert _ranking(d, False, route) == ["b", "c", "a"]
    assert _ranking(d, True, route) == ["c", "b", "a"]  # (all infinity as float32)


@pytest.mark.parametrize("route", ROUTES)
def test_ints_compare_as_doubles(route):
    d = {"a": 2**53 + 1, "b": 2.0**53, "c": 2**53}  # (one double: 2^53)
    assert _ranking(d, False, route) == ["c", "b", "a"]
