"""The option contract of the judging functions (pool, compare_runs, simulate_judging,
reusability) and their subcommands: each refused value, with its exact one-line wording
(``NAME must be EXPECTED; got VALUE``, support/checks.py); the command line maps its flags to
the same checks (one line on standard error, exit status 2)."""

from __future__ import annotations

import math
import re

import pytest
from conftest import DATA

import cwlkit
from cwlkit.errors import CwlkitError, InputError, ParamError

RUN = {"q1": {"d1": 3.0, "d2": 2.0, "d3": 1.0}, "q2": {"d4": 1.0, "d5": 0.5}}
RUNB = {"q1": {"d2": 3.0, "d1": 2.0, "d6": 1.0}, "q2": {"d5": 1.0, "d7": 0.5}}
RUNS = {"a1": RUN, "b1": RUNB}
QR = {"q1": {"d1": 1, "d2": 0, "d6": 2}, "q2": {"d5": 1}}
DEPTH = "an integer >= 0, a mapping {topic: integer >= 0} or None"
STRATEGIES = "'depth', 'rbp', 'rrf', 'residual', 'maxmean', 'mtf'"


def _refused(call, message):
    with pytest.raises(ParamError) as info:
        call()
    assert str(info.value) == message


POOL = [
    ({"depth": -1}, f"depth must be {DEPTH}; got -1"),
    ({"depth": 1.5}, f"depth must be {DEPTH}; got 1.5"),
    ({"depth": 2.0}, f"depth must be {DEPTH}; got 2.0"),
    ({"depth": True}, f"depth must be {DEPTH}; got True"),
    ({"depth": "10"}, f"depth must be {DEPTH}; got '10'"),
    ({"depth": {"q1": -1}}, "depth['q1'] must be an integer >= 0; got -1"),
    ({"depth": {"q1": 1.5}}, "depth['q1'] must be an integer >= 0; got 1.5"),
    ({"depth": {"q1": None}}, "depth['q1'] must be an integer >= 0; got None"),
    ({"depth": {None: 1}}, "depth's topics must be topic ids (strings or integers); got None"),
    ({"strategy": "residual", "budget": -3}, "budget must be an integer >= 0 or None; got -3"),
    ({"strategy": "residual", "budget": 2.5}, "budget must be an integer >= 0 or None; got 2.5"),
    ({"strategy": "rbp", "p": 1}, "p must be a number in (0, 1); got 1"),
    ({"strategy": "rbp", "p": 0.0}, "p must be a number in (0, 1); got 0.0"),
    ({"strategy": "rbp", "p": math.nan}, "p must be a number in (0, 1); got nan"),
    ({"strategy": "depth", "p": "0.8"}, "p must be a number in (0, 1); got '0.8'"),
    (
        {"strategy": "rbp", "aggregate": "mean"},
        "aggregate must be one of 'sum', 'max'; got 'mean'",
    ),
    ({"strategy": "rrf", "k": -1}, "k must be a number > -1; got -1"),
    ({"strategy": "rrf", "k": math.inf}, "k must be a number > -1; got inf"),
    ({"strategy": "rpb"}, f"strategy must be one of {STRATEGIES}; got 'rpb' (did you mean 'rbp'?)"),
    ({"strategy": None}, f"strategy must be one of {STRATEGIES}; got None"),
    (
        {"order": "scores"},
        "order must be one of 'score', 'rank', 'file'; got 'scores' (did you mean 'score'?)",
    ),
    ({"strategy": "residual", "measure": 5}, "measure must be a measure name or a Measure; got 5"),
    (
        {"strategy": "mtf", "qrels": QR, "pool_depth": 0},
        "pool_depth must be an integer >= 1 or None; got 0",
    ),
    (
        {"strategy": "mtf", "qrels": QR, "pool_depth": 1.5},
        "pool_depth must be an integer >= 1 or None; got 1.5",
    ),
    ({"strategy": "mtf", "qrels": QR, "rel": math.nan}, "rel must be a finite number; got nan"),
    (
        {"strategy": "mtf", "judge": 5},
        "judge must be a function judge(topic, doc) -> label or None; got 5",
    ),
    ({"strategy": "rbp", "pool_depth": 5}, "pool_depth= is for maxmean and mtf pooling, not rbp"),
    ({"strategy": "mtf", "qrels": QR, "gain": "1:1"}, "gain= is for residual pooling, not mtf"),
    (
        {"strategy": "depth", "qrels": QR},
        "qrels= is for residual, maxmean and mtf pooling, not depth",
    ),
]


@pytest.mark.parametrize(("kw", "message"), POOL, ids=[m for _, m in POOL])
def test_pool_refuses(kw, message):
    _refused(lambda: cwlkit.pool(RUNS, **kw), message)


