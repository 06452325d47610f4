"""Tests over many systems, every multiple-testing method, and the weighted tau: against
scipy (tukey_hsd, false_discovery_control, weightedtau) and statsmodels (anova_lm,
multipletests) on the same numbers."""

from __future__ import annotations

import sys

import numpy as np
import pytest
from conftest import DATA
from scipy import stats

import cwlkit
from cwlkit.errors import CwlkitError, ParamError
from cwlkit.stats import compare, correct, weighted_tau
from cwlkit.stats.correct import CHOICES, CORRECTIONS, STATSMODELS_NAMES
from cwlkit.stats.multi import pairwise_tukey, tukey_hsd, two_way_anova

WEB = DATA / "web2012"
QRELS = str(WEB / "qrels.web.151-200.txt")
RUNS = sorted(str(p) for p in (WEB / "runs").glob("*.run.gz"))


@pytest.fixture(scope="module")
def web():
    """{run file name: Results} of the 8 Web 2012 runs (topics: all 50 in every run)."""
    return cwlkit.Evaluator(QRELS, ["P@10", "AP", "nDCG@10"]).evaluate_many(RUNS)


def _matrix(results, measure):
    return np.stack([list(r.per_topic(measure).values()) for r in results.values()])


# ------------------------------------------------------------------------------ Tukey


@pytest.mark.slow
def test_tukey_equals_scipy(web):
    rng = np.random.default_rng(3)
    cases = [rng.random((4, 30)), rng.random((6, 12)) + np.arange(6)[:, None] * 0.1]
    cases += [_matrix(web, m) for m in ("P@10", "AP")]
    for s in cases:
        got = tukey_hsd(s, confidence=0.9)
        ref = stats.tukey_hsd(*s)
        ci = ref.confidence_interval(confidence_level=0.9)
        off = ~np.eye(s.shape[0], dtype=bool)
        np.testing.assert_allclose(got.p_value[off], ref.pvalue[off], rtol=0, atol=1e-12)
        np.testing.assert_allclose(got.diff, ref.statistic, rtol=0, atol=1e-12)
        np.testing.assert_allclose(got.ci_low, ci.low, rtol=0, atol=1e-12)
        np.testing.assert_allclose(got.ci_high, ci.high, rtol=0, atol=1e-12)
        assert (np.diag(got.p_value) == 1).all()


def test_pairwise_tukey_reads_the_pairs():
    rng = np.random.default_rng(4)
    s = rng.random((4, 2, 20))
    r = pairwise_tukey(s, [1, 3, 2], [0, 0, 1], confidence=0.95)
    assert r.p_value.shape == (3, 2) and r.test == "tukey"
    for j in range(2):
        ref = stats.tukey_hsd(*s[:, j, :])
        for k, (a, b) in enumerate([(1, 0), (3, 0), (2, 1)]):
            assert r.p_value[k, j] == pytest.approx(ref.pvalue[a, b], abs=1e-12)
            assert r.diff[k, j] == pytest.approx(s[a, j].mean() - s[b, j].mean(), abs=1e-12)


def test_tukey_constant_scores_give_p_one():
    r = tukey_hsd(np.full((3, 5), 0.5))
    assert (r.p_value == 1).all()


@pytest.mark.slow
def test_compare_with_tukey_equals_scipy(web):
    t = compare(web, test="tukey", all_pairs=True, alpha=0.05)
    names = list(web)
    refs = {m: stats.tukey_hsd(*_matrix(web, m)) for m in t.measures}
    for rec in t.records:
        ref = refs[rec["measure"]]
        i, j = names.index(rec["run"]), names.index(rec["baseline"])
        assert rec["p_value"] == pytest.approx(ref.pvalue[i, j], abs=1e-12)
        assert rec["p_adjusted"] == rec["p_value"]  # already adjusted: no further correction
        assert rec["significant"] == (ref.pvalue[i, j] <= 0.05)
    assert len(t.records) == 3 * 28
    with pytest.raises(ParamError, match="already adjusted"):
        compare(web, test="tukey", correction="holm")


# ------------------------------------------------------------------------------ ANOVA


