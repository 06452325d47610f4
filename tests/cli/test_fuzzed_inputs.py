"""Inputs found by fuzzing every command (about 7,000 cases) that raised a traceback or took
all the memory: each is now one line on stderr, exit status 2 and nothing on stdout (or, in
the API, a CwlkitError), or a value."""

from __future__ import annotations

import gzip

import pytest

import cwlkit
from cwlkit.errors import CwlkitError

Q = "1 0 d1 1\n2 0 d1 1\n"
R = "1 Q0 d1 1 1.0 r\n2 Q0 d1 1 1.0 r\n"


@pytest.fixture
def files(tmp_path):
    q, r = tmp_path / "q.txt", tmp_path / "r.txt"
    q.write_text(Q)
    r.write_text(R)
    bad = bytearray(gzip.compress(R.encode()))
    bad[10] ^= 0xFF  # (the deflate stream: zlib.error, not gzip's OSError)
    (tmp_path / "r.gz").write_bytes(bytes(bad))
    return tmp_path


def _one_error(cli, *args, match):
    rc, out, err = cli(*args)
    assert (rc, out) == (2, ""), err
    assert err.count("\n") == 1 and match in err, err


@pytest.mark.parametrize(
    ("args", "match"),
    [
        (["evaluate", "q.txt", "r.gz", "-m", "AP"], "not a valid gzip file"),
        (["cwl", "q.txt", "r.gz"], "not a valid gzip file"),
        (["trec_eval", "--chunk-topics", "1", "q.txt", "r.gz"], "not a valid gzip file"),
        (["evaluate", "q.txt", "r.txt", "-m", "P@99999999999999999999"], "at most 2,147,483,647"),
        (["evaluate", "q.txt", "r.txt", "-m", "AP(k=9223372036854775807)"], "at most"),
        (["evaluate", "q.txt", "r.txt", "-m", "P(k=inf)"], "must be an integer"),
        (["cwl", "q.txt", "r.txt", "-M", "SDCG(k=-inf)"], "must be an integer"),
        (["cwl", "q.txt", "r.txt", "--max-depth", "1000000000"], "GiB an array"),
        (["evaluate", "q.txt", "r.txt", "-m", "CWL_scaled(depth=1000000000)"], "GiB an array"),
        (["inst_eval", "q.txt", "r.txt", "-T", "2", "-n", "9" * 20, "--compat"], "at most"),
    ],
)
def test_one_line_errors(cli, files, monkeypatch, args, match):
    monkeypatch.chdir(files)
    _one_error(cli, *args, match=match)


def test_a_topic_values_file_that_is_not_utf8(cli, files, monkeypatch):
    monkeypatch.chdir(files)
    (files / "tpq.txt").write_bytes(b"1 2\n\xff 2\n")
    _one_error(
        cli, "inst_eval", "q.txt", "r.txt", "-tpq", "tpq.txt", match="tpq.txt:2: expected UTF-8"
    )


def test_a_letor_label_beyond_64_bits(cli, files, monkeypatch):
    monkeypatch.chdir(files)
    big = "99999999999999999999"
    (files / "f.txt").write_text(f"1 qid:1 1:0.5 #docid = b\n{big} qid:1 1:0.5 #docid = a\n")
    (files / "p.txt").write_text("0.5\n0.4\n")
    _one_error(
        cli,
        "letor",
        "score",
        "f.txt",
        "p.txt",
        "-",
        "0",
        match=f"f.txt:2: relevance label out of range: '{big}'",
    )


def test_empty_in_memory_qrels_or_run(files):
    """An empty qrels or run (a valid, empty object) shares no topic with the other input; with
    the run's topics, every document of the run is unjudged (an empty qrels raised an
    IndexError looking up the labels)."""
    run = str(files / "r.txt")
    with pytest.raises(CwlkitError, match="share no topic"):
        cwlkit.evaluate({}, run, ["AP"])
    with pytest.raises(CwlkitError, match="share no topic"):
        cwlkit.evaluate(str(files / "q.txt"), {"1": {}}, ["AP"])
    assert cwlkit.evaluate({}, run, ["AP"], topics="run").per_topic("AP") == {"1": 0.0, "2": 0.0}


def test_f_with_a_huge_beta_is_recall(files):
    """F(beta) tends to R as beta grows; beta ** 2 overflowed past 1e154."""
    res = cwlkit.evaluate(str(files / "q.txt"), str(files / "r.txt"), ["F(beta=1e300)", "R@1000"])
    assert res.per_topic("F(beta=1e+300)") == res.per_topic("R@1000") == {"1": 1.0, "2": 1.0}


def test_a_depth_past_any_ranking_keeps_everything(cli, files, monkeypatch):
    """``--depth`` / ``-M`` beyond 64 bits cut nothing (they overflowed numpy's int64)."""
    monkeypatch.chdir(files)
    (files / "d.txt").write_text("1 1 d1 1\n2 1 d1 1\n")
    for args in (
        ["evaluate", "q.txt", "r.txt", "-m", "AP"],
        ["inst_eval", "q.txt", "r.txt", "-T", "2"],
        ["ndeval", "d.txt", "r.txt"],
    ):
        flag = {"evaluate": "--depth", "inst_eval": "-n", "ndeval": "-M"}[args[0]]
        whole = cli(*args)
        assert whole[0] == 0
        assert cli(*args, flag, "9" * 20) == whole


