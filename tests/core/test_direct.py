"""The direct (numpy-only) ranking batch: ties in score ordered by document id descending, in
code point order, whatever the size of the tie group (pairs compared, large groups sorted),
against rankings sorted here with Python's ``sorted`` (an independent reference), and
against the columnar path (:func:`cwlkit.core.batch.build_batch`)."""

from __future__ import annotations

from operator import neg

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import cwlkit
from cwlkit.core import direct
from cwlkit.core.direct import direct_batch
from cwlkit.io.grouped import grouped_qrels, grouped_run

#: document ids of several scripts and lengths (code point order is not byte order of
#: UTF-16, nor a locale's order)
IDS = st.text(alphabet="aZ0_é中😀-", min_size=1, max_size=4)


@st.composite
def tied_runs(draw) -> tuple[dict, dict]:
    """1 to 4 topics of up to 90 documents whose scores take 1 to 3 values (tie groups from
    pairs to the whole ranking), a third judged with labels 0..2."""
    qrels: dict = {}
    run: dict = {}
    for t in range(draw(st.integers(1, 4))):
        docs = draw(st.lists(IDS, unique=True, min_size=1, max_size=90))
        values = draw(st.integers(1, 3))
        scores = draw(st.lists(st.integers(0, values - 1), min_size=len(docs), max_size=len(docs)))
        run[f"q{t}"] = {d: s / 4 for d, s in zip(docs, scores, strict=True)}
        qrels[f"q{t}"] = {d: (i % 3) for i, d in enumerate(docs) if i % 3 != 1} or {docs[0]: 1}
    return qrels, run


def _reference(run: dict, topic: str) -> list[str]:
    """The ranking of ``topic``: float32 score descending, then document id descending."""
    ds = run[topic]
    return sorted(ds, key=lambda d: (np.float32(ds[d]), d), reverse=True)


@pytest.mark.parametrize("small", [0, 256])
@settings(max_examples=40, deadline=None, derandomize=True)
@given(data=tied_runs())
def test_ties_are_ordered_by_document_id_descending(small, data):
    """Rankings in Python (small) and with numpy (``SMALL_TIES`` 0)."""
    qrels, run = data
    direct.SMALL_TIES, keep = small, direct.SMALL_TIES
    try:
        batch = direct_batch(
            grouped_qrels(qrels), grouped_run(run), score_precision="single", light=False
        )
        for i, t in enumerate(batch.topics):
            got = [d for d in batch.docs[i] if d is not None]
            assert got == _reference(run, t)
        # a light batch keeps no ids: its labels are the reference ranking's labels
        light = direct_batch(
            grouped_qrels(qrels), grouped_run(run), score_precision="single", light=True
        )
        for i, t in enumerate(light.topics):
            want = [qrels[t].get(d, np.nan) for d in _reference(run, t)]
            assert np.array_equal(light.labels[i, : len(want)], want, equal_nan=True)
    finally:
        direct.SMALL_TIES = keep


@pytest.mark.parametrize(
    "small, pairwise, block", [(0, 1, 4), (0, 32, 4), (0, 32, 1 << 16), (0, 1000, 4), (256, 1, 4)]
)
def test_every_way_of_ordering_a_group_agrees_with_the_columnar_path(
    small, pairwise, block, monkeypatch
):
    """Tie groups ordered in Python (a small ranking), all by pairs (in blocks of a few
    documents or all at once), some sorted, all sorted: the batch of the columnar path, to
    the array (documents kept: ``ties="average"``)."""
    monkeypatch.setattr(direct, "SMALL_TIES", small)
    monkeypatch.setattr(direct, "PAIRWISE_GROUP", pairwise)
    monkeypatch.setattr(direct, "PAIRWISE_BLOCK", block)
    rng = np.random.default_rng(5)
    run = {
        f"t{t}": {f"d{rng.integers(10**6)}é{i}": float(rng.integers(0, 4)) for i in range(70)}
        for t in range(3)
    }
    qrels = {t: {d: int(rng.integers(0, 3)) for d in list(ds)[::2]} for t, ds in run.items()}
    for opts in ({}, {"ties": "average"}):
        ev = cwlkit.Evaluator(qrels, ["AP", "nDCG@10", "P@5"], **opts)
        col = cwlkit.Evaluator(cwlkit.as_qrels(qrels), ["AP", "nDCG@10", "P@5"], **opts)
        a, b = ev.batch(run), col.batch(cwlkit.as_run(run))
        assert np.array_equal(a.labels, b.labels, equal_nan=True)
        if opts:
            assert np.array_equal(a.docs, b.docs)
        got, want = ev.evaluate(run), col.evaluate(cwlkit.as_run(run))
        assert np.array_equal(got.values, want.values, equal_nan=True)


