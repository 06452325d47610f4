"""trec_eval's preference (-R prefs, qrels_prefs) and judgment-group (-R qrels_jg) measures.

References: trec_eval's own expected outputs (9.0.8 and 10.0, in data/trec_eval_test),
hand computations, and a loop-by-loop transcription of trec_eval's C counting on random inputs.
"""

from __future__ import annotations

import itertools
import random
from pathlib import Path

import numpy as np
import pytest
from conftest import DATA as _DATA

from cwlkit.errors import CwlkitError, FormatError, ParamError
from cwlkit.formats.trec_eval import TrecEval, trec_summary
from cwlkit.io.prefs import read_prefs, read_qrels_jg, read_qrels_prefs
from cwlkit.io.trec import Run, read_run
from cwlkit.measures.trec.prefs import prefs_names
from cwlkit.measures.trec.prefs_counts import PREFS_MEASURES

DATA = _DATA / "trec_eval_test"

CASES = [
    ("9.0.8", "out.test.prefs", "prefs", "prefs.test", "prefs.results.test", "all_prefs"),
    ("10.0", "out.test.prefs", "prefs", "prefs.test", "prefs.results.test", "all_prefs"),
    ("10.0", "out.test.prefs", "prefs", "prefs.comment.test", "prefs.results.test", "all_prefs"),
    ("9.0.8", "out.test.qrels_prefs", "qrels_prefs", "qrels.test", "results.test", "all_prefs"),
    ("10.0", "out.test.qrels_prefs", "qrels_prefs", "qrels.test", "results.test", "all_prefs"),
    ("9.0.8", "out.test.qrels_jg", "qrels_jg", "qrels.123", "results.test", "qrels_jg"),
    ("10.0", "out.test.qrels_jg", "qrels_jg", "qrels.123", "results.test", "qrels_jg"),
    ("10.0", "out.test.qrels_jg", "qrels_jg", "qrels.comments.123", "results.test", "qrels_jg"),
]


def _evaluate(
    kind,
    qrels,
    run,
    names=None,
    *,
    version=9,
    nickname=None,
    max_depth=None,
    all_topics=False,
    rel_level=1.0,
):
    """The Results of ``cwlkit trec_eval -R kind`` (through the Evaluator), restricted to what
    trec_eval prints, with ``summary`` (its 'all' values) and ``totals`` attached."""
    if not isinstance(run, Run):
        run = read_run(run, comments=version >= 10)
    specs = [*(names or []), *([nickname] if nickname else [])] or None
    te = TrecEval.create_prefs(
        kind,
        str(qrels),
        specs,
        version=version,
        all_topics=all_topics,
        rel_level=rel_level,
        max_depth=max_depth,
    )
    res, totals = te.view(te.evaluate(run))
    res.totals = totals  # (for the printer)
    res.summary = trec_summary(res, totals)  # what trec_eval prints on the 'all' lines
    return res


def _formatted(res, printed: list[str]) -> dict[tuple[str, str], str]:
    """(printed name, topic) -> value as trec_eval formats it (%ld for the counts summed over
    topics, else %6.4f); runid as text. ``printed``: the names, runid included."""
    out = {}
    if "runid" in printed:
        out[("runid", "all")] = res.run
    rows = [n for n in printed if n != "runid"]
    agg = res.summary
    for name, m, how, row in zip(rows, res.measures, res.aggregates, res.values, strict=True):

        def fmt(v, how=how):
            return str(int(v)) if how == "sum" else f"{v:6.4f}"

        if m != "NumQ":  # num_q: the 'all' line only
            for topic, v in zip(res.topics, row, strict=True):
                out[(name, topic)] = fmt(v)
        out[(name, "all")] = fmt(agg[m])
    return out


def _expected(path: Path) -> tuple[dict[tuple[str, str], str], list[str]]:
    vals, order = {}, []
    for line in path.read_text().splitlines():
        name, topic, value = line.split("\t")
        vals[(name.strip(), topic)] = value
        if topic == "all":
            order.append(name.strip())
    return vals, order


