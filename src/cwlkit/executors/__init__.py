"""The ways of running an evaluation, beneath the API: a prepared :class:`~cwlkit.plan.Plan`
and a run in, :class:`~cwlkit.results.Results` out.

- one topic at a time (:meth:`~cwlkit.plan.Plan.small`): a pytrec_eval dict of a few topics,
  each ranked alone (a few numpy calls on its scores) and scored by the measures' one-topic
  kernels in Python (no batch);
- whole (:mod:`~cwlkit.executors.whole`): the run read and scored in one batch;
- topic chunks (:mod:`~cwlkit.executors.chunks`): a run read whole, scored ``chunk_topics``
  topics at a time, over processes or on Dask;
- streamed (:mod:`~cwlkit.executors.streamed`): a text file read in blocks into topic
  buckets on disk, scored a bucket at a time, over processes;
- processes (:mod:`~cwlkit.executors.processes`): runs, chunks or buckets over ``jobs``
  worker processes, results in order;
- Dask (:mod:`~cwlkit.executors.dask`): runs, chunks or a dask DataFrame's partitions on a
  cluster.

Which one runs is decided by :func:`evaluate_run` from the options and the input
(:mod:`~cwlkit.executors.choose` holds every threshold). Each scores a topic with the same
code (:meth:`~cwlkit.plan.Plan.score`), from that topic's lines alone, so every way gives the
same values, to the bit. Nothing here imports the API. Importing this package loads neither
numpy nor pyarrow.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .choose import (
    DIRECT_CHUNKED_ROWS,
    buckets_for,
    held_in_process,
    is_dask_frame,
    small_dict,
    text_file,
)
from .processes import resolve_jobs

if TYPE_CHECKING:  # pragma: no cover
    from collections.abc import Iterator
    from types import EllipsisType

    from ..plan import Plan
    from ..results import Results


def evaluate_run(
    plan: Plan,
    run: Any,
    *,
    name: str | None = None,
    jobs: int | None = None,
    client: Any = None,
    chunk_topics: int | str | None | EllipsisType = ...,
    progress: bool | None = False,
) -> Results:
    """Score one run (any input form) with every measure of ``plan``.

    A dask DataFrame with a ``client`` goes to the cluster by partitions; a text run file with
    ``chunk_topics`` is streamed (``"auto"``: when large); a run read whole with an integer
    ``chunk_topics`` is scored a chunk at a time over ``jobs`` processes (on the cluster with
    a ``client``); any other run is scored whole here. ``chunk_topics``: the plan's option
    unless given. ``progress``: a bar on stderr over the buckets of a streamed run (None:
    when stderr is a terminal).
    """
    _check(plan)
    if jobs is not None:
        resolve_jobs(jobs)  # (checked even when nothing runs in processes)
    if chunk_topics is ...:
        chunk_topics = plan.options.chunk_topics
    else:
        from ..core.chunks import check_chunk

        check_chunk(chunk_topics, auto=True)
    if client is None and small_dict(run):  # a few topics: scored a topic at a time
        got = plan.small(run, name)
        if got is not None:
            return got
    if client is not None and is_dask_frame(run):
        from .dask import evaluate_frame

        return evaluate_frame(plan, client, run, name, evaluate_run)
    path = text_file(run) if chunk_topics is not None else None
    if path is not None and chunk_topics is not None and not plan.diversity and client is None:
        buckets = buckets_for(path, chunk_topics)
        if buckets is not None:
            from .streamed import evaluate_streamed

            qrels = plan.qrels_read if plan.qrels_read is not None else text_file(plan.qrels_source)
            return evaluate_streamed(plan, qrels, path, buckets, name, jobs=jobs, progress=progress)
    if client is None:  # a run held in Python: its batch made with numpy alone
        limit = DIRECT_CHUNKED_ROWS if isinstance(chunk_topics, int) else None
        batch = plan.direct(run, name, max_rows=limit)
        if batch is not None:
            return plan.score(batch, run=name or batch.runid)
    r = plan.load_run(run, name, join_qrels=True)
    if isinstance(chunk_topics, int) and not plan.diversity:
        from .chunks import evaluate_chunks

        return evaluate_chunks(plan, r, name, chunk_topics, jobs=jobs, client=client)
    from .whole import evaluate_whole

    return evaluate_whole(plan, r, name, release=r is not run)


def evaluate_runs(
    plan: Plan,
    items: list[tuple[str, Any]],
    *,
    jobs: int | None = None,
    progress: bool | None = None,
    client: Any = None,
) -> dict[str, Results]:
    """Score several ``(name, run)``: ``{name: Results}`` in the order given.

    ``jobs`` processes (default: every available core) score the runs, each run whole in one
    process, so the results are identical to ``jobs=1``; one run alone has its topic chunks
    scored over ``jobs`` processes. Without ``jobs``, runs held in Python of at most
    :data:`~cwlkit.executors.choose.HELD_POOL_ROWS` rows in all are scored in this process
    (no pool). With a Dask ``client`` each run is one task on the
    cluster. An error in any run is raised (naming its file and line) before any result is
    returned. ``progress``: a bar on stderr (runs and topics done).
    """
    from .processes import chunk_for, imap, progress_bar, resolve_jobs

    _check(plan)
    if jobs is not None:
        resolve_jobs(jobs)
    if len(items) > 1:
        _ = plan.qrels  # read once for every run, streamed or not
    done: Iterator[Results]
    if client is not None:
        from .dask import map_runs

        done = map_runs(plan, client, items, evaluate_run)
    elif len(items) == 1:  # the processes score its chunks, if any
        name, run = items[0]
        done = iter([evaluate_run(plan, run, name=name, jobs=jobs)])
    elif held_in_process([run for _, run in items], jobs):  # (small runs held in Python)
        done = (evaluate_item(plan, item) for item in items)
    else:
        chunk = chunk_for([run for _, run in items], jobs)
        done = imap(evaluate_item, plan, items, jobs=jobs, chunk=chunk)
    out: dict[str, Results] = {}
    with progress_bar(len(items), "runs", "run", progress) as tick:
        for (name, _), res in zip(items, done, strict=True):
            out[name] = res
            tick(len(res.topics))
    return out


def _check(plan: Plan) -> None:
    """An evaluation needs at least one measure."""
    if not plan.measures:
        from ..errors import ParamError

        raise ParamError("no measure to compute: name at least one (e.g. 'AP', 'nDCG@10')")


def evaluate_item(plan: Plan, item: tuple[str, Any]) -> Results:
    """One ``(name, run)`` of :func:`evaluate_runs`, scored in this process (its chunks, if
    any, too): module level, run in worker processes and Dask tasks."""
    name, run = item
    return evaluate_run(plan, run, name=name, jobs=1)
