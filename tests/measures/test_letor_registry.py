"""LETOR's measures in the registry (``LETOR_P@k``, ``LETOR_MAP``, ``LETOR_NDCG@k``,
``LETOR_MeanNDCG``) on the MQ2008 Fold1 test set with the shared linear predictions: per topic
against :func:`letor_measures` on the same ranking (built here), means against the files
LETOR's Perl scripts wrote (data/letor/expected), names, the label check, and the
``cwlkit letor`` path (:func:`evaluate_letor_files`) against the Evaluator on a run ranked here
as the scripts rank."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import numpy as np
import pytest
from conftest import DATA

import cwlkit
from cwlkit.errors import ParamError
from cwlkit.formats.letor import evaluate_letor_files, perl_num
from cwlkit.io.letor import read_features, read_predictions
from cwlkit.io.trec import Qrels, Run
from cwlkit.measures import registry
from cwlkit.measures.letor import (
    letor_gain_rel,
    letor_measures,
    letor_version,
)

LETOR = DATA / "letor"
PRED = LETOR / "MQ2008.Fold1.test.pred.linear.txt"
FEATURES = {
    "4.0": LETOR / "MQ2008.Fold1.test.lf.txt.gz",
    "3.0": LETOR / "MQ2008.Fold1.test.letor3.txt.gz",
}
EXPECTED = {
    "4.0": LETOR / "expected" / "MQ2008.Fold1.test.linear.EvalScore4.flag0.txt",
    "3.0": LETOR / "expected" / "MQ2008.Fold1.test.linear.EvalScore3.flag0.txt",
}
#: positions each script prints
POSITIONS = {"4.0": 10, "3.0": 16}


def _names(version: str) -> dict[str, str]:
    """Printed name -> measure name, for every column the version's script prints."""
    opt = "" if version == "4.0" else f"(version='{version}')"
    out = {f"P@{k}": f"LETOR_P{opt}@{k}" for k in range(1, POSITIONS[version] + 1)}
    out["MAP"] = f"LETOR_MAP{opt}"
    out |= {f"NDCG@{k}": f"LETOR_NDCG{opt}@{k}" for k in range(1, POSITIONS[version] + 1)}
    if version == "4.0":
        out["MeanNDCG"] = "LETOR_MeanNDCG"
    return out


@lru_cache(maxsize=2)
def _data(version: str):
    """(qids, docids, labels, scores) of the feature file, one entry per line."""
    feats = read_features(FEATURES[version])
    pred = read_predictions(PRED, feats)
    return (
        feats.qids.to_pylist(),
        feats.docids.to_pylist(),
        feats.labels.tolist(),
        pred.tolist(),
    )


def _qrels_run(version: str) -> tuple[list[tuple], list[tuple]]:
    """The qrels ``(qid, docid, label)`` and run ``(qid, docid, score)`` of the feature file."""
    q, d, lab, s = _data(version)
    return list(zip(q, d, lab, strict=True)), list(zip(q, d, s, strict=True))


def _order(version: str, rule: str) -> dict[str, list[int]]:
    """Each query's line indices in ranked order, sorted here with plain Python: ``batch`` is
    score descending, ties by docid descending (bytes); ``perl`` is the scripts' (score
    descending, ties in line order)."""
    q, d, _, s = _data(version)
    by_q: dict[str, list[int]] = {}
    for i, qid in enumerate(q):
        by_q.setdefault(qid, []).append(i)
    out = {}
    for qid, idx in by_q.items():
        if rule == "batch":
            idx = sorted(idx, key=lambda i: d[i].encode(), reverse=True)
        out[qid] = sorted(idx, key=lambda i: -s[i])  # stable
    return out


