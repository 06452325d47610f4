"""Stream a TREC qrels or run file into topic buckets on disk (bounded memory).

The file is read in blocks of whole lines (``BLOCK`` bytes); each block is parsed and checked
as :func:`cwlkit.io.trec.read_qrels` / :func:`~cwlkit.io.trec.read_run` check a whole file
(errors name the file and its line), and its rows go to bucket ``crc32(topic) % buckets`` (or by
first appearance, :class:`Buckets`, or by ranges of byte order, :class:`TopicRanges`), in
an Arrow IPC stream in a temporary directory: every line of a topic lands in one bucket, so a
bucket can be evaluated alone. Only one block and the buckets' write buffers are in memory.
Duplicate documents are checked bucket by bucket when the buckets are read back.
"""

from __future__ import annotations

import functools
import zlib
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pyarrow as pa

from ..errors import CwlkitError, FormatError
from ..support.arrays import unique
from .estimate import estimate_topics, is_gzip, open_text, text_size
from .rules import ReadRules, reading_rules
from .text import (
    encode_runs,
    from_numpy,
    from_strings,
    parse_floats,
    split_columns,
    to_numpy,
)
from .trec import QRELS_COLUMNS, RUN_COLUMNS, Qrels, Run, check_duplicates

#: bytes of text parsed at a time
BLOCK = 1 << 25


@dataclass
class Parts:
    """Where the buckets of one file are, and what the whole file holds.

    The rows of every bucket are in one Arrow IPC file (``file``), as record batches;
    ``batches[k]`` lists those of bucket ``k`` (in file order).
    """

    path: str
    kind: str  # "qrels" or "run"
    file: Path
    batches: list[list[int]] = field(default_factory=list)
    topics: set[str] = field(default_factory=set)
    labels: set[float] = field(default_factory=set)
    last_tag: str = ""
    rows: int = 0
    #: lines of each topic (filled instead of ``topics`` when :func:`partition` is asked to count)
    counts: dict[str, int] | None = None
    _reader: pa.ipc.RecordBatchFileReader | None = field(default=None, repr=False)
    _source: pa.NativeFile | None = field(default=None, repr=False)

    def close(self) -> None:
        """Close the bucket file (it is opened by the first :meth:`read`)."""
        if self._reader is not None:
            self._reader = None
            if self._source is not None:  # (always: both are set by read)
                self._source.close()

    def read(self, k: int):
        """Bucket ``k`` as a :class:`Qrels` or :class:`Run` (duplicates checked); None when
        it has no rows."""
        if k >= len(self.batches) or not self.batches[k]:
            return None
        if self._reader is None:  # (read, not memory-mapped: a bucket at a time in memory)
            self._source = pa.OSFile(str(self.file))
            self._reader = pa.ipc.open_file(self._source)
        got = [self._reader.get_batch(i) for i in self.batches[k]]
        table = pa.Table.from_batches(got) if len(got) == 1 else _combined(got)
        del got
        lines = to_numpy(table.column("line"))  # (pyarrow's to_numpy imports pandas)
        table = table.drop_columns(["line"])
        if self.kind == "run":  # the tag is the file's last one (the buckets do not keep it)
            tag = pa.DictionaryArray.from_arrays(
                from_numpy(np.zeros(table.num_rows, np.int8)), from_strings([self.last_tag])
            )
            table = table.append_column("tag", tag)
        obj = (Qrels if self.kind == "qrels" else Run)(table, lines, self.path)
        check_duplicates(self.path, table, lines, self.kind, obj.codes())
        return obj


def _combined(batches: list[pa.RecordBatch]) -> pa.Table:
    """One table of one chunk per column from ``batches`` (same schema)."""
    names = batches[0].schema.names
    cols = [pa.concat_arrays([b.column(i) for b in batches]) for i in range(len(names))]
    return pa.Table.from_arrays(cols, names=names)


def first_error(
    path: str, kind: str, *, rules: str | ReadRules | None = None, block: int | None = None
) -> FormatError | None:
    """The format error of a qrels or run file (a line that does not parse, or a document
    listed twice for a topic: the one repeated first in the file), or None; the file is
    streamed as :func:`partition` streams it."""
    import tempfile

    with tempfile.TemporaryDirectory(prefix="cwlkit-") as tmp:
        try:
            parts = partition(path, kind, 64, Path(tmp), rules=rules, block=block)
        except FormatError as exc:
            return exc
        found: FormatError | None = None
        for k in range(64):
            try:
                parts.read(k)
            except FormatError as exc:
                if found is None or (exc.line or 0) < (found.line or 0):
                    found = exc
        parts.close()
        return found


