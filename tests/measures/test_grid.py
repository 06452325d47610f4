"""Parameter grids ``NAME(param=start:stop:step)``: one syntax, expanded by the one parser, so
the API, ``cwlkit evaluate -m``, ``cwlkit cwl -M`` and ``cwlkit fit`` read them alike."""

from __future__ import annotations

from decimal import Decimal

import numpy as np
import pytest
from conftest import DATA

import cwlkit
from cwlkit.errors import ParamError
from cwlkit.measures import grid
from cwlkit.measures.parse import parse_measures

QRELS = DATA / "web2012" / "qrels.web.151-200.txt"
RUN = DATA / "web2012" / "runs" / "web2012.ql.catb.run.gz"


def test_values_are_exact_decimals_and_stop_is_included():
    got = grid.expand("RBP(p=0.1:0.95:0.05)")
    assert [v for _, v in got] == [Decimal("0.1") + i * Decimal("0.05") for i in range(18)]
    assert got[-1][0] == "RBP(p=0.95)"  # reached exactly: included
    assert [t for t, _ in grid.expand("RBP(p=0.1:0.9:0.2)")] == [
        "RBP(p=0.1)",
        "RBP(p=0.3)",
        "RBP(p=0.5)",
        "RBP(p=0.7)",
        "RBP(p=0.9)",
    ]
    assert [t for t, _ in grid.expand("RBP(p=0.1:0.8:0.3)")] == [
        "RBP(p=0.1)",
        "RBP(p=0.4)",
        "RBP(p=0.7)",
    ]
    assert grid.expand("RBP(p=0.8)") is None
    assert grid.expand_grid("RBP(p=0.8)") == ["RBP(p=0.8)"]
    # 0.05 + 17 * 0.01 in binary is 0.22000000000000003; the grid value is 0.22
    assert [m.name for m in parse_measures("RBP(p=0.05:0.95:0.01)")][17] == "RBP(p=0.22)"


def test_quoted_text_is_not_a_grid():
    assert grid.find_ranges("nDCG(gains='1:2:3')") == []
    assert grid.find_ranges('X(a="0.1:0.2:0.1", b=1:3:1)')[0][2] == ("1", "3", "1")


def test_api_grid_equals_the_measures_written_out():
    spelled = ["RBP(p=0.1)", "RBP(p=0.3)", "RBP(p=0.5)", "RBP(p=0.7)", "RBP(p=0.9)", "P@5", "P@10"]
    a = cwlkit.evaluate(QRELS, RUN, ["RBP(p=0.1:0.9:0.2)", "P@5:10:5"], gain="linear")
    b = cwlkit.evaluate(QRELS, RUN, spelled, gain="linear")
    assert a.measures == b.measures == spelled
    np.testing.assert_array_equal(a.values, b.values)
    assert len(cwlkit.Evaluator(QRELS, "RBP(p=0.1:0.9:0.2)").measures) == 5


def test_parse_grid_is_the_one_grid_syntax():
    from cwlkit.measures.parse import parse_grid
    from cwlkit.stats import fit

    assert fit.parse_grid is parse_grid
    ms, par, values = parse_grid("INST(T=0.5:2:0.5)")
    assert par == "T" and values.tolist() == [0.5, 1.0, 1.5, 2.0]
    assert ms == parse_measures("INST(T=0.5:2:0.5)")


def _rows(text: str) -> list[str]:
    return [ln for ln in text.splitlines() if ln]


def test_cwl_cli_grid(cli, tmp_path):
    rc, grid_out, err = cli("cwl", "--example", "-M", "RBP(p=0.2:0.6:0.2)", "-M", "INST(T=1:2:1)")
    assert rc == 0, err
    rc, plain, _ = cli(
        "cwl",
        "--example",
        *("-M", "RBP(p=0.2)", "-M", "RBP(p=0.4)", "-M", "RBP(p=0.6)"),
        *("-M", "INST(T=1)", "-M", "INST(T=2)"),
    )
    assert rc == 0 and grid_out == plain and len(_rows(plain)) == 2 * 5
    # cwl_eval's class spelling keeps cwl_eval's printed names
    rc, out, _ = cli("cwl", "--example", "-M", "RBPCWLMetric(0.2:0.6:0.2)")
    assert rc == 0 and [r.split("\t")[1] for r in _rows(out)][:3] == [
        "RBP@0.2",
        "RBP@0.4",
        "RBP@0.6",
    ]
    # a metrics file line may be a grid
    f = tmp_path / "metrics"
    f.write_text("RBPCWLMetric(0.2:0.6:0.2)\n")
    rc, from_file, _ = cli("cwl", "--example", "-m", str(f))
    assert rc == 0 and from_file == out


def test_evaluate_cli_grid(cli):
    rc, a, err = cli("evaluate", QRELS, RUN, "-m", "RBP(p=0.1:0.9:0.2) P@5:10:5", "-f", "tsv")
    assert rc == 0, err
    rc, b, _ = cli(
        "evaluate",
        QRELS,
        RUN,
        "-m",
        "RBP(p=0.1) RBP(p=0.3) RBP(p=0.5) RBP(p=0.7) RBP(p=0.9) P@5 P@10",
        "-f",
        "tsv",
    )
    assert rc == 0 and a == b


@pytest.mark.parametrize(
    "spec,msg",
    [
        ("RBP(p=0.1:0.9:0)", "step must be positive"),
        ("RBP(p=0.9:0.1:0.1)", "above its stop"),
        ("RBP(p=x:0.9:0.1)", "must be numbers"),
        ("RBP(p=0.5:1.5:0.5)", "in the grid"),
    ],
)
def test_grid_errors_are_one_line(cli, spec, msg):
    with pytest.raises(ParamError, match=msg):
        parse_measures(spec)
    for args in (("cwl", "--example", "-M", spec), ("evaluate", QRELS, RUN, "-m", spec)):
        rc, out, err = cli(*args)
        assert rc == 2 and out == "" and msg in err and err.count("\n") == 1
