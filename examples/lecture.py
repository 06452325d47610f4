"""Reproduce the lecture's worked examples (Cambridge IR course, Lecture 6: Evaluation): P@n and
R@n, the F1 contingency table, precision at recall r (S1, S2), 11-point interpolated precision
of Query 1 and Query 2, and MAP.

    python examples/lecture.py [--out DIR]

The rankings are built in memory as pytrec_eval-style dicts. Prints each table with the
slide's number beside cwlkit's and the difference (no figures; ``--out`` is accepted for
uniformity and left empty).
"""

from __future__ import annotations

from decimal import Decimal

import numpy as np
from _seedtable import at_precision, out_dir, show

import cwlkit


def ranking(spec: dict[str, tuple[set[int], int, int]]) -> tuple[dict, dict]:
    """Qrels and run from ``{topic: (relevant ranks, run length, R)}``: documents d1..dn ranked
    in order, the listed ranks relevant, the others judged non-relevant, and R minus the
    relevant ranks further relevant documents that the run does not retrieve."""
    qrels, run = {}, {}
    for t, (rels, n, R) in spec.items():
        qrels[t] = {f"d{i}": int(i in rels) for i in range(1, n + 1)}
        qrels[t].update({f"missing{j}": 1 for j in range(R - len(rels))})
        run[t] = {f"d{i}": float(10_000 - i) for i in range(1, n + 1)}
    return qrels, run


def curve(spec):
    q, r = ranking(spec)
    return cwlkit.pr_curve(q, r)


# The P@n slide ranks ten documents and marks three relevant in blue (lost in the text); its
# numbers place one in the top 3, one at 6-8 and one below 8 (any such placement gives them)
PN = {"q": ({1, 6, 9}, 10, 3)}
PN_SLIDE = {"P@3": "0.33", "P@5": "0.2", "P@8": "0.25", "R@3": "0.33", "R@5": "0.33", "R@8": "0.66"}
TRUNCATED = "the slide truncates 2/3 to 0.66 (elsewhere it rounds 2/3 to 0.67)"
# Query 1: relevant at 1, 3, 6, 10, 20 (R = 5); Query 2: at 1, 3, 15 (R = 3)
LECTURE = {"Q1": ({1, 3, 6, 10, 20}, 20, 5), "Q2": ({1, 3, 15}, 15, 3)}
POINTS = {  # the slides' measured points: (recall, precision) at each relevant rank
    "Q1": ([".20", ".40", ".60", ".80", "1.00"], ["1.00", ".67", ".50", ".40", ".25"]),
    "Q2": ([".33", ".67", "1.0"], ["1.00", ".67", ".2"]),
}
IPREC = {
    "Q1": "1.00 1.00 1.00 .67 .67 .50 .50 .40 .40 .25 .25",
    "Q2": "1.00 1.00 1.00 1.00 .67 .67 .67 .20 .20 .20 .20",
}
# S1 relevant at 1, 3, 6, 9, 10; S2 at 2, 5, 6, 7, 8 (five relevant each)
S12 = {"S1": ({1, 3, 6, 9, 10}, 10, 5), "S2": ({2, 5, 6, 7, 8}, 10, 5)}
S12_SLIDE = {"S1": "1.0 0.67 0.5 0.44 0.5", "S2": "0.5 0.4 0.5 0.57 0.63"}
MAP_SLIDE = {"Q1": "0.564", "Q2": "0.623", "MAP": "0.594"}
MAP_NOTE = "the slide averages precisions rounded to 2 places (1.00 + 0.67 + ... = 2.82)"


def p_and_r_at_n() -> list[tuple]:
    res = cwlkit.evaluate(*ranking(PN), list(PN_SLIDE))
    out = []
    for m, pub in PN_SLIDE.items():
        ours = float(res.per_topic(m)["q"])
        note = TRUNCATED if m == "R@8" else ""
        out.append(("P@n and R@n", m, pub, ours, note))
    return out


def f_example() -> list[tuple]:
    # 80 relevant documents; the system retrieves 60, 20 of them relevant: P = 1/3, R = 1/4
    q, r = ranking({"q": (set(range(1, 21)), 60, 80)})
    res = cwlkit.evaluate(q, r, ["F(beta=0)", "F(beta=inf)", "F"])
    ours = [float(res.values[i, 0]) for i in range(3)]
    items = [("P (set precision)", "1/3"), ("R (set recall)", "1/4"), ("F1", "2/7")]
    return [("F1 example", it, pub, v, "") for (it, pub), v in zip(items, ours, strict=True)]


def s1_s2() -> list[tuple]:
    c = curve(S12)
    levels = [0.2, 0.4, 0.6, 0.8, 1.0]
    got = c.at_recall(levels)
    out = []
    for row, t in enumerate(c.topics):
        for lv, pub, v in zip(levels, S12_SLIDE[t].split(), got[row], strict=True):
            out.append(("Precision at recall r", f"{t} P@r {lv}", pub, float(v), ""))
    return out


def eleven_point() -> list[tuple]:
    c = curve(LECTURE)
    out, interpolated = [], []
    for row, t in enumerate(c.topics):
        ranks = np.flatnonzero(c.relevant[row])
        recall_pub, precision_pub = POINTS[t]
        for k, rank in enumerate(ranks):
            item = f"{t} rank {rank + 1}: recall"
            out.append(("11-point: measured points", item, recall_pub[k], c.recall[row, rank], ""))
            item = f"{t} rank {rank + 1}: precision"
            pub = precision_pub[k]
            out.append(("11-point: measured points", item, pub, c.precision[row, rank], ""))
        for j, pub in enumerate(IPREC[t].split()):
            item = f"{t} P~(r_{j}) (r = {j / 10:.1f})"
            value = c.interpolated[row, j]
            interpolated.append(("11-point interpolated precision", item, pub, value, ""))
    return [(a, b, p, float(v), n) for a, b, p, v, n in out + interpolated]


def mean_average_precision() -> list[tuple]:
    q, r = ranking(LECTURE)
    res = cwlkit.evaluate(q, r, ["AP"])
    ap = res.per_topic("AP")
    out = [("MAP", f"AP {t}", MAP_SLIDE[t], float(ap[t]), MAP_NOTE) for t in ("Q1", "Q2")]
    out.append(("MAP", "MAP", MAP_SLIDE["MAP"], float(res.mean()["AP"]), MAP_NOTE))
    # the slide's arithmetic: each precision rounded to two places, each AP to three
    c = curve(LECTURE)
    rounded: dict[str, Decimal] = {}
    for row, t in enumerate(c.topics):
        precisions = c.precision[row][c.relevant[row]]
        two = sum(Decimal(at_precision(p, "0.00")) for p in precisions)
        rounded[t] = Decimal(at_precision(float(two / int(c.num_rel[row])), "0.000"))
        item = f"AP {t}, precisions rounded as the slide"
        out.append(("MAP", item, MAP_SLIDE[t], float(rounded[t]), ""))
    item = "MAP, precisions rounded as the slide"
    out.append(("MAP", item, MAP_SLIDE["MAP"], float((rounded["Q1"] + rounded["Q2"]) / 2), ""))
    return out


def rows() -> list[tuple[str, str, str, float, str]]:
    """(table, item, published, ours, note): every number of the worked examples (note: why a
    row differs, empty when it reproduces)."""
    return p_and_r_at_n() + f_example() + s1_s2() + eleven_point() + mean_average_precision()


def main(argv: list[str] | None = None) -> None:
    out_dir(__doc__.splitlines()[0], argv, "lecture", figures=False)
    show(rows(), width=42)


if __name__ == "__main__":
    main()
