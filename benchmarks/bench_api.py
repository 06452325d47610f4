"""The Python API on what Python users hold (issue 22): cwlkit against pytrec_eval and
ir_measures, side by side in one warm process.

    python benchmarks/bench_api.py            # the issue's sizes; a few minutes
    python benchmarks/bench_api.py --quick    # small sizes, few repeats (a smoke test)

Every case times the tools interleaved (A B C A B C ...) and prints medians, because the
machine may be shared: a burst of load then slows every tool alike. Measures: AP, nDCG@10,
P@10 (pytrec_eval's ``map``, ``ndcg_cut.10``, ``P.10``). Timed for each tool:

- dicts: ``cwlkit.evaluate(qrels, run, measures)`` (Evaluator made and run scored) against
  pytrec_eval's ``RelevanceEvaluator(qrels, measures)`` made and ``evaluate(run)``, and
  ir_measures' ``iter_calc`` (per-topic values, listed);
- DataFrames (pandas): cwlkit against ir_measures' ``iter_calc``;
- file paths: cwlkit reading the same data from TREC files;
- repeated calls: an Evaluator (a RelevanceEvaluator) made once, then ``evaluate`` on
  1-topic runs (10,000 calls) and on 50-topic runs; for the 1-topic runs, cwlkit's ranking
  and label lookups alone too (``cwlkit.core.small.rank_topics``: no measure computed, the
  least an exact evaluation does), in the notes;
- cold start: a fresh ``python -c "import cwlkit; cwlkit.evaluate(tiny dicts...)"`` against
  the same with pytrec_eval (interleaved processes, medians), and peak RSS;
- memory: the peak RSS of the 1,000 x 1,000 dict case, each tool in its own process, with
  the RSS of the inputs alone (``resource.getrusage``).

The values are checked too: cwlkit's per-topic AP, nDCG@10 and P@10 must equal pytrec_eval's
exactly (``==``) at every size.
"""

# (the timed lambdas are called within the iteration that makes them)
# ruff: noqa: B023

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

MEASURES = ["AP", "nDCG@10", "P@10"]
TREC = {"map", "ndcg_cut.10", "P.10"}
TREC_NAME = {"AP": "map", "nDCG@10": "ndcg_cut_10", "P@10": "P_10"}
SIZES = [
    ("tiny", 2, 3),
    ("100x100", 100, 100),
    ("1000x1000", 1000, 1000),
    ("10000x100", 10000, 100),
]
QUICK_SIZES = [("tiny", 2, 3), ("20x30", 20, 30), ("50x100", 50, 100)]


