"""Leave-one-group-out reusability (Zobel 1998; Buckley, Dimmick, Soboroff and Voorhees 2007).

A test collection is reusable if a system that did not contribute to its pool is scored as
fairly as one that did. The standard check: for each group of runs (a participant's runs),
rebuild the depth-k pool without the group's runs, keep only the judgements of the documents
the other groups pooled, score the group's runs on those reduced judgements and see how far
their scores and ranks move.
"""

from __future__ import annotations

import math
import os
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from ..errors import InputError, ParamError
from ..support.checks import check_choice, check_int, refuse

#: the measures always reported next to the one asked for
COMPANIONS = ("Bpref", "infAP")


@dataclass
class Reusability:
    """The outcome of :func:`reusability`.

    Attributes
    ----------
    depth : int
        The pool depth.
    measures : list of str
        The measure asked for, then bpref and infAP (canonical names).
    groups : dict of str to list of str
        ``{group: [run names]}``.
    records : list of dict
        One row per (left-out run, measure), see :func:`reusability`.
    """

    depth: int
    measures: list[str]
    groups: dict[str, list[str]]
    records: list[dict[str, Any]] = field(default_factory=list)

    def to_records(self) -> list[dict[str, Any]]:
        """The rows as new dictionaries."""
        return [dict(r) for r in self.records]

    def summary(self) -> list[dict[str, Any]]:
        """Per measure: the mean and largest absolute change in score, the mean and largest
        absolute change in rank, over the left-out runs."""
        out = []
        for m in self.measures:
            rows = [r for r in self.records if r["measure"] == m]
            d = np.array([r["delta"] for r in rows], dtype=np.float64)
            k = np.array([r["rank_change"] for r in rows], dtype=np.float64)
            out.append(
                {
                    "measure": m,
                    "runs": len(rows),
                    "mean_abs_delta": float(np.abs(d).mean()) if d.size else math.nan,
                    "max_abs_delta": float(np.abs(d).max()) if d.size else math.nan,
                    "mean_abs_rank_change": float(np.abs(k).mean()) if k.size else math.nan,
                    "max_abs_rank_change": int(np.abs(k).max()) if k.size else 0,
                }
            )
        return out


def read_groups(path: str | os.PathLike[str]) -> dict[str, str]:
    """A grouping file: lines ``run group`` (the run as named in the results: its file name,
    or the path as given); blank lines and lines starting with ``#`` are skipped."""
    out: dict[str, str] = {}
    try:
        with open(path, encoding="utf-8") as fh:
            lines = fh.readlines()
    except (OSError, UnicodeError) as exc:
        what = getattr(exc, "strerror", None) or type(exc).__name__
        raise InputError(f"{os.fspath(path)!s}: cannot read the groups file: {what}") from None
    for i, line in enumerate(lines, 1):
        parts = line.split()
        if not parts or parts[0].startswith("#"):
            continue
        if len(parts) != 2:
            raise ParamError(f"{path}:{i}: expected 'run group', got {line.strip()!r}")
        out[parts[0]] = parts[1]
    return out


def tag_prefix(tag: str, length: int | None = None) -> str:
    """The group a run tag belongs to: its first ``length`` characters, or (by default) its
    leading letters (``ICTNET12ADR1`` -> ``ICTNET``; a tag starting with no letter is its own
    group)."""
    if length is not None:
        return tag[:length]
    m = re.match(r"[A-Za-z]+", tag)
    return m.group(0) if m else tag


def _groups(names: list[str], paths: list[str | None], tags: list[str], group_by: Any) -> list[str]:
    if isinstance(group_by, str) and (
        group_by == "tag-prefix" or group_by.startswith("tag-prefix:")
    ):
        length = None
        if ":" in group_by:
            n = group_by.split(":", 1)[1]
            if not (n.isascii() and n.isdigit()) or int(n) < 1:
                raise refuse("the N of group_by 'tag-prefix:N'", "an integer >= 1", group_by)
            length = int(n)
        return [tag_prefix(t, length) for t in tags]
    if isinstance(group_by, str) and group_by.startswith("regex:"):
        try:
            pat = re.compile(group_by[len("regex:") :])
        except re.error as exc:
            raise ParamError(f"group_by {group_by!r}: not a regular expression: {exc}") from None
        out_re = []
        for name in names:
            m = pat.search(name)
            if m is None:
                raise ParamError(f"group_by {group_by!r} does not match run {name!r}")
            out_re.append(next((g for g in m.groups() if g is not None), m.group(0)))
        return out_re
    if isinstance(group_by, str | os.PathLike):
        group_by = read_groups(group_by)
    if not isinstance(group_by, Mapping):
        raise ParamError(
            "group_by is 'tag-prefix', 'tag-prefix:N', 'regex:PATTERN', a mapping {run: group} "
            "or a file of "
            f"'run group' lines; got {type(group_by).__name__}"
        )
    out = []
    for name, path in zip(names, paths, strict=True):
        for key in (name, path, os.path.basename(path) if path else None):
            if key is not None and key in group_by:
                out.append(str(group_by[key]))
                break
        else:
            raise ParamError(f"no group for run {name!r} in group_by")
    return out


