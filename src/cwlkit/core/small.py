"""A few topics of a pytrec_eval dict ranked in Python, for the one-topic kernels.

A training loop scores thousands of runs of one topic (or a few): making a batch's numpy
arrays then costs far more than the measures. :func:`rank_topics` ranks such a run as
:func:`cwlkit.core.direct.direct_batch` does (score descending, as float32 under trec_eval
9.0.8's rules, ties by document id descending in byte order; ``max_depth``; the ``run`` and
``both`` topics rules) and looks each ranked document up in the qrels, giving the relevance
codes trec_eval's measures read (:mod:`cwlkit.measures.trec._ctx`): the label truncated
toward zero, :data:`UNJUDGED` for a negative one, :data:`NONPOOL` for a document not in the
qrels. Its fixed cost is a few microseconds; a topic of 100 documents takes about 10.

Only well-formed input takes this path: a ``dict`` of ``dict``, string ids, ``float`` or
``int`` scores, no NaN, scores within float32's range under trec_eval 9.0.8's rules, qrels
labels within +-2^53. Anything else gives None, and the caller takes the batch path, which
accepts the other forms and names what is wrong.
"""

from __future__ import annotations

import struct
from bisect import bisect_right
from itertools import chain, repeat
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # pragma: no cover
    from ..io.grouped import GroupedQrels

__all__ = ["NONPOOL", "UNJUDGED", "Judged", "rank_topics"]

#: the relevance code of a ranked document not in the qrels (trec_eval's RELVALUE_NONPOOL)
NONPOOL = -1
#: the relevance code of a document judged with a negative label (RELVALUE_UNJUDGED)
UNJUDGED = -2
#: labels beyond this magnitude are refused by the measures (see ``_ctx.MAX_LEVEL``)
_MAX_LEVEL = 2.0**53
#: qrels of at most this many labels are checked in Python (larger: with numpy, once)
_PY_LABELS = 4096

_STR = {str}
_DICT = {dict}
_NUMBERS = {float, int}
_NUMBER = {float}


def rank_topics(
    qrels: GroupedQrels,
    run: Any,
    *,
    topics: str = "run",
    max_depth: int | None = None,
    score_precision: str = "single",
    drop_unjudged: bool = False,
) -> list[tuple[str, list[int], Judged]] | None:
    """Each kept topic of ``run``, in byte order, as (topic, the relevance codes of its
    ranking, its :class:`Judged`), or None: not a run this path takes (see the module).

    Parameters
    ----------
    qrels : GroupedQrels
        The judgements.
    run : dict
        ``{topic: {doc: score}}``; a topic without documents is no topic of the run.
    topics : {"run", "both"}
        Keep every topic of the run, or those the qrels judge too.
    max_depth : int, optional
        Keep the top ``max_depth`` documents of each ranking.
    score_precision : {"single", "double"}
        Rank by the scores as float32 (trec_eval 9.0.8) or as float64.
    drop_unjudged : bool
        Not taken here (None): the batch path drops the unjudged documents.
    """
    single = score_precision == "single"
    if type(run) is not dict or topics not in ("run", "both") or drop_unjudged:
        return None
    if not _labels_ok(qrels):
        return None
    if not set(map(type, run)) <= _STR or not set(map(type, run.values())) <= _DICT:
        return None
    by_topic = qrels.by_topic
    names = sorted(t for t, d in run.items() if d)  # (str order: UTF-8 byte order)
    if topics == "both":
        names = [t for t in names if t in by_topic]
    if not names:
        return None
    out = []
    for t in names:
        ranked = _ranking(run[t], single)
        if ranked is None:
            return None
        if max_depth is not None:
            ranked = ranked[:max_depth]
        judged = _judged(qrels, t)
        out.append((t, list(map(judged.codes.get, ranked, repeat(NONPOOL))), judged))
    return out


def _ranking(d: dict, single: bool) -> list[str] | None:
    """The documents of one topic's ``{doc: score}``, ranked (None: not well formed)."""
    if not set(map(type, d)) <= _STR:
        return None
    values = list(d.values())
    kinds = set(map(type, values))
    if not kinds <= _NUMBERS:
        return None
    n = len(values)
    try:
        if single:  # (round to float32 as a C cast does; OverflowError beyond its range)
            values = list(struct.unpack(f"{n}f", struct.pack(f"{n}f", *values)))
        elif not kinds <= _NUMBER:
            values = [float(x) for x in values]
    except OverflowError:
        return None
    total = sum(values)
    if total != total:  # (a NaN; or infinities of both signs: the batch path decides)
        return None
    score = dict(zip(d, values, strict=True))
    # document id descending, then (a stable sort) score descending
    return sorted(sorted(d, reverse=True), key=score.__getitem__, reverse=True)


class Judged:
    """One topic's judgements as the one-topic kernels read them.

    Attributes
    ----------
    codes : dict
        ``{doc: relevance code}``.
    levels : list of float
        Every label truncated toward zero, sorted descending.
    memo : dict
        What the measures derive from the judgements alone, kept with them.
    """

    __slots__ = ("codes", "levels", "memo", "_ascending", "_counts")

    def __init__(self, labels: dict[str, Any]) -> None:
        self.codes = {doc: _code(float(x)) for doc, x in labels.items()}
        self.levels = sorted((float(int(float(x))) for x in labels.values()), reverse=True)
        self._ascending = [-x for x in self.levels]
        self._counts: dict[float, int] = {}
        #: what the measures derive from the judgements alone (the ideal gains...), kept
        self.memo: dict[Any, Any] = {}

    def num_rel(self, rel: float) -> int:
        """R at relevance level ``rel``: the labels >= max(0, ``rel``) (kept per level)."""
        got = self._counts.get(rel)
        if got is None:
            low = rel if rel >= 0 else 0.0
            got = self._counts[rel] = bisect_right(self._ascending, -low)
        return got


def _judged(qrels: GroupedQrels, topic: str) -> Judged:
    """The :class:`Judged` of ``topic``, made on first use and kept in ``qrels.memo``."""
    memo = qrels.memo.setdefault("one_topic", {})
    got = memo.get(topic)
    if got is None:
        got = memo[topic] = Judged(qrels.by_topic.get(topic, {}))
    return got


def _code(label: float) -> int:
    """trec_eval's relevance code of a judged document's label."""
    c = int(label)
    return c if c >= 0 else UNJUDGED


def _labels_ok(qrels: GroupedQrels) -> bool:
    """Whether every label of ``qrels`` is within +-2^53 (checked once)."""
    got = qrels.memo.get("one_topic_ok")
    if got is None:
        inners = qrels.by_topic.values()
        if sum(map(len, inners)) <= _PY_LABELS:
            labels = chain.from_iterable(d.values() for d in inners)
            got = all(abs(float(x)) <= _MAX_LEVEL for x in labels)
        else:
            from .direct import label_values

            values = label_values(qrels)
            got = not values.size or bool(abs(values).max() <= _MAX_LEVEL)
        qrels.memo["one_topic_ok"] = got
    return got