def test_one_topic_runs_as_a_training_loop_scores_them():
    """One Evaluator, a run of one topic at a time (the qrels matrix is then a slice of the
    qrels' arrays): each Results and batch equal to the columnar path's, and pytrec_eval's
    values."""
    pytrec_eval = pytest.importorskip("pytrec_eval")
    rng = np.random.default_rng(11)
    qrels = {f"q{t}": {f"d{i}": int(rng.integers(0, 4)) for i in range(0, 40, 3)} for t in range(5)}
    qrels["q9"] = {"x": 1}
    ev = cwlkit.Evaluator(qrels, ["AP", "nDCG@10", "P@10"])
    col = cwlkit.Evaluator(cwlkit.as_qrels(qrels), ["AP", "nDCG@10", "P@10"])
    pe = pytrec_eval.RelevanceEvaluator(qrels, {"map", "ndcg_cut.10", "P.10"})
    for t in ["q3", "q0", "q9", "q4"]:
        run = {t: {f"d{i}": float(rng.integers(0, 9)) / 8 for i in range(30)}}
        a, b = ev.batch(run), col.batch(cwlkit.as_run(run))
        assert np.array_equal(a.qrel_labels, b.qrel_labels, equal_nan=True)
        assert np.array_equal(a.n_judged, b.n_judged)
        got = ev.evaluate(run)
        assert np.array_equal(got.values, col.evaluate(cwlkit.as_run(run)).values)
        ref = pe.evaluate(run)[t]
        assert got.values[:, 0].tolist() == [ref["map"], ref["ndcg_cut_10"], ref["P_10"]]


