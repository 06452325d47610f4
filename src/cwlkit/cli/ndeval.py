"""``cwlkit ndeval [-alpha A] [-beta B] [-traditional] [-c] [-M DEPTH] [-baseline RUN
-riskAlpha R] QRELS RUN``: the TREC Web Track's ndeval (version 4.5), byte for byte."""

from __future__ import annotations

import argparse
import sys

DESCRIPTION = """\
Flags and output of ndeval 4.5 (the TREC Web Track's diversity measures).

Print what ndeval 4.5 prints: CSV 'runid,topic,ERR-IA@5,...,strec@20' with the 21
diversity measures (ERR-IA, nERR-IA, alpha-DCG and alpha-nDCG at 5, 10 and 20; NRBP, nNRBP,
MAP-IA; P-IA and subtopic recall at 5, 10 and 20), one line per run topic (numeric order),
then the 'amean' line (the mean over the run topics that are in the qrels; -c: over every
qrels topic). QRELS are diversity qrels: 'topic subtopic document judgement' (a judgement
of 1 or more is relevant to the subtopic). The run is ranked by its rank column, or with
-traditional by score (ties by docno descending). With -baseline B, each value is run - B
on the topic, losses multiplied by 1 + riskAlpha.

Unlike ndeval, topic ids need not be numbers and labels may be negative (non-relevant).
See docs/diversity.md.
"""


def build_parser():
    from ._options import QL, QRELS, examples
    from .main import ArgumentParser

    p = ArgumentParser(
        prog="cwlkit ndeval",
        description=DESCRIPTION,
        epilog=examples(
            f"cwlkit ndeval {QRELS} {QL}",
            f"cwlkit ndeval -traditional -c {QRELS} {QL}",
        ),
        formatter_class=argparse.RawDescriptionHelpFormatter,
        allow_abbrev=False,
    )
    p.add_argument("qrels", help="diversity qrels: topic subtopic document judgement")
    p.add_argument("run", help="TREC run: topic Q0 document rank score tag (plain or .gz)")
    p.add_argument(
        "-alpha",
        "--alpha",
        dest="alpha",
        metavar="A",
        default="0.5",
        help="redundancy intolerance in [0, 1] for alpha-(n)DCG, (n)ERR-IA and (n)NRBP "
        "(default 0.5)",
    )
    p.add_argument(
        "-beta",
        "--beta",
        dest="beta",
        metavar="B",
        default="0.5",
        help="patience in [0, 1] for NRBP (default 0.5)",
    )
    p.add_argument(
        "-traditional",
        "--traditional",
        dest="traditional",
        action="store_true",
        help="rank by score, then docno descending (default: by the rank column)",
    )
    p.add_argument(
        "-c",
        action="store_true",
        help="average over every qrels topic (a topic the run lacks counts 0)",
    )
    p.add_argument("-a", action="store_true", help="accepted for ndeval compatibility (no effect)")
    p.add_argument(
        "-M", dest="depth", metavar="DEPTH", help="keep the first DEPTH documents of each ranking"
    )
    p.add_argument(
        "-baseline",
        "--baseline",
        dest="baseline",
        metavar="BASELINE_RUN",
        help="risk-sensitive evaluation: print run - baseline per topic, losses weighted by "
        "1 + riskAlpha",
    )
    p.add_argument(
        "-riskAlpha",
        "--risk-alpha",
        dest="risk_alpha",
        metavar="R",
        help="risk sensitivity >= 0 (default 0): losses against the baseline count 1 + R times",
    )
    return p


def _number(text: str, flag: str, lo: float, hi: float | None):
    from ..errors import ParamError

    try:
        v = float(text)
    except ValueError:
        raise ParamError(f"{flag} must be a number; got {text!r}") from None
    if not (v >= lo and (hi is None or v <= hi)):
        where = f"in [{lo:g}, {hi:g}]" if hi is not None else f">= {lo:g}"
        raise ParamError(f"{flag} must be {where}; got {text}")
    return v


def main(argv: list[str]) -> int:
    from ..errors import ParamError
    from ..formats.ndeval import NDEVAL_VERSION, format_ndeval, ndeval_report
    from ..io.diversity import read_diversity_qrels
    from ..io.trec import read_run

    if "-version" in argv or "--version" in argv:
        sys.stdout.write(f"cwlkit ndeval: output of ndeval {NDEVAL_VERSION}\n")
        return 0
    args = build_parser().parse_args(argv)
    alpha = _number(args.alpha, "-alpha", 0.0, 1.0)
    beta = _number(args.beta, "-beta", 0.0, 1.0)
    risk = 0.0 if args.risk_alpha is None else _number(args.risk_alpha, "-riskAlpha", 0.0, None)
    depth = None
    if args.depth is not None:
        try:
            depth = int(args.depth)
        except ValueError:
            raise ParamError(f"-M must be a positive integer; got {args.depth!r}") from None
        if depth < 1:
            raise ParamError(f"-M must be a positive integer; got {args.depth}")
    qrels = read_diversity_qrels(args.qrels, rules="ndeval")
    run = read_run(args.run, rules="ndeval")
    baseline = read_run(args.baseline, rules="ndeval") if args.baseline else None
    rep = ndeval_report(
        qrels,
        run,
        alpha=alpha,
        beta=beta,
        traditional=args.traditional,
        all_topics=args.c,
        depth=depth,
        baseline=baseline,
        risk_alpha=risk,
        risk_alpha_text=args.risk_alpha,
    )
    if rep.n_shared == 0:
        # ndeval prints a zero line per run topic and its amean, and exits 0: so does cwlkit,
        # and says why (one line on stderr)
        sys.stderr.write(
            f"cwlkit ndeval: warning: {args.run} and {args.qrels} share no topic: every run "
            "topic scores 0 (as ndeval)\n"
        )
    sys.stdout.write(format_ndeval(rep))
    return 0
