"""Topic chunks (issue #10): ``chunk_topics`` gives the unchunked results, ``cwlkit
trec_eval --chunk-topics`` the unchunked output byte for byte."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import DATA

import cwlkit
from cwlkit.errors import ParamError

WEB = DATA / "web2012"
QRELS = WEB / "qrels.web.151-200.txt"
RUN = WEB / "runs" / "web2012.ql.cata-filtered.run.gz"
TE = DATA / "trec_eval_test"


def _cases() -> list:
    out = []
    for version in ("9.0.8", "10.0"):
        for line in (TE / version / "CASES").read_text().splitlines():
            if not line.strip() or line.startswith("#"):
                continue
            expected, args = line.split("\t", 1)
            if "-R" in args.split() or "-c" in args.split():
                continue
            out.append(pytest.param(version, expected, args.split(), id=f"{version}:{args}"))
    return out


@pytest.mark.parametrize(("version", "expected", "args"), _cases())
def test_trec_eval_golden_in_chunks(cli, monkeypatch, version, expected, args):
    monkeypatch.chdir(TE / version)
    extra = ["--trec-version", "10"] if version == "10.0" else []
    rc, out, err = cli("trec_eval", *extra, "--chunk-topics", "2", *args)
    assert rc == 0 and err == "", err
    assert out == (TE / version / expected).read_text()


@pytest.mark.parametrize("size", ["1", "7", "50", "1000"])
@pytest.mark.parametrize(
    "flags", [["-q", "-m", "all_trec"], ["-q", "-J", "-M", "30", "-m", "all_trec", "-l", "2"]]
)
def test_trec_eval_chunks_byte_identical(cli, size, flags):
    whole = cli("trec_eval", *flags, QRELS, RUN)
    assert whole[0] == 0
    assert cli("trec_eval", "--chunk-topics", size, *flags, QRELS, RUN) == whole


@pytest.fixture(scope="module")
def uneven(tmp_path_factory):
    """Qrels and run whose topics differ (some only in one file), lines out of topic order."""
    d = tmp_path_factory.mktemp("uneven")
    rng = np.random.default_rng(3)
    q, r = [], []
    for t in range(30):
        if t % 5 != 4:  # topics 4, 9, ... only in the run
            q += [f"t{t} 0 d{i} {rng.integers(-1, 4)}\n" for i in range(12)]
        if t % 7 != 6:  # topics 6, 13, ... only in the qrels
            r += [f"t{t} Q0 d{i} {i + 1} {rng.integers(0, 9) / 2} x\n" for i in range(20)]
    rng.shuffle(r)
    (d / "q").write_text("".join(q))
    (d / "r").write_text("".join(r))
    return d / "q", d / "r"


@pytest.mark.parametrize("topics", ["both", "qrels", "run", "either"])
@pytest.mark.parametrize("order", ["score", "file"])
def test_evaluator_chunks_same_values(uneven, topics, order):
    q, r = uneven
    ms = ["P@5", "AP", "nDCG@10", "RR", "R-Prec", "NumRet", "GMAP", "ERR@10", "RBP(p=0.8)"]
    opts = {"topics": topics, "order": order, "gain": "linear", "residuals": True}
    whole = cwlkit.Evaluator(q, ms, **opts).evaluate(r)
    for size in (1, 4, 100):
        got = cwlkit.Evaluator(q, ms, chunk_topics=size, **opts).evaluate(r)
        assert got.topics == whole.topics and got.measures == whole.measures
        assert got.run == whole.run and list(got.columns) == list(whole.columns)
        # C/W/L sums are grouped by the batch's width: equal to a few ulps, others exactly
        np.testing.assert_allclose(got.values, whole.values, rtol=1e-13, atol=1e-15)
        exact = [i for i, m in enumerate(ms) if not m.startswith("RBP")]
        assert np.array_equal(got.values[exact], whole.values[exact], equal_nan=True)
        for c in whole.columns:
            np.testing.assert_allclose(got.columns[c], whole.columns[c], rtol=1e-13, atol=1e-15)


def test_trec_eval_chunks_with_missing_topics(cli, uneven):
    q, r = uneven
    for flags in (["-q", "-m", "all_trec"], ["-q", "-c", "-m", "all_trec"]):
        whole = cli("trec_eval", *flags, q, r)
        assert whole[0] == 0
        assert cli("trec_eval", "--chunk-topics", "3", *flags, q, r) == whole


def test_chunk_topics_is_checked():
    with pytest.raises(ParamError, match="chunk_topics"):
        cwlkit.Evaluator(QRELS, ["AP"], chunk_topics=0)


@pytest.fixture()
def tiny_blocks(monkeypatch):
    """Stream files in blocks of a few lines (exercises the block boundaries)."""
    import cwlkit.io.partition as part

    monkeypatch.setattr(part, "BLOCK", 97)


def test_streamed_blocks_same_output(cli, uneven, tiny_blocks):
    q, r = uneven
    for flags in (["-q", "-m", "all_trec"], ["-m", "official", "-J", "-M", "5"]):
        whole = cli("trec_eval", *flags, q, r)
        assert cli("trec_eval", "--chunk-topics", "4", *flags, q, r) == whole


@pytest.mark.parametrize(
    ("which", "line", "text", "message"),
    [
        ("r", 37, "t1 Q0 dx 1 1.0\n", "expected 6 fields"),
        ("r", 41, "t1 Q0 dx 1 abc x\n", "expected a number for the score"),
        # (trec_eval reads a label with atol: 'nan' is 0, as the C program reads it)
        ("q", 29, "t1 0 dx 99999999999999999999\n", "label of magnitude at most 2^53"),
        ("r", 55, None, "appears twice"),
    ],
)
def test_streamed_errors_name_file_and_line(
    cli, uneven, tiny_blocks, tmp_path, which, line, text, message
):
    q, r = uneven
    src = q if which == "q" else r
    lines = src.read_text().splitlines(keepends=True)
    if text is None:  # repeat an earlier line of the run: a duplicate document
        text = lines[2]
    lines[line - 1] = text
    bad = tmp_path / f"bad.{which}"
    bad.write_text("".join(lines))
    args = (bad, r) if which == "q" else (q, bad)
    rc, out, err = cli("trec_eval", "--chunk-topics", "3", "-m", "map", *args)
    whole = cli("trec_eval", "-m", "map", *args)
    assert rc != 0 and out == "" and message in err and f"{bad}:{line}:" in err, err
    assert whole[2] == err  # the unchunked path's message


def test_write_in_topic_blocks_is_the_same_text(uneven):
    from cwlkit.formats.trec_eval import evaluate_trec, format_trec_eval, write_trec_eval
    from cwlkit.io.trec import read_qrels, read_run

    q, r = uneven
    table = evaluate_trec(read_qrels(q), read_run(r), ["all_trec"])
    for per_topic in (True, False):
        pieces: list[str] = []
        write_trec_eval(table, pieces.append, per_topic=per_topic, block=4)
        assert "".join(pieces) == format_trec_eval(table, per_topic=per_topic)
        assert len(pieces) == (1 + -(-len(table.topics) // 4) if per_topic else 1)


def test_several_runs_in_chunks(cli, uneven):
    q, r = uneven
    whole = cli("trec_eval", "-q", "-m", "all_trec", q, r)[1]
    rc, out, err = cli("trec_eval", "--chunk-topics", "5", "-q", "-m", "all_trec", q, r, r)
    assert rc == 0 and out == whole + whole
    ev = cwlkit.Evaluator(q, ["AP", "P@5"], chunk_topics=5)
    got = ev.evaluate_many({"a": r, "b": r}, jobs=2)
    want = cwlkit.Evaluator(q, ["AP", "P@5"]).evaluate(r)
    for res in got.values():
        assert res.topics == want.topics and np.array_equal(res.values, want.values)


def test_streamed_progress_only_when_asked(cli, uneven, monkeypatch):
    pytest.importorskip("tqdm")
    q, r = uneven
    rc, out, err = cli("trec_eval", "--chunk-topics", "3", "-m", "map", q, r)
    assert rc == 0 and err == ""
    monkeypatch.setenv("CWLKIT_PROGRESS", "1")
    rc, out2, err = cli("trec_eval", "--chunk-topics", "3", "-m", "map", q, r)
    assert out2 == out and "topic chunks" in err
    rc, out3, err = cli("trec_eval", "--chunk-topics", "3", "--quiet", "-m", "map", q, r)
    assert out3 == out and err == ""
