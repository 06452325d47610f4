"""One topic as the one-topic kernels read it: the Python-list form of :class:`._ctx.Ctx`.

A training loop scores thousands of runs of one topic (or a few); a batch's numpy arrays
then cost more to make than the measures cost to compute. The rows of trec_eval's table
(:mod:`.spec`) whose family function has a one-topic form (``scalar=``) compute it from a
:class:`One`: the same relevance codes (:data:`._ctx.NONPOOL`, :data:`._ctx.UNJUDGED`, the
truncated label) and qrels levels, with the same floating-point operations in the same
order, so the same bits (tests/measures/trec/test_one_topic.py holds every kernel equal to
its family function, and to pytrec_eval).
"""

from __future__ import annotations

from bisect import bisect_left
from math import ceil, isfinite
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # pragma: no cover
    from ...core.small import Judged


class One:
    """One topic's ranked relevance codes and its judgements, at one relevance level.

    Parameters
    ----------
    codes : list of int
        The relevance code of each ranked document, in rank order (the ranking's depth is
        ``len(codes)``).
    judged : Judged
        The topic's judgements (:class:`cwlkit.core.small.Judged`: the levels, R).
    rel_level : float
        ``-l``: the smallest code counted relevant.
    version : int
        9 or 10 (trec_eval's rules where they differ).
    """

    __slots__ = ("codes", "judged", "rel_level", "version", "_rel")

    def __init__(self, codes: list[int], judged: Judged, rel_level: float, version: int):
        self.codes = codes
        self.judged = judged
        self.rel_level = rel_level
        self.version = version
        self._rel: list[int] | None = None

    @property
    def depth(self) -> int:
        """Documents retrieved (``num_ret``)."""
        return len(self.codes)

    @property
    def levels(self) -> list[float]:
        """Every qrels value of the topic, truncated toward zero, sorted descending."""
        return self.judged.levels

    @property
    def num_rel(self) -> int:
        """R: qrels entries with value >= max(0, ``-l``)."""
        return self.judged.num_rel(self.rel_level)

    @property
    def num_nonrel(self) -> int:
        """N: judged non-relevant qrels entries (0 <= value < ``-l``)."""
        return self.judged.num_nonrel(self.rel_level)

    @property
    def rel_ranks(self) -> list[int]:
        """The 0-based ranks of the relevant documents (code >= ``-l``), in order."""
        got = self._rel
        if got is None:
            low = self.rel_level  # (codes are ints: c >= low is c >= ceil(low), an int compare)
            low = ceil(low) if isfinite(low) else low
            got = self._rel = [i for i, c in enumerate(self.codes) if c >= low]
        return got

    def rel_at(self, k: int) -> int:
        """Relevant documents in the top ``k`` (all of them when ``k`` is past the end)."""
        ranks = self.rel_ranks
        if not ranks or ranks[-1] < k:
            return len(ranks)
        return bisect_left(ranks, k)

    def ap_sum(self, k: int) -> float:
        """The sum, over the relevant documents in the top ``k``, of the precision at each
        (``rel(i) / i``), added left to right as :func:`.precision.ap_terms` adds."""
        s = 0.0
        for n, i in enumerate(self.rel_ranks, 1):
            if i >= k:
                break
            s += n / (i + 1.0)
        return s


def div(a: float, b: float) -> float:
    """``a / b``, 0 when ``b`` is 0 (:func:`.set._div`)."""
    return a / b if b != 0 else 0.0
