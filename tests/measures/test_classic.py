"""The lecture's classic measures and curves against its worked examples.

References: the Cambridge IR lecture 6 (seed 001: P@n/R@n, 11-point interpolated precision of
Query 1 and Query 2, MAP, the F1 = 2/7 contingency table, the S1/S2 "precision at recall r"
table), LETOR's evaluation note (seed 002: the P@1..P@10 sequence), hand computations with
exact fractions, pytrec_eval (trec_eval 9.0.8's C code) for where trec_eval agrees or differs,
and scipy's Mann-Whitney U for the ROC area.
"""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import cwlkit
from cwlkit.core.batch import build_batch
from cwlkit.errors import CwlkitError, ParamError
from cwlkit.io.trec import Qrels, Run
from cwlkit.measures import registry
from cwlkit.measures.classic import F, contingency, f_beta, set_counts
from cwlkit.measures.curves import (
    STANDARD_LEVELS,
    interpolated_precision,
    pr_curve,
    precision_at_recall,
    roc_curve,
)
from cwlkit.measures.parse import parse_measure


def make(spec: dict[str, tuple[set[int], int, int]], unjudged: dict[str, set[int]] | None = None):
    """Qrels and run from ``{topic: (relevant ranks, run length, R)}``.

    Documents ``d1..dn`` are ranked in that order (strictly decreasing scores); the ranks in
    the set are relevant (label 1), the others judged non-relevant (label 0) unless listed in
    ``unjudged``; ``R - len(relevant ranks)`` further relevant documents are in the qrels only.
    """
    unjudged = unjudged or {}
    q, r = [], []
    for t, (rels, n, R) in spec.items():
        for i in range(1, n + 1):
            if i not in unjudged.get(t, set()):
                q.append((t, f"d{i}", 1 if i in rels else 0))
            r.append((t, f"d{i}", float(10_000 - i)))
        for j in range(R - len(rels)):
            q.append((t, f"missing{j}", 1))
    return Qrels.from_records(q), Run.from_records(r)


def batch_of(spec, unjudged=None, **kw):
    q, r = make(spec, unjudged)
    return build_batch(q, r, **kw)


def printed(value: float, text: str) -> bool:
    """``value`` shows as ``text`` on the slide: rounded half up, or truncated (the slides do
    both: 2/3 is printed 0.67 in the 11-point tables and 0.66 as R@8)."""
    d = len(text.split(".")[1]) if "." in text else 0
    scale = 10**d
    target = round(float(text) * scale)
    return (
        math.floor(value * scale + 0.5 + 1e-9) == target
        or math.floor(value * scale + 1e-9) == target
    )


# The lecture's Query 1 (5 relevant at ranks 1, 3, 6, 10, 20) and Query 2 (3 relevant at
# ranks 1, 3, 15), every relevant document retrieved.
LECTURE = {"Q1": ({1, 3, 6, 10, 20}, 20, 5), "Q2": ({1, 3, 15}, 15, 3)}

# The slides' interpolated precision tables (P~_1(r_0..r_10), P~_2(r_0..r_10)).
SLIDE_IPREC = {
    "Q1": ["1.00", "1.00", "1.00", ".67", ".67", ".50", ".50", ".40", ".40", ".25", ".25"],
    "Q2": ["1.00", "1.00", "1.00", "1.00", ".67", ".67", ".67", ".20", ".20", ".20", ".20"],
}
EXACT_IPREC = {
    "Q1": [
        1,
        1,
        1,
        Fraction(2, 3),
        Fraction(2, 3),
        Fraction(1, 2),
        Fraction(1, 2),
        Fraction(2, 5),
        Fraction(2, 5),
        Fraction(1, 4),
        Fraction(1, 4),
    ],
    "Q2": [
        1,
        1,
        1,
        1,
        Fraction(2, 3),
        Fraction(2, 3),
        Fraction(2, 3),
        Fraction(1, 5),
        Fraction(1, 5),
        Fraction(1, 5),
        Fraction(1, 5),
    ],
}


def trec_family(name: str) -> bool:
    """True when ``name`` resolves to trec_eval's implementation (the trec package)."""
    try:
        return registry.lookup(name).__module__.startswith("cwlkit.measures.trec")
    except CwlkitError:
        return False


# --------------------------------------------------------------------------- P@n, R@n


def lecture_pn_topics():
    """Every placement of the slide's blue documents consistent with its numbers.

    The slide ranks d12, d123, d4, d57, d157, d222, d24, d26, d77, d90 and marks the relevant
    ones in blue (lost in the text); its P@3 = 0.33, P@5 = 0.2, P@8 = 0.25 and R@3 = 0.33,
    R@8 = 0.66 say: one relevant in the top 3, none at 4-5, one at 6-8, R = 3, and the third
    below rank 8 (at 9, 10 or not retrieved). All 27 placements become topics of one batch.
    """
    spec = {}
    for a, b, c in itertools.product((1, 2, 3), (6, 7, 8), (9, 10, None)):
        rels = {a, b} | ({c} if c else set())
        spec[f"{a}-{b}-{c}"] = (rels, 10, 3)
    return spec