def test_pool_judge_of_one_argument():
    def judge(topic):
        return 1

    with pytest.raises(ParamError, match=r"^judge must be a function of two arguments, "):
        cwlkit.pool(RUNS, "mtf", judge=judge)


@pytest.mark.parametrize(
    ("label", "shown"), [(None, "None"), ("1", "'1'"), (math.nan, "nan"), ([1], "[1]")]
)
def test_pool_judge_returning_no_number(label, shown):
    """The judge's first call is at topic q1 for the first run's top document, d1."""
    _refused(
        lambda: cwlkit.pool(RUNS, "mtf", judge=lambda t, d: label),
        f"judge('q1', 'd1') must be a finite number (a label); got {shown}",
    )


def test_pool_judge_returning_bools_and_numpy_numbers_is_the_qrels_oracle():
    """A judge answering True/False (1/0) or numpy numbers judges as the qrels do."""
    import numpy as np

    rel = {(t, d) for t, ds in QR.items() for d, v in ds.items() if v >= 1}
    want = cwlkit.pool(RUNS, "mtf", qrels=QR).to_dict()
    assert cwlkit.pool(RUNS, "mtf", judge=lambda t, d: (t, d) in rel).to_dict() == want
    got = cwlkit.pool(RUNS, "mtf", judge=lambda t, d: np.float32((t, d) in rel)).to_dict()
    assert got == want


def test_pool_head_and_runs():
    pl = cwlkit.pool(RUNS, depth=2)
    _refused(
        lambda: pl.head(-1), "n must be an integer >= 0 or a mapping {topic: integer >= 0}; got -1"
    )
    _refused(
        lambda: cwlkit.pool([]),
        "runs must be a run, a list of runs or a mapping of names to runs; got []",
    )
    with pytest.raises(InputError):
        cwlkit.pool([None])


def test_pool_sizes_by_hand():
    """Depth 0 pools nothing; per-topic depths cut each topic; a huge depth keeps every
    document (q1: d1 d2 d3 d6, q2: d4 d5 d7)."""
    assert len(cwlkit.pool(RUNS, depth=0)) == 0
    assert cwlkit.pool(RUNS, depth={"q1": 1, "q2": 0}).to_dict() == {"q1": ["d1", "d2"]}
    assert cwlkit.pool(RUNS, depth=10**30).sizes() == {"q1": 4, "q2": 3}
    assert cwlkit.pool(RUNS, depth={"q1": 10**30}).sizes() == {"q1": 4}


COMPARE = [
    ({"p": 1.0}, "p must be a number in (0, 1); got 1.0"),
    ({"p": None}, "p must be a number in (0, 1); got None"),
    ({"depth": 0}, "depth must be an integer >= 1 or None; got 0"),
    ({"depth": -1}, "depth must be an integer >= 1 or None; got -1"),
    ({"depth": 2.5}, "depth must be an integer >= 1 or None; got 2.5"),
    (
        {"order": "rnak"},
        "order must be one of 'score', 'rank', 'file'; got 'rnak' (did you mean 'rank'?)",
    ),
]


@pytest.mark.parametrize(("kw", "message"), COMPARE, ids=[m for _, m in COMPARE])
def test_compare_runs_refuses(kw, message):
    _refused(lambda: cwlkit.compare_runs(RUN, RUNB, **kw), message)


PARAMS = "'aggregate', 'gain', 'k', 'order', 'p', 'pool_depth', 'rel'"
SIMULATE = [
    ({"alpha": 2}, "alpha must be a number in (0, 1); got 2"),
    ({"alpha": 0}, "alpha must be a number in (0, 1); got 0"),
    ({"budgets": [1, -2]}, "budgets[1] must be an integer >= 0; got -2"),
    ({"budgets": [1.5]}, "budgets[0] must be an integer >= 0; got 1.5"),
    ({"budgets": []}, "budgets must be a non-empty list of integers >= 0; got []"),
    ({"budgets": "1,2"}, "budgets must be a non-empty list of integers >= 0; got '1,2'"),
    ({"budgets": 5}, "budgets must be a non-empty list of integers >= 0; got 5"),
    (
        {"strategy": "dpeth"},
        f"strategy must be one of {STRATEGIES}; got 'dpeth' (did you mean 'depth'?)",
    ),
    ({"foo": 1}, f"a pool parameter must be one of {PARAMS}; got 'foo'"),
    ({"depth": 3}, "the budgets set the pools' sizes: give budgets=, not depth="),
    ({"budget": 3}, "the budgets set the pools' sizes: give budgets=, not budget="),
    ({"pool_measure": 3}, "pool_measure must be a measure name or a Measure or None; got 3"),
    ({"strategy": "rbp", "p": 2}, "p must be a number in (0, 1); got 2"),
]


