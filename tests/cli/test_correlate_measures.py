"""``cwlkit correlate -m A -m B``: the measure option's one dialect names the two measures.

``-m A -m B``, ``-m A B``, ``-m 'A B'`` and ``-a A -b B`` print the same correlations; the
system-level coefficients equal scipy's on per-system means computed by pytrec_eval (an
independent evaluator), over the topics every run has.
"""

from __future__ import annotations

import json

import numpy as np
import pytest
from conftest import DATA, read_data
from scipy import stats as sp

WEB = DATA / "web2012"
QRELS = str(WEB / "qrels.web.151-200.txt")
RUNS = [
    str(WEB / "runs" / f"web2012.{s}.run.gz")
    for s in ("ql.cata", "rm.cata", "ql.catb", "rm.catb", "ql.cata-filtered")
]


def _pytrec_means() -> dict[str, np.ndarray]:
    """Each run's mean AP and P@10 over the topics every run has, by pytrec_eval."""
    pytrec_eval = pytest.importorskip("pytrec_eval")

    def read(path: str, qrels: bool) -> dict:
        out: dict = {}
        for line in read_data(path).splitlines():
            if line.strip():
                p = line.split()
                if qrels:
                    out.setdefault(p[0], {})[p[2]] = int(p[3])
                else:
                    out.setdefault(p[0], {})[p[2]] = float(p[4])
        return out

    qrels = read(QRELS, True)
    ev = pytrec_eval.RelevanceEvaluator(qrels, {"map", "P_10"})
    per_run = [ev.evaluate(read(r, False)) for r in RUNS]
    common = sorted(set.intersection(*(set(r) for r in per_run)))
    return {
        m: np.array([np.mean([r[t][m] for t in common]) for r in per_run]) for m in ("map", "P_10")
    }


def _json(cli, *extra: str) -> dict:
    rc, out, err = cli("correlate", QRELS, *RUNS, *extra, "-f", "json")
    assert rc == 0, err
    return json.loads(out)


@pytest.mark.parametrize(
    "spelling",
    [
        ["-m", "AP", "-m", "P@10"],
        ["-m", "AP", "P@10"],
        ["-m", "AP P@10"],
        ["-a", "AP", "-b", "P@10"],
    ],
)
def test_two_measures_correlate_across_systems_as_scipy(cli, spelling):
    doc = _json(cli, *spelling)
    assert (doc["measure_a"], doc["measure_b"]) == ("AP", "P@10")
    means = _pytrec_means()
    mine = {c["name"]: c for c in doc["correlations"] if c["level"] == "systems"}
    ma = np.array([s["mean_a"] for s in doc["systems"]])
    mb = np.array([s["mean_b"] for s in doc["systems"]])
    np.testing.assert_allclose(ma, means["map"], atol=1e-4)  # trec_eval's float32 scores
    np.testing.assert_allclose(mb, means["P_10"], atol=1e-12)
    for name, ref in (
        ("pearson", sp.pearsonr(means["map"], means["P_10"])),
        ("spearman", sp.spearmanr(means["map"], means["P_10"])),
        ("kendall_tau_b", sp.kendalltau(means["map"], means["P_10"])),
    ):
        assert mine[name]["n"] == len(RUNS)
        assert mine[name]["value"] == pytest.approx(ref.statistic, abs=1e-4), name
        assert mine[name]["p_value"] == pytest.approx(ref.pvalue, abs=1e-3), name


def test_every_spelling_prints_the_same(cli):
    outs = {
        tuple(s): cli("correlate", QRELS, *RUNS[:3], *s)[1]
        for s in (["-m", "AP", "-m", "P@10"], ["-m", "AP P@10"], ["-a", "AP", "-b", "P@10"])
    }
    assert len(set(outs.values())) == 1 and "A = AP, B = P@10" in next(iter(outs.values()))


def test_three_measures_are_every_pair(cli):
    rc, out, err = cli("correlate", QRELS, *RUNS[:3], "-m", "AP", "-m", "P@10", "-m", "nDCG@10")
    rc2, out2, _ = cli("correlate", QRELS, *RUNS[:3], "--all-pairs", "-m", "AP P@10 nDCG@10")
    assert rc == rc2 == 0 and out == out2, err
