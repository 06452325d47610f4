"""The ranking batch of a run held in Python, built with numpy alone (no pyarrow).

:func:`direct_batch` joins a :class:`~cwlkit.io.grouped.Grouped` run (pytrec_eval dict,
pandas DataFrame) with :class:`~cwlkit.io.grouped.GroupedQrels` into the
:class:`~cwlkit.core.batch.RankingBatch` that :func:`~cwlkit.core.batch.build_batch` makes
of the same input, array for array and bit for bit (tests/test_same_bits.py holds them
equal for every registered measure): the same topics in byte order, the same ranking (score
descending, float32 under trec_eval 9.0.8's rules, ties by document id descending in byte
order), the same labels, cuts and qrels matrices.

Each run row's label comes from its topic's ``{doc: label}`` dict at C speed, a topic at a
time (:func:`_labels`: a dict of the topic's documents updated with its judgements); the
scores are ordered one topic at a time (an ``argsort`` along a [topics, depth] grid of
integer keys); document ids are compared as strings only inside groups of tied scores, and
only the ids of those groups are read. Its fixed cost is a few dozen numpy calls, so a call
on a handful of documents takes a fraction of a millisecond, and at a million rows it does
no string encoding.
"""

from __future__ import annotations

from itertools import chain, compress, islice, repeat
from operator import ior, itemgetter
from typing import TYPE_CHECKING, Any

import numpy as np

from ..errors import NoTopicsError, ParamError
from .ranking import RankingBatch

if TYPE_CHECKING:  # pragma: no cover
    from ..io.grouped import Grouped, GroupedQrels

__all__ = ["direct_batch", "qrels_arrays"]

_NAN = float("nan")
_EMPTY: dict = {}
_NOTHING = repeat(_EMPTY)  # (the judgements of a topic without any: read, never changed)
_NONE = repeat(-1)  # (the index of a topic the qrels lack)
_NANS = repeat(repeat(_NAN))  # (each topic's lookups' default, NaN: not judged)


def qrels_arrays(q: GroupedQrels) -> tuple[dict[str, int], np.ndarray, np.ndarray, np.ndarray]:
    """(topic -> index, int64 counts, int64 starts, float64 labels of each topic sorted
    descending, topic after topic) of ``q``, derived once and kept in ``q.memo``."""
    got = q.memo.get("arrays")
    if got is None:
        topics = list(q.by_topic)
        inners = list(q.by_topic.values())
        counts = np.fromiter(map(len, inners), np.int64, len(inners))
        n = int(counts.sum())
        labels = q.memo.pop("labels", None)  # (read already when the dict was checked)
        if labels is None or labels.size != n:
            labels = np.fromiter(chain.from_iterable(d.values() for d in inners), np.float64, n)
        starts = (np.cumsum(counts) - counts).astype(np.int64)  # ([] for no topic)
        if n <= 64:  # (a few: sorted in Python, stable as lexsort, descending)
            flat, ends = labels.tolist(), np.cumsum(counts).tolist()
            labels = np.array(
                [
                    x
                    for a, b in zip(starts.tolist(), ends, strict=True)
                    for x in sorted(flat[a:b], reverse=True)
                ],
                dtype=np.float64,
            )
        else:
            labels = _descending(labels, counts)
        got = (dict(zip(topics, range(len(topics)), strict=True)), counts, starts, labels)
        q.memo["arrays"] = got
    return got


#: labels spanning at most this many integers are sorted by counting them (when there are
#: more than COUNTED_FROM: fewer are sorted, in fewer numpy calls)
COUNTED_LABELS = 64
COUNTED_FROM = 4096


def _descending(labels: np.ndarray, counts: np.ndarray) -> np.ndarray:
    """float64, each group of ``labels`` (consecutive, ``counts`` of them) sorted descending.

    Labels that are integers in a span of at most :data:`COUNTED_LABELS` (graded relevance:
    0..4, -2..2) are counted, not sorted: a histogram of (group, label) pairs, each group's
    labels then repeated by their counts, highest first; the result is the sort's, bit for
    bit (a label that the integer it stands for does not give back exactly, -0.0 or 2.5, a
    wider span, and more groups than labels allow a small histogram are sorted: ``lexsort``).
    """
    groups = np.repeat(np.arange(counts.size), counts)
    if labels.size > COUNTED_FROM:
        top = labels.max()
        span = top - labels.min()
        k = int(span) + 1 if span < COUNTED_LABELS else 0
        if k and counts.size * k <= 4 * labels.size:  # (the histogram: a few times the labels)
            code = (top - labels).astype(np.int64)  # (0: the highest label)
            back = top - np.arange(k, dtype=np.float64)
            if np.array_equal(back[code].view(np.int64), labels.view(np.int64)):
                code += groups * k
                hist = np.bincount(code, minlength=counts.size * k)
                return np.repeat(np.tile(back, counts.size), hist)
    return labels[np.lexsort((-labels, groups))]