def test_lecture_precision_recall_at_n():
    batch = batch_of(lecture_pn_topics())
    curve = pr_curve(batch)
    assert batch.n_topics == 27
    slide = {
        ("P", 3): "0.33",
        ("P", 5): "0.2",
        ("P", 8): "0.25",
        ("R", 3): "0.33",
        ("R", 5): "0.33",
        ("R", 8): "0.66",
    }
    exact = {
        ("P", 3): 1 / 3,
        ("P", 5): 1 / 5,
        ("P", 8): 2 / 8,
        ("R", 3): 1 / 3,
        ("R", 5): 1 / 3,
        ("R", 8): 2 / 3,
    }
    for (kind, n), text in slide.items():
        col = (curve.precision if kind == "P" else curve.recall)[:, n - 1]
        np.testing.assert_allclose(col, exact[(kind, n)], rtol=0, atol=1e-15)
        assert all(printed(v, text) for v in col), (kind, n, col)
    # the same through the registry: F with beta = 0 is set precision and beta = inf set
    # recall of the top n
    for n in (3, 5, 8):
        res = cwlkit.evaluate(*make(lecture_pn_topics()), [f"F(beta=0)@{n}", f"F(beta=inf)@{n}"])
        np.testing.assert_allclose(res.values[0], exact[("P", n)], atol=1e-15)
        np.testing.assert_allclose(res.values[1], exact[("R", n)], atol=1e-15)


def test_lecture_pn_through_registry_p_and_r():
    """P@n and R@n by their registry names, once trec_eval's measures are registered."""
    if not (trec_family("P") and trec_family("R")):
        pytest.skip("trec_eval's P@k / R@k are not registered yet")
    q, r = make(lecture_pn_topics())
    res = cwlkit.evaluate(q, r, ["P@3", "P@5", "P@8", "R@3", "R@5", "R@8"])
    want = [1 / 3, 1 / 5, 1 / 4, 1 / 3, 1 / 3, 2 / 3]
    for row, w in zip(res.values, want, strict=True):
        np.testing.assert_allclose(row, w, atol=1e-15)


def test_letor_p_at_1_to_10():
    # LETOR note: {rel, irr, irr, rel, rel, rel, irr, irr, rel, rel} gives P@1..P@10 =
    # {1, 1/2, 1/3, 2/4, 3/5, 4/6, 4/7, 4/8, 5/9, 6/10}
    batch = batch_of({"q": ({1, 4, 5, 6, 9, 10}, 10, 6)})
    curve = pr_curve(batch)
    want = [
        Fraction(1),
        Fraction(1, 2),
        Fraction(1, 3),
        Fraction(2, 4),
        Fraction(3, 5),
        Fraction(4, 6),
        Fraction(4, 7),
        Fraction(4, 8),
        Fraction(5, 9),
        Fraction(6, 10),
    ]
    np.testing.assert_array_equal(curve.precision[0], [float(w) for w in want])
    assert curve.relevant[0].tolist() == [
        True,
        False,
        False,
        True,
        True,
        True,
        False,
        False,
        True,
        True,
    ]


# --------------------------------------------------------------------------- 11-point


def test_lecture_11_point_query1_query2():
    batch = batch_of(LECTURE)
    curve = pr_curve(batch)
    assert list(batch.topics) == ["Q1", "Q2"]
    for row, t in enumerate(("Q1", "Q2")):
        np.testing.assert_allclose(
            curve.interpolated[row], [float(x) for x in EXACT_IPREC[t]], atol=1e-15
        )
        assert all(
            printed(v, s) for v, s in zip(curve.interpolated[row], SLIDE_IPREC[t], strict=True)
        )
    # the measured points of the slides' tables (R, P at each relevant rank)
    q1 = np.flatnonzero(curve.relevant[0])
    assert [
        printed(x, s)
        for x, s in zip(curve.recall[0, q1], [".20", ".40", ".60", ".80", "1.00"], strict=True)
    ] == [True] * 5
    # interpolated through the measured points: Q1 ranks 1..6 -> 1, 1, 2/3, 2/3, 2/3, 1/2
    np.testing.assert_allclose(curve.interpolated_ranks[0, :6], [1, 1, 2 / 3, 2 / 3, 2 / 3, 1 / 2])
    q2 = np.flatnonzero(curve.relevant[1])
    assert all(
        printed(x, s) for x, s in zip(curve.recall[1, q2], [".33", ".67", "1.0"], strict=True)
    )
    assert all(
        printed(x, s) for x, s in zip(curve.precision[1, q2], ["1.00", ".67", ".2"], strict=True)
    )