def _letor_scores(version: str, rule: str) -> dict[str, dict[str, float]]:
    """``{printed name: {qid: value}}`` from :func:`letor_measures` (the scripts' arithmetic)
    on the ranking ``rule``, values as the script prints them (absent positions of 3.0 as 0,
    as they add to the average)."""
    _, _, lab, _ = _data(version)
    order = _order(version, rule)
    qids = list(order)
    D = max(len(v) for v in order.values())
    labels = np.zeros((len(qids), D), dtype=np.int64)
    for r, qid in enumerate(qids):
        labels[r, : len(order[qid])] = [lab[i] for i in order[qid]]
    depth = np.array([len(order[qid]) for qid in qids], dtype=np.int64)
    v = letor_version(version)
    inside = np.arange(D)[None, :] < depth[:, None]
    gain, rel = letor_gain_rel(labels, v)
    precision, ap, ndcg, mean_ndcg = letor_measures(
        np.where(inside, gain, 0.0), np.where(inside, rel, 0.0), depth, v
    )
    cols = {f"P@{k}": precision[:, k - 1] for k in range(1, v.positions + 1)}
    cols["MAP"] = ap
    cols |= {f"NDCG@{k}": ndcg[:, k - 1] for k in range(1, v.positions + 1)}
    if v.mean_ndcg:
        cols["MeanNDCG"] = mean_ndcg
    return {
        name: dict(zip(qids, np.nan_to_num(v, nan=0.0).tolist(), strict=True))
        for name, v in cols.items()
    }


def _expected_means(version: str) -> dict[str, str]:
    """The ``Average`` numbers the script wrote (flag 0), as printed, by column name."""
    lines = EXPECTED[version].read_text().splitlines()
    out: dict[str, str] = {}
    if version == "4.0":
        header: list[str] = []
        for line in lines:
            f = line.split("\t")
            if f[0] == "qid":
                header = f[1:]
            elif f[0] == "Average":
                out |= dict(zip(header, f[1:], strict=True))
        return out
    for line in lines:
        f = line.rstrip("\t").split("\t")
        if f[0] == "precision:":
            out |= {f"P@{k}": v for k, v in enumerate(f[1:], 1)}
        elif f[0] == "MAP:":
            out["MAP"] = f[1]
        elif f[0] == "NDCG:":
            out |= {f"NDCG@{k}": v for k, v in enumerate(f[1:], 1)}
    return out


def _printed(version: str, value: float) -> str:
    return f"{value:.4f}" if version == "4.0" else perl_num(value)


def _perl_order_run(version: str) -> Run:
    """The run with each query's lines in the scripts' order (rank = position)."""
    q, d, _, s = _data(version)
    order = _order(version, "perl")
    return Run.from_records([(q[i], d[i], s[i]) for idx in order.values() for i in idx])


# ---------------------------------------------------------------------------- per topic


@pytest.mark.parametrize("version", ["4.0", "3.0"])
def test_per_topic_equals_evaluate_letor_on_the_same_ranking(version):
    """The registry measures on a batch (score descending, docid descending) give, topic by
    topic, exactly what letor_measures gives for that ranking (built here independently)."""
    qrels, run = _qrels_run(version)
    names = _names(version)
    res = cwlkit.evaluate(qrels, run, list(names.values()), topics="run")
    assert sorted(res.topics) == sorted(set(_data(version)[0]))
    assert len(res.topics) == 156
    want = _letor_scores(version, "batch")
    for printed, name in names.items():
        got = res.per_topic(name)
        assert got == want[printed], name


@pytest.mark.parametrize("version", ["4.0", "3.0"])
def test_per_topic_in_the_scripts_order(version):
    """order="rank" with the scripts' ranking gives letor_measures' values on that ranking
    (the ranking the ``cwlkit letor`` subcommand and the Perl scripts use)."""
    qrels = Qrels.from_records(_qrels_run(version)[0])
    names = _names(version)
    res = cwlkit.evaluate(qrels, _perl_order_run(version), list(names.values()), order="rank")
    want = _letor_scores(version, "perl")
    for printed, name in names.items():
        assert res.per_topic(name) == want[printed], name


# ---------------------------------------------------------------------------- means


def test_means_equal_eval_score_4_default_order():
    """cwlkit.evaluate's means, printed as Eval-Score-4.0.pl prints them (%.4f), are the
    Average rows of its file, with the batch's default ranking."""
    qrels, run = _qrels_run("4.0")
    names = _names("4.0")
    means = cwlkit.evaluate(qrels, run, list(names.values()), topics="run").mean()
    expected = _expected_means("4.0")
    assert sorted(expected) == sorted(names)
    got = {printed: _printed("4.0", means[name]) for printed, name in names.items()}
    assert got == expected


