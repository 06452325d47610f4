"""The direct input path (issue 22): runs and qrels held in Python grouped by topic with
numpy alone. Values are checked against the columnar path (the same input read as Qrels and
Run through pyarrow) and, for trec_eval's measures, against pytrec_eval."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import cwlkit
from cwlkit.errors import FormatError
from cwlkit.io import grouped
from cwlkit.io.grouped import SMALL_FRAME, grouped_qrels, grouped_run

MEASURES = ["AP", "nDCG@10", "P@10", "RBP(p=0.8)", "ERR@5", "INST(T=2)"]


def _data(topics: int, depth: int, seed: int = 0) -> tuple[dict, dict]:
    rng = np.random.default_rng(seed)
    qrels = {
        f"q{t}": {f"d{i}": int(rng.integers(0, 4)) for i in range(0, depth + 5, 2)}
        for t in range(topics)
    }
    run = {
        f"q{t}": {f"d{i}": float(rng.integers(0, 20)) / 4 for i in range(depth)}
        for t in range(topics)
    }
    return qrels, run


def _columnar(qrels, run, measures=MEASURES, **opts) -> cwlkit.Results:
    ev = cwlkit.Evaluator(cwlkit.as_qrels(qrels), measures, **opts)
    return ev.evaluate(cwlkit.as_run(run))


def _same(a: cwlkit.Results, b: cwlkit.Results) -> None:
    assert a.topics == b.topics
    assert a.measures == b.measures
    assert np.array_equal(a.values, b.values, equal_nan=True)


def test_dicts_take_the_direct_path_and_match_pytrec_eval():
    pytrec_eval = pytest.importorskip("pytrec_eval")
    qrels, run = _data(20, 30)
    ev = cwlkit.Evaluator(qrels, ["AP", "nDCG@10", "P@10"])
    assert ev.plan.direct(run, None) is not None
    res = ev.evaluate(run)
    ref = pytrec_eval.RelevanceEvaluator(qrels, {"map", "ndcg_cut.10", "P.10"}).evaluate(run)
    names = {"AP": "map", "nDCG@10": "ndcg_cut_10", "P@10": "P_10"}
    for i, m in enumerate(res.measures):
        for j, t in enumerate(res.topics):
            assert res.values[i, j] == ref[t][names[m]], (m, t)


def test_other_forms_fall_back_to_the_columnar_path():
    """Integer ids, numeric text and empty topics are not for the direct path; the values are
    those of the string-id dicts all the same."""
    qrels, run = _data(4, 6)
    assert grouped_run({1: {"d": 1.0}}) is None
    assert grouped_run({"q": {2: 1.0}}) is None
    assert grouped_run({"q": {"d": "high"}}) is None
    assert grouped_run({"q": {}}) is None
    assert grouped_qrels({"q": {"d": float("inf")}}) is None
    numbered = {t[1:]: js for t, js in qrels.items()}  # ("0", "1"...: int 0 is topic "0")
    ints = {int(t[1:]): ds for t, ds in run.items()}
    _same(
        cwlkit.evaluate(numbered, ints, MEASURES),
        _columnar(numbered, {t[1:]: ds for t, ds in run.items()}),
    )
    text = {t: {d: str(s) for d, s in ds.items()} for t, ds in run.items()}
    _same(cwlkit.evaluate(qrels, text, MEASURES), _columnar(qrels, run))


@pytest.mark.parametrize("where", ["run", "qrels"])
@pytest.mark.parametrize("odd", [12345, np.str_("new7"), b"new7"])
def test_one_id_that_is_not_a_str_deep_in_a_large_dict_falls_back(where, odd):
    """A single document id that is not a ``str`` (an int, a numpy str, bytes) in the last
    topic of 300 (its ids and values read a topic at a time, the ids' types counted): the
    dict is not for the direct path, and the values are the main path's (ids matched as
    strings), which for an int are those of the same dict with that id written as text,
    and those of pytrec_eval."""
    qrels, run = _data(300, 40, seed=3)
    held = run if where == "run" else qrels
    inner = held["q299"]
    first = next(iter(inner))
    inner[odd] = inner.pop(first)
    grouped = grouped_run(run) if where == "run" else grouped_qrels(qrels)
    assert grouped is None
    got = cwlkit.evaluate(qrels, run, MEASURES)
    _same(got, _columnar(qrels, run))
    if isinstance(odd, int):
        inner[str(odd)] = inner.pop(odd)
        text = cwlkit.evaluate(qrels, run, MEASURES)
        _same(got, text)
        pytrec_eval = pytest.importorskip("pytrec_eval")
        ref = pytrec_eval.RelevanceEvaluator(qrels, {"map", "ndcg_cut.10", "P.10"}).evaluate(run)
        names = {"AP": "map", "nDCG@10": "ndcg_cut_10", "P@10": "P_10"}
        for i, m in enumerate(got.measures):
            if m in names:
                assert got.values[i].tolist() == [ref[t][names[m]] for t in got.topics], m


def test_a_qrels_dict_is_read_as_it_is_or_without_its_empty_topics():
    """``cwlkit.evaluate`` reads a plain qrels dict as it is (no copy); one with an empty
    topic, or a topic that is another Mapping, as a dict of its non-empty topics: the same
    values as the columnar path."""
    from types import MappingProxyType

    qrels, run = _data(30, 20, seed=5)
    want = _columnar(qrels, run)
    got = grouped_qrels(qrels, copy=False)
    assert got is not None and got.by_topic is qrels
    _same(cwlkit.evaluate(qrels, run, MEASURES), want)
    for other in ({**qrels, "q99": {}}, {**qrels, "q0": MappingProxyType(qrels["q0"])}):
        got = grouped_qrels(other, copy=False)
        assert got is not None and got.by_topic is not other and "q99" not in got.by_topic
        _same(cwlkit.evaluate(other, run, MEASURES), want)


#: labels of every kind the checks have a rule for
ODD_LABELS = st.sampled_from(
    [0, 1, 2, -1, 2.5, -0.0, float("nan"), float("inf"), True, "1", None, 10**400, np.float64(1)]
)
FEW_QRELS = st.dictionaries(
    st.sampled_from(["q1", "q2", "é", 3]),
    st.dictionaries(st.sampled_from(["a", "b", "c", 7]), st.integers(0, 3) | ODD_LABELS),
    max_size=3,
)


@settings(max_examples=400, deadline=None)
@given(qrels=FEW_QRELS, copy=st.booleans())
def test_a_few_labels_are_checked_in_python_as_numpy_checks_them(qrels, copy):
    """A qrels dict of at most ``FEW_LABELS`` labels, checked without numpy: the same
    answer (refused, or the same topics and labels) as the numpy checks give."""
    fast = grouped_qrels(qrels, copy=copy)
    keep, grouped.FEW_LABELS = grouped.FEW_LABELS, -1
    try:
        slow = grouped_qrels(qrels, copy=copy)
    finally:
        grouped.FEW_LABELS = keep
    assert (fast is None) == (slow is None)
    if fast is not None:
        assert fast.by_topic == slow.by_topic
        assert (fast.by_topic is qrels) == (slow.by_topic is qrels)
        for t, d in fast.by_topic.items():  # (each topic's dict: as it is, or a copy)
            assert (d is qrels[t]) == (slow.by_topic[t] is qrels[t])


def test_errors_are_still_reported_with_their_row():
    qrels, run = _data(2, 3)
    bad = {"q0": {"d0": float("nan")}}
    with pytest.raises(FormatError, match="<dict>:1: expected a"):
        cwlkit.evaluate(qrels, bad, ["AP"])
    with pytest.raises(FormatError, match="<dict>:1: expected a"):
        cwlkit.evaluate({"q0": {"d0": float("inf")}}, run, ["AP"])


def test_the_qrels_are_copied_once():
    """Changing the caller's dict after the Evaluator is made changes nothing (pytrec_eval
    copies them too)."""
    qrels, run = _data(3, 8)
    ev = cwlkit.Evaluator(qrels, MEASURES)
    want = ev.evaluate(run)
    for js in qrels.values():
        for d in js:
            js[d] = 0
    _same(ev.evaluate(run), want)


@pytest.mark.parametrize("rows", [60, SMALL_FRAME + 500])
def test_data_frames_match_the_columnar_path(rows):
    """pandas qrels and runs, small (grouped with a dict) and large (with pandas.factorize),
    rows of a topic scattered, integer topic ids."""
    pd = pytest.importorskip("pandas")
    depth = 50
    qrels, run = _data(max(1, rows // depth), depth, seed=rows)
    rq = [(int(t[1:]), d, lab) for t, js in qrels.items() for d, lab in js.items()]
    rr = [(int(t[1:]), d, s) for t, ds in run.items() for d, s in ds.items()]
    qf = pd.DataFrame(rq, columns=["qid", "docno", "label"]).sample(frac=1.0, random_state=1)
    rf = pd.DataFrame(rr, columns=["qid", "docno", "score"]).sample(frac=1.0, random_state=2)
    ev = cwlkit.Evaluator(qf, MEASURES)
    assert ev.plan._grouped is not None and ev.plan.direct(rf, None) is not None
    _same(ev.evaluate(rf), _columnar(qf, rf))


def test_a_data_frame_with_a_repeated_document_is_an_error():
    pd = pytest.importorskip("pandas")
    rf = pd.DataFrame({"qid": ["1", "1"], "docno": ["a", "a"], "score": [1.0, 2.0]})
    assert grouped_run(rf) is None
    with pytest.raises(FormatError, match="twice"):
        cwlkit.evaluate({"1": {"a": 1}}, rf, ["AP"])


def test_a_tiny_evaluation_does_not_import_pyarrow():
    """The cold start of issue 22: numpy is loaded, pyarrow is not."""
    code = (
        "import sys, cwlkit;"
        "cwlkit.evaluate({'q': {'a': 1}}, {'q': {'a': 0.5, 'b': 0.2}}, ['AP', 'nDCG@10']);"
        "print('pyarrow' in sys.modules, 'numpy' in sys.modules)"
    )
    src = str(Path(cwlkit.__file__).resolve().parent.parent)
    out = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        check=True,
        env={"PYTHONPATH": src, "PATH": "/usr/bin:/bin"},
    )
    assert out.stdout.split() == ["False", "True"]


def _forms(qrels: dict, run: dict) -> dict:
    """The same qrels and run as polars DataFrames, pyarrow Tables, ir_measures records and
    pandas DataFrames with rank, Q0 and tag columns."""
    import pandas as pd
    import polars as pl
    import pyarrow as pa
    from ir_measures import Qrel, ScoredDoc

    q = [(t, d, r) for t, js in qrels.items() for d, r in js.items()]
    r = [(t, d, s) for t, ds in run.items() for d, s in ds.items()]
    qcols = {"query_id": [x[0] for x in q], "doc_id": [x[1] for x in q]}
    qcols["relevance"] = [x[2] for x in q]
    rcols = {"query_id": [x[0] for x in r], "doc_id": [x[1] for x in r]}
    rcols["score"] = [x[2] for x in r]
    full = pd.DataFrame(rcols)
    full["rank"] = full.groupby("query_id").cumcount() + 1  # (any rank: ranking is by score)
    full["q0"], full["tag"] = "Q0", "mytag"
    return {
        "polars": (pl.DataFrame(qcols), pl.DataFrame(rcols)),
        "pyarrow": (pa.table(qcols), pa.table(rcols)),
        "records": ([Qrel(*x, 0) for x in q], [ScoredDoc(*x) for x in r]),
        "pandas with rank, Q0, tag": (pd.DataFrame(qcols), full),
    }


@pytest.mark.parametrize("form", ["polars", "pyarrow", "records", "pandas with rank, Q0, tag"])
def test_other_held_forms_take_the_direct_path(form):
    """polars, pyarrow, ir_measures records and pandas with rank/Q0/tag columns are grouped
    directly (no pyarrow conversion of the run) and give the columnar path's values, to the
    bit, and pytrec_eval's for its measures; the tag column names the run."""
    pytrec_eval = pytest.importorskip("pytrec_eval")
    qrels, run = _data(6, 25, seed=3)
    q, r = _forms(qrels, run)[form]
    assert grouped_qrels(q) is not None and grouped_run(r) is not None
    ev = cwlkit.Evaluator(q, MEASURES)
    assert ev.plan._grouped is not None and ev.plan.direct(r, None) is not None
    got = ev.evaluate(r)
    _same(got, _columnar(qrels, run))
    ref = pytrec_eval.RelevanceEvaluator(qrels, {"map", "P.10"}).evaluate(run)
    for t in got.topics:
        assert got["AP"][t] == ref[t]["map"] and got["P@10"][t] == ref[t]["P_10"]
    assert got.run == ("mytag" if "tag" in form else "run")


def test_held_forms_that_are_not_for_the_direct_path():
    """Two tags, an element type other than Q0, a null, a repeated document, a large table:
    the columnar path reads them (and reports what is wrong)."""
    import pandas as pd
    import polars as pl

    base = {"query_id": ["q", "q"], "doc_id": ["a", "b"], "score": [1.0, 2.0]}
    assert grouped_run(pd.DataFrame({**base, "tag": ["x", "y"]})) is None
    assert grouped_run(pd.DataFrame({**base, "q0": ["Q0", "Q1"]})) is None
    assert grouped_run(pd.DataFrame({**base, "rank": ["1", "2"]})) is None
    assert grouped_run(pl.DataFrame({**base, "score": [1.0, None]})) is None
    assert grouped_run(pl.DataFrame({**base, "doc_id": ["a", "a"]})) is None
    n = SMALL_FRAME + 1
    big = pl.DataFrame({"query_id": ["q"] * n, "doc_id": [f"d{i}" for i in range(n)]})
    assert grouped_run(big.with_columns(score=pl.lit(1.0))) is None
