"""Between ir_measures and cwlkit: measure objects both ways.

* :func:`from_ir_measures` turns an ir_measures measure object (``ir_measures.P@10``,
  ``nDCG(dcg='exp-log2')@20``, ``INST(T=2.0,max_rel=4)``) into the cwlkit measure that
  computes the numbers ir_measures' default provider for it computes. ``cwlkit.evaluate``,
  :class:`cwlkit.Evaluator` and :meth:`cwlkit.Results.per_topic` accept ir_measures objects
  through it.
* :func:`to_ir_measures` exposes any cwlkit measure as an ir_measures measure (through
  ``ir_measures.define``, ir_measures' runtime provider), computed by cwlkit's
  :class:`~cwlkit.Evaluator` with the options given, so that ``ir_measures.calc_aggregate``
  and ``ir_measures.iter_calc`` accept it on any qrels and run form ir_measures does.

Where ir_measures' providers decide a convention, the cwlkit measure follows it:

================================  =========================================================
ir_measures                       cwlkit
================================  =========================================================
``NumRet(rel=r)``, ``NumRelRet``  ``NumRelRet(rel=r)``
``ERR@k`` (gdeval.pl)             ``ERR@k`` (gdeval.pl's fixed top grade 4, ERR's default)
``nDCG(dcg='exp-log2')@k``        ``nDCG(dcg='exp-log2')@k`` (gdeval.pl's nDCG)
``nDCG(gains={...})``             ``nDCG(gains='l=g,...')`` (trec_eval's gain table)
``IPrec@x``                       ``IPrec@x``
``INST(T,min_rel,max_rel)`` and   ``CWL_scaled(metric='INST(T=...)',max_rel=...)``: the
the other cwl_eval measures       C/W/L metric on labels scaled to [0, 1], over cwl_eval's
(``INSQ``, ``BPM``, ``SDCG``,     fixed depth 1000 (``BPM(T)@K`` is ``BPM(T,K)``,
``NERR8``..``NERR11``)            ``NERR8@k`` ``C_E8@k``, ``NERR10(p)`` ``C_E10(phi=p)``)
``Judged@k``, ``Compat(p)``       ``Judged@k``, ``Compat(p)``
``alpha_nDCG(alpha)@k``, the      the same name (:mod:`cwlkit.measures.diversity`), on
other pyndeval measures           diversity qrels (``cwlkit.as_diversity_qrels``)
``M(judged_only=True)``           ``M(judged_only=True)``: the measure's own parameter, the
                                  ranking condensed to its judged documents before the
                                  measure and its cutoff (``P(judged_only=True)@10``: the
                                  first 10 judged documents)
``SetRelP``                       ``SetP(relative=True)`` (``SetRelP`` parses to it)
================================  =========================================================

Scores: ir_measures' pytrec_eval provider (P, R, AP, RR, nDCG, Rprec, Bpref, infAP, the set
measures, the counts, Success, IPrec) ranks as trec_eval 9.0.8 does, cwlkit's default. Its
other providers (gdeval, cwl_eval, judged, msmarco, compat) rank by the double-precision
score (cwlkit's ``trec_version=10``) and break ties in their own ways: see each measure.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..errors import ParamError
from .base import Measure, format_value
from .err import GDEVAL_MAX_GRADE

#: ir_measures families cwlkit has no equivalent of, and why
_NO_EQUIVALENT = {
    "Accuracy": "its pairwise accuracy (a retrieved relevant document ranked above a retrieved "
    "non-relevant one) has no cwlkit measure",
}

#: the fixed depth ir_measures' cwl_eval provider scores (``RankingMaker(max_n=1000)``)
CWL_EVAL_DEPTH = 1000


def is_ir_measure(obj: Any) -> bool:
    """Whether ``obj`` is an ir_measures measure object (without importing ir_measures)."""
    return not isinstance(obj, (str, Measure)) and type(obj).__module__.startswith("ir_measures")


def from_ir_measures(obj: Any) -> list[Measure] | None:
    """The cwlkit measure computing what ir_measures computes for ``obj``.

    Parameters
    ----------
    obj : ir_measures.Measure
        A measure object such as ``ir_measures.P@10``, ``ir_measures.nDCG(dcg='exp-log2')@20``
        or ``ir_measures.parse_measure("INST(T=2.0,max_rel=4)")``; also a measure made by
        :func:`to_ir_measures` (which gives back its cwlkit measure).

    Returns
    -------
    list of Measure or None
        One cwlkit measure (a list, like :func:`~cwlkit.measures.parse.parse_measures`), or
        None where ir_measures' spelling of the measure is cwlkit's too (``str(obj)`` parses
        to it: :func:`cwlkit.measures.parse.measures_of` does so).

    Raises
    ------
    ParamError
        When cwlkit has no equivalent: a diversity measure without a cutoff, ``Accuracy``,
        or invalid parameters.

    Examples
    --------
    >>> import ir_measures
    >>> [m.name for m in from_ir_measures(ir_measures.NumRet(rel=2))]
    ['NumRelRet(rel=2)']
    >>> [m.name for m in from_ir_measures(ir_measures.ERR@20)]
    ['ERR@20']
    """
    if not is_ir_measure(obj):
        raise ParamError(f"not an ir_measures measure: {obj!r}")
    own = getattr(obj, "cwlkit_measure", None)
    if isinstance(own, Measure):
        return [own]
    name = getattr(obj, "NAME", None)
    params = getattr(obj, "params", {})
    for key, info in getattr(obj, "SUPPORTED_PARAMS", {}).items():
        if getattr(info, "required", False) and key not in params:
            raise ParamError(f"ir_measures' {name} needs {key}; got {obj!r}")
    try:
        obj.validate_params()
    except AssertionError as exc:
        raise ParamError(f"ir_measures measure {obj!r}: {exc}") from None
    if name in _NO_EQUIVALENT:
        raise ParamError(f"cwlkit has no equivalent of ir_measures' {name}: {_NO_EQUIVALENT[name]}")
    p = _params(obj)
    build = _BUILDERS.get(name)  # type: ignore[arg-type]
    if build is None:  # (its spelling is cwlkit's: see cwlkit.measures.parse.measures_of)
        return None
    return [build(p, obj)]


def _params(obj: Any) -> dict[str, Any]:
    """Every supported parameter of ``obj`` with its value or default (None: not provided)."""
    from ir_measures.measures.base import _NOT_PROVIDED

    out = {}
    for key in getattr(obj, "SUPPORTED_PARAMS", {}):
        v = obj[key]
        out[key] = None if v is _NOT_PROVIDED else v
    return out


def _make(family: str, **kwargs: Any) -> Measure:
    from .registry import lookup

    return lookup(family)(**{k: v for k, v in kwargs.items() if v is not None})


def _rel(p: dict[str, Any]) -> float | None:
    return None if p.get("rel") is None else float(p["rel"])


def _judged(p: dict[str, Any]) -> bool | None:
    """``judged_only``: the measure's own parameter in cwlkit too (None: not set)."""
    return True if p.get("judged_only") else None


