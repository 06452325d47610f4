"""How many printed lines and numbers of ``cwlkit cwl``'s cwl_eval mode differ from cwl_eval's.

For each TREC Web 2012 run (all 8 by default) and three configurations (cwl_eval's default
metrics; the same with ``-r``; every metric class, ``-r``, the list of
tests/measures/cwl/test_cwl_eval_bytes.py), run ``cwl-eval gains RUN`` and ``cwlkit cwl gains
RUN --order file --max-depth 1000 --gain identity`` (gains: Web 2012's labels / 4, negative
labels 0, the qrels both tools read), compare their stdout line by line and count:

* lines differing, and lines whose metric name differs only by cwl_eval's trailing space;
* numbers printed ``-0.0000`` by one tool and ``0.0000`` by the other;
* numbers differing in the last digit (floats on either side of a rounding boundary, such
  as 0.53125 and 0.5312500000000001);
* other numbers.

Run from the repository root (cwl_eval takes some 20 minutes for the 8 runs)::

    python benchmarks/cwl_eval_bytes.py --keep /tmp/cwl_eval_out          # this checkout
    python benchmarks/cwl_eval_bytes.py --keep /tmp/cwl_eval_out --src OTHER/src   # another

``--keep DIR`` stores cwl_eval's outputs there and reuses them; ``--src`` puts another
checkout's ``src`` first on ``PYTHONPATH`` for ``cwlkit`` (e.g. one made with
``git worktree add``) to measure it against the same outputs.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import sysconfig
import tempfile
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "tests"), str(ROOT / "tests" / "measures" / "cwl")]

from test_cwl_eval_bytes import METRICS, RUNS, write_gains  # noqa: E402

CONFIGS = {"default": (), "default-r": ("-r",), "every-metric-r": ("-r", "-m", "metrics")}


def cwl_eval(d: Path, run: Path, args: tuple[str, ...], keep: Path, name: str) -> list[str]:
    out = keep / name
    if not out.exists():
        script = Path(sysconfig.get_path("scripts")) / "cwl-eval"
        p = subprocess.run(
            [sys.executable, str(script), "gains", str(run), *args],
            cwd=d,
            capture_output=True,
            check=True,
        )
        out.write_bytes(p.stdout)
    return out.read_text().splitlines()


def cwlkit(d: Path, run: Path, args: tuple[str, ...], src: Path | None) -> list[str]:
    env = dict(os.environ)
    if src is not None:
        env["PYTHONPATH"] = os.pathsep.join([str(src), env.get("PYTHONPATH", "")])
    cmd = [sys.executable, "-m", "cwlkit", "cwl", "gains", str(run), "--order", "file"]
    cmd += ["--max-depth", "1000", "--gain", "identity", *args]
    p = subprocess.run(cmd, cwd=d, capture_output=True, check=True, env=env)
    return p.stdout.decode().splitlines()


def compare(theirs: list[str], ours: list[str], counts: Counter) -> None:
    if len(theirs) != len(ours):
        counts["outputs of a different length"] += 1
        return
    for a, b in zip(theirs, ours, strict=True):
        counts["lines"] += 1
        fa, fb = a.split("\t"), b.split("\t")
        counts["numbers"] += len(fa) - 2
        if a == b:
            continue
        counts["lines differing"] += 1
        if fa[1] != fb[1]:
            trailing = fa[1].rstrip() == fb[1].rstrip()
            counts["names: trailing space" if trailing else "names: other"] += 1
        for u, v in zip(fa[2:], fb[2:], strict=False):
            if u == v:
                continue
            if u.lstrip("-") == v.lstrip("-"):
                counts["numbers: -0.0000 vs 0.0000"] += 1
            elif abs(float(u) - float(v)) <= 1.00001e-4:
                counts["numbers: last digit"] += 1
            else:
                counts["numbers: other"] += 1


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--runs", help="comma-separated run names (default: all 8)")
    ap.add_argument("--keep", type=Path, help="folder for cwl_eval's outputs (reused)")
    ap.add_argument("--src", type=Path, help="another checkout's src for cwlkit")
    a = ap.parse_args()
    runs = a.runs.split(",") if a.runs else sorted(p.stem for p in RUNS.glob("*.run"))
    with tempfile.TemporaryDirectory() as tmp:
        d = Path(tmp)
        keep = a.keep or d
        keep.mkdir(parents=True, exist_ok=True)
        write_gains(d / "gains")
        (d / "metrics").write_text("\n".join(METRICS) + "\n")
        total: Counter = Counter()
        for run in runs:
            for config, args in CONFIGS.items():
                counts: Counter = Counter()
                theirs = cwl_eval(d, RUNS / f"{run}.run", args, keep, f"{run}.{config}")
                ours = cwlkit(d, RUNS / f"{run}.run", args, a.src)
                compare(theirs, ours, counts)
                total.update(counts)
                print(f"{run:26} {config:15} {counts['lines differing']:6} lines differ")
    print()
    for key in sorted(total):
        print(f"{key:32} {total[key]:9,}")


if __name__ == "__main__":
    main()
