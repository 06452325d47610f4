"""``cwlkit inst_eval``: --compat against inst_eval.py itself, the default mode against the INST
paper (Tables 1 and 2, its worked residuals) and an independent implementation of the exact
model, and each documented difference between the two (docs/inst.md)."""

from __future__ import annotations

import importlib.util
import math
import random
import subprocess
import sys
import warnings

import pytest
from conftest import DATA, INST_EVAL, plain_runs
from scipy.special import polygamma

pytestmark = pytest.mark.slow  # (the fast tier: pytest -m 'not slow')

PEER = INST_EVAL
WEB = DATA / "web2012"
QRELS = WEB / "qrels.web.151-200.txt"
RUN = plain_runs([WEB / "runs" / "web2012.ql.cata.run.gz"])[0]  # (inst_eval.py reads plain files)

needs_peer = pytest.mark.skipif(not PEER.is_file(), reason="set CWLKIT_INST_EVAL to inst_eval.py")
needs_web = pytest.mark.skipif(not QRELS.is_file(), reason="data/web2012 missing")


# --- helpers ----------------------------------------------------------------------------------


def parse(text: str) -> dict[tuple[str, str], float]:
    """``{(name, topic): value}`` from inst_eval's output."""
    out = {}
    for line in text.splitlines():
        name, topic, value = line.split()
        assert (name, topic) not in out, line
        out[(name, topic)] = float(value)
    return out


def peer(*args) -> str:
    proc = subprocess.run(
        [sys.executable, str(PEER), *map(str, args)], capture_output=True, text=True, check=True
    )
    return proc.stdout


def agree(ours: str, theirs: str, tol: float = 1e-4) -> None:
    a, b = parse(ours), parse(theirs)
    assert a.keys() == b.keys()
    assert list(a) == list(b), "lines in another order"
    for k in a:
        assert math.isclose(a[k], b[k], abs_tol=tol + 1e-9), (k, a[k], b[k])


def write(tmp_path, name: str, text: str):
    p = tmp_path / name
    p.write_text(text)
    return p


def inst_reference(gains: list[float], T: float, pad: float) -> tuple[float, float]:
    """INST's EU and ED on ``gains``, every rank past them at gain ``pad`` (0 or 1), summed
    rank by rank in plain Python and closed by the exact tail (trigamma for pad 0, geometric
    for pad 1): an implementation independent of cwlkit's engine. C = (max(a-1,0)/a)^2."""
    v, sv, svg, cg = 1.0, 0.0, 0.0, 0.0
    for i, g in enumerate(gains, 1):
        cg += g
        sv += v
        svg += v * g
        a = i + 2 * T - cg
        v *= (max(a - 1, 0.0) / a) ** 2
    n = len(gains)
    if v == 0.0:
        return svg / sv, sv
    a = n + 2 * T - cg  # a at rank n; past n, a grows by 1 - pad per rank
    if pad == 0.0:
        # V(n+1+m) = V(n+1) (a / (a + m))^2 -> sum = V(n+1) a^2 psi_1(a)
        rest = v * a * a * float(polygamma(1, a))
    else:
        c = (max(a - 1, 0.0) / a) ** 2
        rest = v / (1.0 - c)
    return (svg + pad * rest) / (sv + rest), sv + rest


# --- --compat against inst_eval.py ------------------------------------------------------------


def generated_case(seed: int, *, n_topics=4, shortest_first=False, labels=(-2, 0, 1, 2, 3)):
    """Random qrels and run: graded and negative labels, unjudged documents, tied scores, a
    topic's lines spread over the file, a run-only and a qrels-only topic. Every ranking is at
    least as long as the first topic's (inst_eval.py indexes past a shorter one)."""
    rng = random.Random(seed)
    topics = [f"{100 + i}" for i in range(n_topics)]
    qrels = []
    for t in [*topics, "900"]:
        for d in rng.sample(range(40), rng.randint(1, 25)):
            qrels.append(f"{t} 0 d{d} {rng.choice(labels)}")
    lines = []
    lengths = sorted(rng.randint(3, 30) for _ in topics)
    if not shortest_first:
        rng.shuffle(lengths)
    for t, n in zip([*topics, "800"], [*lengths, 5], strict=True):
        score = 50.0
        for k, d in enumerate(rng.sample(range(40), n)):
            if rng.random() > 0.3:
                score -= rng.choice([0.25, 1.0])
            lines.append(f"{t} Q0 d{d} {k + 1} {score:g} tag")
    # spread lines of each topic over the file, keeping each topic's own order
    order = sorted(range(len(lines)), key=lambda i: (rng.random(), i))
    by_topic: dict[str, list[str]] = {}
    for ln in lines:
        by_topic.setdefault(ln.split()[0], []).append(ln)
    out, pos = [], {t: 0 for t in by_topic}
    for i in order:
        t = lines[i].split()[0]
        out.append(by_topic[t][pos[t]])
        pos[t] += 1
    return "\n".join(qrels) + "\n", "\n".join(out) + "\n", min(lengths)


