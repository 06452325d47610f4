"""Leave-one-group-out reusability: a hand-worked example (RBP(p=0.5), depth 2), the property
that a group whose pooled documents the others all pool changes nothing, and TREC Web 2012
against an independent computation: the pools built by hand with pandas (trec_eval's order),
the qrels filtered with pandas, AP, bpref and infAP from pytrec_eval and the trec_eval binary
(when built at /work/peers-build/trec_eval), ranks counted by hand."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from conftest import DATA

import cwlkit
from cwlkit.errors import ParamError
from cwlkit.judging.reusability import read_groups, reusability, tag_prefix

W = DATA / "web2012"
RUNS = sorted(str(p) for p in (W / "runs").glob("*.run.gz"))
QRELS = W / "qrels.web.151-200.txt"
TREC_EVAL = Path("/work/peers-build/trec_eval")

# q1: d1, d3, d4 relevant; q2: e1, e2 relevant
QR = cwlkit.Qrels.from_records(
    [
        ("q1", "d1", 1),
        ("q1", "d2", 0),
        ("q1", "d3", 1),
        ("q1", "d4", 1),
        ("q1", "d5", 0),
        ("q2", "e1", 1),
        ("q2", "e2", 1),
        ("q2", "e3", 0),
    ]
)


def _run(rows):
    return cwlkit.Run.from_records([(t, d, float(s)) for t, d, s in rows])


HAND = {
    "a": _run(
        [("q1", "d1", 3), ("q1", "d3", 2), ("q1", "d5", 1), ("q2", "e1", 2), ("q2", "e2", 1)]
    ),
    "b": _run(
        [("q1", "d1", 3), ("q1", "d2", 2), ("q1", "d4", 1), ("q2", "e3", 2), ("q2", "e1", 1)]
    ),
    "b2": _run(
        [("q1", "d1", 3), ("q1", "d2", 2), ("q1", "d3", 1), ("q2", "e1", 2), ("q2", "e3", 1)]
    ),
    "c": _run([("q1", "d2", 3), ("q1", "d1", 2), ("q1", "d3", 1), ("q2", "e3", 1)]),
    "d": _run([("q1", "d2", 2), ("q1", "d5", 1), ("q2", "e3", 1)]),
}
GROUPS = {"a": "A", "b": "B", "b2": "B", "c": "C", "d": "C"}


def test_hand_worked_example():
    """Depth 2. Every run's pool: q1 {d1, d2, d3, d5}, q2 {e1, e2, e3} (d4 is never in a
    top 2: the baseline drops it). Without A: q1 {d1, d2, d5}, q2 {e1, e3}: d3 and e2, both
    relevant, are lost. RBP(p=0.5) = 0.5 * sum of 0.5^(i-1) over the relevant ranks i:
    a: baseline (0.75 + 0.75) / 2 = 0.75, reduced (0.5 + 0.5) / 2 = 0.5; the others'
    baselines: b (0.5 + 0.25) / 2 = 0.375, b2 (0.625 + 0.5) / 2 = 0.5625, c (0.375 + 0) / 2,
    d 0: a drops from rank 1 to 2 (b2 > 0.5). a's residual on the reduced qrels: q1 d3 at
    rank 2 (0.25) and the tail beyond rank 3 (0.125); q2 e2 at rank 2 (0.25) and beyond rank
    2 (0.25): mean 0.4375. Without B nothing is lost (A and C pool all of B's top 2s);
    without C only d5 (label 0)."""
    r = reusability(QR, HAND, GROUPS, depth=2, measure="RBP(p=0.5)")
    assert r.measures == ["RBP(p=0.5)", "Bpref", "infAP"]
    assert r.groups == {"A": ["a"], "B": ["b", "b2"], "C": ["c", "d"]}
    rows = {(x["run"], x["measure"]): x for x in r.to_records()}
    a = rows[("a", "RBP(p=0.5)")]
    assert a["score"] == pytest.approx(0.75, abs=1e-15)
    assert a["reduced"] == pytest.approx(0.5, abs=1e-15)
    assert a["delta"] == pytest.approx(-0.25, abs=1e-15)
    assert (a["rank"], a["reduced_rank"], a["rank_change"]) == (1, 2, 1)
    assert a["residual"] == pytest.approx(0.4375, abs=1e-15)
    assert a["bounded"] is True
    assert (a["lost"], a["lost_relevant"], a["judged"]) == (2, 2, 5)
    base = {n: rows[(n, "RBP(p=0.5)")]["score"] for n in HAND}
    assert base == pytest.approx({"a": 0.75, "b": 0.375, "b2": 0.5625, "c": 0.1875, "d": 0.0})
    for n in ("b", "b2"):
        for m in r.measures:
            assert rows[(n, m)]["delta"] == 0 and rows[(n, m)]["rank_change"] == 0
            assert rows[(n, m)]["lost"] == 0
    assert rows[("d", "RBP(p=0.5)")]["lost"] == 1
    assert rows[("d", "RBP(p=0.5)")]["lost_relevant"] == 0
    # bpref of a: every relevant document it retrieves is above every judged non-relevant
    # one, before and after: 1 on both topics
    b = rows[("a", "Bpref")]
    assert b["score"] == pytest.approx(1.0) and b["reduced"] == pytest.approx(1.0)
    assert np.isnan(b["residual"]) and b["bounded"] is None


def test_a_group_pooled_by_the_others_changes_nothing():
    """Property: add to Web 2012's runs a run whose top 10 are the first 10 of another run
    (reordered): its group's documents are all pooled by the others, so nothing changes."""
    src = cwlkit.read_run(RUNS[0]).table.to_pandas()
    src = src.sort_values(["topic", "score", "doc"], ascending=[True, False, False])
    top = src.groupby("topic").head(10).copy()
    top["score"] = -top["score"]  # the same documents, reversed
    runs = {Path(p).name: p for p in RUNS[:3]}
    runs["copy"] = cwlkit.Run.from_records(
        list(zip(top["topic"], top["doc"], top["score"], strict=True))
    )
    groups = {n: n for n in runs}
    r = reusability(QRELS, runs, groups, depth=10, measure="nDCG@10")
    for x in r.to_records():
        if x["run"] == "copy":
            assert x["delta"] == 0 and x["rank_change"] == 0 and x["lost"] == 0
    assert any(x["delta"] != 0 for x in r.to_records() if x["run"] != "copy")


def _pandas_pool(paths, depth):
    """Every (topic, doc) in some run's top ``depth`` under trec_eval's order (score as
    float32 descending, ties by document id descending)."""
    parts = []
    for p in paths:
        df = pd.read_csv(p, sep=r"\s+", header=None, names=["t", "q0", "d", "r", "s", "tag"])
        df["t"] = df["t"].astype(str)
        df["s"] = df["s"].astype(np.float32)
        df = df.sort_values(["t", "s", "d"], ascending=[True, False, False])
        parts.append(df.groupby("t").head(depth)[["t", "d"]])
    return pd.concat(parts).drop_duplicates()


def _pytrec(qrels: pd.DataFrame, path: str) -> dict[str, float]:
    import pytrec_eval

    qd: dict = {}
    for t, d, lab in zip(qrels["t"], qrels["d"], qrels["l"], strict=True):
        qd.setdefault(t, {})[d] = int(lab)
    run = pd.read_csv(path, sep=r"\s+", header=None, names=["t", "q0", "d", "r", "s", "tag"])
    rd: dict = {}
    for t, d, s in zip(run["t"].astype(str), run["d"], run["s"], strict=True):
        rd.setdefault(t, {})[d] = float(np.float32(s))
    ev = pytrec_eval.RelevanceEvaluator(qd, {"map", "bpref", "infAP"})
    per = ev.evaluate({t: v for t, v in rd.items() if t in qd})
    return {m: float(np.mean([v[m] for v in per.values()])) for m in ("map", "bpref", "infAP")}


def test_web2012_against_pandas_and_pytrec_eval(tmp_path):
    groups = {Path(p).name: Path(p).name.split(".")[1] for p in RUNS}  # ql, rm
    r = reusability(QRELS, RUNS, groups, depth=10, measure="AP")
    q = pd.read_csv(QRELS, sep=r"\s+", header=None, names=["t", "i", "d", "l"])
    q["t"] = q["t"].astype(str)
    full = _pandas_pool(RUNS, 10)
    base = q.merge(full, on=["t", "d"])
    names = [Path(p).name for p in RUNS]
    base_scores = {n: _pytrec(base, p) for n, p in zip(names, RUNS, strict=True)}
    key = {"AP": "map", "Bpref": "bpref", "infAP": "infAP"}
    rows = {(x["run"], x["measure"]): x for x in r.to_records()}
    for g in ("ql", "rm"):
        others = [p for p in RUNS if groups[Path(p).name] != g]
        red = q.merge(_pandas_pool(others, 10), on=["t", "d"])
        assert set(red["t"]) == set(base["t"])  # every topic keeps judgements
        for p in RUNS:
            n = Path(p).name
            if groups[n] != g:
                continue
            got = _pytrec(red, p)
            for m, k in key.items():
                x = rows[(n, m)]
                assert x["score"] == pytest.approx(base_scores[n][k], abs=1e-12), (n, m)
                assert x["reduced"] == pytest.approx(got[k], abs=1e-12), (n, m)
                rivals = [base_scores[o][k] for o in names if o != n]
                assert x["rank"] == 1 + sum(v > base_scores[n][k] for v in rivals)
                assert x["reduced_rank"] == 1 + sum(v > got[k] for v in rivals)
                assert x["lost"] == len(base) - len(red)
                assert x["lost_relevant"] == int((base["l"] > 0).sum() - (red["l"] > 0).sum())
        if TREC_EVAL.exists() and os.access(TREC_EVAL, os.X_OK):
            path = tmp_path / f"{g}.qrels"
            red[["t", "i", "d", "l"]].to_csv(path, sep=" ", header=False, index=False)
            one = next(p for p in RUNS if groups[Path(p).name] == g)
            out = subprocess.run(
                [str(TREC_EVAL), "-m", "map", "-m", "bpref", "-m", "infAP", str(path), one],
                capture_output=True,
                text=True,
                check=True,
            ).stdout
            te = {ln.split()[0]: float(ln.split()[2]) for ln in out.splitlines()}
            for m, k in key.items():
                # trec_eval prints 4 decimals
                assert rows[(Path(one).name, m)]["reduced"] == pytest.approx(te[k], abs=6e-5)


def test_cwl_residual_bounds_the_change_on_web2012():
    """With a C/W/L measure and non-negative labels the judgements lost can only lower a
    run's score, by at most its residual on the reduced qrels (Web 2012's spam label -2
    mapped to 0 here)."""
    q = cwlkit.read_qrels(QRELS).table.to_pandas()
    q["label"] = q["label"].clip(lower=0)
    groups = {Path(p).name: Path(p).name.split(".")[2][:4] for p in RUNS}  # cata, catb
    r = reusability(q, RUNS, groups, depth=5, measure="RBP(p=0.8)")
    rows = [x for x in r.to_records() if x["measure"] == "RBP(p=0.8)"]
    assert len(rows) == 8 and all(x["bounded"] for x in rows)
    assert all(-x["residual"] <= x["delta"] <= 0 for x in rows)
    assert any(x["delta"] < 0 for x in rows)


def test_grouping(tmp_path):
    assert tag_prefix("ICTNET12ADR1") == "ICTNET" and tag_prefix("uogTrA44xi", 3) == "uog"
    assert tag_prefix("12abc") == "12abc"
    f = tmp_path / "groups"
    f.write_text("# run group\na A\n\nb B\nb2 B\nc C\nd C\n")
    assert read_groups(f) == GROUPS
    assert str(reusability(QR, HAND, str(f), depth=2).to_records()) == str(
        reusability(QR, HAND, GROUPS, depth=2).to_records()
    )
    # tags xA1, xB1, xB2: groups xA and xB; their first letter puts them all in one group
    tagged = {
        n: cwlkit.Run.from_records(
            [(t, d, s) for t, d, s in zip(*_cols(HAND[n]), strict=True)], tag=tag
        )
        for n, tag in (("a", "xA1"), ("b", "xB1"), ("b2", "xB2"))
    }
    r = reusability(QR, tagged, "tag-prefix", depth=2)
    assert r.groups == {"xA": ["a"], "xB": ["b", "b2"]}
    with pytest.raises(ParamError, match="every run is in group"):
        reusability(QR, tagged, "tag-prefix:1", depth=2)
    f.write_text("a A\nb\n")
    with pytest.raises(ParamError, match=r"groups:2: expected 'run group'"):
        reusability(QR, HAND, str(f), depth=2)
    with pytest.raises(ParamError, match="no group for run 'd'"):
        reusability(QR, HAND, {"a": "A", "b": "B", "b2": "B", "c": "C"}, depth=2)
    with pytest.raises(ParamError, match="depth"):
        reusability(QR, HAND, GROUPS, depth=0)


def _cols(run):
    t = run.table
    return t.column("topic").to_pylist(), t.column("doc").to_pylist(), t.column("score").to_pylist()
