"""Intent-aware measures on qrels given as they come (a path, a frame, records): the qrels
are read as diversity qrels, the second column (iteration) the subtopic, as ir_measures does.

References:

* ir_measures 0.4.3 (its pyndeval provider, ndeval.c's code) on the same files, reading them
  with ``ir_measures.read_trec_qrels``: the same doubles when the file lists the subtopics
  in numeric order (ndeval's order of summing, which cwlkit keeps), to 1e-12 otherwise
  (pyndeval sums in order of first appearance);
* ndeval 4.5's own ``main`` (pyndeval's build of ndeval.c, through ctypes), whose ``%.6f``
  values cwlkit's must print as;
* ir_measures' pytrec_eval provider for the ordinary measures (nDCG, AP...) next to them:
  cwlkit takes each (topic, document)'s largest label over its subtopics, which is
  ir_measures' value when the largest label is the document's last line (ir_measures keeps
  the last line's label, so its value depends on the order of the lines).

The data are "real-ish": the TREC Web 2012 qrels (topics 151-200, labels -2..4) with each
judged document spread over 2..6 seeded subtopics, and two of the track's baseline runs
(their top 200, re-scored by rank so that no tie rule can differ).
"""

from __future__ import annotations

import math
import subprocess
import sys
import warnings

import numpy as np
import pytest
from conftest import DATA, NDEVAL, read_data

import cwlkit
from cwlkit.errors import FormatError, InputError
from cwlkit.io.diversity import read_diversity_qrels

ir_measures = pytest.importorskip("ir_measures")
pytest.importorskip("pyndeval")

WEB = DATA / "web2012"
RUNS = ("web2012.ql.cata.run.gz", "web2012.rm.catb.run.gz")

#: intent-aware measures, with parameters: every family and each parameter, in groups that
#: ir_measures computes in one pyndeval call (the same rel, alpha and beta)
GROUPS = [
    [
        "alpha_nDCG@5",
        "alpha_nDCG@20",
        "alpha_DCG@20",
        "ERR_IA@20",
        "nERR_IA@10",
        "NRBP",
        "nNRBP",
        "AP_IA",
        "P_IA@10",
        "StRecall@20",
    ],
    ["alpha_nDCG(alpha=0.3)@10"],
    ["alpha_nDCG(rel=2)@20", "ERR_IA(rel=2)@10"],
    ["NRBP(alpha=0.3,beta=0.8)"],
    ["nNRBP(alpha=0.2,beta=0.9)"],
    ["AP_IA(rel=3)"],
]
DIVERSITY = [name for group in GROUPS for name in group]
ORDINARY = ["nDCG@10", "nDCG", "P@10", "AP", "R@100", "RR", "Rprec", "Bpref"]


def _web2012_diversity(d, seed: int = 2012, depth: int = 200):
    """Diversity qrels from the Web 2012 qrels and two runs, written in ``d`` (see the module
    docstring). Each judged document gets 1..n of its topic's n subtopics; a relevant
    document keeps its label on most of them and a lower one (0 included) on some; labels
    -2 and 0 stay as they are. Returns {"random": path (lines shuffled), "numeric": the same
    lines by subtopic number, "maxlast": by label (each document's largest label last)}, and
    the run paths."""
    rng = np.random.default_rng(seed)
    judged: dict[str, list] = {}
    for line in (WEB / "qrels.web.151-200.txt").read_text().splitlines():
        t, _, doc, lab = line.split()
        judged.setdefault(t, []).append((doc, int(lab)))
    q = []
    for t, docs in judged.items():
        n = int(rng.integers(2, 7))
        for doc, lab in docs:
            subs = rng.choice(np.arange(1, n + 1), size=int(rng.integers(1, n + 1)), replace=False)
            for s in subs.tolist():
                low = lab > 0 and rng.random() < 0.3
                q.append((t, s, doc, int(rng.integers(0, lab + 1)) if low else lab))
    q = [q[i] for i in rng.permutation(len(q))]
    files = {
        "random": q,
        "numeric": sorted(q, key=lambda x: x[1]),
        "maxlast": sorted(q, key=lambda x: x[3]),
    }
    paths = {}
    for name, rows in files.items():
        paths[name] = d / f"div.{name}.qrels"
        paths[name].write_text("".join(f"{t} {s} {doc} {lab}\n" for t, s, doc, lab in rows))
    runs = []
    for name in RUNS:
        by_topic: dict[str, list] = {}
        for line in read_data(WEB / "runs" / name).splitlines():
            t, _, doc, _, score, tag = line.split()
            by_topic.setdefault(t, []).append((np.float32(score), doc, tag))
        out = []
        for t, docs in by_topic.items():
            docs.sort(key=lambda x: x[1], reverse=True)
            docs.sort(key=lambda x: -x[0])  # cwlkit's order; then one score per rank
            out += [
                f"{t} Q0 {doc} {i + 1} {depth - i} {tag}\n"
                for i, (_, doc, tag) in enumerate(docs[:depth])
            ]
        runs.append(d / name.removesuffix(".gz"))  # (written plain)
        runs[-1].write_text("".join(out))
    return paths, runs


