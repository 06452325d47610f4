"""``cwlkit pool RUN... --strategy S -o FILE``: what to judge; ``cwlkit pool simulate QRELS
RUN...``: simulated judging budgets against complete qrels."""

from __future__ import annotations

import argparse

from ..errors import ParamError

DESCRIPTION = """\
Pool runs for judging: every (topic, document) some run retrieved gets a priority and each
topic's documents are judged by decreasing priority (ties by document id):

  depth     every document some run ranks in its top --depth (trectools' topX)
  rbp       RBP's weight (1-p) p^(rank-1), summed (--aggregate sum) or the largest (max)
  rrf       reciprocal rank fusion, 1 / (k + rank) summed
  residual  the residual weight W(i) of --measure (any C/W/L metric) summed over the runs;
            with --qrels, judged documents are skipped and W follows their gains
  maxmean   bandit pooling (Losada et al. 2016): judge next from the run of largest
            posterior mean relevance; --qrels is the oracle (complete judgements)
  mtf       bandit pooling, move-to-front: stay with a run while it yields relevant
            documents; --qrels is the oracle

Writes TREC qrels-shaped lines (topic 0 document 0), in judging order. --depth is the
documents a topic (the rank cut for depth; default 10), --budgets FILE a number per topic
(lines: topic n), --budget N (residual) N documents in all.

'cwlkit pool simulate QRELS RUN...' judges in each strategy's order with QRELS as the
oracle and prints, per budget (documents a topic), the judgements used, Kendall's tau and
tau_AP of the system ranking against the complete qrels', the largest and mean residual,
and the runs whose significance against the best changes. See docs/judgements.md.
"""


def _budgets_file(path: str) -> dict[str, int]:
    out: dict[str, int] = {}
    with open(path, encoding="utf-8") as fh:
        for i, line in enumerate(fh, 1):
            parts = line.split()
            if not parts:
                continue
            if len(parts) != 2 or not parts[1].isdigit():
                raise ParamError(f"{path}:{i}: expected 'topic n', got {line.strip()!r}")
            out[parts[0]] = int(parts[1])
    return out


def _params(args) -> dict:
    # -p, -k and --rel reach the API whatever the strategy, so that a value out of range is
    # refused there even when the strategy does not read it (never silently ignored)
    kw: dict = {"order": args.order, "p": args.p, "k": args.k, "rel": args.rel}
    if args.strategy == "rbp":
        kw.update(aggregate=args.aggregate)
    elif args.strategy == "residual":
        kw.update(measure=args.measure)
        if getattr(args, "gain", None) is not None:  # (--gain "": refused, as everywhere)
            kw.update(gain=args.gain)
    if args.pool_depth is not None or args.strategy in ("maxmean", "mtf"):
        kw.update(pool_depth=args.pool_depth)
    return kw


def _common(p) -> None:
    p.add_argument("-p", type=float, default=0.8, help="rbp: persistence (default 0.8)")
    p.add_argument("--aggregate", choices=("sum", "max"), default="sum", help="rbp: sum|max")
    p.add_argument("-k", type=float, default=60.0, help="rrf: the constant k (default 60)")
    p.add_argument(
        "-m", "--measure", default="RBP(p=0.8)", help="residual: a C/W/L metric (RBP(p=0.8))"
    )
    p.add_argument(
        "--pool-depth", type=int, help="maxmean, mtf: cut each run at this rank (default none)"
    )
    p.add_argument(
        "--rel", type=float, default=1.0, help="maxmean, mtf: the smallest relevant label (1)"
    )
    p.add_argument(
        "--order",
        choices=("score", "rank", "file"),
        default="score",
        help="how runs are ranked: score (trec_eval's), rank (the rank column), file",
    )


