"""``cwlkit compare``, ``cwlkit correlate`` and ``cwlkit fit``: numbers against scipy /
statsmodels on independently evaluated per-topic scores, output formats, errors."""

from __future__ import annotations

import csv
import io
import json

import numpy as np
import pytest
from conftest import DATA, read_data
from scipy import stats

import cwlkit

WEB = DATA / "web2012"
QRELS = str(WEB / "qrels.web.151-200.txt")
NAMES = ["web2012.ql.cata.run.gz", "web2012.rm.cata.run.gz", "web2012.ql.catb.run.gz"]
RUNS = [str(WEB / "runs" / n) for n in NAMES]
MEASURES = ["P@10", "RBP(p=0.8)"]


@pytest.fixture(scope="module")
def per_topic():
    """{run name: Results} evaluated through the Python API (not the CLI)."""
    return {n: cwlkit.evaluate(QRELS, r, MEASURES) for n, r in zip(NAMES, RUNS, strict=True)}


def _tsv(text: str) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(text), delimiter="\t"))


# ---------------------------------------------------------------------------- compare


def test_compare_tsv_t_test_against_scipy(cli, per_topic):
    rc, out, err = cli("compare", QRELS, *RUNS, "-m", "P@10", "-m", "RBP(p=0.8)", "-f", "tsv")
    assert rc == 0 and err == ""
    rows = _tsv(out)
    assert len(rows) == 2 * 2  # 2 measures x 2 runs against the first
    base = per_topic[NAMES[0]]
    for row in rows:
        res = per_topic[row["run"]]
        assert row["baseline"] == NAMES[0]
        assert res.topics == base.topics  # all three runs have the 50 topics
        a = np.array(list(res.per_topic(row["measure"]).values()))
        b = np.array(list(base.per_topic(row["measure"]).values()))
        s = stats.ttest_rel(a, b)
        assert float(row["p_value"]) == pytest.approx(s.pvalue, abs=1e-12)
        assert float(row["statistic"]) == pytest.approx(s.statistic, rel=1e-12)
        assert float(row["run_mean"]) == pytest.approx(a.mean(), abs=1e-15)
        assert float(row["diff"]) == pytest.approx(a.mean() - b.mean(), abs=1e-15)
        ci = s.confidence_interval()
        assert float(row["ci_low"]) == pytest.approx(ci.low, abs=1e-12)
        assert float(row["ci_high"]) == pytest.approx(ci.high, abs=1e-12)
        assert row["p_adjusted"] == row["p_value"] and row["n"] == "50"


@pytest.mark.parametrize(
    "correction,sm", [("holm", "holm"), ("bh", "fdr_bh"), ("bonferroni", "bonferroni")]
)
def test_compare_all_pairs_correction_against_statsmodels(cli, per_topic, correction, sm):
    multitest = pytest.importorskip("statsmodels.stats.multitest")
    rc, out, _ = cli(
        "compare",
        QRELS,
        *RUNS,
        "-m",
        "P@10",
        "-m",
        "RBP(p=0.8)",
        "--all-pairs",
        "--test",
        "wilcoxon",
        "--correction",
        correction,
        "-f",
        "json",
    )
    assert rc == 0
    doc = json.loads(out)
    comps = doc["comparisons"]
    assert len(comps) == 2 * 3  # 2 measures x 3 pairs
    assert {(c["run"], c["baseline"]) for c in comps} == {
        (NAMES[1], NAMES[0]),
        (NAMES[2], NAMES[0]),
        (NAMES[2], NAMES[1]),
    }
    raw = []
    for c in comps:
        a = np.array(list(per_topic[c["run"]].per_topic(c["measure"]).values()))
        b = np.array(list(per_topic[c["baseline"]].per_topic(c["measure"]).values()))
        assert c["p_value"] == pytest.approx(stats.wilcoxon(a, b).pvalue, abs=1e-12)
        raw.append(c["p_value"])
    rej, adj, _, _ = multitest.multipletests(raw, alpha=0.05, method=sm)
    assert [c["p_adjusted"] for c in comps] == pytest.approx(list(adj), abs=1e-15)
    assert [c["significant"] for c in comps] == list(rej)
    assert doc["correction"] == correction and doc["topics"] == 50
    assert doc["means"][0]["run"] == NAMES[0]
    assert doc["means"][0]["P@10"] == pytest.approx(per_topic[NAMES[0]].mean()["P@10"])


def test_compare_per_topic_prints_the_paired_scores(cli, per_topic):
    rc, out, err = cli("compare", QRELS, *RUNS, "-m", *MEASURES, "--per-topic", "-f", "json")
    assert rc == 0, err
    rows = json.loads(out)
    assert len(rows) == sum(len(r.topics) for r in per_topic.values())
    for row in rows:
        want = per_topic[row["run"]]
        assert all(row[m] == want.per_topic(m)[row["topic"]] for m in MEASURES)
    _, evaluated, _ = cli("evaluate", QRELS, *RUNS, "-m", *MEASURES, "--per-topic", "-f", "json")
    assert out == evaluated


