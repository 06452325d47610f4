"""Results: per-topic values of several measures, with means and tabular views."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np


@dataclass
class Results:
    """Per-topic values of ``measures`` on ``topics``.

    Attributes
    ----------
    values : numpy.ndarray
        float64[M, T]: ``values[m, t]`` is measure ``m`` on topic ``t`` (for C/W/L metrics, EU).
    measures : list of str
        Canonical names, one per row.
    topics : list of str
        Topic ids, one per column.
    columns : dict of str to numpy.ndarray
        Further float64[M, T] columns (``ETU``, ``EC``, ``ETC``, ``ED`` and ``Res*`` for C/W/L
        metrics; NaN where a measure does not define them).
    run : str
        The run's name (its tag).
    """

    values: np.ndarray
    measures: list[str]
    topics: list[str]
    columns: dict[str, np.ndarray] = field(default_factory=dict)
    run: str = ""

    def __post_init__(self) -> None:
        self.values = np.asarray(self.values, dtype=np.float64)
        if self.values.shape != (len(self.measures), len(self.topics)):
            raise ValueError(
                f"values has shape {self.values.shape}, expected ({len(self.measures)}, {len(self.topics)})"
            )

    def _row(self, name: str) -> int:
        try:
            return self.measures.index(name)
        except ValueError:
            from .measures.parse import parse_measure

            canon = parse_measure(name).name
            if canon in self.measures:
                return self.measures.index(canon)
            raise KeyError(
                f"no measure {name!r} in these results (have {', '.join(self.measures)})"
            ) from None

    def per_topic(self, name: str) -> dict[str, float]:
        """``{topic: value}`` for one measure."""
        row = self.values[self._row(name)]
        return dict(zip(self.topics, row.tolist(), strict=True))

    def mean(self, column: str | None = None) -> dict[str, float]:
        """Arithmetic mean over topics of each measure (of ``column`` if given)."""
        vals = self.values if column in (None, "EU") else self.columns[column]
        with np.errstate(invalid="ignore"):
            m = vals.mean(axis=1) if vals.shape[1] else np.full(vals.shape[0], np.nan)
        return dict(zip(self.measures, m.tolist(), strict=True))

    def to_records(self) -> list[dict[str, Any]]:
        """One dict per (topic, measure): topic, measure, value and the further columns."""
        out = []
        for j, t in enumerate(self.topics):
            for i, m in enumerate(self.measures):
                rec: dict[str, Any] = {"topic": t, "measure": m, "value": float(self.values[i, j])}
                for c, arr in self.columns.items():
                    rec[c] = float(arr[i, j])
                out.append(rec)
        return out

    def to_frame(self):
        """A pandas DataFrame (long format; needs pandas) of :meth:`to_records`."""
        try:
            import pandas as pd
        except ImportError:  # pragma: no cover - optional
            raise ImportError("Results.to_frame() needs pandas: pip install pandas") from None
        return pd.DataFrame.from_records(self.to_records())

    def align(self, other: Results) -> tuple[np.ndarray, np.ndarray, list[str]]:
        """Values of both results on their common topics (for paired tests)."""
        common = sorted(set(self.topics) & set(other.topics))
        ia = [self.topics.index(t) for t in common]
        ib = [other.topics.index(t) for t in common]
        return self.values[:, ia], other.values[:, ib], common
