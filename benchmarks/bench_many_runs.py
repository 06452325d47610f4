#!/usr/bin/env python3
"""Many runs against one qrels: cwlkit (qrels read once, runs streamed, ``--jobs``) against a
shell loop of the trec_eval C program over the same runs.

usage: python benchmarks/bench_many_runs.py --trec-eval PATH [--runs 100] [--topics 50]
                                            [--depth 1000] [--repeat 3] [--data bench-data]

Data (written once into ``bench-data/many-TxD/``, reused): the qrels of
``make_bench.py TOPICS DEPTH --seed 0`` and the runs of seeds 1..RUNS (the same documents
ids, so about a quarter of each run is judged). Cases, each a process of its own, timed
interleaved (A B A B ...) ``--repeat`` rounds; the table shows each case's median wall time
and its largest peak RSS (``ru_maxrss`` of the process and its children):

- ``C loop``: ``for r in RUNS; do trec_eval -m P.10 -m map -m ndcg_cut.10 -m recip_rank
  -m Rprec QRELS $r; done`` (five measures);
- ``cwlkit evaluate QRELS RUNS -m 'P@10 AP nDCG@10 RR R-Prec' -j N`` for N = 1 and 2;
- ``cwlkit trec_eval`` with the same five trec_eval measures and all the runs, ``-j`` 1 and 2
  (same output as the C loop, byte for byte: checked first);
- ``cwlkit trec_eval -q -m all_trec`` with all the runs against the C loop with the same
  arguments.

The load average is printed with the results: the machine may be shared.
"""

from __future__ import annotations

import argparse
import os
import shlex
import statistics
import subprocess
import sys
from pathlib import Path

from _timing import timed

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
MAKE_BENCH = REPO / "benchmarks" / "make_bench.py"
FIVE_C = ["-m", "P.10", "-m", "map", "-m", "ndcg_cut.10", "-m", "recip_rank", "-m", "Rprec"]
FIVE = "P@10 AP nDCG@10 RR R-Prec"


def data(root: Path, runs: int, topics: int, depth: int) -> tuple[Path, list[Path]]:
    d = root / f"many-{topics}x{depth}"
    d.mkdir(parents=True, exist_ok=True)
    qrels = d / "qrels"
    paths = [d / f"run{k:03d}" for k in range(1, runs + 1)]
    for k, p in [(0, qrels), *enumerate(paths, 1)]:
        if p.exists():
            continue
        tmp = d / f"tmp{k}"
        subprocess.run(
            [sys.executable, str(MAKE_BENCH), str(topics), str(depth), str(tmp), "--seed", str(k)],
            check=True,
            stdout=subprocess.DEVNULL,
        )
        Path(f"{tmp}.qrels" if k == 0 else f"{tmp}.run").rename(p)
        for extra in d.glob(f"tmp{k}.*"):
            extra.unlink()
    return qrels, paths


def shell_loop(binary: str, args: list[str], qrels: Path, runs: list[Path]) -> list[str]:
    body = " ".join(shlex.quote(a) for a in [binary, *args, str(qrels)])
    files = " ".join(shlex.quote(str(r)) for r in runs)
    return ["sh", "-c", f'for r in {files}; do {body} "$r"; done']


def main() -> None:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--trec-eval", required=True, help="path of a trec_eval binary")
    ap.add_argument("--runs", type=int, default=100)
    ap.add_argument("--topics", type=int, default=50)
    ap.add_argument("--depth", type=int, default=1000)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--data", type=Path, default=REPO / "bench-data")
    a = ap.parse_args()
    qrels, runs = data(a.data, a.runs, a.topics, a.depth)
    rs = [str(r) for r in runs]
    py = [sys.executable, "-m", "cwlkit"]
    ours_te = [*py, "trec_eval", *FIVE_C, str(qrels), *rs]
    check = subprocess.run([*ours_te, "-j", "2"], capture_output=True, text=True, check=True)
    peer = shell_loop(a.trec_eval, FIVE_C, qrels, runs)
    expected = subprocess.run(peer, capture_output=True, text=True, check=True).stdout
    if check.stdout != expected:
        raise SystemExit("cwlkit trec_eval's output differs from the C program's")
    cases = [
        ("C loop, 5 measures", peer),
        ("cwlkit evaluate -j 1", [*py, "evaluate", str(qrels), *rs, "-m", FIVE, "-j", "1"]),
        ("cwlkit evaluate -j 2", [*py, "evaluate", str(qrels), *rs, "-m", FIVE, "-j", "2"]),
        ("cwlkit trec_eval -j 1", [*ours_te, "-j", "1"]),
        ("cwlkit trec_eval -j 2", [*ours_te, "-j", "2"]),
        ("C loop, -q all_trec", shell_loop(a.trec_eval, ["-q", "-m", "all_trec"], qrels, runs)),
        (
            "cwlkit trec_eval -q all_trec -j 1",
            [*py, "trec_eval", "-q", "-m", "all_trec", str(qrels), *rs, "-j", "1"],
        ),  # noqa: E501
        (
            "cwlkit trec_eval -q all_trec -j 2",
            [*py, "trec_eval", "-q", "-m", "all_trec", str(qrels), *rs, "-j", "2"],
        ),  # noqa: E501
    ]
    got: dict[str, list[tuple[float, float]]] = {name: [] for name, _ in cases}
    load = [os.getloadavg()]
    for _ in range(a.repeat):
        for name, cmd in cases:
            t = timed(cmd)
            got[name].append((t.wall, t.rss))
    load.append(os.getloadavg())
    print(
        f"# {a.runs} runs x {a.topics} topics x {a.depth} documents, median of {a.repeat} "
        f"(interleaved), {os.cpu_count()} CPUs, load average before {load[0][0]:.2f}, "
        f"after {load[1][0]:.2f}"
    )
    print(f"{'case':<36} {'wall s':>7} {'peak MiB':>9} {'C / case':>9}")
    base = {"5": statistics.median(t for t, _ in got[cases[0][0]])}
    base["q"] = statistics.median(t for t, _ in got["C loop, -q all_trec"])
    for name, _ in cases:
        wall = statistics.median(t for t, _ in got[name])
        ref = base["q"] if "all_trec" in name else base["5"]
        rss = max(m for _, m in got[name])
        print(f"{name:<36} {wall:>7.2f} {rss:>9.0f} {ref / wall:>8.2f}x")


if __name__ == "__main__":
    main()
