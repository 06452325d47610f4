"""trec_eval's preference (``-R prefs``, ``-R qrels_prefs``) and judgment-group
(``-R qrels_jg``) measures, evaluated through :class:`cwlkit.Evaluator` as any measure is: the
Evaluator's judgments are :class:`~cwlkit.io.prefs.Judgments`, its plan joins each run with
them into a :class:`PrefsBatch`, and the measures (:meth:`PrefsSpec.measures`) compute from
it (``cwlkit trec_eval -R``: :meth:`cwlkit.formats.trec_eval.TrecEval.create_prefs`).

The counting lives in
:mod:`~cwlkit.measures.trec.prefs_counts` and :mod:`~cwlkit.measures.trec.jg_measures`.

Conventions (trec_eval 9.0.8 and 10.0, from their sources and test files):

* Ranking: score descending. Ties are broken by document id in byte order, **ascending** for
  the preference measures (``form_prefs_counts.c``) and descending for the judgment-group
  measures (``form_res_rels_jg.c``, like every other trec_eval measure). The rank column is
  ignored. trec_eval 9.0.8 stores scores as C ``float`` (scores closer than float32
  resolution tie), 10.0 as ``double``. ``-M n`` keeps the first n documents after sorting.
* Topics: those of the judgments that have results, printed in ``strcmp`` order. With
  ``-c`` the average is over every judgments topic: 9.0.8 counts the missing ones as 0
  without printing them; 10.0 evaluates them as empty rankings and prints them. Without
  ``-c`` trec_eval 10.0 stops at the first judgments topic that has no results; so does
  this function (:class:`~cwlkit.errors.CwlkitError`).
* Summary (``all``): the mean over topics, except the ``prefs_num_prefs_*`` counts, which are
  summed and printed as integers. ``num_q`` is the number of topics averaged over.
* ``-l`` (``rel_level``) applies to the judgment-group measures only; preferences use the
  levels as they are.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from ...errors import ParamError
from ...io.prefs import Judgments
from ...io.text import encode, from_numpy, sort_rank, to_numpy
from ...io.trec import Run
from ..base import Measure, measure
from .jg_measures import JG_MEASURES, P_CUTOFFS, RPREC_MULTS, jg_values
from .prefs_counts import PREFS_COUNTS, PREFS_MEASURES, prefs_values
from .spec import PREFS_NICKNAMES as NICKNAMES

_TABLE_ORDER = ("runid", "num_q", *PREFS_MEASURES, *JG_MEASURES)
KINDS = ("prefs", "qrels_prefs", "qrels_jg")


def prefs_names(kind: str, names: list[str] | None, nickname: str | None) -> list[str]:
    """What trec_eval prints for these measures, in print order: ``runid`` for the run's tag
    line, then one name per measure of :meth:`PrefsSpec.measures`, in its order (the
    ``names`` of :func:`cwlkit.formats.trec_eval.format_trec_eval`)."""
    return _print_names(*_resolve(kind, names, nickname))


# ----------------------------------------------------------------------------- measure names


def _resolve(kind: str, names: list[str] | None, nickname: str | None) -> tuple[list[str], dict]:
    """Base measure names wanted (table order) and the cutoff parameters given with them."""
    family = JG_MEASURES if kind == "qrels_jg" else PREFS_MEASURES
    requested: list[str] = []
    if nickname is not None:
        if nickname not in NICKNAMES:
            raise ParamError(
                f"measure nickname {nickname!r} cannot be computed from -R {kind} judgments "
                f"(use {', '.join(NICKNAMES)})"
            )
        requested += NICKNAMES[nickname]
    if names is None and nickname is None:
        requested += NICKNAMES["qrels_jg" if kind == "qrels_jg" else "all_prefs"]
    params: dict[str, tuple] = {}
    for raw in names or []:
        base, dot, arg = raw.partition(".")
        if base in NICKNAMES:
            requested += NICKNAMES[base]
            continue
        if base not in _TABLE_ORDER:
            raise ParamError(
                f"illegal measure {raw!r} for -R {kind} (measures: {', '.join(family)}; "
                "the other trec_eval measures need -R qrels)"
            )
        if dot:
            params[base] = _parse_params(base, arg)
        requested.append(base)
    for n in requested:
        if n not in family and n not in ("runid", "num_q"):
            raise ParamError(f"measure {n!r} cannot be computed from -R {kind} judgments")
    wanted = [n for n in _TABLE_ORDER if n in set(requested)]
    return wanted, params


def _parse_params(base: str, arg: str) -> tuple:
    if base not in ("P_avgjg", "Rprec_mult_avgjg") or not arg:
        raise ParamError(f"measure {base!r} takes no parameters; got {base}.{arg}")
    parts = arg.split(",")
    vals: list[float]
    try:
        if base == "P_avgjg":  # C atol: the leading integer ("23.4" -> 23)
            vals = sorted(
                int(m.group(0)) if (m := re.match(r"\s*[+-]?\d+", p)) else 0 for p in parts
            )
            if any(v <= 0 for v in vals):
                raise ValueError
        else:
            vals = sorted(float(p) for p in parts)
            if any(not np.isfinite(v) or v < 0 for v in vals):
                raise ValueError
    except ValueError:
        what = "positive integers" if base == "P_avgjg" else "non-negative numbers"
        raise ParamError(
            f"{base}: cutoffs must be {what} separated by commas; got {arg!r}"
        ) from None
    if len(set(vals)) != len(vals):
        raise ParamError(f"{base}: duplicate cutoffs in {arg!r}")
    return tuple(vals)


def _print_names(wanted: list[str], params: dict) -> list[str]:
    out: list[str] = []
    for n in wanted:
        if n == "P_avgjg":
            out += [f"P_avgjg_{k}" for k in params.get(n, P_CUTOFFS)]
        elif n == "Rprec_mult_avgjg":
            out += [f"Rprec_mult_avgjg_{x:3.2f}" for x in params.get(n, RPREC_MULTS)]
        else:
            out.append(n)
    return out


# ----------------------------------------------------------------------------- join


def _codes(column: pa.ChunkedArray | pa.Array) -> tuple[np.ndarray, pa.Array]:
    (c,), d = encode(column)
    return c, d


def _index_in(values: pa.Array, value_set: pa.Array) -> np.ndarray:
    idx = pc.index_in(values, value_set=value_set)
    return to_numpy(idx, null=-1).astype(np.int64)


def _join(
    judg: Judgments, run: Run, *, version: int, max_depth: int | None, tie_ascending: bool
) -> dict:
    """Order the run trec_eval's way and express it in the judgments' topic and doc codes."""
    tab = judg.table
    jt, jt_dict = _codes(tab.column("topic"))
    jd, jd_dict = _codes(tab.column("doc"))
    trank = sort_rank(jt_dict)
    # topic index in strcmp order
    line_topic = trank[jt]
    topics = np.asarray(jt_dict.to_pylist(), dtype=object)[np.argsort(trank)]

    rt, rt_dict, rd, rd_dict = run.codes()
    scores = to_numpy(run.table.column("score"))
    if version < 10:
        scores = scores.astype(np.float32).astype(np.float64)
    drank = sort_rank(rd_dict)[rd]
    order = np.lexsort((drank if tie_ascending else -drank, -scores, rt))
    rt_o = rt[order]
    start = np.searchsorted(rt_o, rt_o, side="left")
    pos = np.arange(order.size) - start
    run_topic = _index_in(rt_dict, jt_dict)
    run_topic = np.where(run_topic >= 0, trank[np.maximum(run_topic, 0)], -1)[rt_o]
    present = np.zeros(len(jt_dict), dtype=bool)
    present[run_topic[run_topic >= 0]] = True
    keep = run_topic >= 0
    if max_depth is not None:
        keep &= pos < max_depth
    run_doc = _index_in(rd_dict, jd_dict)[rd[order]]
    return {
        "topics": list(topics),
        "present": present,
        "line_topic": line_topic,
        "line_doc": jd,
        "n_docs": len(jd_dict),
        "doc_rank": sort_rank(jd_dict),
        "ret_topic": run_topic[keep],
        "ret_doc": run_doc[keep],
        "ret_pos": pos[keep],
        "table": tab,
        "levels": judg.levels,
    }


def _group_ids(*codes: np.ndarray) -> np.ndarray:
    """Dense ids of the distinct tuples of ``codes``, numbered in lexicographic code order."""
    keys = np.stack(codes, axis=1)
    _, inv = np.unique(keys, axis=0, return_inverse=True)
    return inv.reshape(-1).astype(np.int64)


def _jg_codes(j: dict, lines: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(global JG id per selected line, topic of each JG); JGs in topic then name order."""
    g, g_dict = _codes(j["table"].column("jg"))
    grank = sort_rank(g_dict)[g][lines]
    t = j["line_topic"][lines]
    jg = _group_ids(t, grank)
    topic_of_jg = np.zeros(int(jg.max(initial=-1)) + 1, dtype=np.int64)
    topic_of_jg[jg] = t
    return jg, topic_of_jg


