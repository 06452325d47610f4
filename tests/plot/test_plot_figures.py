"""The seeds' figures: every line and point drawn is the API's number.

- the cwl_eval paper's Figure 1 (C, W, L over ranks) against :func:`cwlkit.cwl_vectors`, and
  against the paper's own example (RBP's W(i) = (1 - p) p^(i-1); TBG's and BPM's expected
  depths of Table 2);
- its Figure 2 (EU, ETU, ETC against ED over a grid) against :func:`cwlkit.evaluate`'s columns;
- the ERR paper's scatter plots and correlation matrix against per-topic values from
  :func:`cwlkit.evaluate`, with scipy's coefficients.
"""

from __future__ import annotations

import sys

import numpy as np
import pytest
from conftest import DATA

import cwlkit
from cwlkit.errors import CwlkitError
from cwlkit.plot.correlation import plot_matrix, plot_scatter  # matplotlib imported on use
from cwlkit.plot.cwl import plot_sweep, plot_vectors
from cwlkit.stats import correlation_matrix

pytest.importorskip("matplotlib")

Q, R, COSTS = cwlkit.example("qrels"), cwlkit.example("run"), cwlkit.example("costs")
# the cwl_eval paper's Figure 1: RBP phi = 0.8; TBG H = 2; BPM T = 2, K = 10, hc = hb = 0.5
FIG1 = ["RBP(p=0.8)", "TBG(halflife=2)", "BPMD(T=2,K=10,hb=0.5,hc=0.5)"]
CWL = {"costs": COSTS, "topics": "run", "trec_version": 10}
WEB = DATA / "web2012"
RUNS = sorted(str(p) for p in (WEB / "runs").glob("*.run"))


def lines_by_gid(fig) -> dict[str, object]:
    return {ln.get_gid(): ln for ax in fig.axes for ln in ax.get_lines() if ln.get_gid()}


def test_figure1_lines_are_cwl_vectors():
    vec = {m: {t: cwlkit.cwl_vectors(Q, R, m, t, **CWL) for t in ("T1", "T2")} for m in FIG1}
    fig = plot_vectors(vec)
    lines = lines_by_gid(fig)
    assert len(lines) == 3 * 2 * 3 and len(fig.axes) == 9
    for m in FIG1:
        for t in ("T1", "T2"):
            for key in "CWL":
                x, y = lines[f"{m}|{t}|{key}"].get_data()
                want = vec[m][t][key]
                np.testing.assert_array_equal(x, np.arange(1, want.size + 1))
                np.testing.assert_array_equal(y, want)
    # the paper's example: RBP does not depend on gains or costs, W(i) = (1 - p) p^(i - 1)
    i = np.arange(15)
    for t in ("T1", "T2"):
        np.testing.assert_allclose(lines[f"RBP(p=0.8)|{t}|W"].get_ydata(), 0.2 * 0.8**i, 1e-12)
        np.testing.assert_array_equal(lines[f"RBP(p=0.8)|{t}|C"].get_ydata(), np.full(15, 0.8))
    # ... and TBG's / BPM-Dynamic's ED on T1 with costs, as the paper's Table 2 prints them
    labels = {ln.get_gid(): ln.get_label() for ln in lines.values()}
    assert labels["TBG(halflife=2)|T1|C"] == "T1 (ED 3.36)"  # Table 2: 3.3582
    assert abs(float(vec["TBG(halflife=2)"]["T1"]["ED"]) - 3.3582) < 5e-5
    assert labels["BPMD(T=2,K=10,hb=0.5,hc=0.5)|T1|C"] == "T1 (ED 5.00)"  # Table 2: 5.0000
    # L of BPM is one at the stopping rank (the fifth for T1: T = 2 reached)
    assert lines["BPMD(T=2,K=10,hb=0.5,hc=0.5)|T1|L"].get_ydata()[4] == 1.0


def test_figure1_ranks_cut_the_lines():
    vec = {"INST(T=2)": {"T1": cwlkit.cwl_vectors(Q, R, "INST(T=2)", "T1", horizon=30, **CWL)}}
    assert vec["INST(T=2)"]["T1"]["C"].size == 30  # past the run: the model goes on
    lines = lines_by_gid(plot_vectors(vec, ranks=20))
    y = lines["INST(T=2)|T1|W"].get_ydata()
    np.testing.assert_array_equal(y, vec["INST(T=2)"]["T1"]["W"][:20])


