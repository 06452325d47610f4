"""Reproduce LETOR's evaluation tool (Microsoft Research Asia): its worked P@n example, and what
its Perl scripts Eval-Score-4.0.pl and Eval-Score-3.0.pl print for the shared MQ2008 Fold1
test set with a linear model's predictions (data/letor).

    python examples/letor.py [--out DIR]

Prints each table with the published number (the document's, or the Perl script's output in
data/letor/expected) beside cwlkit's and the difference (no figures; ``--out`` is
accepted for uniformity and left empty).
"""

from __future__ import annotations

import re
import tempfile
from pathlib import Path

from _seedtable import out_dir, show

import cwlkit
from cwlkit.formats.letor import evaluate_letor_files

LETOR = Path(__file__).resolve().parents[1] / "data" / "letor"
FEATURES = {"4.0": "MQ2008.Fold1.test.lf.txt.gz", "3.0": "MQ2008.Fold1.test.letor3.txt.gz"}
PREDICTIONS = "MQ2008.Fold1.test.pred.linear.txt"
EXPECTED = {
    "4.0": "MQ2008.Fold1.test.linear.EvalScore4.flag0.txt",
    "3.0": "MQ2008.Fold1.test.linear.EvalScore3.flag0.txt",
}
# {relevant, irrelevant, irrelevant, relevant, relevant, relevant, irrelevant, irrelevant,
#  relevant, relevant} gives P@1..P@10 = {1, 1/2, 1/3, 2/4, 3/5, 4/6, 4/7, 4/8, 5/9, 6/10}
EXAMPLE = [1, 0, 0, 1, 1, 1, 0, 0, 1, 1]
EXAMPLE_P = "1 1/2 1/3 2/4 3/5 4/6 4/7 4/8 5/9 6/10".split()


def worked_example() -> list[tuple]:
    out = []
    # through cwlkit.evaluate: a pytrec_eval-style ranking
    docs = [f"d{i:02d}" for i in range(10)]
    qrels = {"q": dict(zip(docs, EXAMPLE, strict=True))}
    run = {"q": {d: float(10 - i) for i, d in enumerate(docs)}}
    res = cwlkit.evaluate(qrels, run, [f"P@{n}" for n in range(1, 11)])
    for n, pub in enumerate(EXAMPLE_P, start=1):
        ours = float(res.per_topic(f"P@{n}")["q"])
        out.append(("Worked P@n example: cwlkit.evaluate", f"P@{n}", pub, ours, ""))
    # through LETOR's own conventions: a feature file and a prediction file
    with tempfile.TemporaryDirectory() as tmp:
        feats, preds = Path(tmp) / "example.txt", Path(tmp) / "example.pred"
        feats.write_text(
            "".join(f"{lab} qid:1 1:0.5 #docid = D{i}\n" for i, lab in enumerate(EXAMPLE))
        )
        preds.write_text("".join(f"{10 - i}\n" for i in range(10)))
        s = evaluate_letor_files(str(feats), str(preds), version="4.0")
    for n, pub in enumerate(EXAMPLE_P, start=1):
        ours = s.per_topic(f"LETOR_P@{n}")["1"]
        out.append(("Worked P@n example: Eval-Score-4.0", f"P@{n}", pub, ours, ""))
    return out


def _expected(version: str) -> dict[str, str]:
    """The averages the Perl script printed: {"P@1": "0.2628", ..., "MAP": ...}."""
    lines = (LETOR / "expected" / EXPECTED[version]).read_text().splitlines()
    got: dict[str, str] = {}
    if version == "4.0":  # "qid P@1 ... MAP" then "Average ...", and the same for NDCG
        header: list[str] = []
        for line in lines:
            f = line.split("\t")
            if f[0] == "qid":
                header = f[1:]
            elif f[0] == "Average":
                got.update(zip(header, f[1:], strict=True))
    else:  # "precision:", "MAP:" and "NDCG:" lines, full precision
        for line in lines:
            f = [x for x in line.split("\t") if x]
            if not f:
                continue
            if f[0] == "MAP:":
                got["MAP"] = f[1]
            else:
                name = "P" if f[0] == "precision:" else "NDCG"
                got.update({f"{name}@{k}": v for k, v in enumerate(f[1:], start=1)})
    return got


def mq2008() -> list[tuple]:
    out = []
    for version, feats in FEATURES.items():
        s = evaluate_letor_files(str(LETOR / feats), str(LETOR / PREDICTIONS), version=version)
        # the registry's LETOR measures print under their LETOR names (LETOR_P@3 as P@3)
        ours = {re.sub(r"^LETOR_|\(.*\)", "", m): v for m, v in s.mean().items()}
        table = f"MQ2008 Fold1 test, linear model: Eval-Score-{version}.pl averages"
        for item, pub in _expected(version).items():
            out.append((table, item, pub, float(ours[item]), ""))
    return out


def rows() -> list[tuple[str, str, str, float, str]]:
    """(table, item, published, ours, note): the worked example and every average the Perl
    scripts print (note: why a row differs, empty when it reproduces)."""
    return worked_example() + mq2008()


def main(argv: list[str] | None = None) -> None:
    out_dir(__doc__.splitlines()[0], argv, "letor", figures=False)
    show(rows(), width=12, num=18)


if __name__ == "__main__":
    main()
