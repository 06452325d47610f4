"""``cwlkit.diff``'s numbers on small cases computed by hand: values, contributions, the
other run's ranks, the agreements, the intervals and which topics the judgements decide;
on every input form; and its one-line errors."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

import cwlkit
from cwlkit.errors import CwlkitError, NoTopicsError, ParamError

QRELS = {
    "q1": {"a": 2, "b": 1, "c": 0},
    "q2": {"d": 1},
    "q3": {"f": 1, "g": 0, "h": 0},
}
A = {"q1": {"a": 3, "x": 2, "b": 1}, "q2": {"d": 1, "e": 0.5}, "q3": {"f": 2, "g": 1}}
B = {"q1": {"b": 3, "a": 2, "y": 1}, "q2": {"e": 1, "d": 0.5}, "q3": {"g": 2, "h": 1}}


def test_precision_by_hand():
    d = cwlkit.diff(QRELS, A, B, "P@2", depth=3, names=("A", "B"))
    assert d.topics == ["q1", "q2", "q3"]
    # q1: A ranks a (rel), x (unjudged): 1/2; B ranks b, a (both rel): 1
    np.testing.assert_allclose(d.values, [[0.5, 0.5, 0.5], [1.0, 0.5, 0.0]])
    np.testing.assert_allclose(d.delta, [0.5, 0.0, -0.5])
    # contributions: P@2's term of rank i is rel_i / 2 (rank 3 adds nothing to P@2)
    np.testing.assert_allclose(d.contributions[0, 0], [0.5, 0.0, 0.0])
    np.testing.assert_allclose(d.contributions[1, 0], [0.5, 0.5, 0.0])
    # labels (NaN: unjudged) and the other run's ranks (0: not retrieved by it)
    assert d.docs[0, 0].tolist() == ["a", "x", "b"]
    np.testing.assert_array_equal(d.labels[0, 0], [2, np.nan, 1])
    assert d.other_rank[0, 0].tolist() == [2, 0, 1]
    assert d.other_rank[1, 0].tolist() == [3, 1, 0]
    # q2 holds two documents: the third rank is empty
    assert d.docs[0, 1].tolist() == ["d", "e", None] and d.other_rank[0, 1].tolist() == [2, 1, 0]


def test_intervals_by_hand():
    """P@2's residual (its C/W/L form's): the unjudged documents of the top 2 as relevant."""
    d = cwlkit.diff(QRELS, A, B, "P@2")
    assert d.interval == "residual"
    # q1: A's x unjudged at rank 2 -> [0.5, 1]; B's top 2 judged -> [1, 1]: they touch
    np.testing.assert_allclose(d.low[:, 0], [0.5, 1.0])
    np.testing.assert_allclose(d.high[:, 0], [1.0, 1.0])
    # q3 is judged throughout: [0.5, 0.5] against [0, 0], decided
    assert d.decided.tolist() == [False, False, True]


def test_intervals_without_residual_by_hand():
    """AP has no residual: the interval runs between AP with the unjudged ranked documents
    non-relevant and AP with them relevant at the top label (2), which also join R."""
    d = cwlkit.diff(QRELS, A, B, "AP")
    assert d.interval == "unjudged"
    # q1, A = a (2), x (?), b (1), R = 2: AP = (1 + 2/3) / 2; with x relevant R = 3 and
    # AP = (1 + 1 + 1) / 3 = 1
    np.testing.assert_allclose([d.low[0, 0], d.high[0, 0]], [(1 + 2 / 3) / 2, 1.0])
    # q2, B = e (?), d (1), R = 1: AP = 1/2; with e relevant, R = 2 and AP = 1
    np.testing.assert_allclose([d.low[1, 1], d.high[1, 1]], [0.5, 1.0])
    assert d.decided.tolist() == [False, False, True]


def test_cwl_contributions_and_residuals_by_hand():
    """RBP(p=0.5), binary gains: W(i) g(i) = 0.5 * 0.5^(i-1) g_i; the residual of a fully
    judged ranking of 2 is the tail p^2 = 0.25 (at the top gain, 1)."""
    binary = {t: {doc: min(v, 1) for doc, v in docs.items()} for t, docs in QRELS.items()}
    d = cwlkit.diff(binary, A, B, "RBP(p=0.5)", depth=2, gain="identity")
    assert d.interval == "residual" and d.cwl
    q3 = d.topics.index("q3")
    np.testing.assert_allclose(d.contributions[0, q3], [0.5, 0.0])
    np.testing.assert_allclose([d.low[0, q3], d.high[0, q3]], [0.5, 0.75])
    np.testing.assert_allclose([d.low[1, q3], d.high[1, q3]], [0.0, 0.25])
    assert d.decided[q3]
    # q1: A has a (1), unjudged x, b (1): 0.5 + 0 + 0.125
    np.testing.assert_allclose(d.contributions[0, 0], [0.5, 0.0])
    want = cwlkit.evaluate(binary, A, ["RBP(p=0.5)"], gain="identity", residuals=True)
    np.testing.assert_allclose(d.values[0], [want.per_topic("RBP(p=0.5)")[t] for t in d.topics])
    res = want.per_topic("RBP(p=0.5)", "ResEU")
    np.testing.assert_allclose(d.high[0] - d.low[0], [res[t] for t in d.topics])


def test_contributions_sum_to_the_value():
    """Over ranks 1..k the contributions of P@k, nDCG@k (marginal) sum to the value; a C/W/L
    metric's over the whole ranking (RBP at a depth past every ranking)."""
    for measure in ("P@3", "nDCG@3", "RR"):
        d = cwlkit.diff(QRELS, A, B, measure, depth=3)
        np.testing.assert_allclose(d.contributions.sum(axis=2), d.values, atol=1e-12)
    d = cwlkit.diff(QRELS, A, B, "RBP(p=0.5)", depth=5, gain="identity")
    np.testing.assert_allclose(d.contributions.sum(axis=2), d.values, atol=1e-12)


