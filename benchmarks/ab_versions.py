#!/usr/bin/env python3
"""Time the same ``cwlkit`` command lines under two source trees, old (A) and new (B), and
optionally the trec_eval C program (C), interleaved.

usage: python benchmarks/ab_versions.py --old TREE --new TREE [--trec-eval PATH]
           [--cases trec1m trec10m runs100 cwl1k] [--repeat 5] [--check] [--json PATH]
           [--data bench-data] [--chunk-topics N|auto|none] [--trec10m-shape 10000x1000]

Method. A tree is a checkout whose ``src/cwlkit`` is run as
``env PYTHONPATH=TREE/src python -m cwlkit ARGS`` (``python`` being the interpreter that runs
this script), so both trees use the same interpreter and the same installed numpy and pyarrow.
Every command is a process of its own, started from an empty temporary working directory,
stdout to /dev/null. Each case runs ``--repeat`` rounds, one command of each tool a round
(A B C A B C ...), so the tools share the machine's state of those minutes; a case's rounds
all run before the next case. Before timing, one untimed round of every case warms the page
cache and the byte-code cache; with ``--check`` that round also compares the outputs of A, B
and C byte for byte (a difference is reported, the timing goes on, and the exit status is 1).

Byte code: the children run with ``PYTHONPYCACHEPREFIX`` pointing into the temporary
directory (and without ``PYTHONDONTWRITEBYTECODE``), and each tree is byte-compiled there
first, so both run compiled, as an installed package does, without writing into either tree.

Reported per case and tool: the median wall time with the smallest and largest, the median
CPU time (user + system, the process and its children), and the largest peak RSS: the
``ru_maxrss`` from ``wait4`` (``_timing.timed``), which for a process that forks workers or a
shell loop is the largest of the processes of the tree, not their sum. Ratios are B/A (wall
and RSS) and C/B (wall: how much faster than the C program the new tree is). The trees' git
commits are printed, with ``-dirty`` when they have uncommitted changes, and a digest of each
tree's ``src/cwlkit`` before and after the timing flags a tree that changed during the run.

Cases (``--cases``), data in ``--data`` (made with the other scripts' own functions if absent):

- ``trec1m``: ``trec_eval -q -m all_trec QRELS RUN``, 1,000 topics x 1,000 documents
  (``b1k``, as ``bench_trec_eval.py``); C: the same arguments.
- ``trec10m``: the same on 10M run lines: ``b10k`` (10,000 x 1,000) by default, or
  ``--trec10m-shape 100000x100`` (``b100kx100``, the 10M rows of benchmarks/README.md);
  cwlkit's default ``--chunk-topics auto`` streams it; ``--chunk-topics N`` passes that value
  to both trees for this case (the README's ``--chunk-topics`` rows).
- ``runs100``: ``trec_eval -q -m all_trec QRELS RUN1 ... RUN100`` (``many-50x1000``, as
  ``bench_many_runs.py``; cwlkit's default ``-j``: every core); C: a shell loop of the C
  program over the runs, as ``bench_many_runs.py``.
- ``cwl1k``: ``cwl QRELS RUN`` (default metrics) and ``cwl QRELS RUN -r`` on ``b1k`` with
  gains (as ``bench_cwl.py``); no C column.

The machine may be shared: the load average before and after each case is printed.
"""

from __future__ import annotations

import argparse
import filecmp
import hashlib
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import bench_cwl
import bench_many_runs
import bench_trec_eval
from _timing import Timing, timed

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
CASES = ("trec1m", "trec10m", "runs100", "cwl1k")
ALL_TREC = ["-q", "-m", "all_trec"]
TEN_M_SHAPES = {"10000x1000": "b10k", "100000x100": "b100kx100"}


@dataclass(frozen=True)
class Row:
    """One line of the table: cwlkit's arguments (after ``python -m cwlkit``) and the C
    program's command line, if the case has one."""

    case: str
    label: str
    cwlkit: list[str]
    c: list[str] | None


