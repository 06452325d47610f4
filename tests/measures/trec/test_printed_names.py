"""Every name trec_eval prints is a name of its measure: parsed back, it gives the measure
that trec_eval_name prints under that name (users copy names from trec_eval's output)."""

from __future__ import annotations

import pytest

from cwlkit.errors import UnknownMeasureError
from cwlkit.measures.parse import parse_measure
from cwlkit.measures.trec.registered import trec_eval_name
from cwlkit.measures.trec.select import trec_eval_names

PRINTED = [n for n in trec_eval_names(["all_trec"]) if n not in ("runid", "relstring")]


@pytest.mark.parametrize("name", PRINTED)
def test_a_printed_name_parses_to_the_measure_printed_under_it(name):
    assert trec_eval_name(parse_measure(name)) == name


@pytest.mark.parametrize(
    ("name", "canonical"),
    [
        ("P_10", "P@10"),
        ("ndcg_cut_10", "nDCG@10"),
        ("iprec_at_recall_0.10", "IPrec@0.1"),
        ("map_cut_100", "AP@100"),
        ("Rprec_mult_0.20", "Rprec_mult@0.2"),
        ("utility_2,-1,0,0", "Utility(a=2)"),
    ],
)
def test_printed_names_of_parameterised_measures(name, canonical):
    assert parse_measure(name) == parse_measure(canonical)


@pytest.mark.parametrize("name", ["P_", "P_x", "num_rel_x", "_10"])
def test_other_underscored_names_stay_unknown(name):
    with pytest.raises(UnknownMeasureError):
        parse_measure(name)
