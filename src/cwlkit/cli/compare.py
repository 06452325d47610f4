"""``cwlkit compare QRELS RUN1 RUN2 [RUN...] -m MEASURE``: mean scores and paired tests."""

from __future__ import annotations

import argparse

from ..formats.table import FORMATS

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
--anova adds each measure's two-way ANOVA of topics x systems (F test of the systems);
--risk ALPHA the risk-sensitive measures URisk, TRisk, ZRisk and GeoRisk (docs/risk.md).
Corrections are statsmodels' multipletests methods (bh = fdr_bh, by = fdr_by).
A '*' in the column sig. marks comparisons significant at alpha after the correction.
"""


def build_parser():
    from ..stats.correct import CHOICES
    from ..stats.multi import MULTI_TESTS
    from ..stats.tests import TESTS
    from ._options import (
        QL,
        QRELS,
        RM,
        add_evaluation_options,
        add_measure_option,
        examples,
        headline_help,
    )
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
            f"cwlkit compare {QRELS} {QL} {RM} -m nDCG@20 --risk 1",
        ),
    )
    p.add_argument("qrels", help="TREC qrels: topic iteration document label")
    p.add_argument(
        "runs", nargs="+", metavar="RUN", help="TREC runs (at least two); the first is the baseline"
    )
    add_measure_option(p, help=headline_help())
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
        "--risk",
        type=float,
        metavar="ALPHA",
        help="add each measure's URisk and TRisk against the first run (losses weigh "
        "1 + ALPHA) and ZRisk and GeoRisk over the runs (text, markdown, latex, json)",
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
        "--seed",
        type=int,
        default=0,
        help="random seed for randomization/bootstrap, an integer >= 0 (default 0)",
    )
    add_evaluation_options(p, FORMATS)
    return p


def check_monte_carlo(args: argparse.Namespace) -> None:
    """``--alpha``, ``--samples`` and ``--seed`` by the option contract, before any run is
    read (``cwlkit compare`` and ``cwlkit report``)."""
    from ..stats.tests import MAX_SAMPLES
    from ..support.checks import check_int, check_probability

    check_probability("--alpha", args.alpha)
    check_int("--samples", args.samples, least=1, most=MAX_SAMPLES)
    check_int("--seed", args.seed, least=0)


def main(argv: list[str]) -> int:
    from ..errors import CwlkitError
    from ..formats.comparison import format_comparison
    from ..stats.comparison import compare
    from ._options import evaluate_from_args, measure_args_or_headline, output_format, write_output

    args = build_parser().parse_args(argv)
    fmt = output_format(args)
    if len(args.runs) < 2:
        raise CwlkitError("cwlkit compare: needs at least two runs (QRELS RUN1 RUN2 [RUN...])")
    check_monte_carlo(args)
    measures = measure_args_or_headline(args.measures)
    results = evaluate_from_args(args, measures)
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
        risk=args.risk,
    )
    write_output(args, format_comparison(table, fmt))
    return 0
