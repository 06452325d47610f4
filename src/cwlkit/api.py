"""The Python API: evaluate runs against qrels."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path

import numpy as np

from .core.batch import build_batch
from .io.trec import Qrels, Run, read_qrels, read_run
from .measures.base import Measure
from .results import Results


def _as_qrels(q: Qrels | str | Path) -> Qrels:
    return q if isinstance(q, Qrels) else read_qrels(q)


def _as_run(r: Run | str | Path) -> Run:
    return r if isinstance(r, Run) else read_run(r)


def parse_list(measures: str | Measure | Iterable[str | Measure]) -> list[Measure]:
    """Parse measure names (a name, a Measure, or a list of them) into Measure objects."""
    from .measures.parse import parse_measures

    if isinstance(measures, (str, Measure)):
        measures = [measures]
    out: list[Measure] = []
    for m in measures:
        out.extend([m] if isinstance(m, Measure) else parse_measures(m))
    return out


def evaluate(
    qrels: Qrels | str | Path,
    run: Run | str | Path,
    measures: str | Measure | Sequence[str | Measure],
    **batch_options,
) -> Results:
    """Evaluate ``run`` against ``qrels`` with every measure in ``measures``.

    Parameters
    ----------
    qrels, run : Qrels, Run, or a path
    measures : str, Measure, or a sequence of them
        Canonical names (``"P@10"``, ``"AP"``, ``"nDCG@10"``, ``"RBP(p=0.8)"``,
        ``"INST(T=2)"``...) or trec_eval names (``"P.5,10"``).
    **batch_options
        Passed to :func:`cwlkit.build_batch` (``order``, ``topics``, ``max_depth``...). By
        default the run's topics are evaluated, ordered by score with trec_eval's tie-break.

    Returns
    -------
    Results
        ``values[m, t]``; C/W/L metrics give their EU with identity gains and unit costs (use
        :func:`evaluate_cwl` for the other measurements, costs, gains and residuals).
    """
    q, r = _as_qrels(qrels), _as_run(run)
    ms = parse_list(measures)
    batch = build_batch(q, r, **batch_options)
    values = (
        np.vstack([np.asarray(m.compute(batch), dtype=np.float64) for m in ms])
        if ms
        else np.zeros((0, batch.n_topics))
    )
    return Results(values, [m.name for m in ms], [str(t) for t in batch.topics], run=r.runid)


def evaluate_cwl(
    qrels: Qrels | str | Path,
    run: Run | str | Path,
    metrics: str | Measure | Sequence[str | Measure],
    *,
    costs=None,
    doc_costs=None,
    gain: str = "identity",
    residuals: bool = False,
    order: str = "score",
    ties: str = "none",
    max_depth: int | None = None,
    max_gain: float | None = None,
    min_gain: float | None = None,
    max_cost: float = 1.0,
    min_cost: float = 1.0,
    topics: str = "run",
) -> Results:
    """C/W/L evaluation: EU (``values``) and ETU, EC, ETC, ED (and ``Res*``) as ``columns``.

    Metrics are looked up among the C/W/L metrics first (so ``P@5`` is the C/W/L precision,
    ``AP`` cwl_eval's AP). Non-C/W/L measures (``ERR@20``) fill EU only; their other columns
    are NaN (undefined). See :mod:`cwlkit.measures.cwl.base` for the conventions.
    """
    from .io.costs import Costs, DocCosts, read_costs, read_doc_costs
    from .measures.cwl.evaluate import prepare
    from .measures.cwl.parse import parse_cwl_metric

    q, r = _as_qrels(qrels), _as_run(run)
    if isinstance(metrics, (str, Measure)):
        metrics = [metrics]
    ms = [m if isinstance(m, Measure) else parse_cwl_metric(m)[0] for m in metrics]
    if costs is not None and not isinstance(costs, Costs):
        costs = read_costs(costs)
    if doc_costs is not None and not isinstance(doc_costs, DocCosts):
        doc_costs = read_doc_costs(doc_costs)
    batch = build_batch(q, r, order=order, topics=topics)
    inp = prepare(
        batch,
        gain=gain,
        costs=costs,
        doc_costs=doc_costs,
        max_gain=max_gain,
        min_gain=min_gain,
        max_cost=max_cost,
        min_cost=min_cost,
        ties=ties,
    )
    return cwl_results(ms, batch, inp, residuals=residuals, max_depth=max_depth, run=r.runid)


def cwl_results(
    ms, batch, inp, *, residuals: bool, max_depth: int | None, run: str = ""
) -> Results:
    """Score prepared inputs with every metric into a Results object."""
    from .measures.cwl import CWLMetric
    from .measures.cwl.evaluate import score

    T = batch.n_topics
    names = ["EU", "ETU", "EC", "ETC", "ED"]
    cols = {c: np.full((len(ms), T), np.nan) for c in names[1:]}
    if residuals:
        cols.update({f"Res{c}": np.full((len(ms), T), np.nan) for c in names})
    values = np.full((len(ms), T), np.nan)
    for i, m in enumerate(ms):
        if isinstance(m, CWLMetric):
            lo, res = score(m, inp, residuals=residuals, max_depth=max_depth)
            arr = lo.as_array()
            values[i] = arr[0]
            for j, c in enumerate(names[1:], 1):
                cols[c][i] = arr[j]
            if res is not None:
                for j, c in enumerate(names):
                    cols[f"Res{c}"][i] = res.as_array()[j]
        else:
            values[i] = m.compute(batch)
            if residuals and hasattr(m, "residual"):
                cols["ResEU"][i] = m.residual(batch)
    return Results(values, [m.name for m in ms], [str(t) for t in batch.topics], cols, run=run)


def cwl_vectors(
    qrels: Qrels | str | Path,
    run: Run | str | Path,
    metric: str | Measure,
    topic: str,
    *,
    costs=None,
    gain: str = "identity",
    order: str = "score",
    horizon: int | None = None,
) -> dict[str, np.ndarray]:
    """The C, V, W and L vectors (and ED) of one metric on one topic, as cwl_eval's notebooks
    show them: the gains, costs and vectors over the run's ranks (or ``horizon`` ranks).

    W is normalised by the exact (infinite-tail) expected depth, so over a finite horizon it
    sums to one minus the tail's share.
    """
    from .io.costs import Costs, read_costs
    from .measures.cwl import weights
    from .measures.cwl.evaluate import prepare
    from .measures.cwl.parse import parse_cwl_metric

    m = metric if isinstance(metric, Measure) else parse_cwl_metric(metric)[0]
    q, r = _as_qrels(qrels), _as_run(run)
    if costs is not None and not isinstance(costs, Costs):
        costs = read_costs(costs)
    batch = build_batch(q, r, order=order)
    where = [i for i, t in enumerate(batch.topics) if str(t) == str(topic)]
    if not where:
        from .errors import CwlkitError

        raise CwlkitError(f"topic {topic!r} is not in the run")
    t = where[0]
    inp = prepare(batch, gain=gain, costs=costs)
    n = int(batch.depth[t])
    g, c = inp.gain_lo[t, :n], inp.cost_lo[t, :n]
    out = weights(m, g, c, pad_cost=inp.max_cost, horizon=horizon)
    out.update(gain=g, cost=c)
    return out
