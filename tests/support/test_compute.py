"""cwlkit.support.compute: the kernels reached without importing pyarrow.compute give the same
results as pyarrow.compute's functions, and the evaluation paths never import it."""

from __future__ import annotations

import subprocess
import sys

import pyarrow as pa
import pyarrow.compute as pac
import pytest
from conftest import DATA

from cwlkit.support import compute as pc

WEB = DATA / "web2012"
QRELS = WEB / "qrels.web.151-200.txt"
RUN = WEB / "runs" / "web2012.ql.cata.run.gz"

WORDS = pa.array(["b", "a", "c", "a", "", "b"])
SET = pa.array(["a", "c", "z"])
MASK = pa.array([True, False, True, False, True, False])
IDX = pa.array([5, 0, 2], type=pa.int64())


@pytest.mark.parametrize(
    ("ours", "theirs"),
    [
        (lambda: pc.dictionary_encode(WORDS), lambda: pac.dictionary_encode(WORDS)),
        (lambda: pc.index_in(WORDS, SET), lambda: pac.index_in(WORDS, value_set=SET)),
        (lambda: pc.is_in(WORDS, SET), lambda: pac.is_in(WORDS, value_set=SET)),
        (lambda: pc.take(WORDS, IDX), lambda: pac.take(WORDS, IDX)),
        (lambda: pc.filter(WORDS, MASK), lambda: pac.filter(WORDS, MASK)),
        (lambda: pc.invert(MASK), lambda: pac.invert(MASK)),
        (lambda: pc.not_equal(WORDS, WORDS[::-1]), lambda: pac.not_equal(WORDS, WORDS[::-1])),
        (lambda: pc.binary_length(WORDS), lambda: pac.binary_length(WORDS)),
        (lambda: pc.min(IDX), lambda: pac.min(IDX)),
        (lambda: pc.unique(WORDS), lambda: pac.unique(WORDS)),
        (lambda: pc.sort_indices(WORDS), lambda: pac.sort_indices(WORDS)),
        (
            lambda: pc.cast(pa.array(["1.5", "-2", "1e3", "inf"]), pa.float64()),
            lambda: pac.cast(pa.array(["1.5", "-2", "1e3", "inf"]), pa.float64()),
        ),
    ],
)
def test_same_results_as_pyarrow_compute(ours, theirs):
    assert ours().equals(theirs())


def test_table_kernels():
    table = pa.table({"g": pa.array([2, 1, 1, 2]), "d": pa.array(["x", "y", "z", "w"])})
    keys = [("g", "ascending"), ("d", "descending")]
    assert pc.sort_indices(table, keys).to_pylist() == [2, 1, 0, 3]
    assert pc.sort_indices(table, keys).equals(pac.sort_indices(table, sort_keys=keys))
    assert pc.take(table, IDX.slice(1, 2)).equals(table.take([0, 2]))


def test_a_bad_cast_raises_as_pyarrow_does():
    with pytest.raises(pa.ArrowInvalid):
        pc.cast(pa.array(["1", "x"]), pa.float64())


@pytest.mark.parametrize(
    "call",
    [
        "cwlkit.evaluate(Q, R, ['P@10', 'AP', 'nDCG@10', 'RR', 'R-Prec'])",
        "cwlkit.evaluate(Q, [R, R], ['P@10', 'AP'], topics='qrels')",
        "__import__('cwlkit.cli.trec_eval').cli.trec_eval.main(['-q', '-m', 'all_trec', Q, R])",
        "__import__('cwlkit.cli.cwl').cli.cwl.main(['--example', '-n'])",
    ],
)
def test_evaluation_never_imports_pyarrow_compute(call):
    code = (
        "import sys, io, contextlib, cwlkit\n"
        f"Q, R = {str(QRELS)!r}, {str(RUN)!r}\n"
        f"with contextlib.redirect_stdout(io.StringIO()):\n    {call}\n"
        "print('pyarrow.compute' in sys.modules, 'pyarrow' in sys.modules)\n"
    )
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    assert p.stdout.split() == ["False", "True"]
