"""A few topics of a pytrec_eval dict ranked without a batch, for the one-topic kernels.

A training loop scores thousands of runs of one topic (or a few): making a batch's numpy
arrays then costs far more than the measures. :func:`rank_topics` ranks such a run as
:func:`cwlkit.core.direct.direct_batch` does (score descending, as float32 under trec_eval
9.0.8's rules, ties by document id descending in byte order; ``max_depth``; the ``run`` and
``both`` topics rules), a topic at a time with a few numpy calls on its scores, and looks
each ranked document up in the qrels, giving the relevance codes trec_eval's measures read
(:mod:`cwlkit.measures.trec._ctx`): the label truncated toward zero, :data:`UNJUDGED` for a
negative one, :data:`NONPOOL` for a document not in the qrels. Its fixed cost is a few
microseconds; a topic of 100 documents takes about 15.

Only well-formed input takes this path: a ``dict`` of ``dict``, string ids, ``float`` or
``int`` scores, no NaN, no infinities of both signs, qrels labels within +-2^53. Anything
else gives None, and the caller takes the batch path, which accepts the other forms and
names what is wrong.
"""

from __future__ import annotations

import struct
from bisect import bisect_right
from itertools import chain
from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:  # pragma: no cover
    from ..io.grouped import GroupedQrels

__all__ = ["NONPOOL", "UNJUDGED", "Judged", "rank_topics"]

#: the relevance code of a ranked document not in the qrels (trec_eval's RELVALUE_NONPOOL)
NONPOOL = -1
#: the relevance code of a document judged with a negative label (RELVALUE_UNJUDGED)
UNJUDGED = -2
#: labels beyond this magnitude are refused by the measures (see ``_ctx.MAX_LEVEL``)
_MAX_LEVEL = 2.0**53
#: a topic of at most this many documents is ranked in Python (more: with numpy); measured
#: on 1 to 50 documents, Python's sorts cost half numpy's fixed cost at 3, the same at 30
_PY_RANKING = 24
#: qrels of at most this many labels are checked in Python (larger: with numpy, once)
_PY_LABELS = 4096

_STR = {str}
_DICT = {dict}
_NUMBERS = {float, int}
#: the largest magnitudes of finite scores (as float32 under trec_eval 9.0.8's rules)
_F32_MAX = float(np.finfo(np.float32).max)
_F64_MAX = float(np.finfo(np.float64).max)


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
        d = run[t]
        ranks = _ranking(d, single)
        if ranks is None:
            return None
        if max_depth is not None:
            ranks = ranks[:max_depth]
        judged = _judged(qrels, t)
        code, docs = judged.codes.get, list(d)
        out.append((t, [code(docs[i], NONPOOL) for i in ranks], judged))
    return out


def _ranking(d: dict, single: bool) -> list[int] | None:
    """The ranks of one topic's ``{doc: score}``: the positions in ``list(d)`` of its
    documents, best first (None: not well formed).

    The scores are ordered by numpy's argsort of their negation (as float32 when
    ``single``: rounded to nearest as a C cast rounds); each run of tied scores (``-0.0``
    ties ``0.0``), in whatever order the sort left it, is then put in document id order,
    descending. Only the tied ids are compared as strings. A topic of at most
    :data:`_PY_RANKING` documents is ranked by :func:`_ranking_py` (no numpy call).
    """
    kinds = set(map(type, d.values()))
    if not set(map(type, d)) <= _STR or not kinds <= _NUMBERS:
        return None
    if len(d) <= _PY_RANKING:
        return _ranking_py(d, single, int in kinds)
    v = _scores(d, single)
    if v is None:
        return None
    w = -v
    order = w.argsort()
    w = w[order]
    tied = (w[1:] == w[:-1]).nonzero()[0].tolist()  # (i: ranks i and i + 1 tie)
    ranks = order.tolist()
    if tied:
        _order_ties(ranks, tied, list(d))
    return ranks


def _ranking_py(d: dict, single: bool, ints: bool) -> list[int] | None:
    """:func:`_ranking` of checked ids and scores (``ints``: some are ``int``) by two stable
    sorts in Python: the ranks by id descending, then by score descending (rounded to
    float32 by ``struct`` when ``single``, as a C cast rounds)."""
    values = list(d.values())
    n = len(values)
    try:
        if single:
            values = list(struct.unpack(f"{n}f", struct.pack(f"{n}f", *values)))
        elif ints:
            values = [float(x) for x in values]  # (as numpy compares them: ints as doubles)
    except (OverflowError, struct.error):  # (an int beyond a double's range)
        return None
    total = sum(values)
    if total != total:  # (a NaN; or infinities of both signs: the batch path decides)
        return None
    by_id = sorted(range(n), key=list(d).__getitem__, reverse=True)
    return sorted(by_id, key=values.__getitem__, reverse=True)


def _scores(d: dict, single: bool) -> np.ndarray | None:
    """The checked scores of ``{doc: score}`` (as float32 when ``single``), or None: an int
    beyond a double, a NaN, infinities of both signs."""
    try:
        v = np.fromiter(d.values(), np.float64, len(d))
    except OverflowError:  # (an int beyond a double's range)
        return None
    if not np.abs(v).max() <= (_F32_MAX if single else _F64_MAX):
        return _beyond(v, single)  # (NaN, an infinity, or beyond float32's range)
    return v.astype(np.float32) if single else v


def _beyond(v: np.ndarray, single: bool) -> np.ndarray | None:
    """Scores some of which are not finite or (``single``) beyond float32's range, which
    then rank as infinity; None when a NaN is among them, or infinities of both signs (the
    batch path decides)."""
    with np.errstate(over="ignore", invalid="ignore"):
        if single:
            v = v.astype(np.float32)
        total = float(v.sum())
    return None if total != total else v


def _order_ties(ranks: list[int], tied: list[int], docs: list[str]) -> None:
    """Sort, by id (``docs[rank]``) descending, each run of ``ranks`` that ``tied``
    (ascending ``i``: ranks ``i`` and ``i + 1`` tie) marks as tied."""
    start = end = tied[0]
    for i in [*tied[1:], -1]:
        if i != end + 1:
            group = ranks[start : end + 2]
            ranks[start : end + 2] = sorted(group, key=docs.__getitem__, reverse=True)
            start = i
        end = i


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

    def num_nonrel(self, rel: float) -> int:
        """N at relevance level ``rel``: the labels in [0, ``rel``) (none when ``rel`` <= 0)."""
        return self.num_rel(0.0) - self.num_rel(rel) if rel > 0 else 0


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
