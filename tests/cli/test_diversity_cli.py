"""Intent-aware measures (alpha_nDCG@20...) in our own subcommands: ``cwlkit evaluate`` reads
the qrels' second column as the subtopic when one is asked for, as ir_measures does, and so
do compare, report and correlate, which evaluate through the same Evaluator.

References: ir_measures 0.4.3 on the same files (``ir_measures.read_trec_qrels``, its
pyndeval provider), and the pyndeval README's topic worked out by hand (alpha-nDCG@20
0.786896, what ndeval prints).
"""

from __future__ import annotations

import json

import numpy as np
import pytest

ir_measures = pytest.importorskip("ir_measures")
pytest.importorskip("pyndeval")

# topic 1 is pyndeval's README example (A, D, E unjudged, B; subtopics 1..3)
QRELS = "1 1 A 1\n1 2 B 1\n1 2 D 1\n1 3 C 1\n1 3 B 0\n2 1 X 1\n2 2 Y 2\n2 2 X 0\n3 1 P 1\n3 2 Q 1\n"
RUN_A = "1 Q0 A 1 9.3 a\n1 Q0 D 2 8.4 a\n1 Q0 E 3 8.1 a\n1 Q0 B 4 7.6 a\n2 Q0 Y 1 3 a\n"
RUN_A += "2 Q0 X 2 2 a\n3 Q0 Q 1 1 a\n"
RUN_B = "1 Q0 B 1 9 b\n1 Q0 C 2 8 b\n2 Q0 X 1 3 b\n3 Q0 P 1 2 b\n3 Q0 Q 2 1 b\n"
NAMES = ["alpha_nDCG@20", "ERR_IA@20", "NRBP", "P_IA@5", "StRecall@10", "AP_IA"]


@pytest.fixture
def files(tmp_path):
    paths = []
    for name, text in (("div.qrels", QRELS), ("a.run", RUN_A), ("b.run", RUN_B)):
        paths.append(tmp_path / name)
        paths[-1].write_text(text)
    return paths


def _ir_measures(qrels, run, names) -> dict[str, dict[str, float]]:
    q = list(ir_measures.read_trec_qrels(str(qrels)))
    r = list(ir_measures.read_trec_run(str(run)))
    ms = {ir_measures.parse_measure(n): n for n in names}  # one pyndeval invocation
    out: dict[str, dict[str, float]] = {}
    for x in ir_measures.iter_calc(list(ms), q, r):
        out.setdefault(ms[x.measure], {})[x.query_id] = x.value
    return out


def test_evaluate_per_topic_is_ir_measures(cli, files):
    qrels, a, _ = files
    code, out, err = cli("evaluate", qrels, a, "-m", " ".join(NAMES), "--per-topic", "-f", "json")
    assert (code, err) == (0, "")
    rows = json.loads(out)
    ref = _ir_measures(qrels, a, NAMES)
    assert [r["topic"] for r in rows] == ["1", "2", "3"]
    for row in rows:
        for name in NAMES:
            assert row[name] == ref[name][row["topic"]], (name, row["topic"])
    assert round(rows[0]["alpha_nDCG@20"], 6) == 0.786896  # ndeval's (the README topic)


def test_evaluate_mean_and_ordinary_measures(cli, files):
    """The mean over topics, with an ordinary measure next to it (each document's largest
    label: D relevant, B relevant)."""
    qrels, a, b = files
    code, out, err = cli("evaluate", qrels, a, b, "-m", "alpha_nDCG@20", "-m", "P@2", "-f", "tsv")
    assert (code, err) == (0, "")
    lines = [x.split("\t") for x in out.splitlines()]
    assert lines[0] == ["run", "alpha_nDCG@20", "P@2"]
    for line, run in zip(lines[1:], (a, b), strict=True):
        ref = _ir_measures(qrels, run, ["alpha_nDCG@20"])["alpha_nDCG@20"]
        assert float(line[1]) == pytest.approx(np.mean(list(ref.values())), rel=1e-15)
    # P@2 by hand, each document's largest label: a: A, D (1); Y, X (1: X is relevant to
    # subtopic 1); Q alone (1/2). b: B, C (1); X alone (1/2); P, Q (1)
    assert [float(x[2]) for x in lines[1:]] == pytest.approx([2.5 / 3, 2.5 / 3], rel=1e-15)