def test_lecture_11_point_average_over_two_queries():
    q, r = make(LECTURE)
    res = cwlkit.evaluate(q, r, ["IAP11"])
    # hand: Q1 sums to 3 + 4/3 + 1 + 4/5 + 1/2 = 199/30, Q2 to 4 + 2 + 4/5 = 34/5
    q1 = sum(EXACT_IPREC["Q1"]) / 11
    q2 = sum(EXACT_IPREC["Q2"]) / 11
    assert q1 == Fraction(199, 330) and q2 == Fraction(34, 55)
    np.testing.assert_allclose(res.values[0], [float(q1), float(q2)], rtol=1e-15)
    assert res.mean()["IAP11"] == pytest.approx(float((q1 + q2) / 2), rel=1e-15)
    # the lecture's P_11pt: average over queries at each level, then over levels
    curve = pr_curve(build_batch(q, r))
    per_level = [(a + b) / 2 for a, b in zip(EXACT_IPREC["Q1"], EXACT_IPREC["Q2"], strict=True)]
    np.testing.assert_allclose(curve.mean_interpolated, [float(x) for x in per_level], atol=1e-15)
    assert curve.mean_interpolated.mean() == pytest.approx(float(sum(per_level) / 11), rel=1e-15)
    np.testing.assert_allclose(curve.average_interpolated, res.values[0], rtol=1e-15)


def test_11_point_differs_from_trec_eval_where_documented():
    """trec_eval 9.0.8 (pytrec_eval) agrees on Query 1 but puts recall 0.7 of Query 2 (R = 3) at
    2 relevant documents ((long)(0.7*3 + 0.9) = 2) where the lecture needs ceil(2.1) = 3."""
    pytrec_eval = pytest.importorskip("pytrec_eval")
    q, r = make(LECTURE)
    qd = {t: {} for t in LECTURE}
    for t, d, lab in zip(
        q.table.column("topic").to_pylist(),
        q.table.column("doc").to_pylist(),
        q.labels,
        strict=True,
    ):
        qd[t][d] = int(lab)
    rd = {t: {} for t in LECTURE}
    for t, d, s in zip(
        r.table.column("topic").to_pylist(),
        r.table.column("doc").to_pylist(),
        r.table.column("score").to_pylist(),
        strict=True,
    ):
        rd[t][d] = s
    got = pytrec_eval.RelevanceEvaluator(qd, {"iprec_at_recall", "map", "set_F.0.5"}).evaluate(rd)
    curve = pr_curve(build_batch(q, r))
    for row, t in enumerate(("Q1", "Q2")):
        trec = np.array([got[t][f"iprec_at_recall_{x:.2f}"] for x in STANDARD_LEVELS])
        diff = np.flatnonzero(np.abs(trec - curve.interpolated[row]) > 1e-12)
        assert diff.tolist() == ([] if t == "Q1" else [7])
    assert got["Q2"]["iprec_at_recall_0.70"] == pytest.approx(2 / 3)
    assert curve.interpolated[1, 7] == pytest.approx(1 / 5)
    if trec_family("IPrec"):
        # the registry's IPrec@r is trec_eval's; IAP11 and the curves are the lecture's
        trec = cwlkit.evaluate(q, r, ["IPrec@0.7", "IPrec@0.3", "IAP11"])
        np.testing.assert_allclose(trec.values[0], [2 / 5, 2 / 3], rtol=1e-15)
        np.testing.assert_allclose(trec.values[1], [2 / 3, 1], rtol=1e-15)
        np.testing.assert_allclose(trec.values[2], curve.average_interpolated, rtol=1e-15)


def brute_iprec(rels: list[bool], R: int, level: Fraction) -> Fraction:
    """Interpolated precision by the lecture's definition, in exact arithmetic."""
    best = Fraction(0)
    found = 0
    for i, is_rel in enumerate(rels, start=1):
        found += is_rel
        recall = Fraction(found, R) if R else Fraction(0)
        if recall >= level:
            best = max(best, Fraction(found, i))
    return best


def test_interpolated_precision_random_against_exact_definition():
    rng = np.random.default_rng(7)
    spec, truth = {}, {}
    for t in range(40):
        n = int(rng.integers(0, 25))
        rels = {i for i in range(1, n + 1) if rng.random() < 0.3}
        R = len(rels) + int(rng.integers(0, 4)) if t % 7 else 0
        if R == 0:
            rels = set()
        spec[f"t{t:02d}"] = (rels, n, R)
        truth[f"t{t:02d}"] = ([i in rels for i in range(1, n + 1)], R)
    levels = [Fraction(j, 10) for j in range(11)] + [Fraction(1, 3), Fraction(2, 3), Fraction(1, 7)]
    batch = batch_of(spec, topics="either")
    got = interpolated_precision(batch, [float(x) for x in levels])
    curve = pr_curve(batch)
    for row, t in enumerate(batch.topics):
        rel_list, R = truth[str(t)]
        want = [float(brute_iprec(rel_list, R, lv)) for lv in levels]
        np.testing.assert_allclose(got[row], want, atol=1e-15, err_msg=str(t))
        # at the recall of each rank
        found = np.cumsum(rel_list, dtype=int)
        at_ranks = [
            float(brute_iprec(rel_list, R, Fraction(int(c), R) if R else Fraction(0)))
            for c in found
        ]
        n = len(rel_list)
        np.testing.assert_allclose(
            curve.interpolated_ranks[row, :n], at_ranks, atol=1e-15, err_msg=str(t)
        )
        assert np.isnan(curve.interpolated_ranks[row, n:]).all()


