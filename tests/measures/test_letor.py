"""``cwlkit letor``: golden outputs of LETOR's Perl scripts (data/letor/expected, made
with Eval-Score-3.0.pl and Eval-Score-4.0.pl), the LETOR document's worked P@n example, hand
computations of NDCG and MSLR conventions, Eval-Rank against Eval-Score, the t-test against
scipy, and the error messages."""

from __future__ import annotations

import math
import re
from pathlib import Path

import numpy as np
import pytest
from conftest import DATA, read_data
from scipy import stats

import cwlkit
from cwlkit.formats.letor import evaluate_letor_files
from cwlkit.io.letor import read_features, read_letor_results
from cwlkit.measures.letor import letor_qrels_run, letor_version
from cwlkit.measures.letor_measures import letor_measure_list

LETOR = DATA / "letor"
FEAT4 = LETOR / "MQ2008.Fold1.test.lf.txt.gz"
FEAT3 = LETOR / "MQ2008.Fold1.test.letor3.txt.gz"
PRED = LETOR / "MQ2008.Fold1.test.pred.linear.txt"
FEATURES = {"4.0": FEAT4, "3.0": FEAT3}
EXPECTED = {
    ("4.0", 0): "MQ2008.Fold1.test.linear.EvalScore4.flag0.txt",
    ("4.0", 1): "MQ2008.Fold1.test.linear.EvalScore4.flag1.txt",
    ("3.0", 0): "MQ2008.Fold1.test.linear.EvalScore3.flag0.txt",
    ("3.0", 1): "MQ2008.Fold1.test.linear.EvalScore3.flag1.txt",
}


def _expected(version: str, flag: int) -> bytes:
    return (LETOR / "expected" / EXPECTED[version, flag]).read_bytes()


def _write(path: Path, lines: list[str], eol: str = "\n") -> str:
    path.write_bytes("".join(line + eol for line in lines).encode())
    return str(path)


def _features(tmp_path: Path, rows: list[tuple[int, str, str]], name: str = "f.txt") -> str:
    """A feature file from (label, qid, docid) rows (two dummy features each)."""
    return _write(
        tmp_path / name,
        [f"{lab} qid:{q} 1:0.5 2:0.25 #docid = {d} inc = 1 prob = 0.5" for lab, q, d in rows],
    )


def _table(res) -> dict[str, np.ndarray]:
    """``{printed name: values[T]}``: each row of a LETOR Results under the name the script
    prints (``LETOR_P(version='3.0')@2`` is ``P@2``; ``NumRet`` stays)."""
    return {
        re.sub(r"^LETOR_|\(.*\)", "", name): row
        for name, row in zip(res.measures, res.values, strict=True)
    }


def _row(res, printed: str) -> np.ndarray:
    """The values of one printed column over positions, for a one-query Results:
    ``_row(res, "P")`` is P@1..P@K."""
    t = _table(res)
    if printed in ("P", "NDCG"):
        ks = sorted(int(n.split("@")[1]) for n in t if n.startswith(printed + "@"))
        return np.array([t[f"{printed}@{k}"][0] for k in ks])
    return t[printed]


def _scores(path: str, version: str, tmp_path: Path, labels, preds=None, **kw):
    """Evaluate one query with ``labels`` in ranked order (predictions decreasing)."""
    rows = [(lab, "1", f"D{i}") for i, lab in enumerate(labels)]
    feats = _features(tmp_path, rows, path)
    n = len(labels)
    pr = _write(
        tmp_path / (path + ".pred"),
        [str(p) for p in (preds if preds is not None else range(n, 0, -1))],
    )
    return evaluate_letor_files(feats, pr, version=version, **kw)


# ---------------------------------------------------------------------------- golden


@pytest.mark.parametrize("version,flag", sorted(EXPECTED))
def test_golden_eval_score(cli, tmp_path, version, flag):
    out = tmp_path / "out.txt"
    args = ["letor", "score", FEATURES[version], PRED, out, str(flag)]
    if version != "4.0":
        args += ["--version", version]
    rc, stdout, err = cli(*args)
    assert (rc, stdout, err) == (0, "", "")
    assert out.read_bytes() == _expected(version, flag)


