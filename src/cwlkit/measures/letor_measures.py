"""LETOR's P@n, MAP, NDCG@n and MeanNDCG as registry measures, computed on a RankingBatch.

``LETOR_P@k``, ``LETOR_MAP``, ``LETOR_NDCG@k`` and ``LETOR_MeanNDCG`` are what Microsoft
Research Asia's ``Eval-Score`` scripts print as ``P@k``, ``MAP``, ``NDCG@k`` and ``MeanNDCG``
(their ``letor`` anchors), with the conventions of the script named by the ``version``
parameter (``"4.0"``, the default; ``"3.0"``; ``"mslr"``; see :mod:`cwlkit.measures.letor`
and ``docs/letor.md``). They have their own names because trec_eval's measures of the same
printed names differ: ``P@10``, ``AP`` and ``nDCG@10`` stay trec_eval's (relevant means label
>= 1; nDCG with gain = label and discount ``1/log2(j+1)``), while LETOR's NDCG has the gains
``2^label - 1`` of a fixed table and leaves ranks 1 and 2 undiscounted (``1/log2(j)`` from rank
3), and its relevant labels depend on the version (MSLR: 2, 3 and 4).

The arithmetic is :func:`cwlkit.measures.letor.letor_measures`, the function the ``cwlkit
letor`` subcommand uses, applied to the batch's labels in the batch's rank order.

Ranking
    The scripts rank a query's documents by prediction score, descending, ties in the feature
    file's line order (3.0 and 4.0 keep only the last line of a repeated docid). A batch ranks
    as for every cwlkit measure: score descending, ties by document id descending (byte order;
    trec_eval's rule), or the run's rank column / line order with ``order="rank"`` /
    ``order="file"``; by default (``trec_version=9``) scores are rounded to float32 first, so
    scores closer than float32 resolution tie (``trec_version=10`` ranks by the double). On
    tied predictions the two orders can therefore differ: on MQ2008 Fold1 with the shared
    linear predictions the labels of one query of 156 come in another order, which leaves
    every P@n, MAP and NDCG@1..10 mean unchanged but moves 4.0's MeanNDCG by 7e-6 (below its 4
    printed decimals) and 3.0's NDCG@13..16 means in the 4th to 6th decimal. The ``cwlkit
    letor`` subcommand (:func:`~cwlkit.measures.letor.evaluate_letor_files`) therefore ranks
    as the scripts do, with :func:`~cwlkit.measures.letor.rank_documents` (ties in line
    order, the last line of a repeated docid), into a run whose rank column is each
    document's position in that order (:func:`~cwlkit.measures.letor.letor_qrels_run`), and
    evaluates these measures on it with ``order="rank"``: its files are the scripts' byte for
    byte. Do the same with your own runs to reproduce the scripts' ranking (or write the
    run's lines in that order and use ``order="file"``); drop repeated docids first (a run
    may not hold a document twice for a topic).

Labels
    Every document of a LETOR query is judged: the feature file gives the qrels ``(qid, docid,
    label)`` and, with the predictions, the run ``(qid, docid, score)``. On TREC qrels and runs
    an unjudged ranked document counts as label 0 (gain 0, not relevant), and IDCG and AP's
    number of relevant documents come from the topic's qrels (every judged document, retrieved
    or not, as LETOR's "whole judged set"); on LETOR data those are exactly the ranked
    documents, so the values are the scripts'. A qrels label of an evaluated topic outside the
    version's gain table (a negative grade; 3 or 4 under 3.0 and 4.0; a fractional label) is
    an error, :class:`~cwlkit.errors.ParamError` naming the label, the topic and the version
    (the scripts silently score such labels as gain 0, non-relevant; the subcommand refuses
    them too, with :func:`~cwlkit.measures.letor.check_labels`). The ``gain`` and
    ``relevant`` parameters extend the table as ``cwlkit letor --gain/--relevant`` do
    (``gain='exp'``: every label ``l >= 0`` has gain ``2^l - 1``).

Positions and averages
    The scripts print k = 1..10 (4.0, MSLR) or 1..16 (3.0); any k >= 1 is computed with the
    same formulas. For k past a topic's ranking, 4.0 and MSLR count the missing ranks as
    non-relevant holes (``P@k = #rel/k``) and give ``NDCG@k = 0``; 3.0 leaves P@k and NDCG@k
    out, and here they are 0, so that the mean over topics is the script's ``Average`` (which
    divides by every query). Topics aggregate by the mean, every topic counting (queries
    without a relevant document score 0); ``Results.mean`` sums pairwise, so a mean can differ
    from the scripts' sequential sum in the last bit.
"""

from __future__ import annotations

from functools import lru_cache
from typing import ClassVar

import numpy as np

from ..errors import ParamError
from .base import Measure, measure, param
from .letor import VERSIONS, LetorVersion, letor_gain_rel, letor_measures, letor_version
from .registry import register

#: positions the scripts print: 1..16 (3.0 prints up to 16, 4.0 and MSLR up to 10)
_PRINTED = range(1, 17)