def _statsmodels_anova(s):
    pd = pytest.importorskip("pandas")
    smf = pytest.importorskip("statsmodels.formula.api")
    from statsmodels.stats.anova import anova_lm

    R, n = s.shape
    frame = pd.DataFrame(
        {
            "system": np.repeat([f"s{i}" for i in range(R)], n),
            "topic": np.tile([f"t{k}" for k in range(n)], R),
            "score": s.reshape(-1),
        }
    )
    return anova_lm(smf.ols("score ~ C(system) + C(topic)", frame).fit())


@pytest.mark.slow
def test_two_way_anova_equals_statsmodels(web):
    rng = np.random.default_rng(5)
    cases = [rng.random((5, 30)) + np.arange(5)[:, None] * 0.05, rng.random((2, 7))]
    cases += [_matrix(web, m) for m in ("P@10", "AP")]
    for s in cases:
        got = two_way_anova(s)
        ref = _statsmodels_anova(s)
        for src, row in (("system", "C(system)"), ("topic", "C(topic)"), ("residual", "Residual")):
            assert got.df[src] == ref.loc[row, "df"]
            assert got.sum_sq[src] == pytest.approx(ref.loc[row, "sum_sq"], rel=1e-10, abs=1e-12)
            assert got.mean_sq[src] == pytest.approx(ref.loc[row, "mean_sq"], rel=1e-10, abs=1e-12)
            if src != "residual":
                assert got.F[src] == pytest.approx(ref.loc[row, "F"], rel=1e-9)
                assert got.p_value[src] == pytest.approx(
                    ref.loc[row, "PR(>F)"], rel=1e-9, abs=1e-12
                )
        ss = got.sum_sq
        assert got.eta_sq_partial == pytest.approx(ss["system"] / (ss["system"] + ss["residual"]))


def test_two_way_anova_hand_computed():
    """2 systems x 3 topics: y = [[1, 2, 3], [2, 3, 4]] is additive (system +1): the
    residual is 0, SS_system = 3 * 2 * 0.5^2 = 1.5, SS_topic = 2 * (1 + 0 + 1) = 4."""
    a = two_way_anova([[1.0, 2.0, 3.0], [2.0, 3.0, 4.0]])
    assert a.sum_sq["system"] == pytest.approx(1.5)
    assert a.sum_sq["topic"] == pytest.approx(4.0)
    assert a.sum_sq["residual"] == pytest.approx(0.0, abs=1e-24)
    assert a.df == {"system": 1.0, "topic": 2.0, "residual": 2.0}
    assert a.p_value["system"] < 1e-10 or a.F["system"] == np.inf


def test_compare_anova_option(web):
    t = compare(web, anova=True)
    assert list(t.anova) == ["P@10", "AP", "nDCG@10"]
    ref = _statsmodels_anova(_matrix(web, "AP"))
    assert t.anova["AP"].F["system"] == pytest.approx(ref.loc["C(system)", "F"], rel=1e-9)
    assert compare(web).anova == {}


def test_errors():
    with pytest.raises(ParamError, match="at least 2 systems"):
        tukey_hsd([[0.1, 0.2, 0.3]])
    with pytest.raises(ParamError, match="at least 2 topics"):
        two_way_anova([[0.1], [0.2]])
    with pytest.raises(ParamError, match="finite"):
        two_way_anova([[0.1, np.nan], [0.2, 0.3]])


# ------------------------------------------------------------------ every correction


def _families():
    rng = np.random.default_rng(0)
    yield rng.random(1)
    yield rng.random(9)
    yield rng.random(50) ** 3
    yield np.concatenate([rng.random(20) * 0.01, rng.random(20)])
    yield np.array([0.01, 0.01, 0.02, 0.02, 0.02, 0.04, 0.5, 1.0, 0.0])
    yield np.round(rng.random(40), 2)
    yield np.array([0.0125, 0.025, 0.0375, 0.05])


def _statsmodels_methods():
    try:
        from statsmodels.stats.multitest import multitest_methods_names
    except ImportError:  # pragma: no cover - statsmodels is a test extra
        return []
    return sorted(multitest_methods_names)