def label_values(q: GroupedQrels) -> np.ndarray:
    """float64, the distinct labels of ``q``, ascending (cached)."""
    got = q.memo.get("label_values")
    if got is None:
        # (np.unique's steps: sort, keep each first of equal values; without np.unique,
        # which imports numpy.ma, 7 ms of a cold start)
        got = np.sort(qrels_arrays(q)[3])
        if got.size:
            keep = np.empty(got.size, dtype=bool)
            keep[0] = True
            np.not_equal(got[1:], got[:-1], out=keep[1:])
            got = got[keep]
        got.setflags(write=False)  # (shared by every batch of these qrels)
        q.memo["label_values"] = got
    return got


def direct_batch(
    qrels: GroupedQrels,
    run: Grouped,
    *,
    topics: str = "run",
    max_depth: int | None = None,
    score_precision: str = "double",
    drop_unjudged: bool = False,
    light: bool = False,
) -> RankingBatch:
    """The :class:`RankingBatch` of ``run`` against ``qrels``, ranked by score.

    Parameters are :func:`cwlkit.core.batch.build_batch`'s (``order="score"``). A topic the
    run lacks (kept by ``topics="qrels"`` or ``"either"``) is marked in ``memo["absent"]``.
    """
    if topics not in ("run", "qrels", "both", "either"):
        raise ParamError(f"topics must be 'run', 'qrels', 'both' or 'either'; got {topics!r}")
    if max_depth is not None and max_depth < 0:
        raise ParamError(f"max_depth must be >= 0; got {max_depth}")
    if score_precision not in ("single", "double"):
        raise ParamError(f"score_precision must be 'double' or 'single'; got {score_precision!r}")
    t = _Topics(qrels, run, topics)
    # (the qrels' arrays first, while no array of the run's size is held: lower peak memory)
    index = qrels_arrays(qrels)[0]
    qrel_labels, n_judged = _qrels_matrix(qrels, list(map(index.get, t.batch_topics, _NONE)))
    values = label_values(qrels)
    r = _ranked(t, qrels, run, score_precision, light)
    if max_depth is not None:
        r.cut(r.rank0() < max_depth)
        r.depth = np.minimum(r.depth, max_depth)
    if drop_unjudged:
        with np.errstate(invalid="ignore"):
            r.cut(r.label[r.idx] > -1)  # (NaN, unjudged, is not)
        r.depth = np.bincount(r.row, minlength=t.T).astype(np.int64)
        r.col = None
    batch = RankingBatch(
        topics=np.asarray(t.batch_topics, dtype=object),
        depth=r.depth,
        qrel_labels=qrel_labels,
        n_judged=n_judged,
        runid=run.tag,
        qrels_max_label=float(values[-1]) if values.size else None,
        qrels_label_values=values,
        **r.matrices(light),
    )
    if topics in ("qrels", "either"):
        absent = np.zeros(t.T, dtype=bool)
        absent[t.row_of[t.n_run :]] = True
        batch.memo["absent"] = absent
    return batch


class _Topics:
    """The topics a batch holds (``topics`` rule): the run's kept ones (``kept``, indices
    into the run's topics), then the qrels' ones the run lacks; ``row_of`` maps each to its
    batch row (byte order)."""

    def __init__(self, qrels: GroupedQrels, run: Grouped, topics: str) -> None:
        by_topic = qrels.by_topic
        rt = run.topics
        if topics in ("run", "either"):
            self.kept = list(range(len(rt)))
            names = list(rt)
        else:
            self.kept = list(compress(range(len(rt)), map(by_topic.__contains__, rt)))
            names = list(map(rt.__getitem__, self.kept))
        self.n_run = len(names)
        if topics in ("qrels", "either"):
            in_run = set(rt)
            names += [x for x in by_topic if x not in in_run]
        if not names:
            raise NoTopicsError.between(run.path, qrels.path, topics)
        self.names = names
        self.T = T = len(names)
        order = sorted(range(T), key=names.__getitem__)  # (str order: UTF-8 byte order)
        self.row_of = np.empty(T, dtype=np.int64)
        self.row_of[order] = np.arange(T)
        self.batch_topics = list(map(names.__getitem__, order))


