"""``cwlkit rbp_eval`` against rbp-eval (the Python port of Webber and Moffat's rbp_eval).

Every output line (the header comment aside) must be rbp-eval's, byte for byte, on generated
runs with score ties and rank ties (some straddling the depths), several persistences and
depths, mixed-case ids, a topic without judgements, a qrels topic the run lacks, integral and
fractional qrels, and every ordering (-o -r -s), relevance option (-b -B -f -F -a) and output
option (-q -T -H -W); and on the TREC Web 2012 runs. Also: rbp_eval's one rounding quirk
(a depth's last digit depends on the depths asked for before it), the warnings, the API
behind the command, and the errors.
"""

from __future__ import annotations

import contextlib
import io
import warnings
from pathlib import Path

import numpy as np
import pytest
from conftest import DATA, plain_copy

rbp_cli = pytest.importorskip("rbp_eval.cli.rbp_eval", reason="rbp-eval (a test extra) is missing")

import cwlkit  # noqa: E402
from cwlkit.measures.parse import parse_measure  # noqa: E402


def theirs(*args: str) -> tuple[int, str, list[str]]:
    """rbp-eval's ``rbp_eval ARGS``: exit status, stdout, warning messages."""
    out = io.StringIO()
    with (
        warnings.catch_warnings(record=True) as caught,
        contextlib.redirect_stdout(out),
        contextlib.redirect_stderr(io.StringIO()),
    ):
        warnings.simplefilter("always")
        try:
            rc = rbp_cli.main([str(a) for a in args])
        except SystemExit as exc:
            rc = int(exc.code or 0)
    return rc, out.getvalue(), [str(w.message) for w in caught]


def body(text: str) -> str:
    """The output without its header comment."""
    return "".join(line for line in text.splitlines(True) if not line.startswith("#"))


def make_inputs(d: Path, seed: int, *, fractional: bool = False) -> tuple[Path, Path]:
    """A qrels and a run file with many ties, mixed-case ids, topics on one side only."""
    rng = np.random.default_rng(seed)
    qrels, run = [], []
    topics = [f"T{i}" if i % 3 else f"{100 + i}" for i in range(9)]
    for i, t in enumerate(topics):
        n = int(rng.integers(1, 40))
        docs = [f"Doc-{t}-{j}" for j in range(n + 15)]
        if i != 4:  # topic 4 has no judgements
            for doc in docs:
                if rng.random() < 0.7:
                    grades = [0.0, 0.25, 0.5, 1.0, 1.5] if fractional else [0, 0, 1, 2, 3]
                    label = rng.choice(grades)
                    text = str(label) if fractional else f"{label:d}"
                    qt = t if rng.random() < 0.5 else t.lower()  # ids compared in lower case
                    qd = doc.lower() if rng.random() < 0.3 else doc
                    qrels.append(f"{qt} 0 {qd} {text}")
        scores = np.round(rng.random(n) * 4) / 2  # 9 values: long ties
        rank = np.empty(n, dtype=int)
        rank[np.argsort(-scores, kind="stable")] = np.arange(1, n + 1)
        rank = np.where(rng.random(n) < 0.3, np.maximum(rank - 1, 1), rank)  # equal ranks
        run += [f"{t} Q0 {docs[j]} {rank[j]} {scores[j]} sys" for j in range(n)]
    qrels.append("999 0 x 1")  # a qrels topic the run lacks
    if seed % 2:
        run = [run[k] for k in rng.permutation(len(run))]  # topics split across the file
    (d / "qrels").write_text("\n".join(qrels) + "\n")
    (d / "run").write_text("\n".join(run) + "\n")
    return d / "qrels", d / "run"


ARGS = [
    ("-q", "-d", "1,3,5,10,0", "-p", "0.5,0.8,0.95"),
    ("-q", "-r", "-d", "2,7,0", "-p", "0,0.5,1"),
    ("-q", "-r", "-d", "1,2,3,4,5,6", "-p", "0.5"),
    ("-q", "-o", "-d", "1,2,3"),
    ("-q", "-s", "-B", "-d", "4,9"),
    ("-q", "-F", "-d", "4,9"),
    ("-q", "-b", "2", "-d", "3"),
    ("-q", "-b", "0", "-p", "0.9"),
    ("-q", "-f", "0.5", "-T", "-d", "6,0"),
    ("-q", "-a", "-p", "0.5,0.5,", "-d", "100,200"),
    ("-d", "2,4,8,16,32,64", "-p", "0.3,0.5,0.6,0.9"),
    ("-T",),
    ("-W", "-q"),
    (),
]


@pytest.mark.parametrize("seed", range(1, 9))
@pytest.mark.parametrize("args", ARGS, ids=[" ".join(a) or "defaults" for a in ARGS])
def test_lines_equal_rbp_eval_on_generated_runs(cli, tmp_path, seed, args):
    q, r = make_inputs(tmp_path, seed, fractional=seed % 3 == 0)
    rc, want, _ = theirs("-H", *args, q, r)
    assert rc == 0
    rc, got, err = cli("rbp_eval", "-H", *args, q, r)
    assert rc == 0, err
    assert got == want
    if "-T" in args and "-q" not in args:
        assert got == ""