@pytest.mark.parametrize(("kw", "message"), SIMULATE, ids=[m for _, m in SIMULATE])
def test_simulate_judging_refuses(kw, message):
    base = {"strategy": "depth", "measure": "P@2", "budgets": [1, 2]}
    _refused(lambda: cwlkit.simulate_judging(QR, RUNS, **{**base, **kw}), message)


REUSE = [
    ({"depth": 0}, "depth must be an integer >= 1; got 0"),
    ({"depth": 1.5}, "depth must be an integer >= 1; got 1.5"),
    ({"depth": None}, "depth must be an integer >= 1; got None"),
    (
        {"baseline": "pol"},
        "baseline must be one of 'pool', 'qrels'; got 'pol' (did you mean 'pool'?)",
    ),
    ({"order": 1}, "order must be one of 'score', 'rank', 'file'; got 1"),
    ({"measure": None}, "measure must be a measure name or a Measure; got None"),
    (
        {"group_by": "tag-prefix:0"},
        "the N of group_by 'tag-prefix:N' must be an integer >= 1; got 'tag-prefix:0'",
    ),
]


@pytest.mark.parametrize(("kw", "message"), REUSE, ids=[m for _, m in REUSE])
def test_reusability_refuses(kw, message):
    base = {"group_by": {"a1": "a", "b1": "b"}, "depth": 2}
    _refused(lambda: cwlkit.reusability(QR, RUNS, **{**base, **kw}), message)


def test_reusability_groups_file_missing(tmp_path):
    with pytest.raises(InputError, match=r"missing: cannot read the groups file: "):
        cwlkit.reusability(QR, RUNS, str(tmp_path / "missing"), depth=2)


W = DATA / "web2012"
QL, RM = str(W / "runs" / "web2012.ql.cata.run.gz"), str(W / "runs" / "web2012.rm.cata.run.gz")
QRELS = str(W / "qrels.web.151-200.txt")
CLI = [
    (("compare-runs", QL, RM, "--depth", "-1"), "--depth must be an integer >= 1; got -1"),
    (("compare-runs", QL, RM, "-p", "1"), "-p must be a number in (0, 1); got 1.0"),
    (("compare-runs", QL, RM, "-p", "nan"), "-p must be a number in (0, 1); got nan"),
    (
        ("compare-runs", QL, RM, "--depth", "1.5"),
        "cwlkit compare-runs: argument --depth/-d: invalid int value: '1.5' "
        "(see 'cwlkit compare-runs --help')",
    ),
    (
        ("pool", QL, RM, "-s", "residual", "--budget", "-3"),
        "--budget must be an integer >= 0; got -3",
    ),
    (("pool", QL, RM, "--depth", "-1"), "--depth must be an integer >= 0; got -1"),
    (("pool", QL, RM, "-s", "rbp", "-p", "1.5"), "-p must be a number in (0, 1); got 1.5"),
    (("pool", QL, RM, "-s", "rrf", "-k", "-2"), "-k must be a number > -1; got -2.0"),
    (
        ("pool", QL, RM, "-s", "mtf", "--qrels", QRELS, "--pool-depth", "0"),
        "--pool-depth must be an integer >= 1; got 0",
    ),
    (
        ("pool", "simulate", QRELS, QL, RM, "-s", "depth", "-b", "1,-2"),
        "--budgets[1] must be an integer >= 0; got -2",
    ),
    (
        ("pool", "simulate", QRELS, QL, RM, "-s", "rbpp", "-b", "1"),
        f"--strategy must be one of {STRATEGIES}; got 'rbpp' (did you mean 'rbp'?)",
    ),
    (("reusability", QRELS, QL, RM, "-d", "0"), "--depth must be an integer >= 1; got 0"),
]


@pytest.mark.parametrize(("argv", "message"), CLI, ids=[m for _, m in CLI])
def test_cli_refuses_in_one_line(cli, argv, message):
    """The API's refusal in the command line's words: the flag typed, and neither "or None"
    nor a mapping (values of the API only)."""
    rc, out, err = cli(*argv)
    assert (rc, out, err) == (2, "", f"cwlkit: error: {message}\n")


def test_every_refusal_is_a_cwlkit_error():
    assert issubclass(ParamError, CwlkitError) and issubclass(InputError, CwlkitError)
    assert re.fullmatch(r"\w+ must be .+; got .+", POOL[0][1])


@pytest.mark.parametrize(("sims", "shown"), [(None, "None"), ([None], "[None]"), ("x", "'x'")])
def test_plot_simulations_refuses(sims, shown, tmp_path):
    from cwlkit.judging import plot_simulations

    _refused(
        lambda: plot_simulations(sims, str(tmp_path / "f.png")),
        f"sims must be a list of Simulations (simulate_judging's); got {shown}",
    )
