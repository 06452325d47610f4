"""The reader contract (:mod:`cwlkit.io.rules`, docs/inputs.md): every difference the table
lists is real, and what it says is the same everywhere is.

Each subcommand is run on files holding one difference (a 7th run field, a ``#`` line in the
qrels or the run, a label that is not a number, a label beyond 2^53) and must accept or
refuse it as the rule set it uses says. The references for the anchors' own behaviour are in
their tests: trec_eval's C outputs in tests/measures/trec/test_atol_labels.py, cwl_eval,
ndeval (pyndeval's ndeval.c), gdeval.pl, inst_eval.py and rbp_eval in
tests/cli/test_no_shared_topics.py.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pyarrow as pa
import pytest

from cwlkit.errors import FormatError
from cwlkit.io.rules import DEFAULT, RULES, reading_rules

QRELS = "1 0 d1 1\n1 0 d2 0\n1 0 d3 2\n"
RUN = "1 Q0 d1 1 3 r\n1 Q0 d2 2 2 r\n1 Q0 d3 3 1 r\n"

#: each subcommand (its arguments before QRELS RUN) and the rule set it reads files by
SUBCOMMANDS = {
    "evaluate": (["evaluate", "-m", "P@2"], "cwlkit"),
    "cwl": (["cwl", "-M", "RBP(p=0.8)"], "cwlkit"),
    "gdeval": (["gdeval"], "cwlkit"),
    "inst_eval": (["inst_eval", "-T", "2"], "cwlkit"),
    "rbp_eval": (["rbp_eval", "-H"], "cwlkit"),
    "trec_eval": (["trec_eval"], "trec_eval"),
    "trec_eval_10": (["trec_eval", "--trec-version", "10"], "trec_eval_10"),
    "ndeval": (["ndeval"], "ndeval"),
}

#: the differences: (qrels, run, which rule attribute decides, the value that accepts)
CASES = {
    "run 7th field": (QRELS, RUN.replace(" r\n", " r extra\n"), "run_extra_fields", True),
    "qrels # line": ("# topic iter doc label\n" + QRELS, RUN, "qrels_comments", True),
    "run # line": (QRELS, "  # a comment\n" + RUN, "run_comments", "indented"),
    "label 2abc": (QRELS.replace("d3 2", "d3 2abc"), RUN, "labels", "atol"),
}


def _files(tmp_path: Path, qrels: str, run: str) -> tuple[Path, Path]:
    q, r = tmp_path / "q.txt", tmp_path / "r.txt"
    q.write_text(qrels)
    r.write_text(run)
    return q, r


@pytest.mark.parametrize("sub", list(SUBCOMMANDS))
@pytest.mark.parametrize("case", list(CASES))
def test_each_difference_is_real(cli, tmp_path, sub, case):
    args, rules = SUBCOMMANDS[sub]
    qrels, run, attr, accepting = CASES[case]
    q, r = _files(tmp_path, qrels, run)
    rc, out, err = cli(*args, q, r)
    if getattr(RULES[rules], attr) == accepting:
        assert rc == 0, err
        assert out
    else:
        assert rc != 0 and out == ""
        assert err.count("\n") == 1 and ("q.txt:" in err or "r.txt:" in err), err


def test_the_table_has_one_line_per_difference():
    """docs/inputs.md lists each rule set, and every attribute that tells them apart."""
    text = (Path(__file__).resolve().parents[2] / "docs" / "inputs.md").read_text()
    for name in RULES:
        assert f"`{name}`" in text
    differing = {
        a
        for a in ("qrels_comments", "run_comments", "run_extra_fields", "labels")
        if len({getattr(r, a) for r in RULES.values()}) > 1
    }
    assert differing == {c[2] for c in CASES.values()}


@pytest.mark.parametrize("sub", list(SUBCOMMANDS) + ["pool"])
@pytest.mark.parametrize("label", ["9007199254740993", "9223372036854775808", "-1e300"])
def test_labels_beyond_2_to_the_53_are_refused_everywhere(cli, tmp_path, sub, label):
    """2^63 was read by cwl (every RBP 0.0000), ndeval and pool; 2^53 + 1 was rounded."""
    if sub != "pool" and RULES[SUBCOMMANDS[sub][1]].labels == "atol" and "e" in label:
        label = "-1" + "0" * 300  # (atol reads -1e300 as -1: 300 digits, then)
    q, r = _files(tmp_path, QRELS.replace("d3 2", f"d3 {label}"), RUN)
    if sub == "pool":
        args = ["pool", "--strategy", "residual", "--qrels", q, r]
    else:
        args = [*SUBCOMMANDS[sub][0], q, r]
    rc, out, err = cli(*args)
    assert rc != 0 and out == ""
    assert "q.txt:3: expected a relevance label of magnitude at most 2^53" in err
    assert label in err


def test_2_to_the_53_itself_is_read():
    col = pa.array(["9007199254740992", "-9007199254740992"])
    got = DEFAULT.parse_labels("q", col, np.array([1, 2]))
    assert got.tolist() == [2.0**53, -(2.0**53)]


def test_in_memory_labels_too():
    import cwlkit

    with pytest.raises(FormatError, match="<records>:2: expected a relevance label"):
        cwlkit.as_qrels([("1", "a", 1), ("1", "b", 2**60)])


@pytest.mark.parametrize(
    "args",
    [
        ["cwl", "--gain", ""],
        ["evaluate", "-m", "RBP(p=0.8)", "--gain", ""],
    ],
)
def test_an_empty_gain_is_refused_alike(cli, tmp_path, args):
    """``cwl --gain ''`` used the default mapping; ``evaluate`` refused it."""
    q, r = _files(tmp_path, QRELS, RUN)
    rc, out, err = cli(*args, q, r)
    assert (rc, out) == (2, "")
    assert err == (
        "cwlkit: error: --gain must be identity, linear, exp, err, auto, binary[:R] or a "
        "table like '0:0,1:0.5,2:1'; got ''\n"
    )


def test_pool_refuses_an_empty_gain(cli, tmp_path):
    q, r = _files(tmp_path, QRELS, RUN)
    rc, out, err = cli("pool", "--strategy", "residual", "--qrels", q, "--gain", "", r)
    assert rc == 2 and out == "" and "--gain must be" in err


def test_one_spelling_of_indented_comments():
    from cwlkit.io import rules, text

    assert rules.INDENTED == text.INDENTED


def test_rule_sets_by_name():
    assert reading_rules(None) is DEFAULT
    assert reading_rules("trec_eval").labels == "atol"
    with pytest.raises(Exception, match="reading must be one of"):
        reading_rules("trec-eval")


def test_ndeval_ignores_a_7th_run_field_as_ndeval_does(cli, tmp_path):
    """The ``ndeval`` rule set's one difference, against ndeval 4.5's own main (pyndeval's
    build of ndeval.c): the same bytes with the extra field as without."""
    import subprocess
    import sys

    pytest.importorskip("pyndeval")
    from conftest import NDEVAL

    q, r = _files(tmp_path, QRELS, RUN.replace(" r\n", " r extra\n"))
    ref = subprocess.run([sys.executable, "-c", NDEVAL, q, r], capture_output=True, text=True)
    rc, out, err = cli("ndeval", q, r)
    assert ref.returncode == 0 and (rc, err) == (0, "")
    assert out == ref.stdout


@pytest.mark.parametrize("case", ["run 7th field", "qrels # line"])
def test_cwl_refuses_what_cwl_eval_stops_on(cli, tmp_path, case):
    """cwl_eval 1.0.12 stops on a 7-field run line (``too many values to unpack``) and on a
    ``#`` qrels line of 5 fields (``could not convert string to float``): ``cwlkit cwl``
    refuses both in one line (it skipped the ``#`` line)."""
    import shutil
    import subprocess

    qrels, run, _, _ = CASES[case]
    q, r = _files(tmp_path, qrels.replace("d3 2", "d3 1"), run)
    rc, out, err = cli("cwl", q, r)
    assert rc != 0 and out == "" and err.count("\n") == 1
    exe = shutil.which("cwl-eval")
    if exe is None:
        pytest.skip("cwl-eval is not installed")
    ref = subprocess.run([exe, q, r], capture_output=True, text=True, cwd=tmp_path)
    assert ref.returncode != 0 and ref.stdout == ""