class _Ranked:
    """The run's rows in batch order (``idx`` into the run's flat rows; ``row``, ``scores``
    and ``col`` of each), with every row's ``label``, each batch row's ``depth`` and the
    document ids listed (``ids``, in the run's row order) when the tie-break made them."""

    def __init__(self, T: int, depth: np.ndarray, idx: np.ndarray, scores: np.ndarray) -> None:
        self.T, self.depth, self.idx, self.scores = T, depth, idx, scores
        self._row: np.ndarray | None = None
        self.col: np.ndarray | None = None
        self.label: np.ndarray = np.zeros(0)
        self.docs: list = []
        self.ids: list | None = None
        self.n = int(idx.size)

    @property
    def row(self) -> np.ndarray:
        """Each kept row's batch row (made on first use: not held while ties are broken,
        which is when the most memory is)."""
        if self._row is None:
            self._row = np.repeat(np.arange(self.T), self.depth)
        return self._row

    @row.setter
    def row(self, value: np.ndarray) -> None:
        self._row = value

    def same_as_next(self) -> np.ndarray:
        """bool[n - 1]: whether each kept row ties the next one (same score, same topic)."""
        same = self.scores[1:] == self.scores[:-1]
        ends = np.cumsum(self.depth)[:-1] - 1  # (each batch row's last: the next is another)
        same[ends[(ends >= 0) & (ends < same.size)]] = False
        return same

    def rank0(self) -> np.ndarray:
        """Each kept row's rank - 1 (made once)."""
        if self.col is None:
            starts = np.concatenate(([0], np.cumsum(self.depth)[:-1]))
            self.col = np.arange(self.idx.size, dtype=np.int64) - starts[self.row]
        return self.col

    def cut(self, sel: np.ndarray) -> None:
        """Keep the rows where ``sel``."""
        self.idx, self.row, self.scores = self.idx[sel], self.row[sel], self.scores[sel]
        if self.col is not None:
            self.col = self.col[sel]

    def matrices(self, light: bool) -> dict[str, Any]:
        """The batch's [T, D] matrices (labels, judged, valid; scores, q0 and the
        document ids unless ``light``)."""
        T, depth = self.T, self.depth
        D = int(depth.max(initial=0))
        full = self.idx.size == T * D
        if not (full and light):
            self.rank0()
        flat_pos = None if full or self.col is None else self.row * D + self.col

        def matrix(values: np.ndarray, fill: object) -> np.ndarray:
            if full:
                return values.reshape(T, D)
            out = np.full(T * D, fill, dtype=values.dtype)
            out[flat_pos] = values
            return out.reshape(T, D)

        lab = self.label[self.idx]
        self.label = np.zeros(0)
        valid = np.ones((T, D), dtype=bool) if full else np.arange(D)[None, :] < depth[:, None]
        out: dict[str, Any] = {
            "labels": matrix(lab, np.nan),
            "judged": matrix(~np.isnan(lab), False),
            "valid": valid,
        }
        if light:
            return out | {
                "scores": np.full((T, 0), np.nan),
                "q0": np.full((T, 0), -1, dtype=np.int64),
                "q0_names": [],
            }
        every = chain.from_iterable(self.docs) if self.ids is None else self.ids
        flat = np.fromiter(every, dtype=object, count=self.n)
        docs_m = np.full((T, D), None, dtype=object)
        docs_m[self.row, self.col] = flat[self.idx]
        return out | {
            "scores": matrix(self.scores.astype(np.float64), np.nan),
            "q0": np.where(valid, 0, -1).astype(np.int64),
            "q0_names": ["Q0"],
            "_docs": docs_m,
        }


