"""Property tests over every registered C/W/L metric (hypothesis).

Every C/W/L class in the measure registry is instantiated with its defaults (where it has
them) and with non-default parameters (``INSTANCES``; a test fails if a registered class is
missing from it). On small random rankings:

* the weights: sum W = 1 and sum L = 1 whenever ED is finite, with the mass past the grid
  checked against an independent sum (the geometric series; ``x^2 psi_1(x)`` from scipy for
  INST, INSQ and C_E11);
* the identities EU * ED = ETU and EC * ED = ETC to 1e-9 whenever ED is finite (and EU = ETU
  = 0, ETC = inf where it is not);
* a ranking of constant gain a (past its end too) scores EU = a;
* residuals: the upper bound's EU is never below the lower bound's (AP and nDCG excepted:
  they are not monotone in the gains; their ResEU is max(0, upper - lower)), so ResEU >= 0;
* the order of topics and of lines in the qrels and run does not change any number;
* every value stays within its bounds.
"""

from __future__ import annotations

import dataclasses
import math

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from scipy.special import polygamma

import cwlkit
from cwlkit.api import evaluate
from cwlkit.io.costs import Costs
from cwlkit.io.trec import Qrels, Run
from cwlkit.measures.cwl import CWLMetric, score_metric
from cwlkit.measures.registry import entries

# non-default parameter sets for each registered class ({} = the defaults)
INSTANCES: dict[str, list[dict]] = {
    "Precision": [{}, {"k": 1}, {"k": 3}, {"k": 25}],
    "RBP": [{}, {"p": 0.3}, {"p": 0.95}],
    "NPV": [{}, {"rate": 1.5}],
    "RR": [{}],
    "AP": [{}],
    "SDCG": [{}, {"k": 1}, {"k": 4}],
    "NDCG": [{}, {"k": 3}],
    "INST": [{}, {"T": 0.5}, {"T": 3.0}],
    "INSQ": [{}, {"T": 2.5}],
    "TBG": [{}, {"halflife": 2.0}],
    "UMeasure": [{}, {"L": 4.5}],
    "BPM": [{}, {"T": 2.0, "K": 4.0}],
    "BPMD": [{}, {"T": 2.0, "K": 5.0, "hb": 0.5, "hc": 2.0, "gain_med": 0.25}, {"hc": 0.0}],
    "IFTGoal": [{"T": 2.0, "b1": 0.9, "R1": 10.0}, {"T": 1.0, "b1": 0.25, "R1": 3.0}],
    "IFTRate": [{"A": 0.2, "b2": 0.9, "R2": 10.0}, {"A": 0.5, "b2": 2.0, "R2": 1.0}],
    "IFTGoalRate": [{"T": 2.0, "b1": 0.25, "R1": 10.0, "A": 0.2, "b2": 0.25, "R2": 10.0}],
    "SET": [{}, {"beta": 0.2, "k": 3}],
    "CE5": [{}],
    "CE6": [{}],
    "CE8": [{"k": 5}],
    "CE9": [{"k": 1}, {"k": 7}],
    "CE10": [{}, {"phi": 0.5}],
    "CE11": [{}, {"T": 2.5}],
}

# families whose C past the end of the run (gain 0, unit cost) is a constant: the mass past
# the grid is the geometric series V(H+1) / (1 - C(H))
GEOMETRIC = {"RBP", "NPV", "TBG", "IFT-C1", "C_E10"}
# C(j) = ((j + b - 1)/(j + b))^2 past the run: the mass past the grid is V(H+1) x^2 psi_1(x)
TRIGAMMA = {"INST", "INSQ", "C_E11"}
# C decreasing past the run (the rate of gain falls): 0 <= mass <= V(H+1) / (1 - C(H))
DECREASING = {"IFT-C2", "IFT"}
# the user model can go on forever on a ranking without (enough) gain
DIVERGENT = {"RR_cwl", "C_E5", "C_E6"}
# not monotone in the gains (nDCG: its upper bound's ideal ranking grows with the gains)
NOT_MONOTONE = {"AP_cwl", "nDCG_cwl"}


