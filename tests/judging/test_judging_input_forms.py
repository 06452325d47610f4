"""Every judging function takes runs and qrels in every form cwlkit.evaluate takes (paths,
.gz, Parquet, pandas, polars, pyarrow Tables, pytrec_eval dicts, ir_measures records, plain
tuples, Run/Qrels objects) and gives the numbers it gives for the same data as TREC files:
nine topics of TREC Web 2012, three runs, written out in each form."""

from __future__ import annotations

import gzip
import math
from pathlib import Path

import pytest
from conftest import DATA, read_data

import cwlkit

W = DATA / "web2012"
NAMES = ("ql.cata", "rm.cata", "ql.catb")
TOPICS = tuple(str(t) for t in range(151, 160))  # (more than 8: the many-topic paths)
FORMS = (
    "path",
    "gz",
    "parquet",
    "pandas",
    "polars",
    "arrow",
    "pytrec_eval",
    "ir_measures",
    "tuples",
    "object",
)


def _subset(path: Path, tmp: Path, kind: str) -> Path:
    keep = [ln for ln in read_data(path).splitlines() if ln.split()[0] in TOPICS]
    out = tmp / f"{path.name.removesuffix('.gz')}.{kind}.txt"
    out.write_text("\n".join(keep) + "\n")
    return out


def _form(path: Path, kind: str, form: str, tmp: Path):
    """The data of TREC file ``path`` (``kind`` "run" or "qrels") in ``form``."""
    read = cwlkit.read_run if kind == "run" else cwlkit.read_qrels
    obj = read(str(path))
    table = obj.table
    value = "score" if kind == "run" else "label"
    if form == "path":
        return str(path)
    if form == "gz":
        out = tmp / (path.name + ".gz")
        out.write_bytes(gzip.compress(path.read_bytes()))
        return str(out)
    if form == "object":
        return obj
    cols = ["topic", "doc", value] + (["rank"] if kind == "run" else [])
    small = table.select(cols)
    if kind == "run":
        import pyarrow as pa

        small = small.set_column(3, "rank", small.column("rank").cast(pa.int64()))
    if form == "arrow":
        return small
    if form == "parquet":
        import pyarrow.parquet as pq

        out = tmp / (path.name + ".parquet")
        pq.write_table(small, out)
        return str(out)
    if form == "pandas":
        return small.to_pandas()
    if form == "polars":
        import polars as pl

        return pl.from_arrow(small)
    rows = list(
        zip(
            table.column("topic").to_pylist(),
            table.column("doc").to_pylist(),
            table.column(value).to_pylist(),
            strict=True,
        )
    )
    if form == "pytrec_eval":
        out_d: dict = {}
        for t, d, v in rows:
            out_d.setdefault(t, {})[d] = v
        return out_d
    if form == "ir_measures":
        import ir_measures

        make = ir_measures.ScoredDoc if kind == "run" else ir_measures.Qrel
        return [make(t, d, v) for t, d, v in rows]
    assert form == "tuples"
    return rows


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("forms")
    qrels = _subset(W / "qrels.web.151-200.txt", tmp, "qrels")
    runs = {n: _subset(W / "runs" / f"web2012.{n}.run.gz", tmp, "run") for n in NAMES}
    return tmp, qrels, runs


#: the numbers from the TREC files, computed once per module
_WANT: dict = {}


def _want(key, files, compute):
    if key not in _WANT:
        _WANT[key] = compute(*_inputs(files, "path"))
    return _WANT[key]


def _inputs(files, form):
    tmp, qrels, runs = files
    sub = tmp / form
    sub.mkdir(exist_ok=True)
    return (
        _form(qrels, "qrels", form, sub),
        {n: _form(p, "run", form, sub) for n, p in runs.items()},
    )


def _same(a, b):
    """Equal records, NaN equal to NaN, floats to 1e-12."""
    assert type(a) is type(b)
    if isinstance(a, dict):
        assert a.keys() == b.keys()
        for k in a:
            _same(a[k], b[k])
    elif isinstance(a, list | tuple):
        assert len(a) == len(b)
        for x, y in zip(a, b, strict=True):
            _same(x, y)
    elif isinstance(a, float):
        assert (math.isnan(a) and math.isnan(b)) or a == pytest.approx(b, abs=1e-12)
    else:
        assert a == b


POOLS = {
    "depth": {"depth": 5},
    "rbp": {"p": 0.8, "depth": 7},
    "rrf": {"k": 60, "depth": 7},
    "residual": {"measure": "RBP(p=0.8)", "depth": 4},
    "mtf": {"depth": 6, "pool_depth": 20},
    "maxmean": {"depth": 6, "pool_depth": 20},
}


def _pool(qrels, runs, strategy):
    kw = dict(POOLS[strategy])
    if strategy in ("residual", "mtf", "maxmean"):
        kw["qrels"] = qrels
    if strategy == "residual":  # (the qrels as judgements made: a topic's first 2 skipped)
        kw["depth"] = 4
    pl = cwlkit.pool(runs, strategy, **kw)
    return pl.to_dict(), pl.priority.tolist()


@pytest.mark.parametrize("strategy", list(POOLS))
@pytest.mark.parametrize("form", FORMS)
def test_pool(files, form, strategy):
    want = _want(("pool", strategy), files, lambda q, r: _pool(q, r, strategy))
    got = _pool(*_inputs(files, form), strategy)
    _same(got, want)
    assert sum(map(len, want[0].values())) > 0


@pytest.mark.parametrize("form", FORMS)
def test_pool_of_one_run(files, form):
    """One run alone (not in a list): a pytrec_eval dict or a list of records is one run."""
    _, runs = _inputs(files, form)
    want = cwlkit.pool(str(files[2]["ql.cata"]), "rbp", depth=5).to_dict()
    assert cwlkit.pool(runs["ql.cata"], "rbp", depth=5).to_dict() == want
    assert cwlkit.pool([runs["ql.cata"]], "rbp", depth=5).to_dict() == want


@pytest.mark.parametrize("form", FORMS)
def test_compare_runs(files, form):
    _, want_runs = _inputs(files, "path")
    _, runs = _inputs(files, form)
    want = cwlkit.compare_runs(want_runs["ql.cata"], want_runs["rm.cata"], p=0.8, depth=20)
    got = cwlkit.compare_runs(runs["ql.cata"], runs["rm.cata"], p=0.8, depth=20)
    _same(got, want)
    assert len(got) == len(TOPICS)


@pytest.mark.parametrize("form", FORMS)
def test_simulate_judging(files, form):
    def sim(qrels, runs):
        out = {}
        for strategy in ("depth", "residual"):
            s = cwlkit.simulate_judging(qrels, runs, strategy, "RBP(p=0.8)", [1, 3])
            out[strategy] = (s.to_records(), {b: p.to_dict() for b, p in s.pools.items()})
        return out

    _same(sim(*_inputs(files, form)), _want("simulate", files, sim))


@pytest.mark.parametrize("form", FORMS)
def test_reusability(files, form):
    groups = {"ql.cata": "cata", "rm.cata": "cata", "ql.catb": "catb"}

    def reuse(qrels, runs):
        r = cwlkit.reusability(qrels, runs, groups, depth=5, measure="P@5")
        return r.to_records(), r.summary(), r.groups

    _same(reuse(*_inputs(files, form)), _want("reusability", files, reuse))
