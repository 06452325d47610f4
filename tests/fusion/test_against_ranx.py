"""cwlkit.fuse against ranx 0.3.21's fuse on real runs (TREC Web 2012's baselines), every
method and every normalisation: the same topics, the same documents per topic, the scores
to 1e-9.

ranx runs in a virtualenv of its own (``ranx_python``, conftest.py), on the runs as
pytrec_eval dicts, through tests/fusion/ranx_ref.py. Two conventions are aligned there, as
docs/fusion.md says: ranx orders tied scores as numba's quicksort leaves them, cwlkit (as
trec_eval) by decreasing document id, so ranx's sort is given that tie-break; ranx's
Condorcet starts its sort from a Python set of the documents (an order that changes between
processes), cwlkit from the documents sorted by id, so ranx is given that order. The rank-based
methods after ``borda`` are left out: ranx then ranks by the order its borda normalisation
leaves the documents in (a set's order), cwlkit by the normalised score.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from conftest import DATA

import cwlkit
from cwlkit.fusion import METHODS

pytestmark = pytest.mark.slow

WEB = DATA / "web2012"
#: two full runs and a filtered one (shorter lists: documents missing from a run)
NAMES = ("ql.cata", "rm.cata", "ql.catb-filtered")
REF = Path(__file__).with_name("ranx_ref.py")

W = [0.5, 0.3, 0.2]
PARAMS = {
    "gmnz": {"gamma": 0.5},
    "logn_isr": {"sigma": 0.01},
    "rrf": {"k": 60},
    "rbc": {"phi": 0.8},
    "wsum": {"weights": W},
    "wmnz": {"weights": W},
    "mixed": {"weights": W},
    "w_bordafuse": {"weights": W},
    "w_condorcet": {"weights": W},
    "probfuse": {"n_segments": 10},
    "slidefuse": {"w": 2},
}
NORMS = ("min-max", "min-max-inverted", "max", "sum", "zmuv", "rank", "borda", "none")
#: every method after min-max (ranx's default); every normalisation under these methods
UNDER_EVERY_NORM = ("sum", "mnz", "med", "max", "wsum", "rrf", "bordafuse", "probfuse")
RANK_BASED = {"isr", "log_isr", "logn_isr", "rrf", "rbc", "bordafuse", "w_bordafuse"}
RANK_BASED |= {"condorcet", "w_condorcet", "posfuse", "probfuse", "segfuse", "slidefuse"}
RANK_BASED |= {"bayesfuse", "mapfuse"}

CASES = [(m, "min-max") for m in METHODS] + [
    (m, n)
    for n in NORMS
    if n != "min-max"
    for m in UNDER_EVERY_NORM
    if not (n == "borda" and m in RANK_BASED)
]


@pytest.fixture(scope="module")
def web():
    runs = [cwlkit.as_run(WEB / "runs" / f"web2012.{n}.run.gz") for n in NAMES]
    qrels = cwlkit.as_qrels(WEB / "qrels.web.151-200.txt")
    return runs, qrels


@pytest.fixture(scope="module")
def ranx_fused(ranx_python, web):
    runs, qrels = web
    qd: dict = {}
    table = qrels.table
    for t, d, lab in zip(
        table.column("topic").to_pylist(),
        table.column("doc").to_pylist(),
        qrels.labels.tolist(),
        strict=True,
    ):
        qd.setdefault(t, {})[d] = int(lab)
    payload = {
        "runs": [r.to_dict() for r in runs],
        "qrels": qd,
        "cases": [[m, None if n == "none" else n, PARAMS.get(m, {})] for m, n in CASES],
        "ties": "trec_eval",
    }
    out = subprocess.run(
        [str(ranx_python), str(REF)],
        input=json.dumps(payload),
        capture_output=True,
        text=True,
        check=True,
        timeout=3600,
    )
    return dict(zip(CASES, json.loads(out.stdout)["fused"], strict=True))


@pytest.mark.parametrize(("method", "norm"), CASES, ids=[f"{m}-{n}" for m, n in CASES])
def test_equal_to_ranx(web, ranx_fused, method, norm):
    runs, qrels = web
    params = dict(PARAMS.get(method, {}))
    if METHODS[method].trained:
        params["train_qrels"] = qrels
    got = cwlkit.fuse(runs, method, norm, **params).to_dict()
    want = ranx_fused[(method, norm)]
    assert set(got) == set(want)
    worst = 0.0
    for q, docs in want.items():
        assert set(got[q]) == set(docs), q
        worst = max(worst, max(abs(got[q][d] - s) for d, s in docs.items()))
    assert worst <= 1e-9
