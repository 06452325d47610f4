"""Reproduce the INST paper (Moffat, Bailey, Scholer, Thomas, ADCS 2015): Table 1 (C, W, L of a
ten-document ranking with T = 2, both bounds), the numbers quoted with it, and Table 2
(evaluation depths for residuals below delta, INST and RBP).

    python examples/inst_paper.py [--out DIR]

The rankings are built in memory as pytrec_eval-style dicts. Prints each table with the
paper's number beside cwlkit's and the difference (this paper has no figures; ``--out`` is
accepted for uniformity and left empty).
"""

from __future__ import annotations

import numpy as np
from _seedtable import out_dir, show

import cwlkit

# Table 1: the ranking's ten gains; ranks 11 and 12 are past the ranking
GAINS = [0, 1.0, 0.5, 0, 0, 1.0, 0, 0.2, 0, 1.0]
# columns C, W, L for r_{11+} = 0 (lower bound) and r_{11+} = 1 (upper bound), ranks 1..12
TABLE1 = {
    ("r11+ = 0", "C"): "0.640 0.640 0.669 0.716 0.751 0.751 0.779 0.797 0.815 0.815 0.831 0.844",
    ("r11+ = 0", "W"): "0.287 0.184 0.118 0.079 0.056 0.042 0.032 0.025 0.020 0.016 0.013 0.011",
    ("r11+ = 0", "L"): "0.360 0.230 0.135 0.078 0.049 0.037 0.025 0.018 0.013 0.010 0.008 0.006",
    ("r11+ = 1", "C"): "0.640 0.640 0.669 0.716 0.751 0.751 0.779 0.797 0.815 0.815 0.815 0.815",
    ("r11+ = 1", "W"): "0.309 0.198 0.127 0.085 0.061 0.046 0.034 0.027 0.021 0.017 0.014 0.011",
    ("r11+ = 1", "L"): "0.360 0.230 0.135 0.078 0.049 0.037 0.025 0.018 0.013 0.010 0.008 0.007",
}
# Table 2: INST's expected depth on an all-zero ranking, the evaluation depth n for delta and
# the percentage of users going beyond n; RBP with p = 1 - 1/E matching INST's expected depth
TABLE2_INST = {  # T: (expected depth, {delta: (n, % beyond)})
    1: ("2.58", {0.05: ("30", "0.39"), 0.01: ("154", "0.02")}),
    3: ("6.53", {0.05: ("105", "0.29"), 0.01: ("547", "0.01")}),
    10: ("20.51", {0.05: ("371", "0.26"), 0.01: ("1931", "0.01")}),
}
TABLE2_RBP = {  # the INST T it matches: (p, {delta: (n, % beyond)})
    1: ("0.612", {0.05: ("7", "3.22"), 0.01: ("10", "0.74")}),
    3: ("0.847", {0.05: ("19", "4.26"), 0.01: ("28", "0.96")}),
    10: ("0.951", {0.05: ("60", "4.91"), 0.01: ("92", "0.98")}),
}
# "0.139 <= INST <= 0.513" for T = 10: 0.513 is the residual (upper - lower) of the band
TEN_NOTE = "the paper's 0.513 is the residual 0.652 - 0.139; the upper bound is 0.652"
HORIZON = 2500  # deeper than Table 2's deepest n (1931)


def ranking(gains: list[float]) -> tuple[dict, dict]:
    """Qrels and run (pytrec_eval dicts) ranking documents with these gains in this order."""
    docs = [f"d{i:05d}" for i in range(len(gains))]
    qrels = {"q": dict(zip(docs, gains, strict=True))}
    run = {"q": {d: float(len(docs) - i) for i, d in enumerate(docs)}}
    return qrels, run


def _bounds(T: float) -> dict[str, float]:
    """INST's score and expected depth, lower and upper bounds, on Table 1's ranking."""
    res = cwlkit.evaluate(*ranking(GAINS), [f"INST(T={T})"], residuals=True)
    eu, res_eu = float(res.values[0, 0]), float(res.columns["ResEU"][0, 0])
    ed, res_ed = float(res.columns["ED"][0, 0]), float(res.columns["ResED"][0, 0])
    return {"EU": eu, "EU upper": eu + res_eu, "ResEU": res_eu, "ED": ed, "ED upper": ed + res_ed}


