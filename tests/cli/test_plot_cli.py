"""``cwlkit plot ACTION ... -o FILE``: each action writes its figure, and the figure the command
line draws holds the API's numbers (the figure is caught on its way to the file)."""

from __future__ import annotations

import sys

import numpy as np
import pytest
from conftest import DATA

import cwlkit
from cwlkit.measures.curves import pr_curve, roc_curve
from cwlkit.plot.curves import interpolated_steps
from cwlkit.stats import correlate_runs

pytestmark = pytest.mark.slow  # (the fast tier: pytest -m 'not slow')

pytest.importorskip("matplotlib")

WEB = DATA / "web2012"
QRELS = str(WEB / "qrels.web.151-200.txt")
RUNS = sorted(str(p) for p in (WEB / "runs").glob("*.run.gz"))
RUN = str(WEB / "runs" / "web2012.ql.catb.run.gz")
PNG = b"\x89PNG\r\n\x1a\n"


@pytest.fixture
def drawn(monkeypatch):
    """The figures the command line saves, in order (they are still written)."""
    from cwlkit.plot import figures

    figs = []
    save = figures.save

    def keep(fig, path, **kw):
        figs.append(fig)
        save(fig, path, **kw)

    monkeypatch.setattr(figures, "save", keep)
    return figs


def lines_by_gid(fig):
    return {ln.get_gid(): ln for ax in fig.axes for ln in ax.get_lines() if ln.get_gid()}


def test_vectors_example_is_figure_1(cli, tmp_path, drawn):
    out = tmp_path / "fig1.png"
    metrics = ["RBP(p=0.8)", "TBG(halflife=2)", "BPMD(T=2,K=10,hb=0.5,hc=0.5)"]
    rc, stdout, err = cli(
        "plot", "vectors", "--example", *sum((["-M", m] for m in metrics), []), "-o", out
    )
    assert rc == 0 and stdout == "" and err == ""
    assert out.read_bytes()[:8] == PNG
    lines = lines_by_gid(drawn[0])
    q, r, c = cwlkit.example("qrels"), cwlkit.example("run"), cwlkit.example("costs")
    for m in metrics:
        name = cwlkit.Evaluator(q, [m]).measures[0].name
        for t in ("T1", "T2"):  # --example draws T1 and T2 with the paper's costs
            v = cwlkit.cwl_vectors(q, r, m, t, costs=c, topics="run", trec_version=10)
            for key in "CWL":
                np.testing.assert_array_equal(lines[f"{name}|{t}|{key}"].get_ydata(), v[key])


def test_vectors_web_topics_and_ranks(cli, tmp_path, drawn):
    out = tmp_path / "v.svg"
    rc, _, err = cli(
        "plot", "vectors", QRELS, RUN, "-M", "INST(T=2)", "-t", "151", "-t", "152",
        "--gain", "linear", "-o", out,
    )  # fmt: skip
    assert rc == 0, err
    assert "<svg" in out.read_text()
    lines = lines_by_gid(drawn[0])
    v = cwlkit.cwl_vectors(QRELS, RUN, "INST(T=2)", "152", gain="linear", trec_version=10)
    y = lines["INST(T=2)|152|L"].get_ydata()
    assert y.size == 50  # a 1000-document run: the first 50 ranks unless --ranks
    np.testing.assert_array_equal(y, v["L"][:50])
    rc, _, _ = cli(
        "plot",
        "vectors",
        QRELS,
        RUN,
        "-M",
        "RBP(p=0.5)",
        "-t",
        "151",
        "--ranks",
        "7",
        "-o",
        out,
    )
    assert rc == 0 and lines_by_gid(drawn[1])["RBP(p=0.5)|151|C"].get_ydata().size == 7


def test_vectors_without_topics_draws_the_first_three(cli, tmp_path, drawn):
    rc, _, err = cli("plot", "vectors", QRELS, RUN, "-M", "RBP(p=0.8)", "-o", tmp_path / "v.png")
    assert rc == 0
    assert err == "cwlkit plot vectors: the first 3 topics (151, 152, 153); choose them with -t T\n"
    drawn_topics = {gid.split("|")[1] for gid in lines_by_gid(drawn[0])}
    assert drawn_topics == {"151", "152", "153"}


