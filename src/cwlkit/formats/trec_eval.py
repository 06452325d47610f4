"""Print a :class:`~cwlkit.results.Results` exactly as trec_eval prints it.

Every line is ``printf("%-22s\\t%s\\t%6.4f\\n", name, topic, value)``; with ``-q`` the
per-topic lines come topic by topic (every measure of a topic, in the Results' order), then
the ``all`` block (unless ``-n``). What trec_eval's printer does per measure follows from
the Results:

- the printed name is trec_eval's for the canonical measure (``P@10`` prints ``P_10``,
  ``AP`` ``map``, ``NumQ`` ``num_q``; :func:`cwlkit.measures.trec.registered.trec_eval_name`), or
  the ``names`` given (trec_eval prints typed parameters as typed); ``runid`` is the line
  of ``Results.run``;
- measures summed over topics (``NumRet``, the preference counts) print as ``%ld``;
- ``NumQ`` and the geometric means (``gm_map``) have no per-topic lines;
- text values (``Results.text``: ``relstring``) print quoted, per topic only;
- the ``all`` value is ``Results.summary``'s where given, else the measure's aggregate with
  the topics added in order, as trec_eval accumulates them;
- ``zscore`` (``-Z``): names get a ``Z`` prefix and every number four decimals.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

import numpy as np

from ..results import MIN_GEO_MEAN, Results

#: a printed line's kind: the run's tag, text, an integer (%ld) or a real (%6.4f) measure
_RUNID, _TEXT, _INT, _REAL = "runid", "text", "int", "real"


def _num(v: float) -> str:
    if math.isnan(v):  # C prints the sign of a NaN
        return f"{'-nan' if math.copysign(1.0, v) < 0 else 'nan':>6}"
    return f"{v:6.4f}"


def _int(v: float) -> str:
    if not math.isfinite(v):
        return _num(v)
    return str(int(v))


def _default_name(results: Results, name: str) -> str:
    """trec_eval's name for the measure ``name`` of ``results`` (itself if trec_eval has none)."""
    from ..errors import CwlkitError
    from ..measures.parse import parse_measure
    from ..measures.trec.registered import trec_eval_name

    if name in results.text:
        return name
    try:
        printed = trec_eval_name(parse_measure(name))
    except CwlkitError:  # a measure only trec_eval has (the preference measures)
        return name
    return printed or name


def _aggregates(results: Results) -> list[str]:
    """``results.aggregates`` (never None: ``Results.__post_init__`` fills the default in)."""
    assert results.aggregates is not None
    return results.aggregates


def _layout(results: Results, names: Sequence[str] | None) -> list[tuple[str, int, str]]:
    """``(printed name, row of results, kind)`` per printed measure, in print order."""
    if names is None:
        names = ["runid"] + [_default_name(results, m) for m in results.measures]
    rows = [n for n in names if n != "runid"]
    if len(rows) != len(results.measures):
        raise ValueError(
            f"{len(rows)} printed names for {len(results.measures)} measures "
            f"({', '.join(results.measures)})"
        )
    out: list[tuple[str, int, str]] = []
    aggregates = _aggregates(results)
    i = 0
    for n in names:
        if n == "runid":
            out.append((n, -1, _RUNID))
            continue
        m = results.measures[i]
        kind = _TEXT if m in results.text else _INT if aggregates[i] == "sum" else _REAL
        out.append((n, i, kind))
        i += 1
    return out


def _summary_value(results: Results, i: int) -> float:
    """The ``all`` value of row ``i``: ``Results.summary``'s, or the measure's aggregate with
    the topics added in order (trec_eval's loop; numpy's pairwise sum may differ in the last
    bit)."""
    m = results.measures[i]
    if m in results.summary:
        return results.summary[m]
    v = results.values[i]
    how = _aggregates(results)[i]
    if how == "gmean":
        v = np.log(np.maximum(v, MIN_GEO_MEAN))
    total = float(np.cumsum(v)[-1]) if v.size else 0.0
    if how == "sum":
        return total
    mean = total / v.size if v.size else total
    return math.exp(mean) if how == "gmean" else mean