def test_letor_exponential_gain_of_a_label_past_1023(cli, files, monkeypatch):
    """2^2000 - 1 overflowed to inf, and NDCG was printed 0 (evaluate, cwl and gdeval already
    refused such labels)."""
    monkeypatch.chdir(files)
    (files / "f.txt").write_text("2000 qid:1 1:0.5 #docid = a\n1 qid:1 1:0.4 #docid = b\n")
    (files / "p.txt").write_text("0.5\n0.4\n")
    _one_error(
        cli, "letor", "score", "f.txt", "p.txt", "-", "1", "--gain", "exp", match="at most 1023"
    )


def test_an_error_quoting_a_huge_field_is_clipped(cli, files, monkeypatch):
    """The message quotes the bad value, clipped: a 100 kB field gave a 100 kB error line."""
    monkeypatch.chdir(files)
    (files / "big.txt").write_text("1 0 d1 1" + "x" * 100_000 + "\n")
    rc, out, err = cli("evaluate", "big.txt", "r.txt", "-m", "AP")
    assert (rc, out, err.count("\n")) == (2, "", 1)
    assert err.startswith("cwlkit: error: big.txt:1: expected a number") and len(err) < 600
    assert err.endswith(" [...]\n")


def test_a_parameter_that_overflows_is_one_line_and_no_warning(files):
    """A parameter at the edge of the float range (Utility's a=1e308: a x 2^55 overflows) is
    refused on one line, with no RuntimeWarning and its source lines on stderr (a process of
    its own: the filter is the command line's, not the library's)."""
    import subprocess
    import sys

    (files / "q2.txt").write_text("1 0 d1 1\n1 0 d2 1\n")
    (files / "r2.txt").write_text("1 Q0 d1 1 2 r\n1 Q0 d2 2 1 r\n")
    cmd = [sys.executable, "-m", "cwlkit", "evaluate", "q2.txt", "r2.txt", "-m", "Utility(a=1e308)"]
    got = subprocess.run(cmd, cwd=files, capture_output=True, text=True)
    assert (got.returncode, got.stdout) == (2, "")
    assert got.stderr.count("\n") == 1 and "'a' parameter of Utility" in got.stderr, got.stderr


def test_an_infinite_cost_bound_is_refused(cli, files, monkeypatch):
    monkeypatch.chdir(files)
    _one_error(
        cli, "cwl", "q.txt", "r.txt", "--max-cost", "inf", match="--max-cost must be a finite"
    )


def test_an_error_naming_a_file_with_a_newline_is_one_line(cli, files, monkeypatch):
    monkeypatch.chdir(files)
    rc, out, err = cli("evaluate", "no\nsuch", "r.txt", "-m", "AP")
    assert (rc, out) == (2, "")
    assert err == "cwlkit: error: no\\nsuch: no such file\n"


# found by fuzzing the API's in-memory forms (about 200,000 cases)


@pytest.mark.parametrize(
    "options",
    [
        {"gain": None},
        {"gain": ["linear"]},
        {"max_gain": "x"},
        {"min_gain": float("nan")},
        {"costs": 5},
        {"doc_costs": {"a": 1}},
    ],
)
def test_option_types_are_checked(files, options):
    """They were raw AttributeError, TypeError or UFuncTypeError when a C/W/L measure read
    them, and ignored otherwise."""
    with pytest.raises(CwlkitError, match="must be"):
        cwlkit.Evaluator(str(files / "q.txt"), ["AP"], **options)


@pytest.mark.parametrize(
    "qrels",
    [
        lambda: __import__("pandas").DataFrame({"qid": ["1"], "docno": ["a"], "rel": [2**64]}),
        lambda: {"1": {"\ud800": 1}},
    ],
    ids=["int-past-64-bits", "lone-surrogate"],
)
def test_values_no_column_holds_are_one_error(files, qrels):
    with pytest.raises(CwlkitError, match="cannot read the qrels"):
        cwlkit.evaluate(qrels(), str(files / "r.txt"), ["AP"])


def test_an_empty_run_dict_is_one_empty_run(files):
    """``{}`` was taken for a mapping of no runs, and ``evaluate`` returned ``{}``."""
    res = cwlkit.evaluate(str(files / "q.txt"), {}, ["AP"], topics="qrels")
    assert res.per_topic("AP") == {"1": 0.0, "2": 0.0}


def test_judged_only_keeps_a_label_between_minus_one_and_zero(files):
    """-0.5 is judged non-relevant (0 once truncated), as in ``cwlkit trec_eval -J``."""
    q, r = {"q1": {"a": -0.5, "b": 1}}, {"q1": {"a": 2.0, "b": 1.0}}
    res = cwlkit.evaluate(q, r, ["AP", "NumRet"], judged_only=True)
    assert (res.per_topic("AP")["q1"], res.per_topic("NumRet")["q1"]) == (0.5, 2.0)


@pytest.mark.parametrize(
    "run",
    [
        [("1", float("nan"), 0.5), ("1", "a", 0.7)],
        {"1": {__import__("numpy").float32("nan"): 0.5}},
    ],
    ids=["records", "dict"],
)
def test_a_nan_id_is_refused_as_in_tables(files, run):
    """A NaN document id was read as the id "nan" from dicts and records."""
    with pytest.raises(CwlkitError, match=r"expected a document id, got .*nan"):
        cwlkit.evaluate(str(files / "q.txt"), run, ["AP"])