def test_ordinary_measures_alone_hint_at_subtopics(cli, files):
    qrels, a, _ = files
    code, out, err = cli("evaluate", qrels, a, "-m", "nDCG@10")
    assert code == 2 and out == ""
    assert err.startswith(f"cwlkit: error: {qrels}:5: document 'B' appears twice for topic '1'")
    assert "intent-aware measure (alpha_nDCG@20" in err and err.count("\n") == 1


def test_one_subtopic_warns_on_one_line(cli, tmp_path):
    q, r = tmp_path / "q", tmp_path / "r"
    q.write_text("1 0 a 1\n1 0 b 0\n")
    r.write_text("1 Q0 b 1 2 x\n1 Q0 a 2 1 x\n")
    code, out, err = cli("evaluate", q, r, "-m", "StRecall@1 StRecall@2", "-f", "tsv")
    assert code == 0 and out.splitlines()[1].split("\t")[1:] == ["0.0", "1.0"]
    assert err == (
        f"cwlkit: warning: {q}: every topic has a single subtopic (second column), so "
        "intent-aware measures score one intent per topic; are these diversity qrels (topic "
        "subtopic document judgement)?\n"
    )


def test_compare(cli, files):
    """Means and the paired t-test of ir_measures' per-topic alpha-nDCG@20 (scipy's)."""
    stats = pytest.importorskip("scipy.stats")
    qrels, a, b = files
    code, out, err = cli("compare", qrels, a, b, "-m", "alpha_nDCG@20", "-f", "json")
    assert (code, err) == (0, "")
    got = json.loads(out)
    ref = {p.name: _ir_measures(qrels, p, ["alpha_nDCG@20"])["alpha_nDCG@20"] for p in (a, b)}
    topics = sorted(ref["a.run"])
    x, y = ([ref[r][t] for t in topics] for r in ("a.run", "b.run"))
    assert [m["alpha_nDCG@20"] for m in got["means"]] == pytest.approx(
        [np.mean(x), np.mean(y)], rel=1e-15
    )
    (row,) = got["comparisons"]
    assert row["diff"] == pytest.approx(np.mean(y) - np.mean(x), rel=1e-12)
    assert row["p_value"] == pytest.approx(stats.ttest_rel(y, x).pvalue, rel=1e-12)


def test_report(cli, files, tmp_path):
    qrels, a, b = files
    out_file = tmp_path / "r.md"
    code, out, err = cli("report", qrels, a, b, "-m", "alpha_nDCG@20", "ERR_IA@20", "-o", out_file)
    assert (code, err) == (0, "")
    text = out_file.read_text()
    ref = _ir_measures(qrels, a, ["alpha_nDCG@20"])["alpha_nDCG@20"]
    assert "alpha\\_nDCG@20" in text and f"{np.mean(list(ref.values())):.4f}" in text


def test_correlate(cli, files):
    """alpha-nDCG@20 against P-IA@5 over the (run, topic) pairs: Pearson's r of ir_measures'
    values."""
    qrels, a, b = files
    code, out, err = cli(
        "correlate", qrels, a, b, "-a", "alpha_nDCG@20", "-b", "P_IA@5", "-f", "json"
    )
    assert (code, err) == (0, "")
    got = json.loads(out)
    x, y = [], []
    for run in (a, b):
        ref = _ir_measures(qrels, run, ["alpha_nDCG@20", "P_IA@5"])
        for t in sorted(ref["alpha_nDCG@20"]):
            x.append(ref["alpha_nDCG@20"][t])
            y.append(ref["P_IA@5"][t])
    (pearson,) = [
        c for c in got["correlations"] if (c["level"], c["name"]) == ("scores", "pearson")
    ]
    assert pearson["n"] == 6
    assert pearson["value"] == pytest.approx(float(np.corrcoef(x, y)[0, 1]), rel=1e-12)
