"""trec_eval's measures in the registry, under ir_measures' canonical names.

Every value trec_eval prints has one canonical measure here (``map`` is ``AP``,
``ndcg_cut_10`` is ``nDCG@10``, ``recall_100`` is ``R@100``, ``set_map`` is ``SetAP``...); the
class records trec_eval's name as its ``trec_eval`` anchor and computes exactly what
trec_eval prints for a topic, with the family functions of this package. trec_eval's own
spellings (``P.5,10``, ``ndcg_cut.10``, ``iprec_at_recall.0.1``, ``utility.2,-1,0,0``) parse
into the same classes (:func:`_trec_syntax`).

Conventions (trec_eval 9.0.8 unless the evaluation asks for 10.0): qrels labels truncated to
integers; relevant means label >= ``rel``; negative labels are judged non-relevant; unjudged
documents are non-relevant; cutoffs past a run's end count the missing ranks as
non-relevant (``P@k`` divides by k). The ranking and score precision are the batch's.
"""

from __future__ import annotations

from typing import ClassVar

import numpy as np

from ...errors import ParamError
from ..base import Measure, measure, param
from ..registry import register, register_syntax
from ._ctx import Ctx

#: trec_eval name -> the class that computes it (filled by :func:`_trec`)
TREC_CLASSES: dict[str, type[_Trec]] = {}


def context(batch, rel: float = 1.0) -> Ctx:
    """The trec_eval view of a batch (memoised on the batch; ``batch._cache["trec_version"]``
    selects trec_eval 10.0's rules where they differ)."""
    version = int(batch._cache.get("trec_version", 9))
    key = ("trec_ctx", float(rel), version)
    got = batch._cache.get(key)
    if got is None:
        from .evaluate import _codes

        codes, depth = _codes(batch, False, np.zeros(batch.n_topics, bool))
        with np.errstate(invalid="ignore"):
            qlev = np.trunc(batch.qrel_labels)
        got = batch._cache[key] = Ctx(codes, depth, qlev, rel_level=rel, version=version)
    return got


def _trec(*names: str):
    """Register a class as the measure trec_eval prints under ``names``."""

    def add(cls: type[_Trec]) -> type[_Trec]:
        cls.anchors = {**cls.anchors, "trec_eval": names}
        for n in names:
            TREC_CLASSES[n] = cls
        return register(cls)

    return add


@measure
class _Trec(Measure):
    """Base: the value of trec_eval measure ``row`` (a row of ``_spec.MEASURES``)."""

    row: ClassVar[str] = ""

    def trec_row(self) -> str:
        """The trec_eval measure computed (a variant may pick another row)."""
        return self.row

    def trec_params(self) -> tuple:
        """The parameters passed to the row's function (default: the row's)."""
        from ._spec import BY_NAME

        return BY_NAME[self.trec_row()].default

    def trec_text(self) -> str | None:
        """The parameters as trec_eval prints them after the name (``utility_2,-1,0,0``), or
        None for the row's defaults (the bare name)."""
        return None

    def compute(self, batch) -> np.ndarray:
        from ._spec import BY_NAME

        fn = BY_NAME[self.trec_row()].compute
        ctx = context(batch, float(getattr(self, "rel", 1.0)))
        return np.asarray(fn(ctx, self.trec_params())[0], dtype=np.float64)

    def group_key(self) -> tuple | None:
        """The cutoffs of one trec_eval cutoff row (``P_5``, ``P_10``...) with the same
        ``rel`` are computed in one call of the row, as trec_eval computes them."""
        if type(self).compute is not _Trec.compute:
            return None
        return self._cut_key()

    def _cut_key(self) -> tuple | None:
        from ._spec import BY_NAME

        row = self.trec_row()
        if BY_NAME[row].kind not in ("long_cut", "double_cut"):
            return None
        return ("trec_eval cutoffs", row, float(getattr(self, "rel", 1.0)))

    @classmethod
    def compute_group(cls, batch, measures: list) -> list[np.ndarray]:
        from ._spec import BY_NAME

        first = measures[0]
        fn = BY_NAME[first.trec_row()].compute
        ctx = context(batch, float(getattr(first, "rel", 1.0)))
        cuts = [m.trec_params()[0] for m in measures]
        distinct = sorted(set(cuts))
        by_cut = dict(zip(distinct, fn(ctx, tuple(distinct)), strict=True))
        return [np.asarray(by_cut[c], dtype=np.float64) for c in cuts]


