"""gdeval.pl (TREC Web Track 2010-2014, v1.3): its topic selection, means and CSV output.

What gdeval.pl prints for ``gdeval.pl [-c] -k K qrels run``::

    runid,topic,ndcg@K,err@K
    RUNID,TOPIC,%.5f,%.5f          one line per evaluated topic, topics in numeric order
    RUNID,amean,%.5f,%.5f

* nDCG@K: gain 2^g - 1, discount log2(i + 1), ideal from the qrels cut at K
  (:func:`~cwlkit.measures.err.gdeval_ndcg`); ERR@K with r = (2^g - 1)/2^4
  (:class:`~cwlkit.measures.err.ERR` with ``max_grade=4``).
* A topic is evaluated when it is in the run and has a label > 0 in the qrels. The mean
  divides by the number of evaluated topics, or with ``-c`` by the number of qrels topics
  with a label > 0 (topics missing from the run then count 0 but print no line).
* The run is ordered by score descending, ties by docno descending (bytes); RUNID is the tag
  of the run's last line.
* Risk-sensitive mode (``-baseline B -riskAlpha a``): each value is run - baseline, losses
  multiplied by 1 + a; see :func:`gdeval_results`.

:func:`gdeval_results` computes these numbers through :class:`cwlkit.Evaluator` into a
:class:`~cwlkit.results.Results` whose topics are the ones the mean counts (so
``Results.mean()`` is gdeval's ``amean``, up to the order of the additions in the last bit);
:func:`format_gdeval` prints it as gdeval.pl does.

Where gdeval.pl stops with "format error", cwlkit goes on: topic ids need not be numeric
(numeric ids come first, in numeric order, then the others in byte order; ids are printed as
written, without gdeval's stripping of everything up to the last ``-``), qrels column 2 and
the run's ``Q0`` column are not checked, and grades above 4 are accepted: the maximum grade of
ERR then becomes the largest grade, with a warning, unless ``max_grade`` is given.
"""

from __future__ import annotations

import numpy as np
import pyarrow.compute as pc

from ..errors import FormatError, ParamError
from ..io.text import from_numpy, from_strings, sort_rank, to_numpy
from ..io.trec import Qrels, Run
from ..results import Results

#: gdeval.pl's $MAX_JUDGMENT
GDEVAL_MAX_GRADE = 4


def _topic_order(topics: np.ndarray) -> np.ndarray:
    """Permutation putting ids made of digits first, numerically, then the rest by bytes."""
    arr = from_strings(topics)
    if len(arr) == 0:
        return np.zeros(0, dtype=np.int64)
    digits = to_numpy(pc.match_substring_regex(arr, r"^[0-9]+$"))
    stripped = pc.utf8_ltrim(arr, characters="0")
    length = to_numpy(pc.utf8_length(stripped)).astype(np.int64)
    byte_rank = sort_rank(arr)
    strip_rank = sort_rank(stripped)
    # digits: by significant length, then digit string (= numeric order), then as written
    num_len = np.where(digits, length, 0)
    num_key = np.where(digits, strip_rank, 0)
    return np.lexsort((byte_rank, num_key, num_len, ~digits))


#: the largest grade whose gain 2^g - 1 is a finite double
MAX_EXP_GRADE = 1023


def gdeval_max_grade(qrels: Qrels, max_grade: float | None = None) -> tuple[float, list[str]]:
    """ERR's maximum grade for ``qrels``, and the warnings to show about it.

    Default 4 (gdeval.pl's), or the largest grade in the qrels when that is above 4 (with a
    one-line warning). A given ``max_grade`` must be > 0 and at least every grade.

    Raises
    ------
    ParamError
        ``max_grade`` not > 0.
    FormatError
        A grade above ``max_grade``, or above 1023 (its gain 2^g - 1 overflows a double),
        naming the qrels line.
    """
    if max_grade is not None and not (np.isfinite(max_grade) and max_grade > 0):
        raise ParamError(f"--max-grade must be > 0; got {max_grade:g}")
    labels = qrels.labels
    if labels.size == 0:
        return float(max_grade or GDEVAL_MAX_GRADE), []
    i = int(np.argmax(labels))
    top = float(labels[i])
    line = int(qrels.lines[i])
    if top > MAX_EXP_GRADE:
        raise FormatError(
            qrels.path,
            line,
            f"grade {top:g} is too large: gdeval's gains are 2^grade - 1, which overflows "
            f"above grade {MAX_EXP_GRADE} (expected a small integer grade such as 0..4)",
        )
    if max_grade is not None:
        if top > max_grade:
            raise FormatError(qrels.path, line, f"grade {top:g} is above --max-grade {max_grade:g}")
        return float(max_grade), []
    if top > GDEVAL_MAX_GRADE:
        msg = (
            f"{qrels.path}:{line}: grade {top:g} is above gdeval.pl's maximum grade "
            f"{GDEVAL_MAX_GRADE}; ERR uses maximum grade {top:g} (set it with --max-grade)"
        )
        return top, [msg]
    return float(GDEVAL_MAX_GRADE), []


