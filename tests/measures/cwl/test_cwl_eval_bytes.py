"""cwl_eval's mode prints cwl_eval 1.0.12's bytes, on real runs.

``cwlkit cwl --order file --max-depth 1000`` against the ``cwl-eval`` command, both run as
subprocesses on TREC Web 2012 runs, stdout compared byte for byte: every line, every
number, float noise included (``-0.0000`` where cwl_eval's residual of EC is -1.1e-16, the
last digit of half-way values such as 0.53125), and cwl_eval's names (``TBG-H@2 `` and
``U-L@50 `` end in a space).

cwl_eval takes the qrels' labels as gains and wants them in [0, 1]; Web 2012's labels are
-2..4, so both tools read the same qrels written as gains: label / 4, negative labels 0
(``0``, ``0.25``, ``0.5``, ``0.75``, ``1``), which ``cwlkit cwl --gain identity`` uses as
they are.

The fast tier runs the first topics of one run (every metric class, with residuals and
costs); the slow tier runs one whole run with cwl_eval's default metrics (with and without
``-r``) and with a metrics file of every metric class (``-r``, and a cost file), and two
more whole runs with one of those each (cwl_eval takes minutes a run).
"""

from __future__ import annotations

import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest
from conftest import DATA, plain_copy, read_data

pytest.importorskip("cwl.ruler.ranking", reason="cwl-eval 1.0.12 (a test extra) is not installed")

WEB = DATA / "web2012"
QRELS = WEB / "qrels.web.151-200.txt"
RUNS = WEB / "runs"

# every metric class cwl_eval 1.0.12 computes (TrAPCWLMetric crashes in cwl_eval), in its
# metrics-file syntax; BPMDCWLMetric with hc != 0 included (cwl_eval's mode keeps its K fixed)
METRICS = [
    "PrecisionCWLMetric(1)",
    "PrecisionCWLMetric(10)",
    "PrecisionCWLMetric(20)",
    "RBPCWLMetric(0.5)",
    "RBPCWLMetric(0.95)",
    "RRCWLMetric()",
    "APCWLMetric()",
    "NDCGCWLMetric(3)",
    "NDCGCWLMetric(20)",
    "INSTCWLMetric(1.5)",
    "INSTCWLMetric(2)",
    "INSQCWLMetric(2.0)",
    "INSQCWLMetric(0.5)",
    "TBGCWLMetric(2)",
    "TBGCWLMetric(224)",
    "UMeasureCWLMetric(50)",
    "UMeasureCWLMetric(1000)",
    "BPMCWLMetric(1.0,10)",
    "BPMCWLMetric(2.5,4)",
    "BPMDCWLMetric(1,10,1.0,0)",
    "BPMDCWLMetric(2,6,0.5,1.0,0.25)",
    "IFTGoalCWLMetric(2.0,0.9,10)",
    "IFTRateCWLMetric(0.2,0.9,10)",
    "IFTGoalRateCWLMetric(2.0,0.25,10,0.2,0.25,10)",
    "NPVCWLMetric(0.1)",
    "NPVCWLMetric(0.5)",
    "SETCWLMetric(0.5,10)",
    "SETCWLMetric(0.3,4)",
    "NERReq8CWLMetric(5)",
    "NERReq9CWLMetric(5)",
    "NERReq10CWLMetric(0.9)",
    "NERReq11CWLMetric(1.0)",
    "NERReq11CWLMetric(2.5)",
]


def write_gains(dest: Path) -> None:
    """Web 2012's qrels with label / 4 as the gain (negative labels: 0)."""
    out = []
    for line in QRELS.read_text().splitlines():
        topic, it, doc, label = line.split()
        g = max(int(label), 0) / 4
        out.append(f"{topic} {it} {doc} {'0' if g == 0 else repr(g)}")
    dest.write_text("\n".join(out) + "\n")


def first_topics(run: Path, n: int, dest: Path) -> None:
    """The lines of the first ``n`` topics of ``run``, in file order."""
    topics: list[str] = []
    keep = []
    for line in read_data(run).splitlines():
        t = line.split()[0]
        if t not in topics:
            if len(topics) == n:
                break
            topics.append(t)
        keep.append(line)
    dest.write_text("\n".join(keep) + "\n")