def test_interpolation_agrees_with_trec_eval_when_r_is_a_multiple_of_ten():
    pytrec_eval = pytest.importorskip("pytrec_eval")
    rng = np.random.default_rng(11)
    qd, rd, spec = {}, {}, {}
    for t in range(20):
        R = int(rng.choice([10, 20]))
        n = 60
        rels = set(
            rng.choice(
                np.arange(1, n + 1), size=R - int(rng.integers(0, 3)), replace=False
            ).tolist()
        )
        spec[f"t{t}"] = (rels, n, R)
    q, r = make(spec)
    for t, d, lab in zip(
        q.table.column("topic").to_pylist(),
        q.table.column("doc").to_pylist(),
        q.labels,
        strict=True,
    ):
        qd.setdefault(t, {})[d] = int(lab)
    for t, d, s in zip(
        r.table.column("topic").to_pylist(),
        r.table.column("doc").to_pylist(),
        r.table.column("score").to_pylist(),
        strict=True,
    ):
        rd.setdefault(t, {})[d] = s
    got = pytrec_eval.RelevanceEvaluator(qd, {"iprec_at_recall"}).evaluate(rd)
    batch = build_batch(q, r)
    mine = interpolated_precision(batch)
    for row, t in enumerate(batch.topics):
        trec = [got[t][f"iprec_at_recall_{x:.2f}"] for x in STANDARD_LEVELS]
        np.testing.assert_allclose(mine[row], trec, atol=1e-12)


def test_precision_at_recall_s1_s2_table():
    # lecture: S1 relevant at 1, 3, 6, 9, 10; S2 at 2, 5, 6, 7, 8 (5 relevant each)
    batch = batch_of({"S1": ({1, 3, 6, 9, 10}, 10, 5), "S2": ({2, 5, 6, 7, 8}, 10, 5)})
    got = precision_at_recall(batch, [0.2, 0.4, 0.6, 0.8, 1.0])
    slide = {
        "S1": ["1.0", "0.67", "0.5", "0.44", "0.5"],
        "S2": ["0.5", "0.4", "0.5", "0.57", "0.63"],
    }
    exact = {"S1": [1, 2 / 3, 1 / 2, 4 / 9, 1 / 2], "S2": [1 / 2, 2 / 5, 1 / 2, 4 / 7, 5 / 8]}
    for row, t in enumerate(("S1", "S2")):
        np.testing.assert_allclose(got[row], exact[t], atol=1e-15)
        assert all(printed(v, s) for v, s in zip(got[row], slide[t], strict=True))


# --------------------------------------------------------------------------- MAP


def test_lecture_map():
    q, r = make(LECTURE)
    curve = pr_curve(build_batch(q, r))
    # AP = (1/R) sum of the precision at each relevant document (all retrieved here)
    ap = np.nansum(np.where(curve.relevant, curve.precision, 0.0), axis=1) / curve.num_rel
    exact = [
        (1 + Fraction(2, 3) + Fraction(1, 2) + Fraction(2, 5) + Fraction(1, 4)) / 5,
        (1 + Fraction(2, 3) + Fraction(1, 5)) / 3,
    ]
    np.testing.assert_allclose(ap, [float(x) for x in exact], rtol=1e-15)
    # The slide prints 0.564, 0.623 and MAP 0.594: it averages the precisions rounded to two
    # decimals (1.00 + 0.67 + 0.50 + 0.40 + 0.25 = 2.82). Exact values: 0.5633, 0.6222, 0.5928.
    rounded = [
        np.round(curve.precision[i][curve.relevant[i]] + 1e-12, 2).sum() / curve.num_rel[i]
        for i in (0, 1)
    ]
    assert printed(rounded[0], "0.564") and printed(rounded[1], "0.623")
    assert printed((round(rounded[0], 3) + round(rounded[1], 3)) / 2, "0.594")
    assert abs(ap[0] - 0.564) < 1e-3 and abs(ap[1] - 0.623) < 1e-3
    assert float(sum(exact) / 2) == pytest.approx(0.59278, abs=1e-5)
    if trec_family("AP"):
        res = cwlkit.evaluate(q, r, ["AP"])
        np.testing.assert_allclose(res.values[0], ap, rtol=1e-14)
        assert res.mean()["AP"] == pytest.approx(float(sum(exact) / 2), rel=1e-14)


def test_lecture_map_against_pytrec_eval():
    pytrec_eval = pytest.importorskip("pytrec_eval")
    qd = {
        t: {f"d{i}": int(i in rels) for i in range(1, n + 1)} for t, (rels, n, _) in LECTURE.items()
    }
    rd = {t: {f"d{i}": float(100 - i) for i in range(1, n + 1)} for t, (_, n, _) in LECTURE.items()}
    got = pytrec_eval.RelevanceEvaluator(qd, {"map"}).evaluate(rd)
    curve = pr_curve(batch_of(LECTURE))
    ap = (np.where(curve.relevant, curve.precision, 0.0).sum(axis=1) / curve.num_rel).tolist()
    assert ap == pytest.approx([got["Q1"]["map"], got["Q2"]["map"]], abs=1e-12)


