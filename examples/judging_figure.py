"""docs/judgements.md's figure: Kendall's tau of the system ranking (RBP(p=0.8)) against the
documents judged, for depth, rbp, residual and MaxMean pooling of TREC Web 2012's 8 runs,
the complete qrels as the oracle.

    python examples/judging_figure.py [--out PATH]    # default docs/img/judging_tau.png
"""

from __future__ import annotations

import argparse
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt

import cwlkit

REPO = Path(__file__).resolve().parents[1]
WEB = REPO / "data" / "web2012"
BUDGETS = [1, 2, 3, 5, 10, 20, 50, 100]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--out", default=str(REPO / "docs" / "img" / "judging_tau.png"))
    a = ap.parse_args(argv)
    qrels = WEB / "qrels.web.151-200.txt"
    runs = sorted(str(p) for p in (WEB / "runs").glob("*.run.gz"))
    fig, ax = plt.subplots(figsize=(5.5, 3.6))
    for strategy, kw in (
        ("depth", {}),
        ("rbp", {"p": 0.8}),
        ("residual", {}),
        ("maxmean", {"pool_depth": 100}),
    ):
        sim = cwlkit.simulate_judging(qrels, runs, strategy, "RBP(p=0.8)", BUDGETS, **kw)
        sim.plot(ax=ax)
        for r in sim.to_records():
            print(strategy, r["budget"], r["judged"], f"{r['tau']:.3f}")
    ax.set_xscale("log")
    ax.legend()
    ax.set_title("TREC Web 2012, 8 runs, 50 topics")
    fig.tight_layout()
    fig.savefig(a.out, dpi=110)
    print(a.out)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
