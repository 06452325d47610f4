"""The shape of a row of trec_eval's table (:mod:`.spec`) and of the canonical measure it
declares, and trec_eval's reading of a row's parameters (``-m name.params``). Imports nothing
of its package, so that the table, the measure classes and the registry can all use it.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ...errors import ParamError
from ..base import param


@dataclass(frozen=True)
class Param:
    """A parameter of a canonical measure: a field of its class.

    Attributes
    ----------
    name, type : str
        The field's name and annotation (``"int | None"``).
    default : object
        Its default (``dataclasses.MISSING``: required).
    doc : str
        One line, listed by ``cwlkit measures``.
    gt, ge, lt, le, integer, choices
        Its domain, checked on construction (see :func:`~cwlkit.measures.base.param`).
    """

    name: str
    type: str
    default: Any
    doc: str
    gt: float | None = None
    ge: float | None = None
    lt: float | None = None
    le: float | None = None
    integer: bool = False
    choices: tuple | None = None

    def field(self) -> Any:
        """A new dataclass field declaring this parameter."""
        return param(
            self.default,
            gt=self.gt,
            ge=self.ge,
            lt=self.lt,
            le=self.le,
            integer=self.integer,
            choices=self.choices,
            doc=self.doc,
        )


def cutoff(default: int | None = 10) -> Param:
    """The integer cutoff ``k`` (spelled ``@k``); None: optional (the whole ranking)."""
    if default is None:
        return Param("k", "int | None", None, "cutoff (None: whole ranking)", ge=1, integer=True)
    return Param("k", "int", default, "cutoff", ge=1, integer=True)


REL = Param("rel", "float", 1.0, "smallest label counted relevant")
GAINS = Param("gains", "str | None", None, "trec_eval gain table 'level=gain,...'")
#: ir_measures' ``judged_only``: the measure reads the ranking condensed to its judged documents
JUDGED = Param(
    "judged_only",
    "bool",
    False,
    "drop the unjudged documents (and labels <= -1) of the ranking before the measure and "
    "its cutoff (ir_measures' judged_only; trec_eval's -J for this measure only)",
    choices=(False, True),
)


@dataclass(frozen=True)
class Canonical:
    """The canonical measure (registry class) of a trec_eval row.

    Attributes
    ----------
    family : str
        Canonical family name (``AP``, ``nDCG``).
    doc : str
        The class docstring (its first paragraph is the ``cwlkit measures`` summary).
    params : tuple of Param
        The class's fields in order (``rel`` when it takes one, the cutoff ``k`` last).
    aliases : tuple of str
        Other names of the family.
    base : type, optional
        The class it derives from: a behaviour of :mod:`._classes` (nDCG's gain table,
        utility's coefficients...); None: :class:`~._classes.TrecBase`.
    cls_name : str
        The Python class name, when not ``family``.
    presets : tuple of (str, tuple of (str, object))
        Names that mean the family with some parameters set (``SetRelP``:
        ``relative=True``): :attr:`Measure.presets <cwlkit.measures.base.Measure.presets>`.
    """

    family: str
    doc: str
    params: tuple[Param, ...] = (REL,)
    aliases: tuple[str, ...] = ()
    base: type | None = None  # (a subclass of _classes.TrecBase)
    cls_name: str = ""
    presets: tuple[tuple[str, tuple[tuple[str, Any], ...]], ...] = ()


@dataclass(frozen=True)
class TrecMeasure:
    """One trec_eval measure (or measure family with cutoffs).

    Attributes
    ----------
    name : str
        trec_eval's name (``P``, ``ndcg_cut``).
    compute : callable or None
        ``compute(ctx, params) -> list of float64[T]`` (one per printed name); None for
        ``runid`` and ``num_q``.
    doc : str
        One-paragraph definition (``-h -m name``).
    kind : str
        Parameter kind (see module docstring).
    default : tuple
        Default parameters.
    agg : str
        ``mean``, ``sum``, ``gm``, ``text``, ``runid`` or ``num_q``.
    integer : bool
        Printed with ``%ld``.
    versions : tuple of int
        trec_eval versions that register it.
    measure : Canonical or None
        The canonical measure it declares; None: printed by another row's (``of``), or by
        none (``runid``, ``relstring``; ``num_q`` is :class:`~cwlkit.measures.judged.NumQ`).
    of : str
        The row whose canonical measure also prints this one (``map_cut``: ``map``'s ``AP``).
    scalar : callable or None
        ``scalar(one, params) -> list of float``: ``compute`` on one topic (a
        :class:`.one_topic.One`), the same operations in the same order, for the evaluation of a
        few topics without numpy arrays; None: the row has no such form.
    fixed : tuple of (str, object)
        The parameters of that measure that select this row (``set_relative_P``:
        ``relative=True``).
    """

    name: str
    compute: Callable | None
    doc: str
    kind: str = "none"
    default: tuple = ()
    agg: str = "mean"
    integer: bool = False
    versions: tuple[int, ...] = (9, 10)
    measure: Canonical | None = None
    of: str = ""
    fixed: tuple[tuple[str, Any], ...] = ()
    scalar: Callable | None = None


def _atof(text: str) -> float:
    """C ``atof`` (glibc's ``strtod``): the longest numeric prefix, 0 if none; ``nan``,
    ``inf`` and ``infinity`` (any case, signed) and hexadecimal numbers (``0x1.8p1``) are
    numbers to it too."""
    m = re.match(r"\s*([+-]?)(infinity|inf|nan)", text, re.IGNORECASE)
    if m:
        return float(m.group(1) + m.group(2))
    m = re.match(r"\s*[+-]?0[xX]([0-9a-fA-F]+\.?[0-9a-fA-F]*|\.[0-9a-fA-F]+)([pP][+-]?\d+)?", text)
    if m:
        return float.fromhex(m.group(0).strip())
    m = re.match(r"\s*[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?", text)
    return float(m.group(0)) if m else 0.0


def _c_qsort(values: list[float]) -> list[float]:
    """``values`` in the order glibc's ``qsort`` (a merge sort, left first on ties) leaves
    them with trec_eval's ``comp_float`` (``<``, ``>``, else equal): NaN compares equal to
    everything, so a NaN stays where the merges leave it."""
    if len(values) <= 1:
        return list(values)
    n1 = len(values) // 2
    a, b = _c_qsort(values[:n1]), _c_qsort(values[n1:])
    out: list[float] = []
    i = j = 0
    while i < len(a) and j < len(b):
        if not a[i] > b[j]:  # (comp_float <= 0: the left one first)
            out.append(a[i])
            i += 1
        else:
            out.append(b[j])
            j += 1
    return out + a[i:] + b[j:]


def c_cutoff_levels(params: tuple[float, ...]) -> tuple[float, ...]:
    """The recall levels trec_eval's ``iprec_at_recall`` computes for real cutoffs ``params``
    (in its order): a level that is not finite becomes ``LONG_MIN`` once cast to a rank
    cutoff, which stops its loop there, so that level and every one before it get the
    interpolated precision left at the end of the loop, the value of level 0."""
    last = max((i for i, x in enumerate(params) if not math.isfinite(x)), default=-1)
    return tuple(0.0 if i <= last else x for i, x in enumerate(params))


def _atol(text: str) -> int:
    """C ``atol``: the longest integer prefix, 0 if none."""
    m = re.match(r"\s*[+-]?\d+", text)
    return int(m.group(0)) if m else 0


def parse_params(m: TrecMeasure, text: str):
    """Parse ``text`` (what follows the ``.`` of ``-m name.params``) as trec_eval does."""
    if m.kind == "long_cut":
        bad = next((t for t in text.split(",") if not re.match(r"\s*[+-]?\d", t)), None)
        if bad is not None:
            raise ParamError(
                f"-m {m.name}.{text}: {bad!r} is not a cutoff "
                f"(expected positive integers, e.g. {m.name}.5,10)"
            )
        vals = sorted(_atol(t) for t in text.split(","))
        if vals[0] <= 0:
            raise ParamError(
                f"-m {m.name}.{text}: cutoffs must be positive "
                "(trec_eval: Negative cutoff detected)"
            )
        if any(a == b for a, b in zip(vals, vals[1:], strict=False)):
            raise ParamError(f"-m {m.name}.{text}: duplicate cutoffs")
        return tuple(vals)
    if m.kind == "double_cut":
        reals = _c_qsort([_atof(t) for t in text.split(",")])
        if any(a == b for a, b in zip(reals, reals[1:], strict=False)):
            raise ParamError(f"-m {m.name}.{text}: duplicate cutoffs")
        return tuple(reals)
    if m.kind == "double_params":
        return tuple(_atof(t) for t in text.split(","))
    if m.kind == "pairs":
        pairs = []
        for item in text.split(","):
            if item.count("=") != 1 or not item.split("=")[0]:
                raise ParamError(
                    f"-m {m.name}.{text}: malformed pair parameters (expected level=value,...)"
                )
            k, v = item.split("=")
            value = _atof(v)
            if not math.isfinite(value):  # (atof reads nan and inf: no gain or p is either)
                raise ParamError(f"-m {m.name}.{text}: {v!r} is not a finite number")
            pairs.append((k, value))
        return tuple(pairs)
    return ()
