"""``cwlkit measures [NAME]``: every measure with parameters, defaults, docs and aliases."""

from __future__ import annotations

FORMATS = ("text", "json", "markdown")


def build_parser():
    import argparse

    from ._options import add_output_options, examples
    from .main import ArgumentParser

    p = ArgumentParser(
        prog="cwlkit measures",
        description="List every measure of the registry (or the one NAME reaches): canonical "
        "name, aggregation, one-line definition, parameters with defaults and domains, aliases "
        "and the names trec_eval, cwl_eval, gdeval and LETOR give it. The canonical name is "
        "the one every header of evaluate, compare, report, correlate, fit and plot prints.",
        epilog=examples(
            "cwlkit measures",
            "cwlkit measures map",
            "cwlkit measures 'RBP(p=0.8)' -f json",
        ),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("name", nargs="?", help="a measure name in any spelling (e.g. map, P.10)")
    add_output_options(p, FORMATS)
    p.add_argument(
        "--json", action="store_true", help="print the entries as JSON (the same as -f json)"
    )
    p.add_argument(
        "--markdown",
        action="store_true",
        help="print docs/measures.md, every anchor's names (the same as -f markdown)",
    )
    return p


def main(argv: list[str]) -> int:
    from ..errors import ParamError
    from ..measures.catalogue import format_catalogue, list_measures, markdown
    from ._options import output_format, write_output

    args = build_parser().parse_args(argv)
    fmt = output_format(args)
    if args.json or args.markdown:
        alias = "json" if args.json else "markdown"
        if args.json and args.markdown or args.format not in (None, alias):
            raise ParamError("cwlkit measures: give one format (-f json, -f markdown or -f text)")
        fmt = alias
    if fmt == "markdown":
        write_output(args, markdown())
        return 0
    entries = list_measures(args.name)
    if fmt == "json":
        from ..support.jsontext import dumps

        write_output(args, dumps(entries, indent=1) + "\n")
    else:
        write_output(args, format_catalogue(entries))
    return 0
