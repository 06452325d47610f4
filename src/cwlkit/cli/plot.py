"""``cwlkit plot ACTION ... -o FILE``: the figures of the seeds, drawn from the API's numbers."""

from __future__ import annotations

import argparse
import sys
from importlib import resources

DESCRIPTION = """\
Draw a figure to -o FILE (.png or .svg; needs matplotlib: pip install 'cwlkit[plot]').

  vectors  a C/W/L metric's C, W and L vectors over the ranks of some topics
           (the cwl_eval paper's Figure 1): one row per -M metric, one line per -t topic
  sweep    EU, ETU and ETC against the expected depth ED as a parameter runs over a grid
           (its Figure 2): one column per -M grid such as 'RBP(p=0.1:0.95:0.05)'
  pr       precision-recall: a run's interpolated curve averaged over topics (and -t topic
           curves), or the averaged curves of several runs
  roc      ROC curves (TPR against FPR) of a run's topics (default the first 10), with
           their areas and the mean AUC over every topic
  scatter  each -m measure against the first (e.g. ERR@20) per (run, topic) and per system
           (the ERR paper's Figure 4), with Pearson's r and Spearman's rho
  matrix   the correlation matrix of every pair of -m measures as heat maps (its Table 2:
           Kendall's tau above the diagonal, the 1/(r+1)-weighted tau below)

vectors and sweep follow 'cwlkit cwl' (every run topic, double-precision scores, --gain,
-c costs); the others 'cwlkit evaluate' and 'cwlkit correlate' (--topics: which topics are
evaluated). -t/--topic-id T names a topic to draw (repeatable). Run
'cwlkit plot ACTION --help' for an action's options and examples.
"""

#: each action's --help description (its first line is the one-line help of 'cwlkit plot')
ACTIONS = {
    "vectors": (
        "C, W, L over ranks (Figure 1)",
        "A C/W/L metric's C (continuation), W (weight) and L (last-document) vectors over the\n"
        "ranks of some topics: the cwl_eval paper's Figure 1. One row of panes per -M metric,\n"
        "one line per -t topic. Rankings as 'cwlkit cwl' ranks them (every run topic,\n"
        "double-precision scores, --gain, -c costs).",
    ),
    "sweep": (
        "EU, ETU, ETC against ED over a grid (Figure 2)",
        "EU, ETU and ETC against the expected depth ED as a parameter runs over a grid: the\n"
        "cwl_eval paper's Figure 2. One column per -M grid such as 'RBP(p=0.1:0.95:0.05)';\n"
        "the mean over topics, and one line per -t topic.",
    ),
    "pr": (
        "precision-recall curves",
        "Precision-recall curves: one run's interpolated 11-point curve averaged over the\n"
        "topics (--topics decides which) and each -t topic's curve, or several runs' averaged\n"
        "curves. A document is relevant when its label is at least --rel.",
    ),
    "roc": (
        "ROC curves",
        "ROC curves (true-positive rate against false-positive rate) of one run's topics, with\n"
        "their areas; -t names the topics to draw (default: the first 10).",
    ),
    "scatter": (
        "measures against a reference (ERR paper Figure 4)",
        "Each -m measure against the first (or -x) per (run, topic) and per system, with\n"
        "Pearson's r and Spearman's rho: the ERR paper's Figure 4.",
    ),
    "matrix": (
        "correlation matrix heat maps (ERR paper Table 2)",
        "The correlation matrix of every pair of -m measures as heat maps: the ERR paper's\n"
        "Table 2 (Kendall's tau above the diagonal, the 1/(r+1)-weighted tau below; Pearson\n"
        "above and Spearman below), over the systems and over the (run, topic) pairs.",
    ),
}

