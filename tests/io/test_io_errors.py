"""Bad input: one-line errors naming file and line, exit status 2, nothing on stdout."""

from __future__ import annotations

import gzip

import pytest
from conftest import EXAMPLE

from cwlkit import read_qrels, read_run
from cwlkit.core.batch import build_batch
from cwlkit.errors import FormatError

# every test once with files read, once with files memory-mapped
pytestmark = pytest.mark.usefixtures("text_reader")

GOOD_Q = "1 0 a 1\n1 0 b 0\n"
GOOD_R = "1 Q0 a 1 2.0 x\n1 Q0 b 2 1.0 x\n"


def _files(tmp_path, q=GOOD_Q, r=GOOD_R):
    qp, rp = tmp_path / "qrels.txt", tmp_path / "run.txt"
    qp.write_text(q)
    rp.write_text(r)
    return qp, rp


@pytest.mark.parametrize(
    "q,r,needle",
    [
        ("1 0 a\n", GOOD_R, "qrels.txt:1: expected 4 fields"),
        (
            GOOD_Q + "1 0 c x\n",
            GOOD_R,
            "qrels.txt:3: expected a number for the relevance label, got 'x'",
        ),
        (GOOD_Q + "1 0 a 0\n", GOOD_R, "qrels.txt:3: document 'a' appears twice for topic '1'"),
        ("", GOOD_R, "qrels.txt: empty file"),
        (GOOD_Q, "1 Q0 a 1 2.0\n", "run.txt:1: expected 6 fields"),
        (
            GOOD_Q,
            "1 Q0 a 1 2.0 x\n\n1 Q0 b 2 high x\n",
            "run.txt:3: expected a number for the score, got 'high'",
        ),
        (
            GOOD_Q,
            GOOD_R + "1 Q0 a 3 0.5 x\n",
            "run.txt:3: document 'a' appears twice for topic '1' in the run (first at line 1)",
        ),
        (GOOD_Q, "  \n", "run.txt: empty file"),
        (GOOD_Q + "1 0 c nan\n", GOOD_R, "qrels.txt:3: expected a finite number"),
    ],
)
def test_bad_files(cli, tmp_path, q, r, needle):
    qp, rp = _files(tmp_path, q, r)
    rc, out, err = cli("cwl", qp, rp)
    assert rc == 2
    assert out == ""
    assert err.count("\n") == 1 and needle in err, err


def test_missing_file(cli, tmp_path):
    rc, out, err = cli("cwl", tmp_path / "nope", tmp_path / "nope2")
    assert rc == 2 and out == "" and "nope: no such file" in err


@pytest.mark.parametrize(
    "metric,needle",
    [
        ("FooCWLMetric()", "unknown measure 'FooCWLMetric'"),
        ("RBP(p=1.5)", "The 'p' parameter of RBP must be in (0.0, 1.0); got 1.5."),
        ("RBPCWLMetric(theta=abc)", "must be a number"),
        ("INSTCWLMetric(T=2, X=3)", "INSTCWLMetric has no parameter 'X'"),
        ("IFTGoalCWLMetric(2)", "needs a value for b1, R1"),
        ("PrecisionCWLMetric(k=2.5)", "must be an integer"),
        ("RBP(p=0.5", "cannot read metric"),
    ],
)
def test_bad_metrics(cli, tmp_path, metric, needle):
    qp, rp = _files(tmp_path)
    rc, out, err = cli("cwl", qp, rp, "-M", metric)
    assert rc == 2 and out == ""
    assert needle in err and err.count("\n") == 1, err


def test_metrics_file_syntax(cli, tmp_path):
    qp, rp = _files(tmp_path)
    mf = tmp_path / "metrics.txt"
    mf.write_text(
        "# comment\n\nPrecisionCWLMetric(k=2)\nRBPCWLMetric(8e-1)  # trailing\nINST(T=2)\n"
    )
    rc, out, err = cli("cwl", qp, rp, "-m", mf)
    assert rc == 0, err
    assert [line.split("\t")[1] for line in out.splitlines()] == ["P@2", "RBP@0.8", "INST(T=2)"]
    mf.write_text("RBPCWLMetric(0.5)\nNopeCWLMetric()\n")
    rc, out, err = cli("cwl", qp, rp, "-m", mf)
    assert rc == 2 and out == "" and "metrics.txt:2:" in err


def test_bad_options(cli, tmp_path):
    qp, rp = _files(tmp_path)
    for args, needle in [
        (["--max-depth", "0"], "--max-depth must be >= 1"),
        (["--gain", "weird"], "--gain must be"),
        (["--order", "x"], "invalid choice"),
    ]:
        rc, out, err = cli("cwl", qp, rp, *args)
        assert rc == 2 and out == "" and needle in err, err


