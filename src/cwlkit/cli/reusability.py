"""``cwlkit reusability QRELS RUN... --group-by G --depth k -m MEASURE``: leave-one-group-out
reusability of a test collection (Zobel 1998; Buckley et al. 2007)."""

from __future__ import annotations

import argparse
import math

DESCRIPTION = """\
Is the collection fair to a system that did not contribute to its pool? For each group of
runs: rebuild the depth-k pool without the group's runs, keep the judgements of the
documents the other groups pooled, and score the group's runs on them. Prints, per left-out
run and measure (-m, then bpref and infAP): the baseline score (the qrels restricted to
every run's depth-k pool; --baseline qrels: the qrels whole), the reduced score, the change,
the rank among the runs (1 best; the others at their baseline scores) before and after, the
mean C/W/L residual on the reduced qrels (the bound: for a C/W/L measure the lost
judgements lower the score by at most it) and the qrels rows the group's absence removes
(lost, of which relevant). Then the mean and largest absolute change per measure.

--group-by: tag-prefix (the leading letters of each run's tag), tag-prefix:N (its first N
characters), regex:PATTERN (the first group of PATTERN in the run's file name) or a FILE of
'run group' lines. See docs/judgements.md.
"""


FORMATS = ("text", "tsv", "json")
COLUMNS = (
    "run",
    "group",
    "measure",
    "score",
    "reduced",
    "delta",
    "rank",
    "reduced_rank",
    "rank_change",
    "residual",
    "lost",
    "lost_relevant",
)


def build_parser():
    from ._options import QRELS, RUNS, add_output_options, examples
    from .main import ArgumentParser

    p = ArgumentParser(
        prog="cwlkit reusability",
        description=DESCRIPTION,
        epilog=examples(
            f"cwlkit reusability {QRELS} {RUNS} --group-by 'regex:\\.(ql|rm)\\.' "
            "--depth 10 -m P@10",
            f"cwlkit reusability {QRELS} {RUNS} --group-by 'regex:(cat.)' -d 20 "
            "-m 'RBP(p=0.8)' -f json",
        ),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("qrels", help="TREC qrels: topic iteration document label")
    p.add_argument("runs", nargs="+", metavar="RUN", help="TREC runs (two groups at least)")
    p.add_argument(
        "--group-by",
        "-g",
        default="tag-prefix",
        help="tag-prefix (default), tag-prefix:N, regex:PATTERN or a FILE of 'run group' lines",
    )
    p.add_argument("--depth", "-d", type=int, default=100, help="the pool depth k (default 100)")
    p.add_argument(
        "-m", "--measure", default="AP", help="the measure (default AP); bpref and infAP too"
    )
    p.add_argument(
        "--baseline",
        choices=("pool", "qrels"),
        default="pool",
        help="changes from the qrels in every run's depth-k pool (default) or the qrels whole",
    )
    p.add_argument(
        "--order",
        choices=("score", "rank", "file"),
        default="score",
        help="how runs are ranked: score (trec_eval's, default), rank (the rank column), file",
    )
    p.add_argument("--gain", help="how labels map to C/W/L gains (default auto)")
    add_output_options(p, FORMATS)
    return p


def _cell(v) -> str:
    if isinstance(v, float):
        return "-" if math.isnan(v) else f"{v:.4f}"
    return str(v)


def main(argv: list[str]) -> int:
    args = build_parser().parse_args(argv)
    from ..judging import reusability
    from ..support.jsontext import dumps
    from ._options import output_format, write_output

    r = reusability(
        args.qrels,
        args.runs,
        args.group_by,
        depth=args.depth,
        measure=args.measure,
        order=args.order,
        baseline=args.baseline,
        gain=args.gain,
    )
    rows = r.to_records()
    fmt = output_format(args)
    if fmt == "json":
        body = {
            "depth": r.depth,
            "baseline": args.baseline,
            "groups": r.groups,
            "records": rows,
            "summary": r.summary(),
        }
        text = dumps(body, indent=1) + "\n"
    else:
        lines = ["\t".join(COLUMNS)] + ["\t".join(_cell(x[c]) for c in COLUMNS) for x in rows]
        if fmt == "text":
            lines.insert(0, f"# depth {r.depth}, {len(r.groups)} groups, baseline {args.baseline}")
            lines += ["", "measure\tmean |delta|\tmax |delta|\tmean |rank change|\tmax"]
            for s in r.summary():
                lines.append(
                    f"{s['measure']}\t{s['mean_abs_delta']:.4f}\t{s['max_abs_delta']:.4f}\t"
                    f"{s['mean_abs_rank_change']:.3f}\t{s['max_abs_rank_change']}"
                )
        text = "\n".join(lines) + "\n"
    write_output(args, text)
    return 0
