"""Query and document texts, for pages that show what was ranked (``cwlkit diff``).

Queries come from a TREC topics file (``<top> <num> Number: 151 <title> ...`` or the Web
Track's ``<topic number="151"> <query> ...``), a TSV file (``id<TAB>text`` per line), a JSON
Lines file (``{"query_id": ..., "text": ...}``) or an ir_datasets id (``irds:ID``);
documents from a TSV or JSON Lines file (``{"doc_id": ..., "text": ...}``) or an
ir_datasets docstore (``irds:ID``). Only the ids asked for are kept, so a large collection
file costs one pass and the memory of the texts shown.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Collection, Iterator
from typing import Any

from ..errors import CwlkitError, FormatError
from .text import read_bytes

__all__ = ["read_docs", "read_queries"]

#: the fields a JSON line's id and text may have, first found first taken
ID_FIELDS = ("query_id", "qid", "doc_id", "docno", "docid", "id", "_id")
TEXT_FIELDS = ("text", "query", "title", "body", "contents", "content", "abstract")
#: characters of a document kept
DOC_CHARS = 600

_TREC_TOP = re.compile(r"<num>\s*(?:Number:)?\s*(\S+)(.*?)(?=<num>|</top>|\Z)", re.S | re.I)
_TREC_TITLE = re.compile(r"<title>\s*(?:Topic:)?\s*(.*?)\s*(?=<desc>|<narr>|<|\Z)", re.S | re.I)
_WEB_TOPIC = re.compile(r"<topic\s+number=\"([^\"]+)\"[^>]*>(.*?)</topic>", re.S | re.I)
_WEB_QUERY = re.compile(r"<query>\s*(.*?)\s*</query>", re.S | re.I)


def read_queries(source: Any, topics: Collection[str] | None = None) -> dict[str, str]:
    """``{topic: query text}`` from a topics file or ``irds:ID`` (see the module); only
    ``topics`` when given. A source that names none of ``topics`` is an error."""
    if isinstance(source, str) and source.startswith("irds:"):
        pairs = _irds_queries(source[5:])
        out = _keep(pairs, topics)
    else:
        path = _path(source, "queries")
        text = _decode(path)
        if "<top>" in text.lower():
            out = _keep(_trec_topics(text), topics)
        elif "<topic " in text.lower():
            out = _keep(_web_topics(text), topics)
        else:
            out = _keep(_records(path, text), topics)
    if topics is not None and topics and not out:
        raise CwlkitError(f"{_name(source)}: names no topic of the runs")
    return out


def read_docs(source: Any, ids: Collection[str]) -> dict[str, str]:
    """``{doc id: text}`` (the first :data:`DOC_CHARS` characters) of the documents ``ids``,
    from a TSV or JSON Lines file or an ir_datasets docstore. A source holding none of
    ``ids`` is an error."""
    wanted = set(ids)
    if isinstance(source, str) and source.startswith("irds:"):
        out = _irds_docs(source[5:], wanted)
    else:
        path = _path(source, "documents")
        out = _keep(_records(path, _decode(path)), wanted)
    if wanted and not out:
        raise CwlkitError(f"{_name(source)}: holds none of the documents the runs rank")
    return {k: v[:DOC_CHARS] for k, v in out.items()}


def _name(source: Any) -> str:
    return os.fspath(source) if isinstance(source, (str, os.PathLike)) else repr(source)


def _path(source: Any, what: str) -> str:
    if not isinstance(source, (str, os.PathLike)):
        raise CwlkitError(f"{what} must be a file name or 'irds:ID'; got {source!r}")
    return os.fspath(source)


def _decode(path: str) -> str:
    data = read_bytes(path)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise FormatError(path, line, "not UTF-8 text") from None


def _keep(pairs: Any, wanted: Collection[str] | None) -> dict[str, str]:
    if wanted is None:
        return dict(pairs)
    want = set(wanted)
    return {k: v for k, v in pairs if k in want}


def _clean(text: str) -> str:
    return " ".join(text.split())


def _trec_topics(text: str) -> Iterator[tuple[str, str]]:
    for m in _TREC_TOP.finditer(text):
        title = _TREC_TITLE.search(m.group(2))
        yield m.group(1), _clean(title.group(1)) if title else ""


def _web_topics(text: str) -> Iterator[tuple[str, str]]:
    for m in _WEB_TOPIC.finditer(text):
        query = _WEB_QUERY.search(m.group(2))
        yield m.group(1), _clean(query.group(1)) if query else ""


def _records(path: str, text: str) -> Iterator[tuple[str, str]]:
    """TSV (``id<TAB>text``) or JSON Lines, by the first non-blank character."""
    is_json = text.lstrip().startswith("{")
    for n, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        if is_json:
            yield _json_record(path, n, line)
            continue
        key, tab, rest = line.partition("\t")
        if not tab:
            raise FormatError(path, n, "expected 'id<TAB>text' (or a JSON object per line)")
        yield key.strip(), _clean(rest)


def _json_record(path: str, n: int, line: str) -> tuple[str, str]:
    try:
        obj = json.loads(line)
    except json.JSONDecodeError:
        raise FormatError(path, n, "not a JSON object") from None
    if not isinstance(obj, dict):
        raise FormatError(path, n, "expected a JSON object with an id and a text")
    key = next((obj[f] for f in ID_FIELDS if f in obj), None)
    text = next((obj[f] for f in TEXT_FIELDS if isinstance(obj.get(f), str)), None)
    if key is None or text is None:
        raise FormatError(
            path,
            n,
            f"expected an id ({', '.join(ID_FIELDS)}) and a text ({', '.join(TEXT_FIELDS)})",
        )
    return str(key), _clean(text)


def _irds(dataset_id: str) -> Any:
    from .inputs import _load_irds

    return _load_irds(dataset_id)


def _irds_queries(dataset_id: str) -> Iterator[tuple[str, str]]:
    ds = _irds(dataset_id)
    if not (hasattr(ds, "queries_iter") and ds.has_queries()):
        raise CwlkitError(f"irds:{dataset_id}: the dataset has no queries")
    for q in ds.queries_iter():
        yield str(q.query_id), _clean(_irds_text(q))


def _irds_docs(dataset_id: str, wanted: set[str]) -> dict[str, str]:
    ds = _irds(dataset_id)
    if not (hasattr(ds, "docs_store") and ds.has_docs()):
        raise CwlkitError(f"irds:{dataset_id}: the dataset has no documents")
    found = ds.docs_store().get_many(sorted(wanted))
    return {str(k): _clean(_irds_text(d)) for k, d in found.items()}


def _irds_text(record: Any) -> str:
    """An ir_datasets query or document's text: its ``default_text()``, else its text
    fields (title, body...) joined."""
    if hasattr(record, "default_text"):
        return str(record.default_text())
    fields = (getattr(record, f, None) for f in TEXT_FIELDS)
    return " ".join(v for v in fields if isinstance(v, str))
