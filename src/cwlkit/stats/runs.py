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
    jobs: int | None = None,
    progress: bool | None = None,
) -> dict[str, Results]:
    """``{run label: Results}`` for every run, in the order given (labels: file names), with
    :meth:`cwlkit.Evaluator.evaluate_many` (``gain`` maps labels to gains for the C/W/L
    metrics; ``jobs`` processes, default every core; ``progress`` a bar on stderr)."""
    from ..api import Evaluator

    ev = Evaluator(qrels_path, list(measures), order=order, topics=topics, gain=gain)
    return ev.evaluate_many(list(run_paths), jobs=jobs, progress=progress)
