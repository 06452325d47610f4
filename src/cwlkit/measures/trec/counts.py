"""Counting measures: ``num_ret``, ``num_rel``, ``num_rel_ret``, ``num_nonrel_judged_ret``.

Per topic: ``num_ret`` the documents retrieved (after ``-M`` and ``-J``), ``num_rel`` R (qrels
entries with value >= ``-l``), ``num_rel_ret`` the relevant documents retrieved,
``num_nonrel_judged_ret`` the retrieved documents judged non-relevant (0 <= value < ``-l``;
unjudged and negative-valued documents are not counted). All four are summed over topics.
"""

from __future__ import annotations

import numpy as np

from ._ctx import Ctx
from .one_topic import One


def num_ret(ctx: Ctx, params=None) -> list[np.ndarray]:
    """Documents retrieved."""
    return [ctx.num_ret.astype(np.float64)]


def num_rel(ctx: Ctx, params=None) -> list[np.ndarray]:
    """R, relevant documents in the qrels."""
    return [ctx.num_rel.astype(np.float64)]


def num_rel_ret(ctx: Ctx, params=None) -> list[np.ndarray]:
    """Relevant documents retrieved."""
    return [ctx.num_rel_ret.astype(np.float64)]


def num_nonrel_judged_ret(ctx: Ctx, params=None) -> list[np.ndarray]:
    """Retrieved documents judged non-relevant."""
    return [(ctx.nonrel & ctx.valid).sum(axis=1).astype(np.float64)]


# ---- one topic (see .one_topic) ------------------------------------------------------------


def num_ret_one(o: One, params=None) -> list[float]:
    """:func:`num_ret` of one topic."""
    return [float(o.depth)]


def num_rel_one(o: One, params=None) -> list[float]:
    """:func:`num_rel` of one topic."""
    return [float(o.num_rel)]


def num_rel_ret_one(o: One, params=None) -> list[float]:
    """:func:`num_rel_ret` of one topic."""
    return [float(len(o.rel_ranks))]


def num_nonrel_judged_ret_one(o: One, params=None) -> list[float]:
    """:func:`num_nonrel_judged_ret` of one topic."""
    low = o.rel_level
    return [float(sum(1 for c in o.codes if 0 <= c < low))]