def cwl_classes() -> list[type[CWLMetric]]:
    """Every C/W/L class of the measure registry, and of the C/W/L table (which also holds the
    classes whose general names another family claimed first, e.g. trec_eval's ``AP``)."""
    seen = {c for c in entries() if issubclass(c, CWLMetric)}
    return sorted(seen, key=lambda c: c.__name__)


def metric_instances() -> list[CWLMetric]:
    by_name = {c.__name__: c for c in cwl_classes()}
    return [by_name[name](**kw) for name, kws in INSTANCES.items() if name in by_name for kw in kws]


METRICS = metric_instances()
IDS = [m.name for m in METRICS]
FAST = settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def test_every_registered_cwl_metric_is_covered():
    classes = cwl_classes()
    assert {c.__name__ for c in classes} == set(INSTANCES)
    for c in classes:
        required = [f.name for f in dataclasses.fields(c) if f.default is dataclasses.MISSING]
        if not required:
            assert {} in INSTANCES[c.__name__], f"{c.__name__}: test its defaults too"
    # the documented families, so the expected behaviour below names real ones
    fams = {c.family for c in classes}
    assert GEOMETRIC | TRIGAMMA | DECREASING | DIVERGENT | NOT_MONOTONE <= fams


# --------------------------------------------------------------------------------------------
# strategies

LABELS = st.sampled_from([0.0, 0.0, 0.25, 0.5, 1.0, None])  # None: unjudged


@st.composite
def collections(draw, max_topics: int = 3, max_docs: int = 10):
    """(qrels records, run records): a few topics, unjudged and unretrieved documents, ties."""
    n_topics = draw(st.integers(1, max_topics))
    qrels, run = [], []
    for t in range(n_topics):
        topic = draw(st.sampled_from(["a", "b10", "b2", "q 7", "z"][:5])) + str(t)
        topic = topic.replace(" ", "")
        n = draw(st.integers(1, max_docs))
        labels = draw(st.lists(LABELS, min_size=n, max_size=n))
        scores = draw(st.lists(st.sampled_from([0.5, 1.0, 1.5, 2.0, 3.25]), min_size=n, max_size=n))
        for j, (lab, s) in enumerate(zip(labels, scores, strict=True)):
            doc = f"{topic}-d{j}"
            run.append((topic, doc, s))
            if lab is not None:
                qrels.append((topic, doc, lab))
        for j in range(draw(st.integers(0, 3))):  # judged, never retrieved
            qrels.append((topic, f"{topic}-x{j}", draw(st.sampled_from([0.0, 0.5, 1.0]))))
    return qrels, run


@st.composite
def grids(draw):
    """gain[T, D], cost[T, D], depth[T] and the padding cost, for the engine itself."""
    T = draw(st.integers(1, 3))
    D = draw(st.integers(0, 12))
    g = draw(
        st.lists(
            st.sampled_from([0.0, 0.0, 0.1, 0.25, 0.5, 0.9, 1.0]), min_size=T * D, max_size=T * D
        )
    )
    c = draw(st.lists(st.floats(0.5, 3.0), min_size=T * D, max_size=T * D))
    depth = draw(st.lists(st.integers(0, D), min_size=T, max_size=T))
    pad_cost = draw(st.sampled_from([1.0, 1.5, 2.0]))
    return (
        np.array(g, dtype=np.float64).reshape(T, D),
        np.array(c, dtype=np.float64).reshape(T, D),
        np.array(depth, dtype=np.int64),
        pad_cost,
    )


def _evaluate(metric, qrels, run, **kw):
    return evaluate(
        Qrels.from_records(qrels),
        Run.from_records(run),
        [metric],
        topics="run",
        trec_version=10,
        **kw,
    )


# --------------------------------------------------------------------------------------------
# sum W = 1, sum L = 1


