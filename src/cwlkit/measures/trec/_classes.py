"""The base class of the registered trec_eval measures, and the few behaviours some rows of
the table (:mod:`.spec`) need beyond it.

:class:`TrecBase` computes the value trec_eval prints for a topic with the family function of
the measure's row; :mod:`.registered` makes one registered subclass per canonical measure of
the table. A behaviour class here holds no parameter (the row declares them, in order); it
only annotates the ones its methods read.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING, Any, ClassVar

import numpy as np

from ...errors import ParamError
from ..base import MAX_COUNT, Measure, OneTopic, measure
from ._ctx import Ctx, codes_of, stand_ins

if TYPE_CHECKING:  # pragma: no cover
    from ...core.batch import RankingBatch
    from .rows import TrecMeasure

#: the parameter kinds of trec_eval rows that give one value per cutoff
CUT_KINDS = ("long_cut", "double_cut")


def context(batch: RankingBatch, rel: float = 1.0) -> Ctx:
    """The trec_eval view of a batch (memoised on the batch; ``batch.memo["trec_version"]``
    selects trec_eval 10.0's rules where they differ).

    trec_eval 10.0 scores a topic the run lacks (``batch.memo["absent"]``: kept by the
    ``topics="qrels"`` rule) as a stand-in ranking of one document not in the qrels (none
    with ``judged_only``, which drops it); 9.0.8 does not score it (here: an empty ranking).
    """
    version = int(batch.memo.get("trec_version", 9))
    key = ("trec_ctx", float(rel), version)
    got = batch.memo.get(key)
    if got is None:
        codes, depth = codes_of(batch)
        absent = batch.memo.get("absent")
        if version >= 10 and absent is not None and not batch.memo.get("judged_only"):
            codes, depth = stand_ins(codes, depth, absent)
        values = batch.qrels_label_values
        if values is not None and not batch.qrel_labels.flags.writeable and _whole(values):
            qlev = batch.qrel_labels  # (integer labels, read-only: shared, not truncated)
        else:
            with np.errstate(invalid="ignore"):
                qlev = np.trunc(batch.qrel_labels)
        got = batch.memo[key] = Ctx(codes, depth, qlev, rel_level=rel, version=version)
    return got


def _whole(values: np.ndarray) -> bool:
    """Whether every one of the (few, distinct) label ``values`` is a whole number."""
    if values.size <= 64:
        return all(x.is_integer() for x in values.tolist())
    return bool(np.all(np.trunc(values) == values))


#: what trec_eval 10.0 resets to 0 (or '') on a topic the run lacks (its stand-in ranking),
#: by printed name (and every ``unj*``)
CLEARED = ("num_ret", "utility", "relstring", "rbp_resid")


def _stand_in_topics(batch: RankingBatch) -> np.ndarray | None:
    """bool[T]: the topics the run lacks that trec_eval 10.0 scores as a stand-in ranking
    (emptied by ``judged_only``, but reset all the same), or None."""
    absent = batch.memo.get("absent")
    if absent is None or int(batch.memo.get("trec_version", 9)) < 10 or not absent.any():
        return None
    return absent


def _is_cleared(m: TrecBase) -> bool:
    """Whether 10.0 resets ``m`` on a stand-in ranking: what it prints as one of
    :data:`CLEARED` (the bare name: default parameters) or as ``unj*``."""
    row = m.trec_row()
    return row.name == "unj" or (row.name in CLEARED and m.trec_text() is None)


def _rel_level(m: Measure) -> float:
    """trec_eval's relevance level of ``m``: its ``rel``, 1 when it has none (or None)."""
    rel = getattr(m, "rel", None)
    return 1.0 if rel is None else float(rel)


@measure
class TrecBase(Measure):
    """Base: the value of the trec_eval rows ``trec_rows`` (of ``spec.MEASURES``)."""

    #: the rows the class prints, in table order (set by :mod:`.registered`)
    trec_rows: ClassVar[tuple[TrecMeasure, ...]] = ()

    def trec_row(self) -> TrecMeasure:
        """The row computed: the only one, or the last whose fixed parameters this measure
        has and whose cutoff kind matches (``AP`` is ``map``, ``AP@10`` ``map_cut``)."""
        rows = self.trec_rows
        if len(rows) == 1:
            return rows[0]
        cut = getattr(self, "k", None) is not None
        for row in reversed(rows):
            fixed = all(getattr(self, k) == v for k, v in row.fixed)
            if fixed and (row.kind in CUT_KINDS) == cut:
                return row
        raise AssertionError(f"{self.name}: no trec_eval row")  # pragma: no cover

    def trec_params(self) -> tuple:
        """The parameters passed to the row's function: the cutoff, the parameters of
        :meth:`trec_text` parsed as trec_eval does, or the row's defaults."""
        row = self.trec_row()
        if row.kind in CUT_KINDS:
            return (getattr(self, "k"),)  # noqa: B009  (a cutoff row's classes have k)
        text = self.trec_text()
        if text is None:
            return row.default
        from .rows import parse_params

        return parse_params(row, text)

    def trec_text(self) -> str | None:
        """The parameters as trec_eval prints them after the name (``utility_2,-1,0,0``), or
        None for the row's defaults (the bare name)."""
        return None

    def in_trec_eval(self) -> bool:
        """Whether trec_eval prints this measure (``RR@10`` is not trec_eval's, nor a measure
        with ``judged_only=True``: trec_eval's ``-J`` applies to every measure it prints)."""
        return not getattr(self, "judged_only", False)

    @classmethod
    def trec_kwargs(cls, row: TrecMeasure, values: tuple, text: str) -> dict[str, Any]:
        """The parameters of the measure trec_eval's ``row.text`` (parsed: ``values``) asks
        for, when the row is not a cutoff row and ``text`` is given."""
        raise ParamError(
            f"trec_eval measure {row.name!r} takes no parameters here; got {row.name}.{text}"
        )

    @classmethod
    def from_trec(cls, row: TrecMeasure, text: str | None, values: tuple) -> list[Measure]:
        """The measures trec_eval prints for ``row`` with ``text`` (parsed: ``values``)."""
        if row.fixed:
            return [cls(**dict(row.fixed))]
        if row.kind in CUT_KINDS:
            return [cls(k=v) for v in values]
        if text is None:
            return [cls()]
        return [cls(**cls.trec_kwargs(row, values, text))]

    def _trec_call(self) -> tuple[Any, tuple, float]:
        """(the row's function, its parameters, the relevance level), worked out on first
        use and kept (measures are immutable; a training loop scores thousands of runs)."""
        got = self.__dict__.get("_trec_call_")
        if got is None:
            fn = self.trec_row().compute
            assert fn is not None  # (runid and num_q have no class)
            got = self.__dict__["_trec_call_"] = (fn, self.trec_params(), _rel_level(self))
        return got

    def __getstate__(self) -> dict:
        return {k: v for k, v in self.__dict__.items() if k not in ("_trec_call_", "_one_")}

    def one_topic(self) -> OneTopic | None:
        """The row's one-topic kernel (``scalar=`` in :mod:`.spec`), when the measure's value
        is the row's (its class computes as :class:`TrecBase` does) on the whole ranking
        (not ``judged_only``); kept, as :meth:`_trec_call` is."""
        got = self.__dict__.get("_one_", False)
        if got is False:
            got = self.__dict__["_one_"] = self._one_topic()
        return got

    def _one_topic(self) -> OneTopic | None:
        """What :meth:`one_topic` keeps: the row's kernel when the class computes as
        :class:`TrecBase` does (a class that changes the value says how, or has none)."""
        if type(self).compute is not TrecBase.compute:
            return None
        return self._row_kernel()

    def _row_kernel(self, post: Callable[[float], float] | None = None) -> OneTopic | None:
        """The row's kernel with this measure's parameters (then ``post``), or None."""
        fn = self.trec_row().scalar
        if fn is None or getattr(self, "judged_only", False):
            return None
        _, params, rel = self._trec_call()
        return OneTopic(fn, params, rel, post)

    def compute(self, batch: RankingBatch) -> np.ndarray:
        fn, params, rel = self._trec_call()
        batch = self.ranking_of(batch)
        ctx = context(batch, rel)
        return self.cleared(batch, np.asarray(fn(ctx, params)[0], dtype=np.float64))

    def cleared(self, batch: RankingBatch, values: np.ndarray) -> np.ndarray:
        """``values`` with trec_eval 10.0's resets: on a topic the run lacks, scored as its
        stand-in ranking, what 10.0 prints as ``num_ret``, ``utility``, ``rbp_resid`` or
        ``unj*`` is 0 (:data:`CLEARED`)."""
        absent = _stand_in_topics(batch)
        if absent is None or not _is_cleared(self):
            return values
        return np.where(absent, 0.0, values)

    def group_key(self) -> tuple | None:
        """The cutoffs of one trec_eval cutoff row (``P_5``, ``P_10``...) with the same
        ``rel`` are computed in one call of the row, as trec_eval computes them."""
        if type(self).compute is not TrecBase.compute:
            return None
        return self._cut_key()

    def _cut_key(self) -> tuple | None:
        row = self.trec_row()
        if row.kind not in CUT_KINDS:
            return None
        return (
            "trec_eval cutoffs",
            row.name,
            _rel_level(self),
            bool(getattr(self, "judged_only", False)),
        )

    @classmethod
    def compute_group(cls, batch: RankingBatch, measures: list[Measure]) -> list[np.ndarray]:
        trec = [m for m in measures if isinstance(m, TrecBase)]
        first = trec[0]
        fn, _, rel = first._trec_call()
        assert len(trec) == len(measures)
        batch = first.ranking_of(batch)  # (one judged_only for the group: its key)
        ctx = context(batch, rel)
        cuts = [m._trec_call()[1][0] for m in trec]
        distinct = sorted(set(cuts))
        by_cut = dict(zip(distinct, fn(ctx, tuple(distinct)), strict=True))
        return [
            m.cleared(batch, np.asarray(by_cut[c], dtype=np.float64))
            for m, c in zip(trec, cuts, strict=True)
        ]


class Precision(TrecBase):
    """``P@k``: C/W/L too (``P_cwl@k`` on binary gains)."""

    rel: float
    k: int
    judged_only: bool

    def cwl_form(self) -> tuple[Measure, str | None] | None:
        from ..cwl.precision import Precision as PrecisionCWL

        if self.judged_only:  # (the C/W/L metric reads the whole ranking)
            return None

        return PrecisionCWL(k=self.k), f"binary:{self.rel:g}"


class Retrieved(TrecBase):
    """``NumRet``; ``NumRet(rel=r)`` is ``NumRelRet(rel=r)``, as in ir_measures (whose
    ``NumRet(rel=r)`` is trec_eval's ``num_rel_ret``): the constructor gives that measure,
    so the two spellings are one measure with one name."""

    rel: float | None

    def __new__(cls, *args: Any, **kwargs: Any) -> Any:
        rel = kwargs.get("rel", args[0] if args else None)
        if rel is None:
            return super().__new__(cls)
        from ..registry import lookup

        if len(args) > 1 or set(kwargs) - {"rel"}:
            raise TypeError(f"{cls.__name__}() takes only rel; got {args!r}, {kwargs!r}")
        return lookup("NumRelRet")(rel=rel)


class Reciprocal(TrecBase):
    """``RR``: C/W/L without a cutoff; ``RR@k`` (not trec_eval's) scores 0 below rank k."""

    rel: float
    k: int | None
    judged_only: bool

    def cwl_form(self) -> tuple[Measure, str | None] | None:
        from ..cwl.rr import RR as RRcwl

        if self.k is not None or self.judged_only:
            return None
        return RRcwl(), f"binary:{self.rel:g}"

    def in_trec_eval(self) -> bool:
        return self.k is None and super().in_trec_eval()

    def compute(self, batch: RankingBatch) -> np.ndarray:
        rr = super().compute(batch)
        if self.k is None:
            return rr
        with np.errstate(divide="ignore"):
            return np.where(rr * self.k >= 1.0 - 1e-9, rr, 0.0)

    def _one_topic(self) -> OneTopic | None:
        if self.k is None:
            return self._row_kernel()
        return self._row_kernel(partial(_rr_within, k=self.k))


def _rr_within(rr: float, k: int) -> float:
    """``RR@k`` of one topic from its ``RR`` (:meth:`Reciprocal.compute`)."""
    return rr if rr * k >= 1.0 - 1e-9 else 0.0


class Gains(TrecBase):
    """A measure of graded gains with an optional gain table (``G.1=3,2=9``)."""

    gains: str | None

    @classmethod
    def trec_kwargs(cls, row: TrecMeasure, values: tuple, text: str) -> dict[str, Any]:
        return {"gains": text}

    def trec_text(self) -> str | None:
        return self.gains


class NDCGBase(Gains):
    """``nDCG``: a gain table (with a cutoff: ir_measures' ``nDCG(gains=...)@k``, not
    trec_eval's), or gdeval's exponential gains (with a cutoff)."""

    dcg: str
    k: int | None

    def __post_init__(self) -> None:
        super().__post_init__()
        if self.gains is not None and self.dcg != "log2":
            raise ParamError("nDCG takes a gains table only with dcg='log2'")
        if self.dcg == "exp-log2" and self.k is None:
            raise ParamError("nDCG(dcg='exp-log2') needs a cutoff, e.g. nDCG(dcg='exp-log2')@20")

    def compute(self, batch: RankingBatch) -> np.ndarray:
        if self.dcg == "exp-log2":
            from ..err import gdeval_ndcg

            assert self.k is not None  # (checked by __post_init__)
            return gdeval_ndcg(self.ranking_of(batch), int(self.k))
        if self.gains is not None and self.k is not None:  # (not trec_eval's: ir_measures')
            from .dcg import ndcg_cut
            from .rows import parse_params

            pairs = next(r for r in self.trec_rows if r.kind == "pairs")
            batch = self.ranking_of(batch)
            ctx = context(batch, 1.0)
            table = ctx.gain_table(list(parse_params(pairs, self.gains)))
            return ndcg_cut(ctx, (int(self.k),), table)[0]
        return super().compute(batch)

    def _one_topic(self) -> OneTopic | None:
        if self.dcg != "log2" or (self.gains is not None and self.k is not None):
            return None
        return self._row_kernel()

    def in_trec_eval(self) -> bool:
        cut_table = self.gains is not None and self.k is not None
        return self.dcg == "log2" and not cut_table and super().in_trec_eval()

    def group_key(self) -> tuple | None:
        return self._cut_key() if self.dcg == "log2" and self.gains is None else None

    def trec_text(self) -> str | None:
        return self.gains if self.k is None else None


class Levels(TrecBase):
    """A measure over recall levels, optionally given (``11pt_avg.0.25,0.5``)."""

    levels: str | None

    @classmethod
    def trec_kwargs(cls, row: TrecMeasure, values: tuple, text: str) -> dict[str, Any]:
        return {"levels": text}

    def trec_text(self) -> str | None:
        return self.levels


class FMeasure(TrecBase):
    """``set_F.beta``: beta passed exactly, printed with ``%g``."""

    beta: float

    @classmethod
    def trec_kwargs(cls, row: TrecMeasure, values: tuple, text: str) -> dict[str, Any]:
        return {"beta": values[0]}

    def trec_params(self) -> tuple:
        return (float(self.beta),)

    def trec_text(self) -> str | None:
        return None if self.beta == 1.0 else f"{self.beta:g}"


class Linear(TrecBase):
    """``utility.a,b,c,d``: the coefficients passed exactly, printed with ``%g``; the
    collection size ``N`` (``-N``) is passed after them."""

    a: float
    b: float
    c: float
    d: float
    N: int

    def derived(self) -> list[tuple[str, str, float]]:
        """Each coefficient times 2^55 must be finite: each of the four terms is a
        coefficient times a count up to 2^53, and their sum at most four times the largest."""
        return [(p, f"{p} x 2^55", float(getattr(self, p)) * 4.0 * MAX_COUNT) for p in "abcd"]

    def compute(self, batch: RankingBatch) -> np.ndarray:
        fn = self.trec_row().compute
        assert fn is not None
        ctx = context(batch, _rel_level(self))
        values = np.asarray(fn(ctx, (*self.trec_params(), self.N))[0], dtype=np.float64)
        return self.cleared(batch, values)

    @classmethod
    def trec_kwargs(cls, row: TrecMeasure, values: tuple, text: str) -> dict[str, Any]:
        return dict(zip("abcd", values[:4], strict=False))

    def trec_params(self) -> tuple:
        return (self.a, self.b, self.c, self.d)

    def trec_text(self) -> str | None:
        if self.trec_params() == (1.0, -1.0, 0.0, 0.0):
            return None
        return ",".join(f"{x:g}" for x in self.trec_params())


class Text(TrecBase):
    """``relstring``: per-topic values that are text (the relevance codes of the top ``k``
    documents), held in :attr:`cwlkit.results.Results.text`."""

    k: int
    #: the values are strings (see :meth:`compute_text`); the numeric row is NaN
    text_valued: ClassVar[bool] = True

    @classmethod
    def trec_kwargs(cls, row: TrecMeasure, values: tuple, text: str) -> dict[str, Any]:
        return {"k": int(values[0])}

    def trec_params(self) -> tuple:
        return (float(self.k),)

    def compute(self, batch: RankingBatch) -> np.ndarray:
        return np.full(batch.n_topics, np.nan)

    def compute_text(self, batch: RankingBatch) -> list[str]:
        """Each topic's value, in batch order."""
        fn = self.trec_row().compute
        assert fn is not None
        got = list(fn(context(batch), self.trec_params())[0])
        absent = _stand_in_topics(batch)
        if absent is None or not _is_cleared(self):
            return got
        return ["" if a else x for x, a in zip(got, absent.tolist(), strict=True)]


class Persistence(TrecBase):
    """``rbp.p=X``: the persistence passed exactly, printed with ``%g``."""

    p: float

    @classmethod
    def trec_kwargs(cls, row: TrecMeasure, values: tuple, text: str) -> dict[str, Any]:
        return {"p": dict(values).get("p", 0.9)}

    def trec_params(self) -> tuple:
        return (("p", float(self.p)),)

    def trec_text(self) -> str | None:
        return None if self.p == 0.9 else f"p={self.p:g}"