def _restrict(qtab: pa.Table, pairs: pa.Table) -> pa.Table:
    """The qrels rows whose (topic, document) is in ``pairs``."""
    j = qtab.join(pairs, keys=["topic", "doc"], join_type="left semi", use_threads=False)
    return j.sort_by([("topic", "ascending"), ("doc", "ascending")])


def _means(res: Any, topics: Sequence[str], residual: bool) -> tuple[np.ndarray, np.ndarray]:
    """Each measure's mean over ``topics`` (0 where the results lack the topic: no
    judgement is left), and the mean residual ``ResEU`` per measure (NaN if none)."""
    pos = {t: i for i, t in enumerate(res.topics)}
    idx = np.array([pos.get(t, -1) for t in topics], dtype=np.int64)
    have = idx >= 0
    vals = np.zeros((len(res.measures), len(topics)))
    vals[:, have] = res.values[:, idx[have]]
    out_r = np.full(len(res.measures), math.nan)
    if residual and "ResEU" in res.columns:
        col = np.asarray(res.columns["ResEU"], dtype=np.float64)
        rr = np.full((len(res.measures), len(topics)), math.nan)
        rr[:, have] = col[:, idx[have]]
        for i in range(len(res.measures)):
            if np.isfinite(col[i]).any():
                # a topic with no judgement left carries the whole residual of an unjudged run
                out_r[i] = float(np.where(np.isnan(rr[i]), 1.0, rr[i]).mean())
    return vals.mean(axis=1), out_r


def _check_options(depth: Any, baseline: Any, order: Any) -> tuple[int, str, str]:
    """``depth`` (an integer >= 1), ``baseline`` (``"pool"`` or ``"qrels"``) and ``order``
    checked; :class:`ParamError` otherwise."""
    d = check_int("depth", depth, least=1)
    assert d is not None
    return (
        d,
        check_choice("baseline", baseline, ("pool", "qrels")),
        check_choice("order", order, ("score", "rank", "file")),
    )


def _runs_and_groups(runs: Any, group_by: Any) -> tuple[list[str], list[Any], list[str], list[str]]:
    """The runs' names, the runs read, each run's group, and the distinct groups in order of
    first appearance; raises :class:`ParamError` for fewer than two runs, two runs of one
    name, or a single group."""
    from ..io.inputs import as_run
    from .pool import split_runs

    named = split_runs(runs)
    if len(named) < 2:
        raise ParamError("reusability leaves groups of runs out: give at least two runs")
    names = [n for n, _ in named]
    if len(set(names)) != len(names):
        raise ParamError(f"two runs have the same name; name them with a mapping: {names}")
    items = [as_run(r) for _, r in named]
    paths = [str(r) if isinstance(r, str | os.PathLike) else None for _, r in named]
    groups = _groups(names, paths, [r.runid for r in items], group_by)
    gnames = list(dict.fromkeys(groups))
    if len(gnames) < 2:
        raise ParamError(
            f"every run is in group {gnames[0]!r}: leaving it out leaves no pool "
            "(group_by: a mapping or file of 'run group' lines)"
        )
    return names, items, groups, gnames


def _measure_list(measure: Any) -> tuple[list[Any], list[bool]]:
    """The measures to score: ``measure`` (parsed if a string), then the :data:`COMPANIONS`
    other than it; and whether each is a C/W/L metric."""
    from ..measures.base import Measure
    from ..measures.cwl import CWLMetric
    from ..measures.parse import parse_measure

    if not isinstance(measure, str | Measure):
        raise refuse("measure", "a measure name or a Measure", measure)
    m0 = parse_measure(measure) if isinstance(measure, str) else measure
    mlist = [m0] + [parse_measure(c) for c in COMPANIONS if c != m0.name]
    return mlist, [isinstance(m, CWLMetric) for m in mlist]


