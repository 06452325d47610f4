"""cwlkit.fuse by hand: every method on a small case worked out from its formula, the input
forms, the returned run, and the one-line errors."""

from __future__ import annotations

import math

import pytest
from conftest import DATA

import cwlkit

# norm="none" so that the scores are the ones written here
A = {"q": {"a": 0.9, "b": 0.5, "c": 0.1}}  # ranks a 1, b 2, c 3
B = {"q": {"c": 0.8, "a": 0.4}}  # ranks c 1, a 2


def fused(method, **params):
    return cwlkit.fuse([A, B], method, None, **params).to_dict()["q"]


@pytest.mark.parametrize(
    ("method", "params", "want"),
    [
        ("sum", {}, {"a": 1.3, "b": 0.5, "c": 0.9}),
        ("CombSUM", {}, {"a": 1.3, "b": 0.5, "c": 0.9}),
        ("mnz", {}, {"a": 2.6, "b": 0.5, "c": 1.8}),
        ("anz", {}, {"a": 0.65, "b": 0.5, "c": 0.45}),
        ("gmnz", {"gamma": 0.5}, {"a": 1.3 * 2**0.5, "b": 0.5, "c": 0.9 * 2**0.5}),
        ("max", {}, {"a": 0.9, "b": 0.5, "c": 0.8}),
        # b is missing from B: ranx's min counts it 1e9, so min stays 0.5
        ("min", {}, {"a": 0.4, "b": 0.5, "c": 0.1}),
        ("med", {}, {"a": 0.65, "b": 0.5, "c": 0.45}),
        ("wsum", {"weights": [2, 1]}, {"a": 2.2, "b": 1.0, "c": 1.0}),
        ("wmnz", {"weights": [2, 1]}, {"a": 1.3 * 3, "b": 0.5 * 2, "c": 0.9 * 3}),
        ("mixed", {"weights": [2, 1]}, {"a": 2.2 * 2**0.5, "b": 1.0, "c": 1.0 * 2**0.5}),
        ("rrf", {"k": 60}, {"a": 1 / 61 + 1 / 62, "b": 1 / 62, "c": 1 / 63 + 1 / 61}),
        ("RRF", {"k": 0}, {"a": 1 + 1 / 2, "b": 1 / 2, "c": 1 / 3 + 1}),
        ("isr", {}, {"a": 2 * (1 + 1 / 4), "b": 1 / 4, "c": 2 * (1 / 9 + 1)}),
        ("log_isr", {}, {"a": math.log(2) * 1.25, "b": 0.0, "c": math.log(2) * (1 / 9 + 1)}),
        (
            "logn_isr",
            {"sigma": 0.5},
            {"a": math.log(2.5) * 1.25, "b": math.log(1.5) / 4, "c": math.log(2.5) * 10 / 9},
        ),
        ("rbc", {"phi": 0.5}, {"a": 0.5 + 0.25, "b": 0.25, "c": 0.125 + 0.5}),
        # C = 3; A: a 3, b 2, c 1; B (n=2): c 3, a 2, b (3 - 2 + 1)/2 = 1
        ("bordafuse", {}, {"a": 5.0, "b": 3.0, "c": 4.0}),
        ("w_bordafuse", {"weights": [1, 3]}, {"a": 9.0, "b": 5.0, "c": 10.0}),
        # from [a, b, c] (sorted ids), Python's sort asks b < a? (0 votes of 2: no), c < b?
        # (1 of 2, a tie: yes), then inserts c by binary search: c < b? yes, c < a? (1 of 2:
        # yes): c, a, b (the majority ties a-c and b-c, so the order is the sort's)
        ("condorcet", {}, {"c": 3.0, "a": 2.0, "b": 1.0}),
        ("w_condorcet", {"weights": [1, 3]}, {"c": 3.0, "a": 2.0, "b": 1.0}),
        # trained arrays given directly
        ("posfuse", {"probs": [[0.5, 0.2], [0.4, 0.1]]}, {"a": 0.6, "b": 0.2, "c": 0.4}),
        # mapfuse: MAP / rank
        ("mapfuse", {"map_scores": [0.3, 0.6]}, {"a": 0.3 + 0.3, "b": 0.15, "c": 0.1 + 0.6}),
        # probfuse, 2 segments: A (n=3) segments of 2: a, b seg 1, c seg 2 (P/2);
        # B (n=2) segments of 1
        (
            "probfuse",
            {"probs": [[0.6, 0.2], [0.5, 0.4]]},
            {"a": 0.6 + 0.4 / 2, "b": 0.6, "c": 0.2 / 2 + 0.5},
        ),
        # segfuse: the first 5 ranks are segment 1: P * (score + 1)
        (
            "segfuse",
            {"probs": [[0.5] * 10, [0.25] * 10]},
            {"a": 0.95 + 0.35, "b": 0.75, "c": 0.55 + 0.45},
        ),
        # slidefuse, w=1: mean of P over [p-1, p+1] within the run's list
        (
            "slidefuse",
            {"probs": [[0.6, 0.3, 0.0], [0.4, 0.2]], "w": 1},
            {"a": 0.45 + 0.3, "b": 0.3, "c": 0.15 + 0.3},
        ),
        # bayesfuse: log-odds at the rank; a missing document counts log(0.001/0.999)
        (
            "bayesfuse",
            {"log_odds": [[1.0, 0.5, 0.2], [0.7, 0.3]]},
            {"a": 1.3, "b": 0.5 + math.log(0.001 / 0.999), "c": 0.9},
        ),
    ],
)
def test_methods_by_hand(method, params, want):
    assert fused(method, **params) == pytest.approx(want, abs=1e-12)


