"""cwlkit's measures inside ir_measures (:func:`to_ir_measures`): a runtime provider that
scores with :class:`cwlkit.Evaluator`. The other way, ir_measures' measures as cwlkit's, is
:mod:`cwlkit.measures.ir_measures_bridge`.
"""

from __future__ import annotations

from typing import Any

from .errors import CwlkitError
from .measures.base import Measure


def to_ir_measures(measure: Any, **options: Any) -> Any:
    """A cwlkit measure as an ir_measures measure object, computed by cwlkit.

    Parameters
    ----------
    measure : str, Measure or ir_measures measure
        One cwlkit measure: a name (``"INST(T=2)"``, ``"P@10"``, ``"RBP(p=0.8)"``) or object.
    **options
        :class:`cwlkit.Evaluator` options (``gain="linear"``, ``topics="qrels"``,
        ``trec_version=10``...), applied whenever ir_measures evaluates the measure.

    Returns
    -------
    ir_measures.Measure
        A measure of ir_measures' runtime provider (``ir_measures.define``), named
        ``cwlkit:<name>`` (plus ``[option=value,...]`` when options are given), so it never
        equals one of ir_measures' own measures in a results dict. Its per-topic values are
        the measure's (EU for a C/W/L metric); it aggregates as the cwlkit measure does (mean,
        sum for counts, geometric mean for ``GMAP``). ``cwlkit_measure`` and
        ``cwlkit_options`` hold what it computes.

    Notes
    -----
    ir_measures hands the runtime provider its qrels and run as pandas DataFrames, whatever
    form they were given in (dict of dicts, DataFrame, iterable of ``Qrel``/``ScoredDoc``),
    and reports every qrels topic the measure gives no value for (a topic the run lacks,
    under cwlkit's default ``topics="both"``) as 0.

    An intent-aware measure (``alpha_nDCG@20``, ``ERR_IA@20``, ``NRBP``...: see
    docs/diversity.md) reads the qrels' ``iteration`` as the subtopic, as ir_measures' own
    pyndeval provider does (``ir_measures.read_trec_qrels`` puts a diversity qrels file's
    second column there); with no topic of two subtopics it warns, as that provider does.
    Its values are those of ir_measures' ``alpha_nDCG@20``... (the same doubles when the
    qrels list the subtopics in numeric order; otherwise pyndeval adds the subtopics' terms
    in order of first appearance, and the last bit can differ), except that the run is
    ranked by cwlkit's rules (ties by document id descending; pyndeval's ascending) and a
    topic without relevant subtopics scores 0 on ``nNRBP`` (pyndeval: NaN).

    Examples
    --------
    >>> import ir_measures, cwlkit
    >>> m = cwlkit.to_ir_measures("INST(T=2)", gain="linear")
    >>> str(m)
    "cwlkit:INST(T=2)[gain='linear']"
    """
    import ir_measures

    from .measures.parse import parse_measure
    from .plan import make_options

    m = parse_measure(measure)
    make_options("to_ir_measures", options)
    name = f"cwlkit:{m.name}"
    if options:
        name += "[" + ",".join(f"{k}={v!r}" for k, v in sorted(options.items())) + "]"

    def impl(qrels: Any, run: Any) -> list[tuple[Any, float]]:
        return _evaluate_frames(m, options, qrels, run)

    out = ir_measures.define(impl, name=name, support_cutoff=False)
    out.cwlkit_measure = m
    out.cwlkit_options = dict(options)
    if m.aggregate == "sum":
        out.aggregator = ir_measures.SumAgg
    elif m.aggregate == "gmean":
        out.aggregator = _GMeanAgg
    return out


def _evaluate_frames(m: Measure, options: dict, qrels: Any, run: Any) -> list[tuple[Any, float]]:
    """``(query_id, value)`` of measure ``m`` for ir_measures' qrels and run DataFrames."""
    from .api import Evaluator

    if len(run) == 0 or len(qrels) == 0:
        return []
    ids = {str(q): q for q in qrels["query_id"].unique()}
    ids.update({str(q): q for q in run["query_id"].unique()})
    q, r = _qrels_from_frame(qrels, m), _run_from_frame(run)
    try:
        res = Evaluator(q, [m], **options).evaluate(r)
    except CwlkitError:
        if set(map(str, qrels["query_id"].unique())) & set(map(str, run["query_id"].unique())):
            raise
        return []  # no topic in common: ir_measures reports its default for each
    return [(ids.get(t, t), float(v)) for t, v in zip(res.topics, res.values[0], strict=True)]


def _qrels_from_frame(df: Any, m: Measure):
    """cwlkit Qrels from ir_measures' qrels DataFrame (``query_id``, ``doc_id``, ``relevance``;
    for an intent-aware measure, diversity qrels whose subtopic is ``iteration``, as
    ir_measures' pyndeval provider reads it)."""
    name = "<ir_measures qrels>"
    if getattr(m, "needs_subtopics", False):
        from .io.diversity import implied_diversity_qrels

        cols = ["query_id", "iteration", "doc_id", "relevance"]
        if "iteration" not in df.columns:  # (ir_measures adds it; '0' as its default)
            df = df.assign(iteration="0")
        return implied_diversity_qrels(df[cols], name=name)
    from .io.inputs import as_qrels

    return as_qrels(df[["query_id", "doc_id", "relevance"]], name=name)


def _run_from_frame(df: Any):
    """cwlkit Run from ir_measures' run DataFrame (``query_id``, ``doc_id``, ``score``)."""
    from .io.inputs import as_run

    return as_run(df[["query_id", "doc_id", "score"]], name="<ir_measures run>")


class _GMeanAgg:
    """Geometric mean with values floored at 1e-5 (trec_eval's gm_map), as ir_measures' Agg."""

    def __init__(self) -> None:
        self.values: list[float] = []

    def add(self, value: float) -> None:
        self.values.append(float(value))

    def result(self) -> float:
        import numpy as np

        from .results import aggregate_values

        return aggregate_values(np.asarray(self.values, dtype=np.float64), "gmean")
