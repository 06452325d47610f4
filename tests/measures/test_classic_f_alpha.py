"""The lecture's F measure in its alpha form: ``F = 1 / (alpha/P + (1 - alpha)/R)``.

Against the lecture (seed 001): "F = 1 / (alpha 1/P + (1 - alpha) 1/R) = (beta^2 + 1) P R /
(beta^2 P + R) where beta^2 = (1 - alpha)/alpha", "alpha in [0, 1] and thus beta^2 in
[0, inf]", "balanced F1 with beta = 1 (or alpha = 0.5)", and its worked example (TP = 20,
FP = 40, FN = 60: P = 1/3, R = 1/4, F1 = 2/7); and against the beta form for many alphas.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest
from conftest import REPO

import cwlkit
from cwlkit.errors import ParamError
from cwlkit.io.trec import Qrels, Run
from cwlkit.measures.classic import F, contingency, f_alpha, f_beta
from cwlkit.measures.parse import parse_measure

SEED = REPO / "tests" / "fixtures" / "seed001_f_alpha.txt"  # the lecture's lines on F (verbatim)


def _run(relevant_ranks: set[int], n: int, R: int):
    q = [("q", f"d{i}", int(i in relevant_ranks)) for i in range(1, n + 1)]
    q += [("q", f"m{j}", 1) for j in range(R - len(relevant_ranks))]
    r = [("q", f"d{i}", float(1000 - i)) for i in range(1, n + 1)]
    return Qrels.from_records(q), Run.from_records(r)


def test_the_seed_states_both_forms():
    text = SEED.read_text(encoding="utf-8")
    assert r"F = \frac{1}{\alpha \frac{1}{P} + (1 - \alpha) \frac{1}{R}}" in text
    assert r"\beta^2 = \frac{1 - \alpha}{\alpha}" in text
    assert r"$\alpha \in [0, 1]$ and thus $\beta^2 \in [0, \infty]$" in text
    assert r"$\beta = 1$ (or $\alpha = 0.5$)" in text


def test_lecture_worked_example_alpha_half_is_two_sevenths():
    """TP = 20, FP = 40, FN = 60 (TN = 1,000,000): P = 1/3, R = 1/4, F1 = 2/7 at alpha = 0.5."""
    out = contingency(20, 40, 60, 1_000_000, alpha=0.5)
    assert float(out["F"]) == pytest.approx(2 / 7, rel=1e-15)
    p, r = Fraction(1, 3), Fraction(1, 4)
    for a in (Fraction(1, 5), Fraction(1, 2), Fraction(4, 5)):
        exact = 1 / (a / p + (1 - a) / r)
        got = float(contingency(20, 40, 60, alpha=float(a))["F"])
        assert got == pytest.approx(float(exact), rel=1e-15)
    # the same table as a run: 60 retrieved, 20 of them relevant, 80 relevant in all
    q, run = _run(set(range(1, 21)), 60, 80)
    res = cwlkit.evaluate(q, run, ["F(alpha=0.5)", "F(alpha=0.2)", "F(alpha=0.8)"])
    assert res.measures == ["F", "F(alpha=0.2)", "F(alpha=0.8)"]
    np.testing.assert_allclose(
        res.values[:, 0],
        [2 / 7, 1 / (0.2 * 3 + 0.8 * 4), 1 / (0.8 * 3 + 0.2 * 4)],
        rtol=1e-15,
    )


@pytest.mark.parametrize("alpha", [0.05, 0.1, 0.2, 0.25, 1 / 3, 0.5, 0.6, 0.8, 0.9, 0.99])
def test_beta_squared_is_one_minus_alpha_over_alpha(alpha):
    """F(alpha=a) = F(beta=sqrt((1 - a)/a)) for every ranking prefix, through the registry."""
    beta = math.sqrt((1 - alpha) / alpha)
    rng = np.random.default_rng(int(alpha * 1000))
    p = rng.random(200)
    r = rng.random(200)
    p[:5] = 0.0
    r[3:8] = 0.0
    np.testing.assert_allclose(f_alpha(p, r, alpha), f_beta(p, r, beta), rtol=1e-13, atol=0)
    q, run = _run({1, 3, 6, 10, 20}, 20, 7)
    cut = ("", "@1", "@5", "@10")
    by_alpha = cwlkit.evaluate(q, run, [f"F(alpha={alpha!r}){c}" for c in cut]).values[:, 0]
    by_beta = cwlkit.evaluate(q, run, [f"F(beta={beta!r}){c}" for c in cut]).values[:, 0]
    np.testing.assert_allclose(by_alpha, by_beta, rtol=1e-13)


def test_lecture_query1_f_half_beta_is_alpha_four_fifths():
    """docs/classic.md's case: P = 1/4, R = 1 (the lecture's Query 1 as a set). beta = 0.5 is
    alpha = 1/(1 + beta^2) = 0.8: F = 1/(0.8 * 4 + 0.2) = 5/17."""
    q, run = _run({1, 3, 6, 10, 20}, 20, 5)
    res = cwlkit.evaluate(q, run, ["F(alpha=0.8)", "F(beta=0.5)"])
    np.testing.assert_allclose(res.values[:, 0], [5 / 17, 5 / 17], rtol=1e-15)


def test_alpha_ends_of_the_range_are_precision_and_recall():
    """alpha = 1 is P (beta = 0), alpha = 0 is R (beta = inf), whatever the other value."""
    p = np.array([0.0, 0.3, 1.0, 0.5])
    r = np.array([0.4, 0.0, 1.0, 0.25])
    np.testing.assert_array_equal(f_alpha(p, r, 1.0), p)
    np.testing.assert_array_equal(f_alpha(p, r, 0.0), r)
    np.testing.assert_array_equal(f_alpha(p, r, 0.5), [0.0, 0.0, 1.0, 1 / 3])
    q, run = _run({1, 3}, 4, 8)  # P = 1/2, R = 1/4
    res = cwlkit.evaluate(q, run, ["F(alpha=1)", "F(alpha=0)", "F(beta=0)", "F(beta=inf)"])
    np.testing.assert_array_equal(res.values[:, 0], [0.5, 0.25, 0.5, 0.25])


def test_one_spelling_and_exclusive_with_beta():
    assert parse_measure("F(alpha=0.5)") == parse_measure("F") == parse_measure("F(beta=1)")
    assert parse_measure("F(alpha=0.5)").name == "F"
    assert parse_measure("F(alpha=0.2)@10").name == "F(alpha=0.2)@10"
    assert parse_measure("F(alpha=0.25,rel=2)").name == "F(rel=2,alpha=0.25)"
    assert F(alpha=0.2).alpha == 0.2 and F(alpha=0.2).beta is None
    for text in ("F(alpha=0.2,beta=2)", "F(beta=1,alpha=0.3)", "F(0.5,alpha=0.2)"):
        with pytest.raises(ParamError, match="beta or alpha"):
            parse_measure(text)
    for bad in ("F(alpha=-0.1)", "F(alpha=1.5)", "F(alpha=nan)"):
        with pytest.raises(ParamError):
            parse_measure(bad)
    with pytest.raises(ParamError, match="beta or as alpha"):
        contingency(1, 2, 3, beta=2.0, alpha=0.2)
