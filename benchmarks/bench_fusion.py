"""``cwlkit.fuse`` against ranx 0.3.21's ``fuse``, side by side, from the same pytrec_eval dicts.

    python benchmarks/bench_fusion.py --ranx-python /path/to/ranx-venv/bin/python
    python benchmarks/bench_fusion.py --sizes 5x1000x1000 20x10000x100 --repeat 3
    python benchmarks/bench_fusion.py --sizes 5x100x100 --repeat 1 --condorcet-topics 5  # a try

ranx (and numba) run in a virtualenv of their own (``--ranx-python``; default
``$CWLKIT_RANX_VENV/bin/python``, else the tests' cache ``~/.cache/cwlkit-tests/ranx-venv``),
as a second process that builds the same dicts from the same seed and answers one timing
request at a time, so the two are timed interleaved: per round, each method once in cwlkit,
then once in ranx. ranx is warmed first (one call per method, so that numba's compilation is
excluded; that first call is reported apart). Each call starts from the dicts: cwlkit's
``fuse(dicts, method)``; ranx's ``Run(d)`` per run then ``fuse(runs, method=...)``, and
ranx's fuse alone (runs built beforehand) in its own column. Medians over ``--repeat`` rounds.
Peak memory, two ways (the resident set sampled every 2 ms):

- *fresh*: in a new process per tool and method, which builds the dicts and makes one call on
  3 topics (imports, numba's compile or cache), the growth during one full-size call. This
  is the memory a call needs.
- *again*: the growth during the timed calls above, in processes that already made a call of
  that size. A process keeps the memory its allocator took on earlier calls, so this shows
  what a call needs beyond what the process already holds; ranx's numba dicts reuse it
  (190 MiB again against 1.5-2.3 GiB fresh at 5x1000x1000), numpy's large arrays, mapped
  and unmapped per call, do not.

And each process's peak resident set at the end (the dicts included). min-max
normalisation (ranx's default) for every method. Condorcet is timed on the first
``--condorcet-topics`` topics only (ranx sorts each topic in Python with a comparison
function: about 1.4 s a topic at 5 runs x 1,000 documents).

The synthetic runs: per topic a pool of ``2 x depth`` documents; each run scores every pool
document uniformly at random and keeps its ``depth`` best (so runs overlap by about half).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path

MAKE = """
import numpy as np

def make_runs(n_runs, n_topics, depth, seed=0):
    rng = np.random.default_rng(seed)
    pool = 2 * depth
    names = [f"doc{j}" for j in range(pool)]
    topics = [f"q{t}" for t in range(n_topics)]
    runs = []
    for _ in range(n_runs):
        run = {}
        for t0 in range(0, n_topics, 1000):
            block = rng.random((min(1000, n_topics - t0), pool))
            top = np.argsort(-block, axis=1)[:, :depth]
            vals = np.take_along_axis(block, top, axis=1)
            for i, (ids, vs) in enumerate(zip(top.tolist(), vals.tolist())):
                run[topics[t0 + i]] = {names[k]: v for k, v in zip(ids, vs)}
        runs.append(run)
    return runs
"""

PEAK = '''
import os, threading, time

def rss():
    with open("/proc/self/statm") as fh:
        return int(fh.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")

def measured(call):
    """(seconds, peak RSS growth in MiB) of call()."""
    base = rss()
    peak = [base]
    done = threading.Event()
    def watch():
        while not done.wait(0.002):
            peak[0] = max(peak[0], rss())
    th = threading.Thread(target=watch, daemon=True)
    th.start()
    t0 = time.perf_counter()
    out = call()
    dt = time.perf_counter() - t0
    done.set(); th.join()
    peak[0] = max(peak[0], rss())
    del out
    return dt, (peak[0] - base) / 2**20

def high_water():
    """MiB: this process's peak resident set (VmHWM: unlike getrusage's ru_maxrss, which
    Linux carries over fork and exec, so that a child started by a large process reports
    the parent's peak, it is this program's own)."""
    with open("/proc/self/status") as fh:
        for line in fh:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
'''

SERVER = (
    MAKE
    + PEAK
    + """
import json, sys
from ranx import Run, fuse
n_runs, n_topics, depth = (int(x) for x in sys.argv[1:4])
runs = make_runs(n_runs, n_topics, depth)
print(json.dumps({"ready": True}), flush=True)
built = None
for line in sys.stdin:
    req = json.loads(line)
    if req.get("maxrss"):
        print(json.dumps({"mib": high_water()}))
        sys.stdout.flush()
        continue
    method, params = req["method"], req["params"]
    def full():
        return fuse([Run(d) for d in runs], norm="min-max", method=method, params=params)
    dt, mem = measured(full)
    built = built or [Run(d) for d in runs]
    dt2, mem2 = measured(lambda: fuse(built, norm="min-max", method=method, params=params))
    answer = {"seconds": dt, "mib": mem, "fuse_seconds": dt2, "fuse_mib": mem2}
    print(json.dumps(answer), flush=True)
"""
)

FRESH = (
    MAKE
    + PEAK
    + """
import json, sys
tool, method = sys.argv[1], sys.argv[5]
n_runs, n_topics, depth = (int(x) for x in sys.argv[2:5])
params = json.loads(sys.argv[6])
runs = make_runs(n_runs, n_topics, depth)
small = make_runs(n_runs, 3, 5, seed=1)
if tool == "ranx":
    from ranx import Run, fuse
    def call(rs):
        return fuse([Run(d) for d in rs], norm="min-max", method=method, params=params)
else:
    import cwlkit
    def call(rs):
        return cwlkit.fuse(rs, method, "min-max", **params)
