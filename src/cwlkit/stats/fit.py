"""Fit a metric's free parameter to a target measure: the ERR paper's procedure.

Azzopardi, Mackenzie and Moffat (ICTIR 2021, "ERR is not C/W/L", Section 4 and Figure 5)
score every (system, topic) pair with a target measure (ERR@20) and with a metric family that
has one free parameter (RBP's p, C_E10's phi, C_E11's T, C_E8's k...). Pairs whose target
residual exceeds a bound (0.05 there; the residual is the target's possible rise if unjudged
documents were maximally relevant) are dropped, so unjudged documents do not drive the
result. For each parameter value on a grid, Pearson's r and Spearman's rho between the target
and the metric are computed over the remaining pairs; the best parameter is the argmax of each
curve.

:func:`fit_parameter` does this on arrays; :func:`fit_runs` evaluates runs first;
:func:`parse_grid` (from :mod:`cwlkit.measures.parse`) reads ``"RBP(p=0.05:0.95:0.01)"``;
:func:`plot_fit` draws the two curves (Figure 5) with matplotlib, imported only there.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from ..errors import CwlkitError, ParamError
from ..measures.parse import parse_grid  # one grid syntax for every entry point
from ..support.checks import check_number, refuse

if TYPE_CHECKING:  # pragma: no cover
    from ..io.trec import Qrels, Run
    from ..measures.base import Measure


@dataclass
class FitResult:
    """Correlation of a metric family with a target measure along a parameter grid.

    Attributes
    ----------
    target : str
        The target measure's name (e.g. ``ERR@20``).
    parameter : str
        The varying parameter's name.
    grid : numpy.ndarray
        float64[G] parameter values.
    measures : list of str
        Canonical names of the metric at each grid value.
    pearson, pearson_p, spearman, spearman_p : numpy.ndarray
        float64[G] coefficients and their two-sided p-values (NaN where undefined).
    n_pairs : int
        (system, topic) pairs used.
    n_total : int
        Pairs before filtering.
    max_residual : float or None
        The residual bound applied (pairs with a larger target residual were dropped).
    """

    target: str
    parameter: str
    grid: np.ndarray
    measures: list[str]
    pearson: np.ndarray
    pearson_p: np.ndarray
    spearman: np.ndarray
    spearman_p: np.ndarray
    n_pairs: int
    n_total: int
    max_residual: float | None = None
    extra: dict[str, Any] = field(default_factory=dict)

    @staticmethod
    def _best(curve: np.ndarray) -> int | None:
        if not np.isfinite(curve).any():
            return None
        return int(np.nanargmax(curve))  # first (smallest parameter) among equal maxima

    @property
    def best_pearson(self) -> tuple[float, float, str] | None:
        """(parameter value, r, measure name) maximising Pearson's r, or None."""
        i = self._best(self.pearson)
        return (
            None if i is None else (float(self.grid[i]), float(self.pearson[i]), self.measures[i])
        )

    @property
    def best_spearman(self) -> tuple[float, float, str] | None:
        """(parameter value, rho, measure name) maximising Spearman's rho, or None."""
        i = self._best(self.spearman)
        return (
            None if i is None else (float(self.grid[i]), float(self.spearman[i]), self.measures[i])
        )

    def to_records(self) -> list[dict[str, Any]]:
        """The curve: one dict per grid value."""
        return [
            {
                self.parameter: float(g),
                "measure": name,
                "pearson": float(r),
                "pearson_p": float(rp),
                "spearman": float(s),
                "spearman_p": float(sp),
            }
            for g, name, r, rp, s, sp in zip(
                self.grid,
                self.measures,
                self.pearson,
                self.pearson_p,
                self.spearman,
                self.spearman_p,
                strict=True,
            )
        ]

    def summary(self) -> dict[str, Any]:
        """The best parameters and the filtering, as plain values."""

        def best(b):
            return None if b is None else {"value": b[0], "correlation": b[1], "measure": b[2]}

        return {
            "target": self.target,
            "parameter": self.parameter,
            "pairs": self.n_pairs,
            "pairs_total": self.n_total,
            "max_residual": self.max_residual,
            "best_pearson": best(self.best_pearson),
            "best_spearman": best(self.best_spearman),
        }

    def to_frame(self):
        """The curve as a pandas DataFrame (needs pandas)."""
        try:
            import pandas as pd
        except ImportError:  # pragma: no cover - optional
            raise ImportError("FitResult.to_frame() needs pandas: pip install pandas") from None
        return pd.DataFrame.from_records(self.to_records())

    def plot(self, path: str | Path, *, title: str | None = None) -> None:
        """Draw the curves to ``path``; see :func:`plot_fit`."""
        plot_fit(self, path, title=title)


