"""The one evaluation API: trec_eval's rules by default, every family, many runs."""

from __future__ import annotations

import json

import numpy as np
import pytest
from conftest import DATA

import cwlkit
from cwlkit.errors import CwlkitError, ParamError
from cwlkit.io.trec import Qrels, Run

WEB = DATA / "web2012"
QRELS = WEB / "qrels.web.151-200.txt"
RUNS = sorted((WEB / "runs").glob("*.run.gz"))


def _toy():
    # topic 1 judged and retrieved; topic 2 judged, not retrieved; topic 3 retrieved, unjudged
    q = Qrels.from_records([("1", "a", 1), ("1", "b", 1), ("2", "c", 1)])
    r = Run.from_records([("1", "a", 2.0), ("1", "x", 1.5), ("1", "b", 1.0), ("3", "y", 1.0)])
    return q, r


def test_topics_default_is_trec_evals_both():
    q, r = _toy()
    # AP of topic 1 = (1/1 + 2/3) / 2 = 5/6 (hand computation); trec_eval averages topic 1 only
    res = cwlkit.evaluate(q, r, ["AP"])
    assert res.topics == ["1"] and res.mean()["AP"] == pytest.approx(5 / 6, abs=1e-15)
    # -c: every qrels topic, the missing topic 2 scores 0
    res = cwlkit.evaluate(q, r, ["AP"], topics="qrels")
    assert res.topics == ["1", "2"] and res.mean()["AP"] == pytest.approx(5 / 12, abs=1e-15)
    # every run topic: the unjudged topic 3 scores 0
    res = cwlkit.evaluate(q, r, ["AP"], topics="run")
    assert res.topics == ["1", "3"] and res.mean()["AP"] == pytest.approx(5 / 12, abs=1e-15)
    res = cwlkit.evaluate(q, r, ["AP"], topics="either")
    assert res.topics == ["1", "2", "3"]


def test_defaults_match_pytrec_eval_on_web2012():
    """P@10, AP, RR, nDCG@10... of the API equal trec_eval's (via pytrec_eval) per topic."""
    pytrec_eval = pytest.importorskip("pytrec_eval")
    q = cwlkit.io.trec.read_qrels(QRELS)
    qd: dict = {}
    for t, d, lab in zip(
        q.table.column("topic").to_pylist(),
        q.table.column("doc").to_pylist(),
        q.labels.tolist(),
        strict=True,
    ):
        qd.setdefault(t, {})[d] = int(lab)
    names = {
        "P@10": "P_10",
        "AP": "map",
        "RR": "recip_rank",
        "nDCG@10": "ndcg_cut_10",
        "R@100": "recall_100",
        "Bpref": "bpref",
    }
    ev = cwlkit.Evaluator(QRELS, list(names))
    for path in RUNS[:2]:
        r = cwlkit.io.trec.read_run(path)
        rd: dict = {}
        for t, d, s in zip(
            r.table.column("topic").to_pylist(),
            r.table.column("doc").to_pylist(),
            r.table.column("score").to_pylist(),
            strict=True,
        ):
            rd.setdefault(t, {})[d] = s
        ref = pytrec_eval.RelevanceEvaluator(
            qd, {"P.10", "map", "recip_rank", "ndcg_cut.10", "recall.100", "bpref"}
        ).evaluate(rd)
        res = ev.evaluate(path)
        assert sorted(ref) == res.topics
        for m, trec in names.items():
            got = res.per_topic(m)
            for t in res.topics:
                assert got[t] == pytest.approx(ref[t][trec], abs=1e-12), (path.name, m, t)


