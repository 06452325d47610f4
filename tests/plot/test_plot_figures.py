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
RUNS = sorted(str(p) for p in (WEB / "runs").glob("*.run.gz"))


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
    # the first and last points are marked, and the column titles give their parameter values
    titles = " ".join(ax.get_title() for ax in fig.axes)
    for a, b in (("p=0.1", "p=0.9"), ("halflife=0.25", "halflife=2"), ("T=0.5", "T=4")):
        assert f"\u25b3 {a}   \u25a1 {b}" in titles
    assert not [t for ax in fig.axes for t in ax.texts]  # no text on the lines


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


# ------------------------------------------------------------------------ layout (issue 21)


def _drawn(fig):
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    FigureCanvasAgg(fig)
    fig.canvas.draw()
    return fig.canvas.get_renderer()


def _texts(fig):
    """The texts drawn other than tick labels: titles, axis labels, legends, annotations."""
    out = [t for ax in fig.axes if ax.get_visible() for t in (ax.title, *ax.texts)]
    out += [ax.xaxis.label for ax in fig.axes] + [ax.yaxis.label for ax in fig.axes]
    out += [t for leg in fig.legends for t in leg.get_texts()]
    out += [t for ax in fig.axes if ax.get_legend() for t in ax.get_legend().get_texts()]
    return [t for t in out if t.get_visible() and t.get_text().strip()]


def _everything_inside(fig, renderer):
    """Everything drawn (tick labels included) is inside the figure."""
    tight = fig.get_tightbbox(renderer)  # inches
    w, h = fig.get_size_inches()
    assert tight.x0 >= -0.01 and tight.y0 >= -0.01, tight
    assert tight.x1 <= w + 0.01 and tight.y1 <= h + 0.01, (tight, w, h)


def _inside(box, outer, slack=0.5):
    return (
        box.x0 >= outer.x0 - slack
        and box.y0 >= outer.y0 - slack
        and box.x1 <= outer.x1 + slack
        and box.y1 <= outer.y1 + slack
    )


def test_sweep_labels_stay_off_the_lines_and_inside_the_figure():
    """Issue 21: the parameter labels sat on the lines and ran past the right edge. Every text
    is inside the figure and none overlaps a pane (the plotting area), so none sits on a
    line; the first and last grid points carry a triangle and a square."""
    res = cwlkit.evaluate(Q, R, ["RBP(p=0.1:0.95:0.05)", "INST(T=0.5:5:0.5)"], **CWL)
    grids = {
        "RBP(p=0.1:0.95:0.05)": [m for m in res.measures if m.startswith("RBP")],
        "INST(T=0.5:5:0.5)": [m for m in res.measures if m.startswith("INST")],
    }
    fig = plot_sweep(res, grids, topics=["T1", "T2"], mean=True)
    renderer = _drawn(fig)
    page = fig.bbox
    _everything_inside(fig, renderer)
    panes = [ax.get_window_extent(renderer) for ax in fig.axes]
    texts = _texts(fig)
    assert any("mean of 2 topics" == t.get_text() for t in texts)  # the legend
    for t in texts:
        box = t.get_window_extent(renderer)
        assert _inside(box, page), (t.get_text(), box, page)
        for pane in panes:
            assert not box.shrunk(0.98, 0.98).overlaps(pane.shrunk(0.98, 0.98)) or (
                t in fig.axes[0].texts
            ), (t.get_text(), box, pane)
    ends = [ln for ax in fig.axes for ln in ax.get_lines() if ln.get_marker() in ("^", "s")]
    first = [ln for ln in ends if ln.get_marker() == "^" and ln.axes is fig.axes[0]]
    # RBP's ED is 1 / (1 - p): the triangle is at p = 0.1, for T1, T2 and the mean
    np.testing.assert_allclose([ln.get_xdata()[0] for ln in first], [1 / 0.9] * 3)


def test_scatter_run_names_do_not_overlap_and_stay_inside(web_runs):
    """Issue 21: the run labels beside the per-system points overlapped and clipped. The runs
    are named once, in a legend below the panes: every name inside the figure, no two
    overlapping, none over a pane."""
    cm = correlation_matrix(web_runs)
    fig = plot_scatter(cm, "ERR@20")
    renderer = _drawn(fig)
    names = [t for t in fig.legends[0].get_texts()]
    assert [t.get_text() for t in names] == [
        r.removeprefix("web2012.").removesuffix(".run.gz") for r in cm.runs
    ]
    _everything_inside(fig, renderer)
    boxes = [t.get_window_extent(renderer) for t in names]
    for i, a in enumerate(boxes):
        assert _inside(a, fig.bbox), (names[i].get_text(), a)
        for b in boxes[i + 1 :]:
            assert not a.overlaps(b)
        for ax in fig.axes:
            if ax.get_visible():
                assert not a.overlaps(ax.get_window_extent(renderer))
    assert not [t for ax in fig.axes for t in ax.texts]
    # and with long names, several legend rows rather than names past the edge
    long = {f"{'x' * 30}{i}": r for i, r in enumerate(web_runs.values())}
    fig = plot_scatter(correlation_matrix(long), "ERR@20", ys=["AP"])
    renderer = _drawn(fig)
    for t in fig.legends[0].get_texts():
        assert _inside(t.get_window_extent(renderer), fig.bbox), t.get_text()


