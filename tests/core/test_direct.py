"""The direct (numpy-only) ranking batch: ties in score ordered by document id descending, in
code point order, whatever the size of the tie group (pairs compared, large groups sorted),
against rankings sorted here with Python's ``sorted`` (an independent reference), and
against the columnar path (:func:`cwlkit.core.batch.build_batch`)."""

from __future__ import annotations

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