GRIDS = {
    "RBP(p=0.1:0.9:0.1)": "RBP(p=0.1:0.9:0.1)",
    "TBG(halflife=0.25:2:0.25)": "TBG(halflife=0.25:2:0.25)",
    "BPMD(T=0.5:4:0.5,K=10,hb=0.5,hc=0.5)": "BPMD(T=0.5:4:0.5,K=10,hb=0.5,hc=0.5)",
}


def test_figure2_points_are_the_evaluated_measurements():
    from cwlkit.measures.parse import parse_measures

    grids = {title: [m.name for m in parse_measures(spec)] for title, spec in GRIDS.items()}
    names = [n for ns in grids.values() for n in ns]
    res = cwlkit.evaluate(Q, R, names, **CWL)
    fig = plot_sweep(res, grids, topics=["T1", "T2"], mean=True)
    lines = lines_by_gid(fig)
    assert len(lines) == 3 * 3 * 3  # grids x (T1, T2, mean) x (EU, ETU, ETC)
    for title, ns in grids.items():
        rows = [res.measures.index(n) for n in ns]
        for t in ("T1", "T2"):
            col = res.topics.index(t)
            for key in ("EU", "ETU", "ETC"):
                x, y = lines[f"{title}|{t}|{key}"].get_data()
                want = (res.values if key == "EU" else res.columns[key])[rows, col]
                np.testing.assert_array_equal(x, res.columns["ED"][rows, col])
                np.testing.assert_array_equal(y, want)
        x, y = lines[f"{title}|mean|ETU"].get_data()
        mean_ed, mean_etu = res.mean("ED"), res.mean("ETU")
        np.testing.assert_allclose(x, [mean_ed[n] for n in ns], rtol=1e-15)
        np.testing.assert_allclose(y, [mean_etu[n] for n in ns], rtol=1e-15)
    # RBP's expected depth is 1 / (1 - p) whatever the ranking
    p = np.arange(1, 10) / 10
    np.testing.assert_allclose(
        lines["RBP(p=0.1:0.9:0.1)|T1|EU"].get_xdata(), 1 / (1 - p), rtol=1e-12
    )
    # ETU = EU x ED at every point
    for t in ("T1", "T2"):
        x, eu = lines[f"TBG(halflife=0.25:2:0.25)|{t}|EU"].get_data()
        etu = lines[f"TBG(halflife=0.25:2:0.25)|{t}|ETU"].get_ydata()
        np.testing.assert_allclose(etu, eu * x, rtol=1e-9)
    # the first and last points carry their parameter values
    texts = {t.get_text() for ax in fig.axes for t in ax.texts}
    assert {"p=0.1", "p=0.9", "halflife=0.25", "halflife=2", "T=0.5", "T=4"} <= texts


def test_figure2_default_is_the_mean_and_infinite_depths_are_left_out():
    from cwlkit.results import Results

    res = cwlkit.evaluate(Q, R, ["RBP(p=0.5)", "RBP(p=0.9)"], **CWL)
    lines = lines_by_gid(plot_sweep(res, {"g": ["RBP(p=0.5)", "RBP(p=0.9)"]}))
    assert set(lines) == {"g|mean|EU", "g|mean|ETU", "g|mean|ETC"}
    # C_E5 never stops on a topic without gain: ED = inf there, and that point is not drawn
    ed = np.array([[2.0, 2.0], [np.inf, 3.0]])
    cols = {"ED": ed, "ETU": np.ones((2, 2)), "ETC": ed, "EC": np.ones((2, 2))}
    fake = Results(np.zeros((2, 2)), ["RBP(p=0.5)", "C_E5"], ["T1", "T2"], cols)
    lines = lines_by_gid(plot_sweep(fake, {"g": ["RBP(p=0.5)", "C_E5"]}, topics=["T1", "T2"]))
    np.testing.assert_array_equal(lines["g|T1|EU"].get_xdata(), [2.0])
    np.testing.assert_array_equal(lines["g|T2|ETC"].get_data(), [[2.0, 3.0], [2.0, 3.0]])
    with pytest.raises(CwlkitError, match="not in the results"):
        plot_sweep(res, {"g": ["RBP(p=0.5)"]}, topics=["T9"])


# ------------------------------------------------------------------- the ERR paper's analysis

MEASURES = ["ERR@20", "RBP(p=0.6)", "C_E8(k=5)", "C_E10(phi=0.7)", "P@10", "AP"]


