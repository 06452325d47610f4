"""The one table of measures.

Every measure is a :class:`~cwlkit.measures.base.Measure` subclass registered here with
:func:`register`: its canonical family name (``P``, ``AP``, ``INST``), its aliases, the names
that preset some of its parameters (ir_measures' ``SetRelP``: ``SetP(relative=True)``), and the
names each anchor tool gives it (``anchors``: trec_eval's ``map``, cwl_eval's
``APCWLMetric``, LETOR's ``MAP``). A name (case-insensitive) reaches exactly one class:
registering a name twice is an error, so no import order can change what a name means.

Anchors spell measures in their own grammars (trec_eval's ``P.5,10``, cwl_eval's
``RBPCWLMetric(0.8)``); those syntaxes are registered with :func:`register_syntax` and map
every spelling onto a registered class. The modules in ``_MEASURE_MODULES`` are imported on
first lookup (never at ``import cwlkit``).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ..errors import UnknownMeasureError

if TYPE_CHECKING:  # pragma: no cover
    from .base import Measure

_MEASURE_MODULES: list[str] = [
    "cwlkit.measures.trec",
    "cwlkit.measures.classic",
    "cwlkit.measures.err",
    "cwlkit.measures.cwl",
    "cwlkit.measures.judged",
    "cwlkit.measures.compat",
    "cwlkit.measures.cwl_scaled",
    "cwlkit.measures.letor_measures",
    "cwlkit.measures.rbp_eval",
    "cwlkit.measures.diversity",
]

#: the anchors whose names the table records
ANCHORS = ("trec_eval", "cwl_eval", "gdeval", "letor", "ir_measures", "rbp_eval")

_FAMILIES: dict[str, type[Measure]] = {}
#: a preset name (lower case) -> the parameters it sets (see ``Measure.presets``)
_PRESETS: dict[str, dict[str, Any]] = {}
_ANCHOR_NAMES: dict[tuple[str, str], type[Measure]] = {}
_SYNTAXES: list[Callable[[str], list[Measure] | None]] = []
#: the modules that register syntaxes (imported before any spelling is parsed)
_SYNTAX_MODULES = (
    "cwlkit.measures.trec",
    "cwlkit.measures.cwl_syntax",
    "cwlkit.measures.ir_measures_syntax",
    "cwlkit.measures.ranx_syntax",
)
_next = 0  # index in _MEASURE_MODULES of the next module to import


def register(cls: type[Measure]) -> type[Measure]:
    """Class decorator: make ``cls`` reachable under its family name and aliases.

    Raises
    ------
    ValueError
        When a name (case-insensitive) already belongs to another class: one name, one
        measure.
    """
    for name in (cls.family, *cls.aliases, *cls.presets):
        key = name.lower()
        other = _FAMILIES.get(key)
        if other is not None and other is not cls:
            raise ValueError(
                f"measure name {name!r} of {cls.__name__} is taken by {other.__name__}"
            )
        _FAMILIES[key] = cls
    for name, values in cls.presets.items():
        _PRESETS[name.lower()] = dict(values)
    for anchor, names in cls.anchors.items():
        if anchor not in ANCHORS:
            raise ValueError(f"{cls.__name__}: unknown anchor {anchor!r}")
        for name in names:
            _ANCHOR_NAMES.setdefault((anchor, name.lower()), cls)
    return cls


def register_syntax(
    fn: Callable[[str], list[Measure] | None],
) -> Callable[[str], list[Measure] | None]:
    """Add a parser for an anchor's spelling; it returns measures, or None if not its syntax."""
    _SYNTAXES.append(fn)
    return fn


def _load(family: str | None = None) -> None:
    """Import the measure modules in order: all of them, or only until one registers
    ``family`` (lower case). A name belongs to one class whatever the import order (a taken
    name raises), so a name found before every module is imported means what it means after.
    """
    global _next
    while _next < len(_MEASURE_MODULES) and (family is None or family not in _FAMILIES):
        _next += 1
        importlib.import_module(_MEASURE_MODULES[_next - 1])


def lookup(family: str) -> type[Measure]:
    """The class registered under ``family`` or an alias (case-insensitive)."""
    _load(family.lower())
    cls = _FAMILIES.get(family.lower())
    if cls is None:
        _load()
        raise UnknownMeasureError(family, sorted({c.family for c in _FAMILIES.values()}))
    return cls


def preset(name: str) -> dict[str, Any]:
    """The parameters the name ``name`` sets (``SetRelP``: ``{"relative": True}``); ``{}``
    for a family name or an alias."""
    _load(name.lower())
    return dict(_PRESETS.get(name.lower(), {}))


def lookup_anchor(anchor: str, name: str) -> type[Measure] | None:
    """The class an anchor calls ``name`` (``lookup_anchor("cwl_eval", "RBPCWLMetric")``)."""
    _load()
    return _ANCHOR_NAMES.get((anchor, name.lower()))


def anchor_names(anchor: str) -> list[str]:
    """Every name recorded for ``anchor`` (for suggestions)."""
    _load()
    seen = {c for (a, _), c in _ANCHOR_NAMES.items() if a == anchor}
    return sorted({n for c in seen for n in c.anchors.get(anchor, ())})


def families() -> dict[str, type[Measure]]:
    """Every registered name (lower case) and its class."""
    _load()
    return dict(_FAMILIES)


def entries() -> list[type[Measure]]:
    """Every registered class once, sorted by family name (case-insensitive)."""
    _load()
    return sorted(set(_FAMILIES.values()), key=lambda c: (c.family.lower(), c.family))


def syntaxes() -> list[Callable[[str], list[Measure] | None]]:
    """The extra syntaxes, in registration order."""
    for mod in _SYNTAX_MODULES:
        importlib.import_module(mod)
    return list(_SYNTAXES)


#: The headline measures: what ``cwlkit evaluate``, ``compare`` and ``report`` (and
#: :func:`cwlkit.report`) compute when no measure is named. Average precision, nDCG@10
#: (graded gains, 2^label - 1), precision at 10 and the reciprocal rank of the first
#: relevant document: the four a TREC-style results table most often reports, covering
#: recall-oriented (AP), graded top-heavy (nDCG@10), shallow binary (P@10) and first-hit
#: (RR) views of a ranking.
HEADLINE_MEASURES = ("AP", "nDCG@10", "P@10", "RR")
