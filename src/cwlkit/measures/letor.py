"""LETOR's P@n, MAP, NDCG@n and MeanNDCG, with the conventions of each Perl script.

Three versions of Microsoft Research Asia's evaluation script are reproduced
(``Eval-Score-3.0.pl``, ``Eval-Score-4.0.pl``, ``Eval-Score-MSLR.pl`` and the ``Eval-Rank``
variants):

=============  ==================  ==================  =====================================
               ``3.0``             ``4.0``             ``mslr``
=============  ==================  ==================  =====================================
NDCG gain      {0:0, 1:1, 2:3}     {0:0, 1:1, 2:3}     {0:0, 1:1, 2:3, 3:7, 4:15}
relevant       labels 1, 2         labels 1, 2         labels 2, 3, 4 (label 1 is not)
positions      1..16               1..10               1..10
k > #docs      P@k, NDCG@k absent  P@k = #rel/k,       as 4.0
               (add 0 to the mean) NDCG@k = 0
MeanNDCG       no                  mean NDCG@1..n      as 4.0
documents      ``#docid = D``      ``#docid = D``      the line (no docid)
=============  ==================  ==================  =====================================

Definitions, for a query with ``n`` documents ranked by the predictions (``r_j`` the label at
rank ``j``, ``rel(j)`` 1 if that label counts as relevant, ``g`` the gain table):

* ``P@k = (sum_{j<=k} rel(j)) / k``.
* ``AP = (sum_{j<=n} rel(j) * P@j) / (sum_{j<=n} rel(j))``; 0 when the query has no relevant
  document (such queries stay in every average).
* ``DCG@k = sum_{j<=k} g(r_j) * d_j`` with ``d_1 = d_2 = 1`` and ``d_j = log(2) / log(j)``
  for ``j >= 3`` (Jarvelin and Kekalainen's discount with base 2: ranks 1 and 2 are not
  discounted; not trec_eval's ``1 / log2(j + 1)``).
* ``NDCG@k = DCG@k / IDCG@k`` where IDCG uses the same query's labels sorted by gain
  (the candidate list is the whole judged set); ``NDCG@k = 0`` when ``IDCG@k = 0``.
* ``MeanNDCG = (sum_{k<=n} NDCG@k) / n`` (4.0 and MSLR).

Averages divide by the number of queries, every query counting, including those with no
relevant document and (3.0) those too short to have position ``k``.

Ties in the predictions keep the feature file's line order (the scripts sort by line number,
then stably by prediction, descending). Duplicate ``(qid, docid)`` pairs (3.0 and 4.0) keep
only the last line, as the scripts' hash does. Queries are ordered numerically by qid (Perl's
``<=>``; non-numeric qids count as their leading number, or 0, and tie by text).

Every step is a numpy operation over a padded ``queries x depth`` matrix; the sums run in the
scripts' order (``cumsum``, not pairwise summation) and the logarithms come from the C
library (as Perl's ``log``), so 3.0's full-precision output matches byte for byte.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from functools import lru_cache

import numpy as np
import pyarrow as pa

from ..core.gains import MAX_EXPONENT
from ..errors import CwlkitError, FormatError, ParamError

VERSIONS = ("4.0", "3.0", "mslr")


@dataclass(frozen=True)
class LetorVersion:
    """The conventions of one LETOR evaluation script.

    Attributes
    ----------
    name : str
        ``"4.0"``, ``"3.0"`` or ``"mslr"``.
    gains : tuple of (int, float)
        NDCG gain of each label, sorted by label.
    relevant : frozenset of int
        Labels that count as relevant for P@n and MAP.
    positions : int
        How many positions are reported (10, or 16 for 3.0).
    pad : bool
        True (4.0, MSLR): positions past a query's end count as non-relevant holes (P@k =
        #rel/k) and NDCG@k there is 0. False (3.0): they are absent.
    mean_ndcg : bool
        Whether MeanNDCG is reported.
    docid : bool
        Whether documents are keyed by the ``#docid`` comment (3.0, 4.0) rather than by line.
    custom : str
        The ``--gain`` mapping applied on top of the script's tables ("" if none).
    """

    name: str
    gains: tuple[tuple[int, float], ...]
    relevant: frozenset[int]
    positions: int
    pad: bool
    mean_ndcg: bool
    docid: bool
    custom: str = ""

    @property
    def gain_table(self) -> dict[int, float]:
        """The gain table as a dict."""
        return dict(self.gains)

    def label_set(self) -> str:
        """The labels of the table, for messages: ``{0, 1, 2}``."""
        return "{" + ", ".join(str(k) for k, _ in self.gains) + "}"


_BASE = {
    "4.0": LetorVersion(
        "4.0", ((0, 0.0), (1, 1.0), (2, 3.0)), frozenset({1, 2}), 10, True, True, True
    ),
    "3.0": LetorVersion(
        "3.0", ((0, 0.0), (1, 1.0), (2, 3.0)), frozenset({1, 2}), 16, False, False, True
    ),
    "mslr": LetorVersion(
        "mslr",
        ((0, 0.0), (1, 1.0), (2, 3.0), (3, 7.0), (4, 15.0)),
        frozenset({2, 3, 4}),
        10,
        True,
        True,
        False,
    ),
}


def letor_version(
    name: str = "4.0", *, gain: str | None = None, relevant: str | None = None
) -> LetorVersion:
    """The conventions of a LETOR script, optionally with more labels mapped.

    Parameters
    ----------
    name : {"4.0", "3.0", "mslr"}
        Which script to reproduce.
    gain : str, optional
        ``"exp"``: every label ``l >= 0`` gets the gain ``2^l - 1`` (the scripts' own rule,
        extended to any label). Or a table ``"3:7,4:15"``: these labels get these gains, on top
        of (and overriding) the script's table. A label added this way counts as relevant for
        P@n and MAP when its gain is positive. Gains must be >= 0.
    relevant : str, optional
        Comma-separated labels that count as relevant, replacing the script's set
        (e.g. ``"1,2,3,4"``).

    Raises
    ------
    ParamError
        Unknown version, malformed table, negative gain.
    """
    key = str(name).lower()
    if key in ("4", "4.0", "letor4"):
        key = "4.0"
    elif key in ("3", "3.0", "letor3"):
        key = "3.0"
    if key not in _BASE:
        raise ParamError(f"--version must be one of {', '.join(VERSIONS)}; got {name!r}")
    v = _BASE[key]
    if gain:
        g = gain.strip()
        if g == "exp":
            v = replace(v, gains=v.gains, custom="exp")
        else:
            from ..core.gains import GainMap

            try:
                table = GainMap(g).table
            except ParamError:
                raise ParamError(
                    f"--gain must be 'exp' or a table like '3:7,4:15' (label:gain); got {gain!r}"
                ) from None
            merged = dict(v.gains)
            rel = set(v.relevant)
            for lab, val in table.items():
                if lab != int(lab):
                    raise ParamError(
                        f"--gain: LETOR labels are integers; got label {lab:g} in {gain!r}"
                    )
                if val < 0 or not math.isfinite(val):
                    raise ParamError(
                        f"--gain: gains must be finite and >= 0; got {val:g} for label {lab:g}"
                    )
                lab_i = int(lab)
                if lab_i not in merged:
                    if val > 0:
                        rel.add(lab_i)
                merged[lab_i] = float(val)
            v = replace(v, gains=tuple(sorted(merged.items())), relevant=frozenset(rel), custom=g)
    if relevant:
        try:
            labs = frozenset(int(x) for x in relevant.split(",") if x.strip())
        except ValueError:
            raise ParamError(
                f"--relevant must be comma-separated integer labels; got {relevant!r}"
            ) from None
        v = replace(v, relevant=labs)
    return v


# ---------------------------------------------------------------------------- ranking


@dataclass(frozen=True)
class LetorRanking:
    """Each query's labels in ranked order: a padded ``queries x depth`` matrix.

    Attributes
    ----------
    qids : list of str
        Query ids, in the scripts' output order (numeric).
    labels : numpy.ndarray
        int64[Q, D]: ``labels[q, j]`` is the label at rank ``j + 1``; 0 past the query's end.
    depth : numpy.ndarray
        int64[Q]: number of documents of each query.
    lines : numpy.ndarray
        int64[Q, D]: the feature-file line of each ranked document (0 past the end).
    """

    qids: list[str]
    labels: np.ndarray
    depth: np.ndarray
    lines: np.ndarray


def numeric_order(qids: pa.Array) -> np.ndarray:
    """Order of ``qids`` as Perl's ``sort { $a <=> $b }``: by leading number, then text."""
    import pyarrow.compute as pc

    from ..io.text import sort_rank, to_numpy

    try:
        num = to_numpy(pc.cast(qids, pa.float64()), null=np.nan)
    except (pa.ArrowInvalid, pa.ArrowNotImplementedError):
        lead = pc.extract_regex(
            qids, r"^\s*(?P<n>[-+]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][-+]?[0-9]+)?)"
        )
        num = to_numpy(pc.cast(pc.struct_field(lead, [0]), pa.float64()), null=0.0)
    num = np.where(np.isnan(num), 0.0, num)
    return np.lexsort((sort_rank(qids), num))