def _ranked(
    t: _Topics, qrels: GroupedQrels, run: Grouped, score_precision: str, light: bool
) -> _Ranked:
    """The kept run rows looked up in the qrels and ranked: score descending (float32 under
    ``"single"``), ties by document id descending in byte order."""
    if t.n_run == len(run.topics):
        counts, scores, docs = run.counts, run.scores, run.docs
    else:
        counts = run.counts[t.kept]
        scores = run.scores[np.repeat(np.isin(np.arange(len(run.topics)), t.kept), run.counts)]
        docs = [run.docs[i] for i in t.kept]
    n = int(scores.size)
    if score_precision == "single":
        with np.errstate(over="ignore"):
            scores = scores.astype(np.float32)
    perm = _score_order(t.row_of[: t.n_run], counts, scores)
    depth = np.zeros(t.T, dtype=np.int64)
    depth[t.row_of[: t.n_run]] = counts
    out = _Ranked(t.T, depth, perm, scores[perm])
    same = out.same_as_next()
    if not same.any():
        out.label = _labels(qrels.by_topic, t.names[: t.n_run], docs, counts, n)
        out.docs = docs
        return out
    # ties: document id descending, in byte (code point) order; the ids of the tied rows
    # listed while the labels are looked up (every row's in a small ranking, or when most
    # rows tie)
    ids: list = []
    tied = at = None
    if n > LISTED_TIES:
        in_group = np.zeros(n, dtype=bool)
        in_group[1:] = same
        in_group[:-1] |= same
        if np.count_nonzero(in_group) * 2 < n:
            tied = np.empty(n, dtype=bool)
            tied[perm] = in_group  # (by run row)
            listed = np.flatnonzero(tied)
            at = np.zeros(n, dtype=np.int64)  # (a tied row's place in ids)
            at[listed] = np.arange(listed.size)
            del listed
        del in_group
    keep = None if tied is None else tied.tobytes()
    out.scores = scores[:0]  # (made again once the ties are broken: lower peak memory)
    out.label = _labels(qrels.by_topic, t.names[: t.n_run], docs, counts, n, ids, keep)
    out.docs = docs
    out.idx = _break_ties(perm, same, ids, out.label if light else None, at)
    out.scores = scores[out.idx]
    if at is None:
        out.ids = ids
    return out


def _labels(
    by_topic: dict[str, dict[str, Any]],
    names: list[str],
    docs: list,
    counts: np.ndarray,
    n: int,
    ids: list | None = None,
    keep: bytes | None = None,
) -> np.ndarray:
    """float64[n], the label of every run row (topic ``names[i]``'s documents ``docs[i]``,
    ``counts[i]`` of them, topic after topic) in its topic's ``{doc: label}`` dict of
    ``by_topic``; NaN for a document not judged. ``ids``: a list extended with the
    document id of every row, topic after topic (None: not listed), or only of the rows
    whose byte of ``keep`` is not 0.

    A topic at a time and at C speed: a dict of its documents (in the run's order) mapping
    to NaN, updated with the topic's judgements (``|=``: a judged document keeps its place
    and takes its label, the others are added after the run's), whose first ``counts[i]``
    values are the labels. This is faster than one ``dict.get`` per row (no call per row),
    and the lazy maps keep one topic's dicts and ids in cache at a time (the ids are listed
    while there, which costs far less than another pass over them).
    """
    if n <= SMALL_TIES and ids is None:  # (a few: a lookup each, in fewer Python calls)
        getters = [by_topic.get(x, _EMPTY).get for x in names]
        return np.fromiter(chain.from_iterable(map(map, getters, docs, _NANS)), np.float64, n)
    merged = map(ior, map(dict.fromkeys, docs, repeat(_NAN)), map(by_topic.get, names, _NOTHING))
    firsts: Any = map(islice, map(dict.values, merged), counts.tolist())
    if ids is not None:  # (each topic's labels, once its ids are listed)
        # (compress takes a topic's bytes of keep from the one iterator: a byte per id)
        listed = docs if keep is None else map(compress, docs, repeat(iter(keep)))
        firsts = map(itemgetter(0), zip(firsts, map(ids.extend, listed), strict=True))
    return np.fromiter(chain.from_iterable(firsts), np.float64, n)