@pytest.mark.parametrize("version", ["4.0", "3.0"])
def test_golden_to_stdout(cli, version):
    rc, stdout, err = cli("letor", "score", FEATURES[version], PRED, "-", "1", "--version", version)
    assert rc == 0 and err == ""
    assert stdout.encode() == _expected(version, 1)


def test_crlf_input_gives_the_same_bytes(cli, tmp_path):
    """LETOR 4.0 ships CRLF files (which Eval-Score-4.0.pl rejects on Linux): we accept them."""
    feats = tmp_path / "crlf.txt"
    feats.write_bytes(read_data(FEAT4).encode().replace(b"\n", b"\r\n"))
    pred = tmp_path / "pred.txt"
    pred.write_bytes(PRED.read_bytes().replace(b"\n", b"\r\n"))
    assert b"\r\n" in feats.read_bytes()
    rc, stdout, err = cli("letor", "score", feats, pred, "-", "1")
    assert rc == 0 and err == ""
    assert stdout.encode() == _expected("4.0", 1)


def _rank_positions(features: Path, pred: Path) -> list[str]:
    """Rank positions as the scores induce them: per query, by score descending, ties in file
    order (computed here with a plain sort, independently of cwlkit)."""
    qids = [line.split()[1] for line in read_data(features).splitlines()]
    scores = [float(x) for x in pred.read_text().split()]
    by_q: dict[str, list[int]] = {}
    for i, q in enumerate(qids):
        by_q.setdefault(q, []).append(i)
    ranks = [0] * len(qids)
    for idx in by_q.values():
        for r, i in enumerate(
            sorted(idx, key=lambda i: -scores[i]), 1
        ):  # stable: file order on ties
            ranks[i] = r
    return [str(r) for r in ranks]


@pytest.mark.parametrize("version,flag", sorted(EXPECTED))
def test_eval_rank_matches_eval_score(cli, tmp_path, version, flag):
    ranks = _write(tmp_path / "ranks.txt", _rank_positions(FEATURES[version], PRED))
    rc, stdout, err = cli(
        "letor", "rank", FEATURES[version], ranks, "-", str(flag), "--version", version
    )
    assert rc == 0 and err == ""
    assert stdout.encode() == _expected(version, flag)


# ---------------------------------------------------------------------------- definitions


def test_seed_precision_example(tmp_path):
    """The LETOR document's example: relevant, irrelevant, irrelevant, relevant, relevant,
    relevant, irrelevant, irrelevant, relevant, relevant gives P@1..P@10 = 1, 1/2, 1/3, 2/4,
    3/5, 4/6, 4/7, 4/8, 5/9, 6/10."""
    labels = [1, 0, 0, 1, 1, 1, 0, 0, 1, 1]
    expected = [1, 1 / 2, 1 / 3, 2 / 4, 3 / 5, 4 / 6, 4 / 7, 4 / 8, 5 / 9, 6 / 10]
    for version in ("4.0", "3.0"):
        s = _scores(f"seed{version}", version, tmp_path, labels)
        np.testing.assert_allclose(_row(s, "P")[:10], expected, rtol=0, atol=1e-15)
        ap = (1 + 2 / 4 + 3 / 5 + 4 / 6 + 5 / 9 + 6 / 10) / 6
        assert _row(s, "MAP")[0] == pytest.approx(ap, abs=1e-15)


def test_ndcg_by_hand_and_short_queries(tmp_path):
    """Labels 0, 2, 1 in ranked order. Gains 0, 3, 1; ranks 1 and 2 undiscounted, rank 3 by
    log2(3). Ideal order 2, 1, 0: IDCG = 3, 4, 4. 4.0 prints NDCG@4.. and pads P@k; 3.0 stops
    at the query's 3 documents."""
    s4 = _scores("a", "4.0", tmp_path, [0, 2, 1])
    nd3 = (3 + 1 / math.log2(3)) / 4
    np.testing.assert_allclose(_row(s4, "NDCG")[:3], [0.0, 3 / 4, nd3], rtol=0, atol=1e-15)
    assert (_row(s4, "NDCG")[3:] == 0).all()  # undefined: printed and averaged as 0
    np.testing.assert_allclose(
        _row(s4, "P"),
        [0, 1 / 2, 2 / 3, 2 / 4, 2 / 5, 2 / 6, 2 / 7, 2 / 8, 2 / 9, 2 / 10],
        atol=1e-15,
    )
    assert _row(s4, "MeanNDCG")[0] == pytest.approx((0 + 3 / 4 + nd3) / 3, abs=1e-15)
    assert _row(s4, "MAP")[0] == pytest.approx((1 / 2 + 2 / 3) / 2, abs=1e-15)
    s3 = _scores("b", "3.0", tmp_path, [0, 2, 1])
    # 3.0 leaves P@4.. and NDCG@4.. out: 0 in the results (they add 0 to its average)
    assert (_row(s3, "P")[3:] == 0).all() and (_row(s3, "NDCG")[3:] == 0).all()
    assert _row(s3, "NumRet")[0] == 3 and len(_row(s3, "P")) == 16
    from cwlkit.formats.letor import format_letor

    text = format_letor(s3, 1)
    assert text.startswith(
        "precision of query0:\t0\t0.5\t0.666666666666667"
        "\t\nprecision:\t0\t0.5\t0.666666666666667\t\n\n"
    )
    assert f"NDCG of query0:\t0\t0.75\t{nd3:.15g}\t\n" in text


