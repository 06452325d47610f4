"""The report's numbers: a hand-checked small case (marks, letters, W/T/L, relative change,
effect size), and on the TREC Web 2012 runs every test's p-values against scipy /
statsmodels on the same per-topic numbers (the Monte-Carlo tests against a direct
recomputation from the same random draws), to 1e-12."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import DATA
from scipy import stats

import cwlkit
from cwlkit.errors import ParamError
from cwlkit.results import Results
from cwlkit.stats import report_table
from cwlkit.stats.report import MARK_BETTER, MARK_WORSE, letters

WEB = DATA / "web2012"
QRELS = str(WEB / "qrels.web.151-200.txt")
RUNS = sorted(str(p) for p in (WEB / "runs").glob("*.run.gz"))
MEASURES = ["P@10", "AP", "RBP(p=0.8)"]

# ------------------------------------------------------------------ hand-checked case
#
# Three runs on six topics, one measure:
#   base  = 0.2 0.4 0.1 0.5 0.3 0.3   mean 0.3
#   good  = 0.5 0.6 0.4 0.7 0.6 0.3   mean 0.516667; d = .3 .2 .3 .2 .3 0: 5 wins, 1 tie
#   mixed = 0.3 0.3 0.1 0.6 0.2 0.3   mean 0.3;      d = .1 -.1 0 .1 -.1 0: 2/2/2
# good - base: mean .216667, sd .116905 (sum of squared deviations .068333 / 5), so
#   d_z = 1.8533, t = d_z sqrt(6) = 4.5397 on 5 df, p = 0.0062;
# good - mixed: d = .2 .3 .3 .1 .4 0, mean .216667, sd .147196, t = 3.6056, p = 0.0155;
# mixed - base: mean 0, t = 0, p = 1.
# So at alpha 0.05: good is better than base (▲; letters: good beats a and c), nothing
# else is significant. Bonferroni over the three pairs at alpha 0.04: 3 x 0.0155 = 0.0465
# > 0.04 loses good's win over mixed; 3 x 0.0062 = 0.0186 keeps the one over base.

BASE = [0.2, 0.4, 0.1, 0.5, 0.3, 0.3]
GOOD = [0.5, 0.6, 0.4, 0.7, 0.6, 0.3]
MIXED = [0.3, 0.3, 0.1, 0.6, 0.2, 0.3]
TOPICS = [f"t{i}" for i in range(1, 7)]


def _res(vals, name):
    return Results(np.array([vals]), ["P@10"], TOPICS, run=name)


@pytest.fixture
def small():
    return {"base": _res(BASE, "base"), "good": _res(GOOD, "good"), "mixed": _res(MIXED, "mixed")}


def test_hand_case_against_baseline(small):
    t = report_table(small, baseline="base", test="t")
    assert not t.pairwise and t.baseline == "base"
    assert t.mean[:, 0] == pytest.approx([0.3, 3.1 / 6, 0.3])
    assert t.delta[1, 0] == pytest.approx(1.3 / 6)
    assert t.relative[1, 0] == pytest.approx((1.3 / 6) / 0.3)  # +72.2%
    assert t.relative[2, 0] == pytest.approx(0.0, abs=1e-12)
    assert np.isnan(t.relative[0, 0]) and np.isnan(t.effect[0, 0])
    assert (t.wins[:, 0].tolist(), t.ties[:, 0].tolist(), t.losses[:, 0].tolist()) == (
        [0, 5, 2],
        [6, 1, 2],
        [0, 0, 2],
    )
    assert t.effect[1, 0] == pytest.approx(1.8533, abs=1e-4)
    assert t.p_value[1, 0] == pytest.approx(0.0062, abs=1e-4)
    assert t.p_value[2, 0] == pytest.approx(1.0)
    assert [t.marks(i, 0) for i in range(3)] == ["", MARK_BETTER, ""]
    assert t.best(0) == [1]
    # swap the roles: the baseline is the good run, the others are significantly worse
    t = report_table(small, baseline="good", test="t")
    assert [t.marks(i, 0) for i in range(3)] == [MARK_WORSE, "", MARK_WORSE]


def test_hand_case_pairwise_letters(small):
    t = report_table(small, test="t")  # no baseline: letters over all pairs
    assert t.pairwise and t.letters == ["a", "b", "c"] and t.baseline == "base"
    assert t.pair_p_value[0, 1, 2] == pytest.approx(0.0155, abs=1e-4)
    assert [t.marks(i, 0) for i in range(3)] == ["", "ac", ""]
    t = report_table(small, test="t", correction="bonferroni", alpha=0.04)
    assert t.pair_p_adjusted[0, 1, 2] == pytest.approx(3 * t.pair_p_value[0, 1, 2])
    assert [t.marks(i, 0) for i in range(3)] == ["", "a", ""]
    # with a baseline and pairwise=True: letters, and Δ/W/T/L against the named baseline
    t = report_table(small, baseline="mixed", pairwise=True, test="t")
    assert t.pairwise and t.baseline == "mixed" and t.marks(1, 0) == "ac"
    assert t.wins[1, 0] == 5 and t.losses[1, 0] == 0  # good vs mixed: d = .2 .3 .3 .1 .4 0


def test_mean_interval_is_scipys(small):
    t = report_table(small, baseline="base", alpha=0.1)
    for i, vals in enumerate([BASE, GOOD, MIXED]):
        ci = stats.ttest_1samp(vals, 0.0).confidence_interval(confidence_level=0.9)
        assert t.ci_low[i, 0] == pytest.approx(ci.low, abs=1e-12)
        assert t.ci_high[i, 0] == pytest.approx(ci.high, abs=1e-12)


def test_records_and_dict(small):
    t = report_table(small, baseline="base")
    recs = t.to_records()
    assert len(recs) == 3 and recs[1]["marks"] == MARK_BETTER and recs[1]["best"]
    assert recs[0]["significant"] is None and recs[1]["significant"] is True
    doc = t.to_dict()
    assert doc["baseline"] == "base" and doc["letters"] == {"base": "a", "good": "b", "mixed": "c"}
    assert "paired t-test" in doc["description"] and "alpha = 0.05" in doc["description"]


def test_letters_beyond_the_alphabet():
    got = letters(60)
    assert got[:3] == ["a", "b", "c"] and got[26] == "A" and got[52] == "a1"
    assert len(set(got)) == 60


def test_errors(small):
    with pytest.raises(
        ParamError, match=r"^baseline must be one of 'base', 'good', 'mixed'; got 'nope'$"
    ):
        report_table(small, baseline="nope")
    with pytest.raises(ParamError, match="at least 2 runs"):
        report_table({"base": small["base"]})


# ------------------------------------------------------------------------ Web 2012


@pytest.fixture(scope="module")
def web():
    """Each run evaluated on its own through the API (an independent path from report())."""
    return {
        name: cwlkit.evaluate(QRELS, path, MEASURES)
        for name, path in zip([p.rsplit("/", 1)[1] for p in RUNS], RUNS, strict=True)
    }


def _vec(res, m):
    return np.array(list(res.per_topic(m).values()))


def _pairs(t):
    """(i, j, p_value, p_adjusted) of every test made, in the order of the records."""
    ri = {r: i for i, r in enumerate(t.runs)}
    mi = {m: j for j, m in enumerate(t.measures)}
    return [(ri[r["run"]], ri[r["baseline"]], mi[r["measure"]], r) for r in t.comparisons]


@pytest.mark.parametrize("test", ["t", "wilcoxon", "sign"])
def test_closed_form_p_values_equal_scipy(web, test):
    names = list(web)
    t = report_table(web, baseline=names[1], test=test, correction="holm")
    assert t.topics == web[names[0]].topics and len(t.topics) == 50
    raw = []
    for i, b, j, rec in _pairs(t):
        x = _vec(web[names[i]], MEASURES[j])
        y = _vec(web[names[b]], MEASURES[j])
        if test == "t":
            ref = stats.ttest_rel(x, y).pvalue
        elif test == "wilcoxon":
            ref = stats.wilcoxon(x, y).pvalue if (x != y).any() else 1.0
        else:
            k, m = int((x > y).sum()), int((x != y).sum())
            ref = stats.binomtest(k, m).pvalue if m else 1.0
        assert rec["p_value"] == pytest.approx(ref, abs=1e-12)
        assert t.p_value[i, j] == rec["p_value"]
        raw.append(ref)
    multitest = pytest.importorskip("statsmodels.stats.multitest")
    rej, adj, _, _ = multitest.multipletests(raw, alpha=0.05, method="holm")
    got = [t.p_adjusted[i, j] for i, _, j, _ in _pairs(t)]
    np.testing.assert_allclose(got, adj, rtol=0, atol=1e-12)
    assert [bool(t.significant[i, j]) for i, _, j, _ in _pairs(t)] == list(rej)


def _diffs(web, t):
    names = t.runs
    return np.stack(
        [
            _vec(web[names[i]], MEASURES[j]) - _vec(web[names[b]], MEASURES[j])
            for i, b, j, _ in _pairs(t)
        ]
    )


def test_randomization_p_values_equal_a_direct_recomputation(web):
    """Same seed, same draws (one [samples, n] matrix of fair signs shared by every
    comparison): p = (1 + #{|mean(s d)| >= |mean(d)|}) / (samples + 1)."""
    B = 2000
    t = report_table(web, test="randomization", samples=B, seed=11, correction="bh")
    d = _diffs(web, t)
    n = d.shape[1]
    signs = np.where(np.random.default_rng(11).random((B, n)) < 0.5, 1.0, -1.0)
    sm = d @ signs.T / n
    obs = np.abs(d.mean(axis=1))[:, None]
    p = ((np.abs(sm) >= obs - 1e-10 * np.abs(d).mean(axis=1)[:, None]).sum(axis=1) + 1) / (B + 1)
    p[(d == 0).all(axis=1)] = 1.0
    got = np.array([rec["p_value"] for *_, rec in _pairs(t)])
    np.testing.assert_allclose(got, p, rtol=0, atol=1e-12)
    np.testing.assert_allclose(
        [rec["p_adjusted"] for *_, rec in _pairs(t)],
        stats.false_discovery_control(p, method="bh"),
        rtol=0,
        atol=1e-12,
    )


def test_bootstrap_p_values_equal_a_direct_recomputation(web):
    B = 1500
    names = list(web)
    t = report_table(web, baseline=names[0], test="bootstrap", samples=B, seed=5)
    d = _diffs(web, t)
    n = d.shape[1]
    w = np.random.default_rng(5).multinomial(n, np.full(n, 1.0 / n), size=B).astype(float)
    bm = d @ w.T / n
    mean = d.mean(axis=1)[:, None]
    tol = 1e-10 * np.abs(d).mean(axis=1)[:, None]
    p = ((np.abs(bm - mean) >= np.abs(mean) - tol).sum(axis=1) + 1) / (B + 1)
    got = np.array([rec["p_value"] for *_, rec in _pairs(t)])
    np.testing.assert_allclose(got, p, rtol=0, atol=1e-12)


def test_tukey_equals_scipy_and_letters_follow(web):
    t = report_table(web, test="tukey")
    assert t.pairwise and t.test == "tukey"
    for j, m in enumerate(MEASURES):
        s = np.stack([_vec(web[r], m) for r in t.runs])
        ref = stats.tukey_hsd(*s)
        off = ~np.eye(len(t.runs), dtype=bool)
        np.testing.assert_allclose(t.pair_p_value[j][off], ref.pvalue[off], rtol=0, atol=1e-12)
        for i in range(len(t.runs)):
            want = "".join(
                t.letters[k]
                for k in range(len(t.runs))
                if k != i and ref.pvalue[i, k] <= 0.05 and s[i].mean() > s[k].mean()
            )
            assert t.marks(i, j) == want


def test_win_tie_loss_effect_and_means(web):
    names = list(web)
    t = report_table(web, baseline=names[3])
    for i, r in enumerate(names):
        for j, m in enumerate(MEASURES):
            x, y = _vec(web[r], m), _vec(web[names[3]], m)
            assert t.mean[i, j] == pytest.approx(x.mean(), abs=1e-15)
            if i == 3:
                continue
            d = x - y
            assert t.wins[i, j] == (d > 1e-12).sum() and t.losses[i, j] == (d < -1e-12).sum()
            assert t.wins[i, j] + t.ties[i, j] + t.losses[i, j] == 50
            assert t.effect[i, j] == pytest.approx(d.mean() / d.std(ddof=1), rel=1e-12)
            assert t.relative[i, j] == pytest.approx(d.mean() / y.mean(), rel=1e-12)


def test_expected_depth_is_the_cwl_column(web):
    t = report_table(web, baseline=list(web)[0])
    j = t.measures.index("RBP(p=0.8)")
    for i, r in enumerate(t.runs):
        assert t.expected_depth[i, j] == pytest.approx(
            np.mean(list(web[r].per_topic("RBP(p=0.8)", "ED").values())), rel=1e-12
        )
    assert np.isnan(t.expected_depth[:, t.measures.index("AP")]).all()
    assert t.has_cwl
