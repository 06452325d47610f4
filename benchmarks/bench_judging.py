"""Pooling and simulated judging at the issue's size (issue 23, item 6): 100 runs x 50 topics
x 1,000 documents, in one warm process.

    python benchmarks/bench_judging.py            # 100 runs x 50 topics x 1,000 documents
    python benchmarks/bench_judging.py --quick    # 6 runs x 5 topics x 50 (a smoke test)

The data are numpy-seeded synthetic runs held in memory as pandas DataFrames (what a Python
user holds; no files): each topic has 2 x depth candidate documents, 300 of them judged
(labels 0, 0, 0, 0, 1, 1, 2, 3 drawn uniformly, as benchmarks/make_bench.py draws them),
and each run ranks ``depth`` of them, drawn with a per-run bias toward the relevant ones so
that the runs differ in quality; scores have two decimals, so ties are common. Timed (best
of ``--repeat``): each pool strategy (depth 100; rbp, rrf and residual 100 a topic; maxmean
and mtf over the depth-100 pool, judged whole), ``simulate_judging`` (depth pooling, RBP(0.8),
budgets 10, 50, 100) and ``compare_runs`` of two runs. The timings are printed, not checked;
the numbers are checked: the pools hold what they should, and the simulation's full budget
gives tau 1.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from typing import Any

import numpy as np


def make_data(runs: int, topics: int, depth: int, seed: int = 7) -> tuple[Any, dict[str, Any]]:
    """(qrels, {name: run}) as pandas DataFrames."""
    import pandas as pd

    rng = np.random.default_rng(seed)
    cand = 2 * depth
    judged = min(300, cand)
    q_t, q_d, q_l = [], [], []
    gains = np.zeros((topics, cand))
    for t in range(topics):
        docs = rng.choice(cand, size=judged, replace=False)
        labels = rng.choice([0, 0, 0, 0, 1, 1, 2, 3], size=judged)
        gains[t, docs] = labels
        q_t.append(np.full(judged, f"q{t}"))
        q_d.append(np.char.add(f"d{t}_", docs.astype(str)))
        q_l.append(labels)
    qrels = pd.DataFrame(
        {
            "query_id": np.concatenate(q_t),
            "doc_id": np.concatenate(q_d),
            "relevance": np.concatenate(q_l),
        }
    )
    out = {}
    tid = np.repeat(np.arange(topics), depth)
    for r in range(runs):
        skill = rng.uniform(0.0, 2.0)
        # Gumbel top-k: each run picks ``depth`` candidates, biased toward gain by ``skill``
        key = skill * gains + rng.gumbel(size=(topics, cand))
        pick = np.argsort(-key, axis=1)[:, :depth]
        score = np.round(np.take_along_axis(key, pick, axis=1), 2).ravel()
        docs = np.char.add(
            np.char.add("d", tid.astype(str)), np.char.add("_", pick.ravel().astype(str))
        )
        out[f"run{r:03d}"] = pd.DataFrame(
            {"query_id": np.char.add("q", tid.astype(str)), "doc_id": docs, "score": score}
        )
    return qrels, out


def best_of(fn: Callable[[], Any], repeat: int) -> tuple[float, Any]:
    best, value = float("inf"), None
    for _ in range(repeat):
        t0 = time.perf_counter()
        value = fn()
        best = min(best, time.perf_counter() - t0)
    return best, value


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--quick", action="store_true", help="6 runs x 5 topics x 50 documents")
    ap.add_argument("--runs", type=int, default=100)
    ap.add_argument("--topics", type=int, default=50)
    ap.add_argument("--depth", type=int, default=1000)
    ap.add_argument("--repeat", type=int, default=3)
    a = ap.parse_args(argv)
    if a.quick:
        a.runs, a.topics, a.depth, a.repeat = 6, 5, 50, 1
    import cwlkit

    t0 = time.perf_counter()
    qrels_df, runs_df = make_data(a.runs, a.topics, a.depth)
    qrels = cwlkit.as_qrels(qrels_df)
    runs = {n: cwlkit.as_run(df) for n, df in runs_df.items()}
    made = time.perf_counter() - t0
    k = min(100, a.depth)
    cases: list[tuple[str, Callable[[], Any]]] = [
        (f"pool depth (k={k})", lambda: cwlkit.pool(runs, "depth", depth=k)),
        (f"pool rbp (p=0.8, sum, {k} a topic)", lambda: cwlkit.pool(runs, "rbp", depth=k)),
        (f"pool rrf (k=60, {k} a topic)", lambda: cwlkit.pool(runs, "rrf", depth=k)),
        (
            f"pool residual (RBP(p=0.8), {k} a topic)",
            lambda: cwlkit.pool(runs, "residual", measure="RBP(p=0.8)", depth=k),
        ),
        (
            f"pool maxmean (depth-{k} pool, whole)",
            lambda: cwlkit.pool(runs, "maxmean", qrels=qrels, pool_depth=k),
        ),
        (
            f"pool mtf (depth-{k} pool, whole)",
            lambda: cwlkit.pool(runs, "mtf", qrels=qrels, pool_depth=k),
        ),
        (
            "simulate_judging (depth, RBP(p=0.8), budgets 10, 50, 100, all)",
            lambda: cwlkit.simulate_judging(
                qrels, runs, "depth", "RBP(p=0.8)", [10, 50, 100, 10**6]
            ),
        ),
        (
            "compare_runs (two runs, RBO per topic)",
            lambda: cwlkit.compare_runs(runs["run000"], runs["run001"]),
        ),
    ]
    print(
        f"# {a.runs} runs x {a.topics} topics x {a.depth} documents "
        f"({sum(len(r) for r in runs.values()):,} rows; made in {made:.1f} s), best of {a.repeat}, "
        f"python {sys.version.split()[0]}"
    )
    print(f"{'case':<62}  {'wall s':>7}  result")
    results = {}
    for name, fn in cases:
        secs, value = best_of(fn, a.repeat)
        results[name] = value
        what = f"{len(value):,} documents" if hasattr(value, "docs") else ""
        if hasattr(value, "records"):
            r = value.records
            what = f"tau {r[0]['tau']:.3f} at {r[0]['judged']:,} judged ... "
            what += f"{r[-1]['tau']:.3f} at {r[-1]['judged']:,}"
        elif isinstance(value, list):
            what = f"{len(value)} topics"
        print(f"{name:<62}  {secs:7.2f}  {what}")
    # the numbers: every pool of k a topic holds k a topic, the bandits judge the whole
    # depth-k pool, and the full budget gives tau 1
    depth_pool = results[cases[0][0]]
    for name, _ in cases[1:4]:
        assert max(results[name].sizes().values()) == k, name
    for name, _ in cases[4:6]:
        assert len(results[name]) == len(depth_pool), name
    last = results[cases[6][0]].records[-1]
    assert abs(last["tau"] - 1.0) < 1e-12, last
    print(
        "checked: pools of k a topic hold k; the bandits judge the whole depth-k pool; "
        "tau 1 at full budget"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
