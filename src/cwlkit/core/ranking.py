"""The ranking batch every measure reads: the labels of the ranked documents of every topic,
as dense topics x depth matrices. Built from files and tables by
:func:`cwlkit.core.batch.build_batch`, from runs held in Python by
:func:`cwlkit.core.direct.direct_batch`. Importing this module loads numpy, not pyarrow.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

__all__ = ["RankingBatch"]


@dataclass(eq=False)
class RankingBatch:
    """Labels of the ranked documents of every topic, as dense matrices.

    Attributes
    ----------
    topics : numpy.ndarray
        Topic ids (str), sorted in byte (strcmp) order.
    depth : numpy.ndarray
        int64[T], number of ranked documents of each topic (0 for a topic with no run).
    labels : numpy.ndarray
        float64[T, D], the qrels label of the document at each rank; NaN when the document is
        not in the qrels (unjudged) and beyond ``depth``.
    judged : numpy.ndarray
        bool[T, D], the document at that rank is in the qrels.
    valid : numpy.ndarray
        bool[T, D], ``rank < depth``.
    scores : numpy.ndarray
        float64[T, D], the run's scores (NaN past depth).
    qrel_labels : numpy.ndarray
        float64[T, Q], every qrels label of the topic sorted descending, NaN-padded: the ideal
        ranking and the counts of relevant documents come from here.
    n_judged : numpy.ndarray
        int64[T], number of qrels entries of each topic.
    qrels_max_label : float or None
        The largest finite label of the whole qrels file, every topic included (None when it
        has none): label -> gain mappings that scale by the top grade (``--gain linear``,
        ``exp``, ``err``; ERR's g_max) use it, so a topic's score does not depend on which
        other topics are evaluated. Kept by :meth:`select`.
    qrels_label_values : numpy.ndarray or None
        float64, the distinct finite labels of the whole qrels file, ascending (the default
        ``--max-gain`` is the largest gain among them). Kept by :meth:`select`.
    q0 : numpy.ndarray or None
        int64[T, D] codes of the run's second column (element types), -1 past depth;
        ``q0_names`` maps codes to strings.
    """

    topics: np.ndarray
    depth: np.ndarray
    labels: np.ndarray
    judged: np.ndarray
    valid: np.ndarray
    scores: np.ndarray
    qrel_labels: np.ndarray
    n_judged: np.ndarray
    q0: np.ndarray
    q0_names: list[str]
    runid: str = ""
    qrels_max_label: float | None = None
    qrels_label_values: np.ndarray | None = None
    _doc_source: tuple | None = field(default=None, repr=False)
    _docs: np.ndarray | None = field(default=None, repr=False)
    memo: dict = field(default_factory=dict, repr=False)

    @property
    def n_topics(self) -> int:
        """Number of topics ``T``."""
        return int(self.topics.size)

    @property
    def max_depth(self) -> int:
        """Width ``D`` of the matrices."""
        return int(self.labels.shape[1])

    @property
    def docs(self) -> np.ndarray:
        """object[T, D] document ids (None past depth); built on first use."""
        if self._docs is None:
            out = np.full(self.labels.shape, None, dtype=object)
            if self._doc_source is not None:
                rows, cols, docs = self._doc_source
                out[rows, cols] = np.asarray(
                    docs if isinstance(docs, list) else docs.to_pylist(), dtype=object
                )
            self._docs = out
        return self._docs

    def doc_cells(self) -> tuple[np.ndarray, np.ndarray, Any] | None:
        """(rows, columns, document ids) of the ranked documents: the ids as read (a pyarrow
        array), or those of the document matrix of a batch made by :meth:`select`; None for
        a batch built without them (``light``)."""
        if self._doc_source is not None:
            rows, cols, docs = self._doc_source
            return rows, cols, docs
        if self._docs is None:
            return None
        from ..io.text import from_strings

        rows, cols = np.nonzero(self.valid)
        return rows, cols, from_strings(self._docs[rows, cols].tolist())

    def num_rel(self, rel: float = 1.0) -> np.ndarray:
        """int64[T], qrels entries with label >= ``rel`` (R)."""
        with np.errstate(invalid="ignore"):
            return (self.qrel_labels >= rel).sum(axis=1).astype(np.int64)

    def select(self, mask: np.ndarray) -> RankingBatch:
        """A batch of the topics where ``mask`` (bool[T]) is true."""
        return RankingBatch(
            topics=self.topics[mask],
            depth=self.depth[mask],
            labels=self.labels[mask],
            judged=self.judged[mask],
            valid=self.valid[mask],
            scores=self.scores[mask],
            qrel_labels=self.qrel_labels[mask],
            n_judged=self.n_judged[mask],
            q0=self.q0[mask],
            q0_names=self.q0_names,
            runid=self.runid,
            qrels_max_label=self.qrels_max_label,
            qrels_label_values=self.qrels_label_values,
            _docs=None if self._docs is None else self._docs[mask],
            _doc_source=None if self._docs is not None else _select_source(self._doc_source, mask),
        )

    def judged_ranking(self, *, negative: bool = False) -> RankingBatch:
        """The batch with each ranking's unjudged documents removed, the others moved up.

        A measure's ``judged_only=True`` (ir_measures' parameter) computes on this batch:
        the ranking condensed to its judged documents, in their order, before the measure's
        own cutoff ``@k`` (so ``P(judged_only=True)@10`` reads the first 10 *judged*
        documents). Topics, qrels and the evaluation's options are kept; the memoised
        values of this batch are not (they describe the full rankings).

        Parameters
        ----------
        negative : bool, default False
            Keep the documents judged with a label of -1 or less. False: trec_eval's ``-J``
            (pytrec_eval's ``judged_docs_only_flag``, which ir_measures' pytrec_eval provider
            passes on), for which such a document is unjudged; True: every document the qrels
            list (ir_measures' pyndeval provider).

        Returns
        -------
        RankingBatch
            Memoised on this batch, with ``memo["judged_only"]`` set.
        """
        key = ("judged_ranking", bool(negative))
        got = self.memo.get(key)
        if got is not None:
            return got
        keep = self.judged & self.valid
        if not negative:
            with np.errstate(invalid="ignore"):  # (as build_batch's drop_unjudged)
                keep &= self.labels > -1
        depth = keep.sum(axis=1).astype(np.int64)
        width = int(depth.max()) if depth.size else 0
        # the kept ranks first, each group in rank order (a stable sort of "dropped")
        order = np.argsort(~keep, axis=1, kind="stable")[:, :width]
        valid = np.arange(width)[None, :] < depth[:, None]

        def take(a: np.ndarray, fill: Any) -> np.ndarray:
            if a.shape[1] == 0:  # (a light batch's scores and codes)
                return a
            return np.where(valid, np.take_along_axis(a, order, axis=1), fill)

        has_docs = self._docs is not None or self._doc_source is not None
        got = RankingBatch(
            topics=self.topics,
            depth=depth,
            labels=take(self.labels, np.nan),
            judged=take(self.judged, False),
            valid=valid,
            scores=take(self.scores, np.nan),
            qrel_labels=self.qrel_labels,
            n_judged=self.n_judged,
            q0=take(self.q0, -1),
            q0_names=self.q0_names,
            runid=self.runid,
            qrels_max_label=self.qrels_max_label,
            qrels_label_values=self.qrels_label_values,
            _docs=take(self.docs, None) if has_docs else None,
        )
        for entry in ("trec_version", "absent", "diversity_qrels"):  # (the options)
            if entry in self.memo:
                got.memo[entry] = self.memo[entry]
        got.memo["judged_only"] = True
        self.memo[key] = got
        return got


def _select_source(src: tuple | None, mask: np.ndarray) -> tuple | None:
    if src is None:
        return None
    rows, cols, docs = src
    from ..io.text import from_numpy
    from ..support import compute as pc

    new_index = np.cumsum(mask) - 1
    keep = mask[rows]
    return new_index[rows[keep]], cols[keep], pc.filter(docs, from_numpy(keep))
