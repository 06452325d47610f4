"""C/W/L numbers against the seeds' tables (cwl_eval paper, INST paper) and hand computations."""

from __future__ import annotations

import math

import numpy as np
import pytest
from conftest import EXAMPLE

from cwlkit.measures.cwl import score_metric, weights
from cwlkit.measures.cwl.bpm import BPMD
from cwlkit.measures.cwl.inst import INSQ, INST
from cwlkit.measures.cwl.rbp import RBP

T1_GAIN = [0.0, 0.0, 0.2, 0.4, 1.0, 0.2, 0.0, 0.0, 1.0, 0.0, 0.0, 0.4, 0.0, 0.0, 0.0]

# cwl_eval paper, Table 1 (no costs) and Table 2 (costs), topic T1: EU ETU EC ETC ED.
# Table 2's IFT ETC is printed as 1.6959 in the paper, a typo for EC*ED = 1.8412. In cwl_eval's
# mode (--max-depth) TBG's name ends in a space, as cwl_eval prints it.
TABLE1 = {
    "AP": "0.2722 1.6000 1.0000 5.8776 5.8776",
    "RR": "0.0667 0.2000 1.0000 3.0000 3.0000",
    "P@5": "0.3200 1.6000 1.0000 5.0000 5.0000",
    "NDCG-k@10": "0.2270 1.0314 1.0000 4.5436 4.5436",
    "INST-T=2": "0.1545 0.6069 1.0000 3.9220 3.9292",
    "TBG-H@2 ": "0.1752 0.5981 1.0000 3.4142 3.4142",
    "BPM-Dynamic-T=1000-K=5-hb=1.0-hc=0": "0.3200 1.6000 1.0000 5.0000 5.0000",
    "IFT-C1-C2-T=2.0-b1=0.25-R1=10-A=0.2-b2=0.25-R2=10": "0.0659 0.1097 1.0000 1.6649 1.6649",
}
TABLE2 = {
    "AP": "0.2722 1.6000 1.1681 6.8653 5.8776",
    "RR": "0.0667 0.2000 0.7333 2.2000 3.0000",
    "P@5": "0.3200 1.6000 1.2800 6.4000 5.0000",
    "NDCG-k@10": "0.2270 1.0314 1.1827 5.3738 4.5436",
    "RBP@0.6": "0.1287 0.3218 1.0208 2.5520 2.5000",
    "TBG-H@2 ": "0.2143 0.7195 1.1513 3.8663 3.3582",
    "BPM-Dynamic-T=1000-K=5-hb=1.0-hc=1.0": "0.3200 1.6000 1.2800 6.4000 5.0000",
    "IFT-C1-C2-T=2.0-b1=0.25-R1=10-A=0.2-b2=0.25-R2=10": "0.0748 0.1269 1.0857 1.8412 1.6959",
}
METRICS = [
    "APCWLMetric()",
    "RRCWLMetric()",
    "PrecisionCWLMetric(5)",
    "NDCGCWLMetric(10)",
    "INSTCWLMetric(2)",
    "RBPCWLMetric(0.6)",
    "TBGCWLMetric(2)",
    "BPMDCWLMetric(1000,5,1.0,0)",
    "BPMDCWLMetric(1000,5)",
    "IFTGoalRateCWLMetric(2.0,0.25,10,0.2,0.25,10)",
]


def _rows(text: str) -> dict[tuple[str, str], str]:
    out = {}
    for line in text.splitlines():
        f = line.split("\t")
        out[(f[0], f[1])] = " ".join(f[2:7])
    return out


def _metric_args() -> list[str]:
    args = []
    for m in METRICS:
        args += ["-M", m]
    return args


