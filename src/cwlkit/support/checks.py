"""The option contract: every option of every public function is checked by one of these.

Each check takes the option's name and the value given, returns the value in its canonical
type (a Python ``bool``, ``int`` or ``float``), and otherwise raises
:class:`~cwlkit.errors.ParamError` with one wording: ``NAME must be EXPECTED; got VALUE``.

Conventions, the same everywhere:

- a bool is ``True`` or ``False`` (or a numpy bool): never a truthy string, number or None;
- an integer is an ``int`` or numpy integer, never a bool, a float (``1.5`` or ``1.0``) or a
  string, within its range (depths and sizes ``>= 0``, counts and budgets ``>= 1`` as they
  mean);
- a seed is ``None`` (fresh entropy) or an integer ``>= 0``;
- a probability or an alpha is a finite real number strictly inside ``(0, 1)`` unless the
  check says an end is allowed;
- a choice is one of a fixed set of strings, with the closest suggested.
"""

from __future__ import annotations

import difflib
import math
import numbers
from collections.abc import Iterable
from typing import Any

import numpy as np

from ..errors import ParamError

__all__ = [
    "check_bool",
    "check_choice",
    "check_int",
    "check_number",
    "check_probability",
    "check_seed",
    "refuse",
    "shown",
]


def refuse(name: str, expected: str, value: Any) -> ParamError:
    """The one wording of a refused option: ``NAME must be EXPECTED; got VALUE``."""
    return ParamError(f"{name} must be {expected}; got {shown(value)}")


def shown(value: Any) -> str:
    """``repr(value)`` on one line (whitespace runs folded), cut to 80 characters."""
    text = " ".join(repr(value).split())
    if len(text) > 80:
        text = text[:75] + " ...]"
    return text


def _is_bool(value: Any) -> bool:
    return isinstance(value, (bool, np.bool_))


def _is_int(value: Any) -> bool:
    return isinstance(value, numbers.Integral) and not _is_bool(value)


def check_bool(name: str, value: Any) -> bool:
    """``value`` as a bool: ``True``/``False`` (or a numpy bool) only.

    A string such as ``"no"`` or ``"False"``, a number or None is refused: a truthy value
    taken as True would silently change the numbers.
    """
    if not _is_bool(value):
        raise refuse(name, "True or False", value)
    return bool(value)


def check_int(
    name: str, value: Any, *, least: int | None = 0, most: int | None = None, none: bool = False
) -> int | None:
    """``value`` as an int in ``[least, most]`` (either end None: unbounded).

    ``none=True`` lets None through (returned as None). A bool, a float (even ``2.0``) or a
    string is refused.
    """
    if value is None and none:
        return None
    if (
        not _is_int(value)
        or (least is not None and value < least)
        or (most is not None and value > most)
    ):
        raise refuse(name, _int_range(least, most, none), value)
    return int(value)


def _int_range(least: int | None, most: int | None, none: bool) -> str:
    if least is not None and most is not None:
        what = f"an integer from {least} to {most}"
    elif least == 0:
        what = "an integer >= 0"
    elif least is not None:
        what = f"an integer >= {least}"
    elif most is not None:
        what = f"an integer <= {most}"
    else:
        what = "an integer"
    return what + (" or None" if none else "")


def check_seed(name: str, value: Any) -> int | None:
    """A random seed: None (fresh entropy) or an integer ``>= 0``."""
    return check_int(name, value, least=0, none=True)


def check_number(
    name: str,
    value: Any,
    *,
    least: float | None = None,
    most: float | None = None,
    open_low: bool = False,
    open_high: bool = False,
    none: bool = False,
) -> float | None:
    """``value`` as a finite float within bounds (open or closed ends); no bool, no string.

    ``none=True`` lets None through.
    """
    if value is None and none:
        return None
    ok = isinstance(value, numbers.Real) and not _is_bool(value) and math.isfinite(value)
    if ok and least is not None:
        ok = value > least if open_low else value >= least
    if ok and most is not None:
        ok = value < most if open_high else value <= most
    if not ok:
        raise refuse(name, _number_range(least, most, open_low, open_high, none), value)
    return float(value)


def _number_range(
    least: float | None, most: float | None, open_low: bool, open_high: bool, none: bool
) -> str:
    if least is not None and most is not None:
        left, right = "(" if open_low else "[", ")" if open_high else "]"
        what = f"a number in {left}{least:g}, {most:g}{right}"
    elif least is not None:
        what = f"a number {'>' if open_low else '>='} {least:g}"
    elif most is not None:
        what = f"a number {'<' if open_high else '<='} {most:g}"
    else:
        what = "a finite number"
    return what + (" or None" if none else "")


def check_probability(
    name: str, value: Any, *, zero: bool = False, one: bool = False, none: bool = False
) -> float | None:
    """A probability or an alpha: a finite number in ``(0, 1)``; ``zero``/``one`` close an
    end."""
    return check_number(
        name, value, least=0.0, most=1.0, open_low=not zero, open_high=not one, none=none
    )


def check_choice(name: str, value: Any, choices: Iterable[str]) -> str:
    """One of ``choices`` (strings), with the closest suggested when it is not."""
    known = list(choices)
    if isinstance(value, str) and value in known:
        return value
    listed = ", ".join(repr(c) for c in known)
    hint = ""
    if isinstance(value, str):
        close = difflib.get_close_matches(value, known, n=1, cutoff=0.6)
        hint = f" (did you mean {close[0]!r}?)" if close else ""
    raise ParamError(f"{name} must be one of {listed}; got {shown(value)}{hint}")
