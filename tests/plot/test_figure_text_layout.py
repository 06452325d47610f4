"""Every figure of ``cwlkit plot`` and of the report, drawn from the TREC Web 2012 runs and
checked by :mod:`text_layout`: no two text boxes overlap, none is cut off by the figure's
edge (Agg's extents at 150 and 100 dpi). The cases the tracker named (scatter's system-level
tick labels run together, the matrix's title clipped and its tick labels on the titles
below, the report's box plots with an empty cell and different y ranges, difference plots
without an x label) failed these tests before the fix.
"""

from __future__ import annotations

import numpy as np
import pytest
from conftest import DATA
from text_layout import assert_text_layout, layout_problems, overlaps, text_boxes

import cwlkit
from cwlkit.stats import correlation_matrix

pytest.importorskip("matplotlib")

from cwlkit.plot import plot_matrix, plot_pr, plot_roc, plot_scatter, plot_sweep, plot_vectors
from cwlkit.plot.report import UNIT_RANGE, plot_pr_curves, report_figures

WEB = DATA / "web2012"
QRELS = str(WEB / "qrels.web.151-200.txt")
RUNS = sorted(str(p) for p in (WEB / "runs").glob("*.run.gz"))
QL = str(WEB / "runs" / "web2012.ql.cata.run.gz")
MEASURES = ["ERR@20", "RBP(p=0.6)", "AP", "nDCG@10", "P@10", "RR"]


@pytest.fixture(scope="module")
def results():
    """{path: Results} of every run."""
    scored = cwlkit.Evaluator(QRELS, MEASURES).evaluate_many(RUNS)
    return dict(zip(RUNS, scored.values(), strict=True))


def _cm(results, runs, measures):
    return correlation_matrix({r: results[r] for r in runs}, measures)


def test_helper_sees_overlap_and_clipping():
    """The helper itself: two texts drawn on each other, and one past the edge."""
    from matplotlib.figure import Figure

    fig = Figure(figsize=(3, 2))
    fig.text(0.5, 0.5, "first")
    fig.text(0.52, 0.5, "second")
    fig.text(0.95, 0.5, "cut off at the right")
    problems = layout_problems(fig)
    assert any(p.startswith("overlap") for p in problems)
    assert any(p.startswith("clipped") and "cut off" in p for p in problems)
    fig = Figure(figsize=(3, 2))
    fig.text(0.1, 0.5, "apart")
    fig.text(0.6, 0.5, "apart")
    assert layout_problems(fig) == []


def test_helper_counts_only_ticks_inside_the_view():
    """Tick objects outside the axes' limits are not drawn and are not counted."""
    from matplotlib.figure import Figure

    fig = Figure(figsize=(4, 3))
    ax = fig.add_subplot()
    ax.plot([0.2, 0.8], [0.2, 0.8])
    ax.set_xlim(0.25, 0.75)
    kinds = [b.text for b in text_boxes(fig) if b.kind.endswith("xtick")]
    assert kinds and all(0.25 <= float(k.replace("\u2212", "-")) <= 0.75 for k in kinds)


def test_scatter_system_ticks_do_not_run_together(results):
    """The four filtered runs' P@10 means lie within 0.02 (0.258-0.276): the locator gave
    ticks 0.0025 apart, '0.25750.26000.2625...' drawn on each other."""
    runs = [r for r in RUNS if "filtered" in r]
    fig = plot_scatter(_cm(results, runs, ["P@10", "AP"]))
    assert_text_layout(fig)


@pytest.mark.parametrize("ys", [["AP"], MEASURES[1:]])
def test_scatter_every_run(results, ys):
    fig = plot_scatter(_cm(results, RUNS, ["ERR@20", *ys]))
    assert_text_layout(fig)


def test_scatter_y_labels_name_the_measure(results):
    fig = plot_scatter(_cm(results, RUNS, ["ERR@20", "AP", "nDCG@10"]))
    shown = [ax for ax in fig.axes if ax.get_visible()]
    assert sorted(ax.get_ylabel() for ax in shown) == ["AP", "AP", "nDCG@10", "nDCG@10"]
    assert {ax.get_xlabel() for ax in shown} == {"ERR@20"}
    assert {ax.get_title().split("\n")[0] for ax in shown} == {
        "per (run, topic)",
        "per system (mean over topics)",
    }