# --------------------------------------------------------------------------- F, set measures


def test_contingency_example_f1_two_sevenths():
    out = contingency(20, 40, 60, 1_000_000)
    assert float(out["precision"]) == pytest.approx(1 / 3, rel=1e-15)
    assert float(out["recall"]) == pytest.approx(1 / 4, rel=1e-15)
    assert float(out["F"]) == pytest.approx(2 / 7, rel=1e-15)
    assert float(out["accuracy"]) == pytest.approx(1_000_020 / 1_000_120, rel=1e-15)
    # the limit case: nothing retrieved, 10 relevant, 90 not: accuracy 0.9, P = R = F = 0
    lim = contingency(0, 0, 10, 90)
    assert float(lim["accuracy"]) == pytest.approx(0.9)
    assert float(lim["precision"]) == float(lim["recall"]) == float(lim["F"]) == 0.0
    with pytest.raises(ParamError):
        contingency(-1, 0, 0)


def test_contingency_example_through_a_run():
    # 80 relevant documents; the run retrieves 60: 20 relevant, 40 not (unranked: any order)
    rng = np.random.default_rng(3)
    order = rng.permutation(60) + 1
    rels = set(order[:20].tolist())
    q, r = make({"q": (rels, 60, 80)})
    res = cwlkit.evaluate(q, r, ["F", "F(beta=0)", "F(beta=inf)"])
    assert res.measures == ["F", "F(beta=0)", "F(beta=inf)"]
    np.testing.assert_allclose(res.values[:, 0], [2 / 7, 1 / 3, 1 / 4], rtol=1e-15)
    ret, rel_ret, R = set_counts(build_batch(q, r))
    assert (ret.tolist(), rel_ret.tolist(), R.tolist()) == ([60], [20], [80])
    if trec_family("SetP") and trec_family("SetR"):
        # trec_eval's set_P and set_recall are the lecture's P and R: same values
        sets = cwlkit.evaluate(q, r, ["SetP", "SetR", "SetF"])
        np.testing.assert_allclose(sets.values[:, 0], [1 / 3, 1 / 4, 2 / 7], rtol=1e-15)


def test_f_beta_squared_versus_trec_eval_set_f():
    # Query 1: P = 5/20 = 1/4, R = 1. Lecture F_0.5 = (1.25 * 1/4) / (0.25 * 1/4 + 1) = 5/17;
    # trec_eval's set_F.0.5 = (1.5 * 1/4) / (0.5 * 1/4 + 1) = 1/3.
    q, r = make(LECTURE)
    res = cwlkit.evaluate(q, r, ["F(beta=0.5)", "F", "F(beta=2)", f"F(beta={math.sqrt(0.5)!r})"])
    assert res.values[0, 0] == pytest.approx(5 / 17, rel=1e-15)
    # Query 2: P = 3/15 = 1/5, R = 1 -> F_0.5 = (1.25/5) / (0.25/5 + 1) = 5/21
    assert res.values[0, 1] == pytest.approx(5 / 21, rel=1e-15)
    np.testing.assert_allclose(res.values[1], [2 * 0.25 / 1.25, 2 * 0.2 / 1.2], rtol=1e-15)  # F1
    np.testing.assert_allclose(
        res.values[2], [5 * 0.25 / (4 * 0.25 + 1), 5 * 0.2 / (4 * 0.2 + 1)], rtol=1e-15
    )
    pytrec_eval = pytest.importorskip("pytrec_eval")
    qd = {
        t: {f"d{i}": int(i in rels) for i in range(1, n + 1)} for t, (rels, n, _) in LECTURE.items()
    }
    rd = {t: {f"d{i}": float(100 - i) for i in range(1, n + 1)} for t, (_, n, _) in LECTURE.items()}
    got = pytrec_eval.RelevanceEvaluator(qd, {"set_F.0.5", "set_F"}).evaluate(rd)
    assert got["Q1"]["set_F"] == pytest.approx(1 / 3)  # beta 0.5, not squared
    assert abs(got["Q1"]["set_F"] - res.values[0, 0]) > 0.03
    # trec_eval's beta is the lecture's beta^2
    np.testing.assert_allclose(res.values[3], [got["Q1"]["set_F"], got["Q2"]["set_F"]], rtol=1e-12)
    if trec_family("SetF"):
        trec = cwlkit.evaluate(q, r, ["SetF(beta=0.5)"])
        np.testing.assert_allclose(
            trec.values[0], [got["Q1"]["set_F"], got["Q2"]["set_F"]], rtol=1e-12
        )


def test_f_beta_is_the_weighted_harmonic_mean():
    p = np.array([0.1, 0.5, 0.9, 1 / 3, 0.0, 0.2])
    r = np.array([0.7, 0.5, 0.2, 1 / 4, 0.0, 0.0])
    for alpha in (0.2, 0.5, 0.8):
        beta = math.sqrt((1 - alpha) / alpha)
        with np.errstate(divide="ignore"):
            want = np.where((p > 0) & (r > 0), 1 / (alpha / p + (1 - alpha) / r), 0.0)
        np.testing.assert_allclose(f_beta(p, r, beta), want, rtol=1e-14)
    np.testing.assert_array_equal(f_beta(p, r, 0.0), p)
    np.testing.assert_array_equal(f_beta(p, r, math.inf), r)
    np.testing.assert_allclose(f_beta(p, r, 1e-9), np.where(r > 0, p, 0.0), rtol=1e-12)


