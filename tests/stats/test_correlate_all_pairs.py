"""The ERR paper's Table 2 pipeline: every pair of measures, four coefficients, two levels.

Every cell of :func:`cwlkit.stats.correlation_matrix` (and of ``cwlkit correlate --all-pairs
-f json``) equals scipy's ``pearsonr`` / ``spearmanr`` / ``kendalltau`` / ``weightedtau`` on
per-topic values taken here from :func:`cwlkit.evaluate`, or on the per-system means over the
common topics. The paper's TREC 2010/2011 Web runs are not public: the shared TREC Web 2012
runs stand in (8 runs x 50 topics).
"""

from __future__ import annotations

import json

import numpy as np
import pytest
from conftest import DATA
from scipy import stats as sp

import cwlkit
from cwlkit.errors import ParamError
from cwlkit.stats import correlation_matrix

WEB = DATA / "web2012"
QRELS = str(WEB / "qrels.web.151-200.txt")
RUNS = sorted(str(p) for p in (WEB / "runs").glob("*.run.gz"))
# ERR@20, the C_E metrics with the paper's Spearman parameters (its Table 1), classic ones
MEASURES = [
    "ERR@20",
    "RBP(p=0.6)",
    "C_E8(k=5)",
    "C_E9(k=20)",
    "C_E10(phi=0.7)",
    "C_E11(T=1.35)",
    "P@10",
    "AP",
    "nDCG@20",
]
NAMES = [
    "ERR@20",
    "RBP(p=0.6)",
    "C_E8@5",
    "C_E9@20",
    "C_E10(phi=0.7)",
    "C_E11(T=1.35)",
    "P@10",
    "AP",
    "nDCG@20",
]
SCIPY = {
    "pearson": lambda x, y: sp.pearsonr(x, y),
    "spearman": lambda x, y: sp.spearmanr(x, y),
    "kendall_tau_b": lambda x, y: sp.kendalltau(x, y),
    "weighted_tau": lambda x, y: sp.weightedtau(x, y),
}


@pytest.fixture(scope="module")
def runs():
    return cwlkit.evaluate(QRELS, RUNS, MEASURES, gain="err", residuals=True)


def reference_values(runs):
    """(per (run, topic) pair values [M, P], per system means [M, R]) built here."""
    pairs = []
    for res in runs.values():
        for t in res.topics:
            v = [res.per_topic(m)[t] for m in NAMES]
            if all(np.isfinite(v)):
                pairs.append(v)
    common = sorted(set.intersection(*(set(r.topics) for r in runs.values())))
    means = [[np.mean([r.per_topic(m)[t] for t in common]) for r in runs.values()] for m in NAMES]
    return np.array(pairs).T, np.array(means)


def test_every_cell_is_scipy(runs):
    cm = correlation_matrix(runs)
    assert cm.measures == NAMES and cm.runs == [p.rsplit("/", 1)[1] for p in RUNS]
    pairs, means = reference_values(runs)
    assert cm.n("scores") == pairs.shape[1] == 400 and cm.n("systems") == 8
    assert len(cm.topics) == 50
    for level, data in (("scores", pairs), ("systems", means)):
        np.testing.assert_allclose(cm.data[level].values, data, rtol=1e-13, atol=0)
        for coef, fn in SCIPY.items():
            v, p = cm.values[level][coef], cm.p_values[level][coef]
            assert np.array_equal(v, v.T, equal_nan=True) and (np.diag(v) == 1).all()
            for i in range(len(NAMES)):
                for j in range(i + 1, len(NAMES)):
                    want = fn(data[i], data[j])
                    assert v[i, j] == pytest.approx(want.statistic, abs=1e-12), (level, coef, i, j)
                    if coef == "weighted_tau":
                        assert np.isnan(p[i, j])
                    else:
                        assert p[i, j] == pytest.approx(want.pvalue, rel=1e-9, abs=1e-300)