def _pooled_pairs(
    items: list[Any], groups: list[str], gnames: list[str], depth: int, order: str
) -> pa.Table:
    """The depth-``depth`` pool row by row: a table of ``topic``, ``doc`` and ``g`` (the
    index in ``gnames`` of the group of the run that pooled it), one row per run ranking the
    document in its top ``depth``."""
    from .pool import ranked_rows

    rows = ranked_rows(items, order=order)
    sel = rows.rank <= int(depth)
    gidx = np.array([gnames.index(g) for g in groups], dtype=np.int64)
    return pa.table(
        {
            "topic": pa.array(rows.topic[sel], pa.string()),
            "doc": pa.array(rows.doc[sel], pa.string()),
            "g": pa.array(gidx[rows.run[sel]], pa.int64()),
        }
    )


def _reduced_qrels(
    pooled: pa.Table, gi: int, base_tab: pa.Table, base_lab: np.ndarray
) -> tuple[pa.Table, int, int]:
    """The baseline qrels restricted to the documents the groups other than number ``gi``
    pool, the number of baseline rows that loses, and the number of those with a label above
    0 (``base_lab`` is the baseline's labels)."""
    others = pooled.filter(pc.not_equal(pooled.column("g"), gi)).select(["topic", "doc"])
    red_tab = _restrict(base_tab, others)
    lost = base_tab.num_rows - red_tab.num_rows
    red_lab = np.asarray(red_tab.column("label").to_numpy(), dtype=np.float64)
    lost_rel = int((base_lab > 0).sum() - (red_lab > 0).sum())
    return red_tab, lost, lost_rel


def _run_records(
    name: str,
    group: str,
    mnames: list[str],
    base: np.ndarray,
    i: int,
    red: np.ndarray,
    resid: np.ndarray,
    cwl_bound: list[bool],
    counts: dict[str, int],
) -> list[dict[str, Any]]:
    """The records of left-out run ``name`` (row ``i`` of the baseline means ``base``, runs
    x measures), one per measure: its reduced means ``red`` and residuals ``resid`` against
    the baseline, ranks among the other runs' baseline means, ``bounded`` where
    ``cwl_bound`` says the residual bound holds, and ``counts`` (judged, lost,
    lost_relevant) copied in."""
    others_i = np.delete(base, i, axis=0)
    records = []
    for j, mn in enumerate(mnames):
        rank = 1 + int((others_i[:, j] > base[i, j]).sum())
        rrank = 1 + int((others_i[:, j] > red[j]).sum())
        delta = float(red[j] - base[i, j])
        bounded = None
        if cwl_bound[j] and math.isfinite(resid[j]):
            bounded = bool(-resid[j] - 1e-12 <= delta <= 1e-12)
        records.append(
            {
                "run": name,
                "group": group,
                "measure": mn,
                "score": float(base[i, j]),
                "reduced": float(red[j]),
                "delta": delta,
                "rank": rank,
                "reduced_rank": rrank,
                "rank_change": rrank - rank,
                "residual": float(resid[j]),
                "bounded": bounded,
                **counts,
            }
        )
    return records


