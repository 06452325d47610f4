"""``cwlkit.report(...)``: evaluate runs once, test them, and render the comparison report.

::

    import cwlkit
    rep = cwlkit.report("qrels.txt", ["a.run", "b.run", "c.run"], ["P@10", "AP"],
                        baseline="a.run", test="t", correction="holm")
    rep.table.mean               # [runs, measures]  (cwlkit.stats.ReportTable)
    rep.save("report.html")      # or .tex, .md, .csv, .json; rep.to_latex(), ...

Each run is read and scored once with every measure (:class:`cwlkit.Evaluator`); its ranking
batch also gives the 11-point precision-recall curve before it is dropped. The numbers come
from :func:`cwlkit.stats.report.report_table`, the formats from this package's ``html``,
``latex``, ``markdown`` and ``data`` modules.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from ..errors import ParamError
from ..results import Results
from .model import ReportData

FORMATS = ("html", "text", "tsv", "csv", "json", "markdown", "latex")
SUFFIXES = {
    ".html": "html",
    ".htm": "html",
    ".tex": "latex",
    ".md": "markdown",
    ".markdown": "markdown",
    ".csv": "csv",
    ".tsv": "tsv",
    ".txt": "text",
    ".json": "json",
}


class Report(ReportData):
    """A comparison report (see :class:`~cwlkit.comparison.model.ReportData` for what it
    holds), rendered in HTML, text, TSV, CSV, JSON, Markdown or LaTeX.
    """

    def to_html(self, *, plots: bool = True, distribution: str = "box") -> str:
        """One self-contained HTML page (inline CSS, SVG and script; nothing fetched)."""
        from .html import render_html

        return render_html(self, plots=plots, distribution=distribution)

    def to_latex(self, *, label: str = "tab:results") -> str:
        """A booktabs table (``\\usepackage{booktabs}``): best in bold, marks as superscripts."""
        from .latex import render_latex

        return render_latex(self.table, label=label, named_baseline=self.has_baseline)

    def to_markdown(self) -> str:
        """A GitHub-flavoured Markdown table and its legend."""
        from .markdown import render_markdown

        return render_markdown(self.table, title=self.title, named_baseline=self.has_baseline)

    def to_csv(self) -> str:
        """One row per (run, measure), full precision."""
        from .data import render_csv

        return render_csv(self.table)

    def to_tsv(self) -> str:
        """:meth:`to_csv`'s rows, tab-separated."""
        from .data import render_csv

        return render_csv(self.table, delimiter="\t")

    def to_text(self) -> str:
        """The Markdown table's cells as aligned plain text, and its legend."""
        from .markdown import render_text

        return render_text(self.table, title=self.title, named_baseline=self.has_baseline)

    def to_json(self) -> str:
        """Every number, the settings and the curves."""
        from .data import render_json

        return render_json(self)

    def render(self, format: str = "html", **kw: Any) -> str:
        """The report in one of :data:`FORMATS`."""
        fmt = str(format).lower()
        if fmt not in FORMATS:
            raise ParamError(f"unknown report format {format!r} (choose from {', '.join(FORMATS)})")
        return getattr(self, f"to_{fmt}")(**kw)

    def save(self, path: str | os.PathLike, format: str | None = None, **kw: Any) -> str:
        """Write the report to ``path`` (format from its suffix unless given); return the
        format written."""
        fmt = format or format_for(path)
        text = self.render(fmt, **kw)
        with open(path, "w", encoding="utf-8", newline="") as fh:
            fh.write(text)
        return fmt

    def _repr_html_(self) -> str:  # Jupyter
        return self.to_html()


def format_for(path: str | os.PathLike) -> str:
    """The format a file name asks for (``.html``, ``.tex``, ``.md``, ``.csv``, ``.json``)."""
    suffix = os.path.splitext(str(path))[1].lower()
    if suffix not in SUFFIXES:
        raise ParamError(
            f"cannot tell the report format from {os.fspath(path)!r}: use a name ending in "
            f"{', '.join(SUFFIXES)} or give the format"
        )
    return SUFFIXES[suffix]