@pytest.mark.parametrize("costs,table", [(False, TABLE1), (True, TABLE2)])
def test_cwl_paper_tables_depth_1000(cli, costs, table):
    args = [
        EXAMPLE / "example.qrels",
        EXAMPLE / "example.run",
        "--max-depth",
        "1000",
        "--order",
        "file",
    ]
    if costs:
        args += ["-c", EXAMPLE / "example.costs"]
    rc, out, err = cli("cwl", *args, *_metric_args())
    assert rc == 0, err
    rows = _rows(out)
    for name, want in table.items():
        assert rows[("T1", name)] == want, name


def test_cwl_paper_t2_ap(cli):
    # the reference's T2 row for AP (reference/cwl_eval.md, section 3.5)
    rc, out, _ = cli(
        "cwl",
        EXAMPLE / "example.qrels",
        EXAMPLE / "example.run",
        "-M",
        "APCWLMetric()",
        "--max-depth",
        "1000",
    )
    assert _rows(out)[("T2", "AP")] == "0.6213 1.5997 1.0000 2.5749 2.5749"


def test_inst_t1_exact_default_mode(cli):
    # without the depth cut INST-T=2 converges: ED = ETC = 3.9363 (reference: n = 10^6 run)
    rc, out, _ = cli(
        "cwl", EXAMPLE / "example.qrels", EXAMPLE / "example.run", "-M", "INSTCWLMetric(2)"
    )
    eu, etu, ec, etc, ed = map(float, _rows(out)[("T1", "INST-T=2")].split())
    assert (eu, etc, ed) == (0.1542, 3.9363, 3.9363)
    assert math.isclose(eu * ed, etu, abs_tol=1e-4)


def test_insq_closed_form_depth():
    # INSQ-T=2 on T1: ED = 16 (pi^2/6 - 1 - 1/4 - 1/9) = 4.5412 (the reference's closed form)
    g = np.array([T1_GAIN])
    s = score_metric(INSQ(2.0), g, np.ones_like(g), np.array([15]))
    assert s.ED[0] == pytest.approx(16 * (math.pi**2 / 6 - 1 - 1 / 4 - 1 / 9), abs=1e-12)
    assert s.ETC[0] == pytest.approx(s.ED[0], abs=1e-12)


def test_bpm_dynamic_updates_k_by_hc():
    # unit costs, T1: K_i = 5 + hc * sum_{j<i}(g_j - 0.5) = 5, 4.5, 4.0, 3.7 -> CC(4) = 4 >= 3.7
    g = np.array([T1_GAIN])
    fixed = score_metric(BPMD(1000, 5, 1.0, 1.0), g, np.ones_like(g), np.array([15]))
    assert fixed.ED[0] == 4.0
    assert fixed.EU[0] == pytest.approx(0.6 / 4)
    static_k = score_metric(BPMD(1000, 5, 1.0, 0.0), g, np.ones_like(g), np.array([15]))
    assert static_k.ED[0] == 5.0


# INST paper (Moffat, Bailey, Scholer, Thomas 2015), Table 1: T = 2, ten gains
INST_R = [0, 1.0, 0.5, 0, 0, 1.0, 0, 0.2, 0, 1.0]
INST_C = [0.640, 0.640, 0.669, 0.716, 0.751, 0.751, 0.779, 0.797, 0.815, 0.815]
INST_W_LO = [0.287, 0.184, 0.118, 0.079, 0.056, 0.042, 0.032, 0.025, 0.020, 0.016, 0.013, 0.011]
INST_W_HI = [0.309, 0.198, 0.127, 0.085, 0.061, 0.046, 0.034, 0.027, 0.021, 0.017, 0.014, 0.011]
INST_L = [0.360, 0.230, 0.135, 0.078, 0.049, 0.037, 0.025, 0.018, 0.013, 0.010]


