"""as_qrels / as_run: every form users hold gives what reading the TREC file gives.

The Web 2012 qrels and one of its runs are turned into each accepted form (files, gzip,
Parquet, pandas and polars frames, arrow tables, pytrec_eval dicts, ir_measures records,
plain tuples, an ir_datasets dataset registered over local files) and converted back; the
(topic, doc, label) / (topic, doc, score) multisets and the P@10 values must equal those of
the files. Bad forms must raise a CwlkitError naming what was expected.
"""

from __future__ import annotations

import gzip
import importlib.util
import math
import subprocess
import sys
from collections import Counter
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from conftest import DATA, read_data

from cwlkit.core.batch import build_batch
from cwlkit.errors import CwlkitError, FormatError, InputError
from cwlkit.io.inputs import as_qrels, as_run
from cwlkit.io.trec import Qrels, Run, read_qrels, read_run
from cwlkit.measures.parse import parse_measure

# every test once with files read, once with files memory-mapped
pytestmark = pytest.mark.usefixtures("text_reader")

pd = pytest.importorskip("pandas")
pl = pytest.importorskip("polars")
ir_measures = pytest.importorskip("ir_measures")

QRELS = DATA / "web2012" / "qrels.web.151-200.txt"
RUN = DATA / "web2012" / "runs" / "web2012.ql.cata.run.gz"
HAS_IRDS = importlib.util.find_spec("ir_datasets") is not None


# ---- the reference: the files, as plain Python columns -----------------------------------


@pytest.fixture(scope="module")
def ref_q():
    return read_qrels(QRELS)


@pytest.fixture(scope="module")
def ref_r():
    return read_run(RUN)


@pytest.fixture(scope="module")
def qcols(ref_q):
    t = ref_q.table
    return {
        "topic": t.column("topic").to_pylist(),
        "doc": t.column("doc").to_pylist(),
        "label": [int(x) for x in ref_q.labels],
    }


@pytest.fixture(scope="module")
def rcols(ref_r):
    t = ref_r.table
    return {
        "topic": t.column("topic").to_pylist(),
        "doc": t.column("doc").to_pylist(),
        "score": t.column("score").to_pylist(),
        "rank": [int(x) for x in t.column("rank").to_pylist()],
        "tag": t.column("tag").to_pylist(),
    }


def q_multiset(q: Qrels) -> Counter:
    t = q.table
    return Counter(
        zip(
            t.column("topic").to_pylist(),
            t.column("doc").to_pylist(),
            t.column("label").to_pylist(),
            strict=True,
        )
    )


def r_multiset(r: Run) -> Counter:
    t = r.table
    return Counter(
        zip(
            t.column("topic").to_pylist(),
            t.column("doc").to_pylist(),
            t.column("score").to_pylist(),
            strict=True,
        )
    )


def p10(q: Qrels, r: Run) -> dict[str, float]:
    batch = build_batch(q, r)
    values = parse_measure("P@10").compute(batch)
    return dict(zip(batch.topics, np.asarray(values).tolist(), strict=True))


def check_types(obj: Qrels | Run) -> None:
    """The columns and types that files give."""
    t = obj.table
    names = ("topic", "iter", "doc", "label_text") if isinstance(obj, Qrels) else None
    names = names or ("topic", "q0", "doc", "rank", "score_text", "tag")
    last = "label" if isinstance(obj, Qrels) else "score"
    assert t.column_names == [*names, last]
    for n in names:
        assert t.schema.field(n).type == pa.string(), n
    assert t.schema.field(last).type == pa.float64()
    lines = np.asarray(obj.lines)
    assert lines.dtype == np.int64
    np.testing.assert_array_equal(lines, np.arange(1, t.num_rows + 1))


# ---- the forms ---------------------------------------------------------------------------


def _gzip(src: Path, dst: Path) -> Path:
    dst.write_bytes(gzip.compress(read_data(src).encode()))
    return dst


