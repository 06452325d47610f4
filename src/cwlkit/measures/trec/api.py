"""trec_eval's measures as registry measures: canonical names (``P@10``, ``AP``, ``nDCG@10``,
``R@100``, ``Rprec``, ``bpref``, ``RR``, ``Success@5``, ``infAP``, ``IPrec@0.1``...) and
trec_eval's own spellings (``P.5,10``, ``ndcg_cut.10``, ``map``, ``iprec_at_recall.0.1``).

Every class computes exactly what trec_eval prints for a topic (9.0.8 rules: qrels values
truncated to integers, relevant = value >= ``rel``), from the batch the API built (its
ordering and score precision: ``cwlkit.evaluate`` uses double-precision scores; pass
``score_precision="single"`` for trec_eval 9.0.8's float ties).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from ..base import Measure, param
from ..registry import register as _register
from ..registry import register_syntax
from . import ap, dcg, precision
from . import set as set_
from ._ctx import Ctx


def register(cls: type) -> type:
    """Register ``cls`` under its names, taking them over from a family registered earlier
    (``cwlkit.measures.trec`` owns ``P``, ``AP``, ``RR``, ``nDCG``... whatever the import
    order; the C/W/L command line looks its metrics up in its own table)."""
    return _register(cls, override=True)


def context(batch, rel: float = 1.0) -> Ctx:
    """The trec_eval view of a batch (memoised on the batch)."""
    key = ("trec_ctx", float(rel))
    got = batch._cache.get(key)
    if got is None:
        from .evaluate import _codes

        codes, depth = _codes(batch, False, np.zeros(batch.n_topics, bool))
        with np.errstate(invalid="ignore"):
            qlev = np.trunc(batch.qrel_labels)
        got = batch._cache[key] = Ctx(codes, depth, qlev, rel_level=rel)
    return got


@dataclass(frozen=True)
class _Trec(Measure):
    """Base: a trec_eval measure computed on the trec_eval view of the batch."""

    def _ctx(self, batch) -> Ctx:
        return context(batch, getattr(self, "rel", 1.0))


@register
@dataclass(frozen=True)
class P(_Trec):
    """Precision at k: relevant documents in the top k / k (trec_eval ``P_k``)."""

    family: ClassVar[str] = "P"
    aliases: ClassVar[tuple[str, ...]] = ("Precision",)
    k: int = param(10, ge=1, integer=True, doc="cutoff")
    rel: float = param(1.0, doc="smallest label counted relevant")

    def compute(self, batch):
        return precision.P(self._ctx(batch), [int(self.k)])[0]


@register
@dataclass(frozen=True)
class R(_Trec):
    """Recall at k: relevant documents in the top k / R (trec_eval ``recall_k``)."""

    family: ClassVar[str] = "R"
    aliases: ClassVar[tuple[str, ...]] = ("Recall",)
    k: int = param(1000, ge=1, integer=True, doc="cutoff")
    rel: float = param(1.0, doc="smallest label counted relevant")

    def compute(self, batch):
        return precision.recall(self._ctx(batch), [int(self.k)])[0]


@register
@dataclass(frozen=True)
class AP(_Trec):
    """Average precision (trec_eval ``map``; ``AP@k`` is ``map_cut_k``, still divided by R)."""

    family: ClassVar[str] = "AP"
    aliases: ClassVar[tuple[str, ...]] = ("MAP",)
    k: int | None = param(None, ge=1, integer=True, doc="cutoff (None: whole ranking)")
    rel: float = param(1.0, doc="smallest label counted relevant")

    def compute(self, batch):
        ctx = self._ctx(batch)
        if self.k is None:
            return ap.map_(ctx)[0]
        return precision.map_cut(ctx, [int(self.k)])[0]


@register
@dataclass(frozen=True)
class NDCG(_Trec):
    """nDCG with gain = label, discount log2(rank+1), ideal over every judged document;
    ``nDCG@k`` truncates both at k (trec_eval ``ndcg`` / ``ndcg_cut_k``)."""

    family: ClassVar[str] = "nDCG"
    k: int | None = param(None, ge=1, integer=True, doc="cutoff (None: whole ranking)")

    def compute(self, batch):
        ctx = self._ctx(batch)
        if self.k is None:
            return dcg.ndcg(ctx, ())[0]
        return dcg.ndcg_cut(ctx, [int(self.k)])[0]


def _simple(family: str, fn, doc: str, aliases: tuple[str, ...] = ()) -> type:
    @dataclass(frozen=True)
    class _M(_Trec):
        rel: float = param(1.0, doc="smallest label counted relevant")

        def compute(self, batch):
            return fn(self._ctx(batch), ())[0]

    _M.family = family
    _M.aliases = aliases
    _M.__doc__ = doc
    _M.__name__ = _M.__qualname__ = family.replace("-", "_")
    return register(_M)


Rprec = _simple("Rprec", precision.Rprec, "Precision at rank R (trec_eval ``Rprec``).", ("R-prec",))
Bpref = _simple("bpref", ap.bpref, "Binary preference (trec_eval ``bpref``).")
RR = _simple(
    "RR",
    ap.recip_rank,
    "Reciprocal rank of the first relevant document (trec_eval ``recip_rank``).",
    ("MRR", "recip_rank"),
)
InfAP = _simple("infAP", ap.infAP, "Inferred AP (trec_eval ``infAP``).")
SetP = _simple("SetP", set_.set_P, "Precision of the retrieved set (trec_eval ``set_P``).")
SetR = _simple("SetR", set_.set_recall, "Recall of the retrieved set (trec_eval ``set_recall``).")
BinG = _simple("binG", ap.binG, "trec_eval's binary G.")
YAAP = _simple("yaap", ap.yaap, "Robertson's yet another AP (trec_eval ``yaap``).")


@register
@dataclass(frozen=True)
class Success(_Trec):
    """1 if a relevant document is in the top k (trec_eval ``success_k``)."""

    family: ClassVar[str] = "Success"
    k: int = param(10, ge=1, integer=True, doc="cutoff")
    rel: float = param(1.0, doc="smallest label counted relevant")

    def compute(self, batch):
        return precision.success(self._ctx(batch), [int(self.k)])[0]


@register
@dataclass(frozen=True)
class IPrec(_Trec):
    """Interpolated precision at recall level k (trec_eval 9.0.8 ``iprec_at_recall``:
    the level is (long)(k R + 0.9) relevant documents)."""

    family: ClassVar[str] = "IPrec"
    k: float = param(0.0, ge=0.0, le=1.0, doc="recall level")
    rel: float = param(1.0, doc="smallest label counted relevant")

    def compute(self, batch):
        return ap.iprec_at_recall(self._ctx(batch), [float(self.k)])[0]


@register
@dataclass(frozen=True)
class SetF(_Trec):
    """trec_eval's F of the retrieved set, ``(1 + beta) P R / (beta P + R)`` (``set_F.beta``:
    trec_eval's beta stands where the usual definition has beta squared; the lecture's
    F-beta is the ``F`` family)."""

    family: ClassVar[str] = "SetF"
    beta: float = param(1.0, gt=0.0, doc="weight of recall")

    def compute(self, batch):
        return set_.set_F(self._ctx(batch), (float(self.beta),))[0]


@dataclass(frozen=True)
class TrecEvalName(Measure):
    """One value trec_eval prints, asked for by trec_eval's name (``P.5,10`` gives
    ``P_5`` and ``P_10``): ``measure``, its parameter text, and which printed value."""

    family: ClassVar[str] = "trec_eval"
    measure: str = ""
    params: str | None = None
    index: int = 0
    printed: str = ""

    @property
    def name(self) -> str:
        return self.printed

    def compute(self, batch):
        from ._spec import BY_NAME
        from .evaluate import parse_params

        m = BY_NAME[self.measure]
        params = parse_params(m, self.params) if self.params is not None else m.default
        return np.asarray(m.compute(context(batch), params)[self.index], dtype=np.float64)


@register_syntax
def _trec_syntax(text: str) -> list[Measure] | None:
    """trec_eval spellings: ``name`` or ``name.params`` of a measure trec_eval registers."""
    from ...errors import ParamError
    from ._spec import BY_NAME
    from .evaluate import parse_params, printed_names

    name, dot, params = text.strip().partition(".")
    m = BY_NAME.get(name)
    if m is None or m.compute is None or m.agg in ("text", "gm"):
        return None
    if not dot and name in {"P", "AP", "RR", "R", "Rprec", "bpref", "infAP", "binG", "yaap"}:
        return None  # the canonical family of that name
    if dot and not params:
        raise ParamError(f"improper measure in parameter '{text}'")
    values = parse_params(m, params) if dot else m.default
    names = printed_names(m, values, params if dot else None)
    return [
        TrecEvalName(measure=name, params=params if dot else None, index=i, printed=n)
        for i, n in enumerate(names)
    ]
