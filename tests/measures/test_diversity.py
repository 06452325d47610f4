"""The intent-aware measures (ndeval's) against pyndeval, ir_measures and hand computations.

* Hand-checked examples: every formula on a small topic worked out with fractions
  (pyndeval's README example, whose rounded values are also checked), the greedy ideal
  ranking's tie rule, ndeval's unnormalised rank 1, a topic without relevant subtopics.
* pyndeval (ndeval.c's code behind a Python binding) on generated intent-aware cases: up to
  10 subtopics with sparse numbers, graded and negative labels, topics with only non-relevant
  judgements, qrels-only and run-only topics, unjudged documents, alpha and beta across
  [0, 1], ``rel`` 1 and 2, every cutoff 1..20. Values must be the same doubles.
* ir_measures (its pyndeval provider) on ir_measures measure objects.
* The API: diversity qrels from every input form give one result; ordinary qrels raise;
  ties follow the batch's order; topic order and topic grouping change nothing.
"""

from __future__ import annotations

import gzip
import math
from collections import namedtuple

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

import cwlkit
from cwlkit.errors import CwlkitError, FormatError, InputError, ParamError
from cwlkit.io.diversity import DiversityQrels, as_diversity_qrels, read_diversity_qrels
from cwlkit.io.trec import Qrels, Run
from cwlkit.measures import diversity as dv
from cwlkit.measures.parse import parse_measure

pyndeval = pytest.importorskip("pyndeval")

# ---- a small topic worked by hand -------------------------------------------------------

# pyndeval's README example: subtopics a, b, c; the run A, D, E (unjudged), B; C not retrieved
README_QRELS = [("0", "1", "A", 1), ("0", "2", "B", 1), ("0", "2", "D", 1), ("0", "3", "C", 1)]
README_RUN = [("0", "A", 9.3), ("0", "D", 8.4), ("0", "E", 8.1), ("0", "B", 7.6)]
# the README's values, truncated to 4 decimals
README_VALUES = {
    "ERR-IA@5": 0.3933,
    "ERR-IA@10": 0.3907,
    "ERR-IA@20": 0.3907,
    "nERR-IA@5": 0.8297,
    "nERR-IA@10": 0.8297,
    "nERR-IA@20": 0.8297,
    "alpha-DCG@5": 0.4052,
    "alpha-DCG@10": 0.3998,
    "alpha-DCG@20": 0.3997,
    "alpha-nDCG@5": 0.7868,
    "alpha-nDCG@10": 0.7868,
    "alpha-nDCG@20": 0.7868,
    "NRBP": 0.3906,
    "nNRBP": 0.8620,
    "MAP-IA": 0.5000,
    "P-IA@5": 0.2000,
    "P-IA@10": 0.1000,
    "P-IA@20": 0.0500,
    "strec@5": 0.6666,
    "strec@10": 0.6666,
    "strec@20": 0.6666,
}


def _values(qrels, run, measures, **options):
    res = cwlkit.evaluate(as_diversity_qrels(qrels), run, measures, **options)
    return dict(zip(res.measures, res.values[:, 0].tolist(), strict=True))


def _log2(x: float) -> float:
    return math.log(x) / math.log(2)