def _blocks(path: str, size: int):
    """(text of whole lines, number of its first line, number of lines) of the file (plain,
    or gzipped: decompressed as it is read), ``size`` bytes of text at a time."""
    try:
        f = open_text(path)
    except FileNotFoundError:
        raise CwlkitError(f"{path}: no such file") from None
    except IsADirectoryError:
        raise CwlkitError(f"{path}: is a directory, expected a file") from None
    except PermissionError:
        raise CwlkitError(f"{path}: permission denied") from None
    with f:
        line = 1
        while True:
            text = _read_some(f, path, size)
            if not text:
                break
            if not text.endswith(b"\n"):
                # the rest of the last line (at the end: maybe no newline)
                text += _read_some(f, path, None)
            n = text.count(b"\n")
            yield text, line, n + (not text.endswith(b"\n"))
            del text  # (the next block is read once this one is handled)
            line += n


def _read_some(f, path: str, size: int | None) -> bytes:
    """``f.read(size)`` (``None``: the rest of the line); a gzip stream's corruption is a
    FormatError naming the file."""
    try:
        return f.read(size) if size is not None else f.readline()
    except (OSError, EOFError, zlib.error) as exc:  # (gzip.BadGzipFile is an OSError)
        raise FormatError(path, None, f"not a valid gzip file ({exc})") from None


def _shifted(exc: FormatError, path: str, first: int) -> FormatError:
    line = None if exc.line is None else exc.line + first - 1
    return FormatError(path, line, exc.msg)


def bucket_of(topics: list[str], buckets: int) -> np.ndarray:
    """int64 bucket of each topic id: ``crc32(topic) % buckets`` (the same in every file)."""
    return np.array([zlib.crc32(t.encode()) % buckets for t in topics], np.int64)


class Buckets:
    """Topics to buckets in order of first appearance, shared by the partitions of a run and
    of its qrels (the run first).

    A topic not seen before joins the open bucket, or opens the next one when the open
    bucket already holds ``rows`` lines or ``topics`` topics. A file whose topics come in
    blocks of lines (the usual run) thus fills one bucket after the other, each block of
    text going to one or two buckets. Once ``frozen``, topics not seen before are dropped
    (bucket -1): the qrels topics of a run that lacks them, when they are not evaluated.
    """

    def __init__(self, *, rows: int | None = None, topics: int | None = None) -> None:
        self.rows, self.topics = rows, topics
        self.of: dict[str, int] = {}
        self.n = 0  # buckets opened
        self.frozen = False
        self._open = [0, 0]  # lines, topics of the open bucket

    def assign(self, topics: list[str], lines: list[int]) -> np.ndarray:
        """int64 bucket of each of ``topics`` (distinct), which have ``lines`` lines each."""
        out = np.empty(len(topics), np.int64)
        of, cur = self.of, self._open
        for i, (t, n) in enumerate(zip(topics, lines, strict=True)):
            k = of.get(t)
            if k is None:
                if self.frozen:
                    out[i] = -1
                    continue
                full = (self.rows is not None and cur[0] >= self.rows) or (
                    self.topics is not None and cur[1] >= self.topics
                )
                if self.n == 0 or full:
                    self.n += 1
                    cur[0] = cur[1] = 0
                k = of[t] = self.n - 1
                cur[1] += 1
            if k == self.n - 1:
                cur[0] += n
            out[i] = k
        return out


class TopicRanges:
    """Topics to buckets by ranges of their byte (strcmp) order: bucket ``k`` holds the
    topics ``t`` with ``bounds[k - 1] <= t < bounds[k]``, so that buckets taken in order
    give the topics in the order trec_eval prints them.

    Any sorted ``bounds`` is correct (Python orders ``str`` by code point, which is the byte
    order of their UTF-8); :func:`topic_bounds` chooses them to balance the buckets.
    """

    def __init__(self, bounds: list[str]) -> None:
        if any(a >= b for a, b in zip(bounds, bounds[1:], strict=False)):
            raise ValueError("topic bounds must be strictly increasing")
        self.bounds = bounds
        self.n = len(bounds) + 1  # buckets (all open from the start)

    def assign(self, topics: list[str], lines: list[int]) -> np.ndarray:
        """int64 bucket of each of ``topics`` (``lines`` is unused: the interface of
        :meth:`Buckets.assign`)."""
        from bisect import bisect_right

        b = self.bounds
        return np.fromiter((bisect_right(b, t) for t in topics), np.int64, len(topics))