def test_one_name_one_measure_on_web2012():
    """The issue's case: the shared names are trec_eval's on every path; cwl_eval's graded
    forms have their own names and differ on graded qrels."""
    run = WEB / "runs" / "web2012.ql.cata.run.gz"
    a = cwlkit.evaluate(QRELS, run, ["P@10", "AP", "RR"]).mean()
    b = cwlkit.evaluate(QRELS, run, ["P@10", "AP", "RR"], residuals=True, gain="linear").mean()
    assert a == b
    c = cwlkit.evaluate(QRELS, run, ["P_cwl@10", "AP_cwl", "RR_cwl"]).mean()
    assert all(a[k] != c[k2] for k, k2 in zip(a, c, strict=True))
    # with binary gains (rel >= 1 -> 1) cwl_eval's precision is trec_eval's
    binary = "-2:0,-1:0,0:0,1:1,2:1,3:1,4:1"
    d = cwlkit.evaluate(QRELS, run, ["P_cwl@10"], gain=binary).mean()
    assert d["P_cwl@10"] == pytest.approx(a["P@10"], abs=1e-15)


def test_float32_ties_follow_trec_eval_9_by_default():
    # scores 1.0 and 1.0 + 1e-9 are one float32: 9.0.8 ties them and orders by docno
    # descending (b before a); 10.0 orders by the double score (a first)
    q = Qrels.from_records([("1", "a", 1), ("1", "b", 0)])
    r = Run.from_records([("1", "a", 1.0 + 1e-9), ("1", "b", 1.0)])
    assert cwlkit.evaluate(q, r, ["P@1"]).mean()["P@1"] == 0.0
    assert cwlkit.evaluate(q, r, ["P@1"], trec_version=10).mean()["P@1"] == 1.0
    pytrec_eval = pytest.importorskip("pytrec_eval")
    ref = pytrec_eval.RelevanceEvaluator({"1": {"a": 1, "b": 0}}, {"P.1"}).evaluate(
        {"1": {"a": 1.0 + 1e-9, "b": 1.0}}
    )
    assert ref["1"]["P_1"] == 0.0


def test_every_family_in_one_call_with_cwl_columns():
    res = cwlkit.evaluate(
        cwlkit.example("qrels"),
        cwlkit.example("run"),
        ["P@5", "P_cwl@5", "INST(T=2)", "ERR@5", "NumRet", "GMAP"],
        residuals=True,
        topics="run",
    )
    assert set(res.columns) == {
        "ETU",
        "EC",
        "ETC",
        "ED",
        "ResEU",
        "ResETU",
        "ResEC",
        "ResETC",
        "ResED",
    }
    ed = res.per_topic("INST(T=2)", "ED")
    assert ed["T1"] == pytest.approx(3.9363, abs=1e-4)  # the cwl_eval paper's Table 2
    assert (res.columns["ED"][0] == 5).all()  # P@5: the columns of P_cwl@5 on binary gains
    assert np.isnan(res.columns["ED"][3]).all()  # ERR is not C/W/L
    assert not np.isnan(res.columns["ResEU"][3]).any()  # ERR defines a residual
    assert np.isnan(res.columns["ResEU"][5]).all()  # GMAP defines no residual
    agg = res.mean()
    assert agg["NumRet"] == sum(res.per_topic("NumRet").values())


def test_aggregations_are_the_measures_own():
    q, r = _toy()
    r2 = Run.from_records([("1", "x", 2.0), ("1", "a", 1.0), ("2", "c", 1.0), ("2", "z", 0.5)])
    res = cwlkit.evaluate(q, r2, ["AP", "GMAP", "NumRet", "NumRelRet"])
    ap = res.values[0]
    assert res.mean()["AP"] == ap.mean()
    assert res.mean()["GMAP"] == pytest.approx(
        np.exp(np.log(np.maximum(ap, 1e-5)).mean()), rel=1e-15
    )
    assert res.mean()["NumRet"] == 4 and res.mean()["NumRelRet"] == 2


