"""ERR@k and ``cwlkit gdeval``: gdeval.pl's own outputs, hand computations, the ERR paper's
constant-gain argument, residuals, and what gdeval.pl rejects but cwlkit accepts."""

from __future__ import annotations

import dataclasses
import math
from fractions import Fraction as F
from pathlib import Path

import numpy as np
import pytest
from conftest import DATA

import cwlkit
from cwlkit.core.batch import build_batch
from cwlkit.errors import ParamError
from cwlkit.io.trec import Qrels, Run
from cwlkit.measures import registry
from cwlkit.measures.cwl import CWLMetric, score_metric
from cwlkit.measures.err import ERR, cascade_tail, gdeval_ndcg
from cwlkit.measures.parse import parse_measure
from cwlkit.measures.trec.registered import NDCG

WEB = DATA / "web2012"
QRELS = WEB / "qrels.web.151-200.txt"
FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"


# --- gdeval.pl's own output ----------------------------------------------------------------


@pytest.mark.parametrize(
    "run,k,expected",
    [
        ("web2012.ql.cata.run.gz", 20, "web2012.ql.cata.gdeval.txt"),
        ("web2012.ql.cata.run.gz", 10, "web2012.ql.cata.gdeval.k10.txt"),
        ("web2012.rm.catb.run.gz", 20, "web2012.rm.catb.gdeval.txt"),
        ("web2012.rm.catb.run.gz", 10, "web2012.rm.catb.gdeval.k10.txt"),
    ],
)
def test_gdeval_byte_identical(cli, run, k, expected):
    args = (
        ["gdeval", QRELS, WEB / "runs" / run]
        if k == 20
        else ["gdeval", "-k", str(k), QRELS, WEB / "runs" / run]
    )
    rc, out, err = cli(*args)
    assert rc == 0 and err == ""
    assert out == (WEB / "expected" / expected).read_text()


def test_gdeval_ndcg_equals_trec_eval_ndcg_cut_on_exponential_gains():
    """ecosystem.md 7.1: trec_eval's ndcg_cut.20 on qrels rewritten g -> 2^g - 1 is gdeval's
    nDCG@20. pytrec_eval (trec_eval's C code) is the reference, on every topic."""
    import pytrec_eval

    q = cwlkit.read_qrels(QRELS)
    r = cwlkit.read_run(WEB / "runs" / "web2012.rm.catb.run.gz")
    qd: dict[str, dict[str, int]] = {}
    for t, d, g in zip(
        q.table.column("topic").to_pylist(),
        q.table.column("doc").to_pylist(),
        q.labels.tolist(),
        strict=True,
    ):
        qd.setdefault(t, {})[d] = int(2**g - 1) if g > 0 else 0
    rd: dict[str, dict[str, float]] = {}
    for t, d, s in zip(
        r.table.column("topic").to_pylist(),
        r.table.column("doc").to_pylist(),
        r.table.column("score").to_pylist(),
        strict=True,
    ):
        rd.setdefault(t, {})[d] = s
    ref = pytrec_eval.RelevanceEvaluator(qd, {"ndcg_cut.20"}).evaluate(rd)
    batch = build_batch(q, r)
    ours = dict(zip(batch.topics, gdeval_ndcg(batch, 20), strict=True))
    checked = 0
    for t, v in ref.items():
        if any(x > 0 for x in qd[t].values()):
            assert ours[t] == pytest.approx(v["ndcg_cut_20"], abs=1e-12)
            checked += 1
    assert checked >= 40


# --- ERR by hand ----------------------------------------------------------------------------

# topic q1, ranked d1..d6 by score; d4 is spam (-2), d5 unjudged; grades 3, 0, 1, -2, ?, 2
HAND_Q = [
    ("q1", "d1", 3),
    ("q1", "d2", 0),
    ("q1", "d3", 1),
    ("q1", "d4", -2),
    ("q1", "d6", 2),
    ("q1", "x", 0),
]
HAND_R = [("q1", f"d{i}", 10.0 - i) for i in range(1, 7)]


def _batch(q=HAND_Q, r=HAND_R):
    return build_batch(Qrels.from_records(q), Run.from_records(r))