def rank_documents(
    features,
    predictions: np.ndarray,
    *,
    version: LetorVersion,
    mode: str = "score",
    predictions_path: str = "<predictions>",
) -> LetorRanking:
    """Rank each query's documents by the predictions.

    Parameters
    ----------
    features : cwlkit.io.letor.LetorFile
        Labels, qids, docids and line numbers.
    predictions : numpy.ndarray
        float64[N], one per feature line: scores (``mode="score"``, higher first, ties in file
        order) or rank positions (``mode="rank"``, 1 first; each query's ranks must be
        ``1..n``, each once).
    version : LetorVersion
        Whether documents are keyed by docid (duplicates keep the last line) or by line.
    mode : {"score", "rank"}
    predictions_path : str
        For messages.
    """
    import pyarrow.compute as pc

    from ..io.text import encode, from_numpy, from_strings, to_numpy

    n = len(features)
    pred = np.asarray(predictions, dtype=np.float64)
    if pred.shape != (n,):
        raise CwlkitError(f"{n} feature lines but {pred.size} predictions")
    (qcode,), qdict = encode(features.qids)
    keep = np.arange(n)
    if version.docid and features.docids.null_count < n:
        has = ~to_numpy(features.docids.is_null())
        (dcode,), _ = encode(pc.fill_null(features.docids, from_strings([""])[0]))
        key = qcode * (int(dcode.max()) + 1) + dcode
        rev = key[::-1]
        _, first_rev = np.unique(rev, return_index=True)
        last = np.zeros(n, dtype=bool)
        last[n - 1 - first_rev] = True
        keep = np.flatnonzero(last | ~has)
    q_order = numeric_order(qdict)
    q_rank = np.empty(len(qdict), dtype=np.int64)
    q_rank[q_order] = np.arange(len(qdict), dtype=np.int64)
    qr = q_rank[qcode[keep]]
    p = pred[keep]
    line = features.lines[keep]
    if mode == "score":
        order = np.lexsort((line, -p, qr))
    elif mode == "rank":
        order = np.lexsort((line, p, qr))
    else:  # pragma: no cover - the CLI only passes these two
        raise ParamError(f"mode must be 'score' or 'rank'; got {mode!r}")
    qs = qr[order]
    Q = len(qdict)
    depth = np.bincount(qs, minlength=Q).astype(np.int64)
    start = np.concatenate(([0], np.cumsum(depth)[:-1]))
    pos = np.arange(qs.size, dtype=np.int64) - start[qs]
    if mode == "rank":
        bad = p[order] != pos + 1
        if bad.any():
            i = int(np.flatnonzero(bad)[0])
            q = int(qs[i])
            ln = int(line[order][i])
            qid = qdict[int(q_order[q])].as_py()
            raise FormatError(
                predictions_path,
                ln,
                f"rank {p[order][i]:g} for query {qid}: expected the ranks of the query's "
                f"{depth[q]} documents to be 1..{depth[q]}, each exactly once",
            )
    D = int(depth.max()) if Q else 0
    labels = np.zeros((Q, D), dtype=np.int64)
    lines = np.zeros((Q, D), dtype=np.int64)
    labels[qs, pos] = features.labels[keep][order]
    lines[qs, pos] = line[order]
    qids = qdict.take(from_numpy(np.asarray(q_order, dtype=np.int64))).to_pylist()
    return LetorRanking(qids=qids, labels=labels, depth=depth, lines=lines)