def qrels_forms(c: dict, tmp: Path) -> dict:
    int_topics = [int(t) for t in c["topic"]]
    trec = pd.DataFrame({"qid": int_topics, "docno": c["doc"], "label": c["label"]})
    irm = pd.DataFrame(
        {
            "query_id": c["topic"],
            "doc_id": c["doc"],
            "relevance": c["label"],
            "iteration": ["0"] * len(c["doc"]),
        }
    )
    table = pa.table(
        {
            "topic": pa.array(int_topics, pa.int32()),
            "doc": pa.array(c["doc"]),
            "rel": pa.array(c["label"], pa.int8()),
        }
    )
    parquet = tmp / "qrels.parquet"
    pq.write_table(table, parquet)
    magic = tmp / "qrels.data"  # found by the PAR1 magic
    pq.write_table(table, magic)
    pytrec: dict = {}
    for t, d, lab in zip(c["topic"], c["doc"], c["label"], strict=True):
        pytrec.setdefault(t, {})[d] = lab
    return {
        "file str": str(QRELS),
        "file Path": QRELS,
        "gzip file": _gzip(QRELS, tmp / "qrels.gz"),
        "parquet": parquet,
        "parquet by magic": str(magic),
        "pandas ir_measures columns": irm,
        "pandas trec columns": trec,
        "pandas categorical ids": trec.astype({"docno": "category"}),
        "polars": pl.DataFrame({"query_id": c["topic"], "doc_id": c["doc"], "rel": c["label"]}),
        "polars lazy": pl.DataFrame(
            {"qid": int_topics, "docno": c["doc"], "relevance": c["label"]}
        ).lazy(),
        "pyarrow Table": table,
        "pyarrow RecordBatch": table.to_batches()[0] if table.num_rows else table,
        "pytrec dict": pytrec,
        "ir_measures Qrel generator": ir_measures.read_trec_qrels(str(QRELS)),
        "plain tuples": list(zip(int_topics, c["doc"], c["label"], strict=True)),
        "tuple generator": (x for x in zip(c["topic"], c["doc"], c["label"], strict=True)),
    }


def run_forms(c: dict, tmp: Path) -> dict:
    int_topics = [int(t) for t in c["topic"]]
    n = len(c["doc"])
    trec = pd.DataFrame(
        {
            "qid": int_topics,
            "Q0": ["Q0"] * n,
            "docno": c["doc"],
            "rank": c["rank"],
            "score": c["score"],
            "tag": c["tag"],
        }
    )
    irm = pd.DataFrame({"query_id": c["topic"], "doc_id": c["doc"], "score": c["score"]})
    # PyTerrier's result frames: docid is an internal number, docno the document
    pyterrier = pd.DataFrame(
        {
            "qid": c["topic"],
            "docid": np.arange(n),
            "docno": c["doc"],
            "rank": np.asarray(c["rank"]) - 1,
            "score": c["score"],
            "query": ["q"] * n,
        }
    )
    table = pa.table(
        {
            "qid": pa.array(int_topics, pa.int64()),
            "docno": pa.array(c["doc"]),
            "score": pa.array(c["score"], pa.float64()),
        }
    )
    parquet = tmp / "run.pq"
    pq.write_table(table, parquet)
    pytrec: dict = {}
    for t, d, s in zip(c["topic"], c["doc"], c["score"], strict=True):
        pytrec.setdefault(t, {})[d] = s
    return {
        "file str": str(RUN),
        "file Path": RUN,
        "gzip file": _gzip(RUN, tmp / "run.gz"),
        "parquet": parquet,
        "pandas ir_measures columns": irm,
        "pandas trec columns": trec,
        "pandas pyterrier columns": pyterrier,
        "polars": pl.DataFrame({"query_id": c["topic"], "doc_id": c["doc"], "score": c["score"]}),
        "polars lazy": pl.DataFrame(
            {"qid": int_topics, "docno": c["doc"], "score": c["score"]}
        ).lazy(),
        "pyarrow Table": table,
        "pyarrow RecordBatch": table.to_batches()[0],
        "pytrec dict": pytrec,
        "ir_measures ScoredDoc generator": ir_measures.read_trec_run(str(RUN)),
        "plain tuples": list(zip(int_topics, c["doc"], c["score"], strict=True)),
        "tuple generator": (x for x in zip(c["topic"], c["doc"], c["score"], strict=True)),
    }


