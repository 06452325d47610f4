"""``cwlkit report``: formats (from -o's suffix or --format), options, and errors; the numbers
equal the API's (tested against scipy/statsmodels in tests/stats/test_stats_report.py)."""

from __future__ import annotations

import csv
import io
import json

import numpy as np
import pytest
from conftest import DATA
from scipy import stats

import cwlkit

WEB = DATA / "web2012"
QRELS = str(WEB / "qrels.web.151-200.txt")
NAMES = ["web2012.ql.cata", "web2012.rm.cata", "web2012.ql.catb"]  # the report's run names
RUNS = [str(WEB / "runs" / f"{n}.run.gz") for n in NAMES]


def test_markdown_by_default(cli):
    rc, out, err = cli("report", QRELS, *RUNS, "-m", "P@10", "AP")
    assert rc == 0 and err == ""
    assert out.startswith("| Run | P@10 | Δ% | W/T/L | AP |")
    assert out.count("web2012.") >= 3 and "(a) web2012.ql.cata |" in out
    assert "reference" not in out  # no baseline named
    assert "Letters: the run is significantly better" in out


def test_json_numbers_equal_scipy(cli):
    rc, out, _ = cli(
        "report",
        QRELS,
        *RUNS,
        "-m",
        "P@10",
        "-m",
        "AP",
        "--baseline",
        NAMES[0],
        "--format",
        "json",
    )
    assert rc == 0
    doc = json.loads(out)
    assert doc["baseline"] == NAMES[0] and doc["pairwise"] is False and len(doc["rows"]) == 6
    res = {n: cwlkit.evaluate(QRELS, r, ["P@10", "AP"]) for n, r in zip(NAMES, RUNS, strict=True)}
    for row in doc["rows"]:
        if row["run"] == NAMES[0]:
            assert row["p_value"] is None and row["significant"] is None  # NaN: null
            continue
        a = np.array(list(res[row["run"]].per_topic(row["measure"]).values()))
        b = np.array(list(res[NAMES[0]].per_topic(row["measure"]).values()))
        assert row["p_value"] == pytest.approx(stats.ttest_rel(a, b).pvalue, abs=1e-12)
        assert row["mean"] == pytest.approx(a.mean(), abs=1e-15)
        assert row["wins"] == int((a - b > 1e-12).sum())


def test_output_file_format_from_suffix(cli, tmp_path):
    for suffix, check in (
        (".html", lambda s: s.startswith("<!DOCTYPE html>") and "<svg" in s),
        (".tex", lambda s: "\\begin{tabular}" in s and "\\caption{" in s),
        (".md", lambda s: s.startswith("| Run |")),
        (".csv", lambda s: len(list(csv.DictReader(io.StringIO(s)))) == 3),
        (".json", lambda s: json.loads(s)["measures"] == ["P@10"]),
    ):
        path = tmp_path / f"report{suffix}"
        rc, out, err = cli("report", QRELS, *RUNS, "-m", "P@10", "-o", path)
        assert rc == 0 and out == "" and err == "", err
        assert check(path.read_text()), suffix


def test_options(cli, tmp_path):
    path = tmp_path / "r.html"
    rc, _, err = cli(
        "report",
        QRELS,
        *RUNS,
        "-m",
        "P@10 RBP(p=0.8)",
        "--baseline",
        RUNS[0],
        "--test",
        "tukey",
        "--anova",
        "--title",
        "Web <2012>",
        "--no-plots",
        "-o",
        path,
    )  # --baseline may be the path given
    assert rc == 0, err
    html = path.read_text()
    assert "<svg" not in html and "Web &lt;2012&gt;" in html and "Tukey" in html
    assert "Two-way ANOVA" in html
    rc, out, _ = cli(
        "report",
        QRELS,
        *RUNS,
        "-m",
        "P@10",
        "--test",
        "randomization",
        "--samples",
        "500",
        "--seed",
        "3",
        "--correction",
        "fdr_by",
        "--alpha",
        "0.1",
        "--format",
        "latex",
    )
    assert rc == 0 and "500 samples, seed 3" in out and "Benjamini-Yekutieli" in out
    assert "$\\alpha = 0.1$" in out


@pytest.mark.parametrize(
    "args,msg",
    [
        (["report", QRELS, RUNS[0], "-m", "P@10"], "at least two runs"),
        (["report", QRELS, *RUNS[:2], "-m", "P@10", "--baseline", "x.run"], "is not one of"),
        (["report", QRELS, *RUNS[:2], "-m", "P@10", "-o", "r.docx"], "cannot tell the report"),
        (
            ["report", QRELS, *RUNS[:2], "-m", "P@10", "--test", "tukey", "--correction", "holm"],
            "already adjusted",
        ),
        (["report", QRELS, *RUNS[:2], "-m", "P@10", "--correction", "holmes"], "invalid choice"),
        (["report", QRELS, *RUNS[:2], "-m", "Nope"], "unknown measure"),
    ],
)
def test_errors(cli, args, msg):
    rc, out, err = cli(*args)
    assert rc == 2 and out == ""
    assert err.startswith("cwlkit: error: ") and msg in err


def test_listed_in_help(cli, capsys):
    from cwlkit.cli.main import main

    rc, out, _ = cli("--help")
    assert "report" in out
    with pytest.raises(SystemExit):
        main(["report", "--help"])
    out = capsys.readouterr().out
    assert "booktabs" in out and "--baseline" in out
