"""Differential test against pytrec_eval (pytrec-eval-terrier, trec_eval 9.0.x in C).

Generated qrels and runs with everything trec_eval has rules for: tied scores (exact and
below float32 resolution), lines in random order, graded and negative labels, documents in
the run but not the qrels, topics missing from either side, runs of 1 to 1,200 documents,
``-l 2`` and ``-J``. Every per-topic value of every measure pytrec_eval computes must equal
cwlkit's exactly (``==``; NaN where it is NaN): the same operations in the same order.
"""

from __future__ import annotations

import numpy as np
import pytest

pytrec_eval = pytest.importorskip("pytrec_eval")

from cwlkit.formats.trec_eval import evaluate_trec  # noqa: E402
from cwlkit.io.trec import read_qrels, read_run  # noqa: E402
from cwlkit.measures.trec.select import trec_eval_names  # noqa: E402

LENGTHS = (1, 2, 3, 5, 9, 10, 11, 30, 99, 150, 1200)


def _generate(seed: int, tmp_path, shuffle: bool = True):
    rng = np.random.default_rng(seed)
    qrels_lines, run_lines = [], []
    qrels: dict[str, dict[str, int]] = {}
    run: dict[str, dict[str, float]] = {}
    for t in range(24):
        topic = f"q{t}" if t % 3 else str(100 + t)
        pool = [f"D{t % 2}-{i}" for i in range(1500)]  # documents shared across topics
        # judgments: graded, negative ("pooled, unjudged"), some topics all non-relevant
        if t != 5:  # topic 5: results only
            n_judged = int(rng.integers(1, 200))
            judged = rng.choice(len(pool), size=n_judged, replace=False)
            probs = [0.15, 0.45, 0.2, 0.12, 0.08] if t % 7 else [0.2, 0.8, 0, 0, 0]
            labels = rng.choice([-1, 0, 1, 2, 3], size=n_judged, p=probs)
            qrels[topic] = {pool[i]: int(lab) for i, lab in zip(judged, labels, strict=True)}
            qrels_lines += [
                f"{topic} 0 {pool[i]} {int(lab)}" for i, lab in zip(judged, labels, strict=True)
            ]
        if t == 7:  # qrels only
            continue
        n = LENGTHS[t % len(LENGTHS)]
        docs = rng.choice(len(pool), size=n, replace=False)
        kind = t % 4
        if kind == 0:
            scores = rng.integers(0, 4, size=n).astype(float)  # many exact ties
        elif kind == 1:
            scores = rng.normal(size=n)
        elif kind == 2:
            scores = 1.0 + rng.integers(0, 3, size=n) * 1e-9  # ties below float32 resolution
        else:
            scores = np.round(rng.uniform(0, 10, size=n), 2)
        run[topic] = {pool[i]: float(s) for i, s in zip(docs, scores, strict=True)}
        run_lines += [
            f"{topic} Q0 {pool[i]} {r} {float(s)!r} tag"
            for r, (i, s) in enumerate(zip(docs, scores, strict=True))
        ]
    rng.shuffle(qrels_lines)
    if shuffle:
        rng.shuffle(run_lines)
    qp, rp = tmp_path / "qrels.txt", tmp_path / "run.txt"
    qp.write_text("\n".join(qrels_lines) + "\n")
    rp.write_text("\n".join(run_lines) + "\n")
    return qrels, run, read_qrels(qp), read_run(rp)


def _ours(res, name: str) -> np.ndarray:
    """The per-topic values trec_eval prints under ``name`` (``P_10``)."""
    i = [n for n in trec_eval_names(["all_trec"]) if n != "runid"].index(name)
    if res.aggregates[i] == "gmean":
        # pytrec_eval reports the per-topic log of the geometric-mean measures
        return np.log(np.maximum(res.values[i], 1e-5))
    return res.values[i]


@pytest.mark.parametrize(
    ("seed", "level", "judged_only", "blocks"),
    [
        (1, 1, False, False),
        (2, 1, False, True),
        (3, 2, False, False),
        (4, 1, True, True),
        (5, 2, True, False),
    ],
)
def test_every_measure_every_topic(tmp_path, monkeypatch, seed, level, judged_only, blocks):
    if blocks:  # topic-contiguous run read in small blocks (the path of large runs)
        import cwlkit.io.text

        monkeypatch.setattr(cwlkit.io.text, "BLOCK_ROWS", 100)
    qrels, run, q, r = _generate(seed, tmp_path, shuffle=not blocks)
    measures = set(pytrec_eval.supported_measures) - {"relstring", "runid"}
    ev = pytrec_eval.RelevanceEvaluator(
        qrels, measures, relevance_level=level, judged_docs_only_flag=judged_only
    )
    ref = ev.evaluate(run)
    table = evaluate_trec(q, r, ["all_trec"], version=9, rel_level=level, judged_only=judged_only)
    assert sorted(ref) == sorted(table.topics)
    pos = {t: i for i, t in enumerate(table.topics)}
    checked = 0
    for topic, vals in ref.items():
        for name, want in vals.items():
            if name in ("num_q",):
                continue
            got = float(_ours(table, name)[pos[topic]])
            assert got == want or (got != got and want != want), (topic, name, got, want)
            checked += 1
    assert checked > 24 * 60