@measure
class _Cut(_Trec):
    """A trec_eval cutoff measure (``P_k``): one value at cutoff ``k``."""

    def trec_params(self) -> tuple:
        return (self.k,)  # type: ignore[attr-defined]


def _rel_param():
    return param(1.0, doc="smallest label counted relevant")


@_trec("P")
@measure
class P(_Cut):
    """Precision at k: relevant documents in the top k / k (trec_eval ``P_k``)."""

    family: ClassVar[str] = "P"
    aliases: ClassVar[tuple[str, ...]] = ("Precision",)
    row = "P"
    rel: float = _rel_param()
    k: int = param(10, ge=1, integer=True, doc="cutoff")

    def cwl_form(self):
        from ..cwl.precision import Precision

        return Precision(k=self.k), f"binary:{self.rel:g}"


@_trec("recall")
@measure
class R(_Cut):
    """Recall at k: relevant documents in the top k / R (trec_eval ``recall_k``)."""

    family: ClassVar[str] = "R"
    aliases: ClassVar[tuple[str, ...]] = ("Recall",)
    row = "recall"
    rel: float = _rel_param()
    k: int = param(1000, ge=1, integer=True, doc="cutoff")


@_trec("map", "map_cut")
@measure
class AP(_Trec):
    """Average precision: sum of the precision at each relevant retrieved document / R.

    ``AP@k`` stops at rank k and still divides by R (trec_eval ``map_cut_k``); without a
    cutoff it is trec_eval's ``map``. A topic with R = 0 scores 0.
    """

    family: ClassVar[str] = "AP"
    aliases: ClassVar[tuple[str, ...]] = ("MAP",)
    rel: float = _rel_param()
    k: int | None = param(None, ge=1, integer=True, doc="cutoff (None: whole ranking)")

    def trec_row(self) -> str:
        return "map" if self.k is None else "map_cut"

    def trec_params(self) -> tuple:
        return () if self.k is None else (self.k,)


@_trec("gm_map")
@measure
class GMAP(_Trec):
    """AP per topic, aggregated by the geometric mean (AP floored at 1e-5; trec_eval
    ``gm_map``)."""

    family: ClassVar[str] = "GMAP"
    aggregate: ClassVar[str] = "gmean"
    row = "map"
    rel: float = _rel_param()


@_trec("ndcg", "ndcg_cut")
@measure
class NDCG(_Trec):
    """nDCG = DCG / ideal DCG with discount log2(rank + 1) (trec_eval ``ndcg`` / ``ndcg_cut``).

    ``dcg='log2'`` (default, trec_eval): gain = label (negative labels 0), or the ``gains``
    table ``'1=3,2=9'`` (trec_eval's ``ndcg.1=3,2=9``; no cutoff then). ``dcg='exp-log2'``:
    gain 2^label - 1 (gdeval.pl's nDCG, ir_measures' ``nDCG(dcg='exp-log2')``). The ideal
    ranking sorts every judged document of the topic; ``@k`` cuts run and ideal at k. A topic
    without a positive gain scores 0.
    """

    family: ClassVar[str] = "nDCG"
    dcg: str = param("log2", choices=("log2", "exp-log2"), doc="gain: label or 2^label - 1")
    gains: str | None = param(None, doc="trec_eval gain table 'level=gain,...' (log2 only)")
    k: int | None = param(None, ge=1, integer=True, doc="cutoff (None: whole ranking)")

    def __post_init__(self) -> None:
        super().__post_init__()
        if self.gains is not None and (self.k is not None or self.dcg != "log2"):
            raise ParamError("nDCG takes a gains table only without a cutoff and with dcg='log2'")
        if self.dcg == "exp-log2" and self.k is None:
            raise ParamError("nDCG(dcg='exp-log2') needs a cutoff, e.g. nDCG(dcg='exp-log2')@20")

    def compute(self, batch) -> np.ndarray:
        if self.dcg == "exp-log2":
            from ..err import gdeval_ndcg

            return gdeval_ndcg(batch, int(self.k))  # type: ignore[arg-type]
        return super().compute(batch)

    def trec_row(self) -> str:
        return "ndcg" if self.k is None else "ndcg_cut"

    def group_key(self) -> tuple | None:
        return self._cut_key() if self.dcg == "log2" else None

    def trec_params(self) -> tuple:
        if self.k is not None:
            return (self.k,)
        if self.gains is None:
            return ()
        from ._spec import BY_NAME
        from .evaluate import parse_params

        return parse_params(BY_NAME["ndcg"], self.gains)

    def trec_text(self) -> str | None:
        return self.gains if self.k is None else None