@needs_peer
@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("T", [1, 2, 5])
def test_compat_matches_inst_eval_constant_T(cli, tmp_path, seed, T):
    q, r, shortest = generated_case(seed)
    qp, rp = write(tmp_path, "q", q), write(tmp_path, "r", r)
    n = max(1, shortest - seed % 3)
    for extra in ([], ["-q"]):
        rc, out, err = cli("inst_eval", qp, rp, "-T", T, "-n", n, "--compat", *extra)
        assert rc == 0, err
        agree(out, peer(qp, rp, "-T", T, "-n", n, *extra))


@needs_peer
@pytest.mark.parametrize("seed", range(4))
def test_compat_matches_inst_eval_per_topic_T(cli, tmp_path, seed):
    # T per topic, one T > 5 (inst_eval.py's N = 2*10^5), a topic without T (skipped),
    # -c with the qrels-only topic given a T (it scores 0, as inst_eval.py says)
    q, r, shortest = generated_case(seed, n_topics=3)
    qp, rp = write(tmp_path, "q", q), write(tmp_path, "r", r)
    tp = write(tmp_path, "t", "100\t1\n101\t7\n900\t3\n800\t2\n")
    for extra in (["-q"], ["-q", "-c"]):
        args = ["-tpq", tp, "-n", shortest, *extra]
        rc, out, err = cli("inst_eval", qp, rp, *args, "--compat")
        assert rc == 0, err
        assert "no T for topic 102" in err
        agree(out, peer(qp, rp, *args))


@needs_peer
@pytest.mark.parametrize("seed", range(4))
def test_compat_without_depth_uses_the_first_topics_length(cli, tmp_path, seed):
    q, r, _ = generated_case(seed, shortest_first=True)
    qp, rp = write(tmp_path, "q", q), write(tmp_path, "r", r)
    rc, out, err = cli("inst_eval", qp, rp, "-T", 2, "-q", "--compat")
    assert rc == 0, err
    agree(out, peer(qp, rp, "-T", 2, "-q"))


@needs_peer
def test_compat_first_topic_missing_from_run_makes_depth_zero(cli, tmp_path):
    # -c: the first qrels topic has no run; inst_eval.py takes its length, 0, as n for every
    # topic, so every other topic scores 0 / 1
    q, r, _ = generated_case(3)
    q = "001 0 d1 1\n" + q
    qp, rp = write(tmp_path, "q", q), write(tmp_path, "r", r)
    tp = write(tmp_path, "t", "001\t1\n100\t2\n101\t2\n102\t3\n103\t1\n")
    rc, out, err = cli("inst_eval", qp, rp, "-tpq", tp, "-c", "-q", "--compat")
    assert rc == 0, err
    agree(out, peer(qp, rp, "-tpq", tp, "-c", "-q"))
    got = parse(out)
    assert got[("inst_min", "100")] == 0.0 and got[("inst_max", "100")] == 1.0


@needs_peer
def test_compat_label_minus_max_is_unjudged(cli, tmp_path):
    # largest label 2: a spam label -2 is a gain of -1.0, inst_eval.py's marker of unjudged
    q = write(tmp_path, "q", "1 0 a 2\n1 0 b -2\n1 0 c 1\n1 0 d -1\n")
    r = write(tmp_path, "r", "1 Q0 b 1 4 x\n1 Q0 a 2 3 x\n1 Q0 d 3 2 x\n1 Q0 c 4 1 x\n")
    rc, out, err = cli("inst_eval", q, r, "-T", 1, "-q", "--compat")
    assert rc == 0, err
    agree(out, peer(q, r, "-T", 1, "-q"))