def _prefs_inputs(j: dict, evaluated: np.ndarray) -> dict:
    """Line arrays for :func:`prefs_values`: topics renumbered over the evaluated ones."""
    new_index = np.cumsum(evaluated) - 1
    lines = np.flatnonzero(evaluated[j["line_topic"]])
    T = int(evaluated.sum())
    t = new_index[j["line_topic"][lines]]
    d = j["line_doc"][lines]
    nd = j["n_docs"]
    # judged documents of each topic, and where the run put them
    doc_key = t * nd + d
    uniq, inv = np.unique(doc_key, return_inverse=True)
    sel = (j["ret_topic"] >= 0) & (j["ret_doc"] >= 0) & evaluated[np.maximum(j["ret_topic"], 0)]
    rkey = new_index[j["ret_topic"][sel]] * nd + j["ret_doc"][sel]
    where = np.searchsorted(uniq, rkey)
    hit = where < uniq.size
    hit[hit] = uniq[where[hit]] == rkey[hit]
    big = np.iinfo(np.int64).max // 4
    pos = np.full(uniq.size, big, dtype=np.int64)
    pos[where[hit]] = j["ret_pos"][sel][hit]
    u_topic = uniq // nd
    retrieved = pos < big
    secondary = np.where(retrieved, pos, big + j["doc_rank"][uniq % nd])
    o = np.lexsort((secondary, u_topic))
    first = np.searchsorted(u_topic[o], u_topic[o], side="left")
    docid_rank = np.empty(uniq.size, dtype=np.int64)
    docid_rank[o] = np.arange(uniq.size) - first
    njr = np.bincount(u_topic, weights=retrieved, minlength=T).astype(np.int64)

    jg, topic_of_jg = _jg_codes(j, lines)
    topic_of_jg = new_index[topic_of_jg] if topic_of_jg.size else topic_of_jg
    first_line = lines[np.unique(jg, return_index=True)[1]]
    tab = j["table"]
    labels = [
        f"{g!r} of topic {t!r}"
        for g, t in zip(
            tab.column("jg").take(from_numpy(first_line)).to_pylist(),
            tab.column("topic").take(from_numpy(first_line)).to_pylist(),
            strict=True,
        )
    ]
    s, _ = _codes(j["table"].column("jsg"))
    jsg = _group_ids(jg, s[lines])
    return {
        "line_topic": t,
        "line_jg": jg,
        "line_jsg": jsg,
        "level": j["levels"][lines],
        "rank": docid_rank[inv.reshape(-1)],
        "njr": njr,
        "topic_of_jg": topic_of_jg,
        "jg_labels": labels,
    }


