"""The ``cwlkit`` process (cli/main.py): the whole output and the exit status survive the
exit that skips the interpreter's teardown; a reader that goes away is no error."""

from __future__ import annotations

import subprocess
import sys

import pytest
from conftest import DATA

WEB = DATA / "web2012"
QRELS = WEB / "qrels.web.151-200.txt"
RUNS = sorted((WEB / "runs").glob("*.run.gz"))


def _cwlkit(*args, **kwargs) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "cwlkit", *map(str, args)], capture_output=True, **kwargs
    )


@pytest.mark.slow
def test_the_whole_output_reaches_a_file(cli, tmp_path):
    """A large output (every topic of every run), redirected to a file, arrives whole."""
    args = ["trec_eval", "-q", "-m", "all_trec", QRELS, *RUNS[:3]]
    out = tmp_path / "out.txt"
    with open(out, "wb") as fh:
        got = subprocess.run([sys.executable, "-m", "cwlkit", *map(str, args)], stdout=fh)
    assert got.returncode == 0
    rc, want, _ = cli(*args)
    assert rc == 0 and len(want) > 100_000 and out.read_text() == want


def test_errors_keep_their_status_and_message():
    got = _cwlkit("evaluate", QRELS, "no-such-run", "-m", "AP", text=True)
    assert got.returncode == 2 and got.stdout == ""
    assert got.stderr == "cwlkit: error: no-such-run: no such file\n"


def test_a_reader_that_stops_early_is_no_error():
    cmd = f"{sys.executable} -m cwlkit trec_eval -q {QRELS} {RUNS[0]} | head -n 1"
    got = subprocess.run(["bash", "-o", "pipefail", "-c", cmd], capture_output=True, text=True)
    assert got.returncode == 0 and got.stderr == ""
    assert got.stdout.startswith("runid") or got.stdout.startswith("num_ret")


@pytest.mark.parametrize(
    "args",
    [
        ["report", "{q}", "{r}", "{r2}", "-m", "AP", "-o", "{tmp}/missing-dir/x.html"],
        ["plot", "sweep", "--example", "-M", "RBP(p=0.1:0.9:0.4)", "-o", "{tmp}/missing-dir/x.png"],
    ],
    ids=["report", "plot"],
)
def test_an_output_file_that_cannot_be_written_is_one_line(cli, tmp_path, args):
    """A missing output folder is one error line naming the file (it was a traceback)."""
    runs = WEB / "runs"
    fill = {
        "q": WEB / "qrels.web.151-200.txt",
        "r": runs / "web2012.ql.cata.run.gz",
        "r2": runs / "web2012.rm.cata.run.gz",
        "tmp": tmp_path,
    }
    rc, out, err = cli(*[a.format(**fill) for a in args])
    assert (rc, out) == (2, "") and err.count("\n") == 1, err
    assert "missing-dir" in err and "No such file or directory" in err


@pytest.mark.parametrize("flag", ["--version", "-V"])
def test_version_names_the_release(flag):
    """``cwlkit --version`` prints ``cwlkit X.Y.Z``: the version in support/version.py, which
    is also the package's metadata version (pyproject reads it from there)."""
    from importlib.metadata import PackageNotFoundError, version

    from cwlkit.support.version import VERSION

    got = _cwlkit(flag, text=True)
    assert got.returncode == 0 and got.stderr == ""
    assert got.stdout == f"cwlkit {VERSION}\n"
    assert len(VERSION.split(".")) == 3 and all(p.isdigit() for p in VERSION.split("."))
    try:
        installed = version("cwlkit")
    except PackageNotFoundError:  # running from a source tree that is not installed
        return
    assert installed == VERSION


@pytest.mark.parametrize(
    ("args", "want"),
    [
        (
            ["evaluate", "example:qrels", "example:run", "-m", "AP", "--depth", "-1"],
            "--depth must be an integer >= 0; got -1",
        ),
        (
            ["fuse", "example:run", "example:run", "-M", "rrf", "--depth", "0", "-o", "f.run"],
            "--depth must be an integer >= 1; got 0",
        ),
        (
            ["fuse", "example:run", "example:run", "-M", "wsum", "--weights", "1", "-o", "f.run"],
            "--weights must be 2 numbers (one per run); got 1: [1.0]",
        ),
        (
            ["pool", "example:run", "-d", "5", "--pool-depth", "-1"],
            "--pool-depth must be an integer >= 1; got -1",
        ),
        # an API name with no flag of its own is left as it is (rrf's k, given by --param)
        (
            ["fuse", "example:run", "example:run", "-M", "rrf", "--param", "k=-1", "-o", "f.run"],
            "k must be a number >= 0; got -1.0",
        ),
    ],
)
def test_an_option_error_names_the_flag(cli, tmp_path, monkeypatch, args, want):
    """The API's checks name its options (``depth``, ``pool_depth``, "or None" for not
    given); on the command line the error names the flag the user typed."""
    monkeypatch.chdir(tmp_path)
    assert cli(*args) == (2, "", f"cwlkit: error: {want}\n")
