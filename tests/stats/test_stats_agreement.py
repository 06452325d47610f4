"""Rank agreement: cwlkit.rbo against the rbo package's rbo_ext and against the extreme
completions its bounds stand for; cwlkit.tau_ap against hand computations."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import run_refs

import cwlkit
from cwlkit.errors import ParamError
from cwlkit.stats.agreement import rbo
from cwlkit.stats.ap_correlation import tau_ap


def _truncated(a, b, p, depth=800):
    """RBO summed to ``depth`` from the definition, (1 - p) sum_d p^(d-1) |a:d & b:d| / d
    (the rest weighs below p^depth)."""
    total, sa, sb, x = 0.0, set(), set(), 0
    for d in range(1, depth + 1):
        ea, eb = a[d - 1], b[d - 1]
        x += (ea in sb) + (eb in sa) + (ea == eb)
        sa.add(ea)
        sb.add(eb)
        total += p ** (d - 1) * x / d
    return (1 - p) * total


def _cases(seed, n_cases=40):
    rng = np.random.default_rng(seed)
    for _ in range(n_cases):
        universe = [f"d{i}" for i in range(int(rng.integers(3, 30)))]
        s, t = rng.permutation(universe), rng.permutation(universe)
        la, lb = int(rng.integers(1, len(universe) + 1)), int(rng.integers(1, len(universe) + 1))
        yield list(s[:la]), list(t[:lb]), float(rng.choice([0.5, 0.8, 0.9, 0.95]))


@pytest.mark.parametrize("seed", [0, 1])
def test_bounds_are_the_extreme_completions(seed):
    """RBO_min is RBO when nothing beyond the prefixes matches (both go on with fresh items);
    RBO_max when the unseen items match as early as they can: the shorter ranking goes on
    with the longer's unmatched items, the longer with the shorter's, then both with the
    same fresh items. Uneven lengths included."""
    for a, b, p in _cases(seed):
        r = rbo(a, b, p)
        S, L = (a, b) if len(a) <= len(b) else (b, a)
        lo = _truncated(S + [f"s{i}" for i in range(900)], L + [f"l{i}" for i in range(900)], p)
        fresh = [f"x{i}" for i in range(900)]
        hi = _truncated(
            S + [x for x in L if x not in S] + fresh, L + [x for x in S if x not in L] + fresh, p
        )
        assert r.min == pytest.approx(lo, abs=1e-12)
        assert r.max == pytest.approx(hi, abs=1e-12)
        assert r.min <= r.ext <= r.max + 1e-12


def test_ext_is_the_extrapolation_of_constant_agreement():
    """Equal lengths k: RBO_ext = (1-p)/p sum X_d/d p^d + X_k/k p^k; by hand for
    abcde vs bacdx at p = 0.9: X = 0, 2, 3, 4, 4."""
    p = 0.9
    X = [0, 2, 3, 4, 4]
    want = (1 - p) / p * sum(x / d * p**d for d, x in enumerate(X, 1)) + 4 / 5 * p**5
    assert rbo(list("abcde"), list("bacdx"), p).ext == pytest.approx(want, abs=1e-15)
    same = rbo(list("abcdefg"), list("abcdefg"), 0.9)
    assert same.ext == pytest.approx(1.0) and same.max == pytest.approx(1.0)
    assert same.min == pytest.approx(1 - 0.9**7 * 0 - same.res)


def test_uneven_ext_by_hand():
    """Eq. 32 by hand: S = a b (s = 2), L = b c a (l = 3), p = 0.5: X_1 = 0, X_2 = 1,
    X_3 = 2 and X_s = 1: (1-p)/p (1/2 p^2 + 2/3 p^3 + 1 (3-2)/(2*3) p^3) +
    ((2 - 1)/3 + 1/2) p^3."""
    p = 0.5
    want = (1 - p) / p * (0.5 * p**2 + 2 / 3 * p**3 + 1 / 6 * p**3) + (1 / 3 + 1 / 2) * p**3
    assert rbo(["a", "b"], ["b", "c", "a"], p).ext == pytest.approx(want, abs=1e-15)


def test_ties_by_hand():
    """Ties (the paper's Section 4.3): a tied group enters the prefix whole, and the agreement
    is 2 X_d / (|S:d| + |L:d|): (a b) c against a b c gives A = 2/3, 1, 1."""
    p = 0.9
    want = (1 - p) / p * (2 / 3 * p + p**2 + p**3) + p**3
    assert rbo([{"a", "b"}, "c"], ["a", "b", "c"], p).ext == pytest.approx(want, abs=1e-15)
    # a group of one is an untied item
    assert rbo([{"a"}, "b"], ["b", "a"], p) == rbo(["a", "b"], ["b", "a"], p)


def test_public_names_and_errors():
    assert cwlkit.rbo is rbo and cwlkit.tau_ap is tau_ap
    with pytest.raises(ParamError, match="repeated"):
        rbo(["a", "a"], ["a"])
    with pytest.raises(ParamError, match=r"\(0, 1\)"):
        rbo(["a"], ["a"], p=1.0)
    with pytest.raises(ParamError, match=r"^RBO of two empty rankings is undefined"):
        rbo([], [])
    e = rbo([], ["a"])
    assert (e.min, e.ext) == (0.0, 0.0)


def test_tau_ap_public():
    """The first argument is the truth: a swap at the top costs more (1/3) than one at the
    bottom (7/9), by hand (Yilmaz et al.'s definition); mappings are aligned by system."""
    truth = {"A": 4.0, "B": 3.0, "C": 2.0, "D": 1.0}
    assert tau_ap(truth, {"B": 4.0, "A": 3.0, "C": 2.0, "D": 1.0}) == pytest.approx(1 / 3)
    assert tau_ap(truth, {"D": 1.0, "C": 2.0, "A": 4.0, "B": 3.0}) == pytest.approx(1.0)
    assert tau_ap([4, 3, 2, 1], [4, 3, 1, 2]) == pytest.approx(7 / 9)
    with pytest.raises(ParamError, match="different systems"):
        tau_ap(truth, {"A": 1.0})


@pytest.mark.slow
def test_ext_equals_the_rbo_package(refs_python):
    """The rbo package's (0.1.3) rbo_ext on equal-length lists without ties."""
    cases = [(a[: min(len(a), len(b))], b[: min(len(a), len(b))], p) for a, b, p in _cases(7)]
    theirs = run_refs(
        refs_python,
        "import rbo\nprint(json.dumps([rbo.RankingSimilarity(a, b).rbo_ext(p=p) "
        "for a, b, p in data]))",
        cases,
    )
    ours = [rbo(a, b, p).ext for a, b, p in cases]
    assert ours == pytest.approx(theirs, abs=1e-12)
