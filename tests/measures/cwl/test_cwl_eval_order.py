"""cwl_eval's mode computes as cwl_eval 1.0.12 does, to the bit: each metric's C (and W) vector
against its cwl_eval class's ``c_vector`` (``w_vector``), and the five measurements against
its ``_do_score``, on random rankings (unjudged documents, costs, lengths cut and padded),
for every topic of a batch and for a topic alone."""

from __future__ import annotations

import math

import numpy as np
import pytest
from test_cwl_eval_bytes import METRICS

from cwlkit.measures.cwl.engine import CWLContext, c_pow, cwl_eval_scores
from cwlkit.measures.cwl.parse import DEFAULT_METRICS, parse_cwl_metric

pytest.importorskip("cwl.ruler.ranking", reason="cwl-eval 1.0.12 (a test extra) is not installed")

N = 300  # ranks: past numpy's pairwise block of 128, and runs both cut and padded
GAINS = [0.0, 0.0, 0.0, 0.1, 0.25, 0.5, 0.75, 1.0, np.nan]  # nan: unjudged
COSTS = [0.5, 1.0, 2.5, np.nan]  # nan: no cost (max_cost / min_cost)


def _cwl_class(line: str):
    """A metrics-file line -> cwl_eval's metric object, arguments cast as cwl_eval casts them."""
    import importlib

    name, rest = line.split("(", 1)
    args = [a for a in rest[:-1].split(",") if a != ""]
    for mod in MODULES:
        cls = getattr(importlib.import_module(f"cwl.ruler.measures.{mod}"), name, None)
        if cls is not None:
            return cls(*[float(a) if "." in a else int(a) for a in args])
    raise LookupError(name)


def _rankings(seed: int, n_topics: int):
    from cwl.ruler.ranking import Ranking

    rng = np.random.default_rng(seed)
    out = []
    for t in range(n_topics):
        n = int(rng.choice([1, 7, 150, N, 450]))
        gains = list(rng.choice(GAINS, n))
        costs = list(rng.choice(COSTS, n))
        out.append(Ranking(f"t{t}", gains, costs, 1.0, 0.0, 3.0, 0.25, N))
    return out


def _context(rankings, worse_case: bool) -> CWLContext:
    g = np.array([r.get_gain_vector(worse_case) for r in rankings], dtype=np.float64)
    c = np.array([r.get_cost_vector(worse_case) for r in rankings], dtype=np.float64)
    return CWLContext(
        rank=np.arange(1, N + 1, dtype=np.float64)[None, :],
        gain=g,
        cost=c,
        cum_gain=np.cumsum(g, axis=1),
        cum_cost=np.cumsum(c, axis=1),
        depth=np.full(len(rankings), N),
        pad_gain=0.0 if worse_case else 1.0,
        pad_cost=3.0 if worse_case else 0.25,
        compat=True,
    )


MODULES = ("cwl_precision", "cwl_rbp", "cwl_rr", "cwl_ap", "cwl_dcg", "cwl_inst", "cwl_insq")
MODULES += ("cwl_tbg", "cwl_bpm", "cwl_umeasure", "cwl_ift", "cwl_nerr", "cwl_npv", "cwl_set")
LINES = sorted(set(METRICS) | set(DEFAULT_METRICS))


@pytest.mark.parametrize("line", LINES)
@pytest.mark.parametrize("worse_case", [True, False], ids=["lower", "upper"])
def test_vectors_and_scores_are_cwl_evals_bits(line, worse_case):
    rankings = _rankings(seed=len(line), n_topics=6)
    theirs = _cwl_class(line)
    ours = parse_cwl_metric(line)[0]
    x = _context(rankings, worse_case)
    C, W = ours.cwl_eval_vectors(x)  # type: ignore[attr-defined]
    scores = cwl_eval_scores(ours, x).as_array()  # type: ignore[arg-type]
    with np.errstate(all="ignore"):
        for t, r in enumerate(rankings):
            np.testing.assert_array_equal(C[t], theirs.c_vector(r, worse_case), err_msg=line)
            if W is not None:
                np.testing.assert_array_equal(W[t], theirs.w_vector(r, worse_case))
            want = np.array(theirs._do_score(r, worse_case))
            np.testing.assert_array_equal(scores[:, t], want, err_msg=f"{line} {r.topic_id}")
            # a topic alone: the same bits as in its batch
            alone = _context([r], worse_case)
            np.testing.assert_array_equal(cwl_eval_scores(ours, alone).as_array()[:, 0], want)  # type: ignore[arg-type]


def test_c_pow_is_pythons_pow():
    """numpy's SIMD power differs from C's pow in the last bit for some arguments; c_pow
    does not (and gives inf where math.pow raises OverflowError)."""
    rng = np.random.default_rng(3)
    x = rng.normal(0.0, 20.0, 20_000)
    want = np.array([math.pow(math.e, v) for v in x])
    np.testing.assert_array_equal(c_pow(math.e, x), want)
    y = rng.random(20_000) * 3.0
    np.testing.assert_array_equal(c_pow(y, 2.0), [v**2.0 for v in y.tolist()])
    assert c_pow(math.e, 1000.0) == np.inf
