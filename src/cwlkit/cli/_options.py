"""Command-line options shared by the subcommands that evaluate several runs."""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ..formats.table import FORMATS as TABLE_FORMATS

if TYPE_CHECKING:  # pragma: no cover
    from ..measures.base import Measure


#: the data the --help examples read: files bundled with cwlkit (``example:NAME``, see
#: ``cwlkit.example``), so that every example runs as written from any folder
QRELS = "example:web2012.qrels"
QL = "example:web2012.ql.cata"
RM = "example:web2012.rm.cata"
QLB = "example:web2012.ql.catb"
RUNS = f"{QL} {RM} {QLB}"
#: the first line of every --help's examples
EXAMPLES_HEAD = "examples (run from any folder; example:NAME is a file bundled with cwlkit):"


def examples(*lines: str) -> str:
    """The epilog of a ``--help``: ``lines``, one command each, that run as written from any
    folder and write only into it (``tests/cli/test_help_examples.py`` runs every one)."""
    return EXAMPLES_HEAD + "\n" + "".join(f"  {x}\n" for x in lines)


#: output file suffix -> format (``-o FILE`` without ``-f``)
SUFFIX_FORMATS = {
    ".txt": "text",
    ".tsv": "tsv",
    ".csv": "csv",
    ".json": "json",
    ".md": "markdown",
    ".markdown": "markdown",
    ".tex": "latex",
    ".html": "html",
    ".htm": "html",
}

#: suffixes of formats no table command writes (binary, compressed, images): ``-o`` with one
#: of them and no ``-f`` is refused, not written as text; any other suffix (``.out``,
#: ``.qrels``) or none takes the command's default format
OTHER_SUFFIXES = frozenset(
    ".parquet .pq .feather .arrow .ipc .orc .avro .xlsx .xls .ods .pkl .pickle .h5 .hdf5 "
    ".npy .npz .gz .bz2 .xz .zst .zip .tar .png .svg .pdf .jpg .jpeg .yaml .yml .xml".split()
)


def add_evaluation_options(
    p: argparse.ArgumentParser, formats: tuple[str, ...] = TABLE_FORMATS, *, jobs: bool = True
) -> None:
    """Add ``--order``, ``--topics``, ``--gain``, ``-f/--format`` (one of ``formats``),
    ``-o/--output FILE``, ``-j/--jobs`` (if ``jobs``: the runs are evaluated in processes)
    and ``--quiet``."""
    add_ranking_options(p)
    add_output_options(p, formats)
    if jobs:
        add_jobs_option(p)
    add_quiet_option(p)


def add_output_options(
    p: argparse.ArgumentParser, formats: tuple[str, ...], default: str = "text"
) -> None:
    """Add ``-f/--format`` (one of ``formats``) and ``-o/--output FILE``: the same two
    options in every subcommand of cwlkit's own dialect (:func:`output_format`)."""
    p.add_argument(
        "-f",
        "--format",
        choices=formats,
        default=None,
        help=f"output format: {', '.join(formats)} (default: from -o's suffix, else {default})",
    )
    p.add_argument(
        "-o",
        "--output",
        metavar="FILE",
        help="write the output to FILE (default: standard output); without -f its suffix "
        "gives the format (.txt .tsv .csv .json .md .tex), and a suffix of a format not "
        "written here (.parquet, .xlsx, .gz...) is refused",
    )
    p.set_defaults(default_format=default, formats=formats)


def output_format(args: argparse.Namespace) -> str:
    """The format of :func:`add_output_options`: ``-f``, else the suffix of ``-o FILE``
    (``.tsv``, ``.csv``, ``.json``, ``.md``, ``.tex``, ``.txt``...), else the default.

    ``-o`` was the format in evaluate, compare, correlate and fit: ``-o json`` (a format's
    bare name) is refused with a hint rather than written to a file named ``json``.
    """
    from ..errors import ParamError

    formats: tuple[str, ...] = args.formats
    if args.format is not None:
        return str(args.format)
    out = args.output
    if out is None:
        return str(args.default_format)
    if out in formats:
        raise ParamError(
            f"-o names the output file; for the format {out!r} use -f {out} "
            f"(or -o ./{out} for a file named {out!r})"
        )
    import os

    suffix = os.path.splitext(out)[1].lower()
    fmt = SUFFIX_FORMATS.get(suffix)
    if fmt in formats:
        return str(fmt)
    if fmt is not None or suffix in OTHER_SUFFIXES:  # (text written to out.parquet: refused)
        known = [s for s, f in SUFFIX_FORMATS.items() if f in formats]
        raise ParamError(
            f"-o {out}: this command does not write {suffix} files; it writes "
            f"{', '.join(formats)} (-f FORMAT, or a name ending in {', '.join(known)})"
        )
    return str(args.default_format)


