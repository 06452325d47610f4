"""One table of every measure family.

Modules listed in ``_MEASURE_MODULES`` register their classes with :func:`register` when
imported; lookups import them on first use (never at ``import cwlkit``). Families are looked
up case-insensitively. Extra syntaxes (trec_eval's ``P.5,10``) are added with
:func:`register_syntax`.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import TYPE_CHECKING

from ..errors import UnknownMeasureError

if TYPE_CHECKING:  # pragma: no cover
    from .base import Measure

_MEASURE_MODULES: list[str] = [
    "cwlkit.measures.trec",
    "cwlkit.measures.classic",
    "cwlkit.measures.err",
    "cwlkit.measures.cwl",
]

_FAMILIES: dict[str, type[Measure]] = {}
_SYNTAXES: list[Callable[[str], list[Measure] | None]] = []
_loaded = False


def register(cls: type[Measure] | None = None, *, override: bool = False):
    """Class decorator: make ``cls`` reachable under its family name and aliases.

    The first registration of a name wins, so the order of ``_MEASURE_MODULES`` decides
    which family owns a name claimed by two modules; ``@register(override=True)`` takes the
    names over whatever was registered before (the trec_eval measures own ``P``, ``AP``...,
    whichever module was imported first).
    """

    def add(c: type[Measure]) -> type[Measure]:
        for name in (c.family, *c.aliases):
            if override:
                _FAMILIES[name.lower()] = c
            else:
                _FAMILIES.setdefault(name.lower(), c)
        return c

    return add if cls is None else add(cls)


def register_syntax(
    fn: Callable[[str], list[Measure] | None],
) -> Callable[[str], list[Measure] | None]:
    """Add a parser for another spelling; it returns measures, or None if not its syntax."""
    _SYNTAXES.append(fn)
    return fn


def _load() -> None:
    global _loaded
    if _loaded:
        return
    _loaded = True
    for mod in _MEASURE_MODULES:
        try:
            importlib.import_module(mod)
        except ModuleNotFoundError as exc:  # a module still being written
            if exc.name != mod:
                raise


def lookup(family: str) -> type[Measure]:
    """The class registered under ``family`` (case-insensitive)."""
    _load()
    cls = _FAMILIES.get(family.lower())
    if cls is None:
        raise UnknownMeasureError(family, sorted({c.family for c in _FAMILIES.values()}))
    return cls


def families() -> dict[str, type[Measure]]:
    """Every registered name (lower case) and its class."""
    _load()
    return dict(_FAMILIES)


def syntaxes() -> list[Callable[[str], list[Measure] | None]]:
    """The extra syntaxes, in registration order."""
    _load()
    return list(_SYNTAXES)