def make_data(topics: int, depth: int, seed: int = 0) -> tuple[dict, dict]:
    """pytrec_eval dicts: ``depth`` retrieved documents per topic (scores with 3 decimals, so
    that some tie), about a third of them judged (labels 0..3) plus as many unretrieved
    judged documents."""
    rng = random.Random(seed)
    qrels: dict = {}
    run: dict = {}
    for t in range(topics):
        q = f"q{t}"
        run[q] = {f"d{t}_{i}": round(rng.random(), 3) for i in range(depth)}
        judged = {f"d{t}_{i}": rng.randint(0, 3) for i in range(0, depth, 3)}
        judged.update({f"d{t}_x{i}": rng.randint(0, 3) for i in range(max(1, depth // 3))})
        qrels[q] = judged
    return qrels, run


def frames(qrels: dict, run: dict):
    import pandas as pd

    q = pd.DataFrame(
        [(t, d, r) for t, js in qrels.items() for d, r in js.items()],
        columns=["query_id", "doc_id", "relevance"],
    )
    r = pd.DataFrame(
        [(t, d, s) for t, ds in run.items() for d, s in ds.items()],
        columns=["query_id", "doc_id", "score"],
    )
    return q, r


def write_files(qrels: dict, run: dict, where: Path) -> tuple[str, str]:
    qp, rp = where / "qrels", where / "run"
    qp.write_text("".join(f"{t} 0 {d} {r}\n" for t, js in qrels.items() for d, r in js.items()))
    rp.write_text(
        "".join(
            f"{t} Q0 {d} {i + 1} {s} tag\n"
            for t, ds in run.items()
            for i, (d, s) in enumerate(ds.items())
        )
    )
    return str(qp), str(rp)


def interleaved(tools: dict[str, Callable[[], object]], reps: int) -> dict[str, float]:
    """Median seconds of each tool, called in turn ``reps`` times (after one warm-up)."""
    times: dict[str, list[float]] = {k: [] for k in tools}
    for f in tools.values():
        f()
    for _ in range(reps):
        for k, f in tools.items():
            t0 = time.perf_counter()
            f()
            times[k].append(time.perf_counter() - t0)
    return {k: statistics.median(v) for k, v in times.items()}


def reps_for(rows: int, quick: bool) -> int:
    if quick:
        return 3
    return 300 if rows < 100 else 30 if rows <= 10_000 else 5


def fmt(s: float | None) -> str:
    if s is None:
        return ""
    return f"{s * 1e3:.3f} ms" if s < 0.01 else f"{s * 1e3:.1f} ms" if s < 1 else f"{s:.2f} s"


def check_equal(qrels: dict, run: dict) -> str:
    """'exact' when cwlkit's per-topic values equal pytrec_eval's, else the first mismatch."""
    import pytrec_eval

    import cwlkit

    res = cwlkit.evaluate(qrels, run, MEASURES)
    ref = pytrec_eval.RelevanceEvaluator(qrels, TREC).evaluate(run)
    for i, m in enumerate(res.measures):
        for j, t in enumerate(res.topics):
            a, b = float(res.values[i, j]), ref[t][TREC_NAME[m]]
            if a != b:
                return f"{m} topic {t}: cwlkit {a!r} != pytrec_eval {b!r}"
    if set(res.topics) != set(ref):
        return "different topics"
    return "exact"


def bench_sizes(sizes, quick: bool, rows_out: list) -> None:
    import ir_measures
    import pytrec_eval

    import cwlkit

    irm = [ir_measures.AP, ir_measures.nDCG @ 10, ir_measures.P @ 10]
    for label, T, D in sizes:
        qrels, run = make_data(T, D)
        reps = reps_for(T * D, quick)
        got = interleaved(
            {
                "cwlkit": lambda: cwlkit.evaluate(qrels, run, MEASURES),
                "pytrec_eval": lambda: pytrec_eval.RelevanceEvaluator(qrels, TREC).evaluate(run),
                "ir_measures": lambda: list(ir_measures.iter_calc(irm, qrels, run)),
            },
            reps,
        )
        rows_out.append((label, "dicts", got, check_equal(qrels, run)))
        qdf, rdf = frames(qrels, run)
        got = interleaved(
            {
                "cwlkit": lambda: cwlkit.evaluate(qdf, rdf, MEASURES),
                "ir_measures": lambda: list(ir_measures.iter_calc(irm, qdf, rdf)),
            },
            reps,
        )
        rows_out.append((label, "pandas", got, ""))
        with tempfile.TemporaryDirectory() as tmp:
            qp, rp = write_files(qrels, run, Path(tmp))
            got = interleaved(
                {
                    "cwlkit": lambda: cwlkit.evaluate(qp, rp, MEASURES),
                    "pytrec_eval": lambda: pytrec_eval.RelevanceEvaluator(
                        *_read_pytrec(qp, rp, qrels_only=True), TREC
                    ).evaluate(_read_pytrec(qp, rp, qrels_only=False)[0]),
                },
                reps,
            )
        rows_out.append((label, "file paths", got, ""))


def _read_pytrec(qp: str, rp: str, *, qrels_only: bool) -> tuple[dict]:
    """pytrec_eval's own readers (its parse_qrel / parse_run), for the file-path case."""
    import pytrec_eval

    if qrels_only:
        with open(qp) as f:
            return (pytrec_eval.parse_qrel(f),)
    with open(rp) as f:
        return (pytrec_eval.parse_run(f),)


def bench_repeated(quick: bool, rows_out: list) -> None:
    import pytrec_eval

    import cwlkit
    from cwlkit.core.small import rank_topics

    qrels, run = make_data(100, 100, seed=1)
    for topics, calls in ((1, 200 if quick else 10_000), (50, 20 if quick else 1_000)):
        names = list(run)
        runs = [{t: run[t] for t in names[i : i + topics]} for i in range(0, 100, topics)]
        ev = cwlkit.Evaluator(qrels, MEASURES)
        pe = pytrec_eval.RelevanceEvaluator(qrels, TREC)

        def loop(f, n=calls, runs=runs):
            for i in range(n):
                f(runs[i % len(runs)])

        tools = {"cwlkit": lambda: loop(ev.evaluate), "pytrec_eval": lambda: loop(pe.evaluate)}
        if topics == 1:  # the least an exact evaluation does: rank, look the labels up
            tools["ranking"] = lambda: loop(partial(rank_topics, ev.plan.grouped_qrels()))
        got = interleaved(tools, 3)
        floor = got.pop("ranking", None)
        note = "" if floor is None else f"of which ranking and label lookups {fmt(floor)}"
        rows_out.append((f"{calls:,} calls, {topics}-topic runs", "Evaluator.evaluate", got, note))


TINY = (
    "q={'q1':{'d1':1,'d2':0,'d3':2},'q2':{'d1':0,'d2':1}};"
    "r={'q1':{'d1':0.5,'d2':0.4,'d3':0.3},'q2':{'d1':1.0,'d2':0.2,'d3':0.1}};"
)
HWM = (
    ";import sys;sys.stderr.write([x for x in open('/proc/self/status') "
    "if x.startswith('VmHWM')][0].split()[1])"
)
COLD = {
    "cwlkit": "import cwlkit;" + TINY + "cwlkit.evaluate(q, r, ['AP', 'nDCG@10', 'P@10'])" + HWM,
    "pytrec_eval": "import pytrec_eval;"
    + TINY
    + "pytrec_eval.RelevanceEvaluator(q, {'map', 'ndcg_cut.10', 'P.10'}).evaluate(r)"
    + HWM,
}


def _env() -> dict:
    src = str(Path(__file__).resolve().parent.parent / "src")
    return {**os.environ, "PYTHONPATH": src + os.pathsep + os.environ.get("PYTHONPATH", "")}


def _process(code: str) -> tuple[float, float]:
    """(wall seconds, peak RSS MiB: the VmHWM the process writes on stderr at its end) of
    ``python -c code`` in a fresh process."""
    t0 = time.perf_counter()
    p = subprocess.run([sys.executable, "-c", code], env=_env(), capture_output=True, text=True)
    wall = time.perf_counter() - t0
    if p.returncode != 0:
        raise SystemExit(f"failed: {code}\n{p.stderr}")
    return wall, int(p.stderr.strip()) / 1024.0


def bench_cold(quick: bool, rows_out: list) -> None:
    from _timing import compile_cwlkit

    compile_cwlkit()  # (as an installed package is: byte-compiled)
    walls: dict[str, list[float]] = {k: [] for k in COLD}
    rss: dict[str, list[float]] = {k: [] for k in COLD}
    for _ in range(3 if quick else 15):
        for k, code in COLD.items():
            w, r = _process(code)
            walls[k].append(w)
            rss[k].append(r)
    got = {k: statistics.median(v) for k, v in walls.items()}
    note = ", ".join(f"{k} {statistics.median(v):.0f} MiB" for k, v in rss.items())
    rows_out.append(("tiny, fresh interpreter", "cold start", got, "peak RSS " + note))


MEMORY = """
import json, sys
sys.path.insert(0, {bench!r})
from bench_api import make_data
qrels, run = make_data({T}, {D})
def hwm():  # (VmHWM: this process's peak RSS; ru_maxrss would include the parent's at fork)
    with open("/proc/self/status") as f:
        return next(int(x.split()[1]) for x in f if x.startswith("VmHWM")) / 1024
inputs = hwm()
if {tool!r} == "cwlkit":
    import cwlkit
    cwlkit.evaluate(qrels, run, ["AP", "nDCG@10", "P@10"])
else:
    import pytrec_eval
    pytrec_eval.RelevanceEvaluator(qrels, {{"map", "ndcg_cut.10", "P.10"}}).evaluate(run)
peak = hwm()
print(json.dumps([inputs, peak]))
"""


def bench_memory(quick: bool, rows_out: list) -> None:
    T, D = (50, 100) if quick else (1000, 1000)
    bench = str(Path(__file__).resolve().parent)
    out = {}
    for tool in ("cwlkit", "pytrec_eval"):
        code = MEMORY.format(bench=bench, T=T, D=D, tool=tool)
        p = subprocess.run(
            [sys.executable, "-c", code], env=_env(), capture_output=True, text=True, check=True
        )
        out[tool] = json.loads(p.stdout)
    note = "; ".join(f"{k}: inputs {a:.0f} MiB, peak {b:.0f} MiB" for k, (a, b) in out.items())
    rows_out.append((f"{T}x{D}, dicts", "peak RSS", {}, note))


def table(rows: list) -> str:
    tools = ["cwlkit", "pytrec_eval", "ir_measures"]
    lines = [
        "| size | input | cwlkit | pytrec_eval | ir_measures | pytrec_eval / cwlkit "
        "| ir_measures / cwlkit | notes |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for size, kind, got, note in rows:
        c = got.get("cwlkit")
        ratios = [f"{got[k] / c:.2f}x" if c and got.get(k) is not None else "" for k in tools[1:]]
        cells = [fmt(got.get(k)) for k in tools]
        lines.append(f"| {size} | {kind} | " + " | ".join(cells + ratios) + f" | {note} |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="small sizes, few repeats")
    args = ap.parse_args(argv)
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    rows: list = []
    load0 = os.getloadavg()[0]
    bench_sizes(QUICK_SIZES if args.quick else SIZES, args.quick, rows)
    bench_repeated(args.quick, rows)
    bench_cold(args.quick, rows)
    bench_memory(args.quick, rows)
    load1 = os.getloadavg()[0]
    print(
        f"# medians of interleaved runs; python {sys.version.split()[0]}, {os.cpu_count()} "
        f"CPUs, load average before {load0:.2f}, after {load1:.2f}"
    )
    print(table(rows))
    bad = [r for r in rows if r[1] == "dicts" and r[3] != "exact"]
    if bad:
        print("values differ from pytrec_eval:", *(f"{r[0]}: {r[3]}" for r in bad), sep="\n")
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
