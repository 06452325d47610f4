"""trec_eval's ``-m`` arguments: which measures, with which parameters, printed how.

:func:`trec_eval_measures` turns ``-m`` arguments (``official``, ``all_trec``, ``P.5,10``,
``ndcg_cut.10``, ``utility.2,-1,0,0``) into the registry's measures, in trec_eval's table
order, and :func:`trec_eval_names` gives the names trec_eval prints for them. Parameters are
read as trec_eval reads them (``atol`` / ``atof``: the longest numeric prefix).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from ...errors import CwlkitError, ParamError, UnknownMeasureError
from .rows import TrecMeasure, c_cutoff_levels, parse_params
from .spec import BY_NAME, MEASURES, PREFS_JG_MEASURES, nicknames

if TYPE_CHECKING:  # pragma: no cover
    from ..base import Measure


def printed_names(m: TrecMeasure, params, given: str | None) -> list[str]:
    """The names trec_eval prints for measure ``m`` with ``params``."""
    if m.kind == "long_cut":
        return [f"{m.name}_{k}" for k in params]
    if m.kind == "double_cut":
        return [c_float_name(m.name, x) for x in params]
    if m.kind in ("double_params", "pairs") and given is not None:
        return [f"{m.name}_{given}"]
    return [m.name]


def c_float_name(name: str, x: float) -> str:
    """trec_eval's ``append_float``: ``snprintf(buf, strlen(name) + 10, "%s_%3.2f", ...)``,
    so glibc's ``nan``, ``-nan``, ``inf``, ``-inf``, and a name cut to ``len(name) + 9``
    characters (``iprec_at_recall.123456789`` prints ``iprec_at_recall_12345678``)."""
    if math.isnan(x):
        value = "-nan" if math.copysign(1.0, x) < 0 else "nan"
    elif math.isinf(x):
        value = "-inf" if x < 0 else "inf"
    else:
        value = f"{x:3.2f}"
    return f"{name}_{value}"[: len(name) + 9]


def trec_eval_names(specs: list[str] | None, version: int = 9) -> list[str]:
    """What trec_eval prints for ``-m specs``, in print order: ``runid`` for the run's tag
    line, then one name per measure of :func:`trec_eval_measures`, in its order (the
    ``names`` of :func:`cwlkit.formats.trec_eval.format_trec_eval`)."""
    measures, _ = select_measures(specs, version)
    out: list[str] = []
    for m, params, text in measures:
        out += ["runid"] if m.agg == "runid" else printed_names(m, params, text)
    return out


def select_measures(
    specs: list[str] | None, version: int
) -> tuple[list[tuple[TrecMeasure, tuple, str | None]], list[str]]:
    """Resolve ``-m`` arguments into measures (table order) with their parameters.

    Returns
    -------
    measures : list of (TrecMeasure, params, params text or None)
        The qrels-based measures to compute.
    others : list of str
        Requested names that belong to the preference / judgment-group measures.
    """
    nick = nicknames(version)
    marked: set[str] = set()
    args: list[tuple[str, str]] = []
    for spec in specs or ["official"]:
        name, dot, param = spec.partition(".")
        if dot:
            if not param:
                raise ParamError(f"improper measure in parameter '{spec}'")
            args.append((name, param))
        if name in nick:
            marked.update(nick[name])
            continue
        m = BY_NAME.get(name)
        if (m is None or version not in m.versions) and name not in PREFS_JG_MEASURES:
            known = (
                [x.name for x in MEASURES if version in x.versions]
                + list(PREFS_JG_MEASURES)
                + list(nick)
            )
            raise UnknownMeasureError(name, known)
        marked.add(name)
    out = []
    for m in MEASURES:
        if m.name not in marked or version not in m.versions:
            continue
        text = next((p for n, p in args if n == m.name), None)
        params = parse_params(m, text) if text is not None else m.default
        out.append((m, params, text))
    others = [n for n in PREFS_JG_MEASURES if n in marked]
    return out, others


def checked_measures(specs: list[str] | None, version: int, max_depth: int | None) -> list:
    """:func:`select_measures` of ``specs`` once the options pass; a preference or
    judgment-group measure is an error (it needs ``-R``)."""
    if version not in (9, 10):
        raise ParamError(f"trec_eval version must be 9 or 10; got {version}")
    if max_depth is not None and max_depth < 0:
        raise ParamError(f"-M must be >= 0; got {max_depth}")
    measures, others = select_measures(specs, version)
    if others:
        raise CwlkitError(
            f"measure {others[0]!r} needs preference or judgment-group input "
            "(-R prefs, qrels_prefs or qrels_jg)"
        )
    return measures


def trec_eval_measures(
    specs: list[str] | None,
    version: int = 9,
    *,
    rel_level: float = 1,
    num_docs: int = 0,
    max_depth: int | None = None,
) -> list[Measure]:
    """The registry's measures of what trec_eval prints for ``-m specs``, in print order
    (``runid`` excepted: the Results' run): ``num_q`` is ``NumQ``, ``relstring``
    ``RelString``; with ``-l`` (``rel_level``) every measure with a ``rel`` parameter takes
    it, with ``-N`` (``num_docs``) ``Utility`` takes it as ``N``.

    Raises
    ------
    ParamError, UnknownMeasureError
        A bad option, an unknown measure, bad parameters.
    CwlkitError
        A preference or judgment-group measure (they need ``-R``).
    """
    import dataclasses

    from ..judged import NumQ
    from .registered import from_trec_row

    out: list[Measure] = []
    for m, params, text in checked_measures(specs, version, max_depth):
        if m.agg == "runid":
            continue
        if m.kind == "double_cut":  # (a level that is not finite: as trec_eval computes it)
            levels = c_cutoff_levels(params)
            if len(set(levels)) < len(levels):
                raise ParamError(
                    f"-m {m.name}.{text}: a level that is not a number ({text}) makes "
                    "trec_eval give level 0's value to it and to every level sorted before "
                    "it; ask for such a level alone, or with levels after it"
                )
            params = levels
        try:
            got: list[Measure] = [NumQ()] if m.agg == "num_q" else from_trec_row(m, text, params)
        except ParamError as exc:  # (the parameters as typed: "rbp.p=abc" is read as 0)
            if text is None:
                raise
            raise ParamError(f"-m {m.name}.{text}: {exc}") from None
        for x in got:
            fields = {f.name for f in dataclasses.fields(x)}
            updates: dict[str, float | int] = {}
            # (a rel of None is no relevance level: NumRet counts every retrieved document)
            if rel_level != 1 and "rel" in fields and getattr(x, "rel") is not None:  # noqa: B009
                updates["rel"] = float(rel_level)
            if num_docs and "N" in fields:
                updates["N"] = int(num_docs)
            out.append(dataclasses.replace(x, **updates) if updates else x)
    return out
