"""The largest label that gains divide by is the whole qrels file's, not the run's topics'.

``--gain linear``, ``exp`` and ``err``, ERR's default ``g_max`` and the default ``--max-gain``
(docs/cwl.md, Gains; docs/err.md) all use the largest label of the whole qrels file, so a
topic's score does not depend on which other topics the run holds. Reference: hand
computations on a two-topic case where the top label (2) is only in topic B, and, on the
TREC Web 2012 data, the full run against a cut of it to topics without the top label (4).
"""

from __future__ import annotations

import numpy as np
import pytest
from conftest import DATA, read_data

from cwlkit.core.batch import build_batch
from cwlkit.io.trec import Qrels, Run, read_qrels, read_run
from cwlkit.measures.cwl.evaluate import prepare, score
from cwlkit.measures.cwl.precision import Precision
from cwlkit.measures.cwl.rbp import RBP
from cwlkit.measures.err import ERR

# topic A: labels 0 and 1 only; topic B holds the qrels' top label, 2
QRELS = [("A", "a1", 1), ("A", "a2", 0), ("A", "a3", 1), ("B", "b1", 2), ("B", "b2", 1)]
RUN_A = [("A", "a1", 3.0), ("A", "a2", 2.0), ("A", "a3", 1.0)]  # every document judged
RUN_AB = [*RUN_A, ("B", "b1", 2.0), ("B", "b2", 1.0)]

# P@10 of topic A (gains 1, 0, 1 at ranks 1-3) with max label 2; the defect divided by 1
P10_A = {
    "linear": (0.5 + 0.5) / 10,  # 1/2 each (the defect: 0.2)
    "exp": (1 / 3 + 1 / 3) / 10,  # (2^1-1)/(2^2-1) each (the defect: 0.2)
    "err": (1 / 4 + 1 / 4) / 10,  # (2^1-1)/2^2 each (the defect: 0.1)
}
# ERR of topic A: r = (p, 0, p) -> p + (p/3)(1 - p)
ERR_A = {
    "err": 1 / 4 + (1 / 4) / 3 * (3 / 4),  # p = 1/4 (the defect, g_max 1: 7/12)
    "exp": 1 / 3 + (1 / 3) / 3 * (2 / 3),  # p = 1/3 (the defect: 1)
    "linear": 1 / 2 + (1 / 2) / 3 * (1 / 2),  # p = 1/2 (the defect: 1)
}


def _batches():
    q = Qrels.from_records(QRELS)
    return build_batch(q, Run.from_records(RUN_A)), build_batch(q, Run.from_records(RUN_AB))


def _cwl(batch, metric, gain, residuals=False):
    """{topic: (EU, ResEU)} of a C/W/L metric."""
    lo, res = score(metric, prepare(batch, gain=gain), residuals=residuals)
    r = res.EU if residuals else np.full(batch.n_topics, np.nan)
    return {str(t): (float(lo.EU[i]), float(r[i])) for i, t in enumerate(batch.topics)}


def test_batch_records_the_qrels_wide_top_label():
    only_a, both = _batches()
    assert only_a.qrels_max_label == both.qrels_max_label == 2.0
    np.testing.assert_array_equal(only_a.qrels_label_values, [0.0, 1.0, 2.0])
    picked = both.select(np.array([True, False]))
    assert picked.qrels_max_label == 2.0
    np.testing.assert_array_equal(picked.qrels_label_values, [0.0, 1.0, 2.0])
    # a topic set whose own labels stop at 1
    assert np.nanmax(only_a.qrel_labels) == 1.0


