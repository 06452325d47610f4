"""The one-topic kernels (issue 22, item 2): a run of a few topics held as a pytrec_eval dict
is scored a topic at a time in Python (``Plan.small``), and must give the batch path's values
to the bit, for every measure of the registry that has a one-topic form.

References: the batch path (``direct_batch`` and the vectorised family functions, themselves
held equal to the columnar path by tests/test_same_bits.py and to trec_eval's C program by
the golden tests) and pytrec_eval (trec_eval 9.0.x in C), exactly.
"""

from __future__ import annotations

import dataclasses
import struct

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import cwlkit
from cwlkit.core import small as small_ranking
from cwlkit.executors import choose
from cwlkit.measures import registry
from cwlkit.measures.trec._classes import TrecBase
from cwlkit.plan.plan import Plan

#: the families whose trec_eval rows have a one-topic kernel (``scalar=`` in the table)
WITH_KERNELS = {
    "AP",
    "Bpref",
    "GMAP",
    "GMBpref",
    "IAP11_trec",
    "infAP",
    "IPrec",
    "NumNonRelJudgedRet",
    "nDCG",
    "NumRel",
    "NumRelRet",
    "NumRet",
    "P",
    "R",
    "relative_P",
    "Rprec",
    "RR",
    "SetAP",
    "SetF",
    "SetP",
    "SetR",
    "Success",
}


def _variants(cls: type) -> list:
    """Instances of a registered class: its defaults and each parameter set otherwise."""
    names = {f.name for f in dataclasses.fields(cls)}
    kwargs: list[dict] = [{}]
    if "k" in names:
        kwargs += [{"k": 1}, {"k": 3}, {"k": 25}]
    if "rel" in names:
        kwargs += [{"rel": 2}, {"rel": 0}]
    if "gains" in names:
        kwargs += [{"gains": "0=0,1=1,2=5,3=-1"}, {"gains": "0=0,1=1,2=5", "k": 3}]
    if "beta" in names:
        kwargs += [{"beta": 0.25}]
    if "relative" in names:
        kwargs += [{"relative": True}]
    out = []
    for kw in kwargs:
        try:
            out.append(cls(**kw))
        except (cwlkit.CwlkitError, TypeError):
            pass
    return out


def _registry_measures() -> tuple[list, list]:
    """(measures with a one-topic form, measures without), over every registered class."""
    with_, without = [], []
    for cls in registry.entries():
        for m in _variants(cls):
            (with_ if m.one_topic() is not None else without).append(m)
    return with_, without


KERNEL_MEASURES, OTHER_MEASURES = _registry_measures()


def test_which_measures_have_kernels():
    families = {type(m).family for m in KERNEL_MEASURES}
    assert families == WITH_KERNELS
    # every measure with a kernel is a trec_eval row's value on the whole ranking
    assert all(isinstance(m, TrecBase) for m in KERNEL_MEASURES)
    judged = [m for m in KERNEL_MEASURES if getattr(m, "judged_only", False)]
    assert judged == []
    assert any(getattr(m, "judged_only", None) is not None for m in KERNEL_MEASURES)
    # ir_measures' nDCG(gains=...)@k is not trec_eval's row: no kernel
    assert not [m for m in KERNEL_MEASURES if getattr(m, "gains", None) and m.k is not None]


# ---- random dicts: everything the ranking and the codes have rules for ---------------------

TOPICS = st.sampled_from(["q1", "q2", "q10", "q9", "é", "Q"])
DOCS = st.sampled_from([f"d{i}" for i in range(12)] + ["D1", "dé", "d1 "])
#: scores with ties: exact, -0.0 against 0.0, equal only as float32, ints
SCORES = st.sampled_from(
    [0.0, -0.0, 1.0, 0.5, 0.25, 1.0 + 1e-9, 1.0 + 2e-9, 3, -2, 1e30, -1.5, 0.1, 0.1 + 1e-12]
) | st.floats(-4, 4, allow_nan=False, width=32)
LABELS = st.sampled_from([0, 1, 2, 3, -1, -2, 2.7, -0.5, 1.0, 4])


@st.composite
def data(draw):
    run = draw(
        st.dictionaries(TOPICS, st.dictionaries(DOCS, SCORES, max_size=12), min_size=1, max_size=4)
    )
    qrels = draw(
        st.dictionaries(
            TOPICS, st.dictionaries(DOCS, LABELS, min_size=1, max_size=10), min_size=1, max_size=4
        )
    )
    options = draw(
        st.fixed_dictionaries(
            {
                "topics": st.sampled_from(["run", "both"]),
                "trec_version": st.sampled_from([9, 10]),
                "depth": st.sampled_from([None, 0, 1, 3, 20]),
            }
        )
    )
    return qrels, run, options


