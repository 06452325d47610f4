"""``cwlkit.to_ir_measures`` on the intent-aware measures, against ir_measures 0.4.3's own
(its pyndeval provider, ndeval.c's code) on the same qrels and run, and round trips through
``from_ir_measures``. (The other measures' to_ir_measures tests are in
tests/measures/test_ir_measures.py.)"""

from __future__ import annotations

import math

import numpy as np
import pytest

import cwlkit
from cwlkit.measures.ir_measures_bridge import from_ir_measures
from cwlkit.measures.parse import parse_measure

ir_measures = pytest.importorskip("ir_measures")
pd = pytest.importorskip("pandas")
pytest.importorskip("pyndeval")

#: ir_measures' spellings, each cwlkit's name too
SPELLINGS = [
    "alpha_nDCG@20",
    "alpha_nDCG(alpha=0.3)@10",
    "alpha_nDCG(rel=2)@5",
    "alpha_DCG(alpha=0.7)@20",
    "ERR_IA@20",
    "ERR_IA(rel=2)@10",
    "nERR_IA@5",
    "NRBP",
    "NRBP(alpha=0.3,beta=0.8)",
    "nNRBP(beta=0.9)",
    "AP_IA",
    "P_IA@10",
    "StRecall@5",
]


def _case(seed: int = 5):
    """Diversity qrels (an ir_measures frame: iteration = subtopic, rows in subtopic order,
    ndeval's order of summing) and a run without tied scores: 12 topics, 2..6 subtopics,
    labels -1..3, unjudged documents, a topic judged non-relevant only."""
    rng = np.random.default_rng(seed)
    q, r = [], []
    for t in range(1, 13):
        docs = [f"d{t}-{i}" for i in range(40)]
        n = int(rng.integers(2, 7))
        for doc in docs[:30]:
            for s in rng.choice(np.arange(1, n + 1), size=int(rng.integers(1, n + 1))).tolist():
                lab = 0 if t == 7 else int(rng.choice([-1, 0, 0, 1, 1, 2, 3]))
                q.append((str(t), str(s), doc, lab))
        chosen = rng.choice(len(docs), size=int(rng.integers(5, 40)), replace=False)
        r += [(str(t), docs[c], float(len(chosen) - i)) for i, c in enumerate(chosen)]
    q = list({(t, s, d): lab for t, s, d, lab in q}.items())
    q.sort(key=lambda x: int(x[0][1]))
    qrels = pd.DataFrame(
        [(t, d, lab, s) for (t, s, d), lab in q],
        columns=["query_id", "doc_id", "relevance", "iteration"],
    )
    run = pd.DataFrame(r, columns=["query_id", "doc_id", "score"])
    return qrels, run


def _per_topic(m, qrels, run) -> dict[str, float]:
    return {x.query_id: x.value for x in ir_measures.iter_calc([m], qrels, run)}


@pytest.mark.parametrize("spelling", SPELLINGS)
def test_values_are_ir_measures(spelling):
    """Per topic and aggregated, cwlkit's measure inside ir_measures gives ir_measures' own
    values (pyndeval's NaN nNRBP for a topic without relevant subtopics is cwlkit's 0)."""
    qrels, run = _case()
    ours, theirs = cwlkit.to_ir_measures(spelling), ir_measures.parse_measure(spelling)
    assert str(ours) == f"cwlkit:{spelling}"
    got, want = _per_topic(ours, qrels, run), _per_topic(theirs, qrels, run)
    assert set(got) == set(want) and len(want) == 12
    for t, w in want.items():
        assert got[t] == (0.0 if math.isnan(w) else w), (t, got[t], w)
    assert any(v > 0 for v in got.values())
    if not spelling.startswith("nNRBP"):
        # (the same values, added in another order of the topics)
        agg = ir_measures.calc_aggregate([ours], qrels, run)[ours]
        assert agg == pytest.approx(ir_measures.calc_aggregate([theirs], qrels, run)[theirs])


@pytest.mark.parametrize("spelling", SPELLINGS)
def test_round_trips(spelling):
    """cwlkit -> ir_measures -> cwlkit gives the measure back; ir_measures' own object maps to
    the same cwlkit measure, which computes what ir_measures' does."""
    mine = parse_measure(spelling)
    ours = cwlkit.to_ir_measures(mine)
    assert from_ir_measures(ours) == [mine]
    theirs = from_ir_measures(ir_measures.parse_measure(spelling))
    assert theirs is not None and [m.name for m in theirs] == [mine.name]
    qrels, run = _case(6)
    a = _per_topic(cwlkit.to_ir_measures(theirs[0]), qrels, run)
    b = cwlkit.evaluate(qrels, run, [ir_measures.parse_measure(spelling)], trec_version=10)
    assert a == dict(zip(b.topics, b.values[0].tolist(), strict=True))


def test_qrels_forms_and_options():
    """Qrel records (iteration = subtopic) give the frame's values; Evaluator options pass
    through; qrels without subtopics warn (one subtopic per topic), as ir_measures does."""
    qrels, run = _case()
    records = [ir_measures.Qrel(*row) for row in qrels.itertuples(index=False)]
    m = cwlkit.to_ir_measures("alpha_nDCG@10")
    assert _per_topic(m, records, run) == _per_topic(m, qrels, run)
    deep = cwlkit.to_ir_measures("NRBP", depth=3)
    cut = cwlkit.evaluate(qrels, run, ["NRBP"], depth=3, trec_version=10)
    assert _per_topic(deep, qrels, run) == dict(zip(cut.topics, cut.values[0], strict=True))
    flat = {t: {d: 1 for d in g.doc_id} for t, g in qrels[qrels.relevance > 0].groupby("query_id")}
    with pytest.warns(UserWarning, match="<ir_measures qrels>: every topic has a single subtopic"):
        one = _per_topic(m, flat, run)
    with pytest.warns(UserWarning):  # ir_measures' provider warns on stderr; ours a warning
        want = cwlkit.evaluate(cwlkit.as_qrels(flat), run, ["alpha_nDCG@10"], trec_version=10)
    assert one == dict(zip(want.topics, want.values[0].tolist(), strict=True))
