"""Results: per-topic values of several measures on one run, and every view of them.

One type for every path (trec_eval's measures, C/W/L measurements, ERR, gdeval, LETOR):
``values[m, t]`` is measure ``m`` on topic ``t``, ``columns`` holds the further C/W/L
measurements (``ETU``, ``EC``, ``ETC``, ``ED`` and the residuals ``ResEU``...), NaN where a
measure does not define them. Each measure aggregates over topics in its own way (mean;
sum for counts such as ``NumRet``; geometric mean for ``GMAP``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .support.checks import check_bool

#: floor of the geometric mean (trec_eval's MIN_GEO_MEAN)
MIN_GEO_MEAN = 1e-5


def aggregate_values(values: np.ndarray, how: str) -> float:
    """One measure's per-topic ``values`` combined over topics.

    ``mean``: arithmetic mean; ``sum``: the total (counts); ``gmean``: geometric mean with
    each value floored at 1e-5 (trec_eval's gm_map). NaN with no topics (0 for ``sum``).
    """
    v = np.asarray(values, dtype=np.float64)
    if how == "sum":
        return float(v.sum())
    if v.size == 0:
        return math.nan
    if how == "gmean":
        return float(np.exp(np.log(np.maximum(v, MIN_GEO_MEAN)).mean()))
    if how != "mean":
        raise ValueError(f"unknown aggregation {how!r}")
    return float(v.mean())


@dataclass
class Results:
    """Per-topic values of ``measures`` on ``topics`` for one run.

    Attributes
    ----------
    values : numpy.ndarray
        float64[M, T]: ``values[m, t]`` is measure ``m`` on topic ``t`` (C/W/L metrics: EU).
    measures : list of str
        Canonical names, one per row.
    topics : list of str
        Topic ids, one per column, in byte order.
    columns : dict of str to numpy.ndarray
        Further float64[M, T] columns (``ETU``, ``EC``, ``ETC``, ``ED`` and ``Res*``; NaN where
        a measure does not define them).
    run : str
        The run's name.
    aggregates : list of str
        Each measure's aggregation over topics (``mean``, ``sum`` or ``gmean``); all ``mean``
        when not given.
    text : dict of str to list of str
        Per-topic values that are strings, by measure name (a measure whose values are text,
        such as ``RelString``: the relevance codes of the top documents); such a measure's
        row of ``values`` is NaN and its aggregate is NaN.
    absent : list of str
        The topics held that the run has no line for (scored as empty rankings: the
        ``topics="qrels"`` and ``"either"`` rules keep them), in the order of ``topics``.
    """

    values: np.ndarray
    measures: list[str]
    topics: list[str]
    columns: dict[str, np.ndarray] = field(default_factory=dict)
    run: str = ""
    aggregates: list[str] | None = None
    text: dict[str, list[str]] = field(default_factory=dict)
    absent: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.columns = Columns(self.columns)
        self.values = np.asarray(self.values, dtype=np.float64)
        shape = (len(self.measures), len(self.topics))
        if self.values.shape != shape:
            raise ValueError(f"values has shape {self.values.shape}, expected {shape}")
        if self.aggregates is None:
            self.aggregates = ["mean"] * len(self.measures)

    # --- lookups -----------------------------------------------------------------------
    def _row(self, name: Any) -> int:
        """Row of a measure given by canonical name, alias, any spelling or Measure object."""
        if isinstance(name, str) and name in self.measures:
            return self.measures.index(name)
        from .measures.parse import parse_measure

        canon = parse_measure(name).name
        if canon in self.measures:
            return self.measures.index(canon)
        from .errors import NotInResultsError

        have = ", ".join(self.measures)
        raise NotInResultsError(f"no measure {name!r} in these results (have {have})")

    def _matrix(self, column: str | None) -> np.ndarray:
        if column is not None and not isinstance(column, str):
            from .support.checks import refuse

            raise refuse("column", "a column's name (EU, ETU, EC, ETC, ED, Res*) or None", column)
        if column in (None, "EU", "value"):
            return self.values
        if column not in self.columns:
            from .errors import NotInResultsError

            if not self.columns:
                raise NotInResultsError(
                    f"no column {column!r}: these results hold the values (EU) only "
                    "(C/W/L columns come with cwl_columns=True, residuals=True or a C/W/L "
                    "measure)"
                )
            have = ", ".join(self.columns)
            raise NotInResultsError(f"no column {column!r} (have EU, {have})")
        return self.columns[column]

    def per_topic(self, name: Any, column: str | None = None) -> dict[str, float]:
        """``{topic: value}`` for one measure (of ``column`` if given, e.g. ``"ED"``)."""
        row = self._matrix(column)[self._row(name)]
        return dict(zip(self.topics, row.tolist(), strict=True))

    def __getitem__(self, name: Any) -> dict[str, float]:
        return self.per_topic(name)

    def __contains__(self, name: Any) -> bool:
        from .errors import CwlkitError

        try:
            self._row(name)
        except (KeyError, CwlkitError):
            return False
        return True

    def select(self, names: Any) -> Results:
        """The results of the measures ``names`` only (any spelling or Measure objects), in
        that order: the same values, columns, topics and run.

        Raises NotInResultsError naming a measure these results do not hold.
        """
        if isinstance(names, (str, bytes)) or not hasattr(names, "__iter__"):
            names = [names]
        rows = [self._row(n) for n in names]
        aggregates = self.aggregates or []
        return Results(
            values=self.values[rows],
            measures=[self.measures[i] for i in rows],
            topics=list(self.topics),
            columns={c: a[rows] for c, a in self.columns.items()},
            run=self.run,
            aggregates=[aggregates[i] for i in rows],
            text={
                self.measures[i]: self.text[self.measures[i]]
                for i in rows
                if self.measures[i] in self.text
            },
            absent=list(self.absent),
        )

    # --- aggregation -------------------------------------------------------------------
    def aggregate(self, column: str | None = None) -> dict[str, float]:
        """Each measure over topics, with its own aggregation (mean, sum or geometric mean).

        ``column`` (``ETU``, ``ED``, ``ResEU``...) aggregates that column by the mean.
        """
        mat = self._matrix(column)
        own = column in (None, "EU", "value")
        hows = (self.aggregates or []) if own else ["mean"] * len(self.measures)
        return {
            m: aggregate_values(mat[i], h)
            for i, (m, h) in enumerate(zip(self.measures, hows, strict=True))
        }

    def mean(self, column: str | None = None) -> dict[str, float]:
        """The aggregate of every measure over the topics, keyed by canonical name.

        Named ``mean`` as in ir_measures and ranx; counts (``NumRet``...) are summed and
        ``GMAP`` is a geometric mean, as trec_eval prints them.
        """
        return self.aggregate(column)

    # --- conversions -------------------------------------------------------------------
    def to_dict(self, column: str | None = None) -> dict[str, dict[str, float]]:
        """pytrec_eval's shape: ``{topic: {measure: value}}``."""
        mat = self._matrix(column)
        return {
            t: {m: float(mat[i, j]) for i, m in enumerate(self.measures)}
            for j, t in enumerate(self.topics)
        }

    def to_records(self) -> list[dict[str, Any]]:
        """One dict per (topic, measure): run, topic, measure, value and the further columns."""
        out = []
        for j, t in enumerate(self.topics):
            for i, m in enumerate(self.measures):
                rec: dict[str, Any] = {
                    "run": self.run,
                    "topic": t,
                    "measure": m,
                    "value": float(self.values[i, j]),
                }
                for c, arr in self.columns.items():
                    rec[c] = float(arr[i, j])
                out.append(rec)
        return out

    def _long_columns(self) -> dict[str, Any]:
        M, T = self.values.shape
        cols: dict[str, Any] = {
            "run": [self.run] * (M * T),
            "topic": [t for t in self.topics for _ in range(M)],
            "measure": self.measures * T,
            "value": self.values.T.reshape(-1),
        }
        for c, arr in self.columns.items():
            cols[c] = np.asarray(arr).T.reshape(-1)
        return cols

    def _wide_columns(self) -> dict[str, Any]:
        cols: dict[str, Any] = {"run": [self.run] * len(self.topics), "topic": list(self.topics)}
        for i, m in enumerate(self.measures):
            cols[m] = self.values[i]
        return cols

    def to_frame(self, wide: bool = False):
        """A pandas DataFrame: long (run, topic, measure, value, further columns) or wide (one
        column per measure). Needs pandas."""
        try:
            import pandas as pd
        except ImportError:  # pragma: no cover - optional
            from .errors import CwlkitError

            raise CwlkitError("Results.to_frame() needs pandas: pip install pandas") from None
        wide = check_bool("wide", wide)
        return pd.DataFrame(self._wide_columns() if wide else self._long_columns())

    def to_polars(self, wide: bool = False):
        """A polars DataFrame, long or wide as :meth:`to_frame`. Needs polars."""
        try:
            import polars as pl
        except ImportError:  # pragma: no cover - optional
            from .errors import CwlkitError

            raise CwlkitError("Results.to_polars() needs polars: pip install polars") from None
        wide = check_bool("wide", wide)
        return pl.DataFrame(self._wide_columns() if wide else self._long_columns())

    def to_json(self, per_topic: bool = True) -> str:
        """JSON: run, measures, aggregates, and (``per_topic``) every value and column."""
        per_topic = check_bool("per_topic", per_topic)
        doc: dict[str, Any] = {
            "run": self.run,
            "measures": self.measures,
            "aggregate": {m: _json_num(v) for m, v in self.aggregate().items()},
        }
        if per_topic:
            doc["per_topic"] = {
                t: {m: _json_num(self.values[i, j]) for i, m in enumerate(self.measures)}
                for j, t in enumerate(self.topics)
            }
            for c, arr in self.columns.items():
                doc.setdefault("columns", {})[c] = {
                    t: {m: _json_num(arr[i, j]) for i, m in enumerate(self.measures)}
                    for j, t in enumerate(self.topics)
                }
        from .support.jsontext import dumps

        return dumps(doc)

    def __repr__(self) -> str:
        agg = self.aggregate()
        width = max((len(m) for m in self.measures), default=0)
        lines = [
            f"Results(run={self.run!r}, {len(self.topics)} topics, {len(self.measures)} measures)"
        ]
        for m, h in zip(self.measures, self.aggregates or [], strict=True):
            lines.append(f"  {m:<{width}}  {agg[m]:.4f}" + ("" if h == "mean" else f"  ({h})"))
        return "\n".join(lines)

    def align(self, other: Results) -> tuple[np.ndarray, np.ndarray, list[str]]:
        """Values of both results on their common topics (for paired tests)."""
        if not isinstance(other, Results):
            from .errors import ParamError

            raise ParamError(f"align takes another Results; got {type(other).__name__}")
        common = sorted(set(self.topics) & set(other.topics))
        ia = [self.topics.index(t) for t in common]
        ib = [other.topics.index(t) for t in common]
        return self.values[:, ia], other.values[:, ib], common


class Columns(dict):
    """The further columns of a :class:`Results` by name: a dict whose missing key is a
    :class:`~cwlkit.errors.NotInResultsError` naming the columns it has."""

    def __missing__(self, key: Any) -> np.ndarray:
        from .errors import NotInResultsError

        have = ", ".join(self) or "none: C/W/L columns come with cwl_columns=True"
        raise NotInResultsError(f"no column {key!r} in these results (have {have})")


def _json_num(x: float) -> float | str | None:
    x = float(x)
    if math.isnan(x):
        return None
    if math.isinf(x):
        return "inf" if x > 0 else "-inf"
    return x
