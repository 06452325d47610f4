"""ndeval (TREC Web Track, version 4.5): its topic selection, means and CSV output.

What ``ndeval [-alpha A] [-beta B] [-traditional] [-c] [-M DEPTH] [-baseline B -riskAlpha R]
qrels run`` prints::

    runid,topic,ERR-IA@5,ERR-IA@10,ERR-IA@20,nERR-IA@5,...,strec@5,strec@10,strec@20
    RUNID,TOPIC,%.6f x 21          one line per run topic, topics in numeric order
    RUNID,amean,%.6f x 21

* The 21 columns are the measures of :mod:`cwlkit.measures.diversity` (``ERR_IA@5``...
  ``StRecall@20``; alpha and beta from ``-alpha``/``-beta``), computed by the API.
* Every topic of the run gets a line; a run topic the qrels do not have scores 0 everywhere.
  The mean divides the sum of the lines by the number of run topics that are in the qrels,
  or with ``-c`` by the number of qrels topics (a qrels topic the run lacks then counts 0
  but prints no line).
* A qrels topic without a relevant judgement prints ``-nan`` as its nNRBP (ndeval's 0/0),
  which makes the mean nNRBP ``-nan`` too (what ndeval prints on x86-64 Linux); so does every
  qrels topic when 1 - (1 - alpha) beta is 0 (``-alpha 0 -beta 1``: NRBP is then 0).
* The run is ordered by its rank column (ndeval's default; a rank repeated within a topic is
  an error), or with ``-traditional`` by score descending (double precision), ties by docno
  descending. ``-M DEPTH`` keeps the first DEPTH documents of each ranking after ordering.
* RUNID is the tag of the run's *first* line (trec_eval and gdeval.pl take the last).
* Topic ids: ndeval reads them as numbers, so ``051`` and ``51`` are one topic, printed
  ``51``; a run topic such as ``wt09-51`` (a task prefix up to a ``-``) is topic 51.
* Risk-sensitive mode (``-baseline B``): each value is ``r - b`` if ``r >= b`` else
  ``(1 + riskAlpha)(r - b)``, b the baseline's value on the topic (0 when the baseline lacks
  it); with ``-c`` the baseline's topics missing from the run get lines too (r = 0). The mean
  divides by the larger of the usual count and the number of lines. RUNID becomes
  ``RUNID (rel to. BASEID; rs=1+a; a=RISKALPHA)``, RISKALPHA as typed (``0`` by default).

Where ndeval stops with a syntax error, cwlkit goes on: topic ids need not be numbers (they
sort after the numeric ones, in byte order, and print as written); labels may be negative
(non-relevant, as pyndeval takes them) or fractional (relevant from 1 up); ``-riskAlpha``
without ``-baseline`` is accepted and changes nothing, as in ndeval.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from ..errors import FormatError, ParamError
from ..io.text import first_duplicate, from_numpy, from_strings, to_numpy
from ..io.trec import Run

#: what ``ndeval -version`` names
NDEVAL_VERSION = "version 4.5 (Mon 29 Apr 2013 20:51:02 EDT)"
#: ndeval's columns, in its order
COLUMNS = (
    "ERR-IA@5",
    "ERR-IA@10",
    "ERR-IA@20",
    "nERR-IA@5",
    "nERR-IA@10",
    "nERR-IA@20",
    "alpha-DCG@5",
    "alpha-DCG@10",
    "alpha-DCG@20",
    "alpha-nDCG@5",
    "alpha-nDCG@10",
    "alpha-nDCG@20",
    "NRBP",
    "nNRBP",
    "MAP-IA",
    "P-IA@5",
    "P-IA@10",
    "P-IA@20",
    "strec@5",
    "strec@10",
    "strec@20",
)
_NNRBP = COLUMNS.index("nNRBP")


def ndeval_measures(alpha: float = 0.5, beta: float = 0.5) -> list:
    """The cwlkit measures of ndeval's 21 columns, in its order."""
    from ..measures import diversity as d

    out: list = []
    for cls in (d.ERR_IA, d.nERR_IA, d.alpha_DCG, d.alpha_nDCG):
        out += [cls(k=k, alpha=alpha) for k in (5, 10, 20)]
    out += [d.NRBP(alpha=alpha, beta=beta), d.nNRBP(alpha=alpha, beta=beta), d.AP_IA()]
    out += [d.P_IA(k=k) for k in (5, 10, 20)]
    out += [d.StRecall(k=k) for k in (5, 10, 20)]
    return out