def test_compare_text_and_markdown(cli, per_topic):
    rc, out, _ = cli(
        "compare",
        QRELS,
        *RUNS[:2],
        "-m",
        "P@10",
        "--test",
        "randomization",
        "--samples",
        "2000",
        "--seed",
        "7",
        "--correction",
        "holm",
    )
    assert rc == 0
    lines = out.splitlines()
    assert lines[0].startswith("# randomization (sign-flip) test (two-sided, 2000 samples, seed 7)")
    assert "50 topics" in lines[0]
    mean_line = next(ln for ln in lines if ln.startswith(NAMES[1]))
    assert mean_line.split()[1] == f"{per_topic[NAMES[1]].mean()['P@10']:.4f}"
    assert any(ln.startswith("P@10") and "95% CI" not in ln for ln in lines)
    assert "p (holm)" in out
    # seeded: the same command gives the same output
    assert (
        cli(
            "compare",
            QRELS,
            *RUNS[:2],
            "-m",
            "P@10",
            "--test",
            "randomization",
            "--samples",
            "2000",
            "--seed",
            "7",
            "--correction",
            "holm",
        )[1]
        == out
    )
    rc, md, _ = cli("compare", QRELS, *RUNS, "-m", "P@10", "--test", "sign", "-f", "markdown")
    assert rc == 0
    assert "| run | P@10 |" in md and "|---|---:|" in md
    assert md.count(f"| P@10 | {NAMES[2]} | {NAMES[0]} |") == 1


def test_compare_bootstrap_runs_and_marks_significance(cli):
    rc, out, _ = cli(
        "compare",
        QRELS,
        RUNS[0],
        RUNS[2],
        "-m",
        "P@10",
        "--test",
        "bootstrap",
        "--samples",
        "999",
        "-f",
        "tsv",
    )
    row = _tsv(out)[0]
    # ql.catb is far better than ql.cata on P@10 (0.442 vs 0.198): p is the smallest possible
    assert float(row["p_value"]) == pytest.approx(1 / 1000)
    assert row["significant"] == "true"
    assert float(row["ci_low"]) > 0


@pytest.mark.parametrize(
    "args,msg",
    [
        (["compare", QRELS, RUNS[0], "-m", "P@10"], "at least two runs"),
        (["compare", QRELS, *RUNS[:2], "-m", "P@10", "--test", "ttest"], "invalid choice"),
        (["compare", QRELS, *RUNS[:2], "-m", "NoSuchMeasure"], "unknown measure"),
        (
            ["compare", QRELS, *RUNS[:2], "-m", "P@10", "--alpha", "5"],
            "--alpha must be a number in (0, 1); got 5.0",
        ),
        (["compare", QRELS, RUNS[0], "no-such-run.txt", "-m", "P@10"], "no-such-run.txt"),
    ],
)
def test_compare_errors(cli, args, msg):
    rc, out, err = cli(*args)
    assert rc == 2 and out == ""
    assert err.startswith("cwlkit: error: ") and msg in err and err.count("\n") == 1


def test_compare_api_aligns_topics():
    """Runs with different topic sets are paired on the common topics."""
    from cwlkit.results import Results
    from cwlkit.stats import compare

    a = Results(np.array([[0.1, 0.5, 0.9, 0.3]]), ["P@10"], ["1", "2", "3", "4"])
    b = Results(np.array([[0.4, 0.2, 0.6]]), ["P@10"], ["2", "3", "5"])
    t = compare({"a": a, "b": b}, test="t")
    assert t.topics == ["2", "3"] and t.dropped == {"a": 2, "b": 1}
    rec = t.to_records()[0]
    assert rec["run_mean"] == pytest.approx(0.3) and rec["baseline_mean"] == pytest.approx(0.7)
    assert rec["p_value"] == pytest.approx(
        stats.ttest_rel([0.4, 0.2], [0.5, 0.9]).pvalue, abs=1e-12
    )
    assert t.to_frame().shape == (1, 14)


# -------------------------------------------------------------------------- correlate


