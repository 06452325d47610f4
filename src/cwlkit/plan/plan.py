"""A prepared evaluation: the judgements, the measures and the options, checked and read once.

A :class:`Plan` is what :class:`cwlkit.Evaluator` makes and hands to the executors
(:mod:`cwlkit.executors`): it turns a run into a ranking batch (:meth:`Plan.build`) and a
batch into :class:`~cwlkit.results.Results` (:meth:`Plan.score`). It is sent whole to worker
processes and Dask workers, so every executor scores a batch with the same code.
"""

from __future__ import annotations

import os
from functools import cache, cached_property
from typing import TYPE_CHECKING, Any

import numpy as np

from ..core.direct import direct_batch
from ..core.ranking import RankingBatch
from ..core.small import Judged, rank_topics
from ..errors import ParamError
from ..io.grouped import grouped_qrels, grouped_run
from ..measures.base import Measure, OneTopic
from ..results import Results
from .options import CWL_COLUMNS, Options
from .parts import batch_results

if TYPE_CHECKING:  # pragma: no cover
    from ..io.trec import Qrels, Run
    from ..measures.trec.one_topic import One


class Plan:
    """The qrels (read once), the measures and the options of one evaluation.

    Parameters
    ----------
    qrels : any form :func:`cwlkit.io.inputs.as_qrels` accepts
        Read here, unless ``stream_qrels`` (a text file streamed with each run: read on
        first use of :attr:`qrels`). When a measure is intent-aware (``alpha_nDCG@20``...:
        :attr:`wants_subtopics`), any form :func:`cwlkit.io.diversity.as_diversity_qrels`
        accepts, read as diversity qrels (a file's second column, a frame's ``iteration`` or
        ``subtopic_id`` column, is the subtopic, as in ir_measures) and never streamed.
    measures : list of Measure
        Parsed (see :func:`cwlkit.measures.parse.parse_list`).
    options : Options
        Checked.
    stream_qrels : bool
        Keep a qrels text file unread (see above; ignored with intent-aware measures).
    copy_qrels : bool, default True
        Copy a qrels dict's topics (False: the plan ends before its caller can change them).
    """

    def __init__(
        self,
        qrels: Any,
        measures: list[Measure],
        options: Options,
        *,
        stream_qrels: bool,
        copy_qrels: bool = True,
    ) -> None:

        self.options = options
        self.measures = measures
        self.topic_params: dict[str, dict[str, float]] | None = None
        if options.topic_params is not None:
            from .per_topic import check_measures, resolve

            self.topic_params = resolve(options.topic_params)
            check_measures(self.topic_params, measures)
        #: whether a measure is intent-aware: the qrels are then read as diversity qrels
        self.wants_subtopics = any(getattr(m, "needs_subtopics", False) for m in measures)
        self.qrels_source = qrels
        streamed = stream_qrels and not self.wants_subtopics
        #: the qrels as topic groups, for runs held in Python (see :meth:`direct`): a
        #: pytrec_eval dict is prepared so here, and read as Qrels only if a run needs them
        #: (never for intent-aware measures, which read the qrels as diversity qrels)
        self._grouped: Any = None
        if not streamed and not self.wants_subtopics:
            self._grouped = grouped_qrels(qrels, copy=copy_qrels)
        self._qrels: Any = None if streamed or self._grouped else self._read_qrels()
        self.costs = _read_costs(options)
        #: the label values of a qrels file streamed (not read whole), once a run has been
        #: streamed against it (see :meth:`label_values`)
        self.streamed_label_values: np.ndarray | None = None
        #: keep each ranked document's id in the batches (``RankingBatch.doc_cells``), which
        #: the plan otherwise drops when no measure reads them (pooling reads them)
        self.keep_docs = False

    def __getstate__(self) -> dict:
        # qrels already read are sent without the object they were read from
        state = dict(self.__dict__)
        if state.get("_qrels") is not None:
            state["qrels_source"] = None
        return state

    @property
    def qrels(self) -> Qrels:
        """The judgements, read on first use when streamed."""
        if self._qrels is None:
            self._qrels = self._read_qrels()
        return self._qrels

    def _read_qrels(self) -> Any:  # (Qrels, or Judgments for trec_eval -R)
        """The qrels from their source: a TREC file is read with the options' reading rules
        (:mod:`cwlkit.io.rules`), any other form by :func:`cwlkit.io.inputs.as_qrels`
        (with intent-aware measures: as diversity qrels, see :class:`Plan`)."""
        from ..io.inputs import as_qrels
        from ..io.prefs import Judgments
        from ..io.trec import read_qrels

        source = self.qrels_source
        if isinstance(source, Judgments):  # (trec_eval's -R: preferences, judgment groups)
            return source
        if self.wants_subtopics:
            from ..io.diversity import implied_diversity_qrels

            return implied_diversity_qrels(source, rules=self.options.rules)
        if _trec_file(source) and os.path.isfile(source):
            with open(source, "rb") as f:
                parquet = f.read(4) == b"PAR1"
            if not parquet:
                return read_qrels(source, rules=self.options.rules)
        return as_qrels(source)

    @property
    def qrels_read(self) -> Qrels | None:
        """The judgements if already read (or held in Python), else None (a qrels file to
        stream)."""
        if self._qrels is None and self._grouped is not None:
            return self.qrels
        return self._qrels

    def label_values(self) -> np.ndarray | None:
        """The sorted distinct labels of the whole qrels (what ``gain="linear"`` and
        ``"auto"`` divide by), once known: qrels read whole, or streamed with a run."""
        from ..core.batch import qrels_label_values
        from ..io.trec import Qrels

        if isinstance(self._qrels, Qrels):
            return qrels_label_values(self._qrels)
        if self._grouped is not None:
            from ..core.direct import label_values

            return label_values(self._grouped)
        return self.streamed_label_values

    @property
    def prefs(self) -> bool:
        """Whether the judgments are preferences or judgment groups (trec_eval's ``-R``):
        a run is then scored whole, joined with them (a
        :class:`~cwlkit.measures.trec.prefs.PrefsBatch`)."""
        if self._qrels is None:  # (not read: a file to stream, or a dict; io.prefs loads pyarrow)
            return False
        from ..io.prefs import Judgments

        return isinstance(self._qrels, Judgments)

    @property
    def diversity(self) -> bool:
        """Whether the qrels are diversity qrels (``cwlkit.read_diversity_qrels``)."""
        # (qrels not read yet are a plain TREC file: see __init__)
        return bool(getattr(self._qrels, "is_diversity", False))

    @property
    def light(self) -> bool:
        """Whether a run's element types, document ids and scores can be dropped when read."""
        # diversity qrels: the batch keeps the document ids, to look their subtopics up; a
        # measure that reads the scores (RBP_eval's tie groups) keeps them
        needs_scores = any(getattr(m, "needs_scores", False) for m in self.measures)
        return self.options.light and not self.diversity and not needs_scores and not self.keep_docs

    def load_run(self, run: Any, name: str | None, *, join_qrels: bool = False) -> Run:
        """A Run from any input; a TREC file is read without the columns :attr:`light` drops
        (``join_qrels``: its documents encoded with those of the qrels, read here)."""
        from ..io.inputs import as_run
        from ..io.trec import read_run

        if _trec_file(run):
            joined = join_qrels and not self.diversity and not self.prefs
            qrels = self.qrels if joined else None
            o = self.options
            return read_run(run, rules=o.rules, light=self.light, qrels=qrels)
        return as_run(run, name=name)

    def batch(self, run: Any) -> RankingBatch:
        """The ranking batch of ``run`` (any input) under these options."""
        got = self.direct(run, None)
        if got is not None:
            return got
        return self.build(self.qrels, self.load_run(run, None))

    def direct(self, run: Any, name: str | None, *, max_rows: int | None = None) -> Any:
        """The ranking batch of a run held in Python (a pytrec_eval dict, a pandas
        DataFrame) built with numpy alone (:func:`cwlkit.core.direct.direct_batch`: the
        batch :meth:`build` makes of it, bit for bit), or None: not such a run, not in score
        order, more than ``max_rows`` rows, or judgements that are preferences or diversity
        qrels. The qrels are turned into topic groups on first use and kept."""
        o = self.options
        if o.order != "score" or self.prefs or self.diversity:
            return None
        g = grouped_run(run, name)
        if g is None or (max_rows is not None and len(g) > max_rows):
            return None
        batch = direct_batch(self.grouped_qrels(), g, **_ranking_rules(o), light=self.light)
        _mark(batch, o)
        return batch

    def small(self, run: Any, name: str | None) -> Results | None:
        """The Results of a run of a few topics held as a pytrec_eval dict, scored a topic
        at a time by the measures' one-topic kernels (:meth:`Measure.one_topic
        <cwlkit.measures.base.Measure.one_topic>`) from its ranking made alone
        (:func:`cwlkit.core.small.rank_topics`): :meth:`score` of :meth:`direct`'s batch, to
        the bit, without making a batch. None: a measure without a one-topic form,
        options it does not follow (C/W/L columns, ``judged_only``, per-topic parameters, a
        topics rule keeping topics the run lacks, another order), or a run it does not
        take; the caller then makes the batch."""
        kernels = self._one_topic_kernels()
        if kernels is None:
            return None
        o = self.options
        ranked = rank_topics(self._grouped, run, **_ranking_rules(o))
        if ranked is None:
            return None
        v, one = o.trec_version, self.__dict__["_one_"]
        values = [_one_topic_values(kernels, one, codes, judged, v) for _, codes, judged in ranked]
        lay = _layout(self.measures, o)
        return Results(
            np.array(values, dtype=np.float64).T.copy(),
            list(lay.names),
            [t for t, _, _ in ranked],
            run=name or "run",
            aggregates=list(lay.aggregates),
        )

    def _one_topic_kernels(self) -> list[OneTopic] | None:
        """Each measure's one-topic form, or None when :meth:`small` cannot be used with
        these measures and options (worked out once)."""
        got = self.__dict__.get("_kernels_", False)
        if got is False:
            o = self.options
            usable = (
                self._grouped is not None
                and o.order == "score"  # (the topics rules and judged_only: rank_topics')
                and not (self.topic_params or self.keep_docs)
            )
            got = _layout(self.measures, o).one_topic if usable else None
            if got is not None:
                self.__dict__["_one_"] = _one_class()
            self.__dict__["_kernels_"] = got
        return got

    def grouped_qrels(self) -> Any:
        """The qrels as :class:`~cwlkit.io.grouped.GroupedQrels` (made once from the Qrels
        when they were not given as a dict)."""
        if self._grouped is None:
            from ..io.grouped import qrels_from_columns

            q = self.qrels
            t, _ = q.topic_codes()
            self._grouped = qrels_from_columns(
                q.table.column("topic").to_pylist(),
                q.table.column("doc").to_pylist(),
                q.labels,
                t,
                q.path,
            )
        return self._grouped

    def build(self, qrels: Qrels, run: Run) -> RankingBatch:
        """The ranking batch of a loaded ``run`` against ``qrels`` under these options (for
        preference judgments, a :class:`~cwlkit.measures.trec.prefs.PrefsBatch`)."""
        from ..core.batch import build_batch

        o = self.options
        if self.prefs:
            from ..measures.trec.prefs import prefs_batch

            got: Any = prefs_batch(self._qrels, run, **_prefs_options(o))
            return got  # (not a RankingBatch: the prefs measures read it)
        batch = build_batch(
            qrels,
            run,
            order=o.order,  # type: ignore[arg-type]
            **_ranking_rules(o),
            light=self.light,
        )
        _mark(batch, o)
        if self.diversity:  # the intent-aware measures read the subtopics from here
            batch.memo["diversity_qrels"] = self.qrels
        if o.topics in ("qrels", "either"):  # (the others keep run topics only)
            batch.memo["absent"] = _absent(batch, run)
        return batch

    def score(
        self, batch: RankingBatch, *, run: str = "", measures: list[Measure] | None = None
    ) -> Results:
        """Every measure on a prepared batch (see :meth:`cwlkit.Evaluator.score`)."""
        if not isinstance(batch, RankingBatch) and not self.prefs:
            raise ParamError(
                f"score takes a ranking batch (Evaluator.batch(run)); got {type(batch).__name__}"
            )
        if measures is None and self.topic_params:
            from .per_topic import score as per_topic

            return per_topic(self, batch, self.topic_params, run)
        ms = self.measures if measures is None else measures
        o = self.options
        lay = _layout(ms, o)
        values = np.full((len(ms), batch.n_topics), np.nan)
        cols = {c: np.full(values.shape, np.nan) for c in lay.columns}
        inputs: dict[Any, Any] = {}  # C/W/L inputs by gain mapping, prepared once each
        grouped = _grouped_values(ms, lay.groups, batch)
        text: dict[str, list[str]] = {}
        for i, (m, form) in enumerate(zip(ms, lay.forms, strict=True)):
            if form is _TEXT:  # (its row of values stays NaN)
                text[m.name] = m.compute_text(batch)  # type: ignore[attr-defined]
                continue
            if form is None or form[0] is not m:
                got = grouped.get(i)
                values[i] = np.asarray(m.compute(batch) if got is None else got, dtype=np.float64)
            if form is not None:
                metric, spec = form
                spec = spec or o.gain
                if spec not in inputs:
                    inputs[spec] = self.cwl_input(batch, spec)
                self._score_cwl(metric, inputs[spec], i, values, cols, own_value=metric is m)
            elif o.residuals and hasattr(m, "residual"):
                cols["ResEU"][i] = m.residual(batch)
        return batch_results(
            batch, ms, values, cols, run=run, text=text, names=lay.names, aggregates=lay.aggregates
        )

    def cwl_input(self, batch: RankingBatch, gain: Any = None) -> Any:
        """The C/W/L engine's input (gains and costs) of ``batch`` under these options."""
        from ..measures.cwl.evaluate import prepare

        o = self.options
        costs, doc_costs = self.costs
        if o.compat == "inst_eval":
            from ..measures.cwl.inst_eval_compat import InstEvalGain

            gain = InstEvalGain()
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
        self, m: Any, inp: Any, i: int, values: np.ndarray, cols: dict, *, own_value: bool
    ) -> None:
        from ..measures.cwl.evaluate import score

        o = self.options
        if o.compat == "inst_eval":
            from ..measures.cwl.inst_eval_compat import score_inst_eval

            lo, res = score_inst_eval(m, inp, residuals=o.residuals, depth=o.compat_depth)
        else:
            lo, res = score(
                m,
                inp,
                residuals=o.residuals,
                max_depth=o.compat_depth,
                cwl_eval_order=o.compat_depth is not None,
            )
        arr = lo.as_array()
        if own_value:
            values[i] = arr[0]
        for j, c in enumerate(CWL_COLUMNS, 1):
            cols[c][i] = arr[j]
        if res is not None:
            for j, c in enumerate(("EU", *CWL_COLUMNS)):
                cols[f"Res{c}"][i] = res.as_array()[j]