def test_readme_example_by_hand():
    """Every formula on pyndeval's README topic, worked out by hand (alpha = beta = 1/2).

    Gains g(i): A (subtopic 1, new) 1; D (subtopic 2, new) 1; E unjudged 0; B (subtopic 2,
    seen once) 1/2. Greedy ideal: all four score 1, the greatest docno D first; then A and C
    score 1, C first; then A; then B (1/2): g* = 1, 1, 1, 1/2. S = 3.
    """
    names = [
        "ERR_IA@5",
        "nERR_IA@5",
        "alpha_DCG@5",
        "alpha_nDCG@5",
        "NRBP",
        "nNRBP",
        "AP_IA",
        "P_IA@5",
        "P_IA@20",
        "StRecall@5",
        "ERR_IA@1",
        "alpha_DCG@1",
        "alpha_nDCG@2",
    ]
    got = _values(README_QRELS, README_RUN, names)
    g, ideal = [1, 1, 0, 0.5, 0], [1, 1, 1, 0.5, 0]
    ii = [3 * 0.5**i for i in range(5)]  # the "ideal ideal" gains

    def err(x):
        return sum(v / (i + 1) for i, v in enumerate(x))

    def dcg(x):
        return sum(v / _log2(i + 2) for i, v in enumerate(x))

    assert got["ERR_IA@5"] == pytest.approx(err(g) / err(ii), rel=1e-15)
    assert got["ERR_IA@5"] == pytest.approx(1.625 / 4.13125, rel=1e-15)
    assert got["nERR_IA@5"] == pytest.approx(err(g) / err(ideal), rel=1e-15)
    assert got["alpha_DCG@5"] == pytest.approx(dcg(g) / dcg(ii), rel=1e-15)
    assert got["alpha_nDCG@5"] == pytest.approx(dcg(g) / dcg(ideal), rel=1e-15)
    assert got["alpha_nDCG@2"] == pytest.approx(1.0)  # the top two are as good as the ideal's
    nrbp = (1 - 0.5 * 0.5) / 3 * sum(v * 0.5**i for i, v in enumerate(g))
    assert got["NRBP"] == 0.390625 == pytest.approx(nrbp, rel=1e-15)
    assert got["nNRBP"] == pytest.approx(1.5625 / 1.8125, rel=1e-15)
    # AP per subtopic: 1: A at 1 (1/1); 2: D at 2 (1/2), B at 4 (2/4), R = 2; 3: nothing
    assert got["AP_IA"] == pytest.approx((1 + (0.5 + 0.5) / 2 + 0) / 3, rel=1e-15)
    assert got["P_IA@5"] == pytest.approx(3 / (5 * 3)) and got["P_IA@20"] == 3 / 60
    assert got["StRecall@5"] == pytest.approx(2 / 3)
    # ndeval leaves rank 1 unnormalised: g(1) (times discount 1)
    assert got["ERR_IA@1"] == 1.0 and got["alpha_DCG@1"] == 1.0


def test_readme_values():
    """The numbers printed in pyndeval's README (truncated to 4 decimals)."""
    got = _values(
        README_QRELS, README_RUN, [n.replace("-", "_") for n in README_VALUES], order="score"
    )
    canon = {parse_measure(n).name: v for n, v in README_VALUES.items()}
    for name, want in canon.items():
        assert math.floor(got[name] * 1e4) / 1e4 == pytest.approx(want, abs=1e-12), name


def test_unnormalised_rank_one_and_alpha():
    """A document covering two subtopics at rank 1: ndeval's ERR-IA@1 is g(1) = 2 (not 2/S),
    and alpha only changes repeats: with alpha = 0.2 a second document on subtopic 1 gains
    0.8."""
    q = [("t", "1", "a", 1), ("t", "2", "a", 1), ("t", "1", "b", 2), ("t", "3", "c", 1)]
    r = [("t", "a", 3.0), ("t", "b", 2.0)]
    got = _values(q, r, ["ERR_IA@1", "alpha_DCG@1", "ERR_IA(alpha=0.2)@2", "alpha_nDCG@1"])
    assert got["ERR_IA@1"] == 2.0 and got["alpha_DCG@1"] == 2.0
    assert got["alpha_nDCG@1"] == 1.0
    # ideal ideal at 2 with alpha = 0.2: 3 + 3 * 0.8 / 2
    assert got["ERR_IA(alpha=0.2)@2"] == pytest.approx((2 + 0.8 / 2) / (3 + 2.4 / 2), rel=1e-15)


def test_greedy_ideal_ties_go_to_the_greatest_docno():
    """Two documents cover two subtopics each; ndeval's greedy takes the greater docno first,
    which decides what the third rank can still gain."""
    # x: {1, 2}, y: {2, 3}: tie at 2 -> y (greater); then x scores 1 + 1/2, z {1} scores 1
    q = [("t", "1", "x", 1), ("t", "2", "x", 1), ("t", "2", "y", 1), ("t", "3", "y", 1)]
    q += [("t", "1", "z", 1)]
    r = [("t", "x", 3.0), ("t", "y", 2.0), ("t", "z", 1.0)]
    got = _values(q, r, ["nERR_IA@3", "alpha_nDCG@3"])
    ideal = [2, 1.5, 0.5]  # y, x (1 + 0.5), z (0.5)
    run = [2, 1.5, 0.5]  # x, y (0.5 + 1), z (0.5)
    err = sum(v / (i + 1) for i, v in enumerate(run)) / sum(
        v / (i + 1) for i, v in enumerate(ideal)
    )
    assert got["nERR_IA@3"] == pytest.approx(err, rel=1e-15) == pytest.approx(1.0)