def test_correlate_against_scipy(cli, per_topic):
    rc, out, err = cli("correlate", QRELS, *RUNS, "-a", "RBP(p=0.8)", "-b", "P@10", "-f", "json")
    assert rc == 0 and err == ""
    doc = json.loads(out)
    a = np.concatenate(
        [per_topic[n].values[per_topic[n].measures.index("RBP(p=0.8)")] for n in NAMES]
    )
    b = np.concatenate([per_topic[n].values[per_topic[n].measures.index("P@10")] for n in NAMES])
    got = {(c["level"], c["name"]): c for c in doc["correlations"]}
    assert got[("scores", "pearson")]["value"] == pytest.approx(
        stats.pearsonr(a, b).statistic, abs=1e-12
    )
    assert got[("scores", "spearman")]["p_value"] == pytest.approx(
        stats.spearmanr(a, b).pvalue, abs=1e-12, rel=1e-9
    )
    ma = [per_topic[n].mean()["RBP(p=0.8)"] for n in NAMES]
    mb = [per_topic[n].mean()["P@10"] for n in NAMES]
    assert got[("systems", "kendall_tau_b")]["value"] == pytest.approx(
        stats.kendalltau(ma, mb).statistic
    )
    assert got[("systems", "weighted_tau")]["value"] == pytest.approx(
        stats.weightedtau(ma, mb).statistic
    )
    assert got[("systems", "tau_ap")]["p_value"] is None  # NaN: null (strict JSON)
    assert doc["pairs"] == 150 and doc["common_topics"] == 50
    assert [s["run"] for s in doc["systems"]] == NAMES


def test_correlate_text_and_tsv(cli):
    rc, out, _ = cli("correlate", QRELS, *RUNS, "-a", "RBP(p=0.8)", "-b", "P@10", "--rbo-p", "0.5")
    assert rc == 0
    assert out.startswith("# A = RBP(p=0.8), B = P@10: 3 runs, 150 (run, topic) pairs")
    assert "rbo(p=0.5)" in out and "kendall_tau_b" in out
    rc, tsv, _ = cli("correlate", QRELS, *RUNS, "-a", "RBP(p=0.8)", "-b", "P@10", "-f", "tsv")
    rows = _tsv(tsv)
    assert [r["coefficient"] for r in rows] == [
        "pearson",
        "spearman",
        "pearson",
        "spearman",
        "kendall_tau_b",
        "tau_ap",
        "weighted_tau",
        "rbo(p=0.9)",
    ]
    rc, md, _ = cli(
        "correlate", QRELS, *RUNS[:1], "-a", "RBP(p=0.8)", "-b", "P@10", "-f", "markdown"
    )
    assert rc == 0 and "| scores | pearson |" in md and "systems" not in md  # one run: no ordering


def test_correlate_errors(cli):
    rc, _, err = cli("correlate", QRELS, *RUNS, "-a", "P@10")
    assert rc == 2 and "-b/--measure-b" in err
    rc, _, err = cli("correlate", QRELS, *RUNS, "-a", "P@10", "-b", "AP", "--rbo-p", "1")
    assert rc == 2 and err == "cwlkit: error: --rbo-p must be a number in (0, 1); got 1.0\n"


# -------------------------------------------------------------------------------- fit


def test_fit_recovers_parameter_text_tsv_json(cli):
    args = ["fit", QRELS, *RUNS, "--target", "RBP(p=0.7)", "--metric", "RBP(p=0.5:0.9:0.05)"]
    rc, out, err = cli(*args)
    assert rc == 0 and err == ""
    assert "best p for Pearson's r: 0.7 (r = 1.0000, RBP(p=0.7))" in out
    assert "best p for Spearman's rho: 0.7 (rho = 1.0000, RBP(p=0.7))" in out
    rc, tsv, _ = cli(*args, "-f", "tsv")
    rows = _tsv(tsv)
    assert len(rows) == 9 and rows[4]["p"] == "0.7" and rows[4]["best"] == "pearson,spearman"
    assert all(r["best"] == "" for i, r in enumerate(rows) if i != 4)
    rc, js, _ = cli(*args, "-f", "json", "--max-residual", "0.05")
    doc = json.loads(js)
    assert doc["best_pearson"]["value"] == pytest.approx(0.7)
    assert doc["max_residual"] == 0.05 and doc["pairs"] < doc["pairs_total"] == 150
    assert len(doc["curve"]) == 9


def test_fit_jobs_give_the_same_output(cli):
    """-j N evaluates the runs in N processes: the same bytes for any N (the target being
    one of the grid's values is evaluated once and serves both)."""
    args = ["fit", QRELS, *RUNS, "--target", "RBP(p=0.7)", "--metric", "RBP(p=0.5:0.9:0.1)"]
    outs = {cli(*args, "-f", "json", "--max-residual", "0.05", "-j", j)[1] for j in ("1", "2")}
    assert len(outs) == 1
    doc = json.loads(outs.pop())
    assert doc["best_pearson"]["value"] == pytest.approx(0.7)


def test_fit_plot(cli, tmp_path):
    out = tmp_path / "curve.png"
    args = [
        "fit",
        QRELS,
        *RUNS[:2],
        "--target",
        "RBP(p=0.7)",
        "--metric",
        "RBP(p=0.6:0.8:0.1)",
        "--plot",
        str(out),
    ]
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        rc, stdout, err = cli(*args)
        assert rc == 2 and stdout == "" and "needs matplotlib" in err
        return
    rc, _, _ = cli(*args)
    assert rc == 0 and out.read_bytes()[:4] == b"\x89PNG"