@pytest.mark.parametrize("version", ["4.0", "3.0"])
def test_means_equal_eval_score_in_the_scripts_order(version):
    """With the scripts' ranking (order="rank"), every mean equals the script's Average as
    printed: %.4f (4.0) and Perl's %.15g (3.0: 16 positions, MAP)."""
    qrels = Qrels.from_records(_qrels_run(version)[0])
    names = _names(version)
    means = cwlkit.evaluate(
        qrels, _perl_order_run(version), list(names.values()), order="rank"
    ).mean()
    expected = _expected_means(version)
    assert sorted(expected) == sorted(names)
    got = {printed: _printed(version, means[name]) for printed, name in names.items()}
    assert got == expected


def test_default_order_differs_from_the_scripts_only_on_a_tie():
    """The batch breaks score ties by docid, the scripts by line order: on this data one
    query's ranking differs, which moves only 3.0's NDCG@13..16 at full precision (and the
    4.0 MeanNDCG below its 4 printed decimals), as the module docstring says."""
    batch, perl = _order("3.0", "batch"), _order("3.0", "perl")
    _, _, lab, s = _data("3.0")
    differ = [q for q in batch if [lab[i] for i in batch[q]] != [lab[i] for i in perl[q]]]
    assert len(differ) == 1
    q = differ[0]
    assert len({s[i] for i in batch[q]}) < len(batch[q])  # a tie in that query
    qrels, run = _qrels_run("3.0")
    names = _names("3.0")
    means = cwlkit.evaluate(qrels, run, list(names.values()), topics="run").mean()
    expected = _expected_means("3.0")
    wrong = sorted(p for p, n in names.items() if perl_num(means[n]) != expected[p])
    assert wrong == ["NDCG@13", "NDCG@14", "NDCG@15", "NDCG@16"]
    for p in wrong:
        assert abs(means[names[p]] - float(expected[p])) < 2e-4
    mean4 = cwlkit.evaluate(*_qrels_run("4.0"), ["LETOR_MeanNDCG"], topics="run").mean()
    assert 0 < abs(mean4["LETOR_MeanNDCG"] - 0.4017) < 5e-5


# ---------------------------------------------------------------------------- names


@pytest.mark.parametrize(
    "text,name",
    [
        ("LETOR_NDCG@10", "LETOR_NDCG@10"),
        ("LETOR_MAP", "LETOR_MAP"),
        ("LETOR_P@5", "LETOR_P@5"),
        ("LETOR_MeanNDCG", "LETOR_MeanNDCG"),
        ("letor_ndcg@3", "LETOR_NDCG@3"),
        ("LETOR_NDCG(version='4.0')@10", "LETOR_NDCG@10"),
        ("LETOR_NDCG(version=3.0)@16", "LETOR_NDCG(version='3.0')@16"),
        ("LETOR_P(version=3)@16", "LETOR_P(version='3.0')@16"),
        ("LETOR_MAP(version=mslr)", "LETOR_MAP(version='mslr')"),
        ("LETOR_MeanNDCG(version='mslr')", "LETOR_MeanNDCG(version='mslr')"),
    ],
)
def test_names_parse(text, name):
    m = cwlkit.parse_measure(text)
    assert m.name == name
    assert type(m).__module__ == "cwlkit.measures.letor_measures"
    assert cwlkit.parse_measure(m.name) == m


def test_trec_eval_names_stay_trec_evals():
    for text, family in (("P@10", "P"), ("AP", "AP"), ("nDCG@10", "nDCG"), ("MAP", "AP")):
        m = cwlkit.parse_measure(text)
        assert type(m).__module__ == "cwlkit.measures.trec.registered", text
        assert type(m).family == family
        assert "letor" not in type(m).anchors
    # and they give other numbers than LETOR's on the same data
    qrels, run = _qrels_run("4.0")
    means = cwlkit.evaluate(qrels, run, ["nDCG@10", "LETOR_NDCG@10"], topics="run").mean()
    assert means["nDCG@10"] != means["LETOR_NDCG@10"]