def test_topic_without_relevant_subtopics_scores_zero():
    """S = 0: every measure 0 (ndeval's nNRBP is 0/0; cwlkit's 0, documented)."""
    q = [("t", "1", "a", 0), ("t", "2", "b", 0), ("u", "1", "a", 1)]
    r = [("t", "a", 2.0), ("t", "b", 1.0), ("u", "a", 1.0)]
    names = [m.name for m in _all_measures(0.5, 0.5, 1.0, [5])]
    res = cwlkit.evaluate(as_diversity_qrels(q), r, names)
    assert res.topics == ["t", "u"]
    assert (res.values[:, 0] == 0).all()
    assert res.per_topic("nNRBP")["u"] == 1.0


# ---- against pyndeval ----------------------------------------------------------------------


def _all_measures(alpha: float, beta: float, rel: float, ks) -> list:
    out = []
    for k in ks:
        out += [
            dv.ERR_IA(k=k, alpha=alpha, rel=rel),
            dv.nERR_IA(k=k, alpha=alpha, rel=rel),
            dv.alpha_DCG(k=k, alpha=alpha, rel=rel),
            dv.alpha_nDCG(k=k, alpha=alpha, rel=rel),
            dv.P_IA(k=k, rel=rel),
            dv.StRecall(k=k, rel=rel),
        ]
    out += [
        dv.NRBP(alpha=alpha, beta=beta, rel=rel),
        dv.nNRBP(alpha=alpha, beta=beta, rel=rel),
        dv.AP_IA(rel=rel),
    ]
    return out


def _pyndeval_name(m) -> str:
    base = {
        "ERR_IA": "ERR-IA",
        "nERR_IA": "nERR-IA",
        "alpha_DCG": "alpha-DCG",
        "alpha_nDCG": "alpha-nDCG",
        "P_IA": "P-IA",
        "StRecall": "strec",
        "NRBP": "NRBP",
        "nNRBP": "nNRBP",
        "AP_IA": "MAP-IA",
    }[m.family]
    return f"{base}@{m.k}" if hasattr(m, "k") else base


def make_case(seed: int, *, topics: int = 12, depth: int = 60, pool: int = 80, subs: int = 8):
    """A generated intent-aware case: (qrels records, run records with unique ranks).

    Qrels: each topic has 1..``subs`` subtopics numbered sparsely in 0..14; judged documents
    get labels from -2..3 for random subtopics; one topic in ten has only non-relevant labels;
    some topics are only in the qrels, some only in the run. Runs: a random part of the pool
    plus unjudged documents, scores with one decimal (many ties), lines in random order.
    """
    rng = np.random.default_rng(seed)
    q, r = [], []
    for t in range(1, topics + 1):
        docs = list(dict.fromkeys(f"d{t}-{rng.integers(0, 10**6)}" for _ in range(pool)))
        if rng.random() < 0.85:
            numbers = rng.choice(np.arange(15), size=int(rng.integers(1, subs + 1)), replace=False)
            nothing = rng.random() < 0.1
            for doc in docs[: int(len(docs) * 0.7)]:
                for s in sorted(numbers.tolist()):
                    if rng.random() < 0.5:
                        lab = int(rng.choice([0, 0, 1, 1, 2, 3, -1, -2]))
                        q.append((str(t), str(s), doc, min(lab, 0) if nothing else lab))
        if rng.random() < 0.85:
            cand = docs + [f"u{t}-{i}" for i in range(20)]
            n = int(rng.integers(1, min(depth, len(cand)) + 1))
            chosen = rng.choice(len(cand), size=n, replace=False)
            scores = np.round(rng.normal(size=n), 1)
            ranks = rng.permutation(n) + 1
            r += [
                (str(t), cand[c], int(k), float(s))
                for c, s, k in zip(chosen, scores, ranks, strict=True)
            ]
    order = rng.permutation(len(q))
    q = [q[i] for i in order]
    order = rng.permutation(len(r))
    return q, [r[i] for i in order]