def test_err_by_hand():
    b = _batch()
    # g_max = 3 (the largest label, or the scale's top grade 3): r = (2^g - 1)/8 -> 7/8, 0,
    # 1/8, 0, 0, 3/8
    full = F(7, 8) + F(1, 8) / 3 * F(1, 8) + F(3, 8) / 6 * (F(1, 8) * F(7, 8))
    assert float(full) == pytest.approx(0.8870442708333334, abs=1e-15)
    for top in ("qrels", "3"):
        m = f"ERR(max_grade={top})"
        assert parse_measure(m).compute(b)[0] == pytest.approx(float(full), abs=1e-15)
        assert parse_measure(f"{m}@2").compute(b)[0] == pytest.approx(0.875, abs=1e-15)
        assert parse_measure(f"{m}@3").compute(b)[0] == pytest.approx(
            float(F(7, 8) + F(1, 192)), abs=1e-15
        )
        assert parse_measure(f"{m}@100").compute(b)[0] == pytest.approx(float(full), abs=1e-15)
    # gdeval's g_max = 4, the default: r = (2^g - 1)/16 -> 7/16, 0, 1/16, 0, 0, 3/16
    g4 = F(7, 16) + F(1, 16) / 3 * F(9, 16) + F(3, 16) / 6 * (F(9, 16) * F(15, 16))
    assert ERR(max_grade=4).compute(b)[0] == pytest.approx(float(g4), abs=1e-15)
    assert parse_measure("ERR").compute(b)[0] == pytest.approx(float(g4), abs=1e-15)
    assert parse_measure("ERR@2").compute(b)[0] == pytest.approx(7 / 16, abs=1e-15)
    # exp and linear map the top grade to 1: the first document stops everyone
    for top in (3, "qrels"):
        assert ERR(gain="exp", max_grade=top).compute(b)[0] == 1.0
        assert ERR(gain="linear", max_grade=top).compute(b)[0] == 1.0
    lin = _batch(r=[("q1", "d2", 2.0), ("q1", "d3", 1.0)])
    assert ERR(gain="linear", max_grade=3, k=2).compute(lin)[0] == pytest.approx(
        float(F(1, 3) / 2), abs=1e-15
    )


def test_err_with_binary_labels_and_exp_gain_is_reciprocal_rank():
    q = [("a", "x", 1), ("a", "y", 0), ("b", "z", 1)]
    r = [("a", "y", 3.0), ("a", "w", 2.0), ("a", "x", 1.0), ("b", "z", 1.0), ("c", "z", 1.0)]
    b = _batch(q, r)
    assert ERR(gain="exp", max_grade=1).compute(b).tolist() == [1 / 3, 1.0, 0.0]
    assert ERR(max_grade=1).compute(b).tolist() == [
        pytest.approx(0.5 / 3),
        0.5,
        0.0,
    ]  # r = 1/2 (Equation 2, a binary scale: g_max = 1)
    assert ERR().compute(b).tolist() == [pytest.approx(1 / 48), 1 / 16, 0.0]  # gdeval's 4


def test_negative_labels_count_as_zero():
    spam = _batch(q=[("q1", "d1", -2), ("q1", "d2", 1)], r=[("q1", "d1", 2.0), ("q1", "d2", 1.0)])
    zero = _batch(q=[("q1", "d1", 0), ("q1", "d2", 1)], r=[("q1", "d1", 2.0), ("q1", "d2", 1.0)])
    unj = _batch(q=[("q1", "d2", 1)], r=[("q1", "d1", 2.0), ("q1", "d2", 1.0)])
    for m in (ERR(), ERR(max_grade=1, k=1), ERR(gain="exp"), NDCG(dcg="exp-log2", k=5)):
        assert m.compute(spam)[0] == m.compute(zero)[0] == m.compute(unj)[0]
    assert ERR(max_grade="qrels").compute(spam)[0] == 0.25  # r = 1/2 at rank 2, halved


def test_max_grade_below_a_label_is_an_error():
    with pytest.raises(
        ParamError, match=r"qrels label 3 is above the max_grade 2 of ERR\(max_grade=2\)"
    ):
        ERR(max_grade=2).compute(_batch())
    with pytest.raises(ParamError, match="must be in"):
        parse_measure("ERR(max_grade=0)@5")
    with pytest.raises(ParamError, match="must be a number > 0 or 'qrels'; got 'max'"):
        parse_measure("ERR(max_grade=max)@5")
    with pytest.raises(ParamError, match="must be a number > 0 or 'qrels'; got None"):
        ERR(max_grade=None)
    # gdeval.pl refuses a grade above 4 (so does ir_measures' ERR@k, through it)
    five = _batch(q=[("q1", "d1", 5)], r=[("q1", "d1", 1.0)])
    with pytest.raises(ParamError, match=r"label 5 is above the max_grade 4 of ERR@20; give"):
        parse_measure("ERR@20").compute(five)
    assert parse_measure("ERR(max_grade=qrels)@20").compute(five)[0] == 31 / 32
    with pytest.raises(ParamError, match="must be one of err, exp, linear"):
        parse_measure("ERR(gain=identity)")


