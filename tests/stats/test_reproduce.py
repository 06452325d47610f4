"""Reproducibility measures (stats/reproduce.py): equal, to the bit, to the repro_eval
package (Breuer et al., SIGIR 2020) on TREC Web 2012 runs (category A runs as the original
experiment, category B runs as its "reproduction"); by hand on small cases; one-line errors."""

from __future__ import annotations

import gzip
import json
import math
import warnings

import numpy as np
import pytest
from conftest import DATA

import cwlkit
from cwlkit.errors import NoTopicsError, ParamError
from cwlkit.stats.reproduce import reproducibility

WEB = DATA / "web2012"
MEASURES = ["AP", "nDCG@10", "P@10"]


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    """Plain copies of the runs (repro_eval reads plain text) and the qrels."""
    folder = tmp_path_factory.mktemp("repro")
    out = {"q": str(WEB / "qrels.web.151-200.txt")}
    for key, name in (("ob", "ql.cata"), ("oa", "rm.cata"), ("rb", "ql.catb"), ("ra", "rm.catb")):
        path = folder / f"{name}.run"
        path.write_bytes(gzip.decompress((WEB / "runs" / f"web2012.{name}.run.gz").read_bytes()))
        out[key] = str(path)
    return out


@pytest.mark.slow
@pytest.mark.parametrize("k", [10, 100])
def test_equal_to_repro_eval(files, k):
    """repro_eval trims every run to k documents before it scores them, so cwlkit scores
    them at depth k (trec_eval's -M); KTU@k and RBO@k (depth k), RMSE, ER, DeltaRI and the
    paired t-tests' p are then equal to the bit."""
    pytest.importorskip("repro_eval")
    from repro_eval.Evaluator import RpdEvaluator

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        rpd = RpdEvaluator(
            qrels_orig_path=files["q"],
            run_b_orig_path=files["ob"],
            run_a_orig_path=files["oa"],
            run_b_rep_path=files["rb"],
            run_a_rep_path=files["ra"],
        )
        rpd.trim(k)
        rpd.evaluate()
        ref = {
            "ktu": rpd.ktu(per_topic=True) if k == 10 else None,
            "rbo": rpd.rbo(depth=k, per_topic=True),
            "rmse": rpd.rmse(),
            "er": rpd.er(),
            "dri": rpd.dri(),
            "p": rpd.ttest(),
        }
    got = reproducibility(
        files["q"],
        files["ob"],
        files["rb"],
        files["oa"],
        files["ra"],
        measures=MEASURES,
        cutoffs=[k],
        depth=k,
    )
    for run in ("baseline", "advanced"):
        rbo = dict(zip(got.topics, got.rbo[run][0].tolist(), strict=True))
        assert rbo == ref["rbo"][run]
        if ref["ktu"] is not None:
            ktu = dict(zip(got.topics, got.ktu[run][0].tolist(), strict=True))
            assert ktu == ref["ktu"][run]
        for m in MEASURES:
            assert got.rmse[run][m] == ref["rmse"][run][m], (run, m)
            assert got.p_value[run][m] == ref["p"][run][m], (run, m)
    for m in MEASURES:
        assert got.er[m] == ref["er"][m] and got.delta_ri[m] == ref["dri"][m], m


def test_document_order_by_hand():
    """o = a b c d, r = b a d c: u = a0 b1 c2 d3, KTU = tau(0 1 2 3, 1 0 3 2) = (4 - 2) / 6;
    RBO@2 with p = 0.5: (1 * 0/1 + 0.5 * 2/2) / 1.5 = 1/3."""
    q = {"1": {"a": 1}}
    o = {"1": {"a": 4, "b": 3, "c": 2, "d": 1}}
    r = {"1": {"b": 4, "a": 3, "d": 2, "c": 1}}
    got = reproducibility(q, o, r, measures=["P@2"], cutoffs=[2, 4], p=0.5)
    assert got.ktu["baseline"][:, 0].tolist() == [-1.0, round(2 / 6, 14)]
    assert got.rbo["baseline"][0, 0] == pytest.approx(1 / 3, abs=1e-15)
    # the same run reproduces itself exactly
    same = reproducibility(q, o, o, measures=["P@2"], cutoffs=[3])
    assert same.ktu["baseline"][0, 0] == 1.0 and same.rbo["baseline"][0, 0] == 1.0
    assert same.rmse["baseline"]["P@2"] == 0.0 and same.p_value["baseline"]["P@2"] == 1.0


def test_effects_by_hand():
    q = {"1": {"a": 1}, "2": {"b": 1}}
    ob = {"1": {"x": 1.0}, "2": {"x": 1.0}}  # P@1 0, 0
    oa = {"1": {"a": 1.0}, "2": {"b": 1.0}}  # 1, 1
    ra = {"1": {"a": 1.0}, "2": {"x": 1.0}}  # 1, 0
    rb = {"1": {"x": 1.0}, "2": {"b": 1.0}}  # 0, 1
    got = reproducibility(q, ob, rb, oa, ra, measures=["P@1"], cutoffs=[1])
    # improvements: original 1 and 1 (mean 1), reproduced 1 and -1 (mean 0): ER = 0
    assert got.er["P@1"] == 0.0
    # RI: the original baseline's mean is 0, so RI is infinite and DeltaRI too
    assert math.isinf(got.delta_ri["P@1"]) or math.isnan(got.delta_ri["P@1"])
    rows = got.rows()
    assert {"run": "", "measure": "ER P@1", "value": 0.0} in rows


def test_replicability_is_unpaired():
    q = {"1": {"a": 1}, "2": {"b": 1}}
    q2 = {"7": {"c": 1}, "8": {"d": 1}, "9": {"e": 1}}
    o = {"1": {"a": 1.0, "x": 0.5}, "2": {"x": 1.0, "b": 0.5}}
    r = {"7": {"c": 1.0}, "8": {"x": 1.0}, "9": {"e": 1.0}}
    got = reproducibility(q, o, r, measures=["P@1", "RR"], rep_qrels=q2)
    from scipy import stats

    assert got.p_value["baseline"]["RR"] == stats.ttest_ind([1.0, 0.5], [1.0, 0.0, 1.0]).pvalue
    assert not got.ktu and not got.rmse and not got.paired


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"cutoffs": [0]}, r"^cutoffs must be an integer from 1 to 100000; got 0$"),
        ({"cutoffs": "x"}, r"cutoffs must be"),
        ({"p": 1.5}, r"^p must be a number in \(0, 1\); got 1.5$"),
        ({"orig_advanced": {"1": {"a": 1.0}}}, r"give both advanced runs"),
    ],
)
def test_bad_options(kwargs, match):
    q = {"1": {"a": 1}}
    run = {"1": {"a": 1.0}}
    with pytest.raises(ParamError, match=match):
        reproducibility(q, run, run, **kwargs)


def test_no_common_topic():
    with pytest.raises(NoTopicsError):
        reproducibility({"1": {"a": 1}, "2": {"b": 1}}, {"1": {"a": 1.0}}, {"2": {"b": 1.0}})


def test_top_level_name():
    assert cwlkit.reproducibility is reproducibility
    json.dumps(reproducibility({"1": {"a": 1}}, {"1": {"a": 1.0}}, {"1": {"a": 1.0}}).rows())
    assert np.isnan(
        reproducibility({"1": {"a": 1}}, {"1": {"a": 1.0}}, {"1": {"a": 1.0}}).ktu["baseline"][0, 0]
    )