@pytest.mark.parametrize(("version", "expected", "kind", "qrels", "results", "nick"), CASES)
def test_trec_eval_test_suite(version, expected, kind, qrels, results, nick):
    """Every per-topic and `all` value of trec_eval's own test outputs."""
    folder = DATA / version
    ver = 9 if version == "9.0.8" else 10
    table = _evaluate(kind, folder / qrels, folder / results, None, version=ver, nickname=nick)
    want, order = _expected(folder / expected)
    printed = prefs_names(kind, None, nick)
    got = _formatted(table, printed)
    assert got == want
    # names in trec_eval's print order, topics in its order
    assert order == printed
    want_topics = list(dict.fromkeys(t for (_, t) in want if t != "all"))
    assert table.topics == want_topics


@pytest.mark.parametrize(("version", "expected", "kind", "qrels", "results", "nick"), CASES)
def test_trec_eval_test_suite_bytes(version, expected, kind, qrels, results, nick):
    """Byte for byte through cwlkit's trec_eval printer."""
    report = pytest.importorskip("cwlkit.formats.trec_eval")
    folder = DATA / version
    ver = 9 if version == "9.0.8" else 10
    table = _evaluate(kind, folder / qrels, folder / results, None, version=ver, nickname=nick)
    text = report.format_trec_eval(
        table, prefs_names(kind, None, nick), per_topic=True, summary=True, totals=table.totals
    )
    assert text == (folder / expected).read_text()


# ------------------------------------------------------------------ hand-computed examples


def _write(tmp_path: Path, name: str, text: str) -> Path:
    p = tmp_path / name
    p.write_text(text)
    return p


def _run(rows, tag="r1"):
    return Run.from_records(rows, tag=tag)


def _vals(table, topic):
    i = table.topics.index(topic)
    return {
        n: float(v[i]) for n, v in zip(table.measures, table.values, strict=True) if n != "NumQ"
    }


def test_hand_prefs_ec_two_users(tmp_path):
    """Two one-sub-group JGs that disagree; one judged doc not retrieved; one doc unjudged.

    u1: A(2) > B(1) > C(0); u2: B(1) > A(0). Ranking A, C, D (B not retrieved): docid ranks
    A=0, C=1, B=2, njr=2.
    u1: A>C fulfilled (retrieved), A>B fulfilled (implied), B>C failed (implied).
    u2: B>A failed (implied).
    """
    prefs = _write(tmp_path, "p", "T u1 s A 2\nT u1 s B 1\nT u1 s C 0\nT u2 s B 1\nT u2 s A 0\n")
    run = _run([("T", "A", 3.0), ("T", "C", 2.0), ("T", "D", 1.0)])
    t = _evaluate("prefs", prefs, run, None, nickname="all_prefs")
    v = _vals(t, "T")
    assert (
        v["prefs_num_prefs_poss"] == 4
        and v["prefs_num_prefs_ful"] == 2
        and v["prefs_num_prefs_ful_ret"] == 1
    )
    assert v["prefs_simp"] == pytest.approx(2 / 4)
    assert v["prefs_simp_ret"] == pytest.approx(1.0)
    assert v["prefs_simp_imp"] == pytest.approx(2 / 4)
    assert v["prefs_avgjg"] == pytest.approx((2 / 3 + 0) / 2)
    assert v["prefs_avgjg_ret"] == pytest.approx((1 + 0) / 2)  # u2 has no retrieved pair: adds 0
    assert v["prefs_avgjg_imp"] == pytest.approx((2 / 3 + 0) / 2)
    # pairs: {A,B} 1 for / 1 against -> 0.5 (implied); {A,C} 1 (retrieved); {B,C} 0 (implied)
    assert v["prefs_pair"] == pytest.approx((0.5 + 1 + 0) / 3)
    assert v["prefs_pair_ret"] == pytest.approx(1.0)
    assert v["prefs_pair_imp"] == pytest.approx((0.5 + 1 + 0) / 3)
    # Rnonrel: u1 R=2 >= N=1 -> (2 + 1*1) / (3 + 2*1); u2 R=N=1 -> 0/1
    assert v["prefs_avgjg_Rnonrel"] == pytest.approx((3 / 5 + 0) / 2)
    # Rnonrel_ret: u1 R=N=1 -> 1/1; u2 R=0 < N=1 -> recount finds nothing: 0/0, and
    # trec_eval's NaN sum makes the topic 0
    assert v["prefs_avgjg_Rnonrel_ret"] == 0.0
    assert t.summary["prefs_simp"] == pytest.approx(0.5)
    assert t.summary["prefs_num_prefs_poss"] == 4
    assert t.measures[0] == "NumQ" and t.run == "r1" and t.summary["NumQ"] == 1
    assert prefs_names("prefs", None, "all_prefs")[:2] == ["runid", "num_q"]