def fit_parameter(
    target: Any,
    values: Any,
    grid: Any,
    *,
    residual: Any = None,
    max_residual: float | None = None,
    parameter: str = "p",
    measures: Sequence[str] | None = None,
    target_name: str = "target",
) -> FitResult:
    """Correlate ``target`` with each row of ``values`` after dropping high-residual pairs.

    Parameters
    ----------
    target : array_like
        float64[N], the target measure on each (system, topic) pair (a numpy array, list,
        pandas Series: numbers; NaN marks an undefined pair).
    values : array_like
        float64[G, N], the metric at each of the ``G`` grid values on the same pairs (a 2-d
        array, list of lists or pandas DataFrame with one row per grid value).
    grid : array_like
        float64[G], the parameter values (finite).
    residual : array_like, optional
        float64[N], the target's residual on each pair.
    max_residual : float, optional
        Keep only pairs with ``residual <= max_residual`` (requires ``residual``; a finite
        number).
    parameter, measures, target_name : optional
        Labels for the result.

    Notes
    -----
    Pairs where the target or any grid value is not finite are dropped too. Pearson's r and
    Spearman's rho (with p-values) are scipy's; a constant column gives NaN. The best
    parameter is the first maximum of each curve.
    """
    from .correlate import pearson, spearman
    from .inputs import as_array

    t = as_array("target", target)
    v = np.atleast_2d(as_array("values", values, ndim=(1, 2)))
    g = as_array("grid", grid)
    if not np.isfinite(g).all():
        raise ParamError("grid values must be finite (got NaN or infinity)")
    max_residual = check_number("max_residual", max_residual, none=True)
    for label, text in (("parameter", parameter), ("target_name", target_name)):
        if not isinstance(text, str):
            raise refuse(label, "a string", text)
    if measures is not None:
        if isinstance(measures, (str, bytes)) or not isinstance(measures, Sequence):
            raise refuse("measures", "a list of names, one per grid value, or None", measures)
        if len(measures) != g.size:
            raise ParamError(f"{len(measures)} measure names for {g.size} grid values")
    if v.shape != (g.size, t.size):
        raise ParamError(
            f"values must have shape (grid, pairs) = ({g.size}, {t.size}); got {v.shape}"
        )
    keep = np.isfinite(t) & np.isfinite(v).all(axis=0)
    if max_residual is not None:
        if residual is None:
            raise ParamError("max_residual needs the target's residuals")
        r = as_array("residual", residual)
        if r.size != t.size:
            raise ParamError(f"{r.size} residuals for {t.size} pairs")
        if not np.isfinite(r).any():
            raise ParamError(
                f"{target_name} has no residuals, so pairs cannot be filtered by residual"
            )
        keep &= r <= max_residual
    n = int(keep.sum())
    if n < 3:
        raise ParamError(f"only {n} (system, topic) pairs remain; need at least 3 to correlate")
    tk, vk = t[keep], v[:, keep]
    G = g.size
    pr, pp, sr, sp = (np.full(G, np.nan) for _ in range(4))
    for i in range(G):  # one correlation per grid value
        a = pearson(tk, vk[i])
        b = spearman(tk, vk[i])
        pr[i], pp[i], sr[i], sp[i] = a.value, a.p_value, b.value, b.p_value
    names = list(measures) if measures is not None else [f"{parameter}={x:g}" for x in g]
    return FitResult(target_name, parameter, g, names, pr, pp, sr, sp, n, int(t.size), max_residual)


