"""The option contract of cwlkit.stats: every option checked by cwlkit.support.checks, with
its one wording ``NAME must be EXPECTED; got VALUE`` (the exact messages are tested)."""

from __future__ import annotations

import numpy as np
import pytest

from cwlkit import stats
from cwlkit.errors import ParamError
from cwlkit.results import Results

X = np.array([0.1, 0.4, 0.3, 0.9, 0.5, 0.2])
Y = np.array([0.2, 0.1, 0.3, 0.7, 0.6, 0.1])
RUNS = {
    "a": Results(np.vstack([X, Y]), ["AP", "P@10"], [f"t{i}" for i in range(6)], run="a"),
    "b": Results(np.vstack([Y, X]), ["AP", "P@10"], [f"t{i}" for i in range(6)], run="b"),
}
SEED = "seed must be an integer >= 0 or None; got "
SAMPLES = "samples must be an integer from 1 to 100000000; got "
TESTS = "test must be one of 't', 'wilcoxon', 'sign', 'randomization', 'bootstrap'"


def _refused(message: str, fn, *args, **kwargs) -> None:
    with pytest.raises(ParamError) as info:
        fn(*args, **kwargs)
    assert str(info.value) == message


@pytest.mark.parametrize(
    "seed,shown",
    [(-1, "-1"), ("x", "'x'"), (1.0, "1.0"), (True, "True"), (np.int64(-3), "np.int64(-3)")],
)
@pytest.mark.parametrize(
    "call",
    [
        lambda s: stats.bootstrap_test(X, Y, samples=10, seed=s),
        lambda s: stats.randomization_test(X, Y, samples=10, seed=s),
        lambda s: stats.paired_test(X, Y, "bootstrap", samples=10, seed=s),
        lambda s: stats.paired_test(X, Y, "t", seed=s),  # checked whichever test runs
        lambda s: stats.compare(RUNS, test="bootstrap", samples=10, seed=s),
        lambda s: stats.compare(RUNS, seed=s),
        lambda s: stats.report_table(RUNS, test="randomization", samples=10, seed=s),
    ],
    ids=[
        "bootstrap",
        "randomization",
        "paired_test",
        "paired_test t",
        "compare",
        "compare t",
        "report_table",
    ],
)
def test_seeds(call, seed, shown):
    _refused(SEED + shown, call, seed)


def test_valid_seeds_run():
    for seed in (0, 1, 2**40, np.int64(7), None):
        stats.bootstrap_test(X, Y, samples=10, seed=seed)
    a = stats.bootstrap_test(X, Y, samples=50, seed=0)
    b = stats.bootstrap_test(X, Y, samples=50, seed=np.uint8(0))
    assert a.to_records() == b.to_records()


@pytest.mark.parametrize(
    "samples,shown",
    [(0, "0"), (-5, "-5"), (2.0, "2.0"), ("10", "'10'"), (10**9, "1000000000"), (None, "None")],
)
def test_samples(samples, shown):
    _refused(SAMPLES + shown, stats.bootstrap_test, X, Y, samples=samples)
    _refused(SAMPLES + shown, stats.randomization_test, X, Y, samples=samples)
    _refused(SAMPLES + shown, stats.compare, RUNS, samples=samples)


@pytest.mark.parametrize(
    "value,shown",
    [(0, "0"), (1, "1"), (95, "95"), (float("nan"), "nan"), ("0.9", "'0.9'"), (None, "None")],
)
def test_alphas_and_confidences(value, shown):
    _refused(
        f"confidence must be a number in (0, 1); got {shown}", stats.t_test, X, Y, confidence=value
    )
    _refused(
        f"confidence must be a number in (0, 1); got {shown}",
        stats.tukey_hsd,
        np.vstack([X, Y]),
        confidence=value,
    )
    _refused(
        f"alpha must be a number in (0, 1); got {shown}", stats.correct, [0.1], "holm", alpha=value
    )
    _refused(f"alpha must be a number in (0, 1); got {shown}", stats.compare, RUNS, alpha=value)


