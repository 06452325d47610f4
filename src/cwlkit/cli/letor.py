"""``cwlkit letor score|rank|ttest``: drop-in replacements for LETOR's Perl evaluation scripts."""

from __future__ import annotations

import argparse
import sys

DESCRIPTION = """\
Flags and output of LETOR's Perl scripts (Eval-Score-3.0.pl, Eval-Score-4.0.pl, Eval-Rank and
the t-test script of LETOR 3.0/4.0 and MSLR-WEB), byte for byte (see docs/letor.md):

  cwlkit letor score FEATURES PREDICTIONS OUTPUT FLAG   Eval-Score: one score per line
  cwlkit letor rank  FEATURES RANKS OUTPUT FLAG         Eval-Rank: one rank position per line
  cwlkit letor ttest RESULT_A RESULT_B OUTPUT           paired t-test of every measure

FLAG 1 writes a row per query and the averages; any other FLAG only the averages (the LETOR
document's rule; --strict-flag refuses a FLAG other than 0 or 1, as the Perl scripts do).
OUTPUT '-' writes to standard output.
--version 4.0 (default), 3.0 or mslr picks the script whose conventions (gain table, relevant
labels, positions, short queries, output layout) are reproduced.
"""

_VERSION_HELP = (
    "which script to reproduce: 4.0 (Eval-Score-4.0.pl, default), 3.0 (Eval-Score-3.0.pl), "
    "mslr (Eval-Score-MSLR.pl)"
)
_GAIN_HELP = (
    "map labels outside the version's gain table: 'exp' (gain 2^label-1 for every label) or a "
    "table '3:7,4:15' added to the version's; added labels with gain > 0 count as relevant"
)


_F = "example:letor.features"  # LETOR 4.0 MQ2008 Fold1 test set (bundled, see cwlkit.example)
_P = "example:letor.predictions"  # a linear model's scores, one a line
_R = "example:letor.ranks"  # each query's documents 1..n in file order
#: the --help examples of each script (OUTPUT '-': standard output)
_EXAMPLES = {
    "score": (
        f"cwlkit letor score {_F} {_P} - 1",
        f"cwlkit letor score --version mslr {_F} {_P} - 0",
    ),
    "rank": (
        f"cwlkit letor rank {_F} {_R} - 0",
        f"cwlkit letor rank --version mslr {_F} {_R} - 1",
    ),
    "ttest": (
        f"cwlkit letor ttest <(cwlkit letor score {_F} {_P} - 1) "
        f"<(cwlkit letor rank {_F} {_R} - 1) -",
        f"cwlkit letor ttest --p letor <(cwlkit letor score {_F} {_P} - 1) "
        f"<(cwlkit letor rank {_F} {_R} - 1) -",
    ),
}


def build_parser() -> argparse.ArgumentParser:
    from ._options import examples
    from .main import ArgumentParser

    p = ArgumentParser(
        prog="cwlkit letor",
        description=DESCRIPTION,
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog=examples(*_EXAMPLES["score"], _EXAMPLES["ttest"][0]),
    )
    sub = p.add_subparsers(
        dest="command",
        metavar="{score,rank,ttest}",
        parser_class=ArgumentParser,
        help="the script: score (Eval-Score), rank (Eval-Rank) or ttest",
    )
    for name, what in (("score", "PREDICTIONS"), ("rank", "RANKS")):
        s = sub.add_parser(
            name,
            prog=f"cwlkit letor {name}",
            help="Eval-Score: evaluate prediction scores"
            if name == "score"
            else "Eval-Rank: evaluate rank positions",
            formatter_class=argparse.RawDescriptionHelpFormatter,
            epilog=examples(*_EXAMPLES[name]),
            description=(
                "Eval-Score: rank each query's documents by score (higher first; ties keep the "
                "file's line order) and write P@n, MAP and NDCG."
                if name == "score"
                else "Eval-Rank: the predictions are rank positions (1 = top, each query's "
                "ranks 1..n, each once); write P@n, MAP and NDCG."
            ),
        )
        s.add_argument(
            "features",
            metavar="FEATURES",
            help="LETOR feature file: 'label qid:Q f:v ... #docid = D' (LF or CRLF)",
        )
        s.add_argument(
            "predictions",
            metavar=what,
            help="one "
            + ("score" if name == "score" else "rank position")
            + " per line of FEATURES",
        )
        s.add_argument(
            "output", metavar="OUTPUT", help="result file to write ('-' for standard output)"
        )
        s.add_argument(
            "flag",
            metavar="FLAG",
            help="1: per-query results and averages; anything else (0): averages only",
        )
        s.add_argument(
            "--strict-flag",
            action="store_true",
            help="the Perl scripts' check: a FLAG whose numeric value is neither 0 nor 1 is an "
            "error ('Flag should be 0 or 1')",
        )
        s.add_argument(
            "--version",
            dest="letor_version",
            default="4.0",
            choices=("4.0", "3.0", "mslr"),
            help=_VERSION_HELP,
        )
        s.add_argument("--gain", help=_GAIN_HELP)
        s.add_argument(
            "--relevant",
            help="comma-separated labels that count as relevant for P@n and MAP (replaces the "
            "version's set)",
        )
    t = sub.add_parser(
        "ttest",
        prog="cwlkit letor ttest",
        help="paired t-test of every measure between two per-query result files",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog=examples(*_EXAMPLES["ttest"]),
        description="Paired two-sided t-test (scipy) of every measure between two LETOR "
        "4.0/MSLR result files written with flag 1, in the layout of LETOR's t-test script.",
    )
    t.add_argument("result_a", metavar="RESULT_A", help="result file of system A (flag 1)")
    t.add_argument("result_b", metavar="RESULT_B", help="result file of system B (flag 1)")
    t.add_argument("output", metavar="OUTPUT", help="file to write ('-' for standard output)")
    t.add_argument(
        "--p",
        dest="p_kind",
        choices=("two-sided", "letor"),
        default="two-sided",
        help="two-sided (default): 2 P(T > |t|), full precision; letor: what LETOR's script "
        "prints, the upper tail P(T > t) to 5 significant digits",
    )
    return p


