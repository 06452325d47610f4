"""read_text: large plain files are memory-mapped, everything else is read; the readers give
the same tables and the same errors either way."""

from __future__ import annotations

import gzip
import mmap

import pytest

from cwlkit.errors import FormatError
from cwlkit.io import text as io_text
from cwlkit.io.trec import read_qrels, read_run

RUN = "1 Q0 a 1 2.0 x\n1\tQ0 b 2 1.0 x\r\n#c Q0 c 3 0.5 x\n2 Q0 a 1 9 y\n"


@pytest.fixture
def mapped(monkeypatch):
    monkeypatch.setattr(io_text, "MAP_BYTES", 1)


def test_large_plain_files_are_mapped(tmp_path, mapped):
    p = tmp_path / "run.txt"
    p.write_bytes(RUN.encode())
    got = io_text.read_text(p)
    assert isinstance(got, mmap.mmap) and got[:] == RUN.encode()
    z = tmp_path / "run.gz"
    z.write_bytes(gzip.compress(RUN.encode()))
    assert io_text.read_text(z) == RUN.encode()  # un-gzipped, as bytes
    (tmp_path / "empty").write_bytes(b"")
    assert io_text.read_text(tmp_path / "empty") == b""


def test_small_files_are_read(tmp_path):
    p = tmp_path / "run.txt"
    p.write_bytes(RUN.encode())
    assert isinstance(io_text.read_text(p), bytes)


def test_normalise_a_map(tmp_path, mapped):
    p = tmp_path / "run.txt"
    p.write_bytes(b"1 Q0 a 1 2.0 x\n")
    m = io_text.read_text(p)
    assert io_text.normalise(m, full=False) is m  # nothing to change: no copy
    p.write_bytes(RUN.encode())
    for comments in (False, True):
        for full in (False, True):
            want = io_text.normalise(RUN.encode(), comments=comments, full=full)
            assert (
                bytes(io_text.normalise(io_text.read_text(p), comments=comments, full=full)) == want
            )


@pytest.mark.parametrize("comments", [False, True])
def test_same_tables(tmp_path, monkeypatch, comments):
    p = tmp_path / "run.txt"
    p.write_bytes(RUN.encode())
    q = tmp_path / "qrels.txt"
    q.write_bytes(b"1 0 a 1\n1\t0 b 0\r\n2 0 a 2\n")
    read = read_run(p, comments=comments), read_qrels(q, comments=comments)
    monkeypatch.setattr(io_text, "MAP_BYTES", 1)
    mapped = read_run(p, comments=comments), read_qrels(q, comments=comments)
    for a, b in zip(read, mapped, strict=True):
        assert a.table.equals(b.table)
        assert list(a.lines) == list(b.lines)


def test_errors_name_the_line(tmp_path, mapped):
    p = tmp_path / "run.txt"
    p.write_bytes(b"1 Q0 a 1 2.0 x\n\n1 Q0 b 2 high x\n")
    with pytest.raises(FormatError, match=r"run.txt:3: expected a number for the score"):
        read_run(p)
    p.write_bytes(b"1 Q0 a 1 2.0 x\n1 Q0 b\n")
    with pytest.raises(FormatError, match=r"run.txt:2: expected 6 fields"):
        read_run(p)
    p.write_bytes("1 Q0 a 1 2.0 x\n1 Q0 \xe9 2 1.0 x\n".encode("latin-1"))
    with pytest.raises(FormatError, match=r"run.txt:2: expected UTF-8 text"):
        read_run(p)


@pytest.mark.parametrize(
    ("text", "comments", "tag"),
    [
        (b"1 Q0 a 1 2 x\n1 Q0 b 2 1 y\n", False, "y"),
        (b"1 Q0 a 1 2 x\n1 Q0 b 2 1 y\n\n  \n", False, "y"),  # trailing blank lines
        (b"1 Q0 a 1 2 x\r\n1\tQ0 b 2 1\ty \r\n", False, "y"),  # tabs, CRLF
        (b"1 Q0 a 1 2 x\n1 Q0 b 2 1 y extra\n", False, "y"),  # trec_eval's extra fields
        (b"1 Q0 a 1 2 x\n#1 Q0 b 2 1 y\n", True, "x"),  # trec_eval 10.0's comment lines
        (b"1 Q0 a 1 2 x\n1 Q0 b 2 1 r\xc3\xa9\n", False, "r\xe9"),
    ],
)
def test_the_light_run_keeps_the_last_tag(tmp_path, text_reader, text, comments, tag):
    p = tmp_path / "run.txt"
    p.write_bytes(text)
    light = read_run(p, comments=comments, extra=True, light=True)
    full = read_run(p, comments=comments, extra=True)
    assert light.runid == full.runid == tag
    assert io_text.last_field(text, 5, comments=comments) == tag
    assert light.table.column("tag").to_pylist() == [tag] * light.table.num_rows
