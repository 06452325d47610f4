"""Metric specifications for ``cwlkit cwl``: cwl_eval's class syntax and cwlkit's names.

Accepted, one per line in a metrics file (blank lines and ``#`` comments skipped):

* cwl_eval's lines: ``RBPCWLMetric(0.8)``, ``PrecisionCWLMetric(k=5)``, ``INSTCWLMetric(T=2.5)``,
  any float notation (``8e-1``), keyword or positional arguments; these print cwl_eval's names
  (``RBP@0.8``, ``P@5``, ``INST-T=2.5``).
* any name of the registry: ``RBP(p=0.8)``, ``P_cwl@10``, ``INST(T=2)``, ``SDCG@10``,
  ``C_E10(phi=0.62)``, and non-C/W/L measures such as ``P@10`` (trec_eval's binary
  precision) or ``ERR@20``; these print their canonical name, and a measure that is not
  C/W/L has only EU (its other columns are NaN).

Parsing never evaluates text.
"""

from __future__ import annotations

from pathlib import Path

from ...errors import FormatError, ParamError, UnknownMeasureError
from .. import registry
from ..base import Measure
from ..parse import build, parse_measure, split_head
from .base import CWLMetric


def _cwl_class(name: str) -> type[CWLMetric] | None:
    """The metric cwl_eval calls ``name`` (also the paper's plural ``...CWLMetrics``)."""
    cls = registry.lookup_anchor("cwl_eval", name)
    if cls is None and name.lower().endswith("cwlmetrics"):
        cls = registry.lookup_anchor("cwl_eval", name[:-1])
    return cls  # type: ignore[return-value]


def parse_cwl_metric(text: str, *, cwl_eval_names: bool = False) -> tuple[Measure, str]:
    """Parse one metric; return it and the name ``cwlkit cwl`` prints for it.

    A cwl_eval class spelling prints cwl_eval's name (with ``cwl_eval_names``, cwl_eval's
    mode, exactly as cwl_eval prints it: ``TBG-H@224 `` and ``U-L@1000 `` end in a space);
    any other spelling goes through the registry (:func:`cwlkit.measures.parse.parse_measure`)
    and prints its canonical name.
    """
    head = split_head(text)
    if head is None:
        raise ParamError(
            f"cannot read metric {text.strip()!r}: expected e.g. RBPCWLMetric(0.8) or RBP(p=0.8)"
        )
    name, args, cutoff = head
    cls = _cwl_class(name)
    if cls is not None:
        if cutoff is not None:
            raise ParamError(f"{cls.cwl_class} takes its cutoff as an argument, not '@{cutoff}'")
        metric, written = build(
            cls,
            args,
            None,
            text.strip(),
            positional=[fld for _, fld, _ in cls.cwl_params],
            keyword=lambda key: _keyword(cls, key),
            label=cls.cwl_class,
        )
        printed = metric.cwl_name(written)  # type: ignore[attr-defined]
        return metric, printed + (cls.cwl_name_tail if cwl_eval_names else "")
    if name == "CWLMetric":
        raise ParamError("CWLMetric() is cwl_eval's abstract base class, not a metric")
    try:
        metric = parse_measure(text)
    except UnknownMeasureError:
        known = [c.family for c in registry.entries()] + registry.anchor_names("cwl_eval")
        raise UnknownMeasureError(name, known) from None
    return metric, metric.name


def parse_cwl_metrics(text: str, *, cwl_eval_names: bool = False) -> list[tuple[Measure, str]]:
    """:func:`parse_cwl_metric` for a spelling that may hold a parameter grid
    (``RBPCWLMetric(0.1:0.9:0.2)``, ``RBP(p=0.1:0.9:0.2)``: one metric per value)."""
    from ..grid import parse_each

    def one(t: str) -> tuple[Measure, str]:
        return parse_cwl_metric(t, cwl_eval_names=cwl_eval_names)

    got = parse_each(text, one)
    return [one(text)] if got is None else got


def parse_cwl_syntax(text: str) -> list[Measure] | None:
    """cwl_eval's class spellings (``RBPCWLMetric(0.8)``) wherever a measure name is read
    (registered by :mod:`cwlkit.measures.cwl_syntax`); None for any other spelling."""
    head = split_head(text)
    if head is None or _cwl_class(head[0]) is None:
        return None
    return [parse_cwl_metric(text)[0]]


def _keyword(cls: type[CWLMetric], key: str) -> str | None:
    k = key.lower()
    for kw, fld, _ in cls.cwl_params:
        if k in (kw.lower(), fld.lower()):
            return fld
    starts = [fld for kw, fld, _ in cls.cwl_params if kw.lower().startswith(k)]
    return starts[0] if len(starts) == 1 else None


def read_metrics_file(
    path: str | Path, *, cwl_eval_names: bool = False
) -> list[tuple[Measure, str]]:
    """Read a metrics file: one metric per line, ``#`` comments and blank lines allowed
    (``cwl_eval_names``: see :func:`parse_cwl_metric`)."""
    from ...io.text import read_bytes

    data = read_bytes(path).decode("utf-8", errors="replace")
    out = []
    for i, line in enumerate(data.splitlines(), 1):
        s = line.split("#", 1)[0].strip()
        if not s:
            continue
        try:
            out.extend(parse_cwl_metrics(s, cwl_eval_names=cwl_eval_names))
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
