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

import math
import os
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from .errors import ParamError
from .measures.base import Measure
from .results import Results

#: what ``topics=`` accepts, and trec_eval's name for each
TOPIC_RULES = {
    "both": "topics in both qrels and run (trec_eval's default)",
    "qrels": "every qrels topic; a topic the run lacks scores 0 (trec_eval -c)",
    "run": "every run topic; a topic without judgements scores 0",
    "either": "topics of either",
}
#: the trec_eval version whose rules the API follows by default
TREC_VERSION = 9
CWL_COLUMNS = ("ETU", "EC", "ETC", "ED")


def parse_list(measures: Any) -> list[Measure]:
    """Measures from a name, a Measure, an ir_measures measure, or an iterable of them.

    A name may give several measures (trec_eval's ``P.5,10``). Repeats are dropped.
    """
    from .measures.parse import parse_measures

    if isinstance(measures, (str, Measure)) or _is_ir_measure(measures):
        measures = [measures]
    elif isinstance(measures, (bytes, dict)) or not isinstance(measures, Iterable):
        raise ParamError(
            "measures must be a name such as 'P@10', a Measure, or a list of them; "
            f"got {type(measures).__name__}"
        )
    out: list[Measure] = []
    for m in measures:
        if isinstance(m, Measure):
            got = [m]
        elif _is_ir_measure(m):
            from .measures.ir_measures_bridge import from_ir_measures

            got = from_ir_measures(m)
        elif isinstance(m, str):
            got = parse_measures(m)
        else:
            raise ParamError(
                f"a measure must be a name such as 'P@10' or a Measure; got {type(m).__name__}"
            )
        out.extend(x for x in got if x not in out)
    return out


def _is_ir_measure(obj: Any) -> bool:
    return type(obj).__module__.startswith("ir_measures")


