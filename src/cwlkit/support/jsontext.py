"""Strict JSON (RFC 8259) of numbers that may not be finite: NaN is ``null``, an infinity the
string ``"inf"`` or ``"-inf"`` (JSON has neither NaN nor infinities; Python's ``json`` would
write the bare tokens ``NaN`` and ``Infinity``, which strict parsers refuse)."""

from __future__ import annotations

import json
import math
from typing import Any


def json_safe(v: Any) -> Any:
    """``v`` with every float made JSON-safe (above), recursively through dicts, lists and
    tuples; numpy scalars are read as Python numbers."""
    if hasattr(v, "item") and callable(v.item) and getattr(v, "ndim", None) == 0:
        v = v.item()
    if isinstance(v, float):
        if math.isnan(v):
            return None
        if math.isinf(v):
            return "inf" if v > 0 else "-inf"
        return v
    if isinstance(v, dict):
        return {k: json_safe(x) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return [json_safe(x) for x in v]
    return v


def dumps(doc: Any, *, indent: int | None = None) -> str:
    """``doc`` as strict JSON text (:func:`json_safe`; ``allow_nan=False`` checks it)."""
    return json.dumps(json_safe(doc), indent=indent, allow_nan=False)
