"""cwlkit.executors.processes: a pool worker's share of the cores, tasks in order."""

from __future__ import annotations

import pytest

from cwlkit.executors import processes as _parallel
from cwlkit.support.threads import cores


def _share(state, item):
    return cores()


@pytest.mark.skipif(cores() < 2, reason="needs two cores")
def test_each_worker_of_a_pool_uses_its_share_of_the_cores():
    """Two workers on two cores run no threads of their own (thread_map runs in place)."""
    n = cores()
    assert list(_parallel.imap(_share, None, [1, 2, 3], jobs=2)) == [n // 2] * 3
    assert list(_parallel.imap(_share, None, [1, 2, 3], jobs=1)) == [n] * 3
    assert cores() == n  # (this process keeps every core)


def _square(state, item):
    if item == state:
        raise ValueError(f"bad item {item}")
    return item * item


@pytest.mark.parametrize("chunk", [1, 2, 3, 8, 50])
def test_chunked_tasks_keep_the_order(chunk):
    items = list(range(23))
    got = list(_parallel.imap(_square, None, items, jobs=2, chunk=chunk))
    assert got == [i * i for i in items]


@pytest.mark.parametrize("chunk", [1, 3, 4])
def test_an_error_comes_when_its_item_s_turn_comes(chunk):
    """The items before the bad one are yielded (also those of its own task), then its
    exception is raised; nothing after it is yielded."""
    got = []
    with pytest.raises(ValueError, match="bad item 9"):
        for r in _parallel.imap(_square, 9, list(range(20)), jobs=2, chunk=chunk):
            got.append(r)
    assert got == [i * i for i in range(9)]


def test_chunk_for(tmp_path):
    small = []
    for i in range(40):
        p = tmp_path / f"run{i}"
        p.write_text("1 Q0 d 1 1 x\n")
        small.append(str(p))
    assert _parallel.chunk_for(small, 2) == 5  # about four tasks a worker
    assert _parallel.chunk_for(small * 10, 2) == _parallel.MAX_CHUNK
    assert _parallel.chunk_for(small[:5], 2) == 1
    assert _parallel.chunk_for(small, 1) == 1  # one process: no tasks at all
    big = tmp_path / "big"
    with open(big, "wb") as f:
        f.truncate(_parallel.SMALL_FILE)  # (sparse)
    assert _parallel.chunk_for([*small, str(big)], 2) == 1  # big results: one a task
    assert _parallel.chunk_for([*small, object()], 2) == 1  # not files
    assert _parallel.chunk_for([*small, str(tmp_path / "missing")], 2) == 1


def test_small_runs_held_in_python_start_no_pool(monkeypatch):
    """evaluate_many on a few small dict runs (and DataFrames) scores them here: no process
    pool (imap is never called); the values are each run's own evaluate, and pytrec_eval's."""
    import pandas as pd
    import pytrec_eval

    import cwlkit
    from cwlkit import executors
    from cwlkit.executors import choose

    qrels = {"q1": {"d1": 1, "d2": 0, "d3": 2}, "q2": {"d1": 0, "d2": 1}}
    runs = {
        "a": {"q1": {"d1": 0.5, "d2": 0.4, "d3": 0.3}, "q2": {"d1": 1.0, "d2": 0.2}},
        "b": {"q1": {"d3": 0.9, "d2": 0.1}, "q2": {"d2": 0.7, "d1": 0.3}},
        "c": pd.DataFrame(
            [("q1", "d2", 1.0), ("q2", "d2", 2.0)], columns=["query_id", "doc_id", "score"]
        ),
    }

    def no_pool(*args, **kwargs):
        raise AssertionError("a process pool was started")

    monkeypatch.setattr(executors, "imap", no_pool, raising=False)
    monkeypatch.setattr("cwlkit.executors.processes.imap", no_pool)
    ev = cwlkit.Evaluator(qrels, ["AP", "nDCG@10"])
    got = ev.evaluate_many(runs)
    assert list(got) == ["a", "b", "c"]
    pe = pytrec_eval.RelevanceEvaluator(qrels, {"map", "ndcg_cut.10"})
    for name in ("a", "b"):
        ref = pe.evaluate(runs[name])
        for t in got[name].topics:
            assert got[name]["AP"][t] == ref[t]["map"]
            assert got[name]["nDCG@10"][t] == ref[t]["ndcg_cut_10"]
    # over the threshold, or with jobs given, the pool is used
    monkeypatch.setattr(choose, "HELD_POOL_ROWS", 5)
    with pytest.raises(AssertionError, match="pool was started"):
        ev.evaluate_many(runs)
    monkeypatch.setattr(choose, "HELD_POOL_ROWS", 10**6)
    with pytest.raises(AssertionError, match="pool was started"):
        ev.evaluate_many(runs, jobs=2)
    assert choose.held_rows(runs["a"]) == 5 and choose.held_rows(runs["c"]) == 2
    assert choose.held_rows("a.run") is None
