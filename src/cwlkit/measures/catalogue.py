"""The registry as data: every measure with its parameters, aggregation and aliases.

``cwlkit.list_measures()`` and ``cwlkit measures`` print this; docs/measures.md is checked
against it by the tests.
"""

from __future__ import annotations

from typing import Any

from ..errors import ParamError, UnknownMeasureError
from ..support.checks import refuse
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
    if not isinstance(name, str):
        raise refuse("name", "a measure's name (a str) or None", name)
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
        names += [
            f"{n} = {','.join(f'{k}={v}' for k, v in values.items())}"
            for n, values in e.get("presets", {}).items()
        ]
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
    out += ["", *_ir_measures_section(), "", *_ranx_section()]
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


def _ir_measures_section() -> list[str]:
    presets = [
        f"`{name}` is `{cls(**values).name}`"
        for cls in registry.entries()
        for name, values in cls.presets.items()
    ]
    judged = sorted(
        cls.family for cls in registry.entries() if "judged_only" in {p.name for p in cls.params()}
    )
    return [
        "## ir_measures",
        "",
        "ir_measures' spellings parse to the measure ir_measures computes for them",
        "(`python benchmarks/ir_measures_coverage.py` tries 153 spellings of its 51 names on",
        "TREC Web 2012: 130 parse, and of the 119 that both compute, 105 give ir_measures'",
        "values per topic to 1e-9; tests/test_ir_measures_names.py pins this).",
        "",
        "- `judged_only=True` (" + ", ".join(f"`{f}`" for f in judged) + "): the measure's",
        "  ranking condensed to its judged documents before the measure and its cutoff",
        "  (`P(judged_only=True)@10` reads the first 10 judged documents), after the",
        "  evaluation's `depth`. Unjudged means not in the qrels or labelled -1 or less",
        "  (trec_eval's `-J`, pytrec_eval's flag); the intent-aware measures keep every",
        "  document the qrels list (ir_measures' pyndeval provider).",
        "- " + "; ".join(presets) + "; `NumRet(rel=r)` is `NumRelRet(rel=r)`.",
        "- `nDCG(gains={0:0,1:1,2:3})` is `nDCG(gains='0=0,1=1,2=3')`, with a cutoff too",
        "  (`ndcg_cut` on the relabelled qrels, as ir_measures computes it).",
        "- `INST(T=2,max_rel=4)`, `INSQ`, `BPM(...)@K`, `SDCG(...)@k`, `NERR8`..`NERR11` with",
        "  `max_rel` are `CWL_scaled(metric=...,max_rel=...)`: cwl_eval on labels scaled to",
        "  [0, 1] over its fixed depth 1000. Without `max_rel` the name is cwlkit's C/W/L",
        "  metric on the evaluation's gains.",
        "- `α_nDCG`, `α_DCG` are `alpha_nDCG`, `alpha_DCG`.",
        "",
        "Refused: `Accuracy` (no cwlkit measure), the intent-aware measures without a",
        "cutoff and `RBP@k` (ir_measures 0.4.3 computes none of them either).",
        "",
        "Known differences (the same measure; ir_measures' provider differs):",
        "",
        "- `Compat`: the compat provider breaks score ties by document id ascending and puts",
        "  unretrieved documents at score 0 in the ideal ranking; cwlkit ranks ties as",
        "  trec_eval does.",
        "- `ERR@k`, `nDCG(dcg='exp-log2')@k`: gdeval.pl prints 5 decimals.",
        "- The intent-aware measures (`alpha_nDCG`, `NRBP`, `AP_IA`...) on runs with score",
        "  ties: ndeval orders tied documents its own way; cwlkit as trec_eval does.",
        "- `RR@k` (its msmarco provider) and the `max_rel` C/W/L spellings (`INST(T=2,",
        "  max_rel=4)`, `BPM(...)@K`, `SDCG`, `NERR8`..`NERR11`: its cwl_eval provider) on",
        "  runs with score ties: ir_measures keeps tied documents in the order it is given",
        "  them (the file's); cwlkit breaks ties as trec_eval does (docno descending).",
        "  `order='file'` (with `trec_version=10`: double-precision scores) gives ir_measures'",
        "  values: a run of `a` then `b`, both scored 1, `a` relevant: ir_measures' `RR@10` is",
        "  1, cwlkit's 0.5 (`b` ranks first), 1 with `order='file'`. (`RR` without a cutoff",
        "  is pytrec_eval's, tie-broken as trec_eval: the same as cwlkit's.)",
        "- ir_measures 0.4.3 fails on the intent-aware measures with `judged_only=True` (a",
        "  TypeError in its pyndeval provider); cwlkit's agree with pyndeval on the run",
        "  without the documents the qrels do not list.",
    ]


