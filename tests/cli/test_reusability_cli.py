"""``cwlkit reusability``: the API's rows, formatted; errors on one line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import DATA

import cwlkit

W = DATA / "web2012"
RUNS = sorted(str(p) for p in (W / "runs").glob("*.run.gz"))
QRELS = str(W / "qrels.web.151-200.txt")
GROUPS = {Path(p).name: Path(p).name.split(".")[1] for p in RUNS}


def test_text_tsv_and_json_are_the_api_rows(cli, tmp_path):
    want = cwlkit.reusability(QRELS, RUNS, GROUPS, depth=10, measure="P@10").to_records()
    g = tmp_path / "groups"
    g.write_text("".join(f"{k} {v}\n" for k, v in GROUPS.items()))
    rc, out, err = cli("reusability", QRELS, *RUNS, "--group-by", g, "-d", "10", "-m", "P@10")
    assert rc == 0, err
    lines = out.splitlines()
    assert lines[0] == "# depth 10, 2 groups, baseline pool"
    body = [ln.split("\t") for ln in lines[2 : 2 + len(want)]]
    assert [(b[0], b[2]) for b in body] == [(w["run"], w["measure"]) for w in want]
    for b, w in zip(body, want, strict=True):
        assert float(b[5]) == pytest.approx(w["delta"], abs=5e-5)
        assert int(b[8]) == w["rank_change"]
    # the regex grouping is the same grouping
    rc, out2, _ = cli(
        "reusability", QRELS, *RUNS, "-g", r"regex:\.(ql|rm)\.", "-d", "10", "-m", "P@10"
    )
    assert rc == 0 and out2 == out
    dest = tmp_path / "r.json"
    rc, _, err = cli(
        "reusability", QRELS, *RUNS, "-g", g, "-d", "10", "-m", "P@10", "-f", "json", "-o", dest
    )
    assert rc == 0, err
    got = json.loads(dest.read_text())
    assert got["groups"] == {
        "ql": [n for n in GROUPS if GROUPS[n] == "ql"],
        "rm": [n for n in GROUPS if GROUPS[n] == "rm"],
    }
    assert [r["delta"] for r in got["records"]] == [w["delta"] for w in want]
    assert got["records"][1]["residual"] is None  # bpref has none
    rc, out, _ = cli("reusability", QRELS, *RUNS, "-g", g, "-d", "10", "-f", "tsv")
    assert rc == 0 and out.splitlines()[0].startswith("run\tgroup\tmeasure\tscore")


def test_errors_are_one_line(cli, tmp_path):
    rc, _, err = cli("reusability", QRELS, *RUNS)
    assert rc == 2 and "every run is in group 'indri'" in err and err.count("\n") == 1
    g = tmp_path / "groups"
    g.write_text("only-one\n")
    rc, _, err = cli("reusability", QRELS, *RUNS, "-g", g)
    assert rc == 2 and f"{g}:1:" in err and err.count("\n") == 1
    rc, _, err = cli("reusability", QRELS, *RUNS, "-g", "regex:(", "-d", "5")
    assert rc == 2 and "not a regular expression" in err and err.count("\n") == 1