def test_hand_prefs_subgroups_transitive(tmp_path):
    """A JG with two sub-groups: A>B (s1) and B>C (s2) imply A>C.

    Ranking C, A, B: A>B fulfilled, B>C and A>C failed -> 1/3 (1/2 without transitivity).
    All three documents relevant (R=3, N=0): Rnonrel = (1 + 3*3) / (3 + 3*3).
    """
    prefs = _write(tmp_path, "p", "T u s1 A 3\nT u s1 B 2\nT u s2 B 5\nT u s2 C 4\n")
    run = _run([("T", "C", 3.0), ("T", "A", 2.0), ("T", "B", 1.0)])
    v = _vals(_evaluate("prefs", prefs, run, None, nickname="all_prefs"), "T")
    assert v["prefs_num_prefs_poss"] == 3 and v["prefs_num_prefs_ful"] == 1
    assert v["prefs_simp"] == pytest.approx(1 / 3)
    assert v["prefs_pair"] == pytest.approx(1 / 3)
    assert v["prefs_avgjg"] == pytest.approx(1 / 3)
    assert v["prefs_avgjg_Rnonrel"] == pytest.approx(10 / 12)
    assert v["prefs_avgjg_Rnonrel_ret"] == pytest.approx(10 / 12)


def test_hand_qrels_jg(tmp_path):
    """Two users: a judges d1 1, d2 0, d3 1; b judges d2 1, d4 1. Ranking d1, d2, d5.

    AP_a = (1/1)/2, AP_b = (1/2)/2. P@1: 1 and 0; P@2: 1/2 and 1/2; P@5: 1/5 each.
    Rprec_mult: R=2 for both; x=0.5 -> c=(long)1.9=1; x=1 -> c=2; x=2 -> c=4 > 3 docs -> 1/4.
    """
    qrels = _write(tmp_path, "q", "q a d1 1\nq a d2 0\nq a d3 1\nq b d2 1\nq b d4 1\n")
    run = _run([("q", "d1", 0.9), ("q", "d2", 0.8), ("q", "d5", 0.7)])
    t = _evaluate(
        "qrels_jg", qrels, run, ["map_avgjg", "P_avgjg.5,1,2", "Rprec_mult_avgjg.2,0.5,1"]
    )
    assert t.measures == [
        "map_avgjg",
        "P_avgjg_1",
        "P_avgjg_2",
        "P_avgjg_5",
        "Rprec_mult_avgjg_0.50",
        "Rprec_mult_avgjg_1.00",
        "Rprec_mult_avgjg_2.00",
    ]
    v = _vals(t, "q")
    assert v["map_avgjg"] == pytest.approx((0.5 + 0.25) / 2)
    assert v["P_avgjg_1"] == pytest.approx(0.5)
    assert v["P_avgjg_2"] == pytest.approx(0.5)
    assert v["P_avgjg_5"] == pytest.approx(0.2)
    assert v["Rprec_mult_avgjg_0.50"] == pytest.approx(0.5)
    assert v["Rprec_mult_avgjg_1.00"] == pytest.approx(0.5)
    assert v["Rprec_mult_avgjg_2.00"] == pytest.approx(0.25)
    # -l 0: d2 becomes relevant for a as well (R_a = 3)
    v0 = _vals(_evaluate("qrels_jg", qrels, run, ["map_avgjg"], rel_level=0), "q")
    assert v0["map_avgjg"] == pytest.approx(((1 + 1) / 3 + 0.25) / 2)


def test_ties_prefs_ascending_jg_descending(tmp_path):
    """Equal scores: form_prefs_counts breaks ties by docno ascending, form_res_rels_jg
    descending."""
    prefs = _write(tmp_path, "p", "T u s A 1\nT u s B 0\n")
    qrels = _write(tmp_path, "q", "T u A 1\nT u B 0\n")
    run = _run([("T", "A", 1.0), ("T", "B", 1.0)])
    assert _vals(_evaluate("prefs", prefs, run, ["prefs_simp"]), "T")["prefs_simp"] == 1.0
    assert _vals(_evaluate("qrels_jg", qrels, run, ["map_avgjg"]), "T")["map_avgjg"] == 0.5