#: each action's --help examples (figures go to the current folder)
EXAMPLES = {
    "vectors": (
        "cwlkit plot vectors --example -M 'RBP(p=0.8)' -M 'INST(T=2)' -o vectors.png",
        "cwlkit plot vectors {QRELS} {QL} -M 'RBP(p=0.8)' -t 151 -t 152 --ranks 20 -o vectors.svg",
    ),
    "sweep": (
        "cwlkit plot sweep --example -M 'RBP(p=0.1:0.9:0.1)' -o sweep.png",
        "cwlkit plot sweep {QRELS} {QL} -M 'INST(T=1:5:1)' -o sweep.svg",
    ),
    "pr": (
        "cwlkit plot pr {QRELS} {QL} -t 151 -t 152 -o pr.png",
        "cwlkit plot pr {QRELS} {QL} {RM} --rel 2 -o pr.svg",
    ),
    "roc": (
        "cwlkit plot roc {QRELS} {QL} -o roc.png",
        "cwlkit plot roc {QRELS} {QL} -t 151 -t 155 --topics qrels -o roc.svg",
    ),
    "scatter": (
        "cwlkit plot scatter {QRELS} {RUNS} -m ERR@20 'RBP(p=0.6)' AP -o scatter.png",
        "cwlkit plot scatter {QRELS} {RUNS} -x nDCG@10 -m P@10 AP -o scatter.svg",
    ),
    "matrix": (
        "cwlkit plot matrix {QRELS} {RUNS} -m ERR@20 'RBP(p=0.6)' AP nDCG@10 -o matrix.png",
    ),
}

#: ranks drawn by 'vectors' when --ranks is not given, at most
DEFAULT_RANKS = 50


def _topic_ids(p: argparse.ArgumentParser, what: str) -> None:
    p.add_argument(
        "-t",
        "--topic-id",
        action="append",
        default=[],
        dest="topic_ids",
        metavar="T",
        help=f"a topic to draw (repeatable){what}",
    )


def _common(p: argparse.ArgumentParser, *, gain: bool = True) -> None:
    p.add_argument(
        "-o",
        "--output",
        required=True,
        metavar="FILE",
        help="write the figure to FILE: .png or .svg",
    )
    p.add_argument("--dpi", type=int, default=150, help="PNG resolution (default 150)")
    p.add_argument(
        "--order",
        choices=("score", "rank", "file"),
        default="score",
        help="ranking order: score (default; ties by docno descending), rank column, file order",
    )
    if gain:
        p.add_argument(
            "--gain",
            default="auto",
            help="label -> gain for C/W/L metrics: auto (default: label / largest label when a "
            "label is above 1), identity, linear, exp, err, "
            "or a table '0:0,1:0.5,2:1'",
        )


def _cwl_inputs(p: argparse.ArgumentParser) -> None:
    p.add_argument("qrels", nargs="?", help="TREC qrels (not with --example)")
    p.add_argument("run", nargs="?", help="TREC run (not with --example)")
    p.add_argument(
        "-M",
        "--metric",
        action="append",
        required=True,
        dest="metrics",
        metavar="METRIC",
        help="a C/W/L metric, e.g. 'RBP(p=0.8)' (repeatable)",
    )
    _topic_ids(p, " (default: vectors the first 3 topics; sweep the mean over all)")
    p.add_argument("-c", "--cost-file", help="element-type costs: 'type cost' per line")
    p.add_argument("--doc-costs", help="per-document costs: 'topic document cost' per line")
    p.add_argument(
        "--example",
        action="store_true",
        help="the bundled example (the cwl_eval paper's topics T1 and T2, with costs)",
    )


def _many_runs(p: argparse.ArgumentParser, measures: bool) -> None:
    from ._options import TOPICS_HELP, add_correlation_options, add_measure_option

    p.add_argument("qrels", help="TREC qrels")
    p.add_argument("runs", nargs="+", metavar="RUN", help="TREC runs")
    p.add_argument(
        "--topics",
        choices=("both", "qrels", "run", "either"),
        default="both",
        help=TOPICS_HELP,
    )
    if measures:
        add_measure_option(p)
        add_correlation_options(p)


