"""Print a :class:`~cwlkit.measures.trec._table.TrecTable` exactly as trec_eval prints it.

Every line is ``printf("%-22s\\t%s\\t%6.4f\\n", name, topic, value)`` (``%ld`` for the
integer measures, ``'%s'`` for relstring, the run's tag for ``runid``); with ``-q`` the
per-topic lines come topic by topic (every measure of a topic, in table order), then the
``all`` block (unless ``-n``).
"""

from __future__ import annotations

import math

import numpy as np

from ..measures.trec._table import TrecTable


def _num(v: float) -> str:
    if math.isnan(v):  # C prints the sign of a NaN
        return f"{'-nan' if math.copysign(1.0, v) < 0 else 'nan':>6}"
    return f"{v:6.4f}"


def _int(v: float) -> str:
    if not math.isfinite(v):
        return _num(v)
    return str(int(v))


def format_trec_eval(table: TrecTable, *, per_topic: bool = False, summary: bool = True) -> str:
    """The text trec_eval prints for ``table``.

    Parameters
    ----------
    table : TrecTable
        Values to print.
    per_topic : bool
        Print the per-topic lines (``-q``).
    summary : bool
        Print the ``all`` lines (off with ``-n``).
    """
    out: list[str] = []
    z = table.zscore

    def label(name: str) -> str:
        return f"Z{name:<22}" if z else f"{name:<22}"

    if per_topic:
        out.append(_per_topic(table, label))
    if summary:
        for name in table.names:
            if name == "runid":
                out.append(f"{name:<22}\tall\t{table.runid}\n")
            elif name in table.summary:
                v = table.summary[name]
                if name in table.integer and not z:
                    out.append(f"{label(name)}\tall\t{_int(v)}\n")
                else:
                    out.append(f"{label(name)}\tall\t{_num(v)}\n")
    return "".join(out)


def _per_topic(table: TrecTable, label) -> str:
    """The per-topic lines, topic by topic (every measure of a topic, in table order).

    Built with one ``%`` operation: a template holding one line per measure (its label and
    number format) repeated for every topic, filled with the interleaved (topic, value)
    pairs. Columns that need Python's formatting (NaN signs, infinite integers) are
    pre-formatted and passed as strings.
    """
    specs: list[str] = []
    cols: list[list] = []
    for name in table.names:
        if name in table.text:
            specs.append(f"{name:<22}".replace("%", "%%") + "\t%s\t'%s'\n")
            cols.append(list(table.text[name]))
        elif name in table.values:
            lab = label(name).replace("%", "%%")
            v = np.asarray(table.values[name], dtype=np.float64)
            if name in table.integer and not table.zscore:
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
    T = len(table.topics)
    if not cols or T == 0:
        return ""
    args = np.empty((T, 2 * len(cols)), dtype=object)
    args[:, 0::2] = np.asarray(table.topics, dtype=object)[:, None]
    for j, c in enumerate(cols):
        args[:, 2 * j + 1] = c
    return ("".join(specs) * T) % tuple(args.ravel().tolist())


def write_trec_eval(
    table: TrecTable,
    write,
    *,
    per_topic: bool = False,
    summary: bool = True,
    block: int = 10_000,
) -> None:
    """:func:`format_trec_eval`'s text passed to ``write`` in pieces of ``block`` topics (the
    same bytes, without holding the whole text of many topics at once)."""
    from dataclasses import replace

    if per_topic:
        z = table.zscore

        def label(name: str) -> str:
            return f"Z{name:<22}" if z else f"{name:<22}"

        for a in range(0, len(table.topics), block):
            b = a + block
            part = replace(
                table,
                topics=table.topics[a:b],
                values={k: v[a:b] for k, v in table.values.items()},
                text={k: v[a:b] for k, v in table.text.items()},
            )
            write(_per_topic(part, label))
    write(format_trec_eval(table, per_topic=False, summary=summary))
