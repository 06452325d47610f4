"""Print a :class:`~cwlkit.results.Results` exactly as trec_eval prints it.

Every line is ``printf("%-22s\\t%s\\t%6.4f\\n", name, topic, value)``; with ``-q`` the
per-topic lines come topic by topic (every measure of a topic, in the Results' order), then
the ``all`` block (unless ``-n``). What trec_eval's printer does per measure follows from
the Results:

- the printed name is trec_eval's for the canonical measure (``P@10`` prints ``P_10``,
  ``AP`` ``map``, ``NumQ`` ``num_q``; :func:`cwlkit.measures.trec.registered.trec_eval_name`), or
  the ``names`` given (trec_eval prints typed parameters as typed); ``runid`` is the line
  of ``Results.run``;
- measures summed over topics (``NumRet``, the preference counts) print as ``%ld``;
- ``NumQ`` and the geometric means (``gm_map``) have no per-topic lines;
- text values (``Results.text``: ``relstring``) print quoted, per topic only;
- the ``all`` value is the measure's aggregate with the topics added in order, as
  trec_eval accumulates them, over ``num_q`` topics (those the Results hold unless given:
  a topic it lacks counts as 0, and as 1e-5 in a geometric mean), or the value ``fixed``
  gives;
- ``zscore`` (``-Z``): names get a ``Z`` prefix and every number four decimals.

:class:`TrecEval` is ``cwlkit trec_eval``'s evaluation: the measures of ``-m``, an
:class:`~cwlkit.Evaluator` with trec_eval's options, and the rules by which trec_eval prints
a run's Results (which topics it prints and averages over, with ``-c`` in 9.0.8 and 10.0;
``-Z`` scores).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..errors import ParamError
from ..results import MIN_GEO_MEAN, Results

#: a printed line's kind: the run's tag, text, an integer (%ld) or a real (%6.4f) measure
_RUNID, _TEXT, _INT, _REAL = "runid", "text", "int", "real"


def _num(v: float) -> str:
    if math.isnan(v):  # C prints the sign of a NaN
        return f"{'-nan' if math.copysign(1.0, v) < 0 else 'nan':>6}"
    return f"{v:6.4f}"


def _int(v: float) -> str:
    if not math.isfinite(v):
        return _num(v)
    return str(int(v))


def _default_name(results: Results, name: str) -> str:
    """trec_eval's name for the measure ``name`` of ``results`` (itself if trec_eval has none)."""
    from ..errors import CwlkitError
    from ..measures.parse import parse_measure
    from ..measures.trec.registered import trec_eval_name

    if name in results.text:
        return name
    try:
        printed = trec_eval_name(parse_measure(name))
    except CwlkitError:  # a measure only trec_eval has (the preference measures)
        return name
    return printed or name


def _aggregates(results: Results) -> list[str]:
    """``results.aggregates`` (never None: ``Results.__post_init__`` fills the default in)."""
    assert results.aggregates is not None
    return results.aggregates


def _layout(results: Results, names: Sequence[str] | None) -> list[tuple[str, int, str]]:
    """``(printed name, row of results, kind)`` per printed measure, in print order."""
    if names is None:
        names = ["runid"] + [_default_name(results, m) for m in results.measures]
    rows = [n for n in names if n != "runid"]
    if len(rows) != len(results.measures):
        raise ValueError(
            f"{len(rows)} printed names for {len(results.measures)} measures "
            f"({', '.join(results.measures)})"
        )
    out: list[tuple[str, int, str]] = []
    aggregates = _aggregates(results)
    i = 0
    for n in names:
        if n == "runid":
            out.append((n, -1, _RUNID))
            continue
        m = results.measures[i]
        kind = _TEXT if m in results.text else _INT if aggregates[i] == "sum" else _REAL
        out.append((n, i, kind))
        i += 1
    return out


@dataclass(frozen=True)
class Totals:
    """How the ``all`` lines add the topics up: over ``num_q`` topics (None: those of the
    Results), and the values ``fixed`` by measure (trec_eval's ``num_rel`` with ``-c``)."""

    num_q: int | None = None
    fixed: dict[str, float] = field(default_factory=dict)


