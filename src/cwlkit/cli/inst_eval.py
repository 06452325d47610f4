"""``cwlkit inst_eval QRELS RUN (-tpq T_FILE | -T T) [-n DEPTH] [-c] [-q]``: the INST paper's
companion tool (ielab/inst_eval), with the paper's numbers, or with ``--compat`` its own."""

from __future__ import annotations

import argparse
import sys

DESCRIPTION = """\
Flags and output of inst_eval.py (ielab/inst_eval at c04958b).

INST (Moffat, Bailey, Scholer, Thomas 2015) with inst_eval.py's command line and output:
num_q, num_ret, num_rel, num_rel_ret, inst_min (unjudged documents, and ranks past the
evaluation depth n, at gain 0), inst_max (at gain 1) and inst_res = inst_max - inst_min.
Gains are labels divided by the largest label of the qrels (negative labels: 0).

By default the numbers follow the paper: the user model goes on past rank n exactly (no
finite N), the run is ranked by score (ties by docno descending, or --ties average, the
paper's recommendation), n is each topic's own ranking length unless -n, the counts are
trec_eval's sums. --compat reproduces inst_eval.py: file order, W normalised over its
N = 2*10^4 (T <= 5) or 2*10^5 ranks, the first topic's length as n for every topic,
negative labels as negative gains, mean counts truncated. docs/inst.md lists every
difference, with a case.
"""


