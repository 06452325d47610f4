"""AP's EU residual: cwl_eval's (possibly negative) number under ``--max-depth``, clamped at 0
in the exact mode (docs/cwl.md, "Where cwlkit departs from cwl_eval 1.0.12").

AP is not monotone in the gains: giving an unjudged document the maximum gain can lower the
score. Topic t1 ranks d1 (label 1), d2 (0), d3 (unjudged): the lower bound is AP = 1, the
upper bound (d3 relevant) (1 + 2/3) / 2 = 5/6, so upper - lower = -1/6. Topic t2 ranks
d1 (0), d3 (unjudged), d2 (1): lower 1/3, upper (1/2 + 2/3) / 2 = 7/12, residual 1/4.
Reference: cwl-eval 1.0.12, its classes in process (raw floats) and its command (4 decimals).
"""

from __future__ import annotations

import subprocess
import sys
import sysconfig
from pathlib import Path

import numpy as np
import pytest

from cwlkit.core.batch import build_batch
from cwlkit.io.trec import read_qrels, read_run
from cwlkit.measures.cwl.ap import AP
from cwlkit.measures.cwl.evaluate import prepare, score

pytest.importorskip("cwl.ruler.ranking", reason="cwl-eval 1.0.12 (a test extra) is not installed")

QRELS = "t1 0 d1 1\nt1 0 d2 0\nt1 0 d4 1\nt2 0 d1 0\nt2 0 d2 1\n"
RUN = (
    "t1 Q0 d1 1 5 s\nt1 Q0 d2 2 4 s\nt1 Q0 d3 3 3 s\n"
    "t2 Q0 d1 1 5 s\nt2 Q0 d3 2 4 s\nt2 Q0 d2 3 3 s\n"
)
# exact mode (the upper bound fills only the run): max(0, upper - lower)
EXACT = {"t1": (1.0, 0.0), "t2": (1 / 3, 7 / 12 - 1 / 3)}
DEPTHS = [3, 10, 1000]


@pytest.fixture
def case(tmp_path):
    (tmp_path / "qrels").write_text(QRELS)
    (tmp_path / "run").write_text(RUN)
    (tmp_path / "metrics").write_text("APCWLMetric()\n")
    return tmp_path


def cwl_eval_ap(d: Path, max_n: int) -> dict[str, tuple[float, float]]:
    """{topic: (EU, ResEU)} of cwl_eval's APCWLMetric, in process."""
    from cwl.ruler.measures.cwl_ap import APCWLMetric
    from cwl.ruler.ranking import RankingMaker
    from cwl.seeker.trec_qrel_handler import TrecQrelHandler

    qrh = TrecQrelHandler(str(d / "qrels"))
    out = {}
    for topic in ("t1", "t2"):
        maker = RankingMaker(topic, qrh, None, max_gain=1.0, max_n=max_n)
        for line in RUN.splitlines():
            t, etype, doc = line.split()[:3]
            if t == topic:
                maker.add(doc, etype)
        m = APCWLMetric()
        m.residuals = True
        m.measure(maker.get_ranking())
        out[topic] = (m.expected_utility, m.residual_expected_utility)
    return out


def cwlkit_ap(d: Path, max_depth: int | None) -> dict[str, tuple[float, float]]:
    batch = build_batch(read_qrels(d / "qrels"), read_run(d / "run"), order="file")
    lo, res = score(AP(), prepare(batch), residuals=True, max_depth=max_depth)
    return {str(t): (float(lo.EU[i]), float(res.EU[i])) for i, t in enumerate(batch.topics)}


@pytest.mark.parametrize("depth", DEPTHS)
def test_max_depth_residual_is_cwl_evals_negative_number(case, depth):
    theirs = cwl_eval_ap(case, depth)
    ours = cwlkit_ap(case, depth)
    assert theirs["t1"][1] < 0  # the case: the upper bound is below the lower bound
    assert theirs["t2"][1] > 0
    for topic in ("t1", "t2"):
        np.testing.assert_allclose(ours[topic], theirs[topic], rtol=1e-12, atol=1e-15)
    if depth == 3:  # the run's length: cwl_eval's upper bound is the exact mode's
        assert theirs["t1"][1] == pytest.approx(5 / 6 - 1, abs=1e-15)
        assert theirs["t2"][1] == pytest.approx(7 / 12 - 1 / 3, abs=1e-15)