def _one_topic_values(
    kernels: list[OneTopic], one_class: type[One], codes: list[int], judged: Judged, version: int
) -> list[float]:
    """Each kernel's value on one topic (one ``one_class``,
    :class:`~cwlkit.measures.trec.one_topic.One`, per relevance level)."""
    views: dict[float, One] = {}
    out = []
    for k in kernels:
        one = views.get(k.rel)
        if one is None:
            one = views[k.rel] = one_class(codes, judged, k.rel, version)
        v = k.kernel(one, k.params)[0]
        out.append(v if k.post is None else k.post(v))
    return out


def _ranking_rules(o: Options) -> dict[str, Any]:
    """What ranking a run reads of the options, for every way of ranking it (the columnar
    batch, the numpy batch, the one-topic rankings): the topics rule, the depth, the scores'
    precision (float32 under trec_eval 9.0.8's rules) and ``judged_only``."""
    return {
        "topics": o.topics,
        "max_depth": o.depth,
        "score_precision": "single" if o.trec_version == 9 else "double",
        "drop_unjudged": o.judged_only,
    }


def _mark(batch: RankingBatch, o: Options) -> None:
    """Note on a batch the options its measures read (trec_eval's version, ``judged_only``)."""
    batch.memo["trec_version"] = o.trec_version
    batch.memo["judged_only"] = o.judged_only