QRELS_FORM_NAMES = [
    "file str",
    "file Path",
    "gzip file",
    "parquet",
    "parquet by magic",
    "pandas ir_measures columns",
    "pandas trec columns",
    "pandas categorical ids",
    "polars",
    "polars lazy",
    "pyarrow Table",
    "pyarrow RecordBatch",
    "pytrec dict",
    "ir_measures Qrel generator",
    "plain tuples",
    "tuple generator",
]
RUN_FORM_NAMES = [
    "file str",
    "file Path",
    "gzip file",
    "parquet",
    "pandas ir_measures columns",
    "pandas trec columns",
    "pandas pyterrier columns",
    "polars",
    "polars lazy",
    "pyarrow Table",
    "pyarrow RecordBatch",
    "pytrec dict",
    "ir_measures ScoredDoc generator",
    "plain tuples",
    "tuple generator",
]


def test_form_lists_are_complete(qcols, rcols, tmp_path):
    assert list(qrels_forms(qcols, tmp_path)) == QRELS_FORM_NAMES
    assert list(run_forms(rcols, tmp_path)) == RUN_FORM_NAMES


@pytest.mark.parametrize("form", QRELS_FORM_NAMES)
def test_qrels_forms_agree_with_the_file(form, qcols, ref_q, ref_r, tmp_path):
    q = as_qrels(qrels_forms(qcols, tmp_path)[form])
    check_types(q)
    assert len(q) == len(ref_q)
    assert q_multiset(q) == q_multiset(ref_q)
    # integer labels are written as integers, as in the file
    assert Counter(q.table.column("label_text").to_pylist()) == Counter(
        ref_q.table.column("label_text").to_pylist()
    )
    assert set(q.table.column("iter").to_pylist()) == {"0"}
    assert p10(q, ref_r) == p10(ref_q, ref_r)


@pytest.mark.slow
@pytest.mark.parametrize("form", RUN_FORM_NAMES)
def test_run_forms_agree_with_the_file(form, rcols, ref_q, ref_r, tmp_path):
    r = as_run(run_forms(rcols, tmp_path)[form])
    check_types(r)
    assert len(r) == len(ref_r)
    assert r_multiset(r) == r_multiset(ref_r)
    assert p10(ref_q, r) == p10(ref_q, ref_r)
    # ranks: kept when given, otherwise the position by decreasing score (the file's order)
    if form != "pandas pyterrier columns":
        assert r.table.column("rank").to_pylist() == [str(x) for x in rcols["rank"]]
    tag = (
        "indri" if form in ("file str", "file Path", "gzip file", "pandas trec columns") else "run"
    )
    assert r.runid == tag


def test_qrels_and_run_from_records_agree_with_the_file_in_order_rank(ref_q, ref_r, rcols):
    """order='rank' reads the rank column: the computed ranks give the file's batch."""
    r = as_run(list(zip(rcols["topic"], rcols["doc"], rcols["score"], strict=True)))
    a = build_batch(ref_q, r, order="rank")
    b = build_batch(ref_q, ref_r, order="rank")
    np.testing.assert_array_equal(a.docs, b.docs)


def test_existing_objects_are_returned_as_is(ref_q, ref_r):
    assert as_qrels(ref_q) is ref_q
    assert as_run(ref_r) is ref_r


def test_int_and_string_ids_are_the_same():
    a = as_qrels([(1, 7, 1), (2, "x", 0)])
    b = as_qrels([("1", "7", 1), ("2", "x", 0)])
    c = as_qrels(pd.DataFrame({"qid": [1, 2], "docno": [7, "x"], "rel": [1, 0]}))
    d = as_qrels(pa.table({"qid": pa.array([1, 2], pa.uint16()), "doc": ["7", "x"], "rel": [1, 0]}))
    e = as_qrels({1: {7: 1}, "2": {"x": 0}})
    for q in (a, b, c, d, e):
        assert q_multiset(q) == Counter({("1", "7", 1.0): 1, ("2", "x", 0.0): 1})


def test_label_and_score_texts():
    q = as_qrels(pd.DataFrame({"qid": [1, 1, 1], "docno": ["a", "b", "c"], "rel": [2, -1, 0]}))
    assert q.table.column("label_text").to_pylist() == ["2", "-1", "0"]
    q = as_qrels([("1", "a", 0.5), ("1", "b", 1.0), ("1", "c", 3)])
    assert q.table.column("label_text").to_pylist() == ["0.5", "1", "3"]
    r = as_run({"1": {"a": 2.5, "b": 3.0, "c": -1e-7}})
    assert r.table.column("score_text").to_pylist() == ["2.5", "3", "-1e-7"]
    assert r.table.column("rank").to_pylist() == ["2", "1", "3"]


