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
  multiplied by 1 + a; see :func:`gdeval_report`.

Where gdeval.pl stops with "format error", cwlkit goes on: topic ids need not be numeric
(numeric ids come first, in numeric order, then the others in byte order; ids are printed as
written, without gdeval's stripping of everything up to the last ``-``), qrels column 2 and
the run's ``Q0`` column are not checked, and grades above 4 are accepted: the maximum grade of
ERR then becomes the largest grade, with a warning, unless ``max_grade`` is given.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pyarrow.compute as pc

from ..errors import FormatError, ParamError
from ..io._text import from_numpy, from_strings, sort_rank, to_numpy
from ..io.trec import Qrels, Run

#: gdeval.pl's $MAX_JUDGMENT
GDEVAL_MAX_GRADE = 4


@dataclass
class GdevalReport:
    """gdeval.pl's numbers for one run.

    Attributes
    ----------
    runid : str
        The tag of the run's last line.
    k : int
        The cutoff.
    topics : list of str
        The evaluated topics, in gdeval's order.
    ndcg, err : numpy.ndarray
        float64[N], per evaluated topic.
    mean_ndcg, mean_err : float
        Sum over the evaluated topics divided by ``n_mean``.
    n_mean : int
        The denominator of the means.
    max_grade : float
        The ERR maximum grade used.
    warnings : list of str
        One-line messages for the caller to show (grades above gdeval's maximum).
    """

    runid: str
    k: int
    topics: list[str]
    ndcg: np.ndarray
    err: np.ndarray
    mean_ndcg: float
    mean_err: float
    n_mean: int
    max_grade: float
    warnings: list[str] = field(default_factory=list)


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


def _grade_check(qrels: Qrels, max_grade: float | None) -> tuple[float, list[str]]:
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


def gdeval_report(
    qrels: Qrels,
    run: Run,
    *,
    k: int = 20,
    all_topics: bool = False,
    max_grade: float | None = None,
    baseline: Run | None = None,
    risk_alpha: float = 0.0,
    risk_alpha_text: str | None = None,
) -> GdevalReport:
    """Compute what gdeval.pl prints for ``run``.

    Parameters
    ----------
    qrels, run : Qrels, Run
    k : int
        Cutoff (gdeval's ``-k``, default 20).
    all_topics : bool
        gdeval's ``-c``: average over every qrels topic with a label > 0.
    max_grade : float, optional
        ERR's maximum grade. Default 4 (gdeval.pl's), or the largest grade in the qrels when
        that is above 4 (with a warning in ``warnings``). A grade above a given
        ``max_grade`` is an error naming the qrels line.
    baseline : Run, optional
        gdeval's risk-sensitive mode (``-baseline``): every value becomes
        ``delta = run - baseline`` on the topic (the baseline counts 0 on a topic it does not
        evaluate), and a loss is multiplied by ``1 + risk_alpha``: ``delta`` if
        ``delta >= 0`` else ``(1 + risk_alpha) delta``. The runid becomes
        ``RUNID (rel to. BASEID, rs=1+a, a=ALPHA)``. With ``all_topics``, the qrels topics with
        a grade > 0 that the run misses are scored 0 - baseline and printed after the others,
        in numeric order.
    risk_alpha : float
        gdeval's ``-riskAlpha`` (>= 0); needs ``baseline``.
    risk_alpha_text : str, optional
        How to spell ``risk_alpha`` in the runid (gdeval.pl prints it as typed).
    """
    if int(k) != k or k < 1:
        raise ParamError(f"-k must be an integer >= 1; got {k}")
    if max_grade is not None and not (np.isfinite(max_grade) and max_grade > 0):
        raise ParamError(f"--max-grade must be > 0; got {max_grade:g}")
    if not (np.isfinite(risk_alpha) and risk_alpha >= 0):
        raise ParamError(f"-riskAlpha must be >= 0; got {risk_alpha:g}")
    if baseline is None and (risk_alpha != 0 or risk_alpha_text is not None):
        raise ParamError("-riskAlpha needs -baseline (the run to compare against)")
    gmax, warnings = _grade_check(qrels, max_grade)
    topics, ndcg, err = _evaluate(qrels, run, int(k), gmax)
    if all_topics:
        n_mean = int(_seen_topics(qrels).size)
    else:
        n_mean = int(len(topics))
    runid = run.runid
    if baseline is not None:
        b_topics, b_ndcg, b_err = _evaluate(qrels, baseline, int(k), gmax)
        if all_topics:
            missing = np.setdiff1d(
                _seen_topics(qrels), np.asarray(topics, dtype=object).astype(str)
            )
            missing = missing[_topic_order(missing)]
            topics = list(topics) + [str(t) for t in missing]
            ndcg = np.concatenate([ndcg, np.zeros(missing.size)])
            err = np.concatenate([err, np.zeros(missing.size)])
        ndcg = _risk(ndcg, _lookup(topics, b_topics, b_ndcg), risk_alpha)
        err = _risk(err, _lookup(topics, b_topics, b_err), risk_alpha)
        alpha_text = risk_alpha_text if risk_alpha_text is not None else format(risk_alpha, "g")
        runid = f"{run.runid} (rel to. {baseline.runid}, rs=1+a, a={alpha_text})"
    # gdeval.pl adds the topics up in order, one at a time: a cumulative sum does the same
    tot_n = float(np.cumsum(ndcg)[-1]) if ndcg.size else 0.0
    tot_e = float(np.cumsum(err)[-1]) if err.size else 0.0
    denom = n_mean if n_mean > 0 else 1
    return GdevalReport(
        runid=runid,
        k=int(k),
        topics=[str(t) for t in topics],
        ndcg=ndcg,
        err=err,
        mean_ndcg=tot_n / denom,
        mean_err=tot_e / denom,
        n_mean=n_mean,
        max_grade=gmax,
        warnings=warnings,
    )


def _seen_topics(qrels: Qrels) -> np.ndarray:
    """The qrels topics with a grade > 0 (str)."""
    t_codes, t_dict, _, _ = qrels.codes()
    codes = np.unique(t_codes[qrels.labels > 0])
    return np.asarray(t_dict.take(from_numpy(codes)).to_pylist(), dtype=object).astype(str)


def _evaluate(
    qrels: Qrels, run: Run, k: int, gmax: float
) -> tuple[list[str], np.ndarray, np.ndarray]:
    """gdeval's evaluated topics of ``run`` (in its order) with their nDCG@k and ERR@k: the
    run's topics with a grade > 0 in the qrels, scored by the API (ranked by the double score,
    ties by docno descending, as gdeval.pl sorts)."""
    from ..api import Evaluator
    from ..measures.err import ERR
    from ..measures.trec.api import NDCG

    measures = [NDCG(dcg="exp-log2", k=k), ERR(max_grade=gmax, k=k)]
    res = Evaluator(qrels, measures, topics="both", trec_version=10).evaluate(run)
    seen = set(_seen_topics(qrels).tolist())
    keep = np.asarray([t in seen for t in res.topics], dtype=bool)
    topics = np.asarray(res.topics, dtype=object)[keep]
    if topics.size == 0:
        return [], np.zeros(0), np.zeros(0)
    order = _topic_order(topics)
    ndcg, err = res.values[:, keep][:, order]
    return [str(t) for t in topics[order]], ndcg, err


def _lookup(topics: list[str], keys: list[str], values: np.ndarray) -> np.ndarray:
    """values[keys.index(t)] for each topic, 0 where absent (vectorised through pyarrow)."""
    if not topics:
        return np.zeros(0)
    idx = to_numpy(pc.index_in(from_strings(topics), value_set=from_strings(keys)), null=-1)
    hit = idx >= 0
    pos = np.maximum(idx, 0).astype(np.int64)
    return np.where(hit, values[pos] if values.size else 0.0, 0.0)


def _risk(values: np.ndarray, base: np.ndarray, alpha: float) -> np.ndarray:
    """gdeval's riskWeighted: run - base, losses multiplied by (1 + alpha)."""
    delta = values - base
    return np.where(values < base, (1.0 + alpha) * delta, delta)


def format_gdeval(rep: GdevalReport) -> str:
    """gdeval.pl's CSV: header, one line per evaluated topic, the ``amean`` line."""
    lines = [f"runid,topic,ndcg@{rep.k},err@{rep.k}"]
    lines += [
        f"{rep.runid},{t},{n:.5f},{e:.5f}"
        for t, n, e in zip(rep.topics, rep.ndcg.tolist(), rep.err.tolist(), strict=True)
    ]
    lines.append(f"{rep.runid},amean,{rep.mean_ndcg:.5f},{rep.mean_err:.5f}")
    return "\n".join(lines) + "\n"
