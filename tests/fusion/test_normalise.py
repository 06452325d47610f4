"""Each normalisation by hand on a small case: two runs, one topic, scores worked out on
paper from the formulas of docs/fusion.md (ranx's)."""

from __future__ import annotations

import math

import pytest

import cwlkit

A = {"q": {"a": 4.0, "b": 2.0, "c": 1.0}}
B = {"q": {"c": 3.0, "d": -1.0}}


def _norm(norm):
    """Fuse with CombSUM over a run and an empty-score twin: the normalised scores of A
    (B's documents are then read from a second call)."""
    got = cwlkit.fuse([A, B], "sum", norm).to_dict()["q"]
    return got


@pytest.mark.parametrize(
    ("norm", "a_scores", "b_scores"),
    [
        # (s - min) / (max - min)
        ("min-max", {"a": 1.0, "b": 1 / 3, "c": 0.0}, {"c": 1.0, "d": 0.0}),
        # (max - s) / (max - min)
        ("min-max-inverted", {"a": 0.0, "b": 2 / 3, "c": 1.0}, {"c": 0.0, "d": 1.0}),
        # s / max
        ("max", {"a": 1.0, "b": 0.5, "c": 0.25}, {"c": 1.0, "d": -1 / 3}),
        # (s - min) / (sum - n min)
        ("sum", {"a": 3 / 4, "b": 1 / 4, "c": 0.0}, {"c": 1.0, "d": 0.0}),
        # 1 - rank / n
        ("rank", {"a": 1.0, "b": 2 / 3, "c": 1 / 3}, {"c": 1.0, "d": 0.5}),
        ("none", {"a": 4.0, "b": 2.0, "c": 1.0}, {"c": 3.0, "d": -1.0}),
    ],
)
def test_normalisations_by_hand(norm, a_scores, b_scores):
    got = _norm(norm)
    want = {d: a_scores.get(d, 0.0) + b_scores.get(d, 0.0) for d in "abcd"}
    assert got == pytest.approx(want, abs=1e-12)


def test_zmuv_by_hand():
    # A: mean 7/3, population sd sqrt(((5/3)^2 + (1/3)^2 + (4/3)^2) / 3) = sqrt(14/9)
    sd_a = math.sqrt(14 / 9)
    a = {"a": (4 - 7 / 3) / sd_a, "b": (2 - 7 / 3) / sd_a, "c": (1 - 7 / 3) / sd_a}
    b = {"c": 1.0, "d": -1.0}  # mean 1, sd 2
    got = _norm("zmuv")
    assert got == pytest.approx({d: a.get(d, 0) + b.get(d, 0) for d in "abcd"}, abs=1e-12)


def test_borda_by_hand():
    # C = 4 candidates. A (n=3): a 1, b 3/4, c 2/4; d unretrieved: 1/2 - (3-1)/8 = 1/4.
    # B (n=2): c 1, d 3/4; a, b unretrieved: 1/2 - (2-1)/8 = 3/8.
    got = _norm("borda")
    want = {"a": 1 + 3 / 8, "b": 3 / 4 + 3 / 8, "c": 2 / 4 + 1, "d": 1 / 4 + 3 / 4}
    assert got == pytest.approx(want, abs=1e-12)
    # every run holds every candidate after borda: CombMNZ multiplies by 2 everywhere
    mnz = cwlkit.fuse([A, B], "mnz", "borda").to_dict()["q"]
    assert mnz == pytest.approx({d: 2 * v for d, v in want.items()}, abs=1e-12)


def test_constant_scores_use_the_floor():
    """max - min = 0: ranx divides by 1e-9 (so every score becomes 0), not by 0."""
    got = cwlkit.fuse([{"q": {"a": 2.0, "b": 2.0}}, {"q": {"a": 1.0}}], "sum").to_dict()
    assert got == {"q": {"a": 0.0, "b": 0.0}}


def test_unknown_normalisation_suggests():
    with pytest.raises(cwlkit.ParamError, match=r"norm must be one of .*did you mean 'min-max'"):
        cwlkit.fuse([A, B], "sum", "minmax2")
