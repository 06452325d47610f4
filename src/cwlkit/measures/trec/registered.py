"""trec_eval's measures in the registry, under ir_measures' canonical names, generated from
the table :data:`.spec.MEASURES`.

Every value trec_eval prints has one canonical measure here (``map`` is ``AP``,
``ndcg_cut_10`` is ``nDCG@10``, ``recall_100`` is ``R@100``, ``set_map`` is ``SetAP``...):
one class per :class:`~.rows.Canonical` of the table, recording the trec_eval names of its
rows as its ``trec_eval`` anchor, computing exactly what trec_eval prints for a topic with the
rows' family functions. trec_eval's own spellings (``P.5,10``, ``ndcg_cut.10``,
``iprec_at_recall.0.1``, ``utility.2,-1,0,0``) parse into the same classes
(:func:`_trec_syntax`). The classes are this module's attributes (``registered.NDCG``).

Conventions (trec_eval 9.0.8 unless the evaluation asks for 10.0): qrels labels truncated to
integers; relevant means label >= ``rel``; negative labels are judged non-relevant; unjudged
documents are non-relevant; cutoffs past a run's end count the missing ranks as
non-relevant (``P@k`` divides by k). The ranking and score precision are the batch's.
"""

from __future__ import annotations

from typing import Any, cast

from ...errors import ParamError
from ..base import Measure, measure
from ..registry import register, register_syntax
from ._classes import NDCGBase, TrecBase
from .rows import Canonical, TrecMeasure, parse_params
from .spec import BY_NAME, MEASURES

__all__ = ["CLASSES", "NDCG", "TREC_CLASSES", "trec_eval_name"]

#: how a row's values combine over topics, as :attr:`Measure.aggregate` spells it
_AGGREGATE = {"gm": "gmean", "sum": "sum"}


def _make(spec: Canonical, rows: tuple[TrecMeasure, ...]) -> type[TrecBase]:
    """The registered class of ``spec``, printed by trec_eval under ``rows``' names."""
    name = spec.cls_name or spec.family
    body: dict[str, Any] = {
        "__module__": __name__,
        "__qualname__": name,
        "__doc__": spec.doc,
        "__annotations__": {p.name: p.type for p in spec.params},
        **{p.name: p.field() for p in spec.params},
        "family": spec.family,
        "aliases": spec.aliases,
        "presets": {n: dict(values) for n, values in spec.presets},
        "aggregate": _AGGREGATE.get(rows[0].agg, "mean"),
        "anchors": {"trec_eval": tuple(r.name for r in rows)},
        "trec_rows": rows,
    }
    made: type[TrecBase] = measure(type(name, (spec.base or TrecBase,), body))
    register(made)
    return made


def _generate() -> dict[str, type[TrecBase]]:
    """A class for every row that declares a canonical measure; by trec_eval name."""
    out: dict[str, type[TrecBase]] = {}
    for row in MEASURES:
        if row.measure is not None:
            rows = (row, *(r for r in MEASURES if r.of == row.name))
            cls = _make(row.measure, rows)
            out.update((r.name, cls) for r in rows)
    return out


#: trec_eval name -> the class that computes it
TREC_CLASSES: dict[str, type[TrecBase]] = _generate()
#: Python class name -> class (``NDCG``, ``RprecMult``)
CLASSES: dict[str, type[TrecBase]] = {c.__name__: c for c in TREC_CLASSES.values()}
#: nDCG, with its parameters' types (gdeval's report makes and reads it)
NDCG = cast("type[NDCGBase]", CLASSES["NDCG"])


def __getattr__(name: str) -> type[TrecBase]:
    """The generated classes as module attributes (``from .registered import RprecMult``)."""
    try:
        return CLASSES[name]
    except KeyError:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}") from None


def from_trec(name: str, text: str | None, values: tuple) -> list[Measure]:
    """The canonical measures for trec_eval's ``name[.text]`` with parsed ``values``."""
    return from_trec_row(BY_NAME[name], text, values)


def from_trec_row(row: TrecMeasure, text: str | None, values: tuple) -> list[Measure]:
    """The canonical measures of a row of trec_eval's table asked for as ``name[.text]``,
    ``values`` the parameters parsed from ``text`` (the row's defaults without it)."""
    return TREC_CLASSES[row.name].from_trec(row, text, values)


@register_syntax
def _trec_syntax(text: str) -> list[Measure] | None:
    """trec_eval spellings: ``name.params`` of any trec_eval measure (``P.5,10``,
    ``ndcg_cut.10``), or a bare trec_eval name that does not spell the same measure's
    canonical family (``map_cut`` and ``ndcg_cut`` give every default cutoff, as
    ``trec_eval -m`` does; ``rbp`` is trec_eval's RBP_trec, while ``RBP`` is the C/W/L
    RBP)."""
    name, dot, params = text.strip().partition(".")
    if name not in TREC_CLASSES:
        printed = _printed_name(text.strip())
        return None if printed is None else _trec_syntax(printed)
    cls = TREC_CLASSES[name]
    if not dot and name.lower() in {n.lower() for n in (cls.family, *cls.aliases)}:
        return None  # the canonical family of that name (``P`` is P@10, not every cutoff)
    if dot and not params:
        raise ParamError(f"improper measure in parameter '{text}'")
    m = BY_NAME[name]
    values = parse_params(m, params) if dot else m.default
    return from_trec(name, params if dot else None, values)


def _printed_name(text: str) -> str | None:
    """A name as trec_eval prints it, ``base_params`` (``P_10``, ``ndcg_cut_10``,
    ``iprec_at_recall_0.10``, ``Rprec_mult_0.20``, ``utility_2,-1,0,0``), spelled as its
    command line would ask for it (``P.10``); None for anything else."""
    cut = len(text)
    while (cut := text.rfind("_", 0, cut)) > 0:
        base, rest = text[:cut], text[cut + 1 :]
        if base in TREC_CLASSES and BY_NAME[base].default and rest[:1] in "-0123456789.":
            return f"{base}.{rest}" if rest else None
    return None


def trec_eval_name(m: Measure) -> str | None:
    """The name trec_eval prints for the canonical measure ``m`` (``P@10`` -> ``P_10``,
    ``AP`` -> ``map``, ``IPrec@0.1`` -> ``iprec_at_recall_0.10``, ``NumQ`` -> ``num_q``,
    ``Utility(a=2)`` -> ``utility_2,-1,0,0``), or None when trec_eval has no such value
    (``RR@10``, ``nDCG(dcg='exp-log2')@10``, the other families).

    Cutoffs print as trec_eval prints them (``%ld``, or ``%3.2f`` for real ones); other
    parameters with ``%g`` (trec_eval prints them as typed: ``utility.2.0,-1`` prints
    ``utility_2.0,-1``, which a measure object no longer knows).
    """
    from ..judged import NumQ

    if isinstance(m, NumQ):
        return "num_q"
    if not isinstance(m, TrecBase) or not m.in_trec_eval():
        return None
    row = m.trec_row()
    if row.kind == "long_cut":
        return f"{row.name}_{m.trec_params()[0]}"
    if row.kind == "double_cut":
        return f"{row.name}_{m.trec_params()[0]:3.2f}"
    text = m.trec_text()
    return row.name if text is None else f"{row.name}_{text}"