def test_inst_paper_table1():
    g = np.array([INST_R])
    one = np.ones_like(g)
    lo = score_metric(INST(2.0), g, one, np.array([10]), pad_gain=0.0)
    hi = score_metric(INST(2.0), g, one, np.array([10]), pad_gain=1.0)
    assert round(lo.EU[0], 3) == 0.306
    assert round(hi.EU[0], 3) == 0.406
    assert round(hi.EU[0] - lo.EU[0], 3) == 0.100
    # "the expected search depth is between 3.24 and 3.48"
    assert round(hi.ED[0], 2) == 3.24 and round(lo.ED[0], 2) == 3.48
    wl = weights(INST(2.0), INST_R, pad_gain=0.0, horizon=12)
    wh = weights(INST(2.0), INST_R, pad_gain=1.0, horizon=12)
    assert np.round(wl["C"][:10], 3).tolist() == INST_C
    assert np.round(wl["C"][10:12], 3).tolist() == [0.831, 0.844]
    assert np.round(wh["C"][10:12], 3).tolist() == [0.815, 0.815]
    assert np.round(wl["W"][:12], 3).tolist() == INST_W_LO
    assert np.round(wh["W"][:12], 3).tolist() == INST_W_HI
    assert np.round(wl["L"][:10], 3).tolist() == INST_L


@pytest.mark.parametrize("gain,residual", [(0.0, 0.150), (1.0, 0.006)])
def test_inst_paper_residuals_of_ten_documents(gain, residual, tmp_path):
    # "a ranking of ten r_i = 0 values with T = 2 gives a residual of 0.150 ...
    #  ten r_i = 1 values ... a residual of just 0.006"
    from cwlkit import evaluate
    from cwlkit.io.trec import Qrels, Run

    q = Qrels.from_records([("q", f"d{i}", gain) for i in range(10)])
    r = Run.from_records([("q", f"d{i}", 10 - i) for i in range(10)])
    res = evaluate(q, r, ["INST(T=2)"], residuals=True)
    assert round(res.columns["ResEU"][0, 0], 3) == residual


def _tail_mass_inst(T: float, N: int) -> float:
    w = weights(INST(T), np.zeros(N), horizon=N)
    return 1.0 - w["W"][:N].sum()


@pytest.mark.parametrize(
    "T,delta,n,beyond",
    [
        (1, 0.05, 30, 0.0039),
        (3, 0.05, 105, 0.0029),
        (10, 0.05, 371, 0.0026),
        (1, 0.01, 154, 0.0002),
        (3, 0.01, 547, 0.0001),
        (10, 0.01, 1931, 0.0001),
    ],
)
def test_inst_paper_table2_evaluation_depths(T, delta, n, beyond):
    # the smallest n whose all-zero tail mass is below delta; V(n+1) = (2T/(n+2T))^2
    assert _tail_mass_inst(T, n) < delta <= _tail_mass_inst(T, n - 1)
    assert round((2 * T / (n + 2 * T)) ** 2, 4) == beyond


@pytest.mark.parametrize("T,ed", [(1, 2.58), (3, 6.53), (10, 20.51)])
def test_inst_paper_table2_expected_depths(T, ed):
    s = score_metric(INST(float(T)), np.zeros((1, 1)), np.ones((1, 1)), np.array([1]))
    assert round(s.ED[0], 2) == ed


@pytest.mark.parametrize(
    "p,delta,n",
    [
        (0.612, 0.05, 7),
        (0.847, 0.05, 19),
        (0.951, 0.05, 60),
        (0.612, 0.01, 10),
        (0.847, 0.01, 28),
        (0.951, 0.01, 92),
    ],
)
def test_inst_paper_table2_rbp_depths(p, delta, n):
    w = weights(RBP(p), np.zeros(n), horizon=n)
    assert 1 - w["W"][:n].sum() < delta <= 1 - w["W"][: n - 1].sum()


