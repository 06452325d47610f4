"""One safe parser for measure names (no ``eval``).

Grammar::

    measure  := NAME [ "(" [ arg ("," arg)* ] ")" ] [ "@" value ]
    arg      := [ KEY "=" ] value
    value    := number (any float notation) | word | quoted string
              | number ":" number ":" number   (a grid, at most one per name: one measure
                                                per value, stop included; see grid.py)

Positional arguments fill the family's parameters in declaration order. Other spellings
(trec_eval's ``P.5,10``) are tried first through :func:`registry.register_syntax`.
"""

from __future__ import annotations

import dataclasses
import math
import re
from collections.abc import Callable
from typing import Any

from ..errors import ParamError, UnknownMeasureError
from . import registry
from .base import Measure

_HEAD = re.compile(r"^\s*([^\W\d][\w\-]*)\s*(?:\((.*)\))?\s*(?:@\s*([^\s()@]+))?\s*$", re.S)
_NUM = re.compile(r"^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$|^[+-]?inf$", re.I)


def split_args(text: str) -> list[str]:
    """Split an argument list on top-level commas, honouring quotes and braces (a table
    ``{0:0,1:1}`` is one value)."""
    out, cur, quote, depth = [], [], "", 0
    for ch in text:
        if quote:
            cur.append(ch)
            if ch == quote:
                quote = ""
        elif ch in "'\"":
            quote = ch
            cur.append(ch)
        elif ch == "," and depth == 0:
            out.append("".join(cur).strip())
            cur = []
        else:
            depth += (ch == "{") - (ch == "}")
            cur.append(ch)
    if quote:
        raise ParamError(f"unterminated quote in {text!r}")
    last = "".join(cur).strip()
    if last or out:
        out.append(last)
    return out


_TABLE = re.compile(r"^\{\s*([^{}]*?)\s*,?\s*\}$")


def parse_value(text: str) -> Any:
    """A number, a quoted string (unquoted), a bare word, or a table ``{0:0,1:1,2:3}``
    (ir_measures' spelling of a gain table: given as the string ``'0=0,1=1,2=3'``, the form
    of trec_eval's ``ndcg.0=0,1=1,2=3``)."""
    t = text.strip()
    if len(t) >= 2 and t[0] == t[-1] and t[0] in "'\"":
        return t[1:-1]
    table = _TABLE.match(t)
    if table is not None:
        pairs = [p.strip() for p in table.group(1).split(",") if p.strip()]
        if not pairs or any(p.count(":") != 1 for p in pairs):
            raise ParamError(f"a table is written {{label:value,...}}; got {t!r}")
        return ",".join("=".join(x.strip() for x in p.split(":")) for p in pairs)
    if _NUM.match(t):
        v = float(t)
        return v
    return t


#: the largest integer parameter (a cut-off, a depth): no ranking is longer, and numpy's
#: int64 arithmetic on larger values (k + 1, k * topics) can overflow
MAX_INT = 2**31 - 1


def coerce(cls: type[Measure], field: dataclasses.Field, value: Any) -> Any:
    """Convert a parsed value to the field's declared type, or raise ParamError."""
    typ = str(field.type)
    if typ == "bool":
        if isinstance(value, str) and value.lower() in ("true", "false"):
            return value.lower() == "true"
        if isinstance(value, float) and value in (0.0, 1.0):
            return bool(value)
        raise ParamError(
            f"The {field.name!r} parameter of {cls.family} must be True or False; got {value!r}."
        )
    if isinstance(value, str) and ("float" in typ or "int" in typ) and "str" not in typ:
        raise ParamError(
            f"The {field.name!r} parameter of {cls.family} must be a number; got {value!r}."
        )
    if isinstance(value, float):
        if "int" in typ and "float" not in typ:
            if not math.isfinite(value) or abs(value) > MAX_INT:
                raise ParamError(
                    f"The {field.name!r} parameter of {cls.family} must be an integer of at "
                    f"most {MAX_INT:,} in size; got {value!r}."
                )
            if value != int(value):
                raise ParamError(
                    f"The {field.name!r} parameter of {cls.family} must be an integer; "
                    f"got {value!r}."
                )
            return int(value)
        if "float" not in typ and "str" in typ:
            return format(value, "g")
    return value


