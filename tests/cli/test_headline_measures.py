"""Without -m, evaluate, compare and report compute the headline measures
(cwlkit.measures.registry.HEADLINE_MEASURES, declared once), and each --help names them.

Before, evaluate stopped with "the following arguments are required: -m", and compare and
report with "name at least one measure with -m"."""

from __future__ import annotations

import csv
import io

import pytest
from conftest import DATA

import cwlkit
from cwlkit.api import parse_list
from cwlkit.measures.registry import HEADLINE_MEASURES

WEB = DATA / "web2012"
QRELS = str(WEB / "qrels.web.151-200.txt")
RUNS = [str(WEB / "runs" / f"web2012.{n}.run.gz") for n in ("ql.cata", "rm.cata")]


def test_the_set():
    assert HEADLINE_MEASURES == ("AP", "nDCG@10", "P@10", "RR")
    # canonical names: the headers print them as declared
    assert [m.name for m in parse_list(list(HEADLINE_MEASURES))] == list(HEADLINE_MEASURES)


@pytest.mark.parametrize("sub", ["evaluate", "compare", "report"])
def test_help_names_the_headline_measures(sub):
    import importlib

    parser = importlib.import_module(f"cwlkit.cli.{sub}").build_parser()
    text = " ".join(parser.format_help().split())  # argparse wraps the help
    assert f"default: the headline measures {' '.join(HEADLINE_MEASURES)}" in text


def _header(out: str) -> list[str]:
    return next(csv.reader(io.StringIO(out)))


def test_evaluate_without_m(cli):
    rc, out, err = cli("evaluate", QRELS, *RUNS, "-f", "csv", "--quiet")
    assert rc == 0, err
    assert _header(out) == ["run", *HEADLINE_MEASURES]
    # the same numbers as naming them
    rc, named, _ = cli("evaluate", QRELS, *RUNS, "-m", *HEADLINE_MEASURES, "-f", "csv", "--quiet")
    assert out == named


def test_compare_without_m(cli):
    rc, out, err = cli("compare", QRELS, *RUNS, "-f", "json")
    assert rc == 0, err
    import json

    assert json.loads(out)["measures"] == list(HEADLINE_MEASURES)


def test_report_without_m(cli):
    rc, out, err = cli("report", QRELS, *RUNS, "-f", "csv")
    assert rc == 0, err
    measures = list(dict.fromkeys(r["measure"] for r in csv.DictReader(io.StringIO(out))))
    assert measures == list(HEADLINE_MEASURES)
    rep = cwlkit.report(QRELS, RUNS, curves=False)
    assert rep.table.measures == list(HEADLINE_MEASURES)
