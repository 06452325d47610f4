"""formats.comparison: every format of one ComparisonTable holds the same numbers (the
records of stats.compare, themselves checked against scipy in tests/cli/test_stats_cli.py)."""

from __future__ import annotations

import csv
import io
import json

import pytest
from conftest import DATA

import cwlkit
from cwlkit.formats.comparison import FORMATS, format_comparison
from cwlkit.stats.comparison import compare

WEB = DATA / "web2012"
RUNS = [WEB / "runs" / f"web2012.{n}.run.gz" for n in ("ql.cata", "rm.cata", "ql.catb")]


@pytest.fixture(scope="module")
def table():
    res = {p.name: cwlkit.evaluate(WEB / "qrels.web.151-200.txt", p, ["AP", "P@10"]) for p in RUNS}
    return compare(res, correction="holm", anova=True)


def test_json_and_csv_hold_the_records(table):
    doc = json.loads(format_comparison(table, "json"))
    assert doc["comparisons"] == json.loads(json.dumps(table.records))
    assert set(doc["anova"]) == {"AP", "P@10"} and doc["topics"] == len(table.topics)
    rows = list(csv.DictReader(io.StringIO(format_comparison(table, "csv"))))
    assert [float(r["p_adjusted"]) for r in rows] == [r["p_adjusted"] for r in table.records]


@pytest.mark.parametrize("fmt", ["text", "markdown", "latex"])
def test_documents_name_the_test_and_show_every_comparison(table, fmt):
    out = format_comparison(table, fmt)
    assert "paired t-test (two-sided); 4 comparisons, holm correction; alpha 0.05; 50 topics" in out
    assert "two-way ANOVA" in out or fmt == "markdown"
    for r in table.records:
        assert f"{r['diff']:+.4f}" in out
    assert set(FORMATS) == {"text", "tsv", "csv", "json", "markdown", "latex"}
