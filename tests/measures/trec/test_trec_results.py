"""trec_eval's path gives a :class:`cwlkit.Results` like every other path: the same values as
:class:`cwlkit.Evaluator` for the same canonical measures, and trec_eval's text is a
formatter of Results.

References: trec_eval's own expected outputs (data/trec_eval_test, from the C
programs), the Evaluator (an independent path: its own batch and the registry classes'
``compute``), and hand counts from the qrels file.
"""

from __future__ import annotations

import numpy as np
import pytest
from conftest import DATA

import cwlkit
from cwlkit.formats.trec_eval import evaluate_trec, format_trec_eval, write_trec_eval
from cwlkit.io.trec import read_qrels, read_run
from cwlkit.measures.parse import parse_measures
from cwlkit.measures.trec.registered import TREC_CLASSES, from_trec, trec_eval_name
from cwlkit.measures.trec.select import printed_names, trec_eval_names
from cwlkit.measures.trec.spec import MEASURES

WEB = DATA / "web2012"
WEB_QRELS = WEB / "qrels.web.151-200.txt"
WEB_RUN = WEB / "runs" / "web2012.ql.cata.run.gz"
SUITE = DATA / "trec_eval_test"
MEAS_PARAMS = [
    "iprec_at_recall..10,.20,.25,.75,.50",
    "P.5,7,3",
    "recall.20,2000",
    "Rprec_mult.5.0,0.2,0.35",
    "utility.2,-1,0,0",
    "11pt_avg..25,.5,.75",
    "ndcg.1=3,2=9,4=4.5",
    "ndcg_cut.10,20,23.4",
    "success.2,5,20",
]
#: (folder, expected output, -m specs, qrels, run, -l)
GOLDEN = [
    ("9.0.8", "out.test.aq", ["all_trec"], "qrels.test", "results.test", 1),
    ("9.0.8", "out.test.aql", ["all_trec", "relstring.20"], "qrels.rel_level", "results.test", 2),
    ("9.0.8", "out.test.meas_params", MEAS_PARAMS, "qrels.test", "results.test", 1),
    ("10.0", "out.test.aq", ["all_trec"], "qrels.test", "results.test", 1),
    ("10.0", "out.test.meas_params", MEAS_PARAMS, "qrels.test", "results.test", 1),
]


def _numeric(res) -> list[str]:
    """The measures of a trec_eval Results that are measures (not relstring's text)."""
    return [m for m in res.measures if m not in res.text]


@pytest.mark.parametrize(("version", "level"), [(9, 1), (9, 2), (10, 1)])
def test_trec_eval_results_equal_evaluator_on_web2012(version, level):
    """Every all_trec value, per topic, equals what cwlkit.Evaluator computes for the same
    canonical names (P_10 is P@10, map is AP; with -l 2, P(rel=2)@10)."""
    spec = ["all_trec", "P.1,2,3", "ndcg_cut.1,3", "map_cut.1000,2000"]
    res = evaluate_trec(
        read_qrels(WEB_QRELS), read_run(WEB_RUN), spec, version=version, rel_level=level
    )
    names = _numeric(res)
    assert len(names) == len(set(names)) > 70 and "NumQ" in names
    if level == 2:
        assert "P(rel=2)@2" in names and "GMAP(rel=2)" in names
    else:
        assert "P@2" in names and "GMAP" in names
    ev = cwlkit.Evaluator(str(WEB_QRELS), names, trec_version=version).evaluate(str(WEB_RUN))
    assert ev.measures == names and ev.topics == res.topics and len(ev.topics) == 50
    rows = [res.measures.index(m) for m in names]
    np.testing.assert_allclose(ev.values, res.values[rows], rtol=1e-13, atol=1e-15)
    mine, theirs = res.mean(), ev.mean()
    for m in names:  # trec_eval adds in topic order, numpy pairwise: equal to 1e-12
        assert mine[m] == pytest.approx(theirs[m], rel=1e-12, abs=1e-15), m
    assert res.run == ev.run == read_run(WEB_RUN).runid


@pytest.mark.parametrize(("folder", "expected", "specs", "qrels", "run", "level"), GOLDEN)
def test_formatter_prints_evaluator_results_as_trec_eval(
    folder, expected, specs, qrels, run, level
):
    """The trec_eval text of the trec_eval path's Results, and of the Evaluator's Results for
    the same canonical measures (names derived from the registry), is trec_eval's output
    byte for byte (relstring, text only trec_eval has, aside)."""
    d = SUITE / folder
    version = 10 if folder == "10.0" else 9
    want = (d / expected).read_text()
    res = evaluate_trec(
        read_qrels(d / qrels), read_run(d / run), specs, version=version, rel_level=level
    )
    names = trec_eval_names(specs, version)
    assert format_trec_eval(res, names, per_topic=True) == want
    ev = cwlkit.Evaluator(str(d / qrels), _numeric(res), trec_version=version).evaluate(
        str(d / run)
    )
    no_text = "".join(line for line in want.splitlines(True) if not line.startswith("relstring"))
    got = format_trec_eval(ev, per_topic=True)  # names by default: runid, then the measures'
    if "runid" not in names:
        got = got.replace(f"{'runid':<22}\tall\t{ev.run}\n", "", 1)
    assert got == no_text
    pieces: list[str] = []
    write_trec_eval(res, pieces.append, names, per_topic=True, block=2)
    assert "".join(pieces) == want and len(pieces) > 2


