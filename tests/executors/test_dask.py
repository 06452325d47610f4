"""Evaluation on a Dask cluster (issue #10 items 4 and 6): ``Evaluator(client=...)`` and
``cwlkit evaluate --scheduler`` give the local Results (and output) exactly, on a
``LocalCluster`` of two worker processes; errors name file and line; a worker killed
mid-way changes nothing."""

from __future__ import annotations

import gzip
import os
import signal
import sys
import threading
import time

import numpy as np
import pytest
from conftest import DATA, plain_runs

import cwlkit
from cwlkit.errors import CwlkitError, FormatError

pytestmark = pytest.mark.slow  # (the fast tier: pytest -m 'not slow')

distributed = pytest.importorskip("distributed")
pd = pytest.importorskip("pandas")
dd = pytest.importorskip("dask.dataframe")

WEB = DATA / "web2012"
QRELS = WEB / "qrels.web.151-200.txt"
RUNS = plain_runs(sorted((WEB / "runs").glob("*.run.gz")))  # (plain, as streamed)
TE = DATA / "trec_eval_test" / "9.0.8"
MEASURES = ["P@10", "AP", "nDCG@10", "RR", "R-Prec"]
RUN_COLUMNS = ["query_id", "Q0", "doc_id", "rank", "score", "tag"]


@pytest.fixture(scope="module")
def client():
    """A client of a two-process LocalCluster (one thread each), for the whole module."""
    with distributed.LocalCluster(
        n_workers=2, processes=True, threads_per_worker=1, dashboard_address=":0"
    ) as cluster:
        with distributed.Client(cluster) as c:
            yield c


def _same(a, b, run: str | None = None) -> None:
    """Two Results are the same: names (``a``'s run is ``run`` when given), topics, columns
    and every value, bit for bit."""
    assert a.run == (b.run if run is None else run)
    assert (a.measures, a.topics, a.aggregates) == (b.measures, b.topics, b.aggregates)
    assert np.array_equal(a.values, b.values, equal_nan=True)
    assert list(a.columns) == list(b.columns)
    for c in a.columns:
        assert np.array_equal(a.columns[c], b.columns[c], equal_nan=True)


def _same_many(a: dict, b: dict) -> None:
    assert list(a) == list(b)
    for k in a:
        _same(a[k], b[k])


def _frame(path) -> pd.DataFrame:
    return pd.read_csv(path, sep=r"\s+", header=None, names=RUN_COLUMNS, dtype={"query_id": str})


def test_evaluate_many_is_the_local_evaluation(client):
    web = cwlkit.Evaluator(QRELS, MEASURES)
    _same_many(
        cwlkit.Evaluator(QRELS, MEASURES, client=client).evaluate_many(RUNS[::-1]),
        web.evaluate_many(RUNS[::-1], jobs=1),
    )
    # trec_eval's test suite: results.test against two qrels, as a mapping of names
    runs = {"a": TE / "results.test", "b": TE / "results.test"}
    for qrels in ("qrels.test", "qrels.rel_level"):
        te = cwlkit.Evaluator(TE / qrels, MEASURES, client=client).evaluate_many(runs)
        _same_many(te, cwlkit.Evaluator(TE / qrels, MEASURES).evaluate_many(runs, jobs=1))
    # the anchor: trec_eval 9.0.8's own output for results.test (out.test: map, P_10)
    te = cwlkit.Evaluator(TE / "qrels.test", MEASURES, client=client).evaluate_many(runs)
    assert round(te["a"].mean()["AP"], 4) == 0.1785
    assert round(te["a"].mean()["P@10"], 4) == 0.3000


@pytest.mark.parametrize(("topics", "order"), [("both", "score"), ("qrels", "file")])
@pytest.mark.parametrize("form", ["path", "DataFrame"])
def test_chunks_on_the_workers_are_the_unchunked_run(client, topics, order, form):
    run = RUNS[1] if form == "path" else _frame(RUNS[1])
    local = cwlkit.Evaluator(QRELS, MEASURES, topics=topics, order=order).evaluate(run)
    ev = cwlkit.Evaluator(
        QRELS, MEASURES, topics=topics, order=order, chunk_topics=7, client=client
    )
    _same(ev.evaluate(run), local)
    assert len(local.topics) == 50