def build_parser():
    from ._options import QL, QRELS, examples
    from .main import ArgumentParser

    p = ArgumentParser(
        prog="cwlkit plot",
        description=DESCRIPTION,
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog=examples(
            "cwlkit plot sweep --example -M 'RBP(p=0.1:0.9:0.1)' -o sweep.png",
            "cwlkit plot vectors --example -M 'INST(T=2)' -o vectors.png",
            f"cwlkit plot pr {QRELS} {QL} -o pr.png",
        ),
    )
    sub = p.add_subparsers(dest="action", metavar="ACTION", required=True, help="the figure")

    def action(name: str) -> argparse.ArgumentParser:
        from ._options import QL, QRELS, RM, RUNS, examples

        data = {"{QRELS}": QRELS, "{QL}": QL, "{RM}": RM, "{RUNS}": RUNS}
        lines = []
        for x in EXAMPLES[name]:
            for key, value in data.items():
                x = x.replace(key, value)
            lines.append(x)
        summary, description = ACTIONS[name]
        return sub.add_parser(
            name,
            help=summary,
            description=description,
            formatter_class=argparse.RawDescriptionHelpFormatter,
            epilog=examples(*lines),
        )

    v = action("vectors")
    _cwl_inputs(v)
    v.add_argument(
        "--ranks", type=int, help=f"ranks to draw (default the run's, at most {DEFAULT_RANKS})"
    )
    _common(v)

    s = action("sweep")
    _cwl_inputs(s)
    s.add_argument(
        "--mean",
        action="store_true",
        help="also draw the mean over topics (default without -t)",
    )
    _common(s)

    pr = action("pr")
    _many_runs(pr, measures=False)
    _topic_ids(pr, " (one run only)")
    pr.add_argument("--rel", type=float, default=1.0, help="relevant: label >= REL (default 1)")
    pr.add_argument("--no-mean", action="store_true", help="one run: leave out the mean curve")
    _common(pr, gain=False)

    roc = action("roc")
    _many_runs(roc, measures=False)
    _topic_ids(roc, " (default: the first 10 topics)")
    roc.add_argument("--rel", type=float, default=1.0, help="relevant: label >= REL (default 1)")
    _common(roc, gain=False)

    sc = action("scatter")
    _many_runs(sc, measures=True)
    sc.add_argument("-x", help="the measure on the x axis (default the first -m)")
    sc.add_argument("--ncols", type=int, help="panes per row (default up to 5)")
    _common(sc)

    mx = action("matrix")
    _many_runs(mx, measures=True)
    _common(mx)
    return p


def main(argv: list[str]) -> int:
    from ..errors import CwlkitError
    from ..plot.figures import check_path, require_matplotlib, save

    args = build_parser().parse_args(argv)
    check_path(args.output)  # before any work: a bad name or a missing extra fails at once
    if args.dpi < 10:
        raise CwlkitError(f"--dpi must be at least 10; got {args.dpi}")
    require_matplotlib()
    fig = _ACTIONS[args.action](args)
    save(fig, args.output, dpi=args.dpi)
    return 0


# --- the actions: flags -> API -> a plotting function ------------------------------------------


def _cwl_setup(args) -> dict:
    from ..errors import CwlkitError

    if args.example:
        base = resources.files("cwlkit") / "data"
        args.qrels = args.qrels or str(base / "example.qrels")
        args.run = args.run or str(base / "example.run")
        args.cost_file = args.cost_file or str(base / "example.costs")
        args.topic_ids = args.topic_ids or ["T1", "T2"]
    if not args.qrels or not args.run:
        raise CwlkitError(f"cwlkit plot {args.action}: needs QRELS and RUN (or --example)")
    from ..api import Evaluator

    # every run topic is drawn (cwl's rule), but a run that shares no topic with the qrels
    # is refused as in every other subcommand of cwlkit's own (NoTopicsError, naming both)
    batch = Evaluator(args.qrels, [], order=args.order).batch(args.run)
    args.shared_topics = [str(t) for t in batch.topics]
    return {
        "topics": "run",
        "trec_version": 10,  # as cwlkit cwl: rank by the double-precision score
        "order": args.order,
        "gain": args.gain,
        "costs": args.cost_file,
        "doc_costs": args.doc_costs,
    }


#: the topics ``plot vectors`` draws without ``-t``: the first few the run and qrels share
DEFAULT_VECTOR_TOPICS = 3