def _prefs_options(o: Options) -> dict[str, Any]:
    """What joining a run with preference judgments reads of the options."""
    return {"version": o.trec_version, "max_depth": o.depth, "all_topics": o.topics == "qrels"}


def _trec_file(obj: Any) -> bool:
    """Whether ``obj`` names a TREC text file (not Parquet, not an ``irds:`` id)."""
    if not isinstance(obj, (str, os.PathLike)):
        return False
    text = os.fsdecode(os.fspath(obj))
    if text.startswith("irds:") or "://" in text:
        return False
    return not text.endswith((".parquet", ".pq"))


def _absent(batch: RankingBatch, run: Run) -> np.ndarray:
    """bool[T]: the batch's topics that ``run`` has no line for."""
    from ..io.text import from_strings, to_numpy
    from ..support import compute as pc

    run_topics = run.codes()[1]  # (cached by build_batch)
    return ~to_numpy(pc.is_in(from_strings(batch.topics.tolist()), value_set=run_topics))


def _column_names(want: bool, residuals: bool) -> tuple[str, ...]:
    """The C/W/L columns of the Results: ETU..ED when wanted, and the residuals."""
    if residuals:
        return (*CWL_COLUMNS, *(f"Res{c}" for c in ("EU", *CWL_COLUMNS)))
    return CWL_COLUMNS if want else ()