def test_sweep_is_figure_2(cli, tmp_path, drawn):
    out = tmp_path / "fig2.png"
    grids = ["RBP(p=0.1:0.95:0.05)", "INST(T=0.5:3:0.5)"]
    rc, _, err = cli(
        "plot", "sweep", QRELS, RUN, "-M", grids[0], "-M", grids[1], "--gain", "linear", "-o", out
    )
    assert rc == 0, err
    assert out.read_bytes()[:8] == PNG
    lines = lines_by_gid(drawn[0])
    assert set(lines) == {f"{g}|mean|{k}" for g in grids for k in ("EU", "ETU", "ETC")}
    res = cwlkit.evaluate(QRELS, RUN, grids, gain="linear", topics="run", trec_version=10)
    rbp = [m for m in res.measures if m.startswith("RBP")]
    assert len(rbp) == 18  # 0.1, 0.15, ..., 0.95: stop included
    x, y = lines[f"{grids[0]}|mean|EU"].get_data()
    np.testing.assert_allclose(x, [res.mean("ED")[m] for m in rbp], rtol=1e-15)
    np.testing.assert_allclose(y, [res.mean()[m] for m in rbp], rtol=1e-15)
    # one line per --topic (and the mean with --mean)
    rc, _, _ = cli(
        "plot",
        "sweep",
        QRELS,
        RUN,
        "-M",
        grids[1],
        "-t",
        "160",
        "--mean",
        "--gain",
        "linear",
        "-o",
        out,
    )
    assert rc == 0
    assert {gid.split("|")[1] for gid in lines_by_gid(drawn[1])} == {"160", "mean"}


def test_sweep_example(cli, tmp_path):
    out = tmp_path / "fig2.svg"
    rc, _, err = cli(
        "plot", "sweep", "--example", "-M", "RBP(p=0.1:0.9:0.1)", "-M", "TBG(halflife=0.25:2:0.25)",
        "-M", "BPMD(T=0.5:4:0.5,K=10,hb=0.5,hc=0.5)", "-o", out,
    )  # fmt: skip
    assert rc == 0, err
    assert out.read_text().lstrip().startswith("<?xml") and "</svg>" in out.read_text()


def test_pr_and_roc_are_the_curves(cli, tmp_path, drawn):
    batch = cwlkit.Evaluator(QRELS, []).batch(RUN)
    pr, roc = pr_curve(batch), roc_curve(batch)
    rc, _, err = cli("plot", "pr", QRELS, RUN, "-t", "151", "-o", tmp_path / "pr.png")
    assert rc == 0, err
    ys = {ln.get_label(): ln.get_ydata() for ln in drawn[0].axes[0].get_lines()}
    np.testing.assert_array_equal(ys["mean over 50 topics"], pr.mean_interpolated)
    np.testing.assert_array_equal(ys["_nolegend_"], pr.interpolated[pr.topic("151")])
    step = interpolated_steps(pr, pr.topic("151"))[1]
    np.testing.assert_array_equal(ys["151 (interpolated)"], step)
    assert "mean AUC" not in drawn[0].axes[0].get_title()
    rc, _, err = cli("plot", "roc", QRELS, RUN, "-t", "153", "-o", tmp_path / "roc.png")
    assert rc == 0, err
    line = drawn[1].axes[0].get_lines()[0]
    row = int(np.flatnonzero(roc.topics == "153")[0])
    ok = ~np.isnan(roc.fpr[row])
    np.testing.assert_array_equal(line.get_xdata(), np.r_[0.0, roc.fpr[row][ok], 1.0])
    np.testing.assert_array_equal(line.get_ydata(), np.r_[0.0, roc.tpr[row][ok], 1.0])
    assert line.get_label() == f"153 (AUC {roc.auc[row]:.3f})"
    title = drawn[1].axes[0].get_title()
    assert f"mean AUC {np.nanmean(roc.auc):.3f} over 50 topics" in title
    # several runs: each run's averaged 11-point curve
    rc, _, err = cli("plot", "pr", QRELS, *RUNS[:3], "-o", tmp_path / "pr3.png")
    assert rc == 0, err
    got = [ln.get_ydata() for ln in drawn[2].axes[0].get_lines()]
    for run, y in zip(RUNS[:3], got, strict=True):
        want = pr_curve(cwlkit.Evaluator(QRELS, []).batch(run)).mean_interpolated
        np.testing.assert_array_equal(y, want)


