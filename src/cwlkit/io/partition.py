"""Stream a TREC qrels or run file into topic buckets on disk (bounded memory).

The file is read in blocks of whole lines (``BLOCK`` bytes); each block is parsed and checked
as :func:`cwlkit.io.trec.read_qrels` / :func:`~cwlkit.io.trec.read_run` check a whole file
(errors name the file and its line), and its rows go to bucket ``crc32(topic) % buckets``,
an Arrow IPC stream in a temporary directory: every line of a topic lands in one bucket, so a
bucket can be evaluated alone. Only one block and the buckets' write buffers are in memory.
Duplicate documents are checked bucket by bucket when the buckets are read back.
"""

from __future__ import annotations

import zlib
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pyarrow as pa

from ..errors import CwlkitError, FormatError
from ._text import encode_runs, from_numpy, parse_floats, split_columns
from .trec import QRELS_COLUMNS, RUN_COLUMNS, Qrels, Run, _check_duplicates

#: bytes of text parsed at a time
BLOCK = 1 << 25


@dataclass
class Parts:
    """Where the buckets of one file are, and what the whole file holds."""

    path: str
    kind: str  # "qrels" or "run"
    files: list[Path]
    topics: set[str] = field(default_factory=set)
    labels: set[float] = field(default_factory=set)
    last_tag: str = ""
    rows: int = 0

    def read(self, k: int):
        """Bucket ``k`` as a :class:`Qrels` or :class:`Run` (duplicates checked)."""
        f = self.files[k]
        if not f.exists():
            return None
        with pa.ipc.open_stream(f) as reader:
            table = reader.read_all().combine_chunks()
        lines = table.column("line").to_numpy()
        table = table.drop_columns(["line"])
        obj = (Qrels if self.kind == "qrels" else Run)(table, lines, self.path)
        _check_duplicates(self.path, table, lines, self.kind, obj.codes())
        return obj


def _blocks(path: str):
    """(text of whole lines, number of its first line) of the file, block by block."""
    try:
        f = open(path, "rb")  # noqa: SIM115 (closed below)
    except FileNotFoundError:
        raise CwlkitError(f"{path}: no such file") from None
    except IsADirectoryError:
        raise CwlkitError(f"{path}: is a directory, expected a file") from None
    except PermissionError:
        raise CwlkitError(f"{path}: permission denied") from None
    with f:
        carry = b""
        line = 1
        while True:
            buf = f.read(BLOCK)
            if not buf:
                break
            data = carry + buf
            cut = data.rfind(b"\n") + 1
            if cut == 0:
                carry = data
                continue
            block, carry = data[:cut], data[cut:]
            yield block, line
            line += block.count(b"\n")
        if carry:
            yield carry, line


def _shifted(exc: FormatError, path: str, first: int) -> FormatError:
    line = None if exc.line is None else exc.line + first - 1
    return FormatError(path, line, exc.msg)


def estimate_topics(path: str) -> int:
    """About how many topics the file holds (from its first block and its size)."""
    import os

    size = os.path.getsize(path)
    with open(path, "rb") as f:
        head = f.read(min(size, 1 << 22))
    cut = head.rfind(b"\n") + 1 or len(head)
    first = {ln.split(None, 1)[0] for ln in head[:cut].splitlines() if ln.strip()}
    return max(1, int(len(first) * size / max(cut, 1)))


def partition(
    path: str,
    kind: str,
    buckets: int,
    tmpdir: Path,
    *,
    comments: bool = False,
    extra: bool = False,
) -> Parts:
    """Split ``path`` (a plain qrels or run file) into ``buckets`` topic buckets."""
    names = QRELS_COLUMNS if kind == "qrels" else RUN_COLUMNS
    expected = (
        "topic iteration document label"
        if kind == "qrels"
        else ("topic Q0 document rank score tag")
    )
    keep = (
        ("topic", "doc", "label_text") if kind == "qrels" else ("topic", "doc", "score_text", "tag")
    )
    value = "label_text" if kind == "qrels" else "score_text"
    out = Parts(path, kind, [tmpdir / f"{kind}.{k}.arrow" for k in range(buckets)])
    writers: dict[int, pa.ipc.RecordBatchStreamWriter] = {}
    try:
        for block, first in _blocks(path):
            if not block.strip():
                continue
            try:
                table, lines = split_columns(
                    "-", block, names, expected, comments=comments, extra=extra, keep=keep
                )
                lines = np.asarray(lines) + (first - 1)
                vals = parse_floats(
                    "-",
                    table.column(value),
                    lines - (first - 1),
                    "the relevance label" if kind == "qrels" else "the score",
                    finite=kind == "qrels",
                )
            except FormatError as exc:
                if exc.line is None and exc.msg.startswith("empty file"):
                    continue  # a block of comments
                raise _shifted(exc, path, first) from None
            table = table.drop_columns([value])
            table = table.append_column("label" if kind == "qrels" else "score", from_numpy(vals))
            table = table.append_column("line", from_numpy(lines.astype(np.int64)))
            out.rows += table.num_rows
            if kind == "qrels":
                out.labels.update(np.unique(vals[np.isfinite(vals)]).tolist())
            else:
                out.last_tag = str(table.column("tag")[-1].as_py())
            codes, dictionary = encode_runs(table.column("topic"))
            topics = [str(t) for t in dictionary.to_pylist()]
            out.topics.update(topics)
            bucket_of = np.array([zlib.crc32(t.encode()) % buckets for t in topics], np.int64)
            b = bucket_of[codes]
            order = np.argsort(b, kind="stable")
            bounds = np.searchsorted(b[order], np.arange(buckets + 1))
            for k in np.flatnonzero(np.diff(bounds)):
                part = table.take(from_numpy(order[bounds[k] : bounds[k + 1]]))
                w = writers.get(int(k))
                if w is None:
                    w = writers[int(k)] = pa.ipc.new_stream(out.files[k], part.schema)
                w.write_table(part)
            del table, codes, order, b, vals
    finally:
        for w in writers.values():
            w.close()
    if out.rows == 0:
        raise FormatError(path, None, f"empty file: expected lines of the form '{expected}'")
    return out