def test_choices_with_suggestions():
    _refused(
        f"{TESTS}; got 'bootstrp' (did you mean 'bootstrap'?)", stats.paired_test, X, Y, "bootstrp"
    )
    _refused(
        f"{TESTS}, 'tukey'; got 'tukee' (did you mean 'tukey'?)", stats.compare, RUNS, test="tukee"
    )
    _refused(f"{TESTS}; got None", stats.paired_test, X, Y, None)
    _refused("rank must be one of 'x', 'y', 'both'; got 'z'", stats.weighted_tau, X, Y, rank="z")
    _refused("baseline must be one of 'a', 'b'; got 'c'", stats.compare, RUNS, baseline="c")
    _refused(
        "levels must be one of 'systems', 'scores'; got 'system' (did you mean 'systems'?)",
        stats.correlation_matrix,
        RUNS,
        levels="system",
    )
    with pytest.raises(
        ParamError,
        match=r"^correction must be one of 'none', 'bonferroni', .*; "
        r"got 'bonferoni' \(did you mean 'bonferroni'\?\)$",
    ):
        stats.correct([0.1], "bonferoni")
    # the aliases stay
    assert stats.paired_test(X, Y, "Student").test == "t"
    assert (
        stats.correct([0.1, 0.2], "fdr_bh")[1].tolist()
        == stats.correct([0.1, 0.2], "bh")[1].tolist()
    )


@pytest.mark.parametrize("value", ["yes", 1, None, np.array([True])])
def test_booleans(value):
    from cwlkit.support.checks import shown

    _refused(
        f"all_pairs must be True or False; got {shown(value)}", stats.compare, RUNS, all_pairs=value
    )
    _refused(f"anova must be True or False; got {shown(value)}", stats.compare, RUNS, anova=value)
    if value is not None:  # None: the default, decided by the baseline
        _refused(
            f"pairwise must be True or False; got {shown(value)}",
            stats.report_table,
            RUNS,
            pairwise=value,
        )


def test_numbers_and_names():
    _refused(
        "max_residual must be a finite number or None; got inf",
        stats.correlation_matrix,
        RUNS,
        max_residual=float("inf"),
    )
    _refused(
        "max_residual must be a finite number or None; got 'x'",
        stats.fit_parameter,
        X,
        np.vstack([X, Y]),
        [1, 2],
        max_residual="x",
    )
    _refused(
        "measures must be a list of measure names or None; got 42", stats.compare, RUNS, measures=42
    )
    assert stats.compare(RUNS, measures="AP").measures == ["AP"]  # one name is a list of one
    _refused(
        "jobs must be an integer >= 1 or None; got 0",
        stats.correlate_runs,
        "q",
        ["r"],
        ["AP"],
        jobs=0,
    )
    _refused(
        "rbo_p must be a number in (0, 1); got 1", stats.correlate.correlate_systems, X, Y, rbo_p=1
    )


def test_issue_29_calls():
    """The calls the tracker's issue 29 lists: each a ParamError in the one wording."""
    _refused("pvalues must be an array of numbers; got ['a']", stats.correct, ["a"])
    _refused(
        "x must be an array of numbers; got ['a', 'b']", stats.paired_test, ["a", "b"], ["c", "d"]
    )
    _refused(
        "results_by_run must be a mapping {run: scores} or a list of Results; got None",
        stats.compare,
        None,
    )
    _refused(
        "results_by_run['b'] must be a Results, {topic: score}, score records or a DataFrame; "
        "got 42",
        stats.compare,
        {"a": RUNS["a"], "b": 42},
    )
    _refused(SEED + "-1", stats.compare, RUNS, test="bootstrap", seed=-1)
    _refused(SEED + "'x'", stats.compare, RUNS, test="randomization", seed="x")


def test_a_confidence_so_low_that_no_shift_is_accepted():
    """randomization_test with confidence 1e-45 needs more sign vectors than were drawn to
    accept any shift: the interval is empty (NaN), not an IndexError (found by hypothesis)."""
    import numpy as np

    from cwlkit.stats import randomization_test

    r = randomization_test([0.1, 0.5, 0.3], [0.2, 0.1, 0.0], samples=19, confidence=1e-45)
    assert np.isnan(r.ci_low).all() and np.isnan(r.ci_high).all()
    assert 0 < float(r.p_value) <= 1
