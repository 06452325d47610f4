#!/usr/bin/env python3
"""One big run in topic chunks over processes: ``cwlkit evaluate --chunk-topics N -j 1``
against ``-j 2`` (the buckets of the streamed run scored by one process, or two).

usage: python benchmarks/bench_chunk_jobs.py [--qrels bench-data/b100kx100.qrels]
           [--run bench-data/b100kx100.run] [--chunk-topics 10000] [--repeat 3]
           [--measures 'P@10 AP nDCG@10 RR R-Prec']

The files are those of ``make_bench.py`` (``bench-data/b100kx100.*``: 100,000 topics, 100
documents each, 10M run lines, 20M qrels lines). The cases are timed interleaved (A B A B
...) ``--repeat`` rounds, after a first round that checks that both print the same bytes.
For each case: the median and smallest wall time, the largest peak RSS of one process
(``ru_maxrss``) and the largest sum of the proportional set sizes (PSS: a page shared by
``k`` processes counts ``1/k`` in each) of the process and its children, sampled every
50 ms. The load average is printed with the results: the machine may be shared.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def _tree(pid: int) -> list[int]:
    """``pid`` and its descendants (from /proc/PID/task/*/children)."""
    out, todo = [], [pid]
    while todo:
        p = todo.pop()
        out.append(p)
        for task in Path(f"/proc/{p}/task").glob("*/children"):
            try:
                todo += [int(c) for c in task.read_text().split()]
            except OSError:
                pass
    return out


def _pss_kib(pid: int) -> int:
    try:
        for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
            if line.startswith("Pss:"):
                return int(line.split()[1])
    except (OSError, ValueError):
        pass
    return 0


def timed(cmd: list[str]) -> tuple[float, float, float, bytes]:
    """Run ``cmd``; (wall s, peak RSS MiB of one process, peak PSS MiB of the tree, stdout)."""
    with open(os.devnull, "wb") as null, tempfile.TemporaryFile() as out:
        t0 = time.perf_counter()
        p = subprocess.Popen(cmd, stdout=out, stderr=null)
        pss = 0
        while True:
            pid, status, usage = os.wait4(p.pid, os.WNOHANG)
            if pid:
                break
            pss = max(pss, sum(_pss_kib(q) for q in _tree(p.pid)))
            time.sleep(0.05)
        wall = time.perf_counter() - t0
        p.returncode = os.waitstatus_to_exitcode(status)
        if p.returncode != 0:
            raise SystemExit(f"{' '.join(cmd)} failed ({p.returncode})")
        out.seek(0)
        return wall, usage.ru_maxrss / 1024.0, pss / 1024.0, out.read()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--qrels", default=str(REPO / "bench-data" / "b100kx100.qrels"))
    ap.add_argument("--run", default=str(REPO / "bench-data" / "b100kx100.run"))
    ap.add_argument("--chunk-topics", default="10000")
    ap.add_argument("--measures", default="P@10 AP nDCG@10 RR R-Prec")
    ap.add_argument("--repeat", type=int, default=3)
    a = ap.parse_args()
    base = [sys.executable, "-m", "cwlkit", "evaluate", a.qrels, a.run, "-m", a.measures]
    base += ["--chunk-topics", a.chunk_topics, "--quiet"]
    cases = {f"-j {j}": [*base, "-j", str(j)] for j in (1, 2)}
    load0 = os.getloadavg()[0]
    outs = {name: timed(cmd)[3] for name, cmd in cases.items()}
    if len(set(outs.values())) != 1:
        raise SystemExit("the outputs differ")
    got: dict[str, list[tuple[float, float, float]]] = {name: [] for name in cases}
    for _ in range(a.repeat):
        for name, cmd in cases.items():
            got[name].append(timed(cmd)[:3])
    print(
        f"# cwlkit evaluate {Path(a.qrels).name} {Path(a.run).name} -m '{a.measures}' "
        f"--chunk-topics {a.chunk_topics}; median of {a.repeat} (interleaved), "
        f"{os.cpu_count()} CPUs, load average before {load0:.2f}, after {os.getloadavg()[0]:.2f}"
    )
    print(f"{'case':8}{'wall s':>8}{'min s':>8}{'RSS MiB':>9}{'PSS MiB':>9}{'-j 1 / case':>13}")
    ref = statistics.median(w for w, _, _ in got["-j 1"])
    for name, rows in got.items():
        med = statistics.median(w for w, _, _ in rows)
        rss, pss = max(r for _, r, _ in rows), max(p for _, _, p in rows)
        print(
            f"{name:8}{med:8.2f}{min(w for w, _, _ in rows):8.2f}{rss:9.0f}{pss:9.0f}"
            f"{ref / med:12.2f}x"
        )


if __name__ == "__main__":
    main()
