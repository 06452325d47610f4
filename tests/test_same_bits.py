"""The same bits however it runs (issue 20, item 3): a topic's values depend on that topic
alone, not on which topics share its batch, chunk, bucket or process; and a run held in Python
(a dict, a DataFrame: its batch built with numpy alone, :mod:`cwlkit.core.direct`) gets the
values of the same run read through the columnar path (issue 22, item 2).

Every registered measure at its defaults (and a few with parameters) is evaluated on random
small qrels and runs (topics of different depths, tied scores, unjudged documents, graded
labels) as a whole, in topic chunks of 1, 7 and 1000, over two processes, streamed from text
files, and one topic at a time; every value and every C/W/L column must be equal to the bit
(``np.array_equal(..., equal_nan=True)``), topic by topic.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import cwlkit
from cwlkit.measures import registry
from cwlkit.measures.diversity import _Diversity

#: measures that cannot be evaluated on ordinary qrels, and why
SKIPPED = {
    _Diversity: "needs diversity qrels (topic subtopic document judgement)",
}

#: measures with parameters (required ones, or other than their defaults)
PARAMETERISED = [
    "P@3",
    "nDCG@5",
    "nDCG(dcg='exp-log2')@5",
    "ERR@5",
    "RBP(p=0.95)",
    "RBP(p=0.5,rel=2)",
    "INST(T=2)",
    "INST(T=0.3)",
    "INSQ(T=3)",
    "P_cwl@3",
    "SDCG@5",
    "SET(beta=0.3,k=4)",
    "BPM(T=2,K=5)",
    "BPMD(T=1.5,K=4,hb=0.5,hc=2)",
    "TBG(halflife=3)",
    "U(L=6)",
    "NPV(rate=0.3)",
    "C_E8(k=5)",
    "C_E9(k=3)",
    "IFT-C1(T=1,b1=0.9,R1=10)",
    "IFT-C2(A=0.2,b2=0.9,R2=10)",
    "IFT(T=2,b1=0.9,R1=1,A=0.3,b2=0.8,R2=3)",
]

OPTIONS = {"residuals": True, "cwl_columns": True, "gain": "linear"}


def _required(cls: type) -> list[str]:
    return [
        f.name
        for f in dataclasses.fields(cls)
        if f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING
    ]


def _measures() -> list:
    out: list = []
    for cls in registry.entries():
        if issubclass(cls, tuple(SKIPPED)) or _required(cls):
            continue  # required parameters: spelled in PARAMETERISED
        out.append(cls())
    return out + PARAMETERISED


MEASURES = _measures()


def test_every_measure_is_covered():
    """Every registered class is evaluated here, or skipped with its reason."""
    covered = {type(m) for m in cwlkit.Evaluator({"t": {"d": 1}}, MEASURES).measures}
    for cls in registry.entries():
        assert cls in covered or issubclass(cls, tuple(SKIPPED)), cls.family


@st.composite
def collections(draw) -> tuple[dict, dict]:
    """Qrels and run as dicts: 2 to 9 topics of depths 0 to 40 (a topic with an empty
    ranking, or only in one of the two), labels 0..2, unjudged and unretrieved documents,
    scores from a few values (ties)."""
    n_topics = draw(st.integers(2, 9))
    qrels: dict = {}
    run: dict = {}
    for t in range(n_topics):
        pool = draw(st.integers(1, 45))
        docs = [f"d{i}" for i in range(pool)]
        judged = draw(st.lists(st.sampled_from(docs), unique=True, max_size=pool))
        labels = draw(st.lists(st.integers(0, 2), min_size=len(judged), max_size=len(judged)))
        retrieved = draw(st.lists(st.sampled_from(docs), unique=True, max_size=min(pool, 40)))
        scores = draw(st.lists(st.integers(0, 5), min_size=len(retrieved), max_size=len(retrieved)))
        if judged:
            qrels[f"q{t}"] = dict(zip(judged, labels, strict=True))
        if retrieved:
            run[f"q{t}"] = {d: s / 2 for d, s in zip(retrieved, scores, strict=True)}
    if not qrels:
        qrels["q0"] = {"d0": 1}
    if not run:
        run["q0"] = {"d0": 1.0}
    # at least one topic in both files, and a label 2 somewhere (the scale of linear gains)
    first = next(iter(qrels))
    run.setdefault(first, {"d0": 1.0})
    qrels[first]["d0"] = 2
    return qrels, run


def assert_same_bits(got: cwlkit.Results, want: cwlkit.Results) -> None:
    """Each topic of ``got`` has the values and columns of the same topic in ``want``, to the
    bit."""
    assert got.measures == want.measures
    assert set(got.topics) <= set(want.topics)
    assert list(got.columns) == list(want.columns)
    cols = [want.topics.index(t) for t in got.topics]
    for name, g, w in [("value", got.values, want.values)] + [
        (c, got.columns[c], want.columns[c]) for c in want.columns
    ]:
        for j, t in enumerate(got.topics):
            a, b = g[:, j], w[:, cols[j]]
            if not np.array_equal(a, b, equal_nan=True):
                bad = [
                    f"{m}: {x!r} != {y!r}"
                    for m, x, y in zip(want.measures, a, b, strict=True)
                    if not np.array_equal(x, y, equal_nan=True)
                ]
                raise AssertionError(f"topic {t}, {name}: " + "; ".join(bad))


def _write(qrels: dict, run: dict, where: Path) -> tuple[Path, Path]:
    q, r = where / "qrels", where / "run"
    q.write_text("".join(f"{t} 0 {d} {lab}\n" for t, js in qrels.items() for d, lab in js.items()))
    lines = []
    for t, ds in run.items():
        for i, (d, s) in enumerate(sorted(ds.items(), key=lambda kv: -kv[1])):
            lines.append(f"{t} Q0 {d} {i + 1} {s!r} tag\n")
    r.write_text("".join(lines))
    return q, r


SETTINGS = settings(
    max_examples=12, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True
)


@SETTINGS
@given(collections())
def test_chunks_give_the_same_bits(data):
    qrels, run = data
    want = cwlkit.Evaluator(qrels, MEASURES, **OPTIONS).evaluate(run)
    read = cwlkit.as_run(run)  # (a Run: chunked; a small dict run is scored whole, directly)
    for size in (1, 7, 1000):
        got = cwlkit.Evaluator(qrels, MEASURES, chunk_topics=size, **OPTIONS).evaluate(read)
        assert got.topics == want.topics
        assert_same_bits(got, want)


@SETTINGS
@given(collections())
def test_each_topic_alone_gives_its_bits(data):
    qrels, run = data
    want = cwlkit.Evaluator(qrels, MEASURES, **OPTIONS).evaluate(run)
    ev = cwlkit.Evaluator(qrels, MEASURES, **OPTIONS)
    for t in want.topics:
        got = ev.evaluate({t: run[t]})
        assert got.topics == [t]
        assert_same_bits(got, want)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_streamed_gives_the_same_bits(calls, tmp_path, seed):
    """Text files streamed through topic buckets (``chunk_topics``) against the dicts
    evaluated whole."""
    qrels, run = _seeded(seed)
    q, r = _write(qrels, run, tmp_path)
    want = cwlkit.Evaluator(qrels, MEASURES, **OPTIONS).evaluate(run)
    for size in (1, 3):
        got = cwlkit.Evaluator(q, MEASURES, chunk_topics=size, **OPTIONS).evaluate(r)
        assert got.topics == want.topics
        assert_same_bits(got, want)
    assert calls[0] == 2


def _seeded(seed: int) -> tuple[dict, dict]:
    """Qrels and run like :func:`collections`, from a seed (12 topics, depths 0..60)."""
    rng = np.random.default_rng(seed)
    qrels: dict = {}
    run: dict = {}
    for t in range(12):
        pool = int(rng.integers(1, 70))
        docs = np.array([f"d{i}" for i in range(pool)])
        judged = rng.choice(docs, size=int(rng.integers(0, pool + 1)), replace=False)
        if judged.size:
            qrels[f"q{t}"] = {str(d): int(rng.integers(0, 3)) for d in judged}
        depth = int(rng.integers(0, min(pool, 60) + 1))
        if depth:
            got = rng.choice(docs, size=depth, replace=False)
            run[f"q{t}"] = {str(d): float(rng.integers(0, 6)) / 2 for d in got}
    qrels.setdefault("q0", {})["d0"] = 2
    run.setdefault("q0", {"d0": 1.0})
    return qrels, run


@pytest.mark.slow
@pytest.mark.parametrize("seed", [3, 4])
def test_processes_give_the_same_bits(seed):
    """Topic chunks scored in two processes (``jobs=2``) against one."""
    qrels, run = _seeded(seed)
    ev = cwlkit.Evaluator(qrels, MEASURES, chunk_topics=1, **OPTIONS)
    one = ev.evaluate(run, jobs=1)
    two = ev.evaluate(run, jobs=2)
    want = cwlkit.Evaluator(qrels, MEASURES, **OPTIONS).evaluate(run)
    assert one.topics == two.topics == want.topics
    assert_same_bits(two, one)
    assert_same_bits(one, want)


#: options under which the direct path (dicts, numpy alone) and the columnar path must agree
DIRECT_OPTIONS = [
    {},
    {"topics": "run"},
    {"topics": "qrels"},
    {"topics": "either"},
    {"depth": 5},
    {"judged_only": True},
    {"depth": 3, "judged_only": True},
    {"trec_version": 10},
    {"ties": "average"},  # (not light: the batch keeps scores, element types, documents)
]


@SETTINGS
@given(collections())
def test_direct_path_gives_the_same_bits(data):
    """Dicts (the direct, numpy-only batch) against the same qrels and run read as Qrels and
    Run (pyarrow columns, :func:`cwlkit.core.batch.build_batch`), every measure, under each
    of :data:`DIRECT_OPTIONS`."""
    qrels, run = data
    for extra in DIRECT_OPTIONS:
        _check_direct(qrels, run, {**OPTIONS, **extra})


def _check_direct(qrels: dict, run: dict, opts: dict) -> None:
    ev = cwlkit.Evaluator(qrels, MEASURES, **opts)
    assert ev.plan.direct(run, None) is not None  # (the dicts do take the direct path)
    got = ev.evaluate(run)
    columnar = cwlkit.Evaluator(cwlkit.as_qrels(qrels), MEASURES, **opts)
    assert columnar.plan.direct(cwlkit.as_run(run), None) is None
    want = columnar.evaluate(cwlkit.as_run(run))
    assert got.topics == want.topics
    assert got.absent == want.absent
    assert_same_bits(got, want)
    # the batches themselves, array by array
    direct, read = ev.batch(run), columnar.batch(cwlkit.as_run(run))
    for f in ("topics", "depth", "labels", "judged", "valid", "scores", "qrel_labels", "q0"):
        a, b = getattr(direct, f), getattr(read, f)
        assert a.shape == b.shape and a.dtype == b.dtype, f
        assert np.array_equal(a, b, equal_nan=a.dtype != object), f
    assert np.array_equal(direct.n_judged, read.n_judged)
    assert np.array_equal(direct.qrels_label_values, read.qrels_label_values)
    assert direct.qrels_max_label == read.qrels_max_label
    assert direct.q0_names == read.q0_names
    assert direct.runid == read.runid
    if not ev.plan.light:
        assert np.array_equal(direct.docs, read.docs)


@SETTINGS
@given(collections())
def test_direct_path_of_a_data_frame_gives_the_same_bits(data):
    """A pandas DataFrame run (grouped by topic with pandas, then the direct path) against
    the dict run."""
    pd = pytest.importorskip("pandas")
    qrels, run = data
    rows = [(t, d, s) for t, ds in run.items() for d, s in ds.items()]
    frame = pd.DataFrame(rows, columns=["query_id", "doc_id", "score"]).sample(
        frac=1.0, random_state=0
    )  # (rows of a topic not together)
    ev = cwlkit.Evaluator(qrels, MEASURES, **OPTIONS)
    assert ev.plan.direct(frame, None) is not None
    got = ev.evaluate(frame)
    want = cwlkit.Evaluator(cwlkit.as_qrels(qrels), MEASURES, **OPTIONS).evaluate(
        cwlkit.as_run(run)
    )
    assert got.topics == want.topics
    assert_same_bits(got, want)
