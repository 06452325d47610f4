"""The topics that decide a comparison (stats/decide.py): against scipy's paired t-test
run by hand without each topic, with and without a correction; in the report (HTML, JSON)
and its diff pages (``cwlkit report --diff-pages``)."""

from __future__ import annotations

import json

import numpy as np
import pytest
from conftest import DATA
from scipy import stats

import cwlkit
from cwlkit.stats import compare
from cwlkit.stats.decide import deciding_topics

WEB = DATA / "web2012"
QRELS = WEB / "qrels.web.151-200.txt"
RUNS = [WEB / "runs" / f"web2012.{n}.run.gz" for n in ("ql.cata", "rm.cata", "rm.catb")]


@pytest.fixture(scope="module")
def results():
    return cwlkit.evaluate(QRELS, RUNS, ["RR", "ERR@20"])


def _by_hand(x: np.ndarray, y: np.ndarray, alpha: float = 0.05) -> list[int]:
    full = stats.ttest_rel(x, y).pvalue < alpha
    keep = np.ones(x.size, dtype=bool)
    out = []
    for j in range(x.size):
        keep[:] = True
        keep[j] = False
        if (stats.ttest_rel(x[keep], y[keep]).pvalue < alpha) != full:
            out.append(j)
    return out


def test_equal_to_scipy_by_hand(results):
    names = list(results)
    for run in names[1:]:
        table = compare({names[0]: results[names[0]], run: results[run]})
        got = {r["measure"]: r["topics"] for r in deciding_topics(table)}
        for m in ("RR", "ERR@20"):
            x = np.array([results[run].per_topic(m)[t] for t in table.topics])
            y = np.array([results[names[0]].per_topic(m)[t] for t in table.topics])
            assert got[m] == [table.topics[j] for j in _by_hand(x, y)], (run, m)


def test_a_correction_is_applied_again_without_each_topic(results):
    """With Bonferroni over 4 comparisons, a topic decides when the p-value without it
    crosses alpha / 4."""
    table = compare(results, correction="bonferroni")
    names = list(results)
    for r in deciding_topics(table):
        x = np.array([results[r["run"]].per_topic(r["measure"])[t] for t in table.topics])
        y = np.array([results[names[0]].per_topic(r["measure"])[t] for t in table.topics])
        assert r["topics"] == [table.topics[j] for j in _by_hand(x, y, 0.05 / 4)]


def test_report_lists_and_links_them(cli, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    rc, out, err = cli(
        "report", QRELS, RUNS[0], RUNS[1], "-m", "RR", "--diff-pages", "-o", "r.html", "--quiet"
    )
    assert rc == 0, err
    html = (tmp_path / "r.html").read_text()
    assert "<h2>Topics that decide</h2>" in html
    assert '<a href="r_diff/diff-1.html#topic=190">190</a>' in html
    page = (tmp_path / "r_diff" / "diff-1.html").read_text()
    assert '"runs":["web2012.ql.cata","web2012.rm.cata"]' in page
    rc, out, err = cli("report", QRELS, RUNS[0], RUNS[1], "-m", "RR", "-f", "json", "--quiet")
    assert json.loads(out)["deciding"] == [
        {
            "measure": "RR",
            "run": "web2012.rm.cata",
            "baseline": "web2012.ql.cata",
            "significant": False,
            "topics": ["190"],
        }
    ]
    rc, out, err = cli("report", QRELS, RUNS[0], RUNS[1], "-m", "RR", "--diff-pages")
    assert rc == 2 and "--diff-pages needs -o REPORT.html" in err


def _tukey_by_hand(s: np.ndarray, alpha: float) -> np.ndarray:
    """bool[n, R, R]: whether leaving out topic j moves scipy's Tukey HSD p-value of each
    pair of runs across alpha."""
    full = stats.tukey_hsd(*s).pvalue <= alpha
    n = s.shape[1]
    return np.stack(
        [(stats.tukey_hsd(*np.delete(s, j, axis=1)).pvalue <= alpha) != full for j in range(n)]
    )


@pytest.mark.parametrize(("measures", "alpha"), [(["AP"], 0.05), (["RR", "ERR@20"], 0.1)])
def test_tukey_equals_scipy_by_hand(measures, alpha):
    """The report's Tukey decisions come from one critical value per topic count (scipy's
    integral per pair took over a minute at 8 runs x 50 topics): the same topics decide as
    with scipy's tukey_hsd run without each topic (15 topics decide AP's rm.catb against
    rm.cata at 0.05; one each RR's and ERR@20's at 0.1)."""
    from cwlkit.stats import report_table

    res = cwlkit.evaluate(QRELS, RUNS, measures)
    t = report_table(res, test="tukey", pairwise=True, alpha=alpha)
    assert any(r["topics"] for r in t.deciding)
    for m in measures:
        s = np.stack([[res[x].per_topic(m)[q] for q in t.topics] for x in t.runs])
        flips = _tukey_by_hand(s, alpha)
        for r in (r for r in t.deciding if r["measure"] == m):
            i, k = t.runs.index(r["run"]), t.runs.index(r["baseline"])
            assert r["topics"] == [t.topics[j] for j in np.flatnonzero(flips[:, i, k])], r


def test_tukey_near_its_critical_value_asks_scipy(monkeypatch):
    """A statistic within 1e-4 of the critical value is not decided by the comparison with
    it: that measure's p-values are scipy's. Run 1's scores are shifted so that its q against
    run 0 is the critical value (to 1e-9); the result is then scipy's p-value, on its side."""
    from cwlkit.stats import decide

    rng = np.random.default_rng(3)
    vals = rng.random((3, 2, 12))
    n = vals.shape[2]
    crit = decide._tukey_critical(3, 3 * (n - 1), 0.05)
    for m in range(2):
        mse = vals[:, m].var(axis=1, ddof=1).mean()
        vals[1, m] += vals[0, m].mean() - vals[1, m].mean() + crit * np.sqrt(mse / n)
    a, b = np.array([1, 2]), np.array([0, 0])
    got = decide._tukey_sides(vals, a, b, 0.05)
    for m in range(2):
        want = stats.tukey_hsd(*vals[:, m]).pvalue
        assert got[0, m] == pytest.approx(want[1, 0], abs=1e-12)  # scipy's own, at the edge
        assert got[0, m] == pytest.approx(0.05, abs=1e-6)
        assert (got[1, m] <= 0.05) == (want[2, 0] <= 0.05)
