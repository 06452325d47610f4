"""Correlations: scipy for r, rho, tau-b and the weighted tau; hand computations for tau_AP,
the weighted tau and RBO; the ircor R package's documented tau_AP examples."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats

from cwlkit.errors import ParamError
from cwlkit.stats.correlate import (
    correlate_systems,
    kendall_tau_b,
    pearson,
    ranking,
    rbo_ext,
    rbo_scores,
    spearman,
    tau_ap_correlation,
    weighted_tau,
)


def _xy(seed=0, n=30, ties=False):
    rng = np.random.default_rng(seed)
    x = rng.random(n)
    y = x + rng.normal(0, 0.3, n)
    if ties:
        x, y = np.round(x, 1), np.round(y, 1)
    return x, y


@pytest.mark.parametrize("ties", [False, True])
def test_pearson_spearman_kendall_equal_scipy(ties):
    x, y = _xy(1, 40, ties)
    for ours, theirs in (
        (pearson(x, y), stats.pearsonr(x, y)),
        (spearman(x, y), stats.spearmanr(x, y)),
        (kendall_tau_b(x, y), stats.kendalltau(x, y, variant="b")),
    ):
        assert ours.value == pytest.approx(theirs.statistic, abs=1e-12)
        assert ours.p_value == pytest.approx(theirs.pvalue, abs=1e-12, rel=1e-12)
        assert ours.n == 40


def test_constant_input_is_nan():
    c = pearson([1.0, 1.0, 1.0], [1.0, 2.0, 3.0])
    assert math.isnan(c.value)


# ---------------------------------------------------------------------------- tau_AP


def test_tau_ap_hand_computed():
    """True order A > B > C > D.

    Estimate B, A, C, D (swap at the top): C(2) = 0 (B is not above A in truth),
    C(3) = 2 of 2, C(4) = 3 of 3: tau_AP = 2/3 * (0/1 + 2/2 + 3/3) - 1 = 1/3.
    Estimate A, B, D, C (swap at the bottom): 1/1 + 2/2 + 2/3 = 8/3: tau_AP = 16/9 - 1 = 7/9.
    Kendall's tau is 2/3 for both (one discordant pair of six).
    """
    truth = [4.0, 3.0, 2.0, 1.0]  # A, B, C, D
    top_swap = [3.0, 4.0, 2.0, 1.0]
    bottom_swap = [4.0, 3.0, 1.0, 2.0]
    assert tau_ap_correlation(truth, top_swap).value == pytest.approx(1 / 3, abs=1e-15)
    assert tau_ap_correlation(truth, bottom_swap).value == pytest.approx(7 / 9, abs=1e-15)
    assert kendall_tau_b(truth, top_swap).value == pytest.approx(2 / 3)
    assert kendall_tau_b(truth, bottom_swap).value == pytest.approx(2 / 3)
    assert tau_ap_correlation(truth, truth).value == pytest.approx(1.0)
    assert tau_ap_correlation(truth, truth[::-1]).value == pytest.approx(-1.0)


def test_tau_ap_ircor_examples():
    """The examples of the ircor R package (Urbano and Marrero), with their printed output."""
    x = [0.67, 0.45, 0.29, 0.12, 0.57, 0.24, 0.94, 0.75, 0.08, 0.54]
    y = [0.48, 0.68, 0.32, 0.09, 0.06, 0.61, 0.87, 0.22, 0.44, 0.84]
    assert tau_ap_correlation(x, y).value == pytest.approx(0.3928571, abs=5e-8)
    # y <- round(y, 1): ties in y
    y1 = [0.5, 0.7, 0.3, 0.1, 0.1, 0.6, 0.9, 0.2, 0.4, 0.8]
    assert tau_ap_correlation(x, y1, ties="a").value == pytest.approx(0.39903, abs=5e-6)
    assert tau_ap_correlation(x, y1, ties="b").value == pytest.approx(0.3317019, abs=5e-8)
    # x <- round(x, 1) as R rounds (0.45 -> 0.4, 0.75 -> 0.8): ties in both
    x1 = [0.7, 0.4, 0.3, 0.1, 0.6, 0.2, 0.9, 0.8, 0.1, 0.5]
    assert tau_ap_correlation(x1, y1, ties="b").value == pytest.approx(0.339418, abs=5e-7)


def test_tau_ap_a_is_the_mean_over_tie_breakings():
    """tau_AP_a is the expectation of tau_AP over random orders inside y's tie groups."""
    import itertools

    x = np.array([9.0, 8.0, 7.0, 6.0, 5.0, 4.0])
    y = np.array([3.0, 3.0, 2.0, 2.0, 2.0, 1.0])
    vals = []
    groups = [np.flatnonzero(y == v) for v in (3.0, 2.0, 1.0)]
    for p0 in itertools.permutations(groups[0]):
        for p1 in itertools.permutations(groups[1]):
            order = list(p0) + list(p1) + list(groups[2])
            yy = np.empty(6)
            yy[order] = np.arange(6, 0, -1)  # a tie-free ordering
            vals.append(tau_ap_correlation(x, yy).value)
    assert tau_ap_correlation(x, y, ties="a").value == pytest.approx(np.mean(vals), abs=1e-14)


