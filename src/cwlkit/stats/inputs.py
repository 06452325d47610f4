"""The input forms the statistics functions take, turned into numpy arrays and Results.

Per-topic scores (one value per topic, one measure) come as

- a :class:`~cwlkit.Results` of one measure (or the one named by ``measure=``);
- a mapping ``{topic: score}``;
- a pandas Series (index: topics) or a one-column pandas DataFrame, a polars Series;
- a numpy array, list or tuple (topics by position, no names).

Scores of several runs (:func:`cwlkit.stats.compare`, :func:`~cwlkit.stats.report_table`,
:func:`~cwlkit.stats.correlation_matrix`) come as a mapping ``{run: scores}`` or a sequence of
:class:`~cwlkit.Results` (named by their ``run``), each run's scores being

- a :class:`~cwlkit.Results` (every measure);
- pytrec_eval's output ``{topic: {measure: score}}``;
- records: ir_measures' ``Metric(query_id, measure, value)`` tuples, or dicts with
  ``topic`` (or ``query_id``), ``measure`` and ``value`` keys;
- a pandas or polars DataFrame as :meth:`cwlkit.Results.to_frame` gives it: long (``topic``,
  ``measure``, ``value`` columns) or wide (a ``topic`` column, one column per measure);
- one measure's per-topic scores in any form above (the measure is named ``score``; arrays
  and lists name their topics by position, ``"1"``, ``"2"``..., zero-padded to one width);

or as a whole long pandas/polars DataFrame with a ``run`` column (several
:meth:`~cwlkit.Results.to_frame` tables concatenated).

Every score is a real number (NaN allowed where the function says so); strings, None,
complex numbers, nested or ragged shapes are refused with a
:class:`~cwlkit.errors.ParamError`.
"""

from __future__ import annotations

import numbers
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from ..errors import ParamError
from ..results import Results
from ..support.checks import refuse

#: the measure name given to scores that carry none (one measure per topic)
SCORE = "score"


def _kind(value: Any) -> str:
    return type(value).__module__.split(".")[0] + "." + type(value).__name__


def _is_frame(value: Any) -> bool:
    return _kind(value) in ("pandas.DataFrame", "polars.DataFrame")


def _is_series(value: Any) -> bool:
    return _kind(value) in ("pandas.Series", "polars.Series")


def as_array(name: str, value: Any, *, ndim: tuple[int, ...] | None = (1,)) -> np.ndarray:
    """``value`` as a float64 array of one of the dimensions ``ndim`` (None: any).

    Numbers only (bools, integers, floats; NaN and infinities pass, for the caller to judge):
    strings, None, complex numbers, objects and ragged nestings are refused with
    ``NAME must be EXPECTED; got VALUE``.
    """
    what = "" if ndim is None else " or ".join(f"{d}-d" for d in ndim) + " "
    expected = f"a {what}array of numbers" if what else "an array of numbers"
    if isinstance(value, (str, bytes, Mapping)) or value is None:
        raise refuse(name, expected, value)
    if _is_series(value) or _is_frame(value):
        value = value.to_numpy()
    try:
        arr = np.asarray(value)
    except (TypeError, ValueError, OverflowError):  # ragged nestings
        raise refuse(name, expected, value) from None
    if arr.dtype.kind not in "biuf":
        raise refuse(name, expected, value)
    if ndim is not None and arr.ndim not in ndim:
        raise refuse(name, f"{expected} (got {arr.ndim} dimensions)", value)
    return arr.astype(np.float64)


def check_spread(name: str, arr: np.ndarray) -> None:
    """Refuse finite scores so large that their mean or variance over the last axis overflows
    float64 (about 1e154 and beyond): the statistics would be infinite or NaN and the
    p-values silently 0 or 1."""
    with np.errstate(over="ignore", invalid="ignore"):
        ok = np.isfinite(arr.mean(axis=-1)).all() and np.isfinite(arr.var(axis=-1)).all()
    if not ok:
        raise ParamError(f"{name} are too large: their variance overflows float64")


def _number(name: str, value: Any) -> float:
    if isinstance(value, numbers.Real) and not isinstance(value, (bool, np.bool_)):
        return float(value)
    raise refuse(name, "a number", value)