@pytest.mark.parametrize("gain", sorted(P10_A))
def test_precision_of_a_topic_ignores_the_other_topics(gain):
    only_a, both = _batches()
    got_a = _cwl(only_a, Precision(k=10), gain, residuals=True)["A"]
    got_ab = _cwl(both, Precision(k=10), gain, residuals=True)["A"]
    assert got_a == got_ab
    assert got_a[0] == pytest.approx(P10_A[gain], abs=1e-15)
    # upper bound: the 7 ranks past the run at max_gain = max(1, top gain) = 1
    assert got_a[1] == pytest.approx(0.7, abs=1e-15)
    # selecting topic A out of the A+B batch gives the same again
    sel = both.select(both.topics == "A")
    assert _cwl(sel, Precision(k=10), gain, residuals=True)["A"] == got_a


def test_default_max_gain_is_the_whole_qrels_largest_gain():
    """Identity gains: the upper bound pads P@10 with max(1, 2) = 2, not topic A's 1."""
    only_a, both = _batches()
    for batch in (only_a, both):
        assert prepare(batch).max_gain == 2.0
        eu, res = _cwl(batch, Precision(k=10), "identity", residuals=True)["A"]
        assert eu == pytest.approx(0.2, abs=1e-15)
        assert res == pytest.approx(7 * 2 / 10, abs=1e-15)


def test_table_gain_max_gain_skips_labels_the_table_does_not_list():
    """A table mapping: the default max_gain is the largest gain among the qrels' labels it
    maps; a label it does not list elsewhere in the qrels is no error for topic A."""
    q = Qrels.from_records([*QRELS, ("B", "b3", 7)])
    batch = build_batch(q, Run.from_records(RUN_A))
    inp = prepare(batch, gain="0:0,1:0.5,2:3")
    assert inp.max_gain == 3.0


@pytest.mark.parametrize("gain", sorted(ERR_A))
def test_err_of_a_topic_ignores_the_other_topics(gain):
    only_a, both = _batches()
    m = ERR(gain=gain, max_grade="qrels")  # (the qrels file's largest label, every topic)
    a = float(m.compute(only_a)[0])
    ab = float(m.compute(both)[list(both.topics).index("A")])
    assert a == ab
    assert a == pytest.approx(ERR_A[gain], abs=1e-15)
    res_a = float(m.residual(only_a)[0])
    assert res_a == float(m.residual(both)[list(both.topics).index("A")])
    # the residual's tail: every rank past the run at rho = r(g_max = 2)
    p = {"err": 1 / 4, "exp": 1 / 3, "linear": 1 / 2}[gain]
    rho = {"err": 3 / 4, "exp": 1.0, "linear": 1.0}[gain]
    tail = sum(rho * (1 - rho) ** m / (4 + m) for m in range(200))
    assert res_a == pytest.approx((1 - p) ** 2 * tail, rel=1e-12)


def _write(path, lines):
    path.write_text("".join(" ".join(str(x) for x in ln) + "\n" for ln in lines))
    return path


def _rows(out):
    return {tuple(r.split("\t")[:2]): r.split("\t")[2:] for r in out.splitlines()}


@pytest.mark.parametrize("gain", ["linear", "exp", "err"])
def test_cli_gain_scope(cli, tmp_path, gain):
    """``cwlkit cwl QRELS RUN --gain G -M P_cwl@10``: topic A prints the same with or
    without topic B in the run, and the hand value."""
    qrels = _write(tmp_path / "qrels", [(t, 0, d, g) for t, d, g in QRELS])
    run_a = _write(
        tmp_path / "run_a", [(t, "Q0", d, i, s, "x") for i, (t, d, s) in enumerate(RUN_A)]
    )
    run_ab = _write(
        tmp_path / "run_ab", [(t, "Q0", d, i, s, "x") for i, (t, d, s) in enumerate(RUN_AB)]
    )
    outs = []
    for run in (run_a, run_ab):
        rc, out, err = cli("cwl", qrels, run, "--gain", gain, "-M", "P_cwl@10", "-r")
        assert rc == 0, err
        outs.append(_rows(out))
    assert outs[0][("A", "P_cwl@10")] == outs[1][("A", "P_cwl@10")]
    assert float(outs[0][("A", "P_cwl@10")][0]) == pytest.approx(P10_A[gain], abs=5e-5)
    assert set(outs[0]) == {("A", "P_cwl@10")}