@dataclass
class NdevalReport:
    """ndeval's numbers for one run.

    Attributes
    ----------
    runid : str
        The label printed in the first column (the run's first tag; with a baseline the
        ``(rel to. ...)`` form).
    topics : list of str
        The topics of the lines, in ndeval's order.
    values : numpy.ndarray
        float64[len(topics), 21], the columns of :data:`COLUMNS` (NaN prints ``-nan``).
    mean : numpy.ndarray
        float64[21], the ``amean`` line: the sum of the lines in order divided by ``n_mean``.
    n_mean : int
        The denominator of the means.
    n_shared : int
        The run's topics that the qrels judge (0: the files share no topic).
    """

    runid: str
    topics: list[str]
    values: np.ndarray
    mean: np.ndarray
    n_mean: int
    n_shared: int = -1


def ndeval_report(
    qrels,
    run,
    *,
    alpha: float = 0.5,
    beta: float = 0.5,
    traditional: bool = False,
    all_topics: bool = False,
    depth: int | None = None,
    baseline=None,
    risk_alpha: float = 0.0,
    risk_alpha_text: str | None = None,
) -> NdevalReport:
    """Compute what ndeval prints for ``run``.

    Parameters
    ----------
    qrels : DiversityQrels or any form :func:`cwlkit.as_diversity_qrels` accepts
    run : Run or any form :func:`cwlkit.as_run` accepts
    alpha, beta : float
        ndeval's ``-alpha`` and ``-beta``, in [0, 1] (default 0.5).
    traditional : bool
        ``-traditional``: rank by score (then docno descending) instead of the rank column.
    all_topics : bool
        ``-c``: average over every qrels topic.
    depth : int, optional
        ``-M``: keep the first ``depth`` documents of each ranking.
    baseline : Run, optional
        ``-baseline``: risk-sensitive values relative to this run.
    risk_alpha : float
        ``-riskAlpha`` (>= 0): losses against the baseline count ``1 + risk_alpha`` times.
    risk_alpha_text : str, optional
        How ``risk_alpha`` is spelled in the runid (as typed; default ``"0"``).
    """
    from ..io.diversity import as_diversity_qrels
    from ..io.inputs import as_run

    for name, v in (("-alpha", alpha), ("-beta", beta)):
        if not (0.0 <= v <= 1.0):
            raise ParamError(f"{name} must be in [0, 1]; got {v:g}")
    if depth is not None and (int(depth) != depth or depth < 1):
        raise ParamError(f"-M must be a positive integer; got {depth}")
    if not (risk_alpha >= 0.0):
        raise ParamError(f"-riskAlpha must be >= 0; got {risk_alpha:g}")
    q = _ndeval_qrels(as_diversity_qrels(qrels))
    r = _ndeval_run(as_run(run))

    def evaluate(run: Run) -> tuple[list[str], np.ndarray, np.ndarray]:
        return _evaluate(q, run, alpha=alpha, beta=beta, traditional=traditional, depth=depth)

    topics, values, in_qrels = evaluate(r)
    n_shared = int(in_qrels.sum())
    n_mean = len(q.codes()[1]) if all_topics else n_shared
    runid = _first_tag(r)
    if baseline is not None:
        b = _ndeval_run(as_run(baseline))
        b_topics, b_values, _ = evaluate(b)
        if all_topics:
            extra = np.setdiff1d(np.asarray(b_topics, dtype=object).astype(str), topics)
            rows = np.concatenate([np.asarray(topics, dtype=str), extra.astype(str)])
        else:
            rows = np.asarray(topics, dtype=str)
        rows = rows[_order(rows)]
        run_v = _lookup(rows, topics, values)
        base_v = _lookup(rows, b_topics, b_values)
        with np.errstate(invalid="ignore"):
            values = np.where(
                run_v >= base_v, run_v - base_v, (risk_alpha + 1.0) * (run_v - base_v)
            )
        topics = [str(t) for t in rows]
        n_mean = max(n_mean, len(topics))
        text = "0" if risk_alpha_text is None else risk_alpha_text
        runid = f"{runid} (rel to. {_first_tag(b)}; rs=1+a; a={text})"
    else:
        order = _order(np.asarray(topics, dtype=str))
        topics = [topics[i] for i in order]
        values = values[order]
    # ndeval adds the lines up in order, one at a time: a cumulative sum does the same
    total = np.cumsum(values, axis=0)[-1] if len(topics) else np.zeros(len(COLUMNS))
    with np.errstate(invalid="ignore", divide="ignore"):
        mean = total / np.float64(n_mean)
    return NdevalReport(runid, topics, values, mean, n_mean, n_shared)


