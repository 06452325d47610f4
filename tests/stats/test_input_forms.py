"""Every public statistics function takes every input form that makes sense, with the numbers
of its canonical form.

Scores: numpy arrays are the reference; lists, tuples, mappings ``{topic: score}`` (built in
reverse order, so pairing by topic is checked), pandas Series and one-column DataFrames,
polars Series and one-measure Results give the same numbers. Several runs: ``{run:
Results}`` is the reference; lists of Results, pytrec_eval's ``{topic: {measure: score}}``,
ir_measures' ``Metric`` records, record dicts, pandas and polars frames (long and wide, per
run or one frame with a ``run`` column) give the same tables. Qrels and runs
(:func:`~cwlkit.stats.correlate_runs`, :func:`~cwlkit.stats.fit_runs`): paths are the
reference; Path objects, ``.gz`` files, pandas, polars and pyarrow tables, pytrec_eval
dicts, ir_measures records and Qrels/Run objects give the same numbers.
"""

from __future__ import annotations

import gzip
import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from conftest import DATA, read_data

import cwlkit
from cwlkit import stats

pd = pytest.importorskip("pandas")
pl = pytest.importorskip("polars")
pa = pytest.importorskip("pyarrow")
ir_measures = pytest.importorskip("ir_measures")

WEB = DATA / "web2012"
QRELS = WEB / "qrels.web.151-200.txt"
RUNS = [WEB / "runs" / f"web2012.{s}.run.gz" for s in ("ql.cata", "rm.cata", "ql.catb")]
MEASURES = ["AP", "P@10"]


@pytest.fixture(scope="module")
def results() -> dict[str, cwlkit.Results]:
    out = cwlkit.evaluate(str(QRELS), [str(r) for r in RUNS], MEASURES)
    assert isinstance(out, dict)
    return {r.run or n: r for n, r in out.items()}


def same(a: Any, b: Any) -> bool:
    """Equal, NaN equal to NaN (exact floats otherwise)."""
    return json.dumps(a, sort_keys=True, default=repr) == json.dumps(
        b, sort_keys=True, default=repr
    )


# ------------------------------------------------------------------ per-topic scores


def score_forms(res: cwlkit.Results, measure: str = "AP") -> dict[str, Any]:
    one = res.select(measure)
    values = one.values[0]
    by_topic = dict(zip(one.topics, values.tolist(), strict=True))
    backwards = dict(reversed(list(by_topic.items())))
    return {
        "numpy": values.copy(),
        "list": values.tolist(),
        "tuple": tuple(values.tolist()),
        "dict": backwards,
        "pandas Series": pd.Series(backwards),
        "pandas DataFrame": pd.DataFrame({measure: pd.Series(backwards)}),
        "polars Series": pl.Series(values.tolist()),
        "Results": one,
    }


FORMS = list(score_forms(cwlkit.Results(np.zeros((1, 1)), ["AP"], ["t"])))

PAIRED = {
    "t_test": lambda x, y: stats.t_test(x, y),
    "wilcoxon_test": lambda x, y: stats.wilcoxon_test(x, y),
    "sign_test": lambda x, y: stats.sign_test(x, y),
    "randomization_test": lambda x, y: stats.randomization_test(x, y, samples=300, seed=3),
    "bootstrap_test": lambda x, y: stats.bootstrap_test(x, y, samples=300, seed=3),
    "paired_test": lambda x, y: stats.paired_test(x, y, "bootstrap", samples=300, seed=5),
}


@pytest.mark.parametrize("form", FORMS)
@pytest.mark.parametrize("name", list(PAIRED))
def test_paired_tests_take_every_score_form(results, name, form):
    a, b = list(results.values())[:2]
    ref = PAIRED[name](score_forms(a)["numpy"], score_forms(b)["numpy"]).to_records()
    got = PAIRED[name](score_forms(a)[form], score_forms(b)[form]).to_records()
    assert same(got, ref)


CORRELATIONS = {
    "pearson": stats.pearson,
    "spearman": stats.spearman,
    "kendall_tau_b": stats.kendall_tau_b,
    "weighted_tau": stats.weighted_tau,
}


@pytest.mark.parametrize("form", FORMS)
@pytest.mark.parametrize("name", list(CORRELATIONS))
def test_correlations_take_every_score_form(results, name, form):
    a = next(iter(results.values()))
    fn = CORRELATIONS[name]
    ref = fn(score_forms(a, "AP")["numpy"], score_forms(a, "P@10")["numpy"])
    x, y = score_forms(a, "AP")[form], score_forms(a, "P@10")[form]
    if form == "Results":  # two measures of one run: one Results, each named
        x, y = a.select("AP"), a.select("P@10")
    assert same(fn(x, y).to_dict(), ref.to_dict())


def test_correlation_pairs_by_key():
    x = {"s1": 0.1, "s2": 0.5, "s3": 0.3, "s4": 0.9}
    y = {"s4": 0.8, "s2": 0.2, "s1": 0.4, "s3": 0.1}  # another order
    ref = stats.pearson([0.1, 0.5, 0.3, 0.9], [0.4, 0.2, 0.1, 0.8])
    assert stats.pearson(x, y) == ref
    with pytest.raises(cwlkit.errors.ParamError, match="same topics; 1 topic of x only"):
        stats.pearson({**x, "s5": 1.0}, {**y, "s6": 1.0})


