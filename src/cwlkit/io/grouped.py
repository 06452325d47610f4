"""Runs and qrels held in Python (pytrec_eval dicts, pandas DataFrames) as topic groups,
with numpy alone: no pyarrow, no text round trip, no Python loop per value.

This is the direct input path of :mod:`cwlkit.core.direct`: a :class:`Grouped` run is each
topic's documents (the dict's own keys, or slices of a DataFrame's column) and one float64
array of every score, topic after topic; a :class:`GroupedQrels` is one ``{doc: label}``
dict per topic, which a run's documents are looked up in (at C speed, with no encoding of
the document ids: :func:`cwlkit.core.direct.direct_batch`).

Only well-formed input takes this path: string ids, numeric values (no NaN score, finite
labels), no repeated document. Anything else gives ``None``, and the caller reads the input
with :func:`cwlkit.io.inputs.as_run` / :func:`~cwlkit.io.inputs.as_qrels`, which accept the
other forms and name the row of any error.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from itertools import chain, repeat
from math import isfinite
from operator import countOf, itemgetter, methodcaller
from typing import Any

import numpy as np

from .rules import MAX_LABEL

__all__ = ["Grouped", "GroupedQrels", "grouped_qrels", "grouped_run"]

_VALUES = methodcaller("values")

_TOPIC = ("query_id", "qid", "topic")
_DOC = ("doc_id", "docno", "docid", "doc")

#: role -> accepted column (or record field) names, in order of preference, lower case
QRELS_ROLES = {
    "topic": _TOPIC,
    "doc": _DOC,
    "label": ("relevance", "rel", "label"),
    "iter": ("iteration", "iter"),
}
#: the same for runs
RUN_ROLES = {
    "topic": _TOPIC,
    "doc": _DOC,
    "score": ("score",),
    "rank": ("rank",),
    "q0": ("q0",),
    "tag": ("tag", "run", "runid", "run_id"),
}


@dataclass(eq=False)
class Grouped:
    """A run as topic groups.

    Attributes
    ----------
    topics : list of str
        The distinct topics with at least one document, in the order the run gives them.
    docs : list
        Per topic, an iterable of its document ids (str): a dict (its keys) or a list.
    counts : numpy.ndarray
        int64, the number of documents of each topic.
    scores : numpy.ndarray
        float64, every score, topic after topic (each topic's in the order of its ``docs``).
    tag : str
        The run's tag (trec_eval's runid).
    path : str
        What the run is called in messages.
    """

    topics: list[str]
    docs: list[Any]
    counts: np.ndarray
    scores: np.ndarray
    tag: str = "run"
    path: str = "<dict>"

    def __len__(self) -> int:
        return int(self.scores.size)


@dataclass(eq=False)
class GroupedQrels:
    """Judgements as one ``{doc: label}`` dict per topic.

    Attributes
    ----------
    by_topic : dict
        ``{topic: {doc: label}}``, only topics with at least one judgement; a label is a
        number or numeric text, finite (``float(label)`` is the label).
    path : str
        What the qrels are called in messages.
    memo : dict
        Arrays derived once (see :mod:`cwlkit.core.direct`).
    """

    by_topic: dict[str, dict[str, Any]]
    path: str = "<dict>"
    memo: dict = field(default_factory=dict, repr=False)

    def __getstate__(self) -> dict:
        return {**self.__dict__, "memo": {}}


def _all_str(values: Any) -> bool:
    """Whether every element of the iterable ``values`` is a ``str`` (type only, at C speed)."""
    types = set(map(type, values))
    return types <= {str} and bool(types)


def _all_mappings(values: list) -> bool | None:
    """Whether every one of ``values`` is a Mapping (dicts: by type, at C speed): True if
    every one is a ``dict``, None if some other Mapping, False if not."""
    if set(map(type, values)) <= {dict}:
        return True
    return None if all(isinstance(v, Mapping) for v in values) else False


def grouped_run(obj: Any, name: str | None = None) -> Grouped | None:
    """``obj`` as a :class:`Grouped` run, or None when it is not a well-formed pytrec_eval
    dict ``{query_id: {doc_id: score}}``, pandas or polars DataFrame, pyarrow Table, or
    list of ir_measures ``ScoredDoc`` records (named tuples) (string ids, numeric scores,
    no NaN, at least one row): :func:`cwlkit.io.inputs.as_run` reads it then."""
    if isinstance(obj, Mapping):
        return _dict_run(obj, name)
    module = type(obj).__module__ or ""
    if module.startswith("pandas") and hasattr(obj, "iloc"):
        return _pandas_run(obj, name)
    got = _held_columns(obj, RUN_ROLES, "score")
    if got is None:
        return None
    t, d, scores, tag, path = got
    name = name or tag
    small = _small_groups(np.asarray(t, dtype=object), np.asarray(d, dtype=object), scores)
    if small is None:
        return None
    g = _dict_run(small, name)
    if g is not None:
        g.path = path
    return g


def _held_columns(obj: Any, roles: dict, value: str) -> tuple | None:
    """(topic ids, doc ids: lists of str; float64 values; tag or None; what the input is
    called) of a polars DataFrame, a pyarrow Table or a list of named tuples (ir_measures'
    ``ScoredDoc``, ``Qrel``), or None when not such an input or not well formed for the
    direct path (then read by :mod:`cwlkit.io.inputs`, which names the faulty row)."""
    module = type(obj).__module__ or ""
    rows = getattr(obj, "height", None) or getattr(obj, "num_rows", None)
    if rows is None and isinstance(obj, (list, tuple)):
        rows = len(obj)
    if not isinstance(rows, int) or rows > SMALL_FRAME:
        return None  # (a large one: its columns grouped by the columnar path, with no loop)
    if module.startswith("polars") and type(obj).__name__ == "DataFrame":
        names = [str(c) for c in obj.columns]

        def column(i: int) -> Any:
            return obj.get_column(names[i])

        path = "<DataFrame>"
    elif module.startswith("pyarrow") and type(obj).__name__ == "Table":
        names = [str(c) for c in obj.column_names]

        def column(i: int) -> Any:
            return obj.column(i)

        path = "<pyarrow.Table>"
    elif isinstance(obj, (list, tuple)) and obj and hasattr(obj[0], "_fields"):
        if len(set(map(type, obj))) != 1:
            return None
        names = [str(f) for f in obj[0]._fields]
        fields = list(zip(*obj, strict=True))

        def column(i: int) -> Any:
            return fields[i]

        path = "<records>"
    else:
        return None
    lower = [n.lower() for n in names]
    if len(set(lower)) != len(lower):
        return None
    where = {
        r: next((lower.index(a) for a in accepted if a in lower), None)
        for r, accepted in roles.items()
    }
    ti, di, vi = where["topic"], where["doc"], where[value]
    if ti is None or di is None or vi is None:
        return None
    present = {
        r: (lambda i=i: np.asarray(_as_list(column(i)), dtype=object))
        for r, i in where.items()
        if i is not None
    }
    if not _extras_ok(present, value):
        return None
    t, d, raw = _as_list(column(ti)), _as_list(column(di)), _as_list(column(vi))
    if not t or not _all_str(t) or not _all_str(d) or not set(map(type, raw)) <= {int, float}:
        return None
    values = np.fromiter(raw, np.float64, len(raw))
    bad = _bad_labels(values) if value == "label" else np.isnan(values)
    if bad.any():
        return None
    return t, d, values, _tag_of(present), path


def _as_list(col: Any) -> list:
    """A column (polars Series, pyarrow ChunkedArray, tuple) as a Python list (nulls as
    None, which the checks refuse)."""
    if hasattr(col, "to_pylist"):
        return col.to_pylist()
    if hasattr(col, "to_list"):
        return col.to_list()
    return list(col)


def _nested(obj: Mapping) -> tuple[list, list, np.ndarray, np.ndarray, bool] | None:
    """(topics, their ``{doc: value}`` dicts, documents a topic, every value as float64,
    whether every one of those is a ``dict``) of a pytrec_eval dict whose ids are strings
    and values numbers; None for any other."""
    topics = list(obj.keys())
    inners = list(obj.values())
    plain = _all_mappings(inners) if topics and _all_str(topics) else False
    if plain is False:
        return None
    counts = np.fromiter(map(len, inners), np.int64, len(inners))
    n = int(counts.sum())
    if n == 0:
        return None
    # the ids that are str counted (an identity test of each one's type, at C speed) and
    # the values read: a topic at a time (its dict in cache), or, for a few topics, in two
    # passes (fewer Python calls)
    str_ids: list[int] = []
    if len(inners) <= 64:
        str_ids.append(countOf(map(type, chain.from_iterable(inners)), str))
        each: Any = map(_VALUES, inners)
    else:
        counted = map(str_ids.append, map(countOf, map(map, repeat(type), inners), repeat(str)))
        each = map(itemgetter(1), zip(counted, map(_VALUES, inners), strict=True))
    try:
        values = np.fromiter(chain.from_iterable(each), np.float64, n)
    except (TypeError, ValueError, OverflowError):
        return None
    if sum(str_ids) != n:  # (an id that is not a str)
        return None
    return topics, inners, counts, values, bool(plain)


def _dict_run(obj: Mapping, name: str | None) -> Grouped | None:
    got = _nested(obj)
    if got is None:
        return None
    topics, inners, counts, scores, _ = got
    if np.isnan(scores).any():
        return None
    if not counts.all():  # (a topic without documents is no topic of the run)
        keep = np.flatnonzero(counts)
        topics = [topics[i] for i in keep]
        inners = [inners[i] for i in keep]
        counts = counts[keep]
    return Grouped(topics, inners, counts, scores, tag=name or "run", path=name or "<dict>")


def _frame_column(df: Any, names: list[str], accepted: tuple[str, ...]) -> Any:
    """The first column of ``df`` named (case-insensitively) as one of ``accepted``."""
    for a in accepted:
        if a in names:
            return df[df.columns[names.index(a)]]
    return None


def _str_ids(col: Any) -> np.ndarray | None:
    """A pandas column of ids as an object array of str (integers written in decimal), or
    None (missing values, floats, anything else)."""
    kind = col.dtype.kind
    if kind in "iu":
        return col.to_numpy().astype(str).astype(object)
    if kind not in "OU" and str(col.dtype) not in ("string", "str"):
        return None
    values = col.to_numpy(dtype=object)
    if values.size and not _all_str(values):
        return None
    return values


#: a DataFrame of at most this many rows is grouped with a dict (no pandas call per column)
SMALL_FRAME = 4096


def _frame_columns(df: Any, roles: dict, value: str) -> tuple | None:
    """(topic ids, doc ids, float64 values, tag or None) of a pandas DataFrame of a run
    (``value`` ``"score"``) or qrels (``"label"``), or None when not well formed for the
    direct path."""
    names = [str(c).lower() for c in df.columns]
    if len(set(names)) != len(names) or df.shape[0] == 0:
        return None
    cols = {r: _frame_column(df, names, roles[r]) for r in roles}
    if any(cols[r] is None for r in ("topic", "doc", value)):
        return None
    present = {r: (lambda c=c: c.to_numpy(dtype=object)) for r, c in cols.items() if c is not None}
    if not _extras_ok(present, value):
        return None
    v = cols[value]
    if v.dtype.kind not in "iuf":
        return None
    t, d = _str_ids(cols["topic"]), _str_ids(cols["doc"])
    if t is None or d is None:
        return None
    values = v.to_numpy(dtype=np.float64)
    bad = _bad_labels(values) if value == "label" else np.isnan(values)
    if bad.any():
        return None
    return t, d, values, _tag_of(present)


def _extras_ok(present: dict[str, Any], value: str) -> bool:
    """Whether the columns of a run or qrels other than topic, document, value and iteration
    (``present``: role -> a function giving the column's values) change nothing the direct
    path makes: a ``rank`` column (ranking is by score) of numbers, an element type (``q0``)
    column of ``"Q0"`` alone, a ``tag`` column of one value (the run's tag, see
    :func:`_tag_of`). Any other: the columnar path keeps it."""
    for role, values in present.items():
        if role in ("topic", "doc", value, "iter"):
            continue
        if role == "rank":
            v = values()
            if not v.size or not set(map(type, v.tolist())) <= {int, float}:
                return False
            if not np.isfinite(v.astype(np.float64)).all():
                return False
        elif role == "q0":
            if set(values().tolist()) != {"Q0"}:
                return False
        elif role == "tag":
            tags = set(values().tolist())
            if len(tags) != 1 or not _all_str(tags):
                return False
        else:
            return False
    return True


def _tag_of(present: dict[str, Any]) -> str | None:
    """The one value of a ``tag`` column (checked by :func:`_extras_ok`), or None."""
    got = present.get("tag")
    return None if got is None else str(got()[0])


def _small_groups(t: np.ndarray, d: np.ndarray, values: np.ndarray) -> dict | None:
    """``{topic: {doc: value}}`` of a few rows, or None if a document repeats in a topic."""
    out: dict = {}
    for q, doc, v in zip(t.tolist(), d.tolist(), values.tolist(), strict=True):
        out.setdefault(q, {})[doc] = v
    if sum(map(len, out.values())) != len(values):
        return None
    return out


def _pandas_run(df: Any, name: str | None) -> Grouped | None:
    got = _frame_columns(df, RUN_ROLES, "score")
    if got is None:
        return None
    t, d, scores, tag = got
    name = name or tag
    if scores.size <= SMALL_FRAME:
        small = _small_groups(t, d, scores)
        g = None if small is None else _dict_run(small, name)
        if g is not None:
            g.path = "<DataFrame>"
        return g
    import pandas as pd

    codes, uniques = pd.factorize(t, sort=False)
    # no document twice for a topic (a DataFrame, unlike a dict, could hold it)
    dcodes, dunique = pd.factorize(d, sort=False)
    if pd.Index(codes.astype(np.int64) * (len(dunique) + 1) + dcodes).has_duplicates:
        return None
    if codes.size > 1 and (codes[1:] < codes[:-1]).any():  # topics not contiguous
        order = np.argsort(codes, kind="stable")
        codes, d, scores = codes[order], d[order], scores[order]
    counts = np.bincount(codes, minlength=len(uniques)).astype(np.int64)
    flat = d.tolist()
    ends = np.cumsum(counts).tolist()
    starts = [0, *ends[:-1]]
    docs = [flat[a:b] for a, b in zip(starts, ends, strict=True)]
    return Grouped(
        [str(x) for x in uniques], docs, counts, scores, tag=name or "run", path="<DataFrame>"
    )


def _pandas_qrels(df: Any, path: str | None) -> GroupedQrels | None:
    got = _frame_columns(df, QRELS_ROLES, "label")
    if got is None:
        return None
    t, d, labels, _ = got
    if labels.size <= SMALL_FRAME:
        small = _small_groups(t, d, labels)
        return None if small is None else GroupedQrels(small, path=path or "<DataFrame>")
    import pandas as pd

    codes, uniques = pd.factorize(t, sort=False)
    order = np.argsort(codes, kind="stable")
    counts = np.bincount(codes, minlength=len(uniques)).tolist()
    dl, ll = d[order].tolist(), labels[order].tolist()
    by_topic: dict[str, dict[str, Any]] = {}
    a = 0
    for q, c in zip(uniques.tolist(), counts, strict=True):
        by_topic[q] = dict(zip(dl[a : a + c], ll[a : a + c], strict=True))
        a += c
    if sum(map(len, by_topic.values())) != len(labels):
        return None  # (a document judged twice: the columnar path names the row)
    return GroupedQrels(by_topic, path=path or "<DataFrame>")


def grouped_qrels(obj: Any, path: str | None = None, *, copy: bool = True) -> GroupedQrels | None:
    """A pytrec_eval qrels dict ``{query_id: {doc_id: relevance}}`` (or a pandas DataFrame
    of such columns) as :class:`GroupedQrels`, or None unless it is well formed (string
    ids, finite numeric labels, one judgement at least): :func:`cwlkit.io.inputs.as_qrels`
    reads it then. ``copy=False``: a topic's ``dict`` is used as it is, not copied (for an
    evaluation that ends before the caller can change it: ``cwlkit.evaluate``)."""
    if (type(obj).__module__ or "").startswith("pandas") and hasattr(obj, "iloc"):
        return _pandas_qrels(obj, path)
    if not isinstance(obj, Mapping):
        got = _held_columns(obj, QRELS_ROLES, "label")
        if got is None:
            return None
        t, d, labels, _, what = got
        small = _small_groups(np.asarray(t, dtype=object), np.asarray(d, dtype=object), labels)
        return None if small is None else GroupedQrels(small, path=path or what)
    few = _few_labels(obj, copy)
    if few is not None:
        return GroupedQrels(few, path=path or "<dict>")
    got = _nested(obj)
    if got is None:
        return None
    topics, inners, counts, labels, plain = got
    if _bad_labels(labels).any():
        return None
    # (a copy of each topic's dict, so that changing the caller's afterwards changes nothing;
    # its labels are numbers float() takes, as checked: a lookup converts them exactly so)
    by_topic: dict[str, dict[str, Any]]
    if not copy and plain and counts.all():  # (as they are: the caller's dicts, read only)
        by_topic = obj if type(obj) is dict else dict(zip(topics, inners, strict=True))
    else:
        by_topic = {
            t: inner if not copy and type(inner) is dict else dict(inner)
            for t, inner in zip(topics, inners, strict=True)
            if inner
        }
    out = GroupedQrels(by_topic, path=path or "<dict>")
    out.memo["labels"] = labels  # (every label in by_topic's order: qrels_arrays reads them)
    return out


#: a qrels dict of at most this many labels is checked in Python, without numpy (a tiny
#: call's qrels: 2 us against 5)
FEW_LABELS = 64


def _few_labels(obj: Any, copy: bool) -> dict[str, dict[str, Any]] | None:
    """The ``by_topic`` of :func:`grouped_qrels` for a ``dict`` of ``dict`` of at most
    :data:`FEW_LABELS` labels, string ids and finite ``int`` or ``float`` labels, checked in
    Python; None for any other (the numpy checks decide)."""
    if type(obj) is not dict:
        return None
    inners = list(obj.values())
    if not set(map(type, inners)) <= {dict} or sum(map(len, inners)) > FEW_LABELS:
        return None
    labels = list(chain.from_iterable(d.values() for d in inners))
    if not labels or not _all_str(obj) or not _all_str(chain.from_iterable(inners)):
        return None
    if not set(map(type, labels)) <= {int, float}:
        return None
    try:
        if not all(map(isfinite, labels)) or max(map(abs, labels)) >= MAX_LABEL:
            return None
    except OverflowError:  # (an int beyond a double)
        return None
    if not copy and all(inners):  # (as they are: the caller's dicts, read only)
        return obj
    return {t: d if not copy else dict(d) for t, d in obj.items() if d}


def _bad_labels(values: np.ndarray) -> np.ndarray:
    """bool: labels that are not finite, or at least 2^53 in magnitude (the reader contract
    then decides, on their text: :func:`cwlkit.io.rules.check_label_range`)."""
    return ~(np.abs(values) < MAX_LABEL)


def qrels_from_columns(
    topics: list[str], docs: list[str], labels: np.ndarray, topic_codes: np.ndarray, path: str
) -> GroupedQrels:
    """:class:`GroupedQrels` of judgements already read and checked (a
    :class:`~cwlkit.io.trec.Qrels`' columns: topic and document ids, float64 labels, int64
    topic codes of the rows)."""
    order = np.argsort(topic_codes, kind="stable")
    counts = np.bincount(topic_codes).tolist() if topic_codes.size else []
    o = order.tolist()
    d = [docs[i] for i in o]
    lab = labels[order].tolist()
    by_topic: dict[str, dict[str, Any]] = {}
    a = 0
    for c in counts:
        if c:
            by_topic[topics[o[a]]] = dict(zip(d[a : a + c], lab[a : a + c], strict=True))
        a += c
    return GroupedQrels(by_topic, path=path)
