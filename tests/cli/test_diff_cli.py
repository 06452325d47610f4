"""``cwlkit diff``: the page written, its one stderr line, and one-line errors."""

from __future__ import annotations

import json
import re

# topic 2 is judged to depth 2 in both runs: P@2 0.5 against 0, decided
QRELS = "1 0 a 2\n1 0 b 1\n2 0 d 1\n2 0 e 0\n2 0 f 0\n2 0 g 0\n"
RUN_A = "1 Q0 a 1 3 A\n1 Q0 x 2 2 A\n2 Q0 d 1 2 A\n2 Q0 f 2 1 A\n"
RUN_B = "1 Q0 b 1 3 B\n1 Q0 a 2 2 B\n2 Q0 e 1 2 B\n2 Q0 g 2 1 B\n"


def _files(tmp_path):
    for name, text in (("q", QRELS), ("a.run", RUN_A), ("b.run", RUN_B)):
        (tmp_path / name).write_text(text)
    return [str(tmp_path / n) for n in ("q", "a.run", "b.run")]


def test_writes_the_page(cli, tmp_path):
    q, a, b = _files(tmp_path)
    queries = tmp_path / "topics.tsv"
    queries.write_text("1\tfirst query\n2\tsecond\n")
    out = tmp_path / "d.html"
    rc, stdout, err = cli("diff", q, a, b, "-m", "P@2", "--queries", queries, "-o", out)
    assert (rc, stdout) == (0, "")
    assert err == f"{out}: 2 topics, 1 decided by the judgements\n"
    html = out.read_text()
    data = json.loads(
        re.search(r'<script id="data" type="application/json">(.*?)</script>', html, re.S).group(1)
    )
    assert data["runs"] == ["a.run", "b.run"] and data["measure"] == "P@2"
    assert data["queries"] == ["first query", "second"]
    assert data["values"] == [[0.5, 0.5], [1.0, 0.0]]
    assert "http://" not in html and "https://" not in html  # nothing fetched


def test_errors_are_one_line(cli, tmp_path):
    q, a, b = _files(tmp_path)
    for args, match in (
        (["--depth", "0"], "depth must be an integer from 1 to 10000; got 0"),
        (["-m", "nope"], "unknown measure 'nope'"),
        (["--docs", str(tmp_path / "none.tsv")], "no such file"),
    ):
        rc, stdout, err = cli("diff", q, a, b, *args, "-o", tmp_path / "x.html")
        assert (rc, stdout) == (2, ""), err
        assert err.count("\n") == 1 and match in err, err
    rc, _, err = cli("diff", q, a, b)
    assert rc == 2 and "-o/--output" in err