def test_lookups_accept_any_alias_and_views(tmp_path):
    res = cwlkit.evaluate(
        cwlkit.example("qrels"), cwlkit.example("run"), ["AP", "P.2,5"], topics="run"
    )
    assert res.per_topic("map") == res.per_topic("AP") == res["MAP"]
    assert "map" in res and "ndcg" not in res
    d = res.to_dict()
    assert set(d) == {"T1", "T2"} and set(d["T1"]) == {"AP", "P@2", "P@5"}
    wide = res.to_frame(wide=True)
    assert list(wide.columns) == ["run", "topic", "AP", "P@2", "P@5"] and len(wide) == 2
    long = res.to_frame()
    assert len(long) == 6 and set(long.columns) >= {"run", "topic", "measure", "value"}
    pl = res.to_polars(wide=True)
    assert pl.shape == (2, 5)
    doc = json.loads(res.to_json())
    assert doc["aggregate"]["AP"] == res.mean()["AP"]
    assert doc["per_topic"]["T1"]["P@2"] == res.per_topic("P@2")["T1"]
    assert "AP" in repr(res) and "2 topics" in repr(res)
    with pytest.raises(KeyError, match="no measure"):
        res.per_topic("nDCG@10")
    with pytest.raises(CwlkitError, match="no measure 'nDCG@10' in these results"):
        res.per_topic("nDCG@10")
    with pytest.raises(CwlkitError, match="no column 'ED'"):
        res.per_topic("AP", "ED")
    assert "nDCG@10" not in res and "map" in res and "P_2" in res


@pytest.mark.parametrize("measures", [5, 3.0, None, b"AP", {"AP": 1}])
def test_measures_of_another_type_are_a_param_error(measures):
    with pytest.raises(ParamError, match="measures must be a name such as 'P@10'"):
        cwlkit.evaluate({"1": {"a": 1}}, {"1": {"a": 1.0}}, measures)


@pytest.mark.parametrize(
    ("run", "line"),
    [({"1": {"a": "x"}}, 1), ({"1": {"b": 1.0, "a": "x"}}, 2)],
)
def test_a_run_dict_with_a_score_that_is_not_a_number(run, line):
    """The first score not being a number does not make the dict a mapping of runs."""
    with pytest.raises(CwlkitError, match=f"<dict>:{line}: expected a number for the score"):
        cwlkit.evaluate({"1": {"a": 1}}, run, ["AP"])


def test_a_mapping_of_run_dicts_is_several_runs():
    got = cwlkit.evaluate({"1": {"a": 1}}, {"r1": {"1": {"a": 1.0}}, "r2": {"1": {"b": 1.0}}}, "AP")
    assert {k: v.mean()["AP"] for k, v in got.items()} == {"r1": 1.0, "r2": 0.0}


def test_evaluate_many_shares_the_qrels():
    ev = cwlkit.Evaluator(QRELS, ["P@10", "AP"])
    many = ev.evaluate_many([str(p) for p in RUNS[:3]])
    assert list(many) == [p.name for p in RUNS[:3]]
    one = cwlkit.evaluate(QRELS, RUNS[1], ["P@10", "AP"])
    np.testing.assert_array_equal(many[RUNS[1].name].values, one.values)
    named = cwlkit.evaluate(QRELS, {"x": RUNS[0], "y": RUNS[1]}, ["AP"])
    assert list(named) == ["x", "y"]


def test_bad_options_are_cwlkit_errors():
    q, r = _toy()
    with pytest.raises(ParamError, match="topics must be one of"):
        cwlkit.evaluate(q, r, ["AP"], topics="all")
    with pytest.raises(ParamError, match="trec_version"):
        cwlkit.evaluate(q, r, ["AP"], trec_version=8)
    with pytest.raises(ParamError, match="^'max_depht' is not an option of evaluate "):
        cwlkit.evaluate(q, r, ["AP"], max_depht=3)
    with pytest.raises(ParamError, match="a measure must be"):
        cwlkit.evaluate(q, r, [3])
    with pytest.raises(CwlkitError):
        cwlkit.evaluate(Qrels.from_records([("9", "a", 1)]), r, ["AP"])


