"""The ERR paper's parameter fit: grids, filtering by residual, recovering a known parameter."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import DATA
from scipy import stats

from cwlkit.errors import ParamError
from cwlkit.stats.fit import fit_parameter, fit_runs, parse_grid

WEB = DATA / "web2012"
QRELS = WEB / "qrels.web.151-200.txt"
RUNS = [
    WEB / "runs" / f"web2012.{s}.run.gz"
    for s in ("ql.cata", "rm.cata", "ql.catb-filtered", "rm.catb")
]


def test_parse_grid():
    ms, par, grid = parse_grid("RBP(p=0.05:0.95:0.01)")
    assert par == "p" and len(ms) == 91 and grid.size == 91
    assert (
        ms[0].name == "RBP(p=0.05)" and ms[45].name == "RBP(p=0.5)" and ms[-1].name == "RBP(p=0.95)"
    )
    assert grid[17] == 0.22  # exact decimal steps, not 0.05 + 17 * 0.01 in binary
    ms, par, grid = parse_grid("C_E8(k=1:20:1)")
    assert par == "k" and [m.name for m in ms[:2]] == ["C_E8@1", "C_E8@2"]
    ms, par, _ = parse_grid("P@5:20:5")
    assert par == "k" and [m.name for m in ms] == ["P@5", "P@10", "P@15", "P@20"]
    ms, par, _ = parse_grid("C_E11(T=1.25:1.25:0.1)")  # one value
    assert par == "T" and len(ms) == 1


@pytest.mark.parametrize(
    "bad,msg",
    [
        ("RBP(p=0.8)", "exactly one range"),
        ("RBP(p=0.1:0.2:0.1)@1:2:1", "exactly one range"),
        ("RBP(p=0.9:0.1:0.1)", "above its stop"),
        ("RBP(p=0.1:0.9:0)", "positive"),
        ("RBP(p=0.5:1.5:0.1)", "must be in"),
        ("RBP(p=0:1:0.00001)", "at most"),
    ],
)
def test_parse_grid_errors(bad, msg):
    with pytest.raises(ParamError, match=msg):
        parse_grid(bad)


def test_fit_parameter_on_arrays():
    """Target built from the row of parameter 0.3 (a monotone transform for Spearman, plus a
    linear one for Pearson): both curves peak there with correlation 1."""
    rng = np.random.default_rng(0)
    grid = np.array([0.1, 0.2, 0.3, 0.4])
    base = rng.random(200)
    values = np.vstack([base ** (1 + 3 * g) + 0.05 * g * rng.random(200) for g in grid])
    target = 2.0 * values[2] + 1.0
    res = fit_parameter(target, values, grid, parameter="p")
    assert res.best_pearson[0] == 0.3 and res.best_pearson[1] == pytest.approx(1.0)
    assert res.best_spearman[0] == 0.3 and res.best_spearman[1] == pytest.approx(1.0)
    for i in range(4):
        assert res.pearson[i] == pytest.approx(
            stats.pearsonr(target, values[i]).statistic, abs=1e-12
        )
        assert res.spearman_p[i] == pytest.approx(
            stats.spearmanr(target, values[i]).pvalue, abs=1e-12
        )
    # residual filtering keeps residual <= bound
    resid = rng.random(200) * 0.1
    res = fit_parameter(target, values, grid, residual=resid, max_residual=0.05)
    assert res.n_pairs == int((resid <= 0.05).sum()) and res.n_total == 200
    keep = resid <= 0.05
    assert res.pearson[0] == pytest.approx(
        stats.pearsonr(target[keep], values[0, keep]).statistic, abs=1e-12
    )
    recs = res.to_records()
    assert len(recs) == 4 and set(recs[0]) == {
        "p",
        "measure",
        "pearson",
        "pearson_p",
        "spearman",
        "spearman_p",
    }


def test_fit_parameter_errors():
    with pytest.raises(ParamError, match="shape"):
        fit_parameter([1, 2, 3], [[1, 2]], [0.1])
    with pytest.raises(ParamError, match="needs the target's residuals"):
        fit_parameter([1, 2, 3], [[1, 2, 3]], [0.1], max_residual=0.1)
    with pytest.raises(ParamError, match="no residuals"):
        fit_parameter([1, 2, 3], [[1, 2, 3]], [0.1], residual=[np.nan] * 3, max_residual=0.1)
    with pytest.raises(ParamError, match="need at least 3"):
        fit_parameter([1, 2, 3], [[1, 2, 3]], [0.1], residual=[0.5, 0.5, 0.01], max_residual=0.1)


def test_fit_runs_recovers_rbp_parameter():
    res = fit_runs(QRELS, RUNS, "RBP(p=0.7)", "RBP(p=0.5:0.9:0.02)")
    assert res.n_pairs == 200
    assert res.best_pearson[0] == pytest.approx(0.7) and res.best_pearson[2] == "RBP(p=0.7)"
    assert res.best_spearman[0] == pytest.approx(0.7)
    assert res.best_pearson[1] == pytest.approx(1.0, abs=1e-12)
    i = int(np.flatnonzero(np.isclose(res.grid, 0.6))[0])
    assert res.pearson[i] < 0.999  # a real curve, not flat


def test_fit_runs_recovers_ce10_phi_with_err_gains():
    """The ERR paper's C_E10 (C = phi (1 - r_i)) with ERR's gain mapping: a target built with
    phi = 0.62 (the paper's Pearson optimum against ERR@20) is recovered."""
    res = fit_runs(QRELS, RUNS, "C_E10(phi=0.62)", "C_E10(phi=0.5:0.75:0.01)", gain="err")
    assert res.parameter == "phi"
    assert res.best_pearson[0] == pytest.approx(0.62)
    assert res.best_spearman[0] == pytest.approx(0.62)


def test_fit_runs_filters_by_target_residual():
    import cwlkit

    bound = 0.05
    res = fit_runs(QRELS, RUNS, "RBP(p=0.7)", "RBP(p=0.6:0.8:0.1)", max_residual=bound)
    resid = np.concatenate(
        [
            cwlkit.evaluate(QRELS, r, ["RBP(p=0.7)"], residuals=True).columns["ResEU"][0]
            for r in RUNS
        ]
    )
    assert res.n_total == resid.size == 200
    assert res.n_pairs == int((resid <= bound).sum())
    assert 0 < res.n_pairs < 200
    assert res.best_pearson[0] == pytest.approx(0.7)


def test_plot(tmp_path):
    pytest.importorskip("matplotlib")
    from cwlkit.stats.fit import plot_fit

    rng = np.random.default_rng(1)
    values = rng.random((3, 50))
    res = fit_parameter(values[1], values, [0.1, 0.2, 0.3])
    out = tmp_path / "fit.png"
    plot_fit(res, out)
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_fit_err_target_filters_by_its_residual():
    """The paper's setting: ERR@20 as the target, filtered by ERR's own residual."""
    import cwlkit
    from cwlkit.core.batch import build_batch
    from cwlkit.measures.parse import parse_measure

    err = parse_measure("ERR@20")
    res = fit_runs(QRELS, RUNS, "ERR@20", "RBP(p=0.3:0.9:0.1)", max_residual=0.05)
    q = cwlkit.read_qrels(QRELS)
    resid = np.concatenate([err.residual(build_batch(q, cwlkit.read_run(r))) for r in RUNS])
    assert res.n_pairs == int((resid <= 0.05).sum()) and res.n_total == resid.size
    assert np.isfinite(res.pearson).all()