def test_queries_without_relevant_documents_count_as_zero(cli, tmp_path):
    rows = [(1, "7", "a"), (0, "7", "b"), (0, "8", "c"), (0, "8", "d")]
    feats = _features(tmp_path, rows)
    pred = _write(tmp_path / "p.txt", ["2", "1", "2", "1"])
    rc, out, err = cli("letor", "score", feats, pred, "-", "1")
    assert rc == 0
    lines = out.splitlines()
    assert (
        lines[1] == "7\t1.0000\t0.5000\t0.3333\t0.2500\t0.2000\t0.1667"
        "\t0.1429\t0.1250\t0.1111\t0.1000\t1.0000"
    )
    assert lines[2] == "8\t" + "\t".join(["0.0000"] * 11)
    assert (
        lines[3] == "Average\t0.5000\t0.2500\t0.1667\t0.1250\t0.1000"
        "\t0.0833\t0.0714\t0.0625\t0.0556\t0.0500\t0.5000"
    )
    assert lines[6] == "7\t1.0000\t1.0000" + "\t0.0000" * 8 + "\t1.0000"  # NDCG@k = 0 past the end
    assert lines[7] == "8\t" + "\t".join(["0.0000"] * 11)  # NDCG 0 when the ideal DCG is 0


def test_ties_keep_file_order_and_queries_sort_numerically(tmp_path):
    rows = [(0, "10", "a"), (2, "10", "b"), (0, "9", "c"), (1, "9", "d")]
    feats = _features(tmp_path, rows)
    pred = _write(tmp_path / "p.txt", ["0.5", "0.5", "3", "3"])
    s = evaluate_letor_files(feats, pred)
    from cwlkit.formats.letor import format_letor

    rows = format_letor(s, 1).splitlines()
    assert [r.split("\t")[0] for r in rows[1:3]] == ["9", "10"]  # numeric, not text, order
    # tie: file order, so the irrelevant document first in both queries
    assert s.per_topic("LETOR_P@1") == {"9": 0.0, "10": 0.0}
    assert s.per_topic("LETOR_P@2") == {"9": 0.5, "10": 0.5}


def test_duplicate_docids_keep_the_last_line(tmp_path):
    """Eval-Score-3.0/4.0 key documents by (qid, docid) in a hash: a repeated docid keeps the
    last line's label and prediction (and its place in the tie order). MSLR keys by line."""
    rows = [(2, "1", "x"), (0, "1", "y"), (0, "1", "x")]
    feats = _features(tmp_path, rows)
    pred = _write(tmp_path / "p.txt", ["9", "1", "5"])
    s4 = evaluate_letor_files(feats, pred, version="4.0")
    assert s4.per_topic("LETOR_MAP") == {"1": 0.0}  # only 'y' (0) and the last 'x' (0)
    s3 = evaluate_letor_files(feats, pred, version="3.0")
    assert s3.per_topic("NumRet") == {"1": 2.0}
    f = read_features(feats)
    _, run = letor_qrels_run(f, np.array([9.0, 1.0, 5.0]), version=letor_version("mslr"))
    assert len(run) == 3


