"""``cwlkit reproduce QRELS --orig B [A] --rep B' [A']``: how closely a reproduction matches."""

from __future__ import annotations

import argparse

DESCRIPTION = """\
How closely a reproduced experiment matches its original (Breuer et al., SIGIR 2020), as the
repro_eval package computes it: for the baseline run (and the advanced one, when given),
Kendall's tau Union (KTU@k) and repro_eval's RBO@k between each original ranking and its
reproduction at each --cutoff (means over the topics), the RMSE of the per-topic scores and
the paired t-test's p for each measure; with both runs, the effect ratio (ER) and the delta
relative improvement (DeltaRI). With --rep-qrels the reproduction ran on other topics
(replicability): unpaired t-tests, ER and DeltaRI only.
"""


def build_parser():
    from ._options import QL, QRELS, RM, add_measure_option, add_output_options, examples
    from .main import ArgumentParser

    p = ArgumentParser(
        prog="cwlkit reproduce",
        description=DESCRIPTION,
        epilog=examples(
            f"cwlkit reproduce {QRELS} --orig {QL} --rep {RM} -m AP P@10 --cutoff 10 100",
            f"cwlkit reproduce {QRELS} --orig {QL} {RM} --rep {RM} {QL} -m AP --depth 100 -f json",
        ),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("qrels", metavar="QRELS", help="the original judgements")
    p.add_argument(
        "--orig", nargs="+", required=True, metavar="RUN", help="original baseline [advanced]"
    )
    p.add_argument(
        "--rep", nargs="+", required=True, metavar="RUN", help="reproduced baseline [advanced]"
    )
    add_measure_option(p)
    p.add_argument(
        "--cutoff",
        type=int,
        nargs="+",
        default=None,
        metavar="K",
        help="depths of KTU and RBO (default 5 10 20 50 100 1000)",
    )
    p.add_argument("-p", type=float, default=0.95, help="RBO's persistence (default 0.95)")
    p.add_argument("--rep-qrels", help="the reproduction's judgements (replicability)")
    p.add_argument("--depth", "-d", type=int, help="score the top DEPTH of each run (trim)")
    add_output_options(p, ("text", "tsv", "json"))
    return p


def main(argv: list[str]) -> int:
    args = build_parser().parse_args(argv)
    from ..errors import ParamError
    from ..stats.reproduce import CUTOFFS, reproducibility
    from ..support.jsontext import dumps
    from ._options import output_format, parse_measure_args, write_output

    if len(args.orig) > 2 or len(args.rep) != len(args.orig):
        raise ParamError("--orig and --rep take the same runs: a baseline and an advanced run")
    orig, rep = [*args.orig, None][:2], [*args.rep, None][:2]
    res = reproducibility(
        args.qrels,
        orig[0],
        rep[0],
        orig[1],
        rep[1],
        measures=parse_measure_args(args.measures or ["AP", "nDCG@10", "P@10"]),
        cutoffs=args.cutoff or list(CUTOFFS),
        p=args.p,
        rep_qrels=args.rep_qrels,
        **({} if args.depth is None else {"depth": args.depth}),
    )
    rows = res.rows()
    fmt = output_format(args)
    if fmt == "json":
        write_output(args, dumps({"paired": res.paired, "rows": rows}, indent=1) + "\n")
        return 0
    sep = "\t" if fmt == "tsv" else "  "
    width = max(len(r["measure"]) for r in rows)
    lines = []
    for r in rows:
        name = r["measure"] if fmt == "tsv" else r["measure"].ljust(width)
        run = r["run"] or "both"
        lines.append(f"{(run if fmt == 'tsv' else run.ljust(8))}{sep}{name}{sep}{r['value']:.4f}")
    write_output(args, "\n".join(lines) + "\n")
    return 0
