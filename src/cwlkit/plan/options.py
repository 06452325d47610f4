"""Evaluation options shared by every measure: checked once, when an Evaluator is made.

See :class:`cwlkit.Evaluator` for what each option means.
"""

from __future__ import annotations

import math
import os
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Any

import numpy as np

from ..core.gains import GainMap
from ..errors import ParamError

if TYPE_CHECKING:
    from ..io.rules import ReadRules

#: what ``topics=`` accepts, and trec_eval's name for each
TOPIC_RULES = {
    "both": "topics in both qrels and run (trec_eval's default)",
    "qrels": "every qrels topic; a topic the run lacks scores 0 (trec_eval -c)",
    "run": "every run topic; a topic without judgements scores 0",
    "either": "topics of either",
}
#: the trec_eval version whose rules the API follows by default
TREC_VERSION = 9
CWL_COLUMNS = ("ETU", "EC", "ETC", "ED")


@dataclass(frozen=True)
class Options:
    """Evaluation options shared by every measure (see :class:`Evaluator`)."""

    topics: str = "both"
    trec_version: int = TREC_VERSION
    order: str = "score"
    depth: int | None = None
    judged_only: bool = False
    gain: str = "auto"
    costs: Any = None
    doc_costs: Any = None
    residuals: bool = False
    ties: str = "none"
    compat_depth: int | None = None
    cwl_columns: bool | None = None
    max_gain: float | None = None
    min_gain: float | None = None
    max_cost: float = 1.0
    min_cost: float = 1.0
    topic_params: Any = None
    compat: str | None = None
    chunk_topics: int | str | None = None
    reading: str = "cwlkit"

    def __post_init__(self) -> None:
        if self.topics not in TOPIC_RULES:
            raise ParamError(f"topics must be one of {', '.join(TOPIC_RULES)}; got {self.topics!r}")
        if self.trec_version not in (9, 10):
            raise ParamError(
                f"trec_version must be 9 (9.0.8) or 10 (10.0); got {self.trec_version!r}"
            )
        if self.order not in ("score", "rank", "file"):
            raise ParamError(f"order must be 'score', 'rank' or 'file'; got {self.order!r}")
        if self.ties not in ("none", "average"):
            raise ParamError(f"ties must be 'none' or 'average'; got {self.ties!r}")
        from ..io.rules import RULES

        if self.reading not in RULES:
            from ..support.checks import check_choice

            check_choice("reading", self.reading, tuple(RULES))
        if self.compat not in (None, "inst_eval"):
            raise ParamError(f"compat must be None or 'inst_eval'; got {self.compat!r}")
        for name in ("depth", "compat_depth"):
            v = getattr(self, name)
            # depth 0 keeps no document (trec_eval's -M 0); inst_eval.py's -n may be 0 (every
            # rank then counts as past the depth)
            zero = name == "depth" or self.compat == "inst_eval"
            least = 0 if zero else 1
            if v is not None and (
                isinstance(v, bool) or not isinstance(v, (int, np.integer)) or v < least
            ):
                what = "a non-negative" if zero else "a positive"
                raise ParamError(f"{name} must be {what} integer; got {v!r}")
        self._check_types()
        for name in ("max_cost", "min_cost"):  # (an infinite cost makes EC inf * 0 = nan)
            v = getattr(self, name)
            if not (isinstance(v, (int, float, np.number)) and math.isfinite(v)):
                raise ParamError(f"{name} must be a finite number; got {v!r}")
        if self.chunk_topics is not None:  # (core.chunks loads pyarrow: only when chunked)
            from ..core.chunks import check_chunk

            check_chunk(self.chunk_topics, auto=True)

    def _check_types(self) -> None:
        """The gain mapping, gain bounds and cost files are of the kinds the options take
        (checked even when no C/W/L measure reads them)."""
        if not isinstance(self.gain, (str, GainMap)):
            raise ParamError(f"gain must be a gain mapping's name or a GainMap; got {self.gain!r}")
        if isinstance(self.gain, str):  # (a bad name or table: refused now, read or not)
            _check_gain(self.gain)
        for name in ("max_gain", "min_gain"):
            v = getattr(self, name)
            number = isinstance(v, (int, float, np.number)) and not isinstance(v, bool)
            if v is not None and not (number and math.isfinite(v)):
                raise ParamError(f"{name} must be a finite number or None; got {v!r}")
        if self.costs is None and self.doc_costs is None:
            return  # (the usual case: the cost classes, and pyarrow, not imported)
        from ..io.costs import Costs, DocCosts

        for name, kind in (("costs", Costs), ("doc_costs", DocCosts)):
            v = getattr(self, name)
            if v is not None and not isinstance(v, (str, os.PathLike, kind)):
                raise ParamError(f"{name} must be a file name or a {kind.__name__}; got {v!r}")

    @property
    def rules(self) -> ReadRules:
        """What a qrels or run line may hold (:mod:`cwlkit.io.rules`)."""
        from ..io.rules import RULES

        return RULES[self.reading]

    @property
    def comments(self) -> bool:
        """Whether qrels files may hold ``#`` comment lines (the reading rules')."""
        return self.rules.qrels_comments

    @property
    def light(self) -> bool:
        """Whether the run's element types, document ids and scores can be dropped."""
        return (
            self.costs is None
            and self.doc_costs is None
            and self.ties == "none"
            and self.order != "rank"
        )


@lru_cache(maxsize=64)
def _check_gain(gain: str) -> None:
    """Refuse a bad gain mapping name or table (remembered when good: an Evaluator made per
    call of a training loop checks its options each time)."""
    _ = GainMap(gain).threshold
