"""``cwlkit report QRELS RUN... -m NAME...``: a comparison report in HTML, LaTeX, Markdown,
CSV or JSON."""

from __future__ import annotations

import argparse
from typing import Any

DESCRIPTION = """\
Evaluate every run once with every measure, test the runs against a baseline (--baseline)
or every pair of runs (the default, with a letter per run as ranx prints them), and write
a report: per run and measure the mean and its confidence interval, the significance marks,
the relative change, the topics won, tied and lost against the baseline, and Cohen's d_z.

Formats (-f): html (one self-contained page: sortable table, legend, plots of per-topic
differences, per-topic score distributions, 11-point precision-recall curves and C/W/L
expected depths), latex (a booktabs table: best in bold, marks as superscripts, a caption
naming the test, correction and alpha), markdown, text, csv and tsv (one row per run and
measure), json. Without -f the format follows -o FILE's suffix (.html .tex .md .txt .csv
.tsv .json); without either, Markdown is printed. Measures are named by their canonical
names (-m MAP prints AP).

Tests: t, wilcoxon, sign, randomization, bootstrap (paired, see 'cwlkit compare --help'),
tukey (Tukey's HSD over all runs per measure; its p-values are already adjusted). The
correction (any of statsmodels' multipletests methods) is applied across every comparison
made. --anova adds each measure's two-way ANOVA of topics x systems.
"""


def build_parser():
    from ..comparison.build import FORMATS
    from ..stats.correct import CHOICES
    from ..stats.multi import MULTI_TESTS
    from ..stats.tests import TESTS
    from ._options import (
        QL,
        QRELS,
        RM,
        RUNS,
        add_jobs_option,
        add_measure_option,
        add_output_options,
        add_quiet_option,
        add_ranking_options,
        examples,
        headline_help,
    )
    from .main import ArgumentParser

    p = ArgumentParser(
        prog="cwlkit report",
        description=DESCRIPTION,
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog=examples(
            f"cwlkit report {QRELS} {QL} {RM} -m P@10 AP nDCG@10",
            f"cwlkit report {QRELS} {RUNS} -m AP 'RBP(p=0.8)' "
            "--baseline web2012.ql.cata.run.gz --correction holm -f text",
            f"cwlkit report {QRELS} {QL} {RM} -m AP -f latex --title 'Web 2012'",
            f"cwlkit report {QRELS} {QL} {RM} -m P@10 AP -o report.html",
        ),
    )
    p.add_argument("qrels", help="TREC qrels: topic iteration document label")
    p.add_argument("runs", nargs="+", metavar="RUN", help="TREC runs (at least two)")
    add_measure_option(p, help=headline_help())
    p.add_argument(
        "--baseline",
        metavar="RUN",
        help="the baseline run: its name in the report, its file name or its path",
    )
    p.add_argument(
        "--pairwise",
        action="store_true",
        help="letters over every pair of runs even with --baseline",
    )
    p.add_argument("--test", choices=TESTS + MULTI_TESTS, default="t", help="the test (default t)")
    p.add_argument(
        "--correction",
        choices=CHOICES,
        default="none",
        metavar="METHOD",
        help=f"multiple-testing correction: {', '.join(CHOICES)} (default none)",
    )
    p.add_argument("--alpha", type=float, default=0.05, help="significance level (default 0.05)")
    p.add_argument("--anova", action="store_true", help="add the two-way ANOVA per measure")
    p.add_argument(
        "--diff-pages",
        action="store_true",
        help="with -o REPORT.html: write the two runs of each comparison that some topic "
        "decides side by side (cwlkit diff, depth 10) into REPORT_diff/, and link the topics",
    )
    p.add_argument(
        "--risk",
        type=float,
        metavar="ALPHA",
        help="add each measure's URisk and TRisk against the baseline (losses weigh "
        "1 + ALPHA) and ZRisk and GeoRisk over the runs (html, text, markdown, json)",
    )
    p.add_argument(
        "--samples", type=int, default=10_000, help="randomization/bootstrap samples (10000)"
    )
    p.add_argument(
        "--seed", type=int, default=0, help="randomization/bootstrap seed, an integer >= 0 (0)"
    )
    add_output_options(p, FORMATS, default="markdown")
    p.add_argument("--title", help="title of the page or table")
    p.add_argument(
        "--distribution",
        choices=("box", "violin"),
        default="box",
        help="per-topic score plots in HTML (default box)",
    )
    p.add_argument("--no-plots", action="store_true", help="HTML without plots")
    add_ranking_options(p)
    add_jobs_option(p)
    add_quiet_option(p)
    return p