#: accepted spellings of each version (``LETOR_P(3)@5`` parses ``3`` as the number 3)
_SPELLINGS = {
    "4": "4.0",
    "4.0": "4.0",
    "letor4": "4.0",
    "3": "3.0",
    "3.0": "3.0",
    "letor3": "3.0",
    "mslr": "mslr",
}


@lru_cache(maxsize=32)
def _conventions(version: str, gain: str, relevant: str) -> LetorVersion:
    """:func:`letor_version` of the parameters (cached: every measure of a list asks)."""
    return letor_version(version, gain=gain or None, relevant=relevant or None)


def _check_labels(batch, version: LetorVersion, name: str) -> None:
    """Raise ParamError when a label of an evaluated topic is outside the gain table (with
    ``gain='exp'``: a negative or fractional label)."""
    keys = np.array([k for k, _ in version.gains], dtype=np.float64)
    # the ranked judged labels are among their topic's qrels labels; both are checked anyway
    for labels in (batch.qrel_labels, np.where(batch.valid & batch.judged, batch.labels, np.nan)):
        if version.custom == "exp":
            with np.errstate(invalid="ignore"):
                bad = np.isfinite(labels) & ((labels < 0) | (labels != np.floor(labels)))
        else:
            bad = np.isfinite(labels) & ~np.isin(labels, keys)
        if not bad.any():
            continue
        t, i = np.argwhere(bad)[0]
        lab = float(labels[t, i])
        where = str(batch.topics[t])
        if lab < 0:
            hint = "negative grades (such as TREC's spam -2) are not LETOR labels"
        elif lab == int(lab) and lab <= 4 and version.name != "mslr":
            hint = "version='mslr' has the labels 0..4"
        else:
            hint = "map the qrels' labels onto the table first"
        raise ParamError(
            f"{name}: qrels label {lab:g} (topic {where}) is not in LETOR {version.name}'s gain "
            f"table {version.label_set()} (the LETOR scripts would silently score it as gain 0, "
            f"non-relevant); {hint}"
        )


def _prepared(batch, version: LetorVersion, name: str) -> tuple:
    """Ranked gains and relevance, candidate gains and relevant counts (cached on the batch)."""
    key = ("letor_input", version)
    got = batch.memo.get(key)
    if got is None:
        _check_labels(batch, version, name)
        inside = batch.valid
        lab = np.where(inside & batch.judged, batch.labels, 0.0)  # unjudged: label 0
        gain, rel = letor_gain_rel(np.nan_to_num(lab, nan=0.0).astype(np.int64), version)
        gain = np.where(inside, gain, 0.0)
        rel = np.where(inside, rel, 0.0)
        ql = batch.qrel_labels
        judged = np.isfinite(ql)
        qgain, qrel = letor_gain_rel(np.where(judged, ql, 0.0).astype(np.int64), version)
        ideal = np.where(judged, qgain, 0.0)
        n_relevant = np.where(judged, qrel, 0.0).sum(axis=1)
        got = batch.memo[key] = (
            gain,
            rel,
            np.asarray(batch.depth, dtype=np.int64),
            ideal,
            n_relevant,
        )
    return got


def _scores(batch, version: LetorVersion, k: int, name: str) -> tuple:
    """:func:`letor_measures` on the batch, for positions 1..max(k, depth, printed)."""
    K = max(int(k), batch.max_depth, version.positions)
    key = ("letor_scores", version, K)
    got = batch.memo.get(key)
    if got is None:
        gain, rel, depth, ideal, n_relevant = _prepared(batch, version, name)
        got = batch.memo[key] = letor_measures(
            gain, rel, depth, version, positions=K, ideal=ideal, n_relevant=n_relevant
        )
    return got


@measure
class _Letor(Measure):
    """Base: a measure of LETOR's Eval-Score scripts, with the ``version`` parameter."""

    version: str = param(
        "4.0",
        choices=VERSIONS,
        doc="the script whose conventions apply: 4.0 (Eval-Score-4.0), 3.0, mslr",
    )
    gain: str = param(
        "",
        doc="more labels: 'exp' (gain 2^label-1 for every label) or a table '3:7,4:15' over "
        "the version's (added labels with gain > 0 are relevant); cwlkit letor --gain",
    )
    relevant: str = param(
        "",
        doc="comma-separated labels relevant for P@k and MAP, replacing the version's set "
        "(e.g. '1,2,3,4'); cwlkit letor --relevant",
    )

    def __post_init__(self) -> None:
        spelled = _SPELLINGS.get(str(self.version).strip().lower())
        if spelled is not None:
            object.__setattr__(self, "version", spelled)
        super().__post_init__()
        if self.version in VERSIONS and (self.gain or self.relevant):
            try:
                _conventions(self.version, self.gain, self.relevant)
            except ParamError as exc:
                raise ParamError(f"{self.family}: {exc}") from None

    @property
    def conventions(self) -> LetorVersion:
        """The :class:`~cwlkit.measures.letor.LetorVersion` of ``version``, ``gain`` and
        ``relevant``."""
        return _conventions(self.version, self.gain, self.relevant)

    def _all(self, batch, k: int = 1) -> tuple:
        return _scores(batch, self.conventions, k, self.name)