@pytest.mark.parametrize("args", [(), ("-q", "-d", "5,10,0", "-p", "0.5,0.8")])
def test_header_comment_and_h(cli, tmp_path, args):
    """Without -H both tools start with '#' comment lines (each its own); the rest is equal."""
    q, r = make_inputs(tmp_path, 5)
    _, want, _ = theirs(*args, q, r)
    rc, got, _ = cli("rbp_eval", *args, q, r)
    assert rc == 0
    assert got.startswith("# rbp_eval output") and want.startswith("# rbp_eval output")
    assert f"# command: cwlkit rbp_eval {' '.join(map(str, (*args, q, r)))}\n" in got
    assert body(got) == body(want) and body(got)
    rc, quiet, _ = cli("rbp_eval", "-H", *args, q, r)
    assert quiet == body(got) and "#" not in quiet


def test_warnings_are_rbp_evals_and_w_silences_them(cli, tmp_path):
    q, r = make_inputs(tmp_path, 3, fractional=True)  # labels up to 1.5, topic t4 unjudged
    lines = r.read_text().splitlines()
    lines[2] = lines[2].rsplit(" ", 2)[0] + " nan sys"  # a NaN score: read as 0.0
    lines[4] = lines[4].rsplit(" ", 1)[0] + " other"  # the run tag changes
    f = lines[6].split()
    lines[6] = " ".join([*f[:3], f"1,{f[3]}", *f[4:]])  # a rank with a comma
    r.write_text("\n".join(lines) + "\n")
    for order in ("-s", "-r"):
        rc, want, said = theirs("-H", "-q", order, q, r)
        rc, got, err = cli("rbp_eval", "-H", "-q", order, q, r)
        assert rc == 0 and got == want
        ours = [line.removeprefix("cwlkit rbp_eval: warning: ") for line in err.splitlines()]
        assert ours == said
        assert any("NaN, converting to 0.0" in w for w in ours)
        assert any("no judgments for query id t4" in w for w in ours)
        assert any("maximum effective relevance of 1.50" in w for w in ours)
        rc, got_w, err_w = cli("rbp_eval", "-H", "-q", "-W", order, q, r)
        assert (rc, got_w, err_w) == (0, got, "")


@pytest.mark.parametrize("name", ["ql.cata", "rm.catb", "ql.catb-filtered"])
def test_web2012_runs(cli, tmp_path, name):
    """The TREC Web 2012 runs; rbp_eval refuses negative labels, so both read a copy of the
    qrels with -2/-1 written as 0 (cwlkit reads the original the same way: gain 0)."""
    src = DATA / "web2012" / "qrels.web.151-200.txt"
    clipped = tmp_path / "qrels"
    clipped.write_text(
        "".join(
            " ".join([*line.split()[:3], "0"]) + "\n" if line.split()[3].startswith("-") else line
            for line in src.read_text().splitlines(True)
        )
    )
    run = DATA / "web2012" / "runs" / f"web2012.{name}.run.gz"
    plain = plain_copy(run, tmp_path)  # (rbp_eval reads plain files)
    for args in (("-q", "-d", "5,10,20,0", "-p", "0.5,0.8,0.95"), ("-q", "-b", "2", "-r")):
        _, want, _ = theirs("-H", *args, clipped, plain)
        rc, got, _ = cli("rbp_eval", "-H", *args, clipped, run)
        assert rc == 0 and got == want and got.count("\n") > 100
        rc, original, _ = cli("rbp_eval", "-H", *args, src, run)
        assert original == got


# ----------------------------------------------------------------------- the rounding quirk


def test_a_depths_last_digit_depends_on_the_depths_before_it(cli, tmp_path):
    """Five tied documents, the fifth relevant, p = 0.5: each has the average weight
    (0.5 + 0.25 + 0.125 + 0.0625 + 0.03125) / 5 = 0.19375, and 3/5 of the tie fits in depth 3:
    RBP@3 = 0.19375 x 0.6 = 0.11625. rbp_eval computes 0.11624999999999999 (prints 0.1162)
    with -d 3 and 0.19375 x 0.2 + 0.19375 x 0.4 = 0.11625000000000002 (prints 0.1163) with
    -d 1,3; cwlkit prints what rbp_eval prints in both cases (RBP_eval's ``after``)."""
    q = tmp_path / "q"
    r = tmp_path / "r"
    q.write_text("".join(f"t 0 d{i} {int(i == 4)}\n" for i in range(5)))
    r.write_text("".join(f"t Q0 d{i} {i + 1} 3 x\n" for i in range(5)))
    for depths, want in (("3", "0.1162"), ("1,3", "0.1163")):
        _, theirs_out, _ = theirs("-H", "-q", "-T", "-p", "0.5", "-d", depths, q, r)
        rc, ours, _ = cli("rbp_eval", "-H", "-q", "-T", "-p", "0.5", "-d", depths, q, r)
        assert ours == theirs_out
        assert ours.splitlines()[-1] == f"p= 0.50 q=    t d=    3 rbp= {want} +0.1250"
    alone = cwlkit.evaluate(q, r, ["RBP_eval(p=0.5)@3"], trec_version=10)
    after = cwlkit.evaluate(q, r, ["RBP_eval(p=0.5,after='1')@3"], trec_version=10)
    assert alone.values[0, 0] == 0.11624999999999999
    assert after.values[0, 0] == 0.11625000000000002


