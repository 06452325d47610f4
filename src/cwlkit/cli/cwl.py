"""``cwlkit cwl QRELS RUN``: cwl_eval's command line and output, without its depth cut."""

from __future__ import annotations

import sys
from importlib import resources
from pathlib import Path
from typing import Any

DESCRIPTION = """\
Flags and output of cwl_eval 1.0.12 (Azzopardi, Thomas and Moffat's C/W/L framework).

C/W/L evaluation: for each topic and metric print EU, ETU, EC, ETC and ED (and with -r
their residuals). Output is cwl_eval's: topic<TAB>metric<TAB>EU<TAB>ETU<TAB>EC<TAB>ETC<TAB>ED.

Differences from cwl_eval 1.0.12 (see docs/cwl.md): the user model continues past the end of
the run (closed-form tails; ED = inf where it diverges) unless --max-depth N asks for
cwl_eval's cut at N (with --order file --max-depth 1000 the output is cwl_eval's, byte for
byte: its arithmetic, and its names, TBG's and U's with a trailing space); the run is
ordered by score (ties by docno descending, like trec_eval) unless --order file; labels
can be mapped to gains with --gain; BPM-Dynamic updates K by hc (except under --max-depth,
where K stays fixed as in cwl_eval); IFT does not overflow; P@k works for any k; errors
are one line; nothing is written to the working directory.
"""


def build_parser():
    from ._options import QL, QRELS, add_output_options, examples
    from .main import ArgumentParser

    p = ArgumentParser(
        prog="cwlkit cwl",
        description=DESCRIPTION,
        epilog=examples(
            "cwlkit cwl --example",
            f"cwlkit cwl {QRELS} {QL} -M 'RBP(p=0.8)' -M 'INST(T=2)' --mean",
            f"cwlkit cwl {QRELS} {QL} -M 'RBP(p=0.8)' -r --gain linear",
        ),
        formatter_class=__import__("argparse").RawDescriptionHelpFormatter,
    )
    p.add_argument("qrels", nargs="?", help="TREC qrels: topic iteration document label")
    p.add_argument(
        "run", nargs="?", help="TREC run: topic Q0 document rank score tag (plain or .gz)"
    )
    p.add_argument(
        "-c",
        "--cost-file",
        "--cost_file",
        dest="cost_file",
        help="element-type costs: 'type cost' per line",
    )
    p.add_argument("--doc-costs", help="per-document costs: 'topic document cost' per line")
    p.add_argument(
        "-m",
        "--metrics-file",
        "--metrics_file",
        dest="metrics_file",
        help="metrics, one per line (cwl_eval's RBPCWLMetric(0.8) or RBP(p=0.8))",
    )
    p.add_argument(
        "-M",
        "--metric",
        action="append",
        default=[],
        help="a metric by name (repeatable), e.g. -M 'INST(T=2)' -M P@10; a grid "
        "start:stop:step gives one metric per value: -M 'RBP(p=0.1:0.9:0.2)'",
    )
    p.add_argument(
        "-b",
        "--bib-file",
        "--bib_file",
        dest="bib_file",
        help="write the BibTeX of the tool and the metrics to this file",
    )
    p.add_argument("-n", "--colnames", action="store_true", help="print a header line")
    p.add_argument(
        "-r", "--residuals", action="store_true", help="add ResEU ResETU ResEC ResETC ResED columns"
    )
    p.add_argument(
        "--max-gain",
        "--max_gain",
        dest="max_gain",
        type=float,
        help=(
            "check qrels gains against this bound; gain of unjudged documents in the upper bound "
            "(default max(1, largest gain))"
        ),
    )
    p.add_argument(
        "--min-gain",
        "--min_gain",
        dest="min_gain",
        type=float,
        help="check qrels gains against this bound",
    )
    p.add_argument(
        "--max-cost",
        "--max_cost",
        dest="max_cost",
        type=float,
        default=1.0,
        help="cost of documents without one, and past the run (lower bound); default 1",
    )
    p.add_argument(
        "--min-cost",
        "--min_cost",
        dest="min_cost",
        type=float,
        default=1.0,
        help="the same for the upper bound; default 1",
    )
    p.add_argument(
        "--max-depth",
        "--max_depth",
        dest="max_depth",
        type=int,
        help="cwl_eval's mode: cut or pad every ranking to N ranks, no tail",
    )
    p.add_argument(
        "--order",
        choices=("score", "rank", "file"),
        default="score",
        help=(
            "ranking order: score (default; ties by docno descending), rank column, "
            "or file order (cwl_eval)"
        ),
    )
    p.add_argument(
        "--ties",
        choices=("none", "average"),
        default="none",
        help="average: tied documents share their group's mean gain",
    )
    p.add_argument(
        "--gain",
        default=None,
        help=(
            "label -> gain: auto (default: linear, label / largest label, when the qrels hold "
            "a label above 1, else identity), identity, linear, exp, err, or a table "
            "'0:0,1:0.5,2:1'; negative labels give 0"
        ),
    )
    p.add_argument(
        "--mean", action="store_true", help="add an 'all' row per metric (mean over topics)"
    )
    add_output_options(p, ("text", "tsv", "json"))  # cwlkit's additions, in its own dialect
    p.add_argument(
        "--chunk-topics",
        default="auto",
        help=(
            "stream the run (and qrels) file through buckets of N topics, scored one at a "
            "time (the same output; memory bounded by the bucket); auto (default): a run file "
            "over 8 MB in buckets of about 24,576 lines; none: read the files whole"
        ),
    )
    p.add_argument(
        "--example",
        action="store_true",
        help="evaluate the bundled example (the cwl_eval paper's topics T1, T2, with costs)",
    )
    p.add_argument("--version", action="store_true", help="print the version and exit")
    return p


