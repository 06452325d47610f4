"""Shared by the examples: print (table, item, published, ours, note) rows, and the --out flag."""

from __future__ import annotations

import argparse
import tempfile
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction
from pathlib import Path


def decimals(published: str) -> int:
    """How many decimals the published number shows ("0.2" -> 1, ".67" -> 2, "3" -> 0)."""
    return len(published.split(".")[1]) if "." in published else 0


def value(published: str) -> float:
    """The published number ("0.25", ".67", or a fraction such as "2/7")."""
    return float(Fraction(published)) if "/" in published else float(published)


def at_precision(ours: float, published: str) -> str:
    """``ours`` printed to the published number's precision, rounded half up as the sources
    print (5/8 = 0.625 is the lecture's 0.63); a fraction as a fraction."""
    if "/" in published:
        f = Fraction(ours).limit_denominator(10_000)
        return published if f == Fraction(published) else str(f)
    step = Decimal(1).scaleb(-decimals(published))
    return str(Decimal(repr(float(ours))).quantize(step, rounding=ROUND_HALF_UP))


def reproduces(published: str, ours: float) -> bool:
    """True when ours, rounded to the published precision, prints as the published number."""
    if "/" in published:
        return at_precision(ours, published) == published
    return at_precision(ours, published) == f"{float(published):.{decimals(published)}f}"


def show(rows: list[tuple[str, str, str, float, str]], width: int = 40, num: int = 10) -> None:
    """Each table: the published number, ours to its precision, the difference at that precision,
    and the note (why a row differs; empty when it reproduces)."""
    current = None
    for table, item, published, ours, note in rows:
        if table != current:
            current = table
            print(f"\n{table}")
            print(f"{'item':<{width}} {'published':>{num}} {'ours':>{num}} {'diff':>10}  note")
        shown = at_precision(ours, published)
        if "/" in published:
            diff = ours - value(published)
            diff_s = f"{diff:+.1e}" if abs(diff) > 1e-12 else "0"
        else:
            d = decimals(published)
            diff = float(shown) - float(published)
            diff_s = f"{diff:+.{d}f}" if round(diff, d) != 0 else f"{0:.{d}f}"
        line = f"{item:<{width}} {published:>{num}} {shown:>{num}} {diff_s:>10}  {note}"
        print(line.rstrip())


def out_dir(
    description: str, argv: list[str] | None, prefix: str, figures: bool = True
) -> Path | None:
    """Parse ``--out DIR`` and create it; without it, a new temporary directory when the script
    draws figures (``None`` when it draws none)."""
    ap = argparse.ArgumentParser(description=description)
    ap.add_argument("--out", type=Path, help="directory for the figures (default: a temp dir)")
    args = ap.parse_args(argv)
    if args.out is None and not figures:
        return None
    out = args.out or Path(tempfile.mkdtemp(prefix=f"cwlkit-{prefix}-"))
    out.mkdir(parents=True, exist_ok=True)
    return out