def test_set_measures_cutoff_and_edge_cases():
    # t1: short run (4 docs, 2 relevant of R = 4); t2: no relevant documents; t3: empty run
    q = Qrels.from_records(
        [
            ("t1", "a", 1),
            ("t1", "b", 0),
            ("t1", "c", 1),
            ("t1", "x", 1),
            ("t1", "y", 1),
            ("t2", "a", 0),
            ("t3", "a", 1),
        ]
    )
    r = Run.from_records(
        [
            ("t1", "a", 4.0),
            ("t1", "b", 3.0),
            ("t1", "c", 2.0),
            ("t1", "u", 1.0),
            ("t2", "a", 1.0),
            ("t2", "b", 0.5),
        ]
    )
    res = cwlkit.evaluate(q, r, ["F", "F@2", "F@10", "F(beta=0)@10", "IAP11"], topics="either")
    assert res.topics == ["t1", "t2", "t3"]
    v = dict(zip(res.measures, res.values.tolist(), strict=True))
    # t1 whole run: P = 2/4, R = 2/4 -> F = 1/2; top 2: P = 1/2, R = 1/4 -> F = 1/3;
    # @10 past the run's end = the whole run (P stays 2/4, unlike P@10 = 2/10)
    assert v["F"][0] == pytest.approx(0.5) and v["F@2"][0] == pytest.approx(1 / 3)
    assert v["F@10"][0] == pytest.approx(0.5) and v["F(beta=0)@10"][0] == pytest.approx(0.5)
    # t1 11-point: P~ = 1 at r = 0, .1, .2 (<= 1/4), 2/3 at .3, .4, .5 (<= 2/4), 0 above
    # (never reached): (3 + 3 * 2/3) / 11 = 5/11
    assert v["IAP11"][0] == pytest.approx(5 / 11, rel=1e-15)
    # no relevant documents, and an empty run: every value 0
    assert [v[m][1] for m in v] == [0.0] * 5
    assert [v[m][2] for m in v] == [0.0] * 5


def test_docstring_examples():
    import doctest

    import cwlkit.measures.classic

    assert doctest.testmod(cwlkit.measures.classic).failed == 0


def test_names_parse_and_validate():
    assert parse_measure("F(beta=0.5)@10").name == "F(beta=0.5)@10"
    assert parse_measure("F(0.5)").name == "F(beta=0.5)"
    assert parse_measure("f").name == "F"
    assert parse_measure("Fbeta(beta=2, rel=2)").name == "F(beta=2,rel=2)"
    assert parse_measure("IAP11").name == "IAP11"
    assert isinstance(parse_measure("F@5"), F)
    with pytest.raises(ParamError):
        parse_measure("F(beta=-1)")
    with pytest.raises(ParamError):
        parse_measure("F@0")
    with pytest.raises(ParamError):
        interpolated_precision(batch_of(LECTURE), [0.5, 1.5])
    with pytest.raises(ParamError):
        precision_at_recall(batch_of(LECTURE), ["high"])


def test_relevance_threshold_and_unjudged():
    # labels 0/1/2 and an unjudged document; rel=2 counts only label 2 as relevant
    q = Qrels.from_records([("t", "a", 2), ("t", "b", 1), ("t", "c", 0), ("t", "d", 2)])
    r = Run.from_records([("t", "b", 5.0), ("t", "u", 4.0), ("t", "a", 3.0), ("t", "c", 2.0)])
    batch = build_batch(q, r)
    c1, c2 = pr_curve(batch, rel=1), pr_curve(batch, rel=2)
    np.testing.assert_allclose(c1.precision[0], [1, 1 / 2, 2 / 3, 2 / 4])
    np.testing.assert_allclose(c1.recall[0], [1 / 3, 1 / 3, 2 / 3, 2 / 3])
    np.testing.assert_allclose(c2.precision[0], [0, 0, 1 / 3, 1 / 4])
    np.testing.assert_allclose(c2.recall[0], [0, 0, 1 / 2, 1 / 2])
    res = cwlkit.evaluate(q, r, ["F", "F(rel=2)"])
    np.testing.assert_allclose(res.values[:, 0], [f_beta(0.5, 2 / 3), f_beta(0.25, 0.5)])


# --------------------------------------------------------------------------- ROC