# --- the TREC Web 2012 data: label 4 is in 47 of the 50 topics, not in 177, 189, 195 --------

WEB = DATA / "web2012"
WEB_QRELS = WEB / "qrels.web.151-200.txt"
WEB_RUN = WEB / "runs" / "web2012.ql.cata-filtered.run.gz"
CUTS = [("177", "189", "195"), ("177", "195")]  # top labels 3 and 1


@pytest.fixture(scope="module")
def web():
    if not WEB_RUN.exists():
        pytest.skip("data/web2012 is not available")
    return read_qrels(WEB_QRELS), WEB_RUN


def _cut(src, dst, topics):
    keep = [ln for ln in read_data(src).splitlines(keepends=True) if ln.split()[0] in topics]
    dst.write_text("".join(keep))
    return dst


@pytest.mark.parametrize("topics", CUTS, ids=["max3", "max1"])
def test_web2012_cut_run_scores_like_the_full_run(web, tmp_path, topics):
    qrels, full_path = web
    assert set(qrels.labels) >= {4.0}
    full = build_batch(qrels, read_run(full_path))
    cut = build_batch(qrels, read_run(_cut(full_path, tmp_path / "cut.run", topics)))
    assert list(cut.topics) == list(topics)
    assert np.nanmax(cut.qrel_labels) < 4.0  # the cut has no label 4 of its own
    rows = np.array([list(full.topics).index(t) for t in topics])
    # equal to rounding: the cut's matrices are narrower, so sums can run in another order
    same = dict(rtol=1e-12, atol=1e-15)
    for metric in (Precision(k=10), RBP(p=0.8)):
        for gain in ("linear", "exp", "err", "identity"):
            lo_f, res_f = score(metric, prepare(full, gain=gain), residuals=True)
            lo_c, res_c = score(metric, prepare(cut, gain=gain), residuals=True)
            for a, b in zip(lo_f.as_array(), lo_c.as_array(), strict=True):
                np.testing.assert_allclose(a[rows], b, **same, err_msg=f"{metric.name} {gain}")
            for a, b in zip(res_f.as_array(), res_c.as_array(), strict=True):
                np.testing.assert_allclose(a[rows], b, **same, err_msg=f"{metric.name} {gain}")
    for gain in ("err", "exp", "linear"):
        m = ERR(gain=gain, k=20)
        np.testing.assert_allclose(m.compute(full)[rows], m.compute(cut), **same)
        np.testing.assert_allclose(m.residual(full)[rows], m.residual(cut), **same)
    # topic 177: two documents of label 1 in the top 10; linear gain 1/4 each
    p10 = score(Precision(k=10), prepare(cut, gain="linear"))[0].EU
    assert p10[0] == pytest.approx(2 * (1 / 4) / 10, abs=1e-15)  # the defect: 1/3 or 1 each


def test_web2012_cli_cut_run(web, cli, tmp_path):
    """The command line on the same cut: the cut's lines are the full run's lines."""
    qrels, full_path = web
    cut = _cut(full_path, tmp_path / "cut.run", CUTS[0])
    args = ("--gain", "linear", "-M", "P_cwl@10", "-M", "RBPCWLMetric(0.8)", "-r")
    rc, out_full, err = cli("cwl", WEB_QRELS, full_path, *args)
    assert rc == 0, err
    rc, out_cut, err = cli("cwl", WEB_QRELS, cut, *args)
    assert rc == 0, err
    full_rows, cut_rows = _rows(out_full), _rows(out_cut)
    assert len(cut_rows) == 6
    for key, vals in cut_rows.items():
        assert full_rows[key] == vals, key
    assert cut_rows[("177", "P_cwl@10")][0] == "0.0500"