# --- ERR is not C/W/L ------------------------------------------------------------------------


def _cwl_classes():
    seen: list[type] = []
    for cls in registry.families().values():
        if isinstance(cls, type) and issubclass(cls, CWLMetric) and cls not in seen:
            seen.append(cls)
    return sorted(seen, key=lambda c: c.family)


def test_constant_gain_every_cwl_metric_scores_alpha_err_scores_more():
    """The ERR paper's Section 2 argument: on r = <alpha, alpha, ...> the C/W/L weights sum to
    one, so every C/W/L metric scores alpha; ERR scores
    alpha + sum_{i>=2} (alpha/i)(1-alpha)^(i-1)."""
    classes = _cwl_classes()
    assert len(classes) >= 20  # the whole cwl_eval family is registered
    for alpha in (0.125, 0.5, 0.875):
        gains = np.full((2, 12), alpha)
        for cls in classes:
            kw = {
                f.name: (5 if f.metadata.get("integer") else 0.5)
                for f in dataclasses.fields(cls)
                if f.default is dataclasses.MISSING
            }
            m = cls(**kw)
            # the ranking goes on forever with gain alpha: pad past the 12 ranks with alpha
            eu = score_metric(m, gains, np.ones_like(gains), np.array([12, 5]), pad_gain=alpha).EU
            assert eu == pytest.approx([alpha, alpha], abs=1e-9), m.name
    # ERR on the same ranking: grade 1 with g_max = 1 gives alpha = 1/2
    q = [("t", f"d{i}", 1) for i in range(30)]
    r = [("t", f"d{i}", 30.0 - i) for i in range(30)]
    b = _batch(q, r)
    alpha = 0.5
    for k in (2, 5, 20):
        expect = sum(alpha / i * (1 - alpha) ** (i - 1) for i in range(1, k + 1))
        got = ERR(max_grade=1, k=k).compute(b)[0]
        assert got == pytest.approx(expect, abs=1e-15) and got > alpha
    # to infinity: sum alpha (1-alpha)^(i-1) / i = alpha/(1-alpha) ln(1/alpha) = ln 2 here
    assert ERR(max_grade=1).upper(b)[0] == pytest.approx(math.log(2.0), abs=1e-14)


def test_err_is_expected_depth_times_ce6():
    """ERR = V+ * EU(C_E6): ERR's per-rank weights are C_E6's V(i) = (1/i) prod_{j<i}(1-r_j),
    which a C/W/L metric must divide by V+ (docs/err.md)."""
    from cwlkit.measures.cwl.nerr import CE6
    from cwlkit.measures.err import err_sum

    r = np.array([[0.5, 0.25, 0.0, 1.0], [0.875, 0.125, 1.0, 0.0]])
    s = score_metric(CE6(), r, np.ones_like(r), np.array([4, 4]))
    assert np.isfinite(s.ED).all() and (s.ED > 1).all()
    assert s.ED * s.EU == pytest.approx(err_sum(r), abs=1e-15)
    assert (s.EU < err_sum(r)).all()


# --- residuals --------------------------------------------------------------------------------


def _err_loop(r: list[float]) -> float:
    """Textbook ERR over an explicit list (the reference for the vectorised code)."""
    total, reach = 0.0, 1.0
    for i, ri in enumerate(r, 1):
        total += reach * ri / i
        reach *= 1.0 - ri
    return total