def test_computed_ranks_on_interleaved_topics():
    rows = [("2", "a", 1.0), ("1", "a", 0.5), ("2", "b", 3.0), ("1", "b", 0.5), ("1", "c", 9)]
    r = as_run(rows)
    assert r.table.column("rank").to_pylist() == ["2", "2", "1", "3", "1"]
    df = pd.DataFrame(rows, columns=["qid", "docno", "score"]).sort_values(
        ["qid", "score"], ascending=[True, False], kind="stable"
    )
    r = as_run(df)  # sorted: the ranks are the positions
    assert r.table.column("doc").to_pylist() == ["c", "a", "b", "b", "a"]
    assert r.table.column("rank").to_pylist() == ["1", "2", "3", "1", "2"]


def test_run_with_rank_and_no_score_keeps_the_rank_order(ref_q, ref_r, rcols):
    df = pd.DataFrame({"qid": rcols["topic"], "docno": rcols["doc"], "rank": rcols["rank"]})
    r = as_run(df)
    np.testing.assert_array_equal(r.table.column("score").to_pylist(), -np.array(rcols["rank"]))
    assert r.table.column("rank").to_pylist() == [str(x) for x in rcols["rank"]]
    a = build_batch(ref_q, r)
    b = build_batch(ref_q, ref_r, order="rank")
    np.testing.assert_array_equal(a.docs, b.docs)


def test_names_in_messages_and_tags(tmp_path):
    assert as_qrels({"1": {"a": 1}}).path == "<dict>"
    assert as_qrels([("1", "a", 1)]).path == "<records>"
    assert as_qrels(pd.DataFrame({"qid": [1], "docno": ["a"], "rel": [1]})).path == "<DataFrame>"
    assert as_qrels(pl.DataFrame({"qid": [1], "docno": ["a"], "rel": [1]})).path == "<DataFrame>"
    assert as_qrels(pa.table({"qid": [1], "docno": ["a"], "rel": [1]})).path == "<pyarrow.Table>"
    assert as_qrels(QRELS).path == str(QRELS)
    r = as_run({"1": {"a": 1.0}}, name="bm25")
    assert (r.path, r.runid) == ("bm25", "bm25")
    assert as_run({"1": {"a": 1.0}}).runid == "run"
    r = as_run(RUN, name="mine")
    assert (r.path, r.runid) == ("mine", "indri")
    with pytest.raises(FormatError, match=r"^mine:2: expected a number for the score, got nan"):
        as_run([("1", "a", 1.0), ("1", "b", math.nan)], name="mine")


def test_empty_inputs_give_empty_objects():
    assert len(as_qrels({})) == 0
    assert len(as_run([])) == 0
    assert len(as_run(pd.DataFrame({"qid": [], "docno": [], "score": []}))) == 0


def test_no_pandas_or_polars_import_for_other_forms(tmp_path):
    table = pa.table({"qid": ["1"], "docno": ["a"], "rel": [1]})
    pq.write_table(table, tmp_path / "q.parquet")
    code = (
        "import sys, pyarrow as pa\n"
        "from cwlkit.io.inputs import as_qrels, as_run\n"
        f"as_qrels({str(QRELS)!r}); as_run({str(RUN)!r})\n"
        f"as_qrels({str(tmp_path / 'q.parquet')!r})\n"
        "as_qrels({'1': {'a': 1}}); as_run([('1', 'a', 1.0)])\n"
        "from cwlkit.io.text import from_numpy, from_strings\n"
        "import numpy as np\n"  # (pa.array itself imports pandas)
        "as_qrels(pa.table({'qid': from_numpy(np.arange(2)), 'docno': from_strings('ab'),\n"
        "                   'rel': from_numpy(np.ones(2))}))\n"
        "print(sorted(m for m in ('pandas', 'polars', 'ir_datasets') if m in sys.modules))\n"
    )
    got = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert got.returncode == 0, got.stderr
    assert got.stdout.strip() == "[]"


# ---- ir_datasets -------------------------------------------------------------------------


