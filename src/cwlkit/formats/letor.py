"""The output files of LETOR's Perl scripts, byte for byte.

``Eval-Score-4.0.pl`` and ``Eval-Score-MSLR.pl`` (and their ``Eval-Rank`` variants) write two
tab-separated tables, ``%.4f``::

    qid<TAB>P@1<TAB>...<TAB>P@10<TAB>MAP
    <qid><TAB><P@1><TAB>...<TAB><MAP>          (flag 1 only, one row per query)
    Average<TAB><mean P@1><TAB>...<TAB><MAP>
    <blank line>
    qid<TAB>NDCG@1<TAB>...<TAB>NDCG@10<TAB>MeanNDCG
    ...
    Average<TAB>...
    <blank line>

``Eval-Score-3.0.pl`` writes Perl's default number format (``%.15g``), every value followed by
a tab, per-query lines labelled by the query's 0-based index in qid order::

    precision of query<i>:<TAB>P@1<TAB>...<TAB>P@m<TAB>     (m = min(16, n); flag 1 only)
    precision:<TAB><mean P@1><TAB>...<TAB>
    <blank line>
    Map of query<i>:<TAB><AP>                                 (flag 1 only)
    MAP:<TAB><MAP>
    <blank line>
    NDCG of query<i>:<TAB>NDCG@1<TAB>...<TAB>                 (flag 1 only)
    NDCG:<TAB><mean NDCG@1><TAB>...<TAB>
    <blank line>

LETOR's t-test script (``Eval-ttest``) writes::

    t-test results for A: <file A> and B: <file B>
    <blank line>
    <blank line>
    Measure<TAB>Number of queries<TAB>Mean A<TAB>Mean B<TAB>t-value<TAB>p-value
    <measure><TAB><n><TAB><mean A><TAB><mean B><TAB><t><TAB><p>
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:  # pragma: no cover
    from ..results import Results


def perl_num(x: float) -> str:
    """A number as Perl prints it by default (``%.15g``; ``inf``/``nan`` as Perl spells them)."""
    v = float(x)
    if v != v:
        return "NaN"
    if v in (float("inf"), float("-inf")):
        return "Inf" if v > 0 else "-Inf"
    return format(v, ".15g")


def _f4(values: np.ndarray) -> list[str]:
    return [f"{float(v):.4f}" for v in np.asarray(values, dtype=np.float64).ravel()]


def format_letor(results, flag: int) -> str:
    """The text a LETOR ``Eval-Score``/``Eval-Rank`` script writes for ``results``.

    Parameters
    ----------
    results : cwlkit.results.Results
        Per-query values of the measures of
        :func:`~cwlkit.measures.letor.letor_measure_list` (as
        :func:`~cwlkit.measures.letor.evaluate_letor_files` gives them): ``LETOR_P@1..K``,
        ``LETOR_MAP``, ``LETOR_NDCG@1..K``, ``LETOR_MeanNDCG`` (4.0, MSLR) and, for 3.0,
        ``NumRet``; their ``version`` picks the layout. Other measures are ignored.
    flag : {0, 1}
        1: a row per query, then the averages; 0: the averages only.

    Queries are printed in the scripts' numeric qid order. The averages add the queries up
    in that order, one at a time, and divide by the number of queries, as the scripts do
    (3.0: over as many positions as its longest query has, at most 16).

    Raises
    ------
    CwlkitError
        A needed measure is missing, or the measures follow different LETOR conventions.
    """
    cols = _letor_columns(results)
    if cols["version"].name == "3.0":
        return _format_3(cols, flag)
    return _format_4(cols, flag)


def _seqsum(a: np.ndarray) -> np.ndarray:
    """Column sums added row by row in order (as a Perl loop does; not pairwise)."""
    if a.shape[0] == 0:
        return np.zeros(a.shape[1:])
    return np.cumsum(a, axis=0)[-1]


def _letor_columns(results) -> dict:
    """The LETOR rows of ``results`` in numeric qid order: ``{"version", "qids", "P"
    [Q, K], "MAP" [Q], "NDCG" [Q, K], "MeanNDCG" [Q] or None, "depth" [Q] or None}``."""
    from ..errors import CwlkitError
    from ..io.text import from_strings
    from ..measures.letor import numeric_order
    from ..measures.letor_measures import LETOR_MAP, LETOR_NDCG, LETOR_P, LETOR_MeanNDCG

    rows: dict = {"P": {}, "NDCG": {}}
    conventions = set()
    for i, name in enumerate(results.measures):
        m = _parse(name)
        if isinstance(m, (LETOR_P, LETOR_NDCG)):
            rows["P" if isinstance(m, LETOR_P) else "NDCG"][m.k] = i
        elif isinstance(m, LETOR_MAP):
            rows["MAP"] = i
        elif isinstance(m, LETOR_MeanNDCG):
            rows["MeanNDCG"] = i
        elif m is not None and m.family == "NumRet":
            rows["depth"] = i
        else:
            continue
        if m.family != "NumRet":
            conventions.add(m.conventions)
    if len(conventions) != 1:
        got = "no LETOR measures" if not conventions else "different LETOR conventions"
        raise CwlkitError(f"format_letor: expected the measures of one LETOR script; got {got}")
    v = conventions.pop()
    ks = range(1, v.positions + 1)
    need = [f"LETOR_P@{k}" for k in ks if k not in rows["P"]]
    need += [] if "MAP" in rows else ["LETOR_MAP"]
    need += [f"LETOR_NDCG@{k}" for k in ks if k not in rows["NDCG"]]
    need += ["LETOR_MeanNDCG"] if v.mean_ndcg and "MeanNDCG" not in rows else []
    need += ["NumRet"] if not v.pad and "depth" not in rows else []
    if need:
        raise CwlkitError(
            f"format_letor: LETOR {v.name}'s file needs {', '.join(need)} in the results "
            "(cwlkit.measures.letor.letor_measure_list gives every measure it prints)"
        )
    order = numeric_order(from_strings(results.topics))
    vals = results.values[:, order]
    return {
        "version": v,
        "qids": [results.topics[i] for i in order.tolist()],
        "P": vals[[rows["P"][k] for k in ks]].T,
        "MAP": vals[rows["MAP"]],
        "NDCG": vals[[rows["NDCG"][k] for k in ks]].T,
        "MeanNDCG": vals[rows["MeanNDCG"]] if v.mean_ndcg else None,
        "depth": vals[rows["depth"]].astype(np.int64) if "depth" in rows else None,
    }


@lru_cache(maxsize=256)
def _parse(name: str):
    """The LETOR measure (or NumRet) a Results row names by its canonical name, else None.

    Read with the LETOR classes alone (the whole registry is not loaded for this)."""
    from ..errors import CwlkitError
    from ..measures import letor_measures as lm
    from ..measures.parse import build, split_head

    if name == "NumRet":
        from ..measures.registry import lookup

        return lookup("NumRet")()
    head = split_head(name)
    classes = {c.family: c for c in (lm.LETOR_P, lm.LETOR_MAP, lm.LETOR_NDCG, lm.LETOR_MeanNDCG)}
    if head is None or head[0] not in classes:
        return None
    try:
        return build(classes[head[0]], head[1], head[2], name)[0]
    except CwlkitError:
        return None


def _format_4(cols: dict, flag: int) -> str:
    K = cols["version"].positions
    Q = len(cols["qids"])
    p_map = np.column_stack([cols["P"], cols["MAP"]])
    n_mean = np.column_stack([cols["NDCG"], cols["MeanNDCG"]])
    parts: list[str] = []
    parts.append("qid\t" + "\t".join(f"P@{k}" for k in range(1, K + 1)) + "\tMAP\n")
    if flag == 1:
        parts.append(_rows(cols["qids"], p_map))
    parts.append("Average\t" + "\t".join(_f4(_seqsum(p_map) / Q)) + "\n\n")
    parts.append("qid\t" + "\t".join(f"NDCG@{k}" for k in range(1, K + 1)) + "\tMeanNDCG\n")
    if flag == 1:
        parts.append(_rows(cols["qids"], n_mean))
    parts.append("Average\t" + "\t".join(_f4(_seqsum(n_mean) / Q)) + "\n\n")
    return "".join(parts)


def _rows(qids: Sequence[str], values: np.ndarray) -> str:
    """``qid<TAB>v1<TAB>...<TAB>vm`` lines with ``%.4f`` (one formatting call for all)."""
    if values.shape[0] == 0:
        return ""
    m = values.shape[1]
    fmt = "%s\t" + "\t".join(["%.4f"] * m) + "\n"
    flat = values.tolist()
    return "".join(fmt % (q, *row) for q, row in zip(qids, flat, strict=True))


def _format_3(cols: dict, flag: int) -> str:
    K = cols["version"].positions
    Q = len(cols["qids"])
    depth = cols["depth"]
    width = np.minimum(depth, K)
    top = int(min(K, depth.max())) if Q else 0  # the averages: the longest query's positions
    parts: list[str] = []
    if flag == 1:
        prec = cols["P"].tolist()
        parts.extend(
            f"precision of query{i}:\t" + "".join(perl_num(v) + "\t" for v in row[:w]) + "\n"
            for i, (row, w) in enumerate(zip(prec, width.tolist(), strict=True))
        )
    p_avg = _seqsum(cols["P"][:, :top]) / Q
    parts.append("precision:\t" + "".join(perl_num(v) + "\t" for v in p_avg) + "\n\n")
    if flag == 1:
        parts.extend(
            f"Map of query{i}:\t{perl_num(v)}\n" for i, v in enumerate(cols["MAP"].tolist())
        )
    parts.append(f"MAP:\t{perl_num(_seqsum(cols['MAP'][:, None])[0] / Q)}\n\n")
    if flag == 1:
        nd = cols["NDCG"].tolist()
        parts.extend(
            f"NDCG of query{i}:\t" + "".join(perl_num(v) + "\t" for v in row[:w]) + "\n"
            for i, (row, w) in enumerate(zip(nd, width.tolist(), strict=True))
        )
    n_avg = _seqsum(cols["NDCG"][:, :top]) / Q
    parts.append("NDCG:\t" + "".join(perl_num(v) + "\t" for v in n_avg) + "\n\n")
    return "".join(parts)


def format_ttest(
    path_a: str, path_b: str, rows: Sequence[tuple[str, int, float, float, float, str]]
) -> str:
    """LETOR's t-test output: a title, two blank lines, a header and one row per measure.

    ``rows`` holds ``(measure, number of queries, mean A, mean B, t, p)``, ``p`` already as
    text (the two-sided p-value in Perl's number format, or LETOR's own rounded upper-tail
    probability).
    """
    out = [
        f"t-test results for A: {path_a} and B: {path_b}\n\n\n",
        "Measure\tNumber of queries\tMean A\tMean B\tt-value\tp-value\n",
    ]
    for name, n, ma, mb, t, p in rows:
        out.append(f"{name}\t{n}\t{perl_num(ma)}\t{perl_num(mb)}\t{perl_num(t)}\t{p}\n")
    return "".join(out)


# ------------------------------------------------- evaluation of the scripts' files


def evaluate_letor_files(
    features_path: str,
    predictions_path: str,
    *,
    version: str = "4.0",
    mode: str = "score",
    gain: str | None = None,
    relevant: str | None = None,
):
    """Read a feature file and a prediction file and evaluate them as a LETOR script does.

    The files become qrels and a run in the scripts' ranking (:func:`letor_qrels_run`),
    scored by :class:`cwlkit.Evaluator` with ``order="rank"``, ``topics="run"`` and the
    measures of :func:`letor_measure_list`: the values are the scripts' to the last bit, and
    :func:`cwlkit.formats.letor.format_letor` prints them as the script's file.

    Parameters
    ----------
    features_path, predictions_path : str
        The feature file (``label qid:Q ... #docid = D``) and the prediction file (one score,
        or with ``mode="rank"`` one rank position, per feature line).
    version : {"4.0", "3.0", "mslr"}
    mode : {"score", "rank"}
    gain, relevant : str, optional
        See :func:`letor_version`.

    Returns
    -------
    cwlkit.results.Results
        ``LETOR_P@k``, ``LETOR_MAP``, ``LETOR_NDCG@k`` and ``LETOR_MeanNDCG`` (3.0:
        ``NumRet``) per query; topics in byte order, named ``predictions_path``. Positions
        past a query's end: P@k = #rel/k (4.0, MSLR) or 0 (3.0), NDCG@k = 0.

    Raises
    ------
    FormatError
        A malformed line in either file, a label outside the gain table (naming the feature
        line), bad rank positions (``mode="rank"``).
    """
    from ..api import Evaluator
    from ..io.letor import read_features, read_predictions
    from ..measures.letor import check_labels, letor_qrels_run, letor_version
    from ..measures.letor_measures import letor_measure_list

    v = letor_version(version, gain=gain, relevant=relevant)
    measures = letor_measure_list(v.name, gain=gain, relevant=relevant)
    feats = read_features(features_path)
    check_labels(feats, v)
    preds = read_predictions(predictions_path, feats, what=mode)
    qrels, run = letor_qrels_run(
        feats, preds, version=v, mode=mode, predictions_path=str(predictions_path)
    )
    ev = Evaluator(qrels, measures, order="rank", topics="run")
    return ev.evaluate(run, name=str(predictions_path))


# ---------------------------------------------------------------------------- t-test


def _measure_rank(name: str) -> int:
    """LETOR's t-test order of measures: P@n (n), MAP (100), NDCG@n (500 + n), MeanNDCG (600),
    anything else (1000). Registry names count as the printed ones (``LETOR_P(...)@3`` as
    ``P@3``)."""
    import re

    low = re.sub(r"\(.*\)", "", name.lower()).removeprefix("letor_")
    if low.startswith("map"):
        return 100
    if low.startswith("meanndcg"):
        return 600
    m = re.fullmatch(r"ndcg@(\d+)", low)
    if m:
        return 500 + int(m.group(1))
    m = re.fullmatch(r"p@(\d+)", low)
    if m:
        return int(m.group(1))
    return 1000


def letor_upper_p(t: np.ndarray, df: int) -> list[str]:
    """What LETOR's t-test script prints as the p-value: ``Statistics::Distributions::tprob``,
    the upper-tail probability ``P(T_df > t)`` (one-sided; above 0.5 when ``t < 0``), printed
    with five significant digits (``%.{|int(log10(p) - 5)|}f``; ``0`` for 0)."""
    from scipy import stats

    out = []
    for p in np.atleast_1d(stats.t.sf(np.asarray(t, dtype=np.float64), df)).tolist():
        if p == 0 or p != p:
            out.append("0" if p == 0 else "NaN")
            continue
        digits = abs(int(math.log10(abs(p)) - 5))
        out.append(f"{p:.{digits}f}")
    return out


@dataclass(frozen=True)
class LetorTTestRow:
    """One measure of LETOR's t-test: ``n`` queries, the two means, Student's paired ``t``
    (``A - B``) and the p-value."""

    measure: str
    n: int
    mean_a: float
    mean_b: float
    t: float
    p_two_sided: float
    p_letor: str


def letor_ttest(a, b) -> list[LetorTTestRow]:
    """Paired t-test of every measure of two per-query results.

    For each measure (in LETOR's order: P@n, MAP, NDCG@n, MeanNDCG, others), the values of
    the topics of ``a`` are paired with the same topics in ``b``; with ``d = A - B``,
    ``t = mean(d) / (sd(d) / sqrt(n))`` (``sd`` with ``n - 1``), ``df = n - 1``, two-sided
    ``p = 2 P(T_df > |t|)`` (:func:`cwlkit.stats.tests.t_test`, as ``scipy.stats.ttest_rel``).
    ``p_letor`` is what LETOR's script prints instead (:func:`letor_upper_p`). All
    differences zero: ``t = 0``, ``p = 1`` (LETOR's script dies dividing by zero). The means
    add the values in ``a``'s topic order, one at a time (as the script).

    Parameters
    ----------
    a, b : cwlkit.results.Results
        Per-topic values, e.g. two :func:`evaluate_letor_files` results or two result files
        read with :func:`cwlkit.io.letor.read_letor_results` (:func:`letor_file_results`); ``run``
        names each in messages.

    Raises
    ------
    CwlkitError
        A measure in one only, a topic in one only, a topic twice, fewer than 2 topics.
    """
    import pyarrow.compute as pc

    from ..errors import CwlkitError
    from ..io.text import from_strings, to_numpy
    from ..stats.tests import t_test

    only = sorted(set(a.measures) ^ set(b.measures), key=_measure_rank)
    if only:
        m = only[0]
        where, other = (a.run, b.run) if m in a.measures else (b.run, a.run)
        raise CwlkitError(
            f"measure {m} is in {where} but not in {other}: "
            "the t-test pairs every measure of the two files"
        )
    names = sorted(a.measures, key=_measure_rank)
    first = names[0] if names else ""
    arr_a, arr_b = from_strings(a.topics), from_strings(b.topics)
    for arr, res in ((arr_a, a), (arr_b, b)):
        if pc.count_distinct(arr).as_py() != len(arr):
            raise CwlkitError(f"{first}: a query appears twice in {res.run}")
    pos = to_numpy(pc.index_in(arr_a, value_set=arr_b), null=-1)
    back = to_numpy(pc.index_in(arr_b, value_set=arr_a), null=-1)
    for where, other, missing, topics in ((a, b, pos, a.topics), (b, a, back, b.topics)):
        if (missing < 0).any():
            q = topics[int(np.flatnonzero(missing < 0)[0])]
            raise CwlkitError(
                f"{first}: query {q} is in {where.run} but not in {other.run}; "
                "the t-test needs the same queries in both files"
            )
    n = len(a.topics)
    if names and n < 2:
        raise CwlkitError(f"{first}: a paired t-test needs at least 2 queries; got {n}")
    rows: list[LetorTTestRow] = []
    for name in names:
        x = a.values[a.measures.index(name)]
        y = b.values[b.measures.index(name)][pos]
        res = t_test(x, y)
        t = float(res.statistic)
        rows.append(
            LetorTTestRow(
                measure=name,
                n=n,
                mean_a=float(np.cumsum(x)[-1] / n),
                mean_b=float(np.cumsum(y)[-1] / n),
                t=t,
                p_two_sided=float(res.p_value),
                p_letor=letor_upper_p(np.array([t]), n - 1)[0],
            )
        )
    return rows


def letor_file_results(file: Any) -> Results:
    """A LETOR result file (:func:`cwlkit.io.letor.read_letor_results`) as Results: one row
    per column, named as the header spells it (``P@1``, ``MAP``...), topics in the file's
    order, ``run`` the file's path.

    Raises
    ------
    FormatError
        A query listed twice under one header, or a query with values in one table
        (``P@n``/``MAP``) but not in another (``NDCG@n``).
    """
    from ..results import Results

    names, topics, values = file.matrix()
    return Results(values, names, topics, run=file.path)
