"""cwlkit.optimize_fusion: the grid, the cross-validation, the in-sample score (checked
against fusing and evaluating each configuration by hand)."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import DATA

import cwlkit

Q = {"q1": {"d1": 1}, "q2": {"d4": 1}, "q3": {"d5": 1}}
A = {"q1": {"d1": 2.0, "d2": 1.0}, "q2": {"d3": 2.0, "d4": 1.0}, "q3": {"d5": 1.0, "d7": 0.5}}
B = {"q1": {"d2": 2.0, "d1": 1.0}, "q2": {"d4": 2.0, "d3": 1.0}, "q3": {"d6": 1.0, "d5": 0.5}}


def test_small_case_by_hand():
    opt = cwlkit.optimize_fusion(Q, [A, B], "wsum", "AP", folds=3, step=0.5)
    # 8 weight pairs of {0, .5, 1}^2 minus (0, 0)
    assert len(opt.configs) == 8
    # A alone: AP 1, 1/2, 1 -> 5/6; B alone: 1/2, 1, 1/2 -> 2/3
    assert opt.in_sample == pytest.approx(5 / 6)
    assert opt.params == {"weights": [0.5, 0.0]}
    # each fold chooses on two topics and scores the third
    assert len(opt.folds) == 3
    assert sorted(t for f in opt.folds for t in f["topics"]) == ["q1", "q2", "q3"]
    assert opt.held_out == pytest.approx(np.mean([f["held_out"] for f in opt.folds]))
    assert opt.held_out <= opt.in_sample


def test_scores_equal_fusing_and_evaluating_each_configuration():
    qrels = DATA / "web2012" / "qrels.web.151-200.txt"
    runs = [DATA / "web2012" / "runs" / f"web2012.{n}.run.gz" for n in ("ql.cata", "rm.cata")]
    opt = cwlkit.optimize_fusion(qrels, runs, "rrf", "nDCG@10", grid={"k": [10, 60]})
    for config, score in zip(opt.configs, opt.scores, strict=True):
        fused = cwlkit.fuse(runs, "rrf", **config)
        res = cwlkit.evaluate(qrels, fused, ["nDCG@10"])
        assert score == pytest.approx(res.mean()["nDCG@10"], abs=1e-12)
    assert opt.in_sample == max(opt.scores)
    # the held-out score: every topic scored by a fold's choice made without it
    assert opt.held_out <= opt.in_sample + 1e-12


def test_learned_method_learns_per_fold():
    qrels = DATA / "web2012" / "qrels.web.151-200.txt"
    runs = [DATA / "web2012" / "runs" / f"web2012.{n}.run.gz" for n in ("ql.cata", "rm.cata")]
    opt = cwlkit.optimize_fusion(qrels, runs, "probfuse", "AP", grid={"n_segments": [10]})
    full = cwlkit.fuse(runs, "probfuse", train_qrels=qrels, n_segments=10)
    assert opt.in_sample == pytest.approx(cwlkit.evaluate(qrels, full, ["AP"]).mean()["AP"])
    assert opt.held_out != opt.in_sample  # learned without the held-out topics


def test_errors():
    with pytest.raises(cwlkit.ParamError, match="folds must be at most the 3 topics"):
        cwlkit.optimize_fusion(Q, [A, B], "rrf", "AP", folds=4)
    with pytest.raises(cwlkit.ParamError, match="weight combinations"):
        cwlkit.optimize_fusion(Q, [A] * 6, "wsum", "AP", step=0.1)
    with pytest.raises(cwlkit.CwlkitError, match="share no topic"):
        cwlkit.optimize_fusion({"zz": {"a": 1}}, [A, B], "rrf", "AP")
    with pytest.raises(cwlkit.ParamError, match="does not take"):
        cwlkit.optimize_fusion(Q, [A, B], "rrf", "AP", grid={"phi": [0.5]})
