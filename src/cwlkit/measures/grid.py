"""Parameter grids in measure names: ``RBP(p=0.1:0.9:0.2)`` is five measures.

One range ``start:stop:step`` may stand wherever a number is written in a measure's name:
``RBP(p=0.05:0.95:0.01)``, ``C_E11(T=0.5:2:0.05)``, ``C_E8(k=1:20:1)``, ``P@5:20:5``,
``RBPCWLMetric(0.1:0.9:0.2)``. The values are ``start, start + step, ...`` up to and including
``stop`` when the steps reach it, counted in exact decimal arithmetic (``0.05:0.95:0.01``
has 91 values, and its 18th is exactly ``0.22``). Each value is written back in place of the
range and the name parsed as usual, so a grid spelling is exactly the list of its spellings.

The one parser (:func:`cwlkit.measures.parse.parse_measures`) expands grids, so every entry
point accepts them: ``cwlkit.evaluate(..., ["RBP(p=0.1:0.9:0.2)"])``, ``cwlkit evaluate -m``,
``cwlkit cwl -M``, ``cwlkit fit --metric``, ``cwlkit plot sweep -M``.

Rules: the step must be positive, ``stop >= start``, at most :data:`MAX_GRID` values, one range
per name; ranges inside quoted strings are left alone.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from decimal import Decimal, InvalidOperation
from typing import TYPE_CHECKING, TypeVar

from ..errors import ParamError

if TYPE_CHECKING:  # pragma: no cover
    from .base import Measure

_NUM = re.compile(r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")
#: a run of characters that may hold a range: no separators of the measure grammar
_TOKEN = re.compile(r"[^\s,()=@'\"]+")
#: at most this many values in one grid
MAX_GRID = 10_000
T = TypeVar("T")


def grid_values(start: str, stop: str, step: str) -> list[Decimal]:
    """``start, start + step, ...`` up to and including ``stop``, in exact decimal steps."""
    try:
        a, b, s = Decimal(start), Decimal(stop), Decimal(step)
    except InvalidOperation:
        raise ParamError(f"bad grid {start}:{stop}:{step}") from None
    if s <= 0:
        raise ParamError(f"the grid step must be positive; got {step}")
    if b < a:
        raise ParamError(f"the grid start {start} is above its stop {stop}")
    count = int((b - a) / s) + 1
    if count > MAX_GRID:
        raise ParamError(f"grid {start}:{stop}:{step} has {count} values; at most {MAX_GRID}")
    return [a + i * s for i in range(count)]


def _unquoted(text: str) -> str:
    """``text`` with every quoted string blanked out (same length), so no range is seen there."""
    out, quote = [], ""
    for ch in text:
        if quote:
            out.append(" ")
            if ch == quote:
                quote = ""
        elif ch in "'\"":
            quote = ch
            out.append(" ")
        else:
            out.append(ch)
    return "".join(out)


def find_ranges(text: str) -> list[tuple[int, int, tuple[str, str, str]]]:
    """Every ``start:stop:step`` outside quotes: ``(begin, end, (start, stop, step))``.

    Raises
    ------
    ParamError
        For a value spelled with two colons whose parts are not all numbers
        (``RBP(p=a:0.9:0.1)``).
    """
    found = []
    for m in _TOKEN.finditer(_unquoted(text)):
        tok = m.group(0)
        if tok.count(":") != 2:
            continue
        parts = tuple(tok.split(":"))
        if not all(_NUM.fullmatch(p) for p in parts):
            raise ParamError(
                f"bad grid {tok!r} in {text.strip()!r}: start, stop and step must be numbers "
                "(e.g. 'RBP(p=0.1:0.9:0.2)')"
            )
        found.append((m.start(), m.end(), parts))
    return found  # type: ignore[return-value]


def expand(text: str) -> list[tuple[str, Decimal]] | None:
    """The spellings a grid stands for, each with its value; None when ``text`` has no range.

    >>> [t for t, _ in expand("RBP(p=0.1:0.5:0.2)")]
    ['RBP(p=0.1)', 'RBP(p=0.3)', 'RBP(p=0.5)']
    """
    found = find_ranges(text)
    if not found:
        return None
    if len(found) > 1:
        raise ParamError(
            f"{text.strip()!r} has {len(found)} ranges start:stop:step; a measure name may "
            "have one (write one name per grid)"
        )
    begin, end, parts = found[0]
    try:
        values = grid_values(*parts)
    except ParamError as exc:
        raise ParamError(f"{text.strip()!r}: {exc}") from None
    return [(text[:begin] + format(v, "f") + text[end:], v) for v in values]


def expand_grid(text: str) -> list[str]:
    """The spellings ``text`` stands for: itself, or one per value of its grid."""
    got = expand(text)
    return [text] if got is None else [t for t, _ in got]


def parse_each(text: str, parse: Callable[[str], T]) -> list[T] | None:
    """``parse`` applied to each spelling of the grid in ``text`` (None without a grid); a
    ParamError names the grid value that failed."""
    got = expand(text)
    if got is None:
        return None
    out = []
    for spelling, value in got:
        try:
            out.append(parse(spelling))
        except ParamError as exc:
            msg = str(exc).rstrip(".")
            raise ParamError(f"{msg} (at {value} in the grid {text.strip()!r})") from None
    return out


def varying_field(measures: list[Measure], text: str, begin: int) -> str:
    """The name of the parameter that varies over ``measures``, the grid of ``text`` (whose
    range starts at ``begin``): ``k`` for a cutoff."""
    import dataclasses

    if len(measures) == 1:
        key = re.search(r"([A-Za-z_]\w*)\s*=\s*$", text[:begin])
        if key:
            return key.group(1)
        return "k" if "@" in text[:begin] else "value"
    for f in dataclasses.fields(measures[0]):
        if getattr(measures[0], f.name) != getattr(measures[-1], f.name):
            return f.name
    raise ParamError(f"the range in {text!r} does not change the measure")
