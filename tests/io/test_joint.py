"""io/joint.py against a brute-force join in Python (dicts of (topic, document) pairs)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cwlkit.io.joint import JudgedByTopic, joint_encode
from cwlkit.io.text import encode_runs, from_strings

DOCS = [f"d{i}" for i in range(8)]


def _pairs(draw_pairs):
    """Unique (topic, doc) pairs, grouped by topic (each topic's rows together)."""
    seen, out = set(), []
    for t, d in draw_pairs:
        if (t, d) not in seen:
            seen.add((t, d))
            out.append((t, d))
    return sorted(out, key=lambda p: p[0])


def _encode(pairs):
    topic, topics = encode_runs(from_strings([t for t, _ in pairs]))
    return topic, topics, from_strings([d for _, d in pairs])


def _judged(pairs):
    return JudgedByTopic.of(*_encode(pairs))


pair = st.tuples(st.sampled_from("abcde"), st.sampled_from(DOCS))


@settings(max_examples=200, deadline=None)
@given(st.lists(pair, min_size=1, max_size=40), st.lists(pair, max_size=40), st.integers(1, 12))
def test_every_run_row_finds_the_qrels_row_of_its_topic_and_document(run, qrels, block):
    run, qrels = _pairs(run), _pairs(qrels)
    if not qrels:
        qrels = [("z", "d0")]
    got = joint_encode(*_encode(run), _judged(qrels), block=block, max_ratio=1e9)
    assert got is not None
    codes, dictionary, rows = got
    where = {p: i for i, p in enumerate(qrels)}
    assert rows.tolist() == [where.get(p, -1) for p in run]
    # codes name the run's documents; within a topic, equal codes are equal strings
    assert [dictionary[int(c)].as_py() for c in codes] == [d for _, d in run]


def test_scattered_topics_and_large_qrels_are_declined():
    run = [("a", "d1"), ("b", "d2"), ("a", "d3")]
    qrels = [("a", "d1")]
    topic, topics, docs = _encode(run)
    assert joint_encode(topic, topics, docs, _judged(qrels)) is None
    many = [("a", d) for d in DOCS]
    got = _encode([("a", "d1")])
    assert joint_encode(*got, _judged(many), max_ratio=4.0) is None
    assert joint_encode(*got, _judged(many), max_ratio=8.0)[2].tolist() == [1]


@pytest.mark.parametrize(("doc", "row"), [("d0", 0), ("d1", -1)])
def test_a_one_line_run(doc, row):
    codes, dictionary, rows = joint_encode(*_encode([("a", doc)]), _judged([("a", "d0")]))
    assert rows.tolist() == [row] and dictionary[int(codes[0])].as_py() == doc
