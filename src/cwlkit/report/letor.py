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

from collections.abc import Sequence

import numpy as np


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


def format_letor(scores, flag: int) -> str:
    """The text a LETOR ``Eval-Score``/``Eval-Rank`` script writes for ``scores``.

    Parameters
    ----------
    scores : cwlkit.measures.letor.LetorScores
    flag : {0, 1}
        1: a row per query, then the averages; 0: the averages only.
    """
    if scores.version.name == "3.0":
        return _format_3(scores, flag)
    return _format_4(scores, flag)


def _format_4(scores, flag: int) -> str:
    K = scores.version.positions
    avg = scores.averages()
    cols = scores.columns()
    parts: list[str] = []
    head_p = "qid\t" + "\t".join(f"P@{k}" for k in range(1, K + 1)) + "\tMAP\n"
    parts.append(head_p)
    if flag == 1:
        p = np.column_stack([cols[f"P@{k}"] for k in range(1, K + 1)] + [cols["MAP"]])
        parts.append(_rows(scores.qids, p))
    parts.append("Average\t" + "\t".join(_f4(np.append(avg["precision"], avg["MAP"]))) + "\n\n")
    head_n = "qid\t" + "\t".join(f"NDCG@{k}" for k in range(1, K + 1)) + "\tMeanNDCG\n"
    parts.append(head_n)
    if flag == 1:
        n = np.column_stack([cols[f"NDCG@{k}"] for k in range(1, K + 1)] + [cols["MeanNDCG"]])
        parts.append(_rows(scores.qids, n))
    parts.append("Average\t" + "\t".join(_f4(np.append(avg["ndcg"], avg["MeanNDCG"]))) + "\n\n")
    return "".join(parts)


def _rows(qids: Sequence[str], values: np.ndarray) -> str:
    """``qid<TAB>v1<TAB>...<TAB>vm`` lines with ``%.4f`` (one formatting call for all)."""
    if values.shape[0] == 0:
        return ""
    m = values.shape[1]
    fmt = "%s\t" + "\t".join(["%.4f"] * m) + "\n"
    flat = values.tolist()
    return "".join(fmt % (q, *row) for q, row in zip(qids, flat, strict=True))


def _format_3(scores, flag: int) -> str:
    avg = scores.averages()
    K = scores.version.positions
    width = np.minimum(scores.depth, K)
    parts: list[str] = []
    if flag == 1:
        prec = scores.precision.tolist()
        parts.extend(
            f"precision of query{i}:\t" + "".join(perl_num(v) + "\t" for v in row[:w]) + "\n"
            for i, (row, w) in enumerate(zip(prec, width.tolist(), strict=True))
        )
    parts.append("precision:\t" + "".join(perl_num(v) + "\t" for v in avg["precision"]) + "\n\n")
    if flag == 1:
        parts.extend(f"Map of query{i}:\t{perl_num(v)}\n" for i, v in enumerate(scores.ap.tolist()))
    parts.append(f"MAP:\t{perl_num(avg['MAP'])}\n\n")
    if flag == 1:
        nd = scores.ndcg.tolist()
        parts.extend(
            f"NDCG of query{i}:\t" + "".join(perl_num(v) + "\t" for v in row[:w]) + "\n"
            for i, (row, w) in enumerate(zip(nd, width.tolist(), strict=True))
        )
    parts.append("NDCG:\t" + "".join(perl_num(v) + "\t" for v in avg["ndcg"]) + "\n\n")
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
