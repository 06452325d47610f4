"""A run read whole, scored ``chunk_topics`` topics at a time (byte order), over processes or
on a Dask cluster; the parts joined in order (:func:`cwlkit.plan.join_parts`)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # pragma: no cover
    from ..core.chunks import Chunks
    from ..io.trec import Run
    from ..plan import Plan
    from ..results import Results


def evaluate_chunks(
    plan: Plan, run: Run, name: str | None, size: int, *, jobs: int | None, client: Any
) -> Results:
    """Every measure of ``plan`` on the loaded ``run``, ``size`` topics at a time, over
    ``jobs`` processes (each worker is handed the plan and the run's chunk plan once, by
    fork, and a task is a chunk's index; at most ``2 * jobs`` chunks are in flight), or on
    the workers of a Dask ``client``. Each chunk is scored whole by the same code and the
    parts are joined in order, so the Results are those of ``jobs=1`` to the bit."""
    from ..core.chunks import Chunks, split
    from ..plan import first_appearance, join_parts, reorder

    label = name or run.runid
    if client is not None:
        from .dask import score_chunks

        parts = score_chunks(plan, client, split(plan.qrels, run, plan.options.topics, size), label)
    else:
        from .processes import imap

        chunks = Chunks(plan.qrels, run, plan.options.topics, size)
        parts = list(imap(score_chunk, (plan, chunks, label), range(chunks.n), jobs=jobs))
    first = first_appearance(run) if plan.options.order == "file" else None
    res = join_parts(parts)
    return res if first is None else reorder(res, first)


def score_chunk(state: tuple[Plan, Chunks, str], k: int) -> Results:
    """Chunk ``k`` (``state``: the plan, the run's :class:`~cwlkit.core.chunks.Chunks`, the
    run's name) scored: module level, run in worker processes."""
    plan, chunks, run = state
    q, part = chunks.chunk(k)
    return plan.score(plan.build(q, part), run=run)