@dataclass
class Tool:
    """A column of the table: a cwlkit tree (``tree`` set) or the C program."""

    key: str
    name: str
    tree: Path | None = None

    def command(self, row: Row, cache: Path) -> list[str] | None:
        """The command line of ``row`` for this tool, or None if it has none."""
        if self.tree is None:
            return row.c
        return [
            "env",
            "-u",
            "PYTHONDONTWRITEBYTECODE",
            f"PYTHONPATH={self.tree / 'src'}",
            f"PYTHONPYCACHEPREFIX={cache}",
            sys.executable,
            "-m",
            "cwlkit",
            *row.cwlkit,
        ]


@dataclass
class Result:
    """The timings of one row under one tool."""

    runs: list[Timing] = field(default_factory=list)

    def summary(self) -> dict[str, float]:
        walls = [t.wall for t in self.runs]
        return {
            "median_s": statistics.median(walls),
            "min_s": min(walls),
            "max_s": max(walls),
            "cpu_median_s": statistics.median(t.cpu for t in self.runs),
            "peak_rss_mib": max(t.rss for t in self.runs),
        }


def rows(cases: list[str], data: Path, shape: str, chunk: str | None, c: str | None) -> list[Row]:
    """The rows of the chosen cases, their data written first if absent."""
    out: list[Row] = []
    for case in cases:
        if case in ("trec1m", "trec10m"):
            if case == "trec1m":
                name, topics, depth = "b1k", 1000, 1000
            else:
                name = TEN_M_SHAPES[shape]
                topics, depth = (int(x) for x in shape.split("x"))
            q, r = bench_trec_eval.data(data / name, topics, depth)
            extra = ["--chunk-topics", chunk] if case == "trec10m" and chunk else []
            label = f"{case} ({' '.join([name, *extra])})"
            files = [str(q), str(r)]
            peer = [c, *ALL_TREC, *files] if c else None
            out.append(Row(case, label, ["trec_eval", *ALL_TREC, *extra, *files], peer))
        elif case == "runs100":
            q, runs = bench_many_runs.data(data, 100, 50, 1000)
            peer = bench_many_runs.shell_loop(c, ALL_TREC, q, runs) if c else None
            args = ["trec_eval", *ALL_TREC, str(q), *map(str, runs)]
            out.append(Row(case, "runs100 (100 x 50 x 1000)", args, peer))
        elif case == "cwl1k":
            prefix = bench_cwl.make_data((data / "b1k").resolve(), 1000, 1000)
            files = [f"{prefix}.gains.qrels", f"{prefix}.run"]
            out.append(Row(case, "cwl1k (b1k, default metrics)", ["cwl", *files], None))
            out.append(Row(case, "cwl1k -r (b1k, residuals)", ["cwl", *files, "-r"], None))
        else:
            raise SystemExit(f"unknown case {case!r}; choose from {', '.join(CASES)}")
    return out


def tree_id(tree: Path) -> str:
    """``git describe --always --dirty`` of ``tree`` (or ``?`` outside git)."""
    got = subprocess.run(
        ["git", "-C", str(tree), "describe", "--always", "--dirty", "--abbrev=10"],
        capture_output=True,
        text=True,
    )
    return got.stdout.strip() or "?"


def tree_digest(tree: Path) -> str:
    """A digest of the paths and contents of the ``.py`` files of ``tree/src/cwlkit``."""
    h = hashlib.sha256()
    for p in sorted((tree / "src" / "cwlkit").rglob("*.py")):
        h.update(str(p.relative_to(tree)).encode() + b"\0" + p.read_bytes() + b"\0")
    return h.hexdigest()[:16]


def compile_tree(tree: Path, cache: Path) -> None:
    """Byte-compile ``tree/src/cwlkit`` into the cache the children read
    (``PYTHONPYCACHEPREFIX``)."""
    env = {**os.environ, "PYTHONPYCACHEPREFIX": str(cache)}
    cmd = [sys.executable, "-m", "compileall", "-q", str(tree / "src" / "cwlkit")]
    subprocess.run(cmd, env=env, check=True, stdout=subprocess.DEVNULL)