def test_exact_mode_clamps_at_zero(case):
    ours = cwlkit_ap(case, None)
    for topic, (eu, res) in EXACT.items():
        assert ours[topic][0] == pytest.approx(eu, abs=1e-15)
        assert ours[topic][1] == pytest.approx(res, abs=1e-15)
    # the clamp is max(0, cwl_eval's number on the run's own depth)
    theirs = cwl_eval_ap(case, 3)
    assert ours["t1"][1] == max(0.0, theirs["t1"][1]) == 0.0


def _cwl_eval_command(d: Path, *args: str) -> list[list[str]]:
    script = Path(sysconfig.get_path("scripts")) / "cwl-eval"
    if not script.exists():
        pytest.skip("the cwl-eval console script is not installed")
    p = subprocess.run(
        [sys.executable, str(script), "qrels", "run", *args],
        cwd=d,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert p.returncode == 0, p.stderr[-2000:]
    return [line.split("\t") for line in p.stdout.splitlines()]


@pytest.mark.parametrize("depth", [3, 1000])
def test_command_line_prints_cwl_evals_negative_residual(cli, case, depth):
    theirs = _cwl_eval_command(case, "-m", "metrics", "-r", "--max_depth", str(depth))
    rc, out, err = cli(
        "cwl",
        case / "qrels",
        case / "run",
        "-m",
        case / "metrics",
        "-r",
        "--order",
        "file",
        "--max-depth",
        str(depth),
    )
    assert rc == 0, err
    ours = [line.split("\t") for line in out.splitlines()]
    assert [r[:2] for r in ours] == [r[:2] for r in theirs] == [["t1", "AP"], ["t2", "AP"]]
    for a, b in zip(theirs, ours, strict=True):
        np.testing.assert_allclose(
            [float(v) for v in b[2:]], [float(v) for v in a[2:]], atol=1.00001e-4
        )
    assert float(ours[0][7]) < 0  # ResEU of t1, e.g. -0.1667 at depth 3
    # without --max-depth: the clamp
    rc, out, err = cli("cwl", case / "qrels", case / "run", "-m", case / "metrics", "-r")
    assert rc == 0, err
    assert out.splitlines()[0].split("\t")[7] == "0.0000"


def test_a_topic_judged_throughout_has_no_residual():
    """Topic a0 has every ranked document judged: its AP bounds are equal, so its residual
    is 0 exactly, even though topic a1 (unjudged a1-d2) makes the batch's upper-bound sums
    run differently (they differed by 1.4e-17 before; hypothesis found the case)."""
    import cwlkit
    from cwlkit.io.trec import Qrels, Run

    judged = [("a0", f"a0-d{i}", g) for i, g in enumerate([0, 0, 0, 0, 0.25, 0.25])]
    judged += [("a1", f"a1-d{i}", 0.0) for i in (0, 1, 3, 4, 5, 6, 7, 8)]
    scores = [0.5, 0.5, 1.0, 1.5, 0.5, 1.0]
    ranked = [("a0", f"a0-d{i}", s) for i, s in enumerate(scores)]
    ranked += [("a1", f"a1-d{i}", 1.0 if i == 1 else 0.5) for i in range(9)]
    res = cwlkit.evaluate(
        Qrels.from_records(judged), Run.from_records(ranked), ["AP_cwl"], residuals=True
    )
    assert res.topics == ["a0", "a1"]
    assert res.columns["ResEU"][0].tolist() == [0.0, 0.125]  # (a1: its unjudged d2 relevant)
    assert res.values[0] == pytest.approx([0.125, 0.0], abs=1e-15)
