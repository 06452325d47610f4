"""cwlkit.fuse against trectools 0.0.50's fusion, where trectools has the method: its
``combos`` (sum, max, min, anz, mnz, med: on raw scores, so ``norm="none"``) and its
``reciprocal_rank_fusion``, on two Web 2012 runs (trectools' ``combos`` merges two runs
correctly; with three it keeps only two score columns).

trectools orders tied scores by increasing document id, cwlkit by decreasing (trec_eval's
order); RRF reads the order only, so trectools is given runs whose scores are minus cwlkit's
rank (the same order, no ties). trectools runs in the reference virtualenv (``refs_python``).
"""

from __future__ import annotations

import pytest
from conftest import DATA, plain_copy, run_refs

import cwlkit

pytestmark = pytest.mark.slow

RUNS = [DATA / "web2012" / "runs" / f"web2012.{n}.run.gz" for n in ("ql.cata", "rm.cata")]

CODE = """
from trectools import TrecRun, fusion
runs = [TrecRun(p) for p in data["paths"]]
out = {}
for strategy in data["combos"]:
    fused = fusion.combos(runs, strategy=strategy, max_docs=100000)
    out[strategy] = [[str(q), str(d), float(s)] for q, d, s in
                     fused.run_data[["query", "docid", "score"]].itertuples(index=False)]
ranked = [TrecRun(p) for p in data["ranked"]]
fused = fusion.reciprocal_rank_fusion(ranked, k=60, max_docs=100000)
out["rrf"] = [[str(q), str(d), float(s)] for q, d, s in
              fused.run_data[["query", "docid", "score"]].itertuples(index=False)]
print(json.dumps(out))
"""

COMBOS = ("sum", "max", "min", "anz", "mnz", "med")


def _as_dict(rows):
    out: dict = {}
    for q, d, s in rows:
        out.setdefault(q, {})[d] = s
    return out


@pytest.fixture(scope="module")
def trectools_fused(refs_python, tmp_path_factory):
    folder = tmp_path_factory.mktemp("trectools")
    paths = [str(plain_copy(p, folder)) for p in RUNS]
    ranked = []
    for i, p in enumerate(RUNS):
        # each run with score -rank, ranked in cwlkit's order (decreasing score, then
        # decreasing document id)
        lines = [
            f"{q} Q0 {d} {r} {-r} r{i}"
            for q, docs in cwlkit.as_run(p).to_dict().items()
            for r, d in enumerate(sorted(docs, key=lambda x: (docs[x], x), reverse=True), 1)
        ]
        out = folder / f"ranked{i}.run"
        out.write_text("\n".join(lines) + "\n")
        ranked.append(str(out))
    return run_refs(refs_python, CODE, {"paths": paths, "ranked": ranked, "combos": COMBOS})


@pytest.mark.parametrize("method", [*COMBOS, "rrf"])
def test_equal_to_trectools(trectools_fused, method):
    got = cwlkit.fuse(RUNS, method, None if method != "rrf" else "none").to_dict()
    want = _as_dict(trectools_fused[method])
    assert set(got) == set(want)
    for q, docs in want.items():
        assert set(got[q]) == set(docs), q
        assert max(abs(got[q][d] - s) for d, s in docs.items()) <= 1e-9, q
