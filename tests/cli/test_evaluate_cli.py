"""``cwlkit evaluate`` and ``cwlkit measures``: thin commands over the API and the registry."""

from __future__ import annotations

import csv
import io
import json

import pytest
from conftest import DATA

import cwlkit

WEB = DATA / "web2012"
QRELS = WEB / "qrels.web.151-200.txt"
RUNS = [WEB / "runs" / "web2012.ql.cata.run.gz", WEB / "runs" / "web2012.rm.cata.run.gz"]


def test_one_row_per_run_equals_the_api(cli):
    rc, out, err = cli("evaluate", QRELS, *RUNS, "-m", "P@10 AP", "-m", "NumRet", "--format", "csv")
    assert rc == 0, err
    rows = list(csv.DictReader(io.StringIO(out)))
    assert [r["run"] for r in rows] == [p.name for p in RUNS]
    for r, path in zip(rows, RUNS, strict=True):
        api = cwlkit.evaluate(QRELS, path, ["P@10", "AP", "NumRet"]).mean()
        assert {k: float(v) for k, v in r.items() if k != "run"} == api
    assert float(rows[0]["NumRet"]) == 50000  # a count is summed, not averaged


def test_per_topic_and_formats(cli):
    rc, out, _ = cli("evaluate", QRELS, RUNS[0], "-m", "P@10", "--per-topic", "--format", "json")
    recs = json.loads(out)
    assert len(recs) == 50 and set(recs[0]) == {"run", "topic", "P@10"}
    api = cwlkit.evaluate(QRELS, RUNS[0], ["P@10"]).per_topic("P@10")
    assert {r["topic"]: r["P@10"] for r in recs} == api
    rc, out, _ = cli("evaluate", QRELS, RUNS[0], "-m", "P@10", "--format", "markdown")
    assert out.splitlines()[0] == "| run | P@10 |" and out.splitlines()[1] == "|---|---|"
    rc, out, _ = cli("evaluate", QRELS, RUNS[0], "-m", "P@10")
    assert out.split()[:2] == ["run", "P@10"]
    assert out.splitlines()[1].split()[1] == f"{api and sum(api.values()) / len(api):.4f}"


def test_trec_eval_rules_are_options(cli, tmp_path):
    q = tmp_path / "q"
    q.write_text("1 0 a 1\n2 0 b 1\n")
    r = tmp_path / "r"
    r.write_text("1 Q0 a 1 1.0 x\n")
    assert cli("evaluate", q, r, "-m", "AP")[1].splitlines()[1].split()[1] == "1.0000"
    assert (
        cli("evaluate", q, r, "-m", "AP", "--topics", "qrels")[1].splitlines()[1].split()[1]
        == "0.5000"
    )


def test_errors_are_one_line(cli, tmp_path):
    rc, out, err = cli("evaluate", QRELS, RUNS[0], "-m", "Foo@10")
    assert rc == 2 and out == "" and err.count("\n") == 1 and "unknown measure 'Foo'" in err
    bad = tmp_path / "bad.run"
    bad.write_text("151 Q0 a 1 1.0 x\n151 Q0 b 2\n")
    rc, out, err = cli("evaluate", QRELS, RUNS[0], bad, "-m", "AP")
    assert rc == 2 and out == "" and f"{bad}:2:" in err


def test_measures_lists_the_registry(cli):
    rc, out, _ = cli("measures")
    assert rc == 0 and "INST  (mean)" in out and "trec_eval: map, map_cut" in out
    rc, out, _ = cli("measures", "ndcg_cut.10", "--json")
    (entry,) = json.loads(out)
    assert entry["name"] == "nDCG" and {p["name"] for p in entry["params"]} == {
        "dcg",
        "gains",
        "judged_only",
        "k",
    }
    rc, out, err = cli("measures", "nope")
    assert rc == 2 and "unknown measure" in err


@pytest.mark.parametrize("name", ["evaluate", "measures"])
def test_help(name, capsys):
    from cwlkit.cli.main import main

    with pytest.raises(SystemExit):
        main([name, "--help"])
    assert capsys.readouterr().out.startswith(f"usage: cwlkit {name}")


