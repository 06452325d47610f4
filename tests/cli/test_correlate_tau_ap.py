"""``cwlkit correlate --all-pairs --tau-ap``: tau_AP's matrix (row = truth) against Yilmaz,
Aslam and Robertson's (2008) formula computed here by hand on the systems' means."""

from __future__ import annotations

import itertools

import pytest
from conftest import DATA

import cwlkit

W = DATA / "web2012"
RUNS = sorted(str(p) for p in (W / "runs").glob("*.run.gz"))
QRELS = str(W / "qrels.web.151-200.txt")
MEASURES = ["AP", "nDCG@10", "RBP(p=0.8)"]


def _tau_ap(truth, estimate):
    """2/(N-1) sum over the estimate's positions i = 2..N of C(i)/(i-1), minus 1: C(i) the
    items the estimate puts above its i-th that the truth puts above it too."""
    order = sorted(range(len(estimate)), key=lambda k: -estimate[k])
    total = 0.0
    for i in range(1, len(order)):
        c = sum(truth[order[j]] > truth[order[i]] for j in range(i))
        total += c / i
    return 2.0 * total / (len(order) - 1) - 1.0


def test_tau_ap_matrix_by_hand(cli):
    res = cwlkit.evaluate(QRELS, RUNS, MEASURES)
    means = {m: [res[r].mean()[m] for r in res] for m in MEASURES}
    for m in MEASURES:
        assert len(set(means[m])) == len(RUNS)  # no ties: the formula above applies
    # --format is the long name of the output format in every dialect of the option
    rc, out, err = cli(
        "correlate",
        QRELS,
        *RUNS,
        "--all-pairs",
        *sum((["-m", m] for m in MEASURES), []),
        "--tau-ap",
        "--level",
        "systems",
        "--format",
        "tsv",
    )
    assert rc == 0, err
    rows = [ln.split("\t") for ln in out.splitlines()[1:]]
    got = {(a, b): float(v) for lvl, c, a, b, v, *_ in rows if c == "tau_ap"}
    assert set(got) == set(itertools.permutations(MEASURES, 2))
    for (a, b), v in got.items():
        assert v == pytest.approx(_tau_ap(means[a], means[b]), abs=1e-12), (a, b)
    assert any(got[(a, b)] != got[(b, a)] for a, b in got)  # not symmetric
    rc, out, _ = cli(
        "correlate",
        QRELS,
        *RUNS,
        "--all-pairs",
        "-m",
        "AP",
        "-m",
        "nDCG@10",
        "--tau-ap",
        "--level",
        "systems",
    )
    assert rc == 0 and "tau_AP (row: truth), column: estimate" in out
    rc, out, _ = cli("correlate", QRELS, *RUNS, "--all-pairs", "-m", "AP", "-m", "nDCG@10")
    assert rc == 0 and "tau_AP" not in out


def test_tau_ap_flag_is_for_all_pairs(cli):
    rc, _, err = cli("correlate", QRELS, *RUNS[:2], "-a", "AP", "-b", "P@10", "--tau-ap")
    assert rc == 2 and "--tau-ap is for --all-pairs" in err and err.count("\n") == 1