def test_residual_by_hand():
    """The ERR paper's residual: full-depth ERR with unjudged documents (and the ranks past the
    run) at the highest grade, minus ERR@k with them at 0."""
    b = _batch()
    rho = 7 / 8  # g_max = 3
    upper = _err_loop([7 / 8, 0, 1 / 8, 0, rho, 3 / 8] + [rho] * 200)
    m = ERR(max_grade=3, k=2)
    assert m.upper(b)[0] == pytest.approx(upper, abs=1e-15)
    assert m.residual(b)[0] == pytest.approx(upper - 0.875, abs=1e-15)
    # with g_max = 4 the top probability is 15/16
    upper4 = _err_loop([7 / 16, 0, 1 / 16, 0, 15 / 16, 3 / 16] + [15 / 16] * 200)
    assert ERR(max_grade=4, k=20).residual(b)[0] == pytest.approx(
        upper4 - ERR(max_grade=4).compute(b)[0], abs=1e-15
    )
    # everything unjudged: the upper bound is the endless ranking at rho
    allun = _batch(q=[("q1", "zz", 3)], r=[("q1", "a", 2.0), ("q1", "b", 1.0)])
    assert ERR(max_grade=3).residual(allun)[0] == pytest.approx(
        rho / (1 - rho) * math.log(1 / rho), abs=1e-14
    )
    # a fully judged run still has a residual: the ranks past its end
    judged = _batch(q=[("q1", "a", 3), ("q1", "b", 1)], r=[("q1", "a", 2.0), ("q1", "b", 1.0)])
    lo = _err_loop([7 / 8, 1 / 8])
    assert ERR(max_grade="qrels").residual(judged)[0] == pytest.approx(
        _err_loop([7 / 8, 1 / 8] + [rho] * 200) - lo, abs=1e-15
    )


def test_cascade_tail_closed_forms():
    # depth 0: sum rho (1-rho)^m / (m+1) = rho/(1-rho) ln(1/rho)
    for rho in (0.05, 0.3, 0.5, 15 / 16):
        assert cascade_tail(np.array([0]), rho)[0] == pytest.approx(
            rho / (1 - rho) * math.log(1 / rho), rel=1e-13
        )
    assert cascade_tail(np.array([0, 4]), 1.0).tolist() == [1.0, 0.2]
    assert cascade_tail(np.array([3]), 0.0).tolist() == [0.0]


def test_residuals_on_web2012_are_bounds():
    q = cwlkit.read_qrels(QRELS)
    b = build_batch(q, cwlkit.read_run(WEB / "runs" / "web2012.ql.catb-filtered.run.gz"))
    m = ERR(max_grade=4, k=20)
    lo, res = m.compute(b), m.residual(b)
    assert (res >= 0).all() and (lo + res <= 1.0).all() and (res > 0.01).any()


def test_err_in_cwl_reports_eu_and_undefined_columns(cli, tmp_path):
    qp, rp = tmp_path / "q", tmp_path / "r"
    qp.write_text("".join(f"{t} 0 {d} {g}\n" for t, d, g in HAND_Q))
    rp.write_text("".join(f"{t} Q0 {d} {i} {s} run\n" for i, (t, d, s) in enumerate(HAND_R, 1)))
    rc, out, err = cli("cwl", qp, rp, "-M", "ERR(max_grade=3)@2", "-M", "RR", "-r")
    assert rc == 0, err
    line = out.splitlines()[0].split("\t")
    b = _batch()
    assert line[:3] == ["q1", "ERR(max_grade=3)@2", "0.8750"]
    assert (
        line[3:7] == ["nan"] * 4
        and line[7] == f"{ERR(max_grade=3, k=2).residual(b)[0]:.4f}"
        and line[8:] == ["nan"] * 4
    )
    res = cwlkit.evaluate(qp, rp, ["ERR(max_grade=3)@2"], residuals=True)
    assert res.values[0, 0] == 0.875 and np.isnan(res.columns["ED"][0, 0])
    assert res.columns["ResEU"][0, 0] == pytest.approx(
        ERR(max_grade=3, k=2).residual(b)[0], abs=1e-15
    )


# --- what gdeval.pl rejects ---------------------------------------------------------------


def _write(tmp_path, q: str, r: str):
    qp, rp = tmp_path / "qrels.txt", tmp_path / "run.txt"
    qp.write_text(q)
    rp.write_text(r)
    return qp, rp