@pytest.mark.parametrize("metric", METRICS, ids=IDS)
@FAST
@given(data=collections(max_topics=1, max_docs=12))
def test_weights_sum_to_one(metric, data):
    qrels, run = data
    topic = run[0][0]
    n = len(run)
    H = max(n, metric.min_horizon()) + 1200  # past the run, and past U's and BPM's budgets
    v = cwlkit.cwl_vectors(
        Qrels.from_records(qrels), Run.from_records(run), metric, topic, horizon=H
    )
    C, V, W, L, ED = v["C"], v["V"], v["W"], v["L"], float(v["ED"])
    assert C.shape == V.shape == W.shape == L.shape == (H,)
    assert np.all((C >= 0) & (C <= 1))
    v_next = V[-1] * C[-1]  # V(H+1)
    assert abs(L.sum() + v_next - 1.0) <= 1e-12  # sum_{i<=H} L = 1 - V(H+1)
    if math.isinf(ED):
        assert metric.family in DIVERGENT
        assert np.all(W == 0)
        return
    # the expected depth past the grid, from an independent sum
    if metric.family in GEOMETRIC:
        rest = v_next / (1.0 - C[-1]) if v_next > 0 else 0.0
    elif metric.family in TRIGAMMA:
        cg = float(np.sum(v["gain"])) if metric.family == "INST" else 0.0
        x = H + 2.0 * metric.T - cg  # C(j) = ((j + b - 1)/(j + b))^2 past the run, x = H + b
        rest = v_next * x * x * float(polygamma(1, x))
    elif metric.family in DECREASING:
        hi = v_next / (1.0 - C[-1]) if v_next > 0 else 0.0
        rest = ED - V.sum()
        assert -1e-9 * ED <= rest <= hi * (1 + 1e-9) + 1e-12
    else:
        rest = 0.0
        if metric.family not in DIVERGENT:
            assert v_next == 0.0, "a finite user model stops inside the grid"
    assert ED == pytest.approx(V.sum() + rest, rel=1e-9)
    # so sum W = 1 and sum L = 1 over all ranks
    assert W.sum() + rest / ED == pytest.approx(1.0, abs=1e-9)
    assert L.sum() + v_next == pytest.approx(1.0, abs=1e-12)
    np.testing.assert_allclose(W, V / ED, rtol=1e-12)
    np.testing.assert_allclose(L, V * (1 - C), rtol=1e-12, atol=1e-300)


# --------------------------------------------------------------------------------------------
# EU * ED = ETU, EC * ED = ETC; constant gain


def _check_identities(s, pad_cost: float) -> None:
    fin = np.isfinite(s.ED)
    assert not np.any(np.isnan(s.as_array()))
    np.testing.assert_allclose(s.EU[fin] * s.ED[fin], s.ETU[fin], rtol=1e-9, atol=1e-9)
    np.testing.assert_allclose(s.EC[fin] * s.ED[fin], s.ETC[fin], rtol=1e-9, atol=1e-9)
    assert np.all(s.ED[fin] >= 1 - 1e-12)
    inf = ~fin
    assert np.all(s.EU[inf] == 0) and np.all(s.ETU[inf] == 0)
    assert np.all(np.isinf(s.ETC[inf])) and np.all(s.EC[inf] == pad_cost)


@pytest.mark.parametrize("metric", METRICS, ids=IDS)
@FAST
@given(grid=grids(), upper=st.booleans())
def test_identities_hold_wherever_ed_is_finite(metric, grid, upper):
    gain, cost, depth, pad_cost = grid
    s = score_metric(metric, gain, cost, depth, pad_gain=1.0 if upper else 0.0, pad_cost=pad_cost)
    if not upper:
        assert np.all(np.isfinite(s.ED)) or metric.family in DIVERGENT
    _check_identities(s, pad_cost)
    if not upper:
        # cwl_eval's mode (--max-depth): its cut drops the tail of L, so the identities need not
        # hold there; ED is still between 1 and the cut
        c = score_metric(metric, gain, cost, depth, pad_cost=pad_cost, max_depth=30)
        assert np.all(c.ED >= 1 - 1e-12) and np.all(c.ED <= 30 + 1e-9)


@pytest.mark.parametrize("metric", METRICS, ids=IDS)
@FAST
@given(
    a=st.sampled_from([0.0, 0.1, 0.25, 0.5, 0.75, 0.9, 1.0]),
    n=st.integers(1, 12),
    costs=st.lists(st.floats(0.5, 3.0), min_size=12, max_size=12),
)
def test_constant_gain_scores_that_gain(metric, a, n, costs):
    gain = np.full((1, n), a)
    cost = np.array(costs[:n])[None, :]
    s = score_metric(metric, gain, cost, np.array([n]), pad_gain=a, pad_cost=1.0)
    assert s.EU[0] == pytest.approx(a, abs=1e-9)
    _check_identities(s, 1.0)