P_VALUES = np.array([0.001, 0.04, 0.03, 0.2, np.nan, 0.5])


@pytest.mark.parametrize(
    "form",
    {
        "list": P_VALUES.tolist(),
        "tuple": tuple(P_VALUES.tolist()),
        "pandas Series": pd.Series(P_VALUES),
        "polars Series": pl.Series(P_VALUES.tolist()),
        "2-d list": P_VALUES.reshape(2, 3).tolist(),
    }.items(),
    ids=lambda f: f[0],
)
def test_correct_takes_every_form(form):
    name, value = form
    for method in ("holm", "bh", "hommel"):
        ref_rej, ref_adj = stats.correct(P_VALUES, method)
        rej, adj = stats.correct(value, method)
        np.testing.assert_array_equal(rej.reshape(-1), ref_rej)
        np.testing.assert_array_equal(adj.reshape(-1), ref_adj)


# ----------------------------------------------------------------- several runs


def runs_forms(results: dict[str, cwlkit.Results]) -> dict[str, Any]:
    metric = ir_measures.Metric
    return {
        "Results mapping": dict(results),
        "list of Results": list(results.values()),
        "pytrec_eval dicts": {n: r.to_dict() for n, r in results.items()},
        "ir_measures records": {
            n: [
                metric(d["topic"], ir_measures.parse_measure(d["measure"]), d["value"])
                for d in r.to_records()
            ]
            for n, r in results.items()
        },
        "record dicts": {n: r.to_records() for n, r in results.items()},
        "pandas long": {n: r.to_frame() for n, r in results.items()},
        "pandas wide": {n: r.to_frame(wide=True) for n, r in results.items()},
        "polars long": {n: r.to_polars() for n, r in results.items()},
        "polars wide": {n: r.to_polars(wide=True) for n, r in results.items()},
        "one pandas frame": pd.concat([r.to_frame() for r in results.values()]),
        "one polars frame": pl.concat([r.to_polars() for r in results.values()]),
    }


RUN_FORMS = [
    "Results mapping",
    "list of Results",
    "pytrec_eval dicts",
    "ir_measures records",
    "record dicts",
    "pandas long",
    "pandas wide",
    "polars long",
    "polars wide",
    "one pandas frame",
    "one polars frame",
]


def _compare(runs: Any) -> list[dict[str, Any]]:
    return stats.compare(runs, test="randomization", samples=200, correction="holm").to_records()


@pytest.mark.parametrize("form", RUN_FORMS)
def test_compare_takes_every_runs_form(results, form):
    assert _compare(runs_forms(results)[form]) == _compare(results)


@pytest.mark.parametrize("form", RUN_FORMS)
def test_report_table_takes_every_runs_form(results, form):
    ref = stats.report_table(results, test="t").to_dict()
    assert same(stats.report_table(runs_forms(results)[form], test="t").to_dict(), ref)


@pytest.mark.parametrize("form", RUN_FORMS)
def test_correlation_matrix_takes_every_runs_form(results, form):
    ref = stats.correlation_matrix(results).to_dict()
    assert same(stats.correlation_matrix(runs_forms(results)[form]).to_dict(), ref)


@pytest.mark.parametrize("form", ["dict", "pandas Series", "numpy", "list"])
def test_compare_takes_one_measure_per_run(results, form):
    ref = _compare({n: r.select("AP") for n, r in results.items()})
    got = _compare({n: score_forms(r)[form] for n, r in results.items()})
    for rec in ref:
        rec["measure"] = "score"
    assert got == ref


# ----------------------------------------------------------------- many systems


def system_forms(results: dict[str, cwlkit.Results]) -> dict[str, Any]:
    per = {n: score_forms(r) for n, r in results.items()}
    return {
        "numpy": np.vstack([p["numpy"] for p in per.values()]),
        "list of lists": [p["list"] for p in per.values()],
        "pandas DataFrame": pd.DataFrame({n: p["pandas Series"] for n, p in per.items()}),
        "dict of arrays": {n: p["numpy"] for n, p in per.items()},
        "dict of dicts": {n: p["dict"] for n, p in per.items()},
        "dict of Series": {n: p["pandas Series"] for n, p in per.items()},
        "dict of Results": {n: p["Results"] for n, p in per.items()},
    }


@pytest.mark.parametrize(
    "form",
    [
        "list of lists",
        "pandas DataFrame",
        "dict of arrays",
        "dict of dicts",
        "dict of Series",
        "dict of Results",
    ],
)
def test_tukey_and_anova_take_every_form(results, form):
    forms = system_forms(results)
    ref_t, got_t = stats.tukey_hsd(forms["numpy"]), stats.tukey_hsd(forms[form])
    for field in ("diff", "p_value", "ci_low", "ci_high"):
        np.testing.assert_allclose(getattr(got_t, field), getattr(ref_t, field), rtol=1e-12)
    ref_a, got_a = stats.two_way_anova(forms["numpy"]), stats.two_way_anova(forms[form])
    for ra, ga in zip(ref_a.to_records(), got_a.to_records(), strict=True):
        assert ga["source"] == ra["source"]
        np.testing.assert_allclose(
            [ga[k] for k in ("df", "sum_sq", "mean_sq", "F", "p_value")],
            [ra[k] for k in ("df", "sum_sq", "mean_sq", "F", "p_value")],
            rtol=1e-12,
        )


