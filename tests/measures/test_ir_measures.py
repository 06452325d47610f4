"""cwlkit against ir_measures 0.4.3, measure by measure and topic by topic.

Each ir_measures measure object is computed by ir_measures (``iter_calc``, its default
provider pipeline) and by cwlkit (``cwlkit.evaluate`` given the same object), on two TREC Web
2012 runs (graded qrels -2..4) and on trec_eval's own test inputs. Values must agree to 1e-9
on the same topics, except where a provider's documented behaviour predicts a difference; the
test then asserts that prediction:

* gdeval.pl (``ERR@k``, ``nDCG(dcg='exp-log2')@k``) prints its values with ``%.5f``: ir_measures'
  value is cwlkit's rounded to 5 decimals;
* the compat provider breaks ties by document id ascending and, in the ideal ranking, puts
  unretrieved documents at score 0.0 (ahead of retrieved ones when a run's scores are
  negative, as Indri's are) and equal scores in qrels order: on a run with distinct positive
  scores it agrees with cwlkit exactly, and on the original runs it differs only on topics
  with ties or with negative scores and unretrieved relevant documents;
* the cwl_eval provider keeps tied documents in the order it was given them (a stable sort
  by score): it is given the run in trec_eval's order, which every other provider re-sorts;
  a separate test gives it the files' order and cwlkit ``order="file"``.

trec_eval 9.0.8 (and pytrec_eval, built on its structures) ranks by scores rounded to
float32, cwlkit's default; the other providers rank by the double-precision score, so cwlkit
is run with ``trec_version=10`` for them.
"""

from __future__ import annotations

import math
import shutil
from collections import defaultdict
from itertools import groupby
from pathlib import Path

import numpy as np
import pytest
from conftest import DATA

import cwlkit
from cwlkit.errors import ParamError

irm = pytest.importorskip("ir_measures")
pytest.importorskip("pytrec_eval")

WEB = DATA / "web2012"
TE = DATA / "trec_eval_test" / "9.0.8"

#: name -> (qrels, run, top label of the qrels)
CASES = {
    "web2012.ql.cata-filtered": (
        WEB / "qrels.web.151-200.txt",
        WEB / "runs" / "web2012.ql.cata-filtered.run.gz",
        4,
    ),
    "web2012.rm.catb": (WEB / "qrels.web.151-200.txt", WEB / "runs" / "web2012.rm.catb.run.gz", 4),
    "trec_eval_test": (TE / "qrels.test", TE / "results.test", 1),
}

#: pytrec_eval provider: trec_eval 9.0.8's rules, cwlkit's defaults
PYTREC = [
    "P@5",
    "P@10",
    "P(rel=2)@10",
    "P@1000",
    "R@100",
    "R@1000",
    "AP",
    "AP@100",
    "AP(rel=2)",
    "RR",
    "RR(rel=2)",
    "nDCG",
    "nDCG@10",
    "nDCG@20",
    "nDCG(gains={0:0,1:1,2:3,3:7,4:15})",
    "nDCG(gains={0:0,1:1,2:3,3:7,4:15})@10",
    "nDCG(gains={0:1,1:2,2:4})@20",
    "Rprec",
    "Rprec(rel=2)",
    "Bpref",
    "infAP",
    "SetP",
    "SetP(relative=True)",
    "SetR",
    "SetF",
    "SetF(beta=0.5)",
    "SetAP",
    "NumRet",
    "NumRel",
    "NumRelRet",
    "NumRet(rel=2)",
    "NumQ",
    "Success@1",
    "Success@10",
    "IPrec@0.0",
    "IPrec@0.5",
    "IPrec@1.0",
]
#: judged, msmarco and cwl_eval providers (double-precision scores: trec_version=10);
#: ``{M}`` is the qrels' top label
DOUBLE = [
    "Judged@10",
    "Judged@100",
    "Judged",
    "RR@10",
    "INST(T=2.0,max_rel={M})",
    "INST(T=1.0,max_rel={M})",
    "INSQ(T=2.0,max_rel={M})",
    "BPM(T=1.0,max_rel={M})@20",
    "SDCG(max_rel={M})@10",
    "NERR8(max_rel={M})@10",
    "NERR9(max_rel={M})@10",
    "NERR10(max_rel={M})",
    "NERR11(T=2.0,max_rel={M})",
]
#: gdeval provider: values printed with %.5f
GDEVAL = ["ERR@20", "ERR@10", "nDCG(dcg='exp-log2')@20"]
#: compat provider
COMPAT = ["Compat(p=0.8)", "Compat(p=0.95)", "Compat(normalize=False)"]

