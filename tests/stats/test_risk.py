"""Risk-sensitive measures (stats/risk.py) by hand: URisk and TRisk (Dinçer et al., SIGIR
2014), ZRisk and GeoRisk (Dinçer et al., SIGIR 2016), computed here with fractions and
math.erf, independently of the module's numpy and scipy."""

from __future__ import annotations

import math
from fractions import Fraction as F

import numpy as np
import pytest

from cwlkit.errors import ParamError
from cwlkit.stats.risk import georisk, risk_table, trisk, urisk, zrisk

X = [0.5, 0.2, 0.4]
B = [0.3, 0.4, 0.4]


def _phi(z: float) -> float:
    return 0.5 * (1 + math.erf(z / math.sqrt(2)))


def test_urisk_by_hand():
    # d = 0.2, (1 + 1)(-0.2), 0: URisk = -0.2 / 3
    assert urisk(X, B, alpha=1) == pytest.approx(-0.2 / 3, abs=1e-15)
    # alpha = 0: the mean difference
    assert urisk(X, B) == pytest.approx(0.0, abs=1e-15)
    # alpha = 5: 0.2 - 6 * 0.2
    assert urisk(X, B, alpha=5) == pytest.approx((0.2 - 1.2) / 3)


def test_trisk_by_hand():
    d = [F(2, 10), F(-4, 10), F(0)]
    mean = sum(d) / 3
    var = sum((v - mean) ** 2 for v in d) / 2
    want = float(mean) / math.sqrt(float(var) / 3)
    t, p = trisk(X, B, alpha=1)
    assert t == pytest.approx(want, rel=1e-12)
    # Student's t with 2 degrees of freedom: P(|T| > t) = 1 - |t| / sqrt(2 + t^2)
    assert p == pytest.approx(1 - abs(want) / math.sqrt(2 + want**2), rel=1e-12)


def test_trisk_is_a_paired_t_test_at_alpha_0():
    from scipy import stats

    rng = np.random.default_rng(7)
    x, b = rng.random(30), rng.random(30)
    t, p = trisk(x, b)
    ref = stats.ttest_rel(x, b)
    assert t == pytest.approx(ref.statistic, rel=1e-12)
    assert p == pytest.approx(ref.pvalue, rel=1e-12)


def test_zrisk_and_georisk_by_hand():
    """x = [[1, 0], [0.5, 0.5]]: S = (1, 1), T = (1.5, 0.5), N = 2, e_ij = S_i T_j / 2 =
    0.75 and 0.25 on both rows; z = (+-0.25 / sqrt(0.75), -+0.25 / 0.5)."""
    x = [[1.0, 0.0], [0.5, 0.5]]
    z1 = 0.25 / math.sqrt(0.75) + 2 * (-0.5)
    z2 = 0.5 + 2 * (-0.25 / math.sqrt(0.75))
    np.testing.assert_allclose(zrisk(x, alpha=1), [z1, z2], rtol=1e-14)
    want = [math.sqrt(1 / 2 * _phi(z1 / 2)), math.sqrt(1 / 2 * _phi(z2 / 2))]
    np.testing.assert_allclose(georisk(x, alpha=1), want, rtol=1e-14)
    # alpha = 0: the plain sums of the residuals z_ij
    np.testing.assert_allclose(zrisk(x), [0.25 / math.sqrt(0.75) - 0.5, 0.5 - 0.25 / 0.75**0.5])


def test_zero_rows_and_columns():
    """A topic every run scores 0 on has e = 0: its z is 0, not NaN."""
    x = [[0.4, 0.0], [0.2, 0.0]]
    out = zrisk(x, alpha=1)
    assert np.isfinite(out).all()
    assert zrisk([[0.0, 0.0]]).tolist() == [0.0]


def test_many_runs_at_once_equal_one_by_one():
    rng = np.random.default_rng(3)
    x, b = rng.random((4, 25)), rng.random(25)
    many = urisk(x, b, alpha=2)
    for i in range(4):
        assert many[i] == urisk(x[i], b, alpha=2)


def test_table():
    x = np.array([[0.3, 0.4, 0.4], [0.5, 0.2, 0.4]])
    tab = risk_table(x, ["base", "new"], ["1", "2", "3"], measure="AP", baseline="base", alpha=1)
    rows = tab.rows()
    assert rows[0]["URisk"] == 0.0 and math.isnan(rows[0]["TRisk"])
    assert rows[1]["URisk"] == pytest.approx(-0.2 / 3)
    assert (rows[1]["wins"], rows[1]["losses"]) == (1, 1)
    np.testing.assert_allclose(tab.zrisk, zrisk(x, 1))


@pytest.mark.parametrize(
    ("call", "match"),
    [
        (lambda: urisk(X, B, alpha=-1), r"^alpha must be a number >= 0; got -1$"),
        (lambda: urisk(X, B, alpha="1"), r"^alpha must be a number >= 0; got '1'$"),
        (lambda: urisk(X, [1, 2]), r"do not pair up"),
        (lambda: urisk([], []), r"no topics"),
        (lambda: urisk(["a"], [1]), r"arrays of numbers"),
        (lambda: urisk([math.nan], [1]), r"finite"),
        (lambda: zrisk([[-0.1, 1]]), r"scores >= 0"),
        (lambda: zrisk([1, 2]), r"runs x topics"),
        (lambda: georisk(None), r"runs x topics|matrix of numbers"),
        (
            lambda: risk_table(np.ones((1, 2)), ["a"], ["1", "2"], measure="AP", baseline="b"),
            r"baseline 'b' is not one of the runs",
        ),
    ],
)
def test_bad_input(call, match):
    with pytest.raises(ParamError, match=match):
        call()