def _summary_value(results: Results, i: int, totals: Totals) -> float:
    """The ``all`` value of row ``i``: the measure's aggregate with the topics added in order
    (trec_eval's loop; numpy's pairwise sum may differ in the last bit) over ``num_q``
    topics, or the value ``totals`` fixes."""
    m = results.measures[i]
    if m in totals.fixed:
        return totals.fixed[m]
    v = results.values[i]
    n = v.size if totals.num_q is None else totals.num_q
    if m == "NumQ":
        return float(n)
    how = _aggregates(results)[i]
    if how == "gmean":
        v = np.log(np.maximum(v, MIN_GEO_MEAN))
    total = float(np.cumsum(v)[-1]) if v.size else 0.0
    if how == "sum":
        return total
    if how == "gmean":  # (a topic without a value counts as MIN_GEO_MEAN)
        logs = total + (n - v.size) * math.log(MIN_GEO_MEAN)
        return math.exp(logs / n) if n else 0.0
    return total / n if n else total


def format_trec_eval(
    results: Results,
    names: Sequence[str] | None = None,
    *,
    per_topic: bool = False,
    summary: bool = True,
    zscore: bool = False,
    totals: Totals | None = None,
) -> str:
    """The text trec_eval prints for ``results``.

    Parameters
    ----------
    results : Results
        Values to print (:class:`TrecEval`'s, or any
        other: :class:`cwlkit.Evaluator`'s Results print as trec_eval would print them).
    names : sequence of str, optional
        The printed names in print order: ``"runid"`` for the run's tag line, then one name
        per measure of ``results``, in its order
        (:func:`~cwlkit.measures.trec.select.trec_eval_names`). Default: ``runid``, then
        each measure's trec_eval name.
    per_topic : bool
        Print the per-topic lines (``-q``).
    summary : bool
        Print the ``all`` lines (off with ``-n``).
    zscore : bool
        The values are Z scores (``-Z``).
    totals : Totals, optional
        How the ``all`` lines add the topics up (default: over the Results' topics).
    """
    layout = _layout(results, names)
    out: list[str] = []
    if per_topic:
        out.append(_per_topic(results, layout, zscore))
    if summary:
        out.append(_summary(results, layout, zscore, totals or Totals()))
    return "".join(out)


def _label(name: str, zscore: bool) -> str:
    return f"Z{name:<22}" if zscore else f"{name:<22}"


def _summary(
    results: Results, layout: list[tuple[str, int, str]], zscore: bool, totals: Totals
) -> str:
    out: list[str] = []
    for name, i, kind in layout:
        if kind == _RUNID:
            out.append(f"{name:<22}\tall\t{results.run}\n")
            continue
        if kind == _TEXT:
            continue
        value = _summary_value(results, i, totals)
        text = _int(value) if kind == _INT and not zscore else _num(value)
        out.append(f"{_label(name, zscore)}\tall\t{text}\n")
    return "".join(out)


def _per_topic(results: Results, layout: list[tuple[str, int, str]], zscore: bool) -> str:
    """The per-topic lines, topic by topic (every measure of a topic, in print order).

    Built with one ``%`` operation: a template holding one line per measure (its label and
    number format) repeated for every topic, filled with the interleaved (topic, value)
    pairs. Columns that need Python's formatting (NaN signs, infinite integers) are
    pre-formatted and passed as strings.
    """
    specs: list[str] = []
    cols: list[list] = []
    aggregates = _aggregates(results)
    for name, i, kind in layout:
        m = results.measures[i] if i >= 0 else ""
        if kind == _RUNID or m == "NumQ" or aggregates[i] == "gmean":
            continue  # trec_eval prints these on the 'all' lines only
        if kind == _TEXT:
            specs.append(f"{name:<22}".replace("%", "%%") + "\t%s\t'%s'\n")
            cols.append(list(results.text[m]))
            continue
        lab = _label(name, zscore).replace("%", "%%")
        v = results.values[i]
        if kind == _INT and not zscore:
            if np.isfinite(v).all():
                specs.append(lab + "\t%s\t%d\n")
                cols.append(v.tolist())
            else:
                specs.append(lab + "\t%s\t%s\n")
                cols.append([_int(x) for x in v.tolist()])
        elif np.isnan(v).any():  # C prints the sign of a NaN
            specs.append(lab + "\t%s\t%s\n")
            cols.append([_num(x) for x in v.tolist()])
        else:
            specs.append(lab + "\t%s\t%6.4f\n")
            cols.append(v.tolist())
    T = len(results.topics)
    if not cols or T == 0:
        return ""
    args = np.empty((T, 2 * len(cols)), dtype=object)
    args[:, 0::2] = np.asarray(results.topics, dtype=object)[:, None]
    for j, c in enumerate(cols):
        args[:, 2 * j + 1] = c
    return ("".join(specs) * T) % tuple(args.ravel().tolist())