@pytest.fixture(scope="module")
def irds_tiny():
    if not HAS_IRDS:
        pytest.skip("ir_datasets is not installed (pip install cwlkit[irds])")
    import ir_datasets
    from ir_datasets.datasets.base import Dataset
    from ir_datasets.formats import TrecQrels, TrecScoredDocs
    from ir_datasets.util import GzipExtract, LocalDownload

    name = "cwlkit-test/tiny"
    if name not in ir_datasets.registry._registered:
        ds = Dataset(
            TrecQrels(LocalDownload(QRELS, mkdir=False), {}),
            TrecScoredDocs(GzipExtract(LocalDownload(RUN, mkdir=False))),
        )
        ir_datasets.registry.register(name, ds)
    return name


def test_irds_dataset_id(irds_tiny, ref_q, ref_r):
    q = as_qrels(f"irds:{irds_tiny}")
    r = as_run(f"irds:{irds_tiny}")
    check_types(q)
    check_types(r)
    assert q.path == r.path == f"irds:{irds_tiny}"
    assert q_multiset(q) == q_multiset(ref_q)
    assert r_multiset(r) == r_multiset(ref_r)
    assert p10(q, r) == p10(ref_q, ref_r)


def test_irds_dataset_object(irds_tiny, ref_q, ref_r):
    import ir_datasets

    ds = ir_datasets.load(irds_tiny)
    assert q_multiset(as_qrels(ds)) == q_multiset(ref_q)
    assert r_multiset(as_run(ds, name="bm25")) == r_multiset(ref_r)


def test_irds_without_scoreddocs_or_unknown(irds_tiny):
    import ir_datasets
    from ir_datasets.datasets.base import Dataset
    from ir_datasets.formats import TrecQrels
    from ir_datasets.util import LocalDownload

    name = "cwlkit-test/qrels-only"
    if name not in ir_datasets.registry._registered:
        ir_datasets.registry.register(
            name, Dataset(TrecQrels(LocalDownload(QRELS, mkdir=False), {}))
        )
    with pytest.raises(InputError, match="has no scored documents.*scoreddocs"):
        as_run(f"irds:{name}")
    with pytest.raises(InputError, match="no such ir_datasets dataset"):
        as_qrels("irds:cwlkit-test/does-not-exist")


def test_irds_not_installed(monkeypatch):
    monkeypatch.setitem(sys.modules, "ir_datasets", None)
    with pytest.raises(
        CwlkitError, match=r"ir_datasets is not installed; pip install cwlkit\[irds\]"
    ):
        as_qrels("irds:vaswani")


# ---- errors ------------------------------------------------------------------------------

NAN = float("nan")


