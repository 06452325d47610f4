"""Pools: against trectools 0.0.50's TrecPoolMaker (topX, rbp sum/max, rrf) on TREC Web 2012's
runs, the issue's check of residual pooling (one run, RBP(p=0.8), 10 a topic: the run's top
10, and RBP's residual left is 0.8^10 on every topic), and properties."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import DATA, run_refs

import cwlkit
from cwlkit.errors import ParamError
from cwlkit.judging import pool

W = DATA / "web2012"
RUNS = sorted(str(p) for p in (W / "runs").glob("*.run.gz"))
QRELS = W / "qrels.web.151-200.txt"

TRECTOOLS = """
from trectools import TrecPoolMaker, TrecRun
runs = [TrecRun(f) for f in data["runs"]]
out = {}
for name, kw in data["cases"].items():
    pl = TrecPoolMaker().make_pool(runs, **kw).pool
    out[name] = {str(t): sorted(map(str, d)) for t, d in pl.items()}
print(json.dumps(out))
"""

CASES = {
    "topX": ({"strategy": "topX", "topX": 10}, "depth", {"depth": 10}),
    "rbp_sum": (
        {"strategy": "rbp", "topX": 20, "rbp_p": 0.8, "rbp_strategy": "sum"},
        "rbp",
        {"p": 0.8, "aggregate": "sum", "depth": 20},
    ),
    "rbp_max": (
        {"strategy": "rbp", "topX": 15, "rbp_p": 0.6, "rbp_strategy": "max"},
        "rbp",
        {"p": 0.6, "aggregate": "max", "depth": 15},
    ),
    "rrf": ({"strategy": "rrf", "topX": 30, "rrf_den": 60}, "rrf", {"k": 60, "depth": 30}),
}


@pytest.mark.slow
def test_pools_equal_trectools(refs_python):
    """trectools ranks rbp and rrf by the rank column (order="rank" here) and topX by score,
    ties by document id ascending; where documents tie in priority at the cut, the pools may
    keep different ones of the tied documents, and only those."""
    theirs = run_refs(
        refs_python, TRECTOOLS, {"runs": RUNS, "cases": {k: v[0] for k, v in CASES.items()}}
    )
    for name, (_, strategy, kw) in CASES.items():
        order = "score" if strategy == "depth" else "rank"
        ours = pool(RUNS, strategy, order=order, **kw).to_dict()
        assert set(ours) == set(theirs[name])
        full = pool(RUNS, strategy, order=order, **{**kw, "depth": 10**6})
        prio = dict(zip(zip(full.topics, full.docs, strict=True), full.priority, strict=True))
        differ = 0
        for t, docs in theirs[name].items():
            assert len(ours[t]) == len(docs), (name, t)
            cut = min(prio[(t, d)] for d in ours[t])
            for d in set(ours[t]) ^ set(docs):
                if strategy == "depth":
                    assert d in _tied_at_cut(t, kw["depth"]), (name, t, d)
                else:
                    assert prio[(t, d)] == pytest.approx(cut, abs=1e-15), (name, t, d)
                differ += 1
        assert differ < 10, name  # a few ties at the cut, no more


def _tied_at_cut(topic, k):
    """Documents whose score, in some run, equals the k-th score of the topic's ranking
    (where trectools, ties by id ascending, and trec_eval's order, descending, may differ)."""
    out = set()
    for path in RUNS:
        tab = cwlkit.read_run(path).table
        sel = np.asarray(tab.column("topic").to_pylist()) == topic
        sc = np.asarray(tab.column("score").to_pylist())[sel]
        docs = np.asarray(tab.column("doc").to_pylist())[sel]
        if sc.size > k:
            kth = np.sort(sc)[::-1][k - 1]
            out.update(docs[sc == kth].tolist())
    return out


def test_residual_pool_of_one_run_is_its_top_and_leaves_p_to_the_10():
    """The issue's check: one run, RBP(p=0.8), 10 a topic: the pool is the run's top 10 (as
    ranked by trec_eval's order), and once those are judged RBP's residual is exactly 0.8^10
    on every topic."""
    run = RUNS[0]
    pl = pool([run], "residual", measure="RBP(p=0.8)", depth=10)
    top = pool([run], "depth", depth=10).to_dict()
    got = pl.to_dict()
    assert {t: sorted(d) for t, d in got.items()} == {t: sorted(d) for t, d in top.items()}
    sizes = np.array([len(got[t]) for t in sorted(got)])
    assert (sizes == 10).sum() == 49  # topic 180 has 5 documents
    qrels = [(t, d, 0.0) for t, docs in got.items() for d in docs]
    res = cwlkit.evaluate(
        cwlkit.Qrels.from_records(qrels), run, ["RBP(p=0.8)"], topics="run", residuals=True
    )
    residual = res.columns["ResEU"][0]
    assert residual.size == 50
    np.testing.assert_allclose(residual, 0.8**sizes, rtol=0, atol=1e-15)


def test_residual_priority_is_the_sum_of_w():
    """By hand on the bundled example: RBP(p=0.5)'s W(i) = 0.5^i; a document at rank 1 of
    one run and rank 3 of another has priority 0.5 + 0.125."""
    a = cwlkit.Run.from_records([("q", "x", 3.0), ("q", "y", 2.0), ("q", "z", 1.0)])
    b = cwlkit.Run.from_records([("q", "y", 3.0), ("q", "w", 2.0), ("q", "x", 1.0)])
    pl = pool([a, b], "residual", measure="RBP(p=0.5)")
    got = dict(zip(pl.docs.tolist(), pl.priority.tolist(), strict=True))
    assert got == pytest.approx({"x": 0.625, "y": 0.75, "w": 0.25, "z": 0.125}, abs=1e-15)
    assert pl.to_dict() == {"q": ["y", "x", "w", "z"]}
    # judged documents are skipped
    q = cwlkit.Qrels.from_records([("q", "y", 1.0)])
    assert pool([a, b], "residual", measure="RBP(p=0.5)", qrels=q).to_dict() == {
        "q": ["x", "w", "z"]
    }
    # a total budget takes the largest priorities over every topic
    assert pool([a, b], "residual", measure="RBP(p=0.5)", budget=2).to_dict() == {"q": ["y", "x"]}


def test_residual_pooling_never_raises_the_residual():
    """Judging a residual pool's documents (labels from the complete qrels, 0 where they
    hold none) never raises any run's residual, and lowers it more than judging the same
    number of documents of a depth pool of the same size does not... at least never raises."""
    q = cwlkit.read_qrels(QRELS)
    labels = {
        (t, d): float(x)
        for t, d, x in zip(
            q.table.column("topic").to_pylist(),
            q.table.column("doc").to_pylist(),
            q.table.column("label").to_pylist(),
            strict=True,
        )
    }
    before = None
    for n in (0, 5, 20):
        pl = pool(RUNS[:4], "residual", measure="RBP(p=0.8)", depth=n)
        recs = [(t, d, labels.get((t, d), 0.0)) for t, d in zip(pl.topics, pl.docs, strict=True)]
        if not recs:
            recs = [("151", "none", 0.0)]
        res = cwlkit.evaluate(
            cwlkit.Qrels.from_records(recs), RUNS[:4], ["RBP(p=0.8)"], topics="run", residuals=True
        )
        now = np.array([r.columns["ResEU"][0].mean() for r in res.values()])
        if before is not None:
            assert (now <= before + 1e-15).all()
        before = now


def test_deterministic_and_per_topic_budgets(tmp_path):
    a = pool(RUNS, "rbp", p=0.8, depth=7)
    b = pool(list(reversed(RUNS)), "rbp", p=0.8, depth=7)
    assert a.to_dict() == b.to_dict()
    per = pool(RUNS, "rrf", depth={"151": 3, "152": 5})
    assert per.sizes() == {"151": 3, "152": 5}
    text = per.to_qrels_text()
    assert text.splitlines()[0].split()[1::2] == ["0", "0"] and len(text.splitlines()) == 8
    with pytest.raises(ParamError, match=r"^strategy must be one of 'depth', "):
        pool(RUNS, "bogus")
    with pytest.raises(ParamError, match="C/W/L"):
        pool(RUNS, "residual", measure="P@10")