def test_roc_hand_example():
    # S1: relevant at 1, 3, 6, 9, 10, non-relevant at 2, 4, 5, 7, 8 (P = N = 5)
    batch = batch_of({"S1": ({1, 3, 6, 9, 10}, 10, 5), "S2": ({2, 5, 6, 7, 8}, 10, 5)})
    roc = roc_curve(batch)
    np.testing.assert_allclose(roc.tpr[0], np.array([1, 1, 2, 2, 2, 3, 3, 3, 4, 5]) / 5)
    np.testing.assert_allclose(roc.fpr[0], np.array([0, 1, 1, 2, 3, 3, 4, 5, 5, 5]) / 5)
    # AUC: negatives see 1, 2, 2, 3, 3 positives above them -> 11/25; S2: 0, 1, 1, 5, 5 -> 12/25
    np.testing.assert_allclose(roc.auc, [11 / 25, 12 / 25], rtol=1e-15)
    assert roc.mean_auc == pytest.approx(23 / 50)
    assert roc.num_pos.tolist() == [5, 5] and roc.num_neg.tolist() == [5, 5]


def test_roc_auc_against_mann_whitney():
    from scipy.stats import mannwhitneyu

    rng = np.random.default_rng(5)
    q, r, expect = [], [], {}
    for t in range(25):
        n = int(rng.integers(1, 30))
        labels = rng.choice([-1, 0, 1, 2, None], size=n, p=[0.05, 0.45, 0.25, 0.1, 0.15])
        extra_pos, extra_neg = int(rng.integers(0, 4)), int(rng.integers(0, 6))
        pos_scores, neg_scores = [], []
        for i, lab in enumerate(labels):
            r.append((f"t{t:02d}", f"d{i}", float(100 - i)))
            if lab is not None:
                q.append((f"t{t:02d}", f"d{i}", int(lab)))
                if lab >= 1:
                    pos_scores.append(100 - i)
                elif lab == 0:
                    neg_scores.append(100 - i)
        for j in range(extra_pos):
            q.append((f"t{t:02d}", f"p{j}", 1))
            pos_scores.append(-1)  # unretrieved: tied below every retrieved document
        for j in range(extra_neg):
            q.append((f"t{t:02d}", f"n{j}", 0))
            neg_scores.append(-1)
        if pos_scores and neg_scores:
            u = mannwhitneyu(pos_scores, neg_scores).statistic
            expect[f"t{t:02d}"] = u / (len(pos_scores) * len(neg_scores))
        else:
            expect[f"t{t:02d}"] = np.nan
    roc = roc_curve(build_batch(Qrels.from_records(q), Run.from_records(r), topics="either"))
    want = [expect[str(t)] for t in roc.topics]
    np.testing.assert_allclose(roc.auc, want, rtol=1e-13)
    assert np.isnan(roc.auc).sum() == np.isnan(want).sum()


def test_roc_unjudged_leaves_the_curve_in_place():
    q = Qrels.from_records([("t", "a", 1), ("t", "b", 0), ("t", "c", 1), ("t", "z", 0)])
    r = Run.from_records([("t", "a", 5.0), ("t", "u", 4.0), ("t", "b", 3.0), ("t", "c", 2.0)])
    roc = roc_curve(build_batch(q, r))
    np.testing.assert_allclose(roc.tpr[0], [0.5, 0.5, 0.5, 1.0])
    np.testing.assert_allclose(roc.fpr[0], [0.0, 0.0, 0.5, 0.5])
    # negatives: b has 1 positive above; z (unretrieved) closes with (2 - 1) * (2 + 2) / 2 = 2
    assert roc.auc[0] == pytest.approx((1 + 2) / 4)


# --------------------------------------------------------------------------- speed, plots


@pytest.mark.slow
def test_curves_vectorised_on_a_large_batch():
    import time

    rng = np.random.default_rng(0)
    T, D = 300, 1000
    topics = np.repeat([f"t{i:03d}" for i in range(T)], D)
    docs = np.tile([f"d{j}" for j in range(D)], T)
    run = Run.from_records(
        list(
            zip(
                topics.tolist(),
                docs.tolist(),
                np.tile(-np.arange(D, dtype=float), T).tolist(),
                strict=True,
            )
        )
    )
    keep = rng.random(T * D) < 0.05
    labels = (rng.random(int(keep.sum())) < 0.6).astype(int)
    qrels = Qrels.from_records(
        list(zip(topics[keep].tolist(), docs[keep].tolist(), labels.tolist(), strict=True))
    )
    batch = build_batch(qrels, run)
    t0 = time.perf_counter()
    curve = pr_curve(batch)
    roc = roc_curve(batch)
    iap = cwlkit.parse_measure("IAP11").compute(batch)
    elapsed = time.perf_counter() - t0
    assert curve.precision.shape == (T, D) and roc.auc.shape == (T,) and iap.shape == (T,)
    np.testing.assert_allclose(curve.average_interpolated, iap)
    assert elapsed < 2.0, elapsed  # about 0.1 s here; a per-topic Python loop would be far slower