def write_output(args: argparse.Namespace, text: str) -> None:
    """Write ``text`` to ``-o FILE`` (UTF-8), or to standard output without ``-o``."""
    if args.output:
        with open(args.output, "w", encoding="utf-8", newline="") as fh:
            fh.write(text)
    else:
        import sys

        sys.stdout.write(text)


def add_jobs_option(
    p: argparse.ArgumentParser,
    help: str = "processes evaluating the runs (default: every available core; the same "
    "output for any N)",
) -> None:
    """Add ``-j/--jobs N``: processes evaluating the runs (default every available core)."""
    p.add_argument("-j", "--jobs", type=int, default=None, metavar="N", help=help)


def add_quiet_option(p: argparse.ArgumentParser) -> None:
    """Add ``--quiet``: no progress bar on stderr (see :func:`apply_quiet`)."""
    p.add_argument("--quiet", action="store_true", help="no progress bar on stderr")


def apply_quiet(args: argparse.Namespace) -> bool | None:
    """``--quiet``: no progress bar in this process (``CWLKIT_PROGRESS=0``, read by every
    bar: runs evaluated, Monte-Carlo samples); returns the ``progress`` argument of the API
    (``False`` when quiet, else ``None``: a bar when stderr is a terminal)."""
    if getattr(args, "quiet", False):
        import os

        os.environ["CWLKIT_PROGRESS"] = "0"
        return False
    return None


#: the help of ``--topics`` (the same rule in every subcommand that has it)
TOPICS_HELP = (
    "topics evaluated: in both qrels and run (default, trec_eval's rule), every qrels topic "
    "(trec_eval -c: missing ones score 0), every run topic, or either"
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
        help=TOPICS_HELP,
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


#: the help of ``-m`` (its text after ``help``'s own)
MEASURE_HELP = (
    "measures (any name of 'cwlkit measures'): several per -m (-m P@10 AP), -m repeatable, "
    "and a quoted list works too (-m 'P@10 AP'); headers print each canonical name"
)


def headline_help() -> str:
    """The ``-m`` help of the subcommands that default to the headline measures."""
    from ..measures.registry import HEADLINE_MEASURES

    return f"{MEASURE_HELP} (default: the headline measures {' '.join(HEADLINE_MEASURES)})"


def measure_args_or_headline(specs: Sequence[str] | None) -> list[Measure]:
    """The ``-m`` measures, or the headline measures
    (:data:`cwlkit.measures.registry.HEADLINE_MEASURES`) when none is named."""
    from ..measures.registry import HEADLINE_MEASURES

    return parse_measure_args(list(specs) if specs else list(HEADLINE_MEASURES))


def add_measure_option(
    p: argparse.ArgumentParser,
    *,
    help: str = MEASURE_HELP,
    required: bool = False,
    metavar: str = "NAME",
) -> None:
    """Add ``-m/--measure`` (into ``measures``): the measure names of the registry, several
    per flag (``-m P@10 AP``: the parser of ``cli/main.py`` splits them into one flag each,
    up to the first option or file), the flag repeatable (``-m P@10 -m AP``), and a value
    may hold several names separated by spaces (``-m 'P@10 AP'``, split by
    :func:`split_top_level` in :func:`parse_measure_args`).
    """
    p.add_argument(
        "-m",
        "--measure",
        action="append",
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
        jobs=getattr(args, "jobs", None),
        progress=False if getattr(args, "quiet", False) else None,
        order=args.order,
        topics=args.topics,
        gain=getattr(args, "gain", "auto"),
        **extra,
    )


def evaluate_from_args(args: argparse.Namespace, measures: list[Measure]) -> dict:
    """``{run label: Results}`` of ``args.runs`` against ``args.qrels`` with the options of
    :func:`add_evaluation_options` (``--order``, ``--topics``, ``--gain``, ``-j``,
    ``--quiet``)."""
    from ..stats.runs import evaluate_runs

    return evaluate_runs(
        args.qrels,
        args.runs,
        measures,
        order=args.order,
        topics=args.topics,
        gain=args.gain,
        jobs=args.jobs,
        progress=apply_quiet(args),
    )


def say_gains(ev: Any, command: str) -> None:
    """One line on stderr when the default gains (``auto``) are not the labels: graded
    qrels, whose labels are divided by the largest (``cwl``, and ``evaluate`` when a C/W/L
    metric reads the evaluation's gains)."""
    import sys

    if getattr(ev.plan.qrels_read, "is_diversity", False):
        return
    values = ev.plan.label_values()
    top = float(values[-1]) if values is not None and values.size else 0.0
    if top > 1:
        sys.stderr.write(
            f"cwlkit {command}: graded labels (up to {top:g}): gains are label / {top:g} "
            "(--gain auto; give --gain to choose another mapping)\n"
        )