call(small)
dt, mib = measured(lambda: call(runs))
print(json.dumps({"seconds": dt, "mib": mib}))
"""
)

METHODS = {"rrf": {"k": 60}, "wsum": {"weights": None}, "mnz": {}, "bordafuse": {}, "condorcet": {}}


def _ranx_python(given: str | None) -> str:
    if given:
        return given
    venv = os.environ.get("CWLKIT_RANX_VENV") or str(
        Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
        / "cwlkit-tests"
        / "ranx-venv"
    )
    return str(Path(venv) / "bin" / "python")


def _params(method: str, n_runs: int, tool: str) -> dict:
    params = dict(METHODS[method])
    if "weights" in params:
        if tool == "cwlkit":
            del params["weights"]  # (cwlkit's default: all 1, as ranx's given here)
        else:
            params["weights"] = [1.0] * n_runs
    return params


def fresh(size: str, method: str, tool: str, python: str) -> float:
    """MiB: the peak growth of one full-size call in a new process (see the docstring)."""
    n_runs = int(size.split("x")[0])
    params = json.dumps(_params(method, n_runs, tool))
    out = subprocess.run(
        [python, "-c", FRESH, tool, *size.split("x"), method, params],
        capture_output=True,
        text=True,
        check=True,
    )
    return float(json.loads(out.stdout.strip().splitlines()[-1])["mib"])


def bench(size: str, ranx_python: str, repeat: int, methods: list[str]) -> list[dict]:
    import cwlkit

    ns: dict = {}
    exec(MAKE + PEAK, ns)
    n_runs, n_topics, depth = (int(x) for x in size.split("x"))
    server = subprocess.Popen(
        [ranx_python, "-c", SERVER, str(n_runs), str(n_topics), str(depth)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    runs = ns["make_runs"](n_runs, n_topics, depth)
    assert server.stdout is not None and server.stdin is not None
    json.loads(server.stdout.readline())  # ready

    def ranx(method: str) -> dict:
        params = _params(method, n_runs, "ranx")
        server.stdin.write(json.dumps({"method": method, "params": params}) + "\n")
        server.stdin.flush()
        return json.loads(server.stdout.readline())

    def ours(method: str) -> tuple[float, float]:
        params = _params(method, n_runs, "cwlkit")
        return ns["measured"](lambda: cwlkit.fuse(runs, method, "min-max", **params))

    rows = []
    for method in methods:
        first = ranx(method)  # numba compiles (or loads its cache) here
        ours(method)  # (cwlkit's first call: imports)
        mine, theirs = [], []
        for _ in range(repeat):
            mine.append(ours(method))
            theirs.append(ranx(method))
        row = {
            "size": size,
            "method": method,
            "cwlkit_s": statistics.median(m[0] for m in mine),
            "cwlkit_again_mib": max(m[1] for m in mine),
            "ranx_s": statistics.median(t["seconds"] for t in theirs),
            "ranx_again_mib": max(t["mib"] for t in theirs),
            "ranx_fuse_s": statistics.median(t["fuse_seconds"] for t in theirs),
            "ranx_first_s": first["seconds"],
        }
        rows.append(row)
    server.stdin.write(json.dumps({"maxrss": True}) + "\n")
    server.stdin.flush()
    theirs_rss = json.loads(server.stdout.readline())["mib"]
    mine_rss = ns["high_water"]()
    print(
        f"{size:>14} process peak RSS (dicts included): cwlkit {mine_rss:.0f} MiB, "
        f"ranx {theirs_rss:.0f} MiB",
        flush=True,
    )
    server.stdin.close()
    server.wait()
    runs.clear()  # (the fresh processes build their own dicts)
    for row in rows:
        row["cwlkit_mib"] = fresh(size, row["method"], "cwlkit", sys.executable)
        row["ranx_mib"] = fresh(size, row["method"], "ranx", ranx_python)
        print(_line(row), flush=True)
    return rows


HEAD = (
    f"{'size':>14} {'method':>10} {'cwlkit s':>9} {'ranx s':>9} {'ratio':>6} "
    f"{'ranx fuse s':>11} {'ranx 1st s':>10} {'cwlkit MiB':>10} {'ranx MiB':>9} "
    f"{'again: cwlkit':>13} {'ranx':>5}"
)


def _line(r: dict) -> str:
    return (
        f"{r['size']:>14} {r['method']:>10} {r['cwlkit_s']:9.3f} {r['ranx_s']:9.3f} "
        f"{r['ranx_s'] / r['cwlkit_s']:6.1f} {r['ranx_fuse_s']:11.3f} {r['ranx_first_s']:10.3f} "
        f"{r['cwlkit_mib']:10.0f} {r['ranx_mib']:9.0f} "
        f"{r['cwlkit_again_mib']:13.0f} {r['ranx_again_mib']:5.0f}"
    )


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sizes", nargs="+", default=["5x1000x1000", "20x10000x100"])
    ap.add_argument("--methods", nargs="+", default=list(METHODS))
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--ranx-python")
    ap.add_argument("--condorcet-topics", type=int, default=20)
    args = ap.parse_args()
    py = _ranx_python(args.ranx_python)
    print(HEAD, flush=True)
    for size in args.sizes:
        others = [m for m in args.methods if m != "condorcet"]
        if others:
            bench(size, py, args.repeat, others)
        if "condorcet" in args.methods:
            n_runs, n_topics, depth = size.split("x")
            fewer = min(int(n_topics), args.condorcet_topics)
            bench(f"{n_runs}x{fewer}x{depth}", py, args.repeat, ["condorcet"])
    return 0


if __name__ == "__main__":
    _ = (threading, time)
    sys.exit(main())
