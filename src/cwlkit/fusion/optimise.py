"""``cwlkit.optimize_fusion``: tune a fusion method's weights and parameters for a measure,
with k-fold cross-validation over topics so that the score reported is on held-out topics.

Every configuration of the grid is fused and evaluated once on every topic (a matrix of
configurations by topics); each fold then picks the configuration with the best mean on its
training topics and scores it on its held-out topics. The methods that learn per-rank
probabilities (``posfuse``, ``probfuse``, ``segfuse``, ``slidefuse``, ``bayesfuse``,
``mapfuse``) learn them in each fold from the fold's training topics only.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..errors import ParamError
from ..io.inputs import as_qrels
from ..support.checks import check_int, check_number, check_seed, refuse
from .fuse import check_params, fused_scores, prepare, resolve_norm, to_run, train
from .layout import Aligned
from .methods import Method, method_of

__all__ = ["FusionOptimisation", "optimize_fusion"]

#: the values tried for each scalar parameter (``grid=`` replaces them)
GRIDS: dict[str, list[float]] = {
    "k": [1, 5, 10, 20, 40, 60, 80, 100],
    "phi": [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 0.95],
    "gamma": [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0],
    "sigma": [0.001, 0.01, 0.05, 0.1, 0.5, 1.0],
    "w": [1, 2, 3, 4, 5, 10],
    "n_segments": [2, 5, 10, 20, 25, 50],
}
_MAX_CONFIGS = 20_000


@dataclass
class FusionOptimisation:
    """What :func:`optimize_fusion` found.

    Attributes
    ----------
    method, norm, measure : str
    params : dict
        The best configuration on all topics (what to fuse the test runs with).
    in_sample : float
        Its mean score on all topics: the score ranx's ``optimize_fusion`` reports, which
        tuned and scored on the same topics (optimistic).
    held_out : float
        The cross-validated score: each topic scored by the configuration chosen on the
        other folds' topics, the mean over all topics.
    folds : list of dict
        Per fold: its held-out topics, the configuration chosen on the others, its mean on
        the held-out topics.
    configs : list of dict
        Every configuration tried, and ``scores`` their means on all topics.
    """

    method: str
    norm: str
    measure: str
    params: dict[str, Any]
    in_sample: float
    held_out: float
    folds: list[dict[str, Any]] = field(default_factory=list)
    configs: list[dict[str, Any]] = field(default_factory=list)
    scores: list[float] = field(default_factory=list)

    def __str__(self) -> str:
        shown = {k: (list(v) if isinstance(v, np.ndarray) else v) for k, v in self.params.items()}
        return (
            f"{self.method} (norm {self.norm}) tuned for {self.measure} over "
            f"{len(self.configs)} configurations, {len(self.folds)} folds: "
            f"held-out {self.held_out:.4f}, in-sample {self.in_sample:.4f}, best {shown}"
        )


def _values_of(grid: dict[str, Any], name: str) -> list[Any]:
    """``grid[name]`` as a non-empty list (of lists for ``weights``)."""
    value = grid[name]
    ok = isinstance(value, (list, tuple)) and len(value) > 0
    if ok and name == "weights":
        ok = all(isinstance(w, (list, tuple)) for w in value)
    if not ok:
        what = "lists of weights" if name == "weights" else "values"
        raise refuse(f"grid[{name!r}]", f"a non-empty list of {what}", value)
    return [list(w) for w in value] if name == "weights" else list(value)


def _configs(method: Method, n_runs: int, step: float, grid: dict[str, Any] | None) -> list:
    grids: dict[str, list[Any]] = {}
    for name, _ in method.params:
        grids[name] = _values_of(grid, name) if grid and name in grid else list(GRIDS[name])
    if method.weighted:
        if grid and "weights" in grid:
            grids["weights"] = _values_of(grid, "weights")
        else:
            count = int(math.floor(1.0 / step + 1e-9)) + 1
            if count**n_runs > _MAX_CONFIGS:
                raise ParamError(
                    f"step {step:g} gives {count**n_runs} weight combinations for {n_runs} "
                    f"runs (at most {_MAX_CONFIGS}): take a larger step or give "
                    f"grid={{'weights': [...]}}"
                )
            values = np.round(np.arange(count) * step, 10).tolist()
            grids["weights"] = [list(w) for w in itertools.product(values, repeat=n_runs) if any(w)]
    if grid and not all(isinstance(k, str) for k in grid):
        bad = next(k for k in grid if not isinstance(k, str))
        raise refuse("grid", "a dict of parameter names (str) to lists of values", bad)
    unknown = set(grid or {}) - set(grids)
    if unknown:
        raise ParamError(
            f"grid names {sorted(unknown)[0]!r}, which method {method.name!r} does not take"
        )
    names = list(grids)
    return [dict(zip(names, combo, strict=True)) for combo in itertools.product(*grids.values())]


def _values(
    al: Aligned, scores: np.ndarray, ev: Any, measure: str, depth: int | None
) -> np.ndarray:
    """The measure per topic of ``al`` (NaN for a topic the evaluation does not score)."""
    run = to_run(al, scores, depth, "fused")
    per = ev.evaluate(run).per_topic(measure)
    topics = al.topics.to_pylist()
    return np.array([per.get(t, np.nan) for t in topics], dtype=np.float64)


def optimize_fusion(
    qrels: Any,
    runs: Any,
    method: str = "wsum",
    measure: str = "nDCG@10",
    norm: str | None = "min-max",
    *,
    folds: int = 5,
    seed: int | None = 0,
    step: float = 0.1,
    grid: dict[str, Any] | None = None,
    depth: int | None = None,
) -> FusionOptimisation:
    """Search a fusion method's weights and parameters for the best ``measure``, and say
    how good that choice is on topics it was not chosen on.

    Parameters
    ----------
    qrels : qrels in any form :func:`cwlkit.evaluate` takes
        The judgements of the runs' topics.
    runs : list or dict of runs
        The runs to fuse (as :func:`cwlkit.fuse` takes them).
    method : str
        A :func:`cwlkit.fuse` method.
    measure : str
        Any measure of the registry (``"AP"``, ``"nDCG@10"``, ``"RBP(p=0.8)"``, a C/W/L
        metric...), evaluated by :func:`cwlkit.evaluate`'s rules.
    norm : str or None
        The normalisation (as :func:`cwlkit.fuse`).
    folds : int
        k of the k-fold cross-validation over topics (>= 2, at most the topics scored).
    seed : int or None
        Seed of the topics' shuffle into folds.
    step : float
        The weights' grid: every combination of ``0, step, ..., 1`` per run (not all 0).
    grid : dict, optional
        Values to try instead, per parameter (``{"k": [10, 60]}``,
        ``{"weights": [[1, 0], [0.5, 0.5]]}``); defaults: :data:`GRIDS`.
    depth : int, optional
        Cut the fused runs at ``depth`` before evaluating.

    Returns
    -------
    FusionOptimisation
        ``params`` (best on all topics), ``held_out`` (cross-validated) and ``in_sample``
        scores, per-fold choices, every configuration's mean.

    Raises
    ------
    ParamError
        A bad method, measure, norm, folds, step or grid; more folds than topics scored.
    InputError
        Runs with no topic in common; qrels that share no topic with the runs.

    Examples
    --------
    >>> import cwlkit
    >>> q = {"q1": {"d1": 1}, "q2": {"d4": 1}, "q3": {"d5": 1}}
    >>> a = {"q1": {"d1": 2.0, "d2": 1.0}, "q2": {"d3": 2.0, "d4": 1.0},
    ...      "q3": {"d5": 1.0, "d7": 0.5}}
    >>> b = {"q1": {"d2": 2.0, "d1": 1.0}, "q2": {"d4": 2.0, "d3": 1.0},
    ...      "q3": {"d6": 1.0, "d5": 0.5}}
    >>> opt = cwlkit.optimize_fusion(q, [a, b], "wsum", "AP", folds=3, step=0.5)
    >>> opt.params, opt.in_sample, opt.held_out
    ({'weights': [0.5, 0.0]}, 0.8333333333333334, 0.611111111111111)
    """
    from ..api import Evaluator
    from ..errors import InputError

    m = method_of(method)
    nm = resolve_norm(norm)
    k = check_int("folds", folds, least=2)
    assert k is not None
    s = check_number("step", step, least=0.0, most=1.0, open_low=True)
    assert s is not None
    rng = np.random.default_rng(check_seed("seed", seed))
    if grid is not None and not isinstance(grid, dict):
        raise refuse("grid", "a dict of lists of values per parameter", grid)
    d = check_int("depth", depth, least=1, none=True)
    q = as_qrels(qrels)
    al = prepare(runs, nm)
    ev = Evaluator(q, [measure])
    name = str(ev.measures[0].name) if hasattr(ev.measures[0], "name") else measure
    configs = _configs(m, al.n_runs, s, grid)

    def fuse_with(config: dict[str, Any], learn_on: np.ndarray | None) -> np.ndarray:
        params = dict(config)
        if m.trained:
            sub = al if learn_on is None else al.select_topics(learn_on)
            params[m.trained] = train(m, sub, q, int(params.get("n_segments", 10)))
        checked = check_params(m, al, params, nm)
        return _values(al, fused_scores(m, al, checked), ev, name, d)

    full = np.array([fuse_with(c, None) for c in configs])  # [configs, topics]
    scored = np.flatnonzero(~np.isnan(full).all(axis=0))
    if scored.size == 0:
        raise InputError("the qrels share no topic with the runs: nothing to tune on")
    if k > scored.size:
        raise ParamError(f"folds must be at most the {scored.size} topics scored; got {k}")
    means = np.nanmean(full[:, scored], axis=1)
    best = int(np.argmax(means))
    shuffled = rng.permutation(scored)
    parts = np.array_split(shuffled, k)
    held = np.full(al.n_topics, np.nan)
    fold_info = []
    for part in parts:
        train_topics = np.setdiff1d(scored, part)
        if m.trained:
            learn = np.zeros(al.n_topics, dtype=bool)
            learn[train_topics] = True
            values = np.array([fuse_with(c, learn) for c in configs])
        else:
            values = full
        chosen = int(np.argmax(np.nanmean(values[:, train_topics], axis=1)))
        held[part] = values[chosen, part]
        fold_info.append(
            {
                "topics": [str(al.topics[int(t)]) for t in part],
                "params": configs[chosen],
                "held_out": float(np.nanmean(values[chosen, part])),
            }
        )
    return FusionOptimisation(
        method=m.name,
        norm=nm,
        measure=name,
        params=configs[best],
        in_sample=float(means[best]),
        held_out=float(np.nanmean(held[scored])),
        folds=fold_info,
        configs=configs,
        scores=[float(x) for x in means],
    )