def _flag(text: str, strict: bool = False) -> int:
    """1 (a row per query) or 0 (averages only) from the FLAG argument.

    The LETOR document: "If flag is '1', the evaluation tool will output per-query evaluation
    results; otherwise it will output the average evaluation results". So a FLAG that is the
    number 1 (``1``, ``1.0``, ``01``) gives 1 and anything else 0. With ``strict`` the scripts'
    own check, ``if($flag != 1 && $flag != 0)``, on Perl's numeric reading of the text
    (``abc`` reads as 0, ``1abc`` as 1): neither 0 nor 1 is an error.
    """
    from ..errors import ParamError

    if strict:
        value = _perl_numeric(text)
        if value not in (0.0, 1.0):
            raise ParamError(
                f"FLAG must be 1 (per-query results) or 0 (averages only) under --strict-flag, "
                f"as the Perl scripts require ('Flag should be 0 or 1'); got {text!r}"
            )
        return int(value)
    try:
        return 1 if float(text) == 1.0 else 0
    except ValueError:
        return 0


def _perl_numeric(text: str) -> float:
    """A string's value in Perl's numeric context: its leading decimal number after blanks
    (``1abc`` is 1, ``abc`` and ``0x1`` are 0), or ``Inf``/``NaN`` spelled out."""
    import re

    t = text.lstrip(" \t\n\r\f\v")
    m = re.match(r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?", t)
    if m:
        return float(m.group(0))
    m = re.match(r"([-+]?)(inf(?:inity)?|nan)", t, re.IGNORECASE)
    if m:
        return float(m.group(1) + m.group(2)[:3])
    return 0.0


def _write(path: str, text: str) -> None:
    from pathlib import Path

    from ..errors import CwlkitError

    if path == "-":
        sys.stdout.write(text)
        return
    try:
        Path(path).write_text(text, encoding="utf-8", newline="\n")
    except OSError as exc:
        raise CwlkitError(f"{path}: cannot write ({exc.strerror})") from None


def main(argv: list[str]) -> int:
    from ..errors import CwlkitError

    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command is None:
        raise CwlkitError(
            "cwlkit letor: expected a subcommand: score, rank or ttest (see 'cwlkit letor --help')"
        )
    if args.command in ("score", "rank"):
        from ..formats.letor import evaluate_letor_files, format_letor

        flag = _flag(args.flag, args.strict_flag)
        results = evaluate_letor_files(
            args.features,
            args.predictions,
            version=args.letor_version,
            mode=args.command,
            gain=args.gain,
            relevant=args.relevant,
        )
        _write(args.output, format_letor(results, flag))
        return 0
    from ..formats.letor import format_ttest, letor_file_results, letor_ttest, perl_num
    from ..io.letor import read_letor_results

    a = letor_file_results(read_letor_results(args.result_a))
    b = letor_file_results(read_letor_results(args.result_b))
    rows = letor_ttest(a, b)
    text = format_ttest(
        args.result_a,
        args.result_b,
        [
            (
                r.measure,
                r.n,
                r.mean_a,
                r.mean_b,
                r.t,
                perl_num(r.p_two_sided) if args.p_kind == "two-sided" else r.p_letor,
            )
            for r in rows
        ],
    )
    _write(args.output, text)
    return 0