@pytest.mark.slow
@pytest.mark.parametrize("method", _statsmodels_methods())
@pytest.mark.parametrize("alpha", [0.05, 0.1])
def test_every_statsmodels_method(method, alpha):
    """Each of multipletests' methods, by statsmodels' own key ('b', 'hs', 'fdr_bh', ...),
    gives statsmodels' adjusted p-values and rejections."""
    multitest = pytest.importorskip("statsmodels.stats.multitest")
    for p in _families():
        if method == "lfdr" and (p == 0).any():
            with pytest.raises(ParamError, match="lfdr correction failed"):
                correct(p, method, alpha)
            continue
        rej, adj = correct(p, method, alpha)
        with np.errstate(divide="ignore", invalid="ignore"):
            srej, sadj, _, _ = multitest.multipletests(p, alpha=alpha, method=method)
        np.testing.assert_allclose(adj, sadj, rtol=0, atol=1e-15)
        np.testing.assert_array_equal(rej, srej)


def test_the_list_is_statsmodels_list():
    """Every method multipletests documents is offered, and nothing else."""
    multitest = pytest.importorskip("statsmodels.stats.multitest")
    from cwlkit.stats.correct import correction_name

    assert {correction_name(k) for k in multitest.multitest_methods_names} == set(CORRECTIONS[1:])
    assert set(STATSMODELS_NAMES) == set(CORRECTIONS)
    assert {"fdr_bh", "fdr_by"} <= set(CHOICES)


@pytest.mark.parametrize("method", ["bh", "by"])
def test_bh_by_are_scipys(method):
    for p in _families():
        _, adj = correct(p, method)
        np.testing.assert_array_equal(adj, stats.false_discovery_control(p, method=method))


def test_without_statsmodels(monkeypatch):
    """bonferroni, holm, bh and by need only numpy and scipy; the others say what to install."""
    monkeypatch.setitem(sys.modules, "statsmodels.stats.multitest", None)
    p = [0.01, 0.02, 0.3]
    for m in ("bonferroni", "holm", "bh", "by"):
        correct(p, m)
    with pytest.raises(CwlkitError, match="hommel correction needs statsmodels"):
        correct(p, "hommel")


def test_compare_cli_accepts_statsmodels_names(cli):
    pytest.importorskip("statsmodels")
    rc, out, err = cli(
        "compare", QRELS, *RUNS[:3], "-m", "P@10", "--correction", "fdr_by", "-f", "json"
    )
    assert rc == 0, err
    import json

    doc = json.loads(out)
    raw = [c["p_value"] for c in doc["comparisons"]]
    assert [c["p_adjusted"] for c in doc["comparisons"]] == pytest.approx(
        list(stats.false_discovery_control(raw, method="by")), abs=1e-15
    )
    rc, out, _ = cli("compare", QRELS, *RUNS[:3], "-m", "P@10", "--test", "tukey", "--anova")
    assert rc == 0 and "Tukey's HSD" in out and "two-way ANOVA" in out


# ---------------------------------------------------------------------- weighted tau


def test_weighted_tau_is_scipys():
    rng = np.random.default_rng(6)
    for ties in (False, True):
        x, y = rng.random(20), rng.random(20)
        if ties:
            x, y = np.round(x, 1), np.round(y, 1)
        assert weighted_tau(x, y).value == stats.weightedtau(x, y).statistic
        assert weighted_tau(x, y, rank="x").value == stats.weightedtau(x, y, rank=None).statistic
        assert weighted_tau(x, y, rank="y").value == stats.weightedtau(y, x, rank=None).statistic


def test_weighted_tau_err_paper_reading():
    """The ERR paper's weight 1/(s + 1) for the system at rank s is scipy's hyperbolic
    weigher with s counted from 0: the top system weighs 1. Counting from 1 (top weighs
    1/2, i.e. 1/(r + 2) with r from 0) is another coefficient, written out here by hand.

    x = (3, 2, 1), y = (2, 3, 1) (the top two swapped). From 0: weights 1, 1/2, 1/3, pair
    weights 3/2, 4/3, 5/6 -> (-3/2 + 4/3 + 5/6) / (11/3) = 2/11. From 1: weights 1/2, 1/3,
    1/4, pair weights 5/6, 3/4, 7/12 -> (-5/6 + 3/4 + 7/12) / (13/6) = 3/13.
    """
    x, y = [3.0, 2.0, 1.0], [2.0, 3.0, 1.0]
    assert weighted_tau(x, y).value == pytest.approx(2 / 11, abs=1e-15)
    one_based = stats.weightedtau(x, y, weigher=lambda r: 1.0 / (r + 2.0)).statistic
    assert one_based == pytest.approx(3 / 13, abs=1e-15)
    assert abs(one_based - weighted_tau(x, y).value) > 0.04