def test_letor_anchors():
    for printed, family in (
        ("P@1", "LETOR_P"),
        ("P@16", "LETOR_P"),
        ("MAP", "LETOR_MAP"),
        ("NDCG@10", "LETOR_NDCG"),
        ("MeanNDCG", "LETOR_MeanNDCG"),
    ):
        assert registry.lookup_anchor("letor", printed).family == family


def test_bad_parameters():
    with pytest.raises(ParamError, match="prints no MeanNDCG"):
        cwlkit.parse_measure("LETOR_MeanNDCG(version=3.0)")
    with pytest.raises(ParamError, match="must be one of 4.0, 3.0, mslr"):
        cwlkit.parse_measure("LETOR_P(version=5)@10")
    with pytest.raises(ParamError):
        cwlkit.parse_measure("LETOR_NDCG@0")


# ---------------------------------------------------------------------------- labels


@pytest.mark.parametrize(
    "label,version,hint",
    [
        (3, "4.0", "version='mslr'"),
        (4, "3.0", "version='mslr'"),
        (5, "mslr", "map the qrels' labels"),
        (-2, "4.0", "negative grades"),
        (1.5, "4.0", "map the qrels' labels"),
    ],
)
def test_label_outside_the_gain_table_is_an_error(label, version, hint):
    qrels = [("1", "a", 1), ("1", "b", label), ("2", "c", 0)]
    run = [("1", "a", 2.0), ("1", "x", 1.0), ("2", "c", 1.0)]
    table = letor_version(version).label_set()
    with pytest.raises(ParamError) as exc:
        cwlkit.evaluate(qrels, run, [f"LETOR_NDCG(version='{version}')@10"])
    msg = str(exc.value)
    assert f"qrels label {label:g} (topic 1)" in msg
    assert f"LETOR {version}'s gain table {table}" in msg
    assert hint in msg


def test_unjudged_documents_count_as_label_zero():
    """A TREC run: unjudged documents are label 0; IDCG and the relevant count come from the
    qrels (every judged document of the topic, retrieved or not)."""
    qrels = [("1", "a", 2), ("1", "b", 0), ("1", "c", 1), ("1", "z", 1)]
    run = [("1", "a", 3.0), ("1", "x", 2.0), ("1", "c", 1.0)]
    res = cwlkit.evaluate(
        qrels, run, ["LETOR_P@2", "LETOR_MAP", "LETOR_NDCG@3", "LETOR_MeanNDCG"]
    ).mean()
    nd3 = (3 + 1 / np.log2(3)) / (3 + 1 + 1 / np.log2(3))  # gains 3, 0, 1; ideal 3, 1, 1
    assert res["LETOR_P@2"] == 0.5
    assert res["LETOR_MAP"] == pytest.approx((1 + 2 / 3) / 3, abs=1e-15)
    assert res["LETOR_NDCG@3"] == pytest.approx(nd3, abs=1e-15)
    assert res["LETOR_MeanNDCG"] == pytest.approx((1 + 3 / 4 + nd3) / 3, abs=1e-15)


def test_letor_measures_keep_the_scripts_conventions_past_the_end():
    """A 3-document ranking: 4.0 counts holes for P@k and gives NDCG@k = 0 past the end; 3.0
    leaves them out (0 here, as its Average adds 0)."""
    qrels = [("1", "a", 0), ("1", "b", 2), ("1", "c", 1)]
    run = [("1", "a", 3.0), ("1", "b", 2.0), ("1", "c", 1.0)]
    res = cwlkit.evaluate(
        qrels,
        run,
        [
            "LETOR_P@5",
            "LETOR_NDCG@5",
            "LETOR_P(version=3.0)@5",
            "LETOR_NDCG(version=3.0)@5",
            "LETOR_P(version=3.0)@3",
        ],
    ).mean()
    assert res["LETOR_P@5"] == 2 / 5
    assert res["LETOR_NDCG@5"] == 0.0
    assert res["LETOR_P(version='3.0')@5"] == 0.0
    assert res["LETOR_NDCG(version='3.0')@5"] == 0.0
    assert res["LETOR_P(version='3.0')@3"] == 2 / 3


