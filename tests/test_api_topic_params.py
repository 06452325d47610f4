"""Evaluator options for the INST paper's tool: per-topic parameters and compat='inst_eval'."""

from __future__ import annotations

import numpy as np
import pytest

import cwlkit
from cwlkit.errors import FormatError, ParamError
from cwlkit.io.trec import Qrels, Run

QRELS = Qrels.from_records(
    [("1", "a", 1), ("1", "b", 0), ("1", "c", 2), ("2", "a", 2), ("2", "d", 1), ("3", "e", 0)]
)
RUN = Run.from_records(
    [("1", "a", 3), ("1", "b", 2), ("1", "x", 1), ("2", "d", 2), ("2", "a", 1), ("3", "e", 1)]
)


def scores(measure, **options):
    res = cwlkit.evaluate(QRELS, RUN, [measure], gain="linear", residuals=True, **options)
    return res.values[0], res.columns["ResEU"][0], res


def test_per_topic_T_equals_separate_evaluations():
    tmap = {"1": 2, "2": 0.5, "3": 7}
    lo, rs, res = scores("INST", topic_params={"T": tmap})
    assert res.measures == ["INST(T=1)"] and res.topics == ["1", "2", "3"]
    for j, t in enumerate(res.topics):
        lo_t, rs_t, _ = scores(f"INST(T={tmap[t]})")
        assert lo[j] == lo_t[j] and rs[j] == rs_t[j]
    assert res.mean()["INST(T=1)"] == pytest.approx(lo.mean())


def test_topics_without_a_value_keep_the_measures_own():
    lo, _, _ = scores("INST(T=3)", topic_params={"T": {"2": 1}})
    own, _, _ = scores("INST(T=3)")
    one, _, _ = scores("INST(T=1)")
    assert lo.tolist() == [own[0], one[1], own[2]]


def test_per_topic_values_from_a_file(tmp_path):
    p = tmp_path / "t.tsv"
    p.write_text("# topic T\n1\t2\n\n2 0.5\n")
    a, _, _ = scores("INST", topic_params={"T": p})
    b, _, _ = scores("INST", topic_params={"T": {"1": 2, "2": 0.5}})
    assert a.tolist() == b.tolist()
    p.write_text("1\t2\n1\t3\n")
    with pytest.raises(FormatError, match="t.tsv:2: topic '1' is given twice"):
        scores("INST", topic_params={"T": p})
    p.write_text("1\tx\n")
    with pytest.raises(FormatError, match="t.tsv:1: T must be a finite number"):
        scores("INST", topic_params={"T": p})


def test_other_measures_and_integer_parameters():
    # P@k's k per topic (converted to an integer); measures without the parameter unchanged
    res = cwlkit.evaluate(QRELS, RUN, ["P@1", "AP"], topic_params={"k": {"1": 3}})
    assert res.values[0].tolist() == [1 / 3, 1.0, 0.0]
    plain = cwlkit.evaluate(QRELS, RUN, ["AP"])
    assert res.values[1].tolist() == plain.values[0].tolist()


def test_topic_params_errors():
    with pytest.raises(ParamError, match="no measure has a parameter 'p'"):
        scores("INST", topic_params={"p": {"1": 0.5}})
    with pytest.raises(ParamError, match="must be a finite number"):
        scores("INST", topic_params={"T": {"1": "many"}})
    with pytest.raises(ParamError, match="mapping"):
        scores("INST", topic_params={"T": [1, 2]})
    with pytest.raises(ParamError, match="'T' parameter of INST"):
        scores("INST", topic_params={"T": {"1": -1}})


def test_compat_inst_eval_options():
    with pytest.raises(ParamError, match="compat must be"):
        cwlkit.Evaluator(QRELS, ["INST"], compat="cwl_eval")
    with pytest.raises(ParamError, match="computes INST only"):
        scores("RBP(p=0.5)", compat="inst_eval")
    # -n 0 is inst_eval.py's (every rank past the depth); not a depth otherwise
    lo, rs, _ = scores("INST", compat="inst_eval", compat_depth=0, order="file")
    assert lo.tolist() == [0.0, 0.0, 0.0] and np.allclose(lo + rs, 1.0)
    with pytest.raises(ParamError):
        scores("INST", compat_depth=0)


def test_compat_inst_eval_negative_labels_and_marker():
    # largest label 2: label -1 is a gain of -0.5 (kept); label -2 would be -1.0, inst_eval's
    # marker of an unjudged document
    q = Qrels.from_records([("1", "a", -1), ("1", "b", 2), ("1", "c", -2)])
    r = Run.from_records([("1", "a", 3), ("1", "b", 2), ("1", "c", 1)])
    run_c = Run.from_records([("1", "c", 3), ("1", "b", 2)])
    run_x = Run.from_records([("1", "x", 3), ("1", "b", 2)])
    opts = dict(compat="inst_eval", order="file", residuals=True)
    paper = cwlkit.evaluate(q, r, ["INST"], gain="linear")
    compat = cwlkit.evaluate(q, r, ["INST"], **opts)
    assert compat.values[0, 0] < paper.values[0, 0]  # -0.5 counts against it
    c = cwlkit.evaluate(q, run_c, ["INST"], **opts)
    x = cwlkit.evaluate(q, run_x, ["INST"], **opts)  # x: really unjudged
    assert c.values[0, 0] == x.values[0, 0]
    assert c.columns["ResEU"][0, 0] == x.columns["ResEU"][0, 0]
