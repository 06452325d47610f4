"""The bundled example files (``cwlkit.example(NAME)``, ``example:NAME`` on the command line).

References: the repository's own copies in data/ (the files the package's are cut from, read
with plain gzip), trec_eval's output on them as ``cwlkit trec_eval`` prints it for the
repository's files, and LETOR's Perl script's output (data/letor/expected).
"""

from __future__ import annotations

import gzip
from pathlib import Path

import pytest
from conftest import DATA, read_data

import cwlkit
from cwlkit.errors import CwlkitError, ParamError
from cwlkit.io.examples import EXAMPLES, resolve_examples

WEB = DATA / "web2012"
LETOR = DATA / "letor"


def test_every_name_is_a_file_in_the_package():
    for name, file in EXAMPLES.items():
        path = Path(cwlkit.example(name))
        assert path.is_file() and path.name == file, name
        assert path.parent == Path(cwlkit.__file__).parent / "data"


def test_the_web2012_and_letor_files_are_the_repositorys():
    """The package's files hold the same lines as data/'s (the qrels whole, the runs whole)."""
    assert read_data(cwlkit.example("web2012.qrels")) == read_data(WEB / "qrels.web.151-200.txt")
    for run in ("ql.cata", "rm.cata", "ql.catb"):
        ours = cwlkit.example(f"web2012.{run}")
        assert read_data(ours) == read_data(WEB / "runs" / f"web2012.{run}.run.gz"), run
        topics = [line.split()[0] for line in read_data(ours).splitlines()]
        assert len(set(topics)) == 50 and max(map(topics.count, set(topics))) == 1000
    feats = read_data(cwlkit.example("letor.features"))
    assert feats == read_data(LETOR / "MQ2008.Fold1.test.lf.txt.gz")
    pred = read_data(cwlkit.example("letor.predictions"))
    assert pred == (LETOR / "MQ2008.Fold1.test.pred.linear.txt").read_text()
    # the ranks: each query's documents 1..n in file order (counted here with plain Python)
    seen: dict[str, int] = {}
    want = []
    for line in feats.splitlines():
        q = line.split()[1]
        seen[q] = seen.get(q, 0) + 1
        want.append(str(seen[q]))
    assert read_data(cwlkit.example("letor.ranks")).splitlines() == want


def test_the_package_data_stays_small():
    """The wheel stays under 3 MB: its data files under 2.3 MB (the code is about 0.5 MB)."""
    folder = Path(cwlkit.__file__).parent / "data"
    assert sum(p.stat().st_size for p in folder.iterdir() if p.is_file()) < 2_300_000
    for name in EXAMPLES:
        path = cwlkit.example(name)
        if path.endswith(".gz"):
            with gzip.open(path) as f:  # valid gzip
                f.read(1)


def test_the_cwl_eval_examples_keep_their_names():
    assert Path(cwlkit.example("qrels")).name == "example.qrels"
    assert Path(cwlkit.example("metrics")).read_text().startswith("# the metrics of")


@pytest.mark.parametrize("bad", ["nope", "web2012", "web2012.qrels.gz", "", None, 3])
def test_an_unknown_name_lists_the_examples(bad):
    with pytest.raises(ParamError) as exc:
        cwlkit.example(bad)
    msg = str(exc.value)
    assert "\n" not in msg and "web2012.qrels" in msg and "letor.ranks" in msg


def test_resolve_replaces_example_arguments_only():
    q = cwlkit.example("web2012.qrels")
    got = resolve_examples(["-m", "P.10", "example:web2012.qrels", "--costs=example:costs", "x"])
    assert got == ["-m", "P.10", q, f"--costs={cwlkit.example('costs')}", "x"]
    assert resolve_examples(["examples:x", "my-example:qrels", "-o", "a=b"]) == [
        "examples:x",
        "my-example:qrels",
        "-o",
        "a=b",
    ]
    with pytest.raises(CwlkitError, match=r"^example:nope: no such example file \(the examples"):
        resolve_examples(["example:nope"])


def test_trec_eval_on_example_names_prints_what_it_prints_on_the_files(cli):
    want = cli(
        "trec_eval", "-q", WEB / "qrels.web.151-200.txt", WEB / "runs/web2012.rm.cata.run.gz"
    )
    got = cli("trec_eval", "-q", "example:web2012.qrels", "example:web2012.rm.cata")
    assert got == want and got[0] == 0 and got[1].count("\n") > 1000


def test_every_subcommand_takes_example_names(cli, tmp_path):
    """The names are resolved before any subcommand parses its arguments."""
    q, r = "example:web2012.qrels", "example:web2012.ql.cata"
    for args in (
        ("evaluate", q, r, "-m", "P@10"),
        ("gdeval", q, r),
        ("cwl", "example:qrels", "example:run", "-m", "example:metrics"),
        ("rbp_eval", "-q", q, r),
        ("compare", q, r, "example:web2012.rm.cata", "-m", "AP"),
    ):
        rc, out, err = cli(*args)
        assert rc == 0 and out and err == "", (args, err)


def test_measures_before_example_names_stop_at_them(cli):
    """``-m P@10 AP example:...``: the names are paths by the time ``-m`` takes its values."""
    before = cli("evaluate", "-m", "P@10", "AP", "example:web2012.qrels", "example:web2012.ql.cata")
    after = cli("evaluate", "example:web2012.qrels", "example:web2012.ql.cata", "-m", "P@10", "AP")
    assert before == after and before[0] == 0 and "0.0860  0.0512" in before[1]


def test_letor_score_on_the_examples_is_the_perl_scripts_output(cli, tmp_path):
    out = tmp_path / "out.txt"
    rc, _, err = cli(
        "letor", "score", "example:letor.features", "example:letor.predictions", out, "1"
    )
    assert (rc, err) == (0, "")
    want = LETOR / "expected" / "MQ2008.Fold1.test.linear.EvalScore4.flag1.txt"
    assert out.read_bytes() == want.read_bytes()


def test_an_unknown_example_name_is_one_error_line(cli):
    rc, out, err = cli("trec_eval", "example:web2012.qrel", "example:web2012.ql.cata")
    assert rc == 2 and out == "" and err.count("\n") == 1
    assert err.startswith("cwlkit: error: example:web2012.qrel: no such example file")
