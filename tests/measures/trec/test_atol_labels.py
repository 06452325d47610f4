"""``cwlkit trec_eval`` reads qrels labels as trec_eval's ``get_qrels.c`` does, with C's
``atol`` (an optional sign and the digits after it; 0 when there are none), and prints
``iprec_at_recall`` levels that are not numbers as its ``append_float`` does.

The references are the C programs' own outputs, kept as data under ``data/atol/`` (trec_eval
9.0.8 and 10.0 built from their public sources; see the README there): the test needs no C
build. Other subcommands read labels as numbers (:mod:`cwlkit.io.rules`).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pyarrow as pa
import pytest

D = Path(__file__).parent / "data" / "atol"


def test_atol_by_hand():
    """C's atol, label by label (glibc): 5e-1 -> 5, 1e1 -> 1, .5e1 -> 0, +3, -2, 007 -> 7,
    1.9 -> 1, 2abc -> 2, abc -> 0, '-' -> 0, -0.5 -> 0."""
    from cwlkit.io.rules import atol_labels

    texts = ["5e-1", "1e1", ".5e1", "+3", "-2", "007", "1.9", "2abc", "abc", "-", "-0.5"]
    want = [5, 1, 0, 3, -2, 7, 1, 2, 0, 0, 0]
    assert atol_labels(pa.array(texts)).tolist() == want


@pytest.mark.parametrize(("version", "expected"), [("9", "9.0.8"), ("10", "10.0")])
def test_crafted_labels_as_the_c_program(cli, version, expected):
    rc, out, err = cli(
        "trec_eval", "--trec-version", version, "-q", "-m", "all_trec", D / "qrels", D / "run"
    )
    assert (rc, err) == (0, "")
    assert out == (D / f"trec_eval-{expected}.out").read_text()


def test_the_tracker_case(cli, tmp_path):
    """``5e-1`` is 5 to trec_eval: num_rel 2 and P_1 1.0000 (cwlkit printed 1 and 0.0000)."""
    q, r = tmp_path / "q", tmp_path / "r"
    q.write_text("1 0 d1 5e-1\n1 0 d2 1\n")
    r.write_text("1 Q0 d1 1 2 r\n1 Q0 d2 2 1 r\n")
    rc, out, err = cli("trec_eval", "-m", "num_rel", "-m", "P.1", q, r)
    assert (rc, err) == (0, "")
    assert out == (D / "issue-9.0.8.out").read_text()


def test_streamed_reads_them_alike(cli):
    rc, out, _ = cli(
        "trec_eval", "--chunk-topics", "1", "-q", "-m", "all_trec", D / "qrels", D / "run"
    )
    assert rc == 0 and out == (D / "trec_eval-9.0.8.out").read_text()


def test_other_subcommands_read_numbers(cli):
    """The default contract: a label is a number; ``2abc`` is refused, naming file and line."""
    rc, out, err = cli("evaluate", D / "qrels", D / "run", "-m", "P@5")
    assert rc != 0 and out == ""
    assert f"{D / 'qrels'}:8: expected a number for the relevance label, got '2abc'" in err
    # 5e-1 is 0.5 by the default rules, 5 by trec_eval's
    from cwlkit.io.rules import RULES

    col = pa.array(["5e-1", "1e1"])
    lines = np.array([1, 2])
    assert RULES["cwlkit"].parse_labels("q", col, lines).tolist() == [0.5, 10.0]
    assert RULES["trec_eval"].parse_labels("q", col, lines).tolist() == [5.0, 1.0]


def _blocks(text: str, specs: list[str]) -> list[list[str]]:
    """The output of ``-q -m iprec_at_recall.SPEC`` for each of ``specs`` in turn (two
    topics and ``all``: three lines per level)."""
    lines = text.splitlines()
    out = []
    for spec in specs:
        n = 3 * len(spec.split(","))
        out.append(lines[:n])
        lines = lines[n:]
    assert not lines
    return out


def test_iprec_names_of_odd_levels(cli):
    """``-m iprec_at_recall.nan`` prints ``iprec_at_recall_nan`` (cwlkit printed ``_0.00``);
    ``inf``, ``-nan`` likewise, in trec_eval's order."""
    specs = ["nan", "inf", "-nan", "nan,0.5", "123456789"]
    blocks = _blocks((D / "iprec-odd-9.0.8.out").read_text(), specs)
    for spec, want in zip(specs[:-1], blocks, strict=False):
        rc, out, err = cli(
            "trec_eval", "-q", "-m", f"iprec_at_recall.{spec}", D / "qrels", D / "run"
        )
        assert (rc, err) == (0, ""), err
        assert out.splitlines() == want
    # a level past 8 characters is cut as snprintf cuts it
    from cwlkit.measures.trec.select import c_float_name

    assert c_float_name("iprec_at_recall", 123456789.0) == blocks[-1][0].split()[0]


@pytest.mark.parametrize(("version", "expected"), [("9", "9.0.8"), ("10", "10.0")])
def test_iprec_values_of_odd_levels(cli, version, expected):
    """A level that is not a number gets level 0's value, as trec_eval's loop gives it."""
    specs = ["nan", "-inf", "1e400", "nan,0.5", "0.3,0.7"]
    blocks = _blocks((D / f"iprec-levels-{expected}.out").read_text(), specs)
    q, r = D / "iprec-levels.qrels", D / "iprec-levels.run"
    for spec, want in zip(specs, blocks, strict=True):
        rc, out, err = cli(
            "trec_eval", "--trec-version", version, "-q", "-m", f"iprec_at_recall.{spec}", q, r
        )
        assert (rc, err) == (0, ""), err
        assert out.splitlines() == want


def test_iprec_mixed_nan_is_refused(cli):
    """trec_eval sorts NaN among the levels as its merge sort leaves it, then gives every level
    before it level 0's value: cwlkit refuses such a mix with one line."""
    rc, out, err = cli("trec_eval", "-m", "iprec_at_recall.0.5,nan,0.2", D / "qrels", D / "run")
    assert rc != 0 and out == "" and err.count("\n") == 1
    assert "iprec_at_recall.0.5,nan,0.2" in err