@pytest.fixture(scope="module")
def div(tmp_path_factory):
    return _web2012_diversity(tmp_path_factory.mktemp("div"))


def _ir_measures(groups, qrels_path, run_path) -> dict[str, dict[str, float]]:
    """ir_measures' per-topic values {name: {topic: value}}, a group of measures per call
    (its pyndeval provider reads the run once: a second pyndeval invocation in one call, for
    another rel, alpha or beta, would get an empty run)."""
    qrels = list(ir_measures.read_trec_qrels(str(qrels_path)))
    run = list(ir_measures.read_trec_run(str(run_path)))
    out: dict[str, dict[str, float]] = {}
    for group in groups:
        ms = {ir_measures.parse_measure(name): name for name in group}
        for x in ir_measures.iter_calc(list(ms), qrels, run):
            out.setdefault(ms[x.measure], {})[x.query_id] = x.value
    return out


def _assert_same(res, ref, *, rel: float = 0.0) -> int:
    """Compare the measures of ``ref`` (of ``res``'s) topic by topic; returns the count."""
    n = 0
    for i, name in enumerate(res.measures):
        if name not in ref:
            continue
        want = ref[name]
        assert set(want) == set(res.topics), name
        for j, t in enumerate(res.topics):
            w, got = want[t], res.values[i, j]
            if math.isnan(w):  # pyndeval's nNRBP 0/0 (a topic without relevant subtopics)
                assert name.startswith("nNRBP") and got == 0.0, (name, t)
            elif rel == 0.0:
                assert got == w, (name, t, got, w)
            else:
                assert got == pytest.approx(w, rel=rel, abs=1e-300), (name, t, got, w)
            n += 1
    return n


@pytest.mark.parametrize("run", [0, 1])
def test_path_gives_ir_measures_values(div, run):
    """cwlkit.evaluate(path, run, intent-aware measures) = ir_measures on the same files."""
    paths, runs = div
    res = cwlkit.evaluate(str(paths["numeric"]), str(runs[run]), DIVERSITY)
    ref = _ir_measures(GROUPS, paths["numeric"], runs[run])
    assert _assert_same(res, ref) == 50 * len(DIVERSITY)
    # lines in random order: pyndeval sums the subtopics in another order
    res = cwlkit.evaluate(str(paths["random"]), str(runs[run]), DIVERSITY)
    ref = _ir_measures(GROUPS[:1], paths["random"], runs[run])
    assert _assert_same(res, ref, rel=1e-12) == 50 * len(GROUPS[0])
    assert 0.05 < res.mean()["alpha_nDCG@20"] < 0.5  # (the data hold relevant documents)


