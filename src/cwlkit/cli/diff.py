"""``cwlkit diff QRELS RUN_A RUN_B -o diff.html``: two runs side by side in a browser."""

from __future__ import annotations

import argparse

DESCRIPTION = """\
Two runs side by side, as one self-contained HTML page (no server, no network: it opens
from file://). The topics are listed by the difference of the measure (B - A), or by RBO or
tau_AP between the two rankings, with a filter box; a topic opens to the two rankings to
--depth: each document's label (unjudged marked), its rank in the other run (or "only"),
and its contribution to the measure (W(i) times the gain for a C/W/L metric; otherwise the
change when the rank is added), with each run's residual interval and whether the
judgements decide the difference. Query texts come from a TREC topics file, a TSV or JSON
Lines file, or an ir_datasets id (--queries irds:ID); document texts from a TSV or JSON
Lines file or an ir_datasets docstore (--docs irds:ID). Keys: j/k or the arrows move, /
filters, s sorts.
"""


def build_parser():
    from ._options import QL, QRELS, RM, add_ranking_options, examples
    from .main import ArgumentParser

    p = ArgumentParser(
        prog="cwlkit diff",
        description=DESCRIPTION,
        epilog=examples(
            f"cwlkit diff {QRELS} {QL} {RM} -o diff.html",
            f"cwlkit diff {QRELS} {QL} {RM} -m 'RBP(p=0.8)' --depth 20 --gain linear "
            "-o diff-rbp.html",
        ),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("qrels", metavar="QRELS", help="the judgements: TREC qrels file or Parquet")
    p.add_argument("run_a", metavar="RUN_A", help="run A: TREC run file or Parquet")
    p.add_argument("run_b", metavar="RUN_B", help="run B")
    p.add_argument(
        "-m", "--measure", dest="measure", default="nDCG@10", help="the measure (default nDCG@10)"
    )
    p.add_argument("--depth", "-d", type=int, default=10, help="ranks shown per run (default 10)")
    p.add_argument("-p", type=float, default=0.9, help="RBO's persistence (default 0.9)")
    p.add_argument("--queries", help="query texts: TREC topics, TSV, JSON Lines or irds:ID")
    p.add_argument("--docs", help="document texts: TSV, JSON Lines or irds:ID")
    p.add_argument("--title", help="the page's title (default: 'A vs B: measure')")
    p.add_argument("-o", "--output", required=True, metavar="FILE", help="the HTML file written")
    add_ranking_options(p)
    return p


def main(argv: list[str]) -> int:
    args = build_parser().parse_args(argv)
    import sys

    from ..rundiff import diff

    page = diff(
        args.qrels,
        args.run_a,
        args.run_b,
        args.measure,
        depth=args.depth,
        p=args.p,
        queries=args.queries,
        docs=args.docs,
        order=args.order,
        topics=args.topics,
        gain=args.gain,
    )
    html = page.to_html(title=args.title)
    with open(args.output, "w", encoding="utf-8", newline="") as fh:
        fh.write(html)
    decided = int(page.decided.sum())
    print(
        f"{args.output}: {len(page.topics)} topics, {decided} decided by the judgements",
        file=sys.stderr,
    )
    return 0
