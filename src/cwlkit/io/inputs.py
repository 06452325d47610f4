"""Qrels and runs from whatever users hold: files, data frames, arrow tables, dicts, records.

:func:`as_qrels` and :func:`as_run` turn each accepted form into the columnar
:class:`~cwlkit.io.trec.Qrels` / :class:`~cwlkit.io.trec.Run` that files are read into, with
the same checks (finite labels, no NaN score, no document twice for a topic). Tables are
converted column by column with pyarrow compute; only dicts and iterables of records are
walked in Python (one pass). pandas, polars and ir_datasets are imported only when the object
given is one of theirs (``import cwlkit`` and the command line never import them).
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace
from pathlib import Path

import numpy as np
import pyarrow as pa

from ..errors import CwlkitError, FormatError, InputError
from .grouped import QRELS_ROLES, RUN_ROLES
from .rules import MAX_LABEL, check_label_range
from .text import encode, from_numpy, from_strings, is_url, parse_floats, read_url, to_numpy
from .trec import Qrels, Run, check_duplicates, read_qrels, read_run

__all__ = ["as_qrels", "as_run"]

_ROLE_WHAT = {
    "topic": "the query id",
    "doc": "the document id",
    "label": "the relevance label",
    "iter": "the iteration",
    "score": "the score",
    "rank": "the rank",
    "q0": "the Q0 field",
    "tag": "the run tag",
}

_FORMS = (
    "a {cls}, a TREC {kind} file or Parquet file name, 'irds:DATASET_ID', an ir_datasets "
    "dataset, a pandas or polars DataFrame, a pyarrow Table, a pytrec_eval dict "
    "{{query_id: {{doc_id: {value}}}}}, or an iterable of (query_id, doc_id, {value}) tuples "
    "or ir_measures {record} records"
)
_QRELS_FORMS = _FORMS.format(cls="Qrels", kind="qrels", value="relevance", record="Qrel")
_RUN_FORMS = _FORMS.format(cls="Run", kind="run", value="score", record="ScoredDoc")


def as_qrels(obj, *, name: str | None = None) -> Qrels:
    """Relevance judgements from any of the forms users hold.

    Parameters
    ----------
    obj : object
        One of:

        - a :class:`~cwlkit.io.trec.Qrels` (returned as is);
        - a file name (``str`` or ``os.PathLike``): a TREC qrels file
          (``topic iteration document label``, plain or gzip, read by
          :func:`~cwlkit.io.trec.read_qrels`), or a Parquet file (suffix ``.parquet`` or
          ``.pq``, or the ``PAR1`` magic) whose columns are read as a table (below); or
          an fsspec URL (``file://...``, ``s3://bucket/key``, ``memory://...``) of either;
        - ``"irds:DATASET_ID"`` (e.g. ``"irds:vaswani"``): the qrels of an ir_datasets
          dataset (``pip install cwlkit[irds]``), or an ir_datasets dataset object (anything
          with ``qrels_iter()``);
        - a pandas DataFrame, a polars DataFrame or LazyFrame (collected), a dask DataFrame
          (computed), a pyarrow Table or RecordBatch, with columns (names matched
          case-insensitively, the first listed that is present is used): the query id
          ``query_id``, ``qid`` or ``topic``; the document id ``doc_id``, ``docno``,
          ``docid`` or ``doc``; the label ``relevance``, ``rel``
          or ``label``; optionally the iteration ``iteration`` or ``iter``. Other columns
          are ignored;
        - a pytrec_eval dict ``{query_id: {doc_id: relevance}}``;
        - an iterable (list, generator) of ir_measures ``Qrel(query_id, doc_id, relevance,
          iteration)`` namedtuples (or any namedtuples whose fields are named as the
          columns above), or of plain ``(query_id, doc_id, relevance)`` tuples.

        Ids may be integers or strings (the integer 1 and the string ``"1"`` are the same
        query ``"1"``); labels may be of any numeric type (or numeric text).
    name : str, optional
        Name used in messages instead of the file name or ``<DataFrame>``, ``<pyarrow.Table>``,
        ``<dict>``, ``<records>``.

    Returns
    -------
    Qrels
        ``iter`` is ``"0"`` when not given; ``label_text`` is the label as written (integers
        without ``.0``). Row numbers (``lines``) of in-memory forms are 1-based row positions.

    Raises
    ------
    InputError
        An object of none of these forms, or a table or records without the needed columns
        (the message names the columns found and those expected).
    FormatError
        A missing, NaN, infinite or non-numeric label or a missing id (naming the 1-based row
        and the value), or the same document judged twice for a query.
    CwlkitError
        ``irds:`` without ir_datasets installed, or a dataset that cannot be loaded.
    """
    return _convert(obj, "qrels", name)


def as_run(obj, *, name: str | None = None) -> Run:
    """A run from any of the forms users hold.

    Parameters
    ----------
    obj : object
        One of:

        - a :class:`~cwlkit.io.trec.Run` (returned as is);
        - a file name (``str`` or ``os.PathLike``): a TREC run file
          (``topic Q0 document rank score tag``, plain or gzip, read by
          :func:`~cwlkit.io.trec.read_run`), or a Parquet file (suffix ``.parquet`` or
          ``.pq``, or the ``PAR1`` magic) whose columns are read as a table (below); or
          an fsspec URL (``file://...``, ``s3://bucket/key``, ``memory://...``) of either;
        - ``"irds:DATASET_ID"``: the scored documents (``scoreddocs_iter()``, e.g. a BM25
          baseline) of an ir_datasets dataset (``pip install cwlkit[irds]``; ir_datasets
          has no other runs), or an ir_datasets dataset object with ``scoreddocs_iter()``;
        - a pandas DataFrame, a polars DataFrame or LazyFrame (collected), a dask DataFrame
          (computed), a pyarrow Table or RecordBatch, with columns (names matched
          case-insensitively, the first listed that is present is used): the query id
          ``query_id``, ``qid`` or ``topic``; the document id ``doc_id``, ``docno``,
          ``docid`` or ``doc``; ``score`` and/or ``rank`` (without
          ``score`` the score is ``-rank``, so that the rank order is kept); optionally
          ``Q0``/``q0`` and the run tag ``tag``, ``run``, ``runid`` or ``run_id``. Other
          columns are ignored (a PyTerrier result frame, with ``qid``, ``docid``, ``docno``,
          ``rank``, ``score``, uses ``docno``);
        - a pytrec_eval dict ``{query_id: {doc_id: score}}``;
        - an iterable (list, generator) of ir_measures ``ScoredDoc(query_id, doc_id,
          score)`` namedtuples (or any namedtuples whose fields are named as the columns
          above), or of plain ``(query_id, doc_id, score)`` tuples.

        Ids may be integers or strings (the integer 1 and the string ``"1"`` are the same
        query ``"1"``); scores and ranks may be of any numeric type (or numeric text).
    name : str, optional
        Name used in messages instead of the file name or ``<DataFrame>``, ``<pyarrow.Table>``,
        ``<dict>``, ``<records>``; also the run tag when the input has none (default
        ``"run"``).

    Returns
    -------
    Run
        ``q0`` is ``"Q0"`` when not given; without a rank, ``rank`` is the position by
        decreasing score within the query (ties in input order). Row numbers (``lines``) of
        in-memory forms are 1-based row positions.

    Raises
    ------
    InputError
        An object of none of these forms, or a table or records without the needed columns
        (the message names the columns found and those expected).
    FormatError
        A missing, NaN or non-numeric score or rank or a missing id (naming the 1-based row
        and the value), or the same document retrieved twice for a query.
    CwlkitError
        ``irds:`` without ir_datasets installed, a dataset without scored documents, or one
        that cannot be loaded.
    """
    return _convert(obj, "run", name)


# ---- dispatch ---------------------------------------------------------------------------


def _convert(obj, kind: str, name: str | None):
    try:
        return _convert_any(obj, kind, name)
    except (OverflowError, UnicodeError, pa.ArrowException) as exc:
        # (a value no column type holds: an int beyond 64 bits, a lone surrogate, bytes
        # that are not UTF-8 in an object column, a column type arrow cannot convert)
        what = name or f"<{type(obj).__name__}>"
        raise InputError(f"{what}: cannot read the {kind} ({type(exc).__name__}: {exc})") from None


def _convert_any(obj, kind: str, name: str | None):
    want, other = (Qrels, Run) if kind == "qrels" else (Run, Qrels)
    if isinstance(obj, want):
        return obj
    if isinstance(obj, other):
        raise InputError(f"expected a {want.__name__}, got a {other.__name__}")
    if isinstance(obj, str) and obj.startswith("irds:"):
        return _from_irds(_load_irds(obj[5:]), kind, name or obj, name)
    if isinstance(obj, (str, os.PathLike)):
        return _from_file(obj, kind, name)
    module = type(obj).__module__ or ""
    if module.startswith("dask") and hasattr(obj, "compute"):  # a dask DataFrame: computed
        obj = obj.compute()
        module = type(obj).__module__ or ""
    if module.startswith("pandas"):
        return _from_table(_pandas_table(obj, kind), kind, name or "<DataFrame>", name)
    if module.startswith("polars"):
        return _from_table(_polars_table(obj, kind), kind, name or "<DataFrame>", name)
    if isinstance(obj, pa.RecordBatch):
        obj = pa.Table.from_batches([obj])
    if isinstance(obj, pa.Table):
        return _from_table(obj, kind, name or "<pyarrow.Table>", name)
    if isinstance(obj, Mapping):
        return _from_dict(obj, kind, name or "<dict>", name)
    if module.startswith("ir_datasets") or hasattr(
        obj, "qrels_iter" if kind == "qrels" else "scoreddocs_iter"
    ):
        return _from_irds(obj, kind, name or _irds_name(obj), name)
    if hasattr(obj, "__arrow_c_stream__"):  # other data frame libraries (duckdb, ...)
        try:
            table = pa.RecordBatchReader.from_stream(obj).read_all()
        except (pa.ArrowException, TypeError, ValueError) as exc:
            raise InputError(
                f"could not read {type(obj).__name__} as an arrow table: {_line(exc)}"
            ) from None
        return _from_table(table, kind, name or f"<{type(obj).__name__}>", name)
    if isinstance(obj, Iterable) and not isinstance(obj, (bytes, bytearray)):
        return _from_records(obj, kind, name or "<records>", name)
    raise _wrong_type(obj, kind)


def _wrong_type(obj, kind: str) -> InputError:
    forms = _QRELS_FORMS if kind == "qrels" else _RUN_FORMS
    return InputError(f"expected {kind} as {forms}; got {type(obj).__name__}")


def _line(exc: BaseException) -> str:
    """The first line of an exception's message (messages are one line)."""
    text = str(exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__


# ---- files ------------------------------------------------------------------------------


def read_parquet(path: str) -> pa.Table:
    """A Parquet file as a pyarrow Table; a missing or invalid file is a one-line error."""
    import pyarrow.parquet as pq

    try:
        # (ParquetFile.read, unlike pq.read_table, does not import pandas)
        if is_url(path):
            return pq.ParquetFile(pa.BufferReader(read_url(path))).read()
        return pq.ParquetFile(path).read()
    except FileNotFoundError:
        raise CwlkitError(f"{path}: no such file") from None
    except (pa.ArrowException, OSError) as exc:
        raise FormatError(path, None, f"not a valid Parquet file ({_line(exc)})") from None


def _from_file(obj, kind: str, name: str | None):
    path = os.fsdecode(os.fspath(obj))
    if _is_parquet(path):
        return _from_table(read_parquet(path), kind, name or path, name)
    got = read_qrels(path) if kind == "qrels" else read_run(path)
    return replace(got, path=name) if name else got


def _is_parquet(path: str) -> bool:
    if path == "-":
        return False
    if Path(path).suffix.lower() in (".parquet", ".pq"):
        return True
    if is_url(path):
        return False  # (a URL is Parquet by its suffix; otherwise read as TREC text)
    try:
        with open(path, "rb") as f:
            return f.read(4) == b"PAR1"
    except OSError:
        return False  # the TREC reader names the problem


# ---- ir_datasets ------------------------------------------------------------------------


def _load_irds(dataset_id: str):
    try:
        import ir_datasets
    except ImportError:
        raise CwlkitError(
            f"irds:{dataset_id}: ir_datasets is not installed; pip install cwlkit[irds]"
        ) from None
    try:
        return ir_datasets.load(dataset_id)
    except KeyError:
        raise InputError(
            f"irds:{dataset_id}: no such ir_datasets dataset (expected an id such as "
            "'irds:vaswani'; see https://ir-datasets.com)"
        ) from None


def _irds_name(ds) -> str:
    try:
        return f"irds:{ds.dataset_id()}"
    except Exception:
        return "<ir_datasets>"


def _from_irds(ds, kind: str, path: str, name: str | None):
    method = "qrels_iter" if kind == "qrels" else "scoreddocs_iter"
    has = getattr(ds, "has_qrels" if kind == "qrels" else "has_scoreddocs", None)
    if not hasattr(ds, method) or (callable(has) and not has()):
        if kind == "qrels":
            raise InputError(f"{path}: the ir_datasets dataset has no qrels (no qrels_iter())")
        raise InputError(
            f"{path}: the ir_datasets dataset has no scored documents (no scoreddocs_iter()); "
            "ir_datasets provides runs only as scoreddocs"
        )
    try:
        records = list(getattr(ds, method)())
    except CwlkitError:
        raise
    except Exception as exc:  # downloads, parse errors: whatever ir_datasets raises
        raise CwlkitError(
            f"{path}: could not load {method}() from ir_datasets: {_line(exc)}"
        ) from None
    return _from_records(records, kind, path, name)


# ---- data frames ------------------------------------------------------------------------


def _pandas_table(df, kind: str) -> pa.Table:
    if not hasattr(df, "columns") or not hasattr(df, "iloc"):
        raise _wrong_type(df, kind)
    names, arrays = [], []
    for i, col in enumerate(df.columns):
        s = df.iloc[:, i]
        try:
            arr = pa.array(s, from_pandas=False)  # NaN stays NaN (named as such in messages)
        except (pa.ArrowException, TypeError, ValueError):
            # mixed object column (e.g. ints and strings): its text, with missing values null
            mask = s.isna().to_numpy(dtype=bool)
            arr = pa.array(s.astype(str).to_numpy(dtype=object), type=pa.string(), mask=mask)
        names.append(str(col))
        arrays.append(arr)
    return pa.Table.from_arrays(arrays, names=names)


def _polars_table(df, kind: str) -> pa.Table:
    if type(df).__name__ not in ("DataFrame", "LazyFrame"):  # e.g. a Series
        raise _wrong_type(df, kind)
    try:
        if hasattr(df, "collect") and not hasattr(df, "to_arrow"):  # LazyFrame
            df = df.collect()
        table = df.to_arrow()
    except Exception as exc:  # whatever polars raises
        raise InputError(f"could not convert the polars DataFrame to arrow: {_line(exc)}") from None
    if not isinstance(table, pa.Table):
        raise _wrong_type(df, kind)
    return table


# ---- tables -----------------------------------------------------------------------------


def pick_roles(
    names: list[str], roles: dict, required: tuple[str, ...], path: str, what: str
) -> dict:
    """role -> index into ``names`` of the column (or field) that plays it (``roles``: role ->
    accepted names, as :data:`QRELS_ROLES`; an InputError naming the ``what`` of ``path``
    when a ``required`` role has none)."""
    lower: dict[str, int] = {}
    for i, n in enumerate(names):
        lower.setdefault(str(n).lower(), i)
    got = {}
    for role, accepted in roles.items():
        for a in accepted:
            if a in lower:
                got[role] = lower[a]
                break
    missing = [r for r in required if r not in got]
    if missing:
        role = missing[0]
        expected = ", ".join(repr(a) for a in roles[role])
        found = ", ".join(repr(str(n)) for n in names) or "none"
        raise InputError(
            f"{path}: no {what} for {_ROLE_WHAT[role]}: expected one of {expected}; "
            f"found {what}s {found}"
        )
    return got


def _from_table(table: pa.Table, kind: str, path: str, name: str | None):
    names = table.column_names
    n = table.num_rows
    lines = np.arange(1, n + 1, dtype=np.int64)
    if kind == "qrels":
        got = pick_roles(names, QRELS_ROLES, ("topic", "doc", "label"), path, "column")
    else:
        got = pick_roles(names, RUN_ROLES, ("topic", "doc"), path, "column")
        if "score" not in got and "rank" not in got:
            found = ", ".join(repr(c) for c in names)
            raise InputError(
                f"{path}: no column for the score: expected 'score' (or 'rank'); "
                f"found columns {found}"
            )

    def col(role):
        return table.column(got[role]).combine_chunks()

    def label(role):
        return f"{_ROLE_WHAT[role]} (column {names[got[role]]!r})"

    topic = _ids(col("topic"), path, label("topic"))
    doc = _ids(col("doc"), path, label("doc"))
    if kind == "qrels":
        values, text = _numbers(col("label"), path, lines, "the relevance label", finite=True)
        check_label_range(path, values, text, lines)
        it = _ids(col("iter"), path, label("iter")) if "iter" in got else _const("0", n)
        table = pa.table(
            {
                "topic": topic,
                "iter": it,
                "doc": doc,
                "label_text": text,
                "label": from_numpy(values),
            }
        )
        return _finish(table, lines, kind, path)
    if "rank" in got:
        ranks, rank_text = _numbers(col("rank"), path, lines, "the rank", finite=True)
    if "score" in got:
        scores, score_text = _numbers(col("score"), path, lines, "the score", finite=False)
    else:
        scores = -ranks
        score_text = _float_text(scores)
    if "rank" not in got:
        rank_text = _rank_by_score(topic, scores)
    q0 = _ids(col("q0"), path, label("q0")) if "q0" in got else _const("Q0", n)
    tag = _ids(col("tag"), path, label("tag")) if "tag" in got else _const(name or "run", n)
    table = pa.table(
        {
            "topic": topic,
            "q0": q0,
            "doc": doc,
            "rank": rank_text,
            "score_text": score_text,
            "tag": tag,
            "score": from_numpy(scores),
        }
    )
    return _finish(table, lines, kind, path)


def _finish(table: pa.Table, lines: np.ndarray, kind: str, path: str):
    got = Qrels(table, lines, path) if kind == "qrels" else Run(table, lines, path)
    check_duplicates(path, table, lines, kind, got.codes())
    return got


def _const(text: str, n: int) -> pa.Array:
    return from_strings([text]).take(from_numpy(np.zeros(n, dtype=np.int64)))


def _as_string(arr: pa.Array) -> pa.Array:
    """``arr`` (string-like) as ``string``, or ``large_string`` beyond 2 GiB of text."""
    import pyarrow.compute as pc

    if arr.type == pa.string():
        return arr
    try:
        return pc.cast(arr, pa.string())
    except (pa.ArrowInvalid, pa.ArrowCapacityError):
        return pc.cast(arr, pa.large_string())


def _first_null(arr: pa.Array) -> int | None:
    import pyarrow.compute as pc

    if not arr.null_count:
        return None
    return int(np.flatnonzero(to_numpy(pc.is_null(arr)))[0])


def _ids(arr: pa.Array, path: str, what: str) -> pa.Array:
    """Ids (and other text fields) as strings: integers are written in decimal."""
    t = arr.type
    if pa.types.is_dictionary(t):
        arr = arr.dictionary_decode()
        t = arr.type
    i = _first_null(arr)
    if i is not None:
        raise FormatError(path, i + 1, f"expected {what}, got None")
    if pa.types.is_string(t) or pa.types.is_large_string(t) or pa.types.is_string_view(t):
        return _as_string(arr)
    if pa.types.is_floating(t):  # (pandas turns integer ids with a missing one into floats)
        import pyarrow.compute as pc

        nan = to_numpy(pc.is_nan(arr))
        if nan.any():
            i = int(np.flatnonzero(nan)[0])
            raise FormatError(path, i + 1, f"expected {what}, got nan")
        return _as_string(arr)
    if pa.types.is_integer(t) or pa.types.is_decimal(t):
        return _as_string(arr)
    if pa.types.is_binary(t) or pa.types.is_large_binary(t) or pa.types.is_binary_view(t):
        try:
            return _as_string(arr)
        except pa.ArrowInvalid:
            raise FormatError(path, None, f"expected UTF-8 text for {what}") from None
    raise InputError(f"{path}: expected strings or integers for {what}, got values of type {t}")


def _numbers(
    arr: pa.Array, path: str, lines: np.ndarray, what: str, *, finite: bool
) -> tuple[np.ndarray, pa.Array]:
    """float64 values and their text. ``finite`` rejects infinities as well as NaN."""
    import pyarrow.compute as pc

    t = arr.type
    if pa.types.is_dictionary(t):
        arr = arr.dictionary_decode()
        t = arr.type
    i = _first_null(arr)
    if i is not None:
        raise FormatError(path, int(lines[i]), f"expected a number for {what}, got None")
    if pa.types.is_string(t) or pa.types.is_large_string(t) or pa.types.is_string_view(t):
        arr = _as_string(arr)
        values = parse_floats(path, arr, lines, what, finite=finite)
        return values, arr
    if pa.types.is_integer(t) and what == "the relevance label":
        ints = to_numpy(arr, null=0)
        near = np.flatnonzero(np.abs(ints.astype(np.float64)) >= MAX_LABEL)
        if near.size:  # (checked on the integers: float64 would round them)
            text = from_strings([str(int(ints[i])) for i in near.tolist()])
            check_label_range(path, ints[near].astype(np.float64), text, lines[near])
    if not (
        pa.types.is_integer(t)
        or pa.types.is_floating(t)
        or pa.types.is_decimal(t)
        or pa.types.is_boolean(t)
    ):
        raise InputError(f"{path}: expected numbers for {what}, got values of type {t}")
    values = to_numpy(pc.cast(arr, pa.float64()))
    bad = ~np.isfinite(values) if finite else np.isnan(values)
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        kind = "a finite number" if finite else "a number"
        raise FormatError(
            path, int(lines[i]), f"expected {kind} for {what}, got {float(values[i])!r}"
        )
    if pa.types.is_integer(t):
        return values, _as_string(arr)
    return values, _float_text(values)


def _float_text(values: np.ndarray) -> pa.Array:
    """Shortest round-trip text of float64 values; integral values without ``.0``."""
    import pyarrow.compute as pc

    return pc.cast(from_numpy(values), pa.string())


def _rank_by_score(topic: pa.Array, scores: np.ndarray) -> pa.Array:
    """1-based position of each row by decreasing score within its topic (ties: input order)."""
    n = scores.size
    if n == 0:
        return from_strings([])
    (codes,), dictionary = encode(topic)
    same = codes[1:] == codes[:-1]
    starts = np.flatnonzero(np.concatenate(([True], ~same)))
    if starts.size == len(dictionary) and not (scores[1:][same] > scores[:-1][same]).any():
        order = None  # the usual case: topics contiguous, scores decreasing (O(n))
    else:  # two stable sorts: by decreasing score, then by topic
        order = np.argsort(-scores, kind="stable")
        order = order[np.argsort(codes[order], kind="stable")]
        sc = codes[order]
        starts = np.flatnonzero(np.concatenate(([True], sc[1:] != sc[:-1])))
    first = np.repeat(starts, np.diff(np.concatenate((starts, [n]))))
    pos = np.arange(1, n + 1, dtype=np.int64) - first
    if order is not None:
        rank = np.empty(n, dtype=np.int64)
        rank[order] = pos
        pos = rank
    return _as_string(from_numpy(pos))


# ---- dicts and records ------------------------------------------------------------------


def _from_dict(obj: Mapping, kind: str, path: str, name: str | None):
    value = "relevance" if kind == "qrels" else "score"
    topics: list = []
    docs: list = []
    values: list = []
    for q, inner in obj.items():
        if not isinstance(inner, Mapping):
            raise InputError(
                f"{path}: expected a pytrec_eval dict {{query_id: {{doc_id: {value}}}}}, but the "
                f"value for query {q!r} is a {type(inner).__name__}, not a dict"
            )
        topics.extend([q] * len(inner))
        docs.extend(inner.keys())
        values.extend(inner.values())
    return _from_columns(topics, docs, values, None, kind, path, name)


def record_columns(
    obj: Iterable, path: str, expected: str
) -> tuple[list[tuple], tuple | list] | None:
    """The columns of an iterable of equal-length tuples or namedtuples, and its first record
    (None when there is none). ``expected`` describes a record for messages."""
    items = obj if isinstance(obj, list) else list(obj)
    if not items:
        return None
    first = items[0]
    if not isinstance(first, (tuple, list)):
        raise InputError(
            f"{path}: expected records ({expected}) as tuples or namedtuples, "
            f"got a {type(first).__name__} in row 1"
        )
    width = len(first)
    try:
        columns = list(zip(*items, strict=True))
    except (ValueError, TypeError):
        i = next(
            (j for j, x in enumerate(items) if not isinstance(x, (tuple, list)) or len(x) != width),
            0,
        )
        raise InputError(
            f"{path}: expected every record to be a tuple of {width} fields like row 1, "
            f"got {items[i]!r} in row {i + 1}"
        ) from None
    return columns, first


def _from_records(obj: Iterable, kind: str, path: str, name: str | None):
    value = "relevance" if kind == "qrels" else "score"
    got_columns = record_columns(obj, path, f"query_id, doc_id, {value}")
    if got_columns is None:
        return _from_columns([], [], [], None, kind, path, name)
    columns, first = got_columns
    width = len(first)
    fields = getattr(first, "_fields", None)
    if fields is not None:
        roles = QRELS_ROLES if kind == "qrels" else RUN_ROLES
        need = ("topic", "doc", "label") if kind == "qrels" else ("topic", "doc", "score")
        got = pick_roles(list(fields), roles, need, path, "field")
        main = got["label" if kind == "qrels" else "score"]
        extra = got.get("iter") if kind == "qrels" else None
        return _from_columns(
            columns[got["topic"]],
            columns[got["doc"]],
            columns[main],
            columns[extra] if extra is not None else None,
            kind,
            path,
            name,
        )
    if width != 3:
        raise InputError(
            f"{path}: expected records of 3 fields (query_id, doc_id, {value}), "
            f"got {width} in row 1: {first!r}"
        )
    return _from_columns(columns[0], columns[1], columns[2], None, kind, path, name)


_FLOATS = (float, np.floating)


def _is_nan(x: object) -> bool:
    """Whether ``x`` is a floating-point NaN (Python's or numpy's)."""
    return isinstance(x, _FLOATS) and x != x


def _from_columns(topics, docs, values, iters, kind: str, path: str, name: str | None):
    """Python sequences of ids and numbers -> the table path (checks and texts there)."""
    what = "the relevance label" if kind == "qrels" else "the score"
    n = len(values)
    for ids, id_what in ((topics, "a query id"), (docs, "a document id"), (iters, "an iteration")):
        if ids is None:
            continue
        # (a float NaN id would be read as the id "nan"; tables refuse it too). The types
        # first, at C speed: the usual ids (strings, ints) need no scan in Python
        types = set(map(type, ids))
        if type(None) not in types and not any(issubclass(t, _FLOATS) for t in types):
            continue
        bad_id = next((i for i, x in enumerate(ids) if x is None or _is_nan(x)), None)
        if bad_id is not None:
            raise FormatError(path, bad_id + 1, f"expected {id_what}, got {ids[bad_id]!r}")
    try:
        arr = np.asarray(values, dtype=np.float64)
        if arr.shape != (n,):
            raise ValueError
    except (TypeError, ValueError):
        for i, v in enumerate(values):
            try:
                float(v)
            except (TypeError, ValueError):
                raise FormatError(path, i + 1, f"expected a number for {what}, got {v!r}") from None
        raise FormatError(path, None, f"expected numbers for {what}") from None  # pragma: no cover
    bad = ~np.isfinite(arr) if kind == "qrels" else np.isnan(arr)
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        kind_of = "a finite number" if kind == "qrels" else "a number"
        v = values[i].item() if isinstance(values[i], np.generic) else values[i]
        raise FormatError(path, i + 1, f"expected {kind_of} for {what}, got {v!r}")
    if kind == "qrels" and (np.abs(arr) >= MAX_LABEL).any():  # (on the values as given)
        near = np.flatnonzero(np.abs(arr) >= MAX_LABEL)
        text = from_strings([str(values[i]) for i in near.tolist()])
        check_label_range(path, arr[near], text, near + 1)
    cols = {"query_id": from_strings(topics), "doc_id": from_strings(docs)}
    if kind == "qrels":
        cols["relevance"] = from_numpy(arr)
        if iters is not None:
            cols["iteration"] = from_strings(iters)
    else:
        cols["score"] = from_numpy(arr)
    return _from_table(pa.table(cols), kind, path, name)


def run_labels(paths: Sequence[str]) -> list[str]:
    """Short, distinct names for runs given as paths: the file names, or the paths as given
    when two runs share a file name (and ``#2``, ``#3``... when a path is repeated)."""
    base = [os.path.basename(str(p)) or str(p) for p in paths]
    labels = base if len(set(base)) == len(base) else [str(p) for p in paths]
    seen: dict[str, int] = {}
    out = []
    for lab in labels:
        seen[lab] = seen.get(lab, 0) + 1
        out.append(lab if seen[lab] == 1 else f"{lab}#{seen[lab]}")
    return out
