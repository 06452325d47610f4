#!/usr/bin/env python3
"""Time ``cwlkit cwl`` against cwl_eval 1.0.12 (the ``cwl-eval`` command).

usage: python benchmarks/bench_cwl.py [--topics 1000] [--depth 1000] [--sample 100] [--full]
                                      [--repeat 3] [--prefix PATH]

Data: ``benchmarks/make_bench.py TOPICS DEPTH bench-data/b1k --gains`` (written once,
reused; labels scaled to [0, 1] because cwl_eval rejects larger gains). Cases: cwl_eval's 16
default metrics, and the same with residuals (``-r``). cwlkit runs on every topic, with its
defaults (score order, exact tails) and in cwl_eval's mode (``--order file --max-depth 1000``),
best of ``--repeat`` runs. cwl_eval is slow (about 110 s for 1,000 x 1,000, 260 s with -r), so
by default it runs once on the first ``--sample`` topics and its time is scaled linearly to
all topics (its cost is the same for every topic: it pads or cuts each ranking to 1,000);
``--full`` runs it on every topic. Every tool runs as a separate process in a scratch
directory (cwl_eval writes ``cwl.log`` into its working directory); CPU time (user + system)
and peak RSS are the child's, from ``os.wait4``. On a busy machine wall time includes
waiting for a CPU; CPU time does not.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import sysconfig
import tempfile
from pathlib import Path

from _timing import timed

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
MAKE_BENCH = REPO / "benchmarks" / "make_bench.py"


def make_data(prefix: Path, topics: int, depth: int) -> Path:
    data = prefix.parent
    if not Path(f"{prefix}.gains.qrels").exists() or not Path(f"{prefix}.run").exists():
        data.mkdir(parents=True, exist_ok=True)
        subprocess.run(
            [sys.executable, str(MAKE_BENCH), str(topics), str(depth), str(prefix), "--gains"],
            check=True,
        )
    return prefix


def subset(prefix: Path, n: int) -> Path:
    """The first ``n`` topics of the run (and their qrels), for cwl_eval's sample."""
    out = Path(f"{prefix}.first{n}")
    run_out, qrels_out = Path(f"{out}.run"), Path(f"{out}.gains.qrels")
    if run_out.exists() and qrels_out.exists():
        return out
    keep: list[str] = []
    with open(f"{prefix}.run") as src, open(run_out, "w") as dst:
        for line in src:
            topic = line.split(None, 1)[0]
            if not keep or keep[-1] != topic:
                if len(keep) == n:
                    break
                keep.append(topic)
            dst.write(line)
    wanted = set(keep)
    with open(f"{prefix}.gains.qrels") as src, open(qrels_out, "w") as dst:
        dst.writelines(line for line in src if line.split(None, 1)[0] in wanted)
    return out


def cwl_eval_command() -> list[str]:
    script = Path(sysconfig.get_path("scripts")) / "cwl-eval"
    if not script.exists():
        raise SystemExit("cwl-eval is not installed: pip install cwl-eval==1.0.12")
    return [sys.executable, str(script)]


def main() -> int:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--topics", type=int, default=1000)
    ap.add_argument("--depth", type=int, default=1000)
    ap.add_argument(
        "--sample", type=int, default=100, help="topics cwl_eval runs on (scaled to all)"
    )
    ap.add_argument(
        "--full", action="store_true", help="run cwl_eval on every topic (slow: minutes)"
    )
    ap.add_argument("--repeat", type=int, default=3, help="cwlkit runs per case (the best is kept)")
    ap.add_argument(
        "--prefix",
        type=Path,
        help="data files PREFIX.gains.qrels, PREFIX.run (made if absent); "
        "default bench-data/b1k for 1000 x 1000, else bench-data/bTOPICSxDEPTH",
    )
    a = ap.parse_args()

    name = "b1k" if (a.topics, a.depth) == (1000, 1000) else f"b{a.topics}x{a.depth}"
    prefix = make_data((a.prefix or REPO / "bench-data" / name).resolve(), a.topics, a.depth)
    sample = a.topics if a.full or a.sample >= a.topics else a.sample
    small = prefix if sample == a.topics else subset(prefix, sample)
    cwlkit = [sys.executable, "-m", "cwlkit", "cwl"]
    cases = [("default metrics", []), ("-r (residuals)", ["-r"])]
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        cwd = Path(tmp)
        for case, flags in cases:
            files = [f"{prefix}.gains.qrels", f"{prefix}.run"]
            best = {}
            for label, extra in (
                ("cwlkit cwl", []),
                (
                    "cwlkit cwl --order file --max-depth 1000",
                    ["--order", "file", "--max-depth", "1000"],
                ),
            ):
                runs = [timed([*cwlkit, *files, *flags, *extra], cwd) for _ in range(a.repeat)]
                best[label] = min(runs)
            theirs_wall, theirs_cpu, theirs_rss = timed(
                [*cwl_eval_command(), f"{small}.gains.qrels", f"{small}.run", *flags], cwd
            )
            scale = a.topics / sample
            ref, ref_cpu = theirs_wall * scale, theirs_cpu * scale
            note = "" if scale == 1 else f" ({sample} topics, x{scale:g})"
            for label, (wall, cpu, rss) in best.items():
                rows.append(
                    (label, case, f"{wall:.2f}", f"{cpu:.2f}", f"{rss:.0f}", f"{ref / wall:.0f}x")
                )
            rows.append(
                (
                    "cwl-eval 1.0.12" + note,
                    case,
                    f"{ref:.1f}",
                    f"{ref_cpu:.1f}",
                    f"{theirs_rss:.0f}",
                    "1x",
                )
            )

    print(
        f"# {a.topics} topics x {a.depth} documents ({prefix.name}), cwlkit best of {a.repeat}, "
        f"python {sys.version.split()[0]}, {os.cpu_count()} CPUs"
    )
    head = ("tool", "case", "wall s", "CPU s", "peak RSS MB", "cwl-eval / tool (wall)")
    widths = [max(len(r[i]) for r in [head, *rows]) for i in range(len(head))]
    for r in [head, tuple("-" * w for w in widths), *rows]:
        print(
            "  ".join(
                c.ljust(w) if i < 2 else c.rjust(w)
                for i, (c, w) in enumerate(zip(r, widths, strict=True))
            )
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