@pytest.mark.parametrize(
    "args",
    [
        ["-m", "P@10", "AP", QRELS, *RUNS],  # several names before the files
        [QRELS, *RUNS, "-m", "P@10", "AP"],  # after them
        ["-m", "P@10 AP", QRELS, *RUNS],  # a quoted list
        ["--measure", "P@10", "-m", "AP", QRELS, *RUNS],  # repeated
        ["-m", "P@10", "AP", "--", QRELS, *RUNS],
    ],
)
def test_several_measures_per_flag_before_or_after_the_files(cli, args):
    rc, out, err = cli("evaluate", "-f", "json", *args)
    assert rc == 0, err
    got = json.loads(out)
    api = [cwlkit.evaluate(QRELS, p, ["P@10", "AP"]).mean() for p in RUNS]
    assert [{k: r[k] for k in ("P@10", "AP")} for r in got] == api


def test_split_measure_flags_stops_at_an_option_a_path_or_a_file(tmp_path, monkeypatch):
    from cwlkit.cli.main import split_measure_flags

    monkeypatch.chdir(tmp_path)
    (tmp_path / "qrels").write_text("")
    flags = ["-m", "--measure"]
    assert split_measure_flags(["-m", "AP", "P@10", "qrels", "r"], flags) == [
        "-m", "AP", "-m", "P@10", "qrels", "r"
    ]  # fmt: skip
    assert split_measure_flags(["-m", "AP", "d/run", "-f", "csv"], flags) == [
        "-m", "AP", "d/run", "-f", "csv"
    ]  # fmt: skip
    assert split_measure_flags(["-m", "AP", "-j", "2", "q"], flags) == ["-m", "AP", "-j", "2", "q"]
    # a typo is kept as a measure (and refused as one), not taken for a file
    assert split_measure_flags(["-m", "APX", "nDCG"], flags) == ["-m", "APX", "-m", "nDCG"]
    assert split_measure_flags(["--", "-m", "AP", "x"], flags) == ["--", "-m", "AP", "x"]


@pytest.mark.parametrize("name", ["out.parquet", "out.xlsx", "out.gz", "out.html"])
def test_output_suffix_of_a_format_evaluate_does_not_write_is_refused(cli, tmp_path, name):
    """``-o out.parquet`` wrote plain text into out.parquet; it is refused (nothing written)."""
    out = tmp_path / name
    rc, stdout, err = cli("evaluate", QRELS, RUNS[0], "-m", "AP", "-o", out)
    assert rc == 2 and stdout == "" and not out.exists()
    suffix = name[3:]
    assert f"this command does not write {suffix} files; it writes text, tsv, csv" in err
    assert err.count("\n") == 1


def test_output_suffix_gives_the_format_or_the_default(cli, tmp_path):
    for name, first in (("a.csv", "run,AP"), ("a.json", "["), ("a.out", "run"), ("plain", "run")):
        rc, _, err = cli("evaluate", QRELS, RUNS[0], "-m", "AP", "-o", tmp_path / name)
        assert rc == 0, err
        assert (tmp_path / name).read_text().startswith(first), name
    # -f says what to write, whatever the name
    rc, _, err = cli("evaluate", QRELS, RUNS[0], "-m", "AP", "-f", "csv", "-o", tmp_path / "b.gz")
    assert rc == 0 and (tmp_path / "b.gz").read_text().startswith("run,AP")


def test_evaluate_says_the_gain_mapping_of_cwl_metrics_as_cwl_does(cli):
    """Graded qrels (Web 2012: labels up to 4) under --gain auto: one stderr line, cwl's."""
    line = "graded labels (up to 4): gains are label / 4 (--gain auto; give --gain to choose"
    rc, out, err = cli("evaluate", QRELS, *RUNS, "-m", "RBP(p=0.8)", "AP", "--quiet")
    assert rc == 0 and err.count("\n") == 1 and err.startswith(f"cwlkit evaluate: {line}")
    _, _, cwl_err = cli("cwl", QRELS, RUNS[0], "-M", "RBP(p=0.8)")
    assert cwl_err == err.replace("cwlkit evaluate:", "cwlkit cwl:")
    # the value is that of linear gains (label / 4)
    lin = cwlkit.evaluate(QRELS, RUNS[0], ["RBP(p=0.8)"], gain="linear").mean()["RBP(p=0.8)"]
    assert float(out.splitlines()[1].split()[1]) == pytest.approx(lin, abs=5e-5)
    # no C/W/L metric reading the evaluation's gains (P@10's form has binary gains), or a
    # --gain given: nothing said
    for args in (["-m", "P@10", "AP"], ["-m", "RBP(p=0.8)", "--gain", "exp"]):
        rc, _, err = cli("evaluate", QRELS, RUNS[0], *args, "--quiet")
        assert rc == 0 and err == "", args
