"""Topic chunks over processes (issue #10): ``Evaluator(..., chunk_topics=N).evaluate(run,
jobs=2)`` scores the chunks of a run read whole, or the buckets of a streamed file, in two
processes and gives the Results of ``jobs=1`` to the bit, which are those of the unchunked
path (checked against trec_eval's and the peers' outputs by the golden tests): trec measures
exactly, C/W/L ones to 1e-12 (see tests/executors/test_streamed.py)."""

from __future__ import annotations

import gzip
from concurrent.futures import ProcessPoolExecutor

import numpy as np
import pandas as pd
import pytest
from conftest import DATA, read_data
from test_streamed import assert_same

import cwlkit
from cwlkit.errors import FormatError
from cwlkit.support.threads import cores

WEB = DATA / "web2012"
TE = DATA / "trec_eval_test" / "9.0.8"
INPUTS = {
    "web2012": (WEB / "qrels.web.151-200.txt", WEB / "runs" / "web2012.ql.cata.run.gz"),
    "trec_eval-suite": (TE / "qrels.test", TE / "results.test"),
}
TREC = ["P@5", "AP", "nDCG@10", "RR", "R-Prec", "NumRet", "GMAP"]
CWL = ["RBP(p=0.8)", "INST(T=2)"]


@pytest.fixture
def tasks(monkeypatch):
    """Count the tasks submitted to process pools (so that a test knows two processes ran)."""
    n = [0]
    real = ProcessPoolExecutor.submit

    def spy(self, *args, **kwargs):
        n[0] += 1
        return real(self, *args, **kwargs)

    monkeypatch.setattr(ProcessPoolExecutor, "submit", spy)
    return n


def identical(got: cwlkit.Results, want: cwlkit.Results) -> None:
    """The same Results to the bit: topics, values, columns, means."""
    assert got.topics == want.topics and got.measures == want.measures and got.run == want.run
    assert np.array_equal(got.values, want.values, equal_nan=True)
    assert list(got.columns) == list(want.columns)
    for c in want.columns:
        assert np.array_equal(got.columns[c], want.columns[c], equal_nan=True)
    assert got.mean() == want.mean()


def frame(path) -> pd.DataFrame:
    names = ["query_id", "q0", "doc_id", "rank", "score", "tag"]
    return pd.read_csv(path, sep=r"\s+", header=None, names=names, dtype=str).astype(
        {"score": float}
    )


