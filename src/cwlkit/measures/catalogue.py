"""The registry as data: every measure with its parameters, aggregation and aliases.

``cwlkit.list_measures()`` and ``cwlkit measures`` print this; docs/measures.md is checked
against it by the tests.
"""

from __future__ import annotations

from typing import Any

from ..errors import ParamError, UnknownMeasureError
from . import registry


def list_measures(name: str | None = None) -> list[dict[str, Any]]:
    """Describe every registered measure (or the one ``name`` reaches).

    Each entry has ``name`` (canonical family), ``summary`` (one line), ``params`` (name,
    type, default, domain, doc), ``aggregate`` (``mean``, ``sum`` or ``gmean``), ``aliases``
    and ``anchors`` (the names trec_eval, cwl_eval, gdeval and LETOR give it).

    Examples
    --------
    >>> import cwlkit
    >>> [m["name"] for m in cwlkit.list_measures("map")]
    ['AP']
    """
    if name is None:
        return [cls.describe() for cls in registry.entries()]
    from .parse import parse_measures

    try:
        classes = [type(m) for m in parse_measures(name)]
    except UnknownMeasureError:
        raise
    except ParamError:  # a family with a required parameter, named bare ("alpha_nDCG")
        from .parse import split_head

        head = split_head(name)
        if head is None:
            raise
        classes = [registry.lookup(head[0])]
    return [classes[0].describe()]


def format_catalogue(entries: list[dict[str, Any]]) -> str:
    """The text ``cwlkit measures`` prints: one block per measure."""
    out = []
    for e in entries:
        out.append(f"{e['name']}  ({e['aggregate']})  {e['summary']}")
        for p in e["params"]:
            dom = f" in {p['domain']}" if p["domain"] else ""
            out.append(f"    {p['name']} = {p['default']!r}{dom}: {p['doc']}")
        names = list(e["aliases"]) + [f"{a}: {', '.join(n)}" for a, n in e["anchors"].items()]
        if names:
            out.append(f"    also: {'; '.join(names)}")
    return "\n".join(out) + "\n"


def markdown() -> str:
    """docs/measures.md: every canonical measure, and what each anchor prints for it."""
    out = [
        "# Measures",
        "",
        "Generated from the measure registry by `cwlkit measures --markdown` (a test checks",
        "that this file is current). A name means one measure everywhere: the API, `cwlkit",
        "evaluate`, `compare`, `correlate`, `fit` and `cwl -M` all resolve names here. Where",
        "the anchor tools print different measures under one name, cwlkit has two measures:",
        "the shared name is trec_eval's / ir_measures' (`P@10`, `AP`, `RR`, `nDCG@10`), the",
        "other has its own name (`P_cwl@10`, `AP_cwl`, `RR_cwl`, `nDCG(dcg='exp-log2')@10`,",
        "`LETOR_NDCG@10`, `RBP_trec`).",
        "",
        "## Canonical measures",
        "",
        "| measure | aggregate | parameters (default) | definition |",
        "|---|---|---|---|",
    ]
    for e in list_measures():
        params = ", ".join(f"`{p['name']}`={p['default']!r}" for p in e["params"]) or "-"
        out.append(f"| `{e['name']}` | {e['aggregate']} | {params} | {_cell(e['summary'])} |")
    out += ["", *_trec_section(), "", *_cwl_section(), "", *_other_sections()]
    return "\n".join(out) + "\n"


def _cell(text: str) -> str:
    return text.replace("|", "\\|")


def _trec_section() -> list[str]:
    from .trec.registered import TREC_CLASSES, from_trec
    from .trec.select import printed_names
    from .trec.spec import MEASURES

    out = [
        "## trec_eval",
        "",
        "What `cwlkit trec_eval` (and trec_eval) prints, and the measure that computes it.",
        "",
        "| trec_eval prints | cwlkit measure |",
        "|---|---|",
    ]
    for row in MEASURES:
        if row.name not in TREC_CLASSES:
            note = {"runid": "(the run's tag)", "num_q": "(number of topics)"}.get(
                row.name, "(text, trec_eval only)"
            )
            out.append(f"| `{row.name}` | {note} |")
            continue
        printed = printed_names(row, row.default, None)
        canon = [m.name for m in from_trec(row.name, None, row.default)]
        if row.kind in ("long_cut", "double_cut") and len(printed) > 1:
            out.append(f"| `{printed[0]}` ... `{printed[-1]}` | `{canon[0]}` ... `{canon[-1]}` |")
        else:
            out.append(f"| `{printed[0]}` | `{canon[0]}` |")
    return out


def _cwl_section() -> list[str]:
    from .cwl import CWLMetric

    out = [
        "## cwl_eval",
        "",
        "cwl_eval's metric classes (as written in a metrics file), what cwl_eval and",
        "`cwlkit cwl` print for them with their default parameters, and the canonical name.",
        "",
        "| cwl_eval class | prints | cwlkit measure |",
        "|---|---|---|",
    ]
    for cls in registry.entries():
        if issubclass(cls, CWLMetric) and cls.cwl_class:
            kws = [(kw, fld) for kw, fld, _ in cls.cwl_params]
            sig = ", ".join(kw for kw, _ in kws)
            parts = ",".join(f"{fld}={{{kw}}}" for kw, fld in kws if fld != "k")
            canon = cls.family + (f"({parts})" if parts else "")
            canon += "".join(f"@{{{kw}}}" for kw, fld in kws if fld == "k")
            prints = cls.cwl_format or cls.family
            out.append(f"| `{cls.cwl_class}({sig})` | `{prints}` | `{canon}` |")
    return out


def _other_sections() -> list[str]:
    out = [
        "## gdeval.pl",
        "",
        "| gdeval.pl prints | cwlkit measure |",
        "|---|---|",
        "| `ndcg@K` | `nDCG(dcg='exp-log2')@K` |",
        "| `err@K` | `ERR@K` (`max_grade=4`, gdeval's) |",
    ]
    letor = [c for c in registry.entries() if "letor" in c.anchors]
    if letor:
        out += ["", "## LETOR", "", "| LETOR prints | cwlkit measure |", "|---|---|"]
        for c in letor:
            out.append(f"| {', '.join(f'`{n}`' for n in c.anchors['letor'])} | `{c.family}` |")
    return out