def _pyndeval_values(q, ranked, ms, alpha, beta, rel):
    """pyndeval's values ``{topic: {name: value}}``, the run given in the order ``ranked``
    (records (topic, doc) in rank order, scores -position so that pyndeval keeps it)."""
    # pyndeval numbers subtopics by first appearance: give them in numeric order, as ndeval
    qrels = [
        pyndeval.SubtopicQrel(t, s, d, lab) for t, s, d, lab in sorted(q, key=lambda x: int(x[1]))
    ]
    run = [pyndeval.ScoredDoc(t, d, -float(i)) for i, (t, d) in enumerate(ranked)]
    names = [_pyndeval_name(m) for m in ms]
    ev = pyndeval.RelevanceEvaluator(qrels, names, relevance_level=rel, alpha=alpha, beta=beta)
    return ev.evaluate(run), names


def _compare(res, ref, names) -> int:
    assert set(res.topics) == set(ref)
    n = 0
    for j, t in enumerate(res.topics):
        for i, name in enumerate(names):
            want, got = ref[t][name], res.values[i, j]
            if name == "nNRBP" and math.isnan(want):
                assert got == 0.0, (t, name)  # ndeval's 0/0
            else:
                assert got == want, (t, name, got, want)  # the same double
            n += 1
    return n


PARAMS = [
    (0.5, 0.5, 1),
    (0.3, 0.8, 1),
    (0.123, 0.99, 2),
    (0.9, 1.0, 1),
    (1.0, 0.0, 1),
    (0.0, 1.0, 1),
    (0.7, 0.3, 2),
    (0.5, 0.5, 1),
]


@pytest.mark.parametrize("seed", range(len(PARAMS)))
def test_against_pyndeval(seed):
    """Every measure at every cutoff 1..20, the same doubles as ndeval.c (through pyndeval),
    with the run ranked by its rank column (pyndeval gets -rank as the score)."""
    alpha, beta, rel = PARAMS[seed]
    q, r = make_case(seed, depth=[30, 200, 60, 10, 120, 60, 300, 5][seed])
    ms = _all_measures(alpha, beta, float(rel), range(1, 21))
    ranked = [(t, d) for t, d, _, _ in sorted(r, key=lambda x: (x[0], x[2]))]
    ref, names = _pyndeval_values(q, ranked, ms, alpha, beta, rel)
    table = pa.table(
        {
            "query_id": [x[0] for x in r],
            "doc_id": [x[1] for x in r],
            "rank": [x[2] for x in r],
            "score": [x[3] for x in r],
        }
    )
    res = cwlkit.evaluate(as_diversity_qrels(q), table, ms, order="rank")
    assert _compare(res, ref, names) == len(res.topics) * 123


@pytest.mark.parametrize("trec_version", [9, 10])
def test_ties_follow_the_batch_order(trec_version):
    """By default the API ranks by score, ties by docno descending (trec_eval 9.0.8's float32
    scores, or 10.0's doubles): the values are pyndeval's on the run in that order."""
    q, r = make_case(42)
    ms = _all_measures(0.5, 0.5, 1.0, (5, 10, 20))
    cast = np.float32 if trec_version == 9 else np.float64
    by_topic: dict = {}
    for t, d, _, s in r:
        by_topic.setdefault(t, []).append((cast(s), d))
    ranked = []
    for t in sorted(by_topic):
        docs = sorted(by_topic[t], key=lambda x: x[1], reverse=True)  # docno descending...
        docs.sort(key=lambda x: -x[0])  # ...within score descending (a stable sort)
        ranked += [(t, d) for _, d in docs]
    ref, names = _pyndeval_values(q, ranked, ms, 0.5, 0.5, 1)
    run = [(t, d, s) for t, d, _, s in r]
    res = cwlkit.evaluate(as_diversity_qrels(q), run, ms, trec_version=trec_version)
    assert _compare(res, ref, names) == len(res.topics) * len(ms)


