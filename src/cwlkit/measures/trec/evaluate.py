"""trec_eval's evaluation of a run against qrels: choose measures, build the batch once,
compute every measure over all topics, aggregate, and return a :class:`~cwlkit.results.Results`
(measures under their canonical names; :mod:`cwlkit.formats.trec_eval` prints it).

Version rules (``version=9`` is trec_eval 9.0.8, ``version=10`` is 10.0):

- Scores are rounded to float32 before ranking in 9 (ties below float precision), double
  in 10. Ranking: score descending, docno descending (byte order); the rank column is
  ignored. ``max_depth`` (``-M``) keeps the top N after ranking, then ``judged_only``
  (``-J``) drops the documents not in the qrels or with a negative value.
- Topics: those in both files; with ``all_topics`` (``-c``) every qrels topic counts in the
  average (a topic without results scores 0). 9 prints no line for such a topic; 10 prints it
  (values of an empty ranking), and without ``-c`` 10 refuses a qrels topic that has no
  results.
- Qrels values are truncated toward zero (as trec_eval's ``atol`` reads integer and decimal
  text; ``-0.5`` is 0). A value in exponent form is read as the number it is (``1e1`` is 10;
  ``atol`` stops at the ``e``).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from ...errors import CwlkitError, ParamError, UnknownMeasureError
from ._ctx import NONPOOL, PAD, Ctx
from .spec import BY_NAME, MEASURES, PREFS_JG_MEASURES, TrecMeasure, nicknames

if TYPE_CHECKING:  # pragma: no cover
    from ...results import Results

MISSING_ZSCORE = -1000000.0
#: values trec_eval 10.0 resets to 0 (or '') on the stand-in ranking of a missing topic
_CLEARED = ("num_ret", "utility", "relstring", "rbp_resid")


def _atof(text: str) -> float:
    """C ``atof``: the longest numeric prefix, 0 if none."""
    import re

    m = re.match(r"\s*[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?", text)
    return float(m.group(0)) if m else 0.0


def _atol(text: str) -> int:
    import re

    m = re.match(r"\s*[+-]?\d+", text)
    return int(m.group(0)) if m else 0


def parse_params(m: TrecMeasure, text: str):
    """Parse ``text`` (what follows the ``.`` of ``-m name.params``) as trec_eval does."""
    if m.kind == "long_cut":
        vals = sorted(_atol(t) for t in text.split(","))
        if vals[0] <= 0:
            raise ParamError(
                f"-m {m.name}.{text}: cutoffs must be positive "
                "(trec_eval: Negative cutoff detected)"
            )
        if any(a == b for a, b in zip(vals, vals[1:], strict=False)):
            raise ParamError(f"-m {m.name}.{text}: duplicate cutoffs")
        return tuple(vals)
    if m.kind == "double_cut":
        vals = sorted(_atof(t) for t in text.split(","))
        if any(a == b for a, b in zip(vals, vals[1:], strict=False)):
            raise ParamError(f"-m {m.name}.{text}: duplicate cutoffs")
        return tuple(vals)
    if m.kind == "double_params":
        return tuple(_atof(t) for t in text.split(","))
    if m.kind == "pairs":
        pairs = []
        for item in text.split(","):
            if item.count("=") != 1 or not item.split("=")[0]:
                raise ParamError(
                    f"-m {m.name}.{text}: malformed pair parameters (expected level=value,...)"
                )
            k, v = item.split("=")
            pairs.append((k, _atof(v)))
        return tuple(pairs)
    return ()


def printed_names(m: TrecMeasure, params, given: str | None) -> list[str]:
    """The names trec_eval prints for measure ``m`` with ``params``."""
    if m.kind == "long_cut":
        return [f"{m.name}_{k}" for k in params]
    if m.kind == "double_cut":
        return [f"{m.name}_{x:3.2f}" for x in params]
    if m.kind in ("double_params", "pairs") and given is not None:
        return [f"{m.name}_{given}"]
    return [m.name]


#: aggregation of each kind of trec_eval row in :class:`~cwlkit.results.Results`
_AGGREGATES = {"mean": "mean", "sum": "sum", "gm": "gmean", "text": "mean", "num_q": "sum"}


def canonical_names(m: TrecMeasure, params, given: str | None, rel_level: float = 1) -> list[str]:
    """The canonical names (registry) of what trec_eval prints for ``m`` with ``params``, one
    per :func:`printed_names` entry (``P_5`` is ``P@5``; with ``-l 2``, ``P(rel=2)@5``).

    ``num_q`` is ``NumQ``; ``relstring``, text that is trec_eval's only, keeps its printed
    name; ``runid`` is no measure (the run's name) and has none.
    """
    from dataclasses import replace

    from .registered import from_trec as _from_trec

    if m.agg == "runid":
        return []
    if m.agg == "num_q":
        return ["NumQ"]
    if m.agg == "text":
        return printed_names(m, params, given)
    out = []
    for x in _from_trec(m.name, given, params):
        if rel_level != 1 and hasattr(x, "rel"):
            x = replace(x, rel=float(rel_level))
        out.append(x.name)
    return out


def trec_eval_names(specs: list[str] | None, version: int = 9) -> list[str]:
    """What trec_eval prints for ``-m specs``, in print order: ``runid`` for the run's tag
    line, then one name per measure of :func:`evaluate_trec`'s Results, in its order (the
    ``names`` of :func:`cwlkit.formats.trec_eval.format_trec_eval`)."""
    measures, _ = select_measures(specs, version)
    out: list[str] = []
    for m, params, text in measures:
        out += ["runid"] if m.agg == "runid" else printed_names(m, params, text)
    return out


def select_measures(
    specs: list[str] | None, version: int
) -> tuple[list[tuple[TrecMeasure, tuple, str | None]], list[str]]:
    """Resolve ``-m`` arguments into measures (table order) with their parameters.

    Returns
    -------
    measures : list of (TrecMeasure, params, params text or None)
        The qrels-based measures to compute.
    others : list of str
        Requested names that belong to the preference / judgment-group measures.
    """
    nick = nicknames(version)
    marked: set[str] = set()
    args: list[tuple[str, str]] = []
    for spec in specs or ["official"]:
        name, dot, param = spec.partition(".")
        if dot:
            if not param:
                raise ParamError(f"improper measure in parameter '{spec}'")
            args.append((name, param))
        if name in nick:
            marked.update(nick[name])
            continue
        m = BY_NAME.get(name)
        if (m is None or version not in m.versions) and name not in PREFS_JG_MEASURES:
            known = (
                [x.name for x in MEASURES if version in x.versions]
                + list(PREFS_JG_MEASURES)
                + list(nick)
            )
            raise UnknownMeasureError(name, known)
        marked.add(name)
    out = []
    for m in MEASURES:
        if m.name not in marked or version not in m.versions:
            continue
        text = next((p for n, p in args if n == m.name), None)
        params = parse_params(m, text) if text is not None else m.default
        out.append((m, params, text))
    others = [n for n in PREFS_JG_MEASURES if n in marked]
    return out, others


def _codes(batch, judged_only: bool, bogus: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """int64[T, D] relevance codes and depths from a batch (optionally judged docs only).

    Topics flagged ``bogus`` get trec_eval 10.0's stand-in ranking for a missing topic: one
    document that is not in the qrels.
    """
    lab = batch.labels
    with np.errstate(invalid="ignore"):
        # the cast truncates toward zero as atol does; NaN (unjudged) casts to garbage
        # that the judged mask replaces. Negative means below 0 once truncated (atol reads
        # -0.5 as 0: judged non-relevant)
        lvl = np.clip(lab, -(2.0**62), 2.0**62).astype(np.int64)
        codes = np.where(batch.judged, np.where(lvl < 0, -2, lvl), -1)
    codes[~batch.valid] = PAD
    depth = batch.depth.astype(np.int64)
    if bogus.any():
        if codes.shape[1] == 0:
            codes = np.full((codes.shape[0], 1), PAD, dtype=np.int64)
        codes[bogus, 0] = NONPOOL
        depth = np.where(bogus, 1, depth)
    if judged_only:
        keep = codes >= 0
        depth = keep.sum(axis=1).astype(np.int64)
        D = int(depth.max(initial=0))
        pos = np.cumsum(keep, axis=1) - 1
        out = np.full((codes.shape[0], D), PAD, dtype=np.int64)
        r, c = np.nonzero(keep)
        out[r, pos[r, c]] = codes[r, c]
        codes = out
    return codes, depth


def evaluate_trec(
    qrels,
    run,
    specs: list[str] | None = None,
    *,
    version: int = 9,
    all_topics: bool = False,
    rel_level: float = 1,
    max_depth: int | None = None,
    judged_only: bool = False,
    num_docs: int = 0,
    zscores: dict[tuple[str, str], tuple[float, float]] | None = None,
    release: bool = False,
    chunk_topics: int | None = None,
) -> Results:
    """Evaluate ``run`` against ``qrels`` with trec_eval's qrels-based measures.

    Parameters
    ----------
    qrels, run : Qrels, Run
        As read by :func:`cwlkit.io.trec.read_qrels` / :func:`~cwlkit.io.trec.read_run`.
    specs : list of str, optional
        trec_eval ``-m`` arguments (``"all_trec"``, ``"P.5,10"``); default ``official``.
    version : {9, 10}
        trec_eval 9.0.8 or 10.0 rules (see the module docstring).
    all_topics : bool
        ``-c``: average over every qrels topic.
    rel_level : float
        ``-l``: smallest qrels value counted relevant.
    max_depth : int, optional
        ``-M``: documents kept per topic after ranking.
    judged_only : bool
        ``-J``: drop unjudged documents after ranking.
    num_docs : int
        ``-N``: collection size (utility's fourth coefficient).
    zscores : dict, optional
        ``-Z``: ``(qid, printed name) -> (mean, stddev)``; values become Z scores.
    release : bool
        Drop the cached topic and document codes of ``qrels`` and ``run`` once the batch is
        built (they are recomputed if asked for again): lowers the peak memory of one-shot
        callers such as the command line.
    chunk_topics : int, optional
        Evaluate ``chunk_topics`` topics at a time (in byte order) and concatenate: the
        batch's matrices hold one chunk, and the output is the same, byte for byte. Ignored
        with ``all_topics`` (``-c``), which is evaluated whole (:func:`evaluate_trec_files`
        streams files with ``-c`` too).

    Returns
    -------
    Results
        Topics in byte order (those trec_eval prints), measures under their canonical names
        in trec_eval's table order (:func:`canonical_names`; ``runid`` is ``Results.run``),
        ``NumQ`` for ``num_q``, ``relstring`` in ``Results.text``. ``Results.summary`` holds
        what trec_eval prints on the ``all`` lines: topics added in order, averaged over
        ``num_q`` topics (with ``-c``, 9.0.8's qrels topics without results count as 0 and
        in ``NumRel``). With ``zscores`` the values and summaries are Z scores.
    """
    measures = _checked_measures(qrels, run, specs, version, all_topics, max_depth)
    if chunk_topics is not None and not all_topics:
        return _chunked(
            qrels,
            run,
            measures,
            chunk_topics,
            zscores,
            version=version,
            rel_level=rel_level,
            max_depth=max_depth,
            judged_only=judged_only,
            num_docs=num_docs,
        )
    ctx, topics, bogus, num_q, rel_all = _trec_codes(
        qrels,
        run,
        version=version,
        all_topics=all_topics,
        rel_level=rel_level,
        max_depth=max_depth,
        judged_only=judged_only,
        num_docs=num_docs,
        release=release,
    )
    return _results(measures, topics, run.runid, ctx, bogus, num_q, rel_all, zscores, rel_level)


def _checked_measures(
    qrels, run, specs: list[str] | None, version: int, all_topics: bool, max_depth: int | None
) -> list[tuple[TrecMeasure, tuple, str | None]]:
    """The measures of ``specs``, once the options and the topics of both files pass."""
    from ...io.text import from_numpy, to_numpy
    from ...support import compute as pc

    measures = _file_measures(specs, version, max_depth)
    qrels_topics, run_topics = qrels.topic_codes()[1], run.topic_codes()[1]
    in_run = to_numpy(pc.is_in(qrels_topics, value_set=run_topics))
    if not in_run.any() and not (version >= 10 and all_topics):  # (10.0 -c: stand-ins)
        raise CwlkitError(
            f"no topic has both results ({run.path}) and relevance judgements ({qrels.path})"
        )
    if version >= 10 and not all_topics and not in_run.all():
        missing = min(str(t) for t in pc.filter(qrels_topics, from_numpy(~in_run)).to_pylist())
        raise CwlkitError(
            f"topic {missing!r} of {qrels.path} has no results in {run.path} "
            "(trec_eval 10.0 stops here; use -c to score it 0, or --trec-version 9 to skip it)"
        )
    return measures


def _trec_codes(
    qrels,
    run,
    *,
    version: int,
    all_topics: bool,
    rel_level: float,
    max_depth: int | None,
    judged_only: bool,
    num_docs: int,
    release: bool,
) -> tuple[Ctx, list[str], np.ndarray, int, float | None]:
    """(measure context, topics, bogus mask, num_q, R of every qrels topic: -c only, or None)."""
    from ...core.batch import build_batch
    from ...io.text import from_strings, to_numpy
    from ...support import compute as pc

    batch = build_batch(
        qrels,
        run,
        order="score",
        topics="qrels" if all_topics else "both",
        max_depth=max_depth,
        score_precision="single" if version == 9 else "double",
        light=True,
    )
    num_q = batch.n_topics  # with -c, every qrels topic: also those 9 drops just below
    has_run = np.ones(batch.n_topics, bool)
    rel_all = None
    if all_topics:
        run_topics = run.codes()[1]  # cached by build_batch
        has_run = to_numpy(pc.is_in(from_strings(batch.topics.tolist()), value_set=run_topics))
        with np.errstate(invalid="ignore"):
            q_all = np.trunc(batch.qrel_labels)
            rel_all = float(((q_all >= 0) & (q_all >= rel_level)).sum())
        del q_all
        if version < 10:
            batch = batch.select(has_run)
    bogus = np.zeros(batch.n_topics, bool)
    if version >= 10 and all_topics:
        bogus = ~has_run
    codes, depth = _codes(batch, judged_only, bogus)
    with np.errstate(invalid="ignore"):
        qlev = np.trunc(batch.qrel_labels)
    ctx = Ctx(codes, depth, qlev, rel_level=rel_level, num_docs=num_docs, version=version)
    topics = [str(t) for t in batch.topics]
    del batch  # the codes hold all the measures need
    if release:
        qrels.release_codes()
        run.release_codes()
    return ctx, topics, bogus, num_q, rel_all


def _chunked(qrels, run, measures, chunk_topics: int, zscores, **options) -> Results:
    """:func:`evaluate_trec` topic chunk by topic chunk (without ``-c``)."""
    from ...core.chunks import split

    topics: list[str] = []
    parts: list[dict] = []
    for q, r in split(qrels, run, "both", chunk_topics):
        ctx, got, _, _, _ = _trec_codes(q, r, all_topics=False, release=True, **options)
        topics += got
        parts.append(_compute(measures, ctx))
        del ctx, q, r
    computed = {key: _concat([p[key] for p in parts]) for key in parts[0]}
    bogus = np.zeros(len(topics), bool)
    level = options["rel_level"]
    return _results(
        measures, topics, run.runid, None, bogus, len(topics), None, zscores, level, computed
    )


def evaluate_trec_files(
    qrels_path: str,
    run_path: str,
    specs: list[str] | None = None,
    *,
    chunk_topics: int,
    comments: bool = False,
    version: int = 9,
    zscores: dict[tuple[str, str], tuple[float, float]] | None = None,
    progress: bool | None = None,
    jobs: int | None = 1,
    each: Callable[[Results], Any] | None = None,
    sink: Callable[[Any], object] | None = None,
    rel_level: float = 1,
    max_depth: int | None = None,
    judged_only: bool = False,
    num_docs: int = 0,
    all_topics: bool = False,
) -> Results:
    """:func:`evaluate_trec` on two local files, in bounded memory.

    Both files are streamed into buckets on disk (:mod:`cwlkit.io.partition`) that hold
    ranges of topics in byte order, about ``chunk_topics`` topics each
    (:func:`~cwlkit.io.partition.topic_bounds`); the buckets are scored in order, over
    ``jobs`` processes (None: every core), each as :func:`evaluate_trec` scores a whole file.
    The ``all`` values continue trec_eval's running totals from bucket to bucket: topics
    added one at a time in byte order (``total += value``), then ``sum``, ``total / num_q``
    or, for the geometric means, ``exp(sum(log(max(value, 1e-5))) / num_q)``; the output is
    the same as :func:`evaluate_trec`'s, byte for byte.

    Parameters
    ----------
    qrels_path, run_path : str
        Local text files, plain or gzipped (decompressed as they are read).
    specs, version, zscores, rel_level, max_depth, judged_only, num_docs, all_topics
        As :func:`evaluate_trec`. With ``all_topics`` (``-c``) a bucket's qrels topics
        without results count in ``num_q`` and ``num_rel`` (9.0.8) or are scored as empty
        rankings (10.0), as in the whole file; a bucket with no run line is such a bucket.
    chunk_topics : int
        About how many topics a bucket holds.
    comments : bool
        ``#`` lines are comments (trec_eval 10.0).
    jobs : int, optional
        Processes scoring buckets (1: this one; None: every core).
    each : callable, optional
        Called, in the process that scores it, on each bucket's Results (its topics in byte
        order, its ``summary`` that of the bucket alone); what it returns is passed to
        ``sink`` in this process, bucket after bucket in topic order. With ``each`` the
        Results returned holds no topic, only the summary, and peak memory is one bucket's
        (per process) whatever the number of topics. Without it, every topic's values are
        returned (memory grows with the topics).
    sink : callable, optional
        Receives what ``each`` returns (ignored when None).
    progress : bool, optional
        A bar on stderr (chunks and topics done; default: when stderr is a terminal).
    """
    import tempfile
    from contextlib import closing
    from pathlib import Path

    from ...core.chunks import check_chunk
    from ...executors.processes import imap, progress_bar
    from ...io.partition import TopicRanges, partition, topic_bounds

    check_chunk(chunk_topics)
    measures = _file_measures(specs, version, max_depth)
    options = dict(rel_level=rel_level, max_depth=max_depth, judged_only=judged_only)
    options["num_docs"] = num_docs
    ranges = TopicRanges(topic_bounds(qrels_path, chunk_topics))
    kept: list[Results] = []
    totals = _Totals()
    with tempfile.TemporaryDirectory(prefix="cwlkit-") as tmp:
        qp = partition(qrels_path, "qrels", ranges, Path(tmp), comments=comments)
        rp = partition(run_path, "run", ranges, Path(tmp), comments=comments, extra=True)
        _check_files_topics(qp, rp, version, all_topics)
        label_values = np.sort(np.asarray(sorted(qp.labels), dtype=np.float64))
        qp.topics = rp.topics = set()  # checked: free them (a million topics: ~150 MB)
        job = _FilesJob(qp, rp, label_values, measures, version, zscores, each, options, all_topics)
        work = closing(imap(_score_bucket, job, range(ranges.n), jobs=jobs))
        with work, progress_bar(ranges.n, "topic chunks", "chunk", progress) as tick:
            for got in work.thing:
                if got is not None:
                    out, summands, layout, num_q, rel_all = got
                    totals.add(summands, layout, num_q, rel_all)
                    if each is None:
                        kept.append(out)
                    elif sink is not None:
                        sink(out)
                tick(0 if got is None else got[1].shape[1])
        qp.close()
        rp.close()
    return totals.results(kept, rp.last_tag, all_topics and zscores is None)


def _file_measures(specs: list[str] | None, version: int, max_depth: int | None) -> list:
    """The measures of ``specs``, once the options pass (the topics are checked apart)."""
    if version not in (9, 10):
        raise ParamError(f"trec_eval version must be 9 or 10; got {version}")
    if max_depth is not None and max_depth < 0:
        raise ParamError(f"-M must be >= 0; got {max_depth}")
    measures, others = select_measures(specs, version)
    if others:
        raise CwlkitError(
            f"measure {others[0]!r} needs preference or judgment-group input "
            "(-R prefs, qrels_prefs or qrels_jg)"
        )
    return measures


def _check_files_topics(qp, rp, version: int, all_topics: bool) -> None:
    """Topics of the whole files (``Parts.topics``) as :func:`_checked_measures` checks them."""
    if not qp.topics & rp.topics and not (version >= 10 and all_topics):
        raise CwlkitError(
            f"no topic has both results ({rp.path}) and relevance judgements ({qp.path})"
        )
    if version >= 10 and not all_topics and qp.topics - rp.topics:
        missing = min(qp.topics - rp.topics)
        raise CwlkitError(
            f"topic {missing!r} of {qp.path} has no results in {rp.path} "
            "(trec_eval 10.0 stops here; use -c to score it 0, or --trec-version 9 to skip it)"
        )


@dataclass
class _FilesJob:
    """What every bucket of :func:`evaluate_trec_files` needs (inherited by the workers)."""

    qp: Any
    rp: Any
    label_values: np.ndarray
    measures: list
    version: int
    zscores: dict | None
    each: Callable[[Results], Any] | None
    options: dict
    all_topics: bool = False


def _score_bucket(job: _FilesJob, k: int) -> tuple[Any, np.ndarray, tuple, int, float] | None:
    """Bucket ``k`` of :func:`evaluate_trec_files` scored: (its Results, or what ``each``
    makes of them; its summands: float64[M, T], each measure's values as trec_eval adds
    them, the logarithms for the geometric means; the layout of its Results; its ``num_q``;
    with ``all_topics``, the ``num_rel`` of all its qrels topics, else 0), or None when no
    topic is in both files (with ``all_topics``: when it has no qrels topic)."""
    from ...io.trec import Run

    q, r = job.qp.read(k), job.rp.read(k)
    if q is None or (r is None and not job.all_topics):
        return None
    if r is None:  # (-c: every qrels topic of the bucket is without results)
        r = Run.from_records([], job.rp.path, job.rp.last_tag)
    elif not job.all_topics and not set(q.topic_codes()[1].to_pylist()) & set(
        r.topic_codes()[1].to_pylist()
    ):
        return None
    q._cache["label_values"] = job.label_values
    ctx, topics, bogus, num_q, rel_all = _trec_codes(
        q, r, version=job.version, all_topics=job.all_topics, release=True, **job.options
    )
    del q, r
    computed = _compute(job.measures, ctx)  # (compact copies: no view keeps ctx alive)
    del ctx
    level = job.options.get("rel_level", 1)
    runid, zs = job.rp.last_tag, job.zscores
    res = _results(job.measures, topics, runid, None, bogus, num_q, rel_all, zs, level, computed)
    summands = res.values.copy()
    for i, agg in enumerate(res.aggregates):
        if agg == "gmean":
            summands[i] = np.log(np.maximum(summands[i], 1e-5))
    layout = (res.measures, res.aggregates, list(res.text))
    out = res if job.each is None else job.each(res)
    return out, summands, layout, num_q, (rel_all or 0.0)


class _Totals:
    """trec_eval's running totals, continued over buckets taken in topic order."""

    def __init__(self) -> None:
        self.sums: np.ndarray | None = None
        self.num_q = 0  # topics averaged over (with -c: the qrels topics)
        self.size = 0  # topics added (with -c and 9.0.8: those with results)
        self.rel_all = 0.0  # with -c: num_rel of every qrels topic
        self.layout: tuple[list[str], list[str], list[str]] = ([], [], [])

    def add(self, summands: np.ndarray, layout: tuple, num_q: int, rel_all: float) -> None:
        """Add a bucket's summands (float64[M, T]) topic after topic, as trec_eval does;
        ``layout``: its Results' (measures, aggregates, text measures); ``num_q``, ``rel_all``:
        its topics to average over and, with -c, the ``num_rel`` of all its qrels topics."""
        self.layout = layout
        self.num_q += num_q
        self.size += summands.shape[1]
        self.rel_all += rel_all
        if not summands.shape[1]:  # (-c, 9.0.8: no topic with results)
            return
        if self.sums is not None:  # the running total first: the same additions, in order
            summands = np.concatenate([self.sums[:, None], summands], axis=1)
        self.sums = np.cumsum(summands, axis=1)[:, -1]

    def results(self, kept: list[Results], runid: str, all_topics: bool = False) -> Results:
        """The Results of the buckets ``kept`` joined (none: no topic), with the summary
        of every bucket added (``all_topics``: ``-c`` without Z scores: ``num_rel`` counts
        every qrels topic, see :func:`_results`)."""
        from ...results import Results

        measures, aggregates, text = self.layout
        if kept:
            values = np.concatenate([r.values for r in kept], axis=1)
        else:
            values = np.zeros((len(measures), 0))
        topics = [t for r in kept for t in r.topics]
        texts = {m: [x for r in kept for x in r.text[m]] for m in text}
        res = Results(values, measures, topics, run=runid, aggregates=aggregates, text=texts)
        assert self.sums is not None  # (at least one topic: checked before scoring)
        for i, (m, agg) in enumerate(zip(measures, aggregates, strict=True)):
            if m == "NumQ":
                res.summary[m] = float(self.num_q)
            elif m not in text:
                how = {"gmean": "gm", "sum": "sum"}.get(agg, "mean")
                res.summary[m] = _from_total(how, float(self.sums[i]), self.size, self.num_q)
        num_rel = canonical_names(BY_NAME["num_rel"], (), None, 1)[0]
        if all_topics and num_rel in res.summary:  # (as in _results)
            res.summary[num_rel] = self.rel_all
        return res


