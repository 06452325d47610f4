"""ranx's spellings of the measures cwlkit has (``hit_rate@10``, ``mrr@10``, ``f1``,
``ndcg_burges@10``) as a syntax of the one measure parser.

Each resolves to cwlkit's measure where that is the same measure as ranx 0.3's definition
(``ranx.metrics``), and is otherwise refused with the cwlkit measure to ask for:

=====================  ===================================  ================================
ranx                   ranx's definition                    cwlkit
=====================  ===================================  ================================
``hit_rate@k``         1 if a relevant document is in the   ``Success@k`` (trec_eval's
                       top k                                ``success_k``)
``mrr``, ``mrr@k``     1 / rank of the first relevant       ``RR``, ``RR@k`` (0 past rank k)
                       document (0 past rank k)
``f1``                 2PR / (P + R), P and R of the whole  ``F`` (trec_eval's ``set_F``)
                       run
``ndcg_burges@k``      sum (2^g - 1) / log2(i + 1) over     ``nDCG(dcg='exp-log2')@k``
                       the top k, over the same of the      (gdeval.pl's nDCG)
                       qrels' labels sorted, cut at k
``f1@k``               P@k = hits / k (k even past the      refused: ``F@k`` divides by the
                       run's end), R@k = hits / R           documents retrieved up to k
``hit_rate``,          the whole run (no cutoff)            refused: ``Success@k`` and
``ndcg_burges``                                             ``nDCG(dcg='exp-log2')@k`` need
                                                            a cutoff (k at least the run's
                                                            length reads the whole run)
=====================  ===================================  ================================

Relevant is a label >= 1 (ranx's ``rel_lvl=1``); a negative label counts as 0. ranx orders
documents with tied scores its own way; cwlkit breaks ties as trec_eval does.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..errors import UnknownMeasureError
from .registry import register_syntax

if TYPE_CHECKING:  # pragma: no cover
    from .base import Measure

#: ranx's name (lower case) -> (cwlkit's spelling without the cutoff, with "@k" appended
#: when the name has one; or None when cwlkit has no measure for that form)
_SAME = {
    "hit_rate": "Success",
    "f1": "F",
    "ndcg_burges": "nDCG(dcg='exp-log2')",
}
#: why a form of a ranx name is refused, and what to ask for instead
_REFUSED = {
    ("hit_rate", False): "ranx's hit_rate reads the whole run; cwlkit's Success needs a "
    "cutoff: ask for Success@k with k at least the runs' length (e.g. 'Success@1000')",
    ("ndcg_burges", False): "ranx's ndcg_burges reads the whole run; gdeval.pl's nDCG "
    "needs a cutoff: ask for \"nDCG(dcg='exp-log2')@k\" with k at least the runs' length",
    ("f1", True): "ranx's f1@k is 2PR/(P+R) with P = hits / k even past the run's end; "
    "cwlkit's 'F@{k}' divides by the documents retrieved up to k (the same on runs of at "
    "least {k} documents): ask for 'F@{k}'",
}


@register_syntax
def ranx_syntax(text: str) -> list[Measure] | None:
    """cwlkit's measure of a ranx spelling (``hit_rate@10``, ``f1``, ``ndcg_burges@10``);
    None for any other spelling (``mrr`` and ``mrr@k`` are ``RR``'s own aliases)."""
    name, at, cutoff = text.strip().partition("@")
    low = name.lower()
    if low not in _SAME or (at and not cutoff):
        return None
    refused = _REFUSED.get((low, bool(at)))
    if refused is not None:
        raise UnknownMeasureError(text.strip(), hint=refused.format(k=cutoff))
    from .parse import parse_measures

    return parse_measures(_SAME[low] + (f"@{cutoff}" if at else ""))