@measure
class _Gains(_Trec):
    """A trec_eval measure of graded gains with an optional gain table (``G.1=3,2=9``)."""

    gains: str | None = param(None, doc="trec_eval gain table 'level=gain,...'")

    def trec_params(self) -> tuple:
        if self.gains is None:
            return super().trec_params()
        from ._spec import BY_NAME
        from .evaluate import parse_params

        return parse_params(BY_NAME[self.trec_row()], self.gains)

    def trec_text(self) -> str | None:
        return self.gains


@measure
class _Levels(_Trec):
    """A trec_eval measure over recall levels, optionally given (``11pt_avg.0.25,0.5``)."""

    levels: str | None = param(None, doc="recall levels 'x,y,...' (default 0, 0.1, ..., 1)")

    def trec_params(self) -> tuple:
        if self.levels is None:
            return super().trec_params()
        from ._spec import BY_NAME
        from .evaluate import parse_params

        return parse_params(BY_NAME[self.trec_row()], self.levels)

    def trec_text(self) -> str | None:
        return self.levels


def _simple(
    family: str,
    row: str,
    doc: str,
    aliases: tuple[str, ...] = (),
    *,
    rel: bool = True,
    aggregate: str = "mean",
    base: type[_Trec] = _Trec,
) -> type:
    """A trec_eval measure without parameters apart from ``rel`` (and ``base``'s)."""
    if rel:

        @measure
        class _M(base):  # type: ignore[valid-type,misc]
            rel: float = _rel_param()

    else:

        @measure
        class _M(base):  # type: ignore[no-redef,valid-type,misc]
            pass

    _M.family = family
    _M.aliases = aliases
    _M.row = row
    _M.aggregate = aggregate
    _M.__doc__ = doc
    _M.__name__ = _M.__qualname__ = family
    return _trec(row)(_M)