def test_non_numeric_topics_and_order(cli, tmp_path):
    """gdeval.pl needs digits; cwlkit takes any id: digit ids first in numeric order, then bytes."""
    q = "".join(f"{t} 0 a 2\n{t} 0 b 1\n" for t in ("T1", "b-7", "10", "9", "0008"))
    q += "nopos 0 a 0\n"
    r = "".join(
        f"{t} Q0 b 1 2.0 myrun\n{t} Q0 a 2 1.0 myrun\n"
        for t in ("b-7", "10", "T1", "9", "0008", "nopos", "norel")
    )
    qp, rp = _write(tmp_path, q, r)
    rc, out, err = cli("gdeval", "-k", "5", qp, rp)
    assert rc == 0 and err == ""
    lines = out.splitlines()
    assert lines[0] == "runid,topic,ndcg@5,err@5"
    assert [x.split(",")[1] for x in lines[1:]] == ["0008", "9", "10", "T1", "b-7", "amean"]
    # b (grade 1) then a (grade 2): DCG = 1 + 3/log2(3); ideal 3 + 1/log2(3)
    ndcg = (1 + 3 / math.log2(3)) / (3 + 1 / math.log2(3))
    err_ = 1 / 16 + (15 / 16) * (3 / 16) / 2
    assert lines[1] == f"myrun,0008,{ndcg:.5f},{err_:.5f}"
    assert lines[-1] == f"myrun,amean,{ndcg:.5f},{err_:.5f}"


def test_average_over_all_qrels_topics(cli, tmp_path):
    """-c divides by the qrels topics with a grade > 0 (here 3: 1, 2, 3; 4 has none)."""
    q = "1 0 a 1\n2 0 a 1\n3 0 a 4\n4 0 a 0\n"
    r = "1 Q0 a 1 1.0 r\n2 Q0 b 1 1.0 r\n4 Q0 a 1 1.0 r\n5 Q0 a 1 1.0 r\n"
    qp, rp = _write(tmp_path, q, r)
    rc, out, _ = cli("gdeval", qp, rp)
    assert out.splitlines()[1:] == [
        "r,1,1.00000,0.06250",
        "r,2,0.00000,0.00000",
        "r,amean,0.50000,0.03125",
    ]
    rc, out, _ = cli("gdeval", "-c", qp, rp)
    assert out.splitlines()[-1] == f"r,amean,{1 / 3:.5f},{0.0625 / 3:.5f}"


def test_grades_above_four_warn_and_max_grade(cli, tmp_path):
    q = "1 0 a 6\n1 0 b 2\n"
    r = "1 Q0 b 1 2.0 r\n1 Q0 a 2 1.0 r\n"
    qp, rp = _write(tmp_path, q, r)
    rc, out, err = cli("gdeval", qp, rp)
    assert rc == 0
    assert err == (
        f"cwlkit gdeval: warning: {qp}:1: grade 6 is above gdeval.pl's maximum grade 4; "
        "ERR uses maximum grade 6 (set it with --max-grade)\n"
    )
    e6 = 3 / 64 + (61 / 64) * (63 / 64) / 2
    assert out.splitlines()[1].endswith(f",{e6:.5f}")
    rc, out, err = cli("gdeval", "--max-grade", "8", qp, rp)
    e8 = 3 / 256 + (253 / 256) * (63 / 256) / 2
    assert rc == 0 and err == "" and out.splitlines()[1].endswith(f",{e8:.5f}")
    rc, out, err = cli("gdeval", "--max-grade", "4", qp, rp)
    assert (
        rc == 2 and out == "" and err == f"cwlkit: error: {qp}:1: grade 6 is above --max-grade 4\n"
    )


@pytest.mark.parametrize(
    "q,r,args,needle",
    [
        ("1 0 a\n", "1 Q0 a 1 1 r\n", [], "qrels.txt:1: expected 4 fields"),
        (
            "1 0 a 1\n1 0 b high\n",
            "1 Q0 a 1 1 r\n",
            [],
            "qrels.txt:2: expected a number for the relevance label",
        ),
        (
            "1 0 a 1\n",
            "1 Q0 a 1 1 r\n1 Q0 b 2 x r\n",
            [],
            "run.txt:2: expected a number for the score, got 'x'",
        ),
        (
            "1 0 a 1\n",
            "1 Q0 a 1 1 r\n1 Q0 a 2 0 r\n",
            [],
            "run.txt:2: document 'a' appears twice for topic '1'",
        ),
        ("1 0 a 1\n", "1 Q0 a 1 1 r\n", ["-k", "0"], "-k must be >= 1; got 0"),
        ("1 0 a 1\n", "1 Q0 a 1 1 r\n", ["-k", "x"], "argument -k: invalid int value"),
        ("1 0 a 1\n", "1 Q0 a 1 1 r\n", ["--max-grade", "0"], "--max-grade must be > 0"),
    ],
)
def test_bad_input(cli, tmp_path, q, r, args, needle):
    qp, rp = _write(tmp_path, q, r)
    rc, out, err = cli("gdeval", *args, qp, rp)
    assert rc == 2 and out == ""
    assert err.startswith("cwlkit: error: ") and needle in err and err.count("\n") == 1