_SMALL = Plan.small
_SMALL_ROWS = choose.SMALL_ROWS


def _both_ways(qrels, run, measures, options, monkeypatch):
    """(Results one topic at a time, Results from the batch; or the error types), and
    whether the one-topic path answered."""
    answered = []

    def spy(self, r, name):
        got = _SMALL(self, r, name)
        answered.append(got is not None)
        return got

    out = []
    for limit in (_SMALL_ROWS, -1):
        monkeypatch.setattr(choose, "SMALL_ROWS", limit)
        monkeypatch.setattr(Plan, "small", spy)
        try:
            out.append(cwlkit.Evaluator(qrels, measures, **options).evaluate(run))
        except cwlkit.CwlkitError as e:
            out.append(type(e))
    return out, answered


@settings(
    max_examples=250, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(case=data(), numpy_ranking=st.booleans())
def test_kernels_equal_the_batch_path(monkeypatch, case, numpy_ranking):
    qrels, run, options = case
    # (each topic ranked by numpy's argsort, or by Python's sorts as a few documents are)
    monkeypatch.setattr(small_ranking, "_PY_RANKING", -1 if numpy_ranking else 1 << 30)
    (small, batch), answered = _both_ways(qrels, run, KERNEL_MEASURES, options, monkeypatch)
    if isinstance(small, type) or isinstance(batch, type):
        assert small == batch  # (the same error: no topics to evaluate)
        return
    assert answered == [True]
    assert small.topics == batch.topics and small.measures == batch.measures
    assert small.aggregates == batch.aggregates and small.run == batch.run
    assert small.values.tobytes() == batch.values.tobytes()  # (to the bit, -0.0 included)


def test_a_measure_without_kernel_takes_the_batch_path(monkeypatch):
    qrels = {"q1": {"a": 1, "b": 0}}
    run = {"q1": {"a": 0.5, "b": 0.7, "c": 0.1}}
    for m in ["AP", "ERR@10", "binG"]:
        (small, batch), answered = _both_ways(qrels, run, ["nDCG@10", m], {}, monkeypatch)
        assert answered == [m == "AP"]
        assert small.values.tobytes() == batch.values.tobytes()


def test_options_it_does_not_follow(monkeypatch):
    qrels = {"q1": {"a": 1, "b": 0}, "q2": {"a": 2}}
    run = {"q1": {"a": 0.5, "b": 0.7, "c": 0.1}}
    for options in (
        {"topics": "qrels"},
        {"judged_only": True},
        {"cwl_columns": True},
        {"residuals": True},
        {"order": "rank"},
    ):
        try:
            (small, batch), answered = _both_ways(qrels, run, ["AP", "P@2"], options, monkeypatch)
        except cwlkit.CwlkitError:
            continue
        assert answered == [False], options
        assert small.values.tobytes() == batch.values.tobytes()


@pytest.mark.parametrize(
    ("run", "why"),
    [
        ({"q1": {"a": float("nan"), "b": 1.0}}, "NaN score"),
        ({"q1": {"a": "0.5", "b": 1.0}}, "text score"),
        ({"q1": {"a": True, "b": 1.0}}, "bool score"),
        ({"q1": {1: 0.5, "b": 1.0}}, "integer document id"),
        ({1: {"a": 0.5}}, "integer topic id"),
        ({"q1": [("a", 0.5)]}, "not a dict"),
    ],
)
def test_input_it_does_not_take_gives_the_batch_paths_answer(monkeypatch, run, why):
    qrels = {"q1": {"a": 1, "b": 0}}
    (small, batch), answered = _both_ways(qrels, run, ["AP", "P@2"], {}, monkeypatch)
    assert answered in ([False], []), why
    if isinstance(small, type):
        assert small is batch
    else:
        assert small.values.tobytes() == batch.values.tobytes()


def test_scores_beyond_float32_rank_as_infinity_as_the_batch_path_does(monkeypatch):
    qrels = {"q1": {"a": 1, "b": 0, "c": 2}}
    run = {"q1": {"a": 1e39, "b": 2e39, "c": 3.0, "d": -5.0}}
    (small, batch), answered = _both_ways(qrels, run, ["AP", "P@1", "RR"], {}, monkeypatch)
    assert answered == [True]
    assert small.values.tobytes() == batch.values.tobytes()
    # a and b tie at +inf as float32: b, the larger id, first; then c (label 2), then d
    assert small.values[:, 0].tolist() == [(1 / 2 + 2 / 3) / 2, 0.0, 0.5]


def test_labels_beyond_2_53_are_refused_as_the_batch_path_does(monkeypatch):
    qrels = {"q1": {"a": 1}, "q2": {"x": 2.0**60}}
    run = {"q1": {"a": 0.5}}
    (small, batch), _ = _both_ways(qrels, run, ["AP"], {}, monkeypatch)
    # (the reader contract refuses them, naming the row, before either path: cwlkit.io.rules)
    assert small is batch is cwlkit.FormatError


def test_float32_ties_are_broken_by_document_id():
    """trec_eval 9.0.8 compares scores as float32: 1 + 1e-9 ties with 1, and the tie goes to
    the larger document id; trec_eval 10.0 compares doubles (by hand)."""
    qrels = {"q": {"a": 1}}
    run = {"q": {"a": 1.0 + 1e-9, "b": 1.0}}
    assert struct.unpack("f", struct.pack("f", 1.0 + 1e-9))[0] == 1.0
    v9 = cwlkit.evaluate(qrels, run, ["RR"]).values[0, 0]
    v10 = cwlkit.evaluate(qrels, run, ["RR"], trec_version=10).values[0, 0]
    assert (v9, v10) == (0.5, 1.0)


def test_equal_to_pytrec_eval():
    pytrec_eval = pytest.importorskip("pytrec_eval")
    rng = np.random.default_rng(7)
    names = {
        "map": "AP",
        "ndcg_cut_10": "nDCG@10",
        "P_5": "P@5",
        "recip_rank": "RR",
        "Rprec": "Rprec",
        "recall_10": "R@10",
        "ndcg": "nDCG",
        "num_rel_ret": "NumRelRet",
        "set_F": "SetF",
        "success_1": "Success@1",
        "map_cut_5": "AP@5",
        "bpref": "Bpref",
        "infAP": "infAP",
        "iprec_at_recall_0.30": "IPrec@0.3",
        "iprec_at_recall_0.00": "IPrec@0",
        "11pt_avg": "IAP11_trec",
        "num_nonrel_judged_ret": "NumNonRelJudgedRet",
    }
    assert cwlkit.Evaluator({"q": {"d": 1}}, list(names.values())).plan._one_topic_kernels()
    checked = 0
    for _ in range(200):
        docs = [f"d{i}" for i in range(int(rng.integers(1, 60)))]
        run = {"q": {d: float(np.round(rng.random(), 2)) for d in docs}}
        # (labels 0..3: pytrec_eval 0.5 loops forever after some hundred evaluators given
        # negative labels; the batch-path test above covers them)
        qrels = {"q": {d: int(rng.integers(0, 4)) for d in docs if rng.random() < 0.6} or {"z": 1}}
        qrels["q"].update({f"x{i}": int(rng.integers(0, 4)) for i in range(rng.integers(0, 6))})
        ours = cwlkit.evaluate(qrels, run, list(names.values()))
        ref = pytrec_eval.RelevanceEvaluator(
            qrels,
            {
                "map",
                "ndcg_cut.10",
                "P.5",
                "recip_rank",
                "Rprec",
                "recall.10",
                "ndcg",
                "num_rel_ret",
                "set_F",
                "success.1",
                "map_cut.5",
                "bpref",
                "infAP",
                "iprec_at_recall",
                "11pt_avg",
                "num_nonrel_judged_ret",
            },
        ).evaluate(run)["q"]
        for trec, ours_name in names.items():
            assert ours.values[ours.measures.index(ours_name), 0] == ref[trec], (trec, run, qrels)
            checked += 1
    assert checked == 200 * len(names)


def test_the_discount_table_grows_without_changing_its_bits():
    """Both paths divide by one table (``dcg._disc``, ``dcg.disc_list``): growing it keeps
    the ranks it had, and every rank is numpy's log2 of that rank + 1 computed alone."""
    from cwlkit.measures.trec import dcg

    before = dcg._disc(10).copy()
    grown = dcg._disc(5000)
    assert grown[:10].tobytes() == before.tobytes()
    assert dcg.disc_list(5000)[:5000] == grown.tolist()
    for n in (1, 7, 1023, 1025, 4999):
        fresh = np.log2(np.arange(1, n + 1, dtype=np.float64) + 1.0)
        assert dcg._disc(n).tobytes() == fresh.tobytes()
    assert dcg._disc(3, 2.0).tolist() == np.log2(np.array([3.0, 4.0, 5.0])).tolist()