def reusability(
    qrels: Any,
    runs: Any,
    group_by: Any = "tag-prefix",
    *,
    depth: int = 100,
    measure: Any = "AP",
    order: str = "score",
    baseline: str = "pool",
    gain: Any = None,
) -> Reusability:
    """Leave each group out of the depth-``depth`` pool and score its runs on what is left.

    For each group ``g``: the pool of the other groups' runs (every document one of them
    ranks in its top ``depth``, ranked as ``order``), the qrels restricted to those
    documents, and each of ``g``'s runs scored on them. Each left-out run's score is then
    compared with its score on the baseline judgements, and its rank among the runs (the
    other runs at their baseline scores) with its baseline rank.

    Parameters
    ----------
    qrels : qrels
        The judgements (any form :func:`cwlkit.as_qrels` reads).
    runs : sequence or mapping of runs
        Named as :meth:`cwlkit.Evaluator.evaluate_many` names them (file names; a mapping's
        keys).
    group_by : "tag-prefix", "tag-prefix:N", "regex:PATTERN", mapping or path
        The groups: the leading letters of each run's tag (its last line's, trec_eval's
        run id), its first ``N`` characters, the first group of ``PATTERN`` found in the
        run's name (the whole match if it has no group: ``regex:\\.(ql|rm)\\.``), a
        mapping ``{run name: group}``, or a file of ``run group`` lines. A run may be named
        by its name, its path as given, or its file name.
    depth : int
        The pool depth k.
    measure : str or Measure
        The measure; bpref (``Bpref``) and ``infAP`` are always reported too.
    order : {"score", "rank", "file"}
        How runs are ranked, for the pool and for scoring (the Evaluator's option).
    baseline : {"pool", "qrels"}
        The judgements the changes are measured from: the qrels restricted to the depth-k
        pool of every run (default: a group whose documents the others all pool changes
        nothing), or the qrels whole.
    gain : optional
        How labels map to gains (the Evaluator's option) for C/W/L measures.

    Returns
    -------
    Reusability
        ``records``: one row per (left-out run, measure) with ``run``, ``group``,
        ``measure``, ``score`` (baseline mean), ``reduced`` (mean on the reduced qrels),
        ``delta = reduced - score``, ``rank`` and ``reduced_rank`` (1 is best;
        ``1 +`` the number of other runs with a larger baseline score) and ``rank_change =
        reduced_rank - rank`` (positive: the run drops), ``residual`` (the mean C/W/L
        residual ``ResEU`` on the reduced qrels, a topic with no judgement left counting 1;
        NaN for other measures) and ``bounded`` (``score - residual <= reduced <= score``
        up to 1e-12, for a C/W/L measure of non-negative gains with the pool baseline: the
        judgements lost can only raise the score, by at most the residual; None otherwise),
        ``judged`` (qrels rows left) and ``lost`` (qrels rows of the baseline the group's
        absence removes), ``lost_relevant`` (those with a label above 0). Means are over
        the topics the run shares with the baseline qrels; a topic left with no judgement
        scores 0.

    Examples
    --------
    >>> import cwlkit
    >>> runs = [cwlkit.example("web2012.ql.cata"), cwlkit.example("web2012.rm.cata")]
    >>> r = cwlkit.reusability(cwlkit.example("web2012.qrels"), runs,   # doctest: +SKIP
    ...                        {"web2012.ql.cata.run.gz": "ql", "web2012.rm.cata.run.gz": "rm"},
    ...                        depth=10, measure="P@10")
    """
    from ..api import Evaluator
    from ..io.inputs import as_qrels

    depth, baseline, order = _check_options(depth, baseline, order)
    names, items, groups, gnames = _runs_and_groups(runs, group_by)
    mlist, is_cwl = _measure_list(measure)
    q = as_qrels(qrels)
    qtab = q.table.select(["topic", "iter", "doc", "label"])
    pooled = _pooled_pairs(items, groups, gnames, depth, order)

    def qrels_of(table: pa.Table) -> Any:
        return as_qrels(table, name=q.path)

    base_tab = _restrict(qtab, pooled.select(["topic", "doc"])) if baseline == "pool" else qtab
    opts: dict[str, Any] = {"order": order, "residuals": True}
    if gain is not None:
        opts["gain"] = gain
    full = Evaluator(qrels_of(base_tab), mlist, **opts).evaluate_many(
        dict(zip(names, items, strict=True))
    )
    mnames = list(full[names[0]].measures)
    topics = {n: [str(t) for t in full[n].topics] for n in names}
    base = np.vstack([_means(full[n], topics[n], False)[0] for n in names])  # runs x measures
    base_lab = np.asarray(base_tab.column("label").to_numpy(), dtype=np.float64)

    out = Reusability(
        int(depth),
        mnames,
        {g: [n for n, x in zip(names, groups, strict=True) if x == g] for g in gnames},
    )
    cwl_bound = [c and baseline == "pool" for c in is_cwl]
    for gi, g in enumerate(gnames):
        red_tab, lost, lost_rel = _reduced_qrels(pooled, gi, base_tab, base_lab)
        members = [i for i, x in enumerate(groups) if x == g]
        ev = Evaluator(qrels_of(red_tab), mlist, **{**opts, "topics": "run"})
        res = ev.evaluate_many({names[i]: items[i] for i in members})
        counts = {"judged": int(red_tab.num_rows), "lost": int(lost), "lost_relevant": lost_rel}
        for i in members:
            red, resid = _means(res[names[i]], topics[names[i]], True)
            out.records.extend(
                _run_records(names[i], g, mnames, base, i, red, resid, cwl_bound, counts)
            )
    return out