def _compute(measures, ctx: Ctx) -> dict:
    """Every measure's per-topic values on ``ctx``: ``{(compute, params): values}``."""
    out: dict = {}
    for m, params, _ in measures:
        if m.agg not in ("runid", "num_q") and (m.compute, params) not in out:
            # compact copies: a value may be a view that keeps a whole [T, D] matrix alive
            out[(m.compute, params)] = [
                list(v) if isinstance(v, list) else np.array(v, dtype=np.float64)
                for v in m.compute(ctx, params)
            ]
    return out


def _concat(parts: list) -> list:
    """One measure's values of consecutive chunks, joined (one entry per printed name)."""
    out = []
    for j in range(len(parts[0])):
        xs = [p[j] for p in parts]
        if isinstance(xs[0], list):
            out.append([v for x in xs for v in x])
        else:
            out.append(np.concatenate([np.asarray(x, dtype=np.float64) for x in xs]))
    return out


def _results(
    measures: list[tuple[TrecMeasure, tuple, str | None]],
    topics: list[str],
    runid: str,
    ctx: Ctx | None,
    bogus: np.ndarray,
    num_q: int,
    rel_all: float | None,
    zscores: dict[tuple[str, str], tuple[float, float]] | None,
    rel_level: float,
    computed: dict | None = None,
) -> Results:
    """Compute every measure over all topics (``computed``: values already computed, by
    :func:`_compute` keys, freed as they are used) into one Results with trec_eval's sums."""
    from ...results import Results

    computed = {} if computed is None else computed
    rows = []  # (printed name, canonical name, measure, params, index in its values)
    for m, params, text in measures:
        if m.agg == "runid":  # the run's name: Results.run
            continue
        printed = printed_names(m, params, text)
        names = zip(printed, canonical_names(m, params, text, rel_level), strict=True)
        rows += [(p, c, m, params, j) for j, (p, c) in enumerate(names)]
    uses: dict = {}
    for _, _, m, params, _ in rows:
        uses[(m.compute, params)] = uses.get((m.compute, params), 0) + 1
    if not computed and ctx is not None and ctx.T * ctx.D >= THREADED_CELLS:
        computed = _compute_threaded(rows, ctx)
    values = np.full((len(rows), len(topics)), np.nan)
    aggregates = [_AGGREGATES[r[2].agg] for r in rows]
    res = Results(values, [r[1] for r in rows], topics, run=runid, aggregates=aggregates)
    for i, (name, canon, m, params, j) in enumerate(rows):
        if m.agg == "num_q":
            values[i] = 1.0
            res.summary[canon] = float(num_q)
            continue
        key = (m.compute, params)
        vals = computed.get(key)
        if vals is None:  # gm_map / gm_bpref reuse map / bpref
            vals = computed[key] = m.compute(ctx, params)
        v = vals[j]
        uses[key] -= 1
        if not uses[key]:
            del computed[key]
        _fill_row(res, i, name, m.agg, v, bogus, num_q, zscores)
        if name == "num_rel" and rel_all is not None and zscores is None:
            # with -c trec_eval sums R over every qrels topic, scored or not
            res.summary[canon] = rel_all
    return res