def gdeval_measures(k: int = 20, max_grade: float = GDEVAL_MAX_GRADE) -> list:
    """gdeval.pl's measures: ``nDCG(dcg='exp-log2')@k``, ``ERR(max_grade=g)@k``, then
    ``NumRet`` (0 marks a topic the run lacks, which gdeval.pl prints no line for)."""
    from ..measures.err import ERR
    from ..measures.parse import parse_measure
    from ..measures.trec.registered import NDCG

    return [NDCG(dcg="exp-log2", k=k), ERR(max_grade=max_grade, k=k), parse_measure("NumRet")]


def gdeval_results(
    qrels: Qrels,
    run: Run,
    *,
    k: int = 20,
    all_topics: bool = False,
    max_grade: float | None = None,
    baseline: Run | None = None,
    risk_alpha: float | None = None,
) -> Results:
    """What gdeval.pl computes for ``run``, as Results.

    The measures of :func:`gdeval_measures`, scored by :class:`cwlkit.Evaluator` with the
    run ranked by the double score, ties by docno descending (``trec_version=10``).

    Parameters
    ----------
    qrels, run : Qrels, Run
    k : int
        Cutoff (gdeval's ``-k``, default 20).
    all_topics : bool
        gdeval's ``-c``. The topics are the run's topics with a label > 0 in the qrels;
        with ``all_topics`` every qrels topic with a label > 0, those the run lacks scoring
        0 (``NumRet`` 0). Either way ``Results.mean()`` is gdeval's ``amean``.
    max_grade : float, optional
        ERR's maximum grade (:func:`gdeval_max_grade`; the measure's name shows it).
    baseline : Run, optional
        gdeval's risk-sensitive mode (``-baseline``): the nDCG and ERR values become
        ``delta = run - baseline`` on the topic (the baseline counts 0 on a topic it does
        not evaluate), a loss multiplied by ``1 + risk_alpha``: ``delta`` if ``delta >= 0``
        else ``(1 + risk_alpha) delta``. ``NumRet`` stays the run's.
    risk_alpha : float, optional
        gdeval's ``-riskAlpha`` (>= 0, default 0); needs ``baseline``.

    Returns
    -------
    cwlkit.results.Results
        Topics in byte order (:func:`format_gdeval` prints gdeval's order), named by the
        run's tag.
    """
    if int(k) != k or k < 1:
        raise ParamError(f"-k must be an integer >= 1; got {k}")
    if risk_alpha is not None and not (np.isfinite(risk_alpha) and risk_alpha >= 0):
        raise ParamError(f"-riskAlpha must be >= 0; got {risk_alpha:g}")
    if baseline is None and risk_alpha is not None:
        raise ParamError("-riskAlpha needs -baseline (the run to compare against)")
    gmax, _ = gdeval_max_grade(qrels, max_grade)
    res = _evaluate(qrels, run, int(k), gmax, all_topics)
    if baseline is None:
        return res
    base = _evaluate(qrels, baseline, int(k), gmax, all_topics)
    return _risk(res, base, risk_alpha or 0.0)


def _seen_topics(qrels: Qrels) -> np.ndarray:
    """The qrels topics with a grade > 0 (str)."""
    t_codes, t_dict, _, _ = qrels.codes()
    codes = np.unique(t_codes[qrels.labels > 0])
    return np.asarray(t_dict.take(from_numpy(codes)).to_pylist(), dtype=object).astype(str)


def _evaluate(qrels: Qrels, run: Run, k: int, gmax: float, all_topics: bool) -> Results:
    """The Evaluator's Results of ``run`` on gdeval's topics: those with a grade > 0 in the
    qrels and (unless ``all_topics``) in the run."""
    from ..api import Evaluator

    topics = "qrels" if all_topics else "both"
    res = Evaluator(qrels, gdeval_measures(k, gmax), topics=topics, trec_version=10).evaluate(run)
    seen = set(_seen_topics(qrels).tolist())
    keep = [i for i, t in enumerate(res.topics) if t in seen]
    if len(keep) == len(res.topics):
        return res
    cols = {c: a[:, keep] for c, a in res.columns.items()}
    topics_kept = [res.topics[i] for i in keep]
    return Results(res.values[:, keep], res.measures, topics_kept, cols, res.run, res.aggregates)


