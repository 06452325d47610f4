"""The Python API: one evaluator for every measure, on any input users hold.

::

    import cwlkit
    ev = cwlkit.Evaluator("qrels.txt", ["P@10", "AP", "nDCG@10", "INST(T=2)"])
    res = ev.evaluate("run.txt")            # Results
    res.mean()                               # {"P@10": ..., "AP": ..., ...}
    many = ev.evaluate_many(["a.run", "b.run"])   # {"a.run": Results, "b.run": Results}

Rules by default are trec_eval 9.0.8's, for every measure family: the topics evaluated are
those in both the qrels and the run; the run is ranked by score (rounded to float32, as
9.0.8 stores it) with ties broken by document id descending; the rank column is ignored.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from .errors import ParamError
from .executors import evaluate_run, evaluate_runs
from .executors.choose import text_file
from .measures.parse import parse_list
from .plan import CWL_COLUMNS, TOPIC_RULES, TREC_VERSION, Options, Plan, make_options
from .results import Results
from .support.checks import check_bool, check_int, refuse

if TYPE_CHECKING:  # pragma: no cover
    from types import EllipsisType

    import numpy as np

    from .core.batch import RankingBatch
    from .measures.base import Measure
    from .measures.curves import PRCurve, ROCCurve

__all__ = [
    "CWL_COLUMNS",
    "TOPIC_RULES",
    "TREC_VERSION",
    "Evaluator",
    "Options",
    "cwl_vectors",
    "evaluate",
    "example",
    "named_runs",
    "parse_list",
    "pr_curve",
    "roc_curve",
]


class Evaluator:
    """Evaluate runs against one set of judgements with a fixed list of measures.

    The qrels are read and encoded once; :meth:`evaluate` and :meth:`evaluate_many` score
    runs with every measure, whatever its family (trec_eval's, C/W/L, ERR, LETOR...).

    Parameters
    ----------
    qrels : path, DataFrame, pyarrow Table, dict, iterable of Qrel tuples, ``irds:`` id, Qrels
        The judgements (any form :func:`cwlkit.io.inputs.as_qrels` accepts).
    measures : str, Measure, ir_measures measure, or a sequence of them
        Names such as ``"P@10"``, ``"nDCG@10"``, ``"INST(T=2)"``, trec_eval's ``"P.5,10"``;
        a parameter grid ``"RBP(p=0.1:0.9:0.2)"`` is one measure per value (stop included).
    topics : {"both", "qrels", "run", "either"}, default "both"
        Which topics are evaluated and averaged: trec_eval's rule (both qrels and run);
        ``"qrels"`` is trec_eval's ``-c`` (a qrels topic missing from the run scores 0);
        ``"run"`` every run topic (one without judgements scores 0).
    trec_version : {9, 10}, default 9
        The trec_eval rules followed where versions differ: 9.0.8 rounds scores to float32
        before ranking (scores closer than float32 resolution tie and are ordered by
        document id); 10.0 ranks by the double-precision score and reaches recall levels
        with ``lround``. (What a qrels or run file may hold is ``reading``'s.)
    reading : {"cwlkit", "trec_eval", "trec_eval_10", "ndeval"}, default "cwlkit"
        What a qrels or run file given by name may hold (:mod:`cwlkit.io.rules`, the table in
        docs/inputs.md): the default refuses ``#`` lines and run lines of more than 6
        fields and reads labels as numbers; ``"trec_eval"`` reads labels as C's ``atol``
        (``5e-1`` is 5) and ignores fields after a run line's sixth; ``"trec_eval_10"``
        also skips ``#`` lines; ``"ndeval"`` ignores the extra run fields. Every set
        refuses a label beyond 2^53 in magnitude.
    order : {"score", "rank", "file"}, default "score"
        Ranking: score descending, ties by document id descending (trec_eval); the rank
        column; or the order of the lines (cwl_eval 1.0.12).
    depth : int, optional
        Keep only the top ``depth`` documents of each ranking (trec_eval's ``-M``).
    judged_only : bool, default False
        Drop the unjudged documents (and those with a negative label) of each ranking once
        it is ranked and cut to ``depth``: trec_eval's ``-J`` after ``-M``. Measure cutoffs
        (``P@10``) then count judged documents only. For one measure only, give it the
        parameter (ir_measures' spelling): ``P(judged_only=True)@10``.
    gain : str, default "auto"
        Label -> gain for C/W/L metrics: ``auto`` (``linear`` when the qrels hold a label
        above 1, graded qrels; else ``identity``: binary labels and gains in [0, 1] as they
        are), ``identity``, ``linear`` (label / largest label of the qrels), ``exp``,
        ``err``, or a table ``"0:0,1:0.5,2:1"``. The same default in every subcommand.
    costs, doc_costs : path or Costs, optional
        Element-type costs and per-document costs for the C/W/L cost measurements.
    residuals : bool, default False
        Add ``ResEU``, ``ResETU``, ``ResEC``, ``ResETC``, ``ResED`` columns (NaN for a measure
        that defines no residual; ERR defines ``ResEU``).
    ties : {"none", "average"}, default "none"
        ``average``: tied documents share their group's mean gain (C/W/L metrics).
    compat_depth : int, optional
        cwl_eval 1.0.12's fixed depth for C/W/L metrics (no tail past it).
    cwl_columns : bool, optional
        Compute the C/W/L columns (ETU, EC, ETC, ED) of measures that have a C/W/L form
        (``P@k``, ``RR``: their binary-gain C/W/L metric). Default: when a C/W/L metric is
        asked for, or residuals.
    max_gain, min_gain, max_cost, min_cost : float, optional
        C/W/L bounds, as ``cwlkit cwl``'s options of the same names.
    topic_params : mapping, optional
        Per-topic measure parameters: ``{"T": {"201": 3, "202": 1}}``, or ``{"T": path}`` with
        a file of ``topic value`` lines (inst_eval's ``-tpq`` T file). Every measure with a
        parameter of that name (INST's ``T``...) scores each listed topic with the topic's
        value; other topics keep the measure's own value; measures keep their names.
    compat : {None, "inst_eval"}, default None
        ``"inst_eval"``: INST as the INST paper's companion tool inst_eval.py computes it (W
        normalised over its finite N, no tail; labels / largest label with negative labels
        kept; empty rankings score 0; see :mod:`cwlkit.measures.cwl.inst_eval_compat`), with
        ``compat_depth`` as its ``-n`` (ranks past it count as not provided; None: each
        topic's ranking length). Other C/W/L metrics are an error in this mode.
    chunk_topics : int or "auto", optional
        Score ``chunk_topics`` topics at a time and join the results: the ranking matrices
        then hold one chunk (bounded memory for runs of many topics); the values are the
        same as unchunked (C/W/L values to their last bits: 1e-15 relative). A run given as
        a text file (plain or gzipped, not Parquet) is then streamed: read in blocks into
        buckets of ``chunk_topics`` topics (in order of first appearance) on disk, scored
        a bucket at a time, so that peak memory depends on the bucket, not the file; qrels
        given as such a file are streamed too (they are then read when a run is evaluated,
        not here). ``"auto"``: stream a run of over 8 MB of text, in buckets of about 24,576
        lines; read smaller ones whole. Diversity qrels are scored whole.
    client : distributed.Client, optional
        A Dask client (``pip install cwlkit[dask]``): :meth:`evaluate_many` scores each run
        on the cluster's workers (the Evaluator, qrels encoded, is sent to every worker
        once); :meth:`evaluate` sends the topic chunks of ``chunk_topics``, or the
        partitions of a dask DataFrame run, to the workers (other runs it scores here).
        Runs given as paths (or fsspec
        URLs) are read by the workers: each must be able to read them. The Results are
        identical to those computed here. Not an evaluation option: it is not pickled with
        the Evaluator.
    """

    def __init__(self, qrels: Any, measures: Any, *, client: Any = None, **options: Any) -> None:
        # (_copy_qrels=False: :func:`evaluate`'s Evaluator, held by no one else, reads a qrels
        # dict's topics without copying them)
        copy_qrels = bool(options.pop("_copy_qrels", True))
        where = options.pop("_where", "Evaluator")

        opts = make_options(where, options) if options else _default_options()
        # a qrels text file is streamed with each run (read then, not here)
        streamed = opts.chunk_topics is not None and text_file(qrels) is not None
        self.plan = Plan(
            qrels, _parse_measures(measures), opts, stream_qrels=streamed, copy_qrels=copy_qrels
        )
        self._client = None
        if client is not None:
            from .executors.dask import check_client

            self._client = check_client(client)

    def __getstate__(self) -> dict:
        # the client stays here: a copy sent elsewhere evaluates in that process
        return {**self.__dict__, "_client": None}

    @property
    def options(self) -> Options:
        """The evaluation options, checked."""
        return self.plan.options

    @property
    def measures(self) -> list[Measure]:
        """The measures, parsed, in the order given (repeats dropped)."""
        return self.plan.measures

    @property
    def qrels(self) -> Any:
        """The judgements (a :class:`~cwlkit.io.trec.Qrels`), read on first use when
        streamed."""
        return self.plan.qrels

    def evaluate(
        self,
        run: Any,
        *,
        name: str | None = None,
        jobs: int | None = None,
        chunk_topics: int | str | None | EllipsisType = ...,
        progress: bool | None = False,
    ) -> Results:
        """Score one run (any form :func:`cwlkit.io.inputs.as_run` accepts) with every measure.

        With ``order="file"`` the topics come in the order they first appear in the run (as
        cwl_eval prints them); otherwise in byte order.

        ``jobs``: processes scoring the topic chunks of ``chunk_topics`` (the chunks of a run
        read whole, or the buckets of a streamed file), default every available core, 1 in
        this process (see :func:`cwlkit.support.threads.cores`). Each chunk is scored whole in
        one process by the same code and the parts are joined in the same order, so the
        Results are those of ``jobs=1`` to the bit. Without ``chunk_topics`` (or with
        ``"auto"`` and a run read whole), or with a Dask ``client``, ``jobs`` has no effect.
        ``chunk_topics`` given here overrides the Evaluator's option for this run (None:
        read it whole). ``progress``: a bar on stderr over the topic buckets of a streamed run
        (None: when stderr is a terminal). See :mod:`cwlkit.executors` for the ways a run is
        scored.
        """
        if name is not None and not isinstance(name, str):
            raise refuse("name", "a str or None", name)
        return evaluate_run(
            self.plan,
            run,
            name=name,
            jobs=jobs,
            client=self._client,
            chunk_topics=chunk_topics,
            progress=_progress(progress),
        )

    def evaluate_many(
        self, runs: Any, *, jobs: int | None = None, progress: bool | None = None
    ) -> dict[str, Results]:
        """Score several runs: a sequence (named by file name, or by tag when not paths) or a
        mapping ``{name: run}``. Returns ``{name: Results}`` in the order given.

        The qrels are read and encoded once. ``jobs`` processes (default: every available
        core) score the runs, each run whole in one process, so the results are identical
        to ``jobs=1``; the qrels are handed to each worker once. Without ``jobs``, runs held
        in Python (dicts, DataFrames...) of at most a million rows in all are scored in this
        process, no pool started. One run alone has its topic chunks scored over ``jobs``
        processes (see :meth:`evaluate`). An error in any run is
        raised (naming its file and line) before any result is returned. ``progress``: a
        bar on stderr (runs and topics done); default when stderr is a terminal.

        With a Dask ``client`` (see :class:`Evaluator`) each run is one task on the
        cluster's workers and ``jobs`` is not used; a worker lost mid-way has its tasks
        retried by Dask on another worker.
        """
        items = named_runs(runs)
        return evaluate_runs(
            self.plan, items, jobs=jobs, progress=_progress(progress), client=self._client
        )

    def batch(self, run: Any) -> RankingBatch:
        """The ranking batch of ``run`` under these options (for curves, plots, vectors)."""
        return self.plan.batch(run)

    def score(
        self, batch: RankingBatch, *, run: str = "", measures: list[Measure] | None = None
    ) -> Results:
        """Every measure on a prepared batch.

        A C/W/L metric gives EU as its value and ETU, EC, ETC, ED (and residuals) as columns.
        A binary measure with a C/W/L form (``P@k`` is ``P_cwl@k`` on binary gains, ``RR``
        is ``RR_cwl``) keeps its own value and gets the columns of its form when columns are
        asked for (``cwl_columns``, or any C/W/L metric in the list, or ``residuals``).
        Other measures have NaN columns (ERR has ``ResEU``).
        """
        return self.plan.score(batch, run=run, measures=measures)


def _progress(progress: Any) -> bool | None:
    """``progress`` checked: True, False or None (a bar when stderr is a terminal)."""
    if progress is None:
        return None
    try:
        return check_bool("progress", progress)
    except ParamError:
        raise refuse("progress", "True, False or None", progress) from None


@lru_cache(maxsize=1)
def _default_options() -> Options:
    """The default options, checked once (they are frozen: every Evaluator can share them)."""
    return Options()


def _parse_measures(measures: Any) -> list[Measure]:
    """:func:`parse_list`, remembered for names (a training loop that makes an Evaluator per
    call parses its names once; measures are immutable, so the same ones can be shared)."""
    if isinstance(measures, str):
        return list(_parse_names((measures,)))
    if isinstance(measures, (list, tuple)) and all(type(m) is str for m in measures):
        return list(_parse_names(tuple(measures)))
    return parse_list(measures)


@lru_cache(maxsize=256)
def _parse_names(names: tuple[str, ...]) -> tuple[Measure, ...]:
    return tuple(parse_list(list(names)))


def named_runs(runs: Any) -> list[tuple[str, Any]]:
    """``(name, run)`` pairs: a mapping's keys, file names for paths, tags otherwise."""
    from .io.inputs import run_labels

    if isinstance(runs, Mapping) and not _looks_like_run_dict(runs):
        return [(str(k), v) for k, v in runs.items()]
    if isinstance(runs, (str, os.PathLike)) or not isinstance(runs, Iterable):
        runs = [runs]
    runs = list(runs)
    if all(isinstance(r, (str, os.PathLike)) for r in runs):
        return list(zip(run_labels([str(r) for r in runs]), runs, strict=True))
    return [(f"run{i + 1}", r) for i, r in enumerate(runs)]


def _looks_like_run_dict(d: Mapping) -> bool:
    """A pytrec_eval run ``{qid: {docid: score}}``: its values are mappings of scores, not
    of topics (a mapping of such runs has mappings of mappings); a score that is not a
    number is reported when the run is read."""
    first = next(iter(d.values()), None)
    if not isinstance(first, Mapping):
        return False
    return not isinstance(next(iter(first.values()), None), Mapping)


def evaluate(qrels: Any, run: Any, measures: Any, **options: Any) -> Results | dict[str, Results]:
    """Evaluate one run (or several) against ``qrels`` with every measure in ``measures``.

    ``run`` may be a path, a DataFrame, a dict... (one run: returns :class:`Results`), or a
    list or mapping of runs (returns ``{name: Results}``). Options are :class:`Evaluator`'s;
    by default trec_eval 9.0.8's rules: topics in both qrels and run, scores as float32.

    Examples
    --------
    >>> import cwlkit
    >>> res = cwlkit.evaluate(cwlkit.example("qrels"), cwlkit.example("run"), ["P@2", "AP"])
    >>> res.mean()
    {'P@2': 0.25, 'AP': 0.4388888888888889}
    """
    ev = Evaluator(qrels, measures, _copy_qrels=False, _where="evaluate", **options)
    if _is_many(run):
        return ev.evaluate_many(run)
    return ev.evaluate(run)


def _is_many(run: Any) -> bool:
    if isinstance(run, Mapping):  # (an empty mapping is an empty run, as [] is)
        return bool(run) and not _looks_like_run_dict(run)
    if isinstance(run, (list, tuple)) and run:
        return not isinstance(run[0], tuple) and not hasattr(run[0], "_fields")
    return False


def example(kind: str) -> str:
    """The path of a file bundled with the package, to try cwlkit without data of one's own.

    Parameters
    ----------
    kind : str
        ``qrels``, ``run``, ``costs``, ``metrics``: the cwl_eval paper's topics T1 and T2
        (a qrels file, a run, element-type costs and a metrics file).
        ``web2012.qrels``: the TREC 2012 Web Track's relevance judgements (topics 151-200,
        grades -2..4; gzip). ``web2012.ql.cata``, ``web2012.rm.cata``, ``web2012.ql.catb``:
        three of the track's baseline runs (Indri query likelihood and relevance model on
        ClueWeb09 category A, query likelihood on category B), up to 1,000 documents a topic
        (gzip). ``letor.features``, ``letor.predictions``, ``letor.ranks``: LETOR 4.0's
        MQ2008 Fold1 test set, a linear model's scores for it (one a line) and a ranking
        (the file order: positions 1..n of each query). The command line spells them
        ``example:NAME``.

    Returns
    -------
    str
        The file's path (every reader of cwlkit takes gzip files as they are).

    Raises
    ------
    ParamError
        ``kind`` is not one of these names.

    Examples
    --------
    >>> import cwlkit
    >>> ev = cwlkit.Evaluator(cwlkit.example("web2012.qrels"), ["P@10", "AP"])
    >>> res = ev.evaluate(cwlkit.example("web2012.ql.cata"))
    >>> res.mean()["P@10"], len(res.topics)
    (0.086, 50)
    """
    from .io.examples import example_path

    return example_path(kind)


def pr_curve(
    qrels: Any, run: Any, *, rel: float = 1.0, levels: Any = None, **options: Any
) -> PRCurve:
    """Precision-recall curve of every topic of ``run`` against ``qrels``.

    ``qrels`` and ``run`` take every form :func:`evaluate` takes (paths, .gz, DataFrames,
    pyarrow Tables, pytrec_eval dicts, ir_measures records, Qrels/Run); ``options`` are
    :class:`Evaluator`'s (``topics``, ``depth``, ``order``, ``judged_only``...), so the
    ranking is the one every measure sees. ``rel`` is the relevance threshold (labels
    ``>= rel`` are relevant; unjudged documents are not); ``levels`` the recall levels of
    the interpolated curve (default 0.0, 0.1, ..., 1.0). The curve's arrays are described
    in :func:`cwlkit.measures.curves.pr_curve`:
    ``P~(r) = max_{i : R(i) >= r} P(i)``, 0 when the run never reaches ``r``.

    Examples
    --------
    >>> import cwlkit
    >>> c = cwlkit.pr_curve(cwlkit.example("qrels"), cwlkit.example("run"))
    >>> [round(float(x), 4) for x in c.mean_interpolated[:3]]
    [0.6111, 0.6111, 0.6111]
    """
    from .measures import curves

    threshold = _threshold(rel)
    batch = Evaluator(qrels, [], **options).batch(run)
    if levels is None:
        return curves.pr_curve(batch, threshold)
    return curves.pr_curve(batch, threshold, levels=levels)


def roc_curve(qrels: Any, run: Any, *, rel: float = 1.0, **options: Any) -> ROCCurve:
    """ROC curve (TPR against FPR after each rank) and its area, for every topic of ``run``.

    Inputs and options as :func:`pr_curve`; the conventions (unjudged documents neither
    positive nor negative, unretrieved documents closing the curve to (1, 1), the AUC as
    the Mann-Whitney probability) are those of :func:`cwlkit.measures.curves.roc_curve`.
    """
    from .measures import curves

    threshold = _threshold(rel)
    return curves.roc_curve(Evaluator(qrels, [], **options).batch(run), threshold)


def _threshold(rel: Any) -> float:
    """A relevance threshold: a finite number (labels ``>= rel`` are relevant)."""
    from .support.checks import check_number

    value = check_number("rel", rel)
    assert value is not None
    return value


#: the most ranks :func:`cwl_vectors` computes
MAX_HORIZON = 1_000_000


def cwl_vectors(
    qrels: Any,
    run: Any,
    metric: str | Measure,
    topic: str,
    *,
    horizon: int | None = None,
    **options: Any,
) -> dict[str, np.ndarray]:
    """The C, V, W and L vectors (and ED) of one C/W/L metric on one topic, as cwl_eval's
    notebooks show them: the gains, costs and vectors over the run's ranks (or ``horizon``
    ranks). Options are :class:`Evaluator`'s (``gain``, ``costs``, ``order``...).

    W is normalised by the exact (infinite-tail) expected depth, so over a finite horizon it
    sums to one minus the tail's share. A measure with a C/W/L form (``P@10`` is ``P_cwl@10``
    on binary gains, ``RR`` is ``RR_cwl``: :meth:`~cwlkit.measures.base.Measure.cwl_form`)
    gives the vectors of that form, on its gains, as ``cwlkit cwl -M P@10`` scores it.
    """
    from .errors import CwlkitError
    from .measures.cwl import CWLMetric, weights

    # (the vectors hold every rank to the horizon: past a million ranks they would take
    # gigabytes, and no continuation worth drawing needs them)
    horizon = check_int("horizon", horizon, least=1, most=MAX_HORIZON, none=True)
    ev = Evaluator(qrels, [metric], **{"topics": "run", **options})
    asked = ev.measures[0]
    form = (asked, None) if isinstance(asked, CWLMetric) else asked.cwl_form()
    if form is None or not isinstance(form[0], CWLMetric):
        raise CwlkitError(f"{asked.name} is not a C/W/L metric: it has no C, W and L vectors")
    m, gain = form[0], form[1]
    if gain is not None:  # (the form's own gains: binary labels at the measure's rel)
        ev = Evaluator(qrels, [m], **{"topics": "run", **options, "gain": gain})
    batch = ev.batch(run)
    where = [i for i, t in enumerate(batch.topics) if str(t) == str(topic)]
    if not where:
        raise CwlkitError(f"topic {topic!r} is not in the run")
    t = where[0]
    inp = ev.plan.cwl_input(batch)
    n = int(batch.depth[t])
    g, c = inp.gain_lo[t, :n], inp.cost_lo[t, :n]
    out = weights(m, g, c, pad_cost=inp.max_cost, horizon=horizon)
    out.update(gain=g, cost=c)
    return out