def first_difference(a: Path, b: Path) -> str:
    """Where two output files first differ (line number and both lines)."""
    with open(a, "rb") as fa, open(b, "rb") as fb:
        for n, (la, lb) in enumerate(zip(fa, fb, strict=False), 1):
            if la != lb:
                return f"line {n}: {la!r} != {lb!r}"
    return f"one is a prefix of the other ({a.stat().st_size} vs {b.stat().st_size} bytes)"


def warm_up(row: Row, tools: list[Tool], cache: Path, cwd: Path, check: bool) -> str | None:
    """Run every tool once on ``row`` (untimed). With ``check``, compare their stdout byte
    for byte and return a verdict (``"identical (old, new, C)"`` or what differs)."""
    outs: dict[str, Path] = {}
    for tool in tools:
        cmd = tool.command(row, cache)
        if cmd is None:
            continue
        out = cwd / f"out.{tool.key}"
        with open(out if check else os.devnull, "wb") as f:
            got = subprocess.run(cmd, cwd=cwd, stdout=f, stderr=subprocess.PIPE)
        if got.returncode != 0:
            err = got.stderr.decode(errors="replace")[-2000:]
            raise SystemExit(f"{tool.name} failed on {row.label} ({got.returncode}):\n{err}")
        outs[tool.name] = out
    if not check:
        return None
    names = list(outs)
    ref = outs[names[0]]
    bad = [n for n in names[1:] if not filecmp.cmp(ref, outs[n], shallow=False)]
    size = ref.stat().st_size
    verdict = (
        f"identical ({', '.join(names)}; {size:,} bytes)"
        if not bad
        else "; ".join(
            f"{n} differs from {names[0]}: {first_difference(ref, outs[n])}" for n in bad
        )
    )
    for p in outs.values():
        p.unlink()
    return verdict


def interleaved(
    row: Row, tools: list[Tool], cache: Path, cwd: Path, repeat: int
) -> Iterator[tuple[str, Timing]]:
    """``repeat`` rounds of one timed run of each tool, in the order of ``tools``."""
    for _ in range(repeat):
        for tool in tools:
            cmd = tool.command(row, cache)
            if cmd is not None:
                yield tool.key, timed(cmd, cwd)


def cell(s: dict[str, float] | None) -> str:
    if s is None:
        return ""
    return f"{s['median_s']:.2f} ({s['min_s']:.2f}-{s['max_s']:.2f})"


def table(report: dict[str, dict], tools: list[Tool]) -> str:
    """The markdown table: one line per row of the cases."""
    names = {t.key: t.name for t in tools}
    has_c = "c" in names
    head = [
        "case",
        *(f"{names[k]} wall s (min-max)" for k in names),
        "new/old wall",
        *(["C/new wall"] if has_c else []),
        *(f"{names[k]} CPU s" for k in names),
        *(f"{names[k]} peak MiB" for k in names),
        "new/old peak",
        "check",
    ]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for label, entry in report.items():
        s = entry["tools"]
        a, b, c = s.get("old"), s.get("new"), s.get("c")
        ratio = f"{b['median_s'] / a['median_s']:.3f}" if a and b else ""
        c_ratio = [f"{c['median_s'] / b['median_s']:.2f}x" if c and b else ""] if has_c else []
        rss = f"{b['peak_rss_mib'] / a['peak_rss_mib']:.3f}" if a and b else ""
        row = [
            f"`{label}`",
            *(cell(s.get(k)) for k in names),
            ratio,
            *c_ratio,
            *(f"{s[k]['cpu_median_s']:.2f}" if k in s else "" for k in names),
            *(f"{s[k]['peak_rss_mib']:.0f}" if k in s else "" for k in names),
            rss,
            entry["check"] or "",
        ]
        lines.append("| " + " | ".join(row) + " |")
    return "\n".join(lines)


def tree(path: str) -> Path:
    p = Path(path).resolve()
    if not (p / "src" / "cwlkit" / "__main__.py").exists():
        raise argparse.ArgumentTypeError(f"{p} has no src/cwlkit/__main__.py")
    return p


