"""The prepared evaluation the executors run: options checked, measures parsed, qrels read.

:class:`~cwlkit.plan.plan.Plan` scores a ranking batch into :class:`~cwlkit.results.Results`;
:mod:`~cwlkit.plan.parts` joins the Results of a run's parts. It knows no way of running:
that is :mod:`cwlkit.executors`' business.
"""

from .options import CWL_COLUMNS, TOPIC_RULES, TREC_VERSION, Options, make_options
from .parts import first_appearance, join_parts, reorder
from .plan import Plan

__all__ = [
    "CWL_COLUMNS",
    "TOPIC_RULES",
    "TREC_VERSION",
    "Options",
    "Plan",
    "first_appearance",
    "join_parts",
    "make_options",
    "reorder",
]
