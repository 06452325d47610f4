"""cwlkit.compare_runs on TREC Web 2012: each topic's RBO_ext equals the rbo package's
(0.1.3) ``rbo_ext`` on the two rankings cut at the same depth, the rankings made here from
the files' lines (score descending, ties by document id descending: trec_eval's order)
with Python's sort, an independent reference; the bounds hold the extreme completions."""

from __future__ import annotations

import pytest
from conftest import DATA, read_data, run_refs

import cwlkit

W = DATA / "web2012"
A = W / "runs" / "web2012.ql.cata.run.gz"
B = W / "runs" / "web2012.rm.catb.run.gz"


def _rankings(path, depth):
    rows: dict[str, list[tuple[float, str]]] = {}
    for line in read_data(path).splitlines():
        t, _, d, _, s, _ = line.split()
        rows.setdefault(t, []).append((float(s), d))
    return {t: [d for _, d in sorted(r, reverse=True)][:depth] for t, r in rows.items()}


@pytest.mark.slow
def test_compare_runs_equals_the_rbo_package(refs_python):
    depth, p = 20, 0.9
    ra, rb = _rankings(A, depth), _rankings(B, depth)
    topics = sorted(set(ra) & set(rb))
    ours = {r["topic"]: r for r in cwlkit.compare_runs(str(A), str(B), p=p, depth=depth)}
    assert sorted(ours) == sorted(set(ra) | set(rb))
    assert all(len(ra[t]) == len(rb[t]) == depth for t in topics)
    theirs = run_refs(
        refs_python,
        "import rbo\nprint(json.dumps([rbo.RankingSimilarity(a, b).rbo_ext(p=data['p']) "
        "for a, b in data['pairs']]))",
        {"p": p, "pairs": [[ra[t], rb[t]] for t in topics]},
    )
    assert [ours[t]["ext"] for t in topics] == pytest.approx(theirs, abs=1e-12)
    for t in topics:
        assert ours[t]["min"] <= ours[t]["ext"] <= ours[t]["max"] + 1e-12


def test_compare_runs_in_memory_equals_the_rankings_by_hand():
    """Python-sorted rankings as plain lists, given to cwlkit.rbo, against compare_runs on
    the same runs as pytrec_eval dicts: the same rows."""
    ra, rb = _rankings(A, 10), _rankings(B, 10)

    def as_dict(path):
        out: dict[str, dict[str, float]] = {}
        for line in read_data(path).splitlines():
            t, _, d, _, s, _ = line.split()
            out.setdefault(t, {})[d] = float(s)
        return out

    rows = cwlkit.compare_runs(as_dict(A), as_dict(B), p=0.8, depth=10)
    for r in rows:
        want = cwlkit.rbo(ra.get(r["topic"], []), rb.get(r["topic"], []), 0.8)
        assert (r["min"], r["ext"], r["res"]) == (want.min, want.ext, want.res)
