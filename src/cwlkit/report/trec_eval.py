"""Print a :class:`~cwlkit.measures.trec._table.TrecTable` exactly as trec_eval prints it.

Every line is ``printf("%-22s\\t%s\\t%6.4f\\n", name, topic, value)`` (``%ld`` for the
integer measures, ``'%s'`` for relstring, the run's tag for ``runid``); with ``-q`` the
per-topic lines come topic by topic (every measure of a topic, in table order), then the
``all`` block (unless ``-n``).
"""

from __future__ import annotations

import math

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
        cols = []
        for name in table.names:
            if name in table.text:
                cols.append([f"{name:<22}\t{t}\t'{v}'\n" for t, v in zip(table.topics, table.text[name], strict=True)])
            elif name in table.values:
                lab = label(name)
                vals = table.values[name].tolist()
                if name in table.integer and not z:
                    cols.append([f"{lab}\t{t}\t{_int(v)}\n" for t, v in zip(table.topics, vals, strict=True)])
                elif any(v != v for v in vals):  # NaN: print its sign as C does
                    cols.append([f"{lab}\t{t}\t{_num(v)}\n" for t, v in zip(table.topics, vals, strict=True)])
                else:
                    cols.append([f"{lab}\t{t}\t{v:6.4f}\n" for t, v in zip(table.topics, vals, strict=True)])
        # topic by topic: every measure of a topic, in table order
        for row in zip(*cols, strict=True):
            out.extend(row)
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