def test_missing_file(cli, tmp_path):
    rc, out, err = cli("gdeval", tmp_path / "nope", QRELS)
    assert rc == 2 and out == "" and err == f"cwlkit: error: {tmp_path / 'nope'}: no such file\n"


# --- risk-sensitive mode ------------------------------------------------------------------


def _gdeval_rows(path):
    rows = [line.split(",") for line in path.read_text().splitlines()[1:]]
    return {t: (float(n), float(e)) for _, t, n, e in rows}


def test_risk_sensitive_against_gdeval_outputs(cli):
    """-baseline: run - baseline per topic, losses doubled with riskAlpha 1; checked against
    gdeval.pl's own per-topic outputs of the two runs (5 decimals each, hence the tolerance)."""
    run = _gdeval_rows(WEB / "expected" / "web2012.rm.catb.gdeval.k10.txt")
    base = _gdeval_rows(WEB / "expected" / "web2012.ql.cata.gdeval.k10.txt")
    rc, out, err = cli(
        "gdeval",
        "-k",
        "10",
        "-baseline",
        WEB / "runs" / "web2012.ql.cata.run.gz",
        "-riskAlpha",
        "1.0",
        QRELS,
        WEB / "runs" / "web2012.rm.catb.run.gz",
    )
    assert rc == 0 and err == ""
    lines = out.splitlines()
    assert lines[0] == "runid,topic,ndcg@10,err@10"
    rows = [line.split(",") for line in lines[1:]]
    assert all(r[0] == "indri (rel to. indri; rs=1+a; a=1.0)" for r in rows)
    assert [r[1] for r in rows[:-1]] == [t for t in run if t != "amean"]
    sums = np.zeros(2)
    for _, t, n, e in rows[:-1]:
        for j, got in enumerate((float(n), float(e))):
            d = run[t][j] - base[t][j]
            want = 2 * d if d < 0 else d
            assert got == pytest.approx(want, abs=2.5e-5), (t, j)
            sums[j] += want
    assert float(rows[-1][2]) == pytest.approx(sums[0] / (len(rows) - 1), abs=2.5e-5)
    assert float(rows[-1][3]) == pytest.approx(sums[1] / (len(rows) - 1), abs=2.5e-5)


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (
            ["-baseline", "web2012.rm.catb.run", "-riskAlpha", "1", "web2012.ql.cata.run"],
            "web2012.ql.cata.rel.rm.catb.a1.k20.txt",
        ),
        (
            ["-c", "-k", "10", "-baseline", "web2012.rm.catb.run", "-riskAlpha", "0.5"]
            + ["web2012.ql.cata-filtered.run"],
            "web2012.ql.cata-filtered.rel.rm.catb.a0.5.c.k10.txt",
        ),
    ],
)
def test_risk_sensitive_bytes_are_gdeval_pl_v13s(cli, args, expected):
    """gdeval.pl v1.3's own risk-sensitive output (tests/fixtures/gdeval_risk), byte for
    byte: the runid ``RUN (rel to. BASE; rs=1+a; a=ALPHA)`` with semicolons, the deltas, the
    amean."""
    runs = {a: str(WEB / "runs" / f"{a}.gz") for a in args if a.endswith(".run")}
    argv = [runs.get(a, a) for a in args]
    rc, out, err = cli("gdeval", *argv[:-1], QRELS, argv[-1])
    assert rc == 0 and err == ""
    assert out == (FIXTURES / "gdeval_risk" / expected).read_text()


