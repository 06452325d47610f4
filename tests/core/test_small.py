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


def _ranking(d: dict, single: bool) -> list[str] | None:
    """The documents of ``d``, ranked."""
    ranks = small._ranking(d, single)
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


@settings(max_examples=300, deadline=None)
@given(st.dictionaries(IDS, SCORES, min_size=1, max_size=40), st.booleans())
def test_the_ranking_is_pythons_sort_of_the_rounded_scores(d, single):
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # (no overflow warning from the float32 cast)
        assert _ranking(d, single) == _reference(d, single)


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
def test_tie_groups_anywhere_are_ordered_by_id_descending(scores):
    d = {f"d{i}": s for i, s in enumerate(scores)}
    for single in (True, False):
        assert _ranking(d, single) == _reference(d, single)


def test_ids_are_ordered_by_code_point_within_ties():
    d = {"z": 1.0, "é": 1.0, "中": 1.0, "😀": 1.0, "Z": 1.0, "a": 2.0}
    assert _ranking(d, True) == ["a", "😀", "中", "é", "z", "Z"]


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
def test_what_the_batch_path_decides_is_refused(d, why):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert _ranking(d, True) is None, why


def test_in_double_precision_scores_beyond_float32_are_finite():
    d = {"a": 1e39, "b": 2e39, "c": 1e39}
    assert _ranking(d, False) == ["b", "c", "a"]
    assert _ranking(d, True) == ["c", "b", "a"]  # (all infinity as float32)
