"""``cwlkit gdeval [-k K] [-c] [-baseline RUN -riskAlpha A] QRELS RUN``: the TREC Web Track's
gdeval.pl, byte for byte."""

from __future__ import annotations

import argparse
import sys

DESCRIPTION = """\
Flags and output of gdeval.pl v1.3 (the TREC Web Track's nDCG@k and ERR@k).

Print what gdeval.pl v1.3 prints: CSV 'runid,topic,ndcg@K,err@K', one line per topic that is
in the run and has a label > 0 in the qrels (topics in numeric order), then the 'amean' line.
nDCG@K uses gain 2^g-1 and discount log2(rank+1) with the ideal ranking from the qrels cut at
K; ERR@K uses r = (2^g-1)/2^4. The run is ordered by score, ties by docno descending.
With -baseline B, each value is run - B on the topic, losses multiplied by 1 + riskAlpha.

Unlike gdeval.pl, topic ids need not be numeric (digit ids sort first, numerically, then the
others), and grades above 4 are accepted: ERR's maximum grade becomes the largest grade, with
a warning on stderr, unless --max-grade sets it. See docs/err.md.
"""


def build_parser():
    from ._options import QL, QRELS, RM, examples
    from .main import ArgumentParser

    p = ArgumentParser(
        prog="cwlkit gdeval",
        description=DESCRIPTION,
        epilog=examples(
            f"cwlkit gdeval {QRELS} {QL}",
            f"cwlkit gdeval -k 10 {QRELS} {QL}",
            f"cwlkit gdeval -baseline {RM} -riskAlpha 1 {QRELS} {QL}",
        ),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("qrels", help="TREC qrels: topic iteration document grade")
    p.add_argument("run", help="TREC run: topic Q0 document rank score tag (plain or .gz)")
    p.add_argument("-k", type=int, default=20, help="cutoff (default 20)")
    p.add_argument(
        "-c",
        action="store_true",
        help="average over every qrels topic with a grade > 0 (missing topics count 0)",
    )
    p.add_argument(
        "--max-grade",
        "--max_grade",
        dest="max_grade",
        type=float,
        help=(
            "ERR's maximum grade g_max in r = (2^g-1)/2^g_max (default 4, gdeval's; "
            "a larger qrels grade is then an error)"
        ),
    )
    p.add_argument(
        "-baseline",
        "--baseline",
        dest="baseline",
        metavar="BASELINE_RUN",
        help=(
            "risk-sensitive evaluation: print run - baseline per topic, "
            "losses weighted by 1 + riskAlpha"
        ),
    )
    p.add_argument(
        "-riskAlpha",
        "--risk-alpha",
        dest="risk_alpha",
        metavar="ALPHA",
        help="risk sensitivity a >= 0 (default 0): losses against the baseline count 1 + a times",
    )
    return p


def main(argv: list[str]) -> int:
    from ..errors import NoTopicsError, ParamError
    from ..formats.gdeval import format_gdeval, gdeval_max_grade, gdeval_results
    from ..io.trec import read_pair, read_run

    args = build_parser().parse_args(argv)
    if args.k < 1:
        raise ParamError(f"-k must be >= 1; got {args.k}")
    alpha = None
    if args.risk_alpha is not None:
        try:
            alpha = float(args.risk_alpha)
        except ValueError:
            raise ParamError(f"-riskAlpha must be a number >= 0; got {args.risk_alpha!r}") from None
    qrels, run = read_pair(args.qrels, args.run)
    baseline = read_run(args.baseline) if args.baseline else None
    grade, warnings = gdeval_max_grade(qrels, args.max_grade)
    try:
        res = gdeval_results(
            qrels,
            run,
            k=args.k,
            all_topics=args.c,
            max_grade=grade,
            baseline=baseline,
            risk_alpha=alpha,
        )
    except NoTopicsError:
        # gdeval.pl prints its header alone and exits 0: so does cwlkit (and says why)
        sys.stderr.write(
            f"cwlkit gdeval: warning: {args.run} and {args.qrels} share no topic: "
            "the header alone (as gdeval.pl)\n"
        )
        sys.stdout.write(f"runid,topic,ndcg@{args.k},err@{args.k}\n")
        return 0
    text = format_gdeval(
        res,
        baseline=baseline.runid if baseline is not None else None,
        risk_alpha=args.risk_alpha,
    )
    for w in warnings:
        sys.stderr.write(f"cwlkit gdeval: warning: {w}\n")
    sys.stdout.write(text)
    return 0
