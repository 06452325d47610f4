"""Evaluation options shared by every measure: checked once, when an Evaluator is made.

See :class:`cwlkit.Evaluator` for what each option means.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Any

import numpy as np

from ..core.gains import GainMap
from ..errors import ParamError
from ..support.checks import check_bool, check_choice, check_int, check_number, refuse

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
        # every option checked by the one contract (support.checks) and stored as the value
        # it returns: a truthy string such as "no" is refused, never taken as True
        check_choice("topics", self.topics, TOPIC_RULES)
        v = self.trec_version
        integer = isinstance(v, (int, np.integer)) and not isinstance(v, (bool, np.bool_))
        if not integer or v not in (9, 10):
            raise refuse("trec_version", "9 (9.0.8) or 10 (10.0)", v)
        check_choice("order", self.order, ("score", "rank", "file"))
        check_choice("ties", self.ties, ("none", "average"))
        if self.compat is not None:
            check_choice("compat", self.compat, ("inst_eval",))
        from ..io.rules import RULES

        check_choice("reading", self.reading, tuple(RULES))
        # depth 0 keeps no document (trec_eval's -M 0); inst_eval.py's -n may be 0 (every
        # rank then counts as past the depth)
        least = 0 if self.compat == "inst_eval" else 1
        fixed: dict[str, Any] = {
            "trec_version": int(v),
            "depth": check_int("depth", self.depth, least=0, none=True),
            "compat_depth": check_int("compat_depth", self.compat_depth, least=least, none=True),
            "judged_only": check_bool("judged_only", self.judged_only),
            "residuals": check_bool("residuals", self.residuals),
            "cwl_columns": _bool_or_none("cwl_columns", self.cwl_columns),
            # (an infinite cost makes EC inf * 0 = nan)
            "max_cost": check_number("max_cost", self.max_cost),
            "min_cost": check_number("min_cost", self.min_cost),
            "max_gain": check_number("max_gain", self.max_gain, none=True),
            "min_gain": check_number("min_gain", self.min_gain, none=True),
        }
        for name, value in fixed.items():
            object.__setattr__(self, name, value)
        self._check_types()
        if self.chunk_topics is not None:  # (core.chunks loads pyarrow: only when chunked)
            from ..core.chunks import check_chunk

            check_chunk(self.chunk_topics, auto=True)

    def _check_types(self) -> None:
        """The gain mapping and cost files are of the kinds the options take (checked even
        when no C/W/L measure reads them)."""
        if not isinstance(self.gain, (str, GainMap)):
            raise ParamError(f"gain must be a gain mapping's name or a GainMap; got {self.gain!r}")
        if isinstance(self.gain, str):  # (a bad name or table: refused now, read or not)
            _check_gain(self.gain)
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


def _bool_or_none(name: str, value: Any) -> bool | None:
    if value is None:
        return None
    if not isinstance(value, (bool, np.bool_)):
        raise refuse(name, "True, False or None", value)
    return bool(value)


@lru_cache(maxsize=64)
def _check_gain(gain: str) -> None:
    """Refuse a bad gain mapping name or table (remembered when good: an Evaluator made per
    call of a training loop checks its options each time)."""
    _ = GainMap(gain).threshold


#: the names :class:`Options` takes
OPTION_NAMES = tuple(Options.__dataclass_fields__)


def make_options(where: str, options: dict[str, Any]) -> Options:
    """``Options(**options)``, with a name that is not an option refused in one line that
    says so (and suggests the closest option), not Python's TypeError.

    ``where`` names the function given the options (``"evaluate"``).
    """
    unknown = [k for k in options if k not in Options.__dataclass_fields__]
    if unknown:
        import difflib

        name = unknown[0]
        close = difflib.get_close_matches(name, OPTION_NAMES, n=1, cutoff=0.6)
        hint = f" (did you mean {close[0]!r}?)" if close else ""
        if name == "jobs":
            hint = " (Evaluator(...).evaluate(run, jobs=...) and evaluate_many take jobs)"
        raise ParamError(
            f"{name!r} is not an option of {where}{hint}; the options are "
            + ", ".join(OPTION_NAMES)
        )
    return Options(**options)
