"""Map work over processes, results in argument order (``jobs=``, ``--jobs``).

The shared state (an :class:`~cwlkit.api.Evaluator` with its qrels read and encoded, or the
qrels of ``cwlkit trec_eval``) is handed to each worker once, by the pool's initializer;
each task then ships only its own item (a run's path) and returns its result. With one job,
or one item, everything runs in this process. Results are identical to ``jobs=1``: each item
is evaluated by the same code, whole, in one process.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Generator, Sequence
from typing import Any, TypeVar

from ..support.checks import check_int
from ..support.threads import cores, set_share

S = TypeVar("S")
I = TypeVar("I")  # noqa: E741
R = TypeVar("R")

_STATE: Any = None
_FN: Any = None


def resolve_jobs(jobs: int | None) -> int:
    """``jobs`` checked; None means every available core (one in a daemonic process, such
    as a ``multiprocessing.Pool`` worker, which may not start processes)."""
    if jobs is None:
        import multiprocessing as mp

        return 1 if mp.current_process().daemon else cores()
    checked = check_int("jobs", jobs, least=1)
    assert checked is not None  # (None was taken above)
    return checked


def _init(fn: Callable, state: Any, share: int) -> None:
    global _STATE, _FN
    _STATE, _FN = state, fn
    set_share(share)


#: files below this size are sent to the workers of :func:`imap` several to a task
SMALL_FILE = 1 << 23
#: the most items of one task
MAX_CHUNK = 8


def chunk_for(paths: Sequence[Any], jobs: int | None) -> int:
    """Items to a task of :func:`imap` for these items: when every one is a local file of
    under ``SMALL_FILE`` bytes, about four tasks a worker of at most ``MAX_CHUNK`` items
    (a task is one message each way, about 0.7 ms of the caller's time); otherwise one."""
    n = min(resolve_jobs(jobs), len(paths))
    if n <= 1:
        return 1
    for p in paths:
        if not isinstance(p, (str, os.PathLike)):
            return 1
        try:
            if os.path.getsize(p) >= SMALL_FILE:
                return 1
        except OSError:  # (not a local file: read, and reported, in its task)
            return 1
    return max(1, min(MAX_CHUNK, len(paths) // (4 * n)))


def _call_chunk(items: list) -> tuple[list, BaseException | None]:
    """The results of consecutive items, and the exception that stopped them (if any)."""
    out: list = []
    try:
        for item in items:
            out.append(_FN(_STATE, item))
    except Exception as exc:  # (raised in the caller when this item's turn comes)
        return out, exc
    return out, None


def imap(
    fn: Callable[[S, I], R],
    state: S,
    items: Sequence[I],
    *,
    jobs: int | None = None,
    chunk: int = 1,
) -> Generator[R, None, None]:
    """Yield ``fn(state, item)`` for each item, in order, over ``jobs`` processes.

    ``fn`` must be a module-level function (workers look it up by name). An exception raised
    for an item is raised here, when that item's turn comes; the remaining work is cancelled.
    ``chunk`` items make one task (fewer messages between processes: for many small items;
    a worker holds a task's results until its last item is done).
    """
    n = min(resolve_jobs(jobs), len(items))
    if n <= 1:
        for item in items:
            yield fn(state, item)
        return
    import multiprocessing as mp
    from concurrent.futures import ProcessPoolExecutor

    # fork: the state is inherited, not pickled; elsewhere it is pickled once per worker
    ctx = mp.get_context("fork") if "fork" in mp.get_all_start_methods() else None
    from collections import deque
    from itertools import islice

    # at most 2 tasks a worker ahead of the caller: results not yet taken stay few (a
    # result is dropped here once yielded), whatever the number of items
    chunk = max(1, int(chunk))
    tasks = (list(items[i : i + chunk]) for i in range(0, len(items), chunk))
    share = max(1, cores() // n)
    with ProcessPoolExecutor(
        n, mp_context=ctx, initializer=_init, initargs=(fn, state, share)
    ) as ex:
        futures = deque(ex.submit(_call_chunk, t) for t in islice(tasks, 2 * n))
        try:
            while futures:
                results, error = futures.popleft().result()
                for task in tasks:
                    futures.append(ex.submit(_call_chunk, task))
                    break
                while results:
                    yield results.pop(0)
                if error is not None:
                    raise error
        finally:
            for f in futures:
                f.cancel()


class _Ticker:
    def __init__(self, bar: Any) -> None:
        self.bar = bar
        self.topics = 0

    def __call__(self, topics: int = 0, runs: int = 1) -> None:
        if self.bar is None:
            return
        self.topics += topics
        self.bar.set_postfix_str(f"{self.topics:,} topics", refresh=False)
        self.bar.update(runs)


class progress_bar:  # noqa: N801 (used as a context manager, like open)
    """``with progress_bar(total, desc, unit, enable) as tick: ... tick(topics)``: a bar on
    stderr (see :mod:`cwlkit.support.progress`) counting items and the topics they held."""

    def __init__(self, total: int, desc: str, unit: str, enable: bool | None) -> None:
        from ..support.progress import make_bar

        self.bar = make_bar(total, desc, unit, enable) if total > 1 else None

    def __enter__(self) -> _Ticker:
        return _Ticker(self.bar)

    def __exit__(self, *exc: object) -> None:
        if self.bar is not None:
            import time

            # the final count, even when the work took less than tqdm's refresh interval (but
            # not when it took less than the bar's delay: a short job shows no bar)
            if time.time() - self.bar.start_t >= self.bar.delay:
                self.bar.refresh()
            self.bar.close()
