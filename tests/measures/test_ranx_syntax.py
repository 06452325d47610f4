"""ranx's spellings (measures/ranx_syntax.py): each resolves to the cwlkit measure with
ranx's definition, checked against ranx 0.3.21's own numbers (computed with ranx in a
separate environment; ranx is not a dependency), or is refused naming what to ask for."""

from __future__ import annotations

import pytest
from conftest import DATA

import cwlkit
from cwlkit.errors import UnknownMeasureError
from cwlkit.measures.parse import parse_measure

WEB = DATA / "web2012"

#: ranx.evaluate(Qrels.from_file(qrels, kind="trec"), Run.from_file(run, kind="trec"), ...)
#: on Web 2012's qrels and the run web2012.ql.cata.run: the mean over its 50 topics
RANX_QL_CATA = {
    "hit_rate@10": 0.42,
    "mrr": 0.27641253490320855,
    "mrr@10": 0.25766666666666665,
    "f1": 0.05312771160286541,
    "ndcg_burges@10": 0.04536298736520627,
    "ndcg_burges@20": 0.04947762605885699,
}


@pytest.mark.parametrize(
    ("ranx", "ours"),
    [
        ("hit_rate@10", "Success@10"),
        ("HIT_RATE@5", "Success@5"),
        ("mrr", "RR"),
        ("mrr@10", "RR@10"),
        ("f1", "F"),
        ("ndcg_burges@10", "nDCG(dcg='exp-log2')@10"),
    ],
)
def test_ranx_names_resolve(ranx, ours):
    assert parse_measure(ranx) == parse_measure(ours)


def test_ranx_values_on_web2012():
    res = cwlkit.evaluate(
        WEB / "qrels.web.151-200.txt",
        WEB / "runs" / "web2012.ql.cata.run.gz",
        list(RANX_QL_CATA),
        trec_version=10,  # (ranx ranks by the double-precision score)
    )
    assert len(res.topics) == 50
    for name, value in zip(RANX_QL_CATA, res.mean().values(), strict=True):
        assert value == pytest.approx(RANX_QL_CATA[name], abs=1e-12), name


def test_a_short_run_ranx_f1_at_k_is_not_f_at_k():
    """Three relevant documents, a run of two (a relevant, x not): ranx gives f1@10 =
    2 (1/10)(1/3) / (1/10 + 1/3) = 0.1538..., f1 = 0.4, ndcg_burges@10 = 1 / (1 + 1/log2(3)
    + 1/2) = 0.4692...; cwlkit's F@10 divides by the 2 documents retrieved: 0.4."""
    q, r = {"q1": {"a": 1, "b": 1, "c": 1}}, {"q1": {"a": 2.0, "x": 1.0}}
    res = cwlkit.evaluate(q, r, ["f1", "F@10", "ndcg_burges@10", "hit_rate@1", "mrr@10"])
    assert res.mean() == pytest.approx(
        {
            "F": 0.4,
            "F@10": 0.4,
            "nDCG(dcg='exp-log2')@10": 0.46927872602275644,
            "Success@1": 1.0,
            "RR@10": 1.0,
        },
        abs=1e-15,
    )
    with pytest.raises(UnknownMeasureError, match=r"^unknown measure 'f1@10'; ranx's f1@k"):
        parse_measure("f1@10")


@pytest.mark.parametrize(
    ("text", "hint"),
    [
        ("f1@10", "ask for 'F@10'"),
        ("hit_rate", "ask for Success@k with k at least the runs' length"),
        ("ndcg_burges", "ask for \"nDCG(dcg='exp-log2')@k\""),
    ],
)
def test_ranx_forms_without_an_equal_measure_are_refused_with_the_one_to_ask_for(text, hint):
    with pytest.raises(UnknownMeasureError, match=f"^unknown measure '{text}'; ranx's") as e:
        parse_measure(text)
    assert hint in str(e.value)