Rprec = _simple(
    "Rprec", "Rprec", "Precision at rank R, the number of relevant documents.", ("R-prec",)
)
Bpref = _simple(
    "Bpref", "bpref", "Binary preference (Buckley and Voorhees 2004): judged documents only."
)
GMBpref = _simple(
    "GMBpref", "gm_bpref", "Bpref aggregated by the geometric mean (floor 1e-5).", aggregate="gmean"
)
InfAP = _simple(
    "infAP", "infAP", "Inferred AP (Yilmaz and Aslam 2006); negative labels: pooled, unjudged."
)
SetR = _simple("SetR", "set_recall", "Recall of the retrieved set: relevant retrieved / R.")
SetAP = _simple("SetAP", "set_map", "Set precision x set recall (trec_eval ``set_map``).")
BinG = _simple(
    "binG", "binG", "Binary G: mean over relevant documents of 1/log2(2 + non-relevant above)."
)
YAAP = _simple("yaap", "yaap", "Robertson's yet another AP: log((1 + s) / (1 + R - s)).")
NumRet = _simple(
    "NumRet", "num_ret", "Documents retrieved (summed over topics).", rel=False, aggregate="sum"
)
NumRel = _simple(
    "NumRel", "num_rel", "Relevant documents in the qrels (summed over topics).", aggregate="sum"
)
NumRelRet = _simple(
    "NumRelRet", "num_rel_ret", "Relevant documents retrieved (summed).", aggregate="sum"
)
NumNonRelJudgedRet = _simple(
    "NumNonRelJudgedRet",
    "num_nonrel_judged_ret",
    "Retrieved documents judged non-relevant (summed over topics).",
    aggregate="sum",
)
IAP11Trec = _simple(
    "IAP11_trec",
    "11pt_avg",
    "trec_eval's 11pt_avg: interpolated precision at recall 0, 0.1, ..., 1 (or the levels "
    "given), averaged.",
    base=_Levels,
)
NDCGRel = _simple(
    "nDCG_rel",
    "ndcg_rel",
    "nDCG averaged over the relevant documents (experimental).",
    rel=False,
    base=_Gains,
)
RNDCG = _simple(
    "RnDCG",
    "Rndcg",
    "nDCG averaged at the R-level breakpoints of the ideal gains (experimental); 0 for a "
    "topic without a relevant document (label >= rel).",
    base=_Gains,
)
G = _simple("G", "G", "Buckley's normalised gain G (experimental).", rel=False, base=_Gains)
DCG = _simple(
    "DCG",
    "dcg",
    "DCG over the whole ranking: sum of gain / log2(rank + 1).",
    rel=False,
    base=_Gains,
)
IdealDCG = _simple(
    "IdealDCG",
    "ideal_dcg",
    "DCG of the ideal ranking of the judged gains.",
    rel=False,
    base=_Gains,
)
RBPResid = _simple(
    "RBP_trec_resid",
    "rbp_resid",
    "trec_eval 10's RBP residual of the unjudged documents (p = 0.9).",
    rel=False,
)


@_trec("recip_rank")
@measure
class RR(_Trec):
    """Reciprocal rank of the first relevant document (trec_eval ``recip_rank``); ``RR@k``
    scores 0 when it is below rank k (MS MARCO's MRR@10)."""

    family: ClassVar[str] = "RR"
    aliases: ClassVar[tuple[str, ...]] = ("MRR", "recip_rank")
    row = "recip_rank"
    rel: float = _rel_param()
    k: int | None = param(None, ge=1, integer=True, doc="cutoff (None: whole ranking)")

    def cwl_form(self):
        from ..cwl.rr import RR as RRcwl

        return None if self.k is not None else (RRcwl(), f"binary:{self.rel:g}")

    def compute(self, batch) -> np.ndarray:
        rr = super().compute(batch)
        if self.k is None:
            return rr
        with np.errstate(divide="ignore"):
            return np.where(rr * self.k >= 1.0 - 1e-9, rr, 0.0)


@_trec("success")
@measure
class Success(_Cut):
    """1 if a relevant document is in the top k (trec_eval ``success_k``)."""

    family: ClassVar[str] = "Success"
    row = "success"
    rel: float = _rel_param()
    k: int = param(10, ge=1, integer=True, doc="cutoff")


@_trec("relative_P")
@measure
class RelativeP(_Cut):
    """Precision at k over the best possible precision at k, min(k, R) / k."""

    family: ClassVar[str] = "relative_P"
    row = "relative_P"
    rel: float = _rel_param()
    k: int = param(10, ge=1, integer=True, doc="cutoff")


@_trec("unj")
@measure
class Unjudged(_Cut):
    """Fraction of the top k that is unjudged (trec_eval 10.0 ``unj``; 1 - ``Judged@k`` when
    the run has k documents)."""

    family: ClassVar[str] = "Unjudged"
    row = "unj"
    k: int = param(10, ge=1, integer=True, doc="cutoff")