def format_trec_eval(
    results: Results,
    names: Sequence[str] | None = None,
    *,
    per_topic: bool = False,
    summary: bool = True,
    zscore: bool = False,
) -> str:
    """The text trec_eval prints for ``results``.

    Parameters
    ----------
    results : Results
        Values to print (:func:`cwlkit.measures.trec.evaluate.evaluate_trec`'s, or any
        other: :class:`cwlkit.Evaluator`'s Results print as trec_eval would print them).
    names : sequence of str, optional
        The printed names in print order: ``"runid"`` for the run's tag line, then one name
        per measure of ``results``, in its order
        (:func:`~cwlkit.measures.trec.evaluate.trec_eval_names`). Default: ``runid``, then
        each measure's trec_eval name.
    per_topic : bool
        Print the per-topic lines (``-q``).
    summary : bool
        Print the ``all`` lines (off with ``-n``).
    zscore : bool
        The values are Z scores (``-Z``).
    """
    layout = _layout(results, names)
    out: list[str] = []
    if per_topic:
        out.append(_per_topic(results, layout, zscore))
    if summary:
        out.append(_summary(results, layout, zscore))
    return "".join(out)


def _label(name: str, zscore: bool) -> str:
    return f"Z{name:<22}" if zscore else f"{name:<22}"


def _summary(results: Results, layout: list[tuple[str, int, str]], zscore: bool) -> str:
    out: list[str] = []
    for name, i, kind in layout:
        if kind == _RUNID:
            out.append(f"{name:<22}\tall\t{results.run}\n")
        elif kind == _INT and not zscore:
            out.append(f"{_label(name, zscore)}\tall\t{_int(_summary_value(results, i))}\n")
        elif kind != _TEXT:
            out.append(f"{_label(name, zscore)}\tall\t{_num(_summary_value(results, i))}\n")
    return "".join(out)


def _per_topic(results: Results, layout: list[tuple[str, int, str]], zscore: bool) -> str:
    """The per-topic lines, topic by topic (every measure of a topic, in print order).

    Built with one ``%`` operation: a template holding one line per measure (its label and
    number format) repeated for every topic, filled with the interleaved (topic, value)
    pairs. Columns that need Python's formatting (NaN signs, infinite integers) are
    pre-formatted and passed as strings.
    """
    specs: list[str] = []
    cols: list[list] = []
    aggregates = _aggregates(results)
    for name, i, kind in layout:
        m = results.measures[i] if i >= 0 else ""
        if kind == _RUNID or m == "NumQ" or aggregates[i] == "gmean":
            continue  # trec_eval prints these on the 'all' lines only
        if kind == _TEXT:
            specs.append(f"{name:<22}".replace("%", "%%") + "\t%s\t'%s'\n")
            cols.append(list(results.text[m]))
            continue
        lab = _label(name, zscore).replace("%", "%%")
        v = results.values[i]
        if kind == _INT and not zscore:
            if np.isfinite(v).all():
                specs.append(lab + "\t%s\t%d\n")
                cols.append(v.tolist())
            else:
                specs.append(lab + "\t%s\t%s\n")
                cols.append([_int(x) for x in v.tolist()])
        elif np.isnan(v).any():  # C prints the sign of a NaN
            specs.append(lab + "\t%s\t%s\n")
            cols.append([_num(x) for x in v.tolist()])
        else:
            specs.append(lab + "\t%s\t%6.4f\n")
            cols.append(v.tolist())
    T = len(results.topics)
    if not cols or T == 0:
        return ""
    args = np.empty((T, 2 * len(cols)), dtype=object)
    args[:, 0::2] = np.asarray(results.topics, dtype=object)[:, None]
    for j, c in enumerate(cols):
        args[:, 2 * j + 1] = c
    return ("".join(specs) * T) % tuple(args.ravel().tolist())


def write_trec_eval(
    results: Results,
    write: Callable[[str], object],
    names: Sequence[str] | None = None,
    *,
    per_topic: bool = False,
    summary: bool = True,
    zscore: bool = False,
    block: int = 10_000,
) -> None:
    """:func:`format_trec_eval`'s text passed to ``write`` in pieces of ``block`` topics (the
    same bytes, without holding the whole text of many topics at once)."""
    layout = _layout(results, names)
    if per_topic:
        for a in range(0, len(results.topics), block):
            b = a + block
            part = Results(
                results.values[:, a:b],
                results.measures,
                results.topics[a:b],
                aggregates=results.aggregates,
                text={k: v[a:b] for k, v in results.text.items()},
            )
            write(_per_topic(part, layout, zscore))
    if summary:
        write(_summary(results, layout, zscore))
