"""``cwlkit measures [NAME]``: every measure with parameters, defaults, docs and aliases."""

from __future__ import annotations

import sys


def build_parser():
    from .main import ArgumentParser

    p = ArgumentParser(
        prog="cwlkit measures",
        description="List every measure of the registry (or the one NAME reaches): canonical "
        "name, aggregation, one-line definition, parameters with defaults and domains, aliases "
        "and the names trec_eval, cwl_eval, gdeval and LETOR give it.",
    )
    p.add_argument("name", nargs="?", help="a measure name in any spelling (e.g. map, P.10)")
    p.add_argument("--json", action="store_true", help="print the entries as JSON")
    p.add_argument(
        "--markdown", action="store_true", help="print docs/measures.md (every anchor's names)"
    )
    return p


def main(argv: list[str]) -> int:
    from ..measures.catalogue import format_catalogue, list_measures, markdown

    args = build_parser().parse_args(argv)
    if args.markdown:
        sys.stdout.write(markdown())
        return 0
    entries = list_measures(args.name)
    if args.json:
        import json

        sys.stdout.write(json.dumps(entries, indent=1) + "\n")
    else:
        sys.stdout.write(format_catalogue(entries))
    return 0
