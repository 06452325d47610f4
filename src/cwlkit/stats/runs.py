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
    gain: str = "auto",
) -> dict[str, Results]:
    """``{run label: Results}`` for every run, in the order given (labels: file names), with
    :class:`cwlkit.Evaluator` (``gain`` maps labels to gains for the C/W/L metrics)."""
    from ..api import Evaluator, named_runs
    from ..support.progress import track

    ev = Evaluator(qrels_path, list(measures), order=order, topics=topics, gain=gain)
    items = named_runs(list(run_paths))  # the names evaluate_many gives (file names)
    return {
        name: ev.evaluate(run, name=name)
        for name, run in track(items, total=len(items), desc="evaluating runs", unit="run")
    }