def build_parser():
    from ._options import QL, QRELS, examples
    from .main import ArgumentParser

    p = ArgumentParser(
        prog="cwlkit inst_eval",
        description=DESCRIPTION,
        epilog=examples(
            f"cwlkit inst_eval {QRELS} {QL} -T 2 -n 1000",
            f"cwlkit inst_eval {QRELS} {QL} -T 2 -n 1000 --compat -q",
        ),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("qrels", nargs="?", help="TREC qrels: topic iteration document label")
    p.add_argument("run", nargs="?", help="TREC run: topic Q0 document rank score tag")
    ts = p.add_mutually_exclusive_group(required=True)  # (as inst_eval.py's)
    ts.add_argument(
        "-tpq",
        "--T_per_query",
        "--T-per-query",
        dest="t_file",
        help="file of 'topic T' lines (tab or blanks): each topic's T",
    )
    ts.add_argument(
        "-T",
        "--over_write_T",
        "--T",
        dest="T",
        type=float,
        help="one T for every topic (any positive number)",
    )
    p.add_argument(
        "-n",
        "--eval_depth",
        "--eval-depth",
        dest="depth",
        type=int,
        help="evaluation depth: ranks past n count as not provided (0 in inst_min, 1 in "
        "inst_max); default: each topic's ranking length (--compat: the first topic's)",
    )
    p.add_argument(
        "-c",
        "--complete_qrel_queries",
        "--complete",
        dest="complete",
        action="store_true",
        help="evaluate every qrels topic (trec_eval -c); one the run lacks has no documents",
    )
    p.add_argument(
        "-q",
        "--per_query",
        "--per-query",
        dest="per_query",
        action="store_true",
        help="print each topic's numbers",
    )
    p.add_argument(
        "--compat",
        action="store_true",
        help="inst_eval.py's numbers (file order, finite N, its depth and gain handling)",
    )
    p.add_argument(
        "--order",
        choices=("score", "rank", "file"),
        help="ranking order: score (default; ties by docno descending), the rank column, or "
        "file order (the default with --compat)",
    )
    p.add_argument(
        "--ties",
        choices=("none", "average"),
        default="none",
        help="average: documents with equal scores share their group's mean gain (the paper)",
    )
    p.add_argument(
        "--judging-depth",
        dest="judging_depth",
        action="append",
        type=float,
        metavar="DELTA",
        help="print the depth n to which rankings must be judged for the INST residual to stay "
        "below DELTA (the paper's Equation 7 and Table 2) for each T, and exit (repeatable)",
    )
    return p


def main(argv: list[str]) -> int:
    from ..errors import CwlkitError, NoTopicsError, ParamError

    args = build_parser().parse_args(argv)
    if args.depth is not None and args.depth < (0 if args.compat else 1):
        raise ParamError(f"-n must be a positive integer; got {args.depth}")
    if args.T is not None and not (0 < args.T < float("inf")):
        raise ParamError(f"-T must be a positive number; got {args.T:g}")
    from ..io.topic_values import read_topic_values

    tmap = read_topic_values(args.t_file, "T") if args.t_file else None
    if args.judging_depth:
        return _judging_depth(args, tmap)
    if not args.qrels or not args.run:
        raise CwlkitError("cwlkit inst_eval: needs QRELS and RUN (see 'cwlkit inst_eval --help')")
    if args.compat and args.ties != "none":
        raise ParamError("--ties average is not inst_eval.py's rule; drop --compat or --ties")
    try:
        text = _compat(args, tmap) if args.compat else _paper(args, tmap)
    except NoTopicsError:
        # inst_eval.py prints nothing on stdout and exits 0 ("No qrels were found for
        # query X" on stderr for each run topic): so does cwlkit, with one line on stderr
        sys.stderr.write(
            f"cwlkit inst_eval: warning: {args.run} and {args.qrels} share no topic: "
            "nothing to print (as inst_eval.py)\n"
        )
        return 0
    sys.stdout.write(text)
    return 0


COUNTS = ["NumRet", "NumRel", "NumRelRet"]


def _paper(args, tmap: dict[str, float] | None) -> str:
    from ..api import Evaluator
    from ..errors import CwlkitError
    from ..formats.inst_eval import format_inst_eval

    ev = Evaluator(
        args.qrels,
        [*COUNTS, "INST" if tmap is not None else f"INST(T={args.T!r})"],
        topics="qrels" if args.complete else "both",
        trec_version=10,  # rank by the double-precision score
        order=args.order or "score",
        depth=args.depth,
        ties=args.ties,
        gain="linear",
        residuals=True,
        topic_params=None if tmap is None else {"T": tmap},
    )
    res = ev.evaluate(args.run)
    if tmap is not None:
        missing = [t for t in res.topics if t not in tmap]
        if missing:
            more = f" and {len(missing) - 1} more" if len(missing) > 1 else ""
            raise CwlkitError(
                f"{args.t_file}: no T for topic {missing[0]!r}{more}; give every evaluated "
                "topic a T (--compat skips such topics, as inst_eval.py does)"
            )
    return format_inst_eval(res, res, per_topic=args.per_query)


def _compat(args, tmap: dict[str, float] | None) -> str:
    import pyarrow.compute as pc

    from ..api import Evaluator
    from ..formats.inst_eval import format_inst_eval
    from ..io.trec import read_qrels, read_run

    qrels = read_qrels(args.qrels)
    run = read_run(args.run)
    run_topics = [str(t) for t in pc.unique(run.table.column("topic")).to_pylist()]
    if tmap is None:  # inst_eval.py gives -T's value to the run's topics only
        tmap = dict.fromkeys(run_topics, args.T)
    rule = "qrels" if args.complete else "both"
    order = args.order or "file"
    counts = Evaluator(qrels, COUNTS, topics=rule, trec_version=10, order=order).evaluate(run)
    topics = sorted(counts.topics)
    for t in topics:
        if t not in tmap:
            sys.stderr.write(f"cwlkit inst_eval: no T for topic {t}: skipped (--compat)\n")
    topics = [t for t in topics if t in tmap]
    depth = args.depth
    if depth is None and topics:  # inst_eval.py: the first topic's length, for every topic
        depth = int(counts.per_topic("NumRet")[topics[0]])
    inst = Evaluator(
        qrels,
        ["INST"],
        topics=rule,
        trec_version=10,
        order=order,
        residuals=True,
        topic_params={"T": tmap},
        compat="inst_eval",
        compat_depth=depth,
    ).evaluate(run)
    # inst_eval.py's num_q: the run's topics, and the qrels topics -c added to them
    num_q = len(set(run_topics) | set(topics))
    return format_inst_eval(
        counts, inst, topics=topics, per_topic=args.per_query, compat=True, num_q=num_q
    )


def _judging_depth(args: argparse.Namespace, tmap: dict[str, float] | None) -> int:
    from ..formats.inst_eval import format_judging_depth
    from ..measures.cwl.eval_depth import (
        inst_beyond,
        inst_evaluation_depth,
        inst_expected_depth,
    )

    pairs = sorted(tmap.items()) if tmap is not None else [("all", args.T)]
    rows = []
    for topic, T in pairs:
        for delta in args.judging_depth:
            n = inst_evaluation_depth(T, delta)
            rows.append((topic, T, inst_expected_depth(T), delta, n, inst_beyond(T, n)))
    sys.stdout.write(format_judging_depth(rows))
    return 0