def test_cwl_vectors_through_the_api():
    v = cwlkit.cwl_vectors(cwlkit.example("qrels"), cwlkit.example("run"), "INST(T=2)", "T1")
    assert v["W"].sum() <= 1 + 1e-12 and len(v["gain"]) == len(v["C"][: len(v["gain"])])
    with pytest.raises(CwlkitError, match="not a C/W/L metric"):
        cwlkit.cwl_vectors(cwlkit.example("qrels"), cwlkit.example("run"), "AP", "T1")


def test_cwl_vectors_of_a_measure_with_a_cwl_form():
    """``P@10`` (``cwl -M P@10`` scores it as P_cwl@10 on binary gains) has that form's
    vectors, and their sum of W times gain is P@10 (T1: 2 relevant in the top 10, 0.2); RR
    has RR_cwl's. AP has none."""
    q, r = cwlkit.example("qrels"), cwlkit.example("run")
    v = cwlkit.cwl_vectors(q, r, "P@10", "T1")
    form = cwlkit.cwl_vectors(q, r, "P_cwl@10", "T1", gain="binary:1")
    assert set(v) == set(form) and all(np.array_equal(v[k], form[k]) for k in v)
    n = len(v["gain"])
    assert float((v["W"][:n] * v["gain"]).sum()) == pytest.approx(0.2, abs=1e-15)
    assert cwlkit.evaluate(q, r, ["P@10"]).per_topic("P@10")["T1"] == pytest.approx(0.2)
    rr = cwlkit.cwl_vectors(q, r, "RR", "T1")
    assert float((rr["W"][: len(rr["gain"])] * rr["gain"]).sum()) == pytest.approx(
        cwlkit.evaluate(q, r, ["RR"]).per_topic("RR")["T1"], abs=1e-15
    )


def test_binary_measures_have_their_cwl_form():
    """P@k and RR are C/W/L metrics on binary gains: asked for C/W/L columns they get those of
    P_cwl@k / RR_cwl with gain binary:rel, whose EU is their own value (checked on Web 2012)."""
    run = WEB / "runs" / "web2012.rm.cata.run.gz"
    ms = ["P@10", "P(rel=2)@10", "RR"]
    res = cwlkit.evaluate(QRELS, run, ms, cwl_columns=True)
    for m, form, spec in [
        ("P@10", "P_cwl@10", "binary:1"),
        ("P(rel=2)@10", "P_cwl@10", "binary:2"),
        ("RR", "RR_cwl", "binary"),
    ]:
        ref = cwlkit.evaluate(QRELS, run, [form], gain=spec)
        got = np.array(list(res.per_topic(m).values()))
        np.testing.assert_allclose(got, ref.values[0], rtol=0, atol=1e-12)
        for c in ("ETU", "EC", "ETC", "ED"):
            assert res.per_topic(m, c) == ref.per_topic(form, c)
    assert "ED" not in cwlkit.evaluate(QRELS, run, ms).columns  # only when asked for
    # RBP(rel=R) is RBP on the same binary gains
    a = cwlkit.evaluate(QRELS, run, ["RBP(p=0.8,rel=2)"]).values
    b = cwlkit.evaluate(QRELS, run, ["RBP(p=0.8)"], gain="binary:2").values
    np.testing.assert_array_equal(a, b)


def test_cutoffs_computed_together_equal_each_alone():
    """nDCG@k, AP@k, P@k and R@k share one call per measure (Measure.group_key), in any order
    and beside other measures; each value equals that measure evaluated on its own."""
    names = ["nDCG@10", "P@20", "nDCG@5", "AP@100", "P@5", "AP", "R@1000", "AP@5", "nDCG@1000"]
    together = cwlkit.evaluate(QRELS, RUNS[0], names)
    for name in names:
        alone = cwlkit.evaluate(QRELS, RUNS[0], [name])
        np.testing.assert_array_equal(together.per_topic(name), alone.per_topic(name))
    got = [m.group_key() for m in cwlkit.Evaluator(QRELS, names).measures]
    assert got[0] == got[2] == got[-1] and got[1] == got[4] and got[5] is None


