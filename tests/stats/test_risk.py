"""Risk-sensitive measures (stats/risk.py) by hand: URisk and TRisk (Dinçer et al., SIGIR
2014), ZRisk and GeoRisk (Dinçer et al., SIGIR 2016), computed here with fractions and
math.erf, independently of the module's numpy and scipy."""

from __future__ import annotations

import math
from fractions import Fraction as F

import numpy as np
import pytest

from cwlkit.errors import ParamError
from cwlkit.stats.risk import georisk, risk_deltas, risk_table, trisk, urisk, zrisk

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


def _gdeval(cli, *args):
    rc, out, err = cli("gdeval", "-k", "20", *args)
    assert rc == 0, err
    rows = [line.rsplit(",", 3) for line in out.splitlines()[1:]]
    return {r[1]: (float(r[2]), float(r[3])) for r in rows}


@pytest.mark.parametrize("alpha", [0, 1, 5])
def test_urisk_is_gdevals_risk_mode(cli, alpha):
    """gdeval.pl's -baseline/-riskAlpha (``cwlkit gdeval``, byte for byte gdeval.pl's): each
    topic's value is the risk-adjusted difference d_j, and the amean line is URisk, for
    nDCG@20 and ERR@20 (printed to 5 decimals)."""
    from conftest import DATA

    web = DATA / "web2012"
    q = web / "qrels.web.151-200.txt"
    a, b = web / "runs" / "web2012.rm.cata.run.gz", web / "runs" / "web2012.ql.cata.run.gz"
    run, base = _gdeval(cli, q, a), _gdeval(cli, q, b)
    risky = _gdeval(cli, "-baseline", b, "-riskAlpha", str(alpha), q, a)
    topics = [t for t in run if t != "amean"]
    for col in (0, 1):
        x = np.array([run[t][col] for t in topics])
        y = np.array([base[t][col] for t in topics])
        d = risk_deltas(x, y, alpha)
        got = np.array([risky[t][col] for t in topics])
        # each printed value is within 0.5e-5; a difference of two, losses times 1 + alpha
        tol = (1 + alpha) * 1e-5 + 0.5e-5 + 1e-12
        np.testing.assert_allclose(d, got, atol=tol)
        assert urisk(x, y, alpha) == pytest.approx(risky["amean"][col], abs=tol)


def test_risk_api_by_hand():
    import cwlkit

    q = {"1": {"a": 1}, "2": {"b": 1}, "3": {"c": 1}}
    runs = {
        "base": {"1": {"a": 1.0}, "2": {"x": 1.0}, "3": {"c": 1.0}},
        "new": {"1": {"x": 1.0}, "2": {"b": 1.0}, "3": {"c": 1.0}},
    }
    t = cwlkit.risk(q, runs, "P@1", alpha=2)
    # new against base: topic 1 loses 1 (x 3), topic 2 wins 1, topic 3 ties: (-3 + 1) / 3
    assert t.rows()[1]["URisk"] == pytest.approx(-2 / 3)
    assert (t.rows()[1]["wins"], t.rows()[1]["losses"]) == (1, 1)
    assert t.baseline == "base" and t.topics == ["1", "2", "3"]
    # already evaluated runs give the same table
    res = {k: cwlkit.evaluate(q, v, ["P@1"]) for k, v in runs.items()}
    again = cwlkit.risk(None, res, "P@1", alpha=2)
    np.testing.assert_array_equal(again.urisk, t.urisk)
    with pytest.raises(ParamError, match=r"baseline 'zz' is not one of the runs"):
        cwlkit.risk(q, runs, "P@1", baseline="zz")
    with pytest.raises(ParamError, match=r"one measure; got 2"):
        cwlkit.risk(q, runs, ["P@1", "AP"])
    with pytest.raises(ParamError, match=r"at least 2 runs"):
        cwlkit.risk(q, {"base": runs["base"]}, "P@1")


def test_compare_with_risk(cli):
    """compare(..., risk=alpha) holds each measure's RiskTable on the compared topics, the
    same numbers as cwlkit.risk; the command prints them (text, JSON)."""

    import cwlkit
    from cwlkit.stats import compare

    q = {"1": {"a": 1}, "2": {"b": 1}, "3": {"c": 1}}
    runs = {
        "base": {"1": {"a": 1.0}, "2": {"x": 1.0}, "3": {"c": 1.0}},
        "new": {"1": {"x": 1.0}, "2": {"b": 1.0}, "3": {"c": 1.0}},
    }
    res = {k: cwlkit.evaluate(q, v, ["P@1", "RR"]) for k, v in runs.items()}
    table = compare(res, risk=2)
    for m in ("P@1", "RR"):
        want = cwlkit.risk(q, runs, m, alpha=2)
        np.testing.assert_array_equal(table.risk[m].urisk, want.urisk)
        np.testing.assert_array_equal(table.risk[m].georisk, want.georisk)
    assert compare(res).risk == {}
    with pytest.raises(ParamError, match=r"^risk must be a number >= 0 or None; got -1$"):
        compare(res, risk=-1)


def test_compare_command_prints_risk(cli):
    import json

    from conftest import DATA

    web = DATA / "web2012"
    q = web / "qrels.web.151-200.txt"
    a, b = web / "runs" / "web2012.ql.cata.run.gz", web / "runs" / "web2012.rm.cata.run.gz"
    rc, out, err = cli("compare", q, a, b, "-m", "nDCG@20", "--risk", "1", "-f", "json")
    assert rc == 0, err
    doc = json.loads(out)
    assert doc["risk_alpha"] == 1.0
    rows = {r["run"]: r for r in doc["risk"]["nDCG@20"]}
    assert set(rows) == {"web2012.ql.cata.run.gz", "web2012.rm.cata.run.gz"}
    assert rows["web2012.ql.cata.run.gz"]["URisk"] == 0.0
    rc, out, _ = cli("compare", q, a, b, "-m", "nDCG@20", "--risk", "1")
    assert "# risk (alpha 1: losses weigh 2)" in out and "GeoRisk" in out


def test_report_with_risk(tmp_path):
    """cwlkit.report(..., risk=alpha): the same table as cwlkit.risk, in JSON, text,
    Markdown and HTML."""
    import json

    import cwlkit

    q = {"1": {"a": 1}, "2": {"b": 1}, "3": {"c": 1}}
    runs = {
        "base": {"1": {"a": 1.0}, "2": {"x": 1.0}, "3": {"c": 1.0}},
        "new": {"1": {"x": 1.0}, "2": {"b": 1.0}, "3": {"c": 1.0}},
    }
    rep = cwlkit.report(q, runs, ["P@1"], baseline="base", risk=2, curves=False)
    want = cwlkit.risk(q, runs, "P@1", alpha=2).rows()
    want = [{k: None if v != v else v for k, v in r.items()} for r in want]  # (NaN: null)
    assert json.loads(rep.to_json())["risk"]["P@1"] == want
    text = rep.to_text()
    assert "# Risk (alpha 2: a loss weighs 3 times a win)" in text
    row = next(
        line.split() for line in text.splitlines() if line.startswith("P@1") and "new" in line
    )
    assert row[:4] == ["P@1", "new", "0.6667", "-0.6667"]
    assert "| P@1 | new | 0.6667 | -0.6667 |" in rep.to_markdown()
    assert "<h2>Risk</h2>" in rep.to_html(plots=False)
    assert "risk" not in json.loads(cwlkit.report(q, runs, ["P@1"], curves=False).to_json())
