"""The cwl command line: formats, BibTeX, help, python -m."""

from __future__ import annotations

import json
import re
import subprocess
import sys

from conftest import EXAMPLE


def test_default_metric_set_names(cli):
    rc, out, _ = cli("cwl", EXAMPLE / "example.qrels", EXAMPLE / "example.run")
    names = [line.split("\t")[1] for line in out.splitlines() if line.startswith("T1\t")]
    assert names == [
        "P@1",
        "P@2",
        "P@3",
        "P@4",
        "P@5",
        "P@10",
        "RBP@0.2",
        "RBP@0.4",
        "RBP@0.8",
        "NDCG-k@5",
        "NDCG-k@10",
        "RR",
        "AP",
        "INST-T=1.0",
        "INST-T=2.0",
        "INST-T=3.0",
    ]


def test_json_and_tsv(cli):
    rc, out, _ = cli("cwl", "--example", "-f", "json", "-r", "--mean")
    recs = json.loads(out)
    row = next(r for r in recs if r["topic"] == "T1" and r["metric"] == "RR")
    assert row["EU"] == 1 / 15 and row["ED"] == 3.0 and row["ResEU"] == 0.0
    assert any(r["topic"] == "all" for r in recs)
    rc, out, _ = cli("cwl", "--example", "-f", "tsv")
    head, first = out.splitlines()[:2]
    assert head.split("\t") == ["topic", "metric", "EU", "ETU", "EC", "ETC", "ED"]
    assert first.split("\t")[:2] == ["T1", "AP"]


def test_bibtex_is_valid(cli, tmp_path):
    bib = tmp_path / "refs.bib"
    rc, out, err = cli("cwl", "--example", "-b", bib)
    assert rc == 0, err
    text = bib.read_text()
    entries = re.findall(r"@(\w+)\{([^,\s]+),", text)
    assert len(entries) >= 8 and len({k for _, k in entries}) == len(entries)
    # every entry's braces balance and every field line ends with a comma except the last
    for block in text.split("\n@")[0:]:
        assert block.count("{") == block.count("}")


def test_help_and_version(cli):
    rc, out, _ = cli("--help")
    assert rc == 0 and "cwl" in out and "trec_eval" in out
    rc, out, _ = cli("--version")
    assert out.startswith("cwlkit ")
    rc, out, err = cli("cwll")
    assert rc == 2 and "did you mean 'cwl'" in err


def test_python_dash_m():
    p = subprocess.run(
        [sys.executable, "-m", "cwlkit", "cwl", "--example", "-M", "RR_cwl"],
        capture_output=True,
        text=True,
    )
    assert p.returncode == 0 and p.stdout.startswith("T1\tRR_cwl\t0.0667")
    p = subprocess.run(
        [
            sys.executable,
            "-c",
            "import cwlkit, sys; print(sorted(m for m in sys.modules "
            "if m.startswith(('scipy', 'pyarrow', 'matplotlib'))))",
        ],
        capture_output=True,
        text=True,
    )
    assert p.stdout.strip() == "[]"  # import cwlkit stays light


def test_repeated_and_colliding_metrics(cli):
    rc, out, err = cli("cwl", "--example", "-M", "P@10", "-M", "P@10", "-M", "AP", "-M", "map")
    assert rc == 0, err
    assert [line.split("\t")[1] for line in out.splitlines() if line.startswith("T1")] == [
        "P@10",
        "AP",
    ]
    # trec_eval's P@10 and cwl_eval's PrecisionCWLMetric(10) would both print 'P@10'
    rc, out, err = cli("cwl", "--example", "-M", "P@10", "-M", "PrecisionCWLMetric(10)")
    assert rc == 2 and out == "" and "two measures would print as 'P@10'" in err
    assert err.count("\n") == 1


def test_example_with_files_is_refused(cli):
    """``--example`` with QRELS and RUN evaluated the user's files with the example's costs
    and metrics; it is an error naming the way out."""
    q, r = EXAMPLE / "example.qrels", EXAMPLE / "example.run"
    rc, out, err = cli("cwl", "--example", q, r)
    assert (rc, out) == (2, "") and "give QRELS and RUN without it" in err


def test_default_invocation_on_graded_trec_data(cli):
    """The main job on the project's own TREC data (labels -2..4) with its defaults: it failed
    ("label 4 is outside [0, 1], which INST(T=1) requires"); the gains are now label / 4,
    said on one line of stderr, the same whether the files are read whole or streamed."""
    from conftest import DATA

    web = DATA / "web2012"
    files = (web / "qrels.web.151-200.txt", web / "runs" / "web2012.ql.cata.run.gz")
    rc, out, err = cli("cwl", *files)
    assert rc == 0 and out.startswith("151\tP@1\t")
    assert err == (
        "cwlkit cwl: graded labels (up to 4): gains are label / 4 "
        "(--gain auto; give --gain to choose another mapping)\n"
    )
    assert cli("cwl", "--gain", "linear", *files)[1] == out
    assert cli("cwl", "--chunk-topics", "5", *files) == (rc, out, err)