@pytest.mark.parametrize("name", list(INPUTS))
@pytest.mark.parametrize("order", ["score", "file"])
@pytest.mark.parametrize("form", ["streamed", "frame"])
def test_two_jobs_are_one(tasks, calls, name, order, form):
    qrels, path = INPUTS[name]
    run = path if form == "streamed" else frame(path)
    opts = {"order": order, "gain": "linear"}
    ev = cwlkit.Evaluator(qrels, TREC + CWL, chunk_topics=3, **opts)
    one = ev.evaluate(run, jobs=1)
    assert tasks[0] == 0
    two = ev.evaluate(run, jobs=2)
    n_chunks = -(-len(one.topics) // 3)
    assert tasks[0] >= n_chunks - 1  # (a streamed bucket of qrels topics only may be empty)
    assert calls[0] == (2 if form == "streamed" else 0)
    identical(two, one)
    whole = cwlkit.Evaluator(qrels, TREC + CWL, **opts).evaluate(run)
    assert_same(two, whole, cwl_rows=[len(TREC), len(TREC) + 1])


def test_default_jobs_are_the_cores(tasks):
    qrels, path = INPUTS["web2012"]
    ev = cwlkit.Evaluator(qrels, ["AP"], chunk_topics=10)
    want = ev.evaluate(path, jobs=1)
    identical(ev.evaluate(path), want)
    assert tasks[0] == (5 if cores() > 1 else 0)
    # several runs: a task a run (its chunks scored in that worker); one run: a task a chunk
    many = ev.evaluate_many({"a": path, "b": path}, jobs=2)
    assert tasks[0] == 5 + 2 and many["a"].mean() == many["b"].mean() == want.mean()
    named = ev.evaluate(path, name=path.name, jobs=1)
    identical(ev.evaluate_many([path], jobs=2)[path.name], named)
    assert tasks[0] == 5 + 2 + 5


def test_cli_two_jobs_print_what_one_prints(cli):
    qrels, path = INPUTS["web2012"]
    args = ["evaluate", qrels, path, "-m", "P@10 AP nDCG@10 RBP(p=0.8)", "--per-topic"]
    outs = [cli(*args, "--chunk-topics", "7", "--order", "file", "-j", j) for j in ("1", "2")]
    assert outs[0][0] == 0 and outs[0][1] == outs[1][1] and outs[0][2] == outs[1][2]
    # (graded qrels: RBP's gains are said on stderr, once)
    assert outs[0][2].startswith("cwlkit evaluate: graded labels (up to 4)")
    assert outs[0][2].count("\n") == 1
    whole = cli(*args, "--order", "file", "-j", "1")[1]
    assert outs[1][1] == whole and len(whole.splitlines()) == 51


@pytest.mark.parametrize("suffix", [".run", ".run.gz"])
def test_error_in_a_late_chunk_names_its_line(tmp_path, suffix):
    """A rank that is not an integer (read with order="rank" when the chunk is built, in a
    worker) in the last topic: the whole-file error, from a streamed bucket (plain file) or a
    chunk of a run read whole (gzip)."""
    qrels, path = INPUTS["web2012"]
    lines = read_data(path).splitlines(keepends=True)
    bad = len(lines) - 5
    fields = lines[bad - 1].split()
    fields[3] = "x"
    lines[bad - 1] = " ".join(fields) + "\n"
    run = tmp_path / f"bad{suffix}"
    with gzip.open(run, "wt") if suffix.endswith(".gz") else open(run, "w") as f:
        f.write("".join(lines))
    with pytest.raises(FormatError) as whole:
        cwlkit.Evaluator(qrels, ["AP"], order="rank").evaluate(run)
    assert str(whole.value) == f"{run}:{bad}: expected an integer rank, got 'x'"
    with pytest.raises(FormatError) as got:
        cwlkit.Evaluator(qrels, ["AP"], order="rank", chunk_topics=5).evaluate(run, jobs=2)
    assert str(got.value) == str(whole.value)


def test_duplicate_in_a_late_bucket(tmp_path):
    qrels, path = INPUTS["web2012"]
    lines = read_data(path).splitlines(keepends=True)
    lines[-3] = lines[-10]
    run = tmp_path / "dup.run"
    run.write_text("".join(lines))
    with pytest.raises(FormatError) as whole:
        cwlkit.Evaluator(qrels, ["AP"]).evaluate(run)
    assert str(whole.value).startswith(f"{run}:{len(lines) - 2}: document ")
    with pytest.raises(FormatError) as got:
        cwlkit.Evaluator(qrels, ["AP"], chunk_topics=5).evaluate(run, jobs=2)
    assert str(got.value) == str(whole.value)


def _in_pool_worker(args: tuple) -> list[float]:
    qrels, path = args
    return cwlkit.Evaluator(qrels, ["AP"], chunk_topics=10).evaluate(path).values[0].tolist()


def test_default_jobs_in_a_daemonic_worker_are_one():
    """A ``multiprocessing.Pool`` worker may not start processes: its chunks run in it."""
    import multiprocessing as mp

    qrels, path = INPUTS["web2012"]
    with mp.get_context("fork").Pool(1) as pool:
        got = pool.map(_in_pool_worker, [(qrels, path)])[0]
    assert got == cwlkit.Evaluator(qrels, ["AP"]).evaluate(path).values[0].tolist()