def build_parser():
    from ._options import QL, QRELS, RM, examples
    from .main import ArgumentParser

    p = ArgumentParser(
        prog="cwlkit pool",
        description=DESCRIPTION,
        epilog=examples(
            f"cwlkit pool {QL} {RM} --depth 10",
            f"cwlkit pool {QL} {RM} -s rbp -p 0.8 --aggregate max --depth 20",
            f"cwlkit pool {QL} {RM} -s residual -m 'RBP(p=0.8)' --budget 200 --qrels {QRELS}",
        ),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("runs", nargs="+", metavar="RUN", help="TREC runs")
    p.add_argument(
        "--strategy",
        "-s",
        default="depth",
        choices=("depth", "rbp", "rrf", "residual", "maxmean", "mtf"),
        help="how documents are prioritised (default depth; see above)",
    )
    p.add_argument("--depth", "-d", type=int, help="documents a topic (depth: the rank cut)")
    p.add_argument("--budgets", metavar="FILE", help="documents per topic: lines 'topic n'")
    p.add_argument("--budget", type=int, help="residual: documents to judge in all")
    p.add_argument("--qrels", help="residual: judgements already made; maxmean, mtf: the oracle")
    p.add_argument("--gain", help="residual: how --qrels labels map to gains (default auto)")
    p.add_argument("--label", default="0", help="the label column written (default 0)")
    p.add_argument(
        "-o", "--output", metavar="FILE", help="write the pool to FILE (default standard output)"
    )
    _common(p)
    return p


def build_simulate_parser():
    from ._options import QL, QRELS, RM, add_output_options, examples
    from .main import ArgumentParser

    p = ArgumentParser(
        prog="cwlkit pool simulate",
        description=DESCRIPTION,
        epilog=examples(
            f"cwlkit pool simulate {QRELS} {QL} {RM} -s depth -b 1,5,20",
            f"cwlkit pool simulate {QRELS} {QL} {RM} -s rbp -s residual -b 5,50 -M AP -f json",
        ),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("qrels", help="the complete qrels (the oracle)")
    p.add_argument("runs", nargs="+", metavar="RUN", help="TREC runs (at least two)")
    p.add_argument(
        "--strategy",
        "-s",
        action="append",
        help="a pooling strategy, repeatable (default: depth, rbp and residual)",
    )
    p.add_argument(
        "--ranking-measure", "-M", default="RBP(p=0.8)", help="the measure ranking the systems"
    )
    p.add_argument(
        "--budgets", "-b", default="1,2,5,10,20,50,100", help="documents a topic, comma-separated"
    )
    add_output_options(p, ("text", "json"))
    p.add_argument("--plot", metavar="FILE", help="tau against judgements, per strategy (PNG)")
    _common(p)
    return p


def main(argv: list[str]) -> int:
    if argv and argv[0] == "simulate":
        return simulate(argv[1:])
    args = build_parser().parse_args(argv)
    from ..judging import pool

    depth: int | dict[str, int] | None = args.depth
    if args.budgets:
        if args.depth is not None:
            raise ParamError("give --depth or --budgets, not both")
        depth = _budgets_file(args.budgets)
    kw = _params(args)
    if args.strategy in ("residual", "maxmean", "mtf") and args.qrels:
        kw["qrels"] = args.qrels
    pl = pool(args.runs, args.strategy, depth=depth, budget=args.budget, **kw)
    from ._options import write_output

    write_output(args, pl.to_qrels_text(args.label))
    return 0


def simulate(argv: list[str]) -> int:
    args = build_simulate_parser().parse_args(argv)
    from ..judging import plot_simulations, simulate_judging
    from ..plot.figures import check_path
    from ..support.jsontext import dumps
    from ._options import output_format, write_output

    try:
        budgets = [int(x) for x in args.budgets.split(",") if x.strip()]
    except ValueError:
        raise ParamError(
            f"--budgets: expected numbers separated by commas; got {args.budgets!r}"
        ) from None
    if args.plot:
        check_path(args.plot)  # (before the simulation, not after it)
    sims = []
    for s in args.strategy or ["depth", "rbp", "residual"]:
        args.strategy = s
        kw = _params(args)
        if "measure" in kw:
            kw["pool_measure"] = kw.pop("measure")
        sims.append(simulate_judging(args.qrels, args.runs, s, args.ranking_measure, budgets, **kw))
    if args.plot:  # (first: a figure that cannot be written leaves stdout empty)
        plot_simulations(sims, args.plot)
    if output_format(args) == "json":
        out = [
            {"strategy": s.strategy, "measure": s.measure, "records": s.to_records()} for s in sims
        ]
        write_output(args, dumps(out, indent=1) + "\n")
    else:
        lines = ["strategy\tbudget\tjudged\ttau\ttau_ap\tmax_residual\tmean_residual\tchanged"]
        for s in sims:
            for r in s.records:
                lines.append(
                    f"{s.strategy}\t{r['budget']}\t{r['judged']}\t{r['tau']:.4f}\t"
                    f"{r['tau_ap']:.4f}\t{r['max_residual']:.4f}\t{r['mean_residual']:.4f}\t"
                    f"{','.join(r['changed']) or '-'}"
                )
        write_output(args, "\n".join(lines) + "\n")
    return 0