def test_depth_then_judged_only_as_trec_eval(tmp_path, cli):
    """``depth`` and ``judged_only`` are trec_eval's ``-M`` and ``-J``, in its order: the
    ranking is cut to ``depth``, then its unjudged documents are dropped (the judged among
    the top 3 here: d2 alone; dropping first would keep d2 d4 d5)."""
    q = tmp_path / "q.txt"
    q.write_text("1 0 d2 1\n1 0 d4 1\n1 0 d5 1\n")
    r = tmp_path / "r.txt"
    r.write_text("".join(f"1 Q0 d{i} {i} {10 - i} t\n" for i in range(1, 6)))
    res = cwlkit.evaluate(q, r, ["P@5", "NumRet"], depth=3, judged_only=True)
    assert res.mean() == {"P@5": 0.2, "NumRet": 1.0}
    rc, out, _ = cli("trec_eval", "-M", "3", "-J", "-m", "P.5", "-m", "num_ret", q, r)
    assert rc == 0 and "P_5                   \tall\t0.2000\n" in out
    assert "num_ret               \tall\t1\n" in out


@pytest.mark.parametrize(
    ("call", "match"),
    [
        (lambda q, r: cwlkit.evaluate(q, r, []), "no measure to compute"),
        (lambda q, r: cwlkit.Evaluator(q, []).evaluate(r), "no measure to compute"),
        (lambda q, r: cwlkit.Evaluator(q, ["AP"], gain="bogus"), "--gain must be"),
        (lambda q, r: cwlkit.Evaluator(q, ["AP"]).evaluate(r, jobs=0), "jobs must be"),
        (lambda q, r: cwlkit.Evaluator(q, ["AP"]).evaluate_many([r, r], jobs=-1), "jobs must"),
        (
            lambda q, r: (
                cwlkit.evaluate(q, [r, r], ["AP"])
                and None
                or cwlkit.Evaluator(q, ["AP"]).evaluate(r, jobs=True)
            ),
            "jobs must be",
        ),
    ],
)
def test_options_refused_even_when_unused(call, match):
    """An empty measure list, an unknown gain mapping and jobs below 1 are errors whether or
    not the evaluation would have read them (they were accepted when unused)."""
    with pytest.raises(ParamError, match=match):
        call(cwlkit.example("qrels"), cwlkit.example("run"))


def test_a_batch_needs_no_measure():
    batch = cwlkit.Evaluator(cwlkit.example("qrels"), []).batch(cwlkit.example("run"))
    assert batch.n_topics == 2


def test_one_default_gain_everywhere(cli):
    """``gain="auto"`` is the default of the API and of every subcommand, so a C/W/L measure
    gives the same number whatever the path: graded qrels (Web 2012, -2..4) are divided by
    their largest label, gains in [0, 1] (the bundled example) are kept."""
    web = DATA / "web2012"
    q, r = web / "qrels.web.151-200.txt", web / "runs" / "web2012.ql.cata.run.gz"
    api = cwlkit.evaluate(q, r, ["RBP(p=0.8)"], topics="run", trec_version=10)
    linear = cwlkit.evaluate(q, r, ["RBP(p=0.8)"], topics="run", trec_version=10, gain="linear")
    assert api.values.tobytes() == linear.values.tobytes()
    rc, out, _ = cli("cwl", q, r, "-M", "RBP(p=0.8)")
    first = out.splitlines()[0].split("\t")
    assert rc == 0 and first[0] == api.topics[0] and first[2] == f"{api.values[0, 0]:.4f}"
    rc, out, _ = cli("evaluate", q, r, "-m", "RBP(p=0.8)", "-f", "json")
    assert json.loads(out)[0]["RBP(p=0.8)"] == pytest.approx(
        cwlkit.evaluate(q, r, ["RBP(p=0.8)"]).mean()["RBP(p=0.8)"], abs=0
    )
    ex = cwlkit.evaluate(cwlkit.example("qrels"), cwlkit.example("run"), ["RBP(p=0.8)"])
    kept = cwlkit.evaluate(
        cwlkit.example("qrels"), cwlkit.example("run"), ["RBP(p=0.8)"], gain="identity"
    )
    assert ex.values.tobytes() == kept.values.tobytes()