@pytest.mark.parametrize("version", ["4.0", "3.0", "mslr"])
def test_letor_path_results_equal_the_evaluator_on_the_scripts_ranking(version):
    """The Results of the ``cwlkit letor`` path (evaluate_letor_files) equal, value for value,
    cwlkit.evaluate with the LETOR_* measures on the feature file's qrels and a run ranked
    here with plain Python as the scripts rank (score descending, ties in line order)."""
    feats = FEATURES.get(version, FEATURES["4.0"])
    got = evaluate_letor_files(feats, PRED, version=version)
    base = "4.0" if version == "mslr" else version
    qrels = Qrels.from_records(_qrels_run(base)[0])
    want = cwlkit.evaluate(qrels, _perl_order_run(base), got.measures, order="rank")
    assert len(got.measures) == (22 if base == "4.0" else 34)
    assert ("NumRet" in got.measures) == (version == "3.0")  # 3.0 prints a row per position
    opt = "" if version == "4.0" else f"(version='{version}')"
    assert f"LETOR_MAP{opt}" in got.measures
    assert got.topics == want.topics and len(got.topics) == 156
    np.testing.assert_array_equal(got.values, want.values)  # ==, not approximately


def test_subcommand_output_is_unchanged(cli, tmp_path: Path):
    """The subcommand computes through the Evaluator: its file is still the script's, byte
    for byte."""
    out = tmp_path / "out.txt"
    rc, _, err = cli("letor", "score", FEATURES["3.0"], PRED, out, "0", "--version", "3.0")
    assert (rc, err) == (0, "")
    assert out.read_bytes() == EXPECTED["3.0"].read_bytes()


def test_gain_and_relevant_parameters():
    """``gain`` and ``relevant`` are cwlkit letor's --gain and --relevant: label 3 with
    gain='exp' has gain 7 and is relevant (hand computation); relevant='2' leaves label 1
    out of P@k; the names spell them and parse back."""
    qrels = [("1", "a", 3), ("1", "b", 0), ("1", "c", 1)]
    run = [("1", "a", 3.0), ("1", "b", 2.0), ("1", "c", 1.0)]
    names = ["LETOR_NDCG(gain='exp')@3", "LETOR_P(gain=exp)@3"]
    res = cwlkit.evaluate(qrels, run, names)
    assert res.measures == ["LETOR_NDCG(gain='exp')@3", "LETOR_P(gain='exp')@3"]
    assert cwlkit.parse_measure("LETOR_P(relevant='2')@3").name == "LETOR_P(relevant='2')@3"
    mean = res.mean()
    # gains 7, 0, 1: DCG@3 = 7 + 1/log2(3); ideal 7, 1, 0: 8
    assert mean[names[0]] == pytest.approx((7 + 1 / np.log2(3)) / 8, abs=1e-15)
    assert mean["LETOR_P(gain='exp')@3"] == 2 / 3
    with pytest.raises(ParamError, match="version='mslr'"):  # label 3 outside 4.0's table
        cwlkit.evaluate(qrels, run, ["LETOR_P(relevant='2')@3"])
    q2 = [("1", "a", 2), ("1", "b", 0), ("1", "c", 1)]
    assert cwlkit.evaluate(q2, run, ["LETOR_P(relevant='2')@3"]).mean() == {
        "LETOR_P(relevant='2')@3": 1 / 3
    }
    with pytest.raises(ParamError, match="LETOR_NDCG: --gain must be 'exp' or a table"):
        cwlkit.parse_measure("LETOR_NDCG(gain='x')@3")
    with pytest.raises(ParamError, match="gains must be finite and >= 0"):
        cwlkit.parse_measure("LETOR_NDCG(gain='3:-1')@3")
    with pytest.raises(ParamError, match="negative grades"):  # 'exp' still refuses them
        cwlkit.evaluate([("1", "a", -1)], run, ["LETOR_NDCG(gain='exp')@3"])
