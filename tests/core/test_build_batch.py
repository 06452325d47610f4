"""build_batch, step by step: topic space, labels of run rows, topic selection, ordering and
depth cut, run matrices and the qrels label matrix, on a hand-checked run and qrels."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import cwlkit.core.batch as batch_mod
from cwlkit.core.batch import build_batch
from cwlkit.errors import CwlkitError, ParamError
from cwlkit.io.trec import read_qrels, read_run

QRELS = """\
t1 0 d1 2
t1 0 d2 0
t1 0 d3 1
t1 0 d9 -1
t2 0 d1 1
t3 0 d5 3
"""

# t1: d1 (score 2) first; d4 and d3 tie at 1.0 (docno descending: d4, d3); d9 last.
# rank column order: d1, d3, d4, d9; file order: d4, d1, d3, d9.
RUN = """\
t2 Q0 d1 1 0.5 tag
t1 Q0 d4 3 1.0 tag
t1 Q0 d1 1 2.0 tag
t1 E1 d3 2 1.0 tag
t1 Q0 d9 4 0.1 tag
t4 Q0 d7 1 1.0 tag
"""

NAN = np.nan


@pytest.fixture
def files(tmp_path):
    q, r = tmp_path / "q.txt", tmp_path / "r.txt"
    q.write_text(QRELS)
    r.write_text(RUN)
    return q, r


def _batch(files, **kw):
    q, r = files
    return build_batch(read_qrels(q), read_run(r), **kw)


def _row(b, topic):
    return list(b.topics).index(topic)


def _docs(b, topic):
    i = _row(b, topic)
    return [d for d in b.docs[i] if d is not None]


@pytest.mark.parametrize(
    ("topics", "expected"),
    [
        ("run", ["t1", "t2", "t4"]),
        ("qrels", ["t1", "t2", "t3"]),
        ("both", ["t1", "t2"]),
        ("either", ["t1", "t2", "t3", "t4"]),
    ],
)
def test_topic_selection(files, topics, expected):
    b = _batch(files, topics=topics)
    assert list(b.topics) == expected
    depth = {"t1": 4, "t2": 1, "t3": 0, "t4": 1}
    assert b.depth.tolist() == [depth[t] for t in expected]
    n_judged = {"t1": 4, "t2": 1, "t3": 1, "t4": 0}
    assert b.n_judged.tolist() == [n_judged[t] for t in expected]


@pytest.mark.parametrize(
    ("order", "docs"),
    [
        ("score", ["d1", "d4", "d3", "d9"]),
        ("rank", ["d1", "d3", "d4", "d9"]),
        ("file", ["d4", "d1", "d3", "d9"]),
    ],
)
def test_order_within_topic(files, order, docs):
    b = _batch(files, order=order, topics="either")
    assert _docs(b, "t1") == docs
    label = {"d1": 2.0, "d3": 1.0, "d4": NAN, "d9": -1.0}
    i = _row(b, "t1")
    np.testing.assert_array_equal(b.labels[i], [label[d] for d in docs])
    assert b.judged[i].tolist() == [d != "d4" for d in docs]
    assert b.valid[i].tolist() == [True] * 4


def test_labels_and_matrices(files):
    b = _batch(files, topics="either")
    assert b.labels.shape == (4, 4)
    t3 = _row(b, "t3")
    assert np.isnan(b.labels[t3]).all() and not b.judged[t3].any() and not b.valid[t3].any()
    t4 = _row(b, "t4")
    assert b.valid[t4].tolist() == [True, False, False, False]
    assert not b.judged[t4].any()  # a topic without qrels: every document unjudged
    t1 = _row(b, "t1")
    np.testing.assert_array_equal(b.scores[t1], [2.0, 1.0, 1.0, 0.1])
    assert [b.q0_names[c] for c in b.q0[t1]] == ["Q0", "Q0", "E1", "Q0"]
    assert b.q0[t4, 1:].tolist() == [-1, -1, -1]
    np.testing.assert_array_equal(b.qrel_labels[t1], [2.0, 1.0, 0.0, -1.0])
    np.testing.assert_array_equal(b.qrel_labels[t3], [3.0, NAN, NAN, NAN])
    assert b.qrels_max_label == 3.0
    np.testing.assert_array_equal(b.qrels_label_values, [-1.0, 0.0, 1.0, 2.0, 3.0])


def test_light(files):
    b = _batch(files, light=True)
    assert b.scores.shape == (3, 0) and b.q0.shape == (3, 0) and b.q0_names == []
    assert all(d is None for d in b.docs.ravel())
    full = _batch(files)
    np.testing.assert_array_equal(b.labels, full.labels)
    np.testing.assert_array_equal(b.judged, full.judged)


def test_depth_cut(files):
    b = _batch(files, max_depth=2, topics="either")
    assert b.labels.shape == (4, 2)
    assert _docs(b, "t1") == ["d1", "d4"]
    assert b.depth.tolist() == [2, 1, 0, 1]
    assert _batch(files, max_depth=0).labels.shape == (3, 0)


def test_drop_unjudged(files):
    b = _batch(files, drop_unjudged=True, topics="either")
    assert _docs(b, "t1") == ["d1", "d3"]  # d4 unjudged, d9 negative
    assert b.depth.tolist() == [2, 1, 0, 0]
    assert b.judged[b.valid].all()


def test_single_precision_ties(tmp_path):
    q, r = tmp_path / "q.txt", tmp_path / "r.txt"
    q.write_text("t 0 a 1\n")
    r.write_text("t Q0 a 1 1.00000001 x\nt Q0 b 2 1.0 x\n")
    double = build_batch(read_qrels(q), read_run(r))
    single = build_batch(read_qrels(q), read_run(r), score_precision="single")
    assert list(double.docs[0]) == ["a", "b"]
    assert list(single.docs[0]) == ["b", "a"]  # a float32 tie: docno descending


def test_blockwise_document_lookup(files, monkeypatch):
    whole = _batch(files, topics="either")
    monkeypatch.setattr(batch_mod, "LOOKUP_BLOCK", 2)
    blocks = _batch(files, topics="either")
    np.testing.assert_array_equal(whole.labels, blocks.labels)
    np.testing.assert_array_equal(whole.judged, blocks.judged)


@pytest.mark.parametrize("with_qrels", [False, True])
@pytest.mark.parametrize("block", [1, 1 << 15])
@pytest.mark.parametrize("topics", ["run", "both", "either"])
def test_every_lookup_path_gives_the_same_batch(files, monkeypatch, with_qrels, block, topics):
    """Run documents encoded alone (looked up in the qrels' dictionary) or with the judged
    documents of their topics (io/joint.py), in one block or a block per topic: the same
    batch; d1 judged for two topics, t4 judged for none, t3 retrieved by none."""
    import cwlkit.io.text as text

    q, r = files
    expected = build_batch(read_qrels(q), read_run(r), topics=topics)
    monkeypatch.setattr(text, "BLOCK_ROWS", block)
    qrels = read_qrels(q)
    run = read_run(r, qrels=qrels if with_qrels else None)
    assert (run.qrels_rows(qrels) is not None) == with_qrels
    assert "codes" not in qrels.memo  # the qrels' documents were never encoded whole
    got = build_batch(qrels, run, topics=topics)
    assert ("codes" in qrels.memo) == (not with_qrels)
    assert list(got.topics) == list(expected.topics)
    np.testing.assert_array_equal(got.labels, expected.labels)
    np.testing.assert_array_equal(got.judged, expected.judged)
    np.testing.assert_array_equal(got.docs, expected.docs)
    assert run.runid == "tag"


def test_a_run_with_scattered_topic_lines_is_looked_up_in_the_qrels(tmp_path):
    q, r = tmp_path / "q.txt", tmp_path / "r.txt"
    q.write_text("t 0 a 1\nu 0 b 2\n")
    r.write_text("t Q0 a 1 2 x\nu Q0 b 1 2 x\nt Q0 b 2 1 x\n")
    qrels = read_qrels(q)
    run = read_run(r, qrels=qrels)
    assert run.qrels_rows(qrels) is None  # (joint blocks need each topic's lines together)
    b = build_batch(qrels, run)
    np.testing.assert_array_equal(b.labels, [[1.0, NAN], [2.0, NAN]])


def test_a_run_encoded_with_the_qrels_still_rejects_a_repeated_document(tmp_path):
    q, r = tmp_path / "q.txt", tmp_path / "r.txt"
    q.write_text("t 0 a 1\nu 0 a 0\n")
    r.write_text("t Q0 a 1 2 x\nu Q0 a 1 2 x\nu Q0 b 2 1 x\nu Q0 a 3 0.5 x\n")
    with pytest.raises(
        CwlkitError, match=r"r.txt:4: document 'a' appears twice for topic 'u' .*line 2"
    ):
        read_run(r, qrels=read_qrels(q))


def test_errors(files, tmp_path):
    with pytest.raises(ParamError, match="order"):
        _batch(files, order="bogus")
    with pytest.raises(ParamError, match="topics"):
        _batch(files, topics="bogus")
    with pytest.raises(ParamError, match="max_depth"):
        _batch(files, max_depth=-1)
    with pytest.raises(ParamError, match="score_precision"):
        _batch(files, score_precision="bogus")
    q = tmp_path / "other.qrels"
    q.write_text("x 0 d1 1\n")
    with pytest.raises(CwlkitError, match="share no topic"):
        build_batch(read_qrels(q), read_run(files[1]), topics="both")


@settings(max_examples=150, deadline=None)
@given(
    st.lists(
        st.tuples(st.sampled_from("ab"), st.integers(0, 11), st.integers(0, 3)),
        min_size=1,
        max_size=40,
        unique_by=lambda x: (x[0], x[1]),
    ),
    st.dictionaries(
        st.tuples(st.sampled_from("ab"), st.integers(0, 11)),
        st.sampled_from([0.0, 1.0, 2.0, -1.0]),
        max_size=20,
    ),
    st.sampled_from([None, 3]),
)
def test_light_batches_skip_only_interchangeable_ties(rows, judged, depth):
    """A light batch leaves tied documents of equal label (or both unjudged) in file order;
    its labels and judged flags, rank by rank, are those of the full docno order."""
    import tempfile
    from pathlib import Path

    with tempfile.TemporaryDirectory() as d:
        q, r = Path(d) / "q", Path(d) / "r"
        q.write_text("".join(f"{t} 0 d{i} {v}\n" for (t, i), v in judged.items()) or "z 0 x 1\n")
        r.write_text("".join(f"{t} Q0 d{i} 1 {s} x\n" for t, i, s in rows))
        full = build_batch(read_qrels(q), read_run(r), max_depth=depth, topics="run")
        light = build_batch(read_qrels(q), read_run(r), max_depth=depth, topics="run", light=True)
    np.testing.assert_array_equal(light.labels, full.labels)
    np.testing.assert_array_equal(light.judged, full.judged)
    np.testing.assert_array_equal(light.depth, full.depth)


def test_one_evaluator_for_runs_with_different_topic_sets(tmp_path):
    """The qrels matrix kept for the next run is reused only for the same batch rows: a run
    with one topic more, without judgements, made the cached [2, Q] matrix meet a 3-topic
    batch (a raw ValueError, in compare and report too; found by fuzzing)."""
    import cwlkit

    q, ra, rb = tmp_path / "q", tmp_path / "ra", tmp_path / "rb"
    q.write_text("1 0 d1 1\n2 0 d1 1\n")
    ra.write_text("1 Q0 d1 1 1.0 a\n2 Q0 d1 1 1.0 a\n")
    rb.write_text("1 Q0 d1 1 1.0 b\n2 Q0 d1 1 1.0 b\n3 Q0 d1 1 1.0 b\n")
    ev = cwlkit.Evaluator(str(q), ["AP", "nDCG@10"], topics="run")
    assert ev.evaluate(str(ra)).per_topic("AP") == {"1": 1.0, "2": 1.0}
    assert ev.evaluate(str(rb)).per_topic("AP") == {"1": 1.0, "2": 1.0, "3": 0.0}
    assert ev.evaluate(str(ra)).per_topic("nDCG@10") == {"1": 1.0, "2": 1.0}