@pytest.mark.parametrize("form", ["dict", "frame", "file"])
def test_no_shared_topic_is_one_error_on_every_path(form, tmp_path):
    """The numpy path (dicts, frames) and the columnar path (files) raise the same
    NoTopicsError with the same message."""
    import pandas as pd

    from cwlkit.errors import NoTopicsError

    qrels = {"1": {"a": 1}}
    run: object = {"2": {"a": 1.0}}
    if form == "frame":
        run = pd.DataFrame({"query_id": ["2"], "doc_id": ["a"], "score": [1.0]})
    elif form == "file":
        (tmp_path / "r").write_text("2 Q0 a 1 1.0 x\n")
        run = str(tmp_path / "r")
    with pytest.raises(NoTopicsError, match="share no topic"):
        cwlkit.evaluate(qrels, run, ["AP"])


def test_evaluators_without_options_share_the_default_options_checked_once():
    """A training loop that makes an Evaluator per call checks the default options once;
    they are frozen, so sharing them changes nothing, and options given are still checked."""
    from dataclasses import FrozenInstanceError

    from cwlkit.plan.options import Options

    q = {"q1": {"d1": 1}}
    a, b = cwlkit.Evaluator(q, ["AP"]), cwlkit.Evaluator(q, ["AP"])
    assert a.options is b.options and a.options == Options()
    with pytest.raises(FrozenInstanceError):
        a.options.depth = 3  # type: ignore[misc]
    with pytest.raises(cwlkit.ParamError, match="topics must be one of"):
        cwlkit.Evaluator(q, ["AP"], topics="some")
    assert cwlkit.Evaluator(q, ["AP"], depth=3).options.depth == 3


def test_evaluate_call_options_are_checked():
    """The keywords of Evaluator.evaluate / evaluate_many and cwl_vectors follow the option
    contract: a truthy string is not a progress flag, a float is not a horizon."""
    q, r = {"q": {"a": 1, "b": 1}}, {"q": {"a": 0.9, "x": 0.5, "b": 0.1}}
    ev = cwlkit.Evaluator(q, ["AP"])
    for call in (lambda: ev.evaluate(r, progress="no"), lambda: ev.evaluate_many([r], progress=1)):
        with pytest.raises(ParamError, match=r"^progress must be True, False or None; got "):
            call()
    with pytest.raises(ParamError, match=r"^name must be a str or None; got 3$"):
        ev.evaluate(r, name=3)
    with pytest.raises(
        ParamError, match=r"^horizon must be an integer from 1 to 1000000 or None; got 2.5$"
    ):
        cwlkit.cwl_vectors(cwlkit.example("qrels"), cwlkit.example("run"), "RBP", "T1", horizon=2.5)
    assert ev.evaluate(r, progress=False, name="x").mean() == {"AP": pytest.approx(5 / 6)}


def test_cwl_vectors_horizon_is_bounded():
    """A horizon of 2^40 ranks would allocate terabytes (the generated bad-input test's
    slow tier was killed for memory): past a million ranks it is refused."""
    import cwlkit
    from cwlkit.errors import ParamError

    q, r = cwlkit.example("qrels"), cwlkit.example("run")
    with pytest.raises(ParamError, match=r"^horizon must be an integer from 1 to 1000000"):
        cwlkit.cwl_vectors(q, r, "RBP", "T1", horizon=2**40)
    assert len(cwlkit.cwl_vectors(q, r, "RBP", "T1", horizon=50)["W"]) == 50
