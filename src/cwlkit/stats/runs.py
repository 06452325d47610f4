"""Read a qrels file and several runs, and evaluate each run (for the comparing CLIs)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

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


def check_evaluation(options: dict[str, Any], jobs: Any, progress: Any) -> int | None:
    """Check the evaluation options the comparing functions pass on to
    :class:`cwlkit.Evaluator` before they reach it: ``jobs`` (an integer >= 1 or None),
    ``progress`` (True, False or None), ``order``, ``topics`` (choices) and ``gain`` (a gain
    mapping's name or a GainMap), when given. Returns ``jobs``."""
    from ..core.gains import GainMap
    from ..plan.options import TOPIC_RULES
    from ..support.checks import check_bool, check_choice, check_int, refuse

    if progress is not None:
        check_bool("progress", progress)
    if "order" in options:
        check_choice("order", options["order"], ("score", "rank", "file"))
    if "topics" in options:
        check_choice("topics", options["topics"], TOPIC_RULES)
    if "gain" in options and not isinstance(options["gain"], (str, GainMap)):
        raise refuse("gain", "a gain mapping's name or a GainMap", options["gain"])
    return check_int("jobs", jobs, least=1, none=True)


def check_runs(runs: Any) -> list[tuple[str, Any]]:
    """``(name, run)`` pairs of ``runs`` (:func:`cwlkit.api.named_runs`), at least one."""
    from ..api import named_runs
    from ..errors import ParamError

    if runs is None:
        raise ParamError("runs must be a run or a list or mapping of runs; got None")
    items = named_runs(runs)
    if not items:
        raise ParamError("no runs given")
    return items
