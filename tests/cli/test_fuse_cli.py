"""``cwlkit fuse``: the file it writes is cwlkit.fuse's run, --compare prints the paired
comparison with the best input, and the fused run goes into compare and report as any run."""

from __future__ import annotations

import pytest
from conftest import DATA, plain_copy

import cwlkit

WEB = DATA / "web2012"
QRELS = WEB / "qrels.web.151-200.txt"


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    folder = tmp_path_factory.mktemp("fuse")
    return [
        plain_copy(WEB / "runs" / f"web2012.{n}.run.gz", folder) for n in ("ql.cata", "rm.cata")
    ]


def test_writes_the_api_run(cli, runs, tmp_path):
    out = tmp_path / "fused.run"
    rc, _, err = cli(
        "fuse", *runs, "-M", "wsum", "--weights", "0.7", "0.3", "--depth", "50", "-o", out
    )
    assert rc == 0, err
    want = cwlkit.fuse(runs, "wsum", weights=[0.7, 0.3], depth=50).to_dict()
    assert cwlkit.read_run(out).to_dict() == want
    assert cwlkit.read_run(out).runid == "wsum"


def test_compare_with_the_best_input(cli, runs, tmp_path):
    out = tmp_path / "fused.run"
    rc, text, err = cli("fuse", *runs, "-M", "RRF", "--compare", QRELS, "-m", "AP", "-o", out)
    assert rc == 0, err
    res = cwlkit.evaluate(QRELS, {str(r.name): r for r in runs}, ["AP"])
    best = max(res, key=lambda k: res[k].mean()["AP"])
    assert best in text and "rrf" in text and "paired t-test" in text
    # the same table as 'cwlkit compare' on the two files
    rc2, text2, _ = cli("compare", QRELS, runs[[r.name for r in runs].index(best)], out, "-m", "AP")
    assert rc2 == 0
    assert text.splitlines()[-1].split()[-4:] == text2.splitlines()[-1].split()[-4:]


def test_report_takes_the_fused_run(cli, runs, tmp_path):
    out = tmp_path / "fused.run"
    assert cli("fuse", *runs, "-M", "mnz", "-o", out)[0] == 0
    rc, _, err = cli("report", QRELS, runs[0], out, "-m", "AP", "-o", tmp_path / "r.md")
    assert rc == 0, err
    assert "| (b) fused |" in (tmp_path / "r.md").read_text()  # (report.run_names: no .run)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["-M", "combsun"], "did you mean 'combsum'"),
        (["-M", "wsum", "--weights", "1"], "weights must be 2 numbers"),
        (["-M", "rrf", "--param", "k"], "--param must be NAME=VALUE"),
        (["-M", "probfuse"], "learns from judged topics"),
        (["-M", "sum", "--norm", "minmax2"], "norm must be one of"),
    ],
)
def test_one_line_errors(cli, runs, tmp_path, args, message):
    rc, _, err = cli("fuse", *runs, *args, "-o", tmp_path / "x.run")
    assert rc != 0 and message in err and err.count("\n") == 1
