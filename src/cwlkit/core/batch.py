"""Join a run with its qrels once, into a topics x depth batch of labels.

Every measure in cwlkit is computed from a :class:`RankingBatch`: a dense ``[T, D]`` matrix of
the qrels label at each rank of each topic (``T`` topics, ``D`` the longest ranking), with
masks for judged documents and for ranks inside the run. Building it is the only step that
touches strings; it is done once and shared by every measure.
"""

from __future__ import annotations

from typing import Any, Literal

import numpy as np
import pyarrow as pa

from ..errors import NoTopicsError, ParamError
from ..io.text import encode_runs, from_numpy, from_strings, sort_rank, to_numpy
from ..io.trec import Qrels, Run
from ..support import compute as pc
from ..support.arrays import unique
from .ranking import RankingBatch

Order = Literal["score", "rank", "file"]
TopicSet = Literal["run", "qrels", "both", "either"]

__all__ = ["RankingBatch", "build_batch", "qrels_label_values"]


def build_batch(
    qrels: Qrels,
    run: Run,
    *,
    order: Order = "score",
    topics: TopicSet = "run",
    max_depth: int | None = None,
    score_precision: Literal["double", "single"] = "double",
    drop_unjudged: bool = False,
    light: bool = False,
) -> RankingBatch:
    """Join ``run`` with ``qrels`` into a :class:`RankingBatch`.

    Parameters
    ----------
    qrels, run : Qrels, Run
        As read by :func:`cwlkit.read_qrels` and :func:`cwlkit.read_run`.
    order : {"score", "rank", "file"}
        ``score``: score descending, ties broken by document id descending in byte order
        (trec_eval's rule; the rank column is ignored). ``rank``: the rank column ascending
        (ties by file order). ``file``: the order of the lines in the file (cwl_eval's rule).
    topics : {"run", "qrels", "both", "either"}
        Which topics the batch holds: those of the run, of the qrels, of both (intersection,
        trec_eval's default) or of either (union). A topic with no run lines has depth 0; a
        topic with no qrels lines has every document unjudged.
    max_depth : int, optional
        Keep only the first ``max_depth`` documents of each ranking (after ordering).
    score_precision : {"double", "single"}
        ``single`` rounds scores to float32 before ordering, as trec_eval 9.0.8 stores them:
        scores that differ by less than float32 resolution become ties.
    drop_unjudged : bool
        Remove documents that are not in the qrels or have a negative label, once each
        ranking is ordered and cut to ``max_depth`` (trec_eval's ``-J`` after ``-M``: the
        judged documents among the top ``max_depth``).
    light : bool
        Skip what only some measures need: the scores and the element-type codes (``scores``
        and ``q0`` are then ``[T, 0]``) and the document ids (``docs`` is then all None).
    """
    if order not in ("score", "rank", "file"):
        raise ParamError(f"order must be 'score', 'rank' or 'file'; got {order!r}")
    if topics not in ("run", "qrels", "both", "either"):
        raise ParamError(f"topics must be 'run', 'qrels', 'both' or 'either'; got {topics!r}")
    if max_depth is not None and max_depth < 0:
        raise ParamError(f"max_depth must be >= 0; got {max_depth}")
    if max_depth is not None:  # (past any ranking's length it keeps everything: fits int64)
        max_depth = min(int(max_depth), 2**62)
    # Steps below take the per-row arrays they need and return what the next step needs;
    # their temporaries die with them (at 10M rows each per-row array is 80 MB), so keep
    # no other reference here to an array a step replaces or deletes.
    run_topic, rt_dict, run_doc, rd_dict = run.codes()
    qt_codes, qt_dict = qrels.topic_codes()
    topic_dict, qrel_topic = _topic_space(rt_dict, qt_codes, qt_dict)
    qrows = run.qrels_rows(qrels)  # (a run read for these qrels: io/joint.py)
    if qrows is not None:
        found = qrows >= 0
        labels = qrels.labels if len(qrels) else np.full(1, np.nan)  # (no qrels: no row)
        run_label = np.where(found, labels[qrows], np.nan)  # (row -1: NaN, not judged)
        del qrows
    else:
        found, run_label = _run_labels(
            run_topic,
            run_doc,
            rd_dict,
            qrel_topic,
            qrels,
            _index_in(rt_dict, qt_dict),
            len(topic_dict),
        )
    kept_codes, row_of_code = _select_topics(topic_dict, run_topic, qrel_topic, topics, qrels, run)
    T = int(kept_codes.size)
    idx, row, col, scores, counts = _ranked_rows(
        run,
        run_topic,
        run_doc,
        row_of_code,
        found,
        run_label,
        T,
        order=order,
        max_depth=max_depth,
        score_precision=score_precision,
        drop_unjudged=drop_unjudged,
        light=light,
    )
    labels, judged, valid, score_m, q0, q0_dict = _run_matrices(
        run, T, idx, row, col, scores, counts, found, run_label, light
    )
    del found, run_label, scores
    qrel_labels, qcounts = _qrels_matrix(qrels, qrel_topic, row_of_code, T)
    label_values = qrels_label_values(qrels)
    return RankingBatch(
        topics=np.asarray(pc.take(topic_dict, from_numpy(kept_codes)).to_pylist(), dtype=object),
        depth=counts,
        labels=labels,
        judged=judged,
        valid=valid,
        scores=score_m,
        qrel_labels=qrel_labels,
        n_judged=qcounts,
        q0=q0,
        q0_names=[str(x) for x in q0_dict.to_pylist()],
        runid=run.runid,
        qrels_max_label=float(label_values[-1]) if label_values.size else None,
        qrels_label_values=label_values,
        _doc_source=None
        if light
        else (row, col, pc.take(run.table.column("doc"), from_numpy(idx))),
    )