@needs_peer
@needs_web
@pytest.mark.parametrize("T,n,topics", [(2, 1000, None), (3, 20, None), (7, 100, 4)])
def test_compat_matches_inst_eval_on_web2012(cli, tmp_path, T, n, topics):
    # linear gains (label / 4; inst_eval.py keeps the spam label -2 as -0.5); T = 7 (its
    # N = 2*10^5 is slow in inst_eval.py) on the run's first topics only
    run = RUN
    if topics is not None:
        lines = RUN.read_text().splitlines(keepends=True)
        keep = sorted({ln.split()[0] for ln in lines})[:topics]
        run = write(tmp_path, "run", "".join(ln for ln in lines if ln.split()[0] in keep))
    rc, out, err = cli("inst_eval", QRELS, run, "-T", T, "-n", n, "-q", "--compat")
    assert rc == 0, err
    agree(out, peer(QRELS, run, "-T", T, "-n", n, "-q"))


def _load_peer():
    spec = importlib.util.spec_from_file_location("inst_eval_peer", PEER)
    mod = importlib.util.module_from_spec(spec)
    with warnings.catch_warnings():  # its docstring has an invalid escape sequence
        warnings.simplefilter("ignore", DeprecationWarning)
        spec.loader.exec_module(mod)
    return mod


@needs_peer
@needs_web
def test_compat_raw_floats_on_web2012():
    # the API's compat mode against inst_eval.py's own functions, unrounded: 1e-12
    import cwlkit

    mod = _load_peer()
    qrels = mod.read_trec_qrels(str(QRELS))
    results = mod.read_trec_results(str(RUN))
    top = mod.find_max_graded_label(qrels)
    ev = cwlkit.Evaluator(
        QRELS, ["INST(T=3)"], compat="inst_eval", compat_depth=50, order="file", residuals=True
    )
    res = ev.evaluate(RUN)
    lo = res.per_topic("INST(T=3)")
    rs = res.per_topic("INST(T=3)", "ResEU")
    for t in res.topics:
        gains = mod.calc_ranked_gains(results[t], qrels[t], top)
        want_lo = mod.inst_algorithm(3, gains, 50, 0.0)
        want_hi = mod.inst_algorithm(3, gains, 50, 1.0)
        assert lo[t] == pytest.approx(want_lo, abs=1e-12)
        assert lo[t] + rs[t] == pytest.approx(want_hi, abs=1e-12)


# --- the default mode: the paper's numbers -------------------------------------------------

# INST paper, Table 1: T = 2, ten gains; labels / 10 are the gains
TABLE1_GAINS = [0, 1.0, 0.5, 0, 0, 1.0, 0, 0.2, 0, 1.0]


def _files(tmp_path, gains_by_topic: dict[str, list[float | None]], top: int = 10):
    """qrels and run with these gains (None: unjudged), labels = gain * top, scores falling."""
    q, r = [f"zz 0 top {top}\n"], []
    for t, gains in gains_by_topic.items():
        for i, g in enumerate(gains):
            if g is not None:
                q.append(f"{t} 0 d{i} {round(g * top)}\n")
            r.append(f"{t} Q0 d{i} {i + 1} {100 - i} x\n")
    return write(tmp_path, "q", "".join(q)), write(tmp_path, "r", "".join(r))


def test_default_paper_table1(cli, tmp_path):
    q, r = _files(tmp_path, {"1": TABLE1_GAINS})
    rc, out, err = cli("inst_eval", q, r, "-T", 2)
    assert rc == 0, err
    got = parse(out)
    # "0.306 <= INST <= 0.406", "a residual of 0.100"
    assert round(got[("inst_min", "all")], 3) == 0.306
    assert round(got[("inst_max", "all")], 3) == 0.406
    assert round(got[("inst_res", "all")], 3) == 0.100


@pytest.mark.parametrize("gain,residual", [(0.0, 0.150), (1.0, 0.006)])
def test_default_paper_residuals_of_ten_documents(cli, tmp_path, gain, residual):
    # "a ranking of ten r_i = 0 values with T = 2 gives a residual of 0.150 ... ten r_i = 1
    # values ... a residual of just 0.006"
    q, r = _files(tmp_path, {"1": [gain] * 10})
    rc, out, _ = cli("inst_eval", q, r, "-T", 2)
    assert round(parse(out)[("inst_res", "all")], 3) == residual


def test_default_against_independent_reference(cli, tmp_path):
    rng = random.Random(7)
    topics = {}
    for t in range(6):
        n = rng.randint(1, 15)
        topics[f"t{t}"] = [rng.choice([None, 0.0, 0.3, 0.5, 1.0]) for _ in range(n)]
    q, r = _files(tmp_path, topics)
    for T in (0.5, 1.0, 2.5, 10.0):
        rc, out, err = cli("inst_eval", q, r, "-T", T, "-q")
        assert rc == 0, err
        got = parse(out)
        for t, gains in topics.items():
            lo, _ = inst_reference([0.0 if g is None else g for g in gains], T, 0.0)
            hi, _ = inst_reference([1.0 if g is None else g for g in gains], T, 1.0)
            assert got[("inst_min", t)] == pytest.approx(lo, abs=5e-5)
            assert got[("inst_max", t)] == pytest.approx(hi, abs=5e-5)


