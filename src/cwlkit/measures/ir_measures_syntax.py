"""ir_measures' spellings of its cwl_eval measures (``INST(T=2,max_rel=4)``,
``BPM(T=1,max_rel=4)@20``, ``NERR10(p=0.8,max_rel=4)``) as a syntax of the one measure parser.

ir_measures computes ``INST``, ``INSQ``, ``BPM``, ``SDCG`` and ``NERR8``..``NERR11`` with
cwl_eval on the labels scaled to [0, 1] by ``min_rel`` and ``max_rel`` (which it requires),
over cwl_eval's fixed depth 1000: cwlkit's ``CWL_scaled`` measure of the C/W/L metric
(:mod:`cwlkit.measures.ir_measures_bridge`). A spelling of one of those names with a
``max_rel`` argument is that measure; without ``max_rel`` the name is cwlkit's own C/W/L
metric on the evaluation's gains (``INST(T=2)``, ``NERR8@10`` is ``C_E8@10``).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from ..errors import ParamError
from .parse import parse_value, split_head
from .registry import register_syntax

if TYPE_CHECKING:  # pragma: no cover
    from .base import Measure

#: ir_measures' cwl_eval-provider measures and the parameters each takes (besides min_rel and
#: max_rel; ``cutoff`` is the ``@`` suffix), with their defaults
CWL_EVAL_MEASURES: dict[str, dict[str, Any]] = {
    "INST": {"T": 1.0},
    "INSQ": {"T": 1.0},
    "BPM": {"T": 1.0, "cutoff": None},
    "SDCG": {"dcg": "log2", "cutoff": None},
    "NERR8": {"cutoff": None},
    "NERR9": {"cutoff": None},
    "NERR10": {"p": 0.9},
    "NERR11": {"T": 1.0},
}


class _Spelled:
    """What the bridge's builders read of an ir_measures object: its NAME, and its spelling
    for messages."""

    def __init__(self, name: str, text: str) -> None:
        self.NAME = name
        self.text = text

    def __repr__(self) -> str:
        return self.text


@register_syntax
def cwl_eval_provider_syntax(text: str) -> list[Measure] | None:
    """The ``CWL_scaled`` measure of an ir_measures cwl_eval spelling with ``max_rel``, or
    None for any other spelling."""
    head = split_head(text)
    if head is None:
        return None
    name, args, cutoff = head
    canon = next((n for n in CWL_EVAL_MEASURES if n.lower() == name.lower()), None)
    if canon is None:
        return None
    given: dict[str, Any] = {}
    for a in args:
        m = re.match(r"^([A-Za-z_]\w*)\s*=\s*(.+)$", a, re.S)
        if m is None:
            return None  # (a positional argument: cwlkit's own spelling)
        given[m.group(1)] = parse_value(m.group(2))
    if "max_rel" not in given:
        return None
    allowed = {*CWL_EVAL_MEASURES[canon], "min_rel", "max_rel"}
    unknown = sorted(set(given) - allowed)
    if unknown or ("cutoff" in given):
        raise ParamError(
            f"ir_measures' {canon} has no parameter {(unknown or ['cutoff'])[0]!r} "
            f"(parameters: {', '.join(sorted(allowed - {'cutoff'}))}) in {text.strip()!r}"
        )
    if cutoff is not None and "cutoff" not in CWL_EVAL_MEASURES[canon]:
        raise ParamError(f"ir_measures' {canon} takes no cutoff, but {text.strip()!r} has one")
    if cutoff is None and "cutoff" in CWL_EVAL_MEASURES[canon]:
        raise ParamError(f"ir_measures' {canon} needs a cutoff ('@k') in {text.strip()!r}")
    p = {**CWL_EVAL_MEASURES[canon], **given}
    for key, value in p.items():
        if key != "dcg" and isinstance(value, str):
            raise ParamError(
                f"The {key!r} parameter of ir_measures' {canon} must be a number; got {value!r}."
            )
    if cutoff is not None:
        got = parse_value(cutoff)
        if isinstance(got, str) or got != int(got) or got < 1:
            raise ParamError(f"ir_measures' {canon} needs a positive integer cutoff; got @{cutoff}")
        p["cutoff"] = int(got)
    from .ir_measures_bridge import build_ir_measure

    return [build_ir_measure(canon, p, _Spelled(canon, text.strip()))]
