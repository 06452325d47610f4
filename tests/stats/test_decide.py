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