def _groups(ms: list[Measure]) -> list[list[int]]:
    """The indices in ``ms`` of the measures sharing a :meth:`~Measure.group_key` with
    another one (each group computed in one call)."""
    groups: dict[tuple, list[int]] = {}
    for i, m in enumerate(ms):
        key = m.group_key()
        if key is not None:
            groups.setdefault(key, []).append(i)
    return [idx for idx in groups.values() if len(idx) > 1]


def _grouped_values(
    ms: list[Measure], groups: list[list[int]], batch: RankingBatch
) -> dict[int, np.ndarray]:
    """Values of the measures of ``groups`` (see :func:`_groups`), computed a group at a
    time: ``{index in ms: values}``."""
    out: dict[int, np.ndarray] = {}
    for idx in groups:
        members = [ms[i] for i in idx]
        out.update(zip(idx, type(members[0]).compute_group(batch, members), strict=True))
    return out


#: the form of a measure whose values are text (:class:`_Layout`)
_TEXT: Any = ("text",)


def _layout(ms: list[Measure], o: Options) -> _Layout:
    """The :class:`_Layout` of ``ms`` under ``o``, made once for the same measure objects
    (a training loop scores thousands of small runs, with one Evaluator or one per call:
    :func:`cwlkit.evaluate` parses the same names to the same objects)."""
    key = (tuple(map(id, ms)), o.cwl_columns, o.residuals)
    got = _LAYOUTS.get(key)
    if got is None:  # (a layout holds its measures: their ids stay theirs while kept)
        if len(_LAYOUTS) >= 64:
            _LAYOUTS.clear()
        got = _LAYOUTS[key] = _Layout(ms, o)
    return got


