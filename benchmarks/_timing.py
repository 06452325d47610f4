"""Time one command as its own process: wall time, CPU time and peak RSS (shared by the
benchmark scripts, which run from this directory: ``python benchmarks/bench_*.py``)."""

from __future__ import annotations

import os
import subprocess
import time
from pathlib import Path
from typing import NamedTuple


class Timing(NamedTuple):
    """One process's wall seconds, user + system CPU seconds and peak RSS (MiB)."""

    wall: float
    cpu: float
    rss: float


_COMPILED = False


def compile_cwlkit() -> None:
    """Byte-compile cwlkit's modules where they are imported from, as ``pip install`` does
    for a package it installs. Without it, an environment with ``PYTHONDONTWRITEBYTECODE``
    set (this sandbox sets it) compiles every cwlkit module again at each start, about 30 ms
    of each process that an installed cwlkit does not spend. Done once, before the first
    timed command."""
    global _COMPILED
    if not _COMPILED:
        import compileall
        import importlib.util

        spec = importlib.util.find_spec("cwlkit")
        if spec is not None and spec.submodule_search_locations:
            for where in spec.submodule_search_locations:
                compileall.compile_dir(where, quiet=1)
        _COMPILED = True


def timed(cmd: list[str], cwd: Path | None = None) -> Timing:
    """Run ``cmd`` with stdout discarded; stop the benchmark (with its stderr) if it fails.

    The peak RSS is the process's own ``ru_maxrss`` from ``wait4`` (for a command that forks
    workers, the largest of them). cwlkit runs byte-compiled (:func:`compile_cwlkit`).
    """
    compile_cwlkit()
    t0 = time.perf_counter()
    p = subprocess.Popen(cmd, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(p.pid, 0)
    wall = time.perf_counter() - t0
    err = p.stderr.read().decode(errors="replace") if p.stderr else ""
    code = os.waitstatus_to_exitcode(status)
    if code != 0:
        raise SystemExit(f"{' '.join(cmd)} failed with status {code}:\n{err[-2000:]}")
    return Timing(wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024.0)