def _topic_space(
    rt_dict: pa.Array, qt_codes: np.ndarray, qt_dict: pa.Array
) -> tuple[pa.Array, np.ndarray]:
    """The topic dictionary shared by run and qrels, and the qrels rows' codes in it."""
    # qrels topics -> run topic codes; topics only in the qrels get codes after the run's
    q2r = _index_in(qt_dict, rt_dict)
    missing = q2r < 0
    q2r[missing] = len(rt_dict) + np.arange(int(missing.sum()))
    topic_dict = (
        pa.concat_arrays([rt_dict, pc.filter(qt_dict, from_numpy(missing))])
        if missing.any()
        else rt_dict
    )
    return topic_dict, q2r[qt_codes]


def _run_labels(
    run_topic: np.ndarray,
    run_doc: np.ndarray,
    rd_dict: pa.Array,
    qrel_topic: np.ndarray,
    qrels: Qrels,
    run_to_qrels_topic: np.ndarray,
    n_codes: int,
) -> tuple[np.ndarray, np.ndarray]:
    """(found, label) of every run row: is (topic, document) in the qrels, and its label.

    ``qrel_topic`` holds the qrels rows' topic codes in the run's code space (``n_codes``
    codes); ``run_to_qrels_topic`` maps a run topic code to the qrels' own (-1: not judged).
    (A run read for the qrels already knows its rows' labels: see :mod:`cwlkit.io.joint`.)
    """
    _, _, qd_codes, qd_dict = qrels.codes()
    # run documents -> qrels document codes (-1: never judged)
    run_qdoc = _doc_lookup(run_doc, run_topic, rd_dict, qd_codes, qrel_topic, qd_dict, n_codes)[
        run_doc
    ]
    # look (qrels topic, qrels doc) up among the sorted qrels keys (the per-row temporaries
    # are computed in place and dropped as soon as used: at 10M rows each is 80 MB)
    qorder, qkeys_sorted, width = _sorted_qrels_keys(qrels)
    rkeys = run_to_qrels_topic[run_topic]
    unjudged = rkeys < 0
    unjudged |= run_qdoc < 0
    rkeys *= width
    rkeys += run_qdoc
    del run_qdoc
    rkeys[unjudged] = -1
    if qkeys_sorted.size:
        pos = np.searchsorted(qkeys_sorted, rkeys)
        np.minimum(pos, qkeys_sorted.size - 1, out=pos)
        found = qkeys_sorted[pos] == rkeys
        found &= ~unjudged
        del rkeys
        run_label = qrels.labels[qorder[pos]]
        del pos
        run_label[~found] = np.nan
    else:
        found = np.zeros(rkeys.size, bool)
        run_label = np.full(rkeys.size, np.nan)
        del rkeys
    return found, run_label


