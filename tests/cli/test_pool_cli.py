"""``cwlkit pool``, ``cwlkit pool simulate`` and ``cwlkit compare-runs``: the API's numbers,
formatted; errors on one line."""

from __future__ import annotations

import json

import pytest
from conftest import DATA

import cwlkit

W = DATA / "web2012"
RUNS = sorted(str(p) for p in (W / "runs").glob("*.run.gz"))
QRELS = str(W / "qrels.web.151-200.txt")


def test_pool_writes_qrels_lines_in_judging_order(cli, tmp_path):
    out = tmp_path / "pool.qrels"
    rc, _, err = cli("pool", *RUNS, "--strategy", "rbp", "-p", "0.7", "--depth", "4", "-o", out)
    assert rc == 0, err
    lines = [ln.split() for ln in out.read_text().splitlines()]
    want = cwlkit.pool(RUNS, "rbp", p=0.7, depth=4)
    assert [(t, d) for t, _, d, _ in lines] == list(zip(want.topics, want.docs, strict=True))
    assert {x for _, x, _, y in lines for x in (x, y)} == {"0"}
    # the pool reads back as qrels
    assert len(cwlkit.read_qrels(out)) == 200


def test_pool_per_topic_budgets(cli, tmp_path):
    b = tmp_path / "budgets"
    b.write_text("151 2\n152 3\n")
    rc, out, err = cli("pool", *RUNS, "-s", "residual", "-m", "RBP(p=0.5)", "--budgets", b)
    assert rc == 0, err
    topics = [ln.split()[0] for ln in out.splitlines()]
    assert topics == ["151", "151", "152", "152", "152"]
    b.write_text("151 x\n")
    rc, _, err = cli("pool", *RUNS, "--budgets", b)
    assert rc == 2 and f"{b}:1:" in err and err.count("\n") == 1


def test_simulate_json_is_the_api(cli):
    rc, out, err = cli(
        "pool",
        "simulate",
        QRELS,
        *RUNS[:3],
        "-s",
        "rrf",
        "-b",
        "2,5000",
        "-M",
        "AP",
        "--format",
        "json",
    )
    assert rc == 0, err
    got = json.loads(out)[0]["records"]
    want = cwlkit.simulate_judging(QRELS, RUNS[:3], "rrf", "AP", [2, 5000]).to_records()
    assert [r["tau"] for r in got] == pytest.approx([r["tau"] for r in want])
    assert got[1]["tau"] == pytest.approx(1.0)


def test_simulate_plot_draws_the_api_records(cli, tmp_path, monkeypatch):
    import cwlkit.judging.simulate as simulate

    drawn = []
    real = simulate.plot_simulations
    monkeypatch.setattr(simulate, "plot_simulations", lambda s, p: (drawn.append(s), real(s, p)))
    import cwlkit.judging

    monkeypatch.setattr(cwlkit.judging, "plot_simulations", simulate.plot_simulations)
    out = tmp_path / "tau.png"
    args = ["pool", "simulate", QRELS, *RUNS[:3], "-s", "depth", "-s", "rbp", "-b", "1,5"]
    rc, _, err = cli(*args, "--plot", out)
    assert rc == 0, err
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    ((depth, rbp),) = drawn
    line = depth.plot().get_lines()[0]
    assert list(line.get_ydata()) == [r["tau"] for r in depth.to_records()]
    assert [r["judged"] for r in rbp.to_records()] == list(rbp.plot().get_lines()[0].get_xdata())
    # a figure suffix it cannot write is refused before simulating: one line, nothing printed
    rc, stdout, err = cli(*args, "--plot", tmp_path / "tau.pdf")
    assert (rc, stdout) == (2, "") and err.count("\n") == 1 and ".png or .svg" in err
    # and one it cannot write leaves stdout empty too
    rc, stdout, err = cli(*args, "--plot", tmp_path / "no" / "such" / "tau.png")
    assert (rc, stdout) == (2, "") and err.count("\n") == 1 and "cannot write" in err


def test_compare_runs(cli):
    rc, out, err = cli("compare-runs", RUNS[0], RUNS[1], "-p", "0.8", "--depth", "20")
    assert rc == 0, err
    rows = out.splitlines()
    first = rows[1].split("\t")
    a = cwlkit.compare_runs(RUNS[0], RUNS[1], p=0.8, depth=20)[0]
    assert first[0] == a["topic"] and float(first[6]) == pytest.approx(a["ext"], abs=5e-5)
    assert rows[-1].startswith("mean")
    rc, _, err = cli("compare-runs", RUNS[0], RUNS[1], "-p", "1")
    assert rc == 2 and "(0, 1)" in err


def test_bandit_pools_take_the_qrels_as_oracle(cli):
    rc, out, err = cli(
        "pool", *RUNS, "-s", "mtf", "--qrels", QRELS, "--pool-depth", "20", "--depth", "3"
    )
    assert rc == 0, err
    want = cwlkit.pool(RUNS, "mtf", qrels=QRELS, pool_depth=20, depth=3)
    assert [tuple(ln.split()[::2]) for ln in out.splitlines()] == [
        (t, d) for t, d in zip(want.topics, want.docs, strict=True)
    ]
    rc, _, err = cli("pool", *RUNS, "-s", "maxmean")
    assert rc == 2 and "one oracle" in err and err.count("\n") == 1


@pytest.mark.parametrize(
    ("flag", "value", "match"),
    [
        ("-p", "-1", "-p must be a number in (0, 1); got -1.0"),
        ("-k", "-1", "-k must be a number > -1; got -1.0"),
        ("--rel", "nan", "--rel must be a finite number; got nan"),
        ("--pool-depth", "-1", "--pool-depth must be an integer >= 1; got -1"),
    ],
)
def test_an_option_out_of_range_is_refused_whatever_the_strategy(cli, flag, value, match):
    """Depth pooling reads none of these, but a value out of range is refused, not ignored
    (found by the bad command lines run over every flag)."""
    from conftest import DATA

    run = DATA / "web2012" / "runs" / "web2012.ql.cata.run.gz"
    rc, out, err = cli("pool", run, "-d", "5", flag, value)
    assert (rc, out) == (2, "") and match in err and err.count("\n") == 1