# --------------------------------------------------------------------------------------------
# residuals


@pytest.mark.parametrize("metric", METRICS, ids=IDS)
@FAST
@given(data=collections())
def test_residuals_are_not_negative(metric, data):
    qrels, run = data
    res = _evaluate(metric, qrels, run, residuals=True)
    assert np.all(res.columns["ResEU"] >= 0)
    assert not np.any(np.isnan(res.columns["ResEU"]))
    # the clamp at zero (evaluate.score) is a no-op: upper-bound EU >= lower-bound EU
    from cwlkit.core.batch import build_batch
    from cwlkit.measures.cwl.evaluate import prepare

    batch = build_batch(Qrels.from_records(qrels), Run.from_records(run))
    inp = prepare(batch)
    lo = score_metric(metric, inp.gain_lo, inp.cost_lo, inp.depth, pad_gain=0.0)
    pad = inp.max_gain if metric.upper_tail else 0.0
    hi = score_metric(metric, inp.gain_hi, inp.cost_hi, inp.depth, pad_gain=pad)
    if metric.family not in NOT_MONOTONE:
        assert np.all(hi.EU >= lo.EU - 1e-12), (lo.EU, hi.EU)
    elif (
        metric.normalise_by_ideal
    ):  # the ideal grows with the same documents: still monotone in SDCG
        assert np.all(hi.EU >= lo.EU - 1e-12)
    # with every document judged and no tail to fill, there is nothing left to find
    if not metric.upper_tail:
        judged = inp.gain_lo == inp.gain_hi
        same = np.all(judged, axis=1)
        assert np.all(res.columns["ResEU"][0][same] == 0)


# --------------------------------------------------------------------------------------------
# order of topics and of lines


def _by_topic(res) -> dict[str, np.ndarray]:
    cols = [
        res.values,
        *(res.columns[c] for c in ("ETU", "EC", "ETC", "ED", "ResEU", "ResETU", "ResED")),
    ]
    return {t: np.array([c[0, i] for c in cols]) for i, t in enumerate(res.topics)}


@pytest.mark.parametrize("metric", METRICS, ids=IDS)
@FAST
@given(data=collections(), perm=st.randoms(use_true_random=False))
def test_line_and_topic_order_do_not_matter(metric, data, perm):
    qrels, run = data
    base = _by_topic(_evaluate(metric, qrels, run, residuals=True))
    q2, r2 = list(qrels), list(run)
    perm.shuffle(q2)
    perm.shuffle(r2)  # topics interleaved, documents out of score order
    shuffled = _by_topic(_evaluate(metric, q2, r2, residuals=True))
    assert base.keys() == shuffled.keys()
    for t in base:
        np.testing.assert_array_equal(base[t], shuffled[t])
    # file order: moving whole topics (each kept in its order) changes nothing either
    blocks: dict[str, list] = {}
    for rec in run:
        blocks.setdefault(rec[0], []).append(rec)
    keys = list(blocks)
    perm.shuffle(keys)
    r3 = [rec for k in keys for rec in blocks[k]]
    a = _by_topic(_evaluate(metric, qrels, run, residuals=True, order="file"))
    b = _by_topic(_evaluate(metric, q2, r3, residuals=True, order="file"))
    for t in a:
        np.testing.assert_array_equal(a[t], b[t])


# --------------------------------------------------------------------------------------------
# bounds


