"""Diversity (intent-aware) qrels: ``topic subtopic document judgement``, read into columns.

The TREC Web Track's diversity qrels (read by ndeval) judge each document once per subtopic
(intent) of a topic: the second column is the subtopic, not trec_eval's ignored iteration. A
:class:`DiversityQrels` keeps every judgement (:attr:`DiversityQrels.subtopics`) and is also
an ordinary :class:`~cwlkit.io.trec.Qrels` with one row per (topic, document) whose label is
the document's largest label over the subtopics, so every measure runs on it (a document is
relevant to the topic when it is relevant to any subtopic, as ndeval's own non-intent-aware
MAP counts it); the intent-aware measures of :mod:`cwlkit.measures.diversity` look the
subtopics up through the batch.

Conventions (ndeval's, and pyndeval's where ndeval stops): a judgement is relevant to its
subtopic when its label is at least the measure's ``rel`` (default 1, so graded labels 1, 2,
3... all count as ndeval's binary "relevant"); 0 and negative labels (ndeval rejects those,
pyndeval and ir_measures take them as non-relevant) are judged non-relevant. Subtopic and topic
ids are strings; the same document judged twice for one subtopic is an error.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from ..errors import FormatError, InputError
from .rules import ReadRules, check_label_range, reading_rules
from .text import (
    LineNumbers,
    encode,
    encode_runs,
    first_duplicate,
    from_numpy,
    from_strings,
    read_bytes,
    split_columns,
    to_numpy,
)
from .trec import Qrels

__all__ = [
    "DiversityQrels",
    "as_diversity_qrels",
    "implied_diversity_qrels",
    "read_diversity_qrels",
]

DIVERSITY_COLUMNS = ("topic", "subtopic", "doc", "label_text")
_LINE = "topic subtopic document judgement"

#: role -> accepted column (or record field) names, lower case, in order of preference
_ROLES = {
    "topic": ("query_id", "qid", "topic"),
    "subtopic": ("subtopic_id", "subtopic", "iteration", "iter"),
    "doc": ("doc_id", "docno", "docid", "doc"),
    "label": ("relevance", "rel", "label", "judgement", "judgment"),
}
_WHAT = {
    "topic": "the query id",
    "subtopic": "the subtopic",
    "doc": "the document id",
    "label": "the relevance label",
}
_FORMS = (
    "a DiversityQrels, a Qrels (its iteration column taken as the subtopic), a diversity "
    "qrels file ('topic subtopic document judgement', plain or gzip) or Parquet file name, "
    "'irds:DATASET_ID', an ir_datasets dataset, a pandas or polars DataFrame, a pyarrow Table, "
    "a dict {query_id: {subtopic_id: {doc_id: relevance}}}, or an iterable of "
    "(query_id, subtopic_id, doc_id, relevance) tuples, pyndeval SubtopicQrel or ir_measures "
    "Qrel records (iteration = subtopic)"
)


class _TakenLines:
    """Line numbers ``lines[idx]`` of another (lazy) line array, computed on first use."""

    def __init__(self, lines: LineNumbers, idx: np.ndarray) -> None:
        self._lines, self._idx = lines, idx
        self._arr: np.ndarray | None = None

    @property
    def array(self) -> np.ndarray:
        if self._arr is None:
            self._arr = np.asarray(self._lines)[self._idx]
        return self._arr

    def __getitem__(self, i: Any) -> Any:
        return self.array[i]

    def __len__(self) -> int:
        return int(self._idx.size)

    def __array__(self, dtype: Any = None, copy: bool | None = None) -> np.ndarray:
        return self.array if dtype is None else self.array.astype(dtype)

    @property
    def size(self) -> int:
        return int(self._idx.size)


@dataclass(frozen=True, eq=False)
class DiversityQrels(Qrels):
    """Intent-aware judgements: a :class:`~cwlkit.io.trec.Qrels` plus the subtopic of each.

    Attributes
    ----------
    table : pyarrow.Table
        One row per (topic, document): columns ``topic``, ``iter`` (``"0"``), ``doc``,
        ``label_text`` and ``label``, the largest label the document has for any subtopic
        (what every non-diversity measure sees).
    lines : array of int
        The line of each row of ``table`` (the line of its largest label).
    path : str
        Where the judgements came from (for messages).
    subtopics : pyarrow.Table
        Every judgement: ``topic``, ``subtopic``, ``doc``, ``label_text`` (strings) and
        ``label`` (float64).
    subtopic_lines : array of int
        The 1-based line (or row) of each judgement.
    """

    subtopics: pa.Table | None = None
    subtopic_lines: Any = None
    #: :class:`cwlkit.Evaluator` keeps the document ids in the batches of qrels that set this
    #: and hands the qrels to the measures (``batch.memo["diversity_qrels"]``), which look
    #: the subtopics of every ranked document up
    is_diversity: ClassVar[bool] = True

    @property
    def n_judgements(self) -> int:
        """Number of (topic, subtopic, document) judgements."""
        return 0 if self.subtopics is None else self.subtopics.num_rows

    def judgement_rows(self) -> np.ndarray:
        """int64: the row of :attr:`table` (the (topic, document)) of every judgement."""
        got = self.memo.get("judgement_rows")
        if got is None:
            got = self.memo["judgement_rows"] = _collapse(self.subtopics)[1]
        return got


# ---- building ---------------------------------------------------------------------------


def _collapse(full: pa.Table) -> tuple[np.ndarray, np.ndarray]:
    """(row of ``full`` giving each (topic, doc) group its largest label, in order of the
    groups; group of every row of ``full``)."""
    n = full.num_rows
    if n == 0:
        return np.zeros(0, np.int64), np.zeros(0, np.int64)
    t, _ = encode_runs(full.column("topic"))
    (d,), dd = encode(full.column("doc"))
    key = t * (len(dd) + 1) + d
    labels = to_numpy(full.column("label"))
    order = np.lexsort((-labels, key))  # stable: ties keep file order
    sk = key[order]
    new = np.ones(n, dtype=bool)
    new[1:] = sk[1:] != sk[:-1]
    heads = order[new]  # the row with the largest label of each group
    group_sorted = np.cumsum(new) - 1
    # number the groups in file order of their head rows
    by_file = np.argsort(heads, kind="stable")
    renumber = np.empty_like(by_file)
    renumber[by_file] = np.arange(by_file.size)
    group = np.empty(n, dtype=np.int64)
    group[order] = renumber[group_sorted]
    return heads[by_file], group


def _check(full: pa.Table, lines: LineNumbers, path: str, group: np.ndarray) -> None:
    """The same document judged twice for one subtopic of a topic is an error (``group``:
    the (topic, document) of each row, from :func:`_collapse`)."""
    if full.num_rows < 2:
        return
    enc = pc.dictionary_encode(full.column("subtopic").combine_chunks())
    s = to_numpy(enc.indices).astype(np.int64)
    dup = first_duplicate(group * max(len(enc.dictionary), 1) + s)
    if dup is None:
        return
    first, second = dup
    row = full.slice(second, 1).to_pylist()[0]
    raise FormatError(
        path,
        int(lines[second]),
        f"document {row['doc']!r} is judged twice for subtopic {row['subtopic']!r} of topic "
        f"{row['topic']!r} (first at line {int(lines[first])})",
    )


def _make(full: pa.Table, lines: LineNumbers, path: str) -> DiversityQrels:
    """A DiversityQrels over ``full`` (columns topic, subtopic, doc, label_text, label)."""
    heads, group = _collapse(full)
    _check(full, lines, path, group)
    idx = from_numpy(heads)
    table = pa.table(
        {
            "topic": full.column("topic").take(idx),
            "iter": from_strings(["0"]).take(from_numpy(np.zeros(heads.size, np.int64))),
            "doc": full.column("doc").take(idx),
            "label_text": full.column("label_text").take(idx),
            "label": full.column("label").take(idx),
        }
    )
    q = DiversityQrels(
        table=table,
        lines=_TakenLines(lines, heads),
        path=path,
        subtopics=full,
        subtopic_lines=lines,
    )
    q.memo["judgement_rows"] = group
    return q


def read_diversity_qrels(
    path: str | os.PathLike,
    *,
    rules: str | ReadRules | None = None,
    comments: bool | None = None,
) -> DiversityQrels:
    """Read a diversity qrels file: ``topic subtopic document judgement`` per line.

    Parameters
    ----------
    path : str or Path
        Plain or gzip file; ``-`` for standard input.
    rules : str or ReadRules, optional
        What a line may hold (:mod:`cwlkit.io.rules`; default ``"cwlkit"``).
    comments : bool, optional
        Skip lines starting with ``#``; default: as ``rules`` say.

    Raises
    ------
    FormatError
        Empty file, a line without exactly 4 fields, a label that is not a finite number or
        is beyond 2^53 in magnitude, or the same document judged twice for one subtopic of a
        topic.

    Examples
    --------
    >>> import cwlkit, tempfile, os
    >>> d = tempfile.mkdtemp()
    >>> p = os.path.join(d, "div.qrels")
    >>> _ = open(p, "w").write("1 1 A 1\\n1 2 A 1\\n1 2 B 0\\n")
    >>> q = cwlkit.read_diversity_qrels(p)
    >>> q.n_judgements, len(q)        # three judgements of two documents
    (3, 2)
    """
    data = read_bytes(path)
    r = reading_rules(rules)
    comments = r.qrels_comments if comments is None else comments
    table, lines = split_columns(path, data, DIVERSITY_COLUMNS, _LINE, comments=comments)
    del data
    labels = r.parse_labels(path, table.column("label_text"), lines)
    table = table.append_column("label", from_numpy(labels))
    return _make(table, lines, str(path))


# ---- any input form ---------------------------------------------------------------------


def as_diversity_qrels(obj: Any, *, name: str | None = None) -> DiversityQrels:
    """Diversity qrels from any of the forms users hold (the intent-aware :func:`as_qrels`).

    Parameters
    ----------
    obj : object
        One of:

        - a :class:`DiversityQrels` (returned as is);
        - a :class:`~cwlkit.io.trec.Qrels`: its iteration column is taken as the subtopic
          (ir_measures' convention for diversity qrels);
        - a file name: a diversity qrels file (``topic subtopic document judgement``, plain
          or gzip, read by :func:`read_diversity_qrels`), or a Parquet file (suffix
          ``.parquet``/``.pq`` or the ``PAR1`` magic) read as a table (below);
        - ``"irds:DATASET_ID"`` or an ir_datasets dataset: its qrels, whose ``subtopic_id``
          (ir_datasets' ``TrecSubQrel``) or ``iteration`` field is the subtopic;
        - a pandas or polars DataFrame or a pyarrow Table, with columns (case-insensitive,
          the first present is used) ``query_id``/``qid``/``topic``,
          ``subtopic_id``/``subtopic``/``iteration``/``iter``, ``doc_id``/``docno``/``docid``/
          ``doc`` and ``relevance``/``rel``/``label``/``judgement``/``judgment``;
        - a dict ``{query_id: {subtopic_id: {doc_id: relevance}}}``;
        - an iterable of pyndeval ``SubtopicQrel(query_id, subtopic_id, doc_id, relevance)``,
          ir_measures ``Qrel(query_id, doc_id, relevance, iteration)`` or ir_datasets
          ``TrecSubQrel`` records (fields named as the columns above), or of plain
          ``(query_id, subtopic_id, doc_id, relevance)`` tuples (pyndeval's order).

        Ids may be strings or integers; labels any numbers.
    name : str, optional
        Name used in messages instead of the file name or ``<DataFrame>``...

    Raises
    ------
    InputError
        An object of none of these forms, or one without a subtopic column or field.
    FormatError
        A missing or non-finite label, a missing id, or a document judged twice for one
        subtopic.
    """
    from .inputs import _is_parquet, _load_irds, _pandas_table, _polars_table

    if isinstance(obj, DiversityQrels):
        return obj
    if isinstance(obj, Qrels):
        t = obj.table
        full = pa.table(
            {
                "topic": t.column("topic"),
                "subtopic": t.column("iter"),
                "doc": t.column("doc"),
                "label_text": t.column("label_text"),
                "label": t.column("label"),
            }
        )
        return _make(_combined(full), obj.lines, name or obj.path)
    if isinstance(obj, str) and obj.startswith("irds:"):
        return _from_irds(_load_irds(obj[5:]), name or obj)
    if isinstance(obj, (str, os.PathLike)):
        path = os.fsdecode(os.fspath(obj))
        if _is_parquet(path):
            from .inputs import read_parquet

            return _from_table(read_parquet(path), name or path)
        got = read_diversity_qrels(path)
        return got if name is None else _rename(got, name)
    module = type(obj).__module__ or ""
    if module.startswith("pandas"):
        return _from_table(_pandas_table(obj, "qrels"), name or "<DataFrame>")
    if module.startswith("polars"):
        return _from_table(_polars_table(obj, "qrels"), name or "<DataFrame>")
    if isinstance(obj, pa.RecordBatch):
        obj = pa.Table.from_batches([obj])
    if isinstance(obj, pa.Table):
        return _from_table(obj, name or "<pyarrow.Table>")
    if isinstance(obj, Mapping):
        return _from_dict(obj, name or "<dict>")
    if module.startswith("ir_datasets") or hasattr(obj, "qrels_iter"):
        return _from_irds(obj, name or "<ir_datasets>")
    if isinstance(obj, Iterable) and not isinstance(obj, (bytes, bytearray)):
        return _from_records(obj, name or "<records>")
    raise InputError(f"expected diversity qrels as {_FORMS}; got {type(obj).__name__}")


def implied_diversity_qrels(
    source: Any, *, rules: str | ReadRules | None = None, name: str | None = None
) -> DiversityQrels:
    """The qrels of an evaluation that asks for an intent-aware measure, as diversity qrels.

    ``cwlkit.evaluate(qrels, run, ["alpha_nDCG@20"])`` reads ``qrels`` here, as ir_measures
    does: the second column of a qrels file, and the ``iteration`` (or ``subtopic_id``...)
    column or field of in-memory qrels, is the subtopic (any form
    :func:`as_diversity_qrels` accepts).

    Parameters
    ----------
    source : object
        The qrels as given to :class:`cwlkit.Evaluator`.
    rules : str or ReadRules, optional
        The evaluation's reading rules for a text file (:mod:`cwlkit.io.rules`).
    name : str, optional
        Name used in messages (as :func:`as_diversity_qrels`'s).

    Returns
    -------
    DiversityQrels
        ``source`` itself when it already is one.

    Raises
    ------
    InputError
        A form without subtopics (a dict ``{query_id: {doc_id: relevance}}``, a frame without
        a subtopic column, ``(query_id, doc_id, relevance)`` records): an intent-aware
        measure cannot be computed on it.
    FormatError
        As :func:`read_diversity_qrels`.

    Warns
    -----
    UserWarning
        When no topic has more than one subtopic (ir_measures warns too): an ordinary qrels
        file (its second column trec_eval's ignored ``0``) scores one intent per topic.
    """
    if isinstance(source, DiversityQrels):
        return source
    if isinstance(source, (str, os.PathLike)) and not str(source).startswith("irds:"):
        from .inputs import _is_parquet

        path = os.fsdecode(os.fspath(source))
        got = (
            read_diversity_qrels(path, rules=rules)
            if not _is_parquet(path)
            else as_diversity_qrels(path)
        )
        got = got if name is None else _rename(got, name)
    else:
        got = as_diversity_qrels(source, name=name)
    _warn_single_subtopic(got)
    return got


def _warn_single_subtopic(q: DiversityQrels) -> None:
    """Warn (once per call) when no topic of ``q`` has two subtopics."""
    full = q.subtopics
    if full is None or full.num_rows == 0:
        return
    t, _ = encode_runs(full.column("topic"))
    enc = pc.dictionary_encode(full.column("subtopic").combine_chunks())
    width = max(len(enc.dictionary), 1)
    pairs = np.unique(t * width + to_numpy(enc.indices).astype(np.int64))
    if np.bincount(pairs // width).max() > 1:  # a topic with two subtopics
        return
    import warnings

    warnings.warn(
        f"{q.path}: every topic has a single subtopic (second column), so intent-aware "
        "measures score one intent per topic; are these diversity qrels (topic subtopic "
        "document judgement)?",
        UserWarning,
        stacklevel=_outside_cwlkit(),
    )


def _outside_cwlkit() -> int:
    """The ``stacklevel`` of the first caller outside the cwlkit package (the user's code)."""
    import sys
    from types import FrameType

    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    level = 2
    frame: FrameType | None = sys._getframe(2)
    while frame is not None and os.path.abspath(frame.f_code.co_filename).startswith(root):
        frame, level = frame.f_back, level + 1
    return level


def _pick(names: list, required: tuple[str, ...], path: str, what: str) -> dict[str, int]:
    """role -> index into ``names`` of the column (or field) that plays it."""
    lower: dict[str, int] = {}
    for i, n in enumerate(names):
        lower.setdefault(str(n).lower(), i)
    got = {}
    for role, accepted in _ROLES.items():
        hit = next((a for a in accepted if a in lower), None)
        if hit is not None:
            got[role] = lower[hit]
    missing = [r for r in required if r not in got]
    if missing:
        role = missing[0]
        expected = ", ".join(repr(a) for a in _ROLES[role])
        found = ", ".join(repr(str(n)) for n in names) or "none"
        raise InputError(
            f"{path}: no {what} for {_WHAT[role]} of diversity qrels: expected one of "
            f"{expected}; found {what}s {found}"
        )
    return got


def _rename(q: DiversityQrels, name: str) -> DiversityQrels:
    return _make(q.subtopics, q.subtopic_lines, name)


def _combined(table: pa.Table) -> pa.Table:
    return pa.table({c: table.column(c).combine_chunks() for c in table.column_names})


def _from_table(table: pa.Table, path: str) -> DiversityQrels:
    from .inputs import _ids, _numbers

    names = table.column_names
    got = _pick(names, ("topic", "subtopic", "doc", "label"), path, "column")
    lines = np.arange(1, table.num_rows + 1, dtype=np.int64)

    def col(role: str) -> pa.Array:
        return table.column(got[role]).combine_chunks()

    def what(role: str) -> str:
        return f"{_WHAT[role]} (column {names[got[role]]!r})"

    values, text = _numbers(col("label"), path, lines, "the relevance label", finite=True)
    check_label_range(path, values, text, lines)
    full = pa.table(
        {
            "topic": _ids(col("topic"), path, what("topic")),
            "subtopic": _ids(col("subtopic"), path, what("subtopic")),
            "doc": _ids(col("doc"), path, what("doc")),
            "label_text": text,
            "label": from_numpy(values),
        }
    )
    return _make(full, lines, path)


def _from_columns(topics, subtopics, docs, labels, path: str) -> DiversityQrels:
    for ids, what in ((topics, "a query id"), (subtopics, "a subtopic"), (docs, "a document id")):
        if None in ids:
            raise FormatError(path, list(ids).index(None) + 1, f"expected {what}, got None")
    try:
        arr = np.asarray(labels, dtype=np.float64)
        if arr.shape != (len(labels),):
            raise ValueError
    except (TypeError, ValueError):
        for i, v in enumerate(labels):
            try:
                float(v)
            except (TypeError, ValueError):
                raise FormatError(
                    path, i + 1, f"expected a number for the relevance label, got {v!r}"
                ) from None
        raise FormatError(path, None, "expected numbers for the relevance label") from None
    table = pa.table(
        {
            "query_id": from_strings(topics),
            "subtopic_id": from_strings(subtopics),
            "doc_id": from_strings(docs),
            "relevance": from_numpy(arr),
        }
    )
    return _from_table(table, path)


def _from_dict(obj: Mapping, path: str) -> DiversityQrels:
    topics: list = []
    subs: list = []
    docs: list = []
    labels: list = []
    for q, inner in obj.items():
        if not isinstance(inner, Mapping):
            raise InputError(
                f"{path}: expected a dict {{query_id: {{subtopic_id: {{doc_id: relevance}}}}}}, "
                f"but the value for query {q!r} is a {type(inner).__name__}"
            )
        for s, judged in inner.items():
            if not isinstance(judged, Mapping):
                raise InputError(
                    f"{path}: expected a dict {{query_id: {{subtopic_id: {{doc_id: relevance}}}}}}"
                    f", but the value for subtopic {s!r} of query {q!r} is a "
                    f"{type(judged).__name__}"
                )
            topics.extend([q] * len(judged))
            subs.extend([s] * len(judged))
            docs.extend(judged.keys())
            labels.extend(judged.values())
    return _from_columns(topics, subs, docs, labels, path)


def _from_records(obj: Iterable, path: str) -> DiversityQrels:
    from .inputs import record_columns

    got_columns = record_columns(obj, path, "query_id, subtopic_id, doc_id, relevance")
    if got_columns is None:
        return _from_columns([], [], [], [], path)
    columns, first = got_columns
    width = len(first)
    fields = getattr(first, "_fields", None)
    if fields is not None:
        got = _pick(list(fields), ("topic", "subtopic", "doc", "label"), path, "field")
        return _from_columns(
            columns[got["topic"]],
            columns[got["subtopic"]],
            columns[got["doc"]],
            columns[got["label"]],
            path,
        )
    if width != 4:
        raise InputError(
            f"{path}: expected records of 4 fields (query_id, subtopic_id, doc_id, relevance), "
            f"got {width} in row 1: {first!r}"
        )
    return _from_columns(columns[0], columns[1], columns[2], columns[3], path)


def _from_irds(ds: Any, path: str) -> DiversityQrels:
    from ..errors import CwlkitError

    has = getattr(ds, "has_qrels", None)
    if not hasattr(ds, "qrels_iter") or (callable(has) and not has()):
        raise InputError(f"{path}: the ir_datasets dataset has no qrels (no qrels_iter())")
    try:
        records = list(ds.qrels_iter())
    except Exception as exc:  # downloads, parse errors: whatever ir_datasets raises
        raise CwlkitError(f"{path}: could not load qrels_iter() from ir_datasets: {exc}") from None
    return _from_records(records, path)


def subtopic_order(subtopics: pa.Array) -> np.ndarray:
    """Rank of each subtopic id in ndeval's order: ids made of digits first, numerically
    (ndeval reads subtopics as numbers and adds their gains in that order), then the others
    in byte order."""
    n = len(subtopics)
    if n == 0:
        return np.zeros(0, dtype=np.int64)
    from .text import sort_rank

    digits = to_numpy(pc.match_substring_regex(subtopics, r"^[0-9]+$"))
    stripped = pc.utf8_ltrim(subtopics, characters="0")
    length = to_numpy(pc.utf8_length(stripped)).astype(np.int64)
    byte_rank = sort_rank(subtopics)
    strip_rank = sort_rank(stripped)
    key = np.lexsort(
        (byte_rank, np.where(digits, strip_rank, 0), np.where(digits, length, 0), ~digits)
    )
    rank = np.empty(n, dtype=np.int64)
    rank[key] = np.arange(n)
    return rank
