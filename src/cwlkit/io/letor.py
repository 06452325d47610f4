"""LETOR feature files and prediction files, read into columns.

A feature line is ``label qid:Q 1:v 2:v ... #docid = D ...`` (LETOR 3.0 and 4.0, MSLR-WEB);
only the label, the query id and the ``#docid = D`` comment are read, the features are not.
A prediction file holds one number per line, aligned line by line with the feature file: a
score (``Eval-Score``) or a rank position (``Eval-Rank``).

Conventions:

* Line endings may be LF or CRLF (LETOR 4.0 ships CRLF files, which ``Eval-Score-4.0.pl``'s
  anchored regular expression rejects on Linux; we accept both). Blank lines are skipped in
  both files; line numbers in messages are physical line numbers.
* The label must be an integer (the Perl scripts require ``\\d+``; we also accept a sign so
  that a negative label reaches the clearer "not in the gain table" error).
* The docid comment is optional: without it a line is its own document (the MSLR script
  never reads one; it keys documents by line number).

Everything is columnar: the file's bytes become one pyarrow string array of lines (offsets
from the newline positions, no Python loop) and RE2 regular expressions extract the fields.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

import numpy as np
import pyarrow as pa

from ..errors import FormatError
from .text import first_unparsed, from_numpy, parse_floats, read_bytes, to_numpy

FEATURE_LINE = "label qid:Q 1:v 2:v ... #docid = D"

_HEAD = r"^[ \t]*(?P<label>\S+)[ \t]+qid:(?P<qid>\S+)"
_DOCID = r"#[ \t]*docid[ \t]*=[ \t]*(?P<docid>[^\s#]+)"
_INT = r"^[-+]?[0-9]+$"


@dataclass(frozen=True, eq=False)
class LetorFile:
    """The label, query and document columns of a LETOR feature file.

    Attributes
    ----------
    labels : numpy.ndarray
        int64[N]: the relevance label of each line.
    qids : pyarrow.Array
        string[N]: the query id of each line (without ``qid:``).
    docids : pyarrow.Array
        string[N]: the ``#docid = D`` of each line; null where the line has no such comment.
    lines : numpy.ndarray
        int64[N]: 1-based physical line number of each row.
    path : str
        Where the file came from (for messages).
    """

    labels: np.ndarray
    qids: pa.Array
    docids: pa.Array
    lines: np.ndarray
    path: str = "<features>"

    def __len__(self) -> int:
        return int(self.labels.size)


def _lines(path: str | os.PathLike[str], data: bytes) -> tuple[pa.Array, np.ndarray]:
    """Non-blank lines of ``data`` as a string array (CR and edge blanks removed) and their
    1-based line numbers."""
    import pyarrow.compute as pc

    buf = np.frombuffer(data, dtype=np.uint8)
    nl = np.flatnonzero(buf == 10)
    starts = np.concatenate(([0], nl + 1)).astype(np.int64)
    ends = np.concatenate((nl, [buf.size])).astype(np.int64)
    if ends.size and ends[-1] == starts[-1] and len(starts) > 1:  # final newline: no last line
        starts, ends = starts[:-1], ends[:-1]
    offsets = np.empty(starts.size + 1, dtype=np.int64)
    offsets[:-1] = starts
    offsets[-1] = ends[-1] if ends.size else 0
    # each line runs from its start to the next start (newline included); trimming removes it
    arr = pa.LargeStringArray.from_buffers(starts.size, pa.py_buffer(offsets), pa.py_buffer(data))
    try:
        arr.validate(full=True)
    except pa.ArrowInvalid:
        bad = _first_bad_utf8(data)
        raise FormatError(path, bad, "not valid UTF-8 text") from None
    arr = pc.utf8_trim_whitespace(arr)
    keep = to_numpy(pc.utf8_length(arr)) > 0
    numbers = np.flatnonzero(keep).astype(np.int64) + 1
    return arr.filter(from_numpy(keep)), numbers


def _first_bad_utf8(data: bytes) -> int | None:
    for i, line in enumerate(data.split(b"\n"), 1):
        try:
            line.decode("utf-8")
        except UnicodeDecodeError:
            return i
    return None  # pragma: no cover


def read_features(path: str | os.PathLike[str]) -> LetorFile:
    """Read the labels, query ids and docids of a LETOR feature file.

    Parameters
    ----------
    path : str or Path
        The feature file (plain or gzip; ``-`` is standard input).

    Returns
    -------
    LetorFile

    Raises
    ------
    FormatError
        A line that does not start with ``label qid:Q``, or a label that is not an integer,
        naming the file and line.
    """
    import pyarrow.compute as pc

    data = read_bytes(path)
    lines, numbers = _lines(path, data)
    if len(lines) == 0:
        raise FormatError(path, None, f"empty file: expected lines of the form '{FEATURE_LINE}'")
    head = pc.extract_regex(lines, _HEAD)
    if head.null_count:
        i = int(np.flatnonzero(to_numpy(head.is_null()))[0])
        text = lines[i].as_py()
        raise FormatError(path, int(numbers[i]), f"expected '{FEATURE_LINE}', got {_clip(text)!r}")
    label_text = head.field("label")
    ok = to_numpy(pc.match_substring_regex(label_text, _INT))
    if not ok.all():
        i = int(np.flatnonzero(~ok)[0])
        raise FormatError(
            path,
            int(numbers[i]),
            f"expected an integer relevance label, got {label_text[i].as_py()!r}",
        )
    try:
        labels = to_numpy(pc.cast(label_text, pa.int64()))
    except pa.ArrowInvalid:  # (an integer beyond 64 bits)
        i = first_unparsed(label_text, pa.int64())
        got = _clip(label_text[i].as_py())
        raise FormatError(path, int(numbers[i]), f"relevance label out of range: {got!r}") from None
    qids = pc.cast(head.field("qid"), pa.string())
    docs = pc.extract_regex(lines, _DOCID)
    docids = pc.cast(pc.struct_field(docs, [0]), pa.string())
    return LetorFile(labels=labels, qids=qids, docids=docids, lines=numbers, path=str(path))


def read_predictions(
    path: str | os.PathLike[str], features: LetorFile, *, what: str = "score"
) -> np.ndarray:
    """Read a prediction file: one number per non-blank line, one line per feature line.

    Parameters
    ----------
    path : str or Path
        The prediction file.
    features : LetorFile
        The feature file the predictions belong to (for the line-count check).
    what : str
        ``"score"`` (any finite number) or ``"rank"`` (a positive integer).

    Returns
    -------
    numpy.ndarray
        float64[N], aligned with ``features``.

    Raises
    ------
    FormatError
        A line count that differs from the feature file's (naming both files and counts), a
        line that is not a number (file:line).
    """
    import pyarrow.compute as pc

    data = read_bytes(path)
    lines, numbers = _lines(path, data)
    n, m = len(features), len(lines)
    if m != n:
        raise FormatError(
            path,
            None,
            f"has {m} prediction line{'s' if m != 1 else ''} "
            f"but the feature file {features.path} has "
            f"{n} document line{'s' if n != 1 else ''}; expected one {what} per document line",
        )
    if what == "rank":
        ok = to_numpy(pc.match_substring_regex(lines, r"^\+?[0-9]+$"))
        if not ok.all():
            i = int(np.flatnonzero(~ok)[0])
            raise FormatError(
                path,
                int(numbers[i]),
                f"expected a rank position (a positive integer), got {_clip(lines[i].as_py())!r}",
            )
        ranks = to_numpy(pc.cast(pc.utf8_ltrim(lines, "+"), pa.float64()))
        if (ranks < 1).any():
            i = int(np.flatnonzero(ranks < 1)[0])
            raise FormatError(
                path, int(numbers[i]), f"expected a rank position >= 1, got {lines[i].as_py()!r}"
            )
        return ranks
    return parse_floats(path, lines, numbers, "a prediction score (one number per line)")


def _clip(text: str, n: int = 60) -> str:
    return text if len(text) <= n else text[:n] + "..."


@dataclass(frozen=True, eq=False)
class LetorResultFile:
    """The per-query rows of a LETOR result file (``Eval-Score-4.0``/``MSLR`` with flag 1).

    Attributes
    ----------
    measures : dict of str to (list of str, numpy.ndarray)
        For each column name of the headers (``P@1``, ..., ``MAP``, ``NDCG@1``, ...,
        ``MeanNDCG``): the qids of the rows and their float64 values, in file order.
    path : str
    """

    measures: dict[str, tuple[list[str], np.ndarray]]
    path: str = "<result>"

    def matrix(self) -> tuple[list[str], list[str], np.ndarray]:
        """``(names, topics, values)``: one row of ``values`` (float64[M, T]) per column,
        named as the header spells it (``P@1``, ``MAP``...), topics in the file's order
        (:func:`cwlkit.formats.letor.letor_file_results` makes them Results).

        Raises
        ------
        FormatError
            A query listed twice under one header, or a query with values in one table
            (``P@n``/``MAP``) but not in another (``NDCG@n``).
        """
        names = list(self.measures)
        topics = self.measures[names[0]][0] if names else []
        index = {q: i for i, q in enumerate(topics)}
        values = np.empty((len(names), len(topics)))
        for r, name in enumerate(names):
            qids, vals = self.measures[name]
            if len(set(qids)) != len(qids):
                q = next(q for i, q in enumerate(qids) if q in qids[:i])
                raise FormatError(self.path, None, f"query {q} has two {name} values")
            pos = [index.get(q, -1) for q in qids]
            if len(qids) != len(topics) or min(pos, default=0) < 0:
                extra = set(qids) ^ set(topics)
                q = sorted(extra)[0] if extra else "?"
                raise FormatError(
                    self.path,
                    None,
                    f"query {q} has {names[0]} values but no {name} values, or the reverse: "
                    "expected every query in every table",
                )
            values[r, pos] = vals
        return names, list(topics), values


def read_letor_results(path: str | os.PathLike[str]) -> LetorResultFile:
    """Read a per-query LETOR result file, as LETOR's t-test script does.

    A line starting with ``qid<TAB>`` is a header naming the columns of the rows after it;
    ``Average`` rows and lines shorter than 2 characters are skipped; every other line is
    ``qid<TAB>value<TAB>...``, as many fields as its header.

    Raises
    ------
    FormatError
        Rows before any header, rows with a different number of fields than their header,
        non-numeric values, a file without per-query rows (written with flag 0, or by
        ``Eval-Score-3.0``, whose layout the t-test script does not read).
    """
    import pyarrow.compute as pc

    data = read_bytes(path)
    lines, numbers = _lines(path, data)
    if len(lines) == 0:
        raise FormatError(
            path, None, "empty file: expected a LETOR result file written with flag 1"
        )
    lines = pc.utf8_rtrim(lines, "\r")
    long_enough = to_numpy(pc.utf8_length(lines)) >= 2
    is_head = to_numpy(pc.match_substring_regex(lines, r"^(?i)qid\t"))
    is_avg = to_numpy(pc.match_substring_regex(lines, r"^(?i)average"))
    if not is_head.any():
        hint = (
            " (this looks like Eval-Score-3.0 output; the t-test reads the 4.0/MSLR layout)"
            if pc.any(pc.match_substring(lines, "precision of query")).as_py()
            else ""
        )
        raise FormatError(
            path,
            None,
            "no 'qid<TAB>measure...' header line: expected a LETOR 4.0/MSLR result file "
            f"written with flag 1{hint}",
        )
    block = np.cumsum(is_head)
    is_row = long_enough & ~is_head & ~is_avg
    if (is_row & (block == 0)).any():
        i = int(np.flatnonzero(is_row & (block == 0))[0])
        raise FormatError(
            path, int(numbers[i]), "a result row before the first 'qid<TAB>...' header line"
        )
    fields = pc.split_pattern(lines, "\t")
    nfields = to_numpy(pc.list_value_length(fields))
    out: dict[str, tuple[list[str], np.ndarray]] = {}
    for b, h in enumerate(np.flatnonzero(is_head), 1):
        header = fields[int(h)].as_py()
        rows = np.flatnonzero(is_row & (block == b))
        if rows.size == 0:
            continue
        bad = nfields[rows] != len(header)
        if bad.any():
            i = int(rows[np.flatnonzero(bad)[0]])
            raise FormatError(
                path,
                int(numbers[i]),
                f"expected {len(header)} tab-separated fields like its header line "
                f"{int(numbers[h])} (qid and {len(header) - 1} values), got {int(nfields[i])}",
            )
        flat = pc.list_flatten(fields.take(from_numpy(np.asarray(rows, dtype=np.int64))))
        m = len(header)
        idx = np.arange(rows.size)[:, None] * m + np.arange(m)[None, :]
        qids = flat.take(from_numpy(idx[:, 0])).to_pylist()
        for c in range(1, m):
            col = flat.take(from_numpy(idx[:, c]))
            vals = parse_floats(path, col, numbers[rows], f"the {header[c]} value", finite=True)
            name = header[c]
            if name in out:
                prev_q, prev_v = out[name]
                out[name] = (prev_q + qids, np.concatenate([prev_v, vals]))
            else:
                out[name] = (qids, vals)
    if not out:
        raise FormatError(
            path,
            None,
            "no per-query rows (only Average rows): "
            "write the result files with flag 1 for a t-test",
        )
    return LetorResultFile(measures=out, path=str(path))