def table1() -> list[tuple]:
    out = []
    # lower bound: the ranking as it is, ranks past it at gain 0 (cwl_vectors pads with 0)
    lo = cwlkit.cwl_vectors(*ranking(GAINS), "INST(T=2)", "q", horizon=12)
    # upper bound: every rank past 10 fully relevant (300 of them: C = 0.815 from rank 10 on,
    # so the weight left past rank 310 is below 1e-27)
    hi = cwlkit.cwl_vectors(*ranking(GAINS + [1.0] * 300), "INST(T=2)", "q", horizon=12)
    for (bound, vec), published in TABLE1.items():
        v = (lo if bound.endswith("0") else hi)[vec]
        for i, pub in enumerate(published.split()):
            out.append(("Table 1", f"{bound} {vec}({i + 1})", pub, float(v[i]), ""))
    b = _bounds(2)
    out += [
        ("Table 1", "sum W(i) r_i, r11+ = 0 (INST)", "0.306", b["EU"], ""),
        ("Table 1", "sum W(i) r_i, r11+ = 1", "0.406", b["EU upper"], ""),
        ("Table 1", "residual", "0.100", b["ResEU"], ""),
        ("Table 1 (text)", "T = 2: expected depth, upper bound", "3.24", b["ED upper"], ""),
        ("Table 1 (text)", "T = 2: expected depth, lower bound", "3.48", b["ED"], ""),
    ]
    b = _bounds(10)
    out += [
        ("Table 1 (text)", "T = 10: expected depth, upper bound", "12.4", b["ED upper"], ""),
        ("Table 1 (text)", "T = 10: expected depth, lower bound", "18.0", b["ED"], ""),
        ("Table 1 (text)", "T = 10: INST lower bound", "0.139", b["EU"], ""),
        ("Table 1 (text)", "T = 10: INST upper bound", "0.513", b["EU upper"], TEN_NOTE),
        ("Table 1 (text)", "T = 10: residual (upper - lower)", "0.513", b["ResEU"], ""),
    ]
    # "a ranking of ten r_i = 0 values with T = 2 gives a residual of 0.150 ... ten r_i = 1
    # values ... a residual of just 0.006"
    for g, pub in ((0.0, "0.150"), (1.0, "0.006")):
        res = cwlkit.evaluate(*ranking([g] * 10), ["INST(T=2)"], residuals=True)
        item = f"T = 2: residual of ten r_i = {g:g}"
        out.append(("Table 1 (text)", item, pub, float(res.columns["ResEU"][0, 0]), ""))
    return out


def _depths(metric: str, spec: dict) -> list[tuple]:
    """Evaluation depth n (smallest n with the all-zero ranking's weight past n below delta)
    and the chance of going beyond n (V(n+1)), from the metric's C/W/L vectors."""
    v = cwlkit.cwl_vectors(*ranking([0.0]), metric, "q", horizon=HORIZON)
    tail = 1.0 - np.cumsum(v["W"])  # tail[n - 1]: the weight past rank n
    out = []
    for delta, (n_pub, beyond_pub) in spec.items():
        n = int(np.argmax(tail < delta)) + 1
        out.append(("Table 2", f"{metric}: eval. depth n, delta = {delta}", n_pub, float(n), ""))
        item = f"{metric}: % going beyond n, delta = {delta}"
        out.append(("Table 2", item, beyond_pub, 100 * float(v["V"][n]), ""))
    return out


def table2() -> list[tuple]:
    out = []
    for T, (ed_pub, spec) in TABLE2_INST.items():
        ed = float(cwlkit.cwl_vectors(*ranking([0.0]), f"INST(T={T})", "q")["ED"])
        out.append(("Table 2", f"INST(T={T}): expected depth", ed_pub, ed, ""))
        out += _depths(f"INST(T={T})", spec)
        p_pub, rbp_spec = TABLE2_RBP[T]
        out.append(("Table 2", f"RBP matching INST(T={T}): p = 1 - 1/E", p_pub, 1 - 1 / ed, ""))
        out += _depths(f"RBP(p={p_pub})", rbp_spec)
    return out


def rows() -> list[tuple[str, str, str, float, str]]:
    """(table, item, published, ours, note): every number of Tables 1 and 2 and the numbers the
    text quotes with Table 1 (note: why a row differs, empty when it reproduces)."""
    return table1() + table2()


def main(argv: list[str] | None = None) -> None:
    out_dir(__doc__.splitlines()[0], argv, "inst", figures=False)
    show(rows(), width=46)


if __name__ == "__main__":
    main()
