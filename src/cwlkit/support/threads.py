"""The cores this process may use, and a pool of threads for kernels that release the GIL.

In a worker of :func:`cwlkit.executors.processes.imap` the cores are that worker's share of
the machine (:func:`set_share`), so that two workers on two cores run no threads of their own.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

I = TypeVar("I")  # noqa: E741
R = TypeVar("R")

#: in a worker process, the cores it may use for threads (its share of the machine)
_SHARE: int | None = None


def set_share(share: int | None) -> None:
    """Set the cores this process may use for threads (a worker's share; None: all)."""
    global _SHARE
    _SHARE = share


def cores() -> int:
    """The number of cores this process may run on: in a worker process, its share of them
    (see :func:`set_share`: one of two workers on two cores runs no threads of its own)."""
    if _SHARE is not None:
        return _SHARE
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not Linux
        return max(1, os.cpu_count() or 1)


_THREADS: tuple[int, Any] | None = None  # (pid, ThreadPoolExecutor) of this process


def thread_map(
    fn: Callable[[I], R], items: Sequence[I], *, least: int = 4, each: bool = False
) -> list[R]:
    """``[fn(item) for item in items]``, the items split into one contiguous part per core,
    each part run in order by a thread of this process (for kernels that release the GIL,
    such as pyarrow's: block-wise hashing of millions of strings; numpy's on large arrays).
    With ``each``, every item is a task of its own, taken by the next free thread (items of
    unequal cost, such as the measures of one evaluation). Fewer than ``least`` items, or one
    core: run here, in order. Results are in the order of ``items`` either way.
    """
    n = cores()
    if n <= 1 or len(items) < least:
        return [fn(item) for item in items]
    global _THREADS
    if _THREADS is None or _THREADS[0] != os.getpid():  # (threads do not survive a fork)
        from concurrent.futures import ThreadPoolExecutor

        _THREADS = (os.getpid(), ThreadPoolExecutor(n, thread_name_prefix="cwlkit"))
    if each:
        return list(_THREADS[1].map(fn, items))
    step = -(-len(items) // n)
    parts = [items[i : i + step] for i in range(0, len(items), step)]
    done = _THREADS[1].map(lambda part: [fn(item) for item in part], parts)
    return [r for part in done for r in part]