def test_training_by_hand():
    """posfuse learns P[i] = hits at i / topics with a list that long; two topics."""
    q = {"q": {"a": 1}, "r": {"y": 1}}
    ra = {"q": {"a": 2.0, "b": 1.0}, "r": {"x": 2.0, "y": 1.0}}
    rb = {"q": {"b": 2.0, "a": 1.0}, "r": {"y": 1.0}}
    got = cwlkit.fuse([ra, rb], "posfuse", None, train_qrels=q).to_dict()
    # A: P = [1/2, 1/2]; B: P = [(0 + 1)/2, 1/1]
    assert got["q"] == pytest.approx({"a": 0.5 + 1.0, "b": 0.5 + 0.5})
    # mapfuse: AP of A: q 1, r 1/2 -> 0.75; of B: q 1/2, r 1 -> 0.75
    got = cwlkit.fuse([ra, rb], "mapfuse", None, train_qrels=q).to_dict()
    assert got["q"] == pytest.approx({"a": 0.75 + 0.75 / 2, "b": 0.75 / 2 + 0.75})


def test_topics_are_the_union_and_a_run_may_miss_one():
    got = cwlkit.fuse([{"q": {"a": 1.0}, "r": {"x": 1.0}}, {"q": {"a": 2.0}}], "rrf").to_dict()
    assert got == {"q": {"a": 2 / 61}, "r": {"x": 1 / 61}}


