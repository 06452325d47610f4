"""The diff page's RBO and tau_AP, every topic at once (rundiff/agreement.py), equal the
one-topic functions ``cwlkit.rbo`` and ``cwlkit.tau_ap`` on random rankings of uneven
lengths, with repeated and missing documents and empty rankings."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import cwlkit
from cwlkit.rundiff import agreement

RANKING = st.lists(st.integers(0, 12), max_size=14)


def _codes(rankings: list[list[int]]) -> np.ndarray:
    width = max([len(r) for r in rankings] + [1])
    out = np.full((len(rankings), width), -1, dtype=np.int64)
    for i, r in enumerate(rankings):
        out[i, : len(r)] = r
    return out


def _reference(a: list[int], b: list[int], p: float) -> tuple[float, float]:
    x, y = list(dict.fromkeys(a)), list(dict.fromkeys(b))
    rbo = cwlkit.rbo(x, y, p).ext if (x or y) else math.nan
    both = set(x) & set(y)
    if len(both) < 2:
        return rbo, math.nan
    truth = {d: -i for i, d in enumerate(x) if d in both}
    est = {d: -i for i, d in enumerate(y) if d in both}
    return rbo, cwlkit.tau_ap(truth, est)


@settings(max_examples=60, deadline=None, derandomize=True)
@given(st.lists(st.tuples(RANKING, RANKING), min_size=1, max_size=6), st.sampled_from([0.5, 0.9]))
def test_equal_to_the_one_topic_functions(pairs, p):
    ca, cb = _codes([a for a, _ in pairs]), _codes([b for _, b in pairs])
    fa, fb = agreement.first_ranks(ca), agreement.first_ranks(cb)
    rbo = agreement.rbo_ext(fa, fb, agreement.rank_in(ca, fa, cb, fb), p)
    tau = agreement.tau_ap(fb, agreement.rank_in(cb, fb, ca, fa))
    for i, (a, b) in enumerate(pairs):
        want_rbo, want_tau = _reference(a, b, p)
        assert rbo[i] == pytest.approx(want_rbo, abs=1e-12, nan_ok=True), (a, b)
        assert tau[i] == pytest.approx(want_tau, abs=1e-12, nan_ok=True), (a, b)


def test_first_ranks_by_hand():
    codes = np.array([[3, 1, 3, 2, -1], [4, 4, 4, -1, -1]])
    assert agreement.first_ranks(codes).tolist() == [[1, 2, 0, 3, 0], [1, 0, 0, 0, 0]]


def test_tau_ap_by_hand():
    """A = 1 2 3 4, B = 2 1 4 3: in B's order the A-ranks are 2 1 4 3; C = -, 0, 2, 2:
    tau_AP = 2/3 (0/1 + 2/2 + 2/3) - 1 = 1/9."""
    ca = np.array([[1, 2, 3, 4]])
    cb = np.array([[2, 1, 4, 3]])
    fa, fb = agreement.first_ranks(ca), agreement.first_ranks(cb)
    tau = agreement.tau_ap(fb, agreement.rank_in(cb, fb, ca, fa))
    assert tau[0] == pytest.approx(1 / 9, abs=1e-15)
