"""A run with no topic in common with the qrels.

cwlkit's own subcommands (evaluate, compare, report, correlate, fit, plot) all refuse it the
same way: one error line naming the run file and the qrels file, nothing on stdout, exit 2
(the API raises :class:`cwlkit.NoTopicsError`). Each anchor's subcommand prints what its
anchor prints, checked against the anchor itself where it is installed here: trec_eval 9.0.8
built from its sources (``/work/peers-build/trec_eval``; it stops with "No queries with both
results and relevance info"), cwl_eval 1.0.12 (every run topic scored 0), ndeval 4.5
(pyndeval's build of ndeval.c: zero lines and an ``amean`` of ``-nan``), gdeval.pl (the copy
ir_measures ships: its header alone), inst_eval.py (nothing) and rbp_eval (the Python port:
``nan`` averages and a warning per topic).
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import INST_EVAL, NDEVAL, REPO

import cwlkit

QRELS = "1 0 a 1\n1 0 b 0\n2 0 c 1\n2 0 d 1\n"
RUN = "3 Q0 a 1 2.0 r1\n3 Q0 b 2 1.0 r1\n4 Q0 c 1 1.0 r1\n"
OTHER = "1 Q0 a 1 2.0 r2\n1 Q0 b 2 1.0 r2\n2 Q0 d 1 1.0 r2\n"


@pytest.fixture
def files(tmp_path):
    q, r, o = tmp_path / "q.txt", tmp_path / "r.run", tmp_path / "o.run"
    q.write_text(QRELS)
    r.write_text(RUN)
    o.write_text(OTHER)
    return q, r, o


def test_api_raises_no_topics_error(files):
    q, r, _ = files
    with pytest.raises(cwlkit.NoTopicsError, match=f"{r} and {q} share no topic"):
        cwlkit.evaluate(q, r, ["AP"])
    assert issubclass(cwlkit.NoTopicsError, cwlkit.CwlkitError)


OURS = [
    ["evaluate", "{q}", "{r}", "-m", "AP"],
    ["evaluate", "{q}", "{o}", "{r}", "-m", "AP", "P@10"],
    ["compare", "{q}", "{o}", "{r}", "-m", "AP"],
    ["report", "{q}", "{o}", "{r}", "-m", "AP"],
    ["correlate", "{q}", "{o}", "{r}", "-a", "AP", "-b", "P@10"],
    ["correlate", "{q}", "{o}", "{r}", "--all-pairs", "-m", "AP", "P@10"],
    ["fit", "{q}", "{o}", "{r}", "--target", "AP", "--metric", "P@1:3:1"],
    ["plot", "pr", "{q}", "{r}", "-o", "{tmp}/x.png"],
    ["plot", "roc", "{q}", "{r}", "-o", "{tmp}/x.png"],
    ["plot", "scatter", "{q}", "{o}", "{r}", "-m", "AP", "P@10", "-o", "{tmp}/x.png"],
    ["plot", "matrix", "{q}", "{o}", "{r}", "-m", "AP", "P@10", "-o", "{tmp}/x.png"],
    ["plot", "sweep", "{q}", "{r}", "-M", "RBP(p=0.2:0.8:0.2)", "-o", "{tmp}/x.png"],
    ["plot", "vectors", "{q}", "{r}", "-M", "RBP(p=0.8)", "-t", "3", "-o", "{tmp}/x.png"],
]


@pytest.mark.parametrize("argv", OURS, ids=lambda a: " ".join(a[:2]))
def test_our_subcommands_refuse_it_alike(cli, files, tmp_path, argv):
    if argv[0] == "plot":
        pytest.importorskip("matplotlib")
    q, r, o = files
    args = [a.format(q=q, r=r, o=o, tmp=tmp_path) for a in argv]
    rc, out, err = cli(*args)
    assert rc == 2 and out == ""
    assert err == f"cwlkit: error: no topics to evaluate: {r} and {q} share no topic\n"
    assert not (tmp_path / "x.png").exists()


# --- the anchors' subcommands: what the anchor prints ----------------------------------------

TREC_EVAL = Path("/work/peers-build/trec_eval")


def test_trec_eval_stops_as_trec_eval(cli, files):
    q, r, _ = files
    for flags in ([], ["-c"], ["-q"]):
        rc, out, err = cli("trec_eval", *flags, q, r)
        assert rc == 2 and out == "" and f"{r} and {q} share no topic" in err
        if TREC_EVAL.exists():
            ref = subprocess.run([TREC_EVAL, *flags, q, r], capture_output=True, text=True)
            assert ref.returncode != 0 and ref.stdout == ""
            assert ref.stderr == "trec_eval: No queries with both results and relevance info\n"


def test_cwl_scores_every_run_topic_as_cwl_eval(cli, files, tmp_path):
    q, r, _ = files
    rc, out, err = cli("cwl", "--max-depth", "1000", q, r)  # (cwl_eval's cut, to compare)
    assert rc == 0
    assert err == (
        f"cwlkit cwl: warning: {r} and {q} share no topic: every run topic scores 0 (as cwl_eval)\n"
    )
    lines = out.splitlines()
    assert {x.split("\t")[0] for x in lines} == {"3", "4"}
    assert all(x.split("\t")[2] == "0.0000" for x in lines)  # EU 0 everywhere
    exe = shutil.which("cwl-eval")
    if exe is None:
        pytest.skip("cwl-eval (a test extra) is not installed")
    ref = subprocess.run([exe, q, r], capture_output=True, text=True, cwd=tmp_path)
    assert ref.returncode == 0 and ref.stdout == out


def test_ndeval_prints_zero_lines_and_nan_mean_as_ndeval(cli, files):
    q, r, _ = files
    rc, out, err = cli("ndeval", q, r)
    assert rc == 0
    assert err == (
        f"cwlkit ndeval: warning: {r} and {q} share no topic: every run topic scores 0 "
        "(as ndeval)\n"
    )
    lines = out.splitlines()
    assert [x.split(",")[1] for x in lines[1:]] == ["3", "4", "amean"]
    assert set(lines[-1].split(",")[2:]) == {"-nan"}
    pytest.importorskip("pyndeval")
    ref = subprocess.run(
        [sys.executable, "-c", NDEVAL, str(q), str(r)], capture_output=True, text=True
    )
    assert ref.returncode == 0 and ref.stdout == out


GDEVAL = None
try:  # the gdeval.pl ir_measures ships (its 'qrels run k' command line)
    import ir_measures

    GDEVAL = Path(ir_measures.__file__).parent / "bin" / "gdeval.pl"
except ImportError:  # pragma: no cover
    pass


def test_gdeval_prints_its_header_alone_as_gdeval(cli, files):
    q, r, _ = files
    rc, out, err = cli("gdeval", q, r)
    assert rc == 0 and out == "runid,topic,ndcg@20,err@20\n"
    assert err == (
        f"cwlkit gdeval: warning: {r} and {q} share no topic: the header alone (as gdeval.pl)\n"
    )
    if GDEVAL is None or not GDEVAL.exists() or shutil.which("perl") is None:
        pytest.skip("no gdeval.pl or perl")
    ref = subprocess.run(["perl", GDEVAL, q, r, "20"], capture_output=True, text=True)
    assert ref.returncode == 0 and ref.stdout == out


@pytest.mark.parametrize("compat", [[], ["--compat"]])
def test_inst_eval_prints_nothing_as_inst_eval_py(cli, files, compat):
    q, r, _ = files
    rc, out, err = cli("inst_eval", *compat, q, r, "-T", "3", "-n", "10")
    assert rc == 0 and out == ""
    assert err == (
        f"cwlkit inst_eval: warning: {r} and {q} share no topic: nothing to print "
        "(as inst_eval.py)\n"
    )
    if not INST_EVAL.exists():
        pytest.skip("no inst_eval.py")
    ref = subprocess.run(
        [sys.executable, INST_EVAL, q, r, "-T", "3", "-n", "10"], capture_output=True, text=True
    )
    assert ref.returncode == 0 and ref.stdout == ""
    assert "No qrels were found for query 3" in ref.stderr


def test_rbp_eval_prints_nan_averages_as_rbp_eval(cli, files):
    q, r, _ = files
    rc, out, err = cli("rbp_eval", "-H", q, r)
    assert rc == 0
    assert err.splitlines() == [
        *(f"cwlkit rbp_eval: warning: there are no judgments for query id {t}" for t in "34"),
        f"cwlkit rbp_eval: warning: {r} and {q} share no topic: averages of nan (as rbp_eval)",
    ]
    exe = shutil.which("rbp_eval")
    if exe is None:
        pytest.skip("rbp_eval (the rbp-eval test extra) is not installed")
    ref = subprocess.run([exe, q, r], capture_output=True, text=True)
    assert ref.returncode == 0
    assert [x for x in ref.stdout.splitlines() if not x.startswith("#")] == out.splitlines()
    assert "there are no judgments for query id 3" in ref.stderr


def test_repo_is_untouched():
    """(cwl_eval writes cwl.log into its working folder: the test runs it in a temp dir.)"""
    assert not (REPO / "cwl.log").exists()


def test_a_shared_topic_gets_no_warning(cli, files, tmp_path):
    """The warning of cwl and ndeval is for files that share no topic, not for a run whose
    judged topics all score 0."""
    q, _, o = files
    zero = tmp_path / "zero.run"
    zero.write_text("1 Q0 b 1 2.0 r3\n1 Q0 x 2 1.0 r3\n")
    for run in (o, zero):
        for sub in ("cwl", "ndeval"):
            rc, _, err = cli(sub, q, run)
            assert rc == 0 and "share no topic" not in err