def test_mslr_conventions(tmp_path):
    """MSLR: gains 0, 1, 3, 7, 15 for labels 0..4; label 1 is not relevant for P@n/MAP but has
    gain 1 in NDCG; no docid needed."""
    feats = _write(
        tmp_path / "m.txt",
        ["1 qid:5 1:0.1 2:0.2", "4 qid:5 1:0.1 2:0.2", "0 qid:5 1:0.3 2:0.2", "3 qid:5 1:0 2:1"],
    )
    pred = _write(tmp_path / "p.txt", ["4", "3", "2", "1"])  # ranked order: labels 1, 4, 0, 3
    s = evaluate_letor_files(feats, pred, version="mslr")
    np.testing.assert_allclose(_row(s, "P")[:4], [0, 1 / 2, 1 / 3, 2 / 4], atol=1e-15)
    assert _row(s, "MAP")[0] == pytest.approx((1 / 2 + 2 / 4) / 2, abs=1e-15)
    dcg = [1, 1 + 15, 16 + 0, 16 + 7 / 2]  # rank 4 discounted by log2(4) = 2
    idcg = [15, 15 + 7, 22 + 1 / math.log2(3), 22 + 1 / math.log2(3)]
    np.testing.assert_allclose(_row(s, "NDCG")[:4], np.divide(dcg, idcg), rtol=1e-15)
    assert _row(s, "MeanNDCG")[0] == pytest.approx(np.mean(np.divide(dcg, idcg)), rel=1e-15)
    assert len(_row(s, "NDCG")) == 10 and (_row(s, "NDCG")[4:] == 0).all()


def test_mslr_on_mq2008_agrees_with_40_where_the_conventions_agree():
    """On labels 0..2 MSLR's gains equal 4.0's, so NDCG and MeanNDCG agree; P@n and MAP agree
    with 4.0 told that only label 2 is relevant."""
    sm = _table(evaluate_letor_files(str(FEAT4), str(PRED), version="mslr"))
    s4 = _table(evaluate_letor_files(str(FEAT4), str(PRED), version="4.0"))
    s4r = _table(evaluate_letor_files(str(FEAT4), str(PRED), version="4.0", relevant="2"))
    assert sorted(sm) == sorted(s4) == sorted(s4r)
    for name in sm:
        if name.startswith(("NDCG", "MeanNDCG")):
            np.testing.assert_array_equal(sm[name], s4[name])
        else:
            np.testing.assert_array_equal(sm[name], s4r[name])
    assert not np.array_equal(sm["MAP"], s4["MAP"])


def test_qrels_run_api_matches_the_files(tmp_path):
    """The qrels and run of letor_qrels_run, through cwlkit.Evaluator, give
    evaluate_letor_files' values (which are the scripts': the golden tests)."""
    feats = read_features(FEAT4)
    preds = np.loadtxt(PRED)
    v = letor_version("4.0")
    qrels, run = letor_qrels_run(feats, preds, version=v)
    ev = cwlkit.Evaluator(qrels, letor_measure_list("4.0"), order="rank", topics="run")
    s = ev.evaluate(run)
    assert len(s.topics) == 156 and len(run) == len(qrels) == 2874
    assert s.mean()["LETOR_MAP"] == pytest.approx(0.3882, abs=5e-5)
    files = evaluate_letor_files(FEAT4, PRED)
    assert files.measures == s.measures and files.topics == s.topics
    np.testing.assert_array_equal(files.values, s.values)


# ---------------------------------------------------------------------------- labels and --gain


def test_label_outside_table_is_an_error_and_gain_maps_it(cli, tmp_path):
    rows = [(3, "1", "a"), (0, "1", "b"), (1, "1", "c")]
    feats = _features(tmp_path, rows)
    pred = _write(tmp_path / "p.txt", ["3", "2", "1"])
    rc, out, err = cli("letor", "score", feats, pred, "-", "1")
    assert rc == 2 and out == ""
    assert err.startswith(f"cwlkit: error: {feats}:1: label 3 is not in LETOR 4.0's gain table")
    assert "--gain" in err and err.count("\n") == 1
    rc, out, err = cli("letor", "score", feats, pred, "-", "1", "--gain", "exp")
    assert rc == 0 and err == ""
    s = evaluate_letor_files(feats, pred, gain="exp")
    assert "LETOR_NDCG(gain='exp')@3" in s.measures
    # label 3: gain 7, relevant. DCG = 7, 7, 7 + 1/log2(3); ideal 7, 8, 8
    np.testing.assert_allclose(
        _row(s, "NDCG")[:3], [1, 7 / 8, (7 + 1 / math.log2(3)) / 8], rtol=1e-15
    )
    np.testing.assert_allclose(_row(s, "P")[:3], [1, 1 / 2, 2 / 3], rtol=1e-15)
    assert (
        out.splitlines()[1] == "1\t1.0000\t0.5000\t0.6667\t0.5000\t0.4000\t0.3333"
        "\t0.2857\t0.2500\t0.2222\t0.2000\t0.8333"
    )


