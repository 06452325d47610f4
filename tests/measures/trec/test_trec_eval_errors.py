"""Bad input to ``cwlkit trec_eval``: trec_eval's own checks (duplicate documents, malformed
lines, bad measure parameters) as one-line errors naming the file and line, a non-zero exit
status, and nothing on standard output.
"""

from __future__ import annotations

import pytest

QRELS = "1 0 a 1\n1 0 b 0\n2 0 c 2\n"
RUN = "1 Q0 a 1 2.0 r\n1 Q0 b 2 1.0 r\n2 Q0 c 1 1.0 r\n"


def _files(tmp_path, qrels=QRELS, run=RUN):
    q, r = tmp_path / "q.txt", tmp_path / "r.txt"
    q.write_text(qrels)
    r.write_text(run)
    return str(q), str(r)


def _fails(cli, *args, match):
    rc, out, err = cli("trec_eval", *args)
    assert rc != 0
    assert out == ""
    assert err.startswith("cwlkit: error: ") and err.endswith("\n") and err.count("\n") == 1
    assert match in err, err
    return err


def test_ok(cli, tmp_path):
    q, r = _files(tmp_path)
    rc, out, err = cli("trec_eval", "-m", "map", q, r)
    assert rc == 0 and out == "map                   \tall\t1.0000\n" and err == ""


@pytest.mark.parametrize(
    ("qrels", "run", "where"),
    [
        (QRELS, RUN + "1 Q0 a 3 0.5 r\n", "r.txt:4"),  # duplicate document in the run
        (QRELS + "1 0 b 1\n", RUN, "q.txt:4"),  # duplicate document in the qrels
    ],
)
def test_duplicate_documents(cli, tmp_path, qrels, run, where):
    q, r = _files(tmp_path, qrels, run)
    err = _fails(cli, q, r, match=where)
    assert "twice" in err


@pytest.mark.parametrize(
    ("qrels", "run", "where"),
    [
        (QRELS, RUN + "2 Q0 d 2\n", "r.txt:4"),  # too few fields
        (QRELS, RUN.replace("1.0 r\n2", "x r\n2"), "r.txt:2"),  # score not a number
        (QRELS + "2 0 d\n", RUN, "q.txt:4"),  # qrels line without label
        ("", RUN, "q.txt"),  # empty qrels
    ],
)
def test_malformed_lines(cli, tmp_path, qrels, run, where):
    q, r = _files(tmp_path, qrels, run)
    _fails(cli, q, r, match=where)


def test_comment_lines_are_errors_in_9_and_skipped_in_10(cli, tmp_path):
    q, r = _files(tmp_path, run="# a comment\n" + RUN)
    _fails(cli, q, r, match="r.txt:1")
    rc, out, _ = cli("trec_eval", "--trec-version", "10", "-m", "map", q, r)
    assert rc == 0 and out.endswith("\t1.0000\n")


def test_extra_columns_are_ignored(cli, tmp_path):
    q, r = _files(tmp_path, run=RUN.replace(" r\n", " r some junk\n"))
    rc, out, _ = cli("trec_eval", "-m", "map", q, r)
    assert rc == 0 and out == "map                   \tall\t1.0000\n"


@pytest.mark.parametrize(
    ("args", "match"),
    [
        (["-m", "nosuch"], "unknown measure 'nosuch'"),
        (["-m", "P.5,5"], "duplicate cutoffs"),
        (["-m", "P.0,5"], "positive"),
        (["-m", "P."], "improper measure"),
        (["-m", "ndcg.1=2,3"], "malformed pair"),
        (["-m", "unj"], "unknown measure 'unj'"),  # 10.0 only
        (["-R", "bogus"], "rel_format"),
        (["-T", "other"], "results format"),
        (["-M", "x"], "-M expects an integer"),
        (["--nosuch"], "unrecognized arguments"),
    ],
)
def test_bad_options(cli, tmp_path, args, match):
    q, r = _files(tmp_path)
    _fails(cli, *args, q, r, match=match)


def test_missing_file_and_no_common_topic(cli, tmp_path):
    q, r = _files(tmp_path)
    _fails(cli, q, str(tmp_path / "nope.txt"), match="nope.txt: no such file")
    q2, r2 = _files(tmp_path, run="9 Q0 a 1 2.0 r\n")
    _fails(cli, q2, r2, match="no topic")


def test_needs_two_files(cli):
    _fails(cli, "only-one", match="needs QRELS and RUN")


def test_help_and_measure_help(cli):
    rc, out, _ = cli("trec_eval", "-h", "-m", "bpref")
    assert rc == 0 and "usage: cwlkit trec_eval" in out and "\nbpref\n" in out


@pytest.mark.parametrize(
    ("zscores", "match"),
    [
        ("1 map 0.5 0.1\n1 P_5 0.5\n", "z.txt:2: expected 4 fields"),
        ("1 map 0.5 0.1\n\n1 P_5 x 0.1\n", "z.txt:3: expected a number for the mean, got 'x'"),
    ],
)
def test_bad_zscores_file(cli, tmp_path, zscores, match):
    q, r = _files(tmp_path)
    z = tmp_path / "z.txt"
    z.write_text(zscores)
    _fails(cli, "-Z", str(z), "-m", "map", q, r, match=match)


def test_zscores_by_hand(cli, tmp_path):
    # map is 1 on both topics: z = (1 - 0.5) / 0.25 = 2 and (1 - 0.75) / 0.5 = 0.5, mean 1.25
    q, r = _files(tmp_path)
    z = tmp_path / "z.txt"
    z.write_text("1 map 0.5 0.25\n2 map 0.75 0.5\n")
    rc, out, err = cli("trec_eval", "-q", "-Z", str(z), "-m", "map", q, r)
    assert rc == 0, err
    assert out.splitlines()[-1] == "Z" + "map".ljust(22) + "\tall\t1.2500"  # trec_eval prefixes Z


