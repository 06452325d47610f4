"""Read a qrels file and several runs, and evaluate each run (for the comparing CLIs)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from ._format import run_labels

if TYPE_CHECKING:  # pragma: no cover
    from ..io.trec import Qrels, Run
    from ..measures.base import Measure
    from ..results import Results


def read_all(qrels_path: str, run_paths: Sequence[str]) -> tuple[Qrels, list[Run]]:
    """Read the qrels and every run, two files at a time (parsing releases the GIL).

    Errors are raised in argument order (the qrels' first), as reading them one by one would.
    """
    from concurrent.futures import ThreadPoolExecutor

    from ..io.trec import read_qrels, read_run

    with ThreadPoolExecutor(max_workers=2) as pool:
        fq = pool.submit(read_qrels, qrels_path)
        fr = [pool.submit(read_run, p) for p in run_paths]
        q = fq.result()
        runs = [f.result() for f in fr]
    return q, runs


def evaluate_runs(
    qrels_path: str,
    run_paths: Sequence[str],
    measures: Sequence[Measure],
    *,
    order: str = "score",
    topics: str = "run",
    gain: str = "identity",
) -> dict[str, Results]:
    """``{run label: Results}`` for every run, in the order given (labels: file names).

    With the default identity gain this is :func:`cwlkit.evaluate`; another ``gain``
    (``linear``, ``exp``, ``err`` or a table, as ``cwlkit cwl --gain``) maps the labels for
    the C/W/L metrics, whose EU is then reported (other measures keep their own gains).
    """
    from ..api import cwl_results, evaluate
    from ..core.batch import build_batch
    from ..core.gains import GainMap
    from ..measures.cwl.evaluate import prepare

    gm = GainMap(gain)  # a bad table is reported before any file is read
    q, runs = read_all(qrels_path, run_paths)
    labels = run_labels(run_paths)
    out: dict[str, Results] = {}
    for lab, r in zip(labels, runs, strict=True):
        if gain == "identity":
            out[lab] = evaluate(q, r, list(measures), order=order, topics=topics)
        else:
            batch = build_batch(q, r, order=order, topics=topics)  # type: ignore[arg-type]
            out[lab] = cwl_results(
                list(measures),
                batch,
                prepare(batch, gain=gm),
                residuals=False,
                max_depth=None,
                run=r.runid,
            )
    return out


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
