"""trec_eval's judgment-group measures (``-R qrels_jg``): map, P and Rprec_mult averaged over
the judgment groups (users) of each topic.

For one topic with judgment groups ``g = 1..G``, each a separate set of qrels, the ranking's
documents get, per group, the group's label (``-1`` when the group did not judge the document,
``-2`` when its label is negative); a document is relevant when that value is ``>= l``
(``-l``, default 1). ``R_g`` = number of the group's labels with ``label >= max(l, 0)``.

* ``map_avgjg`` = (1/G) Σ_g AP_g, AP_g = Σ_{relevant ranks i} (rel in top i / i) / R_g
  (0 when no relevant document is retrieved).
* ``P_avgjg_k`` = (1/G) Σ_g (relevant in top k) / k; a ranking shorter than k counts as padded
  with non-relevant documents.
* ``Rprec_mult_avgjg_x`` = (1/G) Σ_g P@c_g with ``c_g = (long)(x R_g + 0.9)`` (C truncation,
  in both trec_eval 9.0.8 and 10.0); 0 when ``c_g = 0``.

Everything is computed on a ``[groups, depth]`` matrix of labels built once.
"""

from __future__ import annotations

import numpy as np

JG_MEASURES = ("map_avgjg", "P_avgjg", "Rprec_mult_avgjg")
"""trec_eval's judgment-group measures, in its table order."""

P_CUTOFFS = (5, 10, 15, 20, 30, 100, 200, 500, 1000)
RPREC_MULTS = (0.2, 0.4, 0.6, 0.8, 1.0, 1.2, 1.4, 1.6, 1.8, 2.0)


def jg_values(
    ranked_labels: np.ndarray,
    num_ret: np.ndarray,
    num_rel: np.ndarray,
    topic_of_jg: np.ndarray,
    n_topics: int,
    rel_level: float,
    *,
    want_map: bool,
    p_cutoffs: tuple[int, ...],
    rprec_mults: tuple[float, ...],
) -> dict[str, np.ndarray]:
    """Per-topic values of the judgment-group measures.

    Parameters
    ----------
    ranked_labels : numpy.ndarray
        float64[G, D]: per judgment group (rows, numbered in topic then group-name order), the
        group's label of the document at each rank of its topic's ranking (``-1`` unjudged,
        ``-2`` negative label, anything past ``num_ret`` is ignored).
    num_ret : numpy.ndarray
        int64[G], length of the group's topic's ranking.
    num_rel : numpy.ndarray
        int64[G], ``R_g``.
    topic_of_jg : numpy.ndarray
        int64[G], topic index (``0..n_topics-1``) of each group.
    n_topics : int
        Number of topics.
    rel_level : float
        trec_eval's ``-l``.
    want_map : bool
        Compute ``map_avgjg``.
    p_cutoffs, rprec_mults : tuple
        Cutoffs of ``P_avgjg`` and multipliers of ``Rprec_mult_avgjg`` (empty: not wanted).

    Returns
    -------
    dict of str to numpy.ndarray
        ``name -> float64[n_topics]`` with trec_eval's printed names (``P_avgjg_5``,
        ``Rprec_mult_avgjg_0.20``).
    """
    G, D = ranked_labels.shape
    valid = np.arange(D)[None, :] < num_ret[:, None]
    rel = (ranked_labels >= rel_level) & valid
    cum = np.cumsum(rel, axis=1)
    cum0 = np.concatenate(
        [np.zeros((G, 1), dtype=cum.dtype), cum], axis=1
    )  # cum0[:, k] = rel in top k
    n_jgs = np.bincount(topic_of_jg, minlength=n_topics)
    denom = np.maximum(n_jgs, 1).astype(np.float64)
    out: dict[str, np.ndarray] = {}

    def per_topic(x: np.ndarray) -> np.ndarray:
        return np.bincount(topic_of_jg, weights=x, minlength=n_topics) / denom

    if want_map:
        ranks = np.arange(1, D + 1, dtype=np.float64)
        prec_sum = np.where(rel, cum / ranks[None, :], 0.0).sum(axis=1)
        found = cum0[:, -1] > 0
        with np.errstate(divide="ignore", invalid="ignore"):
            ap = np.where(found, prec_sum / num_rel, 0.0)
        out["map_avgjg"] = per_topic(ap)
    rows = np.arange(G)
    for k in p_cutoffs:
        hits = cum0[rows, np.minimum(k, num_ret)]
        out[f"P_avgjg_{k}"] = per_topic(hits / k)
    judged_rel_ret = ((ranked_labels >= 0) & rel).sum(axis=1)
    for x in rprec_mults:
        c = np.trunc(x * num_rel + 0.9).astype(np.int64)
        inside = cum0[rows, np.clip(c, 0, num_ret)]
        with np.errstate(divide="ignore", invalid="ignore"):
            val = np.where(
                c > num_ret,
                judged_rel_ret / np.maximum(c, 1),
                np.where(c > 0, inside / np.maximum(c, 1), 0.0),
            )
        out[f"Rprec_mult_avgjg_{x:3.2f}"] = per_topic(val)
    return out