def cwl_eval(d: Path, run: Path, *args: str) -> bytes:
    """The ``cwl-eval`` command's stdout (run in ``d``, where it writes ``cwl.log``)."""
    script = Path(sysconfig.get_path("scripts")) / "cwl-eval"
    if not script.exists():
        pytest.skip("the cwl-eval console script is not installed")
    p = subprocess.run(
        [sys.executable, str(script), "gains", str(run), *args],
        cwd=d,
        capture_output=True,
        timeout=1800,
    )
    assert p.returncode == 0, p.stderr[-2000:]
    return p.stdout


def cwlkit(d: Path, run: Path, *args: str) -> bytes:
    """``cwlkit cwl gains RUN --order file --max-depth 1000 --gain identity ARGS``'s stdout."""
    p = subprocess.run(
        [sys.executable, "-m", "cwlkit", "cwl", "gains", str(run), "--order", "file"]
        + ["--max-depth", "1000", "--gain", "identity", *args],
        cwd=d,
        capture_output=True,
        timeout=1800,
    )
    assert p.returncode == 0, p.stderr[-2000:]
    return p.stdout


def assert_same_bytes(theirs: bytes, ours: bytes) -> None:
    """Byte-for-byte equality, reported as the first differing lines."""
    if theirs == ours:
        return
    a, b = theirs.splitlines(), ours.splitlines()
    diff = [(x, y) for x, y in zip(a, b, strict=False) if x != y]
    raise AssertionError(
        f"{len(diff)} differing lines of {len(a)} (cwlkit: {len(b)} lines); first: {diff[:3]}"
    )


@pytest.fixture
def inputs(tmp_path: Path) -> Path:
    write_gains(tmp_path / "gains")
    (tmp_path / "metrics").write_text("\n".join(METRICS) + "\n")
    (tmp_path / "costs").write_text("Q0 2.5\n")  # every line of these runs has type Q0
    return tmp_path


CONFIGS = {
    "default": (),
    "default-r": ("-r",),
    "every-metric-r": ("-r", "-m", "metrics"),
    "every-metric-costs-r": ("-r", "-m", "metrics", "-c", "costs", "--max_cost", "3"),
}


def _args(config: str, ours: bool) -> tuple[str, ...]:
    args = CONFIGS[config]
    return tuple(a.replace("_", "-") for a in args) if ours else args


@pytest.mark.parametrize("config", ["default-r", "every-metric-costs-r"])
def test_first_topics_print_cwl_evals_bytes(inputs, config):
    run = inputs / "run"
    first_topics(RUNS / "web2012.rm.catb-filtered.run.gz", 3, run)
    theirs = cwl_eval(inputs, run, *_args(config, False))
    assert theirs.count(b"\n") >= 3 * 16
    assert_same_bytes(theirs, cwlkit(inputs, run, *_args(config, True)))


def test_trailing_spaces_and_negative_zeros_are_cwl_evals(inputs):
    """The issue's three categories, on the first two topics: names ending in a space,
    ``-0.0000`` residuals and (through the byte comparison) half-way digits."""
    run = inputs / "run"
    first_topics(RUNS / "web2012.ql.cata-filtered.run.gz", 2, run)
    (inputs / "m").write_text("TBGCWLMetric(2)\nUMeasureCWLMetric(50)\nINSTCWLMetric(1.5)\n")
    theirs = cwl_eval(inputs, run, "-r", "-m", "m")
    ours = cwlkit(inputs, run, "-r", "-m", "m")
    assert b"\tTBG-H@2 \t" in ours and b"\tU-L@50 \t" in ours
    assert b"-0.0000" in theirs  # (INST's residual of EC: -1.1e-16 in cwl_eval)
    assert_same_bytes(theirs, ours)


WHOLE = [("web2012.ql.cata-filtered", c) for c in CONFIGS] + [
    ("web2012.rm.catb-filtered", "every-metric-costs-r"),
    ("web2012.ql.cata", "default-r"),
]


@pytest.mark.slow
@pytest.mark.parametrize(("run", "config"), WHOLE)
def test_whole_runs_print_cwl_evals_bytes(inputs, run, config):
    path = plain_copy(RUNS / f"{run}.run.gz", inputs)
    theirs = cwl_eval(inputs, path, *_args(config, False))
    assert_same_bytes(theirs, cwlkit(inputs, path, *_args(config, True)))
