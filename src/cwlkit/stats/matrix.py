"""Every pair of measures at once: the ERR paper's Table 2 (and more) in one call.

Azzopardi, Mackenzie and Moffat (ICTIR 2021, "ERR is not C/W/L", Table 2) compare the system
orderings of ERR@20 and five C/W/L metrics pairwise, with Kendall's tau (above the diagonal)
and a top-weighted tau with weights ``1/(r + 1)`` (below). :func:`correlation_matrix` computes
Pearson's r, Spearman's rho, Kendall's tau-b and that weighted tau for every pair of measures
at two levels:

``systems``
    one value per run: its mean over the *common topics* (topics every run has, on which every
    measure is finite in every run), so each system is scored on the same topics;
``scores``
    one value per (run, topic) pair: the pairs on which every measure is finite (optionally
    only those whose reference measure's residual is at most ``max_residual``, as the paper
    filters its Figure 4 and Table 1).

Every measure is correlated over the same items at a level, so a row of the matrix compares
like with like. Each coefficient is :mod:`cwlkit.stats.correlate`'s (scipy's), all symmetric:
``weighted_tau`` ranks by each variable in turn and averages (scipy's ``weightedtau``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from ..errors import ParamError
from ..support.checks import check_choice, check_number, refuse

if TYPE_CHECKING:  # pragma: no cover
    from ..results import Results

LEVELS = ("systems", "scores")
COEFFICIENTS = ("pearson", "spearman", "kendall_tau_b", "weighted_tau")
#: coefficient -> its label in tables and figures
LABELS = {
    "pearson": "Pearson's r",
    "spearman": "Spearman's rho",
    "kendall_tau_b": "Kendall's tau-b",
    "weighted_tau": "weighted tau (1/(r+1))",
    "tau_ap": "tau_AP (row: truth)",
}
#: every coefficient :func:`correlation_matrix` computes (tau_AP on request: its matrix is not
#: symmetric, row ``i`` column ``j`` taking measure ``i``'s ordering as the truth)
ALL_COEFFICIENTS = (*COEFFICIENTS, "tau_ap")


@dataclass
class LevelData:
    """The values correlated at one level.

    Attributes
    ----------
    values : numpy.ndarray
        float64[M, N]: measure ``m`` on item ``n`` (a run's mean, or one (run, topic) pair).
    items : list of tuple
        ``(run,)`` per system, or ``(run, topic)`` per pair.
    """

    values: np.ndarray
    items: list[tuple[str, ...]]


@dataclass
class CorrelationMatrix:
    """Correlations of every pair of measures, at each level.

    Attributes
    ----------
    measures : list of str
        Canonical names, in the order given.
    runs : list of str
    topics : list of str
        The common topics the system means are taken over.
    data : dict of str to LevelData
        ``"systems"`` and/or ``"scores"``: what is correlated.
    values, p_values : dict of str to dict of str to numpy.ndarray
        ``values[level][coefficient]`` is float64[M, M], symmetric, 1 on the diagonal;
        ``p_values`` likewise (two-sided; NaN for the weighted tau, which has none; 0 on the
        diagonal).
    max_residual : float or None
        The residual bound applied to the (run, topic) pairs, if any.
    dropped : int
        (run, topic) pairs left out at the ``scores`` level (a measure not finite, or the
        residual above the bound).
    """

    measures: list[str]
    runs: list[str]
    topics: list[str]
    data: dict[str, LevelData]
    values: dict[str, dict[str, np.ndarray]]
    p_values: dict[str, dict[str, np.ndarray]]
    max_residual: float | None = None
    dropped: int = 0
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def levels(self) -> list[str]:
        return list(self.values)

    def n(self, level: str) -> int:
        """Items correlated at ``level`` (systems, or (run, topic) pairs)."""
        return len(self.data[level].items)

    def get(self, level: str, coefficient: str, a: str, b: str) -> float:
        """One cell: the ``coefficient`` of measures ``a`` and ``b`` at ``level``."""
        i, j = self.measures.index(a), self.measures.index(b)
        return float(self.values[level][coefficient][i, j])

    def combined(self, level: str, upper: str, lower: str) -> np.ndarray:
        """float64[M, M] with ``upper`` above the diagonal and ``lower`` below, NaN on it:
        ``combined("systems", "kendall_tau_b", "weighted_tau")`` is the ERR paper's Table 2
        layout."""
        up = np.triu(self.values[level][upper], 1)
        lo = np.tril(self.values[level][lower], -1)
        out = up + lo
        np.fill_diagonal(out, np.nan)
        return out

    def to_dict(self) -> dict[str, Any]:
        """Plain values: the matrices as nested lists, with their sizes."""
        return {
            "measures": list(self.measures),
            "runs": list(self.runs),
            "common_topics": len(self.topics),
            "max_residual": self.max_residual,
            "levels": {
                level: {
                    "n": self.n(level),
                    "dropped": self.dropped if level == "scores" else 0,
                    "coefficients": {
                        c: {
                            "value": self.values[level][c].tolist(),
                            "p_value": self.p_values[level][c].tolist(),
                        }
                        for c in self.values[level]
                    },
                }
                for level in self.values
            },
        }


def level_data(
    runs: Mapping[str, Results],
    measures: Sequence[str],
    *,
    max_residual: float | None = None,
    reference: str | None = None,
) -> tuple[dict[str, LevelData], list[str], int]:
    """The per-system and per-(run, topic) values of ``measures`` (see the module notes).

    Returns ``({"systems": ..., "scores": ...}, common topics, pairs dropped)``; a level is
    left out when it has fewer than 2 items. ``max_residual`` keeps the pairs whose
    ``reference`` measure (default the first) has ``ResEU <= max_residual`` (the Results must
    hold residuals: ``residuals=True``).
    """
    names = list(runs)
    if not names:
        raise ParamError("no runs to correlate")
    if len(measures) < 2:
        raise ParamError(f"correlating needs at least 2 measures; got {len(measures)}")
    ref = measures[0] if reference is None else reference
    rows = {n: [runs[n]._row(m) for m in measures] for n in names}
    # scores: every (run, topic) pair where all measures are finite (and the residual is small)
    vals: list[np.ndarray] = []
    items: list[tuple[str, ...]] = []
    dropped = 0
    for n in names:
        r = runs[n]
        v = r.values[rows[n]]
        keep = np.isfinite(v).all(axis=0)
        if max_residual is not None:
            res = r.columns.get("ResEU")
            if res is None:
                raise ParamError(
                    "max_residual needs residuals: evaluate with residuals=True (ResEU column)"
                )
            rr = res[r._row(ref)]
            if not np.isfinite(rr).any():
                raise ParamError(f"{ref} has no residual, so pairs cannot be filtered by it")
            keep &= rr <= max_residual
        dropped += int((~keep).sum())
        vals.append(v[:, keep])
        items += [(n, t) for t, k in zip(r.topics, keep, strict=True) if k]
    out: dict[str, LevelData] = {}
    if len(items) >= 2:
        out["scores"] = LevelData(np.concatenate(vals, axis=1), items)
    # systems: means over the topics every run has, with every measure finite in every run
    common = set.intersection(*(set(runs[n].topics) for n in names))
    for n in names:
        r = runs[n]
        v = r.values[rows[n]]
        bad = ~np.isfinite(v).all(axis=0)
        common -= {t for t, b in zip(r.topics, bad, strict=True) if b}
    topics = sorted(common)
    if len(names) >= 2 and topics:
        means = np.empty((len(measures), len(names)))
        for j, n in enumerate(names):
            r = runs[n]
            pos = {t: i for i, t in enumerate(r.topics)}
            cols = [pos[t] for t in topics]
            means[:, j] = r.values[rows[n]][:, cols].mean(axis=1)
        out = {"systems": LevelData(means, [(n,) for n in names]), **out}
    return out, topics, dropped


def _names(name: str, value: Any, choices: Sequence[str]) -> list[str]:
    """A list of choices (one string is a list of one), each checked."""
    if isinstance(value, str):
        value = [value]
    if isinstance(value, (Mapping, bytes)) or not isinstance(value, Sequence) or not value:
        raise refuse(name, f"a non-empty list of {', '.join(map(repr, choices))}", value)
    return [check_choice(name, v, choices) for v in value]


def _options(levels: Any, coefficients: Any, max_residual: Any, reference: Any) -> tuple:
    """The checked options of :func:`correlation_matrix` and :func:`correlate_runs`."""
    lv = _names("levels", levels, LEVELS)
    co = _names("coefficients", coefficients, ALL_COEFFICIENTS)
    mr = check_number("max_residual", max_residual, none=True)
    if reference is not None and not isinstance(reference, str):
        raise refuse("reference", "a measure name or None", reference)
    return lv, co, mr


def correlation_matrix(
    runs: Any,
    measures: Sequence[str] | None = None,
    *,
    levels: Sequence[str] = LEVELS,
    coefficients: Sequence[str] = COEFFICIENTS,
    max_residual: float | None = None,
    reference: str | None = None,
) -> CorrelationMatrix:
    """Pearson, Spearman, Kendall tau-b and weighted tau of every pair of ``measures``.

    Parameters
    ----------
    runs : mapping of str to Results, or any form of :mod:`cwlkit.stats.inputs`
        ``{run: Results}``, e.g. ``cwlkit.evaluate(qrels, [run, ...], measures)``; also
        ``{run: {topic: {measure: score}}}`` (pytrec_eval's output), ``{run: records}``
        (ir_measures' ``Metric`` tuples), ``{run: DataFrame}`` or one long DataFrame with a
        ``run`` column (as :meth:`cwlkit.Results.to_frame`).
    measures : sequence of str, optional
        Names (any spelling the Results resolve); default every measure of the first run.
    levels : sequence of {"systems", "scores"}
        Per-system means, per-(run, topic) values, or both (default).
    coefficients : sequence of str
        Any of ``pearson``, ``spearman``, ``kendall_tau_b``, ``weighted_tau`` (the default:
        all four) and ``tau_ap`` (Yilmaz et al.'s, :func:`cwlkit.tau_ap`; not symmetric:
        ``values[level]["tau_ap"][i, j]`` takes measure ``i``'s system ordering as the truth
        and ``j``'s as the estimate; ties as :func:`~cwlkit.stats.correlate.correlate_systems`
        treats them, ``"a"`` unless the truth has ties).
    max_residual, reference : optional
        Keep only the (run, topic) pairs whose ``reference`` measure (default the first) has a
        residual ``ResEU <= max_residual``.

    Examples
    --------
    >>> import cwlkit
    >>> names = ["web2012.ql.cata", "web2012.rm.cata", "web2012.ql.catb"]
    >>> runs = cwlkit.evaluate(cwlkit.example("web2012.qrels"),
    ...                        [cwlkit.example(n) for n in names], ["ERR@20", "P@10", "AP"])
    >>> cm = correlation_matrix(runs)                                   # doctest: +SKIP
    >>> cm.get("systems", "kendall_tau_b", "ERR@20", "AP")              # doctest: +SKIP
    """
    from .correlate import kendall_tau_b, pearson, spearman, tau_ap_correlation, weighted_tau

    def _tau_ap(x: np.ndarray, y: np.ndarray) -> Any:
        return tau_ap_correlation(x, y, ties="a" if np.unique(x).size == x.size else "b")

    fns = {
        "pearson": pearson,
        "spearman": spearman,
        "kendall_tau_b": kendall_tau_b,
        "weighted_tau": weighted_tau,
        "tau_ap": _tau_ap,
    }
    from .comparison import measure_names
    from .inputs import runs_results

    levels, coefficients, max_residual = _options(levels, coefficients, max_residual, reference)
    wanted = measure_names(measures)
    runs = runs_results("runs", runs)
    names = list(runs)
    if wanted is None:
        wanted = list(runs[names[0]].measures)
    canon = [runs[names[0]].measures[runs[names[0]]._row(m)] for m in wanted]
    if len(set(canon)) != len(canon):
        raise ParamError(f"a measure is named twice in {wanted}")
    data, topics, dropped = level_data(runs, canon, max_residual=max_residual, reference=reference)
    data = {lv: d for lv, d in data.items() if lv in levels}
    if not data:
        raise ParamError(
            "nothing to correlate: the systems level needs 2 runs with common topics, the "
            "scores level 2 (run, topic) pairs with every measure defined"
        )
    M = len(canon)
    values: dict[str, dict[str, np.ndarray]] = {}
    p_values: dict[str, dict[str, np.ndarray]] = {}
    for lv, d in data.items():
        values[lv], p_values[lv] = {}, {}
        for c in coefficients:
            v, p = np.eye(M), np.zeros((M, M))
            if c in ("weighted_tau", "tau_ap"):
                np.fill_diagonal(p, np.nan)
            if c == "tau_ap":
                for i in range(M):
                    for j in range(M):
                        if i != j:
                            r = fns[c](d.values[i], d.values[j])
                            v[i, j], p[i, j] = r.value, r.p_value
                values[lv][c], p_values[lv][c] = v, p
                continue
            for i in range(M):
                for j in range(i + 1, M):
                    r = fns[c](d.values[i], d.values[j])
                    v[i, j] = v[j, i] = r.value
                    p[i, j] = p[j, i] = r.p_value
            values[lv][c], p_values[lv][c] = v, p
    return CorrelationMatrix(
        canon,
        names,
        topics,
        data,
        values,
        p_values,
        max_residual=max_residual,
        dropped=dropped if "scores" in data else 0,
    )


def _unique(items: list[tuple[str, Any]]) -> list[tuple[str, Any]]:
    """The same run named twice gets one name each (``0:name``, ``1:name``)."""
    if len({n for n, _ in items}) != len(items):
        return [(f"{i}:{n}", r) for i, (n, r) in enumerate(items)]
    return items


def correlate_runs(
    qrels: Any,
    runs: Any,
    measures: Any,
    *,
    levels: Sequence[str] = LEVELS,
    coefficients: Sequence[str] = COEFFICIENTS,
    max_residual: float | None = None,
    jobs: int | None = None,
    progress: bool | None = None,
    **options: Any,
) -> CorrelationMatrix:
    """Evaluate ``runs`` with ``measures`` (:class:`cwlkit.Evaluator`, ``options`` such as
    ``gain="err"``; :meth:`~cwlkit.Evaluator.evaluate_many`'s ``jobs`` and ``progress``) and
    return their :func:`correlation_matrix`; with ``max_residual``, the first measure's
    residuals are computed and filter the (run, topic) pairs. ``qrels`` and ``runs`` take
    every form :func:`cwlkit.evaluate` takes (paths, ``.gz``, pandas, polars and pyarrow
    tables, pytrec_eval dicts, ir_measures records, Qrels and Run objects; ``runs`` a list
    or a mapping ``{name: run}``)."""
    from ..api import Evaluator
    from .runs import check_evaluation, check_runs

    levels, coefficients, max_residual = _options(levels, coefficients, max_residual, None)
    jobs = check_evaluation(options, jobs, progress)
    items = check_runs(runs)
    ev = Evaluator(qrels, measures, residuals=max_residual is not None, **options)
    results = ev.evaluate_many(dict(_unique(items)), jobs=jobs, progress=progress)
    return correlation_matrix(
        results,
        [m.name for m in ev.measures],
        levels=levels,
        coefficients=coefficients,
        max_residual=max_residual,
    )
