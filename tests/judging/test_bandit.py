"""Bandit pooling (Losada, Parapar and Barreiro 2016): hand traces of MaxMean and
move-to-front on small examples following the papers' description, the oracle as a function
(called once per judged document, in judging order), determinism, and on TREC Web 2012: every
document of the depth-k pool judged once, and simulated judging reaching tau 1."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import DATA

import cwlkit
from cwlkit.errors import ParamError
from cwlkit.judging import pool, simulate_judging

W = DATA / "web2012"
RUNS = sorted(str(p) for p in (W / "runs").glob("*.run.gz"))
QRELS = W / "qrels.web.151-200.txt"


def _run(topic_docs):
    return cwlkit.Run.from_records(
        [(t, d, float(100 - i)) for t, docs in topic_docs.items() for i, d in enumerate(docs)]
    )


# one topic: r0 = A B C D, r1 = E A F G, r2 = H I B J; A, B, E, F relevant
RUNS3 = [_run({"q": list("ABCD")}), _run({"q": list("EAFG")}), _run({"q": list("HIBJ")})]
REL = set("ABEF")
QR = cwlkit.Qrels.from_records([("q", d, int(d in REL)) for d in "ABCDEFGHIJ"])


def test_mtf_hand_trace():
    """Priorities start at 0, r0 first (ties to the first run). r0: A rel, B rel, C non-rel
    (r0 -> -1); r1 (the largest priority): E rel, A already judged (skipped), F rel, G non-rel
    (r1 -> -1); r2: H non-rel (r2 -> -1); all at -1, r0: D non-rel (r0 -> -2); r1 is
    exhausted, r2: I non-rel (-2); r0 exhausted, r2: B judged, J non-rel."""
    assert pool(RUNS3, "mtf", qrels=QR).to_dict() == {"q": list("ABCEFGHDIJ")}


def test_maxmean_hand_trace():
    """Posterior means (r + 1) / (n + 2), all 1/2 at first, r0 first: A rel (2/3), B rel
    (3/4), C non-rel (3/5), D non-rel (1/2: tied with r1 and r2, r0 is first but exhausted);
    r1: E rel (2/3), A skipped, F rel (3/4), G non-rel (3/5), exhausted; r2: H, I, (B), J."""
    assert pool(RUNS3, "maxmean", qrels=QR).to_dict() == {"q": list("ABCDEFGHIJ")}


def test_the_two_policies_differ_by_hand():
    """r0 = a b c d e, r1 = f g h i j; relevant: a, c, f, g, h.
    mtf: a (rel, stay), b (non-rel: r0 -> -1), r1: f g h (rel), i (non-rel: r1 -> -1),
    r0: c (rel), d (-2), r1: j (-2), r0: e.
    maxmean: a (r0 2/3), b (r0 1/2), c (r0 3/5), d (r0 1/2, tied with r1's 1/2: r0),
    e (r0 3/7 < 1/2), then r1: f g h i j.
    A second topic, z: r0 = z1 z2 z3, r1 = z3 z4; z1 labelled 1, z4 2. With rel=1: z1 (rel,
    stay), z2 (non-rel: r0 -> -1), r1: z3 (non-rel: -1), r0 (first of the tied) has only z3
    left, judged: r1: z4. With rel=2: z1 (non-rel: r0 -> -1), r1: z3 (-1), r0: z2 (-2), r1:
    z4. Budgets a topic as {topic: n}."""
    runs = [
        _run({"q": list("abcde"), "z": ["z1", "z2", "z3"]}),
        _run({"q": list("fghij"), "z": ["z3", "z4"]}),
    ]
    qr = cwlkit.Qrels.from_records(
        [("q", d, int(d in "acfgh")) for d in "abcdefghij"] + [("z", "z1", 1), ("z", "z4", 2)]
    )
    assert pool(runs, "mtf", qrels=qr).to_dict()["q"] == list("abfghicdje")
    assert pool(runs, "maxmean", qrels=qr).to_dict()["q"] == list("abcdefghij")
    got = pool(runs, "mtf", qrels=qr, depth={"q": 3, "z": 2})
    assert got.to_dict() == {"q": list("abf"), "z": ["z1", "z2"]}
    assert got.priority.tolist() == [-1.0, -2.0, -3.0, -1.0, -2.0]
    assert pool(runs, "mtf", qrels=qr).to_dict()["z"] == ["z1", "z2", "z3", "z4"]
    assert pool(runs, "mtf", qrels=qr, rel=2).to_dict()["z"] == ["z1", "z3", "z2", "z4"]


def test_the_oracle_as_a_function_is_asked_once_per_judgement():
    asked = []

    def judge(topic, doc):
        asked.append((topic, doc))
        return 1 if doc in REL else 0

    got = pool(RUNS3, "mtf", judge=judge, depth=6).to_dict()
    assert got == {"q": list("ABCEFG")}
    assert asked == [("q", d) for d in "ABCEFG"]


def test_deterministic_and_the_whole_depth_pool_judged_once():
    a = pool(RUNS, "maxmean", qrels=QRELS, pool_depth=20)
    b = pool(RUNS, "maxmean", qrels=QRELS, pool_depth=20)
    assert a.to_dict() == b.to_dict()
    depth = pool(RUNS, "depth", depth=20).to_dict()
    for strategy in ("maxmean", "mtf"):
        got = pool(RUNS, strategy, qrels=QRELS, pool_depth=20).to_dict()
        assert set(got) == set(depth)
        for t, docs in got.items():
            assert len(docs) == len(set(docs)) and set(docs) == set(depth[t])
    # the first judgement of each topic is the first run's top document (ties to run 1)
    top1 = pool(RUNS[:1], "depth", depth=1).to_dict()
    first = {t: d[:1] for t, d in pool(RUNS, "mtf", qrels=QRELS, pool_depth=20).to_dict().items()}
    assert first == top1


def test_simulated_bandit_judging_reaches_tau_one():
    sim = simulate_judging(QRELS, RUNS[:4], "maxmean", "P@10", [5, 10**6], pool_depth=10)
    last = sim.to_records()[-1]
    assert last["tau"] == pytest.approx(1.0) and last["tau_ap"] == pytest.approx(1.0)
    assert last["judged"] == len(pool(RUNS[:4], "depth", depth=10))


def test_errors():
    with pytest.raises(ParamError, match="one oracle"):
        pool(RUNS3, "mtf")
    with pytest.raises(ParamError, match="one oracle"):
        pool(RUNS3, "mtf", qrels=QR, judge=lambda t, d: 0)
    with pytest.raises(ParamError, match="topic by topic"):
        pool(RUNS3, "maxmean", qrels=QR, budget=3)
    with pytest.raises(ParamError, match="pool_depth"):
        pool(RUNS3, "maxmean", qrels=QR, pool_depth=0)
    assert Path(RUNS[0]).exists()