def test_input_forms_and_outputs(tmp_path):
    ql = DATA / "web2012" / "runs" / "web2012.ql.cata.run.gz"
    rm = DATA / "web2012" / "runs" / "web2012.rm.cata.run.gz"
    from_files = cwlkit.fuse([ql, rm], "rrf")
    from_dicts = cwlkit.fuse(
        [cwlkit.as_run(ql).to_dict(), cwlkit.as_run(rm).to_dict()], "RRF", tag="x"
    )
    assert from_files.to_dict() == from_dicts.to_dict()
    assert from_dicts.runid == "x"
    out = tmp_path / "fused.run"
    from_files.write(out)
    again = cwlkit.read_run(out)
    assert again.to_dict() == from_files.to_dict()
    first = out.read_text().splitlines()[0].split()
    assert first[1] == "Q0" and first[3] == "1" and first[5] == "rrf"
    # the fused run is a run as any other: evaluate takes it, compare's inputs too
    qrels = DATA / "web2012" / "qrels.web.151-200.txt"
    res = cwlkit.evaluate(qrels, {"ql": ql, "fused": from_files}, ["AP"])
    assert set(res) == {"ql", "fused"} and 0 < res["fused"].mean()["AP"] < 1
    cut = cwlkit.fuse([ql, rm], "rrf", depth=10).to_dict()
    assert all(len(v) == 10 for v in cut.values())
    assert all(list(cut[q]) == list(from_files.to_dict()[q])[:10] for q in cut)


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: cwlkit.fuse([A], "sum"), r"runs must be two or more runs; got 1"),
        (lambda: cwlkit.fuse([A, {"r": {"a": 1.0}}], "sum"), r"no topic in common"),
        (lambda: cwlkit.fuse([A, B], "wsum", weights=[1]), r"weights must be 2 numbers"),
        (lambda: cwlkit.fuse([A, B], "wsum", weights=[1, -1]), r"weights\[1\] must be"),
        (lambda: cwlkit.fuse([A, B], "wsum", weights=[1, float("nan")]), r"weights\[1\]"),
        (lambda: cwlkit.fuse([A, B], "wsum", weights=[0, 0]), r"not all 0"),
        (lambda: cwlkit.fuse([A, B], "combsun"), r"method must be .*did you mean"),
        (lambda: cwlkit.fuse([A, B], "rrf", phi=0.5), r"method 'rrf' takes k; got 'phi'"),
        (lambda: cwlkit.fuse([A, B], "rbc", phi=1.5), r"phi must be a number in \(0, 1\)"),
        (lambda: cwlkit.fuse([A, B], "probfuse"), r"learns from judged topics"),
        (
            lambda: cwlkit.fuse([A, B], "probfuse", train_qrels={"zz": {"a": 1}}),
            r"share no topic",
        ),
        (lambda: cwlkit.fuse([A, B], "sum", depth=0), r"depth must be"),
    ],
)
def test_bad_input_one_line(call, message):
    with pytest.raises(cwlkit.CwlkitError, match=message) as info:
        call()
    assert "\n" not in str(info.value)


INF = float("inf")


@pytest.mark.parametrize("norm", ["min-max", "min-max-inverted", "max", "sum", "zmuv"])
def test_an_infinite_score_that_a_normalisation_scales_is_refused(norm):
    """inf - inf and inf / inf are not numbers: these normalisations gave NaN fused scores,
    silently (the normalised score of 'a' was NaN, fused as NaN)."""
    runs = [{"q": {"a": INF, "b": 1.0, "d": 0.5}}, {"q": {"a": 2.0, "c": 1.0}}]
    with pytest.raises(cwlkit.CwlkitError, match=rf"run 1, topic 'q': the '{norm}' norm") as e:
        cwlkit.fuse(runs, "wsum", norm)
    assert "\n" not in str(e.value)
    far = [{"q": {"a": 1e308, "b": -1e308}}, {"q": {"a": 2.0, "c": 1.0}}]  # 1e308 - -1e308 = inf
    with pytest.raises(cwlkit.CwlkitError, match=r"from -1e\+308 to 1e\+308 is not a number"):
        cwlkit.fuse(far, "wsum", "min-max")


def test_infinite_scores_are_ranked_where_no_arithmetic_meets_them():
    """rank, borda and the rank-based methods take infinite scores: +inf ranks first, -inf
    last; comb_max/min keep them. A sum of +inf and -inf (or inf weighted 0) is refused."""
    runs = [{"q": {"a": INF, "b": 1.0}}, {"q": {"a": -INF, "c": 1.0}}]
    assert (
        cwlkit.fuse(runs, "rrf", None).to_dict()
        == cwlkit.fuse(
            [{"q": {"a": 2.0, "b": 1.0}}, {"q": {"a": 0.0, "c": 1.0}}], "rrf", None
        ).to_dict()
    )
    assert cwlkit.fuse(runs, "max", None).to_dict() == {"q": {"a": INF, "c": 1.0, "b": 1.0}}
    assert list(cwlkit.fuse(runs, "sum", "rank").to_dict()["q"]) == ["a", "c", "b"]
    for method, params in (("wsum", {}), ("mnz", {}), ("wsum", {"weights": [0, 1]})):
        bad = runs if not params else [runs[0], {"q": {"a": 3.0, "c": 1.0}}]
        with pytest.raises(cwlkit.CwlkitError, match=r"score of document 'a' for topic 'q' is"):
            cwlkit.fuse(bad, method, None, **params)