def _score_order(row_of: np.ndarray, counts: np.ndarray, scores: np.ndarray) -> np.ndarray:
    """A permutation ordering the rows (``counts[i]`` of run topic i, topic after topic) by
    batch row (``row_of[i]``: topic i's), then score descending (tied scores in any order:
    they are ordered by document id afterwards)."""
    T, n = counts.size, scores.size
    D = int(counts.max(initial=0)) if n > GRID_ROWS else 0
    if D and T * D <= 2 * n:
        return _grid_order(row_of, counts, _descending_key(scores), D)
    row = np.repeat(row_of, counts)
    if scores.dtype == np.float32 and n > SMALL_TIES:
        # one sort of uint64 keys: the row above, the score's key (32 bits) below
        key = row.astype(np.uint64)
        key <<= np.uint64(32)
        key |= _descending_key(scores)
        return np.argsort(key)
    return np.lexsort((-scores, row))


def _descending_key(scores: np.ndarray) -> np.ndarray:
    """Unsigned integers of the float32 or float64 ``scores``' width, in the opposite order
    (a larger score, a smaller key; -0.0 and 0.0, which tie, the same key; no NaN): a
    non-negative score's bits with all but the sign flipped, a negative one's as they are."""
    width = np.uint32 if scores.dtype == np.float32 else np.uint64
    bits = (scores + scores.dtype.type(0)).view(width)  # (+0: -0.0 as 0.0)
    # (in place, an array of the scores' size at a time)
    key = bits >> width(8 * bits.itemsize - 1)
    key ^= width(1)
    key *= width(np.iinfo(width).max >> 1)
    key ^= bits
    return key


def _grid_order(row_of: np.ndarray, counts: np.ndarray, key: np.ndarray, D: int) -> np.ndarray:
    """:func:`_score_order` by one sort per topic (``argsort`` along the rows of a
    [topics, D] grid of the keys, the gaps of shorter topics filled with the largest key,
    which no score has: NaN's bits): log(D) comparisons per row, not log(n)."""
    T = counts.size
    full = T * D == key.size
    if full:
        grid = key.reshape(T, D)
    else:
        grid = np.full((T, D), np.iinfo(key.dtype).max, dtype=key.dtype)
        grid[np.arange(D) < counts[:, None]] = key
    local = np.argsort(grid, axis=1)  # (a row's padding, the largest keys, last)
    del grid
    order = np.argsort(row_of)  # (the topics in batch order)
    local = local[order]
    local += (np.cumsum(counts) - counts)[order, None]  # (into the run's flat rows)
    if full:
        return local.reshape(-1)
    return local[np.arange(D) < counts[order, None]]


#: a ranking of more than this many rows is ordered by score one topic at a time (a grid);
#: a smaller one by one sort, in fewer numpy calls
GRID_ROWS = 4096
#: a ranking of more than this many rows, under half of them tied, has only the ids of the
#: tied ones listed
LISTED_TIES = 1 << 14

#: tie groups of at most this many documents are ordered by comparing every pair of their
#: document ids (no sort, no string array); larger ones are sorted
PAIRWISE_GROUP = 32
#: documents of the small tie groups ordered at a time
PAIRWISE_BLOCK = 1 << 16