def test_float_scores_in_9(tmp_path):
    """9.0.8 keeps scores as C floats: 1.0000000001 and 1.0 tie there, not in 10.0."""
    prefs = _write(tmp_path, "p", "T u s B 1\nT u s A 0\n")
    run = _run([("T", "A", 1.0000000001), ("T", "B", 1.0)])
    assert (
        _vals(_evaluate("prefs", prefs, run, ["prefs_simp"], version=9), "T")["prefs_simp"] == 0.0
    )
    assert (
        _vals(_evaluate("prefs", prefs, run, ["prefs_simp"], version=10), "T")["prefs_simp"] == 0.0
    )
    run2 = _run([("T", "B", 1.0000000001), ("T", "A", 1.0)])  # B > A in double only
    assert (
        _vals(_evaluate("prefs", prefs, run2, ["prefs_simp"], version=9), "T")["prefs_simp"] == 0.0
    )
    assert (
        _vals(_evaluate("prefs", prefs, run2, ["prefs_simp"], version=10), "T")["prefs_simp"] == 1.0
    )


def test_max_depth(tmp_path):
    """-M 1 keeps only the top document: B>A becomes implied (still fulfilled) for ranking B, A."""
    prefs = _write(tmp_path, "p", "T u s B 1\nT u s A 0\nT u s C 0\n")
    run = _run([("T", "B", 3.0), ("T", "C", 2.0), ("T", "A", 1.0)])
    full = _vals(_evaluate("prefs", prefs, run, ["prefs_num_prefs_ful_ret", "prefs_simp_ret"]), "T")
    cut = _vals(
        _evaluate(
            "prefs",
            prefs,
            run,
            ["prefs_num_prefs_ful_ret", "prefs_simp", "prefs_simp_ret"],
            max_depth=1,
        ),
        "T",
    )
    assert full["prefs_num_prefs_ful_ret"] == 2 and full["prefs_simp_ret"] == 1.0
    assert (
        cut["prefs_num_prefs_ful_ret"] == 0
        and cut["prefs_simp_ret"] == 0.0
        and cut["prefs_simp"] == 1.0
    )


def test_missing_topics_by_version(tmp_path):
    """A judgments topic without results: 9.0.8 skips it (-c: averages it as 0, unprinted);
    10.0 stops (-c: prints it, scored as an empty ranking)."""
    prefs = _write(tmp_path, "p", "T u s A 1\nT u s B 0\nU u s A 1\nU u s B 0\n")
    run = _run([("T", "A", 2.0), ("T", "B", 1.0), ("X", "A", 1.0)])
    names = ["prefs_num_prefs_poss", "prefs_simp", "prefs_avgjg_Rnonrel"]
    t9 = _evaluate("prefs", prefs, run, names, version=9)
    assert t9.topics == ["T"] and t9.summary["prefs_simp"] == 1.0
    t9c = _evaluate("prefs", prefs, run, ["num_q", *names], version=9, all_topics=True)
    assert t9c.topics == ["T"] and t9c.summary["NumQ"] == 2
    assert t9c.summary["prefs_simp"] == 0.5 and t9c.summary["prefs_num_prefs_poss"] == 1
    with pytest.raises(CwlkitError, match="'U'.*-c"):
        _evaluate("prefs", prefs, run, names, version=10)
    t10c = _evaluate("prefs", prefs, run, ["num_q", *names], version=10, all_topics=True)
    assert t10c.topics == ["T", "U"] and t10c.summary["NumQ"] == 2
    u = _vals(t10c, "U")
    assert (
        u["prefs_num_prefs_poss"] == 1
        and u["prefs_simp"] == 0.0
        and u["prefs_avgjg_Rnonrel"] == 0.0
    )
    assert t10c.summary["prefs_num_prefs_poss"] == 2