def fit_runs(
    qrels: Qrels | str | Path | Any,
    runs: Sequence[Run | str | Path] | Any,
    target: str | Measure,
    metric: str,
    *,
    max_residual: float | None = None,
    gain: str = "auto",
    order: str = "score",
    topics: str = "both",
    jobs: int | None = 1,
    progress: bool | None = False,
) -> FitResult:
    """Evaluate ``runs`` with ``target`` and the grid ``metric`` and fit
    (see :func:`fit_parameter`).

    The target (with its residual when ``max_residual`` is given) and every grid measure
    are one evaluation of each run (:meth:`cwlkit.Evaluator.evaluate_many`: ``jobs``
    processes, ``None`` every core; the same values for any number). C/W/L metrics use
    ``gain`` (``identity``, ``linear``, ``exp``, ``err`` or a table, as
    ``cwlkit cwl --gain``); other measures use their own gains. The residual of a C/W/L
    target is its ``ResEU``; other measures need a ``residual(batch)`` method.

    ``qrels`` and ``runs`` take every form :func:`cwlkit.evaluate` takes (paths, ``.gz``,
    pandas, polars and pyarrow tables, pytrec_eval dicts, ir_measures records, Qrels and Run
    objects); ``runs`` is a list or a mapping ``{name: run}`` of them.
    """
    from ..api import Evaluator
    from ..measures.parse import parse_measure
    from .runs import check_evaluation, check_runs

    if not isinstance(target, str) and not hasattr(target, "name"):
        raise refuse("target", "a measure name, e.g. 'ERR@20'", target)
    tm = parse_measure(target)
    grid_ms, param, grid = parse_grid(metric)
    max_residual = check_number("max_residual", max_residual, none=True)
    opts = {"gain": gain, "order": order, "topics": topics}
    jobs = check_evaluation(opts, jobs, progress)
    items = check_runs(runs)
    # the target first, then the grid's measures (a grid value equal to the target is
    # evaluated once: its row serves both)
    names = [tm.name] + [m.name for m in grid_ms]
    unique = [tm] + [m for m in grid_ms if m.name != tm.name]
    rows = [[u.name for u in unique].index(n) for n in names]
    ev = Evaluator(qrels, unique, residuals=max_residual is not None, **opts)
    if len({n for n, _ in items}) != len(items):  # (the same run twice: one name each)
        items = [(f"{i}:{n}", r) for i, (n, r) in enumerate(items)]
    scored = ev.evaluate_many(dict(items), jobs=jobs, progress=progress)
    tv, tr, mv = [], [], []
    for r in scored.values():
        tv.append(r.values[0])
        nan = np.full(r.values.shape[1], np.nan)
        tr.append(r.columns["ResEU"][0] if max_residual is not None else nan)
        mv.append(r.values[rows[1:]])
    t = np.concatenate(tv)
    res = np.concatenate(tr)
    vals = np.concatenate(mv, axis=1)
    if max_residual is not None and not np.isfinite(res).any():
        raise ParamError(f"{tm.name} has no residual, so --max-residual cannot filter on it")
    out = fit_parameter(
        t,
        vals,
        grid,
        residual=res,
        max_residual=max_residual,
        parameter=param,
        measures=[m.name for m in grid_ms],
        target_name=tm.name,
    )
    out.extra.update(runs=len(items), gain=gain)
    return out


def plot_fit(result: FitResult, path: str | Path, *, title: str | None = None) -> None:
    """Plot Pearson's r and Spearman's rho against the parameter (the ERR paper's Figure 5),
    marking each maximum, and save the figure to ``path`` (format from its extension).

    Needs matplotlib (``pip install 'cwlkit[plot]'``); it is imported here only.
    """
    if not isinstance(result, FitResult):
        raise refuse("result", "a FitResult", result)
    if not isinstance(path, (str, Path)) or not str(path):
        raise refuse("path", "a file path", path)
    try:
        import matplotlib

        matplotlib.use("Agg", force=False)
        import matplotlib.pyplot as plt
    except ImportError:
        raise CwlkitError("plotting needs matplotlib: pip install 'cwlkit[plot]'") from None
    fig, ax = plt.subplots(figsize=(6.0, 4.0))
    try:
        ax.plot(result.grid, result.pearson, "-", color="tab:blue", label="Pearson's r")
        ax.plot(result.grid, result.spearman, "--", color="tab:red", label="Spearman's rho")
        mid = (float(result.grid[0]) + float(result.grid[-1])) / 2.0
        for best, color, dy in (
            (result.best_pearson, "tab:blue", 6),
            (result.best_spearman, "tab:red", -12),
        ):
            if best is not None:
                right = best[0] > mid  # label on the inner side of the marker
                ax.plot([best[0]], [best[1]], "o", color=color)
                ax.annotate(
                    f"{result.parameter}={best[0]:g}: {best[1]:.3f}",
                    (best[0], best[1]),
                    textcoords="offset points",
                    xytext=(-6 if right else 6, dy),
                    ha="right" if right else "left",
                    fontsize=8,
                    color=color,
                )
        ax.set_xlabel(result.parameter)
        ax.set_ylabel(f"correlation with {result.target}")
        family = re.sub(r"\(.*\)|@.*$", "", result.measures[0]) if result.measures else ""
        ax.set_title(title or f"{family} vs {result.target} ({result.n_pairs} system-topic pairs)")
        ax.grid(True, alpha=0.3)
        ax.legend(loc="best")
        fig.tight_layout()
        try:
            fig.savefig(str(path))
        except (OSError, ValueError) as exc:
            raise CwlkitError(f"{path}: cannot write the plot ({exc})") from None
    finally:
        plt.close(fig)