@pytest.fixture(scope="module")
def web_runs():
    return cwlkit.evaluate(WEB / "qrels.web.151-200.txt", RUNS, MEASURES, gain="err")


def per_topic_values(runs, measures):
    """(values[M, pairs], means[M, runs]) computed here, independently of the matrix."""
    canon = [runs[next(iter(runs))].measures[i] for i in range(len(measures))]
    cols = []
    for res in runs.values():
        for j in range(len(res.topics)):
            v = np.array([res.per_topic(m)[res.topics[j]] for m in canon])
            if np.isfinite(v).all():
                cols.append(v)
    common = sorted(set.intersection(*(set(r.topics) for r in runs.values())))
    means = np.array(
        [[np.mean([r.per_topic(m)[t] for t in common]) for r in runs.values()] for m in canon]
    )
    return np.array(cols).T, means


def test_scatter_points_are_the_per_topic_and_per_system_values(web_runs):
    from scipy import stats

    cm = correlation_matrix(web_runs)
    fig = plot_scatter(cm, "ERR@20")
    pairs, means = per_topic_values(web_runs, MEASURES)
    scat = {c.get_gid(): c for ax in fig.axes for c in ax.collections if c.get_gid()}
    assert len(scat) == 2 * (len(MEASURES) - 1)
    names = cm.measures
    for j, y in enumerate(names[1:], 1):
        for level, data in (("scores", pairs), ("systems", means)):
            pts = np.asarray(scat[f"{level}|ERR@20|{y}"].get_offsets())
            # per topic: the very values; per system: means (summed in another order here)
            np.testing.assert_allclose(pts[:, 0], data[0], rtol=1e-13, atol=0)
            np.testing.assert_allclose(pts[:, 1], data[j], rtol=1e-13, atol=0)
            if level == "scores":
                np.testing.assert_array_equal(pts, data[[0, j]].T)
            ax = scat[f"{level}|ERR@20|{y}"].axes
            r = stats.pearsonr(data[0], data[j]).statistic
            rho = stats.spearmanr(data[0], data[j]).statistic
            assert f"r={r:.3f}, rho={rho:.3f} (n={data.shape[1]})" in ax.get_title()
    assert pairs.shape[1] == 400 and means.shape[1] == 8


def test_matrix_cells_are_the_matrix(web_runs):
    cm = correlation_matrix(web_runs, levels=["systems"])
    fig = plot_matrix(cm)
    images = {im.get_gid(): im for ax in fig.axes for im in ax.get_images()}
    assert set(images) == {"systems|kendall_tau_b", "systems|pearson"}
    got = np.asarray(images["systems|kendall_tau_b"].get_array())
    want = cm.combined("systems", "kendall_tau_b", "weighted_tau")
    np.testing.assert_array_equal(np.isnan(got), np.isnan(want))
    ok = ~np.isnan(want)
    np.testing.assert_array_equal(got[ok], want[ok])
    # the printed cells
    ax = images["systems|kendall_tau_b"].axes
    cells = {
        (round(t.get_position()[1]), round(t.get_position()[0])): t.get_text() for t in ax.texts
    }
    for (a, b), text in cells.items():
        assert text == f"{want[a, b]:.3f}"
    assert len(cells) == ok.sum()


def test_matplotlib_missing_is_one_line(monkeypatch):
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    monkeypatch.setitem(sys.modules, "matplotlib.figure", None)
    vec = {"RBP(p=0.8)": {"T1": cwlkit.cwl_vectors(Q, R, "RBP(p=0.8)", "T1")}}
    with pytest.raises(CwlkitError) as exc:
        plot_vectors(vec)
    assert str(exc.value) == "plotting needs matplotlib: pip install 'cwlkit[plot]'"


def test_svg_is_reproducible_and_png_is_png(tmp_path):
    from cwlkit.plot.figures import save

    vec = {"RBP(p=0.8)": {"T1": cwlkit.cwl_vectors(Q, R, "RBP(p=0.8)", "T1")}}
    a, b, c = tmp_path / "a.svg", tmp_path / "b.svg", tmp_path / "c.png"
    save(plot_vectors(vec), a)
    save(plot_vectors(vec), b)
    save(plot_vectors(vec), c)
    assert a.read_bytes() == b.read_bytes() and a.read_text().lstrip().startswith("<?xml")
    assert c.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    with pytest.raises(CwlkitError, match=r"\.png or \.svg"):
        save(plot_vectors(vec), tmp_path / "d.pdf")