def test_scatter_and_matrix(cli, tmp_path, drawn):
    ms = ["-m", "RBP(p=0.6) C_E10(phi=0.7) AP"]
    rc, _, err = cli(
        "plot",
        "scatter",
        QRELS,
        *RUNS,
        "-x",
        "ERR@20",
        *ms,
        "--gain",
        "err",
        "-o",
        tmp_path / "s.png",
    )
    assert rc == 0, err
    cm = correlate_runs(QRELS, RUNS, ["ERR@20", "RBP(p=0.6)", "C_E10(phi=0.7)", "AP"], gain="err")
    scat = {c.get_gid(): c for ax in drawn[0].axes for c in ax.collections if c.get_gid()}
    for lvl in ("scores", "systems"):
        for j, y in enumerate(cm.measures[1:], 1):
            pts = np.asarray(scat[f"{lvl}|ERR@20|{y}"].get_offsets())
            np.testing.assert_array_equal(pts.T, cm.data[lvl].values[[0, j]])
    rc, _, err = cli(
        "plot",
        "matrix",
        QRELS,
        *RUNS,
        "-m",
        "ERR@20",
        *ms,
        "--gain",
        "err",
        "-o",
        tmp_path / "m.svg",
    )
    assert rc == 0, err
    im = {i.get_gid(): i for ax in drawn[1].axes for i in ax.get_images()}
    got = np.asarray(im["systems|kendall_tau_b"].get_array())
    want = cm.combined("systems", "kendall_tau_b", "weighted_tau")
    np.testing.assert_array_equal(got[~np.isnan(want)], want[~np.isnan(want)])
    # the ERR paper's filter: pairs whose ERR@20 residual is at most 0.05
    rc, _, err = cli(
        "plot", "scatter", QRELS, *RUNS, "-m", "ERR@20 RBP(p=0.6)", "--gain", "err",
        "--max-residual", "0.05", "--level", "scores", "-o", tmp_path / "s2.png",
    )  # fmt: skip
    assert rc == 0, err
    res = cwlkit.evaluate(QRELS, RUNS, ["ERR@20"], gain="err", residuals=True)
    keep = sum(int((r.columns["ResEU"][0] <= 0.05).sum()) for r in res.values())
    pts = [c for ax in drawn[2].axes for c in ax.collections if c.get_gid()]
    assert len(pts) == 1 and len(pts[0].get_offsets()) == keep < 400


@pytest.mark.parametrize(
    "args,msg",
    [
        (
            ["vectors", "--example", "-M", "RBP(p=0.8)", "-o", "x.pdf"],
            "write the figure as .png or .svg",
        ),
        (["vectors", "--example", "-M", "ERR@20", "-o", "x.png"], "not a C/W/L metric"),
        (
            ["vectors", "--example", "-M", "RBP(p=0.8)", "-t", "T9", "-o", "x.png"],
            "'T9' is not in the run",
        ),
        (["vectors", "-M", "RBP(p=0.8)", "-o", "x.png"], "needs QRELS and RUN"),
        (["sweep", "--example", "-M", "P@1:5:1", "-o", "x.png"], "not a C/W/L metric"),
        (["sweep", "--example", "-M", "RBP(p=0.9:0.1:0.1)", "-o", "x.png"], "above its stop"),
        (["roc", QRELS, *RUNS[:2], "-o", "x.png"], "give one run"),
        (["pr", QRELS, *RUNS[:2], "-t", "151", "-o", "x.png"], "give one run"),
        (["scatter", QRELS, *RUNS, "-m", "ERR@20", "-o", "x.png"], "at least 2 measures"),
        (
            [
                "matrix",
                QRELS,
                *RUNS,
                "-m",
                "AP P@10",
                "--max-residual",
                "0.1",
                "--level",
                "systems",
                "-o",
                "x.png",
            ],
            "--level scores",
        ),
        (["bars", QRELS, RUN, "-o", "x.png"], "invalid choice"),
        (["pr", QRELS, RUN], "-o/--output"),
    ],
)
def test_errors_are_one_line(cli, tmp_path, monkeypatch, args, msg):
    monkeypatch.chdir(tmp_path)
    rc, out, err = cli("plot", *args)
    assert rc == 2 and out == "" and msg in err and err.count("\n") == 1, err
    assert not any(tmp_path.iterdir())  # nothing written


def test_matplotlib_missing(cli, tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    rc, out, err = cli("plot", "pr", QRELS, RUN, "-o", tmp_path / "pr.png")
    assert rc == 2 and out == ""
    assert err == "cwlkit: error: plotting needs matplotlib: pip install 'cwlkit[plot]'\n"


def test_help(capsys):
    from cwlkit.cli.main import SUBCOMMANDS, main

    with pytest.raises(SystemExit) as exc:
        main(["plot", "--help"])
    assert exc.value.code == 0
    text = capsys.readouterr().out
    assert text.startswith("usage: cwlkit plot") and "plot" in SUBCOMMANDS
    for action in ("vectors", "sweep", "pr", "roc", "scatter", "matrix"):
        assert f"  {action}" in text


def test_vectors_of_p_at_10_its_cwl_form(cli, tmp_path, drawn):
    """``plot vectors -M P@10`` draws P_cwl@10's vectors on binary gains (it said "P@10 is
    not a C/W/L metric" while ``cwl -M P@10`` scores it)."""
    out = tmp_path / "p10.png"
    rc, stdout, err = cli("plot", "vectors", "--example", "-M", "P@10", "-o", out)
    assert rc == 0 and stdout == "" and err == "", err
    assert out.read_bytes()[:8] == PNG
    rc, _, err = cli("plot", "vectors", "--example", "-M", "AP", "-o", tmp_path / "ap.png")
    assert rc == 2 and "AP is not a C/W/L metric" in err