def test_against_ir_measures():
    """ir_measures measure objects: the values of ir_measures' own pyndeval provider."""
    ir_measures = pytest.importorskip("ir_measures")
    pd = pytest.importorskip("pandas")
    q, r = make_case(7)
    q.sort(key=lambda x: int(x[1]))
    qdf = pd.DataFrame(q, columns=["query_id", "iteration", "doc_id", "relevance"])
    r = sorted(r, key=lambda x: (int(x[0]), x[2]))
    rdf = pd.DataFrame({"query_id": [x[0] for x in r], "doc_id": [x[1] for x in r]})
    rdf["score"] = [-float(x[2]) for x in r]  # no ties; grouped by query (pyndeval needs it)
    spellings = [
        "alpha_nDCG@20",
        "alpha_nDCG(alpha=0.3)@10",
        "alpha_DCG(rel=2)@10",
        "ERR_IA@20",
        "nERR_IA@5",
        "NRBP(alpha=0.3,beta=0.8)",
        "nNRBP",
        "AP_IA",
        "P_IA@10",
        "StRecall@10",
    ]
    ms = [ir_measures.parse_measure(s) for s in spellings]
    res = cwlkit.evaluate(as_diversity_qrels(qdf), rdf, ms)
    n = 0
    for i, m in enumerate(ms):
        # one measure per call: the provider's run iterator serves a single invocation
        ref = {x.query_id: x.value for x in ir_measures.iter_calc([m], qdf, rdf)}
        for j, t in enumerate(res.topics):
            want = ref[t]
            assert res.values[i, j] == (0.0 if math.isnan(want) else want), (m, t)
            n += 1
    assert n == len(ms) * len(res.topics)
    assert res.measures[:3] == ["alpha_nDCG@20", "alpha_nDCG(alpha=0.3)@10", "alpha_DCG(rel=2)@10"]


# ---- the API: inputs, errors, names ----------------------------------------------------------

SubQrel = namedtuple("SubQrel", "query_id doc_id relevance subtopic_id")  # ir_datasets' form


class _Dataset:
    """Something with ``qrels_iter()``, as an ir_datasets dataset."""

    def __init__(self, records):
        self.records = records

    def qrels_iter(self):
        return iter(self.records)


def test_every_input_form(tmp_path):
    """Files, gzip, Parquet, pandas, polars, arrow, dicts, records and a Qrels all give the
    same judgements and the same values."""
    pd = pytest.importorskip("pandas")
    pl = pytest.importorskip("polars")
    ir_measures = pytest.importorskip("ir_measures")
    q, r = make_case(3, topics=6)
    run = [(t, d, s) for t, d, _, s in r]
    text = "".join(f"{t} {s} {d} {lab}\n" for t, s, d, lab in q)
    path = tmp_path / "div.qrels"
    path.write_text(text)
    gz = tmp_path / "div.qrels.gz"
    gz.write_bytes(gzip.compress(text.encode()))
    cols = {
        "query_id": [x[0] for x in q],
        "subtopic_id": [x[1] for x in q],
        "doc_id": [x[2] for x in q],
        "relevance": [x[3] for x in q],
    }
    table = pa.table(cols)
    pq.write_table(table, tmp_path / "div.parquet")
    nested: dict = {}
    for t, s, d, lab in q:
        nested.setdefault(t, {}).setdefault(s, {})[d] = lab
    plain = Qrels(
        pa.table(
            {
                "topic": cols["query_id"],
                "iter": cols["subtopic_id"],
                "doc": cols["doc_id"],
                "label_text": [str(x) for x in cols["relevance"]],
                "label": [float(x) for x in cols["relevance"]],
            }
        ),
        np.arange(1, len(q) + 1),
        "<q>",
    )
    forms = {
        "file": str(path),
        "gzip": gz,
        "parquet": str(tmp_path / "div.parquet"),
        "pandas": pd.DataFrame(cols),
        "polars": pl.DataFrame(cols),
        "arrow": table,
        "dict": nested,
        "tuples": q,
        "pyndeval": [pyndeval.SubtopicQrel(*x) for x in q],
        "ir_measures": [ir_measures.Qrel(t, d, lab, s) for t, s, d, lab in q],
        "ir_datasets": _Dataset([SubQrel(t, d, lab, s) for t, s, d, lab in q]),
        "Qrels": plain,
    }
    ms = _all_measures(0.5, 0.5, 1.0, (5, 20))
    want = cwlkit.evaluate(read_diversity_qrels(path), run, ms)
    for name, obj in forms.items():
        dq = as_diversity_qrels(obj)
        assert isinstance(dq, DiversityQrels)
        assert dq.n_judgements == len(q), name
        got = cwlkit.evaluate(dq, run, ms)
        assert got.topics == want.topics, name
        np.testing.assert_array_equal(got.values, want.values, err_msg=name)
    assert as_diversity_qrels(want_q := read_diversity_qrels(path)) is want_q


