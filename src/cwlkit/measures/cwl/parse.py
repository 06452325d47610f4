"""Metric specifications for ``cwlkit cwl``: cwl_eval's class syntax and cwlkit's names.

Accepted, one per line in a metrics file (blank lines and ``#`` comments skipped):

* cwl_eval's lines: ``RBPCWLMetric(0.8)``, ``PrecisionCWLMetric(k=5)``, ``INSTCWLMetric(T=2.5)``,
  any float notation (``8e-1``), keyword or positional arguments; these print cwl_eval's names
  (``RBP@0.8``, ``P@5``, ``INST-T=2.5``).
* cwlkit's canonical names: ``RBP(p=0.8)``, ``P@10``, ``INST(T=2)``, ``SDCG@10``, ``nDCG@10``,
  ``C_E10(phi=0.62)``, and non-C/W/L measures such as ``ERR@20``; these print as written in
  canonical form.

Parsing never evaluates text.
"""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

from ...errors import FormatError, ParamError, UnknownMeasureError
from ..base import Measure
from ..parse import coerce, parse_measure, parse_value, split_args
from . import CWL_TABLE, CWLMetric

_LINE = re.compile(
    r"^\s*([A-Za-z_][A-Za-z0-9_\-]*)\s*(?:\((.*)\))?\s*(?:@\s*([^\s()@]+))?\s*$", re.S
)


def _cwl_class(name: str) -> type[CWLMetric] | None:
    key = name.lower()
    cls = CWL_TABLE.get(key)
    if cls is None and key.endswith("cwlmetrics"):
        cls = CWL_TABLE.get(key[:-1])  # the cwl_eval paper writes PrecisionCWLMetrics(k=10)
    return cls


def parse_cwl_metric(text: str) -> tuple[Measure, str]:
    """Parse one metric; return it and the name to print."""
    m = _LINE.match(text)
    if not m:
        raise ParamError(
            f"cannot read metric {text.strip()!r}: expected e.g. RBPCWLMetric(0.8) or RBP(p=0.8)"
        )
    name, args, cutoff = m.group(1), m.group(2), m.group(3)
    cls = _cwl_class(name)
    if cls is not None and cls.cwl_class and name.lower().startswith(cls.cwl_class.lower()):
        metric, written = _build_cwl(cls, split_args(args) if args else [], text.strip())
        if cutoff is not None:
            raise ParamError(f"{cls.cwl_class} takes its cutoff as an argument, not '@{cutoff}'")
        return metric, metric.cwl_name(written)
    if cls is not None:
        from ..parse import build

        metric = build(cls, split_args(args) if args is not None else [], cutoff, text.strip())
        return metric, metric.name
    if name == "CWLMetric":
        raise ParamError("CWLMetric() is cwl_eval's abstract base class, not a metric")
    try:
        metric = parse_measure(text)
    except UnknownMeasureError:
        known = sorted(
            {c.family for c in CWL_TABLE.values()}
            | {c.cwl_class for c in CWL_TABLE.values() if c.cwl_class}
        )
        raise UnknownMeasureError(name, known) from None
    return metric, metric.name


def _build_cwl(
    cls: type[CWLMetric], args: list[str], text: str
) -> tuple[CWLMetric, dict[str, str]]:
    fields = {f.name: f for f in dataclasses.fields(cls)}
    order = [(kw, fld) for kw, fld, _ in cls.cwl_params]
    kwargs: dict[str, object] = {}
    written: dict[str, str] = {}
    pos = 0
    for a in args:
        if a == "":
            continue
        km = re.match(r"^([A-Za-z_]\w*)\s*=\s*(.+)$", a, re.S)
        if km:
            key, val = km.group(1), km.group(2).strip()
            fld = _keyword(cls, key)
            if fld is None:
                names = ", ".join(kw for kw, _ in order) or "none"
                raise ParamError(
                    f"{cls.cwl_class} has no parameter {key!r} (parameters: {names}) in {text!r}"
                )
        else:
            if pos >= len(order):
                raise ParamError(f"too many arguments for {cls.cwl_class} in {text!r}")
            fld, val = order[pos][1], a.strip()
            pos += 1
        if fld in kwargs:
            raise ParamError(f"parameter {fld!r} given twice in {text!r}")
        kwargs[fld] = coerce(cls, fields[fld], parse_value(val))
        written[fld] = val
    try:
        return cls(**kwargs), written
    except TypeError:
        missing = [
            kw
            for kw, fld in order
            if fld not in kwargs and fields[fld].default is dataclasses.MISSING
        ]
        raise ParamError(
            f"{cls.cwl_class} needs a value for {', '.join(missing)} in {text!r}"
        ) from None


def _keyword(cls: type[CWLMetric], key: str) -> str | None:
    k = key.lower()
    for kw, fld, _ in cls.cwl_params:
        if k in (kw.lower(), fld.lower()):
            return fld
    starts = [fld for kw, fld, _ in cls.cwl_params if kw.lower().startswith(k)]
    return starts[0] if len(starts) == 1 else None


def read_metrics_file(path: str | Path) -> list[tuple[Measure, str]]:
    """Read a metrics file: one metric per line, ``#`` comments and blank lines allowed."""
    from ...io._text import read_bytes

    data = read_bytes(path).decode("utf-8", errors="replace")
    out = []
    for i, line in enumerate(data.splitlines(), 1):
        s = line.split("#", 1)[0].strip()
        if not s:
            continue
        try:
            out.append(parse_cwl_metric(s))
        except (ParamError, UnknownMeasureError) as exc:
            raise FormatError(path, i, str(exc)) from None
    if not out:
        raise FormatError(
            path, None, "no metric in the file: expected lines like RBPCWLMetric(0.8)"
        )
    return out


#: cwl_eval's default metric set, in its order
DEFAULT_METRICS = (
    "PrecisionCWLMetric(1)",
    "PrecisionCWLMetric(2)",
    "PrecisionCWLMetric(3)",
    "PrecisionCWLMetric(4)",
    "PrecisionCWLMetric(5)",
    "PrecisionCWLMetric(10)",
    "RBPCWLMetric(0.2)",
    "RBPCWLMetric(0.4)",
    "RBPCWLMetric(0.8)",
    "NDCGCWLMetric(5)",
    "NDCGCWLMetric(10)",
    "RRCWLMetric()",
    "APCWLMetric()",
    "INSTCWLMetric(1.0)",
    "INSTCWLMetric(2.0)",
    "INSTCWLMetric(3.0)",
)