def _sorted_qrels_keys(qrels: Qrels) -> tuple[np.ndarray, np.ndarray, int]:
    """(order, sorted keys, width) of the qrels rows' ``topic * width + doc`` keys in the
    qrels' own codes. Kept with qrels of up to ``CACHED_QRELS_ROWS`` rows, which every run
    evaluated against them then reuses; larger qrels do not hold 16 more bytes a row."""
    got = qrels.memo.get("sorted_keys")
    if got is None:
        qt_codes, _, qd_codes, qd_dict = qrels.codes()
        width = len(qd_dict) + 1
        qkeys = qt_codes * width + qd_codes
        qorder = np.argsort(qkeys, kind="stable")
        got = (qorder, qkeys[qorder], width)
        if qkeys.size <= CACHED_QRELS_ROWS:
            qrels.memo["sorted_keys"] = got
    return got


#: the largest qrels whose sorted keys are kept between runs
CACHED_QRELS_ROWS = 1 << 20


def _select_topics(
    topic_dict: pa.Array,
    run_topic: np.ndarray,
    qrel_topic: np.ndarray,
    topics: TopicSet,
    qrels: Qrels,
    run: Run,
) -> tuple[np.ndarray, np.ndarray]:
    """The kept topic codes in strcmp order, and the batch row of every code (-1: dropped)."""
    n_codes = len(topic_dict)
    in_run = np.zeros(n_codes, bool)
    in_run[run_topic] = True
    in_qrels = np.zeros(n_codes, bool)
    in_qrels[qrel_topic] = True
    keep_code = {
        "run": in_run,
        "qrels": in_qrels,
        "both": in_run & in_qrels,
        "either": in_run | in_qrels,
    }[topics]
    trank = sort_rank(topic_dict)
    kept_codes = np.flatnonzero(keep_code)
    kept_codes = kept_codes[np.argsort(trank[kept_codes], kind="stable")]
    row_of_code = np.full(n_codes, -1, dtype=np.int64)
    row_of_code[kept_codes] = np.arange(kept_codes.size)
    if kept_codes.size == 0:
        raise NoTopicsError.between(run.path, qrels.path, topics)
    return kept_codes, row_of_code