def test_gzip_and_whitespace(tmp_path):
    p = tmp_path / "run.gz"
    p.write_bytes(gzip.compress(b"1\tQ0  a 1 2.0 x\r\n 1 Q0 b 2 1.0 x \n"))
    run = read_run(p)
    assert run.table.column("doc").to_pylist() == ["a", "b"]
    q = tmp_path / "q"
    q.write_text("1 0 a 1\n")
    b = build_batch(read_qrels(q), run)
    assert b.labels[0, 0] == 1 and not b.judged[0, 1]


def test_line_numbers_skip_blank_lines(tmp_path):
    p = tmp_path / "r"
    p.write_text("\n\n1 Q0 a 1 2 x\n\n1 Q0 b 2\n")
    with pytest.raises(FormatError) as e:
        read_run(p)
    assert e.value.line == 5


def test_no_write_to_cwd(cli, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    rc, out, err = cli("cwl", "--example")
    assert rc == 0 and list(tmp_path.iterdir()) == []


def test_topic_order_and_split_topics(cli, tmp_path):
    # lines of a topic anywhere in the file: one ranking per topic (cwl_eval evaluates twice)
    qp, rp = _files(
        tmp_path, "A 0 a 1\nB 0 b 1\n", "B Q0 b 1 1 x\nA Q0 x 1 3 x\nB Q0 c 2 0.5 x\nA Q0 a 2 2 x\n"
    )
    rc, out, _ = cli("cwl", qp, rp, "-M", "P@2")
    assert [line.split("\t")[:3] for line in out.splitlines()] == [
        ["A", "P@2", "0.5000"],
        ["B", "P@2", "0.5000"],
    ]
    rc, out, _ = cli("cwl", qp, rp, "-M", "P@2", "--order", "file")
    assert [line.split("\t")[0] for line in out.splitlines()] == ["B", "A"]


def test_example_runs(cli):
    rc, out, err = cli("cwl", "--example", "-n", "--mean", "-f", "json")
    assert rc == 0 and '"topic": "all"' in out
    assert (EXAMPLE / "example.metrics").exists()


def test_blank_variants_parse_like_single_spaces(tmp_path):
    p = tmp_path / "r"
    p.write_text("1  Q0 a 1 2.0 x\n 1 Q0 b 2 1.0 x  \n")
    assert read_run(p).table.column("doc").to_pylist() == ["a", "b"]
    p.write_text("1 Q0  a 1 2.0\n")  # five fields, one doubled blank: still an error
    with pytest.raises(FormatError, match="expected 6 fields"):
        read_run(p)


def test_utf8_text_parses_and_other_bytes_name_their_line(tmp_path):
    """Non-ASCII UTF-8 document ids are read as they are (the reader checks UTF-8 only for
    text that is not ASCII); a Latin-1 byte is an error naming its line."""
    qp, rp = tmp_path / "q.txt", tmp_path / "r.txt"
    qp.write_bytes("1 0 d\u00e9 1\n1 0 b 0\n".encode())
    rp.write_bytes("1 Q0 b 1 3.0 x\n1 Q0 d\u00e9 2 2.0 x\n".encode())
    batch = build_batch(read_qrels(qp), read_run(rp))
    assert batch.labels.tolist() == [[0.0, 1.0]]
    rp.write_bytes(b"1 Q0 b 1 3.0 x\n1 Q0 d\xe9 2 2.0 x\n")
    with pytest.raises(FormatError, match=r"r\.txt:2: expected UTF-8 text, got the byte 0xe9"):
        read_run(rp)


@pytest.mark.parametrize("at", [0, 1, 2])
@pytest.mark.parametrize("light", [True, False])
def test_a_field_short_by_a_doubled_blank_is_refused(tmp_path, at, light):
    """A line one field short whose empty field comes from a doubled blank (here the rank,
    a column a light run does not keep) is refused, wherever the line is, as trec_eval
    refuses it ('Malformed line'); it was read as a rank of '' (and the last line raised an
    IndexError)."""
    lines = ["1 Q0 a 1 3.0 x\n", "1 Q0 b 2 2.0 x\n", "1 Q0 c 3 1.0 x\n"]
    lines[at] = lines[at].replace(f" {at + 1} ", "  ")
    qp, rp = _files(tmp_path, r="".join(lines))
    with pytest.raises(FormatError, match=rf"run\.txt:{at + 1}: expected 6 fields .* got 5"):
        read_run(rp, light=light, qrels=read_qrels(qp))
    with pytest.raises(FormatError, match=rf"run\.txt:{at + 1}: expected 6 fields .* got 5"):
        read_run(rp, extra=True, light=light)


@pytest.mark.parametrize("text", ["1  a 1\n", "1 0 a 1\n 1 a 0\n", "1 0 a 1\n1 0 b \n"])
def test_qrels_field_short_by_a_blank_is_refused(tmp_path, text):
    qp, _ = _files(tmp_path, q=text)
    with pytest.raises(FormatError, match=r"qrels\.txt:\d: expected 4 fields .* got 3"):
        read_qrels(qp)


@pytest.mark.parametrize("chunk", ["none", "1"])
def test_trec_eval_refuses_a_field_short_by_a_doubled_blank(cli, tmp_path, chunk):
    """Read whole, and streamed (the partition's own parse)."""
    qp, rp = _files(tmp_path, r="1 Q0 b  2.0 x\n1 Q0 a 2 3.0 x\n")
    rc, out, err = cli("trec_eval", "--chunk-topics", chunk, "-m", "map", qp, rp)
    assert (rc, out) == (2, "")
    assert err.count("\n") == 1 and "run.txt:1: expected 6 fields" in err, err


@pytest.mark.parametrize("field", [0, 1, 3, 5, 6])
@pytest.mark.parametrize("at", [0, 1])
def test_a_byte_that_is_not_utf8_is_refused_in_any_field(tmp_path, field, at):
    """In any field (the topic, Q0, the rank, the tag, an extra field), on any line (the last
    line's tag is the run's name: it raised a UnicodeDecodeError), as one error."""
    lines = [["1", "Q0", "a", "1", "3.0", "x", "extra"], ["1", "Q0", "b", "2", "2.0", "x", "e"]]
    lines[at][field] += "\udcff"  # (the byte 0xff, written as it is)
    text = "".join(" ".join(f) + "\n" for f in lines)
    qp, rp = _files(tmp_path)
    rp.write_bytes(text.encode("utf-8", "surrogateescape"))
    for light in (True, False):
        with pytest.raises(FormatError, match=rf"run\.txt:{at + 1}: expected UTF-8 text"):
            read_run(rp, extra=True, light=light, qrels=read_qrels(qp))


def test_utf8_check_names_the_line_across_slices():
    """A memory map is decoded a slice at a time: a bad byte anywhere, at any slice size
    (a character split between two slices is no error), names its line."""
    from cwlkit.io.text import check_utf8

    text = ("é" * 5 + "\n").encode() * 3
    for step in (1, 2, 3, 5, 64):
        check_utf8("f", text, step=step)
        for bad in range(len(text)):
            b = bytearray(text)
            b[bad] = 0xFF
            with pytest.raises(FormatError) as exc:
                check_utf8("f", bytes(b), step=step)
            assert exc.value.line == b[:bad].count(b"\n") + 1


def test_a_score_beyond_float32_is_infinite_without_a_warning(cli, tmp_path):
    """trec_eval 9.0.8 keeps scores as C floats: 1e39 is +inf (ranked first), -1e39 -inf;
    nothing on stderr (numpy's overflow warning was printed). The C program prints the same."""
    qp, rp = _files(tmp_path, r="1 Q0 a 1 -1e39 x\n1 Q0 b 2 1e39 x\n1 Q0 c 3 1e38 x\n")
    want = "relstring             \t1\t'0-1'\n"  # b (judged 0), c (unjudged), a (relevant)
    assert cli("trec_eval", "-q", "-m", "relstring", qp, rp) == (0, want, "")


@pytest.mark.parametrize("bad", ["1_0", "\u0661", "+-1"])
def test_a_label_python_reads_but_arrow_does_not_names_its_line(tmp_path, bad):
    qp, _ = _files(tmp_path, q=f"1 0 a 1\n1 0 b {bad}\n")
    with pytest.raises(FormatError, match=r"qrels\.txt:2: expected a number"):
        read_qrels(qp)


def test_an_empty_file_name_is_no_directory():
    """``evaluate('', run)`` said ': is a directory' (Path('') is the working directory)."""
    import cwlkit
    from cwlkit.errors import CwlkitError

    with pytest.raises(CwlkitError, match="an empty file name"):
        cwlkit.evaluate("", cwlkit.example("run"), ["AP"])
    with pytest.raises(CwlkitError, match="an empty file name"):
        cwlkit.evaluate(cwlkit.example("qrels"), "", ["AP"])
