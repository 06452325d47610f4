"""``cwlkit correlate QRELS RUN... -m A -m B`` (or ``-a A -b B``): how two measures agree;
``-m M1 -m M2 -m M3 ...`` or ``--all-pairs``: every pair of measures at once (the ERR paper's
Table 2)."""

from __future__ import annotations

import argparse

import numpy as np

from ..formats.table import FORMATS

DESCRIPTION = """\
Evaluate every run with measures A and B (-m A -m B, -m 'A B' or -a A -b B: the same) and
report how they agree:

  scores   Pearson's r and Spearman's rho over every (run, topic) pair, with p-values;
  systems  the orderings of the runs by their mean scores (over the topics all runs have):
           Pearson, Spearman, Kendall's tau-b (with p-values), tau_AP (Yilmaz et al. 2008,
           A as the reference ordering), the top-weighted Kendall tau with weight 1/(r+1)
           (Vigna 2015; the ERR paper's Table 2) and rank-biased overlap (RBO_ext, --rbo-p).

tau_AP, the weighted tau and RBO have no p-value. See docs/statistics.md.

-m M1 -m M2 -m M3 ... (three or more measures), or --all-pairs with any number: Pearson,
Spearman, Kendall's tau-b and the weighted tau of every pair of measures, over the systems
(each run's mean over the common topics) and over the (run, topic) pairs, printed as square
matrices: Kendall above the diagonal and the weighted tau below (the ERR paper's Table 2
layout), then Pearson above and Spearman below. -f json gives every matrix with its
p-values; -f tsv (or csv) one row per pair. Headers name each measure by its canonical name
(-m MAP prints AP). --tau-ap adds tau_AP's matrix (not symmetric: row i, column j takes
measure i's system ordering as the truth), in full; -f tsv gives it one row per ordered pair.
"""


def build_parser():
    from ._options import (
        QRELS,
        RUNS,
        add_correlation_options,
        add_evaluation_options,
        add_measure_option,
        examples,
    )
    from .main import ArgumentParser

    runs = RUNS
    p = ArgumentParser(
        prog="cwlkit correlate",
        description=DESCRIPTION,
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog=examples(
            f"cwlkit correlate {QRELS} {runs} -m ERR@20 -m 'RBP(p=0.6)'",
            f"cwlkit correlate {QRELS} {runs} --all-pairs -m AP P@10 nDCG@10 --gain err",
            f"cwlkit correlate {QRELS} {runs} -a AP -b nDCG@10 -f json",
        ),
    )
    p.add_argument("qrels", help="TREC qrels: topic iteration document label")
    p.add_argument("runs", nargs="+", metavar="RUN", help="TREC runs")
    p.add_argument(
        "-a", "--measure-a", help="measure A (the reference for tau_AP), e.g. ERR@20 (or -m A -m B)"
    )
    p.add_argument("-b", "--measure-b", help="measure B, e.g. 'RBP(p=0.6)'")
    p.add_argument(
        "--all-pairs",
        action="store_true",
        help="correlate every pair of the -m measures (a matrix per coefficient and level)",
    )
    add_measure_option(
        p,
        help="the measures: two (A, then B: as -a A -b B), or more for every pair (several per "
        "-m, -m repeatable, or a quoted list 'AP P@10')",
    )
    add_correlation_options(p, note="with --all-pairs: ")
    p.add_argument(
        "--tau-ap",
        action="store_true",
        help="with --all-pairs: tau_AP too (Yilmaz et al. 2008; a full matrix, row = truth)",
    )
    p.add_argument(
        "--rbo-p", type=float, default=0.9, help="RBO persistence p in (0, 1) (default 0.9)"
    )
    add_evaluation_options(p, FORMATS)
    return p


def compute(results: dict, a: str, b: str, rbo_p: float) -> dict:
    """The correlations of measures ``a`` and ``b`` given ``{run: Results}``."""
    from ..errors import CwlkitError
    from ..stats.correlate import correlate_systems, pearson, spearman

    names = list(results)
    sa = np.concatenate([results[n].values[results[n].measures.index(a)] for n in names])
    sb = np.concatenate([results[n].values[results[n].measures.index(b)] for n in names])
    ok = np.isfinite(sa) & np.isfinite(sb)
    if ok.sum() < 2:
        raise CwlkitError("fewer than 2 (run, topic) pairs with both measures defined")
    score_level = [pearson(sa[ok], sb[ok]), spearman(sa[ok], sb[ok])]
    topics = sorted(set.intersection(*(set(results[n].topics) for n in names)))
    systems = []
    system_level = []
    if len(names) >= 2 and topics:
        for n in names:
            r = results[n]
            pos = {t: i for i, t in enumerate(r.topics)}
            cols = [pos[t] for t in topics]
            systems.append(
                {
                    "run": n,
                    "mean_a": float(r.values[r.measures.index(a), cols].mean()),
                    "mean_b": float(r.values[r.measures.index(b), cols].mean()),
                }
            )
        ma = np.array([s["mean_a"] for s in systems])
        mb = np.array([s["mean_b"] for s in systems])
        if np.isfinite(ma).all() and np.isfinite(mb).all():
            system_level = correlate_systems(ma, mb, names, rbo_p=rbo_p)
    return {
        "pairs": int(ok.sum()),
        "topics": len(topics),
        "runs": names,
        "score_level": score_level,
        "system_level": system_level,
        "systems": systems,
    }


def _label(c, rbo_p: float) -> str:
    return f"rbo(p={rbo_p:g})" if c.name == "rbo" else c.name