def write_trec_eval(
    results: Results,
    write: Callable[[str], object],
    names: Sequence[str] | None = None,
    *,
    per_topic: bool = False,
    summary: bool = True,
    zscore: bool = False,
    block: int = 10_000,
    totals: Totals | None = None,
) -> None:
    """:func:`format_trec_eval`'s text passed to ``write`` in pieces of ``block`` topics (the
    same bytes, without holding the whole text of many topics at once)."""
    layout = _layout(results, names)
    if per_topic:
        for a in range(0, len(results.topics), block):
            b = a + block
            part = Results(
                results.values[:, a:b],
                results.measures,
                results.topics[a:b],
                aggregates=results.aggregates,
                text={k: v[a:b] for k, v in results.text.items()},
            )
            write(_per_topic(part, layout, zscore))
    if summary:
        write(_summary(results, layout, zscore, totals or Totals()))


# ------------------------------------------------------------- cwlkit trec_eval's evaluation

#: trec_eval's -Z value of a topic without a mean and deviation for a measure
MISSING_ZSCORE = -1000000.0


@dataclass
class TrecEval:
    """``cwlkit trec_eval``'s evaluation: the measures of ``-m`` in an
    :class:`~cwlkit.Evaluator` with trec_eval's options, and how trec_eval prints a run.

    Make one with :meth:`create`; :meth:`evaluate` scores a run (any way the Evaluator runs
    it: whole, streamed from disk, over processes) and :meth:`text` / :meth:`write` print
    it, byte for byte as trec_eval does.

    Attributes
    ----------
    evaluator : cwlkit.Evaluator
        Topics ``both`` (9.0.8) or ``qrels`` (``-c``, and 10.0, which stops at a qrels topic
        without results), trec_eval's score precision, ``-M`` as ``depth``, ``-J`` as
        ``judged_only``, run lines of more than 6 fields accepted.
    names : list of str
        What trec_eval prints, in order: ``runid``, then one name per measure.
    version : {9, 10}
    all_topics : bool
        ``-c``.
    """

    evaluator: Any
    names: list[str]
    version: int
    all_topics: bool

    @classmethod
    def create(
        cls,
        qrels: Any,
        specs: list[str] | None = None,
        *,
        version: int = 9,
        all_topics: bool = False,
        rel_level: float = 1,
        max_depth: int | None = None,
        judged_only: bool = False,
        num_docs: int = 0,
        stream_qrels: bool = False,
    ) -> TrecEval:
        """trec_eval's evaluation of runs against ``qrels`` (a path, or any form the
        Evaluator takes) with ``-m specs`` (default ``official``) and its options; a qrels
        file is read now, or with each run when ``stream_qrels``."""
        from ..api import Evaluator
        from ..measures.trec.select import trec_eval_measures, trec_eval_names

        measures = trec_eval_measures(
            specs, version, rel_level=rel_level, num_docs=num_docs, max_depth=max_depth
        )
        names = trec_eval_names(specs, version)
        printed = len(measures)
        if all_topics and "num_rel" in names:  # (-c: its 'all' counts every label > 0)
            from ..measures.parse import parse_measure

            measures = [*measures, parse_measure("NumRel")]
        ev = Evaluator(
            qrels,
            measures,
            topics="qrels" if all_topics or version >= 10 else "both",
            trec_version=version,
            depth=max_depth,
            judged_only=judged_only,
            reading=_reading(version),
            chunk_topics="auto" if stream_qrels else None,
        )
        if printed != len(names) - names.count("runid"):  # pragma: no cover
            raise AssertionError(f"measures {ev.measures} do not match the names {names}")
        return cls(ev, names, version, all_topics)

    @classmethod
    def create_prefs(
        cls,
        kind: str,
        judgments_path: str,
        specs: list[str] | None = None,
        *,
        version: int = 9,
        all_topics: bool = False,
        rel_level: float = 1,
        max_depth: int | None = None,
    ) -> TrecEval:
        """trec_eval's evaluation with ``-R kind`` (``prefs``, ``qrels_prefs``, ``qrels_jg``):
        the preference or judgment-group measures of ``-m specs`` (default: the kind's
        nickname), the judgments read now; runs are scored whole."""
        from ..api import Evaluator
        from ..io.prefs import read_judgments
        from ..measures.trec.prefs import PrefsSpec, prefs_names

        if version not in (9, 10):
            raise ParamError(f"trec_eval version must be 9 or 10; got {version!r}")
        names, nick = _prefs_request(specs)
        spec = PrefsSpec.of(kind, names, nick, rel_level)
        judgments = read_judgments(kind, judgments_path, rules=_reading(version))
        ev = Evaluator(
            judgments,
            spec.measures(),
            topics="qrels" if all_topics else "both",
            trec_version=version,
            depth=max_depth,
            reading=_reading(version),
        )
        return cls(ev, prefs_names(kind, names, nick), version, all_topics)

    def evaluate(
        self,
        run: Any,
        *,
        jobs: int | None = None,
        chunk_topics: int | None = None,
        progress: bool | None = False,
    ) -> Results:
        """Score ``run`` (named by its tag, as trec_eval names it), ``chunk_topics`` topics at
        a time (a text file: streamed) or whole, and check its topics as trec_eval does.

        Raises
        ------
        CwlkitError
            No topic has both results and judgements (but with ``-c`` in 10.0, which scores
            stand-ins); in 10.0 without ``-c``, a qrels topic without results.
        """
        from ..errors import CwlkitError, NoTopicsError

        res = self.evaluator.evaluate(run, jobs=jobs, chunk_topics=chunk_topics, progress=progress)
        absent = set(res.absent)
        run_path = getattr(run, "path", run)
        plan = self.evaluator.plan  # (the qrels' name, without reading streamed qrels)
        qrels = plan.qrels_read if plan.qrels_read is not None else plan.qrels_source
        qrels_path = getattr(qrels, "path", qrels)
        if len(absent) == len(res.topics) and not (self.version >= 10 and self.all_topics):
            raise NoTopicsError(
                f"no topics to evaluate: {run_path} and {qrels_path} share no topic "
                "(trec_eval: No queries with both results and relevance info)"
            )
        if self.version >= 10 and not self.all_topics and absent:
            raise CwlkitError(
                f"topic {min(absent)!r} of {qrels_path} has no results in {run_path} "
                "(trec_eval 10.0 stops here; use -c to score it 0, or --trec-version 9 to "
                "skip it)"
            )
        return res

    def view(
        self, res: Results, zscores: dict[tuple[str, str], tuple[float, float]] | None = None
    ) -> tuple[Results, Totals]:
        """What trec_eval prints of ``res``: the topics it prints, their values (10.0's
        stand-ins cleared, ``-Z`` scores), and how the ``all`` lines add them up.

        9.0.8 with ``-c`` prints no line for a topic without results but averages over
        every qrels topic (the others count as 0, and in ``num_rel`` with their R); 10.0
        prints the topic, scored as its stand-in ranking (the measures' values for a topic
        the run lacks under ``trec_version=10``).
        """
        printed = [n for n in self.names if n != "runid"]
        num_q = len(res.topics)
        fixed: dict[str, float] = {}
        if self.all_topics and "num_rel" in printed and zscores is None:
            # trec_eval's -c: every qrels label > 0, whatever -l (m_num_rel.c's calc_avg);
            # NumRel at level 1 (the one printed, or one added) counts them topic by topic
            count = res.values[res.measures.index("NumRel")].sum()
            fixed[res.measures[printed.index("num_rel")]] = float(count)
        res = _rows(res, len(printed))  # (without that count, when it is not printed)
        absent = set(res.absent)
        if absent and self.version < 10:
            res = _topics(res, [t not in absent for t in res.topics])
        if zscores is not None:
            values = np.array(res.values)
            for i, name in enumerate(printed):
                if res.measures[i] != "NumQ" and res.measures[i] not in res.text:
                    values[i] = _to_z(zscores, res.topics, name, values[i])
            res = _with_values(res, values)
        return res, Totals(num_q, fixed)

    def text(
        self,
        res: Results,
        *,
        per_topic: bool = False,
        summary: bool = True,
        zscores: dict[tuple[str, str], tuple[float, float]] | None = None,
    ) -> str:
        """What trec_eval prints for the run's Results ``res`` (``-q``, ``-n``, ``-Z``)."""
        out: list[str] = []
        block = max(1, len(res.topics))  # (one piece: the text of format_trec_eval)
        self.write(
            res, out.append, per_topic=per_topic, summary=summary, zscores=zscores, block=block
        )
        return "".join(out)

    def write(
        self,
        res: Results,
        write: Callable[[str], object],
        *,
        per_topic: bool = False,
        summary: bool = True,
        zscores: dict[tuple[str, str], tuple[float, float]] | None = None,
        block: int = 1000,
    ) -> None:
        """:meth:`text` passed to ``write`` in pieces of ``block`` topics."""
        shown, totals = self.view(res, zscores)
        write_trec_eval(
            shown,
            write,
            self.names,
            per_topic=per_topic,
            summary=summary,
            zscore=zscores is not None,
            block=block,
            totals=totals,
        )