needs_gdeval = pytest.mark.skipif(shutil.which("perl") is None, reason="gdeval needs perl")


def _measures(strings: list[str], top: int) -> list:
    return [irm.parse_measure(s.replace("{M}", str(top))) for s in strings]


@pytest.fixture(scope="module", params=list(CASES))
def case(request):
    """(qrels path, run path, top label, ir_measures qrels, run in file order, run in
    trec_eval's order)."""
    qrels, run, top = CASES[request.param]
    q = list(irm.read_trec_qrels(str(qrels)))
    r = list(irm.read_trec_run(str(run)))
    return qrels, run, top, q, r, _trec_order(r)


def _trec_order(run: list) -> list:
    """The run sorted as trec_eval ranks it: topic, score descending, docno descending."""
    out = sorted(run, key=lambda d: d.doc_id, reverse=True)
    out.sort(key=lambda d: d.score, reverse=True)
    out.sort(key=lambda d: d.query_id)
    return out


def _ir_values(measures: list, qrels, run) -> dict:
    """{measure: {topic: value}} from ir_measures."""
    out: dict = defaultdict(dict)
    # ir_measures 0.4.3 relabels the qrels for a measure with gains= and, depending on the
    # order of a set (PYTHONHASHSEED=3), evaluates the plain nDCG of the same call on the
    # relabelled qrels: each gains= measure gets a call of its own
    gains = [m for m in measures if m.params.get("gains") is not None]
    plain = [m for m in measures if m.params.get("gains") is None]
    for group in [plain] + [[m] for m in gains]:
        for m in irm.iter_calc(group, qrels, run) if group else ():
            out[m.measure][m.query_id] = m.value
    return out


def _compare(measures: list, ir: dict, res) -> float:
    """Assert equal topic sets; return the largest |ir - cwlkit| over measures and topics."""
    worst = 0.0
    for m in measures:
        ours = res.per_topic(m)  # the ir_measures object itself
        assert set(ours) == set(ir[m]), m
        worst = max(worst, max(abs(ir[m][t] - ours[t]) for t in ours))
    return worst


def _check_equal(measures: list, ir: dict, res) -> None:
    for m in measures:
        ours = res.per_topic(m)
        assert set(ours) == set(ir[m]), m
        bad = {t: (ir[m][t], ours[t]) for t in ours if not abs(ir[m][t] - ours[t]) <= 1e-9}
        assert not bad, f"{m}: {bad}"


def test_pytrec_eval_measures(case):
    qrels, run, top, q, _, r = case
    ms = _measures(PYTREC, top)
    ir = _ir_values(ms, q, r)
    res = cwlkit.evaluate(qrels, run, ms)
    _check_equal(ms, ir, res)
    assert _compare(ms, ir, res) <= 1e-9


def test_double_precision_providers(case):
    qrels, run, top, q, _, r = case
    ms = _measures(DOUBLE, top)
    if top > 1:
        ms.append(irm.parse_measure(f"INST(T=2.0,min_rel=1,max_rel={top})"))
    ir = _ir_values(ms, q, r)
    # judged, msmarco and cwl_eval rank by the double-precision score
    res = cwlkit.evaluate(qrels, run, ms, trec_version=10)
    _check_equal(ms, ir, res)


@needs_gdeval
def test_gdeval_prints_five_decimals(case):
    qrels, run, top, q, _, r = case
    ms = _measures(GDEVAL, top)
    ir = _ir_values(ms, q, r)
    res = cwlkit.evaluate(qrels, run, ms, trec_version=10)  # gdeval.pl: double scores
    for m in ms:
        ours = res.per_topic(m)
        assert set(ours) == set(ir[m])
        for t, v in ours.items():
            # gdeval.pl prints "%.5f": its value is ours rounded to 5 decimals
            assert ir[m][t] == float(f"{v:.5f}"), (m, t, ir[m][t], v)
            assert abs(ir[m][t] - v) <= 5e-6 + 1e-12