def _jg(j: dict, evaluated: np.ndarray, rel_level: float, wanted: list[str], params: dict) -> dict:
    """Values of the judgment-group measures over the evaluated topics."""
    new_index = np.cumsum(evaluated) - 1
    lines = np.flatnonzero(evaluated[j["line_topic"]])
    T = int(evaluated.sum())
    jg, topic_of_jg = _jg_codes(j, lines)
    topic_of_jg = new_index[topic_of_jg] if topic_of_jg.size else topic_of_jg
    G = int(topic_of_jg.size)
    labels = j["levels"][lines]
    num_rel = np.bincount(jg, weights=(labels >= 0) & (labels >= rel_level), minlength=G)
    # the ranking of each evaluated topic as judgments doc codes (-1: never judged anywhere)
    sel = (j["ret_topic"] >= 0) & evaluated[np.maximum(j["ret_topic"], 0)]
    rt = new_index[j["ret_topic"][sel]]
    rpos = j["ret_pos"][sel]
    rdoc = j["ret_doc"][sel]
    num_ret_t = np.bincount(rt, minlength=T).astype(np.int64)
    D = int(num_ret_t.max(initial=0))
    # per (JG, rank): the group's label of the document there
    nd = j["n_docs"] + 1
    qkey = jg * nd + j["line_doc"][lines]
    qorder = np.argsort(qkey, kind="stable")
    qsorted = qkey[qorder]
    # expand each ranked row to every JG of its topic
    jg_start = np.searchsorted(topic_of_jg, np.arange(T), side="left")
    n_jg_t = np.bincount(topic_of_jg, minlength=T)
    reps = n_jg_t[rt]
    row_idx = np.repeat(np.arange(rt.size), reps)
    offs = np.arange(row_idx.size) - np.repeat(np.cumsum(reps) - reps, reps)
    g_of = jg_start[rt[row_idx]] + offs
    key = g_of * nd + np.where(rdoc[row_idx] >= 0, rdoc[row_idx], nd - 1)
    lab = np.full(row_idx.size, -1.0)
    if qsorted.size:
        p = np.minimum(np.searchsorted(qsorted, key), qsorted.size - 1)
        found = (qsorted[p] == key) & (rdoc[row_idx] >= 0)
        got = labels[qorder[p]]
        lab = np.where(found, np.where(got < 0, -2.0, got), -1.0)
    ranked = np.full((G, max(D, 1)), -1.0)
    ranked[g_of, rpos[row_idx]] = lab
    return jg_values(
        ranked,
        num_ret_t[topic_of_jg],
        num_rel.astype(np.int64),
        topic_of_jg,
        T,
        rel_level,
        want_map="map_avgjg" in wanted,
        p_cutoffs=tuple(params.get("P_avgjg", P_CUTOFFS)) if "P_avgjg" in wanted else (),
        rprec_mults=tuple(params.get("Rprec_mult_avgjg", RPREC_MULTS))
        if "Rprec_mult_avgjg" in wanted
        else (),
    )