@pytest.mark.parametrize(
    "convert,obj,cls,needle",
    [
        (as_qrels, 3, InputError, "expected qrels as a Qrels, a TREC qrels file"),
        (as_run, 3.5, InputError, "expected run as a Run, a TREC run file"),
        (as_run, b"1 Q0 a 1 1 x", InputError, "pytrec_eval dict"),
        (as_run, read_qrels(QRELS), InputError, "expected a Run, got a Qrels"),
        (as_qrels, [{"query_id": "1"}], InputError, "expected records (query_id, doc_id"),
        (as_qrels, pl.Series([1, 2]), InputError, "a pandas or polars DataFrame"),
        (as_run, pd.Series([1.0]), InputError, "a pandas or polars DataFrame"),
        (as_qrels, np.zeros((2, 3)), InputError, "got a ndarray in row 1"),
        (as_qrels, ["1 0 a 1"], InputError, "as tuples or namedtuples, got a str"),
        (as_qrels, [("1", "a")], InputError, "expected records of 3 fields"),
        (as_qrels, [("1", "a", 1), ("1", "b")], InputError, "got ('1', 'b') in row 2"),
        (as_qrels, {"1": [("a", 1)]}, InputError, "{query_id: {doc_id: relevance}}"),
        (as_run, {"1": 2.0}, InputError, "value for query '1' is a float, not a dict"),
        (
            as_qrels,
            [ir_measures.ScoredDoc("1", "a", 1.0)],
            InputError,
            "no field for the relevance label: expected one of 'relevance', 'rel', 'label'; "
            "found fields 'query_id', 'doc_id', 'score'",
        ),
        (
            as_qrels,
            pd.DataFrame({"qid": [1], "docid": ["a"], "score": [1.0]}),
            InputError,
            "<DataFrame>: no column for the relevance label: expected one of 'relevance', "
            "'rel', 'label'; found columns 'qid', 'docid', 'score'",
        ),
        (
            as_run,
            pl.DataFrame({"query": [1], "doc_id": ["a"], "score": [1.0]}),
            InputError,
            "no column for the query id: expected one of 'query_id', 'qid', 'topic'; "
            "found columns 'query', 'doc_id', 'score'",
        ),
        (
            as_run,
            pa.table({"qid": [1], "doc_id": ["a"]}),
            InputError,
            "no column for the score: expected 'score' (or 'rank'); found columns 'qid', 'doc_id'",
        ),
        (
            as_run,
            pd.DataFrame({"qid": [1, 1], "docno": ["a", "b"], "score": [1.0, NAN]}),
            FormatError,
            "<DataFrame>:2: expected a number for the score, got nan",
        ),
        (
            as_run,
            pl.DataFrame({"qid": [1, 1], "docno": ["a", "b"], "score": [1.0, None]}),
            FormatError,
            "<DataFrame>:2: expected a number for the score, got None",
        ),
        (
            as_run,
            {"1": {"a": 1.0, "b": NAN}},
            FormatError,
            "<dict>:2: expected a number for the score, got nan",
        ),
        (
            as_qrels,
            pa.table({"qid": [1, 1, 1], "docno": ["a", "b", "c"], "rel": [1.0, 2.0, math.inf]}),
            FormatError,
            "<pyarrow.Table>:3: expected a finite number for the relevance label, got inf",
        ),
        (
            as_qrels,
            [("1", "a", 1), ("1", "b", None)],
            FormatError,
            "<records>:2: expected a finite number for the relevance label, got None",
        ),
        (
            as_qrels,
            pd.DataFrame({"qid": [1, 1], "docno": ["a", "b"], "rel": [1, "x"]}),
            FormatError,
            "<DataFrame>:2: expected a number for the relevance label, got 'x'",
        ),
        (
            as_qrels,
            pa.table({"qid": ["1", "1"], "docno": ["a", "b"], "rel": ["1", "high"]}),
            FormatError,
            "<pyarrow.Table>:2: expected a number for the relevance label, got 'high'",
        ),
        (
            as_qrels,
            {"1": {"a": 1, "b": "x"}},
            FormatError,
            "<dict>:2: expected a number for the relevance label, got 'x'",
        ),
        (
            as_qrels,
            pa.table({"qid": [1], "docno": ["a"], "rel": [[1]]}),
            InputError,
            "expected numbers for the relevance label, got values of type list<item: int64>",
        ),
        (
            as_qrels,
            pd.DataFrame({"qid": [1, None], "docno": ["a", "b"], "rel": [1, 0]}),
            FormatError,
            "<DataFrame>:2: expected the query id (column 'qid'), got nan",
        ),
        (
            as_qrels,
            [("1", None, 1)],
            FormatError,
            "<records>:1: expected a document id, got None",
        ),
        (
            as_run,
            pd.DataFrame({"qid": [1, 1, 1], "docno": ["a", "b", "a"], "score": [3.0, 2.0, 1.0]}),
            FormatError,
            "<DataFrame>:3: document 'a' appears twice for topic '1' in the run (first at line 1)",
        ),
        (
            as_qrels,
            [("1", "a", 1), ("2", "a", 1), (1, "a", 0)],
            FormatError,
            "<records>:3: document 'a' appears twice for topic '1' in the qrels",
        ),
    ],
    ids=lambda x: x if isinstance(x, str) and len(x) < 60 else None,
)
def test_bad_inputs(convert, obj, cls, needle):
    with pytest.raises(cls) as info:
        convert(obj)
    assert isinstance(info.value, CwlkitError)
    msg = str(info.value)
    assert needle in msg
    assert "\n" not in msg


def test_bad_files(tmp_path):
    with pytest.raises(CwlkitError, match="no such file"):
        as_qrels(tmp_path / "missing.txt")
    with pytest.raises(CwlkitError, match="no such file"):
        as_run(str(tmp_path / "missing.parquet"))
    bad = tmp_path / "bad.parquet"
    bad.write_bytes(b"PAR1 not really")
    with pytest.raises(FormatError, match="bad.parquet: not a valid Parquet file"):
        as_run(bad)
    dup = tmp_path / "dup.txt"
    dup.write_text("1 0 a 1\n1 0 a 0\n")
    with pytest.raises(FormatError, match="dup.txt:2: document 'a' appears twice"):
        as_qrels(dup)