@pytest.mark.parametrize("metric", METRICS, ids=IDS)
@FAST
@given(data=collections(), c=st.sampled_from([0.5, 1.0, 2.0]))
def test_values_stay_within_bounds(metric, data, c):
    qrels, run = data
    res = _evaluate(metric, qrels, run, costs=Costs({"Q0": c}), residuals=True)
    eu, etu, ec, etc, ed = res.values[0], *(res.columns[k][0] for k in ("ETU", "EC", "ETC", "ED"))
    assert np.all((eu >= 0) & (eu <= 1 + 1e-12))  # gains in [0, 1]; nDCG <= the ideal
    assert np.all(ed >= 1 - 1e-12)
    lo_c, hi_c = min(c, 1.0), max(c, 1.0)  # documents cost c, ranks past the run 1
    assert np.all((ec >= lo_c - 1e-12) & (ec <= hi_c + 1e-12))
    fin = np.isfinite(ed)
    assert np.all(etu[fin] >= 0) and np.all(etu[fin] <= ed[fin] + 1e-9)
    assert np.all(etc[fin] >= lo_c * ed[fin] - 1e-9)
    if metric.family in ("P_cwl", "SDCG", "nDCG_cwl", "SET", "C_E8", "C_E9"):
        assert np.all(ed <= metric.k + 1e-9)
    if metric.family == "RR_cwl":
        assert np.all(eu[fin] <= 1.0 / ed[fin] + 1e-12)  # g_r / r with g <= 1
    res_eu = res.columns["ResEU"][0]
    assert np.all((res_eu >= 0) & (eu + res_eu <= 1 + 1e-9))


# --------------------------------------------------------------------------------------------
# regression: INST's tail when the ranks past the run have a gain strictly between 0 and 1
# (the upper bound with --max-gain a). The engine used to extend the grid until V(H+1) was
# below 1e-12, which leaves a power-law remainder of about H V(H+1): 2e-7 of ED for a = 0.05.


def _inst_ed_reference(gains: list[float], a: float, T: float, n: int) -> float:
    """sum_i V(i) by direct float64 summation to n and 2n ranks, plus a Richardson step for
    the remainder, which decays like N^(1 - 2/(1-a))."""
    sums = []
    for size in (n, 2 * n):
        g = np.full(size, a)
        g[: len(gains)] = gains
        x = np.arange(1, size + 1, dtype=np.float64) + 2 * T - np.cumsum(g)
        log_v = np.concatenate(([0.0], np.cumsum(2 * np.log1p(-1 / x))[:-1]))
        sums.append(float(np.exp(log_v).sum()))
    p = 2 / (1 - a) - 1
    return sums[1] + (sums[1] - sums[0]) / (2**p - 1)


@pytest.mark.parametrize("a", [0.1, 0.3, 0.6, 0.9, 0.95])
@pytest.mark.parametrize("T", [0.75, 1.0, 3.0])
def test_inst_tail_with_a_fractional_padding_gain(a, T):
    from cwlkit.measures.cwl.inst import INST

    gains = [0.0, 0.2, 0.0, 1.0, 0.5, 0.0]
    g = np.array([gains, gains[:3] + [0.0] * 3])
    s = score_metric(INST(T=T), g, np.ones_like(g), np.array([6, 3]), pad_gain=a)
    for t, n in enumerate((6, 3)):
        want = _inst_ed_reference(gains[:n], a, T, 1_000_000 if a < 0.2 else 100_000)
        assert s.ED[t] == pytest.approx(want, rel=1e-11)
    _check_identities(s, 1.0)


# --------------------------------------------------------------------------------------------
# regression: metrics without a closed-form tail are extended past the runs block by block
# (carrying V, CG and CC over), not by rebuilding a topics x 2H grid: IFT-C2's upper bound on
# 100 topics used to take 1.5 GB. The result must equal a direct sum over a long horizon.


def test_extension_past_the_run_matches_a_direct_sum():
    from cwlkit.measures.cwl.ift import IFTRate

    rng = np.random.default_rng(3)
    T, n = 40, 30
    gain = rng.choice([0.0, 0.5, 1.0], size=(T, n))
    cost = rng.uniform(0.5, 2.0, size=(T, n))
    depth = rng.integers(1, n + 1, size=T)
    A, b2, R2 = 0.2, 0.9, 10.0
    s = score_metric(IFTRate(A=A, b2=b2, R2=R2), gain, cost, depth, pad_gain=1.0, pad_cost=1.0)
    N = 400_000  # C tends to 1/(1 + 0.9 e^-8) = 0.9997 past the run: V(N) < 1e-50
    for t in range(T):
        d = int(depth[t])
        g = np.concatenate([gain[t, :d], np.ones(N - d)])
        c = np.concatenate([cost[t, :d], np.ones(N - d)])
        C = 1.0 / (1.0 + b2 * np.exp((A - np.cumsum(g) / np.cumsum(c)) * R2))
        V = np.concatenate(([1.0], np.cumprod(C[:-1])))
        assert V[-1] < 1e-50
        assert s.ED[t] == pytest.approx(V.sum(), rel=1e-9)
        assert s.EU[t] == pytest.approx(V @ g / V.sum(), rel=1e-9)
        assert s.ETC[t] == pytest.approx(np.sum(V * (1 - C) * np.cumsum(c)), rel=1e-9)