def test_gain_zero_reproduces_letors_silent_zero(cli, tmp_path):
    """--gain 3:0 gives what the Perl script does with a label 3 (gain 0, not relevant): the
    same output as the file with that label replaced by 0."""
    feats = _features(
        tmp_path,
        [(3, "1", "a"), (0, "1", "b"), (1, "1", "c"), (2, "2", "d"), (3, "2", "e")],
        "f3.txt",
    )
    zero = _features(
        tmp_path,
        [(0, "1", "a"), (0, "1", "b"), (1, "1", "c"), (2, "2", "d"), (0, "2", "e")],
        "f0.txt",
    )
    pred = _write(tmp_path / "p.txt", ["5", "4", "3", "2", "1"])
    rc1, out1, _ = cli("letor", "score", feats, pred, "-", "1", "--gain", "3:0")
    rc2, out2, _ = cli("letor", "score", zero, pred, "-", "1")
    assert rc1 == rc2 == 0 and out1 == out2


def test_bad_gain_spec(cli, tmp_path):
    rc, out, err = cli("letor", "score", FEAT4, PRED, "-", "1", "--gain", "3:x")
    assert rc == 2 and out == "" and "--gain" in err
    rc, out, err = cli("letor", "score", FEAT4, PRED, "-", "1", "--gain", "3:-1")
    assert rc == 2 and ">= 0" in err


# ---------------------------------------------------------------------------- errors


def test_prediction_line_count_mismatch(cli, tmp_path):
    pred = _write(tmp_path / "short.txt", PRED.read_text().splitlines()[:-3])
    rc, out, err = cli("letor", "score", FEAT4, pred, "-", "1")
    assert rc == 2 and out == ""
    assert str(pred) in err and str(FEAT4) in err and "2871" in err and "2874" in err
    assert err.count("\n") == 1 and "Traceback" not in err


def test_non_numeric_score(cli, tmp_path):
    lines = PRED.read_text().splitlines()
    lines[41] = "abc"
    pred = _write(tmp_path / "bad.txt", lines)
    rc, out, err = cli("letor", "score", FEAT4, pred, "-", "0")
    assert rc == 2 and out == ""
    assert err.startswith(f"cwlkit: error: {pred}:42: ") and "'abc'" in err


def test_bad_feature_line(cli, tmp_path):
    lines = read_data(FEAT3).splitlines()[:5]
    lines[2] = "1 1:0.5 2:0.3 #docid = x"
    feats = _write(tmp_path / "f.txt", lines)
    pred = _write(tmp_path / "p.txt", ["1"] * 5)
    rc, out, err = cli("letor", "score", feats, pred, "-", "1")
    assert (
        rc == 2 and out == "" and err.startswith(f"cwlkit: error: {feats}:3: expected 'label qid:Q")
    )
    lines[2] = "x qid:1 1:0.5 #docid = x"
    feats = _write(tmp_path / "f.txt", lines)
    rc, out, err = cli("letor", "score", feats, pred, "-", "1")
    assert rc == 2 and f"{feats}:3: expected an integer relevance label" in err


def test_rank_errors(cli, tmp_path):
    feats = _features(tmp_path, [(1, "1", "a"), (0, "1", "b"), (0, "1", "c")])
    pred = _write(tmp_path / "r.txt", ["1", "1", "3"])
    rc, out, err = cli("letor", "rank", feats, pred, "-", "1")
    assert rc == 2 and out == "" and f"{pred}:2: rank 1 for query 1" in err
    pred = _write(tmp_path / "r.txt", ["1", "2.5", "3"])
    rc, out, err = cli("letor", "rank", feats, pred, "-", "1")
    assert rc == 2 and f"{pred}:2: expected a rank position" in err


