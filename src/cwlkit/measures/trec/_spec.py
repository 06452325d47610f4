"""The table of trec_eval's qrels-based measures, in trec_eval's print order (``measures.c``),
with their parameter kinds, defaults, aggregation, and the nicknames.

Parameter kinds (``-m name.params``), as trec_eval parses them:

- ``long_cut``: comma-separated integer cutoffs (``P.5,10``), sorted, positive, no duplicates;
  one value per cutoff, printed ``name_k``.
- ``double_cut``: real cutoffs (``iprec_at_recall.0.1,0.5``), sorted, no duplicates; printed
  ``name_%3.2f``.
- ``double_params``: real parameters in the given order (``utility.2,-1,0,0``); one value,
  printed ``name_<params as typed>`` when given.
- ``pairs``: ``level=value`` pairs (``ndcg.1=3,2=9``, ``rbp.p=0.8``); one value, printed
  ``name_<params as typed>`` when given.
- ``none``: no parameters.

Aggregation over topics: ``mean`` (sum / num_q), ``sum``, ``gm`` (geometric mean with floor
1e-5, summary only), ``text`` (per topic only), ``runid`` and ``num_q`` (summary only).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from . import ap, counts, dcg, precision, unjudged
from . import set as set_

CUTOFFS = (5, 10, 15, 20, 30, 100, 200, 500, 1000)
RECALL_LEVELS = (0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0)


@dataclass(frozen=True)
class TrecMeasure:
    """One trec_eval measure (or measure family with cutoffs).

    Attributes
    ----------
    name : str
        trec_eval's name (``P``, ``ndcg_cut``).
    kind : str
        Parameter kind (see module docstring).
    default : tuple
        Default parameters.
    compute : callable or None
        ``compute(ctx, params) -> list of float64[T]`` (one per printed name); None for
        ``runid`` and ``num_q``.
    agg : str
        ``mean``, ``sum``, ``gm``, ``text``, ``runid`` or ``num_q``.
    integer : bool
        Printed with ``%ld``.
    versions : tuple of int
        trec_eval versions that register it.
    doc : str
        One-paragraph definition (``-h -m name``).
    """

    name: str
    kind: str
    default: tuple
    compute: Callable | None
    agg: str = "mean"
    integer: bool = False
    versions: tuple[int, ...] = (9, 10)
    doc: str = ""


M = TrecMeasure
MEASURES: list[TrecMeasure] = [
    M("runid", "none", (), None, "runid", doc="The run's tag (last line's sixth field)."),
    M("num_q", "none", (), None, "num_q", True, doc="Number of topics averaged over."),
    M(
        "num_ret",
        "none",
        (),
        counts.num_ret,
        "sum",
        True,
        doc="Documents retrieved (summed over topics).",
    ),
    M(
        "num_rel",
        "none",
        (),
        counts.num_rel,
        "sum",
        True,
        doc="Relevant documents in the qrels (summed).",
    ),
    M(
        "num_rel_ret",
        "none",
        (),
        counts.num_rel_ret,
        "sum",
        True,
        doc="Relevant documents retrieved (summed).",
    ),
    M(
        "map",
        "none",
        (),
        ap.map_,
        doc="Mean average precision: sum of precision at each relevant retrieved document / R.",
    ),
    M(
        "gm_map",
        "none",
        (),
        ap.map_,
        "gm",
        doc="Geometric mean of AP over topics (AP floored at 1e-5); summary only.",
    ),
    M("Rprec", "none", (), precision.Rprec, doc="Precision after R documents retrieved."),
    M(
        "bpref",
        "none",
        (),
        ap.bpref,
        doc="Binary preference (Buckley and Voorhees 2004): judged documents only.",
    ),
    M(
        "recip_rank",
        "none",
        (),
        ap.recip_rank,
        doc="Reciprocal rank of the first relevant document.",
    ),
    M(
        "iprec_at_recall",
        "double_cut",
        RECALL_LEVELS,
        ap.iprec_at_recall,
        doc="Interpolated precision (max precision at any later rank) at recall levels.",
    ),
    M(
        "P",
        "long_cut",
        CUTOFFS,
        precision.P,
        doc="Precision at cutoffs (short runs padded with non-relevant).",
    ),
    M(
        "relstring",
        "double_params",
        (10.0,),
        unjudged.relstring,
        "text",
        doc="Relevance codes of the top N documents as a string (per topic only).",
    ),
    M("recall", "long_cut", CUTOFFS, precision.recall, doc="Recall at cutoffs."),
    M(
        "infAP",
        "none",
        (),
        ap.infAP,
        doc="Inferred AP (Yilmaz and Aslam); negative qrels values = pooled, unjudged.",
    ),
    M("gm_bpref", "none", (), ap.bpref, "gm", doc="Geometric mean of bpref; summary only."),
    M(
        "Rprec_mult",
        "double_cut",
        (0.2, 0.4, 0.6, 0.8, 1.0, 1.2, 1.4, 1.6, 1.8, 2.0),
        precision.Rprec_mult,
        doc="Precision at (long)(x R + 0.9) documents for multiples x of R.",
    ),
    M(
        "utility",
        "double_params",
        (1.0, -1.0, 0.0, 0.0),
        set_.utility,
        doc="p1 a + p2 b + p3 c + p4 d over the retrieved/relevant contingency table (d needs -N).",
    ),
    M(
        "11pt_avg",
        "double_params",
        RECALL_LEVELS,
        ap.eleven_pt_avg,
        doc="Interpolated precision averaged over the recall levels given (name ignores them).",
    ),
    M(
        "binG",
        "none",
        (),
        ap.binG,
        doc="Binary G: mean over relevant documents of 1/log2(2 + non-relevant above).",
    ),
    M(
        "G",
        "pairs",
        (),
        dcg.G,
        doc="Buckley's normalised gain G (experimental); level=gain parameters.",
    ),
    M("dcg", "pairs", (), dcg.dcg, doc="DCG over the whole ranking: sum of gain/log2(rank+1)."),
    M("ideal_dcg", "pairs", (), dcg.ideal_dcg, doc="DCG of the ideal ranking of the judged gains."),
    M(
        "ndcg",
        "pairs",
        (),
        dcg.ndcg,
        doc="DCG / ideal DCG over the whole ranking; level=gain parameters.",
    ),
    M(
        "ndcg_rel",
        "pairs",
        (),
        dcg.ndcg_rel,
        doc="nDCG averaged over the relevant documents (experimental).",
    ),
    M(
        "Rndcg",
        "pairs",
        (),
        dcg.Rndcg,
        doc="nDCG averaged at the R-level breakpoints of the ideal gains (experimental).",
    ),
    M(
        "ndcg_cut",
        "long_cut",
        CUTOFFS,
        dcg.ndcg_cut,
        doc="nDCG at cutoffs; gains are the qrels values.",
    ),
    M(
        "map_cut",
        "long_cut",
        CUTOFFS,
        precision.map_cut,
        doc="AP truncated at cutoffs (normalised by R).",
    ),
    M(
        "relative_P",
        "long_cut",
        CUTOFFS,
        precision.relative_P,
        doc="Precision at k / best possible precision at k.",
    ),
    M(
        "success",
        "long_cut",
        (1, 5, 10),
        precision.success,
        doc="1 if a relevant document is in the top k.",
    ),
    M("set_P", "none", (), set_.set_P, doc="num_rel_ret / num_ret."),
    M("set_relative_P", "none", (), set_.set_relative_P, doc="num_rel_ret / min(num_ret, R)."),
    M("set_recall", "none", (), set_.set_recall, doc="num_rel_ret / R."),
    M("set_map", "none", (), set_.set_map, doc="set_P x set_recall."),
    M(
        "set_F",
        "double_params",
        (1.0,),
        set_.set_F,
        doc="(1+b) P R / (b P + R) over the retrieved set.",
    ),
    M(
        "num_nonrel_judged_ret",
        "none",
        (),
        counts.num_nonrel_judged_ret,
        "sum",
        True,
        doc="Retrieved documents judged non-relevant (summed).",
    ),
    M("yaap", "none", (), ap.yaap, doc="Robertson's yet another AP: log((1+s)/(1+R-s))."),
    M(
        "rbp",
        "pairs",
        (),
        dcg.rbp,
        doc="Rank-biased precision, p=0.9 unless rbp.p=X; gains rescaled to [0,1].",
    ),
    M(
        "rbp_resid",
        "none",
        (),
        unjudged.rbp_resid,
        doc="RBP residual from unjudged documents (p=0.9).",
    ),
    M(
        "unj",
        "long_cut",
        (5, 10, 20),
        unjudged.unj,
        versions=(10,),
        doc="Fraction of the top k that is unjudged.",
    ),
]
BY_NAME: dict[str, TrecMeasure] = {m.name: m for m in MEASURES}

#: measures computed by the preference / judgment-group module (cwlkit.measures.trec.prefs)
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
    "map_avgjg",
    "P_avgjg",
    "Rprec_mult_avgjg",
)

_OFFICIAL = (
    "runid",
    "num_q",
    "num_ret",
    "num_rel",
    "num_rel_ret",
    "map",
    "gm_map",
    "Rprec",
    "bpref",
    "recip_rank",
    "iprec_at_recall",
    "P",
)
_ALL_TREC = (
    "runid",
    "num_q",
    "num_ret",
    "num_rel",
    "num_rel_ret",
    "map",
    "gm_map",
    "Rprec",
    "bpref",
    "recip_rank",
    "iprec_at_recall",
    "P",
    "relstring",
    "recall",
    "infAP",
    "gm_bpref",
    "utility",
    "11pt_avg",
    "ndcg",
    "relative_P",
    "Rprec_mult",
    "success",
    "map_cut",
    "ndcg_cut",
    "ndcg_rel",
    "Rndcg",
    "binG",
    "G",
    "set_P",
    "set_recall",
    "set_relative_P",
    "set_map",
    "set_F",
    "num_nonrel_judged_ret",
)
_SET = (
    "runid",
    "num_q",
    "num_ret",
    "num_rel",
    "num_rel_ret",
    "utility",
    "set_P",
    "set_recall",
    "set_relative_P",
    "set_map",
    "set_F",
)
_PREFS_ALL = (
    "runid",
    "num_q",
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
_PREFS_OFF = (
    "runid",
    "num_q",
    "prefs_num_prefs_poss",
    "prefs_num_prefs_ful",
    "prefs_num_prefs_ful_ret",
    "prefs_simp",
    "prefs_pair",
    "prefs_avgjg",
)
_QRELS_JG = ("runid", "num_q", "map_avgjg", "P_avgjg", "Rprec_mult_avgjg")


def nicknames(version: int) -> dict[str, tuple[str, ...]]:
    """trec_eval's measure nicknames for a version."""
    all_trec = _ALL_TREC + (("rbp", "rbp_resid", "unj") if version >= 10 else ())
    return {
        "official": _OFFICIAL,
        "set": _SET,
        "all_trec": all_trec,
        "all_prefs": _PREFS_ALL,
        "prefs": _PREFS_OFF,
        "qrels_jg": _QRELS_JG,
    }