def report(
    qrels: Any,
    runs: Any,
    measures: Any = None,
    *,
    baseline: str | None = None,
    pairwise: bool | None = None,
    test: str = "t",
    correction: str = "none",
    alpha: float = 0.05,
    anova: bool = False,
    risk: float | None = None,
    samples: int = 10_000,
    seed: int | None = 0,
    title: str | None = None,
    curves: bool = True,
    progress: bool | None = None,
    jobs: int | None = 1,
    **options: Any,
) -> Report:
    """Evaluate ``runs`` against ``qrels`` with ``measures`` and build a comparison report.

    Parameters
    ----------
    qrels : path, DataFrame, dict, ... or None
        The judgements (anything :class:`cwlkit.Evaluator` takes); ``None`` when ``runs``
        are already evaluated.
    runs : sequence or mapping
        Runs: paths (named by :func:`run_names`: ``runs/input.x.gz`` is ``input.x``),
        ``{name: run}``, other runs (DataFrames, ...: ``run1``, ``run2``...), or
        ``{name: Results}`` already evaluated (then no precision-recall curves). A run has
        its name in every format of the report.
    measures : str or sequence, optional
        Measure names (``"P@10"``, ``"AP"``, ``"RBP(p=0.8)"``...); default the headline
        measures :data:`cwlkit.measures.registry.HEADLINE_MEASURES` (AP, nDCG@10, P@10, RR).
    baseline : str, optional
        The baseline run's name: ▲/▼ marks against it. Without it the marks are pairwise
        letters (ranx's style) and the first run is the reference of Δ%, W/T/L and effect.
    pairwise : bool, optional
        Letters over every pair even with a baseline.
    test : {"t", "wilcoxon", "sign", "randomization", "bootstrap", "tukey"}
    correction : str
        ``none``, ``bonferroni``, ``holm``, ``bh`` (``fdr_bh``), ``by``, ``sidak``,
        ``holm-sidak``, ``simes-hochberg``, ``hommel``, ``fdr_tsbh``, ``fdr_tsbky``.
    alpha : float
        Significance level; intervals at ``1 - alpha``.
    anova : bool
        Add each measure's two-way ANOVA of topics x systems.
    risk : float, optional
        Add each measure's URisk, TRisk, ZRisk and GeoRisk with this alpha (>= 0): losses
        weigh ``1 + risk`` (:mod:`cwlkit.stats.risk`).
    samples, seed :
        For the randomization and bootstrap tests.
    title : str, optional
        Title of the page / table.
    curves : bool
        Compute each run's 11-point precision-recall curve (for the HTML page).
    progress : bool, optional
        Progress bar on stderr while runs are evaluated (default: on a terminal only).
    jobs : int or None, default 1
        Processes evaluating the runs (None: every available core); the same numbers for
        any value.
    **options :
        :class:`cwlkit.Evaluator`'s options (``topics``, ``gain``, ``order``, ...).
    """
    from ..stats.report import report_table
    from ..support.checks import check_bool

    curves = check_bool("curves", curves)
    if progress is not None:
        progress = check_bool("progress", progress)

    if isinstance(runs, Mapping) and runs and all(isinstance(v, Results) for v in runs.values()):
        results = {str(k): v for k, v in runs.items()}
        raw_curves: dict[str, tuple[list[str], np.ndarray]] = {}
        source: dict[str, Any] = {"qrels": _describe(qrels) if qrels is not None else None}
    else:
        if qrels is None:
            raise ParamError("report: give the qrels to evaluate the runs with")
        if measures is None:
            from ..measures.registry import HEADLINE_MEASURES

            measures = list(HEADLINE_MEASURES)
        if isinstance(runs, (str, os.PathLike)):
            runs = [runs]
        if _paths(runs):
            names = run_names(runs)
            baseline = resolve_baseline(baseline, names, runs)
            runs = dict(zip(names, runs, strict=True))
        results, raw_curves = _evaluate(qrels, runs, measures, curves, progress, options, jobs)
        source = {"qrels": _describe(qrels), **{k: _plain(v) for k, v in options.items()}}
    if len(results) < 2:
        raise ParamError(f"a report compares at least 2 runs; got {len(results)}")
    table = report_table(
        results,
        baseline=baseline,
        pairwise=pairwise,
        test=test,
        correction=correction,
        alpha=alpha,
        anova=anova,
        risk=risk,
        samples=samples,
        seed=seed,
    )
    levels = None
    pr: dict[str, np.ndarray] = {}
    if raw_curves:
        from ..measures.curves import STANDARD_LEVELS

        levels = STANDARD_LEVELS.copy()
        for name in table.runs:
            topics, interp = raw_curves[name]
            pos = {t: i for i, t in enumerate(topics)}
            pr[name] = interp[[pos[t] for t in table.topics]].mean(axis=0)
    source["measures"] = list(table.measures)
    return Report(
        table=table,
        title=title,
        levels=levels,
        pr_curves=pr,
        source=source,
        named_baseline=baseline is not None,
    )


#: suffixes a run's name drops: a compression suffix, then a run file's extension
COMPRESSED = (".gz", ".bz2", ".xz", ".zst")
RUN_EXTENSIONS = (".run", ".txt", ".trec", ".res")


