#!/usr/bin/env python3
"""Time ``cwlkit trec_eval -q -m all_trec`` against trec_eval as pytrec_eval runs it.

usage: python benchmarks/bench_trec_eval.py [--sizes 1000 10000] [--depth 1000] [--repeat 3]
                                            [--data bench-data] [--skip-peer-above N]
                                            [--trec-eval PATH] [--chunk-topics N ...]
                                            [--no-pytrec] [--check] [--all-topics]

Data: ``benchmarks/make_bench.py TOPICS DEPTH bench-data/bNk`` (written once, reused):
graded labels 0..3, about 300 judged documents a topic, scores with two decimals (many
ties). Each tool runs as its own process; the time is the wall time of the whole process
(start-up, parsing, evaluation, output) and the peak RSS is the child's ``ru_maxrss``. The
cases of one size run interleaved (A B C A B C ...) ``--repeat`` rounds; the table shows each
case's median wall time and largest peak RSS, and the load average before and after.

- cwlkit: ``cwlkit trec_eval -q -m all_trec QRELS RUN > /dev/null`` (9.0.8 semantics; its
  default ``--chunk-topics auto`` streams a run file over 64 MB, reads a smaller one whole).
- pytrec_eval (pytrec-eval-terrier 0.5.11, the trec_eval 9.0.8 C code behind a Python
  binding), driven as its users drive it: ``pytrec_eval.parse_qrel`` / ``parse_run`` on the
  open files, ``RelevanceEvaluator(qrels, all_trec measures).evaluate(run)``; no printing.
- ``cwlkit trec_eval --chunk-topics N`` for each N of ``--chunk-topics`` (topic chunks, or
  ``none``: read whole; same output). ``--check`` first compares the outputs of every
  cwlkit case and the C program, byte for byte.
- ``--all-topics``: cwlkit and the C program with ``-c`` as well (pytrec_eval has no -c).
- The trec_eval C program itself, with ``--trec-eval PATH`` (same command line as cwlkit).
  pytrec-eval-terrier's sdist does not contain trec_eval's sources (its build downloads
  them), so build trec_eval 9.0.8 from its public sources with its own Makefile; the
  numbers in benchmarks/README.md come from such a build, checked against trec_eval's own
  test cases.

Run from the repository root; the machine should be otherwise idle for meaningful numbers.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path

from _timing import timed

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
MAKE_BENCH = REPO / "benchmarks" / "make_bench.py"

PYTREC = """
import sys, pytrec_eval
with open(sys.argv[1]) as f:
    qrels = pytrec_eval.parse_qrel(f)
with open(sys.argv[2]) as f:
    run = pytrec_eval.parse_run(f)
measures = pytrec_eval.supported_nicknames["all_trec"]
res = pytrec_eval.RelevanceEvaluator(qrels, measures).evaluate(run)
assert len(res) > 0
"""


def interleaved(cases: list[tuple[str, list[str]]], repeat: int) -> dict[str, tuple[float, float]]:
    """{case: (median wall s, largest peak RSS MiB)} over ``repeat`` interleaved rounds."""
    import statistics

    got: dict[str, list[tuple[float, float]]] = {name: [] for name, _ in cases}
    for _ in range(repeat):
        for name, cmd in cases:
            t = timed(cmd)
            got[name].append((t.wall, t.rss))
    return {k: (statistics.median(w for w, _ in v), max(m for _, m in v)) for k, v in got.items()}


def same_output(cases: list[tuple[str, list[str]]]) -> None:
    import hashlib

    seen = {}
    for name, cmd in cases:
        out = subprocess.run(cmd, capture_output=True, check=True).stdout
        seen[name] = hashlib.sha256(out).hexdigest()
    if len(set(seen.values())) != 1:
        raise SystemExit(f"outputs differ: {seen}")
    print(f"# outputs identical: {', '.join(seen)}", flush=True)


def data(prefix: Path, topics: int, depth: int) -> tuple[Path, Path]:
    q, r = Path(f"{prefix}.qrels"), Path(f"{prefix}.run")
    if not (q.exists() and r.exists()):
        prefix.parent.mkdir(parents=True, exist_ok=True)
        subprocess.run(
            [sys.executable, str(MAKE_BENCH), str(topics), str(depth), str(prefix)], check=True
        )
    return q, r


def main() -> None:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--sizes", type=int, nargs="+", default=[1000, 10000])
    ap.add_argument("--depth", type=int, default=1000)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--data", type=Path, default=REPO / "bench-data")
    ap.add_argument(
        "--skip-peer-above",
        type=int,
        default=None,
        help="don't run the peers above this many topics",
    )
    ap.add_argument("--trec-eval", default=None, help="path of a trec_eval binary to time as well")
    ap.add_argument(
        "--chunk-topics", nargs="*", default=[], help="cwlkit chunk sizes (N, auto or none)"
    )
    ap.add_argument("--no-pytrec", action="store_true", help="don't run pytrec_eval")
    ap.add_argument("--check", action="store_true", help="compare the outputs first")
    ap.add_argument("--all-topics", action="store_true", help="cwlkit and trec_eval with -c")
    a = ap.parse_args()
    flags = ["-q", "-m", "all_trec", *(["-c"] if a.all_topics else [])]
    cwlkit = [sys.executable, "-m", "cwlkit", "trec_eval", *flags]
    print(f"# {os.cpu_count()} CPUs, python {sys.version.split()[0]}, median of {a.repeat}")
    print(f"{'topics':>7} {'depth':>5} {'tool':<28} {'wall s':>8} {'peak MiB':>9} {'ratio':>7}")
    for n in a.sizes:
        name = f"b{n // 1000}k" if a.depth == 1000 else f"b{n // 1000}kx{a.depth}"
        q, r = data(a.data / name, n, a.depth)
        cases = [("cwlkit", [*cwlkit, str(q), str(r)])]
        for c in a.chunk_topics:
            cases.append(
                (f"cwlkit --chunk-topics {c}", [*cwlkit, "--chunk-topics", str(c), str(q), str(r)])
            )
        if a.skip_peer_above is None or n <= a.skip_peer_above:
            if not (a.no_pytrec or a.all_topics):
                cases.append(("pytrec_eval", [sys.executable, "-c", PYTREC, str(q), str(r)]))
            if a.trec_eval:
                cases.append(("trec_eval", [a.trec_eval, *flags, str(q), str(r)]))
        if a.check:
            same_output([c for c in cases if c[0] != "pytrec_eval"])
        before = os.getloadavg()[0]
        got = interleaved(cases, a.repeat)
        after = os.getloadavg()[0]
        ref = got["trec_eval"][0] if "trec_eval" in got else got["cwlkit"][0]
        for tool, (wall, rss) in got.items():
            print(f"{n:>7} {a.depth:>5} {tool:<28} {wall:>8.2f} {rss:>9.0f} {ref / wall:>7.2f}")
        print(f"# load average before {before:.2f}, after {after:.2f}", flush=True)


if __name__ == "__main__":
    main()
