"""Measures from what users give: names, Measure objects, ir_measures' measures, lists."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ..errors import ParamError
from ..measures.base import Measure


def parse_list(measures: Any) -> list[Measure]:
    """Measures from a name, a Measure, an ir_measures measure, or an iterable of them.

    A name may give several measures (trec_eval's ``P.5,10``). Repeats are dropped.
    """
    from ..measures.parse import parse_measures

    if isinstance(measures, (str, Measure)) or _is_ir_measure(measures):
        measures = [measures]
    elif isinstance(measures, (bytes, dict)) or not isinstance(measures, Iterable):
        raise ParamError(
            "measures must be a name such as 'P@10', a Measure, or a list of them; "
            f"got {type(measures).__name__}"
        )
    out: list[Measure] = []
    for m in measures:
        if isinstance(m, Measure):
            got = [m]
        elif _is_ir_measure(m):
            from ..measures.ir_measures_bridge import from_ir_measures

            got = from_ir_measures(m)
        elif isinstance(m, str):
            got = parse_measures(m)
        else:
            raise ParamError(
                f"a measure must be a name such as 'P@10' or a Measure; got {type(m).__name__}"
            )
        out.extend(x for x in got if x not in out)
    return out


def _is_ir_measure(obj: Any) -> bool:
    return type(obj).__module__.startswith("ir_measures")