def test_rr_without_relevant_is_infinite(cli, tmp_path):
    q = tmp_path / "q"
    q.write_text("1 0 a 0\n1 0 b 0\n")
    r = tmp_path / "r"
    r.write_text("1 Q0 a 1 2 x\n1 Q0 b 2 1 x\n")
    rc, out, _ = cli("cwl", q, r, "-M", "RR_cwl")
    assert out == "1\tRR_cwl\t0.0000\t0.0000\t1.0000\tinf\tinf\n"
    rc, out, _ = cli("cwl", q, r, "-M", "RR_cwl", "--max-depth", "1000")
    assert out == "1\tRR_cwl\t0.0000\t0.0000\t1.0000\t0.0000\t1000.0000\n"  # cwl_eval's number


def test_precision_beyond_run_length(cli, tmp_path):
    q = tmp_path / "q"
    q.write_text("1 0 a 1\n1 0 b 1\n")
    r = tmp_path / "r"
    r.write_text("1 Q0 a 1 2 x\n1 Q0 b 2 1 x\n")
    rc, out, _ = cli("cwl", q, r, "-M", "P_cwl@2000")
    assert out.split("\t")[2] == f"{2 / 2000:.4f}"


def test_ties_average(cli, tmp_path):
    # d1 and d2 tie: with --ties average both get gain 0.5, so P@1 = 0.5 whatever the order
    q = tmp_path / "q"
    q.write_text("1 0 d1 1\n1 0 d2 0\n")
    r = tmp_path / "r"
    r.write_text("1 Q0 d1 1 5 x\n1 Q0 d2 2 5 x\n")
    rc, out, _ = cli("cwl", q, r, "-M", "P_cwl@1", "--ties", "average")
    assert out.split("\t")[2] == "0.5000"
    rc, out, _ = cli("cwl", q, r, "-M", "P_cwl@1")  # trec_eval order: docno descending, d2 first
    assert out.split("\t")[2] == "0.0000"


def test_gain_mappings(cli, tmp_path):
    q = tmp_path / "q"
    q.write_text("1 0 a 3\n1 0 b -2\n")
    r = tmp_path / "r"
    r.write_text("1 Q0 a 1 2 x\n1 Q0 b 2 1 x\n")
    rc, out, err = cli("cwl", q, r, "-M", "INST(T=1)", "--gain", "identity")
    assert rc == 2 and out == ""
    assert "label 3" in err and "INST" in err and "--gain" in err
    # the default (auto) divides graded labels by the largest, saying so on one line
    rc, out, err = cli("cwl", q, r, "-M", "P_cwl@2")
    assert rc == 0 and out.split("\t")[2] == "0.5000"  # 3/3 = 1 and the spam label -> 0
    assert err.startswith("cwlkit cwl: graded labels (up to 3): gains are label / 3 (--gain ")
    assert err.count("\n") == 1 and "give --gain to choose another mapping" in err
    rc, out, err = cli("cwl", q, r, "-M", "INST(T=1)")  # (it needs gains in [0, 1])
    assert rc == 0 and err.count("\n") == 1
    rc, out, _ = cli("cwl", q, r, "-M", "P_cwl@2", "--gain", "exp")
    assert out.split("\t")[2] == "0.5000"  # (2^3-1)/(2^3-1) = 1 and the spam label -> 0
    rc, out, _ = cli("cwl", q, r, "-M", "P_cwl@2", "--gain", "err")
    assert float(out.split("\t")[2]) == pytest.approx(7 / 8 / 2, abs=1e-4)
    rc, out, _ = cli("cwl", q, r, "-M", "P_cwl@2", "--gain", "3:0.5")
    assert out.split("\t")[2] == "0.2500"


def test_cwl_vectors_api():
    import cwlkit

    v = cwlkit.cwl_vectors(EXAMPLE / "example.qrels", EXAMPLE / "example.run", "RBP(p=0.6)", "T1")
    assert v["gain"].tolist() == T1_GAIN
    # RBP: W(i) = (1-p) p^(i-1), C = p, L = V (1-p)
    assert np.allclose(v["W"], 0.4 * 0.6 ** np.arange(15))
    assert np.allclose(v["C"], 0.6) and float(v["ED"]) == pytest.approx(2.5)
