"""Query and document texts (io/texts.py) from TREC topics files (the classic and the Web
Track's XML forms), TSV, JSON Lines and gzip; only the ids asked for; one-line errors."""

from __future__ import annotations

import gzip
import json

import pytest

from cwlkit.errors import CwlkitError, FormatError
from cwlkit.io.texts import DOC_CHARS, read_docs, read_queries

TREC = """<top>
<num> Number: 301
<title> International Organized Crime

<desc> Description:
Identify organizations that participate in international criminal activity.
</top>
<top>
<num> Number: 302 <title> Poliomyelitis and
Post-Polio
<desc> Is the disease still a problem?
</top>
"""

WEB = """<webtrack2012>
<topic number="151" type="faceted">
  <query>403b</query>
  <description>What is a 403b plan?</description>
</topic>
<topic number="152" type="faceted">
  <query>angular cheilitis</query>
</topic>
</webtrack2012>
"""


def test_trec_topics(tmp_path):
    path = tmp_path / "topics.txt"
    path.write_text(TREC)
    assert read_queries(path) == {
        "301": "International Organized Crime",
        "302": "Poliomyelitis and Post-Polio",
    }
    assert read_queries(path, ["302", "999"]) == {"302": "Poliomyelitis and Post-Polio"}


def test_web_track_topics_gzipped(tmp_path):
    path = tmp_path / "topics.xml.gz"
    path.write_bytes(gzip.compress(WEB.encode()))
    assert read_queries(str(path)) == {"151": "403b", "152": "angular cheilitis"}


def test_tsv_and_jsonl(tmp_path):
    tsv = tmp_path / "q.tsv"
    tsv.write_text("1\tfirst query\n\n2\tsecond\tquery\n")
    assert read_queries(tsv) == {"1": "first query", "2": "second query"}
    jsonl = tmp_path / "docs.jsonl"
    rows = [
        {"doc_id": "d1", "text": "x" * 1000},
        {"docno": "d2", "body": "two"},
        {"id": 3, "title": "t"},
    ]
    jsonl.write_text("".join(json.dumps(r) + "\n" for r in rows))
    docs = read_docs(jsonl, ["d1", "d2", "3", "nope"])
    assert docs == {"d1": "x" * DOC_CHARS, "d2": "two", "3": "t"}


def test_errors(tmp_path):
    tsv = tmp_path / "q.tsv"
    tsv.write_text("1 no tab here\n")
    with pytest.raises(FormatError, match=r"q.tsv:1: expected 'id<TAB>text'"):
        read_queries(tsv)
    tsv.write_text("1\tq\n")
    with pytest.raises(CwlkitError, match=r"q.tsv: names no topic of the runs$"):
        read_queries(tsv, ["2"])
    with pytest.raises(CwlkitError, match=r"holds none of the documents"):
        read_docs(tsv, ["d9"])
    bad = tmp_path / "d.jsonl"
    bad.write_text('{"doc_id": "d1", "text": "a"}\n{"doc_id": "d2"}\n')
    with pytest.raises(FormatError, match=r"d.jsonl:2: expected an id"):
        read_docs(bad, ["d1"])
    with pytest.raises(CwlkitError, match=r"no such file"):
        read_queries(tmp_path / "missing.tsv")
    with pytest.raises(CwlkitError, match=r"must be a file name or 'irds:ID'; got 3"):
        read_docs(3, ["d"])
    latin = tmp_path / "l.tsv"
    latin.write_bytes(b"1\tcaf\xe9\n")
    with pytest.raises(FormatError, match=r"l.tsv:1: not UTF-8"):
        read_queries(latin)


def test_ir_datasets_queries_and_docstore(monkeypatch):
    """``irds:ID`` reads a dataset's queries and its docstore (only the ids asked for); a
    fake dataset stands in for one that would be downloaded."""
    from collections import namedtuple

    from cwlkit.io import inputs

    Query = namedtuple("Query", "query_id text")
    Doc = namedtuple("Doc", "doc_id title body")

    class Store:
        def get_many(self, ids):
            docs = {"d1": Doc("d1", "t1", "body one"), "d2": Doc("d2", "t2", "body two")}
            return {i: docs[i] for i in ids if i in docs}

    class Dataset:
        def has_queries(self):
            return True

        def queries_iter(self):
            return iter([Query("1", "first  query"), Query("2", "second")])

        def has_docs(self):
            return True

        def docs_store(self):
            return Store()

    monkeypatch.setattr(inputs, "_load_irds", lambda dataset_id: Dataset())
    assert read_queries("irds:fake", ["1"]) == {"1": "first query"}
    assert read_docs("irds:fake", ["d2", "d9"]) == {"d2": "t2 body two"}
    with pytest.raises(CwlkitError, match=r"irds:fake: names no topic of the runs"):
        read_queries("irds:fake", ["7"])
