"""INST's bounds over T in (0, 20] and gains in [0, 1] (hypothesis), small T included.

A ranking has judged gains and unjudged documents (None); past its end nothing is known. The
lower bound gives every unknown gain 0, the upper bound 1. For every *completion* (each
unjudged document and each rank past the run given some gain in [0, 1]) every measurement lies
between the two bounds: EU and ETU between lower and upper, ED and ETC between upper and lower
(more gain, a shorter search), EC = 1 (unit costs). So in exact mode ResEU >= 0 and
ResETU >= 0, while ResED = ResETC <= 0 (docs/cwl.md: finding more gain makes users stop
earlier).

Before the numerator of Equation 1 was floored at 0, T <= 1/4 on an all-relevant ranking gave
C = 1 (or C > 1, clipped to 1): the upper bound's user never stopped, EU 0, ResETU -3.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.special import polygamma

from cwlkit.io.trec import Qrels, Run
from cwlkit.measures.cwl import score_metric, weights
from cwlkit.measures.cwl.eval_depth import inst_tail_mass
from cwlkit.measures.cwl.inst import INST

COLUMNS = ("EU", "ETU", "EC", "ETC", "ED")
TOL = 1e-9

Ts = st.one_of(
    st.sampled_from([0.05, 0.1, 0.25, 0.3, 0.5, 1.0, 2.0, 20.0]),
    st.floats(min_value=0.0, max_value=20.0, exclude_min=True, allow_subnormal=False),
)
gain = st.one_of(st.none(), st.sampled_from([0.0, 1.0]), st.floats(0.0, 1.0))
rankings = st.one_of(
    st.lists(gain, max_size=12),
    st.integers(0, 12).map(lambda n: [1.0] * n),  # every document relevant
    st.integers(0, 12).map(lambda n: [0.0] * n),  # none relevant
    st.integers(0, 12).map(lambda n: [None] * n),  # none judged
)


def scores(T: float, gains: list[float], pad: float) -> dict[str, float]:
    g = np.asarray(gains, dtype=np.float64)[None, :]
    s = score_metric(INST(T), g, np.ones_like(g), np.array([g.shape[1]]), pad_gain=pad)
    return {c: float(v[0]) for c, v in zip(COLUMNS, s.as_array(), strict=True)}


def bounds(T: float, ranking: list[float | None]) -> tuple[dict, dict]:
    lo = scores(T, [0.0 if g is None else g for g in ranking], 0.0)
    hi = scores(T, [1.0 if g is None else g for g in ranking], 1.0)
    return lo, hi


def between(x: float, a: float, b: float) -> bool:
    return (
        min(a, b) - TOL * max(1.0, abs(a), abs(b))
        <= x
        <= max(a, b) + TOL * max(1.0, abs(a), abs(b))
    )


@settings(max_examples=400, deadline=None)
@given(
    T=Ts,
    ranking=rankings,
    fill=st.lists(st.floats(0.0, 1.0), min_size=12, max_size=12),
    extra=st.lists(st.floats(0.0, 1.0), max_size=15),
    pad=st.one_of(st.sampled_from([0.0, 1.0]), st.floats(0.0, 0.9)),
)
@pytest.mark.slow
def test_every_completion_lies_between_the_bounds(T, ranking, fill, extra, pad):
    lo, hi = bounds(T, ranking)
    done = [fill[i] if g is None else g for i, g in enumerate(ranking)] + extra
    value = scores(T, done, pad)
    for c in COLUMNS:
        assert math.isfinite(lo[c]) and math.isfinite(hi[c]), c
        assert between(value[c], lo[c], hi[c]), (c, lo[c], value[c], hi[c])
    # gain lies in [0, 1]: so do EU and the bounds; more gain: more utility, a shorter search
    assert -TOL <= lo["EU"] <= hi["EU"] + TOL <= 1 + 2 * TOL
    assert lo["ETU"] <= hi["ETU"] + TOL
    assert hi["ED"] <= lo["ED"] + TOL and hi["ED"] >= 1 - TOL
    assert lo["EC"] == pytest.approx(1.0) and hi["EC"] == pytest.approx(1.0)


@settings(max_examples=150, deadline=None)
@given(T=Ts, ranking=rankings)
def test_residuals_in_exact_mode(T, ranking):
    # through the API: a run with judged and unjudged documents (labels are the gains)
    from cwlkit import evaluate

    n = len(ranking)
    q = [("q", f"d{i}", g) for i, g in enumerate(ranking) if g is not None]
    q.append(("other", "x", 1.0))  # a topic for the qrels when nothing is judged in q
    r = [("q", f"d{i}", float(n - i)) for i in range(n)] or [("q", "d0", 1.0)]
    if not ranking:
        ranking = [None]
    res = evaluate(
        Qrels.from_records(q), Run.from_records(r), [INST(T)], residuals=True, topics="run"
    )
    lo, hi = bounds(T, ranking)
    assert res.values[0, 0] == pytest.approx(lo["EU"], abs=1e-12)
    assert res.columns["ResEU"][0, 0] >= 0.0
    assert res.columns["ResETU"][0, 0] >= -TOL
    assert res.columns["ResED"][0, 0] <= TOL  # more gain, users stop earlier
    assert res.columns["ResETC"][0, 0] == pytest.approx(res.columns["ResED"][0, 0], abs=1e-9)
    assert abs(res.columns["ResEC"][0, 0]) <= TOL


@settings(max_examples=200, deadline=None)
@given(T=Ts, ranking=st.lists(st.floats(0.0, 1.0), max_size=15))
def test_continuation_is_a_probability_falling_with_gain(T, ranking):
    w = weights(INST(T), ranking, horizon=len(ranking) + 3)
    C = w["C"]
    assert np.all((C >= 0.0) & (C < 1.0))
    # the same ranks with more gain so far never make the user likelier to go on
    more = [min(1.0, g + 0.5) for g in ranking]
    C2 = weights(INST(T), more, horizon=len(ranking) + 3)["C"]
    assert np.all(C2 <= C + 1e-15)


@settings(max_examples=200, deadline=None)
@given(T=Ts, ranking=st.lists(st.floats(0.0, 1.0), max_size=20))
def test_judged_residual_within_equation_7(T, ranking):
    # a fully judged ranking of depth n has a residual of at most rho_n (the all-zero tail)
    lo, hi = bounds(T, ranking)
    assert hi["EU"] - lo["EU"] <= inst_tail_mass(T, len(ranking)) + 1e-12


@pytest.mark.parametrize("T", [0.01, 0.1, 0.25, 0.3, 0.4, 0.5, 0.6, 1.0, 2.0, 10.0, 20.0])
def test_all_relevant_and_none_relevant_closed_forms(T):
    # every rank relevant: C = ((2T - 1)/(2T))^2 for T >= 1/2, so ED = 4T^2 / (4T - 1) (the
    # paper's "approximately T + 0.25"); for T < 1/2 the user stops at rank 1. No gain at all:
    # ED = (2T)^2 psi_1(2T) ("2T + 0.5")
    ones = scores(T, [1.0] * 5, 1.0)
    want = 4 * T * T / (4 * T - 1) if T >= 0.5 else 1.0
    assert ones["ED"] == pytest.approx(want, rel=1e-12)
    assert ones["EU"] == pytest.approx(1.0, abs=1e-15)
    zeros = scores(T, [0.0] * 5, 0.0)
    assert zeros["ED"] == pytest.approx(4 * T * T * float(polygamma(1, 2 * T)), rel=1e-12)
    assert zeros["EU"] == 0.0


@pytest.mark.parametrize("T", [0.1, 0.25])
def test_small_T_all_relevant_regression(T):
    # was: upper bound EU 0 and ED inf (C = 1 forever), ResETU -3 on five relevant documents
    lo, hi = bounds(T, [1.0] * 5)
    assert lo == hi
    assert (hi["EU"], hi["ETU"], hi["ED"]) == (1.0, 1.0, 1.0)


def test_cwl_eval_mode_keeps_equation_1_as_written():
    # --max-depth (cwl_eval's mode) computes Equation 1 without the floor, as cwl_eval does:
    # T = 0.3, one relevant document: C(1) = ((1 + 0.6 - 1 - 1)/(1 + 0.6 - 1))^2 = (0.4/0.6)^2
    g = np.array([[1.0, 0.0]])
    s = score_metric(INST(0.3), g, np.ones_like(g), np.array([2]), max_depth=2)
    assert s.ED[0] == pytest.approx(1 + (0.4 / 0.6) ** 2)
    exact = score_metric(INST(0.3), g, np.ones_like(g), np.array([2]))
    assert exact.ED[0] == 1.0
