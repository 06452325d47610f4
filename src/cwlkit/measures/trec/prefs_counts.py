"""Counting preferences fulfilled by a ranking, as trec_eval's ``form_prefs_counts`` does.

Vocabulary (trec_eval's): a topic's judgments are split into judgment groups (JG, one user's
information need); a JG is split into sub-groups (JSG). Within a JSG, a document with a higher
level is preferred to one with a lower level.

Every document judged anywhere in a topic gets a *docid rank*: the retrieved ones are numbered
``0 .. njr-1`` in ranking order (``njr`` = number of judged documents retrieved), the others
``njr ..`` in document-id (``strcmp``) order. A preference ``a > b`` is

* *retrieved* when both are retrieved, and then *fulfilled* when ``a`` is ranked above ``b``;
* *implied* when exactly one is retrieved, and then *fulfilled* when that one is ``a``;
* *not occurring* when neither is retrieved (possible, never fulfilled).

A JG with a single JSG is an *equivalence-class* (EC) JG: every pair of its lines with
different levels is a preference (a document listed twice counts twice). A JG with several
JSGs is a *preference-array* (PA) JG: the preferences of its JSGs are united and closed
transitively; each ordered document pair counts once; a pair preferred both ways is an error.

Relevant documents of a JG are those with level > 0. In an EC JG every other line counts as
non-relevant; in a PA JG only level == 0 does (negative levels are neither), and a document
is counted once, with the class of its last level in (JSG, level descending) order.

Everything is computed over all topics at once, with no loop per topic, JG or rank:

* EC JGs are counted per line b from its JG's lines sorted by (level descending, rank): the
  lines preferred to b are the block of higher levels before it (a prefix-sum difference), and
  those of them ranked above b come from a vectorised bottom-up merge count (O(n log² n) over
  the retrieved lines); nothing quadratic is materialised.
* PA JGs: the sub-group preferences are enumerated and closed by batched boolean matrix
  products (JGs stacked by size), giving one row per preference.
* ``prefs_pair*`` needs, per document pair, the preferences of every JG; where a topic has a
  single JG and no repeated line no pair can carry two preferences and the pair measures equal
  the ``simp`` ones; elsewhere that topic's preferences are enumerated and grouped by pair.
* Per-JG tallies are ``numpy.bincount`` reductions.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from ...errors import CwlkitError

PREFS_MEASURES = (
    "prefs_num_prefs_poss",
    "prefs_num_prefs_ful",
    "prefs_num_prefs_ful_ret",
    "prefs_simp",
    "prefs_pair",
    "prefs_avgjg",
    "prefs_avgjg_Rnonrel",
    "prefs_simp_ret",
    "prefs_pair_ret",
    "prefs_avgjg_ret",
    "prefs_avgjg_Rnonrel_ret",
    "prefs_simp_imp",
    "prefs_pair_imp",
    "prefs_avgjg_imp",
)
"""trec_eval's preference measures, in its print (table) order."""

PREFS_COUNTS = ("prefs_num_prefs_poss", "prefs_num_prefs_ful", "prefs_num_prefs_ful_ret")
"""Measures that are counts: printed as integers, summed (not averaged) over topics."""

_CLOSURE_CELLS = 1 << 24  # bound on the cells of one batched closure product


def _count(index: np.ndarray, minlength: int = 0, weights: np.ndarray | None = None) -> np.ndarray:
    """``numpy.bincount`` as float64 (also when ``index`` is empty)."""
    w = None if weights is None else np.asarray(weights, dtype=np.float64)
    return np.bincount(index, weights=w, minlength=minlength).astype(np.float64)