def test_every_trec_eval_name_has_a_canonical_measure_that_prints_it():
    """Each row of trec_eval's table: its canonical measures (the registry's) print back as
    trec_eval's names, and parse back to themselves."""
    checked = 0
    for row in MEASURES:
        if row.name not in TREC_CLASSES:
            assert row.name in ("runid", "num_q", "relstring")
            continue
        ms = from_trec(row.name, None, row.default)
        assert [trec_eval_name(m) for m in ms] == printed_names(row, row.default, None)
        for m in ms:
            assert parse_measures(m.name) == [m]
            checked += 1
    assert checked > 60
    assert trec_eval_name(parse_measures("NumQ")[0]) == "num_q"
    assert trec_eval_name(parse_measures("RR@10")[0]) is None  # MRR@10: not trec_eval's


def test_complete_rel_info_summary_counts_the_missing_topics():
    """-c (9.0.8): the Results hold every qrels topic, those without results marked absent;
    what trec_eval prints holds the topics with results, and its 'all' lines average over
    every qrels topic (the others count as 0, 1e-5 in GMAP) and NumRel sums R over all."""
    from cwlkit.formats.trec_eval import TrecEval, trec_summary

    d = SUITE / "9.0.8"
    qrels_lines = [line.split() for line in (d / "qrels.test").read_text().splitlines()]
    qrels_topics = {t for t, *_ in qrels_lines}
    R = sum(1 for *_, rel in qrels_lines if int(rel) >= 1)
    te = TrecEval.create(read_qrels(d / "qrels.test"), ["official"], all_topics=True)
    res = te.evaluate(read_run(d / "results.trunc", extra=True))
    n = len(qrels_topics)
    assert sorted(res.topics) == sorted(qrels_topics) and 0 < len(res.absent) < n
    shown, totals = te.view(res)
    assert len(shown.topics) == n - len(res.absent) and totals.num_q == n
    agg = trec_summary(shown, totals)
    assert agg["NumQ"] == n and agg["NumRel"] == R
    ap = shown.values[shown.measures.index("AP")]
    assert agg["AP"] == pytest.approx(ap.sum() / n, rel=1e-15)
    gm = np.exp((np.log(np.maximum(ap, 1e-5)).sum() + (n - ap.size) * np.log(1e-5)) / n)
    assert agg["GMAP"] == pytest.approx(gm, rel=1e-12)
    text = te.text(res)
    assert f"num_q                 \tall\t{n}\n" in text
    assert f"num_rel               \tall\t{R}\n" in text


@pytest.mark.parametrize("version", ["9", "10"])
def test_complete_rel_info_num_rel_ignores_the_level(cli, tmp_path, version):
    """With -c trec_eval's num_rel 'all' line counts every qrels label > 0 of every qrels
    topic, whatever -l (m_num_rel.c's te_calc_avg_num_rel; both C programs print 6 here,
    cwlkit printed 3, the labels >= 2); per topic, num_rel is at the level."""
    q, r = tmp_path / "q.txt", tmp_path / "r.txt"
    q.write_text("1 0 a 1\n1 0 b 2\n1 0 c 0\n2 0 d 1\n2 0 e 3\n3 0 f 1\n3 0 g 2\n3 0 h -1\n")
    r.write_text("1 Q0 a 1 3 t\n1 Q0 c 2 2 t\n2 Q0 e 1 5 t\n")
    args = ["trec_eval", "--trec-version", version, "-q", "-c", "-l", "2", "-m", "num_rel"]
    rc, out, _ = cli(*args, q, r)
    assert rc == 0 and "num_rel               \tall\t6\n" in out
    assert "num_rel               \t1\t1\n" in out and "num_rel               \t2\t1\n" in out
    rc, out, _ = cli(*args[:5], "-m", "num_rel", q, r)  # (level 1: the same count)
    assert "num_rel               \tall\t6\n" in out


def test_max_depth_zero_keeps_no_document(cli, tmp_path):
    """``-M 0`` keeps no document, as trec_eval's C program does (num_ret 0, map 0); the API's
    ``depth=0`` likewise."""
    import cwlkit

    q, r = tmp_path / "q.txt", tmp_path / "r.txt"
    q.write_text("1 0 a 1\n1 0 b 2\n2 0 d 1\n")
    r.write_text("1 Q0 a 1 3 t\n1 Q0 c 2 2 t\n2 Q0 d 1 5 t\n")
    rc, out, _ = cli("trec_eval", "-M", "0", "-m", "map", "-m", "num_ret", q, r)
    assert (rc, out) == (0, "num_ret               \tall\t0\nmap                   \tall\t0.0000\n")
    assert cwlkit.evaluate(q, r, ["NumRet"], depth=0).mean() == {"NumRet": 0.0}


def test_utility_takes_the_collection_size(cli, tmp_path):
    """``-N`` reaches Utility's ``N`` (by hand: R = 2, 3 retrieved of which 1 relevant, N =
    10: 1*1 - 1*2 + 0*1 + 1*(10 + 1 - 3 - 2) = 5; without -N the last term is -4)."""
    import cwlkit

    q, r = tmp_path / "q.txt", tmp_path / "r.txt"
    q.write_text("1 0 a 1\n1 0 b 1\n1 0 c 0\n")
    r.write_text("1 Q0 a 1 3 t\n1 Q0 c 2 2 t\n1 Q0 x 3 1 t\n")
    args = ["trec_eval", "-m", "utility.1,-1,0,1", q, r]
    assert cli(*args)[1] == "utility_1,-1,0,1      \tall\t-5.0000\n"
    assert cli(*args[:1], "-N", "10", *args[1:])[1] == "utility_1,-1,0,1      \tall\t5.0000\n"
    got = cwlkit.evaluate(q, r, ["Utility(a=1,b=-1,c=0,d=1,N=10)"]).mean()
    assert got == {"Utility(d=1,N=10)": 5.0}  # (defaults omitted from the name)