def test_plots(tmp_path):
    matplotlib = pytest.importorskip("matplotlib")
    matplotlib.use("Agg")
    from cwlkit.plot import plot_pr, plot_roc

    batch = batch_of({**LECTURE, "S1": ({1, 3, 6, 9, 10}, 10, 5)})
    curve = pr_curve(batch)
    ax = plot_pr(curve, topics=["Q1", "Q2"])
    lines = ax.get_lines()
    from cwlkit.plot.curves import interpolated_steps

    np.testing.assert_array_equal(lines[0].get_xydata().T, interpolated_steps(curve, 0))
    np.testing.assert_allclose(lines[1].get_ydata(), curve.interpolated[0])  # the 11 points
    np.testing.assert_allclose(lines[-1].get_ydata(), curve.mean_interpolated)
    ax.figure.savefig(tmp_path / "pr.png")
    roc = roc_curve(batch)
    ax2 = plot_roc(roc, topics=["S1"])
    x, y = ax2.get_lines()[0].get_data()
    np.testing.assert_allclose(x, np.concatenate(([0], roc.fpr[2][:10], [1])))
    np.testing.assert_allclose(y, np.concatenate(([0], roc.tpr[2][:10], [1])))
    ax2.figure.savefig(tmp_path / "roc.png")
    assert (tmp_path / "pr.png").stat().st_size > 1000 and (
        tmp_path / "roc.png"
    ).stat().st_size > 1000
    with pytest.raises(CwlkitError):
        plot_pr(curve, topics=["nope"])


# --------------------------------------------------------------------------- properties


@settings(max_examples=60, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.lists(st.sampled_from([0, 1, 2, None]), min_size=1, max_size=15), st.integers(0, 4)
        ),
        min_size=1,
        max_size=6,
    ),
    st.sampled_from([0.25, 0.5, 1.0, 2.0]),
)
def test_properties_bounds_and_topic_order(topics, beta):
    q, r = [], []
    for t, (labels, extra) in enumerate(topics):
        for i, lab in enumerate(labels):
            r.append((f"t{t}", f"d{i}", float(-i)))
            if lab is not None:
                q.append((f"t{t}", f"d{i}", lab))
        q.extend((f"t{t}", f"x{j}", 1) for j in range(extra))
    qrels = Qrels.from_records(q) if q else Qrels.from_records([("none", "x", 0)])
    names = [f"F(beta={beta})", f"F(beta={beta})@3", "IAP11", "IAP11(rel=2)"]
    res = cwlkit.evaluate(qrels, Run.from_records(r), names, topics="run")
    assert np.all((res.values >= 0) & (res.values <= 1))
    # F lies between set precision and set recall (a weighted harmonic mean)
    p, rc = cwlkit.evaluate(
        qrels, Run.from_records(r), ["F(beta=0)", "F(beta=inf)"], topics="run"
    ).values
    f = res.values[0]
    assert np.all(f <= np.maximum(p, rc) + 1e-12) and np.all(f >= np.minimum(p, rc) - 1e-12)
    # the lecture's MAP-style averages do not depend on the order of the topics in the file
    rev = cwlkit.evaluate(qrels, Run.from_records(r[::-1]), names, topics="run")
    np.testing.assert_allclose(rev.values, res.values, rtol=0, atol=0)
    # interpolated precision never increases with the recall level
    b = build_batch(qrels, Run.from_records(r))
    ip = interpolated_precision(b)
    assert np.all(np.diff(ip, axis=1) <= 1e-15)


def test_intp_by_hand_and_against_trec_eval_iprec():
    """IntP(r): the highest precision at a rank whose recall is at least r. Three relevant
    documents at ranks 1, 4 and 5 of a run of 6: P = 1, 1/2, 1/3, 1/2, 3/5, 1/2 and recall
    1/3, 1/3, 1/3, 2/3, 1, 1; so IntP(0) = IntP(0.3) = 1, IntP(0.4) = IntP(0.7) = IntP(1) =
    3/5. trec_eval's IPrec@0.7 reaches the level at (long)(0.7 * 3 + 0.9) = 2 relevant
    documents: also 3/5 here (the maximum after the 2nd is at the 3rd)."""
    qrels = {"q": {"a": 1, "d": 1, "e": 1, "x": 0}}
    run = {"q": {"a": 6, "b": 5, "c": 4, "d": 3, "e": 2, "f": 1}}
    names = ["IntP", "IntP(r=0.3)", "IntP(r=0.4)", "IntP(r=0.7)", "IntP(r=1)"]
    got = cwlkit.evaluate(qrels, run, names).mean()
    assert [got[n] for n in names] == [1.0, 1.0, 0.6, 0.6, 0.6]
    # Web 2012 topic 155 (67 relevant): 0.3 x 67 + 0.9 truncates to 20 in trec_eval (the
    # 20th relevant document is at rank 172), where IntP needs ceil(20.1) = 21 (rank 199)
    from conftest import DATA

    web = DATA / "web2012"
    res = cwlkit.evaluate(
        web / "qrels.web.151-200.txt",
        web / "runs" / "web2012.ql.catb.run.gz",
        ["IntP(r=0.3)", "IPrec@0.3"],
    )
    assert res.per_topic("IPrec@0.3")["155"] == 20 / 172
    assert res.per_topic("IntP(r=0.3)")["155"] == max(21 / 199, 22 / 201, 23 / 209)
    with pytest.raises(ParamError):
        cwlkit.parse_measure("IntP(r=1.5)")