def per_topic(
    name: str, value: Any, *, measure: str | None = None
) -> tuple[list[str] | None, np.ndarray]:
    """One measure's per-topic scores: ``(topics or None, float64[n])``.

    ``topics`` is None for arrays and lists (topics by position).
    """
    if isinstance(value, Results):
        if measure is None:
            if len(value.measures) != 1:
                raise ParamError(
                    f"{name} holds {len(value.measures)} measures "
                    f"({', '.join(value.measures[:4])}); pass one, e.g. results.select('AP')"
                )
            row = 0
        else:
            row = value._row(measure)
        return list(value.topics), np.array(value.values[row], dtype=np.float64)
    if isinstance(value, Mapping):
        if not value:
            raise refuse(name, "per-topic scores", value)
        topics = [str(t) for t in value]
        scores = np.array([_number(f"{name}[{t!r}]", v) for t, v in value.items()])
        return _distinct(name, topics), scores
    if _kind(value) == "pandas.DataFrame" and value.shape[1] == 1:
        value = value.iloc[:, 0]
    if _kind(value) == "pandas.Series":
        topics = [str(t) for t in value.index]
        return _distinct(name, topics), as_array(name, value.to_numpy())
    return None, as_array(name, value)


def _distinct(name: str, topics: list[str]) -> list[str]:
    if len(set(topics)) != len(topics):
        raise ParamError(f"{name} names a topic twice")
    return topics


def paired(
    x: Any, y: Any, *, measure: str | None = None, ndim: tuple[int, ...] | None = (1,)
) -> tuple[np.ndarray, np.ndarray]:
    """Two score vectors paired item by item.

    Keyed forms (Results, mappings, Series) are paired by topic and must score the same
    topics (both returned in the order of the sorted topics, as :class:`Results` holds
    them); arrays and lists are paired by position (and may have more dimensions, with
    ``ndim``, None for any). A keyed form is not paired with an unkeyed one: the unkeyed
    one has no topic names to match.
    """
    if _plain(x) and _plain(y):
        xa, ya = as_array("x", x, ndim=ndim), as_array("y", y, ndim=ndim)
        for label, arr, value in (("x", xa, x), ("y", ya, y)):
            if arr.ndim == 0:
                raise refuse(label, "per-topic scores, not a single number", value)
        return xa, ya
    tx, vx = per_topic("x", x, measure=measure)
    ty, vy = per_topic("y", y, measure=measure)
    if tx is None or ty is None:
        raise ParamError(
            f"{'y' if tx is not None else 'x'} has no topic names to pair with the other's; "
            "give both as scores by topic (Results, mappings, Series) or both as arrays"
        )
    sx, sy = set(tx), set(ty)
    if sx != sy:
        only = sorted(sx - sy) or sorted(sy - sx)
        side = "x" if sx - sy else "y"
        raise ParamError(
            f"x and y must score the same topics; {len(only)} topic"
            f"{'s' if len(only) != 1 else ''} of {side} only (e.g. {only[0]!r})"
        )
    return _by_topic(tx, vx), _by_topic(ty, vy)


def _by_topic(topics: list[str], values: np.ndarray) -> np.ndarray:
    """``values`` in the order of the sorted topics (the order of :class:`Results`), so the
    numbers do not depend on the order a mapping was built in."""
    order = sorted(range(len(topics)), key=topics.__getitem__)
    return values[order]


def _plain(value: Any) -> bool:
    """An array-like without topic names."""
    keyed = ("pandas.Series", "pandas.DataFrame")
    return not (isinstance(value, (Results, Mapping)) or _kind(value) in keyed)


# ----------------------------------------------------------------------- several runs