@pytest.mark.parametrize("form", ["list", "tuple", "pandas", "polars"], ids=lambda f: f)
def test_fit_parameter_takes_every_form(results, form):
    a = np.concatenate([r.values[0] for r in results.values()])  # AP per (run, topic)
    b = np.concatenate([r.values[1] for r in results.values()])  # P@10
    values = np.vstack([b, (a + b) / 2, a])
    grid = np.array([0.0, 0.5, 1.0])
    ref = stats.fit_parameter(a, values, grid).to_records()
    conv = {
        "list": lambda v: v.tolist(),
        "tuple": lambda v: tuple(map(tuple, v)) if v.ndim == 2 else tuple(v.tolist()),
        "pandas": lambda v: pd.DataFrame(v) if v.ndim == 2 else pd.Series(v),
        "polars": lambda v: pl.DataFrame(v, orient="row") if v.ndim == 2 else pl.Series(v.tolist()),
    }[form]
    got = stats.fit_parameter(conv(a), conv(values), conv(grid)).to_records()
    assert got == ref


# --------------------------------------------------------------- qrels and runs


def _rows(path: Path) -> list[list[str]]:
    return [line.split() for line in read_data(path).splitlines() if line.strip()]


def qrels_forms(tmp: Path) -> dict[str, Any]:
    rows = _rows(QRELS)
    gz = tmp / "qrels.gz"
    gz.write_bytes(gzip.compress(QRELS.read_bytes()))
    cols = {
        "query_id": [r[0] for r in rows],
        "doc_id": [r[2] for r in rows],
        "relevance": [int(r[3]) for r in rows],
    }
    pytrec: dict = {}
    for r in rows:
        pytrec.setdefault(r[0], {})[r[2]] = int(r[3])
    from cwlkit.io.trec import read_qrels

    return {
        "path": str(QRELS),
        "Path": QRELS,
        "gzip": str(gz),
        "pandas": pd.DataFrame(cols),
        "polars": pl.DataFrame(cols),
        "pyarrow": pa.table(cols),
        "pytrec_eval dict": pytrec,
        "ir_measures records": list(ir_measures.read_trec_qrels(str(QRELS))),
        "Qrels/Run": read_qrels(QRELS),
    }


def run_forms(path: Path, tmp: Path) -> dict[str, Any]:
    rows = _rows(path)
    gz = tmp / (path.name + ".gz")
    gz.write_bytes(gzip.compress(read_data(path).encode()))
    cols = {
        "query_id": [r[0] for r in rows],
        "doc_id": [r[2] for r in rows],
        "score": [float(r[4]) for r in rows],
    }
    pytrec: dict = {}
    for r in rows:
        pytrec.setdefault(r[0], {})[r[2]] = float(r[4])
    from cwlkit.io.trec import read_run

    return {
        "path": str(path),
        "Path": path,
        "gzip": str(gz),
        "pandas": pd.DataFrame(cols),
        "polars": pl.DataFrame(cols),
        "pyarrow": pa.table(cols),
        "pytrec_eval dict": pytrec,
        "ir_measures records": list(ir_measures.read_trec_run(str(path))),
        "Qrels/Run": read_run(path),
    }


EVAL_FORMS = [
    "path",
    "Path",
    "gzip",
    "pandas",
    "polars",
    "pyarrow",
    "pytrec_eval dict",
    "ir_measures records",
    "Qrels/Run",
]


@pytest.fixture(scope="module")
def evaluated_forms(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("forms")
    q = qrels_forms(tmp)
    r = [run_forms(p, tmp) for p in RUNS]
    names = [p.name for p in RUNS]
    return {f: (q[f], {n: rf[f] for n, rf in zip(names, r, strict=True)}) for f in EVAL_FORMS}


@pytest.mark.parametrize("form", EVAL_FORMS)
def test_correlate_runs_takes_every_qrels_and_run_form(evaluated_forms, form):
    ref = stats.correlate_runs(*evaluated_forms["path"], MEASURES, jobs=1).to_dict()
    got = stats.correlate_runs(*evaluated_forms[form], MEASURES, jobs=1).to_dict()
    assert same(got, ref)


@pytest.mark.parametrize("form", EVAL_FORMS)
def test_fit_runs_takes_every_qrels_and_run_form(evaluated_forms, form):
    args = ("AP", "RBP(p=0.5:0.9:0.2)")
    ref = stats.fit_runs(*evaluated_forms["path"], *args).to_records()
    got = stats.fit_runs(*evaluated_forms[form], *args).to_records()
    assert same(got, ref)
