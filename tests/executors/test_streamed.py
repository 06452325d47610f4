"""Streamed evaluation (issue #10): ``Evaluator(..., chunk_topics=N).evaluate(path)`` streams
plain-text files through topic buckets and gives the Results of the whole-file path (which the
golden and peer tests check): the same topics in the same order, the same values (C/W/L ones to
their last bits), the same errors."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import DATA, EXAMPLE, plain_runs

import cwlkit
import cwlkit.executors.choose as choose
import cwlkit.executors.streamed as streamed
from cwlkit.errors import FormatError
from cwlkit.io.trec import read_qrels

pytestmark = pytest.mark.slow  # (the fast tier: pytest -m 'not slow')

WEB = DATA / "web2012"
TE = DATA / "trec_eval_test" / "9.0.8"
MEASURES = ["P@5", "AP", "nDCG@10", "RR", "R-Prec", "NumRet", "GMAP", "ERR@10"]
CWL = ["RBP(p=0.8)", "INST(T=2)", "AP_cwl", "SDCG@10"]

_QL, _RM = plain_runs(  # (plain files: streamed as such)
    [WEB / "runs" / "web2012.ql.cata.run.gz", WEB / "runs" / "web2012.rm.catb-filtered.run.gz"]
)
INPUTS = {
    "web2012-ql": (WEB / "qrels.web.151-200.txt", _QL),
    "web2012-rm": (WEB / "qrels.web.151-200.txt", _RM),
    "trec_eval-suite": (TE / "qrels.test", TE / "results.test"),
    "example": (EXAMPLE / "example.qrels", EXAMPLE / "example.run"),
}


def assert_same(got: cwlkit.Results, want: cwlkit.Results, cwl_rows: list[int]) -> None:
    """Same topics, measures, run and aggregates; values and columns equal, exactly except the
    rows of C/W/L metrics (``cwl_rows``) and the C/W/L columns, equal to 1e-12 relative."""
    assert got.topics == want.topics
    assert got.measures == want.measures and got.run == want.run
    assert got.aggregates == want.aggregates and list(got.columns) == list(want.columns)
    exact = [i for i in range(len(want.measures)) if i not in cwl_rows]
    assert np.array_equal(got.values[exact], want.values[exact], equal_nan=True)
    # the means too, to the bit (the same values in the same memory order)
    means, want_means = got.mean(), want.mean()
    assert [means[want.measures[i]] for i in exact] == [want_means[want.measures[i]] for i in exact]
    np.testing.assert_allclose(got.values, want.values, rtol=1e-12, atol=1e-14)
    for c in want.columns:
        np.testing.assert_allclose(got.columns[c], want.columns[c], rtol=1e-12, atol=1e-14)


@pytest.mark.parametrize("name", list(INPUTS))
@pytest.mark.parametrize("topics", ["both", "qrels", "run", "either"])
@pytest.mark.parametrize("order", ["score", "file"])
def test_streamed_results_are_the_whole_files(calls, name, topics, order):
    q, r = INPUTS[name]
    opts = {"topics": topics, "order": order, "residuals": True, "gain": "linear"}
    ms = MEASURES + CWL
    want = cwlkit.Evaluator(q, ms, **opts).evaluate(r)
    for size in (1, 7, 1000):
        got = cwlkit.Evaluator(q, ms, chunk_topics=size, **opts).evaluate(r)
        assert_same(got, want, list(range(len(MEASURES), len(ms))))
    assert calls[0] == 3


@pytest.mark.parametrize(
    "opts",
    [
        {"costs": EXAMPLE / "example.costs", "order": "file"},
        {"order": "rank"},
        {"ties": "average"},
        {"judged_only": True, "depth": 5},
        {"depth": 3, "trec_version": 10},
        {"compat_depth": 10, "order": "file"},
    ],
    ids=["costs", "rank", "ties", "judged-only", "depth", "cwl_eval-depth"],
)
def test_streamed_options(calls, opts):
    q, r = INPUTS["web2012-ql"]
    if "costs" in opts:
        q, r = INPUTS["example"]
    ms = ["P@5", "AP", "RBP(p=0.8)", "INST(T=2)"]
    opts = {"gain": "linear", "residuals": True, **opts}
    want = cwlkit.Evaluator(q, ms, **opts).evaluate(r)
    got = cwlkit.Evaluator(q, ms, chunk_topics=4, **opts).evaluate(r)
    assert calls[0] == 1
    assert_same(got, want, [2, 3])


def test_qrels_in_memory_and_run_streamed(calls):
    q, r = INPUTS["web2012-rm"]
    ms = MEASURES + CWL
    for topics in ("both", "qrels"):
        opts = {"topics": topics, "gain": "exp"}
        want = cwlkit.Evaluator(q, ms, **opts).evaluate(r)
        got = cwlkit.Evaluator(read_qrels(q), ms, chunk_topics=6, **opts).evaluate(r)
        assert_same(got, want, list(range(len(MEASURES), len(ms))))
    assert calls[0] == 2


def test_unsorted_run_in_file_order(calls, tmp_path):
    """Topics interleaved in the run: a topic seen again goes back to its bucket, and the
    order of first appearance is kept."""
    q, r = INPUTS["web2012-ql"]
    lines = r.read_text().splitlines(keepends=True)
    rng = np.random.default_rng(5)
    rng.shuffle(lines)
    shuffled = tmp_path / "shuffled.run"
    shuffled.write_text("".join(lines))
    ms = ["P@10", "AP", "RBP(p=0.8)"]
    want = cwlkit.Evaluator(q, ms, order="file").evaluate(shuffled)
    got = cwlkit.Evaluator(q, ms, order="file", chunk_topics=3).evaluate(shuffled)
    first = list(dict.fromkeys(ln.split()[0] for ln in lines))  # by hand
    assert got.topics == [t for t in first if t in want.topics] == want.topics
    assert_same(got, want, [2])
    assert calls[0] == 1


def test_auto_streams_large_files_only(calls, monkeypatch):
    q, r = INPUTS["web2012-ql"]
    ms = ["AP", "INST(T=2)"]
    want = cwlkit.Evaluator(q, ms, gain="linear").evaluate(r)
    got = cwlkit.Evaluator(q, ms, gain="linear", chunk_topics="auto").evaluate(r)
    assert calls[0] == 0 and np.array_equal(got.values, want.values)  # 400 KB: read whole
    monkeypatch.setattr(choose, "AUTO_BYTES", 1000)
    monkeypatch.setattr(choose, "AUTO_ROWS", 700)
    got = cwlkit.Evaluator(q, ms, gain="linear", chunk_topics="auto").evaluate(r)
    assert calls[0] == 1
    assert_same(got, want, [1])


def test_no_shared_topic(tmp_path):
    q, r = tmp_path / "q", tmp_path / "r"
    q.write_text("1 0 a 1\n")
    r.write_text("2 Q0 a 1 1.0 x\n")
    for chunk in (None, 1):
        with pytest.raises(cwlkit.CwlkitError, match="share no topic"):
            cwlkit.Evaluator(q, ["AP"], chunk_topics=chunk).evaluate(r)


@pytest.mark.parametrize(
    ("bad_q", "bad_r", "where"),
    [
        (None, (5, "151 Q0 x 1\n"), "r"),  # a run line of 4 fields
        (None, (40, "151 Q0 clueweb12 1 zz x\n"), "r"),  # a score that is not a number
        (None, (80, None), "r"),  # a document listed twice
        ((9, "151 0 x\n"), None, "q"),  # a qrels line of 3 fields
        ((30, None), None, "q"),  # a judgement listed twice
        ((9, "151 0 x\n"), (5, "151 Q0 x 1\n"), "q"),  # both: the qrels' error first
        ((30, None), (40, "151 Q0 clueweb12 1 zz x\n"), "q"),
    ],
)
def test_streamed_errors_are_the_whole_files(tmp_path, monkeypatch, bad_q, bad_r, where):
    monkeypatch.setattr(streamed, "BLOCK", 997)  # many blocks
    files = {}
    for kind, bad, src in (
        ("q", bad_q, INPUTS["web2012-ql"][0]),
        ("r", bad_r, INPUTS["web2012-ql"][1]),
    ):
        lines = src.read_text().splitlines(keepends=True)
        if bad is not None:
            line, text = bad
            lines[line - 1] = text if text is not None else lines[line - 10]
        files[kind] = tmp_path / f"{kind}.txt"
        files[kind].write_text("".join(lines))
    with pytest.raises(FormatError) as whole:
        cwlkit.Evaluator(files["q"], ["AP"]).evaluate(files["r"])
    with pytest.raises(FormatError) as got:
        cwlkit.Evaluator(files["q"], ["AP"], chunk_topics=3).evaluate(files["r"])
    assert str(got.value) == str(whole.value)
    assert str(got.value).startswith(f"{files[where]}:")


def test_chunk_topics_auto_is_checked():
    with pytest.raises(cwlkit.ParamError, match="positive integer or 'auto'"):
        cwlkit.Evaluator(INPUTS["example"][0], ["AP"], chunk_topics="all")


def test_gzipped_files_are_streamed(calls, tmp_path):
    import gzip

    q, r = INPUTS["web2012-ql"]
    qz, rz = tmp_path / "q.gz", tmp_path / "r.gz"
    qz.write_bytes(gzip.compress(q.read_bytes()))
    rz.write_bytes(gzip.compress(r.read_bytes()))
    ms = ["AP", "nDCG@10", "INST(T=2)"]
    want = cwlkit.Evaluator(q, ms, gain="linear").evaluate(r)
    got = cwlkit.Evaluator(qz, ms, gain="linear", chunk_topics=7).evaluate(rz)
    assert calls[0] == 1
    assert_same(got, want, [2])