def test_compat_on_distinct_positive_scores(case):
    """On a run whose ranking has distinct positive scores (cwlkit's order re-scored n..1),
    the compat provider and cwlkit agree exactly."""
    qrels, run, _, q, _, r = case
    ms = _measures(COMPAT, 1)
    rescored = []
    for qid, docs in groupby(r, key=lambda d: d.query_id):
        docs = list(docs)
        rescored += [irm.ScoredDoc(qid, d.doc_id, float(len(docs) - i)) for i, d in enumerate(docs)]
    ir = _ir_values(ms, q, rescored)
    res = cwlkit.evaluate(qrels, run, ms, trec_version=10)  # the original run: same ranking
    _check_equal(ms, ir, res)


def test_compat_differs_only_where_its_conventions_act(case):
    """On the original runs the compat provider's tie rules and its score 0.0 for unretrieved
    documents (ahead of negative scores) change exactly the topics they can reach."""
    qrels, run, _, q, r, _ = case
    ms = _measures(COMPAT, 1)
    ir = _ir_values(ms, q, r)
    res = cwlkit.evaluate(qrels, run, ms, trec_version=10)
    scores = defaultdict(list)
    for d in r:
        scores[d.query_id].append(d.score)
    retrieved = {(d.query_id, d.doc_id) for d in r}
    missed = {x.query_id for x in q if x.relevance > 0 and (x.query_id, x.doc_id) not in retrieved}
    affected = {
        t for t, s in scores.items() if len(set(s)) < len(s) or (min(s) < 0 and t in missed)
    }
    for m in ms:
        ours = res.per_topic(m)
        assert set(ours) == set(ir[m])
        differ = {t for t in ours if abs(ir[m][t] - ours[t]) > 1e-9}
        assert differ <= affected, (m, differ - affected)
        for t in set(ours) - affected:
            assert abs(ir[m][t] - ours[t]) <= 1e-9


def test_cwl_eval_keeps_input_order_of_ties():
    """Given the Web runs in file order (sorted by score, ties as Indri wrote them), the
    cwl_eval provider agrees with cwlkit's ``order="file"``; with trec_eval's tie order it
    differs on topics where tied documents differ in gain."""
    for name in ("web2012.ql.cata-filtered", "web2012.rm.catb"):
        qrels, run, top, *_ = CASES[name]
        q = list(irm.read_trec_qrels(str(qrels)))
        r = list(irm.read_trec_run(str(run)))
        ms = [
            irm.parse_measure(f"INST(T=2.0,max_rel={top})"),
            irm.parse_measure("NERR8(max_rel=4)@10"),
        ]
        ir = _ir_values(ms, q, r)
        _check_equal(ms, ir, cwlkit.evaluate(qrels, run, ms, order="file"))
        by_score = cwlkit.evaluate(qrels, run, ms, trec_version=10).per_topic(ms[0])
        assert any(abs(ir[ms[0]][t] - v) > 1e-9 for t, v in by_score.items())


def test_judged_and_msmarco_tie_order():
    """ir_measures' judged and msmarco providers break ties by docno ascending; cwlkit by
    docno descending (trec_eval): a tie across the cutoff shows it."""
    from cwlkit.io.trec import Qrels, Run

    qrels = [irm.Qrel("1", "a", 1), irm.Qrel("1", "c", 0)]
    run = [irm.ScoredDoc("1", "a", 1.0), irm.ScoredDoc("1", "b", 1.0), irm.ScoredDoc("1", "c", 0.5)]
    q = Qrels.from_records([(x.query_id, x.doc_id, x.relevance) for x in qrels])
    ms = [irm.Judged @ 1, irm.RR @ 1, irm.Judged @ 3]
    ir = _ir_values(ms, qrels, run)
    ours = cwlkit.evaluate(q, Run.from_records([tuple(d) for d in run]), ms)
    assert [ir[m]["1"] for m in ms] == [1.0, 1.0, 2 / 3]  # "a" first
    assert [ours.per_topic(m)["1"] for m in ms] == [0.0, 0.0, 2 / 3]  # "b" first
    ascending = Run.from_records([("1", "a", 3.0), ("1", "b", 2.0), ("1", "c", 1.0)])
    again = cwlkit.evaluate(q, ascending, ms)
    assert [again.per_topic(m)["1"] for m in ms] == [ir[m]["1"] for m in ms]