def test_table2_layout(runs):
    """Kendall's tau above the diagonal, the weighted tau below (the paper's Table 2)."""
    cm = correlation_matrix(runs, ["ERR@20", "RBP(p=0.6)", "AP"], levels=["systems"])
    t2 = cm.combined("systems", "kendall_tau_b", "weighted_tau")
    _, means = reference_values(runs)
    m = means[[0, 1, 7]]
    assert t2[0, 1] == pytest.approx(sp.kendalltau(m[0], m[1]).statistic, abs=1e-12)
    assert t2[1, 0] == pytest.approx(sp.weightedtau(m[0], m[1]).statistic, abs=1e-12)
    assert t2[2, 0] == pytest.approx(sp.weightedtau(m[0], m[2]).statistic, abs=1e-12)
    assert np.isnan(np.diag(t2)).all() and cm.levels == ["systems"]
    assert cm.get("systems", "kendall_tau_b", "AP", "ERR@20") == t2[0, 2]


def test_residual_filter_keeps_the_papers_pairs(runs):
    cm = correlation_matrix(runs, max_residual=0.05)
    keep = [
        (name, t)
        for name, res in runs.items()
        for t, r in zip(res.topics, res.columns["ResEU"][0], strict=True)
        if r <= 0.05
    ]
    assert cm.data["scores"].items == keep and cm.dropped == 400 - len(keep)
    assert cm.n("systems") == 8  # the systems level is not filtered
    x = np.array([runs[n].per_topic("ERR@20")[t] for n, t in keep])
    y = np.array([runs[n].per_topic("C_E10(phi=0.7)")[t] for n, t in keep])
    got = cm.get("scores", "spearman", "ERR@20", "C_E10(phi=0.7)")
    assert got == pytest.approx(sp.spearmanr(x, y).statistic, abs=1e-12)


def test_errors(runs):
    with pytest.raises(ParamError, match="at least 2 measures"):
        correlation_matrix(runs, ["AP"])
    with pytest.raises(ParamError, match="named twice"):
        correlation_matrix(runs, ["AP", "map"])
    with pytest.raises(
        ParamError, match="^levels must be one of 'systems', 'scores'; got 'topics'$"
    ):
        correlation_matrix(runs, levels=["topics"])
    plain = cwlkit.evaluate(QRELS, RUNS[:2], ["AP", "P@10"])
    with pytest.raises(ParamError, match="residuals=True"):
        correlation_matrix(plain, max_residual=0.05)
    one = {"a": plain[next(iter(plain))]}
    assert correlation_matrix(one).levels == ["scores"]  # one run: no system ordering


# ----------------------------------------------------------------------------- the CLI


def test_cli_json_every_cell_is_scipy(cli, runs):
    rc, out, err = cli(
        "correlate", QRELS, *RUNS, "--all-pairs", "-m", " ".join(MEASURES[:6]),
        "-m", "P@10", "-m", "AP", "-m", "nDCG@20", "--gain", "err", "--format", "json",
    )  # fmt: skip
    assert rc == 0, err
    doc = json.loads(out)
    assert doc["measures"] == NAMES and doc["common_topics"] == 50
    pairs, means = reference_values(runs)
    for level, data in (("scores", pairs), ("systems", means)):
        got = doc["levels"][level]
        assert got["n"] == data.shape[1]
        for coef, fn in SCIPY.items():
            v = np.array(got["coefficients"][coef]["value"])
            for i in range(len(NAMES)):
                for j in range(len(NAMES)):
                    want = 1.0 if i == j else fn(data[i], data[j]).statistic
                    assert v[i, j] == pytest.approx(want, abs=1e-12)


