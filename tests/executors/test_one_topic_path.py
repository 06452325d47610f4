"""Which runs the executors score a topic at a time (``choose.small_dict``, ``Plan.small``):
pytrec_eval dicts of at most 12 topics and 3,000 rows, after the options are checked."""

from __future__ import annotations

from collections import OrderedDict

import pytest

import cwlkit
from cwlkit.executors import choose
from cwlkit.plan.plan import Plan


def _dict(topics: int, docs: int) -> dict:
    return {f"q{t}": {f"d{i}": float(i) for i in range(docs)} for t in range(topics)}


@pytest.mark.parametrize(
    ("run", "small"),
    [
        (_dict(1, 1), True),
        (_dict(12, 250), True),  # (3,000 rows)
        (_dict(13, 1), False),  # (13 topics)
        (_dict(1, 3001), False),
        (_dict(3, 1001), False),
        (OrderedDict(_dict(1, 2)), False),  # (only dicts: a Mapping takes the batch path)
        ({"q": [("d", 1.0)]}, True),  # (sized: Plan.small refuses it)
        ({"q": 3}, False),
        ("run.txt", False),
    ],
)
def test_small_dict(run, small):
    assert choose.small_dict(run) is small


def _spied(monkeypatch) -> list:
    seen: list = []
    original = Plan.small

    def spy(self, run, name):
        got = original(self, run, name)
        seen.append(got is not None)
        return got

    monkeypatch.setattr(Plan, "small", spy)
    return seen


def test_a_small_dict_is_scored_a_topic_at_a_time(monkeypatch):
    seen = _spied(monkeypatch)
    qrels = {"q0": {"d1": 1, "d3": 2}}
    res = cwlkit.Evaluator(qrels, ["AP", "P@2"]).evaluate(_dict(2, 4), name="mine")
    assert seen == [True]
    # ranked d3 d2 d1 d0: relevant at 1 and 3 (R = 2); q1 is not judged (topics="both")
    assert res.topics == ["q0"] and res.run == "mine"
    assert res.values[:, 0].tolist() == [(1 + 2 / 3) / 2, 0.5]


def test_options_are_checked_before(monkeypatch):
    seen = _spied(monkeypatch)
    ev = cwlkit.Evaluator({"q0": {"d1": 1}}, ["AP"])
    with pytest.raises(cwlkit.ParamError, match="jobs"):
        ev.evaluate(_dict(1, 2), jobs=0)
    with pytest.raises(cwlkit.ParamError, match="chunk"):
        ev.evaluate(_dict(1, 2), chunk_topics=0)
    assert seen == []
