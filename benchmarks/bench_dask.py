#!/usr/bin/env python3
"""Many runs on a Dask cluster: ``Evaluator(client=...).evaluate_many`` on one and on two
local worker processes, against the local ``jobs=1`` (and ``jobs=2``) evaluation.

usage: python benchmarks/bench_dask.py [--runs 100] [--topics 50] [--depth 1000]
                                       [--repeat 3] [--data bench-data]

Data: ``bench-data/many-TxD/`` as ``bench_many_runs.py`` writes it (the qrels of
``make_bench.py TOPICS DEPTH --seed 0`` and the runs of seeds 1..RUNS), written if absent.
Measures: ``P@10 AP nDCG@10 RR R-Prec``. Two ``LocalCluster``s (``processes=True``, one
thread a worker; 1 and 2 workers) are started once, before timing (their start-up time is
printed apart). Each case builds an Evaluator (the qrels read and encoded, and with a client
sent to the workers) and evaluates every run; the cases are timed interleaved (A B C D, A B
C D, ...) for ``--repeat`` rounds and the table shows each case's median wall time. The
first round checks that every case gives the local Results exactly.

The load average is printed with the results: the machine may be shared.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
FIVE = ["P@10", "AP", "nDCG@10", "RR", "R-Prec"]


def evaluate(qrels: Path, runs: list[Path], client=None, jobs: int = 1) -> dict:
    """Every run scored with the five measures; the Results by run name."""
    import cwlkit

    ev = cwlkit.Evaluator(qrels, FIVE, client=client)
    return ev.evaluate_many(runs, jobs=jobs, progress=False)


def same(a: dict, b: dict) -> bool:
    """Whether two ``{name: Results}`` are equal in names, topics and every value."""
    return list(a) == list(b) and all(
        a[k].topics == b[k].topics and np.array_equal(a[k].values, b[k].values, equal_nan=True)
        for k in a
    )


def clusters(sizes: tuple[int, ...], trim: bool = False) -> dict[int, tuple]:
    """A started ``(LocalCluster, Client)`` per number of workers, and the start-up time.

    Unless ``trim``, the workers start without dask's ``MALLOC_TRIM_THRESHOLD_=65536``
    (``distributed.nanny.pre-spawn-environ``): set, it turns off glibc's dynamic mmap
    threshold, so every array of a few hundred kB is mapped and unmapped afresh and its pages
    faulted in again (measured: 100 runs on one worker 2.75 s with it, 1.92 s without).
    """
    import dask
    from distributed import Client, LocalCluster  # (also loads the distributed.* configuration)

    env = dict(dask.config.get("distributed.nanny.pre-spawn-environ"))
    if not trim:
        env.pop("MALLOC_TRIM_THRESHOLD_", None)
    dask.config.set({"distributed.nanny.pre-spawn-environ": env})
    out = {}
    for n in sizes:
        t0 = time.perf_counter()
        cluster = LocalCluster(
            n_workers=n, processes=True, threads_per_worker=1, dashboard_address=":0"
        )
        client = Client(cluster)
        out[n] = (cluster, client, time.perf_counter() - t0)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--runs", type=int, default=100)
    ap.add_argument("--topics", type=int, default=50)
    ap.add_argument("--depth", type=int, default=1000)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument(
        "--dask-trim",
        action="store_true",
        help="keep dask's MALLOC_TRIM_THRESHOLD_=65536 in the workers (slower; see clusters())",
    )
    ap.add_argument("--data", type=Path, default=HERE.parent / "bench-data")
    a = ap.parse_args()
    sys.path.insert(0, str(HERE))
    from bench_many_runs import data

    qrels, runs = data(a.data, a.runs, a.topics, a.depth)
    started = clusters((1, 2), trim=a.dask_trim)
    cases = {
        "local, jobs=1": lambda: evaluate(qrels, runs, jobs=1),
        "local, jobs=2": lambda: evaluate(qrels, runs, jobs=2),
        "dask, 1 worker": lambda: evaluate(qrels, runs, client=started[1][1]),
        "dask, 2 workers": lambda: evaluate(qrels, runs, client=started[2][1]),
    }
    got: dict[str, list[float]] = {name: [] for name in cases}
    load = [os.getloadavg()]
    reference = None
    for _ in range(a.repeat):
        for name, fn in cases.items():
            t0 = time.perf_counter()
            res = fn()
            got[name].append(time.perf_counter() - t0)
            if reference is None:
                reference = res
            elif len(got[name]) == 1 and not same(res, reference):
                raise SystemExit(f"{name}: Results differ from the local evaluation")
    load.append(os.getloadavg())
    for cluster, client, _ in started.values():
        client.close()
        cluster.close()
    print(
        f"# {a.runs} runs x {a.topics} topics x {a.depth} documents, {' '.join(FIVE)}; median "
        f"of {a.repeat} (interleaved), {os.cpu_count()} CPUs, load average before "
        f"{load[0][0]:.2f}, after {load[1][0]:.2f}; cluster start-up (not timed below): "
        + ", ".join(f"{n} worker(s) {s[2]:.1f} s" for n, s in started.items())
    )
    print(f"{'case':<18} {'wall s':>7} {'min s':>7} {'jobs=1 / case':>14}")
    base = statistics.median(got["local, jobs=1"])
    for name, times in got.items():
        wall = statistics.median(times)
        print(f"{name:<18} {wall:>7.2f} {min(times):>7.2f} {base / wall:>13.2f}x")


if __name__ == "__main__":
    main()
