"""A run has one name in every format of the report (:func:`run_names`), and the word
"reference" appears only when a baseline is named.

Before, the HTML page trimmed the parts every name shares ("aplrob03a"), the text table
printed the file name ("input.aplrob03a.gz"), and the first run was called the "reference"
though no baseline was named.
"""

from __future__ import annotations

import re
import shutil

import pytest
from conftest import DATA, read_data

from cwlkit.comparison.build import resolve_baseline, run_names
from cwlkit.errors import ParamError

WEB = DATA / "web2012"
QRELS = str(WEB / "qrels.web.151-200.txt")
FORMATS = ("html", "text", "markdown", "latex", "csv", "tsv", "json")


def test_the_rule():
    assert run_names(["runs/input.aplrob03a.gz", "b/web2012.ql.cata.run", "c.txt.bz2"]) == [
        "input.aplrob03a",
        "web2012.ql.cata",
        "c",
    ]
    assert run_names(["a.RUN", ".gz", "x.tar"]) == ["a", ".gz", "x.tar"]  # something is left
    # collisions fall back to the file name, then the path as given, then #2
    assert run_names(["a/x.run", "b/x.txt", "c/x.run"]) == ["a/x.run", "x.txt", "c/x.run"]
    assert run_names(["a/x.run", "b/x.run"]) == ["a/x.run", "b/x.run"]
    assert run_names(["x.run", "x.run"]) == ["x.run", "x.run#2"]


def test_baseline_by_name_path_or_file_name():
    paths = ["r/a.run", "s/b.run.gz"]
    names = run_names(paths)
    assert resolve_baseline("b", names, paths) == "b"
    assert resolve_baseline("s/b.run.gz", names, paths) == "b"
    assert resolve_baseline("b.run.gz", names, paths) == "b"
    assert resolve_baseline(None, names, paths) is None
    with pytest.raises(ParamError, match="is not one of the runs"):
        resolve_baseline("c", names, paths)


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    """Three runs as paths, one of them gzipped under a TREC-style name."""
    d = tmp_path_factory.mktemp("runs")
    src = WEB / "runs"
    shutil.copy(src / "web2012.rm.cata.run.gz", d / "input.rmcata.gz")
    (d / "web2012.ql.cata.run").write_text(read_data(src / "web2012.ql.cata.run.gz"))
    (d / "sub").mkdir()
    (d / "sub" / "ql.catb.txt").write_text(read_data(src / "web2012.ql.catb.run.gz"))
    return [str(d / "input.rmcata.gz"), str(d / "web2012.ql.cata.run"), str(d / "sub/ql.catb.txt")]


NAMES = ["input.rmcata", "web2012.ql.cata", "ql.catb"]


def _rows(fmt: str, text: str) -> list[str]:
    """The run column of the report's table in ``fmt``."""
    import csv
    import io
    import json

    if fmt == "html":
        return re.findall(r'<tr[^>]*data-run="([^"]+)"', text)
    if fmt in ("csv", "tsv"):
        rows = csv.DictReader(io.StringIO(text), delimiter="," if fmt == "csv" else "\t")
        return list(dict.fromkeys(r["run"] for r in rows))
    if fmt == "json":
        return list(dict.fromkeys(r["run"] for r in json.loads(text)["rows"]))
    return []


@pytest.mark.parametrize("baseline", [None, "input.rmcata.gz"])
def test_one_name_in_every_format(cli, runs, baseline):
    extra = ["--baseline", baseline] if baseline else []
    outs = {}
    for fmt in FORMATS:
        rc, out, err = cli("report", QRELS, *runs, "-m", "AP", "-f", fmt, *extra)
        assert rc == 0, err
        outs[fmt] = out
        for name in NAMES:
            assert name in out, (fmt, name)
        for given in ("input.rmcata.gz", "web2012.ql.cata.run", "ql.catb.txt", "sub/"):
            assert given not in out, (fmt, given)
        if fmt in ("html", "csv", "tsv", "json"):
            assert _rows(fmt, out) == NAMES, fmt
    # the text formats: each row starts with its (letter and) name
    assert re.findall(r"^(?:\(\w\) )?(\S+)", outs["text"], re.M)[1:4] == NAMES
    md = [line.split("|")[1].strip() for line in outs["markdown"].splitlines()[2:5]]
    assert [re.sub(r"^\(\w\) | \(\w+\)$", "", c) for c in md] == NAMES
    tex = [line for line in outs["latex"].splitlines() if line.rstrip().endswith("\\\\")][1:]
    assert [re.sub(r" \(\w+\)$", "", row.split("&")[-2].strip()) for row in tex] == NAMES
    # "reference" (and a tagged baseline) only when a baseline is named
    for fmt in ("html", "text", "markdown", "latex"):
        said = "reference" in outs[fmt] or "(baseline)" in outs[fmt] or ">baseline<" in outs[fmt]
        assert said == (baseline is not None), fmt


def test_reference_only_with_a_named_baseline(cli, runs):
    """Pairwise letters against a named baseline tag it "reference"; without one no run is."""
    for fmt in ("html", "text", "markdown", "latex"):
        rc, out, _ = cli("report", QRELS, *runs, "-m", "AP", "-f", fmt)
        assert rc == 0 and "reference" not in out, fmt
        rc, out, _ = cli(
            "report", QRELS, *runs, "-m", "AP", "-f", fmt, "--baseline", runs[1], "--pairwise"
        )
        assert rc == 0 and "reference" in out, fmt