def render(out: dict, a: str, b: str, rbo_p: float, fmt: str) -> str:
    from ..stats.render import (
        dump_json,
        fmt_num,
        fmt_p,
        table_csv,
        table_latex,
        table_markdown,
        table_text,
        table_tsv,
    )

    rows = [("scores", c) for c in out["score_level"]] + [
        ("systems", c) for c in out["system_level"]
    ]
    if fmt == "json":
        return dump_json(
            {
                "measure_a": a,
                "measure_b": b,
                "runs": out["runs"],
                "pairs": out["pairs"],
                "common_topics": out["topics"],
                "rbo_p": rbo_p,
                "correlations": [{"level": lvl, **c.to_dict()} for lvl, c in rows],
                "systems": out["systems"],
            }
        )
    if fmt in ("tsv", "csv"):
        return (table_tsv if fmt == "tsv" else table_csv)(
            ["level", "coefficient", "value", "p_value", "n"],
            [[lvl, _label(c, rbo_p), c.value, c.p_value, c.n] for lvl, c in rows],
        )
    header = ["level", "coefficient", "value", "p", "n"]
    body = [
        [
            lvl,
            _label(c, rbo_p),
            fmt_num(c.value),
            "-" if np.isnan(c.p_value) else fmt_p(c.p_value),
            str(c.n),
        ]
        for lvl, c in rows
    ]
    right = [False, False, True, True, True]
    head = (
        f"A = {a}, B = {b}: {len(out['runs'])} run{'s' if len(out['runs']) != 1 else ''}, "
        f"{out['pairs']} (run, topic) pairs; system means over {out['topics']} common topics"
    )
    sys_rows = [[s["run"], fmt_num(s["mean_a"]), fmt_num(s["mean_b"])] for s in out["systems"]]
    if fmt in ("markdown", "latex"):
        table = table_markdown if fmt == "markdown" else table_latex
        parts = [head + "\n" if fmt == "markdown" else f"% {head}\n", table(header, body, right)]
        if sys_rows:
            parts.append(table(["run", f"mean {a}", f"mean {b}"], sys_rows, [False, True, True]))
        return ("\n" if fmt == "markdown" else "").join(parts)
    parts = [f"# {head}\n", table_text(header, body, right)]
    if sys_rows:
        parts += [
            "\n",
            table_text(["run", f"mean {a}", f"mean {b}"], sys_rows, [False, True, True]),
        ]
    return "".join(parts)


def main(argv: list[str]) -> int:
    from ..errors import ParamError
    from ..measures.parse import parse_measure
    from ..support.checks import check_probability
    from ._options import evaluate_from_args, output_format, parse_measure_args, write_output

    args = build_parser().parse_args(argv)
    fmt = output_format(args)
    check_probability("--rbo-p", args.rbo_p)
    if args.all_pairs:
        return _all_pairs(args, fmt)
    if args.measures and (args.measure_a or args.measure_b):
        raise ParamError("name the measures with -m A -m B (or -m 'A B'), or with -a and -b")
    if args.measures:
        # -m A -m B, -m A B and -m 'A B' are one dialect: two measures, A against B; more
        # than two, every pair (as --all-pairs)
        parsed = parse_measure_args(args.measures)
        if len(parsed) > 2:
            return _all_pairs(args, fmt)
        if len(parsed) < 2:
            raise ParamError(
                f"cwlkit correlate needs two measures (-m A -m B); got {len(parsed)}"
                + (f" ({parsed[0].name})" if parsed else "")
            )
        ma, mb = parsed
    else:
        if args.tau_ap:
            raise ParamError(
                "--tau-ap is for --all-pairs (with two measures, tau_AP is always printed)"
            )
        if not args.measure_a or not args.measure_b:
            missing = [
                f
                for f, v in (("-a/--measure-a", args.measure_a), ("-b/--measure-b", args.measure_b))
                if not v
            ]
            raise ParamError(
                f"cwlkit correlate: the following arguments are required: {', '.join(missing)} "
                "(or -m A -m B; -m M1 -m M2 -m M3 ... for every pair of measures)"
            )
        ma, mb = parse_measure(args.measure_a), parse_measure(args.measure_b)
    if args.tau_ap:
        raise ParamError(
            "--tau-ap is for --all-pairs (with two measures, tau_AP is always printed)"
        )
    if args.max_residual is not None or args.level != "both":
        raise ParamError(
            "--level and --max-residual are for the matrix of every pair (--all-pairs)"
        )
    measures = [ma] if ma.name == mb.name else [ma, mb]
    results = evaluate_from_args(args, measures)
    out = compute(results, ma.name, mb.name, args.rbo_p)
    write_output(args, render(out, ma.name, mb.name, args.rbo_p, fmt))
    return 0


def _all_pairs(args, fmt: str) -> int:
    """``--all-pairs``: the correlation matrix of the -m measures."""
    from ..errors import ParamError
    from ..formats.correlation import format_correlation_matrix
    from ._options import apply_quiet, correlation_matrix, parse_measure_args, write_output

    if args.measure_a or args.measure_b:
        raise ParamError("--all-pairs takes its measures as -m M1 -m M2 ..., not -a/-b")
    from ..stats.matrix import ALL_COEFFICIENTS, COEFFICIENTS

    measures = parse_measure_args(args.measures)
    apply_quiet(args)
    cm = correlation_matrix(
        args,
        measures,
        f"--all-pairs needs at least 2 measures (-m); got {len(measures)}",
        coefficients=ALL_COEFFICIENTS if args.tau_ap else COEFFICIENTS,
    )
    write_output(args, format_correlation_matrix(cm, fmt))
    return 0