# ------------------------------------------------------------------------ the API behind it


def test_the_measure_through_the_api(tmp_path):
    q, r = make_inputs(tmp_path, 2)
    ev = cwlkit.Evaluator(
        q,
        ["RBP_eval(p=0.8,ties='none')", "RBP(p=0.8,rel=1)", "RBP_eval(p=0.5)@10"],
        order="file",
        residuals=True,
        trec_version=10,
    )
    res = ev.evaluate(r)
    # without ties and depth, rbp_eval's RBP is the C/W/L RBP on binary gains, residual too
    np.testing.assert_allclose(res.values[0], res.values[1], rtol=1e-12)
    np.testing.assert_allclose(res.columns["ResEU"][0], res.columns["ResEU"][1], rtol=1e-12)
    assert res.measures[2] == "RBP_eval(p=0.5)@10"
    assert np.all(res.columns["ResEU"][2] >= 0.5**10 - 1e-15)


def test_names_and_parameters():
    assert parse_measure("RBP_eval").name == "RBP_eval(p=0.8)"
    assert parse_measure("RBP_eval(0.5)@10").name == "RBP_eval(p=0.5)@10"
    assert parse_measure("RBP_eval(p=0.5,rel=1)").name == "RBP_eval(p=0.5)"
    assert parse_measure("RBP_eval(p=0.5,rel=2)").name == "RBP_eval(p=0.5,rel=2)"
    m = parse_measure("RBP_eval(p=0.95,scale=0.5,ties='none',after='5,10')")
    assert m.name == "RBP_eval(p=0.95,scale=0.5,ties='none',after='5,10')"
    assert parse_measure(m.name) == m
    for bad in (
        "RBP_eval(p=1.5)",
        "RBP_eval(rel=2,scale=1)",
        "RBP_eval(after='10')@5",
        "RBP_eval(after='5,3')@10",
        "RBP_eval(after='x')",
        "RBP_eval(ties='random')",
    ):
        with pytest.raises(cwlkit.errors.ParamError):
            parse_measure(bad)


@pytest.mark.parametrize(
    "args,fragment",
    [
        (("-d", "10,5"), "strictly ascending"),
        (("-d", "0,10"), "strictly ascending"),
        (("-d", "x"), "depth specification"),
        (("-d", ""), "empty depth"),
        (("-p", "1.5"), "not in range [0.0, 1.0]"),
        (("-p", "a"), "persistence specification"),
        (("-o", "-r"), "not allowed with"),
        (("-B", "-F"), "not allowed with"),
        (("-b", "-1"), "-b THRESHOLD"),
        (("-f", "0"), "-f SCALE"),
    ],
)
def test_errors_are_one_line(cli, tmp_path, args, fragment):
    q, r = make_inputs(tmp_path, 1)
    rc, out, err = cli("rbp_eval", *args, q, r)
    assert rc == 2 and out == "" and fragment in err and err.count("\n") == 1
    assert theirs(*args, q, r)[0] != 0  # rbp_eval refuses them too


def test_no_topic_in_common_prints_nan_averages(cli, tmp_path):
    q, r = make_inputs(tmp_path, 1)
    q.write_text("elsewhere 0 d 1\n")
    _, want, _ = theirs("-H", "-q", q, r)
    rc, got, _ = cli("rbp_eval", "-H", "-q", q, r)
    assert rc == 0 and got == want
    assert got.splitlines()[0] == "p= 0.50 q=  all d= full rbp= nan +nan"


def test_a_document_retrieved_twice_counts_twice(cli, tmp_path):
    """rbp_eval keeps every run line, so a document retrieved twice for a topic (also under
    another spelling of its id) is credited twice; cwlkit rbp_eval does the same."""
    q, r = make_inputs(tmp_path, 2)
    lines = r.read_text().splitlines()
    r.write_text("\n".join([*lines, lines[1], lines[1].replace("Doc", "DOC")]) + "\n")
    for args in (("-q",), ("-q", "-o"), ("-q", "-r", "-d", "1,2,5")):
        _, want, _ = theirs("-H", *args, q, r)
        rc, got, _ = cli("rbp_eval", "-H", *args, q, r)
        assert rc == 0 and got == want