def test_judged_divides_by_the_run_length():
    from cwlkit.io.trec import Qrels, Run

    q = Qrels.from_records([("1", "a", 0), ("1", "b", -2), ("2", "a", 1)])
    r = Run.from_records([("1", "a", 3.0), ("1", "b", 2.0), ("1", "x", 1.0), ("2", "z", 1.0)])
    res = cwlkit.evaluate(q, r, ["Judged@2", "Judged@10", "Judged"], trec_version=10)
    assert res.per_topic("Judged@2") == {"1": 1.0, "2": 0.0}
    assert res.per_topic("Judged@10") == {"1": 2 / 3, "2": 0.0}
    assert res.per_topic("Judged") == {"1": 2 / 3, "2": 0.0}


def test_compat_of_the_ideal_ranking_is_one():
    from cwlkit.io.trec import Qrels, Run

    q = Qrels.from_records([("1", "a", 2), ("1", "b", 1), ("1", "c", 1), ("1", "d", 0)])
    ideal = Run.from_records([("1", "a", 4.0), ("1", "c", 3.0), ("1", "b", 2.0), ("1", "d", 1.0)])
    worst = Run.from_records([("1", "d", 3.0), ("1", "x", 2.0), ("1", "y", 1.0)])
    res = cwlkit.evaluate(q, ideal, ["Compat", "Compat(normalize=False)"])
    assert res.per_topic("Compat")["1"] == pytest.approx(1.0, abs=1e-15)
    assert res.per_topic("Compat(normalize=False)")["1"] < 1.0
    assert cwlkit.evaluate(q, worst, ["Compat"]).per_topic("Compat")["1"] == 0.0


# --- from_ir_measures ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("ir", "ours"),
    [
        ("P@10", "P@10"),
        ("P(rel=2)@10", "P(rel=2)@10"),
        ("NumRet(rel=1)", "NumRelRet"),
        ("NumRelRet", "NumRelRet"),
        ("NumRet(rel=2)", "NumRelRet(rel=2)"),
        ("ERR@20", "ERR@20"),
        ("nDCG(dcg='exp-log2')@20", "nDCG(dcg='exp-log2')@20"),
        ("nDCG(gains={0:0,1:1,2:3})", "nDCG(gains='0=0,1=1,2=3')"),
        ("nDCG(gains={0:0,1:1,2:3})@10", "nDCG(gains='0=0,1=1,2=3')@10"),
        ("SetRelP", "SetP(relative=True)"),
        ("P(judged_only=True)@10", "P(judged_only=True)@10"),
        ("SetP(relative=True)", "SetP(relative=True)"),
        ("IPrec@0.5", "IPrec@0.5"),
        ("Judged", "Judged"),
        ("Compat(p=0.8)", "Compat(p=0.8)"),
        ("INST(T=2.0,max_rel=4)", "CWL_scaled(metric='INST(T=2)',max_rel=4)"),
        ("BPM(T=1.0,max_rel=4)@20", "CWL_scaled(metric='BPM(T=1,K=20)',max_rel=4)"),
        ("NERR10(p=0.8,max_rel=4)", "CWL_scaled(metric='C_E10(phi=0.8)',max_rel=4)"),
    ],
)
def test_from_ir_measures_names(ir, ours):
    from cwlkit.measures.parse import measures_of, parse_measure

    got = measures_of(irm.parse_measure(ir))
    assert [m.name for m in got] == [ours]
    assert parse_measure(ours) == got[0]  # the name parses back to the same measure


@pytest.mark.parametrize(
    ("ir", "says"),
    [
        ("alpha_nDCG", "needs a cutoff"),
        ("INST(T=2.0)", "needs max_rel"),
    ],
)
def test_from_ir_measures_without_equivalent(ir, says):
    from cwlkit.measures.parse import measures_of

    with pytest.raises(ParamError, match=says):
        measures_of(irm.parse_measure(ir))