def split_head(text: str) -> tuple[str, list[str], str | None] | None:
    """``NAME(args)@cutoff`` -> (NAME, [arg texts], cutoff text or None); None if not that shape."""
    m = _HEAD.match(text)
    if not m:
        return None
    args = m.group(2)
    return m.group(1), split_args(args) if args is not None else [], m.group(3)


def _field_named(fields: list[dataclasses.Field], key: str) -> dataclasses.Field | None:
    return next((f for f in fields if f.name == key), None) or next(
        (f for f in fields if f.name.lower() == key.lower()), None
    )


def build(
    cls: type[Measure],
    args: list[str],
    cutoff: str | None,
    text: str,
    *,
    positional: list[str] | None = None,
    keyword: Callable[[str], str | None] | None = None,
    label: str | None = None,
    preset: dict[str, Any] | None = None,
) -> tuple[Measure, dict[str, str]]:
    """Instantiate ``cls`` from textual arguments; also return each parameter as written.

    Positional arguments fill ``positional`` (default: the parameters in declaration order,
    the cutoff ``k`` last); ``keyword`` maps a written keyword to a field name (default: the
    field of that name, case-insensitive). ``label`` names the measure in messages.
    ``preset``: the parameters the name sets (``Measure.presets``), where not written.
    """
    fields = list(dataclasses.fields(cls))
    by_name = {f.name: f for f in fields}
    label = label or cls.family
    if positional is None:
        positional = [f.name for f in fields if f.name != "k"] + [
            f.name for f in fields if f.name == "k"
        ]
    kwargs: dict[str, Any] = {}
    written: dict[str, str] = {}
    pos_i = 0
    for a in args:
        if a == "":
            continue
        m = re.match(r"^([A-Za-z_]\w*)\s*=\s*(.+)$", a, re.S)
        if m:
            key, val = m.group(1), m.group(2).strip()
            fname = keyword(key) if keyword else getattr(_field_named(fields, key), "name", None)
            if fname is None:
                names = ", ".join(positional) or "none"
                raise ParamError(
                    f"{label} has no parameter {key!r} (parameters: {names}) in {text!r}"
                )
        else:
            if pos_i >= len(positional):
                raise ParamError(f"too many arguments for {label} in {text!r}")
            fname, val = positional[pos_i], a.strip()
            pos_i += 1
        if fname in kwargs:
            raise ParamError(f"parameter {fname!r} given twice in {text!r}")
        kwargs[fname] = coerce(cls, by_name[fname], parse_value(val))
        written[fname] = val
    if cutoff is not None:
        if "k" not in by_name:
            raise ParamError(f"{label} takes no cutoff, but {text!r} has '@{cutoff}'")
        if "k" in kwargs:
            raise ParamError(f"cutoff given twice in {text!r}")
        kwargs["k"] = coerce(cls, by_name["k"], parse_value(cutoff))
        written["k"] = cutoff
    for fname, value in (preset or {}).items():
        kwargs.setdefault(fname, value)
    try:
        return cls(**kwargs), written
    except TypeError as exc:
        missing = [
            f.name for f in fields if f.name not in kwargs and f.default is dataclasses.MISSING
        ]
        if missing:
            raise ParamError(
                f"{label} needs a value for {', '.join(missing)} in {text!r}"
            ) from None
        raise ParamError(f"bad parameters in {text!r}: {exc}") from None