def test_default_depth_cuts_the_ranking(cli, tmp_path):
    # -n 10: documents 11 and 12 (relevant) count as not provided
    q, r = _files(tmp_path, {"1": [*TABLE1_GAINS, 1.0, 1.0]})
    rc, out, _ = cli("inst_eval", q, r, "-T", 2, "-n", 10, "-q")
    got = parse(out)
    assert got[("num_ret", "1")] == 10
    lo, _ = inst_reference(TABLE1_GAINS, 2, 0.0)
    hi, _ = inst_reference(TABLE1_GAINS, 2, 1.0)
    assert got[("inst_min", "1")] == pytest.approx(lo, abs=5e-5)
    assert got[("inst_max", "1")] == pytest.approx(hi, abs=5e-5)


def test_default_per_topic_T(cli, tmp_path):
    q, r = _files(tmp_path, {"1": TABLE1_GAINS, "2": [0.0, 1.0, None, 0.5]})
    tp = write(tmp_path, "t", "1\t2\n2\t0.75\n")
    rc, out, err = cli("inst_eval", q, r, "-tpq", tp, "-q")
    assert rc == 0, err
    got = parse(out)
    for t, T in (("1", 2), ("2", 0.75)):
        _, one = cli("inst_eval", q, r, "-T", T, "-q")[:2]
        alone = parse(one)
        for name in ("inst_min", "inst_max", "inst_res"):
            assert got[(name, t)] == alone[(name, t)]


def test_default_missing_T_is_an_error(cli, tmp_path):
    q, r = _files(tmp_path, {"1": [1.0], "2": [0.0]})
    tp = write(tmp_path, "t", "1\t2\n")
    rc, out, err = cli("inst_eval", q, r, "-tpq", tp)
    assert rc == 2 and out == ""
    assert "no T for topic '2'" in err


def test_default_ties_average(cli, tmp_path):
    # d0 (gain 1) and d1 (gain 0) tie: docno descending puts d1 first; --ties average gives
    # both 0.5
    q = write(tmp_path, "q", "1 0 d0 1\n1 0 d1 0\n")
    r = write(tmp_path, "r", "1 Q0 d0 1 5 x\n1 Q0 d1 2 5 x\n")
    for ties, gains in (("none", [0.0, 1.0]), ("average", [0.5, 0.5])):
        rc, out, _ = cli("inst_eval", q, r, "-T", 1, "--ties", ties)
        got = parse(out)
        assert got[("inst_min", "all")] == pytest.approx(inst_reference(gains, 1, 0.0)[0], abs=5e-5)


def test_default_complete_gives_missing_topics_the_full_band(cli, tmp_path):
    # -c: a qrels topic the run lacks has nothing judged in its ranking: 0 <= INST <= 1
    q, r = _files(tmp_path, {"1": [1.0]})
    q.write_text(q.read_text() + "2 0 x 1\n")
    rc, out, _ = cli("inst_eval", q, r, "-T", 1, "-q", "-c")
    got = parse(out)
    assert (got[("inst_min", "2")], got[("inst_max", "2")], got[("inst_res", "2")]) == (0, 1, 1)
    assert got[("num_q", "all")] == 3  # 1, 2 and zz (the qrels' top label)


def test_default_small_T_all_relevant(cli, tmp_path):
    # T <= 1/4, every document relevant: the user stops at the first one (INST = 1 exactly,
    # no residual); Equation 1 as written would have C = 1 (T = 1/4) or C > 1 there
    q, r = _files(tmp_path, {"1": [1.0] * 5})
    for T in (0.1, 0.25, 0.4):
        rc, out, _ = cli("inst_eval", q, r, "-T", T)
        got = parse(out)
        assert (got[("inst_min", "all")], got[("inst_max", "all")]) == (1, 1)