def _segments(*keys: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """For rows sorted by ``keys``: (start, end) of the run of equal keys each row is in."""
    n = keys[0].size
    new = np.zeros(n, dtype=bool)
    if n:
        new[0] = True
        for k in keys:
            new[1:] |= k[1:] != k[:-1]
    starts = np.flatnonzero(new)
    ends = np.append(starts[1:], n)
    seg = np.cumsum(new) - 1
    return starts[seg], ends[seg]


def _lower_pairs(group: np.ndarray, level: np.ndarray, rank: np.ndarray):
    """Every (a, b) pair of rows of one group with level[a] > level[b].

    Returns the sort order of the rows (group, level descending, rank) and the pair indices
    into that order; b runs over the contiguous block of lower levels of a's group.
    """
    order = np.lexsort((rank, -level, group))
    g, lv = group[order], level[order]
    _, gend = _segments(g)
    _, lend = _segments(g, lv)
    counts = gend - lend
    total = int(counts.sum())
    a = np.repeat(np.arange(order.size), counts)
    b = np.arange(total) - np.repeat(np.cumsum(counts) - counts, counts) + np.repeat(lend, counts)
    return order, a, b


def _closure_pairs(
    jg: np.ndarray, ra: np.ndarray, rb: np.ndarray, label: Callable[[int], str], what: str
):
    """Transitive closure of the preference pairs (jg, ra > rb); returns the closed pairs.

    Each JG's documents are numbered locally; JGs of similar size (next power of two) are
    stacked and closed together by repeated boolean squaring of ``I + A``.
    """
    keys = np.unique(np.concatenate([jg * (1 << 32) + ra, jg * (1 << 32) + rb]))
    doc_jg = keys >> 32
    doc_r = keys & ((1 << 32) - 1)
    jg_ids, start, size = np.unique(doc_jg, return_index=True, return_counts=True)
    local = np.arange(keys.size) - np.repeat(start, size)
    ia = local[np.searchsorted(keys, jg * (1 << 32) + ra)]
    ib = local[np.searchsorted(keys, jg * (1 << 32) + rb)]
    slot = np.searchsorted(jg_ids, jg)  # JG -> row of jg_ids
    width = 1 << np.ceil(np.log2(np.maximum(size, 1))).astype(np.int64)
    out_jg, out_a, out_b = [], [], []
    for w in np.unique(width):
        rows = np.flatnonzero(width == w)
        per = max(1, _CLOSURE_CELLS // int(w * w))
        for c0 in range(0, rows.size, per):
            chunk = rows[c0 : c0 + per]
            pos = np.full(jg_ids.size, -1, dtype=np.int64)
            pos[chunk] = np.arange(chunk.size)
            sel = pos[slot] >= 0
            m = np.zeros((chunk.size, int(w), int(w)), dtype=np.float32)
            m[pos[slot[sel]], ia[sel], ib[sel]] = 1.0
            eye = np.eye(int(w), dtype=bool)
            m[:, eye] = 1.0
            while True:
                nxt = (np.matmul(m, m) > 0).astype(np.float32)
                if np.array_equal(nxt, m):
                    break
                m = nxt
            closed = m > 0
            closed[:, eye] = False
            both = closed & closed.transpose(0, 2, 1)
            if both.any():
                k, i, _ = np.argwhere(both)[0]
                g = int(jg_ids[chunk[k]])
                raise CwlkitError(
                    f"{what}: inconsistent preferences in judgment group {label(g)}: through its "
                    "sub-groups two documents end up preferred to each other"
                )
            k, i, j = np.nonzero(closed)
            rows_k = chunk[k]
            out_jg.append(jg_ids[rows_k])
            out_a.append(doc_r[start[rows_k] + i])
            out_b.append(doc_r[start[rows_k] + j])
    if not out_jg:
        e = np.zeros(0, dtype=np.int64)
        return e, e, e
    return np.concatenate(out_jg), np.concatenate(out_a), np.concatenate(out_b)


def prefs_values(
    line_topic: np.ndarray,
    line_jg: np.ndarray,
    line_jsg: np.ndarray,
    level: np.ndarray,
    rank: np.ndarray,
    njr: np.ndarray,
    topic_of_jg: np.ndarray,
    *,
    what: str = "prefs",
    jg_labels: Sequence[str] | None = None,
) -> dict[str, np.ndarray]:
    """Per-topic values of every preference measure.

    Parameters
    ----------
    line_topic, line_jg, line_jsg : numpy.ndarray
        int64 per judgment line: topic index (``0..T-1``), judgment group id (``0..G-1``,
        numbered in topic then JG-name order) and sub-group id (any ids, distinct per JG).
    level : numpy.ndarray
        float64 preference level of each line.
    rank : numpy.ndarray
        int64 docid rank of the line's document within its topic (see module docstring).
    njr : numpy.ndarray
        int64[T], judged documents retrieved per topic.
    topic_of_jg : numpy.ndarray
        int64[G], the topic of each JG.
    what : str
        Name of the judgments file, for error messages.
    jg_labels : sequence of str, optional
        How to name each JG in error messages (e.g. ``"'G' of topic 'T'"``).

    Returns
    -------
    dict of str to numpy.ndarray
        ``measure -> float64[T]`` for every name in :data:`PREFS_MEASURES`.

    Notes
    -----
    With, per JG, ``ful``/``poss`` counted over all preferences, ``_ret`` over retrieved ones,
    ``_imp`` over retrieved and implied ones:

    * ``prefs_num_prefs_poss`` = Σ poss, ``prefs_num_prefs_ful`` = Σ ful (retrieved + implied),
      ``prefs_num_prefs_ful_ret`` = Σ ful_ret (sums over JGs).
    * ``prefs_simp*`` = Σ_JG ful / Σ_JG poss (0 when nothing is possible).
    * ``prefs_avgjg*`` = Σ_JG (ful/poss, 0 if poss = 0) / #JG, set to 0 unless the sum is > 0.
    * ``prefs_pair*``: for every unordered document pair with at least one preference in
      any JG, the fraction of its preferences that favour the higher-ranked document (by
      docid rank); averaged over the pairs (pairs of two unretrieved documents count as 0 in
      ``prefs_pair``, are left out of ``_imp``; ``_ret`` keeps only retrieved pairs).
    * ``prefs_avgjg_Rnonrel``: per JG with R relevant and N non-relevant documents, if R ≥ N
      the JG gets ``(ful + R_ret (R-N)) / (poss + R (R-N))``, as if R-N non-relevant
      documents ranked below everything were added; otherwise only the first R non-relevant
      documents (docid-rank order) are kept and the preferences recounted (in an EC JG
      trec_eval also pairs the lowest class with itself there; reproduced). Averaged over
      JGs like ``avgjg`` (a 0/0 JG makes the topic 0, as in trec_eval).
    * ``prefs_avgjg_Rnonrel_ret``: the same with R, N counted among retrieved documents and
      only retrieved pairs (trec_eval's quirks kept: R (R-N) uses the full R, and a PA JG
      keeps the first *R* retrieved non-relevant documents).
    """
    T = int(njr.size)
    G = int(topic_of_jg.size)

    def label(g: int) -> str:
        return (
            str(jg_labels[g]) if jg_labels is not None else f"#{g} of topic #{int(topic_of_jg[g])}"
        )

    # --- classify JGs: EC (one sub-group) or PA (several)
    width = int(line_jsg.max(initial=0)) + 1
    n_jsg = _count(np.unique(line_jg * width + line_jsg) // width, minlength=G)
    is_pa = n_jsg > 1
    njr_jg = njr[topic_of_jg]
    pa_line = is_pa[line_jg]

    ec = _ec_lines(line_jg, level, rank, np.flatnonzero(~pa_line), njr_jg, label, what)
    counts = _ec_counts(ec, G)
    pa = np.flatnonzero(pa_line)
    p_jg, p_jsg, p_lv, p_r = line_jg[pa], line_jsg[pa], level[pa], rank[pa]
    closed = _pa_closed_prefs(p_jg, p_jsg, p_lv, p_r, label, what)
    doc_keys, doc_lv = _pa_documents(p_jg, p_jsg, p_lv, p_r, label, what)
    _add_pa_counts(counts, doc_keys, doc_lv, closed, njr_jg, G)

    n_jgs = _count(topic_of_jg, T)
    out = _topic_values(counts, topic_of_jg, n_jgs, T)
    simp = (out["prefs_simp"], out["prefs_simp_ret"], out["prefs_simp_imp"])
    out["prefs_pair"], out["prefs_pair_ret"], out["prefs_pair_imp"] = _pair_measures(
        ec, closed, topic_of_jg, njr, n_jgs, simp
    )
    return {m: out[m] for m in PREFS_MEASURES}


@dataclass
class _ECLines:
    """The lines of the EC JGs sorted by (JG, level descending, rank), with what each line b
    needs to count the preferences a > b of its JG (one entry per line)."""

    jg: np.ndarray
    lv: np.ndarray
    r: np.ndarray
    ret: np.ndarray  # b is retrieved
    lstart: np.ndarray  # first line of b's level class
    in_last: np.ndarray  # b is in its JG's lowest-level class
    higher: np.ndarray  # lines preferred to b (float64)
    higher_ret: np.ndarray  # ... of them retrieved (float64)
    above: np.ndarray  # ... of them retrieved and ranked above b, for a retrieved b (float64)


@dataclass
class _JGCounts:
    """Per-JG tallies (float64[G] each) from which every per-JG fraction follows.

    ``num_*``: relevant / non-relevant documents (all, retrieved); ``poss*``/``ful*``:
    possible / fulfilled preferences (all, retrieved pairs, implied pairs); ``rn_*`` and
    ``rnr_*``: total and fulfilled preferences of the ``Rnonrel`` recounts (all, retrieved),
    used where R < N.
    """

    num_rel: np.ndarray
    num_nonrel: np.ndarray
    num_rel_ret: np.ndarray
    num_nonrel_ret: np.ndarray
    poss: np.ndarray
    poss_ret: np.ndarray
    poss_imp: np.ndarray
    ful_ret: np.ndarray
    ful_imp: np.ndarray
    rn_tot: np.ndarray
    rn_ful: np.ndarray
    rnr_tot: np.ndarray
    rnr_ful: np.ndarray


def _ec_lines(
    line_jg: np.ndarray,
    level: np.ndarray,
    rank: np.ndarray,
    ec: np.ndarray,
    njr_jg: np.ndarray,
    label: Callable[[int], str],
    what: str,
) -> _ECLines:
    """The EC lines ``ec`` sorted, checked, and, per line b, the lines a of higher levels of
    its JG (preferred to b): all of them (a prefix-sum difference), the retrieved ones, and
    the retrieved ones ranked above b (merge count)."""
    order = np.lexsort((rank[ec], -level[ec], line_jg[ec]))
    ec_lines = ec[order]
    ec_jg, ec_lv, ec_r = line_jg[ec_lines], level[ec_lines], rank[ec_lines]
    _check_ec_levels(ec_jg, ec_r, ec_lv, label, what)
    gstart, gend = _segments(ec_jg)
    lstart, lend = _segments(ec_jg, ec_lv)
    ec_ret = ec_r < njr_jg[ec_jg]
    cumret = np.concatenate([[0], np.cumsum(ec_ret)])
    return _ECLines(
        jg=ec_jg,
        lv=ec_lv,
        r=ec_r,
        ret=ec_ret,
        lstart=lstart,
        in_last=lend == gend,
        higher=(lstart - gstart).astype(np.float64),
        higher_ret=(cumret[lstart] - cumret[gstart]).astype(np.float64),
        above=_higher_ranked_higher_level(ec_jg, ec_lv, ec_r, ec_ret),
    )


def _ec_counts(e: _ECLines, G: int) -> _JGCounts:
    """Per-JG tallies of the EC JGs (zero for PA JGs), summed over their lines b.

    b retrieved: its ``higher_ret`` preferences are retrieved (``above`` of them fulfilled),
    the others implied and not fulfilled; b not retrieved: its ``higher_ret`` preferences are
    implied and fulfilled, the others do not occur.
    """
    jg, ret = e.jg, e.ret
    rel = e.lv > 0
    num_rel = _count(jg, G, rel)
    num_rel_ret = _count(jg, G, rel & ret)
    rn_tot, rn_ful, rnr_tot, rnr_ful = _ec_rnonrel_counts(e, num_rel, num_rel_ret, G)
    return _JGCounts(
        num_rel=num_rel,
        num_nonrel=_count(jg, G, ~rel),
        num_rel_ret=num_rel_ret,
        num_nonrel_ret=_count(jg, G, ~rel & ret),
        poss=_count(jg, G, e.higher),
        poss_ret=_count(jg, G, np.where(ret, e.higher_ret, 0.0)),
        poss_imp=_count(jg, G, np.where(ret, e.higher - e.higher_ret, e.higher_ret)),
        ful_ret=_count(jg, G, np.where(ret, e.above, 0.0)),
        ful_imp=_count(jg, G, np.where(ret, 0.0, e.higher_ret)),
        rn_tot=rn_tot,
        rn_ful=rn_ful,
        rnr_tot=rnr_tot,
        rnr_ful=rnr_ful,
    )


def _ec_rnonrel_counts(
    e: _ECLines, num_rel: np.ndarray, num_rel_ret: np.ndarray, G: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """``(rn_tot, rn_ful, rnr_tot, rnr_ful)`` of the EC JGs: the preferences recounted with
    only the first R lines of the lowest class (all lines; retrieved lines with R retrieved),
    plus trec_eval's pairing of that class with its own first R lines."""
    jg, ret, in_last = e.jg, e.ret, e.in_last
    pos_in_class = np.arange(jg.size) - e.lstart
    n_last = _count(jg, G, in_last)
    n_ret_last = _count(jg, G, in_last & ret)
    b_ful_any = np.where(ret, e.above, e.higher_ret)  # a fulfilled or implied-fulfilled
    # b kept unless it is in the lowest class past its first R lines
    w_rn = ~in_last | (pos_in_class < num_rel[jg])
    w_rnret = (~in_last | (pos_in_class < num_rel_ret[jg])) & ret
    rn_tot = _count(jg, G, np.where(w_rn, e.higher, 0.0))
    rn_ful = _count(jg, G, np.where(w_rn, b_ful_any, 0.0))
    rnr_tot = _count(jg, G, np.where(w_rnret, e.higher_ret, 0.0))
    rnr_ful = _count(jg, G, np.where(w_rnret, e.above, 0.0))
    # lowest class x its first R lines: a fulfils when ranked above b and retrieved
    eq_start, _ = _segments(jg, e.lv, e.r)
    ranked_before = (eq_start - e.lstart).astype(np.float64)  # class lines with a smaller rank
    self_ful = np.where(ret, ranked_before, n_ret_last[jg])
    rn_tot += n_last * np.minimum(num_rel, n_last)
    rn_ful += _count(jg, G, np.where(in_last & (pos_in_class < num_rel[jg]), self_ful, 0.0))
    rnr_tot += n_ret_last * np.minimum(num_rel_ret, n_ret_last)
    rnr_ful += _count(jg, G, np.where(in_last & w_rnret, ranked_before, 0.0))
    return rn_tot, rn_ful, rnr_tot, rnr_ful


def _pa_closed_prefs(
    jg: np.ndarray,
    jsg: np.ndarray,
    lv: np.ndarray,
    r: np.ndarray,
    label: Callable[[int], str],
    what: str,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The preferences ``(jg, ra, rb)`` of the PA lines: those of every sub-group, closed
    transitively within each JG, one per ordered document pair."""
    porder, pa_a, pa_b = _lower_pairs(jsg, lv, r)
    p_jg_l, p_r_l = jg[porder], r[porder]
    return _closure_pairs(p_jg_l[pa_a], p_r_l[pa_a], p_r_l[pa_b], label, what)


def _pa_documents(
    jg: np.ndarray,
    jsg: np.ndarray,
    lv: np.ndarray,
    r: np.ndarray,
    label: Callable[[int], str],
    what: str,
) -> tuple[np.ndarray, np.ndarray]:
    """One entry per (JG, document) of the PA lines: its key ``jg << 32 | rank`` (sorted) and
    its last level in (JSG, level descending, rank) line order.

    Raises :class:`CwlkitError` for a document with both level 0 and a level > 0 in one JG.
    """
    seq_order = np.lexsort((r, -lv, jsg, jg))
    d_jg = jg[seq_order]
    d_r = r[seq_order]
    d_lv = lv[seq_order]
    dkey = d_jg * (1 << 32) + d_r
    by_doc = np.lexsort((np.arange(dkey.size), dkey))
    dk = dkey[by_doc]
    last = np.append(dk[1:] != dk[:-1], True) if dk.size else np.zeros(0, dtype=bool)
    first = np.append(True, dk[1:] != dk[:-1]) if dk.size else np.zeros(0, dtype=bool)
    lv_sorted = d_lv[by_doc]
    # a document with level 0 and a level > 0 in one JG is inconsistent (trec_eval refuses it)
    seg = np.cumsum(first) - 1
    bad = (_count(seg, 0, lv_sorted == 0) > 0) & (_count(seg, 0, lv_sorted > 0) > 0)
    if bad.any():
        g = int(dk[first][int(np.flatnonzero(bad)[0])] >> 32)
        raise CwlkitError(
            f"{what}: a document has both level 0 and a level > 0 in judgment group {label(g)}"
        )
    return dk[last], lv_sorted[last]


def _add_pa_counts(
    c: _JGCounts,
    doc_keys: np.ndarray,
    doc_lv: np.ndarray,
    closed: tuple[np.ndarray, np.ndarray, np.ndarray],
    njr_jg: np.ndarray,
    G: int,
) -> None:
    """Add the PA JGs' tallies to ``c`` (in place): documents by class, and the closed
    preferences ``closed`` by kind; the Rnonrel recounts keep the first R non-relevant
    documents (docid-rank order; among retrieved ones for ``rnr``)."""
    c_jg, c_ra, c_rb = closed
    doc_jg = doc_keys >> 32
    doc_r = doc_keys & ((1 << 32) - 1)
    doc_ret = doc_r < njr_jg[doc_jg]
    c.num_rel += _count(doc_jg, G, doc_lv > 0)
    c.num_nonrel += _count(doc_jg, G, doc_lv == 0)
    c.num_rel_ret += _count(doc_jg, G, (doc_lv > 0) & doc_ret)
    c.num_nonrel_ret += _count(doc_jg, G, (doc_lv == 0) & doc_ret)
    # documents kept by the Rnonrel recount: the first num_rel non-relevant ones (docid order)
    nonrel = doc_lv == 0
    keep_rn = ~nonrel | (_rank_within(doc_jg, doc_r, nonrel) < c.num_rel[doc_jg])
    nonrel_ret = nonrel & doc_ret
    keep_rnret = ~nonrel_ret | (_rank_within(doc_jg, doc_r, nonrel_ret) < c.num_rel[doc_jg])
    c_ka = np.searchsorted(doc_keys, c_jg * (1 << 32) + c_ra)
    c_kb = np.searchsorted(doc_keys, c_jg * (1 << 32) + c_rb)
    n_p = njr_jg[c_jg]
    a_ret, b_ret = c_ra < n_p, c_rb < n_p
    ordered = c_ra < c_rb
    both = a_ret & b_ret
    one = a_ret ^ b_ret
    c.poss += _count(c_jg, G)
    c.poss_ret += _count(c_jg, G, both)
    c.poss_imp += _count(c_jg, G, one)
    c.ful_ret += _count(c_jg, G, both & ordered)
    c.ful_imp += _count(c_jg, G, one & a_ret)
    w = keep_rn[c_ka] & keep_rn[c_kb]
    c.rn_tot += _count(c_jg, G, w)
    c.rn_ful += _count(c_jg, G, w & ordered & a_ret)
    w = keep_rnret[c_ka] & keep_rnret[c_kb] & both
    c.rnr_tot += _count(c_jg, G, w)
    c.rnr_ful += _count(c_jg, G, w & ordered)


def _jg_fractions(c: _JGCounts) -> tuple[np.ndarray, ...]:
    """Per JG: ``(ful, simp, ret, imp, Rnonrel, Rnonrel_ret)``, ful = ful_ret + ful_imp and
    the fractions of fulfilled preferences the ``avgjg*`` measures average (see
    :func:`prefs_values`)."""
    ful = c.ful_ret + c.ful_imp
    with np.errstate(divide="ignore", invalid="ignore"):
        extra = c.num_rel - c.num_nonrel
        rn = np.where(
            extra >= 0,
            (ful + c.num_rel_ret * extra) / (c.poss + c.num_rel * extra),
            c.rn_ful / c.rn_tot,
        )
        extra_r = c.num_rel_ret - c.num_nonrel_ret
        rnr = np.where(
            extra_r >= 0,
            (c.ful_ret + c.num_rel_ret * extra_r) / (c.poss_ret + c.num_rel * extra_r),
            c.rnr_ful / c.rnr_tot,
        )
        jg_simp = np.where(c.poss > 0, ful / c.poss, 0.0)
        jg_ret = np.where(c.poss_ret > 0, c.ful_ret / c.poss_ret, 0.0)
        jg_imp = np.where(c.poss_ret + c.poss_imp > 0, ful / (c.poss_ret + c.poss_imp), 0.0)
    return ful, jg_simp, jg_ret, jg_imp, rn, rnr


def _topic_values(
    c: _JGCounts, topic_of_jg: np.ndarray, n_jgs: np.ndarray, T: int
) -> dict[str, np.ndarray]:
    """Per-topic counts, ``prefs_simp*`` (sums over JGs, then ratios) and ``prefs_avgjg*``
    (averages of the per-JG fractions) from the per-JG tallies; no ``prefs_pair*``."""
    ful, jg_simp, jg_ret, jg_imp, rn, rnr = _jg_fractions(c)

    def tsum(x: np.ndarray) -> np.ndarray:
        return _count(topic_of_jg, T, x)

    def avg_over_jgs(x: np.ndarray) -> np.ndarray:
        s = tsum(x)
        with np.errstate(invalid="ignore", divide="ignore"):
            return np.where(s > 0, s / np.maximum(n_jgs, 1), 0.0)

    def ratio(num: np.ndarray, den: np.ndarray) -> np.ndarray:
        with np.errstate(invalid="ignore", divide="ignore"):
            return np.where(den > 0, num / np.where(den > 0, den, 1), 0.0)

    t_poss, t_ful, t_ful_ret = tsum(c.poss), tsum(ful), tsum(c.ful_ret)
    t_poss_ret, t_poss_imp = tsum(c.poss_ret), tsum(c.poss_imp)
    return {
        "prefs_num_prefs_poss": t_poss,
        "prefs_num_prefs_ful": t_ful,
        "prefs_num_prefs_ful_ret": t_ful_ret,
        "prefs_simp": ratio(t_ful, t_poss),
        "prefs_avgjg": avg_over_jgs(jg_simp),
        "prefs_avgjg_Rnonrel": avg_over_jgs(rn),
        "prefs_simp_ret": ratio(t_ful_ret, t_poss_ret),
        "prefs_avgjg_ret": avg_over_jgs(jg_ret),
        "prefs_avgjg_Rnonrel_ret": avg_over_jgs(rnr),
        "prefs_simp_imp": ratio(t_ful, t_poss_ret + t_poss_imp),
        "prefs_avgjg_imp": avg_over_jgs(jg_imp),
    }


def _pair_measures(
    ec: _ECLines,
    closed: tuple[np.ndarray, np.ndarray, np.ndarray],
    topic_of_jg: np.ndarray,
    njr: np.ndarray,
    n_jgs: np.ndarray,
    simp: tuple[np.ndarray, np.ndarray, np.ndarray],
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(prefs_pair, prefs_pair_ret, prefs_pair_imp)`` per topic.

    Equal to ``simp`` (the ``prefs_simp*`` values) where no document pair can carry two
    preferences (one JG, no document listed twice in it); elsewhere the topic's preferences
    (EC pairs enumerated, PA pairs from ``closed``) are grouped by document pair.
    """
    T = int(njr.size)
    G = int(topic_of_jg.size)
    c_jg, c_ra, c_rb = closed
    dup_doc = _count(ec.jg, G, _duplicate_in_group(ec.jg, ec.r)) > 0
    complex_topic = (n_jgs > 1) | (_count(topic_of_jg, T, dup_doc) > 0)
    pair, pair_ret, pair_imp = simp[0].copy(), simp[1].copy(), simp[2].copy()
    if complex_topic.any():
        sel = complex_topic[topic_of_jg[ec.jg]]
        _, a, b = _lower_pairs(ec.jg[sel], ec.lv[sel], ec.r[sel])  # already in that order
        sj, sr = ec.jg[sel], ec.r[sel]
        csel = complex_topic[topic_of_jg[c_jg]]
        p_jg = np.concatenate([sj[a], c_jg[csel]])
        p_ra = np.concatenate([sr[a], c_ra[csel]])
        p_rb = np.concatenate([sr[b], c_rb[csel]])
        cp, cpr, cpi = _pair_values(p_jg, p_ra, p_rb, topic_of_jg, njr, T)
        pair = np.where(complex_topic, cp, pair)
        pair_ret = np.where(complex_topic, cpr, pair_ret)
        pair_imp = np.where(complex_topic, cpi, pair_imp)
    return pair, pair_ret, pair_imp


def _duplicate_in_group(group: np.ndarray, key: np.ndarray) -> np.ndarray:
    """Rows whose (group, key) occurred on an earlier row (any order)."""
    if group.size < 2:
        return np.zeros(group.size, dtype=bool)
    o = np.lexsort((key, group))
    dup = np.zeros(group.size, dtype=bool)
    dup[o[1:]] = (group[o][1:] == group[o][:-1]) & (key[o][1:] == key[o][:-1])
    return dup


def _check_ec_levels(jg, r, lv, label, what) -> None:
    """trec_eval refuses a document listed with two levels in one sub-group."""
    if jg.size < 2:
        return
    o = np.lexsort((lv, r, jg))
    same_doc = (jg[o][1:] == jg[o][:-1]) & (r[o][1:] == r[o][:-1])
    clash = same_doc & (lv[o][1:] != lv[o][:-1])
    if clash.any():
        g = int(jg[o][1:][clash][0])
        raise CwlkitError(
            f"{what}: a document is listed with two different levels in the single sub-group of "
            f"judgment group {label(g)}"
        )


def _higher_ranked_higher_level(jg, lv, r, ret) -> np.ndarray:
    """For each retrieved row b: rows a of the same JG, retrieved, ranked above b with a higher
    level."""
    out = np.zeros(jg.size)
    idx = np.flatnonzero(ret)
    if idx.size < 2:
        return out
    o = idx[np.lexsort((r[idx], jg[idx]))]
    _, key = np.unique(np.stack([jg[o], lv[o]], axis=1), axis=0, return_inverse=True)
    out[o] = _earlier_greater(key.reshape(-1).astype(np.int64))
    return out


def _earlier_greater(keys: np.ndarray) -> np.ndarray:
    """``out[j]`` = number of ``i < j`` with ``keys[i] > keys[j]`` (keys are int64 >= 0).

    Bottom-up merge counting, vectorised over all blocks of a pass: at width w every element of
    a right block looks its key up (``searchsorted``) in the sorted left block of its pair.
    O(n log^2 n).
    """
    n = keys.size
    out = np.zeros(n, dtype=np.int64)
    span = int(keys.max(initial=0)) + 1
    pos = np.arange(n, dtype=np.int64)
    vals = keys.copy()
    w = 1
    while w < n:
        block = pos // w
        pair = block >> 1
        right = (block & 1) == 1
        left_sorted = pair[~right] * span + vals[~right]
        rp = pos[right]
        base = pair[rp] * span
        not_greater = np.searchsorted(left_sorted, base + keys[rp], side="right") - np.searchsorted(
            left_sorted, base, side="left"
        )
        out[rp] += w - not_greater
        vals = vals[np.argsort(pair * span + vals, kind="stable")]
        w *= 2
    return out


def _rank_within(group: np.ndarray, key: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """0-based rank of each masked row by ``key`` within its group (-1 where not masked)."""
    out = np.full(group.size, -1, dtype=np.int64)
    idx = np.flatnonzero(mask)
    if idx.size == 0:
        return out
    o = idx[np.lexsort((key[idx], group[idx]))]
    start, _ = _segments(group[o])
    out[o] = np.arange(o.size) - start
    return out


def _pair_values(p_jg, p_ra, p_rb, topic_of_jg, njr, T):
    """prefs_pair, prefs_pair_ret, prefs_pair_imp from the preference list (all JGs)."""
    if p_jg.size == 0:
        z = np.zeros(T)
        return z, z.copy(), z.copy()
    t = topic_of_jg[p_jg]
    lo = np.minimum(p_ra, p_rb)
    hi = np.maximum(p_ra, p_rb)
    width = int(hi.max()) + 1
    key = (t * width + lo) * width + hi
    uniq, inv = np.unique(key, return_inverse=True)
    fwd = _count(inv, weights=p_ra < p_rb, minlength=uniq.size)
    tot = _count(inv, minlength=uniq.size)
    score = fwd / tot
    u_t = uniq // (width * width)
    u_lo = (uniq // width) % width
    u_hi = uniq % width
    n = njr[u_t]
    ret = u_hi < n
    imp = (u_lo < n) & ~ret
    s_ret = _count(u_t, weights=np.where(ret, score, 0.0), minlength=T)
    s_imp = _count(u_t, weights=np.where(imp, score, 0.0), minlength=T)
    c_ret = _count(u_t, weights=ret, minlength=T)
    c_imp = _count(u_t, weights=imp, minlength=T)
    c_all = _count(u_t, minlength=T)
    with np.errstate(invalid="ignore", divide="ignore"):
        pair = np.where(c_all > 0, (s_ret + s_imp) / np.maximum(c_all, 1), 0.0)
        pair_ret = np.where(c_ret > 0, s_ret / np.maximum(c_ret, 1), 0.0)
        pair_imp = np.where(c_ret + c_imp > 0, (s_ret + s_imp) / np.maximum(c_ret + c_imp, 1), 0.0)
    return pair, pair_ret, pair_imp
