"""``cwlkit cwl`` streams large runs through topic buckets (issue #10): the output is what
reading the files whole prints, byte for byte, and the peak memory does not grow with the run."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest
from conftest import DATA, EXAMPLE

import cwlkit.executors.choose as choose
import cwlkit.executors.streamed as streamed

pytestmark = pytest.mark.slow  # (the fast tier: pytest -m 'not slow')

WEB = DATA / "web2012"
TE = DATA / "trec_eval_test" / "9.0.8"

CASES = {
    "example": (
        [EXAMPLE / "example.qrels", EXAMPLE / "example.run"],
        ["-c", EXAMPLE / "example.costs", "-m", EXAMPLE / "example.metrics"],
    ),
    "web2012": (
        [WEB / "qrels.web.151-200.txt", WEB / "runs" / "web2012.ql.cata.run.gz"],
        ["--gain", "linear"],
    ),
    "web2012-rm": (
        [WEB / "qrels.web.151-200.txt", WEB / "runs" / "web2012.rm.catb-filtered.run.gz"],
        ["-M", "P@10", "-M", "AP", "-M", "RBP(p=0.8)"],
    ),
    "trec_eval-suite": ([TE / "qrels.test", TE / "results.test"], ["-M", "P@10", "-M", "RR"]),
}
FLAGS = [
    [],
    ["-r", "--mean"],
    ["--order", "file"],
    ["--order", "file", "--max-depth", "1000", "-r"],
    ["-f", "tsv", "-n", "--mean"],
    ["-f", "tsv", "--mean", "--order", "file"],
    ["-f", "json"],
]


def _numbers(text: str) -> list[float]:
    """Every number printed (tab-, newline- or JSON-separated), in order."""
    import re

    return [float(x) for x in re.findall(r"-?\d+\.\d+(?:e-?\d+)?|-?inf|nan", text)]


@pytest.mark.parametrize("case", list(CASES))
@pytest.mark.parametrize("flags", FLAGS, ids=lambda f: " ".join(f) or "default")
def test_streamed_output_is_the_whole_files(cli, monkeypatch, case, flags):
    files, extra = CASES[case]
    whole = cli("cwl", "--chunk-topics", "none", *extra, *flags, *files)
    assert whole[0] == 0, whole[2]
    calls = []
    real = streamed.evaluate_streamed
    monkeypatch.setattr(
        streamed, "evaluate_streamed", lambda *a, **k: calls.append(1) or real(*a, **k)
    )
    got = [cli("cwl", "--chunk-topics", size, *extra, *flags, *files) for size in ("1", "5")]
    monkeypatch.setattr(choose, "AUTO_BYTES", 100)  # the default, on a "large" run
    monkeypatch.setattr(choose, "AUTO_ROWS", 300)
    got.append(cli("cwl", *extra, *flags, *files))
    assert len(calls) == 3
    for g in got:
        if case == "web2012" and ("-r" in flags or "-f" in flags):
            # C/W/L sums skip the ranks where every user of a batch has stopped, and
            # where that is depends on the batch (AP: past the deepest relevant document
            # of its topics): AP's last bits differ, which shows in full precision and,
            # for the difference of two near-equal bounds, as -0.0000 for 0.0000
            assert g[0] == 0 and g[2] == ""
            np.testing.assert_allclose(_numbers(g[1]), _numbers(whole[1]), rtol=1e-12, atol=1e-13)
            assert g[1].replace("-0.0000", "0.0000") == whole[1].replace("-0.0000", "0.0000") or (
                "-f" in flags
            )
        else:
            assert g == whole


def test_chunk_topics_option_is_checked(cli):
    for bad in ("many", "0", "-3"):
        rc, out, err = cli("cwl", "--example", "--chunk-topics", bad)
        assert rc == 2 and out == "" and "--chunk-topics must be a positive integer" in err


def _write(path, topics: int, depth: int, seed: int) -> tuple[str, str]:
    """A qrels (a third of each ranking judged, gains in [0, 1]) and a run of ``topics`` x
    ``depth`` lines, as benchmarks/bench_cwl.py's data."""
    rng = np.random.default_rng(seed)
    docs = [f"d{i}" for i in range(depth)]
    run, qrels = [], []
    for t in range(topics):
        scores = np.round(rng.random(depth) * 10, 1).tolist()
        run.append(
            "".join(
                f"q{t} Q0 {d} {i + 1} {s} bench\n"
                for i, (d, s) in enumerate(zip(docs, scores, strict=True))
            )
        )
        labels = rng.integers(0, 4, depth // 3).tolist()
        qrels.append("".join(f"q{t} 0 {docs[i * 3]} {g / 3:.6f}\n" for i, g in enumerate(labels)))
    q, r = path / f"b{topics}.qrels", path / f"b{topics}.run"
    q.write_text("".join(qrels))
    r.write_text("".join(run))
    return str(q), str(r)


def _peak_mb(*args: str) -> float:
    """Peak RSS (MB) of ``cwlkit cwl ARGS`` in a process of its own (its output discarded):
    its VmHWM (``ru_maxrss`` would count the forking parent's, which survives ``exec``)."""
    code = (
        "import atexit, runpy, sys\n"
        "def peak():\n"
        "    hwm = [ln for ln in open('/proc/self/status') if ln.startswith('VmHWM')]\n"
        "    sys.stderr.write('PEAK ' + hwm[0].split()[1] + '\\n')\n"
        "atexit.register(peak)\n"
        f"sys.argv = ['cwlkit', 'cwl', *{list(args)!r}]\n"
        "runpy.run_module('cwlkit', run_name='__main__')\n"
    )
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert p.returncode == 0, p.stderr
    return int(p.stderr.split("PEAK ")[-1]) / 1024


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc/self/status")
def test_streamed_peak_memory_does_not_grow_with_the_run(tmp_path):
    small = _write(tmp_path, 100, 1000, 1)  # 100,000 run lines
    large = _write(tmp_path, 1000, 1000, 2)  # 1,000,000 run lines (32 MB)
    streamed_small = _peak_mb("--chunk-topics", "32", *small)
    streamed_large = _peak_mb("--chunk-topics", "32", *large)
    whole_small = _peak_mb("--chunk-topics", "none", *small)
    whole_large = _peak_mb("--chunk-topics", "none", *large)
    # read whole, ten times the lines take far more memory (this test can fail) ...
    assert whole_large - whole_small > 100
    # ... streamed, about the same (one bucket of 32 topics at a time)
    assert streamed_large - streamed_small < 15, (streamed_small, streamed_large)
