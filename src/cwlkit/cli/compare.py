"""``cwlkit compare QRELS RUN1 RUN2 [RUN...] -m MEASURE``: mean scores and paired tests."""

from __future__ import annotations

import argparse

DESCRIPTION = """\
Evaluate every run with every measure, print the mean scores, and compare each run with the
first (or every pair of runs with --all-pairs) with a paired two-sided test over topics: the
difference of the means, its confidence interval and the p-value, adjusted for multiple
testing across all comparisons made (every measure and pair together) with --correction.

Runs are paired on the topics they all have; the means are over those topics too. Intervals
are at confidence 1 - alpha and not adjusted. Tests (see docs/statistics.md):
  t              paired Student's t (scipy.stats.ttest_rel); CI for the mean difference
  wilcoxon       signed-rank (scipy.stats.wilcoxon); CI for the Hodges-Lehmann pseudo-median
  sign           binomial sign test; CI for the median difference
  randomization  sign-flip permutation test, --samples draws; CI by inverting the test
  bootstrap      topics resampled with replacement; shift-method p, percentile CI
  tukey          Tukey's HSD over all runs per measure (scipy.stats.tukey_hsd): p-values
                 already adjusted for every pair, simultaneous CIs; --correction none
--anova adds each measure's two-way ANOVA of topics x systems (F test of the systems).
Corrections are statsmodels' multipletests methods (bh = fdr_bh, by = fdr_by).
A '*' marks comparisons significant at alpha after the correction.
"""

FORMATS = ("text", "tsv", "csv", "json", "markdown", "latex")


def build_parser():
    from ..stats.correct import CHOICES
    from ..stats.multi import MULTI_TESTS
    from ..stats.tests import TESTS
    from ._options import QL, QRELS, RM, add_evaluation_options, add_measure_option, examples
    from .main import ArgumentParser

    p = ArgumentParser(
        prog="cwlkit compare",
        description=DESCRIPTION,
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog=examples(
            f"cwlkit compare {QRELS} {QL} {RM} -m P@10 AP",
            f"cwlkit compare {QRELS} {QL} {RM} -m AP nDCG@10 --test randomization "
            "--samples 1000 --correction holm -f markdown",
            f"cwlkit compare {QRELS} {QL} {RM} -m 'ERR@20 RBP(p=0.8)' --anova -f csv",
        ),
    )
    p.add_argument("qrels", help="TREC qrels: topic iteration document label")
    p.add_argument(
        "runs", nargs="+", metavar="RUN", help="TREC runs (at least two); the first is the baseline"
    )
    add_measure_option(p)
    p.add_argument(
        "--test", choices=TESTS + MULTI_TESTS, default="t", help="paired test (default t)"
    )
    p.add_argument(
        "--correction",
        choices=CHOICES,
        default="none",
        help="multiple-testing correction across all comparisons (default none)",
    )
    p.add_argument(
        "--alpha",
        type=float,
        default=0.05,
        help="significance level; intervals at 1 - alpha (default 0.05)",
    )
    p.add_argument(
        "--all-pairs",
        action="store_true",
        help="compare every pair of runs, not each with the first",
    )
    p.add_argument(
        "--anova",
        action="store_true",
        help="add each measure's two-way ANOVA of topics x systems",
    )
    p.add_argument(
        "--per-topic",
        action="store_true",
        help="print the scores the tests pair instead, one row per run and topic "
        "(as 'cwlkit evaluate --per-topic')",
    )
    p.add_argument(
        "--samples",
        type=int,
        default=10_000,
        help="Monte-Carlo samples for randomization/bootstrap (default 10000)",
    )
    p.add_argument(
        "--seed", type=int, default=0, help="random seed for randomization/bootstrap (default 0)"
    )
    add_evaluation_options(p, FORMATS)
    return p


_TEST_NAMES = {
    "t": "paired t-test",
    "wilcoxon": "Wilcoxon signed-rank test",
    "sign": "sign test",
    "randomization": "randomization (sign-flip) test",
    "bootstrap": "paired bootstrap",
    "tukey": "Tukey's HSD",
}


def _anova_rows(table) -> tuple[list[str], list[list]]:
    """Header and rows of the ANOVA tables (measure, source, df, SS, MS, F, p)."""
    head = ["measure", "source", "df", "sum_sq", "mean_sq", "F", "p_value"]
    rows = [
        [m, r["source"], r["df"], r["sum_sq"], r["mean_sq"], r["F"], r["p_value"]]
        for m, res in table.anova.items()
        for r in res.to_records()
    ]
    return head, rows


