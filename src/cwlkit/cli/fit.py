"""``cwlkit fit QRELS RUN... --target ERR@20 --metric "RBP(p=0.05:0.95:0.01)"``: parameter fit."""

from __future__ import annotations

import argparse

from ..formats.table import FORMATS

DESCRIPTION = """\
The procedure of Azzopardi, Mackenzie and Moffat (ICTIR 2021, "ERR is not C/W/L"): score
every (run, topic) pair with the target measure and with the metric at every value of a
parameter grid, drop the pairs whose target residual exceeds --max-residual (the most the
target could rise if unjudged documents were fully relevant), and compute Pearson's r and
Spearman's rho between target and metric at each grid value. Reports the parameter that
maximises each, and the whole curve (their Figure 5; --plot draws it, needs matplotlib).

The grid is one range start:stop:step written where the parameter's value goes (stop
included): "RBP(p=0.05:0.95:0.01)", "C_E10(phi=0.3:0.95:0.01)", "C_E11(T=0.5:2:0.05)",
"C_E8(k=1:20:1)", "P@1:20:1". C/W/L metrics use --gain (the paper maps grades with
ERR's (2^g - 1) / 2^max: --gain err). See docs/statistics.md.
"""


def build_parser():
    from ._options import QL, QRELS, RM, add_evaluation_options, examples
    from .main import ArgumentParser

    p = ArgumentParser(
        prog="cwlkit fit",
        description=DESCRIPTION,
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog=examples(
            f"cwlkit fit {QRELS} {QL} {RM} --target ERR@20 --metric 'RBP(p=0.1:0.9:0.1)' "
            "--gain err",
            f"cwlkit fit {QRELS} {QL} {RM} --target nDCG@10 --metric 'P@1:20:1' -f csv",
            f"cwlkit fit {QRELS} {QL} {RM} --target ERR@20 --metric 'RBP(p=0.5:0.95:0.05)' "
            "--max-residual 0.5 -f markdown",
        ),
    )
    p.add_argument("qrels", help="TREC qrels: topic iteration document label")
    p.add_argument("runs", nargs="+", metavar="RUN", help="TREC runs")
    p.add_argument("--target", required=True, help="the target measure, e.g. ERR@20")
    p.add_argument(
        "--metric", required=True, help="the metric with a grid, e.g. 'RBP(p=0.05:0.95:0.01)'"
    )
    p.add_argument(
        "--max-residual",
        type=float,
        help="drop (run, topic) pairs whose target residual exceeds this",
    )
    p.add_argument(
        "--plot",
        metavar="FILE",
        help="draw the two curves to FILE (png, pdf, svg; needs matplotlib)",
    )
    add_evaluation_options(p, FORMATS)
    return p


def render(res, fmt: str) -> str:
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

    bp, bs = res.best_pearson, res.best_spearman
    recs = res.to_records()
    par = res.parameter
    if fmt == "json":
        return dump_json({**res.summary(), "curve": recs})

    def mark(i: int) -> str:
        tags = []
        if bp is not None and res.grid[i] == bp[0]:
            tags.append("pearson")
        if bs is not None and res.grid[i] == bs[0]:
            tags.append("spearman")
        return ",".join(tags)

    if fmt in ("tsv", "csv"):
        cols = [par, "measure", "pearson", "pearson_p", "spearman", "spearman_p", "best"]
        return (table_tsv if fmt == "tsv" else table_csv)(
            cols,
            [
                [
                    r[par],
                    r["measure"],
                    r["pearson"],
                    r["pearson_p"],
                    r["spearman"],
                    r["spearman_p"],
                    mark(i),
                ]
                for i, r in enumerate(recs)
            ],
        )
    filt = (
        f"; {res.n_pairs} of {res.n_total} (run, topic) pairs with residual <= {res.max_residual:g}"
        if res.max_residual is not None
        else f"; {res.n_pairs} (run, topic) pairs"
    )
    lines = [f"# target {res.target}, metric {res.measures[0]} .. {res.measures[-1]}{filt}"]
    for label, b in (("Pearson's r", bp), ("Spearman's rho", bs)):
        lines.append(
            f"best {par} for {label}: "
            + ("undefined" if b is None else f"{b[0]:g} ({label.split()[1]} = {b[1]:.4f}, {b[2]})")
        )
    body = [
        [
            f"{r[par]:g}",
            r["measure"],
            fmt_num(r["pearson"]),
            fmt_p(r["pearson_p"]),
            fmt_num(r["spearman"]),
            fmt_p(r["spearman_p"]),
            mark(i),
        ]
        for i, r in enumerate(recs)
    ]
    head = [par, "measure", "pearson", "p", "spearman", "p", "best"]
    right = [True, False, True, True, True, True, False]
    if fmt == "markdown":
        return "\n\n".join(lines) + "\n\n" + table_markdown(head, body, right)
    if fmt == "latex":
        return "".join(f"% {x.removeprefix('# ')}\n" for x in lines) + table_latex(
            head, body, right
        )
    return "\n".join(lines) + "\n\n" + table_text(head, body, right)


def main(argv: list[str]) -> int:
    from ..errors import CwlkitError
    from ..stats.fit import fit_runs, parse_grid, plot_fit
    from ..support.checks import check_number
    from ._options import apply_quiet, output_format, write_output

    args = build_parser().parse_args(argv)
    fmt = output_format(args)
    progress = apply_quiet(args)
    parse_grid(args.metric)  # report a bad grid before reading any file
    if args.max_residual is not None:
        check_number("--max-residual", args.max_residual)
    if args.plot:
        try:
            import matplotlib  # noqa: F401
        except ImportError:
            raise CwlkitError("--plot needs matplotlib: pip install 'cwlkit[plot]'") from None
    res = fit_runs(
        args.qrels,
        args.runs,
        args.target,
        args.metric,
        max_residual=args.max_residual,
        gain=args.gain,
        order=args.order,
        topics=args.topics,
        jobs=args.jobs,
        progress=progress,
    )
    text = render(res, fmt)
    if args.plot:
        plot_fit(res, args.plot)
    write_output(args, text)
    return 0