def test_bad_flag_and_missing_subcommand(cli):
    # the seed: a flag other than 1 gives the averages; --strict-flag is the scripts' check
    # (tests/measures/test_letor_flag.py)
    rc, out, err = cli("letor", "score", FEAT4, PRED, "-", "2", "--strict-flag")
    assert rc == 2 and out == "" and "FLAG" in err
    rc, out, err = cli("letor")
    assert rc == 2 and out == "" and "score, rank or ttest" in err


# ---------------------------------------------------------------------------- t-test


@pytest.fixture
def two_results(cli, tmp_path):
    """Per-query result files of two systems, both written by our own `letor score`."""
    rng = np.random.default_rng(7)
    base = np.loadtxt(PRED)
    other = _write(
        tmp_path / "other.txt", [repr(float(x)) for x in base + rng.normal(0, 0.05, base.size)]
    )
    a, b = tmp_path / "A.txt", tmp_path / "B.txt"
    assert cli("letor", "score", FEAT4, PRED, a, "1")[0] == 0
    assert cli("letor", "score", FEAT4, other, b, "1")[0] == 0
    return a, b


def _parse_rows(path: Path) -> dict[str, dict[str, float]]:
    """{measure: {qid: value}} read with plain Python, independently of cwlkit."""
    out: dict[str, dict[str, float]] = {}
    header: list[str] = []
    for line in path.read_text().splitlines():
        if line.startswith("qid\t"):
            header = line.split("\t")
        elif line and not line.startswith("Average"):
            vals = line.split("\t")
            for name, v in zip(header[1:], vals[1:], strict=True):
                out.setdefault(name, {})[vals[0]] = float(v)
    return out


def test_ttest_against_scipy(cli, two_results):
    a, b = two_results
    rc, out, err = cli("letor", "ttest", a, b, "-")
    assert rc == 0 and err == ""
    lines = out.split("\n")
    assert lines[:4] == [
        f"t-test results for A: {a} and B: {b}",
        "",
        "",
        "Measure\tNumber of queries\tMean A\tMean B\tt-value\tp-value",
    ]
    rows = [line.split("\t") for line in lines[4:] if line]
    names = [r[0] for r in rows]
    assert names == [f"P@{k}" for k in range(1, 11)] + ["MAP"] + [
        f"NDCG@{k}" for k in range(1, 11)
    ] + ["MeanNDCG"]
    A, B = _parse_rows(a), _parse_rows(b)
    tested = 0
    for name, n, ma, mb, t, p in rows:
        qids = list(A[name])
        x = np.array([A[name][q] for q in qids])
        y = np.array([B[name][q] for q in qids])
        assert int(n) == len(qids) == 156
        assert float(ma) == pytest.approx(x.mean(), rel=1e-13) and float(mb) == pytest.approx(
            y.mean(), rel=1e-13
        )
        if np.all(x == y):
            assert (float(t), float(p)) == (0.0, 1.0)
            continue
        ref = stats.ttest_rel(x, y)
        assert float(t) == pytest.approx(ref.statistic, rel=1e-12)
        assert float(p) == pytest.approx(ref.pvalue, rel=1e-12, abs=1e-300)
        tested += 1
    assert tested >= 15


def test_ttest_letor_p_is_the_upper_tail(cli, two_results):
    a, b = two_results
    rc, out, err = cli("letor", "ttest", a, b, "-", "--p", "letor")
    assert rc == 0
    A, B = _parse_rows(a), _parse_rows(b)
    for line in out.split("\n")[4:]:
        if not line:
            continue
        name, _, _, _, t, p = line.split("\t")
        x = np.array(list(A[name].values()))
        y = np.array([B[name][q] for q in A[name]])
        if np.all(x == y):
            continue
        up = stats.ttest_rel(x, y, alternative="greater").pvalue
        digits = abs(int(math.log10(up) - 5))  # Statistics::Distributions::precision_string
        assert p == f"{up:.{digits}f}"