def main() -> int:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--old", type=tree, required=True, help="tree A (has src/cwlkit)")
    ap.add_argument("--new", type=tree, default=REPO, help="tree B (default: this checkout)")
    ap.add_argument("--trec-eval", help="a trec_eval binary, timed as a third column")
    ap.add_argument("--cases", nargs="+", choices=CASES, default=list(CASES))
    ap.add_argument("--repeat", type=int, default=5, help="timed rounds a case (default 5)")
    ap.add_argument("--check", action="store_true", help="compare A, B and C's stdout first")
    ap.add_argument("--json", type=Path, help="also write every timing to this file")
    ap.add_argument("--data", type=Path, default=REPO / "bench-data")
    ap.add_argument("--chunk-topics", help="pass --chunk-topics VALUE to cwlkit in trec10m")
    ap.add_argument("--trec10m-shape", choices=list(TEN_M_SHAPES), default="10000x1000")
    a = ap.parse_args()

    c = str(Path(a.trec_eval).resolve()) if a.trec_eval else None
    tools = [Tool("old", "old", a.old), Tool("new", "new", a.new)]
    if c:
        tools.append(Tool("c", "C"))
    table_rows = rows(a.cases, a.data.resolve(), a.trec10m_shape, a.chunk_topics, c)
    trees = {t.key: t.tree for t in tools if t.tree is not None}
    before = {k: tree_digest(p) for k, p in trees.items()}
    meta: dict[str, object] = {
        "date": time.strftime("%Y-%m-%d %H:%M:%S %Z"),
        "host": platform.node(),
        "cpus": os.cpu_count(),
        "python": sys.version.split()[0],
        "repeat": a.repeat,
        "trees": {k: {"path": str(p), "git": tree_id(p)} for k, p in trees.items()},
        "trec_eval": c,
    }
    print(
        f"# {meta['date']}, {meta['cpus']} CPUs, python {meta['python']}, "
        f"{a.repeat} interleaved rounds a case"
    )
    for k, p in trees.items():
        print(f"# {k}: {p} at {tree_id(p)}")
    if c:
        print(f"# C: {c}")
    report: dict[str, dict] = {}
    with tempfile.TemporaryDirectory(prefix="ab_versions-") as tmp:
        cache, cwd = Path(tmp) / "pycache", Path(tmp) / "cwd"
        cwd.mkdir()
        # _timing.timed byte-compiles the cwlkit this interpreter imports: into the cache too
        sys.pycache_prefix = str(cache)
        for p in trees.values():
            compile_tree(p, cache)
        for row in table_rows:
            verdict = warm_up(row, tools, cache, cwd, a.check)
            if verdict is not None:
                print(f"# check {row.label}: {verdict}", flush=True)
            load0 = os.getloadavg()[0]
            got: dict[str, Result] = {t.key: Result() for t in tools if t.command(row, cache)}
            for key, t in interleaved(row, tools, cache, cwd, a.repeat):
                got[key].runs.append(t)
            load1 = os.getloadavg()[0]
            print(f"# {row.label}: load average {load0:.2f} -> {load1:.2f}", flush=True)
            report[row.label] = {
                "case": row.case,
                "commands": {t.key: t.command(row, cache) for t in tools if t.command(row, cache)},
                "check": verdict,
                "load_average": [load0, load1],
                "tools": {k: r.summary() for k, r in got.items()},
                "runs": {k: [t._asdict() for t in r.runs] for k, r in got.items()},
            }
    after = {k: tree_digest(p) for k, p in trees.items()}
    changed = [k for k in trees if before[k] != after[k]]
    print()
    print(table(report, tools))
    if changed:
        print(f"\nWARNING: the source of {', '.join(changed)} changed during the run")
    meta["tree_digests"] = {"before": before, "after": after}
    if a.json:
        a.json.write_text(json.dumps({"meta": meta, "cases": report}, indent=2) + "\n")
    differ = any(e["check"] and not e["check"].startswith("identical") for e in report.values())
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