# ------------------------------------------------------------ through cwlkit.Evaluator


@dataclass(eq=False)
class PrefsBatch:
    """A run joined with preference or judgment-group judgments: what the measures of this
    module read (a :class:`~cwlkit.plan.Plan` builds it in place of a ranking batch when its
    judgments are :class:`~cwlkit.io.prefs.Judgments`).

    Attributes
    ----------
    join : dict
        The run in trec_eval's order, in the judgments' topic and document codes.
    evaluated : numpy.ndarray
        bool, per judgments topic (strcmp order): the topics scored (those with results; every
        one in 10.0 or with ``-c``, a topic without results as an empty ranking).
    path : str
        The judgments' file (for messages).
    memo : dict
        Values computed from the batch, memoised (``"absent"``: bool per topic scored, the
        run has no line for it).
    """

    join: dict
    evaluated: np.ndarray
    path: str
    memo: dict

    @property
    def topics(self) -> np.ndarray:
        """The topics scored, in print order."""
        return np.asarray(self.join["topics"], dtype=object)[self.evaluated]

    @property
    def n_topics(self) -> int:
        return int(self.evaluated.sum())


def prefs_batch(
    judgments: Judgments, run: Run, *, version: int, max_depth: int | None, all_topics: bool
) -> PrefsBatch:
    """``run`` joined with ``judgments`` as trec_eval joins them (ties by docno ascending for
    the preference measures, descending for the judgment-group ones; ``-M`` cuts)."""
    tie_ascending = judgments.kind != "qrels_jg"
    j = _join(judgments, run, version=version, max_depth=max_depth, tie_ascending=tie_ascending)
    present = j["present"]
    every = version >= 10 or all_topics
    evaluated = np.ones(present.size, dtype=bool) if every else present
    return PrefsBatch(j, evaluated, str(judgments.path), {"absent": ~present[evaluated]})