def _kept_rows(
    run: Run,
    run_topic: np.ndarray,
    run_doc: np.ndarray,
    row_of_code: np.ndarray,
    *,
    score_precision: str,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """(run row index, batch row, score, document code) of the run rows of kept topics, in
    file order."""
    row = row_of_code[run_topic]
    keep = row >= 0
    scores = to_numpy(run.table.column("score"))
    if keep.all():  # the usual case: no copies of the per-row arrays
        idx = np.arange(keep.size)
        kept_doc = run_doc
    else:
        idx = np.flatnonzero(keep)
        row, scores, kept_doc = row[idx], scores[idx], run_doc[idx]
    if score_precision == "single":
        # float32 orders and ties exactly as float32 values widened back to float64 would;
        # a score beyond float32's range is +-inf, as in trec_eval 9.0.8's float
        with np.errstate(over="ignore"):
            scores = scores.astype(np.float32)
    elif score_precision != "double":
        raise ParamError(f"score_precision must be 'double' or 'single'; got {score_precision!r}")
    return idx, row, scores, kept_doc


def _ranked_rows(
    run: Run,
    run_topic: np.ndarray,
    run_doc: np.ndarray,
    row_of_code: np.ndarray,
    found: np.ndarray,
    run_label: np.ndarray,
    T: int,
    *,
    order: Order,
    max_depth: int | None,
    score_precision: str,
    drop_unjudged: bool,
    light: bool = False,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """(run row, batch row, column, score) of the kept rows ranked and cut, and the depths.

    ``light``: the batch keeps only each rank's label (NaN: unjudged), so documents that tie
    in score and carry the same label are interchangeable and keep their file order."""
    idx, row, scores, kept_doc = _kept_rows(
        run, run_topic, run_doc, row_of_code, score_precision=score_precision
    )
    # (the label's bits: NaN, unjudged, is always np.nan's)
    same = run_label[idx].view(np.int64) if light else None
    perm = _rank_order(run, order, idx, row, scores, kept_doc, same)
    idx, row, scores = idx[perm], row[perm], scores[perm]
    del perm, kept_doc
    counts = np.bincount(row, minlength=T).astype(np.int64)
    starts = np.concatenate(([0], np.cumsum(counts)[:-1]))
    col = np.arange(idx.size, dtype=np.int64) - starts[row]
    if max_depth is not None:
        sel = col < max_depth
        idx, row, scores, col = idx[sel], row[sel], scores[sel], col[sel]
        counts = np.minimum(counts, max_depth)
    if drop_unjudged:  # (after the cut, as trec_eval's -J after -M)
        with np.errstate(invalid="ignore"):  # (negative once truncated: -0.5 is 0, judged)
            sel = found[idx] & (run_label[idx] > -1)
        idx, row, scores = idx[sel], row[sel], scores[sel]
        counts = np.bincount(row, minlength=T).astype(np.int64)
        starts = np.concatenate(([0], np.cumsum(counts)[:-1]))
        col = np.arange(idx.size, dtype=np.int64) - starts[row]
    return idx, row, col, scores, counts


def _rank_order(
    run: Run,
    order: Order,
    idx: np.ndarray,
    row: np.ndarray,
    scores: np.ndarray,
    kept_doc: np.ndarray,
    key: np.ndarray | None = None,
) -> np.ndarray:
    """Permutation of the kept rows into topic order, each topic in ``order`` (``key``: see
    :func:`_score_order`)."""
    if order == "score":
        return _score_order(run, kept_doc, scores, row, key)
    if order == "rank":
        ranks = _parse_ranks(run, idx)
        return np.lexsort((idx, ranks, row))
    return np.lexsort((idx, row))


def _run_matrices(
    run: Run,
    T: int,
    idx: np.ndarray,
    row: np.ndarray,
    col: np.ndarray,
    scores: np.ndarray,
    counts: np.ndarray,
    found: np.ndarray,
    run_label: np.ndarray,
    light: bool,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, pa.Array]:
    """The [T, D] matrices of the ranked rows: labels, judged, valid, scores, q0 (+ names)."""
    D = int(counts.max(initial=0))
    full = idx.size == T * D  # (every ranking D long: the rows fill the matrices in order)
    flat = None if full else row * D + col

    def matrix(values: np.ndarray, fill: Any) -> np.ndarray:
        if full:
            return values.reshape(T, D)
        out = np.full(T * D, fill, dtype=values.dtype)
        out[flat] = values
        return out.reshape(T, D)

    labels = matrix(run_label[idx], np.nan)
    judged = matrix(found[idx], False)
    valid = np.arange(D)[None, :] < counts[:, None]
    score_m = np.full((T, 0), np.nan) if light else matrix(scores.astype(np.float64), np.nan)
    if light:
        q0 = np.full((T, 0), -1, dtype=np.int64)
        q0_dict = from_strings([])
    else:
        q0_codes, q0_dict = encode_runs(run.table.column("q0"))  # usually one value throughout
        q0 = np.full((T, D), -1, dtype=np.int64)
        q0[row, col] = q0_codes[idx]
    return labels, judged, valid, score_m, q0, q0_dict


def _qrels_matrix(
    qrels: Qrels, qrel_topic: np.ndarray, row_of_code: np.ndarray, T: int
) -> tuple[np.ndarray, np.ndarray]:
    """float64[T, Q] qrels labels of each kept topic sorted descending, and int64[T] counts
    (read-only; the last one is kept with qrels of up to ``CACHED_QRELS_ROWS`` rows, for the
    next run that keeps the same topics)."""
    qrow = row_of_code[qrel_topic]
    key = (T, qrow.tobytes())  # (T too: topics without qrels rows add rows of their own)
    got = qrels.memo.get("qrels_matrix")
    if got is not None and got[0] == key:
        return got[1]
    out = _qrels_rows(qrels.labels, qrow, T)
    for a in out:
        a.setflags(write=False)
    if qrow.size <= CACHED_QRELS_ROWS:
        qrels.memo["qrels_matrix"] = (key, out)
    return out


def _qrels_rows(qlabels: np.ndarray, qrow: np.ndarray, T: int) -> tuple[np.ndarray, np.ndarray]:
    """:func:`_qrels_matrix` of the qrels rows' batch rows ``qrow`` (-1: topic not kept)."""
    qsel = np.flatnonzero(qrow >= 0)
    qrow = qrow[qsel]
    ql = qlabels[qsel]
    qperm = np.lexsort((-ql, qrow))
    qrow, ql = qrow[qperm], ql[qperm]
    qcounts = np.bincount(qrow, minlength=T).astype(np.int64)
    qstarts = np.concatenate(([0], np.cumsum(qcounts)[:-1]))
    qcol = np.arange(qrow.size) - qstarts[qrow]
    qrel_labels = np.full((T, int(qcounts.max(initial=0))), np.nan)
    qrel_labels[qrow, qcol] = ql
    return qrel_labels, qcounts


def qrels_label_values(qrels: Qrels) -> np.ndarray:
    """float64, the distinct finite labels of the whole qrels, ascending (cached on ``qrels``)."""
    got = qrels.memo.get("label_values")
    if got is None:
        got = to_numpy(pc.unique(qrels.table.column("label"))).astype(np.float64)
        got = np.sort(got[np.isfinite(got)])
        got.setflags(write=False)  # (shared by every batch of these qrels)
        qrels.memo["label_values"] = got
    return got


def _index_in(values: pa.Array, value_set: pa.Array) -> np.ndarray:
    """int64 position of each of ``values`` in ``value_set``, -1 when absent."""
    return to_numpy(pc.index_in(values, value_set=value_set), null=-1).astype(np.int64)


#: run dictionary entries per block of :func:`_doc_lookup`
LOOKUP_BLOCK = 1 << 16


def _doc_lookup(
    run_doc: np.ndarray,
    run_topic: np.ndarray,
    run_dict: pa.Array,
    qrel_doc: np.ndarray,
    qrel_topic: np.ndarray,
    qrel_dict: pa.Array,
    n_topics: int,
) -> np.ndarray:
    """Qrels document code of each entry of the run's document dictionary, -1 when the
    document is not judged for any topic it is retrieved for.

    The run dictionary is looked up block by block (``LOOKUP_BLOCK`` entries), each block
    only among the qrels documents of the topics whose run rows use its entries: small hash
    tables that stay in cache, several times faster than one lookup of millions of strings in
    the whole qrels dictionary. An entry judged only for other topics gets -1, which changes
    nothing downstream (its (topic, document) pair is not in the qrels). When the blocks'
    value sets would add up to more than twice the qrels (topics spread over the whole run),
    the whole dictionary is looked up at once instead.

    Parameters
    ----------
    run_doc, run_topic : numpy.ndarray
        int64 dictionary code and topic code of every run row.
    run_dict, qrel_dict : pyarrow.Array
        The run's and the qrels' document dictionaries.
    qrel_doc, qrel_topic : numpy.ndarray
        int64 ``qrel_dict`` code and topic code (same code space as ``run_topic``) of every
        qrels row.
    n_topics : int
        Number of topic codes.
    """
    n = len(run_dict)
    n_blocks = -(-n // LOOKUP_BLOCK)
    if n_blocks <= 1 or run_doc.size == 0:
        return _index_in(run_dict, qrel_dict)
    # distinct (block, topic) pairs: keys only change where a run of rows does
    key = (run_doc // LOOKUP_BLOCK) * n_topics + run_topic
    heads = key[np.concatenate(([0], np.flatnonzero(key[1:] != key[:-1]) + 1))]
    pairs = unique(heads)
    pair_block, pair_topic = pairs // n_topics, pairs % n_topics
    qorder = np.argsort(qrel_topic, kind="stable")
    qbounds = np.searchsorted(qrel_topic[qorder], np.arange(n_topics + 1))
    per_topic = np.diff(qbounds)
    if per_topic[pair_topic].sum() > 2 * qrel_topic.size:
        return _index_in(run_dict, qrel_dict)
    block_bounds = np.searchsorted(pair_block, np.arange(n_blocks + 1))
    out = np.full(n, -1, dtype=np.int64)

    def block(k: int) -> None:  # (blocks write disjoint slices of out)
        tops = pair_topic[block_bounds[k] : block_bounds[k + 1]]
        lo, cnt = qbounds[tops], per_topic[tops]
        total = int(cnt.sum())
        if total == 0:
            return
        rows = qorder[np.repeat(lo - (np.cumsum(cnt) - cnt), cnt) + np.arange(total)]
        codes = qrel_doc[rows]  # may repeat a document: index_in gives its first position
        a, b = k * LOOKUP_BLOCK, min(n, (k + 1) * LOOKUP_BLOCK)
        got = to_numpy(
            pc.index_in(run_dict.slice(a, b - a), value_set=pc.take(qrel_dict, from_numpy(codes))),
            null=-1,
        )
        out[a:b] = np.where(got >= 0, codes[np.maximum(got, 0)], -1)

    from ..support.threads import thread_map

    thread_map(block, range(n_blocks))
    return out


def _score_order(
    run: Run,
    doc_codes: np.ndarray,
    scores: np.ndarray,
    row: np.ndarray,
    key: np.ndarray | None = None,
) -> np.ndarray:
    """Permutation ordering rows by topic, score descending, then docno descending (bytes).

    Docnos are compared only inside groups of tied scores, so only the documents that tie are
    sorted as strings; with ``key`` (an int64 per row), only groups whose rows do not all
    have the same key (rows of equal key are interchangeable: they keep file order).
    """
    same_topic = row[1:] == row[:-1]
    n_topics = int(np.count_nonzero(np.bincount(row))) if row.size else 0
    contiguous = int(np.count_nonzero(~same_topic)) == n_topics - 1
    n = row.size
    if contiguous and not np.any(same_topic & (scores[1:] > scores[:-1])):
        # the usual file: each topic's lines together, scores non-increasing. Only the
        # topic blocks move (what a stable sort of the topic indices would do), each block
        # keeping its score order
        start = np.concatenate(([0], np.flatnonzero(~same_topic) + 1))
        length = np.diff(np.concatenate((start, [n])))
        border = np.argsort(row[start])
        to = np.cumsum(length[border]) - length[border]  # where each moved block lands
        perm = np.arange(n) + np.repeat(start[border] - to, length[border])
        same_row = np.ones(max(n - 1, 0), dtype=bool)
        same_row[to[1:] - 1] = False
    else:
        perm = np.lexsort((-scores, row))
        r = row[perm]
        same_row = r[1:] == r[:-1]
        del r
    s = scores[perm]
    tie = np.zeros(perm.size, dtype=bool)
    same = (s[1:] == s[:-1]) & same_row
    del s, same_row
    tie[1:] |= same
    tie[:-1] |= same
    if not tie.any():
        return perm
    pos = np.flatnonzero(tie)
    tied = perm[pos]
    # tie-group id of each tied row: a new group unless it ties with the row before it
    new = np.ones(pos.size, dtype=bool)
    new[1:] = ~same[pos[1:] - 1]
    group = np.cumsum(new, dtype=np.int32 if pos.size < 2**31 else np.int64)
    if key is not None:  # a group is mixed when two neighbours in it differ in key
        k = key[tied]
        differ = k[1:] != k[:-1]
        differ &= ~new[1:]
        mixed = np.zeros(int(group[-1]) + 1, dtype=bool)
        mixed[group[1:] * differ] = True  # (group ids start at 1: 0 marks "no")
        mixed[0] = False
        keep = np.flatnonzero(mixed[group])
        pos, tied, group = pos[keep], tied[keep], group[keep]
    names = pc.take(run.codes()[3], from_numpy(doc_codes[tied]))
    perm[pos] = tied[_tie_order(group, names)]
    return perm


def _tie_order(group: np.ndarray, names: pa.Array) -> np.ndarray:
    """Permutation sorting rows by ``group`` (ascending, already non-decreasing), then
    ``names`` descending (bytes). Parts that split no group are sorted by separate threads."""
    from ..support.threads import cores, thread_map

    n = group.size
    cuts = [0]
    for k in range(1, cores() if n >= TIE_PART_ROWS else 1):
        cut = int(np.searchsorted(group, group[k * n // cores()], side="left"))
        if cut > cuts[-1]:
            cuts.append(cut)
    cuts.append(n)

    def part(ab: tuple[int, int]) -> np.ndarray:
        a, b = ab
        got = pc.sort_indices(
            pa.table({"g": from_numpy(group[a:b]), "d": names.slice(a, b - a)}),
            sort_keys=[("g", "ascending"), ("d", "descending")],
        )
        return to_numpy(got) + a

    spans = list(zip(cuts[:-1], cuts[1:], strict=True))
    return np.concatenate(thread_map(part, spans, least=2))


#: tied rows from which :func:`_tie_order` sorts parts in several threads
TIE_PART_ROWS = 1 << 16


def _parse_ranks(run: Run, idx: np.ndarray) -> np.ndarray:
    col = pc.take(run.table.column("rank"), from_numpy(idx))
    try:
        return to_numpy(pc.cast(col, pa.int64()))
    except (pa.ArrowInvalid, pa.ArrowNotImplementedError):
        from ..errors import FormatError

        for i, t in enumerate(col.to_pylist()):
            try:
                int(t)
            except ValueError:
                raise FormatError(
                    run.path, int(run.lines[idx[i]]), f"expected an integer rank, got {t!r}"
                ) from None
        raise FormatError(run.path, None, "could not parse the rank column") from None