def test_measure_selection():
    folder = DATA / "9.0.8"
    t = _evaluate(
        "prefs", folder / "prefs.test", folder / "prefs.results.test", ["prefs_pair", "prefs_simp"]
    )
    assert t.measures == ["prefs_simp", "prefs_pair"]  # table order, not request order
    t = _evaluate(
        "prefs", folder / "prefs.test", folder / "prefs.results.test", None, nickname="prefs"
    )
    assert t.measures == ["NumQ", *PREFS_MEASURES[:6]]
    assert prefs_names("prefs", None, "prefs") == ["runid", "num_q", *PREFS_MEASURES[:6]]
    with pytest.raises(ParamError, match="illegal measure"):
        _evaluate("prefs", folder / "prefs.test", folder / "prefs.results.test", ["prefs_nope"])
    with pytest.raises(ParamError, match="cannot be computed"):
        _evaluate("prefs", folder / "prefs.test", folder / "prefs.results.test", ["map_avgjg"])
    with pytest.raises(ParamError, match="cannot be computed"):
        _evaluate("qrels_jg", folder / "qrels.123", folder / "results.test", ["prefs_simp"])
    with pytest.raises(ParamError, match="duplicate"):
        _evaluate("qrels_jg", folder / "qrels.123", folder / "results.test", ["P_avgjg.5,5"])
    t = _evaluate("qrels_jg", folder / "qrels.123", folder / "results.test", ["P_avgjg.20,3,23.4"])
    assert t.measures == ["P_avgjg_3", "P_avgjg_20", "P_avgjg_23"]  # sorted; atol("23.4") = 23
    with pytest.raises(ParamError, match="positive"):
        _evaluate("qrels_jg", folder / "qrels.123", folder / "results.test", ["P_avgjg.0"])


# ------------------------------------------------------------------ malformed input


def test_malformed_prefs_lines(tmp_path):
    bad = _write(tmp_path, "p", "T u s A 1\nT u s B\n")
    with pytest.raises(FormatError) as e:
        read_prefs(bad)
    assert e.value.line == 2 and "expected 5 fields" in str(e.value) and "\n" not in str(e.value)
    bad = _write(tmp_path, "p2", "T u s A 1\nT u s B high\n")
    with pytest.raises(FormatError) as e:
        read_prefs(bad)
    assert e.value.line == 2 and "rel_level" in str(e.value)
    with pytest.raises(FormatError, match="empty file"):
        read_prefs(_write(tmp_path, "p3", ""))
    # '#' lines: an error in 9.0.8 (6 fields here), skipped in 10.0
    c = _write(tmp_path, "p4", "# a comment line\nT u s A 1\n")
    with pytest.raises(FormatError):
        read_prefs(c)
    assert len(read_prefs(c, comments=True)) == 1


def test_malformed_qrels_jg_lines(tmp_path):
    with pytest.raises(FormatError) as e:
        read_qrels_jg(_write(tmp_path, "q", "1 a d1 1\n1 a d2\n"))
    assert e.value.line == 2 and "expected 4 fields" in str(e.value)
    with pytest.raises(FormatError) as e:
        read_qrels_jg(_write(tmp_path, "q2", "1 a d1 1\n1 b d1 0\n1 a d1 0\n"))
    assert e.value.line == 3 and "twice" in str(e.value)
    with pytest.raises(FormatError) as e:
        read_qrels_prefs(_write(tmp_path, "q3", "1 0 d1 1\n1 0 d2 x\n"))
    assert e.value.line == 2
    assert read_qrels_jg(_write(tmp_path, "q4", "1 a d1 2.7\n1 a d2 -1.5\n")).levels.tolist() == [
        2.0,
        -1.0,
    ]


def test_inconsistent_subgroups(tmp_path):
    """trec_eval aborts on a JG whose sub-groups prefer two documents both ways."""
    p = _write(tmp_path, "p", "T u s1 A 2\nT u s1 B 1\nT u s2 B 2\nT u s2 A 1\n")
    with pytest.raises(CwlkitError, match="inconsistent"):
        _evaluate("prefs", p, _run([("T", "A", 1.0)]), ["prefs_simp"])
    p = _write(tmp_path, "p2", "T u s1 A 2\nT u s1 B 0\nT u s2 B 1\nT u s2 C 0\n")
    with pytest.raises(CwlkitError, match="level 0.*'u' of topic 'T'"):
        _evaluate("prefs", p, _run([("T", "A", 1.0)]), ["prefs_simp"])
    p = _write(tmp_path, "p3", "T u s A 2\nT u s A 0\n")
    with pytest.raises(CwlkitError, match="two different levels"):
        _evaluate("prefs", p, _run([("T", "A", 1.0)]), ["prefs_simp"])