@_trec("iprec_at_recall")
@measure
class IPrec(_Cut):
    """Interpolated precision at recall level k: the highest precision at any rank whose
    recall is at least k (trec_eval ``iprec_at_recall``; 9.0.8 reaches level k at
    (long)(k R + 0.9) relevant documents)."""

    family: ClassVar[str] = "IPrec"
    row = "iprec_at_recall"
    rel: float = _rel_param()
    k: float = param(0.0, ge=0.0, le=1.0, doc="recall level")


@_trec("Rprec_mult")
@measure
class RprecMult(_Cut):
    """Precision at rank (long)(k R + 0.9), for a multiple k of R (trec_eval ``Rprec_mult``)."""

    family: ClassVar[str] = "Rprec_mult"
    row = "Rprec_mult"
    rel: float = _rel_param()
    k: float = param(1.0, gt=0.0, doc="multiple of R")


@_trec("set_P", "set_relative_P")
@measure
class SetP(_Trec):
    """Precision of the retrieved set, relevant retrieved / retrieved (trec_eval ``set_P``);
    ``relative=True``: relevant retrieved / min(retrieved, R) (``set_relative_P``)."""

    family: ClassVar[str] = "SetP"
    rel: float = _rel_param()
    relative: bool = param(False, doc="divide by min(retrieved, R)")

    def trec_row(self) -> str:
        return "set_relative_P" if self.relative else "set_P"


@_trec("set_F")
@measure
class SetF(_Trec):
    """trec_eval's F of the retrieved set, ``(1 + beta) P R / (beta P + R)`` (``set_F.beta``:
    trec_eval's beta stands where the usual definition has beta squared; the lecture's
    F-beta is the ``F`` family)."""

    family: ClassVar[str] = "SetF"
    row = "set_F"
    rel: float = _rel_param()
    beta: float = param(1.0, gt=0.0, doc="weight of recall")

    def trec_params(self) -> tuple:
        return (float(self.beta),)

    def trec_text(self) -> str | None:
        return None if self.beta == 1.0 else f"{self.beta:g}"


@_trec("utility")
@measure
class Utility(_Trec):
    """Linear utility a R+ + b N+ + c R- + d N- over the retrieved (+) / not retrieved (-),
    relevant (R) / non-relevant (N) table (trec_eval ``utility``; d needs the collection
    size, trec_eval's -N)."""

    family: ClassVar[str] = "Utility"
    row = "utility"
    rel: float = _rel_param()
    a: float = param(1.0, doc="value of a relevant retrieved document")
    b: float = param(-1.0, doc="value of a non-relevant retrieved document")
    c: float = param(0.0, doc="value of a relevant document not retrieved")
    d: float = param(0.0, doc="value of a non-relevant document not retrieved")

    def trec_params(self) -> tuple:
        return (self.a, self.b, self.c, self.d)

    def trec_text(self) -> str | None:
        if self.trec_params() == (1.0, -1.0, 0.0, 0.0):
            return None
        return ",".join(f"{x:g}" for x in self.trec_params())


@_trec("rbp")
@measure
class RBPTrec(_Trec):
    """trec_eval 10.0's rank-biased precision (``rbp``): (1 - p) sum g_i p^(i-1) with the
    labels rescaled to [0, 1] as trec_eval does; the C/W/L ``RBP`` uses the gains as given."""

    family: ClassVar[str] = "RBP_trec"
    row = "rbp"
    p: float = param(0.9, gt=0.0, lt=1.0, doc="persistence")

    def trec_params(self) -> tuple:
        return (("p", float(self.p)),)

    def trec_text(self) -> str | None:
        return None if self.p == 0.9 else f"p={self.p:g}"


