"""``cwlkit.pr_curve`` and ``cwlkit.roc_curve`` take every input form ``evaluate`` takes:
the curves equal those of the same data as files, and a hand computation."""

from __future__ import annotations

import gzip

import numpy as np
import pandas as pd
import polars as pl
import pyarrow as pa
import pytest

import cwlkit
from cwlkit.errors import CwlkitError, ParamError

QRELS = {"q1": {"a": 1, "b": 1, "c": 0}, "q2": {"d": 2, "e": 0}}
RUN = {"q1": {"a": 0.9, "c": 0.5, "x": 0.4, "b": 0.1}, "q2": {"e": 0.8, "d": 0.7}}


def _qrels_lines() -> str:
    return "".join(f"{t} 0 {d} {v}\n" for t, docs in QRELS.items() for d, v in docs.items())


def _run_rows() -> list[tuple[str, str, float]]:
    return [(t, d, s) for t, docs in RUN.items() for d, s in docs.items()]


def _run_lines() -> str:
    ranked = []
    for t, docs in RUN.items():
        order = sorted(docs.items(), key=lambda kv: -kv[1])
        ranked += [f"{t} Q0 {d} {i} {s} tag\n" for i, (d, s) in enumerate(order, 1)]
    return "".join(ranked)


def _forms(tmp_path):
    q_path, r_path = tmp_path / "q.txt", tmp_path / "r.txt"
    q_path.write_text(_qrels_lines())
    r_path.write_text(_run_lines())
    (tmp_path / "r.gz").write_bytes(gzip.compress(r_path.read_bytes()))
    rows = _run_rows()
    frame = pd.DataFrame(rows, columns=["query_id", "doc_id", "score"])
    return q_path, {
        "path": str(r_path),
        "gzip": tmp_path / "r.gz",
        "pytrec dict": RUN,
        "pandas": frame,
        "polars": pl.from_pandas(frame),
        "pyarrow": pa.Table.from_pandas(frame),
        "Run": cwlkit.read_run(r_path),
        "tuples": rows,
    }


@pytest.mark.parametrize(
    "form", ["path", "gzip", "pytrec dict", "pandas", "polars", "pyarrow", "Run", "tuples"]
)
def test_curves_equal_on_every_form(form, tmp_path):
    q_path, forms = _forms(tmp_path)
    want_pr = cwlkit.pr_curve(q_path, forms["path"])
    want_roc = cwlkit.roc_curve(q_path, forms["path"])
    for qrels in (q_path, QRELS):
        pr = cwlkit.pr_curve(qrels, forms[form])
        roc = cwlkit.roc_curve(qrels, forms[form])
        assert list(pr.topics) == list(want_pr.topics)
        np.testing.assert_array_equal(pr.interpolated, want_pr.interpolated)
        np.testing.assert_array_equal(pr.precision, want_pr.precision)
        np.testing.assert_array_equal(roc.auc, want_roc.auc)


def test_curves_by_hand(tmp_path):
    """q1 ranks a (rel), c (nonrel), x (unjudged), b (rel): P = 1, 1/2, 1/3, 1/2 after
    ranks 1..4 with R = 1/2, 1/2, 1/2, 1; the interpolated P~(r) is 1 up to r = 0.5, then
    1/2. AUC: the one negative c has 1 positive above it, P = 2, N = 1: (1 + 0) / 2."""
    pr = cwlkit.pr_curve(QRELS, RUN)
    q1 = list(pr.topics).index("q1")
    np.testing.assert_allclose(pr.precision[q1, :4], [1, 0.5, 1 / 3, 0.5])
    np.testing.assert_allclose(pr.interpolated[q1], [1] * 6 + [0.5] * 5)
    roc = cwlkit.roc_curve(QRELS, RUN)
    assert roc.auc[q1] == pytest.approx(0.5)
    # q2 ranks its negative e above its positive d: AUC 0
    assert roc.auc[list(roc.topics).index("q2")] == 0.0


def test_options_reach_the_ranking():
    """depth=1 keeps a alone on q1: recall reaches 1/2 only, so P~(r > 0.5) = 0."""
    pr = cwlkit.pr_curve(QRELS, RUN, depth=1)
    q1 = list(pr.topics).index("q1")
    np.testing.assert_allclose(pr.interpolated[q1], [1] * 6 + [0] * 5)


@pytest.mark.parametrize("rel", [None, "1", float("nan"), [1], True])
def test_bad_threshold_is_refused(rel):
    with pytest.raises(ParamError, match=r"^rel must be a finite number; got "):
        cwlkit.pr_curve(QRELS, RUN, rel=rel)
    with pytest.raises(ParamError, match=r"^rel must be a finite number; got "):
        cwlkit.roc_curve(QRELS, RUN, rel=rel)


@pytest.mark.parametrize("levels", ["x", [], [2.0], [[0.1]]])
def test_bad_levels_are_refused(levels):
    with pytest.raises(CwlkitError):
        cwlkit.pr_curve(QRELS, RUN, levels=levels)