# ------------------------------------------------------------------ loop-by-loop reference


def _reference_prefs(lines, ranking):
    """trec_eval's form_prefs_counts and m_prefs_*.c for one topic, transcribed as loops.

    ``lines``: (jg, jsg, doc, level); ``ranking``: docs in rank order. Returns measure -> value.
    """
    judged = sorted({d for _, _, d, _ in lines})
    ret = [d for d in ranking if d in set(judged)]
    njr = len(ret)
    dr = {d: i for i, d in enumerate(ret)}
    for d in sorted(set(judged) - set(ret)):
        dr[d] = len(dr)
    nj = len(judged)
    ca = [[0] * nj for _ in range(nj)]
    jgs = []
    for g in sorted({x[0] for x in lines}):
        gl = sorted([x for x in lines if x[0] == g], key=lambda x: (x[1], -x[3], dr[x[2]]))
        st = dict(fr=0, pr=0, fi=0, pi=0, no=0, rel=0, relret=0, non=0, nonret=0)
        if len({x[1] for x in gl}) == 1:
            levels = sorted({x[3] for x in gl}, reverse=True)
            ecs = [(lv, [dr[x[2]] for x in gl if x[3] == lv]) for lv in levels]
            for lv, ranks in ecs:
                k = "rel" if lv > 0 else "non"
                st[k] += len(ranks)
                st[k + "ret"] += sum(r < njr for r in ranks)
            for i, (_, r1s) in enumerate(ecs):
                for _, r2s in ecs[i + 1 :]:
                    for a in r1s:
                        for b in r2s:
                            ca[a][b] += 1
                            if a < b:
                                st["fr" if b < njr else "fi" if a < njr else "no"] += 1
                            else:
                                st["pr" if a < njr else "pi" if b < njr else "no"] += 1
            st["ecs"] = ecs
        else:
            pa = [[0] * nj for _ in range(nj)]
            rel = [-1.0] * nj
            for i, x in enumerate(gl):
                rel[dr[x[2]]] = x[3]
                for y in gl[i + 1 :]:
                    if y[1] == x[1] and y[3] < x[3]:
                        pa[dr[x[2]]][dr[y[2]]] = 1
            for k, i, j in itertools.product(range(nj), repeat=3):  # Warshall
                if pa[i][k] and pa[k][j]:
                    pa[i][j] = 1
            for i in range(nj):
                pa[i][i] = 0
            for i in range(nj):
                if rel[i] > 0:
                    st["rel"] += 1
                    st["relret"] += i < njr
                elif rel[i] == 0:
                    st["non"] += 1
                    st["nonret"] += i < njr
            for i, j in itertools.product(range(nj), repeat=2):
                if pa[i][j]:
                    ca[i][j] += 1
                    if i < njr:
                        st["fr" if i < j < njr else "pr" if j < njr else "fi"] += 1
                    else:
                        st["pi" if j < njr else "no"] += 1
            st["pa"], st["relarr"] = pa, rel
        st["pr"] += st["fr"]
        st["pi"] += st["fi"]
        jgs.append(st)

    def rnonrel(st, ret_only):
        R, N = (st["relret"], st["nonret"]) if ret_only else (st["rel"], st["non"])
        if R >= N:
            ful = st["fr"] + (0 if ret_only else st["fi"]) + st["relret"] * (R - N)
            poss = st["pr"] + (0 if ret_only else st["pi"] + st["no"]) + st["rel"] * (R - N)
            return ful / poss if poss else float("nan")
        ful = poss = 0
        if "ecs" in st:
            ecs = st["ecs"]
            cut = (lambda rs: [r for r in rs if r < njr]) if ret_only else (lambda rs: rs)
            newlast = cut(ecs[-1][1])[: (st["relret"] if ret_only else st["rel"])]
            pairs = [
                (a, b)
                for i, (_, r1) in enumerate(ecs)
                for _, r2 in ecs[i + 1 : len(ecs) - 1]
                for a in cut(r1)
                for b in cut(r2)
            ]
            pairs += [(a, b) for _, r1 in ecs for a in cut(r1) for b in newlast]
            for a, b in pairs:
                if a < b and a < njr:
                    ful += 1
                else:
                    poss += 1
        else:
            pa, rel = st["pa"], st["relarr"]
            seen, first = 0, (njr if ret_only else nj)
            for i in range(njr if ret_only else nj):
                if rel[i] == 0:
                    seen += 1
                    if seen == st["rel"] + 1:
                        first = i
                        break
            keep = [not (i >= first and rel[i] == 0) for i in range(nj)]
            top = njr if ret_only else nj
            for i, j in itertools.product(range(top), repeat=2):
                if keep[i] and keep[j] and pa[i][j]:
                    if i < j and i < njr:
                        ful += 1
                    else:
                        poss += 1
        poss += ful
        return ful / poss if poss else float("nan")

    def avg(xs):
        s = sum(xs)
        return s / len(jgs) if s > 0 else 0.0

    def frac(f, p):
        return f / p if p else 0.0

    out = {
        "prefs_num_prefs_poss": sum(s["pr"] + s["pi"] + s["no"] for s in jgs),
        "prefs_num_prefs_ful": sum(s["fr"] + s["fi"] for s in jgs),
        "prefs_num_prefs_ful_ret": sum(s["fr"] for s in jgs),
    }
    out["prefs_simp"] = frac(out["prefs_num_prefs_ful"], out["prefs_num_prefs_poss"])
    out["prefs_simp_ret"] = frac(out["prefs_num_prefs_ful_ret"], sum(s["pr"] for s in jgs))
    out["prefs_simp_imp"] = frac(out["prefs_num_prefs_ful"], sum(s["pr"] + s["pi"] for s in jgs))
    out["prefs_avgjg"] = avg([frac(s["fr"] + s["fi"], s["pr"] + s["pi"] + s["no"]) for s in jgs])
    out["prefs_avgjg_ret"] = avg([frac(s["fr"], s["pr"]) for s in jgs])
    out["prefs_avgjg_imp"] = avg([frac(s["fr"] + s["fi"], s["pr"] + s["pi"]) for s in jgs])
    out["prefs_avgjg_Rnonrel"] = avg([rnonrel(s, False) for s in jgs])
    out["prefs_avgjg_Rnonrel_ret"] = avg([rnonrel(s, True) for s in jgs])
    sums = {"ret": [0.0, 0], "imp": [0.0, 0], "no": [0.0, 0]}
    for i in range(nj):
        for j in range(i + 1, nj):
            if ca[i][j] or ca[j][i]:
                k = "ret" if j < njr else "imp" if i < njr else "no"
                sums[k][0] += ca[i][j] / (ca[i][j] + ca[j][i])
                sums[k][1] += 1
    out["prefs_pair"] = frac(
        sums["ret"][0] + sums["imp"][0], sums["ret"][1] + sums["imp"][1] + sums["no"][1]
    )
    out["prefs_pair_ret"] = frac(sums["ret"][0], sums["ret"][1])
    out["prefs_pair_imp"] = frac(sums["ret"][0] + sums["imp"][0], sums["ret"][1] + sums["imp"][1])
    return out