@pytest.mark.parametrize(
    ("topics", "order"),
    [("both", "score"), ("qrels", "file"), ("either", "score"), ("run", "file")],
)
def test_dask_dataframe_run_is_the_pandas_run(client, topics, order):
    df = _frame(RUNS[0])
    # topics the qrels lack (rule 'run' and 'either'), rows shuffled (order 'file')
    extra = df[df.query_id == "151"].assign(query_id="999")
    df = pd.concat([df[df.query_id != "160"], extra]).sample(frac=1.0, random_state=1)
    df = df.reset_index(drop=True)
    local = cwlkit.Evaluator(QRELS, MEASURES, topics=topics, order=order).evaluate(df)
    ev = cwlkit.Evaluator(QRELS, MEASURES, topics=topics, order=order, client=client)
    got = ev.evaluate(dd.from_pandas(df, npartitions=4))
    _same(got, local)
    without_client = cwlkit.Evaluator(QRELS, MEASURES, topics=topics, order=order)
    _same(without_client.evaluate(dd.from_pandas(df, npartitions=4)), local)  # computed here
    assert got.run == df.tag.iloc[-1]  # the tag of the last row, as for the pandas frame
    assert ("999" in got.topics) == (topics in ("run", "either"))
    assert ("160" in got.topics) == (topics in ("qrels", "either"))


def test_dask_dataframe_qrels_and_row_errors(client):
    qdf = pd.read_csv(QRELS, sep=r"\s+", header=None, names=["qid", "iter", "docno", "rel"])
    ev = cwlkit.Evaluator(dd.from_pandas(qdf, npartitions=3), MEASURES, client=client)
    _same(ev.evaluate(RUNS[2]), cwlkit.Evaluator(qdf, MEASURES).evaluate(RUNS[2]))
    df = _frame(RUNS[2])
    first = len(dd.from_pandas(df, npartitions=2, sort=False).get_partition(0))
    df.loc[first + 4, "score"] = np.nan  # row 5 of partition 1
    with pytest.raises(FormatError) as got:
        ev.evaluate(dd.from_pandas(df, npartitions=2, sort=False))
    assert str(got.value) == (
        "<dask DataFrame> partition 1:5: expected a number for the score, got nan"
    )


def test_fsspec_urls_are_the_paths(client, tmp_path):
    fsspec = pytest.importorskip("fsspec")
    local = cwlkit.Evaluator(QRELS, MEASURES)
    want = local.evaluate_many(RUNS[:3], jobs=1)
    urls = {name: f"file://{p}" for name, p in zip(want, RUNS[:3], strict=True)}
    on_workers = cwlkit.Evaluator(f"file://{QRELS}", MEASURES, client=client)
    _same_many(on_workers.evaluate_many(urls), want)
    # memory:// holds files in each process: written here, and on each worker
    gz = gzip.compress(RUNS[0].read_bytes())
    with fsspec.open("memory://cwlkit-test/a.run.gz", "wb") as f:
        f.write(gz)
    _same(local.evaluate("memory://cwlkit-test/a.run.gz", name=RUNS[0].name), want[RUNS[0].name])
    client.run(_write_memory_file, "memory://cwlkit-test/b.run.gz", gz)
    got = on_workers.evaluate_many({RUNS[0].name: "memory://cwlkit-test/b.run.gz"})
    _same(got[RUNS[0].name], want[RUNS[0].name])
    with pytest.raises(CwlkitError, match="memory://cwlkit-test/none.run: no such file"):
        local.evaluate("memory://cwlkit-test/none.run")


def _write_memory_file(url: str, data: bytes) -> None:
    import fsspec

    with fsspec.open(url, "wb") as f:
        f.write(data)


def test_cli_scheduler_output_is_byte_identical(cli, client):
    args = ["evaluate", QRELS, *RUNS, "-m", "P@10 AP nDCG@10 RR R-Prec", "--per-topic"]
    rc, out, err = cli(*args)
    assert rc == 0 and out.count("\n") == 1 + 8 * 50, err
    assert cli(*args, "--scheduler", client.scheduler_info()["address"]) == (rc, out, err)
    chunked = cli(*args, "--chunk-topics", "9", "--scheduler", client.scheduler_info()["address"])
    assert chunked == (rc, out, err)