def test_tau_ap_errors():
    with pytest.raises(ParamError, match="ties='b'"):
        tau_ap_correlation([1.0, 1.0, 2.0], [1.0, 2.0, 3.0])
    with pytest.raises(ParamError, match="ties"):
        tau_ap_correlation([1.0, 2.0, 3.0], [1.0, 2.0, 3.0], ties="c")


# ----------------------------------------------------------------------- weighted tau


def test_weighted_tau_hand_computed():
    """Three systems, x = (3, 2, 1): ranks 0, 1, 2 and weights 1, 1/2, 1/3; pair weights
    (0,1) 3/2, (0,2) 4/3, (1,2) 5/6, total 11/3.

    Swap of the top two (y = 2, 3, 1): (-3/2 + 4/3 + 5/6) / (11/3) = 2/11.
    Swap of the bottom two (y = 3, 1, 2): (3/2 + 4/3 - 5/6) / (11/3) = 6/11.
    Ranking by y instead gives the same weights here, so every variant agrees.
    """
    x = [3.0, 2.0, 1.0]
    for rank in ("x", "y", "both"):
        assert weighted_tau(x, [2.0, 3.0, 1.0], rank=rank).value == pytest.approx(2 / 11, abs=1e-15)
        assert weighted_tau(x, [3.0, 1.0, 2.0], rank=rank).value == pytest.approx(6 / 11, abs=1e-15)
    # unweighted Kendall tau is 1/3 for both
    assert kendall_tau_b(x, [2.0, 3.0, 1.0]).value == pytest.approx(1 / 3)


@pytest.mark.parametrize("ties", [False, True])
def test_weighted_tau_equals_scipy(ties):
    for seed in range(5):
        x, y = _xy(seed, 25, ties)
        assert weighted_tau(x, y).value == pytest.approx(
            stats.weightedtau(x, y).statistic, abs=1e-12
        )
        assert weighted_tau(x, y, rank="x").value == pytest.approx(
            stats.weightedtau(x, y, rank=None).statistic, abs=1e-12
        )
        assert weighted_tau(x, y, rank="y").value == pytest.approx(
            stats.weightedtau(y, x, rank=None).statistic, abs=1e-12
        )


# ------------------------------------------------------------------------------- RBO


def test_rbo_hand_computed_same_items():
    """a b c d vs b a d c, p = 0.5: X = 0, 2, 2, 4;
    (1-p)/p * (0 + 2/2 * 1/4 + 2/3 * 1/8 + 4/4 * 1/16) + p^4 = 0.3958333 + 0.0625."""
    assert rbo_ext(list("abcd"), list("badc"), 0.5) == pytest.approx(
        0.25 + 1 / 12 + 0.0625 + 0.0625, abs=1e-15
    )
    assert rbo_ext(list("abcd"), list("abcd"), 0.9) == pytest.approx(1.0, abs=1e-15)
    assert rbo_ext(list("ab"), list("cd"), 0.9) == 0.0


def test_rbo_hand_computed_uneven():
    """S = a b (s = 2), L = b c a (l = 3), p = 0.5: X1 = 0, X2 = 1, X3 = |{a,b} & {b,c,a}| = 2.
    sum X_d/d p^d = 1/2 * 1/4 + 2/3 * 1/8 = 5/24; extrapolation term for d = 3:
    X_s (d - s) / (s d) p^d = 1 * 1/6 * 1/8 = 1/48; (1-p)/p = 1;
    last: ((X_l - X_s)/l + X_s/s) p^l = (1/3 + 1/2) / 8 = 5/48. Total 10/48 + 1/48 + 5/48 = 1/3."""
    assert rbo_ext(["a", "b"], ["b", "c", "a"], 0.5) == pytest.approx(1 / 3, abs=1e-15)
    assert rbo_ext(["b", "c", "a"], ["a", "b"], 0.5) == pytest.approx(1 / 3, abs=1e-15)


def test_rbo_scores_and_ranking():
    assert ranking([0.2, 0.5, 0.5, 0.1], ["d", "c", "b", "a"]) == ["b", "c", "d", "a"]
    r = rbo_scores([4.0, 3.0, 2.0, 1.0], [3.0, 4.0, 1.0, 2.0], list("abcd"), p=0.5)
    assert r.value == pytest.approx(rbo_ext(list("abcd"), list("badc"), 0.5))
    assert math.isnan(r.p_value)
    with pytest.raises(ParamError, match=r"^p must be a number in \(0, 1\); got 1.0$"):
        rbo_ext(list("ab"), list("ab"), 1.0)
    with pytest.raises(ParamError, match="repeated"):
        rbo_ext(list("aab"), list("ab"), 0.5)


def test_correlate_systems_bundle():
    x, y = _xy(3, 12)
    out = {c.name: c for c in correlate_systems(x, y, [f"s{i}" for i in range(12)], rbo_p=0.8)}
    assert set(out) == {"pearson", "spearman", "kendall_tau_b", "tau_ap", "weighted_tau", "rbo"}
    assert out["kendall_tau_b"].value == pytest.approx(stats.kendalltau(x, y).statistic)
    # ties in the reference switch tau_AP to the symmetric variant
    out = {c.name for c in correlate_systems(np.round(x, 1), y)}
    assert "tau_ap_b" in out
