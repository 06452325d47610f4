"""``cwlkit.fuse``: combine runs into one, by any of ranx's 25 methods."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from itertools import chain
from typing import Any

import numpy as np
import pyarrow as pa

from ..errors import InputError, ParamError
from ..io.inputs import as_qrels, as_run
from ..io.text import from_numpy
from ..io.trec import Run
from ..support import compute as pc
from ..support.checks import check_choice, check_int, check_number, refuse
from . import probabilistic, rank, score, voting
from .layout import Aligned, align, rank_order
from .methods import Method, method_of
from .normalise import NORM_ALIASES, NORMS, normalise

__all__ = ["fuse", "fused_scores", "prepare", "resolve_norm"]


def resolve_norm(norm: object) -> str:
    """The normalisation named ``norm`` (``None`` is ``"none"``; ranx's spellings too)."""
    if norm is None:
        return "none"
    if isinstance(norm, str) and norm.lower() in NORM_ALIASES:
        return NORM_ALIASES[norm.lower()]
    return check_choice("norm", norm.lower() if isinstance(norm, str) else norm, NORMS)


def as_runs(runs: Any, what: str = "runs") -> list[Run]:
    """Every run of ``runs`` (a list or mapping of runs in any form ``evaluate`` takes)."""
    from ..api import named_runs

    if isinstance(runs, Run):
        raise ParamError(f"{what} must be two or more runs; got one Run")
    pairs = named_runs(runs)
    out = []
    for name, r in pairs:
        fast = _from_score_dict(r) if isinstance(r, Mapping) else None
        out.append(fast if fast is not None else as_run(r, name=name))
    return out


def _from_score_dict(d: Mapping) -> Run | None:
    """The topic, document and score columns of a pytrec_eval dict of string document ids
    and finite or infinite scores, converted at C speed (what fusion reads); None for
    anything else, which :func:`~cwlkit.io.inputs.as_run` then reads (and reports). The ids
    and scores are streamed into their arrays, with no list of them in between."""
    inners = list(d.values())
    if not all(isinstance(inner, Mapping) for inner in inners):
        return None
    counts = np.fromiter((len(inner) for inner in inners), dtype=np.int64, count=len(inners))
    n = int(counts.sum())
    try:
        doc_col = pa.array(chain.from_iterable(inners), pa.string(), size=n)
        values = np.fromiter(
            chain.from_iterable(inner.values() for inner in inners), np.float64, count=n
        )
    except (pa.ArrowException, TypeError, ValueError, OverflowError):
        return None
    if len(doc_col) != n or np.isnan(values).any() or doc_col.null_count:
        return None
    if any(not isinstance(q, (str, int)) or isinstance(q, bool) for q in d):
        return None
    names = pa.array([str(q) for q in d], pa.string())
    codes = np.repeat(np.arange(len(counts), dtype=np.int64), counts)
    table = pa.table(
        {"topic": pc.take(names, from_numpy(codes)), "doc": doc_col, "score": from_numpy(values)}
    )
    return Run(table, np.arange(1, n + 1, dtype=np.int64), "<dict>")


def check_weights(weights: Any, n_runs: int, name: str = "weights") -> np.ndarray:
    """One finite weight >= 0 per run, not all 0."""
    if isinstance(weights, (str, bytes, Mapping)) or not isinstance(
        weights, (Sequence, np.ndarray)
    ):
        raise refuse(name, f"a list of {n_runs} numbers >= 0 (one per run)", weights)
    ws = list(np.asarray(weights).ravel()) if isinstance(weights, np.ndarray) else list(weights)
    if len(ws) != n_runs:
        raise ParamError(f"{name} must be {n_runs} numbers (one per run); got {len(ws)}: {ws!r}")
    out = np.array([check_number(f"{name}[{i}]", w, least=0.0) for i, w in enumerate(ws)])
    if not out.any():
        raise refuse(name, "numbers >= 0, not all 0", ws)
    return out


def _trained(value: Any, n_runs: int, name: str) -> list[np.ndarray]:
    try:
        arrays = [np.asarray(v, dtype=np.float64).ravel() for v in value]
    except (TypeError, ValueError):
        raise refuse(name, f"{n_runs} arrays of numbers (one per run)", value) from None
    if len(arrays) != n_runs:
        raise ParamError(f"{name} must be {n_runs} arrays (one per run); got {len(arrays)}")
    if any(not np.isfinite(a).all() for a in arrays):
        raise refuse(name, "arrays of finite numbers", value)
    return arrays


def prepare(runs: Any, norm: str) -> Aligned:
    """The runs read, aligned and normalised."""
    rs = as_runs(runs)
    if len(rs) < 2:
        raise ParamError(f"runs must be two or more runs; got {len(rs)}")
    al = align(rs)
    del rs  # (converted inputs: free them before the next steps)
    return normalise(al, norm)


def train(method: Method, al: Aligned, qrels: Any, n_segments: int) -> Any:
    """The arrays ``method`` learns from training runs ``al`` (aligned, normalised) and
    ``qrels``."""
    h = probabilistic.hits_of(al, as_qrels(qrels))
    if h.n_topics == 0:
        raise InputError("the training qrels share no topic with the training runs")
    if method.name in ("posfuse", "slidefuse"):
        return probabilistic.train_positions(h)
    if method.name == "probfuse":
        return probabilistic.train_probfuse(h, n_segments)
    if method.name == "segfuse":
        return probabilistic.train_segfuse(h)
    if method.name == "bayesfuse":
        return probabilistic.train_bayesfuse(h)
    return probabilistic.train_mapfuse(h)


def fused_scores(method: Method, al: Aligned, params: dict[str, Any]) -> np.ndarray:
    """The fused score of every cell of ``al`` (parameters checked).

    Raises
    ------
    InputError
        A fused score that is not a number: infinite scores (left so by ``norm='none'``)
        of both signs for one document, or one weighted 0.
    """
    with np.errstate(invalid="ignore", over="ignore"):
        out = _method_scores(method, al, params)
    if np.isnan(out).any():
        cell = int(np.flatnonzero(np.isnan(out))[0])
        raise InputError(
            f"the {method.name!r} score of document "
            f"{al.docs[int(al.cell_doc[cell])].as_py()!r} for topic "
            f"{al.topics[int(al.cell_topic[cell])].as_py()!r} is not a number (infinite "
            f"scores of both signs, or one weighted 0): normalise the scores (norm='min-max' "
            f"needs them finite; 'rank' or 'borda' ranks them)"
        )
    return out


def _method_scores(method: Method, al: Aligned, params: dict[str, Any]) -> np.ndarray:
    m, p = method.name, params
    simple = {
        "sum": score.comb_sum,
        "mnz": score.comb_mnz,
        "anz": score.comb_anz,
        "max": score.comb_max,
        "min": score.comb_min,
        "med": score.comb_med,
        "isr": rank.isr,
        "log_isr": rank.log_isr,
        "bordafuse": rank.bordafuse,
        "condorcet": voting.condorcet,
    }
    if m in simple:
        return simple[m](al)
    if m == "wsum":
        return score.wsum(al, p["weights"])
    if m == "wmnz":
        return score.wmnz(al, p["weights"])
    if m == "mixed":
        return score.mixed(al, p["weights"])
    if m == "w_bordafuse":
        return rank.w_bordafuse(al, p["weights"])
    if m == "w_condorcet":
        return voting.condorcet(al, p["weights"])
    if m == "gmnz":
        return score.comb_gmnz(al, p["gamma"])
    if m == "logn_isr":
        return rank.logn_isr(al, p["sigma"])
    if m == "rrf":
        return rank.rrf(al, p["k"])
    if m == "rbc":
        return rank.rbc(al, p["phi"])
    if m == "posfuse":
        return probabilistic.posfuse(al, p["probs"])
    if m == "probfuse":
        return probabilistic.probfuse(al, p["probs"])
    if m == "segfuse":
        return probabilistic.segfuse(al, p["probs"])
    if m == "slidefuse":
        return probabilistic.slidefuse(al, p["probs"], p["w"])
    if m == "bayesfuse":
        return probabilistic.bayesfuse(al, p["log_odds"])
    return probabilistic.mapfuse(al, p["map_scores"])


_SCALARS = {
    "gamma": lambda v: check_number("gamma", v),
    "sigma": lambda v: check_number("sigma", v, least=0.0, most=1.0),
    "k": lambda v: check_number("k", v, least=0.0),
    "phi": lambda v: check_number("phi", v, least=0.0, most=1.0, open_low=True, open_high=True),
    "w": lambda v: check_int("w", v, least=0, most=100_000),  # (a window of ranks)
    "n_segments": lambda v: check_int("n_segments", v, least=1),
}


def check_params(method: Method, al: Aligned, params: dict[str, Any], norm: str) -> dict[str, Any]:
    """``params`` checked and completed with defaults (training done here)."""
    known = {name for name, _ in method.params}
    if method.weighted:
        known.add("weights")
    if method.trained:
        known |= {method.trained, "train_qrels", "train_runs"}
    unknown = sorted(set(params) - known)
    if unknown:
        takes = ", ".join(sorted(known)) or "no parameter"
        raise ParamError(f"method {method.name!r} takes {takes}; got {unknown[0]!r}")
    out: dict[str, Any] = {}
    for name, default in method.params:
        out[name] = _SCALARS[name](params.get(name, default))
    if method.weighted:
        w = params.get("weights")
        out["weights"] = np.ones(al.n_runs) if w is None else check_weights(w, al.n_runs)
    if method.trained:
        given = params.get(method.trained)
        if given is not None:
            if method.trained == "map_scores":
                out["map_scores"] = check_weights(given, al.n_runs, "map_scores")
            else:
                out[method.trained] = _trained(given, al.n_runs, method.trained)
        else:
            qrels = params.get("train_qrels")
            if qrels is None:
                raise ParamError(
                    f"method {method.name!r} learns from judged topics: give train_qrels "
                    f"(and train_runs, the same systems on the training topics; default: "
                    f"the runs fused) or {method.trained}"
                )
            train_runs = params.get("train_runs")
            tal = al if train_runs is None else prepare(train_runs, norm)
            if tal.n_runs != al.n_runs:
                raise ParamError(
                    f"train_runs must be {al.n_runs} runs (one per run fused); got {tal.n_runs}"
                )
            got = train(method, tal, qrels, int(out.get("n_segments", 10)))
            out[method.trained] = got
    return out


def to_run(al: Aligned, scores: np.ndarray, depth: int | None, tag: str) -> Run:
    """The fused run: per topic, cells by decreasing score (ties by decreasing document id),
    the first ``depth``."""
    order = rank_order(al.cell_topic, scores, al.cell_doc, sort_groups=True)
    if order is None:
        order = np.arange(scores.size, dtype=np.int64)
    topic = al.cell_topic[order]
    starts = np.flatnonzero(np.concatenate(([True], topic[1:] != topic[:-1])))
    sizes = np.diff(np.append(starts, topic.size))
    pos = np.arange(topic.size, dtype=np.int64) - np.repeat(starts, sizes)
    if depth is not None:
        keep = pos < depth
        order, pos = order[keep], pos[keep]
    s = scores[order]
    n = order.size
    table = pa.table(
        {
            "topic": pc.take(al.topics, from_numpy(al.cell_topic[order])),
            "q0": _const("Q0", n),
            "doc": pc.take(al.docs, from_numpy(al.cell_doc[order])),
            "rank": pc.cast(from_numpy(pos + 1), pa.string()),
            "score_text": pc.cast(from_numpy(s), pa.string()),
            "tag": _const(tag, n),
            "score": from_numpy(s),
        }
    )
    return Run(table, np.arange(1, n + 1, dtype=np.int64), f"<{tag}>")


def _const(text: str, n: int) -> pa.Array:
    return pa.DictionaryArray.from_arrays(
        from_numpy(np.zeros(n, dtype=np.int8)), pa.array([text], pa.string())
    )


def fuse(
    runs: Any,
    method: str = "wsum",
    norm: str | None = "min-max",
    *,
    depth: int | None = None,
    tag: str | None = None,
    **params: Any,
) -> Run:
    """Combine runs into one, as ranx's ``fuse`` does (the same documents and scores).

    Parameters
    ----------
    runs : list or dict of runs
        Two or more runs, each in any form :func:`cwlkit.evaluate` takes (file names,
        pytrec_eval dicts, data frames, :class:`~cwlkit.io.trec.Run`...); a dict names them.
        Their topics are fused together (a run without a topic retrieved nothing for it);
        they must share at least one.
    method : str
        One of ranx's 25 names (``sum``, ``mnz``, ``anz``, ``gmnz``, ``max``, ``min``,
        ``med``, ``wsum``, ``wmnz``, ``mixed``, ``isr``, ``log_isr``, ``logn_isr``, ``rrf``,
        ``rbc``, ``bordafuse``, ``w_bordafuse``, ``condorcet``, ``w_condorcet``,
        ``posfuse``, ``probfuse``, ``segfuse``, ``slidefuse``, ``bayesfuse``, ``mapfuse``)
        or readable ones (``CombSUM``, ``CombMNZ``, ``RRF``, ``BordaFuse``...; any case).
        docs/fusion.md gives every formula and paper.
    norm : str or None
        Each run's scores per topic are first normalised: ``min-max`` (default, as ranx),
        ``min-max-inverted``, ``max``, ``sum``, ``zmuv``, ``rank``, ``borda`` or
        ``none`` (None).
    depth : int, optional
        Keep the first ``depth`` documents of each topic of the fused run.
    tag : str, optional
        The fused run's tag (default: the method's name).
    **params
        The method's: ``weights`` (one number >= 0 per run; default all 1) for ``wsum``,
        ``wmnz``, ``mixed``, ``w_bordafuse``, ``w_condorcet``; ``k`` (60) for ``rrf``;
        ``phi`` (0.8) for ``rbc``; ``gamma`` (1) for ``gmnz``; ``sigma`` (0.01) for
        ``logn_isr``; ``w`` (1) for ``slidefuse``; ``n_segments`` (10) for ``probfuse``.
        The probabilistic methods learn from judged topics: ``train_qrels`` and
        ``train_runs`` (the same systems on the training topics, in the same order;
        default: the runs being fused, which is training on the test topics), or what they
        learn, given directly: ``probs`` (``posfuse``, ``probfuse``, ``segfuse``,
        ``slidefuse``), ``log_odds`` (``bayesfuse``), ``map_scores`` (``mapfuse``).

    Returns
    -------
    Run
        Per topic, the documents by decreasing fused score (ties by decreasing document
        id), ranks from 1: ``.to_dict()`` gives the pytrec_eval dict, ``.write(path)`` a TREC
        run file, and :func:`cwlkit.evaluate`, ``compare`` and ``report`` take it.

    Raises
    ------
    ParamError
        An unknown method or normalisation (with the closest suggested), fewer than two
        runs, weights that are not one finite number >= 0 per run, a parameter the method
        does not take or out of its range, a trained method without training data.
    InputError
        Runs with no topic in common; training qrels that share no topic with the
        training runs.

    Examples
    --------
    >>> import cwlkit
    >>> a = {"q1": {"d1": 3.0, "d2": 2.0, "d3": 1.0}}
    >>> b = {"q1": {"d3": 9.0, "d1": 8.0}}
    >>> cwlkit.fuse([a, b], "rrf").to_dict()
    {'q1': {'d1': 0.03252247488101534, 'd3': 0.032266458495966696, 'd2': 0.016129032258064516}}
    """
    m = method_of(method)
    nm = resolve_norm(norm)
    d = check_int("depth", depth, least=1, none=True)
    if tag is not None and not isinstance(tag, str):
        raise refuse("tag", "a string", tag)
    al = prepare(runs, nm)
    p = check_params(m, al, params, nm)
    scores = fused_scores(m, al, p)
    return to_run(al, scores, d, tag or m.name)