def runs_results(name: str, value: Any) -> dict[str, Results]:
    """``{run: Results}`` from any form of several runs' scores (see the module notes)."""
    if _is_frame(value):
        return _from_long_frame(name, value)
    if isinstance(value, Mapping):
        items = [(k, v) for k, v in value.items()]
    elif isinstance(value, (list, tuple)) and all(isinstance(r, Results) for r in value):
        items = [(r.run or f"run{i + 1}", r) for i, r in enumerate(value)]
    else:
        raise refuse(name, "a mapping {run: scores} or a list of Results", value)
    if not items:
        raise refuse(name, "scores of at least one run", value)
    out: dict[str, Results] = {}
    for key, v in items:
        if not isinstance(key, (str, int, np.integer)) or isinstance(key, bool):
            raise refuse(f"{name}'s run names", "strings", key)
        run = str(key)
        if run in out:
            raise ParamError(f"{name} names the run {run!r} twice")
        out[run] = one_run(f"{name}[{run!r}]", v, run)
    return out


def one_run(name: str, value: Any, run: str = "") -> Results:
    """One run's scores as :class:`Results` (see the module notes for the forms)."""
    if isinstance(value, Results):
        return value
    if _is_frame(value):
        return _from_frame(name, value, run)
    if isinstance(value, Mapping) and value:
        first = next(iter(value.values()))
        if isinstance(first, Mapping):  # pytrec_eval's {topic: {measure: score}}
            return _from_nested(name, value, run)
    if isinstance(value, (list, tuple)) and value and _is_record(value[0]):
        return _from_records(name, value, run)
    if not isinstance(value, (Mapping, list, tuple, np.ndarray)) and not _is_series(value):
        raise refuse(name, "a Results, {topic: score}, score records or a DataFrame", value)
    topics, scores = per_topic(name, value)
    if topics is None:  # by position: "1", "2"... zero-padded, so sorting keeps the order
        width = len(str(scores.size))
        topics = [f"{i + 1:0{width}d}" for i in range(scores.size)]
    return _results(name, [SCORE], topics, scores[None, :], run)


def _results(
    name: str, measures: list[str], topics: list[str], values: np.ndarray, run: str
) -> Results:
    if not topics:
        raise refuse(name, "scores of at least one topic", [])
    order = sorted(range(len(topics)), key=lambda i: topics[i])
    return Results(
        values=values[:, order], measures=measures, topics=[topics[i] for i in order], run=run
    )


def _from_nested(name: str, value: Mapping, run: str) -> Results:
    topics = [str(t) for t in value]
    measures: list[str] = []
    for t, row in value.items():
        if not isinstance(row, Mapping):
            raise refuse(f"{name}[{t!r}]", "a mapping {measure: score}", row)
        for m in row:
            if not isinstance(m, str):
                raise refuse(f"{name}[{t!r}]'s measure names", "strings", m)
            if m not in measures:
                measures.append(m)
    vals = np.full((len(measures), len(topics)), np.nan)
    mpos = {m: i for i, m in enumerate(measures)}
    for j, row in enumerate(value.values()):
        for m, v in row.items():
            vals[mpos[m], j] = _number(f"{name}[{topics[j]!r}][{m!r}]", v)
    return _results(name, measures, _distinct(name, topics), vals, run)


def _is_record(rec: Any) -> bool:
    if isinstance(rec, Mapping):
        return "measure" in rec and "value" in rec
    return hasattr(rec, "_fields") and {"measure", "value"} <= set(rec._fields)


def _field(rec: Any, *keys: str) -> Any:
    for k in keys:
        if isinstance(rec, Mapping):
            if k in rec:
                return rec[k]
        elif k in getattr(rec, "_fields", ()):
            return getattr(rec, k)
    raise refuse("a score record", f"a record with {' or '.join(keys)}", rec)


def _from_records(name: str, records: Sequence[Any], run: str) -> Results:
    cells: dict[tuple[str, str], float] = {}
    topics: list[str] = []
    measures: list[str] = []
    seen_t: set[str] = set()
    seen_m: set[str] = set()
    for rec in records:
        if not _is_record(rec):
            raise refuse(f"{name}'s records", "records with topic, measure and value", rec)
        t = str(_field(rec, "topic", "query_id"))
        m = str(_field(rec, "measure"))
        if (t, m) in cells:
            raise ParamError(f"{name} scores topic {t!r} on {m} twice")
        cells[t, m] = _number(f"{name}'s value of {m} on {t!r}", _field(rec, "value"))
        if t not in seen_t:
            seen_t.add(t)
            topics.append(t)
        if m not in seen_m:
            seen_m.add(m)
            measures.append(m)
    vals = np.full((len(measures), len(topics)), np.nan)
    tpos = {t: j for j, t in enumerate(topics)}
    mpos = {m: i for i, m in enumerate(measures)}
    for (t, m), v in cells.items():
        vals[mpos[m], tpos[t]] = v
    return _results(name, measures, topics, vals, run)


