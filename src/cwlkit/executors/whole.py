"""A run scored whole: one ranking batch of every topic, in this process."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # pragma: no cover
    from ..io.trec import Run
    from ..plan import Plan
    from ..results import Results


def evaluate_whole(plan: Plan, run: Run, name: str | None, *, release: bool) -> Results:
    """Every measure of ``plan`` on the loaded ``run``, in one batch. Topics in byte order,
    or (``order="file"``) in the order they first appear in the run. ``release``: drop the
    run's cached codes once the batch is built (a run read here, not the caller's)."""
    from ..plan import first_appearance, reorder

    batch = plan.build(plan.qrels, run)
    first = first_appearance(run) if plan.options.order == "file" else None
    if release:
        run.release_codes()  # the batch holds what is needed from here on
    res = plan.score(batch, run=name or run.runid)
    return res if first is None else reorder(res, first)