@dataclass(frozen=True)
class Options:
    """Evaluation options shared by every measure (see :class:`Evaluator`)."""

    topics: str = "both"
    trec_version: int = TREC_VERSION
    order: str = "score"
    depth: int | None = None
    judged_only: bool = False
    gain: str = "identity"
    costs: Any = None
    doc_costs: Any = None
    residuals: bool = False
    ties: str = "none"
    compat_depth: int | None = None
    cwl_columns: bool | None = None
    max_gain: float | None = None
    min_gain: float | None = None
    max_cost: float = 1.0
    min_cost: float = 1.0
    topic_params: Any = None
    compat: str | None = None
    chunk_topics: int | str | None = None

    def __post_init__(self) -> None:
        if self.topics not in TOPIC_RULES:
            raise ParamError(f"topics must be one of {', '.join(TOPIC_RULES)}; got {self.topics!r}")
        if self.trec_version not in (9, 10):
            raise ParamError(
                f"trec_version must be 9 (9.0.8) or 10 (10.0); got {self.trec_version!r}"
            )
        if self.order not in ("score", "rank", "file"):
            raise ParamError(f"order must be 'score', 'rank' or 'file'; got {self.order!r}")
        if self.ties not in ("none", "average"):
            raise ParamError(f"ties must be 'none' or 'average'; got {self.ties!r}")
        if self.compat not in (None, "inst_eval"):
            raise ParamError(f"compat must be None or 'inst_eval'; got {self.compat!r}")
        for name in ("depth", "compat_depth"):
            v = getattr(self, name)
            # inst_eval.py's -n may be 0 (every rank then counts as past the depth)
            least = 0 if (name == "compat_depth" and self.compat == "inst_eval") else 1
            if v is not None and (not isinstance(v, (int, np.integer)) or v < least):
                raise ParamError(f"{name} must be a positive integer; got {v!r}")
        self._check_types()
        for name in ("max_cost", "min_cost"):  # (an infinite cost makes EC inf * 0 = nan)
            v = getattr(self, name)
            if not (isinstance(v, (int, float, np.number)) and math.isfinite(v)):
                raise ParamError(f"{name} must be a finite number; got {v!r}")
        from .core.chunks import check_chunk

        check_chunk(self.chunk_topics, auto=True)

    def _check_types(self) -> None:
        """The gain mapping, gain bounds and cost files are of the kinds the options take
        (checked even when no C/W/L measure reads them)."""
        from .core.gains import GainMap
        from .io.costs import Costs, DocCosts

        if not isinstance(self.gain, (str, GainMap)):
            raise ParamError(f"gain must be a gain mapping's name or a GainMap; got {self.gain!r}")
        for name in ("max_gain", "min_gain"):
            v = getattr(self, name)
            number = isinstance(v, (int, float, np.number)) and not isinstance(v, bool)
            if v is not None and not (number and math.isfinite(v)):
                raise ParamError(f"{name} must be a finite number or None; got {v!r}")
        for name, kind in (("costs", Costs), ("doc_costs", DocCosts)):
            v = getattr(self, name)
            if v is not None and not isinstance(v, (str, os.PathLike, kind)):
                raise ParamError(f"{name} must be a file name or a {kind.__name__}; got {v!r}")

    @property
    def light(self) -> bool:
        """Whether the run's element types, document ids and scores can be dropped."""
        return (
            self.costs is None
            and self.doc_costs is None
            and self.ties == "none"
            and self.order != "rank"
        )


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
        with ``lround``.
    order : {"score", "rank", "file"}, default "score"
        Ranking: score descending, ties by document id descending (trec_eval); the rank
        column; or the order of the lines (cwl_eval 1.0.12).
    depth : int, optional
        Keep only the top ``depth`` documents of each ranking (trec_eval's ``-M``).
    judged_only : bool, default False
        Drop unjudged documents before ranking (trec_eval's ``-J``).
    gain : str, default "identity"
        Label -> gain for C/W/L metrics: ``identity``, ``linear`` (label / largest label of
        the qrels), ``exp``, ``err``, or a table ``"0:0,1:0.5,2:1"``.
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
        from .io.inputs import as_qrels

        try:
            self.options = Options(**options)
        except TypeError as exc:
            raise ParamError(f"Evaluator: {exc}") from None
        self.measures = parse_list(measures)
        self._topic_params = None
        if self.options.topic_params is not None:
            from ._per_topic import check_measures, resolve

            self._topic_params = resolve(self.options.topic_params)
            check_measures(self._topic_params, self.measures)
        # streamed qrels are read with each run (see _streamed.py), others here
        self._qrels_source = qrels
        self._qrels = None
        if self.options.chunk_topics is None or _text_file(qrels) is None:
            self._qrels = as_qrels(qrels)
        self._costs = _read_costs(self.options)
        self._client = None
        if client is not None:
            from ._dask import check_client

            self._client = check_client(client)

    def __getstate__(self) -> dict:
        # the client stays here: a copy sent to a worker evaluates there, in that process;
        # qrels already read are sent without the object they were read from
        state = {**self.__dict__, "_client": None}
        if state.get("_qrels") is not None:
            state["_qrels_source"] = None
        return state

    def evaluate(self, run: Any, *, name: str | None = None, jobs: int | None = None) -> Results:
        """Score one run (any form :func:`cwlkit.io.inputs.as_run` accepts) with every measure.

        With ``order="file"`` the topics come in the order they first appear in the run (as
        cwl_eval prints them); otherwise in byte order.

        ``jobs``: processes scoring the topic chunks of ``chunk_topics`` (the chunks of a run
        read whole, or the buckets of a streamed file), default every available core, 1 in
        this process (see :func:`cwlkit._parallel.cores`). Each chunk is scored whole in one
        process by the same code and the parts are joined in the same order, so the Results
        are those of ``jobs=1`` to the bit; each worker is handed the Evaluator and the
        run's chunk plan once (inherited by fork) and a task is one chunk's index, and at most
        ``2 * jobs`` chunks are in flight. Without ``chunk_topics`` (or with ``"auto"`` and a
        run read whole), or with a Dask ``client``, ``jobs`` has no effect.
        """
        if self._client is not None and _is_dask_frame(run):
            from ._dask import evaluate_frame

            return evaluate_frame(self, self._client, run, name)
        streamed = self._streamed(run, name, jobs)
        if streamed is not None:
            return streamed
        r = _load_run(run, name, self._light, None if self._diversity else self.qrels)
        if self.options.chunk_topics not in (None, "auto") and not self._diversity:
            return self._evaluate_chunks(r, name, self.options.chunk_topics, jobs)
        batch = self.batch(r)
        first = _first_appearance(r) if self.options.order == "file" else None
        if r is not run:
            r.release_codes()  # the batch holds what is needed from here on
        res = self.score(batch, run=name or r.runid)
        return res if first is None else _reorder(res, first)

    def evaluate_many(
        self, runs: Any, *, jobs: int | None = None, progress: bool | None = None
    ) -> dict[str, Results]:
        """Score several runs: a sequence (named by file name, or by tag when not paths) or a
        mapping ``{name: run}``. Returns ``{name: Results}`` in the order given.

        The qrels are read and encoded once. ``jobs`` processes (default: every available
        core) score the runs, each run whole in one process, so the results are identical
        to ``jobs=1``; the qrels are handed to each worker once. One run alone has its topic
        chunks scored over ``jobs`` processes (see :meth:`evaluate`). An error in any run is
        raised (naming its file and line) before any result is returned. ``progress``: a
        bar on stderr (runs and topics done); default when stderr is a terminal.

        With a Dask ``client`` (see :class:`Evaluator`) each run is one task on the
        cluster's workers and ``jobs`` is not used; a worker lost mid-way has its tasks
        retried by Dask on another worker.
        """
        from ._parallel import chunk_for, imap, progress_bar

        items = _named_runs(runs)
        if len(items) > 1:
            _ = self.qrels  # read once for every run, streamed or not
        if self._client is not None:
            from ._dask import map_runs

            done = map_runs(self, self._client, items)
        elif len(items) == 1:  # the processes score its chunks, if any
            done = iter([self.evaluate(items[0][1], name=items[0][0], jobs=jobs)])
        else:
            chunk = chunk_for([run for _, run in items], jobs)
            done = imap(_evaluate_one, self, items, jobs=jobs, chunk=chunk)
        out: dict[str, Results] = {}
        with progress_bar(len(items), "runs", "run", progress) as tick:
            for (name, _), res in zip(items, done, strict=True):
                out[name] = res
                tick(len(res.topics))
        return out

    def _evaluate_chunks(self, r, name: str | None, size: int, jobs: int | None) -> Results:
        """:meth:`evaluate` of a loaded run, ``size`` topics at a time (byte order), over
        ``jobs`` processes; with a Dask client the chunks are scored on its workers."""
        from .core.chunks import Chunks, split

        if self._client is not None:
            from ._dask import score_chunks

            chunks = split(self.qrels, r, self.options.topics, size)
            parts = score_chunks(self, self._client, chunks, name or r.runid)
        else:
            from ._parallel import imap

            plan = Chunks(self.qrels, r, self.options.topics, size)
            state = (self, plan, name or r.runid)
            parts = list(imap(_score_chunk, state, range(plan.n), jobs=jobs))
        first = _first_appearance(r) if self.options.order == "file" else None
        res = join_parts(parts)
        return res if first is None else _reorder(res, first)

    def batch(self, run: Any):
        """The ranking batch of ``run`` under these options (for curves, plots, vectors)."""
        return self._build(self.qrels, _load_run(run, None, self._light))

    def _build(self, qrels, run):
        from .core.batch import build_batch

        o = self.options
        batch = build_batch(
            qrels,
            run,
            order=o.order,  # type: ignore[arg-type]
            topics=o.topics,  # type: ignore[arg-type]
            max_depth=o.depth,
            score_precision="single" if o.trec_version == 9 else "double",
            drop_unjudged=o.judged_only,
            light=self._light,
        )
        batch._cache["trec_version"] = o.trec_version
        if self._diversity:  # the intent-aware measures read the subtopics from here
            batch._cache["diversity_qrels"] = self.qrels
        return batch

    @property
    def _diversity(self) -> bool:
        """Whether the qrels are diversity qrels (``cwlkit.read_diversity_qrels``)."""
        # (qrels not read yet are a plain TREC file: see __init__)
        return bool(getattr(self._qrels, "is_diversity", False))

    @property
    def qrels(self) -> Any:
        """The judgements (a :class:`~cwlkit.io.trec.Qrels`), read on first use when
        streamed."""
        if self._qrels is None:
            from .io.inputs import as_qrels

            self._qrels = as_qrels(self._qrels_source)
        return self._qrels

    def _streamed(self, run: Any, name: str | None, jobs: int | None) -> Results | None:
        """:meth:`evaluate` of a text run file (plain or gzipped) streamed in topic buckets (see
        ``chunk_topics``), or None when the run is read whole."""
        from ._streamed import buckets_for, evaluate_streamed

        path = _text_file(run) if self.options.chunk_topics is not None else None
        if path is None or self._diversity or self._client is not None:
            return None
        buckets = buckets_for(path, self.options.chunk_topics)
        if buckets is None:
            return None
        qrels = self._qrels if self._qrels is not None else _text_file(self._qrels_source)
        return evaluate_streamed(self, qrels, path, buckets, name, jobs=jobs)

    @property
    def _light(self) -> bool:
        # diversity qrels: the batch keeps the document ids, to look their subtopics up; a
        # measure that reads the scores (RBP_eval's tie groups) keeps them
        needs_scores = any(getattr(m, "needs_scores", False) for m in self.measures)
        return self.options.light and not self._diversity and not needs_scores

    def score(self, batch, *, run: str = "", measures: list[Measure] | None = None) -> Results:
        """Every measure on a prepared batch.

        A C/W/L metric gives EU as its value and ETU, EC, ETC, ED (and residuals) as columns.
        A binary measure with a C/W/L form (``P@k`` is ``P_cwl@k`` on binary gains, ``RR``
        is ``RR_cwl``) keeps its own value and gets the columns of its form when columns are
        asked for (``cwl_columns``, or any C/W/L metric in the list, or ``residuals``).
        Other measures have NaN columns (ERR has ``ResEU``).
        """
        from .measures.base import is_cwl

        if measures is None and self._topic_params:
            from ._per_topic import score as per_topic

            return per_topic(self, batch, self._topic_params, run)
        ms = self.measures if measures is None else measures
        T = batch.n_topics
        values = np.full((len(ms), T), np.nan)
        o = self.options
        want = o.cwl_columns
        if want is None:
            want = o.residuals or any(is_cwl(m) for m in ms)
        names: tuple[str, ...] = CWL_COLUMNS if want else ()
        if o.residuals:
            names = (*CWL_COLUMNS, *(f"Res{c}" for c in ("EU", *CWL_COLUMNS)))
        cols = {c: np.full((len(ms), T), np.nan) for c in names}
        inputs: dict[str, Any] = {}  # C/W/L inputs by gain mapping, prepared once each
        grouped = _grouped_values(ms, batch)
        for i, m in enumerate(ms):
            form = m.cwl_form() if (want or is_cwl(m)) else None
            if form is None or form[0] is not m:
                got = grouped.get(i)
                values[i] = np.asarray(m.compute(batch) if got is None else got, dtype=np.float64)
            if form is not None:
                metric, spec = form
                spec = spec or o.gain
                if spec not in inputs:
                    inputs[spec] = self._cwl_input(batch, spec)
                self._score_cwl(metric, inputs[spec], i, values, cols, own_value=metric is m)
            elif o.residuals and hasattr(m, "residual"):
                cols["ResEU"][i] = m.residual(batch)
        return Results(
            values,
            [m.name for m in ms],
            [str(t) for t in batch.topics],
            cols,
            run=run,
            aggregates=[m.aggregate for m in ms],
        )

    def _cwl_input(self, batch, gain: str | None = None):
        from .measures.cwl.evaluate import prepare

        o = self.options
        costs, doc_costs = self._costs
        if o.compat == "inst_eval":
            from .measures.cwl.inst_eval_compat import InstEvalGain

            gain = InstEvalGain()  # type: ignore[assignment]
        return prepare(
            batch,
            gain=gain or o.gain,
            costs=costs,
            doc_costs=doc_costs,
            max_gain=o.max_gain,
            min_gain=o.min_gain,
            max_cost=o.max_cost,
            min_cost=o.min_cost,
            ties=o.ties,
        )

    def _score_cwl(
        self, m, inp, i: int, values: np.ndarray, cols: dict, *, own_value: bool
    ) -> None:
        from .measures.cwl.evaluate import score

        o = self.options
        if o.compat == "inst_eval":
            from .measures.cwl.inst_eval_compat import score_inst_eval

            lo, res = score_inst_eval(m, inp, residuals=o.residuals, depth=o.compat_depth)
        else:
            lo, res = score(m, inp, residuals=o.residuals, max_depth=o.compat_depth)
        arr = lo.as_array()
        if own_value:
            values[i] = arr[0]
        for j, c in enumerate(CWL_COLUMNS, 1):
            cols[c][i] = arr[j]
        if res is not None:
            for j, c in enumerate(("EU", *CWL_COLUMNS)):
                cols[f"Res{c}"][i] = res.as_array()[j]


def join_parts(parts: list[Results]) -> Results:
    """The Results of disjoint topic groups of one run, side by side (topics in the order of
    the parts, then of each part's topics); measures, run and aggregates are the first's."""
    p0 = parts[0]
    return Results(
        np.concatenate([p.values for p in parts], axis=1),
        p0.measures,
        [t for p in parts for t in p.topics],
        {c: np.concatenate([p.columns[c] for p in parts], axis=1) for c in p0.columns},
        p0.run,
        p0.aggregates,
    )


def _grouped_values(ms: list[Measure], batch) -> dict[int, np.ndarray]:
    """Values of the measures that share a :meth:`~Measure.group_key` with another one,
    computed a group at a time: ``{index in ms: values}``."""
    groups: dict[tuple, list[int]] = {}
    for i, m in enumerate(ms):
        key = m.group_key()
        if key is not None:
            groups.setdefault(key, []).append(i)
    out: dict[int, np.ndarray] = {}
    for idx in groups.values():
        if len(idx) > 1:
            members = [ms[i] for i in idx]
            out.update(zip(idx, type(members[0]).compute_group(batch, members), strict=True))
    return out


def _evaluate_one(ev: Evaluator, item: tuple[str, Any]) -> Results:
    """One run of :meth:`Evaluator.evaluate_many` (module level: run in worker processes;
    its chunks, if any, in that process)."""
    name, run = item
    return ev.evaluate(run, name=name, jobs=1)


def _score_chunk(state: tuple[Evaluator, Any, str], k: int) -> Results:
    """Chunk ``k`` of a run read whole (``state``: the Evaluator, the run's
    :class:`~cwlkit.core.chunks.Chunks`, the run's name), scored (run in worker processes)."""
    ev, plan, run = state
    q, part = plan.chunk(k)
    return ev.score(ev._build(q, part), run=run)


def _text_file(obj: Any) -> str | None:
    from ._streamed import text_file

    return text_file(obj)


def _is_dask_frame(obj: Any) -> bool:
    """A dask DataFrame (tested without importing dask)."""
    return (type(obj).__module__ or "").startswith("dask") and hasattr(obj, "to_delayed")


def _load_run(run: Any, name: str | None, light: bool, qrels: Any = None):
    """A Run from any input; a TREC file is read without the columns ``light`` drops, its
    documents encoded with those of ``qrels`` (a :class:`~cwlkit.io.trec.Qrels`) if given."""
    from .io.inputs import as_run
    from .io.trec import read_run

    if isinstance(run, (str, os.PathLike)) and not str(run).startswith("irds:"):
        if not str(run).endswith((".parquet", ".pq")):
            return read_run(run, light=light, qrels=qrels)
    return as_run(run, name=name)


def _first_appearance(run) -> list[str]:
    from . import _compute as pc

    return [str(t) for t in pc.unique(run.table.column("topic")).to_pylist()]


def _reorder(res: Results, first: list[str]) -> Results:
    pos = {t: i for i, t in enumerate(res.topics)}
    idx = [pos[t] for t in first if t in pos]
    idx += [i for i, t in enumerate(res.topics) if t not in set(first)]
    cols = {c: a[:, idx] for c, a in res.columns.items()}
    topics = [res.topics[i] for i in idx]
    return Results(res.values[:, idx], res.measures, topics, cols, res.run, res.aggregates)


def _read_costs(o: Options) -> tuple[Any, Any]:
    if o.costs is None and o.doc_costs is None:
        return None, None
    from .io.costs import Costs, DocCosts, read_costs, read_doc_costs

    costs = o.costs
    if costs is not None and not isinstance(costs, Costs):
        costs = read_costs(costs)
    doc_costs = o.doc_costs
    if doc_costs is not None and not isinstance(doc_costs, DocCosts):
        doc_costs = read_doc_costs(doc_costs)
    return costs, doc_costs


def _named_runs(runs: Any) -> list[tuple[str, Any]]:
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
    {'P@2': 0.75, 'AP': 0.8333333333333333}
    """
    ev = Evaluator(qrels, measures, **options)
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
    """Path of a bundled example file: ``qrels``, ``run``, ``costs`` or ``metrics`` (the
    cwl_eval paper's topics T1 and T2)."""
    from importlib import resources

    if kind not in ("qrels", "run", "costs", "metrics"):
        raise ParamError(f"example files are qrels, run, costs and metrics; got {kind!r}")
    return str(resources.files("cwlkit") / "data" / f"example.{kind}")


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
    sums to one minus the tail's share.
    """
    from .errors import CwlkitError
    from .measures.cwl import CWLMetric, weights

    ev = Evaluator(qrels, [metric], **{"topics": "run", **options})
    m = ev.measures[0]
    if not isinstance(m, CWLMetric):
        raise CwlkitError(f"{m.name} is not a C/W/L metric: it has no C, W and L vectors")
    batch = ev.batch(run)
    where = [i for i, t in enumerate(batch.topics) if str(t) == str(topic)]
    if not where:
        raise CwlkitError(f"topic {topic!r} is not in the run")
    t = where[0]
    inp = ev._cwl_input(batch)
    n = int(batch.depth[t])
    g, c = inp.gain_lo[t, :n], inp.cost_lo[t, :n]
    out = weights(m, g, c, pad_cost=inp.max_cost, horizon=horizon)
    out.update(gain=g, cost=c)
    return out