def test_ordinary_measures_see_the_best_label():
    """A DiversityQrels is also a Qrels with one row per (topic, document) and its largest
    label, so every other measure runs on it (relevant to any subtopic = relevant)."""
    q = [("t", "1", "a", 2), ("t", "2", "a", 0), ("t", "1", "b", 0), ("t", "2", "b", -1)]
    q += [("t", "3", "c", 1)]
    dq = as_diversity_qrels(q)
    assert len(dq) == 3 and dq.n_judgements == 5
    assert dict(zip(dq.table["doc"].to_pylist(), dq.labels.tolist(), strict=True)) == {
        "a": 2.0,
        "b": 0.0,
        "c": 1.0,
    }
    flat = Qrels.from_records([("t", "a", 2), ("t", "b", 0), ("t", "c", 1)])
    run = [("t", "b", 3.0), ("t", "a", 2.0), ("t", "x", 1.0)]
    ms = ["P@2", "AP", "nDCG@3", "alpha_nDCG@3"]
    got = cwlkit.evaluate(dq, run, ms)
    ref = cwlkit.evaluate(flat, run, ms[:3])
    np.testing.assert_array_equal(got.values[:3], ref.values)


def test_ordinary_qrels_one_subtopic_with_a_warning():
    """Ordinary qrels given to an intent-aware measure are read as diversity qrels, their
    iteration the subtopic (ir_measures' convention): one subtopic per topic, with a warning
    (ir_measures' pyndeval provider warns too). A batch of a plan without intent-aware
    measures has no subtopics: scoring one on it raises."""
    q = Qrels.from_records([("1", "a", 1), ("1", "b", 0)])
    r = Run.from_records([("1", "b", 2.0), ("1", "a", 1.0)])
    with pytest.warns(UserWarning, match="every topic has a single subtopic") as got:
        res = cwlkit.evaluate(q, r, ["alpha_nDCG@20", "P_IA@2"])
    assert got[0].filename == __file__  # pointed at the caller
    # by hand: one subtopic, a at rank 2; ideal a at rank 1
    assert res.mean() == {"alpha_nDCG@20": math.log(2) / math.log(3), "P_IA@2": 0.5}
    ev = cwlkit.Evaluator(q, ["P@1"])
    with pytest.raises(CwlkitError, match="need diversity qrels.*read_diversity_qrels"):
        ev.score(ev.batch(r), measures=[parse_measure("alpha_nDCG@20")])


def test_reader_errors(tmp_path):
    p = tmp_path / "q"
    p.write_text("1 1 a 1\n1 2 a 1\n1 1 a 0\n")
    with pytest.raises(FormatError, match=r"q:3: document 'a' is judged twice for subtopic '1'"):
        read_diversity_qrels(p)
    p.write_text("1 1 a 1\n1 a 1\n")
    with pytest.raises(FormatError, match="q:2: expected 4 fields"):
        read_diversity_qrels(p)
    p.write_text("1 1 a x\n")
    with pytest.raises(FormatError, match="q:1: expected a number"):
        read_diversity_qrels(p)
    with pytest.raises(InputError, match="subtopic"):
        as_diversity_qrels(pa.table({"query_id": ["1"], "doc_id": ["a"], "relevance": [1]}))
    with pytest.raises(InputError, match="4 fields"):
        as_diversity_qrels([("1", "a", 1)])