def _ndcg(p: dict[str, Any], obj: Any) -> Measure:
    gains, k, dcg = p.get("gains"), p.get("cutoff"), p.get("dcg") or "log2"
    if gains is not None:
        if dcg != "log2":
            raise ParamError(f"cwlkit's nDCG takes a gain table only with dcg='log2'; got {obj!r}")
        table = ",".join(
            f"{format_value(lv)}={format_value(gv)}" for lv, gv in sorted(gains.items())
        )
        return _make("nDCG", gains=table, judged_only=_judged(p), k=k)
    return _make("nDCG", dcg=dcg, k=k, judged_only=_judged(p))


def _numret(p: dict[str, Any], obj: Any) -> Measure:
    if p.get("rel") is None:
        return _make("NumRet")
    return _make("NumRelRet", rel=_rel(p))


def _scaled(inner: Callable[[dict[str, Any]], Measure]) -> Callable[[dict[str, Any], Any], Measure]:
    """A builder for a cwl_eval-provider measure: the C/W/L metric on scaled labels."""

    def build(p: dict[str, Any], obj: Any) -> Measure:
        if p.get("max_rel") is None:
            raise ParamError(f"ir_measures' {obj.NAME} needs max_rel (the top label); got {obj!r}")
        if p.get("dcg", "log2") != "log2":
            raise ParamError(f"ir_measures' {obj.NAME} has only dcg='log2'; got {obj!r}")
        min_rel = 0.0 if p.get("min_rel") is None else float(p["min_rel"])
        return _make(
            "CWL_scaled",
            metric=inner(p).name,
            max_rel=float(p["max_rel"]),
            min_rel=min_rel,
            depth=CWL_EVAL_DEPTH,
        )

    return build


def _cut(p: dict[str, Any]) -> int | None:
    return None if p.get("cutoff") is None else int(p["cutoff"])