def _break_ties(
    perm: np.ndarray,
    same: np.ndarray,
    ids: list,
    label: np.ndarray | None,
    at: np.ndarray | None = None,
) -> np.ndarray:
    """``perm`` (rows in batch order, scores descending; changed in place) with each group
    of tied scores ordered by document id descending (Python's ``str`` order: code points,
    which is UTF-8 byte order). ``same[i]``: positions i and i + 1 tie. ``ids``: the
    document ids, a list in the order ``perm`` indexes (``at``: int64, the place in it of
    each row that ties; None: every row's). ``label`` (a light batch, which
    keeps no document id): each row's label (NaN: unjudged); a group whose labels are all
    equal is left in any order, as no array of the batch can tell its documents apart.

    A document id appears once per topic, so within a group the ids are distinct and a
    document's place is the number of the group's ids above its own: counted by comparing
    every pair of a small group at C speed (``object`` arrays compare as ``str``), the
    groups of one size together; larger groups are sorted by their ids as a numpy string
    array. Only the ids of the groups ordered are read (looked up in ``ids``).
    """
    n = perm.size
    if n <= SMALL_TIES:
        return _break_ties_small(perm, same, ids, label)
    edge = np.zeros(n + 1, dtype=np.int8)
    edge[1:n] = same
    edge = edge[1:] - edge[:-1]  # (1: a group starts; -1: one ends, at that position)
    starts = np.flatnonzero(edge == 1)  # (each group's first position)
    sizes = np.flatnonzero(edge == -1) - starts + 1  # (... and its size)
    del edge
    if label is not None:
        mixed = _mixed(label, perm[_members(starts, sizes)], sizes)
        starts, sizes = starts[mixed], sizes[mixed]
    m = int(sizes.sum())
    if not m:
        return perm
    # (a few ids looked up in the list one by one; many: the list as an object array first,
    # indexed by numpy, whose gathers overlap their cache misses)
    source: Any = np.fromiter(ids, object, len(ids)) if m * LIST_LOOKUPS > len(ids) else ids
    if at is not None:
        source = (source, at)
    big = sizes > PAIRWISE_GROUP
    if big.any():  # (rare: sorted)
        _order_sorted(perm, _members(starts[big], sizes[big]), sizes[big], source)
        starts, sizes = starts[~big], sizes[~big]
    # the groups of a block of PAIRWISE_BLOCK documents (in ranking order: the ids of a few
    # topics, in cache while compared; and bounded memory) of each size together
    block = (np.cumsum(sizes) - sizes) // PAIRWISE_BLOCK
    key = block * (PAIRWISE_GROUP + 1) + sizes
    order = np.argsort(key, kind="stable")
    starts, sizes, key = starts[order], sizes[order], key[order]
    bounds = [0, *(np.flatnonzero(key[1:] != key[:-1]) + 1).tolist(), key.size] if key.size else []
    for lo, hi in zip(bounds[:-1], bounds[1:], strict=True):
        at = starts[lo:hi, None] + np.arange(int(sizes[lo]))  # (positions in perm)
        _order_pairwise(perm, at, source)
    return perm


#: the ids of the tie groups to order are looked up in the list of ids one by one when they
#: are fewer than 1 / LIST_LOOKUPS of them (else the list is made an object array first)
LIST_LOOKUPS = 4


def _members(starts: np.ndarray, sizes: np.ndarray) -> np.ndarray:
    """The positions of groups (their ``starts`` and ``sizes``), group after group."""
    first = np.repeat(starts - (np.cumsum(sizes) - sizes), sizes)
    return first + np.arange(first.size)


def _mixed(label: np.ndarray, rows: np.ndarray, sizes: np.ndarray) -> np.ndarray:
    """Which groups of ``rows`` (consecutive, of ``sizes``) do not all have the same label
    (NaN, unjudged, a label of its own)."""
    key = label[rows]
    key[np.isnan(key)] = np.inf  # (labels are finite: inf is unjudged)
    first = np.cumsum(sizes) - sizes
    return np.minimum.reduceat(key, first) != np.maximum.reduceat(key, first)


#: a ranking of at most this many rows has its ties ordered in Python (a few numpy calls
#: cost more than the work)
SMALL_TIES = 256


def _break_ties_small(
    perm: np.ndarray, same: np.ndarray, ids: list, label: np.ndarray | None
) -> np.ndarray:
    """:func:`_break_ties` for a few rows: each tie group sorted by ``sorted`` (ids are
    distinct within a group: descending order is exact)."""
    p = perm.tolist()
    flags = same.tolist()
    lab = None if label is None else label.tolist()
    inf = float("inf")
    i, last = 0, len(flags)
    while i < last:
        if not flags[i]:
            i += 1
            continue
        j = i + 1
        while j < last and flags[j]:
            j += 1
        group = p[i : j + 1]  # (rows i..j tie)
        if lab is None or len({v if v == v else inf for v in map(lab.__getitem__, group)}) > 1:
            p[i : j + 1] = sorted(group, key=ids.__getitem__, reverse=True)
        i = j + 1
    return np.asarray(p, dtype=perm.dtype)