@register
@measure
class LETOR_P(_Letor):
    """LETOR's P@k: relevant documents in the top k / k, the version's relevant labels.

    Relevant labels are 1 and 2 (3.0, 4.0) or 2, 3 and 4 (MSLR). Past a topic's ranking
    4.0/MSLR count holes (``#rel/k``); 3.0 leaves P@k out (0 here, as in its average).
    """

    family: ClassVar[str] = "LETOR_P"
    anchors: ClassVar[dict[str, tuple[str, ...]]] = {"letor": tuple(f"P@{k}" for k in _PRINTED)}
    k: int = param(10, ge=1, integer=True, doc="cutoff (the scripts print 1..10, 3.0 1..16)")

    def compute(self, batch) -> np.ndarray:
        precision = self._all(batch, self.k)[0]
        return np.nan_to_num(precision[:, self.k - 1], nan=0.0)


@register
@measure
class LETOR_MAP(_Letor):
    """LETOR's AP: mean of P@j over the relevant ranks j, over the relevant count (0 if none).

    The relevant count is the topic's in the qrels (on LETOR data: in the ranking, as the
    scripts count it); the mean over topics is the scripts' ``MAP``.
    """

    family: ClassVar[str] = "LETOR_MAP"
    anchors: ClassVar[dict[str, tuple[str, ...]]] = {"letor": ("MAP",)}

    def compute(self, batch) -> np.ndarray:
        return np.array(self._all(batch)[1], dtype=np.float64)


@register
@measure
class LETOR_NDCG(_Letor):
    """LETOR's NDCG@k: gains {0:0, 1:1, 2:3(, 3:7, 4:15)}, ranks 1 and 2 undiscounted.

    ``DCG@k = sum_{j<=k} g(r_j) d_j`` with ``d_1 = d_2 = 1``, ``d_j = log(2)/log(j)``; IDCG from
    the topic's judged labels sorted by gain; 0 when IDCG is 0 and for k past the ranking.
    """

    family: ClassVar[str] = "LETOR_NDCG"
    anchors: ClassVar[dict[str, tuple[str, ...]]] = {"letor": tuple(f"NDCG@{k}" for k in _PRINTED)}
    k: int = param(10, ge=1, integer=True, doc="cutoff (the scripts print 1..10, 3.0 1..16)")

    def compute(self, batch) -> np.ndarray:
        ndcg = self._all(batch, self.k)[2]
        return np.nan_to_num(ndcg[:, self.k - 1], nan=0.0)


@register
@measure
class LETOR_MeanNDCG(_Letor):
    """LETOR's MeanNDCG: the mean of NDCG@1..NDCG@n over a topic's n ranked documents.

    Printed by Eval-Score-4.0 and -MSLR only: ``version='3.0'`` is a ParamError. A topic with
    no ranked document scores 0.
    """

    family: ClassVar[str] = "LETOR_MeanNDCG"
    anchors: ClassVar[dict[str, tuple[str, ...]]] = {"letor": ("MeanNDCG",)}

    def __post_init__(self) -> None:
        super().__post_init__()
        if not letor_version(self.version).mean_ndcg:
            raise ParamError(
                f"{self.family}: LETOR {self.version}'s script (Eval-Score-3.0.pl) prints no "
                "MeanNDCG; use version='4.0' or 'mslr'"
            )

    def compute(self, batch) -> np.ndarray:
        return np.array(self._all(batch)[3], dtype=np.float64)


def letor_measure_list(
    version: str = "4.0", *, gain: str | None = None, relevant: str | None = None
) -> list:
    """The registry measures whose values a LETOR script prints, in its column order.

    ``LETOR_P@1..K``, ``LETOR_MAP``, ``LETOR_NDCG@1..K`` (``K`` = 10, or 16 for 3.0),
    ``LETOR_MeanNDCG`` (4.0 and MSLR), each with ``version``, ``gain`` and ``relevant`` as
    given (:mod:`cwlkit.measures.letor_measures`), then for 3.0 ``NumRet`` (a query's number
    of documents, which sets the positions 3.0 prints for it).

    Raises
    ------
    ParamError
        Unknown version, malformed ``gain`` or ``relevant`` (see :func:`letor_version`).
    """
    from .registry import lookup

    v = letor_version(version, gain=gain, relevant=relevant)
    kw = {"version": v.name, "gain": gain or "", "relevant": relevant or ""}
    ks = range(1, v.positions + 1)
    out: list = [LETOR_P(k=k, **kw) for k in ks]
    out.append(LETOR_MAP(**kw))
    out += [LETOR_NDCG(k=k, **kw) for k in ks]
    if v.mean_ndcg:
        out.append(LETOR_MeanNDCG(**kw))
    if not v.pad:
        out.append(lookup("NumRet")())
    return out
