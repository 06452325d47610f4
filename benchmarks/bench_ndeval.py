#!/usr/bin/env python3
"""Time ``cwlkit ndeval`` against ndeval (C) and pyndeval, on the same diversity qrels and run.

usage: python benchmarks/bench_ndeval.py [--topics 200] [--depth 1000] [--repeat 5]
                                          [--data bench-data]

Data (written once into ``--data``, reused): ``div{T}x{D}.qrels``, diversity qrels with 300
judged documents a topic, each judged for every one of the topic's 3..8 subtopics, relevant
(label 1 or 2) with probability 0.12 per subtopic (so about half of the judged documents are
relevant to something, as in the Web Track's); ``div{T}x{D}.run``, D documents a topic with
distinct ranks, scores with two decimals. Fixed seed.

Timed, each as its own process, median of ``--repeat`` runs (wall and CPU time of the whole
process: start-up, parsing, evaluation, output; peak RSS is the child's ``ru_maxrss``):

- ``cwlkit ndeval QRELS RUN > /dev/null``;
- ndeval 4.5 itself: pyndeval builds ndeval.c into its extension module, and its ``main`` is
  called through ctypes with the same command line (stdout to /dev/null);
- pyndeval as its users drive it: the two files parsed in Python into ``SubtopicQrel`` and
  ``ScoredDoc`` lists, ``RelevanceEvaluator(qrels).evaluate(run)`` (ndeval's 21 measures).

Then in one process, inputs already parsed, median of ``--repeat``: cwlkit's
``Evaluator(qrels, 21 measures).evaluate(run)`` against pyndeval's ``evaluate(run)`` on its
lists. ``cwlkit ndeval``'s output is checked to be byte-identical to ndeval's first.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
from _timing import timed

HERE = Path(__file__).resolve().parent
REPO = HERE.parent

NDEVAL = """
import ctypes, sys, _pyndeval
lib = ctypes.CDLL(_pyndeval.__file__)
args = [b"ndeval"] + [a.encode() for a in sys.argv[1:]]
argv = (ctypes.c_char_p * (len(args) + 1))(*args, None)
rc = lib.main(len(args), argv)
ctypes.CDLL(None).fflush(None)
sys.exit(rc)
"""

PYNDEVAL = """
import sys, pyndeval
qrels = []
with open(sys.argv[1]) as f:
    for line in f:
        t, s, d, j = line.split()
        qrels.append(pyndeval.SubtopicQrel(t, s, d, int(j)))
run = []
with open(sys.argv[2]) as f:
    for line in f:
        t, _, d, k, s, _ = line.split()
        run.append(pyndeval.ScoredDoc(t, d, float(s)))
res = pyndeval.RelevanceEvaluator(qrels).evaluate(run)
assert len(res) > 0
"""


def make_data(prefix: Path, topics: int, depth: int, seed: int = 7) -> tuple[Path, Path]:
    """Write (once) the diversity qrels and run described in the module docstring."""
    q, r = Path(f"{prefix}.qrels"), Path(f"{prefix}.run")
    if q.exists() and r.exists():
        return q, r
    prefix.parent.mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(seed)
    pool = 2 * depth
    with open(q, "w") as fq, open(r, "w") as fr:
        for t in range(1, topics + 1):
            judged = rng.choice(pool, size=min(300, pool), replace=False)
            n_sub = int(rng.integers(3, 9))
            rel = rng.random((judged.size, n_sub)) < 0.12
            grade = rng.choice([1, 1, 2], size=rel.shape)
            for i, j in enumerate(judged):
                for s in range(n_sub):
                    fq.write(f"{t} {s + 1} d{t}_{j} {grade[i, s] if rel[i, s] else 0}\n")
            chosen = rng.choice(pool, size=depth, replace=False)
            scores = np.round(rng.normal(size=depth), 2)
            order = np.argsort(-scores, kind="stable")
            for rank, k in enumerate(order, 1):
                fr.write(f"{t} Q0 d{t}_{chosen[k]} {rank} {scores[k]:.2f} bench\n")
    return q, r


def median(cmd: list[str], repeat: int) -> tuple[float, float, float]:
    runs = [timed(cmd) for _ in range(repeat)]
    return (
        statistics.median(r[0] for r in runs),
        statistics.median(r[1] for r in runs),
        max(r[2] for r in runs),
    )


def in_process(q: Path, r: Path, repeat: int) -> tuple[float, float]:
    """Median seconds of the evaluation alone, inputs parsed: (cwlkit, pyndeval)."""
    import pyndeval

    import cwlkit
    from cwlkit.formats.ndeval import ndeval_measures

    dq, run = cwlkit.read_diversity_qrels(q), cwlkit.read_run(r)
    ours = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        cwlkit.Evaluator(dq, ndeval_measures(), order="rank").evaluate(run)
        ours.append(time.perf_counter() - t0)
    with open(q) as f:
        qrels = [pyndeval.SubtopicQrel(*x[:3], int(x[3])) for x in map(str.split, f)]
    with open(r) as f:
        scored = [pyndeval.ScoredDoc(x[0], x[2], float(x[4])) for x in map(str.split, f)]
    ev = pyndeval.RelevanceEvaluator(qrels)
    theirs = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        ev.evaluate(scored)
        theirs.append(time.perf_counter() - t0)
    return statistics.median(ours), statistics.median(theirs)


def main() -> None:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--topics", type=int, default=200)
    ap.add_argument("--depth", type=int, default=1000)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--data", type=Path, default=REPO / "bench-data")
    a = ap.parse_args()
    q, r = make_data(a.data / f"div{a.topics}x{a.depth}", a.topics, a.depth)
    cwlkit = [sys.executable, "-m", "cwlkit", "ndeval", str(q), str(r)]
    ndeval = [sys.executable, "-c", NDEVAL, str(q), str(r)]
    want = subprocess.run(ndeval, capture_output=True, check=True).stdout
    got = subprocess.run(cwlkit, capture_output=True, check=True).stdout
    if got != want:
        raise SystemExit("cwlkit ndeval's output differs from ndeval's")
    print(f"# {a.topics} topics x {a.depth} documents, median of {a.repeat}; outputs identical")
    print(f"{'tool':<44} {'wall s':>7} {'CPU s':>6} {'peak MiB':>9} {'tool / cwlkit':>14}")
    ours = median(cwlkit, a.repeat)
    rows = [
        ("cwlkit ndeval", ours),
        ("ndeval 4.5 (C, pyndeval's build)", median(ndeval, a.repeat)),
        (
            "pyndeval (files parsed in Python)",
            median([sys.executable, "-c", PYNDEVAL, str(q), str(r)], a.repeat),
        ),
    ]
    for name, (wall, cpu, rss) in rows:
        ratio = wall / ours[0]
        print(f"{name:<44} {wall:>7.2f} {cpu:>6.2f} {rss:>9.0f} {ratio:>13.2f}x", flush=True)
    mine, theirs = in_process(q, r, a.repeat)
    print(f"{'in-process, parsed inputs: cwlkit Evaluator':<44} {mine:>7.3f}")
    print(
        f"{'in-process, parsed inputs: pyndeval evaluate':<44} {theirs:>7.3f} {'':>16} "
        f"{theirs / mine:>13.2f}x"
    )


if __name__ == "__main__":
    main()