@pytest.mark.parametrize("k", [4, 6])
def test_matrix(results, k):
    """Four measures: the titles reached past the top and the 45-degree names of the first
    row sat on the titles of the second."""
    fig = plot_matrix(_cm(results, RUNS, MEASURES[:k]))
    assert_text_layout(fig)


def test_vectors_and_sweep():
    vec = {
        m: {t: cwlkit.cwl_vectors(QRELS, QL, m, t, horizon=20) for t in ("151", "152")}
        for m in ("RBP(p=0.8)", "INST(T=2)")
    }
    assert_text_layout(plot_vectors(vec, ranks=20))
    grid = {"RBP(p=0.1:0.9:0.1)": [f"RBP(p={p / 10:g})" for p in range(1, 10)]}
    res = cwlkit.evaluate(QRELS, QL, grid["RBP(p=0.1:0.9:0.1)"], topics="run", trec_version=10)
    assert_text_layout(plot_sweep(res, grid))
    assert_text_layout(plot_sweep(res, grid, topics=["151", "152"]))


def test_pr_and_roc():
    pr = cwlkit.pr_curve(QRELS, QL)
    assert_text_layout(plot_pr(pr, topics=["151", "152"]).figure)
    assert_text_layout(plot_roc(cwlkit.roc_curve(QRELS, QL), name="web2012.ql.cata").figure)
    curves = {"ql.cata": pr.mean_interpolated, "rm.cata": pr.mean_interpolated * 0.9}
    assert_text_layout(plot_pr_curves(pr.levels, curves).figure)


@pytest.fixture(scope="module", params=[(4, 3, "web2012.ql.cata-filtered"), (8, 5, None)])
def report_figs(request, results):
    """(table, figures) of 4 runs and 3 measures against a baseline (a spare cell in a 2 x 2
    grid before), and of 8 runs and 5 measures, pairwise."""
    from cwlkit.stats import report_table

    n, m, base = request.param
    measures = MEASURES[2 : 2 + m] if m <= 4 else MEASURES[1 : 1 + m]
    runs = {
        p.rsplit("/", 1)[-1].removesuffix(".run.gz"): results[p].select(measures) for p in RUNS[:n]
    }
    t = report_table(runs, baseline=base)
    return t, report_figures(t)


def test_report_figures_text_layout(report_figs):
    _, figs = report_figs
    for head, _, fig in figs:
        problems = layout_problems(fig)
        assert not problems, f"{head}: " + "\n".join(problems[:20])


def test_report_box_plots_fill_their_grid_and_share_0_1(report_figs):
    t, figs = report_figs
    fig = next(f for h, _, f in figs if h == "Per-topic scores")
    axes = fig.axes
    assert len(axes) == len(t.measures) and all(a.get_visible() for a in axes)
    # no empty cell: each row's panes are centred in the figure
    width = fig.get_figwidth()
    rows: dict[float, list] = {}
    for a in axes:
        rows.setdefault(round(a.get_position().y0, 6), []).append(a.get_position())
    for boxes in rows.values():
        left, right = min(b.x0 for b in boxes), max(b.x1 for b in boxes)
        margin_l, margin_r = left * width, (1 - right) * width
        assert abs(margin_l - margin_r) < 0.6  # inches: the y labels sit on the left
    assert {a.get_ylim() for a in axes} == {UNIT_RANGE}


def test_report_difference_plots_have_an_x_label(report_figs):
    _, figs = report_figs
    diff = [f for h, _, f in figs if h.startswith("Per-topic differences")]
    assert diff
    for fig in diff:
        assert all("sorted by the difference" in a.get_xlabel() for a in fig.axes)


def test_text_boxes_are_pixels_of_the_dpi():
    from matplotlib.figure import Figure

    fig = Figure(figsize=(4, 2))
    fig.text(0.1, 0.1, "x")
    (a,) = text_boxes(fig, 100)
    (b,) = text_boxes(fig, 200)
    assert np.isclose(b.x0, 2 * a.x0) and overlaps([a, b]) == []