def _baseline(name: str | None, labels: list[str], paths: list[str]) -> str | None:
    """The run ``--baseline`` names: its name in the report, its file name or its path as
    given."""
    from ..comparison.build import resolve_baseline
    from ..errors import ParamError

    try:
        return resolve_baseline(name, labels, paths)
    except ParamError:
        raise ParamError(
            f"--baseline {name!r} is not one of the runs ({', '.join(labels)})"
        ) from None


def main(argv: list[str]) -> int:
    from ..comparison.build import format_for, report, run_names
    from ..errors import CwlkitError
    from ._options import apply_quiet, measure_args_or_headline, output_format, write_output
    from .compare import check_monte_carlo

    args = build_parser().parse_args(argv)
    if len(args.runs) < 2:
        raise CwlkitError("cwlkit report: needs at least two runs (QRELS RUN1 RUN2 [RUN...])")
    check_monte_carlo(args)
    # -o FILE with an unknown suffix is an error here (no table format to fall back on)
    fmt = output_format(args) if args.format or not args.output else format_for(args.output)
    progress = apply_quiet(args)
    labels = run_names(args.runs)
    baseline = _baseline(args.baseline, labels, args.runs)
    rep = report(
        args.qrels,
        dict(zip(labels, args.runs, strict=True)),
        measure_args_or_headline(args.measures),
        baseline=baseline,
        pairwise=True if args.pairwise else None,
        test=args.test,
        correction=args.correction,
        alpha=args.alpha,
        anova=args.anova,
        risk=args.risk,
        samples=args.samples,
        seed=args.seed,
        title=args.title,
        curves=fmt == "html" and not args.no_plots,
        order=args.order,
        topics=args.topics,
        gain=args.gain,
        progress=progress,
        jobs=args.jobs,
    )
    if args.diff_pages:
        if fmt != "html" or not args.output:
            raise CwlkitError("cwlkit report: --diff-pages needs -o REPORT.html")
        _diff_pages(rep, args, dict(zip(labels, args.runs, strict=True)))
    kw = {"plots": not args.no_plots, "distribution": args.distribution} if fmt == "html" else {}
    write_output(args, rep.render(fmt, **kw))
    return 0


def _diff_pages(rep: Any, args: Any, paths: dict[str, str]) -> None:
    """Write a diff page (baseline as A, the run as B) for each comparison some topic
    decides, into ``REPORT_diff/`` beside the report, and link them from it."""
    from pathlib import Path

    from ..rundiff import diff

    out = Path(args.output)
    folder = out.with_name(out.stem + "_diff")
    wanted = [r for r in rep.table.deciding or [] if r["topics"]]
    if wanted:
        folder.mkdir(exist_ok=True)
    for k, r in enumerate(wanted, 1):
        page = diff(
            args.qrels,
            paths[r["baseline"]],
            paths[r["run"]],
            r["measure"],
            names=(r["baseline"], r["run"]),
            order=args.order,
            topics=args.topics,
            gain=args.gain,
        )
        name = f"diff-{k}.html"
        page.save(folder / name)
        rep.diff_links[(r["run"], r["baseline"], r["measure"])] = f"{folder.name}/{name}"