def test_ttest_errors(cli, tmp_path, two_results):
    a, b = two_results
    lines = b.read_text().splitlines()
    short = _write(
        tmp_path / "short.txt", [line for line in lines if not line.startswith("18219\t")]
    )
    rc, out, err = cli("letor", "ttest", a, short, "-")
    assert rc == 2 and out == "" and "query 18219" in err and str(short) in err
    three = tmp_path / "three.txt"
    three.write_bytes(_expected("3.0", 1))
    rc, out, err = cli("letor", "ttest", a, three, "-")
    assert rc == 2 and "Eval-Score-3.0" in err
    flag0 = tmp_path / "flag0.txt"
    flag0.write_bytes(_expected("4.0", 0))
    rc, out, err = cli("letor", "ttest", a, flag0, "-")
    assert rc == 2 and "flag 1" in err


def test_result_reader_round_trip():
    r = read_letor_results(LETOR / "expected" / EXPECTED["4.0", 1])
    qids, vals = r.measures["MAP"]
    assert len(qids) == 156 and qids[0] == "18219" and vals[0] == 0.1667


# ---------------------------------------------------------------------------- loop reference


def _loop_reference(labels_by_q: dict[str, list[int]], version: str) -> tuple[dict, dict]:
    """A plain per-query, per-rank implementation of the scripts' definitions (the documented
    ones, written out as loops) to check the vectorised code on random inputs."""
    gains = {0: 0, 1: 1, 2: 3, 3: 7, 4: 15} if version == "mslr" else {0: 0, 1: 1, 2: 3}
    relevant = {2, 3, 4} if version == "mslr" else {1, 2}
    K = 16 if version == "3.0" else 10
    pad = version != "3.0"

    def dcg(labs, n):
        out, acc = [], 0.0
        for j in range(n):
            g = gains.get(labs[j], 0) if j < len(labs) else 0
            acc += g if j < 2 else g * math.log(2.0) / math.log(j + 1.0)
            out.append(acc)
        return out

    per_q = {}
    for q, labs in labels_by_q.items():
        n = len(labs)
        prec, nrel = [], 0
        for j in range(K if pad else min(K, n)):
            nrel += (labs[j] in relevant) if j < n else 0
            prec.append(nrel / (j + 1))
        ap, nrel = 0.0, 0
        for j in range(n):
            if labs[j] in relevant:
                nrel += 1
                ap += nrel / (j + 1)
        ap = ap / nrel if nrel else 0.0
        d, ideal = dcg(labs, n), dcg(sorted(labs, key=lambda x: -gains.get(x, 0)), n)
        nd = [d[j] / ideal[j] if ideal[j] != 0 else 0.0 for j in range(n)]
        per_q[q] = (prec, ap, nd[:K], sum(nd) / n)
    return per_q, {"K": K}


@pytest.mark.parametrize("version", ["4.0", "3.0", "mslr"])
def test_vectorised_code_matches_a_loop_reference(tmp_path, version):
    rng = np.random.default_rng({"4.0": 1, "3.0": 2, "mslr": 3}[version])
    top = 4 if version == "mslr" else 2
    rows, preds = [], []
    for q in rng.permutation(40):
        n = int(rng.integers(1, 25))
        for i in range(n):
            rows.append((int(rng.integers(0, top + 1)), str(q + 1), f"d{q}-{i}"))
            preds.append(float(rng.integers(0, 6)))  # many ties
    feats = _features(tmp_path, rows)
    pred = _write(tmp_path / "p.txt", [repr(p) for p in preds])
    s = evaluate_letor_files(feats, pred, version=version)
    t = _table(s)
    K = 16 if version == "3.0" else 10
    ranked: dict[str, list[int]] = {}
    order = sorted(range(len(rows)), key=lambda i: -preds[i])  # stable: file order on ties
    for i in order:
        ranked.setdefault(rows[i][1], []).append(rows[i][0])
    ref, _ = _loop_reference(ranked, version)
    assert sorted(s.topics) == sorted(ranked)
    for qi, q in enumerate(s.topics):
        prec, ap, nd, mean_nd = ref[q]
        p_row = [t[f"P@{k}"][qi] for k in range(1, K + 1)]
        nd_row = [t[f"NDCG@{k}"][qi] for k in range(1, K + 1)]
        assert p_row[: len(prec)] == prec
        assert all(v == 0 for v in p_row[len(prec) :])  # 3.0: absent, adds 0 to the mean
        assert t["MAP"][qi] == ap
        assert nd_row[: len(nd)] == nd and all(v == 0 for v in nd_row[len(nd) :])
        if version != "3.0":
            assert t["MeanNDCG"][qi] == mean_nd