def test_cli_scheduler_errors_are_one_line(cli, monkeypatch):
    rc, out, err = cli("evaluate", QRELS, RUNS[0], "-m", "AP", "--scheduler", "tcp://nohost")
    assert (rc, out) == (2, "")
    assert err == (
        "cwlkit: error: --scheduler: expected a scheduler address such as tcp://HOST:8786; "
        "got 'tcp://nohost'\n"
    )
    from cwlkit.executors.dask import connect

    t0 = time.perf_counter()
    with pytest.raises(CwlkitError, match=r"could not connect to the Dask scheduler at tcp://127"):
        connect("tcp://127.0.0.1:9", timeout=1)
    assert time.perf_counter() - t0 < 8
    monkeypatch.setitem(sys.modules, "distributed", None)  # as if dask were not installed
    rc, out, err = cli("evaluate", QRELS, RUNS[0], "-m", "AP", "--scheduler", "tcp://h:8786")
    assert (rc, out) == (2, "")
    assert err == (
        "cwlkit: error: --scheduler needs dask.distributed; pip install 'cwlkit[dask]'\n"
    )


def test_bad_line_is_named_as_locally(cli, client, tmp_path):
    lines = RUNS[0].read_bytes().splitlines(keepends=True)
    lines[1042] = b"151 Q0 doc-x 1 0.5\n"  # line 1043: five fields
    bad = tmp_path / "bad.run"
    bad.write_bytes(b"".join(lines))
    runs = [RUNS[1], bad, RUNS[2]]
    with pytest.raises(FormatError) as here:
        cwlkit.Evaluator(QRELS, MEASURES).evaluate_many(runs, jobs=1)
    with pytest.raises(FormatError) as there:
        cwlkit.Evaluator(QRELS, MEASURES, client=client).evaluate_many(runs)
    assert type(there.value) is FormatError
    assert (there.value.path, there.value.line) == (str(bad), 1043)
    assert str(there.value) == str(here.value)
    assert "expected 6 fields" in str(there.value)
    rc, out, err = cli(
        "evaluate", QRELS, *runs, "-m", "AP", "--scheduler", client.scheduler_info()["address"]
    )
    assert (rc, out) == (2, "")
    assert err.startswith(f"cwlkit: error: {bad}:1043: ") and err.count("\n") == 1


def test_import_cwlkit_imports_no_dask():
    import subprocess

    proc = subprocess.run(
        [sys.executable, "-X", "importtime", "-c", "import cwlkit"],
        capture_output=True,
        text=True,
        check=True,
    )
    imported = [line.rsplit("|", 1)[-1].strip() for line in proc.stderr.splitlines()]
    assert "cwlkit" in imported
    assert not [m for m in imported if m.split(".")[0] in ("dask", "distributed", "fsspec")]


def _finished(dask_scheduler, prefix: str) -> int:
    return sum(
        1
        for k, ts in dask_scheduler.tasks.items()
        if str(k).startswith(prefix) and ts.state == "memory"
    )


def test_a_worker_killed_mid_way_changes_nothing(client):
    """Last in the file: the killed worker is restarted by its nanny."""
    measures = [*MEASURES, "nDCG@1:400:1"]  # ~0.15 s a run: time to kill one mid-way
    want = cwlkit.Evaluator(QRELS, measures).evaluate_many(RUNS, jobs=1)
    runs = {f"{k}:{p.name}": p for k in range(3) for p in RUNS[:7]}  # 21 runs
    ev = cwlkit.Evaluator(QRELS, measures, client=client)
    got: dict = {}
    worker = threading.Thread(target=lambda: got.update(ev.evaluate_many(runs)))
    pids_before = set(client.run(os.getpid).values())
    worker.start()
    deadline = time.monotonic() + 30
    while client.run_on_scheduler(_finished, prefix="evaluate_run") < 1:
        assert time.monotonic() < deadline, "no task finished"
        time.sleep(0.02)
    busy = [w for w, keys in client.processing().items() if keys]
    pid = client.run(os.getpid, workers=busy[:1])[busy[0]]
    done_at_kill = client.run_on_scheduler(_finished, prefix="evaluate_run")
    os.kill(pid, signal.SIGKILL)
    worker.join(60)
    assert not worker.is_alive()
    assert done_at_kill < len(runs)  # killed mid-way
    assert list(got) == list(runs)
    for name, res in got.items():
        _same(res, want[name.split(":", 1)[1]], run=name)
    client.wait_for_workers(2, timeout=30)
    assert pid not in set(client.run(os.getpid).values()) and pid in pids_before