def test_cli_text_tsv_markdown(cli, runs):
    base = ["correlate", QRELS, *RUNS, "--all-pairs", "-m", "ERR@20 RBP(p=0.6) AP", "--gain", "err"]
    rc, text, err = cli(*base)
    assert rc == 0, err
    heads = [ln for ln in text.splitlines() if ln.startswith("# ")]
    assert heads == [
        "# systems (8 runs, means over 50 common topics): Kendall's tau-b above the diagonal, "
        "weighted tau (1/(r+1)) below",
        "# systems (8 runs, means over 50 common topics): Pearson's r above the diagonal, "
        "Spearman's rho below",
        "# scores (400 (run, topic) pairs): Kendall's tau-b above the diagonal, "
        "weighted tau (1/(r+1)) below",
        "# scores (400 (run, topic) pairs): Pearson's r above the diagonal, Spearman's rho below",
    ]
    _, means = reference_values(runs)
    first = text.splitlines()[1:5]
    assert first[0].split() == ["ERR@20", "RBP(p=0.6)", "AP"]
    row = first[1].split()  # ERR@20's row of Table 2: -, tau(ERR, RBP), tau(ERR, AP)
    assert row[:2] == ["ERR@20", "-"]
    assert row[2] == f"{sp.kendalltau(means[0], means[1]).statistic:.3f}"
    assert row[3] == f"{sp.kendalltau(means[0], means[7]).statistic:.3f}"
    assert first[3].split()[1] == f"{sp.weightedtau(means[0], means[7]).statistic:.3f}"
    rc, tsv, _ = cli(*base, "-f", "tsv")
    rows = [ln.split("\t") for ln in tsv.splitlines()]
    assert rows[0] == ["level", "coefficient", "measure_a", "measure_b", "value", "p_value", "n"]
    assert len(rows) == 1 + 2 * 4 * 3
    got = {(r[0], r[1], r[2], r[3]): float(r[4]) for r in rows[1:]}
    assert got[("systems", "spearman", "ERR@20", "AP")] == pytest.approx(
        sp.spearmanr(means[0], means[7]).statistic, abs=1e-12
    )
    rc, md, _ = cli(*base, "-f", "markdown", "--level", "systems")
    assert rc == 0 and md.count("**systems") == 2 and md.count("|---|---:|---:|---:|") == 2
    assert "scores" not in md


@pytest.mark.parametrize(
    "extra,msg",
    [
        (["--all-pairs", "-m", "AP"], "at least 2 measures"),
        (["--all-pairs", "-m", "AP", "-a", "P@10"], "not -a/-b"),
        (["-m", "AP"], "cwlkit correlate needs two measures (-m A -m B); got 1 (AP)"),
        (["-m", "AP", "-m", "map"], "cwlkit correlate needs two measures (-m A -m B); got 1 (AP)"),
        (["-m", "AP", "-a", "P@10"], "name the measures with -m A -m B (or -m 'A B'), or with"),
        (["-a", "AP", "-b", "P@10", "--level", "systems"], "--level and --max-residual are for"),
        (
            ["--all-pairs", "-m", "AP P@10", "--max-residual", "0.1", "--level", "systems"],
            "--level",
        ),
        (["--all-pairs", "-m", "AP P@10", "--max-residual", "0.05"], "no residual"),
        (["--all-pairs", "-m", "AP Foo"], "unknown measure 'Foo'"),
        ([], "-a/--measure-a, -b/--measure-b"),
    ],
)
def test_cli_errors(cli, extra, msg):
    rc, out, err = cli("correlate", QRELS, *RUNS[:3], *extra)
    assert rc == 2 and out == "" and msg in err and err.count("\n") == 1, err


def test_tau_ap_matrix_rows_are_the_truth():
    """tau_AP in matrix form: entry (i, j) is tau_ap(measure i's system means, measure j's),
    as cwlkit.tau_ap computes it pair by pair; not symmetric."""
    import cwlkit
    from cwlkit.stats.matrix import correlation_matrix

    W = DATA / "web2012"
    runs = cwlkit.evaluate(
        W / "qrels.web.151-200.txt",
        sorted(str(p) for p in (W / "runs").glob("*.run.gz")),
        ["ERR@20", "P@10", "AP"],
    )
    cm = correlation_matrix(runs, levels=["systems"], coefficients=["tau_ap", "kendall_tau_b"])
    v = cm.values["systems"]["tau_ap"]
    means = {m: [runs[r].mean()[m] for r in runs] for m in ("ERR@20", "P@10", "AP")}
    for i, a in enumerate(means):
        for j, b in enumerate(means):
            want = 1.0 if i == j else cwlkit.tau_ap(means[a], means[b])
            assert v[i, j] == pytest.approx(want, abs=1e-12)
    assert v[0, 2] != pytest.approx(v[2, 0])