def test_30_averages_stop_at_the_longest_query_and_single_document_queries(cli, tmp_path):
    """3.0 averages as many positions as the longest query has (here 3), dividing by all
    queries; a one-document query has P@1 and NDCG@1 only."""
    feats = _features(tmp_path, [(1, "1", "a"), (0, "1", "b"), (2, "1", "c"), (2, "2", "d")])
    pred = _write(tmp_path / "p.txt", ["3", "2", "1", "1"])
    rc, out, err = cli("letor", "score", feats, pred, "-", "1", "--version", "3.0")
    assert rc == 0 and err == ""
    lines = out.split("\n")
    assert lines[0] == "precision of query0:\t1\t0.5\t0.666666666666667\t"
    assert lines[1] == "precision of query1:\t1\t"
    assert lines[2] == f"precision:\t1\t0.25\t{(2 / 3) / 2:.15g}\t"
    assert "NDCG of query1:\t1\t\n" in out
    rc, out4, _ = cli("letor", "score", feats, pred, "-", "1")
    rows4 = out4.split("\n")
    assert (
        rows4[2] == "2\t1.0000\t0.5000\t0.3333\t0.2500\t0.2000\t0.1667"
        "\t0.1429\t0.1250\t0.1111\t0.1000\t1.0000"
    )
    assert rows4[7] == "2\t1.0000" + "\t0.0000" * 9 + "\t1.0000"  # NDCG@2.. = 0, MeanNDCG = 1


def test_negative_label_is_refused_unless_mapped(cli, tmp_path):
    feats = _features(tmp_path, [(-1, "1", "a"), (1, "1", "b")])
    pred = _write(tmp_path / "p.txt", ["2", "1"])
    rc, out, err = cli("letor", "score", feats, pred, "-", "1")
    assert rc == 2 and out == "" and f"{feats}:1: label -1 is negative" in err
    rc, out, err = cli("letor", "score", feats, pred, "-", "1", "--gain=-1:0")
    assert rc == 0 and out.split("\n")[1].startswith("1\t0.0000\t0.5000\t")


def test_ttest_of_two_results_against_scipy(tmp_path):
    """letor_ttest pairs the per-query values of two Results (here straight from
    evaluate_letor_files, topics in byte order) by topic: scipy's paired t-test per measure."""
    from cwlkit.formats.letor import letor_ttest

    rng = np.random.default_rng(3)
    other = _write(
        tmp_path / "o.txt",
        [repr(float(x)) for x in np.loadtxt(PRED) + rng.normal(0, 0.05, 2874)],
    )
    a = evaluate_letor_files(FEAT4, PRED)
    b = evaluate_letor_files(FEAT4, other)
    rows = letor_ttest(a, b)
    assert [r.measure for r in rows][:2] == ["LETOR_P@1", "LETOR_P@2"]
    assert rows[10].measure == "LETOR_MAP" and rows[-1].measure == "LETOR_MeanNDCG"
    for r in rows:
        x = np.array(list(a.per_topic(r.measure).values()))
        y = np.array([b.per_topic(r.measure)[t] for t in a.topics])
        assert r.n == 156 and r.mean_a == pytest.approx(x.mean(), rel=1e-13)
        if np.all(x == y):
            assert (r.t, r.p_two_sided) == (0.0, 1.0)
            continue
        ref = stats.ttest_rel(x, y)
        assert r.t == pytest.approx(ref.statistic, rel=1e-12)
        assert r.p_two_sided == pytest.approx(ref.pvalue, rel=1e-12, abs=1e-300)


def test_format_letor_needs_the_scripts_measures():
    from cwlkit.errors import CwlkitError
    from cwlkit.formats.letor import format_letor

    res = evaluate_letor_files(FEAT3, PRED, version="3.0")
    keep = [i for i, m in enumerate(res.measures) if m != "NumRet"]
    short = cwlkit.Results(res.values[keep], [res.measures[i] for i in keep], res.topics)
    with pytest.raises(CwlkitError, match="LETOR 3.0's file needs NumRet"):
        format_letor(short, 1)
    mixed = cwlkit.Results(
        np.zeros((2, 1)), ["LETOR_MAP", "LETOR_MAP(version='3.0')"], ["1"], run="x"
    )
    with pytest.raises(CwlkitError, match="different LETOR conventions"):
        format_letor(mixed, 1)
