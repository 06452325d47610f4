"""Paired tests: against scipy, exact enumeration, and the definitions of their intervals."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from scipy import stats

import cwlkit.stats.tests as st
from cwlkit.errors import ParamError
from cwlkit.stats.tests import (
    bootstrap_test,
    paired_test,
    randomization_test,
    sign_test,
    t_test,
    wilcoxon_test,
)


def _data(seed: int, C: int, n: int, shift: float = 0.05, ties: bool = False):
    rng = np.random.default_rng(seed)
    x = rng.random((C, n))
    y = rng.random((C, n)) * 0.9 + shift * rng.random((C, 1))
    if ties:  # IR-like scores: a few levels, many ties and zero differences
        x, y = np.round(x * 4) / 4, np.round(y * 4) / 4
    return x, y


# ----------------------------------------------------------------------------- t-test


@pytest.mark.parametrize("ties", [False, True])
def test_t_equals_scipy(ties):
    x, y = _data(1, 40, 25, ties=ties)
    r = t_test(x, y, confidence=0.9)
    for i in range(40):
        s = stats.ttest_rel(x[i], y[i])
        ci = s.confidence_interval(confidence_level=0.9)
        assert r.p_value[i] == pytest.approx(s.pvalue, abs=1e-12, rel=1e-12)
        assert r.statistic[i] == pytest.approx(s.statistic, rel=1e-12)
        assert r.ci_low[i] == pytest.approx(ci.low, abs=1e-12)
        assert r.ci_high[i] == pytest.approx(ci.high, abs=1e-12)
        assert r.diff[i] == pytest.approx(x[i].mean() - y[i].mean(), abs=1e-15)


def test_t_broadcast_and_shapes():
    x, y = _data(2, 6, 12)
    x3 = x.reshape(2, 3, 12)
    r = t_test(x3, y[0])  # y broadcast over the leading axes
    assert r.p_value.shape == (2, 3)
    assert r.p_value[1, 2] == pytest.approx(stats.ttest_rel(x[5], y[0]).pvalue, abs=1e-12)
    r1 = t_test(x[0], y[0])
    assert r1.p_value.shape == ()
    assert float(r1.p_value) == pytest.approx(stats.ttest_rel(x[0], y[0]).pvalue, abs=1e-12)
    recs = r.to_records()
    assert len(recs) == 6 and recs[5]["p_value"] == pytest.approx(r.p_value[1, 2])


@pytest.mark.filterwarnings("ignore:Precision loss")
def test_all_zero_differences_give_p_one():
    x = np.array([[0.5, 0.2, 0.1, 0.9]] * 2)
    for test in st.TESTS:
        r = paired_test(x, x, test, samples=200)
        assert np.all(r.p_value == 1.0), test
        assert np.all(r.diff == 0.0)
    # constant non-zero difference: t is infinite, p = 0, as scipy
    r = t_test(x[0] + 0.25, x[0])
    s = stats.ttest_rel(x[0] + 0.25, x[0])
    assert float(r.p_value) == pytest.approx(s.pvalue, abs=1e-12)


# --------------------------------------------------------------------------- Wilcoxon


@pytest.mark.parametrize("n,ties", [(12, False), (30, True), (60, False), (80, True)])
def test_wilcoxon_equals_scipy(n, ties):
    x, y = _data(3, 15, n, ties=ties)
    r = wilcoxon_test(x, y)
    for i in range(15):
        s = stats.wilcoxon(x[i], y[i])
        assert r.p_value[i] == pytest.approx(s.pvalue, abs=1e-12, rel=1e-12)
        assert r.statistic[i] == s.statistic


def test_wilcoxon_interval_inverts_the_exact_test():
    """Tukey's interval [W_(k), W_(N+1-k)] is where scipy's exact signed-rank test of
    d - theta stops rejecting: just outside each end p <= alpha, just inside p > alpha."""
    x, y = _data(4, 6, 15)
    r = wilcoxon_test(x, y, confidence=0.95)
    d = x - y
    for i in range(6):
        walsh = np.sort([(d[i, a] + d[i, b]) / 2 for a in range(15) for b in range(a, 15)])
        assert r.estimate[i] == pytest.approx(np.median(walsh), abs=1e-15)
        lo, hi = r.ci_low[i], r.ci_high[i]
        eps = 1e-9
        for theta, rejects in (
            (lo - eps, True),
            (lo + eps, False),
            (hi - eps, False),
            (hi + eps, True),
        ):
            p = stats.wilcoxon(d[i] - theta, method="exact").pvalue
            assert (p <= 0.05) == rejects, (i, theta, p)


def test_signed_rank_critical_value_by_enumeration():
    """k from the dynamic programme equals the count over all 2^n sign patterns."""
    for n in (6, 9, 11):
        tplus = np.array(
            [
                sum(r for r, s in zip(range(1, n + 1), signs, strict=True) if s)
                for signs in itertools.product((0, 1), repeat=n)
            ]
        )
        for alpha in (0.05, 0.1, 0.2):
            k = 0
            while 2 * np.mean(tplus <= k) <= alpha:
                k += 1
            assert st._signed_rank_k(n, alpha) == k


def test_signed_rank_normal_approximation_is_close_to_exact(monkeypatch):
    n = 300
    exact = st._signed_rank_k(n, 0.05)
    monkeypatch.setattr(st, "_EXACT_SIGNED_RANK_N", 10)
    approx = st._signed_rank_k(n, 0.05)
    assert abs(approx - exact) <= 2  # of N = 45150 Walsh averages


# ------------------------------------------------------------------------------- sign


def test_sign_equals_scipy_binomtest():
    x, y = _data(5, 60, 20, ties=True)
    r = sign_test(x, y)
    d = x - y
    for i in range(60):
        k, m = int((d[i] > 0).sum()), int((d[i] != 0).sum())
        expected = stats.binomtest(k, m).pvalue if m else 1.0
        assert r.p_value[i] == pytest.approx(expected, abs=1e-12, rel=1e-12)
        assert r.statistic[i] == k


def test_sign_interval_inverts_the_binomial_test():
    x, y = _data(6, 5, 25)
    r = sign_test(x, y, confidence=0.95)
    d = x - y
    for i in range(5):
        assert r.estimate[i] == pytest.approx(np.median(d[i]))
        for theta, rejects in (
            (r.ci_low[i] - 1e-9, True),
            (r.ci_low[i] + 1e-9, False),
            (r.ci_high[i] - 1e-9, False),
            (r.ci_high[i] + 1e-9, True),
        ):
            e = d[i] - theta
            p = stats.binomtest(int((e > 0).sum()), int((e != 0).sum())).pvalue
            assert (p <= 0.05) == rejects


def test_too_few_topics_give_an_infinite_interval():
    r = sign_test([0.1, 0.3, 0.2], [0.0, 0.0, 0.0])  # n = 3: p >= 0.25 for any shift
    assert r.ci_low == -np.inf and r.ci_high == np.inf
    r = wilcoxon_test([0.1, 0.3, 0.2], [0.0, 0.0, 0.0])
    assert r.ci_low == -np.inf and r.ci_high == np.inf


# ---------------------------------------------------------------------- randomization


def _exact_permutation_p(d: np.ndarray) -> float:
    n = d.size
    signs = np.array(list(itertools.product((-1.0, 1.0), repeat=n)))
    means = signs @ d / n
    return float(np.mean(np.abs(means) >= abs(d.mean()) - 1e-12))


@pytest.mark.parametrize("n", [6, 10, 12])
def test_randomization_p_within_monte_carlo_error_of_exact(n):
    x, y = _data(7, 8, n, ties=n == 10)
    B = 10_000
    r = randomization_test(x, y, samples=B, seed=11)
    for i in range(8):
        exact = _exact_permutation_p(x[i] - y[i])
        se = np.sqrt(exact * (1 - exact) / B)
        assert abs(r.p_value[i] - exact) <= 4 * se + 1.0 / (B + 1), (i, r.p_value[i], exact)


def test_randomization_vectorised_equals_one_by_one_and_is_seeded():
    x, y = _data(8, 5, 20)
    r = randomization_test(x, y, samples=3000, seed=5)
    for i in range(5):
        ri = randomization_test(x[i], y[i], samples=3000, seed=5)
        assert float(ri.p_value) == r.p_value[i]
        assert float(ri.ci_low) == pytest.approx(r.ci_low[i], abs=1e-14)
        assert float(ri.ci_high) == pytest.approx(r.ci_high[i], abs=1e-14)
    again = randomization_test(x, y, samples=3000, seed=5)
    assert np.array_equal(again.p_value, r.p_value)
    other = randomization_test(x, y, samples=3000, seed=6)
    assert not np.array_equal(other.p_value, r.p_value)


def test_monte_carlo_results_do_not_depend_on_chunking(monkeypatch):
    x, y = _data(9, 3, 30)
    a = randomization_test(x, y, samples=2000, seed=3)
    b = bootstrap_test(x, y, samples=2000, seed=3)
    monkeypatch.setattr(st, "_CHUNK_CELLS", 30 * 7)  # 7 samples per chunk
    a2 = randomization_test(x, y, samples=2000, seed=3)
    b2 = bootstrap_test(x, y, samples=2000, seed=3)
    for u, v in ((a, a2), (b, b2)):
        assert np.array_equal(u.p_value, v.p_value)
        assert np.allclose(u.ci_low, v.ci_low, rtol=0, atol=1e-14)
        assert np.allclose(u.ci_high, v.ci_high, rtol=0, atol=1e-14)


def test_randomization_interval_inverts_the_test():
    """The interval ends are where the same test (same seed, so the same sign vectors) of the
    shifted differences d - theta changes from p > alpha to p <= alpha."""
    x, y = _data(10, 4, 16)
    B, seed = 4000, 21
    r = randomization_test(x, y, samples=B, seed=seed)
    d = x - y
    for i in range(4):
        lo, hi = r.ci_low[i], r.ci_high[i]
        assert lo < d[i].mean() < hi
        eps = 1e-7
        for theta, rejects in (
            (lo - eps, True),
            (lo + eps, False),
            (hi - eps, False),
            (hi + eps, True),
        ):
            p = float(randomization_test(d[i] - theta, np.zeros(16), samples=B, seed=seed).p_value)
            assert (p <= 0.05) == rejects, (i, theta, p)
    # close to the t interval on well-behaved data
    t = t_test(x, y)
    assert np.allclose(r.ci_low, t.ci_low, atol=0.03) and np.allclose(
        r.ci_high, t.ci_high, atol=0.03
    )


# -------------------------------------------------------------------------- bootstrap


def test_bootstrap_percentile_interval_matches_scipy():
    x, y = _data(12, 4, 30)
    r = bootstrap_test(x, y, samples=10_000, seed=1)
    for i in range(4):
        d = x[i] - y[i]
        s = stats.bootstrap((d,), np.mean, method="percentile", n_resamples=10_000, random_state=2)
        sd_mean = d.std(ddof=1) / np.sqrt(d.size)
        # different random streams: the ends agree within Monte-Carlo error (~0.03 sd)
        assert abs(r.ci_low[i] - s.confidence_interval.low) < 0.15 * sd_mean
        assert abs(r.ci_high[i] - s.confidence_interval.high) < 0.15 * sd_mean


def test_bootstrap_quantiles_and_p_by_direct_resampling():
    """Same draws recomputed plainly: resampled means, numpy quantiles, shift-method p."""
    rng0 = np.random.default_rng(4)
    d = rng0.normal(0.05, 0.2, size=18)
    B = 999
    r = bootstrap_test(d, np.zeros(18), samples=B, seed=8, confidence=0.9)
    rng = np.random.default_rng(8)
    w = rng.multinomial(18, np.full(18, 1 / 18), size=B)
    means = w @ d / 18
    lo, hi = np.quantile(means, [0.05, 0.95])
    assert float(r.ci_low) == pytest.approx(lo, abs=1e-14)
    assert float(r.ci_high) == pytest.approx(hi, abs=1e-14)
    p = (1 + np.sum(np.abs(means - d.mean()) >= abs(d.mean()))) / (B + 1)
    assert float(r.p_value) == pytest.approx(p)


def test_bootstrap_coverage_is_near_nominal():
    """300 independent normal samples at once: the 95% percentile interval covers the true
    mean about 95% of the time (percentile intervals under-cover a little at n = 25)."""
    rng = np.random.default_rng(13)
    d = rng.normal(0.1, 1.0, size=(300, 25))
    r = bootstrap_test(d, np.zeros_like(d), samples=2000, seed=3)
    cover = np.mean((r.ci_low <= 0.1) & (0.1 <= r.ci_high))
    assert 0.88 <= cover <= 0.985
    # the p-value is small for a large effect and large without one
    big = bootstrap_test(d + 2.0, np.zeros_like(d), samples=2000, seed=3)
    assert np.all(big.p_value == 1 / 2001)
    null = bootstrap_test(
        d - d.mean(axis=1, keepdims=True) + 1e-3, np.zeros_like(d), samples=2000, seed=3
    )
    assert np.all(null.p_value > 0.9)


# ----------------------------------------------------------------------------- errors


def test_errors():
    with pytest.raises(
        ParamError, match=r"^test must be one of 't', .*; got 'tt' \(did you mean 't'\?\)$"
    ):
        paired_test([1, 2], [2, 3], "tt")
    with pytest.raises(ParamError, match="finite"):
        t_test([1.0, np.nan, 2.0], [1.0, 2.0, 3.0])
    with pytest.raises(ParamError, match="at least 2 topics"):
        t_test([1.0], [2.0])
    with pytest.raises(ParamError, match="cannot pair"):
        t_test([1.0, 2.0, 3.0], [2.0, 3.0])
    with pytest.raises(ParamError, match="confidence"):
        t_test([1.0, 2.0, 3.0], [2.0, 3.0, 5.0], confidence=95)
    with pytest.raises(ParamError, match="samples"):
        randomization_test([1.0, 2.0], [2.0, 3.0], samples=0)
    for alias, name in (("fisher", "randomization"), ("student", "t"), ("signed-rank", "wilcoxon")):
        assert paired_test([1.0, 2.0, 4.0], [2.0, 3.0, 3.5], alias, samples=50).test == name
