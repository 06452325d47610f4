"""The one table of trec_eval's qrels-based measures, in trec_eval's print order
(``measures.c``'s ``te_trec_measures``): each row declares what trec_eval knows of a measure
(name, parameter kind, defaults, aggregation, versions, documentation, the family function)
and the canonical measure the registry makes of it (:class:`Canonical`:
:mod:`.registered` generates the registered classes from this table). Also the nicknames.

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

from . import _classes as kinds
from . import ap, counts, dcg, precision, unjudged
from . import set as set_
from .jg_measures import JG_MEASURES
from .prefs_counts import PREFS_MEASURES
from .rows import GAINS, JUDGED, REL, Canonical, Param, TrecMeasure, cutoff

CUTOFFS = (5, 10, 15, 20, 30, 100, 200, 500, 1000)
RECALL_LEVELS = (0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0)


M = TrecMeasure
C = Canonical

MEASURES: list[TrecMeasure] = [
    M("runid", None, "The run's tag (last line's sixth field).", agg="runid"),
    M("num_q", None, "Number of topics averaged over.", agg="num_q", integer=True),
    M(
        "num_ret",
        counts.num_ret,
        "Documents retrieved (summed over topics).",
        agg="sum",
        integer=True,
        measure=C(
            "NumRet",
            (
                "Documents retrieved (summed over topics); ``NumRet(rel=r)`` counts those "
                "with a label >= r: it is ``NumRelRet(rel=r)`` (ir_measures' spelling of "
                "trec_eval's ``num_rel_ret``)."
            ),
            (
                Param(
                    "rel",
                    "float | None",
                    None,
                    "given: count the retrieved documents with label >= rel (NumRelRet(rel))",
                ),
            ),
            base=kinds.Retrieved,
        ),
        scalar=counts.num_ret_one,
    ),
    M(
        "num_rel",
        counts.num_rel,
        "Relevant documents in the qrels (summed).",
        agg="sum",
        integer=True,
        measure=C("NumRel", "Relevant documents in the qrels (summed over topics)."),
        scalar=counts.num_rel_one,
    ),
    M(
        "num_rel_ret",
        counts.num_rel_ret,
        "Relevant documents retrieved (summed).",
        agg="sum",
        integer=True,
        measure=C("NumRelRet", "Relevant documents retrieved (summed)."),
        scalar=counts.num_rel_ret_one,
    ),
    M(
        "map",
        ap.map_,
        "Mean average precision: sum of precision at each relevant retrieved document / R.",
        measure=C(
            "AP",
            (
                "Average precision: sum of the precision at each relevant "
                "retrieved document / R.\n\n"
                "``AP@k`` stops at rank k and still divides by R (trec_eval "
                "``map_cut_k``); without a cutoff it is trec_eval's ``map``. "
                "A topic with R = 0 scores 0."
            ),
            (REL, JUDGED, cutoff(None)),
            ("MAP",),
        ),
        scalar=ap.map_one,
    ),
    M(
        "gm_map",
        ap.map_,
        "Geometric mean of AP over topics (AP floored at 1e-5); summary only.",
        agg="gm",
        measure=C(
            "GMAP",
            (
                "AP per topic, aggregated by the geometric mean (AP floored "
                "at 1e-5; trec_eval ``gm_map``)."
            ),
        ),
        scalar=ap.map_one,
    ),
    M(
        "Rprec",
        precision.Rprec,
        "Precision after R documents retrieved.",
        measure=C(
            "Rprec",
            "Precision at rank R, the number of relevant documents.",
            (REL, JUDGED),
            ("R-prec",),
        ),
        scalar=precision.Rprec_one,
    ),
    M(
        "bpref",
        ap.bpref,
        "Binary preference (Buckley and Voorhees 2004): judged documents only.",
        measure=C("Bpref", "Binary preference (Buckley and Voorhees 2004): judged documents only."),
        scalar=ap.bpref_one,
    ),
    M(
        "recip_rank",
        ap.recip_rank,
        "Reciprocal rank of the first relevant document.",
        measure=C(
            "RR",
            (
                "Reciprocal rank of the first relevant document (trec_eval "
                "``recip_rank``); ``RR@k`` scores 0 when it is below rank k "
                "(MS MARCO's MRR@10)."
            ),
            (REL, JUDGED, cutoff(None)),
            ("MRR", "recip_rank"),
            base=kinds.Reciprocal,
        ),
        scalar=ap.recip_rank_one,
    ),
    M(
        "iprec_at_recall",
        ap.iprec_at_recall,
        "Interpolated precision (max precision at any later rank) at recall levels.",
        "double_cut",
        RECALL_LEVELS,
        measure=C(
            "IPrec",
            (
                "Interpolated precision at recall level k: the highest "
                "precision at any rank whose recall is at least k (trec_eval "
                "``iprec_at_recall``; 9.0.8 reaches level k at (long)(k R + "
                "0.9) relevant documents)."
            ),
            (REL, JUDGED, Param("k", "float", 0.0, "recall level", ge=0.0, le=1.0)),
        ),
        scalar=ap.iprec_at_recall_one,
    ),
    M(
        "P",
        precision.P,
        "Precision at cutoffs (short runs padded with non-relevant).",
        "long_cut",
        CUTOFFS,
        measure=C(
            "P",
            "Precision at k: relevant documents in the top k / k (trec_eval ``P_k``).",
            (REL, JUDGED, cutoff(10)),
            ("Precision",),
            base=kinds.Precision,
        ),
        scalar=precision.P_one,
    ),
    M(
        "relstring",
        unjudged.relstring,
        "Relevance codes of the top N documents as a string (per topic only).",
        "double_params",
        (10.0,),
        agg="text",
        measure=C(
            "RelString",
            (
                "The relevance codes of the top k documents, as text: the label 0-9, '>' "
                "above 9, '<' below 0, '.' unjudged (trec_eval ``relstring``, per topic)."
            ),
            (cutoff(10),),
            base=kinds.Text,
        ),
    ),
    M(
        "recall",
        precision.recall,
        "Recall at cutoffs.",
        "long_cut",
        CUTOFFS,
        measure=C(
            "R",
            "Recall at k: relevant documents in the top k / R (trec_eval ``recall_k``).",
            (REL, JUDGED, cutoff(1000)),
            ("Recall",),
        ),
        scalar=precision.recall_one,
    ),
    M(
        "infAP",
        ap.infAP,
        "Inferred AP (Yilmaz and Aslam); negative qrels values = pooled, unjudged.",
        measure=C(
            "infAP", "Inferred AP (Yilmaz and Aslam 2006); negative labels: pooled, unjudged."
        ),
        scalar=ap.infAP_one,
    ),
    M(
        "gm_bpref",
        ap.bpref,
        "Geometric mean of bpref; summary only.",
        agg="gm",
        measure=C("GMBpref", "Bpref aggregated by the geometric mean (floor 1e-5)."),
        scalar=ap.bpref_one,
    ),
    M(
        "Rprec_mult",
        precision.Rprec_mult,
        "Precision at (long)(x R + 0.9) documents for multiples x of R.",
        "double_cut",
        (0.2, 0.4, 0.6, 0.8, 1.0, 1.2, 1.4, 1.6, 1.8, 2.0),
        measure=C(
            "Rprec_mult",
            (
                "Precision at rank (long)(k R + 0.9), for a multiple k of R "
                "(trec_eval ``Rprec_mult``)."
            ),
            (REL, Param("k", "float", 1.0, "multiple of R", gt=0.0)),
            cls_name="RprecMult",
        ),
    ),
    M(
        "utility",
        set_.utility,
        "p1 a + p2 b + p3 c + p4 d over the retrieved/relevant contingency table (d needs -N).",
        "double_params",
        (1.0, -1.0, 0.0, 0.0),
        measure=C(
            "Utility",
            (
                "Linear utility a R+ + b N+ + c R- + d N- over the retrieved "
                "(+) / not retrieved (-), relevant (R) / non-relevant (N) "
                "table (trec_eval ``utility``; d needs the collection size, "
                "trec_eval's -N)."
            ),
            (
                REL,
                Param("a", "float", 1.0, "value of a relevant retrieved document"),
                Param("b", "float", -1.0, "value of a non-relevant retrieved document"),
                Param("c", "float", 0.0, "value of a relevant document not retrieved"),
                Param("d", "float", 0.0, "value of a non-relevant document not retrieved"),
                Param(
                    "N",
                    "int",
                    0,
                    "collection size, trec_eval's -N (d counts N - retrieved - R + R+)",
                    ge=0,
                    integer=True,
                ),
            ),
            base=kinds.Linear,
        ),
    ),
    M(
        "11pt_avg",
        ap.eleven_pt_avg,
        "Interpolated precision averaged over the recall levels given (name ignores them).",
        "double_params",
        RECALL_LEVELS,
        measure=C(
            "IAP11_trec",
            (
                "trec_eval's 11pt_avg: interpolated precision at recall 0, "
                "0.1, ..., 1 (or the levels given), averaged."
            ),
            (
                Param(
                    "levels", "str | None", None, "recall levels 'x,y,...' (default 0, 0.1, ..., 1)"
                ),
                REL,
            ),
            base=kinds.Levels,
        ),
        scalar=ap.eleven_pt_avg_one,
    ),
    M(
        "binG",
        ap.binG,
        "Binary G: mean over relevant documents of 1/log2(2 + non-relevant above).",
        measure=C(
            "binG", "Binary G: mean over relevant documents of 1/log2(2 + non-relevant above)."
        ),
    ),
    M(
        "G",
        dcg.G,
        "Buckley's normalised gain G (experimental); level=gain parameters.",
        "pairs",
        measure=C("G", "Buckley's normalised gain G (experimental).", (GAINS,), base=kinds.Gains),
    ),
    M(
        "dcg",
        dcg.dcg,
        "DCG over the whole ranking: sum of gain/log2(rank+1).",
        "pairs",
        measure=C(
            "DCG",
            "DCG over the whole ranking: sum of gain / log2(rank + 1).",
            (GAINS,),
            base=kinds.Gains,
        ),
    ),
    M(
        "ideal_dcg",
        dcg.ideal_dcg,
        "DCG of the ideal ranking of the judged gains.",
        "pairs",
        measure=C(
            "IdealDCG", "DCG of the ideal ranking of the judged gains.", (GAINS,), base=kinds.Gains
        ),
    ),
    M(
        "ndcg",
        dcg.ndcg,
        "DCG / ideal DCG over the whole ranking; level=gain parameters.",
        "pairs",
        measure=C(
            "nDCG",
            (
                "nDCG = DCG / ideal DCG with discount log2(rank + 1) "
                "(trec_eval ``ndcg`` / ``ndcg_cut``).\n\n"
                "``dcg='log2'`` (default, trec_eval): gain = label (negative "
                "labels 0), or the ``gains`` table ``'1=3,2=9'`` (trec_eval's "
                "``ndcg.1=3,2=9``; with a cutoff, ir_measures' ``nDCG(gains={1:3,2:9})@k``, "
                "which trec_eval has not). ``dcg='exp-log2'``: gain "
                "2^label - 1 (gdeval.pl's nDCG, ir_measures' "
                "``nDCG(dcg='exp-log2')``). The ideal ranking sorts every "
                "judged document of the topic; ``@k`` cuts run and ideal at "
                "k. A topic without a positive gain scores 0."
            ),
            (
                Param(
                    "dcg",
                    "str",
                    "log2",
                    "gain: label or 2^label - 1",
                    choices=("log2", "exp-log2"),
                ),
                Param(
                    "gains", "str | None", None, "trec_eval gain table 'level=gain,...' (log2 only)"
                ),
                JUDGED,
                cutoff(None),
            ),
            base=kinds.NDCGBase,
            cls_name="NDCG",
        ),
        scalar=dcg.ndcg_one,
    ),
    M(
        "ndcg_rel",
        dcg.ndcg_rel,
        "nDCG averaged over the relevant documents (experimental).",
        "pairs",
        measure=C(
            "nDCG_rel",
            "nDCG averaged over the relevant documents (experimental).",
            (GAINS,),
            base=kinds.Gains,
        ),
    ),
    M(
        "Rndcg",
        dcg.Rndcg,
        "nDCG averaged at the R-level breakpoints of the ideal gains (experimental).",
        "pairs",
        measure=C(
            "RnDCG",
            (
                "nDCG averaged at the R-level breakpoints of the ideal gains "
                "(experimental); 0 for a topic without a relevant document "
                "(label >= rel)."
            ),
            (GAINS, REL),
            base=kinds.Gains,
        ),
    ),
    M(
        "ndcg_cut",
        dcg.ndcg_cut,
        "nDCG at cutoffs; gains are the qrels values.",
        "long_cut",
        CUTOFFS,
        of="ndcg",
        scalar=dcg.ndcg_cut_one,
    ),
    M(
        "map_cut",
        precision.map_cut,
        "AP truncated at cutoffs (normalised by R).",
        "long_cut",
        CUTOFFS,
        of="map",
        scalar=precision.map_cut_one,
    ),
    M(
        "relative_P",
        precision.relative_P,
        "Precision at k / best possible precision at k.",
        "long_cut",
        CUTOFFS,
        measure=C(
            "relative_P",
            "Precision at k over the best possible precision at k, min(k, R) / k.",
            (REL, cutoff(10)),
            cls_name="RelativeP",
        ),
        scalar=precision.relative_P_one,
    ),
    M(
        "success",
        precision.success,
        "1 if a relevant document is in the top k.",
        "long_cut",
        (1, 5, 10),
        measure=C(
            "Success",
            "1 if a relevant document is in the top k (trec_eval ``success_k``).",
            (REL, JUDGED, cutoff(10)),
        ),
        scalar=precision.success_one,
    ),
    M(
        "set_P",
        set_.set_P,
        "num_rel_ret / num_ret.",
        measure=C(
            "SetP",
            (
                "Precision of the retrieved set, relevant retrieved / "
                "retrieved (trec_eval ``set_P``); ``relative=True``: relevant "
                "retrieved / min(retrieved, R) (``set_relative_P``)."
            ),
            (REL, Param("relative", "bool", False, "divide by min(retrieved, R)"), JUDGED),
            presets=(("SetRelP", (("relative", True),)),),
        ),
        scalar=set_.set_P_one,
    ),
    M(
        "set_relative_P",
        set_.set_relative_P,
        "num_rel_ret / min(num_ret, R).",
        of="set_P",
        fixed=(("relative", True),),
        scalar=set_.set_relative_P_one,
    ),
    M(
        "set_recall",
        set_.set_recall,
        "num_rel_ret / R.",
        measure=C("SetR", "Recall of the retrieved set: relevant retrieved / R."),
        scalar=set_.set_recall_one,
    ),
    M(
        "set_map",
        set_.set_map,
        "set_P x set_recall.",
        measure=C("SetAP", "Set precision x set recall (trec_eval ``set_map``).", (REL, JUDGED)),
        scalar=set_.set_map_one,
    ),
    M(
        "set_F",
        set_.set_F,
        "(1+b) P R / (b P + R) over the retrieved set.",
        "double_params",
        (1.0,),
        measure=C(
            "SetF",
            (
                "trec_eval's F of the retrieved set, ``(1 + beta) P R / (beta "
                "P + R)`` (``set_F.beta``: trec_eval's beta stands where the "
                "usual definition has beta squared; the lecture's F-beta is "
                "the ``F`` family)."
            ),
            (REL, Param("beta", "float", 1.0, "weight of recall", gt=0.0), JUDGED),
            base=kinds.FMeasure,
        ),
        scalar=set_.set_F_one,
    ),
    M(
        "num_nonrel_judged_ret",
        counts.num_nonrel_judged_ret,
        "Retrieved documents judged non-relevant (summed).",
        agg="sum",
        integer=True,
        measure=C(
            "NumNonRelJudgedRet", "Retrieved documents judged non-relevant (summed over topics)."
        ),
        scalar=counts.num_nonrel_judged_ret_one,
    ),
    M(
        "yaap",
        ap.yaap,
        "Robertson's yet another AP: log((1+s)/(1+R-s)).",
        measure=C("yaap", "Robertson's yet another AP: log((1 + s) / (1 + R - s))."),
    ),
    M(
        "rbp",
        dcg.rbp,
        "Rank-biased precision, p=0.9 unless rbp.p=X; gains rescaled to [0,1].",
        "pairs",
        measure=C(
            "RBP_trec",
            (
                "trec_eval 10.0's rank-biased precision (``rbp``): (1 - p) "
                "sum g_i p^(i-1) with the labels rescaled to [0, 1] as "
                "trec_eval does; the C/W/L ``RBP`` uses the gains as given."
            ),
            (Param("p", "float", 0.9, "persistence", gt=0.0, lt=1.0),),
            base=kinds.Persistence,
            cls_name="RBPTrec",
        ),
    ),
    M(
        "rbp_resid",
        unjudged.rbp_resid,
        "RBP residual from unjudged documents (p=0.9).",
        measure=C(
            "RBP_trec_resid",
            "trec_eval 10's RBP residual of the unjudged documents (p = 0.9).",
            (),
        ),
    ),
    M(
        "unj",
        unjudged.unj,
        "Fraction of the top k that is unjudged.",
        "long_cut",
        (5, 10, 20),
        versions=(10,),
        measure=C(
            "Unjudged",
            (
                "Fraction of the top k that is unjudged (trec_eval 10.0 "
                "``unj``; 1 - ``Judged@k`` when the run has k documents)."
            ),
            (cutoff(10),),
        ),
    ),
]

BY_NAME: dict[str, TrecMeasure] = {m.name: m for m in MEASURES}

#: the names trec_eval computes from judgments other than qrels (``-R prefs``,
#: ``qrels_prefs``, ``qrels_jg``: :mod:`.prefs`), in its table order
PREFS_JG_MEASURES = (*PREFS_MEASURES, *JG_MEASURES)

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
    *_OFFICIAL,
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
    *_OFFICIAL[:5],  # runid, num_q, num_ret, num_rel, num_rel_ret
    "utility",
    "set_P",
    "set_recall",
    "set_relative_P",
    "set_map",
    "set_F",
)
#: trec_eval's nicknames of the measures of :mod:`.prefs`
PREFS_NICKNAMES = {
    "all_prefs": ("runid", "num_q", *PREFS_MEASURES),
    "prefs": ("runid", "num_q", *PREFS_MEASURES[:6]),
    "qrels_jg": ("runid", "num_q", *JG_MEASURES),
}


def nicknames(version: int) -> dict[str, tuple[str, ...]]:
    """trec_eval's measure nicknames for a version."""
    all_trec = _ALL_TREC + (("rbp", "rbp_resid", "unj") if version >= 10 else ())
    return {
        "official": _OFFICIAL,
        "set": _SET,
        "all_trec": all_trec,
        **PREFS_NICKNAMES,
    }