#: smallest ranking matrix (topics x depth) whose measures are computed by several threads
#: (numpy releases the GIL on large arrays; below this, handing work over costs more)
THREADED_CELLS = 200_000


def _compute_threaded(rows: list, ctx: Ctx) -> dict:
    """The values of every distinct ``(compute, params)`` of ``rows`` (but ``num_q``), each
    measure a task for the next free thread (see :func:`cwlkit.support.threads.thread_map`). The
    measures share :class:`Ctx`'s memoised arrays: a ``cached_property`` is computed once
    under its lock; a memo entry computed twice at once holds the same values."""
    from ...support.threads import thread_map

    keys = list(
        dict.fromkeys((m.compute, params) for _, _, m, params, _ in rows if m.agg != "num_q")
    )
    values = thread_map(lambda key: key[0](ctx, key[1]), keys, each=True)
    return dict(zip(keys, values, strict=True))


def _fill_row(res: Results, i: int, name: str, agg: str, v, bogus, num_q: int, zscores) -> None:
    """Row ``i`` of ``res`` (printed name ``name``) from its per-topic values ``v``."""
    canon = res.measures[i]
    cleared = bogus.any() and (name in _CLEARED or name.startswith("unj"))
    if agg == "text":
        res.text[canon] = ["" if (cleared and b) else x for x, b in zip(v, bogus, strict=True)]
        return
    v = np.asarray(v, dtype=np.float64)
    if cleared:
        v = np.where(bogus, 0.0, v)
    if zscores is not None:
        v = _to_z(zscores, res.topics, name, v)
    res.values[i] = v
    res.summary[canon] = _aggregate(agg, v, num_q)


def _to_z(zs, topics: list[str], name: str, v: np.ndarray) -> np.ndarray:
    out = np.empty_like(v)
    for i, t in enumerate(topics):
        got = zs.get((t, name))
        if got is None:
            out[i] = MISSING_ZSCORE
            continue
        mean, sd = got
        if sd:
            out[i] = (v[i] - mean) / sd
        else:
            out[i] = 0.0 if v[i] == mean else MISSING_ZSCORE
    return out


def _aggregate(agg: str, v: np.ndarray, num_q: int) -> float:
    """Summary value: topics added in order, left to right, as trec_eval accumulates them."""

    if agg == "gm":
        v = np.log(np.maximum(v, 1e-5))
    return _from_total(agg, float(np.cumsum(v)[-1]) if v.size else 0.0, v.size, num_q)


def _from_total(agg: str, total: float, size: int, num_q: int) -> float:
    """Summary value from the running total of ``size`` topics' values (their logarithms for
    ``gm``), averaged over ``num_q`` topics (topics without values count as 1e-5 in ``gm``)."""
    if agg == "sum":
        return total
    if agg == "gm":
        logs = total + (num_q - size) * math.log(1e-5)
        return math.exp(logs / num_q) if num_q else 0.0
    return total / num_q if num_q else total