def _vectors(args):
    from ..api import cwl_vectors, parse_list
    from ..errors import CwlkitError
    from ..plot.cwl import plot_vectors

    options = _cwl_setup(args)
    if not args.topic_ids:
        args.topic_ids = args.shared_topics[:DEFAULT_VECTOR_TOPICS]
        shown = ", ".join(args.topic_ids)
        sys.stderr.write(
            f"cwlkit plot vectors: the first {len(args.topic_ids)} topics ({shown}); "
            "choose them with -t T\n"
        )
    if args.ranks is not None and args.ranks < 1:
        raise CwlkitError(f"--ranks must be >= 1; got {args.ranks}")
    metrics = parse_list(args.metrics)
    vectors = {
        m.name: {
            t: cwl_vectors(args.qrels, args.run, m, t, horizon=args.ranks, **options)
            for t in args.topic_ids
        }
        for m in metrics
    }
    ranks = args.ranks
    if ranks is None:
        longest = max(v["C"].size for per in vectors.values() for v in per.values())
        ranks = min(longest, DEFAULT_RANKS)
    return plot_vectors(vectors, ranks=ranks)


def _sweep(args):
    from ..api import Evaluator
    from ..errors import CwlkitError
    from ..measures.cwl import CWLMetric
    from ..measures.parse import parse_measures
    from ..plot.cwl import plot_sweep

    options = _cwl_setup(args)
    grids = {spec: parse_measures(spec) for spec in args.metrics}
    measures = []
    for ms in grids.values():
        for m in ms:
            if not isinstance(m, CWLMetric):
                raise CwlkitError(f"{m.name} is not a C/W/L metric: it has no expected depth")
            if m not in measures:
                measures.append(m)
    res = Evaluator(args.qrels, measures, **options).evaluate(args.run)
    return plot_sweep(
        res,
        {spec: [m.name for m in ms] for spec, ms in grids.items()},
        topics=args.topic_ids or None,
        mean=True if args.mean else None,
    )


def _batches(args):
    from ..api import Evaluator, named_runs

    ev = Evaluator(args.qrels, [], order=args.order, topics=args.topics)
    return {name: ev.batch(run) for name, run in named_runs(list(args.runs))}


def _pr(args):
    from ..measures.curves import pr_curve
    from ..plot.curves import plot_pr
    from ..plot.figures import figure
    from ..plot.report import plot_pr_curves, short_names

    curves = {name: pr_curve(b, args.rel) for name, b in _batches(args).items()}
    fig, axes = figure(6.0, 4.8)
    if len(curves) == 1:
        curve = next(iter(curves.values()))
        plot_pr(curve, topics=args.topic_ids or None, mean=not args.no_mean, ax=axes[0, 0])
        axes[0, 0].set_title(f"Precision-recall: {next(iter(curves))}", fontsize=9)
    else:
        if args.topic_ids:
            from ..errors import CwlkitError

            raise CwlkitError("-t/--topic-id draws one run's topics; give one run")
        names = short_names(list(curves))
        levels = next(iter(curves.values())).levels
        plot_pr_curves(
            levels,
            {n: c.mean_interpolated for n, c in zip(names, curves.values(), strict=True)},
            ax=axes[0, 0],
        )
    return fig


def _roc(args):
    from ..errors import CwlkitError
    from ..measures.curves import roc_curve
    from ..plot.curves import plot_roc
    from ..plot.figures import figure

    batches = _batches(args)
    if len(batches) != 1:
        raise CwlkitError("cwlkit plot roc draws one run's topics; give one run")
    name, batch = next(iter(batches.items()))
    curve = roc_curve(batch, args.rel)
    fig, axes = figure(5.5, 5.0)
    plot_roc(curve, topics=args.topic_ids or None, name=name, ax=axes[0, 0])
    return fig


def _matrix_of(args, first: str | None = None):
    from ._options import correlation_matrix, parse_measure_args

    specs = ([first] if first else []) + list(args.measures)
    return correlation_matrix(
        args,
        parse_measure_args(specs),
        f"cwlkit plot {args.action}: needs at least 2 measures (-x, -m)",
    )


def _scatter(args):
    from ..plot.correlation import plot_scatter

    cm = _matrix_of(args, args.x)
    return plot_scatter(cm, cm.measures[0], ncols=args.ncols)


def _matrix(args):
    from ..plot.correlation import plot_matrix

    return plot_matrix(_matrix_of(args))


_ACTIONS = {
    "vectors": _vectors,
    "sweep": _sweep,
    "pr": _pr,
    "roc": _roc,
    "scatter": _scatter,
    "matrix": _matrix,
}
