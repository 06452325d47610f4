"""Many runs in one call (issue #10): ``Evaluator.evaluate_many(jobs=)``, ``cwlkit evaluate``
and ``cwlkit trec_eval`` with several runs, errors at scale, progress bars."""

from __future__ import annotations

import pickle

import numpy as np
import pytest
from conftest import DATA

import cwlkit
from cwlkit.errors import FormatError, ParamError

WEB = DATA / "web2012"
QRELS = WEB / "qrels.web.151-200.txt"
RUNS = sorted((WEB / "runs").glob("*.run.gz"))
MEASURES = ["P@10", "AP", "nDCG@10", "RR", "R-Prec"]


def _same(a, b) -> None:
    assert list(a) == list(b)
    for k in a:
        assert a[k].topics == b[k].topics and a[k].measures == b[k].measures
        assert np.array_equal(a[k].values, b[k].values, equal_nan=True)
        assert a[k].mean() == b[k].mean()


def test_evaluate_many_jobs_identical_and_in_order():
    ev = cwlkit.Evaluator(QRELS, MEASURES)
    one = ev.evaluate_many(RUNS, jobs=1)
    two = ev.evaluate_many(RUNS, jobs=2)
    _same(one, two)
    assert list(two) == [p.name for p in RUNS]
    for p in RUNS[:2]:  # each run as evaluate() scores it alone
        alone = ev.evaluate(p)
        assert np.array_equal(alone.values, two[p.name].values, equal_nan=True)
    rev = ev.evaluate_many(RUNS[::-1], jobs=2)
    assert list(rev) == [p.name for p in RUNS[::-1]]


def test_jobs_is_checked():
    ev = cwlkit.Evaluator(QRELS, ["AP"])
    with pytest.raises(ParamError, match="jobs"):
        ev.evaluate_many(RUNS[:2], jobs=0)


def test_format_error_survives_a_worker():
    e = pickle.loads(pickle.dumps(FormatError("a.run", 7, "bad")))
    assert (e.path, e.line, e.msg, str(e)) == ("a.run", 7, "bad", "a.run:7: bad")


def test_trec_eval_several_runs_is_the_concatenation(cli):
    singles = []
    for p in RUNS[:4]:
        rc, out, err = cli("trec_eval", "-q", "-m", "all_trec", QRELS, p)
        assert rc == 0, err
        singles.append(out)
    for jobs in ("1", "2"):
        rc, out, err = cli("trec_eval", "-j", jobs, "-q", "-m", "all_trec", QRELS, *RUNS[:4])
        assert rc == 0, err
        assert out == "".join(singles)
    rc, out, _ = cli("trec_eval", "-n", "-m", "P.5", QRELS, RUNS[1], RUNS[0])
    assert out == "".join(cli("trec_eval", "-n", "-m", "P.5", QRELS, p)[1] for p in RUNS[1::-1])


def test_evaluate_cli_jobs_identical(cli):
    outs = [
        cli("evaluate", QRELS, *RUNS, "-m", " ".join(MEASURES), "-j", j, "--per-topic")
        for j in ("1", "2")
    ]
    assert outs[0][0] == 0 and outs[0] == outs[1]


@pytest.fixture(scope="module")
def hundred(tmp_path_factory):
    """100 small runs; run 73 has a line with five fields (line 12)."""
    d = tmp_path_factory.mktemp("hundred")
    (d / "qrels").write_text("".join(f"{t} 0 d{t}_{i} {i % 3}\n" for t in (1, 2) for i in range(6)))
    paths = []
    for k in range(1, 101):
        lines = [
            f"{t} Q0 d{t}_{(i + k) % 9} {i + 1} {10 - i} r{k}\n" for t in (1, 2) for i in range(8)
        ]
        if k == 73:
            lines[11] = "2 Q0 d2_x 4 6.0\n"
        p = d / f"run{k:03d}"
        p.write_text("".join(lines))
        paths.append(p)
    return d / "qrels", paths


@pytest.mark.parametrize("jobs", ["1", "2"])
@pytest.mark.parametrize("command", ["evaluate", "trec_eval"])
def test_bad_line_in_run_73_of_100(cli, hundred, command, jobs):
    qrels, runs = hundred
    m = "AP" if command == "evaluate" else "map"
    rc, out, err = cli(command, "-j", jobs, "-m", m, qrels, *runs)
    assert rc != 0 and out == ""
    assert err.count("\n") == 1 and f"{runs[72]}:12:" in err, err
    ev = cwlkit.Evaluator(qrels, ["AP"])
    with pytest.raises(FormatError) as info:
        ev.evaluate_many(runs, jobs=int(jobs))
    assert info.value.path == str(runs[72]) and info.value.line == 12


def test_good_hundred_runs(cli, hundred):
    qrels, runs = hundred
    good = runs[:72] + runs[73:]
    rc, out, err = cli("trec_eval", "-m", "map", "-m", "P.5", qrels, *good)
    assert rc == 0 and err == ""
    assert out.count("map") == 99 and out.count("P_5") == 99


def test_progress_on_stderr_only_when_asked(cli, hundred, monkeypatch):
    pytest.importorskip("tqdm")
    qrels, runs = hundred
    good = runs[:72] + runs[73:]
    rc, out, err = cli("evaluate", qrels, *good, "-m", "AP")
    assert rc == 0 and err == ""  # stderr is not a terminal here
    monkeypatch.setenv("CWLKIT_PROGRESS", "1")
    rc, out2, err = cli("evaluate", qrels, *good, "-m", "AP")
    assert out2 == out and "runs" in err and "topics" in err
    rc, out3, err = cli("evaluate", "--quiet", qrels, *good, "-m", "AP")
    assert out3 == out and err == ""
    rc, _, err = cli("trec_eval", "-m", "map", "--quiet", qrels, *good)
    assert rc == 0 and err == ""


def test_evaluate_cli_chunk_topics(cli):
    args = ("evaluate", QRELS, *RUNS[:3], "-m", " ".join(MEASURES), "--per-topic", "-j", "1")
    whole = cli(*args)
    assert whole[0] == 0 and cli(*args, "--chunk-topics", "9") == whole