def render(table, fmt: str) -> str:
    """The comparison table in one of :data:`FORMATS`."""
    from ..stats.comparison import COLUMNS
    from ..stats.render import (
        dump_json,
        fmt_num,
        fmt_p,
        table_csv,
        table_latex,
        table_markdown,
        table_text,
        table_tsv,
    )

    recs = table.records
    if fmt == "json":
        return dump_json(
            {
                "test": table.test,
                "correction": table.correction,
                "alpha": table.alpha,
                "confidence": 1.0 - table.alpha,
                "samples": table.samples,
                "seed": table.seed,
                "topics": len(table.topics),
                "runs": table.runs,
                "measures": table.measures,
                "means": table.means_records(),
                "comparisons": recs,
                **(
                    {"anova": {m: a.to_records() for m, a in table.anova.items()}}
                    if table.anova
                    else {}
                ),
            }
        )
    if fmt in ("tsv", "csv"):
        render_data = table_tsv if fmt == "tsv" else table_csv
        return render_data(COLUMNS, [[r[c] for c in COLUMNS] for r in recs])
    conf = f"{100 * (1 - table.alpha):g}%"
    mc = f", {table.samples} samples, seed {table.seed}" if table.samples is not None else ""
    ncmp = f"{len(recs)} comparison{'s' if len(recs) != 1 else ''}"
    corr = "no correction" if table.correction == "none" else f"{table.correction} correction"
    if table.test == "tukey":
        corr = "p-values adjusted for every pair of runs of a measure"
    head = (
        f"{_TEST_NAMES.get(table.test, table.test)} (two-sided{mc}); {ncmp}, {corr}; "
        f"alpha {table.alpha:g}; {len(table.topics)} topics"
    )
    dropped = {k: v for k, v in table.dropped.items() if v}
    note = ""
    if dropped:
        note = "topics not in every run were left out: " + ", ".join(
            f"{k} ({v})" for k, v in dropped.items()
        )
    mean_header = ["run", *table.measures]
    mean_rows = [
        [run, *(fmt_num(float(v)) for v in table.means[i])] for i, run in enumerate(table.runs)
    ]
    p_adj = "p" if table.correction == "none" else f"p ({table.correction})"
    cmp_header = ["measure", "run", "vs", "diff", f"{conf} CI", "p", p_adj, ""]
    cmp_rows = [
        [
            r["measure"],
            r["run"],
            r["baseline"],
            fmt_num(r["diff"], signed=True),
            f"[{fmt_num(r['ci_low'], signed=True)}, {fmt_num(r['ci_high'], signed=True)}]",
            fmt_p(r["p_value"]),
            fmt_p(r["p_adjusted"]),
            "*" if r["significant"] else "",
        ]
        for r in recs
    ]
    if table.correction == "none":  # the adjusted column would repeat p
        cmp_header = cmp_header[:6] + cmp_header[7:]
        cmp_rows = [row[:6] + row[7:] for row in cmp_rows]
    anova_parts: list[str] = []
    if table.anova:
        a_head, a_rows = _anova_rows(table)
        cells = [
            [m, src, f"{df:g}", fmt_num(ss), fmt_num(ms)]
            + (["", ""] if src == "residual" else [fmt_num(f, 3), fmt_p(p)])
            for m, src, df, ss, ms, f, p in a_rows
        ]
        right_a = [False, False, True, True, True, True, True]
        render_t = {"markdown": table_markdown, "latex": table_latex}.get(fmt, table_text)
        anova_parts = [render_t(a_head, cells, right_a)]
    right_m = [False] + [True] * len(table.measures)
    right_c = [False, False, False, True, False] + [True] * (len(cmp_header) - 6) + [False]
    if fmt == "markdown":
        parts = [
            f"{head}\n",
            table_markdown(mean_header, mean_rows, right_m),
            table_markdown(cmp_header, cmp_rows, right_c),
        ]
        if note:
            parts.append(note + "\n")
        return "\n".join(parts + anova_parts)
    if fmt == "latex":
        parts = [f"% {head}\n"] + ([f"% {note}\n"] if note else [])
        parts += [
            table_latex(mean_header, mean_rows, right_m),
            table_latex(cmp_header, cmp_rows, right_c),
        ]
        if anova_parts:
            parts += ["% two-way ANOVA, topics x systems (score ~ system + topic)\n", *anova_parts]
        return "".join(parts)
    parts = [f"# {head}\n"] + ([f"# {note}\n"] if note else [])
    parts += [
        table_text(mean_header, mean_rows, right_m),
        "\n",
        table_text(cmp_header, cmp_rows, right_c),
    ]
    if anova_parts:
        parts += ["\n# two-way ANOVA, topics x systems (score ~ system + topic)\n", *anova_parts]
    return "".join(parts)


def main(argv: list[str]) -> int:
    from ..errors import CwlkitError, ParamError
    from ..stats.comparison import compare
    from ..stats.runs import evaluate_runs
    from ._options import apply_quiet, output_format, parse_measure_args, write_output

    args = build_parser().parse_args(argv)
    fmt = output_format(args)
    if len(args.runs) < 2:
        raise CwlkitError("cwlkit compare: needs at least two runs (QRELS RUN1 RUN2 [RUN...])")
    if not args.measures:
        raise CwlkitError("cwlkit compare: name at least one measure with -m (e.g. -m P@10 AP)")
    if args.samples < 1:
        raise ParamError(f"--samples must be >= 1; got {args.samples}")
    measures = parse_measure_args(args.measures)
    results = evaluate_runs(
        args.qrels,
        args.runs,
        measures,
        order=args.order,
        topics=args.topics,
        gain=args.gain,
        jobs=args.jobs,
        progress=apply_quiet(args),
    )
    if args.per_topic:
        from ..formats.table import format_table

        write_output(args, format_table(results, per_topic=True, fmt=fmt))
        return 0
    table = compare(
        results,
        test=args.test,
        correction=args.correction,
        alpha=args.alpha,
        all_pairs=args.all_pairs,
        samples=args.samples,
        seed=args.seed,
        anova=args.anova,
    )
    write_output(args, render(table, fmt))
    return 0
