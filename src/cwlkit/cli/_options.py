"""Command-line options shared by the subcommands that evaluate several runs."""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # pragma: no cover
    from ..measures.base import Measure


def add_evaluation_options(p: argparse.ArgumentParser, formats: tuple[str, ...]) -> None:
    """Add ``--order``, ``--topics``, ``--gain`` and ``-o/--format`` (one of ``formats``)."""
    add_ranking_options(p)
    p.add_argument(
        "-o", "--format", choices=formats, default="text", help="output format (default text)"
    )


def add_ranking_options(p: argparse.ArgumentParser) -> None:
    """Add ``--order``, ``--topics`` and ``--gain``: how runs are ranked and scored."""
    p.add_argument(
        "--order",
        choices=("score", "rank", "file"),
        default="score",
        help="ranking order: score (default; ties by docno descending), rank column, file order",
    )
    p.add_argument(
        "--topics",
        choices=("both", "qrels", "run", "either"),
        default="both",
        help="topics evaluated: in both qrels and run (default, trec_eval's rule), every qrels "
        "topic (trec_eval -c: missing ones score 0), every run topic, or either",
    )
    p.add_argument(
        "--gain",
        default="auto",
        help="label -> gain for C/W/L metrics: auto (default: label / largest label when a "
        "label is above 1), identity, linear, exp, err, "
        "or a table '0:0,1:0.5,2:1'",
    )


def add_correlation_options(p: argparse.ArgumentParser, *, note: str = "") -> None:
    """Add ``--level`` and ``--max-residual`` of the correlation matrix (``note`` prefixes
    their help, e.g. ``"with --all-pairs: "``)."""
    p.add_argument(
        "--level",
        choices=("both", "systems", "scores"),
        default="both",
        help=f"{note}per-system means, per-(run, topic) scores, or both (default)",
    )
    p.add_argument(
        "--max-residual",
        type=float,
        help=f"{note}keep the (run, topic) pairs whose first measure's residual is at most "
        "this (the ERR paper's 0.05)",
    )


def add_measure_option(
    p: argparse.ArgumentParser,
    *,
    help: str = "a measure (repeatable; several per value separated by spaces)",
    required: bool = False,
    metavar: str = "NAME",
    several: bool = False,
) -> None:
    """Add ``-m/--measure`` (repeatable, into ``measures``): the measure names of the registry.

    ``several``: one ``-m`` takes several names (``-m P@10 AP``).
    """
    extra = {"nargs": "+", "action": "extend"} if several else {"action": "append"}
    p.add_argument(
        "-m",
        "--measure",
        **extra,
        default=None if required else [],
        required=required,
        dest="measures",
        metavar=metavar,
        help=help,
    )


def split_top_level(text: str) -> list[str]:
    """Split on whitespace outside parentheses and quotes: ``"P@10 RBP(p=0.8, x=1)"``."""
    out: list[str] = []
    cur: list[str] = []
    depth, quote = 0, ""
    for ch in text:
        if quote:
            quote = "" if ch == quote else quote
        elif ch in "'\"":
            quote = ch
        elif ch == "(":
            depth += 1
        elif ch == ")":
            depth = max(0, depth - 1)
        elif ch.isspace() and depth == 0:
            if cur:
                out.append("".join(cur))
                cur = []
            continue
        cur.append(ch)
    if cur:
        out.append("".join(cur))
    return out


def parse_measure_args(specs: Sequence[str]) -> list[Measure]:
    """Parse repeated ``-m`` values, each one or more measures separated by spaces (and each
    may name several, e.g. trec_eval's ``P.5,10``), dropping repeats of a canonical name."""
    from ..api import parse_list

    out: list[Measure] = []
    seen: set[str] = set()
    for m in parse_list([tok for spec in specs for tok in split_top_level(spec)]):
        if m.name not in seen:
            seen.add(m.name)
            out.append(m)
    return out


def correlation_matrix(
    args: argparse.Namespace, measures: list[Measure], too_few: str, **extra: Any
):
    """The correlation matrix of ``measures`` over ``args.runs`` with the options of
    :func:`add_correlation_options` (``too_few``: the message when fewer than 2 measures;
    ``extra``: more options of :func:`~cwlkit.stats.matrix.correlate_runs`, such as
    ``coefficients``)."""
    from ..errors import ParamError
    from ..stats.matrix import LEVELS, correlate_runs

    if len(measures) < 2:
        raise ParamError(too_few)
    if args.max_residual is not None and args.level == "systems":
        raise ParamError("--max-residual filters (run, topic) pairs: use --level scores or both")
    return correlate_runs(
        args.qrels,
        list(args.runs),
        measures,
        levels=LEVELS if args.level == "both" else (args.level,),
        max_residual=args.max_residual,
        order=args.order,
        topics=args.topics,
        gain=args.gain,
        **extra,
    )
