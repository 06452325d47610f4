"""Simulated judging on TREC Web 2012: tau is 1 at a budget covering every document; each
budget's scores are those of cwlkit.evaluate on the judged documents alone (scipy's tau)."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import DATA
from scipy import stats

import cwlkit
from cwlkit.errors import ParamError
from cwlkit.judging import pool, simulate_judging

W = DATA / "web2012"
RUNS = sorted(str(p) for p in (W / "runs").glob("*.run.gz"))[:4]
QRELS = W / "qrels.web.151-200.txt"


def test_full_budget_gives_tau_one_and_records():
    sim = simulate_judging(QRELS, RUNS, "rbp", "RBP(p=0.8)", [3, 5000], p=0.8)
    recs = sim.to_records()
    assert [r["budget"] for r in recs] == [3, 5000]
    assert {"budget", "judged", "tau", "tau_ap", "max_residual", "mean_residual"} <= set(recs[0])
    assert recs[1]["tau"] == pytest.approx(1.0) and recs[1]["tau_ap"] == pytest.approx(1.0)
    assert recs[1]["changed"] == []
    assert recs[0]["judged"] == 150 and recs[0]["mean_residual"] > recs[1]["mean_residual"]


def test_a_budget_scores_the_runs_on_its_judgements():
    """Budget 4 of rrf: the pool's first 4 a topic, judged from the qrels (0 where they hold
    nothing), then cwlkit.evaluate and scipy's Kendall tau against the complete qrels."""
    sim = simulate_judging(QRELS, RUNS, "rrf", "AP", [4])
    pl = pool(RUNS, "rrf", depth=4)
    q = cwlkit.read_qrels(QRELS)
    lab = dict(
        zip(
            zip(
                q.table.column("topic").to_pylist(),
                q.table.column("doc").to_pylist(),
                strict=True,
            ),
            q.table.column("label").to_pylist(),
            strict=True,
        )
    )
    recs = [(t, d, lab.get((t, d), 0.0)) for t, d in zip(pl.topics, pl.docs, strict=True)]
    part = cwlkit.evaluate(cwlkit.Qrels.from_records(recs), RUNS, ["AP"])
    full = cwlkit.evaluate(QRELS, RUNS, ["AP"])
    x = [full[r].mean()["AP"] for r in full]
    y = [part[r].mean()["AP"] for r in part]
    assert sim.records[0]["judged"] == len(pl) == 200
    assert sim.records[0]["tau"] == pytest.approx(stats.kendalltau(x, y).statistic, abs=1e-12)
    assert sim.records[0]["tau_ap"] == pytest.approx(cwlkit.tau_ap(x, y), abs=1e-12)
    assert np.isnan(sim.records[0]["max_residual"])  # AP has no C/W/L residual


def test_errors():
    with pytest.raises(ParamError, match="two runs"):
        simulate_judging(QRELS, RUNS[:1])


def test_residual_judges_in_rounds_with_the_gains_known():
    """Residual pooling under an adaptive metric (INST: its weights depend on the gains seen)
    judges in rounds: the budget-3 pool is round 1 (depth 1, nothing known) then the next 2
    documents a topic given round 1's judgements, which differs from pooling 3 at once (on 1
    topic of 50 here; on 8 at budget 10)."""
    measure = "INST(T=3)"
    sim = simulate_judging(QRELS, RUNS, "residual", measure, [1, 3])
    first = pool(RUNS, "residual", measure=measure, depth=1)
    assert sim.pools[1].to_dict() == first.to_dict()
    labels = {}
    for line in QRELS.read_text().splitlines():
        t, _, d, label = line.split()
        labels[(t, d)] = float(label)
    known = [(t, d, labels.get((t, d), 0.0)) for t, ds in first.to_dict().items() for d in ds]
    second = pool(
        RUNS, "residual", measure=measure, depth=2, qrels=cwlkit.Qrels.from_records(known)
    )
    expected = {t: first.to_dict()[t] + second.to_dict().get(t, []) for t in first.to_dict()}
    assert sim.pools[3].to_dict() == expected
    at_once = pool(RUNS, "residual", measure=measure, depth=3).to_dict()
    assert any(set(expected[t]) != set(at_once[t]) for t in expected)
    assert sim.records[1]["judged"] == sum(len(v) for v in expected.values())
