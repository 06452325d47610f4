"""Read a qrels file and several runs, and evaluate each run (for the comparing CLIs)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # pragma: no cover
    from ..measures.base import Measure
    from ..results import Results


def evaluate_runs(
    qrels_path: str,
    run_paths: Sequence[str],
    measures: Sequence[Measure],
    *,
    order: str = "score",
    topics: str = "both",
    gain: str = "identity",
) -> dict[str, Results]:
    """``{run label: Results}`` for every run, in the order given (labels: file names), with
    :class:`cwlkit.Evaluator` (``gain`` maps labels to gains for the C/W/L metrics)."""
    from .._progress import track
    from ..api import Evaluator, _named_runs

    ev = Evaluator(qrels_path, list(measures), order=order, topics=topics, gain=gain)
    items = _named_runs(list(run_paths))  # the names evaluate_many gives (file names)
    return {
        name: ev.evaluate(run, name=name)
        for name, run in track(items, total=len(items), desc="evaluating runs", unit="run")
    }


def split_top_level(text: str) -> list[str]:
    """Split on whitespace outside parentheses and quotes: ``"P@10 RBP(p=0.8, x=1)"``."""
    out, cur, depth, quote = [], [], 0, ""
    for ch in text:
        if quote:
            quote = "" if ch == quote else quote
        elif ch in "'\"":
            quote = ch
        elif ch == "(":
            depth += 1
        elif ch == ")":
            depth = max(0, depth - 1)
        elif ch.isspace() and depth == 0:
            if cur:
                out.append("".join(cur))
                cur = []
            continue
        cur.append(ch)
    if cur:
        out.append("".join(cur))
    return out


def parse_measure_args(specs: Sequence[str]) -> list[Measure]:
    """Parse repeated ``-m`` values, each one or more measures separated by spaces (and each
    may name several, e.g. trec_eval's ``P.5,10``), dropping repeats of a canonical name."""
    from ..api import parse_list

    out: list[Measure] = []
    seen: set[str] = set()
    for m in parse_list([tok for spec in specs for tok in split_top_level(spec)]):
        if m.name not in seen:
            seen.add(m.name)
            out.append(m)
    return out