def parse_measures(text: str) -> list[Measure]:
    """Parse one spelling into one or more measures (``P.5,10`` gives two; a parameter grid
    ``RBP(p=0.1:0.9:0.2)`` gives one per value, see :mod:`cwlkit.measures.grid`)."""
    from .grid import parse_each

    grid = parse_each(text, parse_measures)
    if grid is not None:
        out: list[Measure] = []
        for got in grid:
            out.extend(m for m in got if m not in out)
        return out
    for syntax in registry.syntaxes():
        found = syntax(text)
        if found is not None:
            return found
    head = split_head(text)
    if head is None:
        if text.count("(") != text.count(")"):
            raise ParamError(
                f"{text.strip()!r}: unbalanced parentheses "
                "(expected NAME(param=value,...), e.g. 'RBP(p=0.8)')"
            )
        raise UnknownMeasureError(text.strip(), [])
    name, args, cutoff = head
    cls = registry.lookup(name)
    return [build(cls, args, cutoff, text.strip(), preset=registry.preset(name))[0]]


def parse_measure(text: str | Measure) -> Measure:
    """Parse a single measure, e.g. ``"RBP(p=0.8)"``, ``"P@10"``, ``"INST(T=2)"``."""
    if isinstance(text, Measure):
        return text
    got = measures_of(text)
    if len(got) != 1:
        raise ParamError(f"{text!r} names {len(got)} measures; expected one")
    return got[0]


def measures_of(obj: Any) -> list[Measure]:
    """The measures of a spelling (``"P.5,10"`` gives two) or of an ir_measures measure object
    (``ir_measures.P@10``: see :func:`cwlkit.measures.ir_measures_bridge.from_ir_measures`)."""
    if isinstance(obj, str):
        return parse_measures(obj)
    from .ir_measures_bridge import from_ir_measures, is_ir_measure

    if not is_ir_measure(obj):
        raise ParamError(
            f"a measure must be a name such as 'P@10' or a Measure; got {type(obj).__name__}"
        )
    got = from_ir_measures(obj)
    return parse_measures(str(obj)) if got is None else got


def parse_list(measures: Any) -> list[Measure]:
    """Measures from a name, a Measure, an ir_measures measure, or an iterable of them.

    A name may give several measures (trec_eval's ``P.5,10``). Repeats are dropped.
    """
    from collections.abc import Iterable

    from .ir_measures_bridge import is_ir_measure

    if isinstance(measures, (str, Measure)) or is_ir_measure(measures):
        measures = [measures]
    elif isinstance(measures, (bytes, dict)) or not isinstance(measures, Iterable):
        raise ParamError(
            "measures must be a name such as 'P@10', a Measure, or a list of them; "
            f"got {type(measures).__name__}"
        )
    out: list[Measure] = []
    for m in measures:
        got = [m] if isinstance(m, Measure) else measures_of(m)
        out.extend(x for x in got if x not in out)
    return out


def parse_grid(text: str) -> tuple[list[Measure], str, Any]:
    """Expand a measure spelled with exactly one ``start:stop:step`` range into measures, and
    name the parameter that varies (``cwlkit fit --metric``).

    Returns
    -------
    measures : list of Measure
        One per grid value.
    parameter : str
        The name of the parameter that varies (``k`` for a cutoff).
    grid : numpy.ndarray
        float64 grid values.
    """
    from .grid import expand, find_ranges, varying_field

    if not isinstance(text, str):
        from ..support.checks import refuse

        raise refuse("a grid", "a measure with one range, e.g. 'RBP(p=0.05:0.95:0.01)'", text)
    found = find_ranges(text)
    if len(found) != 1:
        raise ParamError(
            f"{text!r} must contain exactly one range start:stop:step "
            f"(e.g. 'RBP(p=0.05:0.95:0.01)'); found {len(found)}"
        )
    pairs = expand(text) or []
    measures = [parse_measure(t) for t, _ in pairs]
    import numpy as np

    grid = np.array([float(v) for _, v in pairs])
    return measures, varying_field(measures, text, found[0][0]), grid
