"""The Measure base class and declarative parameters.

A measure is an immutable dataclass (declared with :func:`measure`): its fields are its
parameters, validated on construction, and its canonical name is derived from them
(``FAMILY(p=v,...)@k``, defaults omitted). A field named ``k`` is the cutoff and is spelled
``@k``.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, ClassVar, NamedTuple, TypeVar, dataclass_transform

import numpy as np

from ..errors import ParamError

if TYPE_CHECKING:  # pragma: no cover
    from ..core.batch import RankingBatch


def param(
    default: Any = dataclasses.MISSING,
    *,
    gt: float | None = None,
    ge: float | None = None,
    lt: float | None = None,
    le: float | None = None,
    integer: bool = False,
    choices: tuple[Any, ...] | None = None,
    doc: str = "",
    infinite: bool = False,
) -> Any:
    """Declare a measure parameter with its domain (checked in ``__post_init__``): a number
    is finite unless ``infinite`` (then ``+inf`` is allowed where no upper bound says no)."""
    meta = {
        "gt": gt,
        "ge": ge,
        "lt": lt,
        "le": le,
        "integer": integer,
        "choices": choices,
        "doc": doc,
        "infinite": infinite,
    }
    return dataclasses.field(default=default, metadata=meta)


def format_value(v: Any) -> str:
    """Shortest faithful spelling of a parameter value: ``2`` not ``2.0``, ``0.8``."""
    if isinstance(v, bool):
        return str(v)
    if isinstance(v, str):
        return repr(v)
    if isinstance(v, float):
        if math.isfinite(v) and v == int(v) and abs(v) < 1e15:
            return str(int(v))
        return repr(v)
    return str(v)


def _domain(meta: Mapping[str, Any]) -> str:
    lo = (
        f"({meta['gt']}"
        if meta["gt"] is not None
        else (f"[{meta['ge']}" if meta["ge"] is not None else "(-inf")
    )
    hi = (
        f"{meta['lt']})"
        if meta["lt"] is not None
        else (f"{meta['le']}]" if meta["le"] is not None else "inf)")
    )
    return f"{lo}, {hi}"


_M = TypeVar("_M")


class OneTopic(NamedTuple):
    """A measure's one-topic form (:meth:`Measure.one_topic`): a topic's value is
    ``kernel(one, params)[0]``, ``one`` the topic's :class:`~cwlkit.measures.trec.one_topic.One`
    at relevance level ``rel``, then ``post`` of it when given."""

    kernel: Callable[[Any, Any], list[float]]
    params: Any
    rel: float
    post: Callable[[float], float] | None = None


#: the largest count or rank a measure's :meth:`Measure.derived` bounds assume (2^53, the
#: largest integer a double holds exactly)
MAX_COUNT = 2.0**53


# Type checkers (PEP 681) read the decorated classes as frozen dataclasses: the constructor
# they synthesise is the one Measure.__init__ implements (fields in declaration order, by
# keyword or position). `param` is not among the field specifiers: mypy reads only a
# *keyword* ``default=`` of a custom field specifier, and most fields spell their default by
# position (``param(0.8, ...)``), which would make them required; left out, every field
# declared with `param(...)` is read as having a default (a required parameter left out is
# caught at run time by Measure.__init__, not by the type checker). Once every default is
# spelled ``param(default=...)``, `param` can join the field specifiers.
@dataclass_transform(frozen_default=True, field_specifiers=(dataclasses.field,))
def measure(cls: type[_M]) -> type[_M]:
    """Class decorator of every measure: a dataclass whose fields are its parameters.

    The constructor (keywords or positions in field order, defaults, then the parameter
    checks of ``__post_init__``), equality and hash (same class, same field values), repr
    and immutability (assigning an attribute raises ``dataclasses.FrozenInstanceError``) are
    :class:`Measure`'s, shared by every measure: ``dataclass(frozen=True)`` compiles six
    methods again for each class, about 0.5 ms of start-up a class (18 ms for trec_eval's
    table). Declare a new measure with this decorator, not with ``dataclass`` (Python
    refuses a frozen dataclass on a base that is not one).
    """
    return dataclasses.dataclass(init=False, repr=False, eq=False)(cls)


#: per measure class: its constructor's fields, ``{name: (default, default_factory)}``
_INIT_FIELDS: dict[type, dict[str, tuple[Any, Any]]] = {}


def _init_fields(cls: type) -> dict[str, tuple[Any, Any]]:
    got = _INIT_FIELDS.get(cls)
    if got is None:
        got = _INIT_FIELDS[cls] = {
            f.name: (f.default, f.default_factory) for f in dataclasses.fields(cls) if f.init
        }
    return got


@measure
class Measure:
    """Base class of every measure.

    Subclasses set ``family`` (the canonical family name), optionally ``aliases``, declare
    their parameters as dataclass fields made with :func:`param`, and implement
    :meth:`compute`.
    """

    family: ClassVar[str] = "Measure"
    aliases: ClassVar[tuple[str, ...]] = ()
    #: other names that mean this family with some parameters set (``{"SetRelP":
    #: {"relative": True}}``: ir_measures' ``SetRelP`` is ``SetP(relative=True)``); a
    #: parameter written with the name overrides the preset, as in ir_measures
    presets: ClassVar[dict[str, dict[str, Any]]] = {}
    #: names the anchors give this measure (``{"trec_eval": ("map",), "letor": ("MAP",)}``);
    #: looked up by the anchor's own syntax, listed by ``cwlkit measures``
    anchors: ClassVar[dict[str, tuple[str, ...]]] = {}
    #: how per-topic values combine over topics: ``mean``, ``sum`` (counts) or ``gmean``
    #: (geometric mean with values floored at 1e-5, as trec_eval's gm_map)
    aggregate: ClassVar[str] = "mean"
    #: spell every parameter in the name, defaults included (``RBP(p=0.8)``)
    show_defaults: ClassVar[bool] = False
    #: with a ``judged_only`` parameter set: whether documents judged with a label of -1 or
    #: less stay in the ranking (ir_measures' pyndeval provider) or go (trec_eval's -J)
    judged_keeps_negative: ClassVar[bool] = False

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        cls = type(self)
        spec = _init_fields(cls)
        if len(args) > len(spec):
            raise TypeError(
                f"{cls.__name__}() takes {len(spec)} positional arguments "
                f"but {len(args)} were given"
            )
        for name, value in zip(spec, args, strict=False):
            if name in kwargs:
                raise TypeError(f"{cls.__name__}() got multiple values for argument {name!r}")
            kwargs[name] = value
        unknown = [k for k in kwargs if k not in spec]
        if unknown:
            raise TypeError(f"{cls.__name__}() got an unexpected keyword argument {unknown[0]!r}")
        missing = []
        for name, (default, factory) in spec.items():
            if name in kwargs:
                value = kwargs[name]
            elif default is not dataclasses.MISSING:
                value = default
            elif factory is not dataclasses.MISSING:
                value = factory()
            else:
                missing.append(name)
                continue
            object.__setattr__(self, name, value)
        if missing:
            raise TypeError(
                f"{cls.__name__}() missing {len(missing)} required argument"
                f"{'s' if len(missing) > 1 else ''}: {', '.join(map(repr, missing))}"
            )
        self.__post_init__()

    def __setattr__(self, name: str, value: Any) -> None:
        raise dataclasses.FrozenInstanceError(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> None:
        raise dataclasses.FrozenInstanceError(f"cannot delete field {name!r}")

    def _field_values(self) -> tuple:
        return tuple(getattr(self, f.name) for f in dataclasses.fields(self) if f.compare)

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return self._field_values() == other._field_values()

    def __hash__(self) -> int:
        return hash(self._field_values())

    def __repr__(self) -> str:
        body = ", ".join(
            f"{f.name}={getattr(self, f.name)!r}" for f in dataclasses.fields(self) if f.repr
        )
        return f"{type(self).__qualname__}({body})"

    def __post_init__(self) -> None:
        for f in dataclasses.fields(self):
            meta = f.metadata
            if not meta:
                continue
            v = getattr(self, f.name)
            if v is None:
                continue
            if meta.get("choices") is not None:
                if v not in meta["choices"]:
                    raise ParamError(
                        f"The {f.name!r} parameter of {self.family} must be one of "
                        f"{', '.join(map(str, meta['choices']))}; got {v!r}."
                    )
                continue
            if isinstance(v, str):
                continue
            if meta.get("integer") and float(v) != int(v):
                raise ParamError(
                    f"The {f.name!r} parameter of {self.family} must be an integer; got {v!r}."
                )
            unbounded = meta["lt"] is None and meta["le"] is None and v > 0
            if not math.isfinite(float(v)) and not (meta.get("infinite") and unbounded):
                raise ParamError(
                    f"The {f.name!r} parameter of {self.family} must be a finite number; "
                    f"got {format_value(v)}."
                )
            ok = True
            ok = (
                ok
                and (meta["gt"] is None or v > meta["gt"])
                and (meta["ge"] is None or v >= meta["ge"])
            )
            ok = (
                ok
                and (meta["lt"] is None or v < meta["lt"])
                and (meta["le"] is None or v <= meta["le"])
            )
            if not ok:
                raise ParamError(
                    f"The {f.name!r} parameter of {self.family} must be in {_domain(meta)}; "
                    f"got {format_value(v)}."
                )
        self._check_derived()

    def _check_derived(self) -> None:
        """Refuse parameters whose derived constants (:meth:`derived`) are not finite."""
        with np.errstate(all="ignore"):
            checks = self.derived()
        for name, expr, value in checks:
            if not math.isfinite(float(value)):
                raise ParamError(
                    f"The {name!r} parameter of {self.family} is out of range: {expr} "
                    f"overflows; got {format_value(getattr(self, name))}."
                )

    def derived(self) -> list[tuple[str, str, float]]:
        """The constants the computation derives from the parameters, each checked finite on
        construction (else ParamError naming the parameter).

        Returns
        -------
        list of (str, str, float)
            ``(parameter, expression, value)``: e.g. TBG's ``("halflife", "1/halflife",
            1 / halflife)``, which overflows for ``halflife=5e-324``. A parameter that is
            finite and in its domain can still make the computation overflow to inf or NaN;
            a measure lists here the largest quantity each parameter enters, with its
            bound on the data (counts and ranks up to 2^53, the largest exact integer of a
            double). Empty by default.
        """
        return []

    @property
    def name(self) -> str:
        """Canonical spelling, e.g. ``RBP(p=0.8)`` or ``P@10``."""
        parts = []
        cutoff = None
        for f in dataclasses.fields(self):
            v = getattr(self, f.name)
            if f.name == "k":
                cutoff = v
                continue
            if v is None or (
                not self.show_defaults and f.default is not dataclasses.MISSING and v == f.default
            ):
                continue
            parts.append(f"{f.name}={format_value(v)}")
        s = self.family + (f"({','.join(parts)})" if parts else "")
        if cutoff is not None:
            s += f"@{format_value(cutoff)}"
        return s

    def __str__(self) -> str:
        return self.name

    def compute(self, batch: RankingBatch) -> np.ndarray:
        """Per-topic values, float64[T], in the batch's topic order."""
        raise NotImplementedError  # pragma: no cover

    def ranking_of(self, batch: RankingBatch) -> RankingBatch:
        """The batch the measure reads: ``batch`` itself, or, for a measure declaring a
        ``judged_only`` parameter set to True, its rankings condensed to their judged
        documents (:meth:`~cwlkit.core.batch.RankingBatch.judged_ranking`), before any cutoff
        of the measure: ir_measures' ``judged_only``. A batch whose evaluation already kept
        judged documents only (``judged_only=True`` of :class:`cwlkit.Evaluator`) is its
        own."""
        if not getattr(self, "judged_only", False) or batch.memo.get("judged_only"):
            return batch
        return batch.judged_ranking(negative=self.judged_keeps_negative)

    def group_key(self) -> tuple | None:
        """Measures with the same (non-None) key are computed together by
        :meth:`compute_group` (trec_eval's cutoffs of one measure: ``nDCG@5``, ``nDCG@10``...
        share the ranking's cumulated gains); None: computed alone."""
        return None

    @classmethod
    def compute_group(cls, batch: RankingBatch, measures: list[Measure]) -> list[np.ndarray]:
        """Per-topic values of ``measures`` (one :meth:`group_key`), in their order."""
        return [m.compute(batch) for m in measures]

    def one_topic(self) -> OneTopic | None:
        """How to score one topic without a batch (a few topics held in Python, see
        :meth:`cwlkit.plan.Plan.small`), or None: the measure reads batches only."""
        return None

    def cwl_form(self) -> tuple[Measure, str | None] | None:
        """The C/W/L metric that computes this measure and its gain mapping (None: the
        evaluation's), or None when the measure is not C/W/L. A C/W/L metric is its own form;
        trec_eval's ``P@k`` is ``P_cwl@k`` on binary gains."""
        return None

    @classmethod
    def params(cls) -> list[dataclasses.Field]:
        """The parameter fields, in declaration order."""
        return list(dataclasses.fields(cls))

    @classmethod
    def summary(cls) -> str:
        """The first paragraph of the class docstring, on one line."""
        doc = (cls.__doc__ or "").strip()
        first = doc.split("\n\n", 1)[0]
        return " ".join(line.strip() for line in first.splitlines())

    @classmethod
    def describe(cls) -> dict[str, Any]:
        """The registry entry as data: family, summary, parameters, aggregation, aliases,
        presets."""
        params = []
        for f in dataclasses.fields(cls):
            meta: Mapping[str, Any] = f.metadata or {}
            default = None if f.default is dataclasses.MISSING else f.default
            kind = f.type if isinstance(f.type, str) else getattr(f.type, "__name__", str(f.type))
            if meta.get("choices") is not None:
                dom: str | None = "{" + ", ".join(map(str, meta["choices"])) + "}"
            elif kind == "bool":
                dom = "{False, True}"
            elif meta and ("int" in kind or "float" in kind):
                dom = _domain(meta)
            else:  # text (a gain table, a metric's name): no numeric range
                dom = None
            params.append(
                {
                    "name": f.name,
                    "type": kind,
                    "default": default,
                    "domain": dom,
                    "doc": meta.get("doc", ""),
                }
            )
        return {
            "name": cls.family,
            "summary": cls.summary(),
            "params": params,
            "aggregate": cls.aggregate,
            "aliases": list(cls.aliases),
            "presets": {k: dict(v) for k, v in cls.presets.items()},
            "anchors": {k: list(v) for k, v in cls.anchors.items()},
        }


def is_cwl(m: object) -> bool:
    """Whether ``m`` is a C/W/L metric, without importing the C/W/L package: when
    :mod:`cwlkit.measures.cwl.base` has not been imported, no C/W/L metric exists."""
    import sys

    mod = sys.modules.get("cwlkit.measures.cwl.base")
    return mod is not None and isinstance(m, mod.CWLMetric)
