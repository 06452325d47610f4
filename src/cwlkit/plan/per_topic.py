"""Per-topic measure parameters (:class:`cwlkit.Evaluator`'s ``topic_params``).

``topic_params={"T": {"201": 3, "202": 1}}`` (or ``{"T": "t_per_topic.tsv"}``) scores each
topic with its own T: every measure with a parameter named ``T`` is re-instantiated with the
topic's value (``dataclasses.replace``, so the value is validated as any parameter is); topics
the mapping lacks keep the measure's own value. Topics sharing a set of values are scored
together, on a sub-batch, and the results are put back in topic order. Measures keep their
names (``INST(T=1)`` for ``INST``), and aggregate over topics as usual.
"""

from __future__ import annotations

import dataclasses
from typing import Any, Protocol

import numpy as np

from ..errors import ParamError
from ..results import Results
from .parts import batch_results


class Scorer(Protocol):
    """What :func:`score` needs of a :class:`~cwlkit.plan.Plan`: its measures, and scoring a
    batch with other measures."""

    measures: list

    def score(self, batch: Any, *, run: str = "", measures: list | None = None) -> Results: ...


def resolve(topic_params: Any) -> dict[str, dict[str, float]]:
    """``{parameter: {topic: value}}`` from the option (mappings or ``topic value`` files)."""
    from collections.abc import Mapping

    from ..io.topic_values import as_topic_values

    if not isinstance(topic_params, Mapping):
        raise ParamError(
            "topic_params must map parameter names to {topic: value} mappings or files, "
            f"e.g. {{'T': {{'201': 3}}}}; got {type(topic_params).__name__}"
        )
    return {str(p): as_topic_values(v, str(p)) for p, v in topic_params.items()}


def check_measures(params: dict[str, dict[str, float]], measures: list) -> None:
    """Every parameter named in ``topic_params`` must belong to at least one measure."""
    for p in params:
        if not any(p in _fields(m) for m in measures):
            names = ", ".join(m.name for m in measures)
            raise ParamError(f"topic_params: no measure has a parameter {p!r} (measures: {names})")


def _fields(m) -> dict[str, dataclasses.Field]:
    if not dataclasses.is_dataclass(m):
        return {}
    return {f.name: f for f in dataclasses.fields(m)}


def _with(m, values: dict[str, float]):
    fields = _fields(m)
    kw = {}
    for p, v in values.items():
        f = fields.get(p)
        if f is None:
            continue
        kw[p] = int(v) if f.metadata.get("integer") and float(v) == int(v) else v
    return dataclasses.replace(m, **kw) if kw else m


def score(plan: Scorer, batch, params: dict[str, dict[str, float]], run: str) -> Results:
    """Every measure of ``plan`` on ``batch``, each topic with its own parameter values."""
    ms = plan.measures
    topics = [str(t) for t in batch.topics]
    names = list(params)
    groups: dict[tuple, list[int]] = {}
    for i, t in enumerate(topics):
        groups.setdefault(tuple(params[p].get(t) for p in names), []).append(i)
    T = len(topics)
    values = np.full((len(ms), T), np.nan)
    cols: dict[str, np.ndarray] = {}
    text: dict[str, np.ndarray] = {}
    version = batch.memo.get("trec_version")
    for key, idx in groups.items():
        mask = np.zeros(T, dtype=bool)
        mask[idx] = True
        sub = batch if mask.all() else batch.select(mask)
        if version is not None:
            sub.memo["trec_version"] = version
        for entry in ("judged_only", "absent"):  # (what the trec_eval measures read)
            if entry in batch.memo:
                got = batch.memo[entry]
                sub.memo[entry] = got[mask] if isinstance(got, np.ndarray) else got
        given = {p: v for p, v in zip(names, key, strict=True) if v is not None}
        r = plan.score(sub, run=run, measures=[_with(m, given) for m in ms])
        values[:, mask] = r.values
        for c, a in r.columns.items():
            cols.setdefault(c, np.full((len(ms), T), np.nan))[:, mask] = a
        for name, strings in r.text.items():
            text.setdefault(name, np.full(T, "", dtype=object))[mask] = strings
    as_lists = {name: v.tolist() for name, v in text.items()}
    return batch_results(batch, ms, values, cols, run=run, text=as_lists)