_BUILDERS: dict[str, Callable[[dict[str, Any], Any], Measure]] = {
    "P": lambda p, o: _make("P", rel=_rel(p), judged_only=_judged(p), k=_cut(p)),
    "R": lambda p, o: _make("R", rel=_rel(p), judged_only=_judged(p), k=_cut(p)),
    "AP": lambda p, o: _make("AP", rel=_rel(p), judged_only=_judged(p), k=_cut(p)),
    "RR": lambda p, o: _make("RR", rel=_rel(p), judged_only=_judged(p), k=_cut(p)),
    "nDCG": _ndcg,
    "Rprec": lambda p, o: _make("Rprec", rel=_rel(p), judged_only=_judged(p)),
    "Bpref": lambda p, o: _make("Bpref", rel=_rel(p)),
    "infAP": lambda p, o: _make("infAP", rel=_rel(p)),
    "SetP": lambda p, o: _make(
        "SetP", rel=_rel(p), relative=bool(p.get("relative")), judged_only=_judged(p)
    ),
    "SetR": lambda p, o: _make("SetR", rel=_rel(p)),
    "SetF": lambda p, o: _make("SetF", rel=_rel(p), beta=float(p["beta"]), judged_only=_judged(p)),
    "SetAP": lambda p, o: _make("SetAP", rel=_rel(p), judged_only=_judged(p)),
    "NumRet": _numret,
    "NumRel": lambda p, o: _make("NumRel", rel=_rel(p)),
    "NumQ": lambda p, o: _make("NumQ"),
    "Success": lambda p, o: _make("Success", rel=_rel(p), judged_only=_judged(p), k=_cut(p)),
    "IPrec": lambda p, o: _make("IPrec", rel=_rel(p), judged_only=_judged(p), k=float(p["recall"])),
    "Judged": lambda p, o: _make("Judged", k=_cut(p)),
    "Compat": lambda p, o: _make("Compat", p=float(p["p"]), normalize=bool(p["normalize"])),
    "ERR": lambda p, o: _make("ERR", max_grade=GDEVAL_MAX_GRADE, k=_cut(p)),
    "INST": _scaled(lambda p: _make("INST", T=float(p["T"]))),
    "INSQ": _scaled(lambda p: _make("INSQ", T=float(p["T"]))),
    "BPM": _scaled(lambda p: _make("BPM", T=float(p["T"]), K=float(p["cutoff"]))),
    "SDCG": _scaled(lambda p: _make("SDCG", k=_cut(p))),
    "NERR8": _scaled(lambda p: _make("C_E8", k=_cut(p))),
    "NERR9": _scaled(lambda p: _make("C_E9", k=_cut(p))),
    "NERR10": _scaled(lambda p: _make("C_E10", phi=float(p["p"]))),
    "NERR11": _scaled(lambda p: _make("C_E11", T=float(p["T"]))),
}


def build_ir_measure(name: str, params: dict[str, Any], obj: Any) -> Measure:
    """The cwlkit measure of ir_measures' measure ``name`` with ``params`` (every supported
    parameter, None where not provided; ``obj`` names it in messages): what
    :func:`from_ir_measures` gives for such an object, for a spelling parsed without
    ir_measures (:mod:`cwlkit.measures.ir_measures_syntax`)."""
    return _BUILDERS[name](params, obj)


def _diversity(family: str, *keys: str) -> Callable[[dict[str, Any], Any], Measure]:
    """A builder for a pyndeval-provider measure (cwlkit's :mod:`.diversity`, on diversity
    qrels): its ``rel``, the parameters ``keys`` and, for a cutoff measure, the cutoff."""

    def build(p: dict[str, Any], obj: Any) -> Measure:
        kw: dict[str, Any] = {k: None if p.get(k) is None else float(p[k]) for k in keys}
        if "cutoff" in getattr(obj, "SUPPORTED_PARAMS", {}):
            if p.get("cutoff") is None:
                raise ParamError(
                    f"ir_measures' {obj.NAME} needs a cutoff (pyndeval's); got {obj!r}"
                )
            kw["k"] = _cut(p)
        if "judged_only" in getattr(obj, "SUPPORTED_PARAMS", {}):
            kw["judged_only"] = _judged(p)
        return _make(family, rel=_rel(p), **kw)

    return build


_BUILDERS.update(
    {
        "ERR_IA": _diversity("ERR_IA"),
        "nERR_IA": _diversity("nERR_IA"),
        "alpha_DCG": _diversity("alpha_DCG", "alpha"),
        "alpha_nDCG": _diversity("alpha_nDCG", "alpha"),
        "NRBP": _diversity("NRBP", "alpha", "beta"),
        "nNRBP": _diversity("nNRBP", "alpha", "beta"),
        "AP_IA": _diversity("AP_IA"),
        "P_IA": _diversity("P_IA"),
        "StRecall": _diversity("StRecall"),
    }
)


# --------------------------------------------------------------------------------------------
# cwlkit measures as ir_measures measures