def _random_topic(rng: random.Random, topic: str):
    docs = [f"d{i:02d}" for i in range(rng.randint(2, 9))]
    lines = []
    for g in range(rng.randint(1, 3)):
        if rng.random() < 0.5:  # one sub-group: any levels, some 0
            for d in rng.sample(docs, rng.randint(1, len(docs))):
                lines.append((f"g{g}", "s", d, float(rng.choice([0, 0, 1, 2, 3]))))
            if rng.random() < 0.3:  # a line listed twice counts twice
                lines.append(rng.choice([x for x in lines if x[0] == f"g{g}"]))
        else:  # sub-groups consistent with one hidden order (no conflicts); 0 or > 0 per doc
            hidden = rng.sample(docs, len(docs))
            score = {d: len(docs) - i for i, d in enumerate(hidden)}
            zero = {d for d in docs if rng.random() < 0.3}
            for s in range(rng.randint(2, 3)):
                pick = rng.sample(docs, rng.randint(2, min(4, len(docs))))
                for d in pick:
                    lv = 0.0 if d in zero else float(score[d])
                    lines.append((f"g{g}", f"s{s}", d, lv))
    ranking = rng.sample(docs + ["x1", "x2"], rng.randint(0, len(docs) + 2))
    return lines, ranking


def test_random_topics_match_loop_reference(tmp_path):
    """Vectorised counting == the loop transcription of trec_eval's C, on random topics."""
    rng = random.Random(7)
    topics = {f"t{k:03d}": _random_topic(rng, f"t{k:03d}") for k in range(150)}
    text = "".join(
        f"{t} {g} {s} {d} {lv:g}\n" for t, (lines, _) in topics.items() for g, s, d, lv in lines
    )
    rows = [(t, d, float(len(r) - i)) for t, (_, r) in topics.items() for i, d in enumerate(r)]
    rows.append(("zz", "d00", 1.0))  # keep the run non-empty
    table = _evaluate("prefs", _write(tmp_path, "p", text), _run(rows), None, nickname="all_prefs")
    for t, (lines, ranking) in topics.items():
        if not ranking:
            assert t not in table.topics
            continue
        ref = _reference_prefs(lines, ranking)
        got = _vals(table, t)
        for name in PREFS_MEASURES:
            assert got[name] == pytest.approx(ref[name], abs=1e-12), (t, name)


