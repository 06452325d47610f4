"""Simulated judging: how well a pooling strategy's first judgements rank the systems.

With complete qrels as the oracle, :func:`simulate_judging` judges each topic's documents in
the strategy's order (:func:`cwlkit.pool` with every document, then the first ``n`` of each
topic for each budget ``n``), scores every run on those judgements alone and compares the
system ranking with the one under the complete qrels.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, cast

import numpy as np

from ..errors import ParamError
from ..support.checks import check_choice, check_int, check_probability, refuse

#: the :func:`cwlkit.pool` parameters :func:`simulate_judging` passes on (the budgets set
#: ``depth``; ``qrels`` is the oracle; ``pool_measure`` is residual's ``measure``)
POOL_PARAMS = ("aggregate", "gain", "k", "order", "p", "pool_depth", "rel")


@dataclass
class Simulation:
    """The outcome of :func:`simulate_judging`.

    Attributes
    ----------
    strategy, measure : str
    records : list of dict
        One row per budget: ``budget`` (documents a topic), ``judged`` (documents judged in
        all), ``tau`` (Kendall's tau-b of the runs' means against those under the complete
        qrels), ``tau_ap`` (the complete qrels' order as the truth), ``max_residual`` and
        ``mean_residual`` (over the runs, of each run's mean C/W/L residual ``ResEU``; NaN
        for other measures) and ``changed`` (the runs whose paired t-test against the best
        run, p < ``alpha``, changes its verdict).
    pools : dict of int to Pool
        The documents judged at each budget (``residual``: judged in rounds, one per budget,
        each given the judgements of the rounds before).
    """

    strategy: str
    measure: str
    records: list[dict[str, Any]] = field(default_factory=list)
    pools: dict[int, Any] = field(default_factory=dict)

    def to_records(self) -> list[dict[str, Any]]:
        return [dict(r) for r in self.records]

    def plot(self, ax: Any = None, label: str | None = None) -> Any:
        """Tau against the judgements used (matplotlib); returns the axes (of a new Figure,
        without pyplot, when ``ax`` is None)."""
        if ax is None:
            from ..plot.figures import figure

            ax = figure(5.0, 3.5)[1][0, 0]
        x = [r["judged"] for r in self.records]
        ax.plot(x, [r["tau"] for r in self.records], marker="o", label=label or self.strategy)
        ax.set_xlabel("documents judged")
        ax.set_ylabel(f"Kendall's tau ({self.measure})")
        ax.grid(alpha=0.3)
        return ax


def _labels(qrels: Any) -> dict[tuple[str, str], float]:
    t = qrels.table
    return dict(
        zip(
            zip(t.column("topic").to_pylist(), t.column("doc").to_pylist(), strict=True),
            t.column("label").to_pylist(),
            strict=True,
        )
    )


def plot_simulations(sims: Sequence[Simulation], path: str) -> None:
    """Draw each simulation's tau against the judgements used on one axes, and write the
    figure to ``path`` (.png or .svg; a CwlkitError for another suffix or an unwritable
    path, or when matplotlib is missing, or ``sims`` that are not Simulations)."""
    from ..plot.figures import check_path, figure, save

    check_path(path)
    if isinstance(sims, Simulation):
        sims = [sims]
    if not isinstance(sims, Iterable) or not all(isinstance(x, Simulation) for x in sims):
        raise refuse("sims", "a list of Simulations (simulate_judging's)", sims)
    fig, axes = figure(5.0, 3.5)
    for sim in sims:
        sim.plot(ax=axes[0, 0])
    axes[0, 0].legend()
    save(fig, path, dpi=120)


def simulate_judging(
    qrels: Any,
    runs: Any,
    strategy: str = "depth",
    measure: str = "RBP(p=0.8)",
    budgets: Sequence[int] = (1, 2, 5, 10, 20, 50, 100),
    *,
    alpha: float = 0.05,
    pool_measure: Any = None,
    **params: Any,
) -> Simulation:
    """Judge in ``strategy``'s order with ``qrels`` as the oracle; for each budget, how the
    system ranking under ``measure`` compares with the complete qrels'.

    Parameters
    ----------
    qrels : qrels
        The complete judgements (the oracle), in any form :func:`cwlkit.as_qrels` reads. A
        pooled document they do not hold is judged not relevant (label 0), as trec_eval
        reads it.
    runs : sequence or mapping of runs
        At least two, each in any form :func:`cwlkit.as_run` reads (a mapping's keys name
        them in ``changed``; else file names, or ``run1``, ``run2``...).
    strategy : str
        A :func:`cwlkit.pool` strategy; ``params`` are its parameters (``p``,
        ``aggregate``, ``k``, ``order``, ``gain``, ``pool_depth``, ``rel``; not ``depth``
        or ``budget``: the budgets set them). For ``depth`` the order is by best rank.
        ``maxmean`` and ``mtf`` judge with ``qrels`` as their oracle (their order does not
        depend on the budget, so each budget judges a prefix of it).
    measure : str
        The measure the systems are ranked by.
    budgets : sequence of int
        Documents judged a topic: a non-empty list of integers >= 0.
    alpha : float
        The significance level of the paired t-tests against the best run, in (0, 1).
    pool_measure : str, optional
        ``residual``: the C/W/L metric whose residual guides the pool (default ``measure``).

    Returns
    -------
    Simulation
    """
    from ..io.inputs import as_qrels
    from ..io.trec import Qrels
    from .pool import STRATEGIES, check_measure, named_run_list

    strategy = check_choice("strategy", strategy, STRATEGIES)
    alpha = cast(float, check_probability("alpha", alpha))
    check_measure("pool_measure", pool_measure, none=True)
    budgets = _check_budgets(budgets)
    for key in params:
        if key in ("depth", "budget"):
            raise ParamError(f"the budgets set the pools' sizes: give budgets=, not {key}=")
        check_choice("a pool parameter", key, POOL_PARAMS)
    named = named_run_list(runs)
    if len(named) < 2:
        raise ParamError("simulated judging ranks systems: give at least two runs")
    names = [n for n, _ in named]
    items = [r for _, r in named]
    q = as_qrels(qrels)
    full = _scores(q, measure, items)
    best = int(np.argmax(full.means))
    sig_full = _significant(full.per, best, alpha)
    labels = _labels(q)
    kw = dict(params)
    if strategy == "residual":
        kw["measure"] = pool_measure if pool_measure is not None else measure
    if strategy in ("maxmean", "mtf"):
        kw["qrels"] = q  # the bandits judge as they go, with the complete qrels as oracle
    judged_at = _judging_order(strategy, items, kw, budgets, labels)
    out = Simulation(strategy, full.name)
    for b in budgets:
        pl = out.pools[int(b)] = judged_at(int(b))
        recs = _judged(pl, labels)
        got = _scores(Qrels.from_records(recs), measure, items) if recs else full.zero()
        moved = _significant(got.per, best, alpha) != sig_full
        changed = [names[i] for i in np.flatnonzero(moved)] if got.same(full) else []
        out.records.append(_record(int(b), len(pl), full.means, got, changed))
    return out


@dataclass
class _Scored:
    """The runs under the measure: ``means`` [runs], ``per`` [runs, topics] and each run's
    mean residual ``resid`` [runs] (NaN when the measure has none)."""

    name: str
    means: np.ndarray
    per: np.ndarray
    resid: np.ndarray

    def zero(self) -> _Scored:
        """The scores of no judgement at all: 0 everywhere, no residual."""
        nan = np.full(self.means.size, math.nan)
        return _Scored(self.name, np.zeros(self.means.size), np.zeros_like(self.per), nan)

    def same(self, other: _Scored) -> bool:
        """Whether both hold the same topics (so that their paired tests compare)."""
        return self.per.shape == other.per.shape


def _scores(qrels: Any, measure: str, items: list) -> _Scored:
    """Every run scored under ``measure`` with ``qrels`` (one Evaluator, residuals on)."""
    from ..api import Evaluator

    names = [f"run{i}" for i in range(len(items))]
    res = Evaluator(qrels, [measure], residuals=True).evaluate_many(
        dict(zip(names, items, strict=True))
    )
    mname = res[names[0]].measures[0]
    resid = np.full(len(names), math.nan)
    if "ResEU" in res[names[0]].columns:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)  # a run of no topic
            resid = np.array([np.nanmean(res[n].columns["ResEU"][0]) for n in names])
    return _Scored(
        str(mname),
        np.array([res[n].mean()[mname] for n in names]),
        np.vstack([res[n].values[0] for n in names]),
        resid,
    )


def _significant(per: np.ndarray, best: int, alpha: float) -> np.ndarray:
    """bool[runs]: each run's paired t-test against run ``best`` has p < ``alpha``."""
    from scipy import stats

    with np.errstate(all="ignore"):
        pv = [
            1.0 if i == best else float(stats.ttest_rel(per[best], per[i]).pvalue)
            for i in range(per.shape[0])
        ]
    return np.array(pv) < alpha


def _judging_order(
    strategy: str, items: list, kw: dict, budgets: Sequence[int], labels: dict
) -> Callable[[int], Any]:
    """budget -> the Pool judged with that many documents a topic: the strategy's order
    taken once and cut (``depth``: by best rank), or residual pooling in rounds."""
    from .pool import pool

    if strategy == "residual":  # in rounds: W follows the gains judged so far
        return _residual_rounds(items, kw, budgets, labels).__getitem__
    if strategy == "depth":
        whole = pool(items, "depth", **{**kw, "depth": 10**9})  # every document, by best rank
    else:
        whole = pool(items, strategy, depth=10**9, **kw)
    return whole.head


def _record(budget: int, judged: int, truth: np.ndarray, got: _Scored, changed: list) -> dict:
    """One row of :attr:`Simulation.records`."""
    from ..stats.correlate import kendall_tau_b, tau_ap_correlation

    finite = np.isfinite(got.resid).any()
    return {
        "budget": budget,
        "judged": judged,
        "tau": kendall_tau_b(truth, got.means).value,
        "tau_ap": tau_ap_correlation(
            truth, got.means, ties="a" if np.unique(truth).size == truth.size else "b"
        ).value,
        "max_residual": float(np.nanmax(got.resid)) if finite else math.nan,
        "mean_residual": float(np.nanmean(got.resid)) if finite else math.nan,
        "changed": changed,
    }


def _judged(pl: Any, labels: dict) -> list[tuple[str, str, float]]:
    """The oracle's label of each pooled (topic, document); 0 for one it does not hold."""
    return [
        (t, d, float(labels.get((t, d), 0.0)))
        for t, d in zip(pl.topics.tolist(), pl.docs.tolist(), strict=True)
    ]


def _residual_rounds(items: list, kw: dict, budgets: Sequence[int], labels: dict) -> dict[int, Any]:
    """Residual pooling in rounds, one per budget (ascending): each round pools the next
    ``budget - previous`` documents a topic given the judgements of the rounds before
    (judged documents skipped, W computed with their gains: an adaptive metric such as INST
    re-weighs its ranks), so the pool of a budget holds every earlier round's.

    Returns ``{budget: Pool}`` (the union of the rounds up to it; each topic's documents in
    the order they were judged)."""
    from ..io.trec import Qrels
    from .pool import Pool, pool

    out: dict[int, Any] = {}
    got = Pool(np.zeros(0, dtype=object), np.zeros(0, dtype=object), np.zeros(0), "residual")
    done = 0
    for b in sorted({int(x) for x in budgets}):
        if b > done:
            known = Qrels.from_records(_judged(got, labels)) if len(got) else None
            step = pool(items, "residual", depth=b - done, qrels=known, **kw)
            got = _union(got, step)
            done = b
        out[b] = got
    return out


def _union(a: Any, b: Any) -> Any:
    """``a``'s pairs then ``b``'s, grouped by topic (string order), each topic's in order."""
    from .pool import Pool

    t = np.concatenate([a.topics, b.topics])
    order = np.argsort(t.astype(str), kind="stable")
    return Pool(
        t[order],
        np.concatenate([a.docs, b.docs])[order],
        np.concatenate([a.priority, b.priority])[order],
        "residual",
        dict(b.params),
    )


def _check_budgets(budgets: Any) -> list[int]:
    """``budgets`` as a non-empty list of integers >= 0; :class:`ParamError` otherwise."""
    expected = "a non-empty list of integers >= 0"
    if isinstance(budgets, str | bytes | Mapping) or not isinstance(budgets, Iterable):
        raise refuse("budgets", expected, budgets)
    out = [check_int(f"budgets[{i}]", b, least=0) for i, b in enumerate(budgets)]
    if not out:
        raise refuse("budgets", expected, budgets)
    return [int(b) for b in out if b is not None]
