"""Command-line options shared by the subcommands that evaluate several runs."""

from __future__ import annotations

import argparse


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
        default="identity",
        help="label -> gain for C/W/L metrics: identity (default), linear, exp, err, "
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