def _order_pairwise(perm: np.ndarray, at: np.ndarray, ids: Any) -> None:
    """Order in place the groups of ``perm`` at the positions ``at`` (int [groups, size],
    a group a row) by document id descending: each id's place is the count of its group's
    ids greater than it, from one comparison per pair (``object`` arrays compare as
    ``str``), a pair of columns at a time (views: no copy of the ids)."""
    size = at.shape[1]
    rows = perm[at]
    got = _ids_of(ids, rows).reshape(rows.shape)
    place = np.zeros(rows.shape, dtype=np.intp)  # (how many ids of its group above each)
    for a in range(size - 1):
        for b in range(a + 1, size):
            above = got[:, b] > got[:, a]  # (b's id above a's: a one place lower)
            place[:, a] += above
            above ^= True
            place[:, b] += above
    del got
    out = np.empty_like(rows)
    out[np.arange(rows.shape[0])[:, None], place] = rows
    perm[at] = out


def _ids_of(ids: Any, rows: np.ndarray) -> np.ndarray:
    """object[rows.size], the ids of ``rows`` (flattened): ``ids`` indexed (an object
    array), or each looked up in it (a list); ``ids`` may be a pair (such ids, int64 place
    in them of each row)."""
    if isinstance(ids, tuple):
        ids, rows = ids[0], ids[1][rows]
    if isinstance(ids, np.ndarray):
        return ids[rows.reshape(-1)]
    return np.fromiter(map(ids.__getitem__, rows.reshape(-1).tolist()), object, rows.size)


def _order_sorted(perm: np.ndarray, pos: np.ndarray, sizes: np.ndarray, ids: Any) -> None:
    """Order in place the groups of ``perm[pos]`` (consecutive, of ``sizes``) by document
    id descending, by sorting (large groups)."""
    rows = perm[pos]
    group = np.repeat(np.arange(sizes.size), sizes)
    names = _ids_of(ids, rows).astype(str)
    _, rank = np.unique(names, return_inverse=True)
    perm[pos] = rows[np.lexsort((-rank.reshape(-1), group))]


#: a batch of at most this many topics has its qrels matrix filled a topic at a time
SMALL_MATRIX = 8


def _qrels_matrix(qrels: GroupedQrels, where: list[int]) -> tuple[np.ndarray, np.ndarray]:
    """float64[T, Q] labels of each batch topic (its qrels index in ``where``, -1: none)
    sorted descending, NaN-padded, and int64[T] counts (read-only; the last is kept)."""
    key = tuple(where)
    got = qrels.memo.get("matrix")
    if got is not None and got[0] == key:
        return got[1]
    _, qcounts, qstarts, qsorted = qrels_arrays(qrels)
    if len(where) == 1 and where[0] >= 0:  # (one topic, as a training loop's runs: a slice)
        a, c = int(qstarts[where[0]]), int(qcounts[where[0]])
        out = qsorted[a : a + c].reshape(1, c)
        counts = np.array([c], dtype=np.int64)
        out.setflags(write=False)
        counts.setflags(write=False)
        return out, counts
    if len(where) <= SMALL_MATRIX:  # (a few topics: a slice each)
        spans = [(int(qstarts[i]), int(qcounts[i])) if i >= 0 else (0, 0) for i in where]
        counts = np.array([c for _, c in spans], dtype=np.int64)
        out = np.full((len(where), max(c for _, c in spans)), np.nan)
        for j, (a, c) in enumerate(spans):
            out[j, :c] = qsorted[a : a + c]
        out.setflags(write=False)
        counts.setflags(write=False)
        qrels.memo["matrix"] = (key, (out, counts))
        return out, counts
    w = np.asarray(where, dtype=np.int64)
    has = w >= 0
    if not qcounts.size:  # (qrels of no topic: nothing to index)
        has[:] = False
        w = np.zeros_like(w)
        qcounts = qstarts = np.zeros(1, dtype=np.int64)
    counts = np.where(has, qcounts[np.maximum(w, 0)], 0).astype(np.int64)
    Q = int(counts.max(initial=0))
    out = np.full((w.size, Q), np.nan)
    total = int(counts.sum())
    if total:  # (each topic's labels to the left of its row, rows in order: a mask's cells)
        src = np.repeat(qstarts[np.maximum(w, 0)] - (np.cumsum(counts) - counts), counts)
        src += np.arange(total)
        out[np.arange(Q) < counts[:, None]] = qsorted[src]
    out.setflags(write=False)
    counts.setflags(write=False)
    qrels.memo["matrix"] = (key, (out, counts))
    return out, counts