@pytest.mark.parametrize(
    "extra,msg",
    [
        (["--metric", "RBP(p=0.8)"], "exactly one range"),
        (["--metric", "RBP(q=0.1:0.2:0.1)"], "has no parameter 'q'"),
        (["--metric", "C_E10(phi=0.5:0.6:0.1)", "--gain", "identity"], "outside [0, 1]"),
    ],
)
def test_fit_errors(cli, extra, msg):
    rc, out, err = cli("fit", QRELS, *RUNS[:1], "--target", "RBP(p=0.7)", *extra)
    assert rc == 2 and out == "" and msg in err


@pytest.mark.parametrize(
    "name,phrase",
    [("compare", "--correction"), ("correlate", "tau_AP"), ("fit", "start:stop:step")],
)
def test_help(name, phrase, capsys):
    from cwlkit.cli.main import SUBCOMMANDS, main

    with pytest.raises(SystemExit) as exc:
        main([name, "--help"])
    assert exc.value.code == 0
    out = capsys.readouterr().out
    assert out.startswith(f"usage: cwlkit {name}") and phrase in out
    assert name in SUBCOMMANDS  # one summary per subcommand, in cli/main.py only


def test_compare_measure_list_in_one_option(cli):
    one = cli("compare", QRELS, *RUNS[:2], "-m", "P@10  RBP(p=0.8)", "-f", "tsv")
    two = cli(
        "compare", QRELS, *RUNS[:2], "-m", "P@10", "-m", "RBP( p = 0.8 )", "-m", "P@10", "-f", "tsv"
    )
    assert one[0] == two[0] == 0 and one[1] == two[1]
    assert [r["measure"] for r in _tsv(one[1])] == ["P@10", "RBP(p=0.8)"]


def test_compare_runs_with_different_topics(cli, tmp_path, per_topic):
    """A run with 10 of the 50 topics: the comparison is on those 10, and the text says so."""
    lines = read_data(RUNS[0]).splitlines(keepends=True)
    keep = {str(t) for t in range(151, 161)}
    part = tmp_path / "part.run"
    part.write_text("".join(ln for ln in lines if ln.split()[0] in keep))
    rc, out, _ = cli("compare", QRELS, str(part), RUNS[1], "-m", "P@10")
    assert rc == 0
    assert "10 topics" in out.splitlines()[0]
    assert "topics not in every run were left out: web2012.rm.cata.run.gz (40)" in out
    rc, tsv, _ = cli("compare", QRELS, str(part), RUNS[1], "-m", "P@10", "-f", "tsv")
    row = _tsv(tsv)[0]
    full = per_topic[NAMES[1]].per_topic("P@10")
    assert float(row["run_mean"]) == pytest.approx(np.mean([full[t] for t in sorted(keep)]))
    assert row["n"] == "10"


# ------------------------------------------------------------- the option contract


@pytest.mark.parametrize("command", ["compare", "report"])
@pytest.mark.parametrize(
    "option,value,message",
    [
        ("--seed", "-1", "--seed must be an integer >= 0; got -1"),
        ("--samples", "0", "--samples must be an integer from 1 to 100000000; got 0"),
        ("--alpha", "nan", "--alpha must be a number in (0, 1); got nan"),
        ("--alpha", "1", "--alpha must be a number in (0, 1); got 1.0"),
    ],
)
def test_monte_carlo_options_refused_before_any_run_is_read(cli, command, option, value, message):
    # the runs do not exist: the option is refused first, in the contract's one wording
    rc, out, err = cli(
        command,
        QRELS,
        "no-such-1.run",
        "no-such-2.run",
        "-m",
        "AP",
        "--test",
        "bootstrap",
        option,
        value,
    )
    assert (rc, out, err) == (2, "", f"cwlkit: error: {message}\n")


def test_seed_zero_and_positive_run(cli):
    args = ["compare", QRELS, *RUNS[:2], "-m", "P@10", "--test", "bootstrap", "--samples", "99"]
    rc0, out0, _ = cli(*args, "--seed", "0")
    rc1, out1, _ = cli(*args, "--seed", "12345")
    assert rc0 == rc1 == 0 and out0 != out1  # the seed reaches the draws


def test_fit_max_residual_must_be_finite(cli):
    rc, out, err = cli(
        "fit",
        QRELS,
        *RUNS,
        "--target",
        "AP",
        "--metric",
        "RBP(p=0.5:0.9:0.1)",
        "--max-residual",
        "nan",
    )
    assert (rc, out, err) == (
        2,
        "",
        "cwlkit: error: --max-residual must be a finite number; got nan\n",
    )