def _columns(frame: Any) -> list[str]:
    return [str(c) for c in frame.columns]


def _frame_records(frame: Any) -> list[dict[str, Any]]:
    if _kind(frame) == "polars.DataFrame":
        return list(frame.to_dicts())
    return list(frame.to_dict("records"))


def _from_frame(name: str, frame: Any, run: str) -> Results:
    cols = _columns(frame)
    if "measure" in cols and "value" in cols:
        return _from_records(name, _frame_records(frame), run)
    key = "topic" if "topic" in cols else "query_id" if "query_id" in cols else None
    if key is None:
        if _kind(frame) == "pandas.DataFrame" and frame.shape[1] == 1:
            topics, scores = per_topic(name, frame)
            assert topics is not None
            return _results(name, [SCORE], topics, scores[None, :], run)
        raise refuse(
            name, "a DataFrame with topic, measure and value columns (or topic and measures)", cols
        )
    return _from_wide_records(name, _frame_records(frame), cols, run)


def _from_long_frame(name: str, frame: Any) -> dict[str, Results]:
    cols = _columns(frame)
    if "run" not in cols:
        raise refuse(name, "a DataFrame with a run column (or a mapping {run: scores})", cols)
    by_run: dict[str, list[dict[str, Any]]] = {}
    for rec in _frame_records(frame):
        by_run.setdefault(str(rec["run"]), []).append(rec)
    if not by_run:
        raise refuse(name, "scores of at least one run", cols)
    return {
        run: (
            _from_records(f"{name}[{run!r}]", recs, run)
            if "measure" in cols
            else _from_wide_records(f"{name}[{run!r}]", recs, cols, run)
        )
        for run, recs in by_run.items()
    }


def _from_wide_records(name: str, recs: list[dict[str, Any]], cols: list[str], run: str) -> Results:
    """Rows of a wide table: a topic column and one column per measure."""
    key = "topic" if "topic" in cols else "query_id" if "query_id" in cols else None
    if key is None:
        raise refuse(name, "a DataFrame with a topic column", cols)
    measures = [c for c in cols if c not in (key, "run")]
    if not measures:
        raise refuse(name, "a DataFrame with a column per measure", cols)
    topics = _distinct(name, [str(r[key]) for r in recs])
    vals = as_array(name, [[r[m] for r in recs] for m in measures], ndim=(2,))
    return _results(name, measures, topics, vals, run)


def system_scores(name: str, value: Any) -> np.ndarray:
    """Scores of several systems on the same topics as float64[R, n] (Tukey, ANOVA): an
    array ``[systems, topics]``, a pandas DataFrame with one column per system (rows:
    topics), or a mapping ``{system: per-topic scores}`` (keyed forms paired by topic, and
    must score the same topics)."""
    if _kind(value) == "pandas.DataFrame":
        return as_array(name, value.to_numpy().T, ndim=(2,))
    if isinstance(value, Mapping):
        if not value:
            raise refuse(name, "scores of at least 2 systems", value)
        rows = []
        first: set[str] | None = None
        for k, v in value.items():
            topics, s = per_topic(f"{name}[{k!r}]", v)
            if topics is not None:
                if first is None:
                    first = set(topics)
                elif set(topics) != first:
                    raise ParamError(f"{name}: the systems must score the same topics")
                s = _by_topic(topics, s)
            rows.append(s)
        if first is not None and len(rows) != sum(1 for v in value.values() if not _plain(v)):
            raise ParamError(
                f"{name}: give every system's scores by topic, or every system's as an array"
            )
        if len({r.size for r in rows}) != 1:
            raise ParamError(f"{name}: the systems have different numbers of topics")
        return np.vstack(rows)
    return as_array(name, value, ndim=(2, 3))  # 3: [systems, measures, topics]