def test_evaluator_and_forms_give_the_explicit_reader(div):
    """Evaluator(path), many runs, the ir_measures forms in memory, and the explicit reader
    all give the same values."""
    pd = pytest.importorskip("pandas")
    paths, runs = div
    path = paths["random"]
    names = DIVERSITY[:6] + ["nDCG@10"]
    want = cwlkit.evaluate(read_diversity_qrels(path), str(runs[0]), names)
    many = cwlkit.Evaluator(path, names).evaluate_many([str(r) for r in runs], jobs=1)
    np.testing.assert_array_equal(many[runs[0].name].values, want.values)
    assert many[runs[1].name].mean() == cwlkit.evaluate(str(path), str(runs[1]), names).mean()
    records = list(ir_measures.read_trec_qrels(str(path)))  # Qrel(..., iteration)
    frame = pd.DataFrame(records)  # ir_measures' qrels frame: an iteration column
    nested: dict = {}
    for r in records:
        nested.setdefault(r.query_id, {}).setdefault(r.iteration, {})[r.doc_id] = r.relevance
    for form in (records, frame, nested):
        got = cwlkit.evaluate(form, str(runs[0]), names)
        np.testing.assert_array_equal(got.values, want.values)
    # streamed qrels (chunk_topics) are read whole for intent-aware measures
    got = cwlkit.Evaluator(str(path), names, chunk_topics=7).evaluate(str(runs[0]), jobs=1)
    np.testing.assert_array_equal(got.values, want.values)


def test_ordinary_measures_take_the_largest_label(div):
    """Next to an intent-aware measure, the ordinary ones see each (topic, document)'s
    largest label: ir_measures' values when that label is the document's last line; on the
    same lines in another order ir_measures' values change, cwlkit's do not."""
    paths, runs = div
    names = ORDINARY + ["alpha_nDCG@20"]
    res = cwlkit.evaluate(str(paths["random"]), str(runs[0]), names)
    ref = _ir_measures([ORDINARY], paths["maxlast"], runs[0])
    assert _assert_same(res, ref) == 50 * len(ORDINARY)
    for name in ("numeric", "maxlast"):
        again = cwlkit.evaluate(str(paths[name]), str(runs[0]), names)
        np.testing.assert_array_equal(again.values, res.values)
    other = _ir_measures([["nDCG@10"]], paths["random"], runs[0])["nDCG@10"]
    assert other != ref["nDCG@10"]  # ir_measures: the last line's label


def test_ordinary_qrels_file_one_subtopic_as_ir_measures(div):
    """An ordinary qrels file (iteration 0 everywhere) gives one subtopic per topic, with a
    warning; the values are ir_measures' (which warns too)."""
    qrels, run = WEB / "qrels.web.151-200.txt", div[1][0]
    names = ["alpha_nDCG@20", "ERR_IA@20", "StRecall@10", "P@10"]
    with pytest.warns(UserWarning, match="qrels.web.151-200.txt: every topic has a single"):
        res = cwlkit.evaluate(str(qrels), str(run), names)
    ref = _ir_measures([names[:3]], qrels, run)
    assert _assert_same(res, ref, rel=1e-12) == 3 * len(res.topics)


def test_forms_without_subtopics_are_refused(tmp_path):
    pd = pytest.importorskip("pandas")
    run = [("1", "a", 1.0)]
    with pytest.raises(InputError, match="no column for the subtopic"):
        cwlkit.evaluate(
            pd.DataFrame({"query_id": ["1"], "doc_id": ["a"], "relevance": [1]}),
            run,
            ["alpha_nDCG@20"],
        )
    with pytest.raises(InputError, match=r"subtopic_id: \{doc_id"):
        cwlkit.evaluate({"1": {"a": 1}}, run, ["alpha_nDCG@20"])
    with pytest.raises(InputError, match="expected records of 4 fields"):
        cwlkit.evaluate([("1", "a", 1)], run, ["ERR_IA@5"])
    bad = tmp_path / "q"
    bad.write_text("1 1 a 1\n1 2 a 1\n1 1 a 0\n")
    with pytest.raises(FormatError, match=r"q:3: document 'a' is judged twice for subtopic '1'"):
        cwlkit.evaluate(str(bad), run, ["alpha_nDCG@20"])