def test_large_qrels_prefs_is_quick(tmp_path):
    """A 20-topic qrels (600 judged docs each) as preferences: pairs counted without loops."""
    rng = np.random.default_rng(1)
    qrels, run = [], []
    for t in range(20):
        for d in range(600):
            qrels.append(f"{t} 0 D{d} {int(rng.integers(0, 3))}\n")
        for r, d in enumerate(rng.permutation(800)[:500]):
            run.append((str(t), f"D{d}", float(-r)))
    import time

    q = _write(tmp_path, "q", "".join(qrels))
    t0 = time.perf_counter()
    table = _evaluate("qrels_prefs", q, _run(run), None, nickname="all_prefs")
    assert time.perf_counter() - t0 < 10
    assert len(table.topics) == 20
    simp = table.values[table.measures.index("prefs_simp")]
    assert np.all((simp >= 0) & (simp <= 1))


@pytest.mark.parametrize("version", ["9.0.8", "10.0"])
def test_single_group_equals_plain_measures(version):
    """A plain qrels read as -R qrels_jg has one group per topic: map_avgjg, P_avgjg_k and
    Rprec_mult_avgjg_x must equal trec_eval's own map, P_k and Rprec_mult_x (out.test.aq)."""
    folder = DATA / version
    ver = 9 if version == "9.0.8" else 10
    table = _evaluate(
        "qrels_jg",
        folder / "qrels.test",
        folder / "results.test",
        None,
        version=ver,
        nickname="qrels_jg",
    )
    want, _ = _expected(folder / "out.test.aq")
    got = _formatted(table, prefs_names("qrels_jg", None, "qrels_jg"))
    checked = 0
    for (name, topic), value in got.items():
        plain = name.replace("_avgjg", "")
        if name.startswith(("map", "P_", "Rprec_mult")):
            assert want[(plain, topic)] == value, (name, topic)
            checked += 1
    assert checked == (1 + 9 + 10) * 4


def test_missing_topic_qrels_jg(tmp_path):
    """qrels_jg with -c: 9.0.8 divides by all judged topics; 10.0 prints the empty ranking's
    zeros."""
    q = _write(tmp_path, "q", "A u d1 1\nA v d2 1\nB u d1 1\n")
    run = _run([("A", "d1", 2.0), ("A", "d2", 1.0)])
    t9 = _evaluate("qrels_jg", q, run, ["num_q", "map_avgjg"], version=9, all_topics=True)
    assert t9.topics == ["A"] and t9.summary["NumQ"] == 2
    assert _vals(t9, "A")["map_avgjg"] == pytest.approx((1 + 0.5) / 2)
    assert t9.summary["map_avgjg"] == pytest.approx(0.75 / 2)
    t10 = _evaluate("qrels_jg", q, run, ["map_avgjg", "P_avgjg.1"], version=10, all_topics=True)
    assert t10.topics == ["A", "B"] and _vals(t10, "B") == {"map_avgjg": 0.0, "P_avgjg_1": 0.0}
    assert t10.summary["P_avgjg_1"] == pytest.approx(0.5 / 2)