def test_judged_only_measures_and_the_evaluation_option():
    """ir_measures' ``judged_only=True`` is the measure's own parameter in cwlkit (given as
    the ir_measures object or as its spelling), and without a depth cut the evaluation
    option ``judged_only=True`` on the plain measures gives the same numbers."""
    qrels, run, *_ = CASES["web2012.ql.cata-filtered"]
    q = list(irm.read_trec_qrels(str(qrels)))
    r = list(irm.read_trec_run(str(run)))
    names = ["P(judged_only=True)@10", "AP(judged_only=True)", "nDCG(judged_only=True)@10"]
    ms = [irm.parse_measure(n) for n in names]
    ir = _ir_values(ms, q, r)
    own = cwlkit.evaluate(qrels, run, ms)
    spelled = cwlkit.evaluate(qrels, run, names)
    option = cwlkit.evaluate(qrels, run, [irm.P @ 10, irm.AP, irm.nDCG @ 10], judged_only=True)
    plain = cwlkit.evaluate(qrels, run, [irm.P @ 10, irm.AP, irm.nDCG @ 10])
    for m, name, base in zip(ms, names, [irm.P @ 10, irm.AP, irm.nDCG @ 10], strict=True):
        for ours in (own.per_topic(m), spelled.per_topic(name), option.per_topic(base)):
            assert set(ours) == set(ir[m])
            assert max(abs(ir[m][t] - ours[t]) for t in ours) <= 1e-9
        # (the unjudged documents of this run change the values: the test can fail)
        assert any(abs(ir[m][t] - plain.per_topic(base)[t]) > 1e-6 for t in ir[m])


def test_results_accept_ir_measures_objects():
    qrels, run, *_ = CASES["trec_eval_test"]
    res = cwlkit.evaluate(qrels, run, [irm.P @ 10, irm.NumRet(rel=1), "AP"])
    assert res.measures == ["P@10", "NumRelRet", "AP"]
    assert res.per_topic(irm.NumRelRet) == res.per_topic("NumRelRet")
    assert irm.AP in res and irm.nDCG @ 10 not in res


# --- to_ir_measures --------------------------------------------------------------------------


@pytest.fixture(scope="module")
def web():
    qrels, run, *_ = CASES["web2012.rm.catb"]
    return qrels, run, list(irm.read_trec_qrels(str(qrels))), list(irm.read_trec_run(str(run)))


def test_to_ir_measures_p10_equals_ir_measures(web):
    qrels, run, q, r = web
    ours = cwlkit.to_ir_measures("P@10")
    assert ours != irm.P @ 10 and str(ours) == "cwlkit:P@10"
    agg = irm.calc_aggregate([ours, irm.P @ 10], q, r)
    assert agg[ours] == pytest.approx(agg[irm.P @ 10], abs=1e-12)


def test_to_ir_measures_inst_equals_cwlkit_mean(web):
    qrels, run, q, r = web
    m = cwlkit.to_ir_measures("INST(T=2)", gain="linear")
    agg = irm.calc_aggregate([m], q, r)[m]
    mean = cwlkit.evaluate(qrels, run, ["INST(T=2)"], gain="linear").mean()["INST(T=2)"]
    assert agg == pytest.approx(mean, abs=1e-12)


def test_to_ir_measures_input_forms(web):
    pd = pytest.importorskip("pandas")
    qrels, run, q, r = web
    ms = [cwlkit.to_ir_measures("nDCG@10"), cwlkit.to_ir_measures("RBP(p=0.8)", gain="linear")]
    base = _ir_values(ms, q, r)
    forms = [
        (pd.DataFrame(q), pd.DataFrame(r)),
        (
            irm.util.QrelsConverter(q).as_dict_of_dict(),
            irm.util.RunConverter(r).as_dict_of_dict(),
        ),
        (iter(q), iter(r)),
    ]
    for fq, fr in forms:
        assert _ir_values(ms, fq, fr) == base
    ref = cwlkit.evaluate(qrels, run, ["nDCG@10"]).per_topic("nDCG@10")
    assert base[ms[0]] == pytest.approx(ref, abs=1e-12)


def test_to_ir_measures_aggregation_and_round_trip(web):
    from cwlkit.measures.ir_measures_bridge import from_ir_measures

    qrels, run, q, r = web
    num, gmap = cwlkit.to_ir_measures("NumRet"), cwlkit.to_ir_measures("GMAP")
    agg = irm.calc_aggregate([num, gmap, irm.NumRet], q, r)
    assert agg[num] == agg[irm.NumRet] == 50000
    assert agg[gmap] == pytest.approx(
        cwlkit.evaluate(qrels, run, ["GMAP"]).mean()["GMAP"], abs=1e-12
    )
    assert [m.name for m in from_ir_measures(cwlkit.to_ir_measures("INST(T=2)"))] == ["INST(T=2)"]
    res = cwlkit.evaluate(qrels, run, [cwlkit.to_ir_measures("P@10")])
    assert res.measures == ["P@10"]