def _risk(res: Results, base: Results, alpha: float) -> Results:
    """gdeval's riskWeighted on every averaged row: run - base (0 where the baseline lacks
    the topic), losses multiplied by (1 + alpha); counts (NumRet) stay the run's."""
    values = res.values.copy()
    pos = _lookup(res.topics, base.topics, np.arange(len(base.topics), dtype=np.float64), -1.0)
    hit = pos >= 0
    for i, how in enumerate(res.aggregates or []):
        if how != "mean":
            continue
        row = base.values[base.measures.index(res.measures[i])]
        b = np.where(hit, row[np.maximum(pos, 0).astype(np.int64)] if row.size else 0.0, 0.0)
        delta = values[i] - b
        values[i] = np.where(values[i] < b, (1.0 + alpha) * delta, delta)
    return Results(values, res.measures, res.topics, dict(res.columns), res.run, res.aggregates)


def _lookup(topics: list[str], keys: list[str], values: np.ndarray, missing: float) -> np.ndarray:
    """values[keys.index(t)] for each topic, ``missing`` where absent (through pyarrow)."""
    if not topics:
        return np.zeros(0)
    idx = to_numpy(pc.index_in(from_strings(topics), value_set=from_strings(keys)), null=-1)
    hit = idx >= 0
    pos = np.maximum(idx, 0).astype(np.int64)
    return np.where(hit, values[pos] if values.size else missing, missing)


def format_gdeval(
    results: Results, *, baseline: str | None = None, risk_alpha: str | None = None
) -> str:
    """gdeval.pl's CSV for ``results``: header, one line per evaluated topic, ``amean``.

    Parameters
    ----------
    results : cwlkit.results.Results
        With ``nDCG(dcg='exp-log2')@k`` and ``ERR(...)@k`` (one ``k``), as
        :func:`gdeval_results` gives them; a ``NumRet`` row of 0 marks a topic the run lacks
        (gdeval's ``-c``), which counts in the mean but prints no line.
    baseline : str, optional
        The baseline's runid: gdeval's risk-sensitive layout. The runid becomes
        ``RUNID (rel to. BASELINE; rs=1+a; a=ALPHA)`` (gdeval.pl v1.3's) and topics the run
        lacks print a line too, after the others.
    risk_alpha : str, optional
        ``ALPHA`` as typed (default ``0``).

    Topics print in gdeval's order (ids of digits first, numerically, then the others by
    bytes). ``amean`` adds the values up in that order, one at a time, and divides by the
    number of topics (1 when there are none), as gdeval.pl does.
    """
    ndcg, err, numret, k = _gdeval_rows(results)
    topics = np.asarray(results.topics, dtype=object)
    missing = numret == 0 if numret is not None else np.zeros(topics.size, dtype=bool)
    order = _topic_order(topics) if topics.size else np.zeros(0, dtype=np.int64)
    order = order[np.argsort(missing[order], kind="stable")]  # the run's topics first
    n = results.values[ndcg][order]
    e = results.values[err][order]
    runid = results.run
    if baseline is not None:
        runid = f"{results.run} (rel to. {baseline}; rs=1+a; a={risk_alpha or '0'})"
    printed = order if baseline is not None else order[~missing[order]]
    lines = [f"runid,topic,ndcg@{k},err@{k}"]
    vals = dict(zip(order.tolist(), zip(n.tolist(), e.tolist(), strict=True), strict=True))
    lines += [f"{runid},{topics[i]},{vals[i][0]:.5f},{vals[i][1]:.5f}" for i in printed.tolist()]
    # gdeval.pl adds the topics up in order, one at a time: a cumulative sum does the same
    denom = max(topics.size, 1)
    tot_n = float(np.cumsum(n)[-1]) if n.size else 0.0
    tot_e = float(np.cumsum(e)[-1]) if e.size else 0.0
    lines.append(f"{runid},amean,{tot_n / denom:.5f},{tot_e / denom:.5f}")
    return "\n".join(lines) + "\n"


def _gdeval_rows(results: Results) -> tuple[int, int, np.ndarray | None, int]:
    """Rows of gdeval's nDCG and ERR in ``results``, the NumRet values (or None) and k."""
    from ..errors import CwlkitError
    from ..measures.err import ERR
    from ..measures.parse import parse_measure
    from ..measures.trec.registered import NDCG

    ndcg = err = numret = None
    k_n = k_e = None
    for i, name in enumerate(results.measures):
        m = parse_measure(name)
        if isinstance(m, NDCG) and m.dcg == "exp-log2" and ndcg is None:
            ndcg, k_n = i, m.k
        elif isinstance(m, ERR) and err is None:
            err, k_e = i, m.k
        elif m.family == "NumRet" and numret is None:
            numret = i
    if ndcg is None or err is None:
        raise CwlkitError(
            "format_gdeval: expected nDCG(dcg='exp-log2')@k and ERR@k in the results; "
            f"got {', '.join(results.measures)}"
        )
    if k_n != k_e or k_n is None:
        raise CwlkitError(f"format_gdeval: nDCG and ERR need one cutoff; got {k_n} and {k_e}")
    counts = results.values[numret] if numret is not None else None
    return ndcg, err, counts, int(k_n)