SPELLINGS = {
    "alpha_nDCG@20": "alpha_nDCG@20",
    "alpha_nDCG(alpha=0.5)@20": "alpha_nDCG@20",
    "alpha-nDCG@20": "alpha_nDCG@20",
    "alpha_nDCG(0.3)@5": "alpha_nDCG(alpha=0.3)@5",
    "alpha-DCG@10": "alpha_DCG@10",
    "ERR_IA@20": "ERR_IA@20",
    "ERR-IA@20": "ERR_IA@20",
    "nERR-IA@5": "nERR_IA@5",
    "NRBP(alpha=0.5, beta=0.5)": "NRBP",
    "NRBP(beta=0.8)": "NRBP(beta=0.8)",
    "nNRBP": "nNRBP",
    "AP_IA": "AP_IA",
    "MAP-IA": "AP_IA",
    "MAP_IA": "AP_IA",
    "P_IA@10": "P_IA@10",
    "P-IA@10": "P_IA@10",
    "StRecall@10": "StRecall@10",
    "strec@10": "StRecall@10",
    "StRecall(rel=2)@10": "StRecall(rel=2)@10",
}


@pytest.mark.parametrize("text", list(SPELLINGS))
def test_spellings(text):
    m = parse_measure(text)
    assert m.name == SPELLINGS[text]
    assert parse_measure(m.name) == m


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("alpha_nDCG", "needs a value for k"),
        ("alpha_nDCG(alpha=1.5)@20", "must be in [0.0, 1.0]"),
        ("NRBP(beta=-0.1)", "must be in [0.0, 1.0]"),
        ("NRBP@10", "takes no cutoff"),
        ("P_IA(rel=0)@10", "must be in (0.0, inf)"),
    ],
)
def test_bad_spellings(text, says):
    with pytest.raises(ParamError) as exc:
        parse_measure(text)
    assert says in str(exc.value)


def test_topic_order_and_grouping_change_nothing():
    """The batch's topics are computed together: shuffling the lines, or evaluating each topic
    alone, gives the same doubles."""
    q, r = make_case(11, topics=10)
    ms = _all_measures(0.3, 0.7, 1.0, (1, 5, 20))
    dq = as_diversity_qrels(q)
    run = [(t, d, s) for t, d, _, s in r]
    res = cwlkit.evaluate(dq, run, ms)
    rev = cwlkit.evaluate(as_diversity_qrels(q[::-1]), run[::-1], ms)
    np.testing.assert_array_equal(res.values, rev.values)
    for j, t in enumerate(res.topics):
        alone = cwlkit.evaluate(dq, [x for x in run if x[0] == t], ms)
        np.testing.assert_array_equal(alone.values[:, 0], res.values[:, j])


def test_evaluator_reuses_qrels_and_options():
    """One Evaluator for several runs; ``topics="qrels"`` (ndeval's -c) scores missing topics
    0; ``depth`` cuts the rankings (ndeval's -M) before NRBP and MAP-IA see them."""
    q, r = make_case(5, topics=8)
    dq = as_diversity_qrels(q)
    run = [(t, d, s) for t, d, _, s in r]
    ev = cwlkit.Evaluator(dq, ["alpha_nDCG@20", "NRBP", "AP_IA"], topics="qrels")
    many = ev.evaluate_many({"a": run, "b": run[: len(run) // 2]})
    qtopics = sorted({x[0] for x in q})
    assert many["a"].topics == qtopics
    missing = set(qtopics) - {x[0] for x in run}
    for t in missing:
        assert all(v == 0 for v in many["a"].to_dict()[t].values())
    cut = cwlkit.evaluate(dq, run, ["NRBP", "AP_IA", "alpha_nDCG@5"], depth=5)
    full = cwlkit.evaluate(dq, run, ["NRBP", "AP_IA", "alpha_nDCG@5"])
    assert (cut.values[:2] <= full.values[:2] + 1e-15).all()
    np.testing.assert_array_equal(cut.values[2], full.values[2])


def test_long_cutoffs_extend_ndeval():
    """Cutoffs past ndeval's 20 use the same formulas; P-IA divides by k past the run's end."""
    q = [("t", "1", "a", 1), ("t", "2", "b", 1)]
    r = [("t", "a", 2.0), ("t", "b", 1.0)]
    got = _values(q, r, ["P_IA@50", "StRecall@50", "alpha_nDCG@50", "ERR_IA@30", "ERR_IA@2"])
    assert got["P_IA@50"] == 2 / (50 * 2) and got["StRecall@50"] == 1.0
    assert got["alpha_nDCG@50"] == 1.0
    assert got["ERR_IA@30"] < got["ERR_IA@2"]  # the ideal ideal keeps growing