def _prefs_request(specs: list[str] | None) -> tuple[list[str] | None, str | None]:
    """``-m`` arguments as the preference measures take them: the names given (None: the
    nickname's, or every one of the kind) and the nickname given last, if any."""
    nick = None
    names: list[str] = []
    for s in specs or []:
        n = s.partition(".")[0]
        if n in ("all_prefs", "prefs", "qrels_jg", "official", "all_trec", "set"):
            nick = n
        else:
            names.append(s)
    return (names or None), nick


def _topics(res: Results, keep: list[bool]) -> Results:
    """``res`` restricted to the topics ``keep`` marks."""
    idx = [i for i, k in enumerate(keep) if k]
    return Results(
        res.values[:, idx],
        res.measures,
        [res.topics[i] for i in idx],
        {c: a[:, idx] for c, a in res.columns.items()},
        res.run,
        res.aggregates,
        text={m: [v[i] for i in idx] for m, v in res.text.items()},
        absent=[t for t in res.absent if t in {res.topics[i] for i in idx}],
    )


def _rows(res: Results, n: int) -> Results:
    """``res`` with its first ``n`` measures."""
    if len(res.measures) == n:
        return res
    return Results(
        res.values[:n],
        res.measures[:n],
        res.topics,
        {c: a[:n] for c, a in res.columns.items()},
        res.run,
        (res.aggregates or [])[:n],
        {m: v for m, v in res.text.items() if m in res.measures[:n]},
        res.absent,
    )