def test_agreements_by_hand():
    d = cwlkit.diff(QRELS, A, B, "P@2")
    # q1: the documents both retrieve are a and b; A has a above b, B the reverse: tau_AP -1
    assert d.tau_ap[0] == -1.0
    # q3: they share one document (g): no tau_AP
    assert math.isnan(d.tau_ap[2])
    assert d.rbo[0] == pytest.approx(
        cwlkit.rbo(["a", "x", "b"], ["b", "a", "y"], 0.9).ext, abs=1e-12
    )


@pytest.mark.parametrize("form", ["dict", "pandas", "file"])
def test_every_input_form_gives_the_same_page(form, tmp_path):
    def frame(run):
        rows = [(t, doc, s) for t, docs in run.items() for doc, s in docs.items()]
        return pd.DataFrame(rows, columns=["query_id", "doc_id", "score"])

    def file(run, name):
        path = tmp_path / name
        lines = []
        for t, docs in run.items():
            for i, (doc, s) in enumerate(sorted(docs.items(), key=lambda kv: -kv[1]), 1):
                lines.append(f"{t} Q0 {doc} {i} {s} r\n")
        path.write_text("".join(lines))
        return path

    forms = {"dict": (A, B), "pandas": (frame(A), frame(B)), "file": (file(A, "a"), file(B, "b"))}
    a, b = forms[form]
    want = cwlkit.diff(QRELS, A, B, "nDCG@3", depth=3)
    got = cwlkit.diff(QRELS, a, b, "nDCG@3", depth=3)
    np.testing.assert_array_equal(got.values, want.values)
    np.testing.assert_array_equal(got.contributions, want.contributions)
    np.testing.assert_array_equal(got.other_rank, want.other_rank)


def test_names():
    assert cwlkit.diff(QRELS, A, B, "P@2").runs == ("A", "B")
    with pytest.raises(ParamError, match=r"^names must be two different non-empty strings"):
        cwlkit.diff(QRELS, A, B, "P@2", names=("x", "x"))


@pytest.mark.parametrize(
    ("kwargs", "error", "match"),
    [
        ({"depth": 0}, ParamError, r"^depth must be an integer from 1 to 10000; got 0$"),
        ({"depth": 2.5}, ParamError, r"^depth must be an integer from 1 to 10000; got 2.5$"),
        ({"p": 1}, ParamError, r"^p must be a number in \(0, 1\); got 1$"),
        ({"measure": ["AP", "P@2"]}, ParamError, r"one measure; got 2"),
        ({"queries": 42}, CwlkitError, r"queries must be a file name or 'irds:ID'; got 42"),
    ],
)
def test_bad_options(kwargs, error, match):
    kw = dict(kwargs)
    measure = kw.pop("measure", "P@2")
    with pytest.raises(error, match=match):
        cwlkit.diff(QRELS, A, B, measure, **kw)


def test_runs_with_no_common_topic():
    with pytest.raises(NoTopicsError, match=r"share no topic"):
        cwlkit.diff(QRELS, {"q1": {"a": 1}}, {"q2": {"d": 1}}, "P@2")
