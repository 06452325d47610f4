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


def _latex_tables(text: str) -> list[tuple[str, list[list[str]]]]:
    """(column spec, rows of cells) of each ``tabular``: rows end in ``\\\\``, cells are split
    on ``&`` not escaped as ``\\&``; rules (``\\toprule``...) are left out."""
    import re

    out = []
    for spec, body in re.findall(r"\\begin\{tabular\}\{([^}]*)\}(.*?)\\end\{tabular\}", text, re.S):
        rows = []
        for line in body.split("\\\\"):
            line = re.sub(r"\\(top|mid|bottom)rule", "", line).strip()
            if line:
                rows.append([c.strip() for c in re.split(r"(?<!\\)&", line)])
        out.append((spec, rows))
    return out


@pytest.mark.parametrize("correction", ["none", "holm"])
def test_latex_every_column_has_a_header(table, correction):
    """The comparisons' last column (the '*' of a significant comparison) had an empty header
    cell: 'p & p (holm) &  \\\\'."""
    res = {p.name: cwlkit.evaluate(WEB / "qrels.web.151-200.txt", p, ["AP"]) for p in RUNS}
    tab = compare(res, correction=correction, anova=True)
    tables = _latex_tables(format_comparison(tab, "latex"))
    assert len(tables) == 3  # means, comparisons, ANOVA
    for spec, (head, *body) in tables:
        assert all(head), f"an empty header cell: {head}"
        assert len(spec) == len(head)
        assert body and all(len(row) == len(head) for row in body)
    head = tables[1][1][0]
    assert head[-1] == "sig." and [row[-1] for row in tables[1][1][1:]] == [
        "*" if r["significant"] else "" for r in tab.records
    ]
