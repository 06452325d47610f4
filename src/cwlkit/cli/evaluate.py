"""``cwlkit evaluate QRELS RUN... -m NAME...``: any measures, many runs, one row per run."""

from __future__ import annotations

import argparse

DESCRIPTION = """\
Evaluate every run with every measure (any name of 'cwlkit measures': P@10, AP, nDCG@10,
RBP(p=0.8), INST(T=2), ERR@20, trec_eval's P.5,10 ...) and print one row per run with each
measure aggregated over the topics (mean; sum for counts; geometric mean for GMAP), or with
--per-topic one row per run and topic.

Rules (the Python API's defaults): trec_eval 9.0.8's. The topics evaluated are those in both
the qrels and the run (--topics qrels is trec_eval's -c: a qrels topic the run lacks scores
0); runs are ranked by score rounded to float32 (ties by document id descending);
--trec-version 10 ranks by the double-precision score.

The header names each measure by its canonical name (-m MAP prints AP, ndcg_cut_10 nDCG@10;
'cwlkit measures NAME' shows it). -f picks the format (text, tsv, csv, json, markdown,
latex), -o FILE writes to a file (its suffix gives the format when -f is not given).
"""


def build_parser():
    from ..formats.table import FORMATS
    from ._options import (
        QL,
        QRELS,
        RM,
        add_jobs_option,
        add_measure_option,
        add_output_options,
        add_quiet_option,
        add_ranking_options,
        examples,
        headline_help,
    )
    from .main import ArgumentParser

    p = ArgumentParser(
        prog="cwlkit evaluate",
        description=DESCRIPTION,
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog=examples(
            f"cwlkit evaluate {QRELS} {QL} -m P@10 AP",
            f"cwlkit evaluate {QRELS} {QL} {RM} -m 'nDCG@10 ERR@20' -m 'RBP(p=0.8)' -f markdown",
            f"cwlkit evaluate {QRELS} {QL} -m MAP ndcg_cut_10 --per-topic -f csv --quiet",
        ),
    )
    p.add_argument("qrels", help="qrels: TREC file (plain or .gz) or Parquet")
    p.add_argument(
        "runs",
        nargs="+",
        metavar="RUN",
        help="runs: TREC files (plain or .gz) or Parquet, or fsspec URLs (s3://...) of either",
    )
    add_measure_option(p, help=headline_help())
    p.add_argument("--per-topic", action="store_true", help="one row per run and topic")
    add_ranking_options(p)
    p.add_argument(
        "--trec-version",
        type=int,
        choices=(9, 10),
        default=9,
        help="trec_eval's rules: 9 (default: scores rounded to float32) or 10 (doubles)",
    )
    p.add_argument(
        "--depth", type=int, help="keep the top N documents of each ranking (trec_eval -M)"
    )
    p.add_argument(
        "-J", "--judged-only", action="store_true", help="drop unjudged documents (trec_eval -J)"
    )
    add_output_options(p, FORMATS)
    add_jobs_option(
        p,
        help="processes evaluating the runs, or the topic chunks of a single run with "
        "--chunk-topics (default: every available core; the same output for any N)",
    )
    add_quiet_option(p)
    p.add_argument(
        "--scheduler",
        metavar="ADDRESS",
        help="evaluate on a Dask cluster: the scheduler's address, tcp://HOST:PORT "
        "(pip install 'cwlkit[dask]'; every worker must be able to read the runs)",
    )
    p.add_argument(
        "--chunk-topics",
        type=int,
        default=None,
        metavar="N",
        help="score N topics of a run at a time (same values; smaller ranking matrices)",
    )
    return p


def main(argv: list[str]) -> int:
    args = build_parser().parse_args(argv)
    if args.chunk_topics is None:  # (streamed runs keep pyarrow's allocator: measured faster)
        from .main import lean_arrow_memory

        lean_arrow_memory()  # (pyarrow is not loaded yet)
    if args.scheduler is not None:
        from ..executors.dask import connect

        with connect(args.scheduler) as client:
            return _evaluate(args, client)
    return _evaluate(args, None)


def _evaluate(args: argparse.Namespace, client) -> int:
    from ..api import Evaluator
    from ..formats.table import format_table
    from ..measures.base import is_cwl
    from ._options import (
        apply_quiet,
        measure_args_or_headline,
        output_format,
        say_gains,
        write_output,
    )

    fmt = output_format(args)  # (a bad -o is reported before any file is read)
    ev = Evaluator(
        args.qrels,
        measure_args_or_headline(args.measures),
        topics=args.topics,
        trec_version=args.trec_version,
        order=args.order,
        gain=args.gain,
        depth=args.depth,
        judged_only=args.judged_only,
        chunk_topics=args.chunk_topics,
        client=client,
    )
    # every run is evaluated before anything is printed: a bad line in any run leaves
    # stdout empty (the error names the file and line)
    results = ev.evaluate_many(args.runs, jobs=args.jobs, progress=apply_quiet(args))
    if args.gain == "auto" and any(is_cwl(m) for m in ev.measures):
        say_gains(ev, "evaluate")  # (as cwl says it; P@10's C/W/L form has its own gains)
    write_output(args, format_table(results, per_topic=args.per_topic, fmt=fmt))
    return 0
