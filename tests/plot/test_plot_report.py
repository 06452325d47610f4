"""The report's plots: what each draws, and SVG text fit to be inlined several to a page."""

from __future__ import annotations

import re

import numpy as np
import pytest

from cwlkit.plot import report as P

pytest.importorskip("matplotlib")


def test_topic_differences_sorted_and_coloured():
    d = np.array([0.1, -0.2, 0.0, 0.4, -0.05])
    ax = P.plot_topic_differences(d, ["t1", "t2", "t3", "t4", "t5"], title="x")
    bars = ax.patches
    heights = [b.get_height() for b in bars]
    assert heights[0] == 0.4 and heights[1] == 0.1 and heights[-1] == -0.2
    assert heights == sorted(heights, reverse=True)
    colours = [b.get_facecolor() for b in bars]
    from matplotlib.colors import to_rgba

    assert colours[0] == to_rgba(P.BETTER) and colours[-1] == to_rgba(P.WORSE)
    assert colours[2] == to_rgba(P.NEUTRAL)  # the tie
    assert [t.get_text() for t in ax.get_xticklabels()] == ["t4", "t1", "t3", "t5", "t2"]


def test_distributions_box_and_violin():
    s = np.random.default_rng(0).random((3, 20))
    ax = P.plot_distributions(s, ["a", "b", "c"], kind="box")
    assert [t.get_text() for t in ax.get_xticklabels()] == ["a", "b", "c"]
    means = ax.collections[-1].get_offsets()
    np.testing.assert_allclose(np.asarray(means)[:, 1], s.mean(axis=1))
    ax = P.plot_distributions(s, ["a", "b", "c"], kind="violin")
    assert len(ax.collections) >= 3
    with pytest.raises(Exception, match="box' or 'violin"):
        P.plot_distributions(s, ["a", "b", "c"], kind="bars")


def test_pr_curves_and_expected_depth():
    lv = np.arange(11) / 10
    ax = P.plot_pr_curves(lv, {"a": 1 - lv, "b": (1 - lv) / 2})
    assert [ln.get_label() for ln in ax.get_lines()] == ["a", "b"]
    np.testing.assert_allclose(ax.get_lines()[1].get_ydata(), (1 - lv) / 2)
    ax = P.plot_expected_depth(np.array([[10.0, 4.0], [10.0, 5.0]]), ["a", "b"], ["P@10", "INST"])
    assert sorted(b.get_height() for b in ax.patches) == [4.0, 5.0, 10.0, 10.0]


def test_figure_svg_prefixes_ids():
    fig, axes = P.new_figure(3, 2)
    axes[0, 0].plot([0, 1], [0, 1], marker="o")
    one, two = P.figure_svg(fig, "f1"), P.figure_svg(fig, "f2")
    assert one.startswith("<svg") and "<?xml" not in one and "DOCTYPE" not in one
    ids1, ids2 = set(re.findall(r'id="([^"]+)"', one)), set(re.findall(r'id="([^"]+)"', two))
    assert ids1 and all(i.startswith("f1-") for i in ids1) and not ids1 & ids2
    for ref in re.findall(r"url\(#([^)]+)\)", one) + re.findall(r'href="#([^"]+)"', one):
        assert ref in ids1  # every reference points inside the same SVG
    assert "<dc:date>" not in one  # no timestamp: the same input gives the same page


def test_short_names():
    assert P.short_names(["web2012.ql.cata.run.gz", "web2012.rm.cata.run.gz"]) == [
        "ql.cata",
        "rm.cata",
    ]
    assert P.short_names(["web2012.ql.cata.run", "web2012.rm.cata.run"]) == ["ql.cata", "rm.cata"]
    assert P.short_names(["a.run", "b.run"]) == ["a", "b"]
    assert P.short_names(["a.gz", "b.gz"]) == ["a", "b"]
    assert P.short_names(["x", "y"]) == ["x", "y"]
    assert P.short_names(["run.1", "run.1.b"]) == ["1", "1.b"]
    assert P.short_names(["a.x", "b.x", "x"]) == ["a.x", "b.x", "x"]  # not all dotted