@dataclass(frozen=True)
class PrefsSpec:
    """What ``-m`` asks of one kind of judgments: the measures (base names, table order),
    their parameters (``P_avgjg.5,10``), and ``-l``."""

    kind: str
    wanted: tuple[str, ...]
    params: tuple[tuple[str, tuple], ...]
    rel_level: float = 1.0

    @classmethod
    def of(
        cls, kind: str, names: list[str] | None, nickname: str | None, rel_level: float = 1.0
    ) -> PrefsSpec:
        """The spec of ``-m`` arguments: the names given (None: the nickname's, or every
        measure of the kind), the nickname given, ``-l``."""
        if kind not in KINDS:
            raise ParamError(
                f"unknown judgments format {kind!r}; expected one of {', '.join(KINDS)}"
            )
        wanted, params = _resolve(kind, names, nickname)
        return cls(kind, tuple(wanted), tuple(sorted(params.items())), float(rel_level))

    def measures(self) -> list[Measure]:
        """One measure per printed name (``runid`` excepted), in print order."""
        out: list[Measure] = []
        for n in _print_names(list(self.wanted), dict(self.params)):
            if n != "runid":
                summed = n in PREFS_COUNTS or n == "num_q"
                out.append((PrefsCount if summed else PrefsMean)(n, self))
        return out

    def values(self, batch: PrefsBatch) -> dict[str, np.ndarray]:
        """Every printed name's per-topic values on ``batch`` (computed once, memoised)."""
        got = batch.memo.get(("prefs", self))
        if got is None:
            j, ev = batch.join, batch.evaluated
            if self.kind == "qrels_jg":
                got = _jg(j, ev, self.rel_level, list(self.wanted), dict(self.params))
            else:
                got = prefs_values(**_prefs_inputs(j, ev), what=batch.path)
            batch.memo[("prefs", self)] = got
        return got


@measure
class PrefsMean(Measure):
    """One of trec_eval's preference or judgment-group measures (``-R prefs``, ``qrels_prefs``,
    ``qrels_jg``), named as trec_eval prints it; averaged over topics."""

    family: ClassVar[str] = "trec_prefs"
    printed: str = ""
    spec: PrefsSpec | None = None

    @property
    def name(self) -> str:
        return "NumQ" if self.printed == "num_q" else self.printed

    def compute(self, batch: Any) -> np.ndarray:
        return self.compute_group(batch, [self])[0]

    def group_key(self) -> tuple | None:
        return ("trec_eval prefs", self.spec)

    @classmethod
    def compute_group(cls, batch: Any, measures: list[Measure]) -> list[np.ndarray]:
        out = []
        for m in measures:
            assert isinstance(m, PrefsMean) and m.spec is not None
            if m.printed == "num_q":
                out.append(np.ones(batch.n_topics))
            else:
                out.append(np.asarray(m.spec.values(batch)[m.printed], dtype=np.float64))
        return out


@measure
class PrefsCount(PrefsMean):
    """A preference count (``prefs_num_prefs_*``) or ``num_q``: summed over topics."""

    aggregate: ClassVar[str] = "sum"