def main(argv: list[str]) -> int:
    from ..errors import CwlkitError, ParamError
    from .main import lean_arrow_memory

    lean_arrow_memory()  # (before pyarrow is loaded)
    args = build_parser().parse_args(argv)
    if args.version:
        from .. import __version__

        sys.stdout.write(f"cwlkit {__version__}\n")
        return 0
    if args.example:
        if args.qrels or args.run:  # (the example's costs and metrics with other files)
            raise CwlkitError(
                "cwlkit cwl: --example evaluates the bundled files; give QRELS and RUN without it"
            )
        base = resources.files("cwlkit") / "data"
        args.qrels = str(base / "example.qrels")
        args.run = str(base / "example.run")
        args.cost_file = args.cost_file or str(base / "example.costs")
        if not args.metrics_file and not args.metric:
            args.metrics_file = str(base / "example.metrics")
    if not args.qrels or not args.run:
        raise CwlkitError("cwlkit cwl: needs QRELS and RUN (or --example); see 'cwlkit cwl --help'")
    if args.max_depth is not None and args.max_depth < 1:
        raise ParamError(f"--max-depth must be >= 1; got {args.max_depth}")

    from ..api import Evaluator
    from ..formats.cwl import format_cwl
    from ..measures.cwl.parse import (
        DEFAULT_METRICS,
        parse_cwl_metric,
        parse_cwl_metrics,
        read_metrics_file,
    )
    from ._options import output_format, say_gains, write_output

    exact = args.max_depth is not None  # cwl_eval's mode: its names, trailing spaces included
    specs = []
    if args.metrics_file:
        specs += read_metrics_file(args.metrics_file, cwl_eval_names=exact)
    # grids: one metric per value
    specs += [s for m in args.metric for s in parse_cwl_metrics(m, cwl_eval_names=exact)]
    if not specs:
        specs = [parse_cwl_metric(m, cwl_eval_names=exact) for m in DEFAULT_METRICS]
    metrics, names = _unique(specs)
    ev = Evaluator(
        args.qrels,
        metrics,
        topics="run",
        trec_version=10,  # rank by the double-precision score
        order=args.order,
        gain="auto" if args.gain is None else args.gain,  # (--gain "": refused, as everywhere)
        costs=args.cost_file,
        doc_costs=args.doc_costs,
        residuals=args.residuals,
        ties=args.ties,
        compat_depth=args.max_depth,
        cwl_columns=True,
        max_gain=args.max_gain,
        min_gain=args.min_gain,
        max_cost=args.max_cost,
        min_cost=args.min_cost,
        chunk_topics=_chunk_option(args.chunk_topics),
    )
    res = ev.evaluate(args.run)
    if args.gain is None:
        say_gains(ev, "cwl")
    if _shares_no_topic(ev, res.topics, res.values):
        # cwl_eval scores every run topic (0 where nothing is judged) and exits 0: so does
        # cwlkit, and says why (one line on stderr)
        sys.stderr.write(
            f"cwlkit cwl: warning: {args.run} and {args.qrels} share no topic: every run "
            "topic scores 0 (as cwl_eval)\n"
        )
    del ev
    text = format_cwl(
        res,
        names,
        residuals=args.residuals,
        header=args.colnames,
        mean=args.mean,
        fmt=output_format(args),
    )
    if args.bib_file:
        from ..measures.cwl.bib import bibliography

        try:
            Path(args.bib_file).write_text(bibliography([m.family for m in metrics]))
        except OSError as exc:
            raise CwlkitError(f"{args.bib_file}: cannot write ({exc.strerror})") from None
    write_output(args, text)
    return 0


def _chunk_option(text: str) -> int | str | None:
    """``--chunk-topics``: a positive integer, ``auto`` or ``none`` (None)."""
    from ..errors import ParamError

    if text in ("auto", "none"):
        return None if text == "none" else text
    if not text.isdigit() or int(text) < 1:
        raise ParamError(
            f"--chunk-topics must be a positive integer, 'auto' or 'none'; got {text!r}"
        )
    return int(text)


def _unique(specs: list) -> tuple[list, list[str]]:
    """The metrics once each (the first spelling's printed name), and no printed name shared by
    two different measures (``-M P@10`` is trec_eval's P@10, while cwl_eval prints its
    ``PrecisionCWLMetric(10)`` as ``P@10`` too)."""
    from ..errors import ParamError

    metrics: list = []
    names: list[str] = []
    for m, name in specs:
        if m in metrics:
            continue
        if name in names:
            other = metrics[names.index(name)]
            raise ParamError(
                f"two measures would print as {name!r}: {other.name} and {m.name}; "
                f"ask for them as {other.name} and {m.name} (their canonical names)"
            )
        metrics.append(m)
        names.append(name)
    return metrics, names


def _shares_no_topic(ev: Any, topics: list[str], values: Any) -> bool:
    """Whether no topic of the run (``topics``, whose values are ``values``) is judged in the
    evaluator's qrels (looked up only when every value is 0)."""
    import numpy as np

    if not topics or np.any(np.nan_to_num(values) != 0):
        return False
    q = ev.plan.qrels_read if ev.plan.qrels_read is not None else ev.plan.qrels
    _, dictionary = q.topic_codes()
    return not set(topics) & {str(t) for t in dictionary.to_pylist()}
