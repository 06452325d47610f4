"""``cwlkit compare-runs RUN_A RUN_B``: per-topic rank-biased overlap of two runs."""

from __future__ import annotations

import argparse

DESCRIPTION = """\
How different two systems' result lists are, apart from their scores: rank-biased overlap
(Webber, Moffat and Zobel 2010) of the two runs' rankings, topic by topic, with its lower
bound (min), its residual (res: how much more the unseen documents could add), the upper
bound (max) and the extrapolated value (ext); then the mean over the topics. Runs are ranked
as trec_eval ranks them (--order), cut at --depth if given.
"""


def build_parser():
    from ._options import QL, RM, add_output_options, examples
    from .main import ArgumentParser

    p = ArgumentParser(
        prog="cwlkit compare-runs",
        description=DESCRIPTION,
        epilog=examples(
            f"cwlkit compare-runs {QL} {RM}",
            f"cwlkit compare-runs {QL} {RM} -p 0.8 --depth 20 -f json",
        ),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("run_a", metavar="RUN_A", help="the first run: TREC file or Parquet")
    p.add_argument("run_b", metavar="RUN_B", help="the second run")
    p.add_argument("-p", type=float, default=0.9, help="RBO's persistence (default 0.9)")
    p.add_argument("--depth", "-d", type=int, help="compare the top DEPTH of each ranking")
    p.add_argument(
        "--order",
        choices=("score", "rank", "file"),
        default="score",
        help="ranking order: score (default; ties by docno descending), rank column, file order",
    )
    add_output_options(p, ("text", "json"))
    return p


def main(argv: list[str]) -> int:
    args = build_parser().parse_args(argv)
    from ..judging import compare_runs
    from ..support.jsontext import dumps
    from ._options import output_format, write_output

    fmt = output_format(args)
    rows = compare_runs(args.run_a, args.run_b, p=args.p, depth=args.depth, order=args.order)
    keys = ("min", "max", "res", "ext")
    mean = {k: sum(r[k] for r in rows) / len(rows) if rows else float("nan") for k in keys}
    if fmt == "json":
        write_output(args, dumps({"p": args.p, "topics": rows, "mean": mean}, indent=1) + "\n")
        return 0
    lines = ["topic\tdepth_a\tdepth_b\tmin\tmax\tres\text"]
    for r in rows:
        lines.append(
            f"{r['topic']}\t{r['depth_a']}\t{r['depth_b']}\t"
            + "\t".join(f"{r[k]:.4f}" for k in keys)
        )
    lines.append("mean\t\t\t" + "\t".join(f"{mean[k]:.4f}" for k in keys))
    write_output(args, "\n".join(lines) + "\n")
    return 0