def test_risk_sensitive_all_topics(cli, tmp_path):
    """With -c, qrels topics the run misses score 0 - baseline and print last. (Topic 3, in
    neither run nor baseline, scores 0; gdeval.pl v1.3 prints -3.00000,-0.18750 for it: it
    keeps topic 1's baseline values, not reset between missing topics; docs/err.md.)"""
    q = "1 0 a 1\n2 0 a 1\n3 0 a 1\n"
    r = "2 Q0 a 1 1.0 new\n"
    b = "1 Q0 a 1 1.0 old\n2 Q0 b 1 1.0 old\n"
    qp, rp = _write(tmp_path, q, r)
    bp = tmp_path / "base.txt"
    bp.write_text(b)
    rc, out, err = cli("gdeval", "-c", "-baseline", bp, "-riskAlpha", "2", qp, rp)
    assert rc == 0, err
    tag = "new (rel to. old; rs=1+a; a=2)"
    assert out.splitlines() == [
        "runid,topic,ndcg@20,err@20",
        f"{tag},2,1.00000,0.06250",
        f"{tag},1,-3.00000,-0.18750",
        f"{tag},3,0.00000,0.00000",
        f"{tag},amean,{-2 / 3:.5f},{-0.125 / 3:.5f}",
    ]
    rc, out, err = cli("gdeval", "-riskAlpha", "-1", "-baseline", bp, qp, rp)
    assert rc == 2 and out == "" and "-riskAlpha must be >= 0" in err
    rc, out, err = cli("gdeval", "-riskAlpha", "1", qp, rp)
    assert rc == 2 and out == "" and "-riskAlpha needs -baseline" in err


# --- ERR@k is ir_measures' ERR@k (gdeval.pl's g_max = 4, whatever the qrels hold) ----------

needs_perl = pytest.mark.skipif(
    __import__("shutil").which("perl") is None, reason="ir_measures' ERR runs gdeval.pl"
)


def test_err_at_k_takes_gdeval_top_grade_not_the_qrels():
    """Qrels ``1 0 d1 1``, d1 ranked first: gdeval.pl (ir_measures' ERR@20) gives
    r = (2^1 - 1) / 2^4 = 1/16; the qrels' largest label (1) would give 1/2."""
    b = _batch(q=[("1", "d1", 1)], r=[("1", "d1", 2.0), ("1", "d2", 1.0)])
    assert parse_measure("ERR@20").compute(b)[0] == 0.0625
    assert parse_measure("ERR(max_grade=qrels)@20").compute(b)[0] == 0.5
    assert parse_measure("ERR(max_grade=1)@20").compute(b)[0] == 0.5


def _ir_err(qrels: list, run_path, k: int = 20) -> dict:
    irm = pytest.importorskip("ir_measures")
    run = list(irm.read_trec_run(str(run_path)))
    return {m.query_id: m.value for m in irm.iter_calc([irm.ERR @ k], qrels, run)}


def _check_err_strings(qrels_path, runs, irq) -> int:
    """``cwlkit.evaluate(..., ["ERR@20"])`` (the string) per topic against ir_measures'
    ``ERR@20`` (gdeval.pl's ``%.5f``); returns the topics compared."""
    n = 0
    for run in runs:
        ref = _ir_err(irq, run)
        ours = cwlkit.evaluate(qrels_path, run, ["ERR@20"], trec_version=10).per_topic("ERR@20")
        assert set(ref) <= set(ours)
        bad = {t: (v, ours[t]) for t, v in ref.items() if abs(float(f"{ours[t]:.5f}") - v) > 1e-12}
        assert not bad, (run.name, bad)
        n += len(ref)
    return n


@needs_perl
@pytest.mark.parametrize("top", [2, 3])
def test_err_at_k_is_ir_measures_on_qrels_topping_out_below_four(tmp_path, top):
    """Web 2012's qrels with every label above ``top`` lowered to ``top``: ERR@20 is still
    gdeval.pl's (g_max = 4), as ir_measures computes it."""
    irm = pytest.importorskip("ir_measures")
    lines = []
    for ln in QRELS.read_text().splitlines():
        t, z, d, g = ln.split()
        lines.append(f"{t} {z} {d} {min(int(g), top)}\n")
    qp = tmp_path / "qrels"
    qp.write_text("".join(lines))
    irq = list(irm.read_trec_qrels(str(qp)))
    runs = [WEB / "runs" / "web2012.ql.cata.run.gz", WEB / "runs" / "web2012.rm.catb.run.gz"]
    assert _check_err_strings(qp, runs, irq) == 100


@needs_perl
@pytest.mark.slow
def test_err_at_k_is_ir_measures_on_web2012():
    """Every topic of the 8 Web 2012 runs: ``ERR@20`` is ir_measures' to 1e-12 (after
    gdeval.pl's rounding to 5 decimals)."""
    irm = pytest.importorskip("ir_measures")
    irq = list(irm.read_trec_qrels(str(QRELS)))
    runs = sorted((WEB / "runs").glob("*.run.gz"))
    assert len(runs) == 8
    assert _check_err_strings(QRELS, runs, irq) == 400