def _from_trec(name: str, text: str | None, values) -> list[Measure]:
    """The canonical measures for trec_eval's ``name[.text]`` with parsed ``values``."""
    cls = TREC_CLASSES[name]
    simple = {"set_relative_P": {"relative": True}}
    if name in simple:
        return [cls(**simple[name])]
    if issubclass(cls, _Cut) or name in ("map_cut", "ndcg_cut"):
        return [cls(k=v) for v in values]  # type: ignore[call-arg]
    if text is None:
        return [cls()]
    if name == "utility":
        return [cls(**dict(zip("abcd", values[:4], strict=False)))]
    if name == "set_F":
        return [cls(beta=values[0])]  # type: ignore[call-arg]
    if name == "rbp":
        return [cls(p=dict(values).get("p", 0.9))]  # type: ignore[call-arg]
    if name in ("ndcg", "G", "dcg", "ideal_dcg", "ndcg_rel", "Rndcg"):
        return [cls(gains=text)]  # type: ignore[call-arg]
    if name == "11pt_avg":
        return [cls(levels=text)]  # type: ignore[call-arg]
    raise ParamError(f"trec_eval measure {name!r} takes no parameters here; got {name}.{text}")


@register_syntax
def _trec_syntax(text: str) -> list[Measure] | None:
    """trec_eval spellings: ``name.params`` of any trec_eval measure (``P.5,10``,
    ``ndcg_cut.10``), or a bare trec_eval name that does not spell the same measure's
    canonical family (``map_cut`` and ``ndcg_cut`` give every default cutoff, as
    ``trec_eval -m`` does; ``rbp`` is trec_eval's RBP_trec, while ``RBP`` is the C/W/L
    RBP)."""
    from ._spec import BY_NAME
    from .evaluate import parse_params

    name, dot, params = text.strip().partition(".")
    if name not in TREC_CLASSES:
        printed = _printed_name(text.strip())
        return None if printed is None else _trec_syntax(printed)
    cls = TREC_CLASSES[name]
    if not dot and name.lower() in {n.lower() for n in (cls.family, *cls.aliases)}:
        return None  # the canonical family of that name (``P`` is P@10, not every cutoff)
    if dot and not params:
        raise ParamError(f"improper measure in parameter '{text}'")
    m = BY_NAME[name]
    values = parse_params(m, params) if dot else m.default
    return _from_trec(name, params if dot else None, values)


def _printed_name(text: str) -> str | None:
    """A name as trec_eval prints it, ``base_params`` (``P_10``, ``ndcg_cut_10``,
    ``iprec_at_recall_0.10``, ``Rprec_mult_0.20``, ``utility_2,-1,0,0``), spelled as its
    command line would ask for it (``P.10``); None for anything else."""
    from ._spec import BY_NAME

    cut = len(text)
    while (cut := text.rfind("_", 0, cut)) > 0:
        base, rest = text[:cut], text[cut + 1 :]
        if base in TREC_CLASSES and BY_NAME[base].default and rest[:1] in "-0123456789.":
            return f"{base}.{rest}" if rest else None
    return None


def trec_eval_name(m: Measure) -> str | None:
    """The name trec_eval prints for the canonical measure ``m`` (``P@10`` -> ``P_10``,
    ``AP`` -> ``map``, ``IPrec@0.1`` -> ``iprec_at_recall_0.10``, ``NumQ`` -> ``num_q``,
    ``Utility(a=2)`` -> ``utility_2,-1,0,0``), or None when trec_eval has no such value
    (``RR@10``, ``nDCG(dcg='exp-log2')@10``, the other families).

    Cutoffs print as trec_eval prints them (``%ld``, or ``%3.2f`` for real ones); other
    parameters with ``%g`` (trec_eval prints them as typed: ``utility.2.0,-1`` prints
    ``utility_2.0,-1``, which a measure object no longer knows).
    """
    from ..judged import NumQ
    from ._spec import BY_NAME

    if isinstance(m, NumQ):
        return "num_q"
    if not isinstance(m, _Trec) or (isinstance(m, RR) and m.k is not None):
        return None
    if isinstance(m, NDCG) and m.dcg != "log2":
        return None
    names = type(m).anchors["trec_eval"]  # gm_map computes the row of map
    row = BY_NAME[m.trec_row() if m.trec_row() in names else names[0]]
    if row.kind == "long_cut":
        return f"{row.name}_{m.trec_params()[0]}"
    if row.kind == "double_cut":
        return f"{row.name}_{m.trec_params()[0]:3.2f}"
    text = m.trec_text()
    return row.name if text is None else f"{row.name}_{text}"
