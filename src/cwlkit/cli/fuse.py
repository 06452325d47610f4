"""``cwlkit fuse RUN... -M METHOD -o FILE``: combine runs into one (ranx's 25 methods)."""

from __future__ import annotations

import argparse

DESCRIPTION = """\
Combine two or more runs into one TREC run file: each run's scores are normalised per topic
(--norm, default min-max), then fused by METHOD, under ranx's names or readable ones:
  score-based   sum (CombSUM) mnz (CombMNZ) anz (CombANZ) gmnz (CombGMNZ) max min med
                wsum (weighted sum) wmnz mixed
  rank-based    rrf (RRF) isr log_isr logn_isr rbc bordafuse w_bordafuse
  voting        condorcet w_condorcet
  learned       posfuse probfuse segfuse slidefuse bayesfuse mapfuse (need --train QRELS,
                the training runs with --train-runs, default the runs fused)
Normalisations: min-max, min-max-inverted, max, sum, zmuv, rank, borda, none.
--param NAME=VALUE sets a method's parameter (k=60 for rrf, phi=0.8 for rbc, gamma, sigma,
w, n_segments). With --compare QRELS, the fused run is compared with its best input (by the
first measure's mean) in a paired test, printed as 'cwlkit compare' prints it.
See docs/fusion.md for every formula, paper and convention.
"""


def build_parser():
    from ._options import QL, QRELS, RM, examples
    from .main import ArgumentParser

    out = "fused.run"  # (into the current folder)

    p = ArgumentParser(
        prog="cwlkit fuse",
        description=DESCRIPTION,
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog=examples(
            f"cwlkit fuse {QL} {RM} -M rrf -o {out}",
            f"cwlkit fuse {QL} {RM} -M wsum --weights 0.7 0.3 --depth 100 -o {out}",
            f"cwlkit fuse {QL} {RM} -M CombMNZ --norm zmuv --compare {QRELS} -m AP nDCG@10 "
            f"-o {out}",
            f"cwlkit fuse {QL} {RM} -M probfuse --train {QRELS} --param n_segments=20 -o {out}",
        ),
    )
    p.add_argument("runs", nargs="+", metavar="RUN", help="TREC runs (at least two)")
    p.add_argument("-M", "--method", required=True, help="fusion method (e.g. rrf, wsum, mnz)")
    p.add_argument("--norm", default="min-max", help="score normalisation (default min-max)")
    p.add_argument("--weights", nargs="+", type=float, metavar="W", help="one weight per run")
    p.add_argument(
        "--param",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="a method's parameter (k, phi, gamma, sigma, w, n_segments); repeatable",
    )
    p.add_argument("--depth", type=int, help="keep the first DEPTH documents of each topic")
    p.add_argument("--tag", help="the fused run's tag (default: the method)")
    p.add_argument("--train", metavar="QRELS", help="training qrels (learned methods)")
    p.add_argument("--train-runs", nargs="+", metavar="RUN", help="training runs")
    p.add_argument("--compare", metavar="QRELS", help="compare the fused run with its best input")
    p.add_argument(
        "-m",
        "--measure",
        dest="measures",
        action="append",
        default=[],
        metavar="NAME",
        help="measures of --compare (default AP)",
    )
    p.add_argument("--test", default="t", help="paired test of --compare (default t)")
    p.add_argument("-o", "--output", required=True, metavar="FILE", help="the fused TREC run")
    return p


def _param(text: str) -> tuple[str, float | int]:
    from ..errors import ParamError

    name, sep, value = text.partition("=")
    if not sep:
        raise ParamError(f"--param must be NAME=VALUE; got {text!r}")
    try:
        number: float | int = int(value) if name in ("w", "n_segments") else float(value)
    except ValueError:
        raise ParamError(f"--param {name} must be a number; got {value!r}") from None
    return name, number


def main(argv: list[str]) -> int:
    import sys

    from ..fusion import fuse
    from ..io.inputs import run_labels

    args = build_parser().parse_args(argv)
    params: dict = dict(_param(t) for t in args.param)
    if args.weights is not None:
        params["weights"] = args.weights
    if args.train is not None:
        params["train_qrels"] = args.train
    if args.train_runs is not None:
        params["train_runs"] = args.train_runs
    names = run_labels(args.runs)
    norm = None if args.norm == "none" else args.norm
    fused = fuse(
        dict(zip(names, args.runs, strict=True)),
        args.method,
        norm,
        depth=args.depth,
        tag=args.tag,
        **params,
    )
    fused.write(args.output)
    if args.compare is not None:
        from ..api import evaluate
        from ..formats.comparison import format_comparison
        from ..stats.comparison import compare
        from ._options import parse_measure_args

        measures = parse_measure_args(args.measures or ["AP"])
        inputs = evaluate(args.compare, dict(zip(names, args.runs, strict=True)), measures)
        assert isinstance(inputs, dict)
        first = measures[0].name
        best = max(inputs, key=lambda k: inputs[k].mean()[first])
        fused_res = evaluate(args.compare, fused, measures)
        assert not isinstance(fused_res, dict)
        table = compare({best: inputs[best], fused.runid: fused_res}, test=args.test)
        sys.stdout.write(format_comparison(table, "text"))
    return 0