def test_pr_interpolated_line_is_the_step_function():
    """Issue 21: the interpolated line joined 11 points and ran below measured points.
    Interpolated precision at recall r is max { P(i) : R(i) >= r }: a step function.

    By hand: relevant a, c, f, g (R = 4); ranking a b c d e f gives (R, P) = (1/4, 1),
    (1/4, 1/2), (2/4, 2/3), (2/4, 1/2), (2/4, 2/5), (3/4, 1/2); the step function is 1 on
    [0, 1/4], 2/3 on (1/4, 1/2], 1/2 on (1/2, 3/4], 0 past 3/4."""
    import pandas as pd

    from cwlkit.measures.curves import pr_curve
    from cwlkit.plot.curves import plot_pr

    qrels = pd.DataFrame(
        {"query_id": "q", "doc_id": list("abcdefg"), "relevance": [1, 0, 1, 0, 0, 1, 1]}
    )
    run = pd.DataFrame({"query_id": "q", "doc_id": list("abcdef"), "score": range(6, 0, -1)})
    curve = pr_curve(cwlkit.Evaluator(qrels, []).batch(run))
    ax = plot_pr(curve, topics=["q"], mean=False)
    (line,) = [ln for ln in ax.get_lines() if ln.get_label() == "q (interpolated)"]
    assert line.get_drawstyle() == "steps-pre"
    xy = line.get_xydata()
    np.testing.assert_allclose(xy[:, 0], [0, 0.25, 0.5, 0.75, 1.0])
    np.testing.assert_allclose(xy[:, 1], [1, 1, 2 / 3, 0.5, 0.0])
    # the 11-point values are on the line
    (marks,) = [ln for ln in ax.get_lines() if ln.get_label() == "_nolegend_"]
    np.testing.assert_allclose(marks.get_ydata(), [1, 1, 1, 2 / 3, 2 / 3, 2 / 3, 0.5, 0.5, 0, 0, 0])


def _step_at(x, y, r):
    """A steps-pre line's height at recall r: the segment (x[j-1], x[j]] holding r."""
    return y[np.searchsorted(x, r, side="left")]


def test_pr_interpolated_line_is_never_below_a_measured_point():
    """The issue's case (0.9 measured at recall 0.06, the line at 0.75) on every Web 2012
    topic of ql.catb: the drawn line is at or above every measured point, and touches the
    highest measured precision at each measured recall's right."""
    from cwlkit.measures.curves import pr_curve
    from cwlkit.plot.curves import plot_pr

    batch = cwlkit.Evaluator(WEB / "qrels.web.151-200.txt", []).batch(
        WEB / "runs" / "web2012.ql.catb.run.gz"
    )
    curve = pr_curve(batch)
    ax = plot_pr(curve, topics=[str(t) for t in curve.topics], mean=False, measured=True)
    lines = {ln.get_label(): ln for ln in ax.get_lines()}
    for t in curve.topics:
        step = lines.get(f"{t} (interpolated)")
        dots = lines.get(f"{t} (measured)")
        x, y = step.get_xdata(), step.get_ydata()
        r, p = dots.get_xdata(), dots.get_ydata()
        if r.size == 0:
            continue
        h = _step_at(x, y, r)
        assert (h >= p).all(), t
        # and no higher than needed: the best precision at a recall at least r
        want = np.array([p[r >= v].max() for v in r])
        np.testing.assert_array_equal(h, want)


def test_roc_says_which_topics_it_draws_and_averages():
    """Issue 21: roc drew the first 10 topics without saying so, and "mean AUC" did not say
    over which topics."""
    from cwlkit.measures.curves import roc_curve
    from cwlkit.plot.curves import plot_roc

    batch = cwlkit.Evaluator(WEB / "qrels.web.151-200.txt", []).batch(
        WEB / "runs" / "web2012.ql.cata.run.gz"
    )
    roc = roc_curve(batch)
    # topics with an AUC: a judged relevant and a judged non-relevant document (from the file)
    pos, neg = set(), set()
    for line in (WEB / "qrels.web.151-200.txt").read_text().split("\n"):
        if line.strip():
            t, _, _, lab = line.split()
            (pos if int(lab) >= 1 else neg if int(lab) >= 0 else set()).add(t)
    n = len(pos & neg)
    ax = plot_roc(roc, name="ql.cata")
    assert ax.get_title() == f"ROC: ql.cata\nmean AUC {np.nanmean(roc.auc):.3f} over {n} topics"
    assert ax.get_legend().get_title().get_text() == f"first 10 of {n} topics"
    assert len(ax.get_legend().get_texts()) == 10
    ax = plot_roc(roc, topics=["153"])
    assert not ax.get_legend().get_title().get_text()
