"""benchmarks/bench_judging.py runs (``--quick``: 6 runs x 5 topics x 50 documents) and its
own checks hold (pools of k a topic hold k, the bandits judge the whole depth-k pool, tau 1 at
the full budget); the timings themselves are not tested."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parent.parent / "benchmarks"


def test_bench_judging_quick(capsys):
    pytest.importorskip("pandas")
    sys.path.insert(0, str(BENCH))
    try:
        import bench_judging
    finally:
        sys.path.remove(str(BENCH))
    assert bench_judging.main(["--quick"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("# 6 runs x 5 topics x 50 documents (1,500 rows")
    for case in ("pool depth", "pool residual", "pool maxmean", "pool mtf", "simulate_judging"):
        assert case in out
    assert "checked:" in out
    # the data: every run ranks 50 of the topic's 100 candidates, 100 judged a topic
    qrels, runs = bench_judging.make_data(3, 2, 50)
    assert len(qrels) == 200 and all(len(r) == 100 for r in runs.values())
    assert runs["run000"].groupby("query_id")["doc_id"].nunique().tolist() == [50, 50]


@pytest.mark.slow
def test_bench_pool_trectools_runs(capsys, refs_python):
    """benchmarks/bench_pool_trectools.py times both tools on the Web 2012 runs; the pool
    sizes it prints agree but for documents tied at the cut."""
    sys.path.insert(0, str(BENCH))
    try:
        import bench_pool_trectools
    finally:
        sys.path.remove(str(BENCH))
    venv = str(Path(refs_python).parent.parent)
    args = ["--venv", venv, "--depth", "10", "--repeat", "1", "--rounds", "1"]
    assert bench_pool_trectools.main(args) == 0
    rows = [r for r in capsys.readouterr().out.splitlines() if r.startswith("| ") and "x |" in r]
    assert len(rows) == 3
    for row in rows:
        ours, theirs = (int(x.replace(",", "")) for x in row.split("|")[5].split("/"))
        assert abs(ours - theirs) <= 50  # (ties at the cut, at most one a topic)