# ---------------------------------------------------------------------------- measures


@lru_cache(maxsize=8)
def _discount_terms(D: int) -> np.ndarray:
    """``log(j)`` for ranks ``j = 1..D`` from the C library (Perl's ``log``; numpy's SIMD
    ``log`` can differ in the last bit), read-only."""
    out = np.fromiter((math.log(j) for j in range(1, D + 1)), dtype=np.float64, count=D)
    out.flags.writeable = False
    return out


def _lookup(
    labels: np.ndarray, keys: np.ndarray, values: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """``values`` at each label's key, and whether the label is in ``keys``."""
    idx = np.minimum(np.searchsorted(keys, labels), keys.size - 1)
    hit = keys[idx] == labels
    return np.where(hit, values[idx], 0.0), hit


def check_labels(features, version: LetorVersion) -> None:
    """Raise if a label is outside the version's gain table (the Perl scripts silently give it
    gain 0 and count it non-relevant)."""
    if version.custom == "exp":  # (2^label - 1 overflows a double past 1023: gain inf)
        bad = (features.labels < 0) | (features.labels > MAX_EXPONENT)
    else:
        keys = np.array([k for k, _ in version.gains], dtype=np.int64)
        _, hit = _lookup(features.labels, keys, np.zeros(keys.size))
        bad = ~hit
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        lab = int(features.labels[i])
        name = {"4.0": "Eval-Score-4.0", "3.0": "Eval-Score-3.0", "mslr": "Eval-Score-MSLR"}[
            version.name
        ]
        if lab > MAX_EXPONENT:
            raise FormatError(
                features.path,
                int(features.lines[i]),
                f"label {lab} is too large for --gain exp (2^{lab} overflows); labels must be "
                f"at most {MAX_EXPONENT}",
            )
        if lab < 0:
            raise FormatError(
                features.path,
                int(features.lines[i]),
                f"label {lab} is negative; LETOR labels are 0, 1, 2, ... "
                f"(map it with --gain, e.g. --gain={lab}:0)",
            )
        example = f"--gain {lab}:{2**lab - 1}" if lab <= 30 else f"--gain {lab}:1"
        mslr = " or --version mslr (labels 0..4)" if version.name != "mslr" and lab <= 4 else ""
        raise FormatError(
            features.path,
            int(features.lines[i]),
            f"label {lab} is not in LETOR {version.name}'s gain table {version.label_set()} "
            f"({name}.pl would silently score it as gain 0, non-relevant); map it with --gain, "
            f"e.g. --gain exp (gain 2^label-1) or {example}{mslr}",
        )


def letor_gain_rel(labels: np.ndarray, version: LetorVersion) -> tuple[np.ndarray, np.ndarray]:
    """NDCG gain and relevance (1.0 or 0.0, for P@n and MAP) of each label under ``version``.

    Parameters
    ----------
    labels : numpy.ndarray
        int64, any shape.
    version : LetorVersion

    Returns
    -------
    gain, rel : numpy.ndarray
        float64, the shape of ``labels``. A label outside the gain table gets gain 0 and is not
        relevant (as in the scripts; :func:`check_labels` and the registry measures refuse such
        labels first).
    """
    lab = labels
    if version.custom == "exp":
        gain = np.where(lab >= 0, np.exp2(np.maximum(lab, 0).astype(np.float64)) - 1.0, 0.0)
        keys = np.array(sorted(version.relevant | {k for k, _ in version.gains}), dtype=np.int64)
        relset = np.array([k in version.relevant for k in keys], dtype=np.float64)
        rel, _ = _lookup(lab, keys, relset)
        # labels outside the base tables: relevant when their gain is positive
        known = np.isin(lab, keys)
        rel = np.where(known, rel, (gain > 0).astype(np.float64))
    else:
        keys = np.array([k for k, _ in version.gains], dtype=np.int64)
        vals = np.array([v for _, v in version.gains], dtype=np.float64)
        gain, _ = _lookup(lab, keys, vals)
        rkeys = np.array(sorted(version.relevant), dtype=np.int64)
        if rkeys.size:
            rel, _ = _lookup(lab, rkeys, np.ones(rkeys.size))
        else:
            rel = np.zeros(lab.shape)
    return gain, rel


def letor_measures(
    gain: np.ndarray,
    rel: np.ndarray,
    depth: np.ndarray,
    version: LetorVersion,
    *,
    positions: int | None = None,
    ideal: np.ndarray | None = None,
    n_relevant: np.ndarray | None = None,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """P@1..P@K, AP, NDCG@1..NDCG@K and MeanNDCG of ranked gains: the scripts' arithmetic.

    The one implementation of the formulas of the module docstring, behind the registry
    measures of :mod:`cwlkit.measures.letor_measures` (which the ``cwlkit letor`` subcommand
    evaluates, :func:`cwlkit.formats.letor.evaluate_letor_files`). Sums run in rank order
    (``cumsum``) and the logarithms come from the C library, so the values are the scripts'
    to the last bit.

    Parameters
    ----------
    gain, rel : numpy.ndarray
        float64[Q, D]: NDCG gain and relevance (0/1) at each rank (:func:`letor_gain_rel`),
        0 past each query's depth.
    depth : numpy.ndarray
        int64[Q]: ranked documents of each query (may be 0).
    version : LetorVersion
        ``pad`` (holes past the end) and ``mean_ndcg`` are read from it.
    positions : int, optional
        ``K``, how many positions to compute (default ``version.positions``).
    ideal : numpy.ndarray, optional
        float64[Q, W]: the gains of each query's candidate documents (any order, >= 0, zero
        padded) from which IDCG is built. Default: the ranked gains themselves (LETOR: every
        document of a query is ranked and judged).
    n_relevant : numpy.ndarray, optional
        float64[Q]: AP's denominator. Default: the relevant documents in the ranking.

    Returns
    -------
    precision : float64[Q, K], NaN where undefined (``not version.pad``, past the end)
    ap : float64[Q], 0 without relevant documents
    ndcg : float64[Q, K], NaN past the query's end
    mean_ndcg : float64[Q], NaN unless ``version.mean_ndcg``; 0 for a query of depth 0
    """
    Q, D = gain.shape
    K = version.positions if positions is None else int(positions)
    j = np.arange(1, max(D, K) + 1, dtype=np.int64)
    inside = j[None, :D] <= depth[:, None]  # [Q, D]

    # precision at every rank; P@k past the end: holes are non-relevant
    W = max(D, K)
    relw = np.zeros((Q, W))
    relw[:, :D] = rel
    cumrel = np.cumsum(relw, axis=1)
    prec_all = cumrel / j[None, :W]
    precision = prec_all[:, :K].copy()
    if not version.pad:
        precision[j[None, :K] > depth[:, None]] = np.nan

    # AP: sum of P@j at relevant ranks, in rank order, over the number of relevant documents
    if n_relevant is None:
        nrel = cumrel[:, D - 1] if D else np.zeros(Q)
    else:
        nrel = np.asarray(n_relevant, dtype=np.float64)
    ap_sum = np.cumsum(relw[:, :D] * prec_all[:, :D], axis=1)[:, -1] if D else np.zeros(Q)
    with np.errstate(invalid="ignore", divide="ignore"):
        ap = np.where(nrel > 0, ap_sum / np.where(nrel > 0, nrel, 1.0), 0.0)

    # DCG with LETOR's discount: ranks 1 and 2 undiscounted, then g * log(2) / log(j)
    logj = _discount_terms(max(D, 1))[:D]
    log2 = math.log(2.0)

    def dcg(g: np.ndarray) -> np.ndarray:
        terms = np.empty_like(g)
        terms[:, :2] = g[:, :2]
        if D > 2:
            terms[:, 2:] = (g[:, 2:] * log2) / logj[None, 2:]
        return np.cumsum(terms, axis=1)

    d = dcg(gain)
    if ideal is None:
        best = -np.sort(-gain, axis=1)  # gains >= 0: the padding (0) sorts last
    else:
        best = np.zeros((Q, D))
        top = -np.sort(-np.asarray(ideal, dtype=np.float64), axis=1)[:, :D]
        best[:, : top.shape[1]] = top
    ideal_dcg = dcg(best)
    with np.errstate(invalid="ignore", divide="ignore"):
        nd_all = np.where(ideal_dcg != 0, d / np.where(ideal_dcg != 0, ideal_dcg, 1.0), 0.0)
    nd_all = np.where(inside, nd_all, np.nan)
    ndcg = np.full((Q, K), np.nan)
    ndcg[:, : min(K, D)] = nd_all[:, :K]
    if version.mean_ndcg and D:
        last = np.maximum(depth - 1, 0)
        total = np.cumsum(np.nan_to_num(nd_all, nan=0.0), axis=1)[np.arange(Q), last]
        mean_ndcg = np.where(depth > 0, total / np.maximum(depth, 1), 0.0)
    elif version.mean_ndcg:
        mean_ndcg = np.zeros(Q)
    else:
        mean_ndcg = np.full(Q, np.nan)
    return precision, ap, ndcg, mean_ndcg


def letor_qrels_run(
    features,
    predictions: np.ndarray,
    *,
    version: LetorVersion,
    mode: str = "score",
    predictions_path: str = "<predictions>",
):
    """A feature file as qrels and its predictions as a run ranked as the scripts rank.

    Every kept feature line (:func:`rank_documents`: 3.0 and 4.0 keep the last line of a
    repeated docid) is a judged document ``(qid, line number, label)``; the run holds the same
    documents with their prediction as the score and, as the rank, their position in the
    scripts' order (ties in line order). Evaluate it with ``order="rank"`` and
    ``topics="run"`` to get the scripts' values.

    Returns
    -------
    qrels : cwlkit.io.trec.Qrels
        Documents are named by their feature-file line number; lines refer to the features.
    run : cwlkit.io.trec.Run
        Lines refer to the prediction file (one prediction per feature line).
    """
    import pyarrow.compute as pc

    from ..io.text import from_numpy, from_strings
    from ..io.trec import Qrels, Run

    ranking = rank_documents(
        features, predictions, version=version, mode=mode, predictions_path=predictions_path
    )
    Q, D = ranking.labels.shape
    inside = np.arange(D, dtype=np.int64)[None, :] < ranking.depth[:, None]
    rows, cols = np.nonzero(inside)  # row-major: each query's ranks in order
    topic = from_strings(ranking.qids).take(from_numpy(rows.astype(np.int64)))
    lines = ranking.lines[inside]
    doc = pc.cast(from_numpy(lines), pa.string())
    labels = ranking.labels[inside]
    idx = np.searchsorted(features.lines, lines)  # feature index = prediction index
    scores = np.asarray(predictions, dtype=np.float64)[idx]
    n = lines.size
    zero = from_numpy(np.zeros(n, dtype=np.int64))
    qrels = Qrels(
        pa.table(
            {
                "topic": topic,
                "iter": from_strings(["0"]).take(zero),
                "doc": doc,
                "label_text": pc.cast(from_numpy(labels), pa.string()),
                "label": from_numpy(labels.astype(np.float64)),
            }
        ),
        lines,
        str(features.path),
    )
    run = Run(
        pa.table(
            {
                "topic": topic,
                "q0": from_strings(["Q0"]).take(zero),
                "doc": doc,
                "rank": pc.cast(from_numpy(cols + 1), pa.string()),
                "score_text": pc.cast(from_numpy(scores), pa.string()),
                "tag": from_strings(["letor"]).take(zero),
                "score": from_numpy(scores),
            }
        ),
        idx.astype(np.int64) + 1,
        predictions_path,
    )
    return qrels, run