def test_comments_follow_the_evaluation_rules(tmp_path):
    """reading="trec_eval_10" skips '#' lines of a qrels file (trec_eval 10.0's reader
    rules): so do diversity qrels read for an intent-aware measure."""
    q = tmp_path / "q"
    q.write_text("# topic subtopic doc label\n1 1 a 1\n1 2 b 1\n")
    run = [("1", "b", 2.0), ("1", "a", 1.0)]
    assert cwlkit.evaluate(str(q), run, ["StRecall@1"], reading="trec_eval_10").mean() == {
        "StRecall@1": 0.5
    }
    with pytest.raises(FormatError, match="q:1: expected 4 fields|q:1:"):
        cwlkit.evaluate(str(q), run, ["StRecall@1"])


def test_duplicates_hint_at_diversity_qrels(tmp_path):
    """Ordinary measures alone read ordinary qrels: a document judged under two iterations is
    refused, with a hint at the intent-aware reading; a plain repeat gets no hint."""
    q = tmp_path / "q"
    q.write_text("1 1 a 1\n1 2 b 1\n1 3 a 0\n")
    with pytest.raises(FormatError) as got:
        cwlkit.evaluate(str(q), [("1", "a", 1.0)], ["nDCG@10"])
    msg = str(got.value)
    assert "q:3: document 'a' appears twice for topic '1' in the qrels (first at line 1);" in msg
    assert "alpha_nDCG@20" in msg and "cwlkit.read_diversity_qrels" in msg and "\n" not in msg
    q.write_text("1 0 a 1\n1 0 a 0\n")
    with pytest.raises(FormatError) as got:
        cwlkit.evaluate(str(q), [("1", "a", 1.0)], ["nDCG@10"])
    assert "read_diversity_qrels" not in str(got.value)


def test_no_warning_for_diversity_qrels(div):
    paths, runs = div
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        cwlkit.evaluate(str(paths["random"]), str(runs[0]), ["alpha_nDCG@20"])


#: ndeval's columns, by cwlkit name
NDEVAL_COLUMNS = {
    f"{ours}@{k}": f"{theirs}@{k}"
    for ours, theirs in (
        ("ERR_IA", "ERR-IA"),
        ("nERR_IA", "nERR-IA"),
        ("alpha_DCG", "alpha-DCG"),
        ("alpha_nDCG", "alpha-nDCG"),
        ("P_IA", "P-IA"),
        ("StRecall", "strec"),
    )
    for k in (5, 10, 20)
} | {"NRBP": "NRBP", "nNRBP": "nNRBP", "AP_IA": "MAP-IA"}


@pytest.mark.slow
def test_path_prints_as_ndeval(div, tmp_path):
    """Every value of ndeval's table, per topic, printed with ndeval's %.6f (ndeval itself on
    the same files: labels below 0 made 0, which ndeval requires; -traditional ranks by
    score as cwlkit does)."""
    paths, runs = div
    q = tmp_path / "q"
    q.write_text(
        "".join(
            " ".join(x.split()[:3] + [str(max(int(x.split()[3]), 0))]) + "\n"
            for x in paths["random"].read_text().splitlines()
        )
    )
    p = subprocess.run(
        [sys.executable, "-c", NDEVAL, "-traditional", str(q), str(runs[1])],
        capture_output=True,
        text=True,
        check=True,
    )
    lines = [x.split(",") for x in p.stdout.splitlines()]
    head, rows = lines[0], {x[1]: x for x in lines[1:] if x[1] != "amean"}
    res = cwlkit.evaluate(str(q), str(runs[1]), list(NDEVAL_COLUMNS), trec_version=10)
    assert set(rows) == set(res.topics) and len(rows) == 50
    n = 0
    for i, name in enumerate(res.measures):
        col = head.index(NDEVAL_COLUMNS[name])
        for j, t in enumerate(res.topics):
            assert f"{res.values[i, j]:.6f}" == rows[t][col], (name, t)
            n += 1
    assert n == 50 * 21