def _awkward_collection(seed: int) -> tuple[dict, dict]:
    """Topics of very different depths (1 to 600 documents; one only in the qrels, one only
    in the run), scores with ties of every size, negative scores, -0.0 beside 0.0, infinities
    and values float32 cannot hold; graded labels from -1 to 3."""
    rng = np.random.default_rng(seed)
    run: dict = {}
    qrels: dict = {}
    specials = [0.0, -0.0, np.inf, -np.inf, 1e300, -1e300, 1e-320, -2.5]
    for t, depth in enumerate([600, 1, 250, 37, 2, 480, 90]):
        if depth == 480:  # (groups of about 80 tied documents)
            scores = rng.integers(0, 6, size=depth).astype(np.float64)
        else:  # (pairs, triples... of ties)
            scores = np.round(rng.normal(size=depth), 2) * rng.choice([1, 10, 1000])
        special = rng.random(depth) < 0.1
        scores[special] = rng.choice(specials, size=int(special.sum()))
        docs = [f"d{rng.integers(10**5)}é{i}" for i in range(depth)]
        run[f"q{t}"] = dict(zip(docs, scores.tolist(), strict=True))
        judged = rng.choice(depth, size=max(1, depth // 2), replace=False)
        qrels[f"q{t}"] = {docs[i]: int(rng.integers(-1, 4)) for i in judged}
        qrels[f"q{t}"][f"unretrieved{t}"] = 1
    run["only_run"] = {"a": 1.0, "b": 1.0}
    qrels["only_qrels"] = {"x": 2}
    return qrels, run


@pytest.mark.parametrize("small", [0, None])
@pytest.mark.parametrize(
    "opts",
    [
        {},
        {"trec_version": 10},
        {"topics": "either"},
        {"topics": "qrels", "trec_version": 10},
        {"depth": 30, "ties": "average"},
        {"judged_only": True},
    ],
)
def test_large_rankings_agree_with_the_columnar_path(opts, small, monkeypatch):
    """Rankings of hundreds of documents of topics of very different depths (scores ordered
    one topic at a time, in a grid padded to the deepest topic, as float32 keys, or float64
    under ``trec_version=10``) and judgements of labels -1..3 (sorted by counting): every
    array of the batch and every value equal to the columnar path's, and to pytrec_eval's
    AP, nDCG@10 and P@10. ``small`` 0: every numpy way at any size (else the sizes'
    own)."""
    pytrec_eval = pytest.importorskip("pytrec_eval")
    if small == 0:
        for name in ("SMALL_TIES", "GRID_ROWS", "COUNTED_FROM", "LISTED_TIES"):
            monkeypatch.setattr(direct, name, 0)
    qrels, run = _awkward_collection(3)
    measures = ["AP", "nDCG@10", "P@10"]
    ev = cwlkit.Evaluator(qrels, measures, **opts)
    col = cwlkit.Evaluator(cwlkit.as_qrels(qrels), measures, **opts)
    a, b = ev.batch(run), col.batch(cwlkit.as_run(run))
    assert ev.plan.direct(run, None) is not None
    for f in ("topics", "depth", "labels", "judged", "valid", "qrel_labels", "n_judged"):
        x, y = getattr(a, f), getattr(b, f)
        assert x.dtype == y.dtype and np.array_equal(x, y, equal_nan=x.dtype != object), f
    got, want = ev.evaluate(run), col.evaluate(cwlkit.as_run(run))
    assert got.topics == want.topics
    assert np.array_equal(got.values, want.values, equal_nan=True)
    if not opts:  # (pytrec_eval: trec_eval 9's rules, topics of both)
        pe = pytrec_eval.RelevanceEvaluator(qrels, {"map", "ndcg_cut.10", "P.10"}).evaluate(run)
        for j, t in enumerate(got.topics):
            ref = pe[t]
            assert got.values[:, j].tolist() == [ref["map"], ref["ndcg_cut_10"], ref["P_10"]]


@pytest.mark.parametrize(
    "labels",
    [
        [0, 1, 2, 3, 1, 0, 2],
        [-2, 3, 0, -1, 3],
        [0.0, -0.0, 1.0, -0.0, 0.0],  # (-0.0: its own bits, sorted)
        [0.5, 1.0, 0.25, 0.5],  # (fractions: sorted)
        [0, 1000, 3, 64, 1],  # (a wide span: sorted)
        [1e17, 1e17 + 16, 1e17 - 16],  # (integers beyond float spacing 1)
        [7, 7, 7],
    ],
)
def test_labels_counted_or_sorted_are_each_topics_labels_descending(labels, monkeypatch):
    """:func:`cwlkit.core.direct._descending` (a histogram for a few integer labels, a sort
    otherwise) against ``sorted`` per group (stable, as the sort it replaces), to the bit."""
    monkeypatch.setattr(direct, "COUNTED_FROM", 0)
    rng = np.random.default_rng(len(labels))
    values = np.array(labels * 40, dtype=np.float64)
    rng.shuffle(values)
    counts = np.array([0, 1, 50, 3, len(values) - 54], dtype=np.int64)
    got = direct._descending(values, counts)
    want, a = [], 0
    for c in counts.tolist():
        want += sorted(values[a : a + c].tolist(), key=neg)  # (stable: -0.0, 0.0 as given)
        a += c
    assert got.tolist() == want
    assert np.signbit(got).tolist() == np.signbit(want).tolist()


@pytest.mark.parametrize("lookups", [0, 10**9])
@pytest.mark.parametrize("tied_share", [0.05, 0.3, 0.9])
@pytest.mark.parametrize("light", [False, True])
def test_few_or_many_tied_rows_are_ordered_as_sorted_does(tied_share, light, lookups, monkeypatch):
    """Rankings of 40 topics of 20 to 300 documents where about ``tied_share`` of the rows
    tie with another (pairs to groups of 40; only the ids of tied rows listed when they are
    under half, every id otherwise; looked up one by one in the list, ``LIST_LOOKUPS`` 0, or
    made an array first): each topic's ranking is the reference's (``sorted`` by float32
    score, then id, descending), and a light batch's labels are the reference ranking's
    labels."""
    monkeypatch.setattr(direct, "LIST_LOOKUPS", lookups)
    monkeypatch.setattr(direct, "LISTED_TIES", 0)
    monkeypatch.setattr(direct, "GRID_ROWS", 0)
    rng = np.random.default_rng(int(tied_share * 100))
    run: dict = {}
    qrels: dict = {}
    for t in range(40):
        depth = int(rng.integers(20, 301))
        scores = rng.random(depth)
        tie = rng.random(depth) < tied_share
        scores[tie] = rng.integers(0, max(1, int(tie.sum()) // 3), size=int(tie.sum())) / 7
        docs = [f"{rng.integers(1000)}é{i}" for i in range(depth)]
        run[f"q{t}"] = dict(zip(docs, scores.tolist(), strict=True))
        qrels[f"q{t}"] = {d: int(rng.integers(0, 3)) for d in docs[::2]}
    batch = direct_batch(
        grouped_qrels(qrels), grouped_run(run), score_precision="single", light=light
    )
    for i, t in enumerate(batch.topics):
        want = _reference(run, t)
        if light:
            labels = [qrels[t].get(d, np.nan) for d in want]
            assert np.array_equal(batch.labels[i, : len(want)], labels, equal_nan=True)
        else:
            assert [d for d in batch.docs[i] if d is not None] == want


def test_no_judgement_at_all_with_a_run_in_memory():
    """Qrels of no topic (what pooling evaluates runs against): the direct path ranks an
    in-memory run's topics as the file path does (it raised ``zip() argument 2 is shorter``),
    and every measure scores 0; by hand: the two documents of q1, by decreasing score."""
    empty = cwlkit.Qrels.from_records([])
    ev = cwlkit.Evaluator(empty, ["P@2"], topics="run")
    batch = ev.batch({"q1": {"d1": 1.0, "d2": 2.0}})
    assert list(batch.topics) == ["q1"] and batch.depth.tolist() == [2]
    res = cwlkit.evaluate(empty, {"q1": {"d1": 1.0, "d2": 2.0}}, ["P@2"], topics="run")
    assert res.mean() == {"P@2": 0.0}
    many = {f"q{i}": {"d1": 1.0, "d2": 2.0} for i in range(40)}  # (more than a few topics)
    batch = ev.batch(many)
    assert len(batch.topics) == 40 and batch.depth.tolist() == [2] * 40
    assert cwlkit.evaluate(empty, many, ["P@2"], topics="run").mean() == {"P@2": 0.0}