def test_to_ir_measures_missing_topics_default_to_zero(web):
    qrels, run, q, r = web
    part = [d for d in r if d.query_id != "151"]
    m = cwlkit.to_ir_measures("P@10")
    per = {x.query_id: x.value for x in irm.iter_calc([m], q, part)}
    assert per["151"] == 0.0 and len(per) == 50
    assert not math.isnan(irm.calc_aggregate([m], q, [])[m])


def test_to_ir_measures_bad_options():
    with pytest.raises(ParamError):
        cwlkit.to_ir_measures("P@10", topics="all")
    with pytest.raises(ParamError):
        cwlkit.to_ir_measures("P@10", no_such_option=1)


def test_compared_strings_cover_enough():
    """At least 40 distinct measure strings are compared on every input."""
    every = PYTREC + DOUBLE + GDEVAL + COMPAT
    assert len(set(every)) == len(every) >= 40


def test_compat_random_rankings_against_the_provider_formula():
    """Random graded qrels and runs (unjudged, zero and negative labels, topics without
    relevant documents, runs shorter and longer than the ideal): cwlkit's vectorised Compat
    equals the compat provider's per-topic function given distinct positive scores."""
    from ir_measures.providers.compat_provider import compatibility

    from cwlkit.io.trec import Qrels, Run

    rng = np.random.default_rng(7)
    qrels, run = [], []
    for t in range(40):
        docs = [f"d{i}" for i in range(int(rng.integers(1, 60)))]
        top = 0 if t % 7 == 0 else 3
        for d in docs:
            if rng.random() < 0.7:
                qrels.append((f"q{t}", d, int(rng.integers(-1, top + 1))))
        if not any(x[0] == f"q{t}" for x in qrels):
            qrels.append((f"q{t}", docs[0], 0))
        ranked = rng.permutation(docs + [f"u{i}" for i in range(int(rng.integers(0, 20)))])
        ranked = ranked[: int(rng.integers(1, len(ranked) + 1))]
        run += [(f"q{t}", str(d), float(len(ranked) - i)) for i, d in enumerate(ranked)]
    qd: dict = defaultdict(dict)
    for t, d, lab in qrels:
        qd[t][d] = lab
    rd: dict = defaultdict(dict)
    for t, d, s in run:
        rd[t][d] = s
    for p, norm in [(0.95, True), (0.5, True), (0.8, False), (1.0, True)]:
        res = cwlkit.evaluate(
            Qrels.from_records(qrels), Run.from_records(run), [f"Compat(p={p},normalize={norm})"]
        )
        for t, v in zip(res.topics, res.values[0], strict=True):
            assert v == pytest.approx(compatibility(qd[t], rd[t], p, norm), abs=1e-12), (t, p)


def test_rr_at_k_and_max_rel_cwl_keep_file_order_among_ties():
    """docs/measures.md: ir_measures' RR@k (msmarco provider) and max_rel C/W/L spellings
    (cwl_eval provider) keep tied documents in file order; cwlkit breaks ties as trec_eval
    (docno descending), and gives their values with order="file"."""
    q = [irm.Qrel("1", "a", 1), irm.Qrel("1", "b", 0)]
    r = [irm.ScoredDoc("1", "a", 1.0), irm.ScoredDoc("1", "b", 1.0)]
    qd, rd = {"1": {"a": 1, "b": 0}}, {"1": {"a": 1.0, "b": 1.0}}
    for name in ("RR@10", "INST(T=2.0,max_rel=1)"):
        m = irm.parse_measure(name)
        ir = irm.calc_aggregate([m], q, r)[m]
        ours = cwlkit.evaluate(qd, rd, [m], trec_version=10).mean()
        filed = cwlkit.evaluate(qd, rd, [m], trec_version=10, order="file").mean()
        assert list(filed.values()) == [pytest.approx(ir, abs=1e-12)], name
        assert list(ours.values())[0] < ir - 0.1, name  # b (docno descending) ranks first
    assert irm.calc_aggregate([irm.RR @ 10], q, r)[irm.RR @ 10] == 1.0
    assert cwlkit.evaluate(qd, rd, ["RR@10"]).mean()["RR@10"] == 0.5
    text = (Path(__file__).resolve().parents[2] / "docs" / "measures.md").read_text()
    assert "`RR@k` (its msmarco provider) and the `max_rel` C/W/L spellings" in text