def run_names(paths: Sequence[str | os.PathLike]) -> list[str]:
    """The name a report gives each run read from ``paths``, the same in every format.

    The rule: the file name without its directory, without a compression suffix
    (:data:`COMPRESSED`: ``.gz``, ``.bz2``, ``.xz``, ``.zst``) and then without a run
    file's extension (:data:`RUN_EXTENSIONS`: ``.run``, ``.txt``, ``.trec``, ``.res``), when
    something is left: ``runs/input.aplrob03a.gz`` -> ``input.aplrob03a``,
    ``web2012.ql.cata.run`` -> ``web2012.ql.cata``. The names are unique: runs whose names
    collide are named by their file names, then by their paths as given, and a path given
    twice gets ``#2``, ``#3``...

    Examples
    --------
    >>> run_names(["a/x.run.gz", "b/y.txt"])
    ['x', 'y']
    >>> run_names(["a/x.run", "b/x.txt", "c/x.run"])
    ['a/x.run', 'x.txt', 'c/x.run']
    """
    given = [os.fspath(p) for p in paths]
    files = [os.path.basename(p) or p for p in given]
    names = [_strip(f) for f in files]
    for fallback in (files, given):
        counts: dict[str, int] = {}
        for n in names:
            counts[n] = counts.get(n, 0) + 1
        names = [fallback[i] if counts[n] > 1 else n for i, n in enumerate(names)]
    seen: dict[str, int] = {}
    out = []
    for n in names:
        seen[n] = seen.get(n, 0) + 1
        out.append(n if seen[n] == 1 else f"{n}#{seen[n]}")
    return out


def resolve_baseline(
    name: str | os.PathLike | None, names: Sequence[str], paths: Sequence[Any]
) -> str | None:
    """The report's name of the run ``name`` designates: its name in the report, its path
    as given, or its file name (when only one run has it); None for None."""
    if name is None:
        return None
    key = os.fspath(name)
    if key in names:
        return key
    given = [os.fspath(p) if isinstance(p, (str, os.PathLike)) else None for p in paths]
    files = [os.path.basename(p) if p is not None else None for p in given]
    for candidates in (given, files):
        if candidates.count(key) == 1:
            return names[candidates.index(key)]
    raise ParamError(f"baseline {key!r} is not one of the runs ({', '.join(names)})")


def _strip(name: str) -> str:
    for suffixes in (COMPRESSED, RUN_EXTENSIONS):
        for suffix in suffixes:
            if name.lower().endswith(suffix) and len(name) > len(suffix):
                name = name[: -len(suffix)]
                break
    return name


def _paths(runs: Any) -> bool:
    """``runs`` is a non-empty sequence of paths."""
    return (
        isinstance(runs, Sequence)
        and not isinstance(runs, str)
        and len(runs) > 0
        and all(isinstance(r, (str, os.PathLike)) for r in runs)
    )


def _plain(v: Any) -> Any:
    return v if v is None or isinstance(v, (bool, int, float, str)) else _describe(v)


def _describe(obj: Any) -> str:
    if isinstance(obj, (str, os.PathLike)):
        return os.path.basename(os.fspath(obj)) or os.fspath(obj)
    return type(obj).__name__


def _evaluate(
    qrels: Any,
    runs: Any,
    measures: Any,
    curves: bool,
    progress: bool | None,
    options: dict,
    jobs: int | None = 1,
) -> tuple[dict[str, Results], dict[str, tuple[list[str], np.ndarray]]]:
    """Score every run once with the measures and, for the curves, the interpolated
    precision at the 11 standard recall levels (``IntP(r=0)`` ... ``IntP(r=1)``: the
    11-point curve of ``cwlkit.pr_curve``, computed on the same batch), in ``jobs``
    processes (:meth:`Evaluator.evaluate_many`)."""
    from ..api import Evaluator, named_runs, parse_list
    from ..measures.curves import STANDARD_LEVELS

    wanted = list(dict.fromkeys(m.name for m in parse_list(measures)))
    levels = [m.name for m in parse_list([f"IntP(r={x:g})" for x in STANDARD_LEVELS])]
    extra = [n for n in levels if n not in wanted] if curves else []
    ev = Evaluator(qrels, [*wanted, *extra], **options)
    items = named_runs(runs)
    if len({n for n, _ in items}) != len(items):
        raise ParamError("run names must be distinct")
    scored = ev.evaluate_many(dict(items), jobs=jobs, progress=progress)
    results = {name: res.select(wanted) for name, res in scored.items()}
    raw: dict[str, tuple[list[str], np.ndarray]] = {}
    if curves:
        for name, res in scored.items():
            raw[name] = (list(res.topics), res.select(levels).values.T.copy())
    return results, raw