@pytest.mark.parametrize("flag", [[], ["--compat"]])
def test_output_layout(cli, tmp_path, flag):
    q, r = _files(tmp_path, {"1": [1.0, 0.0]})
    rc, out, _ = cli("inst_eval", q, r, "-T", 1, "-q", *flag)
    names = [ln.split("\t")[0] for ln in out.splitlines()]
    assert names == [
        *("num_ret", "num_rel", "num_rel_ret", "inst_min", "inst_max", "inst_res"),
        *("num_q", "num_ret", "num_rel", "num_rel_ret", "inst_min", "inst_max", "inst_res"),
    ]
    assert out.splitlines()[0] == "num_ret\t\t1\t2"
    assert out.splitlines()[2] == "num_rel_ret\t1\t1"


# --- the documented differences, each with its case (docs/inst.md) ------------------------


def _both(cli, tmp_path, q: str, r: str, *args):
    qp, rp = write(tmp_path, "q", q), write(tmp_path, "r", r)
    a = cli("inst_eval", qp, rp, *args)
    b = cli("inst_eval", qp, rp, *args, "--compat")
    assert a[0] == 0 and b[0] == 0, (a[2], b[2])
    return parse(a[1]), parse(b[1]), qp, rp


@needs_peer
def test_difference_order(cli, tmp_path):
    # the file lists d1 (score 1) before d2 (score 2): the paper ranks by score, inst_eval.py
    # by file order
    ours, compat, qp, rp = _both(
        cli, tmp_path, "1 0 d1 0\n1 0 d2 1\n", "1 Q0 d1 1 1 x\n1 Q0 d2 2 2 x\n", "-T", 1
    )
    agree(peer(qp, rp, "-T", 1), "\n".join(_lines(compat)))
    assert round(ours[("inst_min", "all")], 4) == round(inst_reference([1, 0], 1, 0)[0], 4)
    assert compat[("inst_min", "all")] == pytest.approx(inst_reference([0, 1], 1, 0)[0], abs=1e-3)
    assert compat[("inst_min", "all")] < ours[("inst_min", "all")]


def _lines(d):
    return [f"{k[0]} {k[1]} {v}" for k, v in d.items()]


@needs_peer
def test_difference_finite_N(cli, tmp_path):
    # four relevant documents, T = 5: inst_eval.py normalises W over ranks 1 .. 19999 only,
    # dropping about 4.8e-4 of the weight, so inst_min is 0.3985 instead of 0.3984
    q = "".join(f"1 0 d{i} 1\n" for i in range(4))
    r = "".join(f"1 Q0 d{i} {i + 1} {9 - i} x\n" for i in range(4))
    ours, compat, qp, rp = _both(cli, tmp_path, q, r, "-T", 5)
    agree(peer(qp, rp, "-T", 5), "\n".join(_lines(compat)))
    assert ours[("inst_min", "all")] == round(inst_reference([1.0] * 4, 5, 0.0)[0], 4) == 0.3984
    assert compat[("inst_min", "all")] == 0.3985


@needs_peer
def test_difference_negative_labels(cli, tmp_path):
    # a spam label -2 (top label 4): gain 0 in the paper's [0, 1]; inst_eval.py: -0.5
    ours, compat, qp, rp = _both(
        cli, tmp_path, "1 0 a -2\n1 0 b 4\n", "1 Q0 a 1 2 x\n1 Q0 b 2 1 x\n", "-T", 1
    )
    agree(peer(qp, rp, "-T", 1), "\n".join(_lines(compat)))
    assert ours[("inst_min", "all")] == round(inst_reference([0, 1], 1, 0)[0], 4)
    assert compat[("inst_min", "all")] < ours[("inst_min", "all")]


@needs_peer
def test_difference_first_topic_depth(cli, tmp_path):
    # no -n: the paper's n is each ranking's length; inst_eval.py uses the first topic's
    # length (1) for topic 2 too, so topic 2's second document (relevant) is not counted
    q = "1 0 a 1\n2 0 b 0\n2 0 c 1\n"
    r = "1 Q0 a 1 1 x\n2 Q0 b 1 2 x\n2 Q0 c 2 1 x\n"
    ours, compat, qp, rp = _both(cli, tmp_path, q, r, "-T", 1, "-q")
    agree(peer(qp, rp, "-T", 1, "-q"), "\n".join(_lines(compat)))
    assert ours[("inst_min", "2")] == round(inst_reference([0, 1], 1, 0)[0], 4)
    assert compat[("inst_min", "2")] == 0.0