#: numpydoc section headings: a measure's description in the catalogue stops at the first
_SECTIONS = ("Parameters", "Returns", "Notes", "References", "Examples", "See Also")


def catalogue_markdown() -> str:
    """The documentation site's measure catalogue (Markdown), made from the registry.

    One section per canonical measure, in :func:`list_measures` order: its definition (the
    class docstring up to its first numpydoc section: the formula and its conventions), the
    aggregation over topics, a table of its parameters (type, default, range, meaning), its
    aliases and presets, and the names the anchor tools print for it. The docs site's hook
    (docs/hooks.py) writes it at build time, so it cannot fall behind the registry.
    """
    out = [
        "# Measure catalogue",
        "",
        "Every measure cwlkit knows, made from the measure registry when this site is built",
        "(the same entries as `cwlkit measures` and `cwlkit.list_measures()`). A measure is",
        "named by its family and its parameters, `Family(name=value,...)@k`;",
        "[Measures](measures.md) maps the anchor tools' printed names to these.",
        "",
    ]
    for cls in registry.entries():
        e = cls.describe()
        out += [f"## {e['name']}", "", *_description(cls), ""]
        out += [f"**Aggregate over topics:** {_AGGREGATES[e['aggregate']]}.", ""]
        if e["params"]:
            out += ["| parameter | type | default | range | meaning |", "|---|---|---|---|---|"]
            for p in e["params"]:
                dom = f"`{p['domain']}`" if p["domain"] else "-"
                kind = p["type"].replace(" | ", " or ")
                cells = [f"`{p['name']}`", f"`{kind}`", f"`{p['default']!r}`", dom]
                out.append("| " + " | ".join([*cells, _cell(p["doc"]) or "-"]) + " |")
            out.append("")
        else:
            out += ["No parameters.", ""]
        if e["aliases"]:
            out += ["**Aliases:** " + ", ".join(f"`{a}`" for a in e["aliases"]) + ".", ""]
        for name, values in e.get("presets", {}).items():
            spelled = ", ".join(f"{k}={v!r}" for k, v in values.items())
            out += [f"**Preset:** `{name}` is `{e['name']}` with {spelled}.", ""]
        if e["anchors"]:
            anchors = "; ".join(
                f"{tool}: " + ", ".join(f"`{n}`" for n in names)
                for tool, names in e["anchors"].items()
            )
            out += [f"**Anchors:** {anchors}.", ""]
    return "\n".join(out).rstrip() + "\n"


_AGGREGATES = {
    "mean": "arithmetic mean",
    "gmean": "geometric mean",
    "sum": "sum",
}


def _description(cls: type) -> list[str]:
    """A measure class's docstring up to its first numpydoc section, as Markdown lines."""
    import inspect

    lines = (inspect.getdoc(cls) or "").splitlines()
    keep: list[str] = []
    for i, line in enumerate(lines):
        nxt = lines[i + 1] if i + 1 < len(lines) else ""
        if line.strip() in _SECTIONS and nxt.strip().startswith("---"):
            break
        keep.append(line)
    return [line.rstrip() for line in keep] or [""]


def _ranx_section() -> list[str]:
    return [
        "## ranx",
        "",
        "ranx's names (`ranx.metrics`, 0.3) resolve to the cwlkit measure with the same",
        "definition (relevant: a label >= 1, ranx's `rel_lvl=1`):",
        "",
        "| ranx | cwlkit measure |",
        "|---|---|",
        "| `hit_rate@k` | `Success@k` |",
        "| `mrr`, `mrr@k` | `RR`, `RR@k` |",
        "| `f1` | `F` (P and R of the whole run: trec_eval's `set_F`) |",
        "| `ndcg_burges@k` | `nDCG(dcg='exp-log2')@k` (gain 2^g - 1: gdeval.pl's nDCG) |",
        "",
        "Refused, with the measure to ask for: `f1@k` (ranx's precision is hits / k even past",
        "the run's end, `F@k`'s is hits / documents retrieved up to k: the same on runs of at",
        "least k documents), `hit_rate` and `ndcg_burges` without a cutoff (`Success@k` and",
        "`nDCG(dcg='exp-log2')@k` with k at least the runs' length read the whole run). ranx",
        "orders documents with tied scores its own way (mostly as given); cwlkit breaks ties",
        "as trec_eval does (on three Web 2012 runs, 1000 documents a topic,",
        "`nDCG(dcg='exp-log2')@1000` differs from ranx's `ndcg_burges` by up to 6e-5 on 6 to",
        "12 of 50 topics, through tied scores; the names above agree to 1e-12 on every topic).",
    ]
