"""cwl_eval's class spellings (``RBPCWLMetric(0.8)``) as a syntax of the one measure parser.

Kept apart from :mod:`cwlkit.measures.cwl` so that parsing other names does not import the
C/W/L metrics: every cwl_eval class name ends in ``CWLMetric`` (the paper also writes
``...CWLMetrics``), and only such a name is handed to :func:`.cwl.parse.parse_cwl_syntax`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .parse import split_head
from .registry import register_syntax

if TYPE_CHECKING:  # pragma: no cover
    from .base import Measure


@register_syntax
def cwl_class_syntax(text: str) -> list[Measure] | None:
    """The metric of a cwl_eval class spelling, or None for any other spelling."""
    head = split_head(text)
    if head is None or not head[0].lower().endswith(("cwlmetric", "cwlmetrics")):
        return None
    from .cwl.parse import parse_cwl_syntax

    return parse_cwl_syntax(text)
