"""``cwlkit gdeval`` computes through the one API: :func:`gdeval_results` gives a Results equal
to :class:`cwlkit.Evaluator`'s with ``nDCG(dcg='exp-log2')@k`` and ``ERR@k`` on
gdeval's topics (chosen here with plain Python), its mean is the ``amean`` gdeval.pl printed
(data/web2012/expected), and :func:`format_gdeval` prints any such Results as
gdeval.pl does."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from conftest import DATA, read_data

import cwlkit
from cwlkit.errors import CwlkitError
from cwlkit.formats.gdeval import format_gdeval, gdeval_results

WEB = DATA / "web2012"
QRELS = WEB / "qrels.web.151-200.txt"
RUNS = sorted((WEB / "runs").glob("*.run.gz"))
EXPECTED = {
    ("web2012.ql.cata.run.gz", 20): "web2012.ql.cata.gdeval.txt",
    ("web2012.ql.cata.run.gz", 10): "web2012.ql.cata.gdeval.k10.txt",
    ("web2012.rm.catb.run.gz", 20): "web2012.rm.catb.gdeval.txt",
    ("web2012.rm.catb.run.gz", 10): "web2012.rm.catb.gdeval.k10.txt",
}


def _names(k: int) -> list[str]:
    return [f"nDCG(dcg='exp-log2')@{k}", f"ERR@{k}"]


def _positive_topics(path: Path) -> set[str]:
    """Topics with a grade > 0, read with plain Python."""
    out = set()
    for line in path.read_text().splitlines():
        f = line.split()
        if f and float(f[3]) > 0:
            out.add(f[0])
    return out


def _run_topics(path: Path) -> set[str]:
    return {line.split()[0] for line in read_data(path).splitlines() if line.strip()}


@pytest.mark.parametrize("k", [20, 10])
@pytest.mark.parametrize("run", RUNS, ids=lambda p: p.name)
def test_results_equal_the_evaluators(run, k):
    """Value for value (==) the Evaluator's nDCG(dcg='exp-log2')@k and ERR@k,
    scores as doubles (trec_version=10, gdeval.pl's sort), on the run's topics with a grade
    > 0; the third row is NumRet."""
    got = gdeval_results(cwlkit.read_qrels(QRELS), cwlkit.read_run(run), k=k)
    want = cwlkit.evaluate(QRELS, run, _names(k), trec_version=10)
    assert got.measures == [*_names(k), "NumRet"]
    topics = sorted(_positive_topics(QRELS) & _run_topics(run))
    assert got.topics == topics == want.topics and len(topics) == 50
    np.testing.assert_array_equal(got.values[:2], want.values)
    counts: dict[str, float] = {}
    for line in read_data(run).splitlines():
        counts[line.split()[0]] = counts.get(line.split()[0], 0.0) + 1
    assert got.per_topic("NumRet") == {t: counts[t] for t in topics}
    assert got.run == "indri"


@pytest.mark.parametrize("run,k", sorted(EXPECTED))
def test_mean_is_gdevals_amean_and_any_results_print_as_gdeval(run, k):
    """Results.mean() rounded as gdeval.pl prints is its amean line, and format_gdeval of the
    plain Evaluator Results (no NumRet row) is gdeval.pl's whole file."""
    expected = (WEB / "expected" / EXPECTED[run, k]).read_text()
    amean = expected.splitlines()[-1].split(",")
    got = gdeval_results(cwlkit.read_qrels(QRELS), cwlkit.read_run(WEB / "runs" / run), k=k)
    mean = got.mean()
    assert [f"{mean[n]:.5f}" for n in _names(k)] == amean[2:]
    plain = cwlkit.evaluate(QRELS, WEB / "runs" / run, _names(k), trec_version=10)
    assert format_gdeval(plain) == expected


def _subset(tmp_path: Path, drop_run: set[str], drop_positive: set[str]) -> tuple[Path, Path]:
    """web2012's ql.cata run without the topics ``drop_run``, and its qrels with every grade
    of the topics ``drop_positive`` set to 0."""
    run = tmp_path / "run.txt"
    src = read_data(WEB / "runs" / "web2012.ql.cata.run.gz").splitlines(keepends=True)
    run.write_text("".join(x for x in src if x.split()[0] not in drop_run))
    qrels = tmp_path / "qrels.txt"
    lines = []
    for x in QRELS.read_text().splitlines():
        f = x.split()
        if f[0] in drop_positive and float(f[3]) > 0:
            f[3] = "0"
        lines.append(" ".join(f) + "\n")
    qrels.write_text("".join(lines))
    return qrels, run


def test_all_topics_counts_missing_topics_as_zero(tmp_path, cli):
    """-c: every qrels topic with a grade > 0 is a Results topic; those the run lacks score 0
    with NumRet 0, print no line, and count in the mean (Results.mean() is the amean)."""
    qrels, run = _subset(tmp_path, drop_run={"151", "160", "199"}, drop_positive={"152", "160"})
    got = gdeval_results(cwlkit.read_qrels(qrels), cwlkit.read_run(run), all_topics=True)
    counted = _positive_topics(qrels)
    assert set(got.topics) == counted and len(counted) == 48  # 152 and 160 have no grade > 0
    missing = {"151", "199"}
    for t in got.topics:
        vals = [got.per_topic(m)[t] for m in got.measures]
        if t in missing:
            assert vals == [0.0, 0.0, 0.0]
        else:
            assert vals[2] == 1000.0
    want = cwlkit.evaluate(qrels, run, _names(20), trec_version=10)
    for name in _names(20):
        for t, v in want.per_topic(name).items():
            if t in counted:
                assert got.per_topic(name)[t] == v
    rc, out, err = cli("gdeval", "-c", qrels, run)
    assert rc == 0 and err == ""
    lines = out.splitlines()
    assert len(lines) == 1 + 46 + 1 and not {x.split(",")[1] for x in lines} & missing
    sums = [sum(want.per_topic(n)[t] for t in want.topics if t in counted) for n in _names(20)]
    assert lines[-1] == f"indri,amean,{sums[0] / 48:.5f},{sums[1] / 48:.5f}"
    mean = got.mean()
    assert lines[-1] == f"indri,amean,{mean[_names(20)[0]]:.5f},{mean[_names(20)[1]]:.5f}"


def test_risk_sensitive_results(tmp_path):
    """-baseline: each value is run - baseline (0 where the baseline lacks the topic), a loss
    multiplied by 1 + alpha; NumRet stays the run's."""
    qrels, base = _subset(tmp_path, drop_run={"170"}, drop_positive=set())
    run = WEB / "runs" / "web2012.rm.catb.run.gz"
    got = gdeval_results(
        cwlkit.read_qrels(qrels),
        cwlkit.read_run(run),
        k=10,
        baseline=cwlkit.read_run(base),
        risk_alpha=2.0,
    )
    a = cwlkit.evaluate(qrels, run, _names(10), trec_version=10)
    b = cwlkit.evaluate(qrels, base, _names(10), trec_version=10)
    assert got.topics == a.topics
    for name in _names(10):
        for t, x in a.per_topic(name).items():
            y = b.per_topic(name).get(t, 0.0)
            d = x - y
            assert got.per_topic(name)[t] == (3 * d if x < y else d), (name, t)
    assert got.per_topic("NumRet")["170"] == 1000.0
    text = format_gdeval(got, baseline="indri", risk_alpha="2")
    assert text.splitlines()[1].startswith("indri (rel to. indri; rs=1+a; a=2),151,")


def test_format_needs_gdevals_measures():
    res = cwlkit.evaluate(QRELS, RUNS[0], ["P@10", "ERR@20"])
    with pytest.raises(CwlkitError, match=r"expected nDCG\(dcg='exp-log2'\)@k and ERR@k"):
        format_gdeval(res)
    res = cwlkit.evaluate(QRELS, RUNS[0], ["nDCG(dcg='exp-log2')@10", "ERR@20"])
    with pytest.raises(CwlkitError, match="one cutoff; got 10 and 20"):
        format_gdeval(res)
