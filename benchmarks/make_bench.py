#!/usr/bin/env python3
"""Write a synthetic TREC qrels file and run file of a chosen size, reproducibly.

usage: make_bench.py TOPICS DEPTH OUT_PREFIX [--seed N] [--gains]

Writes OUT_PREFIX.qrels (graded labels 0..3, about 300 judged documents a topic, some of
them never retrieved), OUT_PREFIX.run (DEPTH documents a topic, scores rounded to two
decimals so that ties are common, lines in score order) and, with --gains,
OUT_PREFIX.gains.qrels with the labels scaled to [0, 1] (label / 3) for tools that need
gains in that range. Also OUT_PREFIX.costs: element-type costs for the run's Q0 column.
"""

import argparse

import numpy as np


def main() -> None:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("topics", type=int)
    ap.add_argument("depth", type=int)
    ap.add_argument("out")
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--gains", action="store_true")
    a = ap.parse_args()
    rng = np.random.default_rng(a.seed)
    pool = 2 * a.depth
    with open(f"{a.out}.qrels", "w") as q, open(f"{a.out}.run", "w") as r:
        g = open(f"{a.out}.gains.qrels", "w") if a.gains else None
        for t in range(a.topics):
            qid = f"q{t}"
            judged = rng.choice(pool, size=min(300, pool), replace=False)
            labels = rng.choice([0, 0, 0, 0, 1, 1, 2, 3], size=len(judged))
            for j, lab in zip(judged, labels, strict=True):
                q.write(f"{qid} 0 d{t}_{j} {lab}\n")
                if g:
                    g.write(f"{qid} 0 d{t}_{j} {lab / 3:.6f}\n")
            chosen = rng.choice(pool, size=a.depth, replace=False)
            scores = np.round(rng.normal(size=a.depth), 2)
            order = np.argsort(-scores, kind="stable")
            for rank, k in enumerate(order, 1):
                r.write(f"{qid} Q0 d{t}_{chosen[k]} {rank} {scores[k]:.2f} bench\n")
        if g:
            g.close()
    with open(f"{a.out}.costs", "w") as c:
        c.write("Q0 1.0\n")


if __name__ == "__main__":
    main()
