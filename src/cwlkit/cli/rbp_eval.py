"""``cwlkit rbp_eval [options] QRELS RUN``: Webber and Moffat's rbp_eval, line for line."""

from __future__ import annotations

import argparse
import math
import sys

DESCRIPTION = """\
Flags and output of rbp_eval 0.2 (Webber and Moffat's rbp_eval).

Rank-biased precision as rbp_eval computes it: for every depth and persistence, the RBP base
score and its residual, per topic (-q) and averaged over the topics that have judgements.
Each output line is rbp_eval's ('p= 0.80 q=  all d= full rbp= 0.1821 +0.4311'); the header
comment is cwlkit's. Documents with equal scores (-s, the default) or equal ranks (-r) share
their group's average weight. Topic and document ids are compared in lower case.

Thin over the API: the measure is RBP_eval(p=P,rel=R|scale=S,ties=...)@D (docs/rbp_eval.md).
Unlike rbp_eval, negative labels are judged with gain 0 (rbp_eval refuses them) and errors
are one line (exit status 2).
"""

#: rbp_eval's defaults
DEFAULT_DEPTHS = "0"
DEFAULT_PERSISTENCES = "0.5,0.8,0.95"


def build_parser():
    from ._options import QL, QRELS, examples
    from .main import ArgumentParser

    p = ArgumentParser(
        prog="cwlkit rbp_eval",
        description=DESCRIPTION,
        epilog=examples(
            f"cwlkit rbp_eval {QRELS} {QL}",
            f"cwlkit rbp_eval -q -p 0.8 -d 10,100 {QRELS} {QL}",
        ),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("qrels", help="TREC qrels: topic iteration document relevance")
    p.add_argument("run", help="TREC run: topic Q0 document rank score tag (plain or .gz)")
    p.add_argument(
        "-d",
        dest="depths",
        default=DEFAULT_DEPTHS,
        metavar="DEPTH_SPEC",
        help="depths, ascending: comma-separated positive integers, 0 for the whole run "
        "(default 0)",
    )
    p.add_argument(
        "-p",
        dest="persistences",
        default=DEFAULT_PERSISTENCES,
        metavar="PERSIST_SPEC",
        help="persistences in [0, 1], comma-separated (default 0.5,0.8,0.95)",
    )
    p.add_argument("-q", action="store_true", help="print the values of each topic")
    p.add_argument("-T", action="store_true", help="do not print the averages ('T'otals)")
    order = p.add_mutually_exclusive_group()
    order.add_argument(
        "-o", dest="order", action="store_const", const="file", help="rank by file order"
    )
    order.add_argument(
        "-r",
        dest="order",
        action="store_const",
        const="rank",
        help="rank by the rank column; equal ranks tie",
    )
    order.add_argument(
        "-s",
        dest="order",
        action="store_const",
        const="score",
        help="rank by score; equal scores tie (the default)",
    )
    gain = p.add_mutually_exclusive_group()
    gain.add_argument(
        "-b", dest="threshold", type=float, metavar="THRESHOLD", help="binary relevance: >= T"
    )
    gain.add_argument("-B", action="store_true", help="binary relevance at 1")
    gain.add_argument(
        "-f", dest="scale", type=float, metavar="SCALE", help="fractional relevance x SCALE"
    )
    gain.add_argument("-F", action="store_true", help="fractional relevance as is")
    gain.add_argument(
        "-a",
        action="store_true",
        help="-B if no qrels label has a decimal point, else -F (the default)",
    )
    p.add_argument("-H", action="store_true", help="no header comment")
    p.add_argument("-W", action="store_true", help="no warnings")
    return p


def _tokens(spec: str) -> list[str]:
    tokens = spec.split(",") if spec else []
    if tokens and tokens[-1] == "":
        tokens.pop()  # one trailing comma ends the list
    return tokens


def parse_depths(spec: str) -> list[int | None]:
    """rbp_eval's ``-d``: ascending positive integers; 0 is the whole run (None), last."""
    from ..errors import ParamError

    out: list[int | None] = []
    last = 0.0
    for i, tok in enumerate(_tokens(spec)):
        try:
            d = int(tok)
        except ValueError:
            raise ParamError(
                f"invalid format for element {i} of depth specification '{spec}'; "
                "must be in form '<d1>,<d2>...'"
            ) from None
        if d < 0:
            raise ParamError(
                f"element {i} of depth specification '{spec}' with value {d} is negative"
            )
        value = math.inf if d == 0 else float(d)
        if out and value <= last:
            raise ParamError(f"depths in specification '{spec}' not in strictly ascending order")
        last = value
        out.append(None if d == 0 else d)
    if not out:
        raise ParamError("empty depth specification")
    return out


def parse_persistences(spec: str) -> list[float]:
    """rbp_eval's ``-p``: numbers in [0, 1], comma-separated."""
    from ..errors import ParamError

    out = []
    for i, tok in enumerate(_tokens(spec)):
        try:
            v = float(tok)
        except ValueError:
            raise ParamError(
                f"invalid format for element {i} of persistence specification '{spec}'; "
                "must be in form '<p1>,<p2>...'"
            ) from None
        if not 0.0 <= v <= 1.0:
            raise ParamError(
                f"element {i} of persistence specification '{spec}' with value {v} "
                "not in range [0.0, 1.0]"
            )
        out.append(v)
    if not out:
        raise ParamError("empty persistence specification")
    return out


def _gain(args, integral: bool) -> dict:
    """The measure's gain parameters from -b/-B/-f/-F/-a."""
    from ..errors import ParamError

    if args.threshold is not None:
        if not args.threshold >= 0.0:
            raise ParamError(f"-b THRESHOLD must be >= 0; got {args.threshold:g}")
        return {"rel": args.threshold}
    if args.scale is not None:
        if not args.scale > 0.0:
            raise ParamError(f"-f SCALE must be > 0; got {args.scale:g}")
        return {"scale": args.scale}
    if args.B:
        return {}
    if args.F:
        return {"scale": 1.0}
    return {} if integral else {"scale": 1.0}  # -a, the default


def main(argv: list[str]) -> int:
    from ..api import Evaluator
    from ..formats.rbp_eval import format_rbp_eval, header
    from ..io.rbp_eval import qrels_topics, read_rbp_qrels, read_rbp_run
    from ..measures.rbp_eval import RBP_eval

    args = build_parser().parse_args(argv)
    depths = parse_depths(args.depths)
    persistences = parse_persistences(args.persistences)
    order = args.order or "score"
    run, topics, warnings = read_rbp_run(args.run, by_rank=order == "rank")
    qrels, integral, max_label = read_rbp_qrels(args.qrels)
    gain = _gain(args, integral)
    if "scale" in gain and max_label * gain["scale"] > 1.0:
        warnings.append(
            f"maximum effective relevance of {max_label * gain['scale']:.2f} exceeds 1.0"
        )
    ties = "none" if order == "file" else "average"
    rows, measures = [], []
    for j, depth in enumerate(depths):
        after = ",".join(str(d) for d in depths[:j])  # rbp_eval continues from these
        for p in persistences:
            m = RBP_eval(p=p, k=depth, ties=ties, after=after, **gain)
            rows.append((m.name, p, depth))
            if m not in measures:
                measures.append(m)
    judged = qrels_topics(qrels)
    warnings += [f"there are no judgments for query id {t}" for t in topics if t not in judged]
    results = None
    if topics and not any(t in judged for t in topics):  # (rbp_eval: nan averages, exit 0)
        warnings.append(
            f"{args.run} and {args.qrels} share no topic: averages of nan (as rbp_eval)"
        )
    if any(t in judged for t in topics):
        ev = Evaluator(qrels, measures, topics="both", order=order, trec_version=10, residuals=True)
        results = ev.evaluate(run)
    text = "" if args.H else header(["cwlkit", "rbp_eval", *argv], args.run)
    text += format_rbp_eval(results, rows, topics, per_query=args.q, averages=not args.T)
    if not args.W:
        for w in warnings:
            sys.stderr.write(f"cwlkit rbp_eval: warning: {w}\n")
    sys.stdout.write(text)
    return 0