def topic_bounds(
    path: str, chunk_topics: int, *, most: int = 1024, sample: int = 1 << 24
) -> list[str]:
    """Bounds of :class:`TopicRanges` for buckets of about ``chunk_topics`` topics of ``path``
    (at most ``most`` buckets).

    A file of at most ``sample`` bytes, or a gzipped one (which cannot be sampled without
    being read), is read through: its distinct topics, sorted, are cut every
    ``chunk_topics`` (exact sizes). A larger plain file is sampled: 256 windows spread evenly
    over it, whose topics (first field of each whole line) estimate the quantiles of the
    file's topics in byte order; the number of buckets is :func:`estimate_topics` /
    ``chunk_topics``. Bounds only balance the buckets: any choice gives the same results.
    """
    if is_gzip(path) or text_size(path) <= sample:  # (a gzip stream is read through)
        seen: set[str] = set()
        for text, _, _ in _blocks(path, BLOCK):
            seen |= _first_fields(text, head=True, tail=True)
        n = len(seen)
        step = max(chunk_topics, -(-n // most))
    else:
        size = text_size(path)
        seen = set()
        window = sample // 256
        with open(path, "rb") as f:
            for i in range(256):
                at = i * (size - window) // 255
                f.seek(at)
                seen |= _first_fields(f.read(window), head=at == 0, tail=i == 255)
        n = len(seen)
        buckets = min(most, max(1, -(-estimate_topics(path) // chunk_topics)))
        step = max(1, -(-n // buckets))
    topics = sorted(seen)
    return topics[step::step]


def _first_fields(text: bytes, *, head: bool, tail: bool) -> set[str]:
    """The distinct first fields of the whole lines of ``text`` (``head``: it starts at a
    line's start, else its first, partial line is skipped; ``tail``: it ends at the file's
    end, else its last, partial line is skipped)."""
    if not head:
        text = text[text.find(b"\n") + 1 :]
    if not tail:
        text = text[: text.rfind(b"\n") + 1]
    out = set()
    for line in text.splitlines():
        field = line.split(None, 1)
        if field:
            out.add(field[0].decode("utf-8", "replace"))
    return out


def partition(
    path: str,
    kind: str,
    buckets: int | Buckets | TopicRanges,
    tmpdir: Path,
    *,
    rules: str | ReadRules | None = None,
    keep: tuple[str, ...] | None = None,
    counts: bool = False,
    block: int | None = None,
) -> Parts:
    """Split ``path`` (a qrels or run file, plain or gzipped) into ``buckets`` topic buckets.

    Parameters
    ----------
    path : str
        A TREC qrels or run file, plain or gzipped.
    kind : {"qrels", "run"}
        What the file holds.
    buckets : int, Buckets or TopicRanges
        Number of buckets, a topic going to bucket ``crc32(topic) % buckets``; or the
        assignment of topics to buckets by first appearance (:class:`Buckets`) or by ranges
        of their byte order (:class:`TopicRanges`).
    tmpdir : Path
        Where the buckets are written (one Arrow IPC stream each, created when first used).
    rules : str or ReadRules, optional
        What a line may hold (:mod:`cwlkit.io.rules`; default ``"cwlkit"``), as for
        :func:`cwlkit.io.trec.read_qrels` and :func:`~cwlkit.io.trec.read_run`.
    keep : tuple of str, optional
        Run columns kept besides ``score`` (default ``topic doc score_text tag``, what
        trec_eval's measures read; ``score_text`` is parsed and dropped). Qrels keep
        ``topic``, ``doc`` and ``label``.
    counts : bool
        Count the lines of each topic into :attr:`Parts.counts` (instead of collecting the
        topic ids into :attr:`Parts.topics`).
    block : int, optional
        Bytes of text parsed at a time (default :data:`BLOCK`): the peak memory of the
        parsing is a few times this.
    """
    names = QRELS_COLUMNS if kind == "qrels" else RUN_COLUMNS
    expected = (
        "topic iteration document label"
        if kind == "qrels"
        else ("topic Q0 document rank score tag")
    )
    if kind == "qrels":
        keep = ("topic", "doc", "label_text")
    elif keep is None:
        keep = ("topic", "doc", "score_text", "tag")
    out = Parts(path, kind, tmpdir / f"{kind}.arrow")
    if isinstance(buckets, int):
        out.batches = [[] for _ in range(buckets)]
    if counts:
        out.counts = {}
    r = reading_rules(rules)
    parse = functools.partial(
        _parse_block, path=path, kind=kind, names=names, expected=expected, keep=keep,
        extra=r.run_extra_fields and kind == "run", rules=r,
        comments=r.run_comments if kind == "run" else r.qrels_comments,
    )  # fmt: skip
    writer = None
    try:
        for text, first, n_lines in _blocks(path, block or BLOCK):
            table = parse(text, first, n_lines)
            del text
            if table is None:
                continue
            _account(table, out)
            if kind == "run":
                table = table.drop_columns(["tag"])
            if writer is None:
                writer = pa.ipc.new_file(str(out.file), table.schema)
            _write_block(table, out, buckets, writer)
            del table
    finally:
        if writer is not None:
            writer.close()
    if out.rows == 0:
        raise FormatError(path, None, f"empty file: expected lines of the form '{expected}'")
    return out


def _parse_block(
    text: bytes,
    first: int,
    n_lines: int,
    *,
    path: str,
    kind: str,
    names: tuple[str, ...],
    expected: str,
    keep: tuple[str, ...],
    extra: bool,
    comments: bool | str,
    rules: ReadRules,
) -> pa.Table | None:
    """The rows of one block of text (``first``: the file line of its first line), checked:
    the value column parsed to ``label`` / ``score``, and a ``line`` column; None for a
    block of comments or blank lines."""
    value = "label_text" if kind == "qrels" else "score_text"
    try:
        table, lines = split_columns(
            "-", text, names, expected, comments=comments, extra=extra, keep=keep
        )
        if kind == "qrels":
            vals = rules.parse_labels("-", table.column(value), lines)
        else:
            vals = parse_floats("-", table.column(value), lines, "the score", finite=False)
    except FormatError as exc:
        if exc.line is None and exc.msg.startswith("empty file"):
            return None  # a block of comments
        raise _shifted(exc, path, first) from None
    if table.num_rows == n_lines:  # no blank or comment lines: the rows are the lines
        at = np.arange(first, first + n_lines, dtype=np.int64)
    else:
        at = np.asarray(lines, dtype=np.int64) + (first - 1)
    table = table.drop_columns([value])
    table = table.append_column("label" if kind == "qrels" else "score", from_numpy(vals))
    return table.append_column("line", from_numpy(at))


def _account(table: pa.Table, out: Parts) -> None:
    """What the whole file holds: rows, label values (qrels), last tag (run)."""
    out.rows += table.num_rows
    if out.kind == "qrels":
        vals = to_numpy(table.column("label"))
        out.labels.update(unique(vals[np.isfinite(vals)]).tolist())
    else:
        out.last_tag = str(table.column("tag")[-1].as_py())


def _write_block(
    table: pa.Table,
    out: Parts,
    buckets: int | Buckets | TopicRanges,
    writer: pa.ipc.RecordBatchFileWriter,
) -> None:
    """Append the rows of ``table`` to their buckets (file order kept within each)."""
    codes, dictionary = encode_runs(table.column("topic"))
    topics = [str(t) for t in dictionary.to_pylist()]
    n = np.bincount(codes, minlength=len(topics)).tolist()
    if out.counts is not None:
        got = out.counts
        for t, c in zip(topics, n, strict=True):
            got[t] = got.get(t, 0) + c
    else:
        out.topics.update(topics)
    if isinstance(buckets, int):
        b = bucket_of(topics, buckets)[codes]
    else:
        b = buckets.assign(topics, n)[codes]
        out.batches += [[] for _ in range(buckets.n - len(out.batches))]
    del codes
    if b.size > 1 and (b[1:] < b[:-1]).any():  # (a block of one bucket needs no copy)
        order = np.argsort(b, kind="stable")
        b = b[order]
        table = table.take(from_numpy(order))  # one copy, grouped by bucket
        del order
    ks, starts = np.unique(b, return_index=True)
    ends = [*starts[1:].tolist(), b.size]
    for k, i, j in zip(ks.tolist(), starts.tolist(), ends, strict=True):
        if k < 0:  # dropped (Buckets.frozen)
            continue
        for batch in table.slice(i, j - i).to_batches():
            out.batches[k].append(writer.stats.num_record_batches)
            writer.write_batch(batch)
