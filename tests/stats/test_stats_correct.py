"""Multiple-testing corrections equal statsmodels' multipletests."""

from __future__ import annotations

import numpy as np
import pytest

from cwlkit.errors import ParamError
from cwlkit.stats.correct import correct

multitest = pytest.importorskip("statsmodels.stats.multitest")

SM_NAME = {"bonferroni": "bonferroni", "holm": "holm", "bh": "fdr_bh"}


def _families():
    rng = np.random.default_rng(0)
    yield rng.random(1)
    yield rng.random(7)
    yield rng.random(50) ** 3  # many small p-values
    yield np.concatenate([rng.random(20) * 0.01, rng.random(20)])
    yield np.array([0.01, 0.01, 0.02, 0.02, 0.02, 0.04, 0.5, 1.0, 0.0])  # ties, 0 and 1
    yield np.round(rng.random(40), 2)  # heavy ties
    yield np.array([0.0125, 0.025, 0.0375, 0.05])  # exactly on the BH / Holm boundaries


@pytest.mark.slow
@pytest.mark.parametrize("method", ["bonferroni", "holm", "bh"])
@pytest.mark.parametrize("alpha", [0.05, 0.1])
def test_equals_statsmodels(method, alpha):
    for p in _families():
        rej, adj = correct(p, method, alpha)
        srej, sadj, _, _ = multitest.multipletests(p, alpha=alpha, method=SM_NAME[method])
        np.testing.assert_allclose(adj, sadj, rtol=0, atol=1e-15)
        np.testing.assert_array_equal(rej, srej)


def test_none_and_shape_and_nan():
    p = np.array([[0.01, 0.2], [0.04, np.nan]])
    rej, adj = correct(p, "none", 0.05)
    assert rej.shape == (2, 2) and adj.shape == (2, 2)
    np.testing.assert_array_equal(rej, [[True, False], [True, False]])
    # NaN is left out of the family: Holm over the 3 finite p-values
    rej, adj = correct(p, "holm", 0.05)
    _, sadj, _, _ = multitest.multipletests([0.01, 0.2, 0.04], method="holm")
    np.testing.assert_allclose(adj[np.isfinite(p)], sadj, rtol=0, atol=0)
    assert np.isnan(adj[1, 1]) and not rej[1, 1]


def test_hand_computed_holm_and_bh():
    p = [0.01, 0.04, 0.03, 0.005]
    # Holm: sorted 0.005, 0.01, 0.03, 0.04 -> x4, x3, x2, x1 = 0.02, 0.03, 0.06, 0.04 -> running max
    _, adj = correct(p, "holm")
    np.testing.assert_allclose(adj, [0.03, 0.06, 0.06, 0.02])
    # BH: 0.005*4/1, 0.01*4/2, 0.03*4/3, 0.04*4/4 = 0.02, 0.02, 0.04, 0.04
    # -> running min from the top
    rej, adj = correct(p, "bh")
    np.testing.assert_allclose(adj, [0.02, 0.04, 0.04, 0.02])
    assert rej.all()


def test_errors():
    with pytest.raises(
        ParamError,
        match=r"^correction must be one of 'none', .*; got 'holmes' \(did you mean 'holm'\?\)$",
    ):
        correct([0.1], "holmes")
    with pytest.raises(ParamError, match=r"\[0, 1\]"):
        correct([1.5], "holm")
    assert correct([0.1], "fdr_bh")[1][0] == 0.1