@needs_peer
def test_difference_counts_and_num_q(cli, tmp_path):
    # counts: trec_eval's sums within the depth vs inst_eval.py's truncated means over whole
    # rankings; num_q: topics evaluated vs the run's topics (topic 3 has no qrels)
    q = "1 0 a 1\n1 0 b 1\n2 0 c 1\n"
    r = "1 Q0 a 1 2 x\n1 Q0 b 2 1 x\n2 Q0 c 1 1 x\n3 Q0 d 1 1 x\n"
    ours, compat, qp, rp = _both(cli, tmp_path, q, r, "-T", 1, "-n", 1)
    agree(peer(qp, rp, "-T", 1, "-n", 1), "\n".join(_lines(compat)))
    assert (ours[("num_q", "all")], ours[("num_ret", "all")]) == (2, 2)
    assert (compat[("num_q", "all")], compat[("num_ret", "all")]) == (3, 1)


@needs_peer
def test_difference_empty_ranking_under_c(cli, tmp_path):
    # -c with a qrels topic the run lacks: inst_eval.py scores it 0 / 0; the paper's bounds
    # with nothing known are 0 / 1
    q = "1 0 a 1\n2 0 b 1\n"
    r = "1 Q0 a 1 1 x\n"
    t = "1\t1\n2\t1\n"
    tp = write(tmp_path, "t", t)
    ours, compat, qp, rp = _both(cli, tmp_path, q, r, "-tpq", tp, "-c", "-q")
    agree(peer(qp, rp, "-tpq", tp, "-c", "-q"), "\n".join(_lines(compat)))
    assert (ours[("inst_min", "2")], ours[("inst_max", "2")]) == (0, 1)
    assert (compat[("inst_min", "2")], compat[("inst_max", "2")]) == (0, 0)


# --- Equation 7 / Table 2 ------------------------------------------------------------------


def test_judging_depth_option_reproduces_table2(cli):
    rc, out, err = cli("inst_eval", "-T", 3, "--judging-depth", "0.05", "--judging-depth", "0.01")
    assert rc == 0, err
    rows = [ln.split("\t") for ln in out.splitlines()]
    assert rows[0] == ["topic", "T", "expected_depth", "delta", "n", "beyond"]
    assert [(r[2], r[4]) for r in rows[1:]] == [("6.5276", "105"), ("6.5276", "547")]
    assert [round(float(r[5]) * 100, 2) for r in rows[1:]] == [0.29, 0.01]


def test_judging_depth_per_topic(cli, tmp_path):
    tp = write(tmp_path, "t", "a\t1\nb\t10\n")
    rc, out, err = cli("inst_eval", "-tpq", tp, "--judging-depth", "0.05")
    assert rc == 0, err
    rows = [ln.split("\t") for ln in out.splitlines()[1:]]
    assert [(r[0], r[4]) for r in rows] == [("a", "30"), ("b", "371")]


def test_errors(cli, tmp_path):
    q, r = _files(tmp_path, {"1": [1.0]})
    rc, _, err = cli("inst_eval", q, r)  # (required, as inst_eval.py's; the usage says so)
    assert rc == 2 and "-T/--over_write_T/--T is required" in err
    from cwlkit.cli.inst_eval import build_parser

    assert "(-tpq T_FILE | -T T)" in build_parser().format_usage()
    assert "-n must be a positive" in cli("inst_eval", q, r, "-T", 1, "-n", -1)[2]
    assert "-T must be a positive" in cli("inst_eval", q, r, "-T", 0)[2]
    bad = write(tmp_path, "bad", "1 2 3\n")
    rc, _, err = cli("inst_eval", q, r, "-tpq", bad)
    assert rc == 2 and "bad:1: expected 2 fields" in err
    rc, _, err = cli("inst_eval", q, r, "-T", 1, "--compat", "--ties", "average")
    assert rc == 2 and "--ties" in err


@needs_web
@pytest.mark.parametrize("flag", [[], ["--compat"]])
def test_lean_imports(flag):
    code = (
        "import io, sys, contextlib\n"
        "from cwlkit.cli.main import main\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        "    rc = main(sys.argv[1:])\n"
        "assert rc == 0, rc\n"
        "print('pandas' in sys.modules)\n"
    )
    args = ["inst_eval", QRELS, RUN, "-T", "2", "-n", "20", *flag]
    got = subprocess.run(
        [sys.executable, "-c", code, *map(str, args)], capture_output=True, text=True, check=True
    )
    assert got.stdout.strip() == "False", got.stderr


def test_help(capsys):
    from cwlkit.cli.main import main

    with pytest.raises(SystemExit) as exc:
        main(["inst_eval", "--help"])
    assert exc.value.code == 0
    out = capsys.readouterr().out
    assert out.startswith("usage: cwlkit inst_eval") and "--compat" in out