def _evaluate(
    q, run: Run, *, alpha: float, beta: float, traditional: bool, depth: int | None
) -> tuple[list[str], np.ndarray, np.ndarray]:
    """(run topics in byte order, float64[T, 21] values, bool[T] topic in the qrels)."""
    from ..api import Evaluator
    from ..measures.diversity import topic_subtopics

    if not traditional:
        _check_ranks(run)
    ev = Evaluator(
        q,
        ndeval_measures(alpha, beta),
        topics="run",
        order="score" if traditional else "rank",
        trec_version=10,
        depth=depth,
    )
    res = ev.evaluate(run)
    in_qrels, n_sub = topic_subtopics(q, res.topics, 1.0)
    values = res.values.T.copy()
    # ndeval's 0/0: the ideal NRBP is 0 without relevant subtopics, or when
    # 1 - (1 - alpha) beta is (alpha = 0, beta = 1); cwlkit's nNRBP is 0 there
    zero = (n_sub == 0) | (1.0 - (1.0 - alpha) * beta == 0.0)
    values[in_qrels & zero, _NNRBP] = np.nan
    return list(res.topics), values, in_qrels


def _check_ranks(run: Run) -> None:
    """ndeval refuses a rank repeated within a topic (it would not know the order)."""
    t = run.codes()[0]
    col = run.table.column("rank").combine_chunks()
    try:
        ranks = to_numpy(pc.cast(col, pa.int64()))
    except (pa.ArrowInvalid, pa.ArrowNotImplementedError):
        return  # the batch names the bad rank
    span = int(ranks.max(initial=0)) - int(ranks.min(initial=0)) + 1
    dup = first_duplicate(t * span + (ranks - int(ranks.min(initial=0))))
    if dup is not None:
        first, second = dup
        raise FormatError(
            run.path,
            int(run.lines[second]),
            f"rank {int(ranks[second])} appears twice for topic "
            f"{run.table.column('topic')[second].as_py()!r} (first at line "
            f"{int(run.lines[first])}); ndeval ranks by the rank column: give each document "
            "its own rank, or use -traditional to rank by score",
        )


def _first_tag(run: Run) -> str:
    return str(run.table.column("tag")[0].as_py()) if run.table.num_rows else ""


def _ndeval_ids(col: pa.Array, *, prefix: bool) -> pa.Array:
    """Topic ids as ndeval reads them: leading zeros dropped; with ``prefix`` a leading task
    name up to the first ``-`` (``wt09-51``) removed."""
    if prefix:
        col = pc.replace_substring_regex(col, r"^[^0-9][^-]*-", "", max_replacements=1)
    return pc.replace_substring_regex(col, r"^0+([0-9])", r"\1", max_replacements=1)


def _renamed(codes: np.ndarray, names: pa.Array, *, prefix: bool) -> pa.Array | None:
    """The topic column with ndeval's ids (worked out on the distinct ids), or None when
    every id is already one."""
    new = _ndeval_ids(names, prefix=prefix)
    if new.equals(names):
        return None
    return new.take(from_numpy(codes))


def _ndeval_qrels(q):
    from ..io.diversity import as_diversity_qrels
    from ..io.text import encode_runs

    codes, names = encode_runs(q.subtopics.column("topic"))
    new = _renamed(codes, names, prefix=False)
    if new is None:
        return q
    t = q.subtopics.set_column(0, "topic", new)
    return as_diversity_qrels(t.select(["topic", "subtopic", "doc", "label"]), name=q.path)


def _ndeval_run(run: Run) -> Run:
    from ..io.trec import check_duplicates

    codes, names = run.codes()[:2]
    new = _renamed(codes, names, prefix=True)
    if new is None:
        return run
    i = run.table.column_names.index("topic")
    table = run.table.set_column(i, "topic", new)
    check_duplicates(run.path, table, run.lines, "run")
    return Run(table, run.lines, run.path)


def _order(topics: np.ndarray) -> np.ndarray:
    from .gdeval import _topic_order

    return _topic_order(topics)


def _lookup(rows: np.ndarray, keys: list[str], values: np.ndarray) -> np.ndarray:
    """values[keys.index(t)] for each row topic, 0 where absent."""
    out = np.zeros((len(rows), len(COLUMNS)))
    if not len(rows) or not len(keys):
        return out
    idx = to_numpy(pc.index_in(from_strings(rows.tolist()), value_set=from_strings(keys)), null=-1)
    hit = idx >= 0
    out[hit] = values[idx[hit]]
    return out


def _number(v: float) -> str:
    if v != v:  # NaN: glibc prints the x86 default NaN (sign bit set) as -nan
        return "-nan"
    return f"{v:.6f}"


def format_ndeval(rep: NdevalReport) -> str:
    """ndeval's CSV: header, one line per topic, the ``amean`` line."""
    lines = ["runid,topic," + ",".join(COLUMNS)]
    for t, row in zip(rep.topics, rep.values.tolist(), strict=True):
        lines.append(f"{rep.runid},{t}," + ",".join(map(_number, row)))
    lines.append(f"{rep.runid},amean," + ",".join(map(_number, rep.mean.tolist())))
    return "\n".join(lines) + "\n"


__all__ = ["COLUMNS", "NdevalReport", "format_ndeval", "ndeval_measures", "ndeval_report"]
