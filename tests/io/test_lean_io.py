"""The arrow <-> numpy helpers of io/text.py, and that the CLIs do not import pandas.

pyarrow's own conversions (``pa.array``, ``Array.to_numpy``) import pandas when it is
installed, which costs 0.2-0.3 s per command; cwlkit goes through the buffers instead. The
helpers are checked against pyarrow's conversions (the reference).
"""

from __future__ import annotations

import importlib.util
import subprocess
import sys

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pytest
from conftest import DATA, EXAMPLE

from cwlkit.io.text import from_numpy, from_strings, to_numpy

# every test once with files read, once with files memory-mapped
pytestmark = [pytest.mark.usefixtures("text_reader"), pytest.mark.slow]  # (subprocesses)


@pytest.mark.parametrize("dtype", [np.int32, np.int64, np.uint8, np.float32, np.float64, np.bool_])
def test_round_trip_matches_pyarrow(dtype):
    rng = np.random.default_rng(1)
    x = (rng.random(37) * 100).astype(dtype) if dtype is not np.bool_ else rng.random(37) > 0.5
    arr = from_numpy(x)
    ref = pa.array(x)
    assert arr.type == ref.type
    assert arr.equals(ref)
    # sliced at odd offsets (bit-packed booleans start mid-byte)
    for a, n in [(0, 37), (3, 20), (9, 0), (13, 24)]:
        got = to_numpy(ref.slice(a, n))
        assert got.dtype == x.dtype
        np.testing.assert_array_equal(got, x[a : a + n])


def test_nulls_are_filled():
    idx = pc.index_in(from_strings(["a", "q", "b", "z"]), value_set=from_strings(["b", "a"]))
    np.testing.assert_array_equal(to_numpy(idx, null=-1), [1, -1, 0, -1])
    with pytest.raises(ValueError):
        to_numpy(idx)


def test_chunked_and_strings():
    ch = pa.chunked_array([from_numpy(np.arange(3)), from_numpy(np.arange(5, 7))])
    np.testing.assert_array_equal(to_numpy(ch), [0, 1, 2, 5, 6])
    words = ["", "doc-1", "é", "a b", "\u20ac" * 3]
    s = from_strings(words)
    s.validate(full=True)
    assert s.equals(pa.array(words, pa.string()))
    assert from_strings([]).equals(pa.array([], pa.string()))


_Q, _R = str(EXAMPLE / "example.qrels"), str(EXAMPLE / "example.run")
_TE, _WEB, _LETOR = DATA / "trec_eval_test" / "9.0.8", DATA / "web2012", DATA / "letor"


@pytest.mark.skipif(importlib.util.find_spec("pandas") is None, reason="pandas is not installed")
@pytest.mark.parametrize(
    "args",
    [
        ["trec_eval", "-q", "-m", "all_trec", _Q, _R],
        ["trec_eval", "-q", "-c", "-m", "all_trec", "--trec-version", "10", _Q, _R],
        [
            "trec_eval",
            "-q",
            "-m",
            "all_prefs",
            "-R",
            "prefs",
            _TE / "prefs.test",
            _TE / "prefs.results.test",
        ],
        [
            "trec_eval",
            "-q",
            "-m",
            "qrels_jg",
            "-R",
            "qrels_jg",
            _TE / "qrels.123",
            _TE / "results.test",
        ],
        ["cwl", _Q, _R],
        ["cwl", "-r", _Q, _R],
        ["cwl", "-c", EXAMPLE / "example.costs", "--ties", "average", _Q, _R],
        ["gdeval", _WEB / "qrels.web.151-200.txt", _WEB / "runs" / "web2012.ql.cata.run.gz"],
        [
            "letor",
            "score",
            _LETOR / "MQ2008.Fold1.test.lf.txt.gz",
            _LETOR / "MQ2008.Fold1.test.pred.linear.txt",
            "-",
            "1",
        ],
    ],
    ids=lambda a: " ".join(str(x) for x in a[:3]),
)
def test_cli_does_not_import_pandas(args):
    code = (
        "import io, sys, contextlib\n"
        "from cwlkit.cli.main import main\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        "    rc = main(sys.argv[1:])\n"
        "assert rc == 0, rc\n"
        "print('pandas' in sys.modules)\n"
    )
    got = subprocess.run(
        [sys.executable, "-c", code, *map(str, args)], capture_output=True, text=True, check=True
    )
    assert got.stdout.strip() == "False", got.stderr


@pytest.mark.parametrize("contiguous", [True, False])
def test_blockwise_doc_lookup_matches_a_dict_join(monkeypatch, contiguous):
    """build_batch looks the run's documents up block by block among the qrels documents of
    the block's topics; with tiny blocks (many blocks, documents shared between topics of one
    block, topics without qrels, qrels-only topics) every label must still be the one a plain
    dictionary join gives."""
    import cwlkit.core.batch as B
    import cwlkit.io.text as T
    from cwlkit.io.trec import Qrels, Run

    monkeypatch.setattr(B, "LOOKUP_BLOCK", 16)
    monkeypatch.setattr(T, "BLOCK_ROWS", 25)
    rng = np.random.default_rng(7)
    topics = [f"t{i}" for i in range(12)]
    docs = [f"d{j}" for j in range(30)]
    qrels, judged = [], {}
    for t in topics[:10] + ["only_in_qrels"]:
        if t == "t3":
            continue  # a run topic without judgements
        for d in rng.choice(docs, size=8, replace=False):
            lab = int(rng.integers(-1, 4))
            qrels.append((t, str(d), float(lab)))
            judged[(t, str(d))] = float(lab)
    run = [
        (t, str(d), float(rng.integers(0, 5)))
        for t in topics
        for d in rng.choice(docs, size=10, replace=False)
    ]
    if not contiguous:
        run = [run[i] for i in rng.permutation(len(run))]
    whole = []  # lookups of the whole run dictionary (the fallback)
    index_in = B._index_in
    monkeypatch.setattr(
        B,
        "_index_in",
        lambda v, s: (whole.append(len(v)) if len(v) > len(topics) + 1 else None) or index_in(v, s),
    )
    b = B.build_batch(Qrels.from_records(qrels), Run.from_records(run), topics="run")
    if contiguous:
        assert not whole  # the blockwise path was taken
    docs_m = b.docs
    for i, t in enumerate(b.topics):
        for j in range(int(b.depth[i])):
            want = judged.get((t, docs_m[i, j]))
            assert bool(b.judged[i, j]) == (want is not None)
            if want is not None:
                assert b.labels[i, j] == want