def _with_values(res: Results, values: np.ndarray) -> Results:
    from dataclasses import replace

    return replace(res, values=values)


def _to_z(zs: dict, topics: list[str], name: str, v: np.ndarray) -> np.ndarray:
    """trec_eval's -Z: ``(value - mean) / stddev`` of each topic's (mean, stddev) for the
    printed ``name``; :data:`MISSING_ZSCORE` without them, or with a zero deviation and a
    value other than the mean (0 when equal)."""
    out = np.empty_like(v)
    for i, t in enumerate(topics):
        got = zs.get((t, name))
        if got is None:
            out[i] = MISSING_ZSCORE
            continue
        mean, sd = got
        if sd:
            out[i] = (v[i] - mean) / sd
        else:
            out[i] = 0.0 if v[i] == mean else MISSING_ZSCORE
    return out


def evaluate_trec(
    qrels: Any,
    run: Any,
    specs: list[str] | None = None,
    **options: Any,
) -> Results:
    """trec_eval's evaluation of one run (see :class:`TrecEval`; ``options`` are
    :meth:`TrecEval.create`'s): the Results of :meth:`TrecEval.evaluate`, measures under
    their canonical names in trec_eval's order."""
    return TrecEval.create(qrels, specs, **options).evaluate(run)


def trec_summary(results: Results, totals: Totals | None = None) -> dict[str, float]:
    """Every measure's ``all`` value as trec_eval prints it (see :class:`Totals`)."""
    t = totals or Totals()
    return {m: _summary_value(results, i, t) for i, m in enumerate(results.measures)}


def _reading(version: int) -> str:
    """The reader rules of trec_eval ``version`` (:mod:`cwlkit.io.rules`): labels read as C's
    ``atol``, fields after a run line's sixth ignored, and in 10.0 ``#`` lines skipped."""
    return "trec_eval_10" if version >= 10 else "trec_eval"
