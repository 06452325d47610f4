"""cwlkit's pools against trectools' ``TrecPoolMaker`` on the Web 2012 runs, side by side.

    python benchmarks/bench_pool_trectools.py                 # the 8 runs of data/web2012
    python benchmarks/bench_pool_trectools.py --venv DIR      # trectools' virtualenv

trectools pins numpy < 2, so it runs in a virtualenv of its own (``--venv``, else
``$CWLKIT_REFS_VENV``, else ``~/.cache/cwlkit-tests/refs-venv``: the one the tests build),
called as a subprocess that reads the runs, then times ``make_pool``; cwlkit reads the same
files with ``read_run``, then times ``cwlkit.pool``. Both time the pooling of runs already in
memory, best of ``--repeat``, the two tools alternating (A B A B). Strategies: trectools'
topX (cwlkit ``depth``), rbp (p = 0.8, sum) and rrf (k = 60), 100 documents a topic. The
pool sizes are printed next to the times (they differ only by documents tied at a cut:
trectools orders ties by document id ascending, cwlkit as trec_eval, descending).
"""

from __future__ import annotations

import argparse
import glob
import json
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
RUNS = ROOT / "data" / "web2012" / "runs"
#: (trectools' strategy, cwlkit's)
CASES = (("topX", "depth"), ("rbp", "rbp"), ("rrf", "rrf"))

TRECTOOLS = """
import glob, json, sys, time
from trectools import TrecRun, TrecPoolMaker
folder, depth, repeat = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
runs = [TrecRun(p) for p in sorted(glob.glob(folder + "/*.run*"))]
out = {}
for strategy in ("topX", "rbp", "rrf"):
    best, size = float("inf"), 0
    for _ in range(repeat):
        t = time.perf_counter()
        pool = TrecPoolMaker().make_pool(runs, strategy=strategy, topX=depth, rbp_p=0.8)
        best = min(best, time.perf_counter() - t)
        size = sum(len(v) for v in pool.pool.values())
    out[strategy] = [best, size]
print(json.dumps(out))
"""


def cwlkit_times(folder: Path, depth: int, repeat: int) -> dict[str, list[float]]:
    """{trectools' strategy name: [best seconds, pool size]} of cwlkit.pool."""
    import cwlkit
    from cwlkit.io.trec import read_run

    runs = [read_run(p) for p in sorted(glob.glob(str(folder / "*.run*")))]
    out = {}
    for name, strategy in CASES:
        best, size = float("inf"), 0
        kw = {"p": 0.8} if strategy == "rbp" else {}
        for _ in range(repeat):
            t = time.perf_counter()
            pool = cwlkit.pool(runs, strategy, depth=depth, **kw)
            best = min(best, time.perf_counter() - t)
            size = len(pool)
        out[name] = [best, size]
    return out


def trectools_times(python: Path, folder: Path, depth: int, repeat: int) -> dict[str, list]:
    """The same from trectools, in its virtualenv."""
    args = [str(python), "-c", TRECTOOLS, str(folder), str(depth), str(repeat)]
    got = subprocess.run(args, capture_output=True, text=True, check=True)
    return json.loads(got.stdout.strip().splitlines()[-1])


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--venv", help="trectools' virtualenv")
    ap.add_argument("--runs", default=str(RUNS), help="a folder of TREC runs (*.run, *.run.gz)")
    ap.add_argument("--depth", type=int, default=100, help="documents a topic (100)")
    ap.add_argument("--repeat", type=int, default=3, help="timings per case, best kept (3)")
    ap.add_argument("--rounds", type=int, default=2, help="A B rounds (2)")
    args = ap.parse_args(argv)
    cache = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    venv = Path(args.venv or os.environ.get("CWLKIT_REFS_VENV") or cache / "cwlkit-tests/refs-venv")
    python = venv / "bin" / "python"
    if not python.exists():
        print(f"no trectools virtualenv at {venv} (run the tests once, or give --venv)")
        return 1
    folder = Path(args.runs)
    ours: list[dict] = []
    theirs: list[dict] = []
    for _ in range(args.rounds):  # A B A B
        theirs.append(trectools_times(python, folder, args.depth, args.repeat))
        ours.append(cwlkit_times(folder, args.depth, args.repeat))
    print(f"# {len(glob.glob(str(folder / '*.run*')))} runs of {folder}, {args.depth} a topic")
    print("| strategy | cwlkit s | trectools s | trectools / cwlkit | pool sizes |")
    print("|---|---|---|---|---|")
    for name, strategy in CASES:
        a = min(r[name][0] for r in ours)
        b = min(r[name][0] for r in theirs)
        sizes = f"{ours[0][name][1]:,} / {theirs[0][name][1]:,}"
        print(f"| {name} ({strategy}) | {a:.3f} | {b:.3f} | {b / a:.1f}x | {sizes} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