# --------------------------------------------------------------------------------------------
# regression: nDCG's upper bound used the judged ideal ranking, so an unjudged run scored up to
# 1/SDCG(ideal) (4.54 for nDCG@10 with one relevant document judged). The upper bound now
# ranks the unjudged documents (and padded ranks within k) at the maximum gain in the ideal
# too. Hand computation, qrels d1=1, d2=0.5, d9=1; run d2, d3 (unjudged), d1:
#   nDCG@2 lower 0.5/(1 + 1/log2 3); upper (0.5 + 1/log2 3)/(1 + 1/log2 3)
#   nDCG@10 lower (0.5 + 1/2)/(1 + 1/log2 3 + 0.5/2); upper (S10 - 0.5)/S10, S10 = sum 1/log2(i+1)


def test_ndcg_upper_bound_is_an_ndcg():
    qrels = [("t", "d1", 1.0), ("t", "d2", 0.5), ("t", "d9", 1.0)]
    run = [("t", "d2", 3.0), ("t", "d3", 2.0), ("t", "d1", 1.0)]
    res = _evaluate("nDCG_cwl@2", qrels, run, residuals=True)
    d2 = 1 + 1 / math.log2(3)
    assert res.values[0, 0] == pytest.approx(0.5 / d2, rel=1e-12)
    assert res.values[0, 0] + res.columns["ResEU"][0, 0] == pytest.approx(
        (0.5 + 1 / math.log2(3)) / d2, rel=1e-12
    )
    res = _evaluate("nDCG_cwl@10", qrels, run, residuals=True)
    s10 = sum(1 / math.log2(i + 1) for i in range(1, 11))
    assert res.values[0, 0] == pytest.approx(1.0 / (d2 + 0.25), rel=1e-12)
    assert res.values[0, 0] + res.columns["ResEU"][0, 0] == pytest.approx(
        (s10 - 0.5) / s10, rel=1e-12
    )
    # nothing judged relevant in the run, one relevant document judged: the upper bound is 1
    res = _evaluate(
        "nDCG_cwl@10", [("t", "d1", 1.0)], [("t", "d2", 2.0), ("t", "d3", 1.0)], residuals=True
    )
    assert res.values[0, 0] == 0 and res.columns["ResEU"][0, 0] == pytest.approx(1.0, rel=1e-12)


def test_line_and_topic_order_in_the_files_do_not_matter(tmp_path):
    """The same collection written three ways (sorted, shuffled, topics interleaved and
    reversed) gives the same numbers for every metric, residuals included."""
    rng = np.random.default_rng(8)
    qrels, run = [], []
    for t in ("q10", "q2", "q1", "zz"):
        n = int(rng.integers(1, 40))
        scores = np.round(rng.normal(size=n), 1)  # ties
        for j in range(n):
            doc = f"{t}-d{j}"
            run.append(f"{t} Q0 {doc} {j + 1} {scores[j]} sys")
            if t != "zz" and rng.random() < 0.7:
                qrels.append(f"{t} 0 {doc} {rng.choice([0, 0.25, 0.5, 1])}")
    paths = []
    for k, order in enumerate((np.arange, rng.permutation, lambda n: np.arange(n)[::-1])):
        q, r = tmp_path / f"q{k}", tmp_path / f"r{k}"
        q.write_text("\n".join(qrels[i] for i in order(len(qrels))) + "\n")
        r.write_text("\n".join(run[i] for i in order(len(run))) + "\n")
        paths.append((q, r))
    results = [
        evaluate(q, r, METRICS, residuals=True, topics="run", trec_version=10) for q, r in paths
    ]
    for res in results[1:]:
        assert res.topics == results[0].topics == ["q1", "q10", "q2", "zz"]
        np.testing.assert_array_equal(res.values, results[0].values)
        for c in results[0].columns:
            np.testing.assert_array_equal(res.columns[c], results[0].columns[c])