class _Layout:
    """What :meth:`Plan.score` derives from the measures and two options (``cwl_columns``,
    ``residuals``) alone: each measure's C/W/L form (:data:`_TEXT` for a text-valued
    measure), the groups computed together, the columns, names and aggregates of the
    Results."""

    def __init__(self, ms: list[Measure], o: Options) -> None:
        from ..measures.base import is_cwl

        self.measures = tuple(ms)
        want = o.cwl_columns
        if want is None:
            want = o.residuals or any(is_cwl(m) for m in ms)
        self.columns = _column_names(want, o.residuals)
        self.forms: list[Any] = [
            _TEXT
            if getattr(m, "text_valued", False)
            else (m.cwl_form() if (want or is_cwl(m)) else None)
            for m in ms
        ]
        self.groups = _groups(ms)
        self.names = [m.name for m in ms]
        self.aggregates = [m.aggregate for m in ms]

    @cached_property
    def one_topic(self) -> list[OneTopic] | None:
        """Each measure's one-topic form; None when one has none, or with C/W/L columns or
        forms (kept with the layout: an Evaluator made per call finds it made)."""
        if self.columns or any(f is not None for f in self.forms):
            return None
        forms = [f for m in self.measures if (f := m.one_topic()) is not None]
        return forms if len(forms) == len(self.measures) else None


@cache
def _one_class() -> type[One]:
    """:class:`~cwlkit.measures.trec.one_topic.One` (loaded already: the kernels are its
    package's), imported once."""
    from ..measures.trec.one_topic import One

    return One


_LAYOUTS: dict[tuple, _Layout] = {}


def _read_costs(o: Options) -> tuple[Any, Any]:
    if o.costs is None and o.doc_costs is None:
        return None, None
    from ..io.costs import Costs, DocCosts, read_costs, read_doc_costs

    costs = o.costs
    if costs is not None and not isinstance(costs, Costs):
        costs = read_costs(costs)
    doc_costs = o.doc_costs
    if doc_costs is not None and not isinstance(doc_costs, DocCosts):
        doc_costs = read_doc_costs(doc_costs)
    return costs, doc_costs