@pytest.mark.parametrize("chunk", ["none", "1"])
def test_indented_comment_lines_of_a_run_are_skipped_in_10(cli, tmp_path, chunk):
    """trec_eval 10.0's results reader skips blanks before looking for ``#`` (found by fuzzing
    against it); 9.0.8 does not, nor does 10.0's qrels reader: there `` # a b c`` is a line of
    data (topic ``#``, label ``c``, which ``atol`` reads as 0), and 10.0 stops on that qrels
    topic without results, as the C program does ("result qid '#' not found in qrels")."""
    q, r = _files(tmp_path, run=RUN + " #\n\t# a b c d e\n")
    _fails(cli, "--chunk-topics", chunk, q, r, match="r.txt:4")
    rc, out, err = cli("trec_eval", "--chunk-topics", chunk, "--trec-version", "10", q, r)
    assert (rc, err) == (0, "") and out == cli(
        "trec_eval", "--trec-version", "10", *_files(tmp_path)
    )[1]
    q, r = _files(tmp_path, qrels=QRELS + " # a b c\n")
    _fails(cli, "--chunk-topics", chunk, "--trec-version", "10", q, r, match="topic '#'")


@pytest.mark.parametrize("chunk", ["none", "1"])
def test_no_common_topic_with_c_in_10_scores_stand_ins(cli, tmp_path, chunk):
    """trec_eval 10.0 with -c scores every qrels topic on its stand-in ranking even when no run
    topic is judged (these lines are what the C program prints); 9.0.8 refuses, as without -c."""
    q, r = _files(tmp_path, qrels="1 0 d1 1\n", run="2 Q0 d1 1 1 t\n")
    args = ["--chunk-topics", chunk, "-c", "-q", "-m", "map", "-m", "num_q", q, r]
    want = "".join(
        f"{name:<22}\t{topic}\t{value}\n"
        for name, topic, value in [
            ("map", "1", "0.0000"),
            ("num_q", "all", "1"),
            ("map", "all", "0.0000"),
        ]
    )
    assert cli("trec_eval", "--trec-version", "10", *args) == (0, want, "")
    _fails(cli, *args, match="share no topic")


@pytest.mark.parametrize(
    "label", ["10000000000000000000", "1e300", "-1e300", "9007199254740993", "-9007199254740993"]
)
def test_labels_beyond_2_to_the_53_are_refused(tmp_path, label):
    """trec_eval reads labels as integers and cannot compute its measures past a long's range
    ("Can't calculate measure"); cwlkit gave nDCG@10 0.4612 for 1e19 and 0 for 1e300, and
    read 2^53 + 1 as 2^53. The reader contract refuses them for every measure family,
    naming the file and the line (2^53 itself is read)."""
    import cwlkit
    from cwlkit.errors import FormatError

    q, r = tmp_path / "q.txt", tmp_path / "r.txt"
    q.write_text(f"1 0 d2 1\n1 0 d1 {label}\n1 0 d3 0\n1 0 d4 1\n")
    r.write_text("1 Q0 d1 1 4 t\n1 Q0 d3 2 3 t\n1 Q0 d2 3 2 t\n1 Q0 d9 4 1 t\n")
    for measure in ("nDCG@10", "RBP(p=0.8)"):
        with pytest.raises(FormatError, match=f"q.txt:2: expected a relevance label .*{label}"):
            cwlkit.evaluate(q, r, [measure])
    q.write_text("1 0 d2 1\n1 0 d1 9007199254740992\n")
    assert cwlkit.evaluate(q, r, ["RBP(p=0.8)"], gain="linear").mean()


@pytest.mark.parametrize(
    ("spec", "match"),
    [
        # atof (glibc strtod) reads "nan" and "inf": the message names them, not 0 (it said
        # "The 'p' parameter of RBP_trec must be in (0.0, 1.0); got 0.")
        ("rbp.p=nan", "-m rbp.p=nan: 'nan' is not a finite number"),
        ("rbp.p=-INF", "-m rbp.p=-INF: '-INF' is not a finite number"),
        ("ndcg.1=nan", "-m ndcg.1=nan: 'nan' is not a finite number"),
        # text atof reads as 0: the message shows the parameter as typed
        ("rbp.p=abc", "-m rbp.p=abc: The 'p' parameter of RBP_trec must be in (0.0, 1.0); got 0"),
        ("rbp.p=1.5", "-m rbp.p=1.5: The 'p' parameter of RBP_trec must be in (0.0, 1.0); got 1.5"),
    ],
)
def test_bad_measure_parameters_say_what_was_typed(cli, tmp_path, spec, match):
    q, r = _files(tmp_path)
    _fails(cli, "-m", spec, q, r, match=match)


def test_atof_reads_what_c_reads():
    from cwlkit.measures.trec.rows import parse_params
    from cwlkit.measures.trec.spec import BY_NAME

    def _atof(text):
        return parse_params(BY_NAME["iprec_at_recall"], text)[0]

    assert _atof("0x1p-1") == 0.5 and _atof("0.8xyz") == 0.8 and _atof("abc") == 0.0
    assert _atof("-Infinity") == float("-inf") and _atof("NaN") != _atof("NaN")
    assert parse_params(BY_NAME["rbp"], "p=0x1p-1") == (("p", 0.5),)
